// SPDX-License-Identifier: GPL-2.0-only
/*
 * Freestanding vsnprintf. Output is always NUL-terminated when size > 0 and
 * the return value is the length the full output would have had, as C99
 * specifies, so callers can detect truncation.
 */
#include "lib/printf.h"
#include "include/platform.h"

/*
 * Where the output goes: @buf of @size bytes, @pos characters so far. With
 * @flush, a full @buf is handed to it and refilled (@base: the characters
 * already handed over), so nothing is cut however long the output; without,
 * what does not fit is counted and dropped, as vsnprintf() does.
 */
struct outbuf {
	char *buf;
	size_t size;
	size_t pos;
	size_t base;
	void (*flush)(const char *s, size_t len);
};

static void put_char(struct outbuf *o, char c)
{
	if (o->flush && o->pos - o->base + 1 >= o->size) {
		o->flush(o->buf, o->pos - o->base);
		o->base = o->pos;
	}
	if (o->pos - o->base + 1 < o->size)
		o->buf[o->pos - o->base] = c;
	o->pos++;
}

static void put_repeat(struct outbuf *o, char c, int n)
{
	while (n-- > 0)
		put_char(o, c);
}

#define F_LEFT 0x01
#define F_ZERO 0x02
#define F_PLUS 0x04
#define F_SPACE 0x08
#define F_ALT 0x10
#define F_UPPER 0x20
/* Flags that unsigned conversions ignore: they print no sign. */
#define UNSIGNED_IGNORES (F_PLUS | F_SPACE)

static void put_number(struct outbuf *o, u64 val, bool negative,
		       unsigned int base, int flags, int width, int prec)
{
	const char *digits =
		(flags & F_UPPER) ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int len = 0, sign_len = 0, prefix_len = 0, zeros, pad;
	char sign = 0;

	if (val == 0 && prec == 0) {
		len = 0;
	} else {
		do {
			tmp[len++] = digits[val % base];
			val /= base;
		} while (val);
	}
	/* '+' and ' ' are for signed conversions only (see the callers). */
	if (negative)
		sign = '-';
	else if (flags & F_PLUS)
		sign = '+';
	else if (flags & F_SPACE)
		sign = ' ';
	if (sign)
		sign_len = 1;
	if ((flags & F_ALT) && base == 16 && len)
		prefix_len = 2;

	zeros = prec > len ? prec - len : 0;
	/*
	 * '#' with 'o': the first digit is a zero, added only where neither
	 * the precision nor the value gives one ("%#o" of 0 is "0").
	 */
	if ((flags & F_ALT) && base == 8 && !zeros &&
	    !(len && tmp[len - 1] == '0'))
		zeros = 1;
	pad = width - (sign_len + prefix_len + zeros + len);
	if (pad > 0 && (flags & F_ZERO) && !(flags & F_LEFT) && prec < 0) {
		zeros += pad;
		pad = 0;
	}
	if (!(flags & F_LEFT))
		put_repeat(o, ' ', pad);
	if (sign)
		put_char(o, sign);
	if (prefix_len) {
		put_char(o, '0');
		put_char(o, (flags & F_UPPER) ? 'X' : 'x');
	}
	put_repeat(o, '0', zeros);
	while (len)
		put_char(o, tmp[--len]);
	if (flags & F_LEFT)
		put_repeat(o, ' ', pad);
}

static void put_string(struct outbuf *o, const char *s, int flags, int width,
		       int prec)
{
	int len = 0;

	if (!s)
		s = "(null)";
	/* With a precision the array need not end in a NUL: no read past it. */
	while ((prec < 0 || len < prec) && s[len])
		len++;
	if (!(flags & F_LEFT))
		put_repeat(o, ' ', width - len);
	for (int i = 0; i < len; i++)
		put_char(o, s[i]);
	if (flags & F_LEFT)
		put_repeat(o, ' ', width - len);
}

enum length { LEN_INT, LEN_CHAR, LEN_SHORT, LEN_LONG, LEN_LLONG, LEN_SIZE };

static u64 fetch_unsigned(va_list *ap, enum length l)
{
	switch (l) {
	case LEN_CHAR:
		return (unsigned char)va_arg(*ap, unsigned int);
	case LEN_SHORT:
		return (unsigned short)va_arg(*ap, unsigned int);
	case LEN_LONG:
		return va_arg(*ap, unsigned long);
	case LEN_LLONG:
		return va_arg(*ap, unsigned long long);
	case LEN_SIZE:
		return va_arg(*ap, size_t);
	default:
		return va_arg(*ap, unsigned int);
	}
}

static s64 fetch_signed(va_list *ap, enum length l)
{
	switch (l) {
	case LEN_CHAR:
		return (signed char)va_arg(*ap, int);
	case LEN_SHORT:
		return (short)va_arg(*ap, int);
	case LEN_LONG:
		return va_arg(*ap, long);
	case LEN_LLONG:
		return va_arg(*ap, long long);
	case LEN_SIZE:
		return va_arg(*ap, ptrdiff_t);
	default:
		return va_arg(*ap, int);
	}
}

