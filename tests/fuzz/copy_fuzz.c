// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the out-of-line copies: __memcpy_flushcache() and
 * memcpy_nocache(). The input picks the routine, the destination and
 * source offsets, the size and the cache write-back instruction; the rest
 * of it is the data. Every copy is compared with memcpy() over the whole
 * destination buffer, guard bytes on both sides included; the buffers are
 * allocated to the exact size, so ASan sees any read or write beyond them.
 *
 * Host only (clang -fsanitize=fuzzer,address,undefined): `make fuzz`
 * builds build/host/copy_fuzz, `make fuzz-short` runs it for 20 seconds.
 * It lives outside the directories the other builds glob.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/cpu.h"
#include "arch/x86/lib/clean_cache.h"
#include "model/arch/x86/include/asm/string_64.h"
#include "arch/x86/lib/copy_clean.h"
#include "include/platform.h"

#define GUARD 32
#define MAX_COPY 16384

/* lib/printf.c prints through the platform console. */
void plat_console_write(const char *s, size_t len)
{
	fwrite(s, 1, len, stderr);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	cpu_detect(&boot_cpu_data);
	return 0;
}

static void nocache(void *dst, const void *src, size_t n)
{
	if (memcpy_nocache(dst, src, n) != dst)
		abort();
}

/* A size the compiler cannot see: the non-constant path of the inline. */
static void flushcache_inline(void *dst, const void *src, size_t n)
{
	memcpy_flushcache(dst, src, n);
}

static void (*const routines[])(void *, const void *, size_t) = {
	__memcpy_flushcache,
	nocache,
	flushcache_inline,
};
static const char *const routine_names[] = {
	"__memcpy_flushcache",
	"memcpy_nocache",
	"memcpy_flushcache",
};

static const enum clean_cache_method methods[] = {
	CLEAN_CACHE_CLWB,
	CLEAN_CACHE_CLFLUSHOPT,
	CLEAN_CACHE_CLFLUSH,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int which, doff, soff, method;
	size_t n, dst_len;
	uint8_t *dst, *ref, *src;

	if (size < 6)
		return 0;
	which = data[0] % (sizeof(routines) / sizeof(routines[0]));
	doff = data[1] & 127;
	soff = data[2] & 127;
	n = ((size_t)data[3] | (size_t)data[4] << 8) % (MAX_COPY + 1);
	method = data[5] % (sizeof(methods) / sizeof(methods[0]));
	data += 6;
	size -= 6;

	/* Exact sizes: ASan reports any access past the ends. */
	dst_len = GUARD + doff + n + GUARD;
	dst = malloc(dst_len);
	ref = malloc(dst_len);
	src = malloc(soff + n ? soff + n : 1);
	if (!dst || !ref || !src)
		abort();
	for (size_t i = 0; i < soff + n; i++)
		src[i] = size ? data[i % size] ^ (uint8_t)(i / size) :
				(uint8_t)(i * 131 + 7);
	for (size_t i = 0; i < dst_len; i++)
		dst[i] = (uint8_t)(0xa5 ^ (i * 29));
	memcpy(ref, dst, dst_len);
	memcpy(ref + GUARD + doff, src + soff, n);

	if (clean_cache_method_supported(methods[method]))
		clean_cache_use_method(methods[method], NULL);
	else
		clean_cache_use_method(CLEAN_CACHE_AUTO, NULL);

	routines[which](dst + GUARD + doff, src + soff, n);
	memcpy_nt_drain();

	if (memcmp(dst, ref, dst_len)) {
		size_t i = 0;

		while (dst[i] == ref[i])
			i++;
		fprintf(stderr,
			"%s(dst+%u, src+%u, %zu) with %s: byte %ld (from dst) "
			"is 0x%02x, expected 0x%02x\n",
			routine_names[which], doff, soff, n,
			clean_cache_method_name(clean_cache_current_method()),
			(long)i - (long)(GUARD + doff), dst[i], ref[i]);
		abort();
	}
	free(dst);
	free(ref);
	free(src);
	return 0;
}
