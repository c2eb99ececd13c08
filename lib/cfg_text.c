// SPDX-License-Identifier: GPL-2.0-only
#include "lib/cfg_text.h"
#include "lib/printf.h"
#include "lib/string.h"

/* Append code point @cp as UTF-8; false when @out is full. */
static bool put_utf8(char *out, size_t outlen, size_t *n, u32 cp)
{
	u8 b[4];
	size_t k;

	if (cp < 0x80) {
		b[0] = (u8)cp;
		k = 1;
	} else if (cp < 0x800) {
		b[0] = 0xc0 | (cp >> 6);
		b[1] = 0x80 | (cp & 0x3f);
		k = 2;
	} else if (cp < 0x10000) {
		b[0] = 0xe0 | (cp >> 12);
		b[1] = 0x80 | ((cp >> 6) & 0x3f);
		b[2] = 0x80 | (cp & 0x3f);
		k = 3;
	} else {
		b[0] = 0xf0 | (cp >> 18);
		b[1] = 0x80 | ((cp >> 12) & 0x3f);
		b[2] = 0x80 | ((cp >> 6) & 0x3f);
		b[3] = 0x80 | (cp & 0x3f);
		k = 4;
	}
	if (*n + k + 1 > outlen)
		return false;
	memcpy(out + *n, b, k);
	*n += k;
	return true;
}

static u16 unit16(const u8 *p, bool big_endian)
{
	return big_endian ? (u16)(p[0] << 8 | p[1]) : (u16)(p[1] << 8 | p[0]);
}

static int decode_utf16(const u8 *raw, size_t len, bool big_endian,
			char *out, size_t outlen, size_t *outn,
			const char *source, struct opt_error *err)
{
	const char *enc = big_endian ? "UTF-16BE" : "UTF-16LE";
	size_t n = 0;

	if (len % 2) {
		ntb_snprintf(err->msg, sizeof(err->msg),
			     "%s: %s text with an odd number of bytes (%zu): "
			     "the last byte is half a character", source, enc,
			     len + 2);
		return -1;
	}
	for (size_t i = 0; i < len; i += 2) {
		u32 cp = unit16(raw + i, big_endian);

		if (cp >= 0xd800 && cp < 0xdc00 && i + 3 < len) {
			u32 lo = unit16(raw + i + 2, big_endian);

			if (lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				     (lo - 0xdc00);
				i += 2;
			}
		}
		if (cp >= 0xd800 && cp < 0xe000) {
			ntb_snprintf(err->msg, sizeof(err->msg),
				     "%s: %s: unpaired surrogate 0x%04x at "
				     "byte %zu", source, enc, cp, i + 2);
			return -1;
		}
		if (!cp) {
			ntb_snprintf(err->msg, sizeof(err->msg),
				     "%s: %s: NUL character at byte %zu",
				     source, enc, i + 2);
			return -1;
		}
		if (!put_utf8(out, outlen, &n, cp)) {
			ntb_snprintf(err->msg, sizeof(err->msg),
				     "%s: %s text does not fit in %zu bytes",
				     source, enc, outlen);
			return -1;
		}
	}
	out[n] = '\0';
	*outn = n;
	return 0;
}

int cfg_text_decode(const u8 *raw, size_t len, char *out, size_t outlen,
		    size_t *outn, const char *source, struct opt_error *err)
{
	if (len >= 2 && raw[0] == 0xff && raw[1] == 0xfe)
		return decode_utf16(raw + 2, len - 2, false, out, outlen, outn,
				    source, err);
	if (len >= 2 && raw[0] == 0xfe && raw[1] == 0xff)
		return decode_utf16(raw + 2, len - 2, true, out, outlen, outn,
				    source, err);
	if (len >= 3 && raw[0] == 0xef && raw[1] == 0xbb && raw[2] == 0xbf) {
		raw += 3;
		len -= 3;
	}
	for (size_t i = 0; i < len; i++) {
		if (raw[i])
			continue;
		/* "s\0u\0i\0": UTF-16 that lost (or never had) its BOM. */
		if (len >= 4 && ((raw[0] && !raw[1] && raw[2] && !raw[3]) ||
				 (!raw[0] && raw[1] && !raw[2] && raw[3])))
			ntb_snprintf(err->msg, sizeof(err->msg),
				     "%s: looks like UTF-16 without a byte-order "
				     "mark (NUL byte at offset %zu): save it as "
				     "UTF-8 or ASCII", source, i);
		else
			ntb_snprintf(err->msg, sizeof(err->msg),
				     "%s: NUL byte at offset %zu: not a text "
				     "file", source, i);
		return -1;
	}
	if (len + 1 > outlen) {
		ntb_snprintf(err->msg, sizeof(err->msg),
			     "%s: %zu bytes do not fit in %zu", source, len,
			     outlen);
		return -1;
	}
	memcpy(out, raw, len);
	out[len] = '\0';
	*outn = len;
	return 0;
}