/* @fmt with @ap_in into @o; returns the length of the whole output. */
static int format_into(struct outbuf *o, const char *fmt, va_list ap_in)
{
	va_list ap;

	va_copy(ap, ap_in);
	while (*fmt) {
		int flags = 0, width = 0, prec = -1;
		enum length l = LEN_INT;
		char c = *fmt++;

		if (c != '%') {
			put_char(o, c);
			continue;
		}
		for (;; fmt++) {
			if (*fmt == '-')
				flags |= F_LEFT;
			else if (*fmt == '0')
				flags |= F_ZERO;
			else if (*fmt == '+')
				flags |= F_PLUS;
			else if (*fmt == ' ')
				flags |= F_SPACE;
			else if (*fmt == '#')
				flags |= F_ALT;
			else
				break;
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				flags |= F_LEFT;
				width = -width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9')
				width = width * 10 + (*fmt++ - '0');
		}
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				prec = va_arg(ap, int);
				if (prec < 0)
					prec = -1;
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9')
					prec = prec * 10 + (*fmt++ - '0');
			}
		}
		if (*fmt == 'h') {
			fmt++;
			l = LEN_SHORT;
			if (*fmt == 'h') {
				fmt++;
				l = LEN_CHAR;
			}
		} else if (*fmt == 'l') {
			fmt++;
			l = LEN_LONG;
			if (*fmt == 'l') {
				fmt++;
				l = LEN_LLONG;
			}
		} else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j') {
			fmt++;
			l = (fmt[-1] == 'j') ? LEN_LLONG : LEN_SIZE;
		}

		c = *fmt;
		if (!c)
			break;
		fmt++;
		switch (c) {
		case 'd':
		case 'i': {
			s64 v = fetch_signed(&ap, l);
			u64 mag = v < 0 ? (u64)0 - (u64)v : (u64)v;

			put_number(o, mag, v < 0, 10, flags, width, prec);
			break;
		}
		case 'u':
			put_number(o, fetch_unsigned(&ap, l), false, 10,
				   flags & ~UNSIGNED_IGNORES, width, prec);
			break;
		case 'X':
			flags |= F_UPPER;
			/* fall through */
		case 'x':
			put_number(o, fetch_unsigned(&ap, l), false, 16,
				   flags & ~UNSIGNED_IGNORES, width, prec);
			break;
		case 'o':
			put_number(o, fetch_unsigned(&ap, l), false, 8,
				   flags & ~UNSIGNED_IGNORES, width, prec);
			break;
		case 'p':
			put_number(o, (uptr)va_arg(ap, void *), false, 16,
				   (flags & ~UNSIGNED_IGNORES) | F_ALT, width,
				   prec);
			break;
		case 's':
			put_string(o, va_arg(ap, const char *), flags, width,
				   prec);
			break;
		case 'c': {
			char ch = (char)va_arg(ap, int);

			if (!(flags & F_LEFT))
				put_repeat(o, ' ', width - 1);
			put_char(o, ch);
			if (flags & F_LEFT)
				put_repeat(o, ' ', width - 1);
			break;
		}
		case '%':
			put_char(o, '%');
			break;
		default:
			/* Unknown conversion: print it verbatim so it is seen.
			 */
			put_char(o, '%');
			put_char(o, c);
			break;
		}
	}
	va_end(ap);
	return (int)o->pos;
}

int ntb_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct outbuf o = {.buf = buf, .size = size};
	int n = format_into(&o, fmt, ap);

	if (size)
		buf[o.pos < size ? o.pos : size - 1] = '\0';
	return n;
}

int ntb_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = ntb_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int ntb_vprintf_flushed(void (*flush)(const char *s, size_t len), char *buf,
			size_t size, const char *fmt, va_list ap)
{
	struct outbuf o = {.buf = buf, .size = size, .flush = flush};
	int n = format_into(&o, fmt, ap);

	flush(buf, o.pos - o.base);
	return n;
}

/* Written 511 bytes at a time where longer: never cut. */
int vkprintf(const char *fmt, va_list ap)
{
	char buf[512];

	return ntb_vprintf_flushed(plat_console_write, buf, sizeof(buf), fmt,
				   ap);
}

int kprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vkprintf(fmt, ap);
	va_end(ap);
	return n;
}

int ntb_fmt_fixed(char *buf, size_t size, u64 num, u64 den,
		  unsigned int decimals)
{
	char digits[24];
	u64 whole, rem;
	unsigned int i;

	if (den == 0)
		return ntb_snprintf(buf, size, "nan");
	if (decimals > sizeof(digits) - 1)
		decimals = sizeof(digits) - 1;
	/* Long division keeps rem * 10 in 64 bits: scale huge divisors down. */
	while (den > ~0ull / 10) {
		den >>= 1;
		num >>= 1;
	}
	whole = num / den;
	rem = num % den;
	for (i = 0; i < decimals; i++) {
		rem *= 10;
		digits[i] = (char)('0' + rem / den);
		rem %= den;
	}
	/* Round half up, carrying through the digits into the whole part. */
	if (rem >= den - rem) {
		for (i = decimals; i > 0; i--) {
			if (digits[i - 1] != '9') {
				digits[i - 1]++;
				break;
			}
			digits[i - 1] = '0';
		}
		if (i == 0)
			whole++;
	}
	digits[decimals] = '\0';
	if (!decimals)
		return ntb_snprintf(buf, size, "%llu", whole);
	return ntb_snprintf(buf, size, "%llu.%s", whole, digits);
}
