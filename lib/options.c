// SPDX-License-Identifier: GPL-2.0-only
#include "lib/options.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "include/compiler.h"

struct opt_def {
	const char *key;
	int (*parse)(struct ntb_options *o, const char *v, size_t len,
		     char *why, size_t whylen);
	const char *help;
};

static bool word_eq(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit);

	return len == n && !strncmp(s, lit, n);
}

int parse_u64(const char *s, size_t len, u64 *out)
{
	unsigned int base = 10;
	u64 v = 0;
	size_t i = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return -1;
	for (; i < len; i++) {
		unsigned int d;
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		if (v > (~0ull - d) / base)
			return -1;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

int parse_size(const char *s, size_t len, u64 *out)
{
	unsigned int shift = 0;
	u64 v;

	if (len && (s[len - 1] == 'B' || s[len - 1] == 'b') && len > 1 &&
	    !(s[len - 2] >= '0' && s[len - 2] <= '9'))
		len--; /* "100GB" reads as "100G" */
	if (len) {
		switch (s[len - 1]) {
		case 'K': case 'k': shift = 10; break;
		case 'M': case 'm': shift = 20; break;
		case 'G': case 'g': shift = 30; break;
		case 'T': case 't': shift = 40; break;
		}
		if (shift)
			len--;
	}
	if (parse_u64(s, len, &v))
		return -1;
	if (shift && v > (~0ull >> shift))
		return -1;
	*out = v << shift;
	return 0;
}

static int copy_string(char *dst, size_t dstlen, const char *v, size_t len,
		       char *why, size_t whylen)
{
	if (len >= dstlen) {
		ntb_snprintf(why, whylen, "longer than %zu characters",
			     dstlen - 1);
		return -1;
	}
	memcpy(dst, v, len);
	dst[len] = '\0';
	return 0;
}

static int opt_suite(struct ntb_options *o, const char *v, size_t len,
		     char *why, size_t whylen)
{
	return copy_string(o->suite, sizeof(o->suite), v, len, why, whylen);
}

static int opt_strategy(struct ntb_options *o, const char *v, size_t len,
			char *why, size_t whylen)
{
	return copy_string(o->strategy, sizeof(o->strategy), v, len, why,
			   whylen);
}

static int opt_runs_id(struct ntb_options *o, const char *v, size_t len,
		       char *why, size_t whylen)
{
	for (size_t i = 0; i < len; i++) {
		char c = v[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		      c == '.' || c == ':')) {
			ntb_snprintf(why, whylen,
				     "only letters, digits and -_.: allowed");
			return -1;
		}
	}
	return copy_string(o->runs_id, sizeof(o->runs_id), v, len, why,
			   whylen);
}

/*
 * console=ttyS0[,baud] | ttyS1..3 | io,0xPORT[,baud] | mmio,0xADDR[,baud]
 * (byte registers) | mmio32,0xADDR[,baud] (32-bit registers) | none
 */
static int opt_console(struct ntb_options *o, const char *v, size_t len,
		       char *why, size_t whylen)
{
	static const u16 com_ports[] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };
	const char *comma = memchr(v, ',', len);
	size_t head = comma ? (size_t)(comma - v) : len;
	const char *rest = comma ? comma + 1 : NULL;
	size_t restlen = comma ? len - head - 1 : 0;
	u64 baud = 115200, addr;

	if (word_eq(v, len, "none")) {
		o->console = CONSOLE_NONE;
		return 0;
	}
	if (head == 5 && !strncmp(v, "ttyS", 4) && v[4] >= '0' && v[4] <= '3') {
		o->console = CONSOLE_IO;
		o->console_addr = com_ports[v[4] - '0'];
	} else if (word_eq(v, head, "io") || word_eq(v, head, "mmio") ||
		   word_eq(v, head, "mmio32")) {
		const char *c2 = rest ? memchr(rest, ',', restlen) : NULL;
		size_t alen = c2 ? (size_t)(c2 - rest) : restlen;

		if (!rest || parse_u64(rest, alen, &addr) || !addr) {
			ntb_snprintf(why, whylen, "expected %.*s,0xADDRESS[,baud]",
				     (int)head, v);
			return -1;
		}
		if (word_eq(v, head, "io") && addr > 0xfff8) {
			ntb_snprintf(why, whylen, "I/O port 0x%llx out of range",
				     (unsigned long long)addr);
			return -1;
		}
		o->console = word_eq(v, head, "io")	  ? CONSOLE_IO :
			     word_eq(v, head, "mmio") ? CONSOLE_MMIO8 :
							CONSOLE_MMIO32;
		o->console_addr = addr;
		rest = c2 ? c2 + 1 : NULL;
		restlen = c2 ? restlen - alen - 1 : 0;
	} else {
		ntb_snprintf(why, whylen,
			     "expected ttyS0..3, io,0xPORT, mmio,0xADDR, "
			     "mmio32,0xADDR or none");
		return -1;
	}
	if (rest && (parse_u64(rest, restlen, &baud) || baud < 50 ||
		     baud > 115200 || 115200 % baud)) {
		ntb_snprintf(why, whylen,
			     "baud must divide 115200 (9600, 57600, 115200...)");
		return -1;
	}
	o->console_baud = (u32)baud;
	return 0;
}

