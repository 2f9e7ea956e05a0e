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
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

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
    return _aligned(count, dtype)[0]


def _aligned(count: int, dtype: np.dtype) -> tuple[np.ndarray, int]:
    """`aligned_empty`'s array and the address of its data (a call reads it once)."""
    size = dtype.itemsize
    if ALIGNMENT % size == 0:  # in elements (numpy's data starts on a multiple of their size)
        raw = np.empty(count + ALIGNMENT // size, dtype=dtype)
        start = _address(raw)
        skip = -start % ALIGNMENT
        if skip % size == 0:
            return raw[skip // size : skip // size + count], start + skip
    raw = np.empty(count * size + ALIGNMENT, dtype=np.uint8)
    start = _address(raw)
    skip = -start % ALIGNMENT
    return raw[skip : skip + count * size].view(dtype), start + skip


def _address(array: np.ndarray) -> int:
    """The address of an array's data (`ndarray.ctypes.data` costs ~2.5 us a call; a
    ctypes view of a writable buffer ~0.7 us)."""
    if array.flags.writeable and array.flags.c_contiguous and array.nbytes:
        return ctypes.addressof(ctypes.c_char.from_buffer(cast(Any, array)))
    return int(array.ctypes.data)


@dataclass(frozen=True)
class _Slot:
    """What a call does with one program buffer, decided once per plan."""

    buf: ProgramBuffer
    dtype: np.dtype
    dense: bool
    # a read-only input passed as it is (converted if needed), else a fresh aligned buffer
    passed: bool


class _Marshal:
    """A plan's buffers as a call lays them out (computed once per plan: a call of a
    0.1 ms kernel spent ~20 us in this bookkeeping)."""

    def __init__(self, plan: Plan) -> None:
        self.slots = []
        for buf in plan.buffers:
            dense = _dense(buf)
            dtype = numpy_dtype(buf.dtype)
            self.slots.append(_Slot(buf, dtype, dense, dense and not buf.is_output))
        self.inputs = {b.stripe_name: b.sizes for b in plan.buffers if b.is_input}
        self.pointers = ctypes.c_void_p * (len(plan.buffers) + 1)


_MARSHALS: OrderedDict[int, tuple[Plan, _Marshal]] = OrderedDict()
_MARSHALS_KEPT = 64


def _marshal(plan: Plan) -> _Marshal:
    """The plan's marshal, cached by identity (the plan is kept with it, so its id stays its
    own; the least recently used go beyond `_MARSHALS_KEPT` plans)."""
    key = id(plan)
    found = _MARSHALS.get(key)
    if found is not None and found[0] is plan:
        _MARSHALS.move_to_end(key)
        return found[1]
    marshal = _Marshal(plan)
    _MARSHALS[key] = (plan, marshal)
    if len(_MARSHALS) > _MARSHALS_KEPT:
        _MARSHALS.popitem(last=False)
    return marshal


def _prepare(slot: _Slot, value: np.ndarray | None) -> tuple[np.ndarray, int]:
    """The array a call passes for one buffer, and its address."""
    buf, dtype = slot.buf, slot.dtype
    if value is not None and slot.passed:
        # A read-only, densely laid out input is passed as it is (converted if needed).
        array = np.asarray(value)
        if array.dtype == dtype and buf.dtype is not DType.BF16:
            if not array.flags.c_contiguous:
                array = np.ascontiguousarray(array)
        else:
            array = np.ascontiguousarray(cast_to(array, buf.dtype)).reshape(-1)
        return array, _address(array)
    data, address = _aligned(max(buf.region, 1), dtype)
    if value is None and buf.fully_written:
        # Every element is written before anything could read it.
        return data, address
    data.fill(poison_value(buf.dtype))
    if value is not None:
        shape = TensorShape(buf.dtype, buf.sizes, buf.strides)
        data[buf.start + element_offsets(shape)] = cast_to(value, buf.dtype).reshape(-1)
    return data, address


def run_plan(plan: Plan, entry: Entry, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Call a compiled plan's entry on `inputs` (by Stripe buffer name); returns every output
    by name, shaped and typed as the interpreter returns them."""
    marshal = _marshal(plan)
    wanted = marshal.inputs
    if len(inputs) != len(wanted) or any(
        name not in wanted or np.shape(value) != wanted[name] for name, value in inputs.items()
    ):
        check_inputs(plan, inputs)  # reports every problem (or finds a tuple shape equal)
    prepared = [_prepare(slot, inputs.get(slot.buf.stripe_name)) for slot in marshal.slots]
    arrays = [array for array, _ in prepared]
    status = ctypes.c_int32(0)
    args = marshal.pointers(*[address for _, address in prepared], ctypes.addressof(status))
    entry(args)
    code = status.value
    if code:
        raise CompileError([Diagnostic(f"run failed: {FAILURES.get(code, f'status {code}')}")])
    outputs = {}
    for slot, data in zip(marshal.slots, arrays, strict=True):
        buf = slot.buf
        if not buf.is_output:
            continue
        if slot.dense:
            whole = data if len(data) == buf.region else data[: buf.region]
            outputs[buf.stripe_name] = whole.reshape(buf.sizes)
        else:
            shape = TensorShape(buf.dtype, buf.sizes, buf.strides)
            flat = data[buf.start + element_offsets(shape)]
            outputs[buf.stripe_name] = flat.reshape(buf.sizes).copy()
    return dict(sorted(outputs.items()))
