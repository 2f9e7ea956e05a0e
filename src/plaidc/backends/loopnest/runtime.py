"""Running compiled plans on numpy arrays: buffer marshalling shared by the CPU backends.

A compiled plan exports `plaidc_entry(void *const *args)`: one pointer per program buffer
(`Plan.buffers` order) and then a one-element i32 status word; a call passes the address of
that table (an `array.array`). This module lays inputs out as the interpreter does
(`alloc_layout`, element offsets from the view's strides), fills outputs and temporaries with
the interpreter's poison value (so an element a program never writes reads back the same;
buffers the program provably writes completely are left uninitialised), calls the entry,
reports a failure status, and reads the outputs back. Outputs and temporaries start on a
64-byte boundary (`ALIGNMENT`).

A call is the fixed cost of every kernel (a 0.1 ms softmax spent 10-14 us here), so the
common case, C-contiguous ndarrays of the buffers' shapes and dtypes in and fresh dense
outputs out, takes one loop (`_plain_call`, ~3.5 us on the development machine) that reads
data addresses from the ndarray objects (`_find_data_offset`); anything else takes the general
path, which checks every input and converts it.
"""

from __future__ import annotations

import ctypes
import sys
from array import array as _table_of
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn, cast

import numpy as np

from plaidc.backends.loopnest.plan import FAILURES, Plan, ProgramBuffer
from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.interp import cast_to, element_offsets, numpy_dtype, poison_value
from plaidc.stripe.ir import DType, TensorShape

Entry = Callable[[int], None]  # called with the address of the pointer table


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


def _find_data_offset() -> int | None:
    """Where an ndarray object holds the address of its data, if this interpreter lays it out
    as numpy's C API declares it (`PyArrayObject_fields`: the object header, then `char *data`;
    `id()` is the object's address in CPython), checked on probe arrays of several kinds; None
    (the buffer protocol is used) where it is not so."""
    if sys.implementation.name != "cpython":
        return None
    offset = object.__basicsize__  # sizeof(PyObject) of this build
    frozen = np.arange(6.0)[1:]
    frozen.flags.writeable = False
    probes = (np.empty(3, np.float32), np.zeros((4, 5), np.int8)[1:, 2:], frozen, np.float64(2))
    for probe in probes:
        array = np.asarray(probe)
        found = ctypes.c_void_p.from_address(id(array) + offset).value
        if found != array.__array_interface__["data"][0]:
            return None
    return offset


_DATA_OFFSET = _find_data_offset()


def _address(array: np.ndarray) -> int:
    """The address of an array's data: read from the ndarray object (~0.2 us; see
    `_find_data_offset`), else through a ctypes view of a writable buffer (~0.7 us) or
    `ndarray.ctypes.data` (~2.5 us)."""
    if _DATA_OFFSET is not None and type(array) is np.ndarray:
        return ctypes.c_void_p.from_address(id(array) + _DATA_OFFSET).value or 0
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
    # a passed input that needs no conversion when its array has `dtype` (not bf16, whose
    # values are rounded)
    exact: bool


class _Marshal:
    """A plan's buffers as a call lays them out (computed once per plan: a call of a
    0.1 ms kernel spent ~20 us in this bookkeeping)."""

    def __init__(self, plan: Plan) -> None:
        self.slots = []
        for buf in plan.buffers:
            dense = _dense(buf)
            dtype = numpy_dtype(buf.dtype)
            passed = dense and not buf.is_output
            self.slots.append(_Slot(buf, dtype, dense, passed, buf.dtype is not DType.BF16))
        self.inputs = {b.stripe_name: b.sizes for b in plan.buffers if b.is_input}
        # (slot, name) of the program's inputs, in slot order
        self.named = [(k, s.buf.stripe_name) for k, s in enumerate(self.slots) if s.buf.is_input]
        # the outputs a call returns, by name: (name, slot)
        outputs = [(b.stripe_name, k) for k, b in enumerate(plan.buffers) if b.is_output]
        self.outputs = sorted(outputs)
        self.plain = _plain_slots(self.slots)


# What `_plain_call` does per buffer: an input passed as it is (name, sizes, dtype), or a fresh
# output (None, sizes, dtype, elements, poison or None).
_PlainSlot = tuple[str | None, tuple[int, ...], np.dtype, int, object]


def _plain_slots(slots: list[_Slot]) -> tuple[_PlainSlot, ...] | None:
    """The plan's buffers as `_plain_call` handles them, or None if some buffer needs more
    (an input that is also written or not dense, a strided output, a temporary, a dtype that
    does not divide the alignment)."""
    if _DATA_OFFSET is None:
        return None
    plain: list[_PlainSlot] = []
    for slot in slots:
        buf = slot.buf
        if ALIGNMENT % slot.dtype.itemsize:
            return None
        if buf.is_input:
            if not (slot.passed and slot.exact):
                return None
            plain.append((buf.stripe_name, buf.sizes, slot.dtype, 0, None))
        elif buf.is_output and slot.dense and buf.region:
            poison = None if buf.fully_written else poison_value(buf.dtype)
            plain.append((None, buf.sizes, slot.dtype, buf.region, poison))
        else:
            return None
    return tuple(plain)


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
        passed = np.asarray(value)
        if passed.dtype == dtype and slot.exact:
            if not passed.flags.c_contiguous:
                passed = np.ascontiguousarray(passed)
        else:
            passed = np.ascontiguousarray(cast_to(passed, buf.dtype)).reshape(-1)
        return passed, _address(passed)
    data, address = _aligned(max(buf.region, 1), dtype)
    if value is None and buf.fully_written:
        # Every element is written before anything could read it.
        return data, address
    data.fill(poison_value(buf.dtype))
    if value is not None:
        shape = TensorShape(buf.dtype, buf.sizes, buf.strides)
        data[buf.start + element_offsets(shape)] = cast_to(value, buf.dtype).reshape(-1)
    return data, address


