/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Run options: "key=value" words from the UEFI load options, then from
 * ntboot.cfg beside the image (one per line, '#' starts a comment), or from
 * the command line of the host programs. Later words win.
 *
 * Each option is declared by the code that reads it, like the kernel's
 * module_param(): one DEFINE_OPTION_*() line defines the variable
 * (opt_<name>), its default, what it accepts and its help text, and puts
 * a pointer to its descriptor in the "ntb_options" linker section. The
 * parser, the defaults, the help (list=on) and the platform scaling
 * (lib/scale.c) walk that section. An unknown key or a bad value is an
 * error that names the word and where it came from. docs/options.md says
 * how to add one.
 */
#ifndef NTBOOT_LIB_OPTIONS_H
#define NTBOOT_LIB_OPTIONS_H

#include "include/compiler.h"
#include "include/types.h"

#define OPT_LIST_MAX 8

/*
 * The namespace modes of mode= (tests/engines/bench_util.c), a bit each:
 * the memmap model maps them to folio orders.
 */
enum ntb_mode {
	MODE_FSDAX = 1 << 0,
	MODE_DEVDAX2M = 1 << 1,
	MODE_DEVDAX1G = 1 << 2,
};

struct opt_error {
	char msg[256];
};

/* A word a number option also takes ("off", "all"), and its value. */
struct opt_word {
	const char *word;
	u64 value;
	bool alias;	/* accepted, but not named in messages ("yes", "1") */
};

/* The variable of a DEFINE_OPTION_LIST(). */
struct opt_u32_list {
	u32 n;
	u32 v[OPT_LIST_MAX];
};

enum opt_kind {
	OPT_NUMBER,	/* a word of @words, or a number from @lo to @hi */
	OPT_SIZE,	/* "100G": at least @lo, a multiple of @hi */
	OPT_STRING,	/* up to sizeof - 1 characters, of @charset if set */
	OPT_LIST,	/* comma-separated OPT_NUMBER items: opt_u32_list */
	OPT_FLAGS,	/* comma-separated words whose values are OR-ed */
	OPT_CUSTOM,	/* @parse does it all */
};

struct ntb_option {
	const char *key;
	const char *help;
	enum opt_kind kind;
	void *var;		/* the owner's variable */
	const void *def;	/* its default: a constant of the same type */
	u32 size;		/* sizeof the variable */
	const struct opt_word *words; /* NULL-terminated, or NULL */
	u64 lo, hi;		/* numbers accepted; lo > hi: words only */
	/* The reason of a bad value, where a made-up one would say less. */
	const char *expect;
	const char *charset;	/* OPT_STRING: punctuation allowed */
	u32 min_items;		/* OPT_LIST, OPT_FLAGS */
	int (*parse)(void *var, const char *v, size_t len, char *why,
		     size_t whylen);
	/* Given by a word since the last options_set_defaults(). */
	bool set;
};

#define __OPT_UNPAREN(...) __VA_ARGS__

/*
 * The one definition behind every DEFINE_OPTION_*(): @type may be an
 * array type (char[64]); @fields is a parenthesised list of descriptor
 * fields; the default comes last so it may hold commas.
 */
#define __DEFINE_OPTION(type, name, key_, help_, fields, ...)                \
	__typeof__(type) opt_##name = __VA_ARGS__;                           \
	static const __typeof__(type) __opt_def_##name = __VA_ARGS__;       \
	struct ntb_option ntb_option_##name = {                              \
		.key = key_,                                                 \
		.help = help_,                                               \
		.var = &opt_##name,                                          \
		.def = &__opt_def_##name,                                    \
		.size = sizeof(opt_##name),                                  \
		__OPT_UNPAREN fields                                         \
	};                                                                   \
	static struct ntb_option *const __ntb_option_ptr_##name __used      \
		__section("ntb_options") __aligned(8) = &ntb_option_##name

extern struct ntb_option *const __start_ntb_options[];
extern struct ntb_option *const __stop_ntb_options[];

/* Every registered option, in link order. */
#define for_each_option(o)                                                   \
	for (struct ntb_option *const *__p = __start_ntb_options;            \
	     __p < __stop_ntb_options && ((o) = *__p, 1); __p++)

/* For the owner's header: the descriptor, to ask option_is_set(). */
#define DECLARE_OPTION(name) extern struct ntb_option ntb_option_##name
#define option_is_set(name) (ntb_option_##name.set)

/* A number from @lo to @hi, or a word of @words: "off", "all"... */
#define DEFINE_OPTION_NUMBER_NAMED(type, name, key, def, words_, lo_, hi_,    \
				   expect_, help)                            \
	__DEFINE_OPTION(type, name, key, help,                               \
			(.kind = OPT_NUMBER, .words = words_, .lo = lo_,     \
			 .hi = hi_, .expect = expect_),                      \
			def)
#define DEFINE_OPTION_NUMBER(type, name, def, words, lo, hi, expect, help)    \
	DEFINE_OPTION_NUMBER_NAMED(type, name, #name, def, words, lo, hi,     \
				   expect, help)
#define DEFINE_OPTION_U32(name, def, lo, hi, help)                           \
	DEFINE_OPTION_NUMBER(u32, name, def, NULL, lo, hi, NULL, help)
