"""Reading a target config's `[codegen]` table into lowering options.

Keys shared by the CPU backends (all optional):

| key | type | meaning |
|---|---|---|
| `parallel_tags` | list of tags | blocks carrying any of them get their outer loop run on threads |
| `parallel_min_work` | int | ... unless they execute fewer points than this (default 1) |
| `gemm_tags` | list of tags | blocks carrying any of them are tried as GEMM micro-kernels |
| `threads` | int | threads for parallel loops (e.g. `"${hardware.threads}"`) |
| `vector_bytes` | int | SIMD register width in bytes (micro-kernel vector length) |
| `gemm_rows` | int | micro-kernel rows (register block height) |
| `gemm_vectors` | int | micro-kernel width in vectors |
| `stack_bytes` | int | largest per-point temporary kept on the stack; larger ones use the heap |

Backend-specific keys are listed by each backend and passed through as `extra`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from plaidc.backends.loopnest.scope import LoweringOptions
from plaidc.diagnostics import CompileError, Diagnostic

_INT_KEYS = (
    "threads",
    "vector_bytes",
    "gemm_rows",
    "gemm_vectors",
    "stack_bytes",
    "parallel_min_work",
)
_TAG_KEYS = ("parallel_tags", "gemm_tags")


def positive_int(where: str, key: str, value: Any) -> int:
    """A `[codegen]` entry that must be a positive integer; a CompileError naming it otherwise."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise _error(where, f"'{key}' must be an integer, not {value!r}") from None
    if number < 1:
        raise _error(where, f"'{key}' must be positive, not {number}")
    return number


def _error(where: str, message: str) -> CompileError:
    return CompileError([Diagnostic(f"{where}: [codegen] {message}")])


def lowering_options(
    codegen: Mapping[str, Any], where: str, backend_keys: tuple[str, ...] = ()
) -> tuple[LoweringOptions, dict[str, Any]]:
    """The lowering options of a `[codegen]` table and its backend-specific entries."""
    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in codegen.items():
        if key in _INT_KEYS:
            values[key] = positive_int(where, key, value)
            if key == "vector_bytes" and values[key] & (values[key] - 1):
                # C's and OpenCL's vector types have power-of-two lane counts
                raise _error(where, f"'vector_bytes' must be a power of two, not {values[key]}")
        elif key in _TAG_KEYS:
            if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
                raise _error(where, f"'{key}' must be a list of tag names")
            values[key] = tuple(t.lstrip("#") for t in value)
        elif key in backend_keys:
            extra[key] = value
        else:
            known = ", ".join(sorted((*_INT_KEYS, *_TAG_KEYS, *backend_keys)))
            raise _error(where, f"unknown key '{key}' (known: {known})")
    return LoweringOptions(**values), extra
