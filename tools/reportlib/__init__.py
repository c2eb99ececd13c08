# SPDX-License-Identifier: GPL-2.0-only
"""The pieces of tools/report, one concept per module (as kunit.py splits
into kunit_parser.py, kunit_json.py, ...); the command itself parses
its options and calls them:

  logs        reading logs: header, metric and verdict lines, observations
  lava        a LAVA job log as the boots (runs) it holds
  stats       medians, the U test, ratio intervals, drift (scipy.stats)
  level       the level of every test and interval (--alpha)
  formatting  durations, bytes, p-values, intervals, Markdown tables
  tables      the report of logs: a table per suite, JSON, CSV, --db fleet
  compare     --compare: A against B, one log a side, or several
  replicated  A/B comparisons across repetitions (several logs a side)
  verdicts    the postings' claims judged on a log; --check-verdicts
  charts      --png: gnuplot charts of a report or a comparison
  fleet       the SQLite results history of many machines (--db)
  synth       sample and synthetic logs for the tests

The unit tests are beside the modules they test, in test_<module>.py;
tools/report --selftest runs them all.
"""
