"""The interpreter's run-time state: buffers, per-point views, frames and their writes."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from plaidc.interp.dtypes import Value, cast_to, numpy_dtype, poison_value
from plaidc.interp.errors import InterpError
from plaidc.stripe.ir import Affine, Block, DType, Refinement, TensorShape


@dataclass
class Buffer:
    """One flat array of elements: a program buffer, or a fresh allocation for many points."""

    name: str
    dtype: DType
    data: np.ndarray

    @staticmethod
    def fresh(name: str, dtype: DType, size: int) -> Buffer:
        """A buffer of `size` elements filled with the poison value of `dtype`."""
        return Buffer(name, dtype, np.full(size, poison_value(dtype), dtype=numpy_dtype(dtype)))


@dataclass(frozen=True)
class View:
    """Refinement `ref` at every point of a frame: element 0 lies at `buffer.data[base[p]]`."""

    ref: Refinement
    buffer: Buffer
    base: np.ndarray


@dataclass(frozen=True)
class Writes:
    """Contributions of points to elements: point `pid[k]` left `value[k]` at `addr[k]`."""

    pid: np.ndarray
    addr: np.ndarray
    value: np.ndarray


@dataclass
class Frame:
    """One execution of a block for a batch of points (possibly of many parent points).

    `parent_id[p]` is the parent frame's point of point `p` (None for the root). `idx` holds each
    index's value per point. `writes` collects contributions per refinement name, in statement
    order, for refinements that view a buffer owned further up.
    """

    block: Block
    path: str
    n: int
    parent_id: np.ndarray | None
    idx: dict[str, np.ndarray]
    views: dict[str, View]
    scalars: dict[str, Value] = field(default_factory=dict)
    writes: dict[str, list[Writes]] = field(default_factory=dict)

    def view(self, name: str, what: str) -> View:
        found = self.views.get(name)
        if found is None:
            raise InterpError(f"{self.path}: {what} names '{name}', which is not a refinement here")
        return found

    def scalar(self, name: str) -> Value:
        if name not in self.scalars:
            raise InterpError(f"{self.path}: scalar '{name}' is used before it is defined")
        return self.scalars[name]

    def point_desc(self, pid: int) -> str:
        """`i=3, j=0`: the index values of point `pid`, for error messages."""
        items = [f"{name}={int(vals[pid])}" for name, vals in self.idx.items()]
        return ", ".join(items) or "the only point"

    def record(self, ref: Refinement, writes: Writes) -> None:
        """Note contributions through `ref`; a buffer this block owns needs no aggregation."""
        if ref.from_ is not None and self.parent_id is not None:
            self.writes.setdefault(ref.into, []).append(writes)


# --------------------------------------------------------------------------------------------
# Addressing helpers


def eval_affine(affine: Affine, env: dict[str, np.ndarray], n: int, where: str) -> np.ndarray:
    """The value of `affine` at each of `n` points whose index values are `env`."""
    out: np.ndarray | None = None
    for name, coeff in affine.terms:
        vals = env.get(name)
        if vals is None:
            raise InterpError(f"{where}: index '{name}' is not defined here")
        if out is None:
            out = vals * coeff if coeff != 1 else vals.astype(np.int64, copy=True)
        elif coeff == 1:
            out += vals
        else:
            out += vals * coeff
    if out is None:
        return np.full(n, affine.const, dtype=np.int64)
    if affine.const:
        out += affine.const
    return out


def element_offsets(shape: TensorShape) -> np.ndarray:
    """Offsets (in elements) of a view's elements from its element 0, in row-major order."""
    offs = np.zeros(1, dtype=np.int64)
    for size, stride in zip(shape.sizes, shape.strides, strict=True):
        offs = (offs[:, None] + np.arange(size, dtype=np.int64)[None, :] * stride).reshape(-1)
    return offs


def alloc_layout(shape: TensorShape) -> tuple[int, int]:
    """(elements per region, offset of element 0 in the region) for a fresh allocation."""
    if any(s == 0 for s in shape.sizes):
        return 0, 0
    lowest = sum((s - 1) * st for s, st in zip(shape.sizes, shape.strides, strict=True) if st < 0)
    return shape.extent, -lowest


def check_bounds(
    frame: Frame, view: View, addr: np.ndarray, what: str, pid: np.ndarray | None = None
) -> None:
    """Raise if some access `addr[k]` (by point `pid[k]`, default `k`) leaves `view`'s buffer."""
    if addr.size == 0:
        return
    size = view.buffer.data.size
    if addr.min() >= 0 and addr.max() < size:
        return
    first = int(np.flatnonzero((addr < 0) | (addr >= size))[0])
    point = int(pid[first]) if pid is not None else first
    raise InterpError(
        f"{frame.path}: {what} through refinement '{view.ref.into}' reaches element"
        f" {int(addr[first])} of buffer '{view.buffer.name}' ({size} elements)"
        f" at point ({frame.point_desc(point)})"
    )


def write_elements(
    frame: Frame, view: View, pid: np.ndarray, addr: np.ndarray, value: Value
) -> None:
    """Store `value` at `addr` for points `pid` through `view` (used by specials)."""
    check_bounds(frame, view, addr, "write", pid)
    stored = np.broadcast_to(cast_to(value, view.ref.shape.dtype), addr.shape)
    view.buffer.data[addr] = stored
    frame.record(view.ref, Writes(pid, addr, stored))