static int opt_namespace(struct ntb_options *o, const char *v, size_t len,
			 char *why, size_t whylen)
{
	u64 sz;

	if (parse_size(v, len, &sz) || sz < SZ_2M || sz % 4096) {
		ntb_snprintf(why, whylen,
			     "expected a size of at least 2M in 4K units, like 100G");
		return -1;
	}
	o->namespace_bytes = sz;
	o->namespace_set = true;
	return 0;
}

static int parse_bounded(const char *v, size_t len, u64 lo, u64 hi, u64 *out,
			 char *why, size_t whylen)
{
	if (parse_u64(v, len, out) || *out < lo || *out > hi) {
		ntb_snprintf(why, whylen, "expected a number from %llu to %llu",
			     (unsigned long long)lo, (unsigned long long)hi);
		return -1;
	}
	return 0;
}

static int opt_runs(struct ntb_options *o, const char *v, size_t len,
		    char *why, size_t whylen)
{
	u64 n;

	/* The timing core keeps every sample: BENCH_MAX_RUNS of them. */
	if (parse_bounded(v, len, 1, 1000, &n, why, whylen))
		return -1;
	o->runs = (u32)n;
	o->runs_set = true;
	return 0;
}

static int opt_litmus_iters(struct ntb_options *o, const char *v, size_t len,
			    char *why, size_t whylen)
{
	if (parse_bounded(v, len, 1, 1000000000000ull, &o->litmus_iters, why,
			  whylen))
		return -1;
	o->litmus_iters_set = true;
	return 0;
}

static int opt_seed(struct ntb_options *o, const char *v, size_t len,
		    char *why, size_t whylen)
{
	return parse_bounded(v, len, 1, ~0ull, &o->seed, why, whylen);
}

/*
 * Walk the comma-separated words of a value: for (i = 0; list_next(v, len,
 * &i, &w, &wlen);) ... An empty word (",,") comes out as length 0.
 */
static bool list_next(const char *v, size_t len, size_t *pos, const char **w,
		      size_t *wlen)
{
	size_t j = *pos;

	if (*pos >= len)
		return false;
	while (j < len && v[j] != ',')
		j++;
	*w = v + *pos;
	*wlen = j - *pos;
	*pos = j + 1;
	return true;
}

static int opt_layout(struct ntb_options *o, const char *v, size_t len,
		      char *why, size_t whylen)
{
	u32 n = 0;
	size_t i = 0, wl;
	const char *w;

	while (list_next(v, len, &i, &w, &wl)) {
		u64 sz;

		if (parse_u64(w, wl, &sz) ||
		    (sz != 64 && sz != 80 && sz != 96)) {
			ntb_snprintf(why, whylen,
				     "struct page sizes are 64, 80 or 96");
			return -1;
		}
		if (n == OPT_LIST_MAX) {
			ntb_snprintf(why, whylen, "at most %d sizes",
				     OPT_LIST_MAX);
			return -1;
		}
		o->layouts[n++] = (u32)sz;
	}
	if (!n) {
		ntb_snprintf(why, whylen, "empty list");
		return -1;
	}
	o->nr_layouts = n;
	return 0;
}

static int opt_mode(struct ntb_options *o, const char *v, size_t len,
		    char *why, size_t whylen)
{
	u32 mask = 0;
	size_t i = 0, wl;
	const char *w;

	while (list_next(v, len, &i, &w, &wl)) {
		if (word_eq(w, wl, "fsdax")) {
			mask |= MODE_FSDAX;
		} else if (word_eq(w, wl, "devdax2m")) {
			mask |= MODE_DEVDAX2M;
		} else if (word_eq(w, wl, "devdax1g")) {
			mask |= MODE_DEVDAX1G;
		} else {
			ntb_snprintf(why, whylen,
				     "modes are fsdax, devdax2m, devdax1g");
			return -1;
		}
	}
	if (!mask) {
		ntb_snprintf(why, whylen, "empty list");
		return -1;
	}
	o->modes = mask;
	return 0;
}

