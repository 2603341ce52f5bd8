# The sched_ext backend's build (included by the Makefile; works alone too:
# `make -f mk/scx.mk scx`). Host: Debian 12 with clang-19, libbpf-dev
# (1.1.2), bpftool (7.1), libelf-dev, zlib1g-dev; the kernel's BTF comes from
# Debian sid (tools/scx-deps.sh, fetched once into $(B)/scx-deps).
#   make scx      -> $(B)/bpf/powersched.bpf.o, $(B)/bpf/powersched.skel.h,
#                    $(B)/scx-try
#   make scx-vm   -> tests/vm/scx/run.sh $(B)/vm-scx (QEMU, a sid guest)
#   make scx-rtapp -> the rt-app files under scx against the sim (a table)
#   make scx-deps -> fetch vmlinux.h again (when sid's kernel changed)

B ?= build
SCX_CLANG ?= clang-19
SCX_BPFTOOL ?= bpftool
SCX_CC ?= $(CC)
SCX_DEPS := $(B)/scx-deps
SCX_VMLINUX := $(SCX_DEPS)/vmlinux.h
SCX_BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -DBPF_NO_KFUNC_PROTOTYPES \
	-Wall -Wno-missing-declarations -I$(SCX_DEPS) -Ibpf
SCX_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -I$(B)/bpf -Ibpf
# libbpf linked statically: the loader runs with Debian 12's libbpf 1.1
# semantics wherever it goes; libelf and zlib stay shared
SCX_LIBS := -Wl,-Bstatic -lbpf -Wl,-Bdynamic -lelf -lz

.PHONY: scx scx-vm scx-rtapp scx-bench scx-deps scx-clean
scx: $(B)/scx-try $(B)/idle-threads

# the guest's many idle threads (the daemon's cost, tests/vm/scx)
$(B)/idle-threads: tests/vm/scx/idle-threads.c
	$(SCX_CC) $(SCX_CFLAGS) -pthread -o $@ $<

$(SCX_VMLINUX):
	sh tools/scx-deps.sh $(SCX_DEPS)

scx-deps:
	sh tools/scx-deps.sh $(SCX_DEPS)

$(B)/bpf/powersched.bpf.o: bpf/powersched.bpf.c bpf/powersched_scx.h $(SCX_VMLINUX)
	@mkdir -p $(dir $@)
	$(SCX_CLANG) $(SCX_BPF_CFLAGS) -c -o $(B)/bpf/powersched.tmp.o $<
	$(SCX_BPFTOOL) gen object $@ $(B)/bpf/powersched.tmp.o
	rm -f $(B)/bpf/powersched.tmp.o

$(B)/bpf/powersched.skel.h: $(B)/bpf/powersched.bpf.o
	$(SCX_BPFTOOL) gen skeleton $< name ps_scx > $@.tmp
	mv $@.tmp $@

$(B)/scx-try: tests/vm/scx/scx-try.c $(B)/bpf/powersched.skel.h bpf/powersched_scx.h bpf/powersched_scx_user.h
	$(SCX_CC) $(SCX_CFLAGS) -o $@ $< $(SCX_LIBS)

SCX_VM_ENV = PS_SCX_IDLE=$(CURDIR)/$(B)/idle-threads PS_SCX_TRY=$(CURDIR)/$(B)/scx-try \
	PS_SCX_POWERSCHED=$(CURDIR)/$(B)/powersched
scx-vm: $(B)/scx-try $(B)/idle-threads $(B)/powersched
	$(SCX_VM_ENV) sh tests/vm/scx/run.sh $(B)/vm-scx

# the EAS-style rt-app files under the scx and affinity backends against
# the sim, one boot of about 11 minutes: run by name, like the 6.1 guest's
# rtapp scenario (a table, docs/testing.md; not in make check)
scx-rtapp: $(B)/scx-try $(B)/idle-threads $(B)/powersched
	$(SCX_VM_ENV) PS_SCX_MODE=rtapp PS_SCX_TIMEOUT=1200 sh tests/vm/scx/run.sh $(B)/vm-scx-rtapp

# hackbench under the kernel's scheduler and under run -b scx, one boot
# (figures, not a test: docs/speed.md)
scx-bench: $(B)/scx-try $(B)/idle-threads $(B)/powersched
	$(SCX_VM_ENV) PS_SCX_MODE=bench sh tests/vm/scx/run.sh $(B)/vm-scx

scx-clean:
	rm -rf $(B)/bpf $(B)/scx-try $(B)/idle-threads
