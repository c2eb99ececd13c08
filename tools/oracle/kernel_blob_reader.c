// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-blob-reader: the image's kernel blob reader (lib/kernel_blob.c)
 * over a blob file, for tools/check-kernel-blob to compare with an
 * independent reading of the ELF it was packed from (pyelftools). The
 * file is read into a buffer of exactly its size (ASan sees any read past
 * it).
 *
 * kernel-blob-reader BLOB [ADDR...] prints, one logfmt line each,
 *   read rc=0 why=""
 *   header link=0x... image_offset=N text=N data=N bss=N span=N ...
 *   entry N=0x...                      (each of the glue's functions)
 *   part NAME=0x...+N                  (each range of the header)
 *   symbol addr=0x... name=NAME offset=0x...   (each ADDR, or name=-)
 * rc=1 (a none blob) and rc=-1 (refused) print the reason and stop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/kernel_blob.h"

void plat_console_write(const char *s, size_t len)
{
	fwrite(s, 1, len, stderr);
}

static void *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	void *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "kernel-blob-reader: cannot read %s\n", path);
		exit(2);
	}
	buf = malloc(n ? n : 1);
	if (!buf || fread(buf, 1, n, f) != (size_t)n) {
		fprintf(stderr, "kernel-blob-reader: cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	*len = n;
	return buf;
}

static void part(const char *name, const struct kernel_blob_range *r)
{
	printf("part %s=%#llx+%llu\n", name, r->addr, r->size);
}

int main(int argc, char **argv)
{
	struct kernel_blob b;
	char why[256];
	size_t len;
	void *bytes;
	int rc;

	if (argc < 2) {
		fprintf(stderr, "usage: kernel-blob-reader BLOB [ADDR...]\n");
		return 2;
	}
	bytes = read_file(argv[1], &len);
	rc = kernel_blob_read(&b, bytes, len, why, sizeof(why));
	printf("read rc=%d why=\"%s\"\n", rc, rc ? why : "");
	if (rc) {
		free(bytes);
		return 0;
	}
	printf("header link=%#llx image_offset=%llu text=%llu data=%llu "
	       "bss=%llu span=%llu symbols=%llu object=%s release=%s "
	       "patches=%llu patches_sha256=%s\n",
	       b.h->link_addr, b.h->image_offset, b.h->text_size,
	       b.h->data_size, b.h->bss_size, kernel_blob_span(&b),
	       b.h->nr_symbols, b.h->object, b.h->release, b.h->patches,
	       b.h->patches_sha256);
	for (int i = 0; i < KERNEL_BLOB_NR_ENTRIES; i++)
		printf("entry %d=%#llx\n", i, b.h->entry[i]);
	printf("part vmemmap_base=%#llx+8\n", b.h->vmemmap_base);
	printf("part hooks=%#llx+%zu\n", b.h->hooks,
	       sizeof(struct kernel_blob_hooks));
	part("__mcount_loc", &b.h->mcount_loc);
	part("ntb_altinstructions", &b.h->altinstructions);
	part("__jump_table", &b.h->jump_table);
	part("ntb_kmemmap_sites", &b.h->sites);
	part("stub_variables", &b.h->stub_variables);
	for (int i = 2; i < argc; i++) {
		unsigned long long addr = strtoull(argv[i], NULL, 0);
		unsigned long long off = 0;
		const char *name = kernel_blob_symbol_at(&b, addr, &off);

		printf("symbol addr=%#llx name=%s offset=%#llx\n", addr,
		       name ? name : "-", off);
	}
	free(bytes);
	return 0;
}
