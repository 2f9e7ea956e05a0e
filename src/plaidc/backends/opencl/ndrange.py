"""Loops onto NDRange coordinates: the rewriting that turns loop nests into kernels.

A loop whose iterations are independent can be run by many work-items, each executing one
iteration: `for (i = lo; i < hi; ++i) body` becomes `i = start + id; if (lo <= i && i < hi)
body`, where `id` is the work-item's coordinate over `[0, size)` and `[start, start + size)`
contains every value the loop takes (the index's range, which isl's exact bounds refine). The
guard disappears when the loop covers that whole box. Indices beyond the NDRange's three
dimensions share the last one (row-major decomposition of its coordinate).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from plaidc.backends.loopnest.plan import (
    Alloc,
    Comment,
    IBin,
    ICmp,
    IConst,
    If,
    ILogic,
    IntExpr,
    IVar,
    LetInt,
    Loop,
    Stmt,
    iadd,
    imul,
    walk_stmts,
)

MAX_DIMS = 3


@dataclass(frozen=True)
class Mapped:
    """A loop variable run by work-items: it takes values `start + [0, size)`."""

    var: str
    start: IntExpr
    size: int


def split_dims(mapped: Sequence[Mapped], ndims: int = MAX_DIMS) -> list[list[Mapped]]:
    """Variables per NDRange dimension: the last (innermost) variable gets dimension 0, where
    consecutive work-items are (and OpenCL compilers vectorise); the outermost ones share the
    last dimension."""
    ordered = list(reversed(mapped))
    dims = [[m] for m in ordered[: ndims - 1]]
    rest = ordered[ndims - 1 :]
    if rest:
        dims.append(list(reversed(rest)))
    return dims


def dim_size(group: Sequence[Mapped]) -> int:
    return math.prod(m.size for m in group)


def bindings(dims: Sequence[Sequence[Mapped]], coords: Sequence[IntExpr]) -> list[Stmt]:
    """`LetInt`s giving each variable its value from the coordinates of its dimension (a
    dimension shared by several variables is decomposed row-major, the last fastest)."""
    out: list[Stmt] = []
    for group, coord in zip(dims, coords, strict=True):
        after = dim_size(group)
        for m in group:
            after //= m.size
            value = IBin("pdiv", coord, IConst(after)) if after > 1 else coord
            if m is not group[0]:
                value = IBin("rem", value, IConst(m.size))
            out.append(LetInt(m.var, iadd(m.start, value)))
    return out


def binds_any(stmts: Sequence[Stmt], names: set[str] | dict[str, Mapped]) -> bool:
    """Whether `stmts` bind (as loop variable or `LetInt`) any of `names`."""
    for s in walk_stmts(tuple(stmts)):
        if isinstance(s, Loop) and s.var in names:
            return True
        if isinstance(s, LetInt) and s.name in names:
            return True
    return False


def _all(conds: list[IntExpr]) -> IntExpr:
    out = conds[0]
    for cond in conds[1:]:
        out = ILogic("and", out, cond)
    return out


def replace_loops(stmts: Sequence[Stmt], targets: dict[str, Mapped]) -> tuple[Stmt, ...] | None:
    """`stmts` with every loop over a variable of `targets` replaced by a guard on the
    variable (bound elsewhere, see `bindings`); None when that is not possible: a target loop
    inside a loop over another variable, or with a step other than 1. A target that isl bound
    to one value (`LetInt`) becomes a guard on the rest of its statement list."""
    out: list[Stmt] = []
    real = [s for s in stmts if not isinstance(s, Comment)]
    for pos, s in enumerate(stmts):
        if isinstance(s, Loop) and s.var in targets:
            if s.step != 1:
                return None
            body = replace_loops(s.body, targets)
            if body is None:
                return None
            m = targets[s.var]
            var = IVar(s.var)
            conds: list[IntExpr] = []
            if s.lo != m.start:
                conds.append(ICmp(">=", var, s.lo))
            if s.hi != iadd(m.start, IConst(m.size)):
                conds.append(ICmp("<", var, s.hi))
            if not conds and len(real) == 1:
                out.extend(body)
            else:
                out.append(If(_all(conds or [ICmp(">=", var, s.lo)]), body))
        elif isinstance(s, LetInt) and s.name in targets:
            rest = replace_loops(stmts[pos + 1 :], targets)
            if rest is None:
                return None
            out.append(If(ICmp("==", IVar(s.name), s.value), rest))
            return tuple(out)
        elif isinstance(s, Loop):
            if binds_any(s.body, targets):
                return None
            out.append(s)
        elif isinstance(s, If):
            then = replace_loops(s.then, targets)
            orelse = replace_loops(s.orelse, targets)
            if then is None or orelse is None:
                return None
            out.append(replace(s, then=then, orelse=orelse))
        elif isinstance(s, Alloc):
            body = replace_loops(s.body, targets)
            if body is None:
                return None
            out.append(replace(s, body=body))
        else:
            out.append(s)
    return tuple(out)


def constant_nest(stmts: Sequence[Stmt]) -> list[Loop]:
    """The outermost loops of a perfect nest with constant bounds (at most `MAX_DIMS`): each
    is the only statement of its list apart from comments and integer bindings."""
    chain: list[Loop] = []
    current = stmts
    while len(chain) < MAX_DIMS:
        real = [s for s in current if not isinstance(s, (Comment, LetInt))]
        if len(real) != 1 or not isinstance(real[0], Loop):
            break
        loop = real[0]
        if not isinstance(loop.lo, IConst) or not isinstance(loop.hi, IConst):
            break
        if binds_any([s for s in current if isinstance(s, LetInt)], {loop.var}):
            break
        chain.append(loop)
        current = loop.body
    return chain


def map_nest(
    stmts: Sequence[Stmt], chain: Sequence[Loop], coords: Sequence[IntExpr]
) -> tuple[Stmt, ...]:
    """`stmts` with the loops of `chain` (from `constant_nest`) replaced by bindings of their
    variables to `lo + coord * step`, `coords` innermost loop first. Every iteration of such a
    nest runs on its own work-item, so nothing is guarded: the NDRange is the nest's size."""
    if not chain:
        return tuple(stmts)
    loop, coord = chain[0], coords[len(chain) - 1]
    inner = map_nest(loop.body, chain[1:], coords)
    value = iadd(loop.lo, imul(coord, loop.step))
    out: list[Stmt] = []
    for s in stmts:
        if s is loop:
            out += [LetInt(loop.var, value), *inner]
        else:
            out.append(s)
    return tuple(out)


def trip_count(loop: Loop) -> int:
    assert isinstance(loop.lo, IConst) and isinstance(loop.hi, IConst)
    return max(0, -(-(loop.hi.value - loop.lo.value) // loop.step))
