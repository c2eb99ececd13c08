// SPDX-License-Identifier: GPL-2.0-only
#include "include/platform.h"
#include "kernel/fbcon.h"
#include "kernel/font.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/summary_screen.h"

enum fb_colour {
	COL_TEXT,
	COL_DIM,	/* diagnostics: "# ..." */
	COL_PASS,
	COL_FAIL,
	COL_SKIP,
	COL_NR
};

static const u8 palette[COL_NR][3] = {
	[COL_TEXT] = { 0xe0, 0xe0, 0xe0 },
	[COL_DIM] = { 0x90, 0x90, 0x90 },
	[COL_PASS] = { 0x40, 0xe0, 0x40 },
	[COL_FAIL] = { 0xff, 0x50, 0x50 },
	[COL_SKIP] = { 0xe0, 0xc0, 0x30 },
};

static struct {
	bool present;
	volatile u32 *fb;
	u32 width, height, stride;
	u32 pixel[COL_NR];
	u32 scale, cell_w, cell_h, cols, rows;
	u32 cx, cy;
	char *text;
	u8 *colour;
	u8 line_colour;
	bool line_start;
	bool muted;	/* serial-only lines while the summary is dumped */
} con;

static u32 make_pixel(const struct boot_framebuffer *fb, const u8 rgb[3])
{
	return (u32)rgb[0] << fb->red_shift | (u32)rgb[1] << fb->green_shift |
	       (u32)rgb[2] << fb->blue_shift;
}

bool fbcon_present(void)
{
	return con.present;
}

static void draw_cell(u32 col, u32 row)
{
	char c = con.text[row * con.cols + col];
	u32 ink = con.pixel[con.colour[row * con.cols + col]];
	u32 x0 = col * con.cell_w, y0 = row * con.cell_h;

	for (u32 y = 0; y < con.cell_h; y++) {
		volatile u32 *line = con.fb + (u64)(y0 + y) * con.stride + x0;
		u32 gy = y / con.scale;

		for (u32 x = 0; x < con.cell_w; x++) {
			u32 gx = x / con.scale;

			line[x] = (c != ' ' && font_pixel(c, gx, gy)) ? ink : 0;
		}
	}
}

static void redraw(void)
{
	for (u32 r = 0; r < con.rows; r++)
		for (u32 c = 0; c < con.cols; c++)
			draw_cell(c, r);
}

static void clear_text(u32 from_row)
{
	size_t off = (size_t)from_row * con.cols;
	size_t n = (size_t)(con.rows - from_row) * con.cols;

	memset(con.text + off, ' ', n);
	memset(con.colour + off, COL_TEXT, n);
}

bool fbcon_init(const struct boot_framebuffer *fb)
{
	size_t cells;

	if (!fb->base || fb->width < 160 || fb->height < 100)
		return false;
	con.fb = (volatile u32 *)(uptr)fb->base;
	con.width = fb->width;
	con.height = fb->height;
	con.stride = fb->stride;
	/* 6x9 cells at 1x; doubled from 800 pixels wide, for legibility. */
	con.scale = fb->width >= 1600 ? 3 : fb->width >= 800 ? 2 : 1;
	con.cell_w = (FONT_WIDTH + 1) * con.scale;
	con.cell_h = (FONT_HEIGHT + 2) * con.scale;
	con.cols = con.width / con.cell_w;
	con.rows = con.height / con.cell_h;
	cells = (size_t)con.cols * con.rows;
	con.text = plat_alloc_aligned(cells, 64);
	con.colour = plat_alloc_aligned(cells, 64);
	if (!con.text || !con.colour)
		return false;
	for (int i = 0; i < COL_NR; i++)
		con.pixel[i] = make_pixel(fb, palette[i]);
	clear_text(0);
	con.cx = con.cy = 0;
	con.line_start = true;
	con.present = true;
	redraw();
	return true;
}

