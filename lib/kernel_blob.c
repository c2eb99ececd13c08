// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel blob's reader (lib/kernel_blob.h). The blob comes from the
 * build, not from firmware, but the image maps and runs what it says: a
 * field that points outside the blob or past its span would be a stray
 * write or jump at the kernel's addresses, so each is checked here once
 * and trusted after.
 */
#include "lib/kernel_blob.h"
#include "lib/printf.h"
#include "lib/string.h"

#define PAGE 4096ULL

_Static_assert(sizeof(struct kernel_blob_header) == 384,
	       "tools/kernel-memmap/blob-pack writes 384 bytes");
_Static_assert(sizeof(struct kernel_blob_none) == 256,
	       "tools/kernel-memmap/blob-pack writes 256 bytes");
_Static_assert(sizeof(struct kernel_blob_symbol) == 16,
	       "tools/kernel-memmap/blob-pack writes 16 bytes a symbol");

static bool terminated(const char *s, size_t len)
{
	return memchr(s, 0, len) != NULL;
}

/* Does [off, off + n) lie inside [0, len)? */
static bool in_file(u64 off, u64 n, u64 len)
{
	return off <= len && n <= len - off;
}

u64 kernel_blob_span(const struct kernel_blob *b)
{
	return b->h->text_size + b->h->data_size + b->h->bss_size;
}

/* Does @r lie inside the span, past the text when @writable? */
static bool in_span(const struct kernel_blob_header *h,
		    const struct kernel_blob_range *r, bool writable)
{
	const u64 first = h->link_addr + (writable ? h->text_size : 0);
	const u64 end =
		h->link_addr + h->text_size + h->data_size + h->bss_size;

	return r->addr >= first && r->addr <= end && r->size <= end - r->addr;
}

static int read_none(const void *bytes, u64 len, char *why, size_t why_len)
{
	const struct kernel_blob_none *n = bytes;

	if (len < sizeof(*n) || n->header_size != sizeof(*n) ||
	    !terminated(n->reason, sizeof(n->reason))) {
		ntb_snprintf(why, why_len,
			     "a none blob of %llu bytes that "
			     "does not hold its reason",
			     len);
		return -1;
	}
	ntb_snprintf(why, why_len, "%s", n->reason);
	return 1;
}

/* The header's ranges: the span, then each part where it must lie. */
static int check_ranges(const struct kernel_blob_header *h, u64 len, char *why,
			size_t why_len)
{
	const struct {
		const char *name;
		const struct kernel_blob_range *r;
		bool writable;
	} parts[] = {
		{"__mcount_loc", &h->mcount_loc, false},
		{".altinstructions", &h->altinstructions, false},
		{"__jump_table", &h->jump_table, true},
		{"the site table", &h->sites, false},
	};
	const u64 span = h->text_size + h->data_size + h->bss_size;
	const struct kernel_blob_range hooks = {
		h->hooks, sizeof(struct kernel_blob_hooks)};
	const struct kernel_blob_range vmemmap = {h->vmemmap_base, sizeof(u64)};

	if (h->link_addr < KERNEL_BLOB_REACH || h->link_addr % PAGE ||
	    !h->text_size || h->image_offset % PAGE ||
	    h->image_offset < h->header_size || span < h->text_size ||
	    span - h->text_size < h->data_size || span > -h->link_addr ||
	    !in_file(h->image_offset, h->text_size + h->data_size, len)) {
		ntb_snprintf(why, why_len,
			     "its image (text %llu, data %llu, bss %llu bytes "
			     "at %#llx, from byte %llu of %llu) does not fit",
			     h->text_size, h->data_size, h->bss_size,
			     h->link_addr, h->image_offset, len);
		return -1;
	}
	for (unsigned int i = 0; i < KERNEL_BLOB_NR_ENTRIES; i++) {
		if (h->entry[i] < h->link_addr ||
		    h->entry[i] >= h->link_addr + h->text_size) {
			ntb_snprintf(why, why_len,
				     "its entry %u (%#llx) is not in its text",
				     i, h->entry[i]);
			return -1;
		}
	}
	for (unsigned int i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!in_span(h, parts[i].r, parts[i].writable)) {
			ntb_snprintf(why, why_len,
				     "its %s (%llu bytes at %#llx) is not in "
				     "its %s",
				     parts[i].name, parts[i].r->size,
				     parts[i].r->addr,
				     parts[i].writable ? "data" : "image");
			return -1;
		}
	}
	if (!in_span(h, &hooks, true) || !in_span(h, &vmemmap, true)) {
		ntb_snprintf(why, why_len,
			     "its hooks (%#llx) or vmemmap_base (%#llx) are "
			     "not in its data",
			     h->hooks, h->vmemmap_base);
		return -1;
	}
	/* below the per-CPU page, in reach, and apart from the image */
	if (h->link_addr != KERNEL_BLOB_LINK_ADDR ||
	    h->stub_variables.addr < KERNEL_BLOB_REACH ||
	    h->stub_variables.addr > KERNEL_BLOB_PERCPU_ADDR ||
	    h->stub_variables.size >
		    KERNEL_BLOB_PERCPU_ADDR - h->stub_variables.addr) {
		ntb_snprintf(why, why_len,
			     "its stub variables (%llu bytes at %#llx) are not "
			     "below its per-CPU page",
			     h->stub_variables.size, h->stub_variables.addr);
		return -1;
	}
	if (h->altinstructions.size % KERNEL_BLOB_ALT_INSTR_SIZE ||
	    h->mcount_loc.size % KERNEL_BLOB_MCOUNT_SIZE ||
	    h->jump_table.size % KERNEL_BLOB_JUMP_ENTRY_SIZE ||
	    h->sites.size != KERNEL_BLOB_SITES_SIZE) {
		ntb_snprintf(
			why, why_len,
			"its .altinstructions (%llu), __mcount_loc (%llu), "
			"__jump_table (%llu) or site table (%llu bytes) "
			"is no whole number of entries",
			h->altinstructions.size, h->mcount_loc.size,
			h->jump_table.size, h->sites.size);
		return -1;
	}
	return 0;
}

