// SPDX-License-Identifier: GPL-2.0-only
/*
 * The option registry: every DEFINE_OPTION_*() of the tree is a pointer in
 * the "ntb_options" section; this file walks it to parse words, reset the
 * defaults, print the help and set the run's options aside for the
 * suites that parse their own. The kinds share their parsers: a number,
 * an off-or-N, an enum and an on/off are all OPT_NUMBER.
 */
#include "lib/options.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "include/compiler.h"

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

const struct opt_word opt_bool_words[] = {
	{ "on", 1 },	{ "off", 0 },	     { "1", 1, true },
	{ "yes", 1, true }, { "true", 1, true }, { "0", 0, true },
	{ "no", 0, true },  { "false", 0, true }, { NULL },
};

/* "64M", "100G", "4K", "4095": the largest binary unit that divides. */
static void size_text(char *buf, size_t len, u64 v)
{
	static const char units[] = "KMGT";
	int u = -1;

	while (u < 3 && v && !(v & 1023)) {
		v >>= 10;
		u++;
	}
	if (u < 0)
		ntb_snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		ntb_snprintf(buf, len, "%llu%c", (unsigned long long)v,
			     units[u]);
}

/*
 * The reason of a bad number: the declared one, else made of the words
 * shown and the range ("expected off, all or 1..4096", "expected a
 * number from 1 to 1000", "expected poweroff, halt or reboot").
 */
static void number_why(const struct ntb_option *o, char *why, size_t whylen)
{
	bool range = o->lo <= o->hi;
	size_t n = 0, shown = 0, at = 0;

	if (o->expect) {
		ntb_snprintf(why, whylen, "%s", o->expect);
		return;
	}
	for (const struct opt_word *w = o->words; w && w->word; w++)
		shown += !w->alias;
	if (!shown) {
		ntb_snprintf(why, whylen, "expected a number from %llu to %llu",
			     (unsigned long long)o->lo,
			     (unsigned long long)o->hi);
		return;
	}
	n = ntb_snprintf(why, whylen, "expected");
	for (const struct opt_word *w = o->words; w->word && n < whylen; w++) {
		if (w->alias)
			continue;
		at++;
		n += ntb_snprintf(why + n, whylen - n, "%s%s",
				  at == 1 ? " " :
				  at == shown && !range ? " or " : ", ",
				  w->word);
	}
	if (range && n < whylen)
		ntb_snprintf(why + n, whylen - n, " or %llu..%llu",
			     (unsigned long long)o->lo,
			     (unsigned long long)o->hi);
}

/* The parser every number, off-or-N, enum and on/off option shares. */
static int parse_number(const struct ntb_option *o, const char *v, size_t len,
			u64 *out, char *why, size_t whylen)
{
	for (const struct opt_word *w = o->words; w && w->word; w++) {
		if (word_eq(v, len, w->word)) {
			*out = w->value;
			return 0;
		}
	}
	if (o->lo <= o->hi && !parse_u64(v, len, out) && *out >= o->lo &&
	    *out <= o->hi)
		return 0;
	number_why(o, why, whylen);
	return -1;
}

static void store_number(const struct ntb_option *o, u64 v)
{
	switch (o->size) {
	case 1:
		*(u8 *)o->var = (u8)v;
		break;
	case 4:
		*(u32 *)o->var = (u32)v;
		break;
	default:
		*(u64 *)o->var = v;
		break;
	}
}