static int parse_bool(const char *v, size_t len, bool *out, char *why,
		      size_t whylen)
{
	if (word_eq(v, len, "on") || word_eq(v, len, "1") ||
	    word_eq(v, len, "yes") || word_eq(v, len, "true")) {
		*out = true;
		return 0;
	}
	if (word_eq(v, len, "off") || word_eq(v, len, "0") ||
	    word_eq(v, len, "no") || word_eq(v, len, "false")) {
		*out = false;
		return 0;
	}
	ntb_snprintf(why, whylen, "expected on or off");
	return -1;
}

static int opt_drain(struct ntb_options *o, const char *v, size_t len,
		     char *why, size_t whylen)
{
	return parse_bool(v, len, &o->drain, why, whylen);
}

static int opt_list(struct ntb_options *o, const char *v, size_t len,
		    char *why, size_t whylen)
{
	return parse_bool(v, len, &o->list, why, whylen);
}

static int opt_on_finish(struct ntb_options *o, const char *v, size_t len,
			 char *why, size_t whylen)
{
	if (word_eq(v, len, "poweroff"))
		o->on_finish = FINISH_POWEROFF;
	else if (word_eq(v, len, "halt"))
		o->on_finish = FINISH_HALT;
	else if (word_eq(v, len, "reboot"))
		o->on_finish = FINISH_REBOOT;
	else {
		ntb_snprintf(why, whylen, "expected poweroff, halt or reboot");
		return -1;
	}
	return 0;
}

static int opt_smp(struct ntb_options *o, const char *v, size_t len,
		   char *why, size_t whylen)
{
	u64 n;

	if (word_eq(v, len, "off")) {
		o->smp = SMP_OFF;
		return 0;
	}
	if (word_eq(v, len, "all")) {
		o->smp = SMP_ALL;
		return 0;
	}
	if (parse_bounded(v, len, 1, 4096, &n, why, whylen)) {
		ntb_snprintf(why, whylen, "expected off, all or 1..4096");
		return -1;
	}
	o->smp = (int)n;
	return 0;
}

static int opt_watchdog(struct ntb_options *o, const char *v, size_t len,
			char *why, size_t whylen)
{
	u64 n;

	if (word_eq(v, len, "off")) {
		o->watchdog_s = 0;
		return 0;
	}
	if (parse_bounded(v, len, 1, 86400, &n, why, whylen)) {
		ntb_snprintf(why, whylen, "expected off or seconds (1..86400)");
		return -1;
	}
	o->watchdog_s = (u32)n;
	return 0;
}

static int opt_smp_extra(struct ntb_options *o, const char *v, size_t len,
			 char *why, size_t whylen)
{
	u32 n = 0;
	size_t i = 0, wl;
	const char *w;

	while (list_next(v, len, &i, &w, &wl)) {
		u64 id;

		if (parse_u64(w, wl, &id) || id > 0xfffffffe ||
		    n == OPT_LIST_MAX) {
			ntb_snprintf(why, whylen,
				     "expected up to %d APIC IDs, like 7,9",
				     OPT_LIST_MAX);
			return -1;
		}
		o->smp_extra_ids[n++] = (u32)id;
	}
	o->nr_smp_extra_ids = n;
	return 0;
}

static const struct opt_def opt_table[] = {
	{ "suite", opt_suite, "suites to run: comma-separated globs (memcpy*,memmap*)" },
	{ "console", opt_console,
	  "ttyS0..3[,baud], io,0xPORT[,baud], mmio[32],0xADDR[,baud], none "
	  "(default: ACPI SPCR, else COM1)" },
	{ "namespace", opt_namespace, "modelled pmem namespace size (100G)" },
	{ "runs", opt_runs, "timed runs per benchmark (30)" },
	{ "layout", opt_layout, "struct page sizes: 64,80,96" },
	{ "mode", opt_mode, "namespace modes: fsdax,devdax2m,devdax1g" },
	{ "strategy", opt_strategy, "copy strategies to benchmark (globs)" },
	{ "litmus.iters", opt_litmus_iters, "iterations per litmus test" },
	{ "seed", opt_seed,
	  "seed of the benchmarks' run order (repeats a run; default drawn)" },
	{ "drain", opt_drain, "SFENCE drains in the template path (on; off is research only)" },
	{ "on_finish", opt_on_finish, "poweroff, halt or reboot at the end" },
	{ "smp", opt_smp, "CPUs to start: off, all or a count" },
	{ "smp.extra_apic_ids", opt_smp_extra,
	  "also try to start these APIC IDs (tests the report of a CPU that "
	  "never starts)" },
	{ "runs_id", opt_runs_id, "tag echoed in the header for lab logs" },
	{ "watchdog", opt_watchdog,
	  "seconds without progress before a case is declared hung (300; off)" },
	{ "list", opt_list, "list the suites and stop (on/off)" },
};

