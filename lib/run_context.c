// SPDX-License-Identifier: GPL-2.0-only
#include "lib/run_context.h"

struct ntb_options run_options;
