# SPDX-License-Identifier: GPL-2.0-only
"""The level of the report's tests, one for every section: what --alpha
sets. The sections read it when they run (level.ALPHA, never a copy
taken at import), so that the option reaches the tests, the intervals
(their confidence is 1 - alpha) and the titles that name them alike.
"""
from reportlib import stats

# The statistics' default until tools/report sets it from --alpha,
# before it computes anything.
ALPHA = stats.ALPHA
