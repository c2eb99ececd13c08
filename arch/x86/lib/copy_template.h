/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The project's own, beyond the kernel and the series (docs/model.md):
 * template fills with the template kept in general registers: load a 64,
 * 80 or 96-byte template (one struct page image) into 8, 10 or 12
 * registers once, then store it back-to-back @n / size times without
 * touching the template again. The whole loop is one asm statement, so
 * the compiler cannot reload the template.
 *
 *   tmpl_fill_mov_N(dst, tmpl, n)      cached MOV stores
 *   tmpl_fill_movnti_N(dst, tmpl, n)   MOVNTI stores (SFENCE before use)
 *
 * And one that keeps the template in memory instead: the first pages with
 * the MOV fill, the rest "rep movsb" copies of what it already wrote (the
 * fast-string stores that the rep stosb limit fill uses):
 *
 *   tmpl_fill_movsb_N(dst, tmpl, n)    cached, fast strings
 *
 * @n is in bytes and is rounded down to a multiple of N; @dst may have any
 * alignment. Registered as tmpl_mov_N, tmpl_movnti_N and tmpl_movsb_N
 * (copy_variant.h).
 */
#ifndef NTBOOT_ARCH_X86_LIB_COPY_TEMPLATE_H
#define NTBOOT_ARCH_X86_LIB_COPY_TEMPLATE_H

#include "include/types.h"

void tmpl_fill_mov_64(void *dst, const void *tmpl, size_t n);
void tmpl_fill_mov_80(void *dst, const void *tmpl, size_t n);
void tmpl_fill_mov_96(void *dst, const void *tmpl, size_t n);
void tmpl_fill_movnti_64(void *dst, const void *tmpl, size_t n);
void tmpl_fill_movnti_80(void *dst, const void *tmpl, size_t n);
void tmpl_fill_movnti_96(void *dst, const void *tmpl, size_t n);
void tmpl_fill_movsb_64(void *dst, const void *tmpl, size_t n);
void tmpl_fill_movsb_80(void *dst, const void *tmpl, size_t n);
void tmpl_fill_movsb_96(void *dst, const void *tmpl, size_t n);

#endif
