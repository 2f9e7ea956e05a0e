"""Tidying a finished plan: constant index bindings folded away, unused bindings dropped.

isl scans bind indices that take one value (`const int64_t n = 0;`), and refinement offsets
mention them; folding them makes offsets read `X[b * 33 + n]` instead of
`X[b * 33 + b_1 * 33 + n * 33 + n_1]`. Affine offsets are re-normalised (terms by name, the
constant last) after substitution. Only readability and compile time change.
"""

from __future__ import annotations

from dataclasses import replace

from plaidc.backends.loopnest.plan import (
    Alloc,
    AssignVar,
    BufferArg,
    Call,
    DeclVar,
    IAlignGap,
    IBin,
    ICmp,
    IConst,
    If,
    ILogic,
    IntExpr,
    ISelect,
    IVar,
    LetInt,
    LetScalar,
    Loop,
    SExpr,
    SIndex,
    SLoad,
    Stmt,
    Store,
    affine_expr,
    int_scalars,
    int_vars,
    map_scalar_children,
    scalar_int_exprs,
    scalar_vars,
    walk_stmts,
)
from plaidc.stripe.ir import Affine


def affine_form(expr: IntExpr) -> Affine | None:
    """`expr` as an affine form when it is one (`+`, `-`, `*` by constants)."""
    if isinstance(expr, IConst):
        return Affine.const_(expr.value)
    if isinstance(expr, IVar):
        return Affine.var(expr.name)
    if isinstance(expr, IBin) and expr.op in ("+", "-", "*"):
        a, b = affine_form(expr.a), affine_form(expr.b)
        if a is None or b is None:
            return None
        if expr.op == "+":
            return a + b
        if expr.op == "-":
            return a - b
        if b.is_constant:
            return a * b.const
        if a.is_constant:
            return b * a.const
    return None


def fold(expr: IntExpr, consts: dict[str, int]) -> IntExpr:
    """`expr` with the variables of `consts` replaced, constants folded."""
    if isinstance(expr, IVar):
        return IConst(consts[expr.name]) if expr.name in consts else expr
    if isinstance(expr, IBin):
        affine = affine_form(expr)
        if affine is not None:
            values = {n: Affine.const_(v) for n, v in consts.items() if n in affine.names()}
            return affine_expr(affine.substitute(values))
        a, b = fold(expr.a, consts), fold(expr.b, consts)
        if isinstance(a, IConst) and isinstance(b, IConst):
            if expr.op == "min":
                return IConst(min(a.value, b.value))
            if expr.op == "max":
                return IConst(max(a.value, b.value))
        return IBin(expr.op, a, b)
    if isinstance(expr, ICmp):
        return ICmp(expr.op, fold(expr.a, consts), fold(expr.b, consts))
    if isinstance(expr, ILogic):
        return ILogic(expr.op, fold(expr.a, consts), fold(expr.b, consts))
    if isinstance(expr, ISelect):
        return ISelect(fold(expr.cond, consts), fold(expr.a, consts), fold(expr.b, consts))
    if isinstance(expr, IAlignGap):
        return replace(expr, offset=fold(expr.offset, consts))
    return expr


def _fold_scalar(expr: SExpr, consts: dict[str, int]) -> SExpr:
    if isinstance(expr, SLoad):
        return replace(expr, offset=fold(expr.offset, consts))
    if isinstance(expr, SIndex):
        return replace(expr, expr=fold(expr.expr, consts))
    return map_scalar_children(expr, lambda child: _fold_scalar(child, consts))


def _fold_stmts(stmts: tuple[Stmt, ...], consts: dict[str, int]) -> tuple[Stmt, ...]:
    out: list[Stmt] = []
    for s in stmts:
        if isinstance(s, LetInt):
            value = fold(s.value, consts)
            if isinstance(value, IConst):
                consts[s.name] = value.value
                continue
            out.append(replace(s, value=value))
        elif isinstance(s, LetScalar):
            out.append(replace(s, value=_fold_scalar(s.value, consts)))
        elif isinstance(s, DeclVar):
            out.append(replace(s, init=_fold_scalar(s.init, consts)))
        elif isinstance(s, AssignVar):
            out.append(replace(s, value=_fold_scalar(s.value, consts)))
        elif isinstance(s, Store):
            out.append(
                replace(s, offset=fold(s.offset, consts), value=_fold_scalar(s.value, consts))
            )
        elif isinstance(s, Loop):
            out.append(
                replace(
                    s,
                    lo=fold(s.lo, consts),
                    hi=fold(s.hi, consts),
                    body=_fold_stmts(s.body, consts),
                )
            )
        elif isinstance(s, If):
            out.append(
                replace(
                    s,
                    cond=fold(s.cond, consts),
                    then=_fold_stmts(s.then, consts),
                    orelse=_fold_stmts(s.orelse, consts),
                )
            )
        elif isinstance(s, Alloc):
            out.append(replace(s, body=_fold_stmts(s.body, consts)))
        elif isinstance(s, Call):
            args: list[BufferArg | IntExpr] = []
            for arg in s.args:
                if isinstance(arg, BufferArg):
                    args.append(replace(arg, offset=fold(arg.offset, consts)))
                else:
                    args.append(fold(arg, consts))
            out.append(replace(s, args=tuple(args)))
        else:
            out.append(s)
    return tuple(out)


def _used_names(stmts: tuple[Stmt, ...]) -> set[str]:
    used: set[str] = set()

    def ints(expr: IntExpr) -> None:
        used.update(int_vars(expr))
        used.update(int_scalars(expr))

    def scalars(expr: SExpr) -> None:
        used.update(scalar_vars(expr))
        for sub in scalar_int_exprs(expr):
            ints(sub)

    for s in walk_stmts(stmts):
        if isinstance(s, LetInt):
            ints(s.value)
        elif isinstance(s, (LetScalar, AssignVar)):
            scalars(s.value)
        elif isinstance(s, DeclVar):
            scalars(s.init)
        elif isinstance(s, Store):
            ints(s.offset)
            scalars(s.value)
        elif isinstance(s, Loop):
            ints(s.lo)
            ints(s.hi)
        elif isinstance(s, If):
            ints(s.cond)
        elif isinstance(s, Call):
            for arg in s.args:
                ints(arg.offset if isinstance(arg, BufferArg) else arg)
    return used


def _drop_unused(stmts: tuple[Stmt, ...], used: set[str], dropped: list[str]) -> tuple[Stmt, ...]:
    """`stmts` without the bindings `used` lacks; their names go to `dropped`."""
    out: list[Stmt] = []
    for s in stmts:
        if isinstance(s, (LetInt, LetScalar)) and s.name not in used:
            dropped.append(s.name)
            continue
        if isinstance(s, (Loop, Alloc)):
            s = replace(s, body=_drop_unused(s.body, used, dropped))
        elif isinstance(s, If):
            then = _drop_unused(s.then, used, dropped)
            s = replace(s, then=then, orelse=_drop_unused(s.orelse, used, dropped))
        out.append(s)
    return tuple(out)


def simplify(stmts: tuple[Stmt, ...]) -> tuple[Stmt, ...]:
    """Fold constant integer bindings and drop bindings nothing uses."""
    folded = _fold_stmts(stmts, {})
    while True:
        # done when a round drops nothing (comparing the trees instead recurses as deep as
        # the plan nests: one level per allocation of a block, hundreds in a DenseNet)
        dropped: list[str] = []
        folded = _drop_unused(folded, _used_names(folded), dropped)
        if not dropped:
            return folded


__all__ = ["fold", "simplify"]
