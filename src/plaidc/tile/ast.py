"""The Tile abstract syntax tree, as the parser builds it, and its canonical text form.

Every node carries the span of the token that diagnostics about it should point at: a name's
first character, an operator, a statement's output name. Nodes are frozen dataclasses; spans
never take part in equality so that two parses of the same text compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from plaidc.diagnostics import Span

# --------------------------------------------------------------------------------------------
# Index polynomials (the `poly` of TILE.md): affine in index variables, rational coefficients


@dataclass(frozen=True)
class PolyInt:
    """An integer literal inside an index polynomial."""

    value: int
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class PolyName:
    """A name inside an index polynomial: an index variable (lower case) or a size (upper).

    `index` records which one the lexer saw when the name alone does not say: `$Kk` is an
    index variable and `#n` a size (TILE.md "Lexical rules"; the sigil is not part of the name).
    """

    name: str
    span: Span | None = field(default=None, compare=False)
    index: bool | None = None

    @property
    def is_index(self) -> bool:
        return self.name[0].islower() if self.index is None else self.index


@dataclass(frozen=True)
class PolyNeg:
    """Unary minus of a polynomial."""

    operand: Poly
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class PolyBin:
    """`lhs op rhs` with op one of `+ - * /`; products and quotients need a constant side."""

    op: str
    lhs: Poly
    rhs: Poly
    span: Span | None = field(default=None, compare=False)


Poly = Union[PolyInt, PolyName, PolyNeg, PolyBin]

# --------------------------------------------------------------------------------------------
# Value expressions (the `expr` of TILE.md)


@dataclass(frozen=True)
class IntLit:
    """An integer literal: an i32-like constant that adopts the other operand's type."""

    value: int
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class FloatLit:
    """A floating-point literal; `text` is kept so the statement prints as written."""

    value: float
    text: str
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class NameRef:
    """A reference to a tensor, a dimension size or a bind-time constant."""

    name: str
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Call:
    """`fn(args...)`: an intrinsic, a cast, a special or an inline builtin."""

    fn: str
    args: tuple[Expr, ...]
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Unary:
    """`-x` or `~x`."""

    op: str
    operand: Expr
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Binary:
    """`lhs op rhs` for the arithmetic, comparison, bitwise and shift operators."""

    op: str
    lhs: Expr
    rhs: Expr
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Cond:
    """`cond ? then : else_`; the span is the `?`."""

    cond: Expr
    then: Expr
    else_: Expr
    span: Span | None = field(default=None, compare=False)


Expr = Union[IntLit, FloatLit, NameRef, Call, Unary, Binary, Cond]

# --------------------------------------------------------------------------------------------
# Statements


@dataclass(frozen=True)
class TensorRef:
    """`Name[poly, ...]`, an input of a contraction."""

    name: str
    indices: tuple[Poly, ...]
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class OutputSpec:
    """`Name[poly, ... : size, ...]`; `sizes` is None when no `:` was written."""

    name: str
    indices: tuple[Poly, ...]
    sizes: tuple[Expr, ...] | None
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class IndexConstraint:
    """`, poly < bound`: `0 <= poly < bound` must hold."""

    poly: Poly
    bound: Expr
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Contraction:
    """`out = agg(in [comb in [? in]]), constraints [no_defract] [default D]`."""

    output: OutputSpec
    agg: str
    inputs: tuple[TensorRef, ...]
    comb: str | None
    constraints: tuple[IndexConstraint, ...] = ()
    no_defract: bool = False
    default: str | None = None
    agg_span: Span | None = field(default=None, compare=False)
    default_span: Span | None = field(default=None, compare=False)
    comb_span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Assign:
    """`Name = expr`: an elementwise statement or a bind-time constant."""

    name: str
    expr: Expr
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Attribute:
    """`[[name(params)]]` before a statement (PlaidML's `pid` names the kernel)."""

    name: str
    params: tuple[str, ...] = ()
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Statement:
    """One `;`-terminated statement with its attributes."""

    body: Contraction | Assign
    attributes: tuple[Attribute, ...] = ()

    @property
    def target(self) -> str:
        """The name this statement defines."""
        return self.body.output.name if isinstance(self.body, Contraction) else self.body.name

    @property
    def span(self) -> Span | None:
        return self.body.output.span if isinstance(self.body, Contraction) else self.body.span


# --------------------------------------------------------------------------------------------
# Functions


@dataclass(frozen=True)
class DimDecl:
    """One dimension of an input declaration: a size name or an integer literal."""

    name: str | None
    value: int | None
    span: Span | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return self.name if self.name is not None else str(self.value)


