"""Aggregation (paper Definition 2): combining what the points of one block execution stored.

For a refinement with agg_op `add mul max min`, each element stored by one or more points gets
`agg(v_1, ..., v_n)` of the values those points produced; with `assign` (or none) the points
that store it must all store the same value (usually there is one). A point's value for an
element is its last write there (its own store, a special, or what a child block left), so
earlier writes of the same point are dropped first.
Groups are (parent point, address): each parent point runs the block once.
"""

from __future__ import annotations

import numpy as np

from plaidc.interp.dtypes import cast_to
from plaidc.interp.errors import InterpError
from plaidc.interp.frames import Frame, View, Writes
from plaidc.stripe.ir import Refinement

_AGG_UFUNCS: dict[str, np.ufunc] = {
    "add": np.add,
    "mul": np.multiply,
    "max": np.maximum,
    "min": np.minimum,
}


def _sorted_groups(owner: np.ndarray, addr: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(order, starts): a stable sort by (owner, addr) and where each group begins in it; a
    single `owner` is the owner of every row."""
    key = owner * size + addr if owner.size != 1 else addr + int(owner[0]) * size
    if key.size > 1 and bool(np.all(key[1:] >= key[:-1])):
        order = np.arange(key.size, dtype=np.int64)  # already sorted: chunks are row-major
    else:
        order = np.argsort(key, kind="stable")
        key = key[order]
    starts = np.flatnonzero(np.concatenate((key[:1] == key[:1], key[1:] != key[:-1])))
    return order, starts


def _reduce(path: str, ref: Refinement, values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Each group's aggregate, unrounded: fp16 values accumulate in fp32, as numpy's fp16
    sums and products and every backend do (an fp16 running sum of 2000 terms is off by a
    few percent); `finish` rounds once, after the last batch."""
    ufunc = _AGG_UFUNCS.get(ref.agg_op or "")
    if ufunc is None:
        raise InterpError(f"{path}: refinement '{ref.into}' has unknown agg_op '{ref.agg_op}'")
    if values.dtype == np.float16:
        values = values.astype(np.float32)
    with np.errstate(all="ignore"):
        return ufunc.reduceat(values, starts)


def finish(ref: Refinement, writes: Writes) -> Writes:
    """The aggregated writes of a whole block execution in the refinement's type."""
    return Writes(writes.pid, writes.addr, cast_to(writes.value, ref.shape.dtype))


def _first_conflict(values: np.ndarray, starts: np.ndarray) -> int | None:
    """The position in sorted order of the first member of a group (an element stored under
    `assign`) whose value differs from its group's first (NaN equals NaN), or None: points
    storing the same value into an element do not conflict (STRIPE.md semantics rule 3)."""
    sizes = np.diff(np.append(starts, values.size))
    if starts.size == values.size:
        return None
    firsts = np.repeat(values[starts], sizes)
    with np.errstate(all="ignore"):
        same = (values == firsts) | ((values != values) & (firsts != firsts))
    differ = np.flatnonzero(~same)
    return None if differ.size == 0 else int(differ[0])


def aggregate_points(frame: Frame, view: View, writes: list[Writes]) -> Writes:
    """Aggregate the points' writes through `view` into writes of the parent points (not yet
    rounded to the view's type: see `finish`)."""
    assert frame.parent_id is not None
    ref = view.ref
    size = max(view.buffer.data.size, 1)
    pid = np.concatenate([w.pid for w in writes])
    addr = np.concatenate([w.addr for w in writes])
    value = np.concatenate([w.value for w in writes])
    if len(writes) > 1:
        # Keep each point's last write per address; batches are in statement order.
        order, starts = _sorted_groups(pid, addr, size)
        last = np.append(starts[1:], order.size) - 1
        keep = order[last]
        pid, addr, value = pid[keep], addr[keep], value[keep]
    parents = frame.parent_id
    if parents.size and parents[0] == parents[-1]:  # one parent point (they are in order)
        owner = np.full(pid.size, parents[0], dtype=np.int64)
        order, starts = _sorted_groups(np.zeros(1, dtype=np.int64), addr, size)
    else:
        owner = parents[pid]
        order, starts = _sorted_groups(owner, addr, size)
    if ref.agg_op in (None, "assign"):
        at = _first_conflict(value[order], starts)
        if at is not None:
            group = starts[np.searchsorted(starts, at, side="right") - 1]
            first, second = int(pid[order[group]]), int(pid[order[at]])
            raise InterpError(
                f"{frame.path}: refinement '{ref.into}' ({ref.agg_op or 'no agg_op'}) is stored"
                f" by more than one point, with different values, at element"
                f" {int(addr[order[at]])} of buffer '{view.buffer.name}': points"
                f" ({frame.point_desc(first)}) and ({frame.point_desc(second)})"
            )
        reduced = value[order[starts]]
    else:
        reduced = _reduce(frame.path, ref, value[order], starts)
    picked = order[starts]
    return Writes(owner[picked], addr[picked], reduced)


def aggregate_batches(path: str, ref: Refinement, view: View, parts: list[Writes]) -> Writes:
    """Combine the aggregated (unrounded) results of several batches of one block execution;
    an fp16 sum split across batches still rounds once, in `finish`."""
    owner = np.concatenate([w.pid for w in parts])
    addr = np.concatenate([w.addr for w in parts])
    value = np.concatenate([w.value for w in parts])
    order, starts = _sorted_groups(owner, addr, max(view.buffer.data.size, 1))
    if ref.agg_op in (None, "assign"):
        at = _first_conflict(value[order], starts)
        if at is not None:
            raise InterpError(
                f"{path}: refinement '{ref.into}' ({ref.agg_op or 'no agg_op'}) is stored by"
                f" more than one point, with different values, at element"
                f" {int(addr[order[at]])} of buffer '{view.buffer.name}'"
            )
        reduced = value[order[starts]]
    else:
        reduced = _reduce(path, ref, value[order], starts)
    picked = order[starts]
    return Writes(owner[picked], addr[picked], reduced)


class Partials:
    """The aggregated (unrounded) results of the chunks of one block execution through one
    refinement, combined as they come in bounded memory.

    Chunk results are kept until they hold more rows than `max_rows` and than the combination
    so far, then combined with it by `aggregate_batches`: the rows of one element are reduced in
    the order combination so far, then chunks in order, so a reduction split across chunks is
    accumulated in chunk order (each chunk's partial itself a pairwise numpy reduction). Rows
    stay about the number of elements written plus one chunk's, and `assign` conflicts between
    chunks are found as within one.
    """

    def __init__(self, path: str, ref: Refinement, view: View, max_rows: int) -> None:
        self.path, self.ref, self.view, self.max_rows = path, ref, view, max_rows
        self._parts: list[Writes] = []
        self._combined_rows = 0
        self._pending_rows = 0

    def add(self, part: Writes) -> None:
        self._parts.append(part)
        self._pending_rows += part.addr.size
        if self._pending_rows > max(self.max_rows, self._combined_rows):
            self._combine()

    def combined(self) -> Writes:
        """The combination of every chunk's results added so far."""
        self._combine()
        return self._parts[0]

    def _combine(self) -> None:
        if len(self._parts) > 1:
            self._parts = [aggregate_batches(self.path, self.ref, self.view, self._parts)]
        self._combined_rows = self._parts[0].addr.size
        self._pending_rows = 0
