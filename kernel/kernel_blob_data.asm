; SPDX-License-Identifier: GPL-2.0-only
;
; The kernel blob the build made (tools/kernel-memmap/blob; the Makefile
; passes its path as KERNEL_BLOB_FILE), carried in a section of its own,
; .kblob, so that it is part of the PE image that make sign signs. It
; holds the blob, or the reason the build has none (lib/kernel_blob.h).
; kernel/kernel_blob.c reads it; nothing here runs.

default rel
bits 64

section .kblob progbits alloc noexec nowrite align=4096

global kernel_blob_start:data hidden
global kernel_blob_end:data hidden
kernel_blob_start:
	incbin KERNEL_BLOB_FILE
kernel_blob_end:
