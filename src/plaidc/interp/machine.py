"""Execution of Stripe blocks, vectorised over iteration points (STRIPE.md "Semantics").

A block statement runs its child block for *every* point of the parent at once: the child's
domain is flattened to one list of points (parent point x the child's index box, filtered by the
constraints), each knowing its parent point; a large domain runs in chunks that fit the
interpreter's working set (`plaidc.interp.chunks`), whose aggregated results are combined in
chunk order. Buffers are flat numpy arrays and every refinement is, per point, a base offset into
one of them; a `none` refinement allocates one fresh, poison-filled region per point.

Statements run in order for all points together. A store writes the buffer at once (so a later
load of the same point sees it) and is also recorded as a contribution (point, address, value),
because aggregation needs what each point *produced*, not what the shared buffer happens to
hold. When the block finishes, `plaidc.interp.aggregate` reduces the contributions per (parent
point, address) with the refinement's agg_op; the results are written to the buffer and become
the parent points' contributions to the parent's refinement, up to the block that owns the
buffer (a `none` allocation, or the root).
"""

from __future__ import annotations

import numpy as np

from plaidc.interp.aggregate import Partials, aggregate_points, finish
from plaidc.interp.chunks import Chunk, chunk_domain, plan_chunks
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
from plaidc.interp.memory import point_bytes, working_set_bytes
from plaidc.interp.specials import run_special
from plaidc.stripe.ir import (
    Affine,
    Block,
    Constant,
    Intrinsic,
    Load,
    LoadIndex,
    Special,
    Statement,
    Store,
)

# Most points one chunk of a block holds, however big the working set: numpy runs no faster on
# longer arrays, and the temporaries stay in a few MiB each.
MAX_BATCH_POINTS = 1 << 21


# --------------------------------------------------------------------------------------------
# Frames


def root_frame(program: Block, buffers: dict[str, Buffer]) -> Frame:
    """The frame of the program's root block, its refinements bound to `buffers` (by `into`)."""
    path = program.name or "program"
    box = int(np.prod([i.range for i in program.idxs], dtype=np.int64))
    whole = next(plan_chunks(program, 1, max(box, 1), path), None)
    n, _, idx = chunk_domain(program, {}, whole, path) if whole is not None else (0, None, {})
    if n != 1:
        raise InterpError(f"{path}: the root block must have exactly one point, it has {n}")
    views = {}
    for ref in program.refs:
        _, start = alloc_layout(ref.shape)
        views[ref.into] = View(ref, buffers[ref.into], np.array([start], dtype=np.int64))
    return Frame(program, path, 1, None, idx, views)


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
            offset = Affine.const_(0)
            for access, stride in zip(ref.access, ref.shape.strides, strict=True):
                offset = offset + access * stride
            where = f"{frame.path}: access of refinement '{ref.into}'"
            if outer.base.size == 1:  # one parent point: no gather of its base
                base = eval_affine(offset + int(outer.base[0]), frame.idx, frame.n, where)
            else:
                base = outer.base[frame.parent_id]
                if not offset.is_zero:
                    base += eval_affine(offset, frame.idx, frame.n, where)
        views[ref.into] = View(ref, buffer, base)
    return views


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
    """Run child `block` (statement `pos` of `parent`'s block) once for every parent point, in
    chunks that fit the working set (see `plaidc.interp.chunks`)."""
    path = f"{parent.path}/{block.name or f'#{pos}'}"
    max_points = max(1, min(MAX_BATCH_POINTS, working_set_bytes() // point_bytes(block)))
    results: dict[str, Partials] = {}
    for chunk in plan_chunks(block, parent.n, max_points, path):
        for into, part in _run_chunk(block, parent, chunk, path).items():
            if into not in results:
                ref = block.ref(into)
                assert ref is not None and ref.from_ is not None
                results[into] = Partials(path, ref, parent.views[ref.from_], max_points)
            results[into].add(part)
    for partials in results.values():
        result = finish(partials.ref, partials.combined())
        outer = partials.view
        outer.buffer.data[result.addr] = result.value
        parent.record(outer.ref, result)


def _run_chunk(block: Block, parent: Frame, chunk: Chunk, path: str) -> dict[str, Writes]:
    """Run `block` for the points of `chunk`: the aggregated (unrounded) writes of each
    refinement, by name. The chunk's temporaries are gone when this returns."""
    n, parent_id, idx = chunk_domain(block, parent.idx, chunk, path)
    frame = Frame(block, path, n, parent_id, idx, {})
    frame.views = _child_views(frame, parent)
    run_body(frame)
    return {
        into: aggregate_points(frame, frame.views[into], writes)
        for into, writes in frame.writes.items()
    }
