"""Shaping a block's loop nest for the CPU: loop order, threads, vectorisable inner loops.

Every decision here is checked against the semantics, so it only changes speed:

* Loop order (leaf blocks): the points of a block are unordered, so any order is correct. The
  innermost loop is the index whose accesses are cheapest to vectorise (unit stride or
  invariant), outer loops go by decreasing stride.
* Threads: a block carrying one of the config's `parallel_tags` and doing at least
  `parallel_min_work` points of work gets its outermost loop spread over threads when
  iterations with different values of that index never write a common element (isl,
  `aggregation.loop_is_independent`). Threads are not nested.
* Vectorisation (leaf blocks): the innermost loop is marked independent when distinct
  iterations write distinct elements of every buffer it stores at offsets that move with it;
  an accumulation into an element that does not depend on the innermost index becomes a scalar
  reduction (an accumulator, one combine after the loop), which compilers vectorise, also
  beside such stores (a fused `E[i] = exp(..); S += E[i]`). With `divide_by_reciprocal`, its
  divisions by loop-invariant values become multiplications by their reciprocals
  (`plaidc.backends.loopnest.reciprocal`); with `minmax_accumulators` (max/min reductions)
  or `sum_accumulators` (sums) above 1, a reduction loop runs as that many interleaved parts
  with their own accumulators (`plaidc.backends.loopnest.interleave`); with
  `vector_exp_loops`, a loop computing fp32 exp is written with vector types, so the
  backend's vector exp inlines (`plaidc.backends.loopnest.vector_loops`); with
  `align_vector_loops`, a long vector loop first runs up to an aligned address of its store
  (`plaidc.backends.loopnest.align`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from plaidc.backends.loopnest.aggregation import (
    WrittenRef,
    distinct_writers_differ_in,
    loop_is_independent,
)
from plaidc.backends.loopnest.align import align_vector_loops
from plaidc.backends.loopnest.interleave import MINMAX, SUMS, computes_math, split_reductions
from plaidc.backends.loopnest.plan import (
    Alloc,
    AssignVar,
    DeclVar,
    If,
    IntExpr,
    LetInt,
    LetScalar,
    Loop,
    Reduction,
    SBinary,
    ScalarType,
    SCompare,
    SConst,
    SExpr,
    SSelect,
    Stmt,
    Store,
    SVar,
    int_scalars,
    int_vars,
    scalar_loads,
)
from plaidc.backends.loopnest.reciprocal import divide_by_reciprocal
from plaidc.backends.loopnest.scalars import aggregate, identity
from plaidc.backends.loopnest.scope import Scope
from plaidc.backends.loopnest.vector_loops import vectorise_exp_loops
from plaidc.stripe.ir import Block, Constant, DType, Intrinsic, Load, LoadIndex
from plaidc.stripe.ir import Store as StripeStore

if TYPE_CHECKING:
    from plaidc.backends.loopnest.lower import Lowering

_LEAF_STMTS = (Load, StripeStore, LoadIndex, Constant, Intrinsic)


def is_leaf(block: Block) -> bool:
    """A block whose body only moves and computes scalars (no child blocks, no specials)."""
    return all(isinstance(s, _LEAF_STMTS) for s in block.stmts)


def _access_cost(coeff: int, store: bool) -> int:
    if coeff == 0:
        return 2 if store else 0
    if abs(coeff) == 1:
        return 0
    return 8


def leaf_order(scope: Scope) -> list[str] | None:
    """The loop order for a leaf block (outermost first), or None to keep index order."""
    block = scope.chain[-1]
    if not is_leaf(block) or len(block.idxs) < 2:
        return None
    flat: list[tuple[dict[str, int], bool]] = []
    for stmt in block.stmts:
        if isinstance(stmt, (Load, StripeStore)):
            name = stmt.from_ if isinstance(stmt, Load) else stmt.into
            view = scope.views.get(name)
            if view is None:
                return None
            coeffs: dict[str, int] = {}
            for access, stride in zip(view.ref.access, view.ref.shape.strides, strict=True):
                for idx, c in access.terms:
                    coeffs[idx] = coeffs.get(idx, 0) + c * stride
            flat.append((coeffs, isinstance(stmt, StripeStore)))
    names = [i.name for i in block.idxs]
    moving = [i.name for i in block.idxs if i.range > 1]
    if not moving:
        return None
    cost = {n: sum(_access_cost(c.get(n, 0), store) for c, store in flat) for n in moving}
    inner = min(reversed(moving), key=lambda n: cost[n])
    spread = {n: max((abs(c.get(n, 0)) for c, _ in flat), default=0) for n in names}
    outer = sorted((n for n in names if n != inner), key=lambda n: -spread[n])
    return [*outer, inner]


def work(block: Block) -> int:
    """Points executed by one execution of `block` and its descendants (index boxes, ignoring
    constraints): a measure of whether threads pay for their start-up."""
    inner = sum(work(s) for s in block.stmts if isinstance(s, Block))
    return block.count * max(inner, 1)


def finish_block(
    lowering: Lowering,
    scope: Scope,
    written: dict[str, WrittenRef],
    body: Callable[[], list[Stmt]],
) -> list[Stmt]:
    """The loop nest of `scope`'s block around `body`, ordered and marked (module docstring)."""
    block = scope.chain[-1]
    depth = scope.depth
    order = leaf_order(scope)
    loop_names = order if order is not None else [i.name for i in block.idxs]
    ranges = {i.name: i.range for i in block.idxs}
    moving = [n for n in loop_names if ranges[n] > 1]
    parallel = None
    first = parallel_index(lowering, scope, written)
    if first is not None:
        loop_names = [first, *(n for n in loop_names if n != first)]
        order = loop_names
        moving = [n for n in loop_names if ranges[n] > 1]
        parallel = scope.vars[(depth, first)]
    if parallel is not None:
        lowering.in_parallel = True
        try:
            loops = lowering.points(scope, body, order)
        finally:
            lowering.in_parallel = False
        loops = [_mark_parallel(s, parallel) for s in loops]
    else:
        loops = lowering.points(scope, body, order)
    if is_leaf(block) and moving:
        inner = moving[-1]
        # Buffers that distinct iterations of the inner loop write in common: a store there
        # whose offset moves with the loop blocks vectorisation; one whose offset does not is
        # an accumulation that may become a scalar reduction (a fused `E = f(X); S += E`).
        shared: set[str] | None = {
            scope.views[name].buffer
            for name, w in written.items()
            if name in scope.views and not distinct_writers_differ_in(w.shared, depth, inner)
        }
        if any(name not in scope.views for name in written):
            shared = None
        target = scope.vars[(depth, inner)]
        loops = [x for s in loops for x in _vectorise(s, target, shared, lowering)]
    return loops


