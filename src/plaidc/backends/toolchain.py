"""The host's toolchain facts the native backends (c, llvm, mpi, opencl) share: where compiled
artifacts are cached and which C compiler to run.

A module of its own so that a backend needing one of them does not import another backend
(the LLVM backend imported the whole C backend, its syntax tree and emitter, for them).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from plaidc.backends import BackendUnavailable
from plaidc.diagnostics import CompileError, Diagnostic


def cache_dir() -> Path:
    """Where compiled artifacts are kept."""
    env = os.environ.get("PLAIDC_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "plaidc"


def find_compiler(name: object) -> str:
    """The C compiler to use: `name` (the config's `[codegen] cc`), else `$CC`, else
    `cc`/`gcc`; BackendUnavailable if none."""
    if name is not None and not isinstance(name, str):
        raise CompileError([Diagnostic(f"[codegen] 'cc' must be a program name, not {name!r}")])
    candidates = [name] if name else [os.environ.get("CC") or "", "cc", "gcc", "clang"]
    for candidate in candidates:
        if candidate:
            found = shutil.which(candidate)
            if found:
                return found
    raise BackendUnavailable(
        "the C backend needs a C compiler with OpenMP (gcc): install it, e.g. "
        "`apt-get install gcc` (Debian/Ubuntu) or `dnf install gcc`, or set CC"
    )
