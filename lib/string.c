// SPDX-License-Identifier: GPL-2.0-only
/*
 * The C string functions for the image, declared in lib/string.h (the
 * compiler also emits calls to memcpy/memset/memmove/memcmp on its own).
 * Built into the image only: the host programs take the C library's
 * (lib/string.h says where each program gets them). Simple and obviously
 * correct: the measured copies live in arch/x86/lib, not here.
 */
#include "lib/string.h"

void *memcpy(void *dst, const void *src, size_t n)
{
	void *ret = dst;

	asm volatile("rep movsb"
		     : "+D"(dst), "+S"(src), "+c"(n)
		     :
		     : "memory");
	return ret;
}

void *memmove(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	if (d == s || !n)
		return dst;
	if (d < s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	void *ret = dst;

	asm volatile("rep stosb"
		     : "+D"(dst), "+c"(n)
		     : "a"(c)
		     : "memory");
	return ret;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;

	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const u8 *p = s;

	for (size_t i = 0; i < n; i++)
		if (p[i] == (u8)c)
			return (void *)(p + i);
	return NULL;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (u8)*a - (u8)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (a[i] != b[i])
			return (u8)a[i] - (u8)b[i];
		if (!a[i])
			return 0;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncmp(hay, needle, n))
			return (char *)hay;
	return n ? NULL : (char *)hay;
}
