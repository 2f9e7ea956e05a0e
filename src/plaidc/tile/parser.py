"""Parse Tile text (grammars/tile.lark) into the AST of plaidc.tile.ast.

Syntax errors become a CompileError whose diagnostic points at the unexpected token and says
what could have come instead; nothing from Lark escapes.
"""

from __future__ import annotations

import functools
import importlib.resources
import os
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, VisitError

from plaidc.diagnostics import CompileError, Diagnostic, Span
from plaidc.tile import ast


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    text = (importlib.resources.files("plaidc") / "grammars" / "tile.lark").read_text()
    return Lark(
        text,
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
        cache=_lark_cache_file(),
    )


def _lark_cache_file() -> str | bool:
    """Where Lark keeps the analysed LALR tables between runs (building them took ~0.7 s of
    every command): `$PLAIDC_CACHE_DIR/lark/tile.lark.cache`, beside the compiled libraries.
    Lark stores the grammar's and options' hash in the file and rebuilds on a mismatch or an
    unreadable file; no cache when the folder cannot be made."""
    base = os.environ.get("PLAIDC_CACHE_DIR") or str(Path.home() / ".cache" / "plaidc")
    folder = Path(base) / "lark"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return str(folder / "tile.lark.cache")


def _name(tok: Token) -> str:
    """A name without PlaidML's `#`/`$` sigil (`#X` and `X` are the same name)."""
    text = str(tok)
    return text[1:] if text[0] in "#$" else text