static bool text_char(u16 c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r';
}

int load_options_decode(const void *data, size_t bytes, char *out,
			size_t outlen, enum load_options_kind *kind,
			struct opt_error *err)
{
	const u8 *b = data;
	size_t units = bytes / 2, end, printable = 0;

	out[0] = '\0';
	*kind = LOAD_OPTIONS_NONE;
	if (!bytes)
		return 0;
	for (end = 0; end < units && unit16(b + 2 * end, false); end++)
		if (text_char(unit16(b + 2 * end, false)))
			printable++;
	/*
	 * Text starts with a printable character and is mostly ASCII; a
	 * GUID or a device path is neither. A text that holds a non-ASCII
	 * character is still text, and that character an error.
	 */
	if (!end || !text_char(unit16(b, false)) || printable * 2 < end) {
		*kind = LOAD_OPTIONS_BINARY;
		return 0;
	}
	*kind = LOAD_OPTIONS_TEXT;
	for (size_t i = 0; i < end; i++) {
		u16 c = unit16(b + 2 * i, false);

		if (!text_char(c)) {
			ntb_snprintf(err->msg, sizeof(err->msg),
				     "load options: character U+%04X at "
				     "position %zu is not ASCII (options are "
				     "ASCII key=value words)", c, i + 1);
			return -1;
		}
		if (i + 1 >= outlen) {
			ntb_snprintf(err->msg, sizeof(err->msg),
				     "load options: longer than %zu characters",
				     outlen - 1);
			return -1;
		}
		out[i] = (char)c;
	}
	out[end] = '\0';
	/* The terminator, then nothing: anything else would be unread. */
	for (size_t i = (end + 1) * 2; i < bytes; i++) {
		if (b[i]) {
			ntb_snprintf(err->msg, sizeof(err->msg),
				     "load options: %zu bytes after the end of "
				     "the text (byte %zu is 0x%02x) are not "
				     "read", bytes - (end + 1) * 2, i, b[i]);
			return -1;
		}
	}
	if (bytes % 2 && end == units) {
		ntb_snprintf(err->msg, sizeof(err->msg),
			     "load options: odd size (%zu bytes): the last "
			     "byte is half a character", bytes);
		return -1;
	}
	return 0;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static bool name_eq(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen != blen)
		return false;
	for (size_t i = 0; i < alen; i++)
		if (lower(a[i]) != lower(b[i]))
			return false;
	return true;
}

static bool has_efi_suffix(const char *s, size_t len)
{
	return len > 4 && name_eq(s + len - 4, 4, ".efi", 4);
}

const char *load_options_skip_image(const char *text, const char *image_file)
{
	const char *p = text, *w, *base;
	size_t wlen, blen, ilen = image_file ? strlen(image_file) : 0;

	while (*p == ' ' || *p == '\t')
		p++;
	w = p;
	while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
		p++;
	wlen = p - w;
	if (!wlen || !ilen || memchr(w, '=', wlen))
		return text;
	base = w;
	for (size_t i = 0; i < wlen; i++)
		if (w[i] == '\\' || w[i] == '/' || w[i] == ':')
			base = w + i + 1;
	blen = w + wlen - base;
	if (name_eq(base, blen, image_file, ilen) ||
	    (has_efi_suffix(image_file, ilen) &&
	     name_eq(base, blen, image_file, ilen - 4)))
		return p;
	return text;
}
