# SPDX-License-Identifier: GPL-2.0-only
"""The image's kernel blob as lib/kernel_blob.h lays it out, for the tools
that write it (tools/kernel-memmap/blob-pack), check it
(tools/check-kernel-blob) and ask whether a build has one (tools/check):
the one Python copy of the header's layout, held to the C reader by
tools/check-kernel-blob."""
import struct

MAGIC, NONE_MAGIC, VERSION = 0x626f6c626b62746e, 0x656e6f6e6b62746e, 1
# the kernel's text address and the bottom of the kernel code model's
# reach; the variable stubs lie from STUB_VAR_BASE up to the per-CPU page
LINK_ADDR, REACH = 0xffffffff81000000, 0xffffffff80000000
PERCPU_ADDR = LINK_ADDR - 0x200000
STUB_VAR_BASE, STUB_VAR_SLOT = 0xffffffff80001000, 64
# struct kernel_blob_header, field by field (the ranges as addr, size)
FIELDS = (("magic", "Q"), ("version", "I"), ("header_size", "I"),
          ("link_addr", "Q"), ("image_offset", "Q"), ("text_size", "Q"),
          ("data_size", "Q"), ("bss_size", "Q"), ("entry", "9Q"),
          ("vmemmap_base", "Q"), ("hooks", "Q"), ("mcount_loc", "2Q"),
          ("altinstructions", "2Q"), ("jump_table", "2Q"),
          ("sites", "2Q"), ("stub_variables", "2Q"),
          ("symbols_offset", "Q"), ("nr_symbols", "Q"),
          ("strings_offset", "Q"), ("strings_size", "Q"),
          ("patches", "Q"), ("object", "16s"), ("release", "32s"),
          ("patches_sha256", "72s"))
HEADER = struct.Struct("<" + "".join(f for _, f in FIELDS))
NONE = struct.Struct("<QII240s")
SYMBOL = struct.Struct("<QII")
# enum kernel_blob_entry: the glue's functions, in the header's order
ENTRIES = ("ntb_kmemmap_setup", "ntb_kmemmap_call",
           "ntb_kmemmap_pageblocks_reset", "ntb_kmemmap_arena_bytes",
           "ntb_kmemmap_pgmap", "ntb_kmemmap_page_size",
           "ntb_kmemmap_pageblock_pages", "ntb_kmemmap_stack_canary_offset",
           "ntb_kmemmap_pageblock_bits")


def offset(name):
    """The byte offset of field @name in the header."""
    return struct.calcsize("<" + "".join(
        f for n, f in FIELDS[:[n for n, _ in FIELDS].index(name)]))


def none_reason(path):
    """None where @path holds a blob, the reason where it is the form that
    says why the build has none; ValueError for anything else, a file
    that cannot be read included."""
    try:
        with open(path, "rb") as f:
            raw = f.read(max(HEADER.size, NONE.size))
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror}") from e
    if len(raw) >= 8 and struct.unpack_from("<Q", raw)[0] == MAGIC:
        return None
    if len(raw) >= NONE.size:
        magic, _, _, reason = NONE.unpack_from(raw)
        if magic == NONE_MAGIC:
            return reason.split(b"\0")[0].decode(errors="replace")
    raise ValueError(f"{path} is neither a kernel blob nor says why "
                     f"there is none")