class _ToAst(Transformer[Token, Any]):
    """Bottom-up conversion of the Lark tree; every node gets the span of its key token."""

    def __init__(self, filename: str) -> None:
        super().__init__()
        self.filename = filename

    def span(self, tok: Token | Tree[Any] | None) -> Span | None:
        if isinstance(tok, Token) and tok.line is not None and tok.column is not None:
            return Span(self.filename, tok.line, tok.column)
        if isinstance(tok, Tree) and not tok.meta.empty:
            return Span(self.filename, tok.meta.line, tok.meta.column)
        return None

    # ---- polynomials ------------------------------------------------------------------------

    def pint(self, c: list[Token]) -> ast.Poly:
        return ast.PolyInt(int(c[0]), self.span(c[0]))

    def _poly_name(self, tok: Token, index: bool) -> ast.PolyName:
        name = _name(tok)
        # Only a sigil can make the case of the name disagree with the token (`$Kk`, `#n`).
        explicit = index if name[0].islower() != index else None
        return ast.PolyName(name, self.span(tok), explicit)

    def psym(self, c: list[Token]) -> ast.Poly:
        return self._poly_name(c[0], index=False)

    def pidx(self, c: list[Token]) -> ast.Poly:
        return self._poly_name(c[0], index=True)

    def pjux(self, c: list[Token]) -> ast.Poly:
        # `2i` is `2 * i`.
        lit = ast.PolyInt(int(c[0]), self.span(c[0]))
        return ast.PolyBin("*", lit, self._poly_name(c[1], index=True), self.span(c[0]))

    def pbin(self, c: list[Any]) -> ast.Poly:
        return ast.PolyBin(str(c[1]), c[0], c[2], self.span(c[1]))

    def pneg(self, c: list[Any]) -> ast.Poly:
        return ast.PolyNeg(c[1], self.span(c[0]))

    # ---- expressions ------------------------------------------------------------------------

    def int_lit(self, c: list[Token]) -> ast.Expr:
        return ast.IntLit(int(c[0]), self.span(c[0]))

    def float_lit(self, c: list[Token]) -> ast.Expr:
        return ast.FloatLit(float(c[0]), str(c[0]), self.span(c[0]))

    def name_ref(self, c: list[Token]) -> ast.Expr:
        return ast.NameRef(_name(c[0]), self.span(c[0]))

    def call(self, c: list[Any]) -> ast.Expr:
        return ast.Call(_name(c[0]), tuple(c[1:]), self.span(c[0]))

    def binop(self, c: list[Any]) -> ast.Expr:
        return ast.Binary(str(c[1]), c[0], c[2], self.span(c[1]))

    def unop(self, c: list[Any]) -> ast.Expr:
        return ast.Unary(str(c[0]), c[1], self.span(c[0]))

    def cond(self, c: list[Any]) -> ast.Expr:
        # Children: cond, "?", then, ":", else.
        return ast.Cond(c[0], c[2], c[4], self.span(c[1]))

    # ---- statements -------------------------------------------------------------------------

    def in_spec(self, c: list[Any]) -> ast.TensorRef:
        return ast.TensorRef(_name(c[0]), tuple(p for p in c[1:] if p is not None), self.span(c[0]))

    def sizes(self, c: list[Any]) -> tuple[ast.Expr, ...]:
        return tuple(e for e in c if e is not None)

    def out_spec(self, c: list[Any]) -> ast.OutputSpec:
        sizes = c[-1]
        polys = tuple(p for p in c[1:-1] if p is not None)
        return ast.OutputSpec(_name(c[0]), polys, sizes, self.span(c[0]))

    def constraint(self, c: list[Any]) -> ast.IndexConstraint:
        return ast.IndexConstraint(c[0], c[1], _first_span(c[0]))

    def agg(self, c: list[Token]) -> tuple[str, Span | None]:
        return str(c[0]), self.span(c[0])

    comb = agg

    def option(self, c: list[Token]) -> tuple[str, str | None, Span | None]:
        if len(c) == 1:
            return ("no_defract", None, self.span(c[0]))
        return ("default", _name(c[1]), self.span(c[1]))

    def contraction(self, c: list[Any]) -> ast.Contraction:
        out, (agg, agg_span), first, comb_pair, second, third = c[:6]
        rest = c[6:]
        inputs = tuple(x for x in (first, second, third) if x is not None)
        comb = comb_pair[0] if comb_pair is not None else None
        constraints = tuple(x for x in rest if isinstance(x, ast.IndexConstraint))
        options = [x for x in rest if isinstance(x, tuple)]
        no_defract = any(o[0] == "no_defract" for o in options)
        defaults = [o for o in options if o[0] == "default"]
        default = defaults[-1][1] if defaults else None
        default_span = defaults[-1][2] if defaults else None
        return ast.Contraction(
            out,
            agg,
            inputs,
            comb,
            constraints,
            no_defract,
            default,
            agg_span=agg_span,
            default_span=default_span,
            comb_span=comb_pair[1] if comb_pair is not None else None,
        )

    def assign(self, c: list[Any]) -> ast.Assign:
        return ast.Assign(_name(c[0]), c[1], self.span(c[0]))

    def attr_param(self, c: list[Token]) -> str:
        return _name(c[0])

    def attribute(self, c: list[Any]) -> ast.Attribute:
        params = tuple(p for p in c[2:] if p is not None)
        return ast.Attribute(str(c[1]), params, self.span(c[0]))

    def stmt(self, c: list[Any]) -> ast.Statement:
        return ast.Statement(c[-1], tuple(c[:-1]))

    # ---- functions --------------------------------------------------------------------------

    def dim(self, c: list[Token]) -> ast.DimDecl:
        tok = c[0]
        if tok.type == "INT":
            return ast.DimDecl(None, int(tok), self.span(tok))
        return ast.DimDecl(_name(tok), None, self.span(tok))

    def _dtype(self, tok: Token | None) -> tuple[str | None, Span | None]:
        return (str(tok), self.span(tok)) if tok is not None else (None, None)

    def input_any(self, c: list[Any]) -> ast.InputDecl:
        dtype, dspan = self._dtype(c[1])
        return ast.InputDecl(_name(c[0]), None, dtype, self.span(c[0]), dspan)

    def input_scalar(self, c: list[Any]) -> ast.InputDecl:
        dtype, dspan = self._dtype(c[1])
        return ast.InputDecl(_name(c[0]), (), dtype, self.span(c[0]), dspan)

    def input_dims(self, c: list[Any]) -> ast.InputDecl:
        dtype, dspan = self._dtype(c[-1])
        return ast.InputDecl(_name(c[0]), tuple(c[1:-1]), dtype, self.span(c[0]), dspan)

    def output(self, c: list[Any]) -> ast.OutputDecl:
        dtype, dspan = self._dtype(c[1])
        return ast.OutputDecl(_name(c[0]), dtype, self.span(c[0]), dspan)

    def fname(self, c: list[Token]) -> str:
        return _name(c[0])

    def function(self, c: list[Any]) -> ast.Function:
        kw, name = c[0], c[1]
        inputs = tuple(x for x in c[2:] if isinstance(x, ast.InputDecl))
        outputs = tuple(x for x in c[2:] if isinstance(x, ast.OutputDecl))
        body = tuple(x for x in c[2:] if isinstance(x, ast.Statement))
        return ast.Function(name, inputs, outputs, body, self.span(kw))

    def start(self, c: list[ast.Function]) -> ast.Module:
        return ast.Module(tuple(c))


