"""Parse `.stripe` text (PlaidML 0.7's printed Stripe and the paper's compact form) into IR.

The syntax lives in `grammars/stripe.lark`; this module only turns the parse tree into the
dataclasses of `plaidc.stripe.ir`, attaching a source span to every node.
"""

from __future__ import annotations

import difflib
import json
from functools import cache
from importlib import resources
from typing import Any

import lark
from lark import Token, Transformer, v_args

from plaidc.diagnostics import CompileError, Diagnostic, Span
from plaidc.stripe.ir import (
    AGG_OPS,
    INTRINSICS,
    SPECIALS,
    Affine,
    Block,
    Constant,
    Constraint,
    DType,
    Index,
    Intrinsic,
    Load,
    LoadIndex,
    Location,
    LocUnit,
    RefDir,
    Refinement,
    Special,
    SpecialParam,
    Statement,
    Store,
    Tags,
    TagValue,
    TensorShape,
    extent_error,
)

CONSTANT_TYPES = ("int", "float", *(d.value for d in DType))


@cache
def _parser() -> lark.Lark:
    grammar = (resources.files("plaidc") / "grammars" / "stripe.lark").read_text()
    return lark.Lark(
        grammar,
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
        start=["start", "location_body"],
    )


def parse_stripe(text: str, filename: str = "<input>") -> Block:
    """Parse a whole `.stripe` program; raises CompileError with a located diagnostic."""
    try:
        tree = _parser().parse(text, start="start")
    except lark.exceptions.UnexpectedInput as err:
        raise CompileError([_syntax_diagnostic(err, text, filename)]) from None
    _check_nesting(tree, filename)
    try:
        block = _ToIR(filename).transform(tree)
    except lark.exceptions.VisitError as err:
        if isinstance(err.orig_exc, CompileError):
            raise err.orig_exc from None
        raise
    assert isinstance(block, Block)
    return block


# Blocks nest at most this deep (PlaidML's programs nest a handful): the passes, the verifier
# and the interpreter walk blocks recursively, and this keeps them well inside Python's stack;
# so does the bound on the parse tree's depth (a sum of several hundred affine terms).
MAX_BLOCK_NESTING = 64
MAX_TREE_DEPTH = 400


def _check_nesting(tree: lark.Tree, filename: str) -> None:
    """A CompileError at the first block nested deeper than MAX_BLOCK_NESTING, or the first
    node deeper than MAX_TREE_DEPTH (iterative, so the check itself cannot overflow)."""
    stack = [(tree, 0, 0)]
    while stack:
        node, blocks, depth = stack.pop()
        blocks += node.data == "block"
        if blocks > MAX_BLOCK_NESTING or depth > MAX_TREE_DEPTH:
            line, column = getattr(node.meta, "line", 1), getattr(node.meta, "column", 1)
            what = (
                f"blocks nested too deeply (more than {MAX_BLOCK_NESTING} levels)"
                if blocks > MAX_BLOCK_NESTING
                else f"an expression nested too deeply (more than {MAX_TREE_DEPTH} levels)"
            )
            raise CompileError.at(what, Span(filename, line, column))
        stack.extend((c, blocks, depth + 1) for c in node.children if isinstance(c, lark.Tree))


def parse_location(text: str, what: str = "location") -> Location:
    """Parse a location such as `DRAM`, `SRAM[0]` or `A[0]/B[i]` (a pass option's value)."""
    try:
        tree = _parser().parse(text, start="location_body")
    except lark.exceptions.UnexpectedInput as err:
        diag = _syntax_diagnostic(err, text, what)
        raise CompileError([Diagnostic(f"bad {what} '{text}': {diag.message}")]) from None
    location = _ToIR(what).transform(tree)
    assert isinstance(location, Location)
    return location


def _syntax_diagnostic(
    err: lark.exceptions.UnexpectedInput, text: str, filename: str
) -> Diagnostic:
    span = Span(filename, err.line, err.column) if err.line > 0 else None
    if isinstance(err, lark.exceptions.UnexpectedCharacters):
        pos = err.pos_in_stream or 0
        char = text[pos] if pos < len(text) else "end of input"
        return Diagnostic(f"unexpected character {char!r}", span)
    if isinstance(err, lark.exceptions.UnexpectedEOF):
        end = _end_span(text, filename)
        return Diagnostic("unexpected end of input (unbalanced braces or parentheses?)", end)
    if isinstance(err, lark.exceptions.UnexpectedToken):
        tok = err.token
        if tok.type == "$END":
            return Diagnostic(
                "unexpected end of input (unbalanced braces or parentheses?)",
                _end_span(text, filename),
            )
        expected = _describe_expected(err.expected)
        return Diagnostic(f"unexpected {str(tok)!r}; expected {expected}", span)
    return Diagnostic(str(err).splitlines()[0], span)


