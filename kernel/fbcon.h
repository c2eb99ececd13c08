/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The screen console: the serial report mirrored on the UEFI GOP
 * framebuffer with the built-in 5x7 font, so a machine with a monitor and
 * no serial cable shows the run. A shadow text buffer makes scrolling a
 * redraw (writes only: reading a write-combining framebuffer is very slow),
 * done a third of a screen at a time so it stays cheap.
 */
#ifndef NTBOOT_KERNEL_FBCON_H
#define NTBOOT_KERNEL_FBCON_H

#include "kernel/boot_info.h"

/* Needs the allocator; returns false when there is no framebuffer. */
bool fbcon_init(const struct boot_framebuffer *fb);
bool fbcon_present(void);
void fbcon_write(const char *s, size_t len);

#include "lib/summary_screen.h"

/*
 * Clear the screen and draw the end-of-run summary (on_finish=halt):
 * lib/summary_screen.c lays it out. With @dump, its text rows also go to
 * the serial console as "# screen: ..." lines (not to the screen), so a
 * log shows what the screen shows.
 */
void fbcon_show_summary(const struct summary_screen_in *s, bool dump);

#endif
