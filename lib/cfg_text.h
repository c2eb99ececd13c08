/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The raw bytes of the options, turned into the text the option parser
 * reads, or refused with a message that names what could not be read.
 *
 * Two inputs reach the image as bytes:
 * - ntboot.cfg, a file a person edits on another machine: ASCII or UTF-8,
 *   possibly with a byte-order mark; or UTF-16 with a byte-order mark, as
 *   Windows Notepad saves "Unicode" text. Non-ASCII characters are kept
 *   (as UTF-8), so a comment may hold any text; in an option word they
 *   make the word unknown or its value bad, and the parser says so.
 * - the UEFI load options: UCS-2 text from a shell or a boot entry, or an
 *   opaque blob that a boot manager attaches to its own entries (edk2 marks
 *   the entries it creates by itself with a 16-byte GUID). Text must be
 *   ASCII: a key or value is never anything else. A blob is not options:
 *   it is reported as such, never parsed and never mistaken for text.
 *
 * Nothing is dropped silently: every byte is either decoded, or the
 * decoder fails and says which byte and why.
 */
#ifndef NTBOOT_LIB_CFG_TEXT_H
#define NTBOOT_LIB_CFG_TEXT_H

#include "include/types.h"
#include "lib/options.h"

/*
 * Decode @len bytes of a configuration file into @out (@outlen bytes, NUL
 * terminated); *@outn gets the length. Accepts ASCII/UTF-8 (a UTF-8 BOM
 * is skipped) and UTF-16LE/BE with a BOM. @out needs at most
 * len * 3 / 2 + 1 bytes. Returns 0, or -1 with @err naming @source, the
 * offset and the reason.
 */
int cfg_text_decode(const u8 *raw, size_t len, char *out, size_t outlen,
		    size_t *outn, const char *source, struct opt_error *err);

enum load_options_kind {
	LOAD_OPTIONS_NONE,	/* no bytes */
	LOAD_OPTIONS_TEXT,	/* UCS-2 text, decoded into @out */
	LOAD_OPTIONS_BINARY,	/* a boot manager's blob: not options */
};

/*
 * Classify and decode the UEFI load options (@bytes bytes at @data, not
 * necessarily aligned). Text is decoded to ASCII in @out (NUL
 * terminated). Returns 0 with *@kind set, or -1 with @err: a character
 * that is not ASCII (named with its position and code point), text
 * longer than @outlen - 1, bytes after the text's terminator, an odd
 * byte count.
 */
int load_options_decode(const void *data, size_t bytes, char *out,
			size_t outlen, enum load_options_kind *kind,
			struct opt_error *err);

/*
 * A shell passes the command line as typed: the first word is the image
 * itself ("fs0:\EFI\BOOT\BOOTX64.EFI", "bootx64"). Returns where the
 * options start: past that first word when it names @image_file (the
 * image's file name, "BOOTX64.EFI"; compared without case, with or
 * without its ".efi" and any directory or volume before it), else @text.
 * Any other first word is parsed as an option, so a typo is never
 * mistaken for the image name.
 */
const char *load_options_skip_image(const char *text, const char *image_file);

#endif
