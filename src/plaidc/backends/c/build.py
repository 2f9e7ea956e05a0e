"""Compiling generated C with the system compiler, cached by content hash, loaded with ctypes.

The cache directory is `plaidc.backends.toolchain.cache_dir()`; a library's name is the hash
of the source, the compiler command and the compiler binary's identity, so a changed flag or
compiler never reuses a stale library. Libraries are written to a temporary name and renamed,
so concurrent compilations (parallel test workers) never see a half-written file.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from plaidc.backends import BackendUnavailable
from plaidc.backends.toolchain import cache_dir
from plaidc.diagnostics import CompileError, Diagnostic, InternalError

DEFAULT_FLAGS = (
    "-O3",
    "-march=native",
    "-fopenmp",
    "-std=gnu11",
    "-fPIC",
    "-shared",
    # numpy's integer arithmetic wraps; C's signed overflow must too.
    "-fwrapv",
    # fp16 arithmetic is rounded after every operation, as numpy does.
    "-fexcess-precision=standard",
    # ... and no a * b + c becomes one fused rounding (GNU C's default is fast contraction:
    # with AVX512-FP16, fp16 `O1 = X * Y + X` was one vfmadd, and an fp32 `O1 + Z` of it
    # missed the interpreter by 1e-3). The GEMM micro-kernel opts back in (emit.py).
    "-ffp-contract=off",
    "-fno-math-errno",
)


def _identity(path: str) -> str:
    st = os.stat(path)
    return f"{os.path.realpath(path)}:{st.st_size}:{int(st.st_mtime)}"


def build_library(
    source: str, compiler: str, flags: Sequence[str], libs: Sequence[str] = ()
) -> Path:
    """The path of a shared library compiled from `source` (built unless cached)."""
    command = [compiler, *flags]
    key = hashlib.sha256(
        "\0".join([source, *command, *libs, _identity(compiler)]).encode()
    ).hexdigest()[:32]
    folder = cache_dir() / "c"
    target = folder / f"{key}.so"
    if target.exists():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".build-") as tmp:
        src = Path(tmp) / f"{key}.c"
        src.write_text(source)
        out = Path(tmp) / f"{key}.so"
        try:
            result = subprocess.run(
                [*command, str(src), "-o", str(out), *libs, "-lm"],
                capture_output=True,
                text=True,
                check=False,
            )
        except OSError as err:
            raise BackendUnavailable(f"cannot run the C compiler '{compiler}': {err}") from None
        if result.returncode != 0:
            if "fopenmp" in result.stderr or "omp.h" in result.stderr:
                raise BackendUnavailable(
                    f"the C compiler '{compiler}' lacks OpenMP support: install gcc (with libgomp)"
                )
            first = "\n".join(result.stderr.strip().splitlines()[:20])
            raise InternalError(f"the generated C does not compile:\n{first}")
        os.replace(out, target)
    return target


def load_entry(library: Path) -> Callable[[Any], None]:
    """The exported `plaidc_entry` of a compiled library."""
    try:
        lib = ctypes.CDLL(str(library))
    except OSError as err:
        raise CompileError([Diagnostic(f"cannot load '{library}': {err}")]) from None
    entry = lib.plaidc_entry
    entry.argtypes = [ctypes.c_void_p]
    entry.restype = None
    function: Callable[[Any], None] = entry
    return function