/* The @n bytes the file holds at link address @addr (in the image). */
static const u8 *at_link(const struct kernel_blob_header *h, u64 addr)
{
	return (const u8 *)h + h->image_offset + (addr - h->link_addr);
}

static u64 read_u64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static s32 read_s32(const u8 *p)
{
	s32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Does [@addr, @addr + @n) lie in the text? */
static bool in_text(const struct kernel_blob_header *h, u64 addr, u64 n)
{
	return addr >= h->link_addr && n <= h->text_size &&
	       addr - h->link_addr <= h->text_size - n;
}

/*
 * Every address the patching reads or writes code at lies in the text.
 * A part in the bss holds nothing yet: nothing to read there.
 */
static int check_code_addresses(const struct kernel_blob_header *h, char *why,
				size_t why_len)
{
	const u64 filed = h->link_addr + h->text_size + h->data_size;
	const char *bad = NULL;
	u64 addr = 0, nr;

	if (h->sites.addr + h->sites.size > filed ||
	    h->mcount_loc.addr + h->mcount_loc.size > filed ||
	    h->altinstructions.addr + h->altinstructions.size > filed ||
	    h->jump_table.addr + h->jump_table.size > filed) {
		ntb_snprintf(why, why_len,
			     "a part the image patches from lies in its bss");
		return -1;
	}
	nr = read_u64(at_link(h, h->sites.addr) + KERNEL_BLOB_SITES_NR_OFF);
	if (nr > KERNEL_BLOB_MAX_SITES) {
		ntb_snprintf(why, why_len, "its site table holds %llu sites",
			     nr);
		return -1;
	}
	for (u64 i = 0; i < nr && !bad; i++) {
		addr = read_u64(at_link(h, h->sites.addr) +
				KERNEL_BLOB_SITES_SITE_OFF +
				i * KERNEL_BLOB_SITE_SIZE);
		if (!in_text(h, addr, 5))
			bad = "a site of the site table";
	}
	for (u64 off = 0; off < h->mcount_loc.size && !bad; off += 8) {
		addr = read_u64(at_link(h, h->mcount_loc.addr + off));
		if (!in_text(h, addr, 5))
			bad = "an __mcount_loc site";
	}
	for (u64 off = 0; off < h->altinstructions.size && !bad;
	     off += KERNEL_BLOB_ALT_INSTR_SIZE) {
		const u64 a = h->altinstructions.addr + off;
		const u8 *e = at_link(h, a);
		u64 repl = a + 4 + read_s32(e + 4);

		addr = a + read_s32(e);
		if (!in_text(h, addr, e[12]) || !in_text(h, repl, e[13]))
			bad = "an alternative's instruction or replacement";
	}
	for (u64 off = 0; off < h->jump_table.size && !bad;
	     off += KERNEL_BLOB_JUMP_ENTRY_SIZE) {
		const u64 e = h->jump_table.addr + off;

		addr = e + read_s32(at_link(h, e));
		if (!in_text(h, addr, 5) ||
		    !in_text(h, e + 4 + read_s32(at_link(h, e + 4)), 1))
			bad = "a static branch or its target";
	}
	if (bad) {
		ntb_snprintf(why, why_len, "%s (%#llx) is not in its text", bad,
			     addr);
		return -1;
	}
	return 0;
}

static int check_symbols(struct kernel_blob *b, u64 len, char *why,
			 size_t why_len)
{
	const struct kernel_blob_header *h = b->h;
	const u8 *base = (const u8 *)h;

	if (h->nr_symbols > len / sizeof(struct kernel_blob_symbol) ||
	    h->symbols_offset % 8 ||
	    !in_file(h->symbols_offset,
		     h->nr_symbols * sizeof(struct kernel_blob_symbol), len) ||
	    !in_file(h->strings_offset, h->strings_size, len) ||
	    !h->strings_size || base[h->strings_offset + h->strings_size - 1]) {
		ntb_snprintf(why, why_len,
			     "its symbol table (%llu at byte %llu, strings "
			     "%llu bytes at %llu) does not fit",
			     h->nr_symbols, h->symbols_offset, h->strings_size,
			     h->strings_offset);
		return -1;
	}
	b->symbols = (const void *)(base + h->symbols_offset);
	b->strings = (const char *)base + h->strings_offset;
	for (u64 i = 0; i < h->nr_symbols; i++) {
		const struct kernel_blob_symbol *s = &b->symbols[i];

		if (s->name >= h->strings_size ||
		    (i && s->addr < b->symbols[i - 1].addr)) {
			ntb_snprintf(why, why_len,
				     "its symbol %llu (at %#llx) is out of "
				     "order or has no name",
				     i, s->addr);
			return -1;
		}
	}
	return 0;
}

int kernel_blob_read(struct kernel_blob *b, const void *bytes, u64 len,
		     char *why, size_t why_len)
{
	const struct kernel_blob_header *h = bytes;

	memset(b, 0, sizeof(*b));
	if (len >= 16 && h->magic == KERNEL_BLOB_NONE_MAGIC &&
	    h->version == KERNEL_BLOB_VERSION)
		return read_none(bytes, len, why, why_len);
	if (len < sizeof(*h) || h->magic != KERNEL_BLOB_MAGIC ||
	    h->version != KERNEL_BLOB_VERSION || h->header_size != sizeof(*h)) {
		ntb_snprintf(why, why_len,
			     "%llu bytes that are no version %d kernel blob",
			     len, KERNEL_BLOB_VERSION);
		return -1;
	}
	if (!terminated(h->object, sizeof(h->object)) ||
	    !terminated(h->release, sizeof(h->release)) ||
	    !terminated(h->patches_sha256, sizeof(h->patches_sha256))) {
		ntb_snprintf(why, why_len,
			     "its object, release or SHA-256 is not a string");
		return -1;
	}
	b->h = h;
	if (check_ranges(h, len, why, why_len) ||
	    check_code_addresses(h, why, why_len) ||
	    check_symbols(b, len, why, why_len)) {
		b->h = NULL;
		return -1;
	}
	b->image = (const u8 *)bytes + h->image_offset;
	return 0;
}

const char *kernel_blob_symbol_at(const struct kernel_blob *b, u64 addr,
				  u64 *offset)
{
	const struct kernel_blob_header *h = b->h;
	u64 lo = 0, hi = h->nr_symbols;

	if (addr < h->stub_variables.addr ||
	    (addr - h->link_addr >= kernel_blob_span(b) &&
	     addr - h->stub_variables.addr >= h->stub_variables.size))
		return NULL;
	/* the last symbol at or below @addr */
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		if (b->symbols[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* a variable stub names no address of the image, nor the reverse */
	if (!lo ||
	    (b->symbols[lo - 1].addr < h->link_addr) != (addr < h->link_addr))
		return NULL;
	*offset = addr - b->symbols[lo - 1].addr;
	return b->strings + b->symbols[lo - 1].name;
}

u64 kernel_blob_symbol_addr(const struct kernel_blob *b, const char *name)
{
	for (u64 i = 0; i < b->h->nr_symbols; i++)
		if (!strcmp(b->strings + b->symbols[i].name, name))
			return b->symbols[i].addr;
	return 0;
}
