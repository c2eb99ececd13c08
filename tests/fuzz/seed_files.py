# SPDX-License-Identifier: GPL-2.0-only
"""What every seed script of tests/fuzz/ does with its seeds: write each
as a file seed-NAME into the corpus directory its one argument names."""

import os
import sys


def write_corpus(script, seeds):
    """Write (name, bytes) pairs from @seeds into sys.argv[1]; a missing
    or extra argument stops the script naming its usage."""
    if len(sys.argv) != 2:
        sys.exit(f"usage: {script} DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, data in seeds:
        with open(os.path.join(out, f"seed-{name}"), "wb") as f:
            f.write(data)