def parallel_index(lowering: Lowering, scope: Scope, written: dict[str, WrittenRef]) -> str | None:
    """The index of `scope`'s block whose loop `finish_block` runs on threads, if any: in a
    block the config's `parallel_tags` select, outside any parallel loop, with enough work,
    the outermost (the widest) loop that writes disjoint elements; a leaf keeps its innermost
    (vector) loop."""
    block = scope.chain[-1]
    order = leaf_order(scope)
    loop_names = order if order is not None else [i.name for i in block.idxs]
    ranges = {i.name: i.range for i in block.idxs}
    moving = [n for n in loop_names if ranges[n] > 1]
    opts = lowering.options
    wanted = bool(opts.parallel_tags) and block.tags.has_any(opts.parallel_tags)
    if not wanted or lowering.in_parallel or not moving or work(block) < opts.parallel_min_work:
        return None
    candidates = moving[:-1] if is_leaf(block) and len(moving) > 1 else moving
    free = [n for n in candidates if loop_is_independent(written, scope.depth, n)]
    if not free:
        return None
    return max(free, key=lambda n: (ranges[n], -loop_names.index(n)))


def _mark_parallel(stmt: Stmt, var: str) -> Stmt:
    if isinstance(stmt, Loop) and stmt.var == var:
        return replace(stmt, parallel=True)
    return stmt


def mark_init_loops(stmts: list[Stmt]) -> list[Stmt]:
    """Initialisation loops store one constant: their innermost loops may be vectorised."""
    out: list[Stmt] = []
    for stmt in stmts:
        if isinstance(stmt, Loop):
            body = tuple(mark_init_loops(list(stmt.body)))
            innermost = not any(isinstance(s, Loop) for s in body)
            stmt = replace(stmt, body=body, vector=stmt.vector or innermost)
        out.append(stmt)
    return out


