"""A small C syntax tree and its printer.

Generated C is built as a tree and printed by one function that knows C's operator precedence
and associativity, so parentheses appear exactly where they are needed and never where a string
template would have forgotten them. Types are written as C type strings (`float *restrict`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

# --------------------------------------------------------------------------------------------
# Expressions


@dataclass(frozen=True)
class Ident:
    name: str


@dataclass(frozen=True)
class Literal:
    """A literal or a constant macro, printed as `text` (`1.5f`, `INFINITY`, `-3`)."""

    text: str


@dataclass(frozen=True)
class Unary:
    """Prefix operator: `-`, `!`, `~`, `*` or `&`."""

    op: str
    operand: Expr


@dataclass(frozen=True)
class Binary:
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Ternary:
    cond: Expr
    then: Expr
    orelse: Expr


@dataclass(frozen=True)
class CallExpr:
    func: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Cast:
    type: str
    operand: Expr


@dataclass(frozen=True)
class Subscript:
    base: Expr
    index: Expr


@dataclass(frozen=True)
class InitList:
    """A brace-enclosed initialiser or compound literal body: `(type){a, b}` if `type`."""

    items: tuple[Expr, ...]
    type: str | None = None


Expr = Union[Ident, Literal, Unary, Binary, Ternary, CallExpr, Cast, Subscript, InitList]

# --------------------------------------------------------------------------------------------
# Statements


@dataclass(frozen=True)
class Decl:
    """`[static] [const] type name[array] [attributes] [= init];`"""

    type: str
    name: str
    init: Expr | None = None
    const: bool = False
    array: int | None = None
    attributes: str = ""
    static: bool = False


@dataclass(frozen=True)
class ExprStmt:
    expr: Expr


@dataclass(frozen=True)
class Assign:
    """`target op value;` with `op` one of `=`, `+=`, `*=`, ..."""

    target: Expr
    value: Expr
    op: str = "="


@dataclass(frozen=True)
class For:
    """`for (type var = init; var < limit; var += step)` (the OpenMP canonical form)."""

    var: str
    init: Expr
    limit: Expr
    body: tuple[Stmt, ...]
    step: int = 1
    type: str = "int64_t"
    pragmas: tuple[str, ...] = ()


@dataclass(frozen=True)
class If:
    cond: Expr
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...] = ()


@dataclass(frozen=True)
class Compound:
    """`{ ... }`: a nested scope."""

    stmts: tuple[Stmt, ...]


@dataclass(frozen=True)
class Return:
    value: Expr | None = None


@dataclass(frozen=True)
class Comment:
    text: str


@dataclass(frozen=True)
class Pragma:
    text: str


@dataclass(frozen=True)
class Macro:
    """A statement-position macro use on its own line (`NAME`, no semicolon), e.g. one that
    expands to a `_Pragma` only where the compiler accepts it."""

    name: str


Stmt = Union[Decl, ExprStmt, Assign, For, If, Compound, Return, Comment, Pragma, Macro]

# --------------------------------------------------------------------------------------------
# Top level


@dataclass(frozen=True)
class Include:
    header: str


@dataclass(frozen=True)
class Typedef:
    """`typedef base name attributes;`"""

    base: str
    name: str
    attributes: str = ""


@dataclass(frozen=True)
class Param:
    type: str
    name: str


@dataclass(frozen=True)
class FunctionDef:
    ret: str
    name: str
    params: tuple[Param, ...]
    body: tuple[Stmt, ...]
    static: bool = True
    inline: bool = False
    comment: str = ""
    attributes: str = ""  # e.g. `__attribute__((...))`, before the qualifiers


@dataclass(frozen=True)
class FunctionDecl:
    """A prototype, optionally preceded by pragmas (e.g. `omp declare simd`)."""

    ret: str
    name: str
    params: tuple[Param, ...]
    pragmas: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verbatim:
    """Lines printed as they are: preprocessor conditionals, code written with intrinsics."""

    text: str


TopLevel = Union[Include, Typedef, FunctionDef, FunctionDecl, Comment, Verbatim]


@dataclass(frozen=True)
class TranslationUnit:
    items: tuple[TopLevel, ...] = field(default_factory=tuple)


# --------------------------------------------------------------------------------------------
# Printing

# C precedence levels (higher binds tighter).
_BINARY_PREC = {
    "*": 13,
    "/": 13,
    "%": 13,
    "+": 12,
    "-": 12,
    "<<": 11,
    ">>": 11,
    "<": 10,
    "<=": 10,
    ">": 10,
    ">=": 10,
    "==": 9,
    "!=": 9,
    "&": 8,
    "^": 7,
    "|": 6,
    "&&": 5,
    "||": 4,
}
_TERNARY = 3
_UNARY = 15
_POSTFIX = 16
_ATOM = 17


def _prec(expr: Expr) -> int:
    if isinstance(expr, Binary):
        return _BINARY_PREC[expr.op]
    if isinstance(expr, Ternary):
        return _TERNARY
    if isinstance(expr, (Unary, Cast)):
        return _UNARY
    if isinstance(expr, (CallExpr, Subscript)):
        return _POSTFIX
    if isinstance(expr, Literal) and expr.text.startswith("-"):
        return _UNARY
    if isinstance(expr, InitList) and expr.type is not None:
        return _POSTFIX
    return _ATOM


def expr_text(expr: Expr, need: int = 0) -> str:
    """`expr` printed; parenthesised when its precedence is below `need`."""
    text = _expr(expr)
    return f"({text})" if _prec(expr) < need else text


def _expr(expr: Expr) -> str:
    if isinstance(expr, Ident):
        return expr.name
    if isinstance(expr, Literal):
        return expr.text
    if isinstance(expr, Unary):
        inner = expr_text(expr.operand, _UNARY)
        if inner.startswith(expr.op) and expr.op in "-+&":
            inner = f"({inner})"  # `- -x` must not print as `--x`
        return f"{expr.op}{inner}"
    if isinstance(expr, Binary):
        prec = _BINARY_PREC[expr.op]
        # Left-associative: the right operand needs strictly higher precedence.
        left = expr_text(expr.left, prec)
        right = expr_text(expr.right, prec + 1)
        return f"{left} {expr.op} {right}"
    if isinstance(expr, Ternary):
        cond = expr_text(expr.cond, _TERNARY + 1)
        return f"{cond} ? {expr_text(expr.then)} : {expr_text(expr.orelse, _TERNARY)}"
    if isinstance(expr, CallExpr):
        return f"{expr.func}({', '.join(expr_text(a) for a in expr.args)})"
    if isinstance(expr, Cast):
        return f"({expr.type}){expr_text(expr.operand, _UNARY)}"
    if isinstance(expr, Subscript):
        return f"{expr_text(expr.base, _POSTFIX)}[{expr_text(expr.index)}]"
    if isinstance(expr, InitList):
        body = "{" + ", ".join(expr_text(i) for i in expr.items) + "}"
        return f"({expr.type}){body}" if expr.type is not None else body
    raise TypeError(f"not a C expression: {expr!r}")


def _comment(text: str) -> str:
    return "/* " + text.replace("*/", "* /") + " */"


def _stmt(stmt: Stmt, indent: str, out: list[str]) -> None:
    if isinstance(stmt, Decl):
        parts = []
        if stmt.static:
            parts.append("static")
        if stmt.const:
            parts.append("const")
        parts.append(stmt.type)
        decl = " ".join(parts)
        sep = "" if decl.endswith("*") else " "
        text = f"{decl}{sep}{stmt.name}"
        if stmt.array is not None:
            text += f"[{stmt.array}]"
        if stmt.attributes:
            text += f" {stmt.attributes}"
        if stmt.init is not None:
            text += f" = {expr_text(stmt.init)}"
        out.append(f"{indent}{text};")
    elif isinstance(stmt, ExprStmt):
        out.append(f"{indent}{expr_text(stmt.expr)};")
    elif isinstance(stmt, Assign):
        out.append(f"{indent}{expr_text(stmt.target)} {stmt.op} {expr_text(stmt.value)};")
    elif isinstance(stmt, For):
        for pragma in stmt.pragmas:
            out.append(f"{indent}#pragma {pragma}")
        step = f"++{stmt.var}" if stmt.step == 1 else f"{stmt.var} += {stmt.step}"
        head = (
            f"for ({stmt.type} {stmt.var} = {expr_text(stmt.init)}; "
            f"{stmt.var} < {expr_text(stmt.limit, _BINARY_PREC['<'] + 1)}; {step})"
        )
        out.append(f"{indent}{head} {{")
        _block(stmt.body, indent + "  ", out)
        out.append(f"{indent}}}")
    elif isinstance(stmt, If):
        out.append(f"{indent}if ({expr_text(stmt.cond)}) {{")
        _block(stmt.then, indent + "  ", out)
        if stmt.orelse:
            out.append(f"{indent}}} else {{")
            _block(stmt.orelse, indent + "  ", out)
        out.append(f"{indent}}}")
    elif isinstance(stmt, Compound):
        out.append(f"{indent}{{")
        _block(stmt.stmts, indent + "  ", out)
        out.append(f"{indent}}}")
    elif isinstance(stmt, Return):
        value = "" if stmt.value is None else " " + expr_text(stmt.value)
        out.append(f"{indent}return{value};")
    elif isinstance(stmt, Comment):
        out.append(f"{indent}{_comment(stmt.text)}")
    elif isinstance(stmt, Pragma):
        out.append(f"{indent}#pragma {stmt.text}")
    elif isinstance(stmt, Macro):
        out.append(f"{indent}{stmt.name}")
    else:
        raise TypeError(f"not a C statement: {stmt!r}")


def _block(stmts: tuple[Stmt, ...], indent: str, out: list[str]) -> None:
    for stmt in stmts:
        _stmt(stmt, indent, out)


def _params(params: tuple[Param, ...]) -> str:
    text = ", ".join(f"{p.type}{'' if p.type.endswith('*') else ' '}{p.name}" for p in params)
    return text or "void"


def print_c(unit: TranslationUnit) -> str:
    """The text of a translation unit (two-space indentation, one blank line between
    functions)."""
    out: list[str] = []
    previous: type | None = None
    for item in unit.items:
        if out and (isinstance(item, FunctionDef) or type(item) is not previous):
            out.append("")
        previous = type(item)
        if isinstance(item, Include):
            out.append(f"#include <{item.header}>")
        elif isinstance(item, Typedef):
            attrs = f" {item.attributes}" if item.attributes else ""
            out.append(f"typedef {item.base} {item.name}{attrs};")
        elif isinstance(item, Comment):
            out.append(_comment(item.text))
        elif isinstance(item, Verbatim):
            out.extend(item.text.rstrip("\n").split("\n"))
        elif isinstance(item, FunctionDecl):
            out.extend(f"#pragma {p}" for p in item.pragmas)
            out.append(f"{item.ret} {item.name}({_params(item.params)});")
        elif isinstance(item, FunctionDef):
            if item.comment:
                out.append(_comment(item.comment))
            quals = ("static " if item.static else "") + ("inline " if item.inline else "")
            if item.attributes:
                quals = f"{item.attributes} {quals}"
            out.append(f"{quals}{item.ret} {item.name}({_params(item.params)}) {{")
            _block(item.body, "  ", out)
            out.append("}")
    return "\n".join(out) + "\n"


def print_stmt(stmt: Stmt) -> str:
    """One statement's text (for tests and messages)."""
    out: list[str] = []
    _stmt(stmt, "", out)
    return "\n".join(out)