static u64 load_number(const struct ntb_option *o)
{
	switch (o->size) {
	case 1:
		return *(const u8 *)o->var;
	case 4:
		return *(const u32 *)o->var;
	default:
		return *(const u64 *)o->var;
	}
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

/* OPT_LIST into its opt_u32_list, OPT_FLAGS OR-ed into its u32. */
static int parse_list(const struct ntb_option *o, const char *v, size_t len,
		      char *why, size_t whylen)
{
	struct opt_u32_list l = { 0 };
	u32 mask = 0;
	size_t i = 0, wl;
	const char *w;

	while (list_next(v, len, &i, &w, &wl)) {
		u64 item;

		if (parse_number(o, w, wl, &item, why, whylen))
			return -1;
		if (o->kind == OPT_FLAGS) {
			mask |= (u32)item;
			continue;
		}
		if (l.n == OPT_LIST_MAX) {
			ntb_snprintf(why, whylen, "at most %d values",
				     OPT_LIST_MAX);
			return -1;
		}
		l.v[l.n++] = (u32)item;
	}
	if ((o->kind == OPT_FLAGS ? !!mask : l.n) < o->min_items) {
		ntb_snprintf(why, whylen, "empty list");
		return -1;
	}
	if (o->kind == OPT_FLAGS)
		*(u32 *)o->var = mask;
	else
		*(struct opt_u32_list *)o->var = l;
	return 0;
}

static int parse_string(const struct ntb_option *o, const char *v, size_t len,
			char *why, size_t whylen)
{
	for (size_t i = 0; o->charset && i < len; i++) {
		char c = v[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') ||
		    (c && strchr(o->charset, c)))
			continue;
		ntb_snprintf(why, whylen,
			     "only letters, digits and %s allowed", o->charset);
		return -1;
	}
	if (len >= o->size) {
		ntb_snprintf(why, whylen, "longer than %u characters",
			     o->size - 1);
		return -1;
	}
	memcpy(o->var, v, len);
	((char *)o->var)[len] = '\0';
	return 0;
}

static int parse_size_value(const struct ntb_option *o, const char *v,
			    size_t len, char *why, size_t whylen)
{
	char min[24], unit[24], like[24];
	u64 sz;

	if (!parse_size(v, len, &sz) && sz >= o->lo && !(sz % o->hi)) {
		*(u64 *)o->var = sz;
		return 0;
	}
	size_text(min, sizeof(min), o->lo);
	size_text(unit, sizeof(unit), o->hi);
	size_text(like, sizeof(like), *(const u64 *)o->def);
	ntb_snprintf(why, whylen,
		     "expected a size of at least %s in %s units, like %s", min,
		     unit, like);
	return -1;
}

static int parse_value(struct ntb_option *o, const char *v, size_t len,
		       char *why, size_t whylen)
{
	u64 n;

	switch (o->kind) {
	case OPT_NUMBER:
		if (parse_number(o, v, len, &n, why, whylen))
			return -1;
		store_number(o, n);
		return 0;
	case OPT_SIZE:
		return parse_size_value(o, v, len, why, whylen);
	case OPT_STRING:
		return parse_string(o, v, len, why, whylen);
	case OPT_LIST:
	case OPT_FLAGS:
		return parse_list(o, v, len, why, whylen);
	case OPT_CUSTOM:
		return o->parse(o->var, v, len, why, whylen);
	}
	return -1;
}

void option_format(const struct ntb_option *o, char *buf, size_t len)
{
	const struct opt_u32_list *l = o->var;
	size_t n = 0;
	u64 v;

	buf[0] = '\0';
	switch (o->kind) {
	case OPT_NUMBER:
		v = load_number(o);
		for (const struct opt_word *w = o->words; w && w->word; w++) {
			if (!w->alias && (w->value == v ||
					  (o->size == 4 && (u32)w->value == v))) {
				ntb_snprintf(buf, len, "%s", w->word);
				return;
			}
		}
		ntb_snprintf(buf, len, "%llu", (unsigned long long)v);
		return;
	case OPT_SIZE:
		size_text(buf, len, *(const u64 *)o->var);
		return;
	case OPT_STRING:
		ntb_snprintf(buf, len, "%s", (const char *)o->var);
		return;
	case OPT_LIST:
		for (u32 i = 0; i < l->n && n < len; i++)
			n += ntb_snprintf(buf + n, len - n, "%s%u",
					  i ? "," : "", l->v[i]);
		return;
	case OPT_FLAGS:
		v = *(const u32 *)o->var;
		for (const struct opt_word *w = o->words; w->word && n < len;
		     w++)
			if (!w->alias && (v & w->value) == w->value)
				n += ntb_snprintf(buf + n, len - n, "%s%s",
						  n ? "," : "", w->word);
		return;
	case OPT_CUSTOM:
		ntb_snprintf(buf, len, "%s", o->set ? "(set)" : "(default)");
		return;
	}
}

size_t options_format_set(char *buf, size_t len)
{
	const struct ntb_option *o;
	size_t n = 0;

	buf[0] = '\0';
	for_each_option(o) {
		char v[256];

		if (!o->set)
			continue;
		option_format(o, v, sizeof(v));
		n += ntb_snprintf(buf + (n < len ? n : len - 1),
				  n < len ? len - n : 1, "%s%s=%s",
				  n ? " " : "", o->key, v);
	}
	/* Cut: say so rather than print a value that is not the run's. */
	if (n >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
	return n;
}

void options_set_defaults(void)
{
	struct ntb_option *o;

	for_each_option(o) {
		memcpy(o->var, o->def, o->size);
		o->set = false;
	}
}

struct ntb_option *options_find(const char *key, size_t len)
{
	struct ntb_option *o;

	/* Whole keys only: "sui=" or "suites=" is not "suite=". */
	for_each_option(o)
		if (word_eq(key, len, o->key))
			return o;
	return NULL;
}

/* Room for every option's variable and its set flag. */
#define STASH_BYTES 4096
static u8 stash[STASH_BYTES];
static bool stashed;

int options_stash(char *why, size_t len)
{
	struct ntb_option *o;
	size_t n = 0;

	for_each_option(o) {
		if (n + o->size + 1 > sizeof(stash)) {
			ntb_snprintf(why, len, "the options need more than "
				     "%u bytes to be set aside", STASH_BYTES);
			return -1;
		}
		memcpy(stash + n, o->var, o->size);
		stash[n + o->size] = o->set;
		n += o->size + 1;
	}
	stashed = true;
	return 0;
}

void options_unstash(void)
{
	struct ntb_option *o;
	size_t n = 0;

	if (!stashed)
		return;
	for_each_option(o) {
		memcpy(o->var, stash + n, o->size);
		o->set = stash[n + o->size];
		n += o->size + 1;
	}
	stashed = false;
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

/*
 * One "key=value" word. @as_default: a value for an option no word set,
 * which stays unset (the platform scaling); a set option is left alone.
 */
static int parse_word(const char *word, size_t len, const char *source,
		      struct opt_error *err, bool as_default)
{
	const char *eq = memchr(word, '=', len);
	char w[ECHO_MAX + 16], k[ECHO_MAX + 16];
	struct ntb_option *o;
	size_t klen;
	char why[160] = "";

	echo(w, sizeof(w), word, len);
	if (!eq) {
		ntb_snprintf(err->msg, sizeof(err->msg),
			     "%s: '%s' is not key=value", source, w);
		return -1;
	}
	klen = eq - word;
	o = options_find(word, klen);
	if (!o) {
		echo(k, sizeof(k), word, klen);
		ntb_snprintf(err->msg, sizeof(err->msg),
			     "%s: unknown key '%s' in '%s'", source, k, w);
		return -1;
	}
	if (as_default && o->set)
		return 0;
	if (parse_value(o, eq + 1, len - klen - 1, why, sizeof(why))) {
		ntb_snprintf(err->msg, sizeof(err->msg),
			     "%s: bad value in '%s': %s", source, w, why);
		return -1;
	}
	o->set = !as_default;
	return 0;
}

int options_parse_word(const char *word, size_t len, const char *source,
		       struct opt_error *err)
{
	return parse_word(word, len, source, err, false);
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

static int parse_text(const char *text, size_t len, const char *source,
		      struct opt_error *err, bool as_default)
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
		if (parse_word(text + start, i - start, source, err,
			       as_default))
			return -1;
	}
	return 0;
}

int options_parse(const char *text, size_t len, const char *source,
		  struct opt_error *err)
{
	return parse_text(text, len, source, err, false);
}

int options_parse_defaults(const char *text, struct opt_error *err)
{
	return parse_text(text, strlen(text), "defaults", err, true);
}

void options_print_help(void)
{
	struct ntb_option *o;

	for_each_option(o)
		kprintf("# option %s=  %s\n", o->key, o->help);
}
