// SPDX-License-Identifier: GPL-2.0-only
#include "lib/build_info.h"
#include "lib/printf.h"
#include "version.h"

#ifdef NTB_HOSTED
#define BUILD_TARGET "host"
#ifdef NTB_HOST_TESTS
#define BUILD_CONFIG "ntboot-test" /* the ASan/UBSan test program */
#else
#define BUILD_CONFIG "ntbench"
#endif
#else
#define BUILD_TARGET "image"
#ifdef NTB_NTCHECK
#define BUILD_CONFIG "ntcheck-image" /* with the ordering checker */
#else
#define BUILD_CONFIG "image"
#endif
#endif

/* Set by the Makefile for the image and the hosted programs. */
#ifndef NTB_BUILD_FLAGS
#define NTB_BUILD_FLAGS "unknown"
#endif

#ifdef __clang__
#define BUILD_COMPILER "clang " __clang_version__
#else
#define BUILD_COMPILER "gcc " __VERSION__
#endif

void build_info_print(void)
{
	kprintf("# build target=" BUILD_TARGET " config=" BUILD_CONFIG
		" compiler=\"%s\" flags=\"%s\" commit=%s dirty=%u\n",
		BUILD_COMPILER, NTB_BUILD_FLAGS, NTB_COMMIT, NTB_DIRTY);
}
