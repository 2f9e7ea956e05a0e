"""Max/min reduction loops with several accumulators, so the reduction is not one long chain.

A vectorised reduction keeps one vector accumulator: every iteration waits for the previous
one's result. For a float max with numpy's NaN propagation that is several instructions
(LLVM's `llvm.maximum` lowers to a blend, a max, a NaN test and a masked move per vector), so
softmax's row max ran at a fraction of the loads' rate on the llvm target. Compilers split
such chains only when allowed to reassociate, which they are not for floats without fast-math.

A plan's `Reduction` already declares its operation associative and commutative (the loop may
be reordered for it), so the loop may as well be cut into `copies` contiguous parts that run
side by side: one loop over the first `chunk` iterations whose body is the original body
`copies` times, copy `j` at iteration `i + j * chunk` with its own accumulators, the partial
results combined into the original accumulators after it, then the remaining iterations as
before. `chunk` is a multiple of the vector lanes, so every copy streams whole vectors; a loop
shorter than `copies * lanes` iterations is left as it is. A loop is split when its reductions
are all max/min (`minmax_accumulators`: their results are exact in any order) or all sums
(`sum_accumulators`: a float sum then adds in another order, `copies * lanes` partial sums
instead of `lanes`, no less accurate) and the loop calls no math function (`computes_math`).
A sum's chain binds a loop that does little else per vector when its data is in cache
(layernorm's moments with each thread's rows in L2); from memory (one thread, 128x4096 rows
from L3) it was measured no faster.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from plaidc.backends.loopnest.plan import (
    UNARY_MATH,
    AssignVar,
    DeclVar,
    IAlignGap,
    IBin,
    ICmp,
    IConst,
    ILogic,
    IntExpr,
    IScalar,
    ISelect,
    IVar,
    LetInt,
    LetScalar,
    Loop,
    Reduction,
    SBinary,
    SCast,
    SCompare,
    SExpr,
    SFma,
    SIndex,
    SLoad,
    SSelect,
    Stmt,
    Store,
    SUnary,
    SVar,
    iadd,
    scalar_children,
)
from plaidc.backends.loopnest.scalars import aggregate, identity

_AGGREGATIONS = ("add", "mul", "max", "min")


MINMAX = ("max", "min")
SUMS = ("add",)


def split_reductions(
    loop: Loop,
    copies: int,
    lanes: int,
    fresh: Callable[[str], str],
    ops: tuple[str, ...] = MINMAX,
) -> list[Stmt]:
    """`loop` (a vectorised innermost loop with reductions) as `copies` interleaved parts, the
    combination of their accumulators and the remainder loop (module docstring); `[loop]`
    when it has no reductions, one whose operation is not in `ops`, bounds that are not
    constants, or too few iterations."""
    if copies < 2 or not loop.reductions or loop.step != 1:
        return [loop]
    if any(r.op.removesuffix("_num") not in ops for r in loop.reductions):
        return [loop]
    if not (isinstance(loop.lo, IConst) and isinstance(loop.hi, IConst)):
        return [loop]
    lo, trip = loop.lo.value, loop.hi.value - loop.lo.value
    chunk = trip // (copies * lanes) * lanes
    if chunk == 0:
        return [loop]
    decls: list[Stmt] = []
    combine: list[Stmt] = []
    body: list[Stmt] = list(loop.body)
    reductions = list(loop.reductions)
    defined = [s.name for s in loop.body if isinstance(s, (LetInt, LetScalar))]
    for j in range(1, copies):
        names = {name: fresh(f"{name}_{j}") for name in defined}
        for r in loop.reductions:
            acc = fresh(f"{r.var}_{j}")
            names[r.var] = acc
            decls.append(DeclVar(acc, r.type, _identity(r)))
            reductions.append(Reduction(acc, r.op, r.type))
            combine.append(AssignVar(r.var, _combine(r, SVar(r.var, r.type), SVar(acc, r.type))))
        shift = {loop.var: iadd(IVar(loop.var), IConst(j * chunk))}
        body += [_copy(s, names, shift) for s in loop.body]
    main = replace(loop, hi=IConst(lo + chunk), body=tuple(body), reductions=tuple(reductions))
    rest = replace(loop, lo=IConst(lo + copies * chunk))
    tail = [rest] if copies * chunk < trip else []
    return [*decls, main, *combine, *tail]


def computes_math(loop: Loop) -> bool:
    """Whether `loop`'s body calls a math function (exp, log, ...): such a loop is bound by
    it, not by a sum's chain (softmax's exp and its sum, a row in cache, one thread: 0.0193
    ms as one part, 0.0197 as two), so its sums are not split."""

    def calls(e: SExpr) -> bool:
        if isinstance(e, SUnary) and e.op in UNARY_MATH:
            return True
        return any(calls(child) for child in scalar_children(e))

    return any(isinstance(s, (LetScalar, AssignVar, Store)) and calls(s.value) for s in loop.body)


def _identity(r: Reduction) -> SExpr:
    return identity(r.op.removesuffix("_num"), r.type.dtype)


def _combine(r: Reduction, a: SExpr, b: SExpr) -> SExpr:
    if r.op in _AGGREGATIONS:
        return aggregate(r.op, a, b, r.type)
    return SBinary(r.op, a, b, r.type)


def _copy(stmt: Stmt, names: Mapping[str, str], shift: Mapping[str, IntExpr]) -> Stmt:
    if isinstance(stmt, LetInt):
        return LetInt(names[stmt.name], _int(stmt.value, names, shift))
    if isinstance(stmt, LetScalar):
        return LetScalar(names[stmt.name], _scalar(stmt.value, names, shift))
    if isinstance(stmt, AssignVar):
        return AssignVar(names.get(stmt.name, stmt.name), _scalar(stmt.value, names, shift))
    if isinstance(stmt, Store):
        return replace(
            stmt,
            offset=_int(stmt.offset, names, shift),
            value=_scalar(stmt.value, names, shift),
        )
    raise AssertionError(f"unexpected statement in a vector loop: {stmt!r}")


def _int(e: IntExpr, names: Mapping[str, str], shift: Mapping[str, IntExpr]) -> IntExpr:
    if isinstance(e, IVar):
        if e.name in shift:
            return shift[e.name]
        return IVar(names.get(e.name, e.name))
    if isinstance(e, IScalar):
        return IScalar(names.get(e.name, e.name))
    if isinstance(e, (IBin, ICmp, ILogic)):
        return replace(e, a=_int(e.a, names, shift), b=_int(e.b, names, shift))
    if isinstance(e, ISelect):
        return ISelect(_int(e.cond, names, shift), _int(e.a, names, shift), _int(e.b, names, shift))
    if isinstance(e, IAlignGap):
        return replace(e, buffer=names.get(e.buffer, e.buffer), offset=_int(e.offset, names, shift))
    return e


def _scalar(e: SExpr, names: Mapping[str, str], shift: Mapping[str, IntExpr]) -> SExpr:
    if isinstance(e, SVar):
        return SVar(names.get(e.name, e.name), e.type)
    if isinstance(e, SLoad):
        return replace(e, offset=_int(e.offset, names, shift))
    if isinstance(e, SIndex):
        return replace(e, expr=_int(e.expr, names, shift))
    if isinstance(e, (SCast, SUnary)):
        return replace(e, arg=_scalar(e.arg, names, shift))
    if isinstance(e, (SBinary, SCompare)):
        return replace(e, a=_scalar(e.a, names, shift), b=_scalar(e.b, names, shift))
    if isinstance(e, SFma):
        return replace(
            e,
            a=_scalar(e.a, names, shift),
            b=_scalar(e.b, names, shift),
            c=_scalar(e.c, names, shift),
        )
    if isinstance(e, SSelect):
        return replace(
            e,
            cond=_scalar(e.cond, names, shift),
            a=_scalar(e.a, names, shift),
            b=_scalar(e.b, names, shift),
        )
    return e
