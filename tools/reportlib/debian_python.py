# SPDX-License-Identifier: GPL-2.0-only
"""The Debian libraries the tools use are Debian's python3's: a tool run
by another Python (a virtualenv first in PATH) that lacks one starts
again under /usr/bin/python3, or stops naming the package to install.
Imports nothing outside the standard library, so that a tool can call it
before it imports anything else."""
import importlib
import os
import sys

SYSTEM_PYTHON = "/usr/bin/python3"

# module -> Debian package
PACKAGES = {"scipy": "python3-scipy", "yaml": "python3-yaml",
            "jsonschema": "python3-jsonschema",
            "elftools": "python3-pyelftools",
            "websocket": "python3-websocket",
            "markdown": "python3-markdown"}


def missing_modules(*modules):
    """Those of @modules that do not import."""
    missing = []
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing


def apt_hint(modules):
    return "apt-get install " + " ".join(PACKAGES.get(m, m) for m in modules)


# The exit status for "skipped" that tools/check reads (with the tool's
# "NAME: skip: WHY" line).
SKIP = 77


def require(tool, *modules, optional=()):
    """Each of @modules and @optional importable, or @tool (its name for
    messages) is run again by Debian's python3. Still missing there: one
    of @modules exits 2 naming what to install; only @optional ones (what
    the tool checks is not installed) say "TOOL: skip: ..." and exit
    SKIP."""
    missing = missing_modules(*modules, *optional)
    if not missing:
        return
    if sys.executable != SYSTEM_PYTHON and os.path.exists(SYSTEM_PYTHON):
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
    if any(m not in optional for m in missing):
        print(f"{tool}: no {', '.join(missing)} ({apt_hint(missing)})",
              file=sys.stderr)
        sys.exit(2)
    print(f"{tool}: skip: no {', '.join(missing)} ({apt_hint(missing)})")
    sys.exit(SKIP)
