/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Run options: "key=value" words from the UEFI load options, then from
 * ntboot.cfg beside the image (one per line, '#' starts a comment), or from
 * the command line of the host programs. Later words win. Every key is in
 * one table (lib/options.c) with its parser and its help text; an unknown
 * key or a bad value is an error that names the word and where it came from.
 */
#ifndef NTBOOT_LIB_OPTIONS_H
#define NTBOOT_LIB_OPTIONS_H

#include "include/types.h"

#define OPT_LIST_MAX 8

enum console_kind {
	CONSOLE_AUTO,	/* firmware tables (SPCR) or COM1 */
	CONSOLE_IO,	/* 16550 at an I/O port */
	CONSOLE_MMIO8,	/* 16550 with byte-wide MMIO registers */
	CONSOLE_MMIO32, /* 16550 with 32-bit MMIO registers */
	CONSOLE_NONE,
};

enum on_finish {
	FINISH_POWEROFF,
	FINISH_HALT,
	FINISH_REBOOT,
};

enum smp_mode {
	SMP_ALL = -1,
	SMP_OFF = 0,
};

struct ntb_options {
	char suite[256];	  /* comma-separated globs; "" = all */
	char strategy[128];	  /* copy strategies for benchmarks; "" = all */
	char runs_id[64];	  /* lab tag echoed in the header */
	enum console_kind console;
	u64 console_addr;	  /* I/O port or MMIO address */
	u32 console_baud;
	u64 namespace_bytes;	  /* size of the modelled pmem namespace */
	u32 runs;		  /* timed runs per benchmark */
	u32 layouts[OPT_LIST_MAX]; /* struct page sizes: 64, 80, 96 */
	u32 nr_layouts;
	u32 modes;		  /* bit mask of enum ntb_mode */
	u64 litmus_iters;
	u64 seed;		  /* benchmark shuffles; 0 = drawn */
	bool drain;		  /* false: research mode, no SFENCE drains */
	enum on_finish on_finish;
	int smp;		  /* SMP_ALL, SMP_OFF or a CPU count */
	u32 watchdog_s;		  /* hang watchdog; 0 = off */
	/* APIC IDs to start beyond the MADT's: proves the failure report. */
	u32 smp_extra_ids[OPT_LIST_MAX];
	u32 nr_smp_extra_ids;
	bool list;		  /* list suites and stop */
	/* Given explicitly (not defaults): emulators scale the others. */
	bool namespace_set;
	bool runs_set;
	bool litmus_iters_set;
};

enum ntb_mode {
	MODE_FSDAX = 1 << 0,
	MODE_DEVDAX2M = 1 << 1,
	MODE_DEVDAX1G = 1 << 2,
};

struct opt_error {
	char msg[256];
};

void options_set_defaults(struct ntb_options *o);

/*
 * Parse @len bytes of @text: words separated by blanks or newlines, '#'
 * comments to the end of the line. @source names the origin for messages
 * ("load options", "ntboot.cfg", "argv"). Returns 0, or -1 with @err
 * filled; words before the bad one are applied, nothing after it.
 */
int options_parse(struct ntb_options *o, const char *text, size_t len,
		  const char *source, struct opt_error *err);

/* Parse one "key=value" word. */
int options_parse_word(struct ntb_options *o, const char *word, size_t len,
		       const char *source, struct opt_error *err);

/* Parse "100G", "512M", "4096" (bytes; K/M/G/T binary suffixes). */
int parse_size(const char *s, size_t len, u64 *out);
/* Parse decimal or 0x-hex into @out, rejecting overflow and junk. */
int parse_u64(const char *s, size_t len, u64 *out);

/* Print every key with its help text, one "# option" line each. */
void options_print_help(void);

#endif
