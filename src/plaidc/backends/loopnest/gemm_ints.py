"""Integer expressions and conditions of the micro-kernel's plan (`gemm_kernel`,
`gemm_pack`): folding constants where they are known, so a kernel of constant sizes gets
constant loop bounds."""

from __future__ import annotations

from plaidc.backends.loopnest.plan import IBin, ICmp, IConst, If, ILogic, IntExpr, Stmt


def pdiv(a: IntExpr, d: int) -> IntExpr:
    """`a / d` for a non-negative `a`, folding constants."""
    if isinstance(a, IConst):
        return IConst(a.value // d)
    return a if d == 1 else IBin("pdiv", a, IConst(d))


def rem(a: IntExpr, d: int) -> IntExpr:
    """`a % d` for a non-negative `a`, folding constants."""
    if isinstance(a, IConst):
        return IConst(a.value % d)
    return IConst(0) if d == 1 else IBin("rem", a, IConst(d))


def sub(a: IntExpr, b: IntExpr) -> IntExpr:
    if isinstance(a, IConst) and isinstance(b, IConst):
        return IConst(a.value - b.value)
    return a if b == IConst(0) else IBin("-", a, b)


def is_const(a: IntExpr, value: int) -> bool:
    return isinstance(a, IConst) and a.value == value


def even_step(dims: tuple[tuple[int, int], ...] | list[tuple[int, int]], step: int) -> int | None:
    """How far one step of the flattened reduction moves an operand whose reduction indices
    are `dims` (`(range, stride)`, outermost first; none: it moves by `step`), or None when
    the flat index does not move it evenly (`(16, 9), (3, 3), (3, 1)` steps by 1)."""
    if not dims:
        return step
    inner = dims[-1][1]
    span = 1
    for size, stride in reversed(dims):
        if stride != inner * span:
            return None
        span *= size
    return inner


def at_least(value: IntExpr, bound: int) -> bool:
    """Whether `value` is a constant of at least `bound`."""
    return isinstance(value, IConst) and value.value >= bound


def negate(cond: IntExpr) -> IntExpr:
    """The negation of a condition built from `==`/`!=` comparisons and `and`."""
    if isinstance(cond, ICmp) and cond.op in ("==", "!="):
        return ICmp("!=" if cond.op == "==" else "==", cond.a, cond.b)
    if isinstance(cond, ILogic) and cond.op == "and":
        return ILogic("or", negate(cond.a), negate(cond.b))
    raise TypeError(f"cannot negate {cond!r}")


def when_positive(count: IntExpr, body: list[Stmt]) -> list[Stmt]:
    """`body` if `count > 0` (decided now for constants)."""
    if isinstance(count, IConst):
        return body if count.value > 0 else []
    return [If(ICmp(">", count, IConst(0)), tuple(body))]


def all_of(conds: list[IntExpr]) -> IntExpr:
    """The conjunction of `conds` (none: true)."""
    if not conds:
        return ICmp("==", IConst(0), IConst(0))
    out = conds[0]
    for cond in conds[1:]:
        out = ILogic("and", out, cond)
    return out
