# SPDX-License-Identifier: GPL-2.0-only
"""The KTAP lines ntboot prints (Documentation/dev-tools/ktap.rst, as
lib/kunit.c writes it), for every reader of them: tools/ktap-check, which
holds a log to the format, and the readers of reportlib. Each pattern
matches a line's text after its indentation."""
import re

VERSION_LINE = "KTAP version 1"
PLAN_RE = re.compile(r"1\.\.(\d+)(?: #.*)?")
# "ok N name", "not ok N name", "ok N name # SKIP reason": the words after
# the number are result_parts()'.
RESULT_RE = re.compile(r"(not ok|ok) (\d+)(?: (.*))?")
SUMMARY_RE = re.compile(r"ntboot: (\d+) passed, (\d+) failed, (\d+) skipped")
SUBTEST_PREFIX = "# Subtest: "
BAIL_PREFIX = "Bail out!"


def result_parts(rest):
    """The name, the directive's word ("SKIP", or "" without one) and its
    reason, of what follows a result's number."""
    name, _, directive = (rest or "").partition(" # ")
    word, _, reason = directive.partition(" ")
    return name.strip(), word, reason
