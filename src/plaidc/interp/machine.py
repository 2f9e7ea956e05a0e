"""Execution of Stripe blocks, vectorised over iteration points (STRIPE.md "Semantics").

A block statement runs its child block for *every* point of the parent at once: the child's
domain is flattened to one list of points (parent point x the child's index box, filtered by the
constraints), each knowing its parent point; a very large domain runs in a few batches. Buffers
are flat numpy arrays and every refinement is, per point, a base offset into one of them; a
`none` refinement allocates one fresh, poison-filled region per point.

Statements run in order for all points together. A store writes the buffer at once (so a later
load of the same point sees it) and is also recorded as a contribution (point, address, value),
because aggregation needs what each point *produced*, not what the shared buffer happens to
hold. When the block finishes, `plaidc.interp.aggregate` reduces the contributions per (parent
point, address) with the refinement's agg_op; the results are written to the buffer and become
the parent points' contributions to the parent's refinement, up to the block that owns the
buffer (a `none` allocation, or the root).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from plaidc.interp.aggregate import aggregate_batches, aggregate_points, finish
from plaidc.interp.dtypes import cast_to, constant_value
from plaidc.interp.errors import InterpError
from plaidc.interp.frames import (
    Buffer,
    Frame,
    View,
    Writes,
    alloc_layout,
    check_bounds,
    eval_affine,
)
from plaidc.interp.intrinsics import apply_intrinsic
from plaidc.interp.specials import run_special
from plaidc.stripe.ir import (
    Block,
    Constant,
    Intrinsic,
    Load,
    LoadIndex,
    Special,
    Statement,
    Store,
)

# Most points one batch of a block may hold; a larger domain runs in several batches (whole
# parent points where possible), whose aggregated results are aggregated again (agg_ops are
# associative and commutative). This bounds memory, not semantics.
MAX_BATCH_POINTS = 1 << 21


# --------------------------------------------------------------------------------------------
# Frames


def root_frame(program: Block, buffers: dict[str, Buffer]) -> Frame:
    """The frame of the program's root block, its refinements bound to `buffers` (by `into`)."""
    path = program.name or "program"
    box = int(np.prod([i.range for i in program.idxs], dtype=np.int64))
    n, _, idx = _domain(program, None, 0, box, path)
    if n != 1:
        raise InterpError(f"{path}: the root block must have exactly one point, it has {n}")
    views = {}
    for ref in program.refs:
        _, start = alloc_layout(ref.shape)
        views[ref.into] = View(ref, buffers[ref.into], np.array([start], dtype=np.int64))
    return Frame(program, path, 1, None, idx, views)


