"""Vector loops that start their vectors at an aligned address: a peel of the first iterations.

A vector load or store whose address is not a multiple of the vector width touches two cache
lines, and stores that do cost the most. Rows whose length is not a multiple of the lanes
(layernorm over 4099 elements) start at a different misalignment each: layernorm 128x4096 with
its rows 16 bytes off a 64-byte boundary took 0.365 ms per call where aligned rows took 0.222
(one thread). So a vectorised loop (`Loop.vector`, step 1, constant bounds, at least
`min_trip` iterations) that stores (else loads) one element per iteration at an offset moving
by one becomes

    gap = elements from the anchor's first address to the next vector_bytes boundary
    for (v = lo; v < lo + min(gap, trip); v++)  body   (the peel: not vectorised)
    for (v = lo + min(gap, trip); v < hi; v++)  body   (vectorised: the anchor now aligned)

The two loops run the same iterations in the same order, whatever `gap` is, so the meaning
is unchanged; only a reduction's vector partial sums are split at another point, so a float
sum may round differently with the buffers' alignment (as it does in vectorised BLAS without
a reproducibility mode). Other accesses gain where they share the anchor's alignment (a row
read and written in place, each interleaved part of a `sum_accumulators` loop, whose parts
are whole vectors apart); those at another alignment are no worse than before.

Loops that call a math function (softmax's exp) are left alone: they are bound by it, and
their peel would call it once per element, not per vector (softmax, c, one thread, with its
exp loop peeled: 127x4099 +13%, 256x600 +21%). So are loops with explicit vector types
(`vector_loops`) and the GEMM kernels' own loops.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from plaidc.backends.loopnest.interleave import computes_math
from plaidc.backends.loopnest.plan import (
    AssignVar,
    IAlignGap,
    IBin,
    IConst,
    If,
    IntExpr,
    IVar,
    LetInt,
    LetScalar,
    Loop,
    Stmt,
    Store,
    int_scalars,
    int_vars,
    scalar_loads,
)
from plaidc.backends.loopnest.simplify import affine_form, fold


def align_vector_loops(
    stmts: list[Stmt], vector_bytes: int, min_trip: int, fresh: Callable[[str], str]
) -> list[Stmt]:
    """`stmts` with each vectorised loop among them (or in the branches of an `If`, as
    `divide_by_reciprocal` versions them) peeled to an aligned start (module docstring)."""
    out: list[Stmt] = []
    for stmt in stmts:
        if isinstance(stmt, If):
            then = align_vector_loops(list(stmt.then), vector_bytes, min_trip, fresh)
            orelse = align_vector_loops(list(stmt.orelse), vector_bytes, min_trip, fresh)
            out.append(replace(stmt, then=tuple(then), orelse=tuple(orelse)))
        elif isinstance(stmt, Loop):
            out.extend(peel_to_alignment(stmt, vector_bytes, min_trip, fresh))
        else:
            out.append(stmt)
    return out


def peel_to_alignment(
    loop: Loop, vector_bytes: int, min_trip: int, fresh: Callable[[str], str]
) -> list[Stmt]:
    """`loop` as a binding of its peel length, the peel and the aligned loop; `[loop]` when
    it is not a vectorised per-element loop of at least `min_trip` (and one vector of)
    iterations with an access to align, or it calls a math function."""
    if not loop.vector or loop.parallel or loop.step != 1 or vector_bytes < 2:
        return [loop]
    if computes_math(loop):
        return [loop]
    if not (isinstance(loop.lo, IConst) and isinstance(loop.hi, IConst)):
        return [loop]
    anchor = _anchor(loop)
    if anchor is None:
        return [loop]
    buffer, offset, size = anchor
    lo, trip = loop.lo.value, loop.hi.value - loop.lo.value
    if trip < max(min_trip, vector_bytes // size, 2):
        return [loop]
    gap = fresh(f"{loop.var}_peel")
    first = fold(offset, {loop.var: lo})
    # the gap is below vector_bytes / size <= trip for this element size; the min keeps the
    # peel inside the loop whatever the buffer's element size is
    length: IntExpr = IBin("min", IAlignGap(buffer, first, vector_bytes), IConst(trip))
    start = IBin("+", IConst(lo), IVar(gap)) if lo else IVar(gap)
    peel = replace(loop, hi=start, vector=False)
    main = replace(loop, lo=start)
    return [LetInt(gap, length), peel, main]


def _anchor(loop: Loop) -> tuple[str, IntExpr, int] | None:
    """The access the peel aligns: the first store, else the first load, whose offset moves
    by one element per iteration and reads nothing the body binds; its buffer, offset and
    element size."""
    bound = {s.name for s in loop.body if isinstance(s, (LetInt, LetScalar))}
    loads: list[tuple[str, IntExpr, int]] = []
    stores: list[tuple[str, IntExpr, int]] = []
    for s in loop.body:
        if isinstance(s, Store) and _steps_by_one(s.offset, loop.var, bound):
            stores.append((s.buffer, s.offset, s.value.type.dtype.byte_size))
        values = [s.value] if isinstance(s, (Store, LetScalar, AssignVar)) else []
        for value in values:
            for load in scalar_loads(value):
                if _steps_by_one(load.offset, loop.var, bound) and not load.type.is_vector:
                    loads.append((load.buffer, load.offset, load.type.dtype.byte_size))
    found = stores or loads
    if not found or found[0][2] < 1:
        return None
    return found[0]


def _steps_by_one(offset: IntExpr, var: str, bound: set[str]) -> bool:
    if set(int_vars(offset)) & bound or list(int_scalars(offset)):
        return False
    affine = affine_form(offset)
    return affine is not None and affine.coeff(var) == 1


__all__ = ["align_vector_loops", "peel_to_alignment"]
