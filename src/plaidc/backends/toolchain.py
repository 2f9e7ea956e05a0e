"""The host's toolchain and process facts the native backends (c, llvm, mpi, opencl) share:
where compiled artifacts are cached, which C compiler to run, and libgomp's wait policy.

A module of its own so that a backend needing one of them does not import another backend
(the LLVM backend imported the whole C backend, its syntax tree and emitter, for these).
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


def openmp_wait_policy(policy: object) -> None:
    """Set libgomp's wait policy for this process unless the user chose one (OMP_WAIT_POLICY).

    libgomp reads it when it is first loaded. Its default keeps idle threads spinning, which on
    a busy machine (fewer free cores than threads, e.g. parallel test workers) turns every
    parallel region into a wait for a descheduled spinner: a 0.7 ms softmax took 45 ms. With
    `passive`, idle threads sleep and wake when work arrives (microseconds). `policy` is the
    config's `[codegen] omp_wait_policy`: one of libgomp's values, `active` or `passive`."""
    if policy is None:
        return
    if not isinstance(policy, str) or policy.lower() not in ("active", "passive"):
        raise CompileError(
            [
                Diagnostic(
                    f'[codegen] \'omp_wait_policy\' must be "active" or "passive", not {policy!r}'
                )
            ]
        )
    os.environ.setdefault("OMP_WAIT_POLICY", policy)
