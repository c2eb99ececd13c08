# SPDX-License-Identifier: GPL-2.0-only
"""The pieces of tools/report, one concept per module (as kunit.py splits
into kunit_parser.py, kunit_json.py, ...):

  logs        reading logs: header, metric and verdict lines, observations
  stats       medians, the U test, ratio intervals, drift (scipy.stats)
  replicated  A/B comparisons across repetitions (several logs a side)
  fleet       the SQLite results history of many machines (--db)
"""