#define DEFINE_OPTION_U64(name, def, lo, hi, help)                           \
	DEFINE_OPTION_NUMBER(u64, name, def, NULL, lo, hi, NULL, help)
#define DEFINE_OPTION_U64_NAMED(name, key, def, lo, hi, help)                \
	DEFINE_OPTION_NUMBER_NAMED(u64, name, key, def, NULL, lo, hi, NULL,   \
				   help)
/* One of @words only: an enum. */
#define DEFINE_OPTION_ENUM(type, name, def, words, help)                     \
	DEFINE_OPTION_NUMBER(type, name, def, words, 1, 0, NULL, help)

extern const struct opt_word opt_bool_words[];
/* on/off (also 1/0, yes/no, true/false). */
#define DEFINE_OPTION_BOOL(name, def, help)                                  \
	DEFINE_OPTION_ENUM(bool, name, def, opt_bool_words, help)

/* A size in bytes ("100G"): at least @min, a multiple of @unit. */
#define DEFINE_OPTION_SIZE(name, def, min, unit, help)                       \
	__DEFINE_OPTION(u64, name, #name, help,                              \
			(.kind = OPT_SIZE, .lo = min, .hi = unit), def)

/* A string of up to @size - 1 characters; @charset: punctuation allowed
 * beside letters and digits, or NULL for anything. Default "". */
#define DEFINE_OPTION_STRING(name, size, charset_, help)                     \
	__DEFINE_OPTION(char[size], name, #name, help,                       \
			(.kind = OPT_STRING, .charset = charset_), "")

/*
 * A comma-separated list of up to OPT_LIST_MAX items (struct opt_u32_list),
 * each a word of @words or a number from @lo to @hi; at least @min_items.
 * The default items come last: DEFINE_OPTION_LIST(..., 64, 80, 96).
 */
#define DEFINE_OPTION_LIST(name, key, words_, lo_, hi_, min_items_, expect_,  \
			   help, ...)                                        \
	__DEFINE_OPTION(struct opt_u32_list, name, key, help,                \
			(.kind = OPT_LIST, .words = words_, .lo = lo_,       \
			 .hi = hi_, .min_items = min_items_,                 \
			 .expect = expect_),                                 \
			{ .n = sizeof((u32[]){ 0, ##__VA_ARGS__ }) /         \
				       sizeof(u32) - 1,                      \
			  .v = { __VA_ARGS__ } })

/* A comma-separated list of @words, their values OR-ed into a u32. */
#define DEFINE_OPTION_FLAGS(name, def, words_, expect_, help)                \
	__DEFINE_OPTION(u32, name, #name, help,                              \
			(.kind = OPT_FLAGS, .words = words_, .lo = 1,        \
			 .hi = 0, .min_items = 1, .expect = expect_),        \
			def)

/*
 * Anything else: @parse_fn(&opt_<name>, value, len, why, whylen) fills the
 * variable or returns -1 with the reason. The default comes last.
 */
#define DEFINE_OPTION_CUSTOM(type, name, parse_fn, help, ...)                \
	__DEFINE_OPTION(type, name, #name, help,                             \
			(.kind = OPT_CUSTOM, .parse = parse_fn), __VA_ARGS__)

/* Every option back to its default, none of them set. */
void options_set_defaults(void);

/*
 * Parse @len bytes of @text: words separated by blanks or newlines, '#'
 * comments to the end of the line. @source names the origin for messages
 * ("load options", "ntboot.cfg", "argv"). Returns 0, or -1 with @err
 * filled; words before the bad one are applied, nothing after it.
 */
int options_parse(const char *text, size_t len, const char *source,
		  struct opt_error *err);

/* Parse one "key=value" word. */
int options_parse_word(const char *word, size_t len, const char *source,
		       struct opt_error *err);

/* The option whose key is exactly @len bytes of @key, or NULL. */
struct ntb_option *options_find(const char *key, size_t len);

/*
 * Apply the "key=value" words of @text as new defaults: an option a word
 * already set keeps its value, and none becomes set. Returns 0, or -1
 * with @err filled (an unknown key, a bad value: a bug of the caller).
 */
int options_parse_defaults(const char *text, struct opt_error *err);

/* @opt's value as a word would give it ("64M", "3", "off"). */
void option_format(const struct ntb_option *opt, char *buf, size_t len);

/*
 * Every option a word set, as "key=value key=value" in the registry's
 * order, each value as option_format() gives it: what the run was asked
 * to do, whatever the source (cfg file, load options, argv). Returns the
 * length it needed: @len or more means @buf holds a cut text ending in
 * "...".
 */
size_t options_format_set(char *buf, size_t len);

/*
 * The suites that parse options set the run's own aside first and put
 * them back after: options_stash() fails (with @why) when they do not
 * fit its buffer.
 */
int options_stash(char *why, size_t len);
void options_unstash(void);

/* Parse "100G", "512M", "4096" (bytes; K/M/G/T binary suffixes). */
int parse_size(const char *s, size_t len, u64 *out);
/* Parse decimal or 0x-hex into @out, rejecting overflow and junk. */
int parse_u64(const char *s, size_t len, u64 *out);

/* Print every key with its help text, one "# option" line each. */
void options_print_help(void);

#endif
