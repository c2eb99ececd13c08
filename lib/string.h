/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The string functions portable code may use. Each program takes them
 * from one place: the image from lib/string.c, built into it alone; the
 * host programs (the hosted runner, the host tests, the fuzzers, the
 * oracles) from the C library, and never build lib/string.c (the
 * Makefile's IMAGE_LIBC_SRCS).
 */
#ifndef NTBOOT_LIB_STRING_H
#define NTBOOT_LIB_STRING_H

#include "include/types.h"

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strstr(const char *hay, const char *needle);
void *memchr(const void *s, int c, size_t n);

#endif
