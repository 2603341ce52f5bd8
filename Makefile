# powersched: plain GNU make. `make` builds build/powersched; `make check`
# runs every test (unit, ASan+UBSan unit, CLI, fuzz smoke, the live tests in
# QEMU); `make demo` is the
# main job; `make bench` prints speed figures.

B ?= build
CC ?= cc
PKGS := hwloc libsystemd json-c
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS := $(shell pkg-config --libs $(PKGS))
# cairo is for the executable's pictures only; the library does not use it
CAIRO_CFLAGS := $(shell pkg-config --cflags cairo)
CAIRO_LIBS := $(shell pkg-config --libs cairo)
# json-c reads the state files for status's text (cli only)
JSONC_CFLAGS := $(shell pkg-config --cflags json-c)
JSONC_LIBS := $(shell pkg-config --libs json-c)
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat -Wformat-security
OPT ?= -O2 -g
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ifeq ($(SAN),1)
OPT := -O1 -g $(SAN_FLAGS)
LDSAN := $(SAN_FLAGS)
endif
# SCX=1: the sched_ext backend is built in (clang-19, libbpf, bpftool, and
# sid's vmlinux.h fetched by tools/scx-deps.sh: mk/scx.mk); SCX=0: without
# it (-b scx then says so). The default: 1 where clang-19, bpftool and
# libbpf's headers are all here, else 0 (said once)
ifeq ($(origin SCX),undefined)
SCX := $(shell command -v clang-19 >/dev/null 2>&1 && command -v bpftool >/dev/null 2>&1 && \
	[ -f /usr/include/bpf/libbpf.h ] && echo 1 || echo 0)
ifeq ($(SCX),0)
$(info powersched: no clang-19, bpftool or libbpf-dev here: building without the sched_ext backend (SCX=0))
endif
endif
ifeq ($(SCX),1)
SCX_DEFS := -DPS_HAVE_SCX
SCX_LINK := -Wl,-Bstatic -lbpf -Wl,-Bdynamic -lelf -lz
endif
CFLAGS_ALL := -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) -Iinclude -Ilib -Isim $(SCX_DEFS) $(PKG_CFLAGS) $(CPPFLAGS) $(CFLAGS)
LDLIBS_ALL := $(PKG_LIBS) $(SCX_LINK) -lm $(LDLIBS)

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

.PHONY: all unit unit-asan check cli-test vm-test demo bench fuzz fuzz-smoke clean format \
	install uninstall deb pkg-test vm-systemd
all: $(B)/powersched

# the sched_ext scheduler, its test loader and its guest (mk/scx.mk)
include mk/scx.mk

$(B)/%.o: %.c $(wildcard include/ps/*.h lib/*.h sim/*.h live/*.h cli/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

# the backend embeds the scheduler: its skeleton (with the object) first
ifeq ($(SCX),1)
$(B)/live/backend_scx.o: live/backend_scx.c $(B)/bpf/powersched.skel.h bpf/powersched_scx.h bpf/powersched_scx_user.h \
		$(wildcard include/ps/*.h live/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -std=gnu11 -I$(B)/bpf -Ibpf -c -o $@ $<
endif

$(B)/cli/plot.o: cli/plot.c $(wildcard include/ps/*.h cli/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(CAIRO_CFLAGS) -c -o $@ $<

$(B)/cli/cmd_status.o: cli/cmd_status.c $(wildcard include/ps/*.h cli/*.h)
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
	$(CC) $(LDSAN) $(LDFLAGS) -o $@ $(CLI_OBJ) $(B)/libpowersched.a $(CAIRO_LIBS) $(JSONC_LIBS) $(LDLIBS_ALL)

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
	sh tests/cli/attach.sh $(B)/powersched
	bash tests/cli/completion.sh $(B)/powersched
	sh tests/cli/metrics.sh $(B)/powersched
	sh tests/cli/errors.sh $(B)/powersched
	sh tests/cli/readme.sh $(B)/powersched

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
$(B)/fuzz/fuzz_status: cli/cmd_status.c cli/common.c cli/statefile.c cli/cli.h

fuzz: $(FUZZ_BIN)

fuzz-smoke: $(FUZZ_BIN)
	@set -e; for f in $(FUZZ_BIN); do n=$$(basename $$f); \
		mkdir -p $(B)/fuzz/corpus-$$n; \
		echo "== $$n for $(FUZZ_SECONDS) s"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=0 \
			$(B)/fuzz/corpus-$$n fuzz/seeds/$$n 2>&1 | tail -n 2; done

# One after another (each step builds in parallel), so that output stays in
# order and the benchmarks run on a quiet machine.
# every suite runs even when one before it failed; a table at the end
check:
	@sh tools/check.sh "$(MAKE)" all unit unit-asan cli-test pkg-test fuzz-smoke \
		vm-test vm-systemd scx-vm bench

# Installation: PREFIX for where it runs, DESTDIR for a staging root
# (packaging). The unit's ExecStart names $(BINDIR); the daemon config goes
# to /etc/powersched (where the daemon reads it), never over an existing one.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system
DOCDIR ?= $(PREFIX)/share/doc/powersched
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
install: $(B)/powersched
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) \
		$(DESTDIR)$(SYSCONFDIR)/powersched $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(BASHCOMPDIR)
	install -m 0755 $(B)/powersched $(DESTDIR)$(BINDIR)/powersched
	install -m 0644 man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 man/*.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 man/*.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 0644 dist/bash-completion/powersched $(DESTDIR)$(BASHCOMPDIR)/powersched
	sed 's|@BINDIR@|$(BINDIR)|g' dist/powersched.service \
		>$(DESTDIR)$(UNITDIR)/powersched.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/powersched.service
	[ -e $(DESTDIR)$(SYSCONFDIR)/powersched/daemon.conf ] || \
		install -m 0644 dist/daemon.conf $(DESTDIR)$(SYSCONFDIR)/powersched/daemon.conf

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/powersched $(DESTDIR)$(UNITDIR)/powersched.service \
		$(DESTDIR)$(BASHCOMPDIR)/powersched
	for m in man/*.[158]; do s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m#man/}; done

# The Debian package (debian/), built out of tree in $(B)/deb so the
# working tree stays clean: $(B)/deb/powersched_VERSION_ARCH.deb
deb: $(B)/deb/stamp
$(B)/deb/stamp: $(B)/powersched $(wildcard debian/* debian/source/* dist/* man/*)
	sh tools/build-deb.sh $(B)/deb
	touch $@

# the package under real systemd in a Debian 12 guest (tests/vm/systemd.sh)
vm-systemd: $(B)/deb/stamp
	sh tests/vm/systemd.sh $$(ls $(B)/deb/powersched_*.deb) $(B)/vm-systemd

# make install into a staging root, then the .deb and lintian on it
pkg-test: $(B)/powersched
	sh tests/pkg/install.sh $(B)/powersched $(B)
	touch $(B)/deb/stamp
	sh tests/cli/noscx.sh $(B)/noscx

demo: $(B)/powersched
	sh tools/demo.sh $(B)/powersched

format:
	clang-format -i $(LIB_SRC) $(CLI_SRC) include/ps/*.h

clean:
	rm -rf build