/* Pick a line's colour from its start, as the KTAP reader sees it. */
static u8 classify(const char *s, size_t len)
{
	size_t i = 0, end = 0;

	while (end < len && s[end] != '\n')
		end++;
	while (i < end && s[i] == ' ')
		i++;
	for (size_t j = i; j + 6 <= end; j++)
		if (!strncmp(s + j, "# SKIP", 6))
			return COL_SKIP;
	if (end - i >= 6 && !strncmp(s + i, "not ok", 6))
		return COL_FAIL;
	if (end - i >= 9 && !strncmp(s + i, "Bail out!", 9))
		return COL_FAIL;
	if (end - i >= 3 && !strncmp(s + i, "ok ", 3))
		return COL_PASS;
	if (end - i >= 1 && s[i] == '#')
		return COL_DIM;
	return COL_TEXT;
}

static void newline(void)
{
	con.cx = 0;
	con.cy++;
	con.line_start = true;
	if (con.cy < con.rows)
		return;
	/* Jump scroll: move up a third of the screen, then redraw it all. */
	u32 jump = con.rows / 3 ? con.rows / 3 : 1;

	memmove(con.text, con.text + (size_t)jump * con.cols,
		(size_t)(con.rows - jump) * con.cols);
	memmove(con.colour, con.colour + (size_t)jump * con.cols,
		(size_t)(con.rows - jump) * con.cols);
	clear_text(con.rows - jump);
	con.cy = con.rows - jump;
	redraw();
}

void fbcon_write(const char *s, size_t len)
{
	if (!con.present || con.muted)
		return;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (con.line_start) {
			con.line_colour = classify(s + i, len - i);
			con.line_start = false;
		}
		if (c == '\n') {
			newline();
			continue;
		}
		if (c == '\r')
			continue;
		if (con.cx == con.cols) { /* wrap long lines */
			newline();
			con.line_start = false;
		}
		con.text[con.cy * con.cols + con.cx] = c;
		con.colour[con.cy * con.cols + con.cx] = con.line_colour;
		draw_cell(con.cx, con.cy);
		con.cx++;
	}
}

static void put_line(u32 row, u8 colour, const char *text)
{
	size_t n = strlen(text);

	if (row >= con.rows)
		return;
	for (u32 c = 0; c < con.cols; c++) {
		con.text[row * con.cols + c] = c < n ? text[c] : ' ';
		con.colour[row * con.cols + c] = colour;
	}
}

static u8 summary_colour(u8 kind)
{
	switch (kind) {
	case SUMMARY_DIM:
		return COL_DIM;
	case SUMMARY_PASS:
		return COL_PASS;
	case SUMMARY_FAIL:
		return COL_FAIL;
	case SUMMARY_SKIP:
		return COL_SKIP;
	default:
		return COL_TEXT;
	}
}

void fbcon_show_summary(const struct summary_screen_in *s, bool dump)
{
	static char text[(SUMMARY_MAX_COLS + 1) * 256];
	static u8 kind[256];
	u32 rows, cols, used, row = 1;

	if (!con.present)
		return;
	clear_text(0);
	/* A row above, and one below for the halt notice. */
	rows = min(con.rows > 2 ? con.rows - 2 : 0, (u32)ARRAY_SIZE(kind));
	cols = min(con.cols, (u32)SUMMARY_MAX_COLS);
	used = summary_screen_compose(s, cols, rows, text, kind);
	for (u32 i = 0; i < used; i++)
		put_line(row++, summary_colour(kind[i]),
			 text + (size_t)i * (cols + 1));
	/* Later lines (the halt notice) go below, without scrolling this. */
	con.cx = 0;
	con.cy = min(row, con.rows - 1);
	redraw();
	if (!dump)
		return;
	/* What the shadow buffer holds, as drawn: rows 1 .. row - 1. */
	con.muted = true;
	kprintf("# screen: %ux%u characters, %u rows of summary\n", con.cols,
		con.rows, used);
	for (u32 r = 1; r < row; r++) {
		const char *t = con.text + (size_t)r * con.cols;
		u32 n = con.cols;

		while (n && t[n - 1] == ' ')
			n--;
		kprintf("# screen: %.*s\n", (int)n, t);
	}
	con.muted = false;
}
