# powersched: plain GNU make. `make` builds build/powersched; `make check`
# runs every test (unit, ASan+UBSan unit, CLI, fuzz smoke, the live tests in
# QEMU); `make demo` is the
# main job; `make bench` prints speed figures.

B ?= build
CC ?= cc
PKGS := hwloc
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS := $(shell pkg-config --libs $(PKGS))
# cairo is for the executable's pictures only; the library does not use it
CAIRO_CFLAGS := $(shell pkg-config --cflags cairo)
CAIRO_LIBS := $(shell pkg-config --libs cairo)
# json-c reads the state files for status's text (cli only)
JSONC_CFLAGS := $(shell pkg-config --cflags json-c)
JSONC_LIBS := $(shell pkg-config --libs json-c)
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
OPT ?= -O2 -g
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ifeq ($(SAN),1)
OPT := -O1 -g $(SAN_FLAGS)
LDSAN := $(SAN_FLAGS)
endif
CFLAGS_ALL := -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) -Iinclude -Ilib -Isim $(PKG_CFLAGS) $(CFLAGS)
LDLIBS_ALL := $(PKG_LIBS) -lm $(LDLIBS)

LIB_SRC := $(wildcard lib/*.c sim/*.c live/*.c)
CLI_SRC := $(wildcard cli/*.c)
MODELS := $(sort $(wildcard models/*.model))
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o) $(B)/models_builtin.o
CLI_OBJ := $(CLI_SRC:%.c=$(B)/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
BENCH_SRC := $(wildcard bench/*.c)
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(B)/bench/%)
FUZZ_SRC := $(wildcard fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:fuzz/%.c=$(B)/fuzz/%)
FUZZ_SECONDS ?= 15

.PHONY: all unit unit-asan check cli-test vm-test demo bench fuzz fuzz-smoke clean format
all: $(B)/powersched

$(B)/%.o: %.c $(wildcard include/ps/*.h lib/*.h sim/*.h live/*.h cli/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

$(B)/cli/plot.o: cli/plot.c $(wildcard include/ps/*.h cli/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(CAIRO_CFLAGS) -c -o $@ $<

$(B)/cli/status.o: cli/status.c $(wildcard include/ps/*.h cli/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(JSONC_CFLAGS) -c -o $@ $<

$(B)/models_builtin.c: $(MODELS) tools/embed-models.sh
	@mkdir -p $(dir $@)
	sh tools/embed-models.sh $@ $(MODELS)

$(B)/models_builtin.o: $(B)/models_builtin.c
	$(CC) $(CFLAGS_ALL) -Wno-missing-prototypes -c -o $@ $<

$(B)/libpowersched.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(B)/powersched: $(CLI_OBJ) $(B)/libpowersched.a
	$(CC) $(LDSAN) -o $@ $(CLI_OBJ) $(B)/libpowersched.a $(CAIRO_LIBS) $(JSONC_LIBS) $(LDLIBS_ALL)

$(B)/tests/%: tests/unit/%.c tests/unit/helpers.h $(B)/libpowersched.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/unit -Isim $(shell pkg-config --cflags cmocka) -o $@ $< \
		$(B)/libpowersched.a $(LDSAN) $(shell pkg-config --libs cmocka) $(LDLIBS_ALL)

$(B)/bench/%: bench/%.c $(B)/libpowersched.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(B)/libpowersched.a $(LDSAN) $(LDLIBS_ALL)

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; \
		PS_SRCDIR=$(CURDIR) $$t; done

unit-asan:
	$(MAKE) B=build/asan SAN=1 unit cli-test

# fontconfig (under cairo's text) keeps caches for the process's life
cli-test: export LSAN_OPTIONS = suppressions=$(CURDIR)/tests/lsan.supp
cli-test: $(B)/powersched
	sh tests/cli/run.sh $(B)/powersched
	sh tests/cli/sim.sh $(B)/powersched
	sh tests/cli/calibrate.sh $(B)/powersched
	sh tests/cli/live.sh $(B)/powersched
	sh tests/cli/user.sh $(B)/powersched
	bash tests/cli/completion.sh $(B)/powersched

# the live enforcer in a real kernel (QEMU, TCG) with the seeds' topology
vm-test: $(B)/powersched
	sh tests/vm/run-all.sh $(B)/powersched

# bench_live runs powersched itself: it gets the binary's path
bench: $(BENCH_BIN) $(B)/powersched
	@set -e; for b in $(BENCH_BIN); do echo "== $$b"; $$b $(B)/powersched; done

# libFuzzer harnesses, built with clang against the library sources.
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
	-Iinclude -Ilib -Isim $(PKG_CFLAGS) $(JSONC_CFLAGS)
$(B)/fuzz/%: fuzz/%.c $(LIB_SRC) $(B)/models_builtin.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -o $@ $< $(LIB_SRC) $(B)/models_builtin.c $(LDLIBS_ALL) $(JSONC_LIBS)

# status's formatter is cli code: its harness includes it
$(B)/fuzz/fuzz_status: cli/status.c cli/common.c cli/cli.h

fuzz: $(FUZZ_BIN)

fuzz-smoke: $(FUZZ_BIN)
	@set -e; for f in $(FUZZ_BIN); do n=$$(basename $$f); \
		mkdir -p $(B)/fuzz/corpus-$$n; \
		echo "== $$n for $(FUZZ_SECONDS) s"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=0 \
			$(B)/fuzz/corpus-$$n fuzz/seeds/$$n 2>&1 | tail -n 2; done

# One after another (each step builds in parallel), so that output stays in
# order and the benchmarks run on a quiet machine.
check:
	$(MAKE) all
	$(MAKE) unit
	$(MAKE) unit-asan
	$(MAKE) cli-test
	$(MAKE) fuzz-smoke
	$(MAKE) vm-test
	$(MAKE) bench
	@echo "check: all tests passed"

demo: $(B)/powersched
	sh tools/demo.sh $(B)/powersched

format:
	clang-format -i $(LIB_SRC) $(CLI_SRC) include/ps/*.h

clean:
	rm -rf build
