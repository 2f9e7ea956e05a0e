"""Running compiled plans on numpy arrays: buffer marshalling shared by the CPU backends.

A compiled plan exports `plaidc_entry(void *const *args)`: one pointer per program buffer
(`Plan.buffers` order) and then a one-element i32 status word. This module lays inputs out as
the interpreter does (`alloc_layout`, element offsets from the view's strides), fills outputs
and temporaries with the interpreter's poison value (so an element a program never writes
reads back the same; buffers the program provably writes completely are left uninitialised),
calls the entry, reports a failure status, and reads the outputs back. Outputs and
temporaries start on a 64-byte boundary (`ALIGNMENT`).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from plaidc.backends.loopnest.plan import FAILURES, Plan, ProgramBuffer
from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.interp import cast_to, element_offsets, numpy_dtype, poison_value
from plaidc.stripe.ir import DType, TensorShape

Entry = Callable[[Any], None]


def _describe(buf: ProgramBuffer) -> str:
    return f"{buf.dtype}({', '.join(str(s) for s in buf.sizes)})"


def check_inputs(plan: Plan, inputs: Mapping[str, np.ndarray]) -> None:
    """Report every missing, unknown or wrongly shaped input at once."""
    problems = []
    wanted = {b.stripe_name: b for b in plan.buffers if b.is_input}
    for name, buf in wanted.items():
        if name not in inputs:
            problems.append(Diagnostic(f"missing input '{name}' of shape {_describe(buf)}"))
        elif tuple(np.shape(inputs[name])) != buf.sizes:
            problems.append(
                Diagnostic(
                    f"input '{name}' has shape {tuple(np.shape(inputs[name]))}, but the program"
                    f" expects {_describe(buf)}"
                )
            )
    for name in inputs:
        if name not in wanted:
            known = ", ".join(sorted(wanted)) or "none"
            problems.append(Diagnostic(f"unknown input '{name}' (the program's inputs: {known})"))
    if problems:
        raise CompileError(problems)


def _dense(buf: ProgramBuffer) -> bool:
    dense = TensorShape.dense(buf.dtype, buf.sizes)
    return buf.start == 0 and dense.strides == buf.strides and buf.region == dense.elem_count


# Buffers the entry writes start on this boundary (a cache line, an AVX-512 vector): numpy's
# large arrays start 16 bytes into a page, so every 64-byte vector store of an output row would
# straddle two cache lines. Read-only inputs are passed where they are (a copy costs more).
ALIGNMENT = 64


def aligned_empty(count: int, dtype: np.dtype) -> np.ndarray:
    """An uninitialised 1-D array of `count` elements whose data starts on `ALIGNMENT` bytes."""
    raw = np.empty(count * dtype.itemsize + ALIGNMENT, dtype=np.uint8)
    skip = -raw.ctypes.data % ALIGNMENT
    return raw[skip : skip + count * dtype.itemsize].view(dtype)


def _prepare(buf: ProgramBuffer, value: np.ndarray | None) -> np.ndarray:
    dtype = numpy_dtype(buf.dtype)
    if value is not None and not buf.is_output and _dense(buf):
        # A read-only, densely laid out input is passed as it is (converted if needed).
        array = np.asarray(value)
        if array.dtype == dtype and buf.dtype is not DType.BF16:
            return np.ascontiguousarray(array).reshape(-1)
        return np.ascontiguousarray(cast_to(array, buf.dtype)).reshape(-1)
    if value is None and buf.fully_written:
        # Every element is written before anything could read it.
        return aligned_empty(max(buf.region, 1), dtype)
    data = aligned_empty(max(buf.region, 1), dtype)
    data.fill(poison_value(buf.dtype))
    if value is not None:
        shape = TensorShape(buf.dtype, buf.sizes, buf.strides)
        data[buf.start + element_offsets(shape)] = cast_to(value, buf.dtype).reshape(-1)
    return data


def run_plan(plan: Plan, entry: Entry, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Call a compiled plan's entry on `inputs` (by Stripe buffer name); returns every output
    by name, shaped and typed as the interpreter returns them."""
    check_inputs(plan, inputs)
    arrays = [_prepare(buf, inputs.get(buf.stripe_name)) for buf in plan.buffers]
    status = np.zeros(1, dtype=np.int32)
    pointers = [a.ctypes.data for a in arrays] + [status.ctypes.data]
    args = (ctypes.c_void_p * len(pointers))(*pointers)
    entry(args)
    code = int(status[0])
    if code:
        raise CompileError([Diagnostic(f"run failed: {FAILURES.get(code, f'status {code}')}")])
    outputs = {}
    for buf, data in zip(plan.buffers, arrays, strict=True):
        if not buf.is_output:
            continue
        if _dense(buf):
            outputs[buf.stripe_name] = data[: buf.region].reshape(buf.sizes)
        else:
            shape = TensorShape(buf.dtype, buf.sizes, buf.strides)
            flat = data[buf.start + element_offsets(shape)]
            outputs[buf.stripe_name] = flat.reshape(buf.sizes).copy()
    return dict(sorted(outputs.items()))