def _domain(
    block: Block, parent: Frame | None, lo: int, hi: int, path: str
) -> tuple[int, np.ndarray, dict[str, np.ndarray]]:
    """Points `lo..hi-1` of the box (parent point, *index ranges), flattened row-major, that
    satisfy the constraints: (count, parent point of each, index values of each)."""
    for index in block.idxs:
        if index.range < 0:
            raise InterpError(f"{path}: index {index.name} has a negative range {index.range}")
    ranges = tuple(i.range for i in block.idxs)
    box = int(np.prod(ranges, dtype=np.int64))
    if box == 0:
        return 0, np.zeros(0, dtype=np.int64), {i.name: np.zeros(0, np.int64) for i in block.idxs}
    parent_idx = parent.idx if parent is not None else {}
    if lo % box == 0 and hi % box == 0:
        parent_id, idx = _whole_boxes(block, parent_idx, lo // box, hi // box, path)
    else:
        parent_id, idx = _box_slice(block, parent_idx, lo, hi, path)
    if block.constraints:
        keep = np.ones(parent_id.size, dtype=bool)
        for constraint in block.constraints:
            keep &= eval_affine(constraint.affine, idx, parent_id.size, path) >= 0
        parent_id = parent_id[keep]
        idx = {name: vals[keep] for name, vals in idx.items()}
    return int(parent_id.size), parent_id, idx


def _whole_boxes(
    block: Block, parent_idx: dict[str, np.ndarray], first: int, last: int, path: str
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Every point of the box of parent points `first..last-1`, by broadcasting (the fast way)."""
    full = (last - first, *(i.range for i in block.idxs))

    def along(values: np.ndarray, axis: int) -> np.ndarray:
        shape = [1] * len(full)
        shape[axis] = values.size
        return values.reshape(shape)

    def flat(box: np.ndarray) -> np.ndarray:
        return np.broadcast_to(box, full).reshape(-1)

    parent_id = flat(along(np.arange(first, last, dtype=np.int64), 0))
    env = {name: vals[first:last] for name, vals in parent_idx.items()}
    idx: dict[str, np.ndarray] = {}
    for k, index in enumerate(block.idxs):
        local = along(np.arange(index.range, dtype=np.int64), k + 1)
        if index.affine.is_zero:
            idx[index.name] = flat(local)
        else:
            where = f"{path}: start of index {index.name}"
            idx[index.name] = flat(along(eval_affine(index.affine, env, full[0], where), 0) + local)
    return parent_id, idx


def _box_slice(
    block: Block, parent_idx: dict[str, np.ndarray], lo: int, hi: int, path: str
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Points `lo..hi-1` of the flattened box, for a block whose own box is too big for one
    batch: each index comes from dividing the flat point number."""
    rest = np.arange(lo, hi, dtype=np.int64)
    local: dict[str, np.ndarray] = {}
    for index in reversed(block.idxs):
        rest, local[index.name] = np.divmod(rest, index.range)
    parent_id = rest
    env = {name: vals[parent_id] for name, vals in parent_idx.items()}
    idx: dict[str, np.ndarray] = {}
    for index in block.idxs:
        where = f"{path}: start of index {index.name}"
        start = eval_affine(index.affine, env, parent_id.size, where)
        idx[index.name] = start + local[index.name]
    return parent_id, idx


def _child_views(frame: Frame, parent: Frame) -> dict[str, View]:
    assert frame.parent_id is not None
    views: dict[str, View] = {}
    for ref in frame.block.refs:
        if len(ref.access) != ref.shape.ndims:
            raise InterpError(
                f"{frame.path}: refinement '{ref.into}' has {len(ref.access)} access dimensions"
                f" but a {ref.shape.ndims}-D shape"
            )
        if ref.from_ is None:
            # A fresh region per point; its access (always zero in practice) places nothing.
            region, start = alloc_layout(ref.shape)
            buffer = Buffer.fresh(f"{frame.path}/{ref.into}", ref.shape.dtype, frame.n * region)
            base = np.arange(frame.n, dtype=np.int64) * region + start
        else:
            outer = parent.view(ref.from_, f"refinement '{ref.into}'")
            buffer = outer.buffer
            base = outer.base[frame.parent_id]
            for access, stride in zip(ref.access, ref.shape.strides, strict=True):
                if not access.is_zero:
                    where = f"{frame.path}: access of refinement '{ref.into}'"
                    base = base + eval_affine(access, frame.idx, frame.n, where) * stride
        views[ref.into] = View(ref, buffer, base)
    return views


def _batches(block: Block, parent: Frame) -> Iterator[tuple[int, int]]:
    """Ranges of the flattened box (parent point, *index ranges) to run together: whole parent
    points where a parent's box fits in MAX_BATCH_POINTS, otherwise slices of one box."""
    box = int(np.prod([i.range for i in block.idxs], dtype=np.int64))
    total = box * parent.n
    step = (MAX_BATCH_POINTS // box) * box if 0 < box <= MAX_BATCH_POINTS else MAX_BATCH_POINTS
    for lo in range(0, total, step):
        yield lo, min(total, lo + step)


# --------------------------------------------------------------------------------------------
# Statements


def run_body(frame: Frame) -> None:
    """Run the statements of `frame`'s block, in order, for all its points."""
    for pos, stmt in enumerate(frame.block.stmts):
        _run_stmt(frame, pos, stmt)


def _run_stmt(frame: Frame, pos: int, stmt: Statement) -> None:
    if isinstance(stmt, Load):
        view = frame.view(stmt.from_, "load")
        check_bounds(frame, view, view.base, "load")
        frame.scalars[stmt.into] = view.buffer.data[view.base]
    elif isinstance(stmt, Store):
        _store(frame, stmt)
    elif isinstance(stmt, LoadIndex):
        frame.scalars[stmt.into] = eval_affine(stmt.affine, frame.idx, frame.n, frame.path)
    elif isinstance(stmt, Constant):
        try:
            frame.scalars[stmt.name] = constant_value(stmt.value, stmt.type)
        except ValueError as err:
            raise InterpError(f"{frame.path}: constant type '{stmt.type}' is unknown") from err
    elif isinstance(stmt, Intrinsic):
        if len(stmt.outputs) != 1:
            raise InterpError(
                f"{frame.path}: intrinsic '{stmt.name}' has {len(stmt.outputs)} outputs;"
                " every known intrinsic has one"
            )
        args = [frame.scalar(name) for name in stmt.inputs]
        frame.scalars[stmt.outputs[0]] = apply_intrinsic(stmt.name, args, frame.path)
    elif isinstance(stmt, Special):
        run_special(frame, stmt)
    elif isinstance(stmt, Block):
        run_block(stmt, frame, pos)
    else:  # pragma: no cover - the IR has no other statement kinds
        raise InterpError(f"{frame.path}: unknown statement {type(stmt).__name__}")


def _store(frame: Frame, stmt: Store) -> None:
    view = frame.view(stmt.into, "store")
    value = cast_to(frame.scalar(stmt.from_), view.ref.shape.dtype)
    value = np.broadcast_to(value, (frame.n,))
    check_bounds(frame, view, view.base, "store")
    view.buffer.data[view.base] = value
    frame.record(view.ref, Writes(np.arange(frame.n, dtype=np.int64), view.base, value))


# --------------------------------------------------------------------------------------------
# Blocks and aggregation


def run_block(block: Block, parent: Frame, pos: int) -> None:
    """Run child `block` (statement `pos` of `parent`'s block) once for every parent point."""
    path = f"{parent.path}/{block.name or f'#{pos}'}"
    results: dict[str, list[Writes]] = {}
    for lo, hi in _batches(block, parent):
        n, parent_id, idx = _domain(block, parent, lo, hi, path)
        frame = Frame(block, path, n, parent_id, idx, {})
        frame.views = _child_views(frame, parent)
        run_body(frame)
        for into, writes in frame.writes.items():
            results.setdefault(into, []).append(aggregate_points(frame, frame.views[into], writes))
    for into, parts in results.items():
        ref = block.ref(into)
        assert ref is not None and ref.from_ is not None
        outer = parent.views[ref.from_]
        result = parts[0] if len(parts) == 1 else aggregate_batches(path, ref, outer, parts)
        result = finish(ref, result)
        outer.buffer.data[result.addr] = result.value
        parent.record(outer.ref, result)
