/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTB_LIB_REPORT_COUNT_H
#define NTB_LIB_REPORT_COUNT_H

#include "include/types.h"

/*
 * The number of result lines a report has printed: the lines a LAVA
 * monitor (tools/lava/) turns into results, i.e. after any indentation
 * "ok N", "not ok N", "# metric " or "Bail out!". The report ends with
 * that number ("# metric suite=ntboot results=N", the line itself
 * included), so a reader that recorded fewer results knows it lost some.
 */
#define REPORT_HEAD_MAX 10 /* "not ok " and a digit, "# metric ", ... */

struct report_counter {
	u32 results;
	bool in_indent; /* still at the line's spaces and tabs */
	u8 head_len;
	char head[REPORT_HEAD_MAX];
};

#define REPORT_COUNTER_INIT       \
	{                         \
		.in_indent = true \
	}

/* Bytes as they are written, in as many pieces as they come. */
void report_counter_feed(struct report_counter *rc, const char *s, size_t len);

/* The console's counter: every plat_console_write() feeds it. */
extern struct report_counter console_results;

/* The report's last metric line, "# metric suite=ntboot results=N". */
void report_count_print(void);

#endif