def _end_span(text: str, filename: str) -> Span:
    lines = text.rstrip("\n").split("\n")
    return Span(filename, len(lines), len(lines[-1]) + 1)


_TERMINAL_NAMES = {
    "NAME": "a name",
    "SCALAR": "a scalar ($name)",
    "INT": "an integer",
    "SIGNED_INT": "an integer",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "COLON": "':'",
    "EQUAL": "'='",
    "DIR": "a refinement direction (in, out, inout, none)",
    "DTYPE": "a data type",
    "TAG": "a tag",
    "BLOCK": "'block'",
    "NUMBER": "a number",
    "SIGNED_NUMBER": "a number",
    "SPECIAL_FLOAT": "a number",
    "ESCAPED_STRING": "a string",
    "NEW_AT": "new@0x...",
    "CONST": "'const'",
    "NAMED_OPEN": "'('",
    "BYTE_UNIT": "a byte unit (B, KiB, ...)",
    "$END": "end of input",
}


def _terminal_name(name: str) -> str:
    """How a syntax error names a terminal: a readable description, the literal text of a
    fixed token (Lark's `__ANON_1`, `PLUS`...) quoted, never Lark's internal name."""
    if name in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[name]
    for terminal in _parser().terminals:
        if terminal.name == name and isinstance(terminal.pattern, lark.lexer.PatternStr):
            return repr(terminal.pattern.value)
    return name.lower().strip("_")


def _describe_expected(expected: set[str]) -> str:
    names = sorted({_terminal_name(e) for e in expected})
    if len(names) > 6:
        names = [*names[:6], "..."]
    return ", ".join(names) if names else "something else"


def _span(filename: str, meta: Any) -> Span | None:
    if getattr(meta, "empty", True):
        return None
    return Span(filename, meta.line, meta.column)


def _tok_span(filename: str, tok: Token) -> Span:
    return Span(filename, tok.line or 0, tok.column or 0)


class _Prefix:
    """A statement's number, dependencies and tags before they are attached to the statement."""

    def __init__(self, number: int, deps: tuple[int, ...], tags: Tags) -> None:
        self.number = number
        self.deps = deps
        self.tags = tags


