# SPDX-License-Identifier: GPL-2.0-only
#
# ntboot: every entry point lives here.
#   make            build/BOOTX64.EFI (the UEFI image; with Debian's
#                   6.12 sources installed it carries the kernel's own
#                   compiled memmap_init_zone_device(), the kernel blob)
#   make usb        build/ntboot.img (GPT disk with a FAT32 ESP, for dd)
#   make run        boot the image in QEMU+OVMF (KVM when it works)
#   make check      host tests (ASan/UBSan) + QEMU boot tests
#   make check-host host tests and the hosted runner's object code
#   make bench-host build/host/ntbench (the hosted benchmark runner)
#   make kernel-memmap  one runner per build of the kernel's own 6.12
#                   memmap_init_zone_device() in manifest/strategies.yaml's
#                   kernels: build/host/kernel-memmap for strategy=kernel,
#                   build/host/kernel-memmap-kernel_series for the series
#                   (patches/6.12/series/) and one for each of its stages
#                   (kernel_series_memcpy, kernel_series_generic), the
#                   stages built in one tree
#   make check-kernel-memmap  the model at kernel=6.12 against each
#                   build, byte for byte, and the claims' verdicts from
#                   the kernel's builds (source=kernel)
#   make check-kernel-blob  the image's blob reader against the blob's ELF
#   make check-kernel-memmap-image  the booted image's strategy=kernel
#                   (the blob) against the model, byte for byte, in QEMU
#   make check-report-html  tools/report --html of real hosted runs,
#                   rendered in headless Chromium (docs/report-html.md)
#   make ntcheck-image  build/ntcheck/BOOTX64.EFI: the image with the
#                   non-temporal store ordering checker (docs/ntcheck.md)
#   make sign KEY=... CERT=...   Secure Boot signed image
#   make format     clang-format every source file
#   make clean

VERSION := 0.1
GIT_REV := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
GIT_DIRTY := $(shell git diff --quiet HEAD -- 2>/dev/null || echo -dirty)
# The full hash goes into the "# build" line (lib/build_info.c).
GIT_COMMIT := $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
BUILD_VERSION := $(VERSION)+g$(GIT_REV)$(GIT_DIRTY)

B := build
# Plain `make` builds the image, whatever rule comes first below.
.DEFAULT_GOAL := all
# Quiet by default; `make V=1` shows the commands.
ifeq ($(V),1)
Q :=
else
Q := @
endif
CC := gcc
NASM := nasm
OBJCOPY := objcopy
EFI_INC := /usr/include/efi
EFI_LIB := /usr/lib
PYTHON := python3

