"""Division by a loop invariant as a multiplication by its reciprocal, where that is accurate.

A vector divide is slow: on AVX-512 cores one 16-lane `vdivps` every ~16 cycles, against two
multiplies per cycle, so `Y = E / S` over a row (softmax's normalisation, layernorm's
`D / sqrt(Var + eps)`) runs at the divider's rate while its operands sit in L1. When the
divisor does not change in the innermost (vectorised) loop, the loop instead multiplies by
`r = 1 / s`, computed once before it.

`a * (1 / s)` rounds twice, so it may differ from `a / s` by about one ulp (relative error
below 2^-22 for fp32), well inside `--check`'s tolerance; it is exact in the special values
(`s` = 0, inf or NaN give the quotient's inf/NaN/0). It is inaccurate only when `1 / s` leaves
the normal range: a subnormal `s` (the reciprocal overflows) or `|s| > 2^(emax - 1)` (the
reciprocal is subnormal and loses bits). So the loop is versioned on the divisor: the
multiplying copy runs when every hoisted divisor is 0, inf or has `2^emin <= |s| <= 2^(emax-1)`,
the original dividing loop otherwise. Only fp32 and fp64 divisions are rewritten (integer
division is exact, fp16's goes through float32 already), and only in loops whose bounds are
constants with at least one iteration: the divisor's loads are then loads the loop makes
anyway, so computing them before it reads nothing new.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from plaidc.backends.loopnest.plan import (
    BOOL,
    I64,
    AssignVar,
    DeclVar,
    ICmp,
    IConst,
    If,
    IntExpr,
    IScalar,
    LetInt,
    LetScalar,
    Loop,
    SBinary,
    SCast,
    SCompare,
    SConst,
    SExpr,
    SFma,
    SIndex,
    SLoad,
    SSelect,
    Stmt,
    Store,
    SUnary,
    SVar,
    int_scalars,
    int_vars,
    scalar_children,
    scalar_loads,
    scalar_vars,
)
from plaidc.stripe.ir import DType

# The normal range of 1/s: 2^emin <= |s| <= 2^(emax - 1) (then 2^(1-emax) <= |1/s| <= 2^-emin).
_NORMAL_DIVISORS = {
    DType.FP32: (2.0**-126, 2.0**126),
    DType.FP64: (2.0**-1022, 2.0**1022),
}


def divide_by_reciprocal(loop: Loop, fresh: Callable[[str], str]) -> list[Stmt]:
    """`loop` (a vectorised innermost loop) with its invariant fp32/fp64 divisors replaced by
    reciprocals: the statements computing them, then the loop versioned on their range (see
    the module docstring); `[loop]` when there is nothing to rewrite."""
    if not (isinstance(loop.lo, IConst) and isinstance(loop.hi, IConst)):
        return [loop]
    if loop.hi.value <= loop.lo.value:
        return [loop]
    inv = _Invariance(loop)
    divisors: list[SExpr] = []
    for stmt in loop.body:
        value = _value(stmt)
        if value is not None:
            _collect_divisors(value, inv, divisors)
    if not divisors:
        return [loop]
    needed = _needed_lets(divisors, inv)
    hoisted = [s for s in loop.body if isinstance(s, LetScalar) and s.name in needed]
    body = [s for s in loop.body if not (isinstance(s, LetScalar) and s.name in needed)]
    setup: list[Stmt] = list(hoisted)
    reciprocals: dict[SExpr, SVar] = {}
    safe: SExpr | None = None
    for divisor in divisors:
        t = divisor.type
        name = fresh("recip")
        setup.append(LetScalar(name, SBinary("div", SConst(1.0, t), divisor, t)))
        reciprocals[divisor] = SVar(name, t)
        ok = _accurate(divisor)
        safe = ok if safe is None else SSelect(safe, ok, SConst(False, BOOL), BOOL)
    assert safe is not None
    flag = fresh("recip_ok")
    setup.append(LetScalar(flag, SSelect(safe, SConst(1, I64), SConst(0, I64), I64)))
    multiplying = replace(loop, body=tuple(_rewrite_stmt(s, reciprocals) for s in body))
    dividing = replace(loop, body=tuple(body))
    cond: IntExpr = ICmp("!=", IScalar(flag), IConst(0))
    return [*setup, If(cond, (multiplying,), (dividing,))]


def _value(stmt: Stmt) -> SExpr | None:
    if isinstance(stmt, (LetScalar, AssignVar, Store)):
        return stmt.value
    return None


class _Invariance:
    """Which scalar bindings of a loop body have the same value in every iteration: no
    loop-varying integer, no load of a buffer the loop stores to, no mutable variable, no
    binding that varies (`values`: the invariant ones, by name)."""

    def __init__(self, loop: Loop) -> None:
        self.varying_ints = {loop.var}
        self.written = {s.buffer for s in loop.body if isinstance(s, Store)}
        self.mutable = {s.name for s in loop.body if isinstance(s, (AssignVar, DeclVar))}
        self.mutable |= {r.var for r in loop.reductions}
        self.bound: set[str] = set()
        self.values: dict[str, SExpr] = {}
        for stmt in loop.body:
            if isinstance(stmt, LetInt):
                if _int_varies(stmt.value, self.varying_ints):
                    self.varying_ints.add(stmt.name)
            elif isinstance(stmt, LetScalar):
                if self.holds(stmt.value):
                    self.values[stmt.name] = stmt.value
                self.bound.add(stmt.name)

    def holds(self, expr: SExpr) -> bool:
        """`expr`'s value is the same in every iteration."""
        for load in scalar_loads(expr):
            if load.buffer in self.written or _int_varies(load.offset, self.varying_ints):
                return False
        for name in scalar_vars(expr):
            if name in self.mutable or (name in self.bound and name not in self.values):
                return False
        return _no_varying_index(expr, self.varying_ints)