def _first_span(poly: ast.Poly) -> Span | None:
    """The span of the leftmost token of a polynomial."""
    while isinstance(poly, ast.PolyBin):
        poly = poly.lhs
    if isinstance(poly, ast.PolyNeg):
        return poly.span
    return poly.span


# --------------------------------------------------------------------------------------------
# Syntax errors

_FRIENDLY = {
    "UNAME": "a tensor or size name",
    "LNAME": "an index or function name",
    "INT": "an integer",
    "FLOAT": "a number",
    "$END": "end of input",
}


def _describe_terminal(name: str) -> str:
    if name in _FRIENDLY:
        return _FRIENDLY[name]
    try:
        pattern = _lark().get_terminal(name).pattern
    except KeyError:
        return name
    return f"'{pattern.value}'" if pattern.type == "str" else name


_CLOSERS = ("';'", "')'", "']'", "'}'", "','")


def _expected(names: set[str]) -> str:
    # Closing punctuation first: after a complete expression it is what was most likely meant.
    items = sorted(
        {_describe_terminal(n) for n in names},
        key=lambda d: (_CLOSERS.index(d) if d in _CLOSERS else len(_CLOSERS), d),
    )
    if not items:
        return ""
    if len(items) == 1:
        return f", expected {items[0]}"
    shown = ", ".join(items[:6]) + (", ..." if len(items) > 6 else "")
    return f", expected one of {shown}"


def _syntax_error(err: UnexpectedInput, source: str, filename: str) -> Diagnostic:
    line, col = max(err.line, 1), max(err.column, 1)
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream or 0
        char = source[pos] if pos < len(source) else ""
        what = f"unexpected character '{char}'"
        expected = _expected(set(err.allowed or ()))
    elif isinstance(err, UnexpectedEOF) or getattr(err, "token", None) is None:
        what = "unexpected end of input"
        expected = _expected(set(getattr(err, "expected", ())))
        lines = source.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
    else:
        tok = err.token  # type: ignore[attr-defined]
        if tok.type == "$END":
            what = "unexpected end of input"
            lines = source.splitlines() or [""]
            line, col = len(lines), len(lines[-1]) + 1
        else:
            what = f"unexpected '{tok}'"
        expected = _expected(set(err.expected))  # type: ignore[attr-defined]
    return Diagnostic(f"syntax error: {what}{expected}", Span(filename, line, col))


# Operators, calls and conditionals nest at most this deep in one expression: every later
# stage walks expressions recursively, and this keeps them well inside Python's stack.
MAX_NESTING = 100
_NESTED = frozenset({"binop", "unop", "call", "cond", "pbin", "pneg"})


def _check_nesting(tree: Tree[Any], filename: str) -> None:
    """A CompileError at the first operator nested deeper than MAX_NESTING (iterative, so the
    check itself cannot overflow the stack)."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if node.data in _NESTED:
            depth += 1
            if depth > MAX_NESTING:
                # at its operator (or the called name)
                tok = next(c for c in node.children if isinstance(c, Token))
                raise CompileError.at(
                    f"expression nested too deeply (more than {MAX_NESTING} levels of "
                    "operators, calls and conditionals); split it into several statements",
                    Span(filename, tok.line or 1, tok.column or 1),
                )
        stack.extend((child, depth) for child in node.children if isinstance(child, Tree))


def parse_tile(source: str, filename: str) -> ast.Module:
    """Parse a `.tile` file; raises CompileError with a positioned syntax error."""
    try:
        tree = _lark().parse(source)
    except UnexpectedInput as err:
        raise CompileError([_syntax_error(err, source, filename)]) from None
    _check_nesting(tree, filename)
    try:
        return _ToAst(filename).transform(tree)
    except VisitError as err:
        raise err.orig_exc from None
