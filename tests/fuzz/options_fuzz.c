// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for what a user types: the bytes of an ntboot.cfg
 * (cfg_text_decode(): UTF-8, UTF-16 with or without a BOM, comments,
 * line ends), then every word through the option registry
 * (options_parse(): every option the hosted runner registers, with its
 * parser), and the same bytes as UEFI load options
 * (load_options_decode(), load_options_skip_image()). ASan and UBSan see
 * any read past a buffer; the decoders' promises are checked: output
 * NUL-terminated within its buffer, a failure says why.
 *
 * Host only: built from every portable source and the hosted platform
 * (the registry is a linker section filled by the files that declare the
 * options), `make fuzz-short` runs it from a corpus of the tests' inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cfg_text.h"
#include "lib/options.h"

#define OUT_MAX 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_text(const char *out, size_t outn, const char *what)
{
	if (outn >= OUT_MAX || out[outn] != '\0' || strlen(out) != outn) {
		fprintf(stderr, "%s: %zu bytes, not NUL-terminated there\n",
			what, outn);
		abort();
	}
}

/*
 * The words in a buffer of exactly their length (no NUL after them), so
 * that a read one past the end is a heap-buffer-overflow.
 */
static void parse_exact(const char *text, size_t len, const char *source)
{
	char *copy = malloc(len ? len : 1);
	struct opt_error err;

	if (!copy)
		abort();
	memcpy(copy, text, len);
	memset(&err, 0, sizeof(err));
	if (options_parse(copy, len, source, &err) && !err.msg[0]) {
		fprintf(stderr, "options_parse failed saying nothing\n");
		abort();
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[OUT_MAX];
	struct opt_error err;
	enum load_options_kind kind;
	size_t outn = 0;

	/* The decoders' contract: room for len * 3 / 2 + 1 bytes. */
	if (size > (OUT_MAX - 1) * 2 / 3)
		return 0;
	options_set_defaults();
	memset(&err, 0, sizeof(err));
	if (!cfg_text_decode(data, size, out, sizeof(out), &outn, "fuzz.cfg",
			     &err)) {
		check_text(out, outn, "cfg_text_decode");
		parse_exact(out, outn, "fuzz.cfg");
	} else if (!err.msg[0]) {
		fprintf(stderr, "cfg_text_decode failed saying nothing\n");
		abort();
	}

	options_set_defaults();
	memset(&err, 0, sizeof(err));
	if (!load_options_decode(data, size, out, sizeof(out), &kind, &err) &&
	    kind == LOAD_OPTIONS_TEXT) {
		const char *rest;

		check_text(out, strlen(out), "load_options_decode");
		rest = load_options_skip_image(out, "\\EFI\\BOOT\\BOOTX64.EFI");
		if (rest < out || rest > out + strlen(out)) {
			fprintf(stderr,
				"load_options_skip_image out of text\n");
			abort();
		}
		parse_exact(rest, strlen(rest), "load options");
	}
	options_set_defaults();
	return 0;
}
