// SPDX-License-Identifier: GPL-2.0-only
#include "lib/timing.h"

struct cyc2ns_data cyc2ns;