def _int_varies(expr: IntExpr, varying_ints: set[str]) -> bool:
    return bool(set(int_vars(expr)) & varying_ints) or bool(list(int_scalars(expr)))


def _no_varying_index(expr: SExpr, varying_ints: set[str]) -> bool:
    if isinstance(expr, SIndex):
        return not _int_varies(expr.expr, varying_ints)
    return all(_no_varying_index(child, varying_ints) for child in scalar_children(expr))


def _collect_divisors(expr: SExpr, inv: _Invariance, out: list[SExpr]) -> None:
    if (
        isinstance(expr, SBinary)
        and expr.op == "div"
        and not expr.type.is_vector
        and expr.type.dtype in _NORMAL_DIVISORS
        and expr.b not in out
        and inv.holds(expr.b)
    ):
        out.append(expr.b)
    for child in scalar_children(expr):
        _collect_divisors(child, inv, out)


def _needed_lets(divisors: list[SExpr], inv: _Invariance) -> set[str]:
    """The loop's invariant bindings the divisors read, directly or through other bindings:
    the ones to compute before the loop."""
    needed: set[str] = set()
    todo = [name for d in divisors for name in scalar_vars(d)]
    while todo:
        name = todo.pop()
        if name in needed or name not in inv.values:
            continue
        needed.add(name)
        todo.extend(scalar_vars(inv.values[name]))
    return needed


def _accurate(divisor: SExpr) -> SExpr:
    """`divisor` is 0, infinite, or has a normal reciprocal (module docstring)."""
    t = divisor.type
    low, high = _NORMAL_DIVISORS[t.dtype]
    size = SUnary("abs", divisor, t)
    in_range = SSelect(
        SCompare("ge", size, SConst(low, t)),
        SCompare("le", size, SConst(high, t)),
        SConst(False, BOOL),
        BOOL,
    )
    special = SSelect(
        SCompare("eq", divisor, SConst(0.0, t)),
        SConst(True, BOOL),
        SCompare("eq", size, SConst(float("inf"), t)),
        BOOL,
    )
    return SSelect(in_range, SConst(True, BOOL), special, BOOL)


def _rewrite_stmt(stmt: Stmt, reciprocals: dict[SExpr, SVar]) -> Stmt:
    if isinstance(stmt, (LetScalar, AssignVar, Store)):
        return replace(stmt, value=_rewrite(stmt.value, reciprocals))
    return stmt


def _rewrite(expr: SExpr, reciprocals: dict[SExpr, SVar]) -> SExpr:
    if isinstance(expr, SBinary):
        a, b = _rewrite(expr.a, reciprocals), _rewrite(expr.b, reciprocals)
        if expr.op == "div" and expr.b in reciprocals:
            return SBinary("mul", a, reciprocals[expr.b], expr.type)
        return replace(expr, a=a, b=b)
    if isinstance(expr, (SCast, SUnary)):
        return replace(expr, arg=_rewrite(expr.arg, reciprocals))
    if isinstance(expr, SCompare):
        return replace(expr, a=_rewrite(expr.a, reciprocals), b=_rewrite(expr.b, reciprocals))
    if isinstance(expr, SFma):
        return replace(
            expr,
            a=_rewrite(expr.a, reciprocals),
            b=_rewrite(expr.b, reciprocals),
            c=_rewrite(expr.c, reciprocals),
        )
    if isinstance(expr, SSelect):
        return replace(
            expr,
            cond=_rewrite(expr.cond, reciprocals),
            a=_rewrite(expr.a, reciprocals),
            b=_rewrite(expr.b, reciprocals),
        )
    assert isinstance(expr, (SVar, SConst, SLoad, SIndex))
    return expr
