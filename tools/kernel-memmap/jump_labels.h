/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_KERNEL_MEMMAP_JUMP_LABELS_H
#define NTBOOT_KERNEL_MEMMAP_JUMP_LABELS_H

#include "patch.h"

/*
 * Set every static branch of @t as the kernel's boot would
 * (jump_labels.c), counting the sites in *@sites. Returns 0, or -1 with
 * the reason in @why.
 */
int kmemmap_jump_labels_patch(const struct kmemmap_text *t, unsigned int *sites,
			      char *why, size_t len);

/* The same for the hosted runner's own program (patch_host.c). */
int kmemmap_jump_labels_init(unsigned int *sites, char *why, size_t len);

/* The key of the UD2 site at @ip (a key the runner lacks), or NULL. */
const char *kmemmap_jump_label_key_at(unsigned long ip);

#endif