@v_args(inline=True)
class _ToIR(Transformer[Token, Any]):
    """Parse tree -> IR. Spans come from lark's propagated positions."""

    def __init__(self, filename: str) -> None:
        super().__init__()
        self.filename = filename

    def _error(self, message: str, tok: Token | None) -> CompileError:
        return CompileError.at(message, _tok_span(self.filename, tok) if tok else None)

    # ---- top level and statements --------------------------------------------------------
    def start(self, prefix: _Prefix | None, block: Block) -> Block:
        if prefix is None:
            return block
        rooted = _with_prefix(block, prefix, {})
        assert isinstance(rooted, Block)
        return rooted

    def stmt_prefix(self, number: Token, deps: tuple[int, ...] | None, tags: Tags) -> _Prefix:
        return _Prefix(int(number), deps or (), tags)

    def tags(self, *tags: tuple[str, TagValue]) -> Tags:
        return Tags(tuple(tags))

    def deps(self, *nums: Token | None) -> tuple[int, ...]:
        return tuple(int(n) for n in nums if n is not None)

    def stmt(self, prefix: _Prefix | None, body: Statement) -> tuple[_Prefix | None, Statement]:
        return (prefix, body)

    @v_args(meta=True, inline=True)
    def load(self, meta: Any, outs: tuple[str, ...], src: Token) -> Load:
        into = self._single(outs, "load", meta)
        return Load(from_=str(src), into=str(into), span=_span(self.filename, meta))

    @v_args(meta=True, inline=True)
    def store(self, meta: Any, outs: tuple[str, ...], src: Token) -> Store:
        into = self._single(outs, "store", meta)
        return Store(from_=str(src), into=str(into), span=_span(self.filename, meta))

    @v_args(meta=True, inline=True)
    def load_index(self, meta: Any, outs: tuple[str, ...], aff: Affine) -> LoadIndex:
        into = self._single(outs, "load_index", meta)
        return LoadIndex(affine=aff, into=str(into), span=_span(self.filename, meta))

    @v_args(meta=True, inline=True)
    def constant(
        self, meta: Any, outs: tuple[str, ...], type_: Token, value: int | float
    ) -> Constant:
        name = self._single(outs, "a constant", meta)
        if str(type_) not in CONSTANT_TYPES:
            raise self._error(
                f"unknown constant type '{type_}' (expected one of {', '.join(CONSTANT_TYPES)})",
                type_,
            )
        if str(type_) == "float" or (
            str(type_) in DType.__members__.values() and DType(str(type_)).is_float
        ):
            value = float(value)
        elif isinstance(value, float):
            raise self._error(f"constant of type '{type_}' needs an integer value", type_)
        return Constant(
            name=str(name), value=value, type=str(type_), span=_span(self.filename, meta)
        )

    def _single(self, outs: tuple[str, ...], what: str, meta: Any) -> str:
        if len(outs) != 1:
            raise CompileError.at(f"{what} has exactly one output", _span(self.filename, meta))
        return outs[0]

    def const_value(self, tok: Token) -> int | float:
        return _number(str(tok))

    @v_args(meta=True, inline=True)
    def intrinsic(
        self, meta: Any, outs: tuple[str, ...], name: Token, *ins: Token | None
    ) -> Intrinsic:
        if str(name) not in INTRINSICS:
            close = difflib.get_close_matches(str(name), sorted(INTRINSICS | {"load"}), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise self._error(f"unknown statement or intrinsic '{name}'{hint}", name)
        for tok in ins:
            if tok is not None and tok.type != "SCALAR":
                raise self._error(
                    f"intrinsic '{name}' takes scalars ($name), not the refinement '{tok}'", tok
                )
        return Intrinsic(
            name=str(name),
            inputs=tuple(str(i) for i in ins if i is not None),
            outputs=outs,
            span=_span(self.filename, meta),
        )

    def scalar_outs(self, *outs: Token) -> tuple[str, ...]:
        return tuple(str(o) for o in outs)

    ref_outs = scalar_outs

    @v_args(meta=True, inline=True)
    def special(
        self,
        meta: Any,
        outs: tuple[str, ...],
        name: Token,
        ins: tuple[str, ...],
        params: tuple[tuple[str, SpecialParam], ...] | None,
    ) -> Special:
        if str(name) not in SPECIALS:
            close = difflib.get_close_matches(str(name), sorted(SPECIALS | {"store"}), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise self._error(f"unknown statement or special '{name}'{hint}", name)
        return Special(
            name=str(name),
            inputs=ins,
            outputs=outs,
            params=params or (),
            span=_span(self.filename, meta),
        )

    def name_list(self, *names: Token | None) -> tuple[str, ...]:
        return tuple(str(n) for n in names if n is not None)

    def special_params(self, *params: tuple[str, SpecialParam] | None) -> tuple:
        return tuple(p for p in params if p is not None)

    def special_param(self, name: Token, value: SpecialParam) -> tuple[str, SpecialParam]:
        return (str(name), value)

    def param_value(self, tok: Token) -> SpecialParam:
        if tok.type == "ESCAPED_STRING":
            return str(json.loads(tok))
        if tok.type == "NAME":
            return str(tok)
        return _number(str(tok))

    def param_tuple(self, *ints: Token | None) -> tuple[int, ...]:
        return tuple(int(i) for i in ints if i is not None)

    # ---- blocks --------------------------------------------------------------------------
    @v_args(meta=True, inline=True)
    def block(
        self,
        meta: Any,
        location: Location | None,
        idxs: tuple[Index, ...],
        _count: int | None,
        name: str,
        *rest: Any,
    ) -> Block:
        comments: list[str] = []
        constraints: list[Constraint] = []
        refs: list[Refinement] = []
        stmts: list[tuple[_Prefix | None, Statement]] = []
        for item in rest:
            if isinstance(item, Token):
                comments.append(item[2:].strip())
            elif isinstance(item, Constraint):
                constraints.append(item)
            elif isinstance(item, Refinement):
                refs.append(item)
            else:
                stmts.append(item)
        self._check_unique(idxs, refs)
        return Block(
            name=name,
            comments=tuple(comments),
            idxs=idxs,
            constraints=tuple(constraints),
            refs=tuple(refs),
            stmts=_number_statements(stmts),
            location=location,
            span=_span(self.filename, meta),
        )

    def index_list(self, *idxs: Index | None) -> tuple[Index, ...]:
        return tuple(i for i in idxs if i is not None)

    def _check_unique(self, idxs: tuple[Index, ...], refs: list[Refinement]) -> None:
        seen: set[str] = set()
        for i in idxs:
            if i.name in seen:
                raise CompileError.at(f"duplicate index '{i.name}' in block", i.span)
            seen.add(i.name)
        seen = set()
        for r in refs:
            if r.into in seen:
                raise CompileError.at(f"duplicate refinement '{r.into}' in block", r.span)
            seen.add(r.into)

    def count(self, n: Token) -> int:
        return int(n)

    def block_open(self, tok: Token | None = None) -> str:
        if tok is None:
            return ""
        return str(tok)[1:].strip()[2:].strip()

    @v_args(meta=True, inline=True)
    def index(self, meta: Any, body: tuple[str, int, Affine]) -> Index:
        return Index(body[0], body[1], body[2], span=_span(self.filename, meta))

    @v_args(meta=True, inline=True)
    def tagged_index(self, meta: Any, *parts: Any) -> Index:
        *tags, body = parts
        name, rng, aff = body
        return Index(name, rng, aff, tags=Tags(tuple(tags)), span=_span(self.filename, meta))

    def ranged_index(self, name: Token, rng: Token, aff: Affine | None) -> tuple[str, int, Affine]:
        return (str(name), self._extent(f"range of index '{name}'", rng), aff or Affine())

    def _extent(self, what: str, tok: Token) -> int:
        """An integer of the program's shape, within the limit of every size (MAX_EXTENT)."""
        problem = extent_error(what, int(tok))
        if problem:
            raise self._error(problem, tok)
        return int(tok)

    def passthrough_index(self, name: Token, aff: Affine) -> tuple[str, int, Affine]:
        return (str(name), 1, aff)

    @v_args(meta=True, inline=True)
    def constraint(self, meta: Any, lhs: Affine, rhs: Token) -> Constraint:
        return Constraint(lhs - self._extent("constant", rhs), span=_span(self.filename, meta))

    # ---- refinements ---------------------------------------------------------------------
    @v_args(meta=True, inline=True)
    def refinement(
        self,
        meta: Any,
        tags: Tags,
        dir_tok: Token,
        const_tok: Token | None,
        new_tok: Token | None,
        into_tok: Token,
        from_tok: Token | None,
        location: Location | None,
        access: tuple[Affine, ...],
        agg: Token | None,
        dtype_tok: Token,
        shape: tuple[TensorShape, Token | None, tuple[int, ...] | None],
    ) -> Refinement:
        span = _span(self.filename, meta)
        offset = int(str(new_tok)[len("new@0x") :], 16) if new_tok is not None else 0
        if from_tok is not None:
            from_: str | None = str(from_tok)
        elif new_tok is not None or str(dir_tok) == "none":
            from_ = None  # `none` is a fresh allocation, `new@` written or not (compact form)
        else:
            from_ = str(into_tok)
        if agg is not None and str(agg) not in AGG_OPS:
            raise self._error(
                f"unknown aggregation '{agg}' (expected one of {', '.join(AGG_OPS)})", agg
            )
        interior, first_tok, _exterior = shape
        interior = TensorShape(DType(str(dtype_tok)), interior.sizes, interior.strides)
        if len(interior.sizes) != len(interior.strides):
            raise self._error(
                f"refinement '{into_tok}': {len(interior.sizes)} sizes but "
                f"{len(interior.strides)} strides",
                first_tok if first_tok is not None else into_tok,  # `I()` has no first size
            )
        elements = 1
        for size in interior.sizes:
            elements *= size
        problem = extent_error(f"refinement '{into_tok}': element count", elements)
        if problem:
            raise self._error(problem, first_tok)
        if len(access) != len(interior.sizes):
            raise self._error(
                f"refinement '{into_tok}': {len(access)} access dimensions but the shape has "
                f"{len(interior.sizes)}",
                into_tok,
            )
        return Refinement(
            dir=RefDir(str(dir_tok)),
            from_=from_,
            into=str(into_tok),
            access=access,
            shape=interior,
            agg_op=str(agg) if agg is not None else None,
            location=location,
            offset=offset,
            is_const=const_tok is not None,
            tags=tags,
            span=span,
        )

    def agg(self, name: Token) -> Token:
        return name

    def plaidml_shape(self, sizes: tuple, strides: tuple, _bytes: Any, exterior: Any) -> tuple:
        return (TensorShape(DType.FP32, sizes[1], strides[1]), sizes[0], exterior)

    def compact_shape(self, sizes: tuple, strides: tuple) -> tuple:
        return (TensorShape(DType.FP32, sizes[1], strides[1]), sizes[0], None)

    def exterior(self, sizes: tuple, _bytes: Any) -> tuple[int, ...]:
        return tuple(sizes[1])

    @v_args(meta=True, inline=True)
    def int_list(self, meta: Any, *ints: Token | None) -> tuple[Token | None, tuple[int, ...]]:
        toks = [i for i in ints if i is not None]
        return (toks[0] if toks else None, tuple(self._extent("size or stride", i) for i in toks))

    def byte_size(self, num: Token, unit: Token) -> None:
        return None

    def location(self, body: Location) -> Location:
        return body

    def location_body(self, *units: LocUnit) -> Location:
        return Location(tuple(units))

    def loc_unit(self, name: Token, idxs: tuple[Affine, ...] | None) -> LocUnit:
        return LocUnit(str(name), idxs or ())

    def affine_list(self, *affs: Affine | None) -> tuple[Affine, ...]:
        return tuple(a for a in affs if a is not None)

    # ---- tags ----------------------------------------------------------------------------
    def tag(self, tok: Token, value: TagValue | None = None) -> tuple[str, TagValue]:
        return (str(tok)[1:], value)

    def tag_value(self, tok: Token) -> TagValue:
        if tok.type == "ESCAPED_STRING":
            return str(json.loads(tok))
        if tok.type == "NAME":
            return str(tok)
        return _number(str(tok))

    # ---- affine --------------------------------------------------------------------------
    def aff_int(self, tok: Token) -> Affine:
        return Affine.const_(self._extent("constant", tok))

    def aff_name(self, tok: Token) -> Affine:
        return Affine.var(str(tok))

    def aff_add(self, a: Affine, b: Affine) -> Affine:
        return a + b

    def aff_sub(self, a: Affine, b: Affine) -> Affine:
        return a - b

    def aff_neg(self, a: Affine) -> Affine:
        return -a

    @v_args(meta=True, inline=True)
    def aff_mul(self, meta: Any, a: Affine, b: Affine) -> Affine:
        if a.is_constant:
            return b * a.const
        if b.is_constant:
            return a * b.const
        raise CompileError.at(
            "affine expressions may multiply an index only by a constant",
            _span(self.filename, meta),
        )


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        return float(text)


def _with_prefix(stmt: Statement, prefix: _Prefix, renumber: dict[int, int]) -> Statement:
    from dataclasses import replace

    deps = tuple(renumber.get(d, d) for d in prefix.deps)
    if not deps and not prefix.tags:
        return stmt
    return replace(stmt, deps=deps, tags=prefix.tags)


def _number_statements(stmts: list[tuple[_Prefix | None, Statement]]) -> tuple[Statement, ...]:
    """Attach prefixes; statement numbers are positions, so deps are renumbered to positions."""
    renumber: dict[int, int] = {}
    repeated: set[int] = set()  # numbers given twice: a dependency on one is ambiguous
    out: list[Statement] = []
    for pos, (prefix, stmt) in enumerate(stmts):
        if prefix is None:
            out.append(stmt)
            continue
        for d in prefix.deps:
            if d not in renumber:
                raise CompileError.at(
                    f"statement {prefix.number} depends on {d}, which is not an earlier statement",
                    stmt.span,
                )
            if d in repeated:
                raise CompileError.at(
                    f"statement {prefix.number} depends on {d}, a number that two earlier "
                    "statements of this block have",
                    stmt.span,
                )
        if prefix.number in renumber:
            repeated.add(prefix.number)
        renumber[prefix.number] = pos
        out.append(_with_prefix(stmt, prefix, renumber))
    return tuple(out)