@dataclass(frozen=True)
class InputDecl:
    """`Name`, `Name[]` or `Name[D0, D1, ...]`, with an optional `: dtype`."""

    name: str
    dims: tuple[DimDecl, ...] | None
    dtype: str | None = None
    span: Span | None = field(default=None, compare=False)
    dtype_span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class OutputDecl:
    """`Name` with an optional `: dtype` check."""

    name: str
    dtype: str | None = None
    span: Span | None = field(default=None, compare=False)
    dtype_span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Function:
    """`function [name](inputs) -> (outputs) { statements }`."""

    name: str | None
    inputs: tuple[InputDecl, ...]
    outputs: tuple[OutputDecl, ...]
    body: tuple[Statement, ...]
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Module:
    """A parsed `.tile` file: one or more functions, the first being the default entry."""

    functions: tuple[Function, ...]


# --------------------------------------------------------------------------------------------
# Canonical text (used for kernel comments, so it must stay on one line)

_EXPR_PREC = {
    "?": 0,
    "^": 1,
    "|": 2,
    "&": 3,
    "==": 4,
    "!=": 4,
    "<": 5,
    ">": 5,
    "<=": 5,
    ">=": 5,
    "<<": 6,
    ">>": 6,
    "+": 7,
    "-": 7,
    "*": 8,
    "/": 8,
}
_UNARY_PREC = 9


def format_poly(poly: Poly, prec: int = 0) -> str:
    """Print a polynomial with the parentheses its precedence needs."""
    if isinstance(poly, PolyInt):
        return str(poly.value)
    if isinstance(poly, PolyName):
        if poly.is_index != poly.name[0].islower():
            return ("$" if poly.is_index else "#") + poly.name
        return poly.name
    if isinstance(poly, PolyNeg):
        text = "-" + format_poly(poly.operand, _UNARY_PREC)
        return text if prec <= _UNARY_PREC else f"({text})"
    mine = _EXPR_PREC[poly.op]
    # Left-associative: the right operand needs parentheses at equal precedence.
    text = f"{format_poly(poly.lhs, mine)} {poly.op} {format_poly(poly.rhs, mine + 1)}"
    return text if mine >= prec else f"({text})"


def format_expr(expr: Expr, prec: int = 0) -> str:
    """Print an expression with the parentheses its precedence needs."""
    if isinstance(expr, IntLit):
        return str(expr.value)
    if isinstance(expr, FloatLit):
        return expr.text
    if isinstance(expr, NameRef):
        return expr.name
    if isinstance(expr, Call):
        return f"{expr.fn}({', '.join(format_expr(a) for a in expr.args)})"
    if isinstance(expr, Unary):
        text = expr.op + format_expr(expr.operand, _UNARY_PREC)
        return text if prec <= _UNARY_PREC else f"({text})"
    if isinstance(expr, Cond):
        text = f"{format_expr(expr.cond, 1)} ? {format_expr(expr.then)} : {format_expr(expr.else_)}"
        return text if prec == 0 else f"({text})"
    mine = _EXPR_PREC[expr.op]
    # Comparisons do not chain, so both operands of one need the next level up.
    lhs_prec = mine + 1 if mine in (4, 5) else mine
    text = f"{format_expr(expr.lhs, lhs_prec)} {expr.op} {format_expr(expr.rhs, mine + 1)}"
    return text if mine >= prec else f"({text})"


def _format_ref(name: str, indices: tuple[Poly, ...]) -> str:
    return f"{name}[{', '.join(format_poly(p) for p in indices)}]"


def format_statement(stmt: Statement) -> str:
    """The statement as one line of Tile, without attributes or the trailing `;`."""
    body = stmt.body
    if isinstance(body, Assign):
        return f"{body.name} = {format_expr(body.expr)}"
    out = body.output
    idx = ", ".join(format_poly(p) for p in out.indices)
    if out.sizes is not None:
        sizes = ", ".join(format_expr(s) for s in out.sizes)
        idx = f"{idx} : {sizes}" if idx else f":{sizes}"
    text = f"{out.name}[{idx}] = {body.agg}("
    refs = [_format_ref(r.name, r.indices) for r in body.inputs]
    if len(refs) == 1:
        text += refs[0]
    else:
        text += f"{refs[0]} {body.comb} {refs[1]}"
        if len(refs) == 3:
            text += f" ? {refs[2]}"
    text += ")"
    for con in body.constraints:
        text += f", {format_poly(con.poly)} < {format_expr(con.bound)}"
    if body.no_defract:
        text += " no_defract"
    if body.default is not None:
        text += f" default {body.default}"
    return text
