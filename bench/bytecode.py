"""Byte-compile plaidc's own modules before timing compiles, as installing the package does.

`pip install .` writes the `.pyc` of every module; an editable install run with
PYTHONDONTWRITEBYTECODE set (as in this repository's shells) never does, and then every process
compiles the source of each module it imports: 0.3-0.5 s of each compile the bench timed went
to it (the backends and passes are imported on first use). `compileall` writes them regardless
of that variable and skips modules whose `.pyc` is current, so this costs seconds once per edit.
"""

from __future__ import annotations

import compileall
import importlib.util
import sys


def compile_bytecode() -> bool:
    """Write the missing or stale `.pyc` of the plaidc package; False if some could not be
    written (e.g. a read-only install), which only leaves those to compile on import."""
    spec = importlib.util.find_spec("plaidc")
    if spec is None or not spec.submodule_search_locations:
        print("bytecode: plaidc is not importable", file=sys.stderr)
        return False
    ok = True
    for folder in spec.submodule_search_locations:
        ok = bool(compileall.compile_dir(folder, quiet=2)) and ok
    return ok
