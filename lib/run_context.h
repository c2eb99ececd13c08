/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The run as a whole: runs_id=, the tag a lab gives a run, echoed in the
 * header line of the image and of the hosted runner.
 */
#ifndef NTBOOT_LIB_RUN_CONTEXT_H
#define NTBOOT_LIB_RUN_CONTEXT_H

extern char opt_runs_id[];

#endif