def _shape(value: Any) -> tuple[int, ...]:
    # `np.shape` costs ~0.4 us a call through numpy's function dispatch
    return value.shape if type(value) is np.ndarray else np.shape(value)


# The entry's pointer table as an `array.array` (a third of a ctypes array's cost to build).
_POINTER = {8: "Q", 4: "I"}[ctypes.sizeof(ctypes.c_void_p)]


def _direct(slot: _Slot, value: object) -> bool:
    """Whether an input's value is passed as it is: a C-contiguous ndarray of the buffer's
    dtype, for a densely laid out, read-only buffer."""
    return (
        slot.passed
        and slot.exact
        and type(value) is np.ndarray
        and (value.dtype is slot.dtype or value.dtype == slot.dtype)
        and value.flags.c_contiguous
    )


def run_plan(plan: Plan, entry: Entry, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Call a compiled plan's entry on `inputs` (by Stripe buffer name); returns every output
    by name, shaped and typed as the interpreter returns them. The entry gets the address of a
    table of one pointer per buffer (`Plan.buffers` order) and then one to the status word."""
    marshal = _marshal(plan)
    if marshal.plain is not None and len(inputs) == len(marshal.named):
        done = _plain_call(marshal.plain, entry, inputs)
        if done is not None:
            return {name: done[k] for name, k in marshal.outputs}
    return _general_call(plan, marshal, entry, inputs)


def _plain_call(
    plain: tuple[_PlainSlot, ...], entry: Entry, inputs: Mapping[str, np.ndarray]
) -> list[np.ndarray] | None:
    """`run_plan` for the common case, in one loop (a call of a small kernel spent ~2.5 us more
    in the general one): every input a C-contiguous ndarray of its buffer's shape and dtype,
    every output fresh. Returns each buffer's array (outputs shaped), or None before calling
    the entry if an input is anything else (the general call then checks and converts it)."""
    read = ctypes.c_void_p.from_address
    offset = cast(int, _DATA_OFFSET)
    arrays: list[np.ndarray] = []
    addresses: list[int] = []
    for name, sizes, dtype, elements, poison in plain:
        if name is not None:
            value = inputs.get(name)
            if (
                type(value) is not np.ndarray
                or value.shape != sizes
                or not (value.dtype is dtype or value.dtype == dtype)
                or not value.flags.c_contiguous
            ):
                return None
            arrays.append(value)
            addresses.append(read(id(value) + offset).value or 0)
            continue
        size = dtype.itemsize
        raw = np.empty(elements + ALIGNMENT // size, dtype)
        address = read(id(raw) + offset).value or 0
        skip = -address % ALIGNMENT
        if skip % size:
            return None
        data = raw[skip // size : skip // size + elements]
        if poison is not None:
            data.fill(poison)
        arrays.append(data.reshape(sizes))
        addresses.append(address + skip)
    _enter(entry, addresses)
    return arrays


def _enter(entry: Entry, addresses: list[int]) -> None:
    """Call the entry with `addresses` and a status word after them; a failure is reported."""
    status = ctypes.c_int32(0)
    addresses.append(ctypes.addressof(status))
    table = _table_of(_POINTER, addresses)
    entry(table.buffer_info()[0])
    if status.value:
        _failed(status.value)


def _failed(code: int) -> NoReturn:
    raise CompileError([Diagnostic(f"run failed: {FAILURES.get(code, f'status {code}')}")])


def _general_call(
    plan: Plan, marshal: _Marshal, entry: Entry, inputs: Mapping[str, np.ndarray]
) -> dict[str, np.ndarray]:
    """`run_plan` for inputs of any kind (checked, converted) and buffers of any layout."""
    slots = marshal.slots
    values: list[Any] = [None] * len(slots)
    if len(inputs) != len(marshal.named):
        check_inputs(plan, inputs)
    for k, name in marshal.named:
        value = inputs.get(name)
        if value is None or _shape(value) != slots[k].buf.sizes:
            check_inputs(plan, inputs)  # reports every problem (or finds a tuple shape equal)
        values[k] = value
    arrays: list[np.ndarray] = []
    addresses: list[int] = []
    for slot, value in zip(slots, values, strict=True):
        if _direct(slot, value):
            arrays.append(value)
            addresses.append(_address(value))
        else:
            prepared, address = _prepare(slot, value)
            arrays.append(prepared)
            addresses.append(address)
    _enter(entry, addresses)
    outputs = {}
    for name, k in marshal.outputs:
        slot, data = slots[k], arrays[k]
        buf = slot.buf
        if slot.dense:
            whole = data if len(data) == buf.region else data[: buf.region]
            outputs[name] = whole.reshape(buf.sizes)
        else:
            shape = TensorShape(buf.dtype, buf.sizes, buf.strides)
            flat = data[buf.start + element_offsets(shape)]
            outputs[name] = flat.reshape(buf.sizes).copy()
    return outputs
