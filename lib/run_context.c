// SPDX-License-Identifier: GPL-2.0-only
#include "lib/run_context.h"
#include "lib/options.h"

DEFINE_OPTION_STRING(runs_id, 64, "-_.:",
		     "tag echoed in the header for lab logs");
