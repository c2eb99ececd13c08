/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a suite may ask about the run it is part of: the options in force.
 * Set once by the image's kernel_main or the host runner's main, before
 * any suite runs.
 */
#ifndef NTBOOT_LIB_RUN_CONTEXT_H
#define NTBOOT_LIB_RUN_CONTEXT_H

#include "lib/options.h"

extern struct ntb_options run_options;

#endif
