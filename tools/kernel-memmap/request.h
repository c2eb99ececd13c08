/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The request that the hosted runner (host/kernel_memmap.c) hands
 * the kernel memmap runner (runner.c) and the answer it gets back: the
 * first bytes of a memory file both map (the runner's fd 3), followed by
 * the memmap window and one byte per pageblock. Both sides are C for
 * user space; the glue (glue.c) does not see it.
 *
 * The runs go over a socket, the runner's fd 4, a byte each way: the
 * runner says KMEMMAP_READY once it has laid out the namespace and
 * patched its text; each KMEMMAP_RUN it is sent makes one call, answered
 * KMEMMAP_RAN with the call's TSC cycles in @cycles and its pageblock
 * bits in the file. The kernel's code writes its memmap in memory of the
 * runner's own, not in the file (runner.c says why): the runner poisons
 * it there as the request asks before the call, and copies what it
 * poisoned into the window after it. The runner exits when the socket
 * closes, and on any failure (why in @why; the socket then reads end of
 * file).
 */
#ifndef NTBOOT_KERNEL_MEMMAP_REQUEST_H
#define NTBOOT_KERNEL_MEMMAP_REQUEST_H

#define KMEMMAP_MAGIC 0x70616d6d656d6b6eULL /* "nkmemmap" */
#define KMEMMAP_VERSION 6

/* The "# kernel-object" line's text, as kernel_memmap_call has it. */
#define KMEMMAP_OBJECT_LEN 512

#define KMEMMAP_READY 'k'
#define KMEMMAP_RUN 'r'
#define KMEMMAP_RAN 'd'
/*
 * In place of KMEMMAP_READY: the request asked for plain returns where
 * the CPU's kernel returns plainly already (why in @why); the runner
 * exits.
 */
#define KMEMMAP_SAME 's'

/* The longest reason the return sites hold what they hold. */
#define KMEMMAP_RETURN_FROM_LEN 192

/*
 * Set in the environment, it chooses every kernel contender's return
 * sites (patch.c), and ntbench runs no twin with plain returns beside
 * it (host/kernel_memmap.c).
 */
#define KMEMMAP_RETURN_THUNK_ENV "NTB_KERNEL_RETURN_THUNK"

/* The most struct pages one run's poison may name (a run's sample). */
#define KMEMMAP_POISON_PFNS 1024

struct kmemmap_request {
	unsigned long long magic, version;
	/* memmap_init_zone_device(zone, start_pfn, nr_pages, pgmap) */
	unsigned long long start_pfn, nr_pages;
	unsigned long long order; /* pgmap->vmemmap_shift */
	long long type;		  /* enum memory_type (6.12's) */
	long long nid;
	unsigned long long altmap; /* 0, or 1: PGMAP_ALTMAP_VALID */
	unsigned long long altmap_reserve, altmap_free;
	/*
	 * 1: every return site as RET, where the CPU's kernel returns
	 * through a thunk (a build's plain_returns: twin); 0: as booted.
	 */
	unsigned long long plain_returns;
	/*
	 * The window the file holds: the struct pages of base_pfn..
	 * base_pfn + nr_pfns - 1 from pages_offset (a struct page of
	 * page_size bytes each), and one byte per pageblock (of
	 * pageblock_pages pfns) from pageblocks_pfn at pageblocks_offset.
	 */
	unsigned long long base_pfn, nr_pfns, page_size, pages_offset;
	unsigned long long pageblock_pages, pageblocks_pfn, nr_pageblocks;
	unsigned long long pageblocks_offset;
	/*
	 * Before the next call: poison_all, every struct page of the
	 * window's pfns set to poison_byte by streaming stores; else the
	 * poison_nr struct pages of poison_pfns[] by cached stores. After
	 * the call those struct pages (all of them where poison_all, or
	 * where nothing was poisoned) are copied into the window. The
	 * runner clears the request once it has made the call.
	 */
	unsigned long long poison_all, poison_byte, poison_nr;
	unsigned long long poison_pfns[KMEMMAP_POISON_PFNS];
	/* The answer. */
	unsigned long long done;	     /* the calls that returned */
	unsigned long long cycles;	     /* the last call's, TSC */
	unsigned long long pages_addr;	     /* the kernel's base_pfn page */
	unsigned long long pgmap_addr;	     /* the kernel's dev_pagemap */
	unsigned long long kernel_page_size; /* sizeof(struct page) */
	unsigned long long kernel_pageblock_pages;
	char why[256]; /* why not, when not done */
	/*
	 * The object and how the runner patched it before the call, for
	 * the run's "# kernel-object" line: "mm_init.o 6.12.118 fentry=..."
	 */
	char object[KMEMMAP_OBJECT_LEN];
	/*
	 * What the return sites hold ("ret", "safe_ret", "jmp_ret") and
	 * why, as the object line says them.
	 */
	char return_thunk[16];
	char return_thunk_from[KMEMMAP_RETURN_FROM_LEN];
	/*
	 * The SHA-256 of the patch files the objects were built with, one
	 * after another (tools/kernel-memmap/build), in hex: the hosted
	 * runner refuses a runner built from other ones than its entry of
	 * manifest/strategies.yaml names.
	 */
	char patches_sha256[65];
};

#endif