# ---- innermost loops ----------------------------------------------------------------------


def _vectorise(stmt: Stmt, var: str, shared: set[str] | None, lowering: Lowering) -> list[Stmt]:
    """`stmt` with the loop over `var` inside it vectorised where that is safe (the loop may
    come back with hoisted bindings, accumulators and their final combines around it).
    `shared`: the buffers that distinct iterations write in common (None: unknown, all)."""
    if not isinstance(stmt, Loop):
        return [stmt]
    if stmt.var != var:
        body = [x for s in stmt.body for x in _vectorise(s, var, shared, lowering)]
        return [replace(stmt, body=tuple(body))]
    hoisted, body = _hoist_invariants(stmt)
    if any(isinstance(s, Loop) for s in body):
        return [stmt]
    varying = _varying_names(body, var)
    moving_stores = {s.buffer for s in body if isinstance(s, Store) and _depends(s.offset, varying)}
    reductions: list[Reduction] = []
    before: list[Stmt] = []
    after: list[Stmt] = []
    new_body: list[Stmt] = []
    for s in body:
        if not isinstance(s, Store):
            if not isinstance(s, (LetInt, LetScalar)):
                return [stmt]
            new_body.append(s)
            continue
        if _depends(s.offset, varying):
            if shared is None or s.buffer in shared:
                return [stmt]
            new_body.append(s)
            continue
        if s.agg is None or s.buffer in moving_stores or _reads_buffer(body, s.buffer):
            return [stmt]
        acc = lowering.names.fresh(f"{s.buffer}_acc")
        t = s.value.type
        before.append(DeclVar(acc, t, identity(s.agg, t.dtype)))
        if (
            lowering.options.nan_flagged_minmax
            and s.agg in ("max", "min")
            and t.dtype in (DType.FP32, DType.FP64)
        ):
            nan = lowering.names.fresh(f"{s.buffer}_nan")
            before.append(DeclVar(nan, _FLAG, SConst(0, _FLAG)))
            body_ops, combine = _nan_flagged(s.agg, acc, nan, s.value, t)
            new_body.extend(body_ops)
            reductions.extend([Reduction(acc, f"{s.agg}_num", t), Reduction(nan, "max", _FLAG)])
            after.append(Store(s.buffer, s.offset, combine, s.agg))
            continue
        new_body.append(AssignVar(acc, aggregate(s.agg, SVar(acc, t), s.value, t)))
        reductions.append(Reduction(acc, s.agg, t))
        after.append(Store(s.buffer, s.offset, SVar(acc, t), s.agg))
    loop = replace(stmt, body=tuple(new_body), vector=True, reductions=tuple(reductions))
    opts = lowering.options
    size = min((r.type.dtype.byte_size for r in reductions), default=4)
    lanes = max(opts.vector_bytes // size, 1)
    sums = all(r.op in SUMS for r in reductions)
    copies = opts.sum_accumulators if sums else opts.minmax_accumulators
    if sums and computes_math(loop):
        copies = 1
    parts = split_reductions(loop, copies, lanes, lowering.names.fresh, SUMS if sums else MINMAX)
    versions: list[Stmt] = []
    for part in parts:
        if opts.divide_by_reciprocal and isinstance(part, Loop):
            versions += divide_by_reciprocal(part, lowering.names.fresh)
        else:
            versions.append(part)
    if opts.vector_exp_loops:
        exp_lanes = max(opts.vector_bytes // DType.FP32.byte_size, 1)
        versions = vectorise_exp_loops(versions, exp_lanes, lowering.names.fresh)
    if opts.align_vector_loops:
        trip = opts.align_vector_loops
        versions = align_vector_loops(versions, opts.vector_bytes, trip, lowering.names.fresh)
    return [*hoisted, *before, *versions, *after]


_FLAG = ScalarType(DType.I32)


def _nan_flagged(
    op: str, acc: str, nan: str, value: SExpr, t: ScalarType
) -> tuple[list[Stmt], SExpr]:
    """A float max/min reduction as two that vectorise: `acc` takes the NaN-ignoring
    maximum/minimum (IEEE maxNum: `{op}_num`, what vector max instructions and OpenMP's
    reductions compute) and `nan` records whether a NaN was seen; the combined value is NaN
    when one was, as numpy's maximum/minimum propagate it. The values compared are the same
    as the generic `acc = max(acc, value)` loop's, so the result is identical."""
    is_nan = SSelect(SCompare("ne", value, value), SConst(1, _FLAG), SConst(0, _FLAG), _FLAG)
    body: list[Stmt] = [
        AssignVar(acc, SBinary(f"{op}_num", SVar(acc, t), value, t)),
        AssignVar(nan, SBinary("max", SVar(nan, _FLAG), is_nan, _FLAG)),
    ]
    flagged = SCompare("ne", SVar(nan, _FLAG), SConst(0, _FLAG))
    return body, SSelect(flagged, SConst(float("nan"), t), SVar(acc, t), t)


def _hoist_invariants(loop: Loop) -> tuple[list[Stmt], list[Stmt]]:
    """Split the loop body's leading integer bindings that do not depend on the loop
    variable (index bindings of range-1 indices) from the rest."""
    varying = {loop.var}
    hoisted: list[Stmt] = []
    rest: list[Stmt] = []
    for s in loop.body:
        if (
            isinstance(s, LetInt)
            and not (set(int_vars(s.value)) & varying)
            and not list(int_scalars(s.value))
        ):
            if rest:
                varying.add(s.name)
                rest.append(s)
            else:
                hoisted.append(s)
        else:
            if isinstance(s, LetInt):
                varying.add(s.name)
            rest.append(s)
    return hoisted, rest


def _varying_names(body: list[Stmt], var: str) -> set[str]:
    names = {var}
    for s in body:
        if isinstance(s, LetInt) and (set(int_vars(s.value)) & names or list(int_scalars(s.value))):
            names.add(s.name)
    return names


def _depends(expr: IntExpr, names: set[str]) -> bool:
    return bool(set(int_vars(expr)) & names) or bool(list(int_scalars(expr)))


def _reads_buffer(body: list[Stmt], buffer: str) -> bool:
    for s in body:
        if isinstance(s, LetScalar) and any(ld.buffer == buffer for ld in scalar_loads(s.value)):
            return True
        if isinstance(s, Store) and any(ld.buffer == buffer for ld in scalar_loads(s.value)):
            return True
    return False


__all__ = ["finish_block", "hoist_scratch", "is_leaf", "leaf_order", "mark_init_loops"]


# ---- scratch buffers ----------------------------------------------------------------------


def hoist_scratch(stmts: tuple[Stmt, ...]) -> tuple[Stmt, ...]:
    """Move `scratch` allocations out of loops: to the top of `stmts`, or to the top of the
    body of the parallel loop containing them (each thread needs its own), so they are
    allocated once rather than once per iteration."""
    body, found = _strip_scratch(stmts)
    return _wrap(body, found)


def _wrap(body: tuple[Stmt, ...], allocs: list[Alloc]) -> tuple[Stmt, ...]:
    for alloc in reversed(allocs):
        body = (replace(alloc, body=body),)
    return body


def _strip_scratch(stmts: tuple[Stmt, ...]) -> tuple[tuple[Stmt, ...], list[Alloc]]:
    out: list[Stmt] = []
    found: list[Alloc] = []
    for s in stmts:
        if isinstance(s, Alloc):
            inner, more = _strip_scratch(s.body)
            if s.scratch:
                found.append(replace(s, body=()))
                out.extend(inner)
            else:
                out.append(replace(s, body=inner))
            found.extend(more)
        elif isinstance(s, Loop):
            inner, more = _strip_scratch(s.body)
            if s.parallel:
                inner, more = _wrap(inner, more), []
            out.append(replace(s, body=inner))
            found.extend(more)
        elif isinstance(s, If):
            then, more = _strip_scratch(s.then)
            orelse, more2 = _strip_scratch(s.orelse)
            out.append(replace(s, then=then, orelse=orelse))
            found.extend(more + more2)
        else:
            out.append(s)
    return tuple(out), found