void options_set_defaults(struct ntb_options *o)
{
	memset(o, 0, sizeof(*o));
	o->console = CONSOLE_AUTO;
	o->console_addr = 0x3f8;
	o->console_baud = 115200;
	o->namespace_bytes = 100ull << 30;
	o->runs = 30;
	o->layouts[0] = 64;
	o->layouts[1] = 80;
	o->layouts[2] = 96;
	o->nr_layouts = 3;
	o->modes = MODE_FSDAX | MODE_DEVDAX2M;
	o->litmus_iters = 1000000;
	o->drain = true;
	o->on_finish = FINISH_POWEROFF;
	o->smp = SMP_ALL;
	o->watchdog_s = 300;
}

/* Echo at most this much of a word in a message: the reason must fit. */
#define ECHO_MAX 48

/*
 * @len bytes of @s for a message: printable ASCII as is, anything else
 * as \xNN (a UTF-8 letter, a BOM, a control character), cut at ECHO_MAX
 * characters with "...".
 */
static void echo(char *dst, size_t dstlen, const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		u8 c = (u8)s[i];

		if (n >= ECHO_MAX || n + 8 >= dstlen) {
			ntb_snprintf(dst + n, dstlen - n, "...");
			return;
		}
		if (c >= 0x20 && c < 0x7f && c != '\\')
			dst[n++] = (char)c;
		else
			n += ntb_snprintf(dst + n, dstlen - n, "\\x%02x", c);
	}
	dst[n] = '\0';
}

int options_parse_word(struct ntb_options *o, const char *word, size_t len,
		       const char *source, struct opt_error *err)
{
	const char *eq = memchr(word, '=', len);
	char w[ECHO_MAX + 16], k[ECHO_MAX + 16];
	size_t klen, vlen;
	const char *v;
	char why[160] = "";

	echo(w, sizeof(w), word, len);
	if (!eq) {
		ntb_snprintf(err->msg, sizeof(err->msg),
			     "%s: '%s' is not key=value", source, w);
		return -1;
	}
	klen = eq - word;
	v = eq + 1;
	vlen = len - klen - 1;
	/* Whole keys only: "sui=" or "suites=" is not "suite=". */
	for (size_t i = 0; i < ARRAY_SIZE(opt_table); i++) {
		if (!word_eq(word, klen, opt_table[i].key))
			continue;
		if (opt_table[i].parse(o, v, vlen, why, sizeof(why))) {
			ntb_snprintf(err->msg, sizeof(err->msg),
				     "%s: bad value in '%s': %s", source, w,
				     why);
			return -1;
		}
		return 0;
	}
	echo(k, sizeof(k), word, klen);
	ntb_snprintf(err->msg, sizeof(err->msg),
		     "%s: unknown key '%s' in '%s'", source, k, w);
	return -1;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Old Mac files end lines with CR alone: a comment ends there too. */
static bool is_line_end(char c)
{
	return c == '\n' || c == '\r';
}

int options_parse(struct ntb_options *o, const char *text, size_t len,
		  const char *source, struct opt_error *err)
{
	size_t i = 0;

	while (i < len) {
		size_t start;

		if (is_blank(text[i])) {
			i++;
			continue;
		}
		if (text[i] == '#') {
			while (i < len && !is_line_end(text[i]))
				i++;
			continue;
		}
		start = i;
		while (i < len && !is_blank(text[i])) {
			u8 c = (u8)text[i];

			/* A NUL or a control character is no part of a word. */
			if (c < 0x20 || c == 0x7f) {
				ntb_snprintf(err->msg, sizeof(err->msg),
					     "%s: control character 0x%02x at "
					     "offset %zu", source, c, i);
				return -1;
			}
			i++;
		}
		if (options_parse_word(o, text + start, i - start, source, err))
			return -1;
	}
	return 0;
}

void options_print_help(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(opt_table); i++)
		kprintf("# option %s=  %s\n", opt_table[i].key,
			opt_table[i].help);
}