# Sources: each directory is globbed, so a new file needs no Makefile edit.
# lib/string.c and lib/jump.asm are the image's C string functions and
# setjmp/longjmp: the host programs, the fuzzers and the oracles take the C
# library's (lib/string.h, lib/jump.h).
IMAGE_LIBC_SRCS := lib/string.c
IMAGE_LIBC_ASMS := lib/jump.asm
PORTABLE_SRCS := $(filter-out $(IMAGE_LIBC_SRCS), \
	$(wildcard lib/*.c mm/*.c arch/x86/*.c arch/x86/lib/*.c \
	model/*.c model/mm/*.c model/arch/x86/lib/*.c model/drivers/nvdimm/*.c \
	tests/*.c \
	tests/engines/*.c))
# (the kernel memmap runner's patching, shared with the image's kernel
# blob: tools/kernel-memmap/patch.c's header says how)
IMAGE_SRCS := $(wildcard boot/*.c kernel/*.c) $(IMAGE_LIBC_SRCS) \
	$(PORTABLE_SRCS) \
	tools/kernel-memmap/patch.c tools/kernel-memmap/jump_labels.c
IMAGE_ASMS := $(wildcard boot/*.asm kernel/*.asm) $(IMAGE_LIBC_ASMS)
HOST_SRCS := $(PORTABLE_SRCS) $(wildcard host/*.c)

IMAGE_OBJS := $(IMAGE_SRCS:%.c=$(B)/image/%.o) $(IMAGE_ASMS:%.asm=$(B)/image/%.asm.o)
HOST_TEST_OBJS := $(HOST_SRCS:%.c=$(B)/host-test/%.o)
HOST_BENCH_OBJS := $(HOST_SRCS:%.c=$(B)/host-bench/%.o)

WARN := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
	-Wno-sign-compare \
	-Wvla -Wshadow=local -Werror=implicit-function-declaration
COMMON_CFLAGS := -std=gnu11 -O2 -g $(WARN) -I. -I$(B)/gen -fno-strict-aliasing

# The image: freestanding, PIC (gnu-efi relocates itself), no red zone (we
# take exceptions on the running stack), no SSE/AVX in general code; the
# copy variants that want SIMD enable it per function with target().
IMAGE_CFLAGS := $(COMMON_CFLAGS) -ffreestanding -fpic -fvisibility=hidden -fshort-wchar \
	-mno-red-zone -fno-stack-protector -fno-stack-check \
	-DGNU_EFI_USE_MS_ABI -mno-avx -mgeneral-regs-only \
	-maccumulate-outgoing-args -fno-omit-frame-pointer \
	-I$(EFI_INC) -I$(EFI_INC)/x86_64 -I$(EFI_INC)/protocol
# The checking image (make ntcheck-image) is the same sources built with
# the ordering checker into a build directory of its own.
ifeq ($(NTCHECK),1)
IMAGE_CFLAGS += -DNTB_NTCHECK
endif
IMAGE_LDFLAGS := -nostdlib -znocombreloc -T linker.ld -shared -Bsymbolic \
	-z noexecstack --no-undefined
LIBGCC := $(shell $(CC) -print-libgcc-file-name)

HOST_CFLAGS := $(COMMON_CFLAGS) -DNTB_HOSTED -mgeneral-regs-only -pthread

# The model's objects (model/) take the kernel's code generation for C
# on top of the general-register-only code every build has: no red zone,
# and no jump tables, as in a retpoline build (Debian's). docs/model.md,
# "The compiled shape", says which kernel flags are left out and why.
MODEL_KERNEL_CFLAGS := -mno-red-zone -fno-jump-tables
$(B)/image/model/%.o $(B)/host-test/model/%.o $(B)/host-bench/model/%.o: \
	MODEL_CFLAGS := $(MODEL_KERNEL_CFLAGS)
HOST_TEST_CFLAGS := $(HOST_CFLAGS) -DNTB_HOST_TESTS -DNTB_NTCHECK -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined
HOST_BENCH_CFLAGS := $(HOST_CFLAGS) -O2

# The "# build" line (lib/build_info.c) names the flags that shape each
# build's code: its own, without the warnings and include paths.
build_flags = -DNTB_BUILD_FLAGS='"$(strip $(filter-out -W% -I%,$(1)))"'
$(B)/image/lib/build_info.o: BUILD_INFO_CFLAGS = $(call build_flags,$(IMAGE_CFLAGS))
$(B)/host-test/lib/build_info.o: BUILD_INFO_CFLAGS = $(call build_flags,$(HOST_TEST_CFLAGS))
$(B)/host-bench/lib/build_info.o: BUILD_INFO_CFLAGS = $(call build_flags,$(HOST_BENCH_CFLAGS))

# The version string lives in a generated header that changes only when the
# version does, so a new commit rebuilds just the files that print it.
$(B)/gen/version.h: FORCE
	@mkdir -p $(dir $@)
	@{ echo '#define NTB_VERSION "$(BUILD_VERSION)"'; \
	  echo '#define NTB_COMMIT "$(GIT_COMMIT)"'; \
	  echo '#define NTB_DIRTY $(if $(GIT_DIRTY),1,0)'; } > $@.$$$$.tmp; \
	cmp -s $@.$$$$.tmp $@ && rm -f $@.$$$$.tmp || mv $@.$$$$.tmp $@
FORCE:

# The litmus suite's bodies and table come from tests/litmus.tests, through
# an x86-TSO model that must agree with the table (docs/litmus-model.md):
# a disagreement stops the image and the host builds here.
LITMUS_GEN := $(B)/gen/litmus_tests.h
$(LITMUS_GEN): tests/litmus.tests tools/tso-enum
	@mkdir -p $(dir $@)
	@echo "  TSO     $<"
	$(Q)$(PYTHON) tools/tso-enum $< -o $@

# The tables of a fact that has a manifest (manifest/*.yaml) come from it
# (tools/manifest; docs/manifest.md).
MANIFEST_TOOL := tools/manifest tools/reportlib/manifest.py
MANIFEST_GEN := $(B)/gen/verdict_claims.h $(B)/gen/verdict_words.h \
	$(B)/gen/page_layouts.h \
	$(B)/gen/memmap_strategy_list.h $(B)/gen/kernel_memmap_list.h
$(B)/gen/verdict_claims.h.stamp: TABLE := claims
$(B)/gen/verdict_words.h.stamp: TABLE := verdicts
$(B)/gen/page_layouts.h.stamp: TABLE := layouts
$(B)/gen/memmap_strategy_list.h.stamp: TABLE := strategies
$(B)/gen/kernel_memmap_list.h.stamp: TABLE := kernels
# (a claim names strategies; the strategies' layouts are the layouts' ids)
$(B)/gen/verdict_claims.h.stamp: manifest/claims.yaml manifest/strategies.yaml
$(B)/gen/verdict_words.h.stamp: manifest/verdicts.yaml
$(B)/gen/page_layouts.h.stamp: manifest/layouts.yaml
$(B)/gen/memmap_strategy_list.h.stamp: manifest/strategies.yaml \
	manifest/layouts.yaml
# (the kernel's builds: the SHA-256 of their patch files, whose names
# the rule that tools/manifest writes beside the table gives,
# kernel_memmap_list.h.d, read with the other .d files at the end)
$(B)/gen/kernel_memmap_list.h.stamp: manifest/strategies.yaml \
	manifest/layouts.yaml
$(MANIFEST_GEN:=.stamp): $(MANIFEST_TOOL)
	@mkdir -p $(dir $@)
	@echo "  GEN     $(@:.stamp=)"
	$(Q)$(PYTHON) tools/manifest c $(TABLE) -o $(@:.stamp=)
	@touch $@
# A header keeps its time unless its text changes (tools/manifest writes
# it only then): a manifest edit that no C file reads rebuilds nothing.
$(MANIFEST_GEN): %: %.stamp ;

$(IMAGE_OBJS) $(HOST_TEST_OBJS) $(HOST_BENCH_OBJS): | $(B)/gen/version.h $(LITMUS_GEN) $(MANIFEST_GEN)

.PHONY: FORCE all image usb run check check-host bench-host sign format clean deps \
	check-format kernel-memmap check-kernel-memmap check-report-html \
	report-selftest check-lab-deps check-kernel-blob \
	check-kernel-memmap-image
all: image
image: $(B)/BOOTX64.EFI

$(B)/image/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(IMAGE_CFLAGS) $(MODEL_CFLAGS) $(BUILD_INFO_CFLAGS) -MMD -MP -c $< -o $@

$(B)/image/%.asm.o: %.asm
	@mkdir -p $(dir $@)
	@echo "  NASM    $<"
	$(Q)$(NASM) -f elf64 -g $(NASM_DEFS) -o $@ $<

# The kernel's compiled memmap_init_zone_device() for the image: the
# objects the hosted runner links, at the kernel's text address, in the
# image's .kblob section (docs/kernel-memmap.md, "In the image"). Without
# the kernel's sources the section says why instead, and the build goes
# on; it is tried again at each make until they are installed (a none
# blob is rewritten only when its reason changes, so nothing relinks).
# (one for every build directory: the checking image carries the same)
KERNEL_BLOB := build/kernel-blob/mm_init.blob
# (the headers blob_support.c includes: the compiler's list, read below)
KERNEL_BLOB_DEPS := tools/kernel-memmap/blob tools/kernel-memmap/blob-pack \
	tools/kernel-memmap/blob.ld tools/kernel-memmap/blob_support.c \
	tools/kernel-memmap/stubs tools/kernel-memmap/sites \
	tools/kernel-memmap/glue.c tools/kernel-memmap/glue.h \
	tools/kernel-memmap/blob_format.py tools/kernel-object \
	$(wildcard /usr/src/linux-source-6.12.tar.xz \
		/usr/src/linux-config-6.12/config.amd64_none_amd64.xz)
$(KERNEL_BLOB): $(KERNEL_BLOB_DEPS) $(if $(wildcard $(KERNEL_BLOB).none),FORCE)
	@echo "  BLOB    $@"
	+$(Q)tools/kernel-memmap/blob $@
-include $(KERNEL_BLOB).support.d
$(B)/image/kernel/kernel_blob_data.asm.o: $(KERNEL_BLOB)
$(B)/image/kernel/kernel_blob_data.asm.o: NASM_DEFS = -DKERNEL_BLOB_FILE='"$(KERNEL_BLOB)"'

# The image's blob reader over the built blob, against pyelftools'
# reading of the ELF it was packed from (tools/check-kernel-blob).
KBLOB_READER_SRCS := tools/oracle/kernel_blob_reader.c lib/kernel_blob.c lib/printf.c
$(B)/host/kernel-blob-reader: $(KBLOB_READER_SRCS) lib/kernel_blob.h
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(CC) -std=gnu11 -g -O1 -I. -DNTB_HOSTED -Wall -Wextra -Werror \
		-fsanitize=address,undefined -fno-sanitize-recover=undefined \
		$(KBLOB_READER_SRCS) -o $@
check-kernel-blob: $(KERNEL_BLOB) $(B)/host/kernel-blob-reader
	tools/check-kernel-blob --reader $(B)/host/kernel-blob-reader $(KERNEL_BLOB)

# The booted image runs the kernel's code from the blob, byte for byte
# with the model, under QEMU (make check's boot-kernel-memmap-dev and
# -mem steps, the image built first; skipped without a blob).
check-kernel-memmap-image:
	CHECK_ONLY=boot-kernel-memmap-dev,boot-kernel-memmap-mem tools/check

$(B)/ntboot.so: $(IMAGE_OBJS) linker.ld
	@echo "  LD      $@"
	$(Q)ld $(IMAGE_LDFLAGS) $(EFI_LIB)/crt0-efi-x86_64.o $(IMAGE_OBJS) \
		-L$(EFI_LIB) -lefi -lgnuefi $(LIBGCC) -o $@

$(B)/BOOTX64.EFI: $(B)/ntboot.so
	$(Q)$(OBJCOPY) -j .text -j .sdata -j .data -j .kblob -j .dynamic -j .dynsym \
		-j .rel -j .rela -j .rel.* -j .rela.* -j .reloc \
		--target efi-app-x86_64 --subsystem=10 --strip-all $< $@
	@echo "built $@ ($(BUILD_VERSION))"

$(B)/host-test/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $<"
	$(Q)$(CC) $(HOST_TEST_CFLAGS) $(MODEL_CFLAGS) $(BUILD_INFO_CFLAGS) -MMD -MP -c $< -o $@

$(B)/host-bench/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $< (bench)"
	$(Q)$(CC) $(HOST_BENCH_CFLAGS) $(MODEL_CFLAGS) $(BUILD_INFO_CFLAGS) -MMD -MP -c $< -o $@

$(B)/host/ntboot-test: $(HOST_TEST_OBJS)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(CC) $(HOST_TEST_CFLAGS) $^ -o $@

$(B)/host/ntbench: $(HOST_BENCH_OBJS)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(CC) $(HOST_BENCH_CFLAGS) $^ -o $@

bench-host: $(B)/host/ntbench

# The kernel's own memmap_init_zone_device() for ntbench's kernel
# contenders: a runner linked with Debian's 6.12 objects for each entry of
# manifest/strategies.yaml's kernels:, its series applied in a copy of the
# tree (docs/kernel-memmap.md). Needs linux-source-6.12 and its build's
# packages; the first build of the kernel's tree takes minutes, later
# ones seconds.
kernel-memmap:
	tools/kernel-memmap/runners $(B)/host

# The model at kernel=6.12 against that code, byte for byte.
check-kernel-memmap: $(B)/host/ntbench
	tools/check-kernel-memmap $(B)/host/ntbench

# The HTML page of real hosted runs, opened in headless Chromium.
check-report-html: $(B)/host/ntbench
	tools/check-report-html --ntbench $(B)/host/ntbench --out $(B)/report-html

# reportlib's unit tests (tools/report's readers, a LAVA job log's among
# them).
report-selftest:
	tools/report --selftest

# The lab's dependency step fails on a failed install and skips only
# where a package has no candidate (stand-ins for apt; root only).
check-lab-deps:
	tools/check-lab-deps

# The image's Mann-Whitney engine on sample sets from stdin, and its
# comparison with scipy.stats (tools/stats-check, docs/statistics.md).
STATS_ORACLE_SRCS := tools/oracle/stats_oracle.c lib/mannwhitney.c lib/int_sqrt.c
$(B)/host/stats-oracle: $(STATS_ORACLE_SRCS) lib/mannwhitney.h lib/int_sqrt.h \
		tools/oracle/oracle_input.h
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(CC) -std=gnu11 -O2 -I. -DNTB_HOSTED -Wall -Wextra -Werror \
		$(STATS_ORACLE_SRCS) -o $@
# The signed-rank engine of the verdicts over processes, the same way.
SR_ORACLE_SRCS := tools/oracle/signed_rank_oracle.c lib/signed_rank.c lib/int_sqrt.c
$(B)/host/signed-rank-oracle: $(SR_ORACLE_SRCS) lib/signed_rank.h lib/int_sqrt.h \
		lib/sort_u64.h tools/oracle/oracle_input.h
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(CC) -std=gnu11 -O2 -I. -DNTB_HOSTED -Wall -Wextra -Werror \
		$(SR_ORACLE_SRCS) -o $@
# The states of one strategy's runs (lib/states.c), against tools/report's,
# and how often runs shaped as a default run's are named states (the short
# form of --states-rates: it fails where one state's runs are split in
# more than 5% of sets).
STATES_ORACLE_SRCS := tools/oracle/states_oracle.c lib/states.c
$(B)/host/states-oracle: $(STATES_ORACLE_SRCS) lib/states.h lib/sort_u64.h \
		tools/oracle/oracle_input.h
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(CC) -std=gnu11 -O2 -I. -DNTB_HOSTED -Wall -Wextra -Werror \
		$(STATES_ORACLE_SRCS) -o $@
stats-check: $(B)/host/stats-oracle $(B)/host/signed-rank-oracle \
		$(B)/host/states-oracle
	$(PYTHON) tools/stats-check --oracle $< \
		--sr-oracle $(B)/host/signed-rank-oracle \
		--states-oracle $(B)/host/states-oracle
	$(PYTHON) tools/stats-check --states-rates --short \
		--states-oracle $(B)/host/states-oracle
.PHONY: stats-check

# The image's ACPI parsers over real machines' tables, compared with
# ACPICA's disassembly of the same bytes (tools/acpi-tables,
# tests/data/acpi-real/README.md).
ACPI_READER_SRCS := tools/oracle/acpi_reader.c lib/acpi.c lib/acpi_nfit.c lib/printf.c
$(B)/host/acpi-reader: $(ACPI_READER_SRCS) lib/acpi.h lib/acpi_nfit.h
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(CC) -std=gnu11 -g -O1 -I. -DNTB_HOSTED -Wall -Wextra -Werror \
		-fsanitize=address,undefined -fno-sanitize-recover=undefined \
		$(ACPI_READER_SRCS) -o $@
acpi-real-tables: $(B)/host/acpi-reader
	$(PYTHON) tools/acpi-tables check --reader $< tests/data/acpi-real/*.txt
.PHONY: acpi-real-tables

NTCHECK_B := build/ntcheck
ntcheck-image:
	$(Q)$(MAKE) --no-print-directory B=$(NTCHECK_B) NTCHECK=1 image
.PHONY: ntcheck-image

# libFuzzer target for __memcpy_flushcache()/memcpy_nocache() (host, clang).
FUZZ_SRCS := tests/fuzz/copy_fuzz.c $(wildcard arch/x86/lib/*.c model/arch/x86/lib/*.c) arch/x86/cpu.c lib/printf.c
$(B)/host/copy_fuzz: $(FUZZ_SRCS) $(wildcard arch/x86/lib/*.h arch/x86/*.h model/arch/x86/include/asm/*.h)
	@mkdir -p $(dir $@)
	clang -std=gnu11 -g -O1 -I. -DNTB_HOSTED -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $(FUZZ_SRCS) -o $@
# libFuzzer target for the ACPI table parsers (tests/fuzz/acpi_fuzz.c).
ACPI_FUZZ_SRCS := tests/fuzz/acpi_fuzz.c lib/acpi.c lib/acpi_nfit.c lib/printf.c
$(B)/host/acpi_fuzz: $(ACPI_FUZZ_SRCS) lib/acpi.h lib/acpi_nfit.h tests/fuzz/acpi_parsers_check.h
	@mkdir -p $(dir $@)
	clang -std=gnu11 -g -O1 -I. -DNTB_HOSTED -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $(ACPI_FUZZ_SRCS) -o $@
# libFuzzer target for ACPI discovery from an RSDP in a window of memory
# (tests/fuzz/acpi_scan_fuzz.c).
ACPI_SCAN_FUZZ_SRCS := tests/fuzz/acpi_scan_fuzz.c lib/acpi.c lib/acpi_nfit.c lib/printf.c
$(B)/host/acpi_scan_fuzz: $(ACPI_SCAN_FUZZ_SRCS) lib/acpi.h lib/acpi_nfit.h tests/fuzz/acpi_parsers_check.h
	@mkdir -p $(dir $@)
	clang -std=gnu11 -g -O1 -I. -DNTB_HOSTED -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $(ACPI_SCAN_FUZZ_SRCS) -o $@
# libFuzzer target for the UEFI memory map on its way to the page tables
# (tests/fuzz/memmap_fuzz.c); boot/efi_memmap.c needs gnu-efi's headers.
MEMMAP_FUZZ_SRCS := tests/fuzz/memmap_fuzz.c boot/efi_memmap.c mm/phys_map.c \
	mm/frame_alloc.c mm/pgtable.c mm/identity_map.c lib/printf.c
$(B)/host/memmap_fuzz: $(MEMMAP_FUZZ_SRCS) $(wildcard boot/efi_memmap.h mm/*.h)
	@mkdir -p $(dir $@)
	clang -std=gnu11 -g -O1 -I. -I$(EFI_INC) -I$(EFI_INC)/x86_64 -DNTB_HOSTED -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $(MEMMAP_FUZZ_SRCS) -o $@
# libFuzzer target for the cfg decoder, the load-options decoder and every
# registered option's parser (tests/fuzz/options_fuzz.c): the registry is
# a linker section the declaring files fill, so it is built from every
# hosted source but the runner's main().
FUZZ_CFLAGS := -std=gnu11 -g -O1 -I. -I$(B)/gen -DNTB_HOSTED -pthread \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined
OPTIONS_FUZZ_OBJS := $(patsubst %.c,$(B)/fuzz/%.o,$(filter-out host/main.c,$(HOST_SRCS)))
$(B)/fuzz/%.o: %.c $(B)/gen/version.h $(LITMUS_GEN) | $(MANIFEST_GEN)
	@mkdir -p $(dir $@)
	@echo "  CLANG   $< (fuzz)"
	$(Q)clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Wno-everything \
		$(MODEL_CFLAGS) -MMD -MP -c $< -o $@
$(B)/fuzz/model/%.o: MODEL_CFLAGS := $(MODEL_KERNEL_CFLAGS)
$(B)/host/options_fuzz: tests/fuzz/options_fuzz.c $(OPTIONS_FUZZ_OBJS)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)clang $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ -o $@
FUZZ_TARGETS := $(B)/host/copy_fuzz $(B)/host/acpi_fuzz $(B)/host/acpi_scan_fuzz \
	$(B)/host/memmap_fuzz $(B)/host/options_fuzz
fuzz: $(FUZZ_TARGETS)
fuzz-short: $(FUZZ_TARGETS)
	@mkdir -p $(B)/host/copy_fuzz_corpus
	$(B)/host/copy_fuzz -max_total_time=20 -artifact_prefix=$(B)/host/copy_fuzz- $(B)/host/copy_fuzz_corpus
	@$(PYTHON) tests/fuzz/acpi_seeds.py $(B)/host/acpi_fuzz_corpus
	$(B)/host/acpi_fuzz -max_total_time=10 -artifact_prefix=$(B)/host/acpi_fuzz- $(B)/host/acpi_fuzz_corpus
	@$(PYTHON) tests/fuzz/acpi_scan_seeds.py $(B)/host/acpi_scan_fuzz_corpus
	$(B)/host/acpi_scan_fuzz -max_total_time=10 -artifact_prefix=$(B)/host/acpi_scan_fuzz- $(B)/host/acpi_scan_fuzz_corpus
	@$(PYTHON) tests/fuzz/memmap_seeds.py $(B)/host/memmap_fuzz_corpus
	$(B)/host/memmap_fuzz -max_total_time=10 -artifact_prefix=$(B)/host/memmap_fuzz- $(B)/host/memmap_fuzz_corpus
	@$(PYTHON) tests/fuzz/options_seeds.py $(B)/host/options_fuzz_corpus
	$(B)/host/options_fuzz -max_total_time=10 -max_len=2048 -artifact_prefix=$(B)/host/options_fuzz- $(B)/host/options_fuzz_corpus
	$(PYTHON) tests/fuzz/readers_fuzz.py --seconds 10 --out $(B)/host/readers_fuzz
.PHONY: fuzz fuzz-short

usb: $(B)/ntboot.img
$(B)/ntboot.img: $(B)/BOOTX64.EFI tools/mkusb tools/ntboot.cfg.example
	tools/mkusb $(B)/BOOTX64.EFI tools/ntboot.cfg.example $@

# Install what the build and the checks need (Debian/Ubuntu, as root).
deps:
	@tools/deps

# Every vCPU the machine can give (the cross-CPU suites need two or more)
# and a kept log for tools/report; RUN_ARGS come last and win.
RUN_LOG = $(B)/logs/run-$(shell date +%Y%m%d-%H%M%S).log
run: deps image
	tools/run-qemu --smp auto --log $(RUN_LOG) $(RUN_ARGS)

# The host tests (and the states suite's lines against tools/report's),
# then the object-code claims of the hosted runner (a copy that lost its
# inline MOVNTI or its SFENCE fails here too) and the self-tests of the
# two build-time checkers (a second or two).
check-host: $(B)/host/ntboot-test $(B)/host/ntbench
	tools/check-host $(B)/host/ntboot-test
	tools/check-states $(B)/host/ntboot-test
	tools/check-objcode $(B)/host/ntbench
	tools/check-runner $(B)/host/ntbench
	$(Q)tools/check-objcode --selftest
	$(Q)tools/tso-enum --selftest

check: deps
	tools/check

sign: $(B)/BOOTX64.EFI
	tools/sign $(B)/BOOTX64.EFI $(KEY) $(CERT)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

check-format:
	clang-format --dry-run --Werror $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
