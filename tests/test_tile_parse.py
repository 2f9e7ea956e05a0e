"""The Tile grammar and parser (grammars/tile.lark, plaidc.tile.parser): every construct of
TILE.md parses to the AST it should, and syntax errors say where and what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from plaidc.diagnostics import CompileError, Span
from plaidc.tile import ast
from plaidc.tile.parser import parse_tile

TILE_MD_EXAMPLES = [
    "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }",
    """function (I[N, H, W, CI], K[KH, KW, CI, CO], B[CO]) -> (R) {
      O[n, x, y, co : N, H - KH + 1, W - KW + 1, CO] = +(I[n, x + i, y + j, ci] * K[i, j, ci, co]);
      R = relu(O + B);
    }""",
    "function (I[N]) -> (O) { O[i : N / 2] = >(I[2 * i + j]), j < 2; }          // 1-D max pool",
    "function (I[N]) -> (O) { O[i : N] = +(I[k]), i - k < N; }",
    """function (X[B, N]) -> (Y) {
      M[b, 0 : B, 1] = >(X[b, n]);  E = exp(X - M);  S[b, 0 : B, 1] = +(E[b, n]);  Y = E / S;
    }""",
    "function (Idx[B], Count[C]) -> (O) { O[b, c : B, C] = =(Idx[b] == Count[c]); }",
    "function (A[H, W]) -> (O) { O[x + 10*i, y + 20*j : 50, 80] = =(A[x, y]) no_defract; }",
]


def parse_one(src: str) -> ast.Function:
    module = parse_tile(src, "t.tile")
    assert len(module.functions) == 1
    return module.functions[0]


def body_text(src: str) -> list[str]:
    return [ast.format_statement(s) for s in parse_one(src).body]


@pytest.mark.parametrize("src", TILE_MD_EXAMPLES)
def test_tile_md_examples_parse_and_reprint_stably(src: str) -> None:
    func = parse_one(src)
    assert func.body
    # Printing and re-parsing each statement is a fixed point (the canonical text is Tile).
    for stmt in func.body:
        text = ast.format_statement(stmt)
        again = parse_one(f"function (X) -> (Y) {{ {text}; }}").body[0]
        assert ast.format_statement(again) == text
        assert again == stmt


def test_matmul_ast() -> None:
    func = parse_one(TILE_MD_EXAMPLES[0])
    assert func.name is None
    assert [i.name for i in func.inputs] == ["A", "B"]
    assert [str(d) for d in func.inputs[0].dims or ()] == ["M", "K"]
    assert [o.name for o in func.outputs] == ["C"]
    (stmt,) = func.body
    body = stmt.body
    assert isinstance(body, ast.Contraction)
    assert body.agg == "+" and body.comb == "*"
    assert body.output.name == "C"
    assert body.output.indices == (ast.PolyName("m"), ast.PolyName("n"))
    assert body.output.sizes == (ast.NameRef("M"), ast.NameRef("N"))
    assert [r.name for r in body.inputs] == ["A", "B"]
    assert body.output.span == Span("t.tile", 1, 38)


@pytest.mark.parametrize(
    ("expr", "canonical"),
    [
        ("A + B * C", "A + B * C"),
        ("(A + B) * C", "(A + B) * C"),
        ("A - B - C", "A - B - C"),
        ("A - (B - C)", "A - (B - C)"),
        ("-A * B", "-A * B"),
        ("-(A * B)", "-(A * B)"),
        ("A < B == C > D", "A < B == C > D"),
        ("A << 1 + B", "A << 1 + B"),
        ("A & B | C ^ D", "A & B | C ^ D"),
        ("A ^ (B | C)", "A ^ B | C"),
        ("A ? B : C ? D : E", "A ? B : C ? D : E"),
        ("(A ? B : C) ? D : E", "(A ? B : C) ? D : E"),
        ("~A & 3", "~A & 3"),
        ("exp(A - 1.5e-3) / 2.0", "exp(A - 1.5e-3) / 2.0"),
    ],
)
def test_expression_precedence(expr: str, canonical: str) -> None:
    (text,) = body_text(f"function (A, B, C, D, E) -> (Y) {{ Y = {expr}; }}")
    assert text == f"Y = {canonical}"


def test_precedence_tree_shape() -> None:
    # `^` is lowest of the binary operators, then `|`, `&` (TILE.md), `?:` below all.
    (stmt,) = parse_one("function (A, B, C) -> (Y) { Y = A | B ^ C & A; }").body
    assert isinstance(stmt.body, ast.Assign)
    top = stmt.body.expr
    assert isinstance(top, ast.Binary) and top.op == "^"
    assert isinstance(top.lhs, ast.Binary) and top.lhs.op == "|"
    assert isinstance(top.rhs, ast.Binary) and top.rhs.op == "&"


def test_comparisons_do_not_chain() -> None:
    with pytest.raises(CompileError) as err:
        parse_tile("function (A, B, C) -> (Y) { Y = A < B < C; }", "t.tile")
    assert err.value.diagnostics[0].message.startswith("syntax error: unexpected '<'")


def test_juxtaposition_and_rational_polynomials() -> None:
    (stmt,) = parse_one("function (I[N]) -> (O) { O[i : N] = +(I[2i + (j - 1) / 2 - -3]); }").body
    assert isinstance(stmt.body, ast.Contraction)
    (poly,) = stmt.body.inputs[0].indices
    assert ast.format_poly(poly) == "2 * i + (j - 1) / 2 - -3"
    jux = poly
    while isinstance(jux, ast.PolyBin) and jux.op != "*":
        jux = jux.lhs
    assert jux == ast.PolyBin("*", ast.PolyInt(2), ast.PolyName("i"))


def test_float_exponent_in_polynomial_context_is_a_product() -> None:
    # The contextual lexer never produces a float inside an index: `2e1` is `2 * e1`.
    (text,) = body_text("function (A[N]) -> (O) { O[e1 : N] = +(A[2e1]); }")
    assert text == "O[e1 : N] = +(A[2 * e1])"


def test_comments_attributes_and_options() -> None:
    src = """
    // a line comment
    function (I[N], D[N]) -> (O) {
      /* a block comment
         over two lines */
      [[pid(my_kernel)]] [[hint(a, B, 3)]] O[i : N] = +(I[i]), i < 3 default D no_defract;
    }
    """
    (stmt,) = parse_one(src).body
    assert [(a.name, a.params) for a in stmt.attributes] == [
        ("pid", ("my_kernel",)),
        ("hint", ("a", "B", "3")),
    ]
    body = stmt.body
    assert isinstance(body, ast.Contraction)
    assert body.default == "D" and body.no_defract
    line = src.splitlines()[5]
    assert body.default_span == Span("t.tile", 6, line.index("D no_defract") + 1)
    assert [ast.format_poly(c.poly) for c in body.constraints] == ["i"]


def test_ternary_and_equality_contractions() -> None:
    src = "function (A[N], B[N], C[N]) -> (O) { O[i : N] = >(A[i] == B[i] ? C[i]); }"
    (stmt,) = parse_one(src).body
    assert isinstance(stmt.body, ast.Contraction)
    assert stmt.body.comb == "==" and len(stmt.body.inputs) == 3


@pytest.mark.parametrize("agg", ["+", "*", ">", "<", "="])
def test_every_aggregation(agg: str) -> None:
    (stmt,) = parse_one(f"function (A[N]) -> (O) {{ O[i : N] = {agg}(A[i]); }}").body
    assert isinstance(stmt.body, ast.Contraction) and stmt.body.agg == agg


def test_output_forms() -> None:
    texts = body_text(
        "function (A[N]) -> (O) { O[] = +(A[i]); P[:] = +(A[i]); Q[i] = +(A[i]); R = A; }"
    )
    assert texts == ["O[] = +(A[i])", "P[:] = +(A[i])", "Q[i] = +(A[i])", "R = A"]


def test_signature_forms_dtypes_and_literal_dims() -> None:
    func = parse_one("function f(A, S[], B[N, 3]: i8, #c[2]) -> (O: fp16, P) { O = A; P = B; }")
    assert func.name == "f"
    a, s, b, c = func.inputs
    assert a.dims is None and s.dims == () and c.name == "c"
    assert b.dtype == "i8" and [(d.name, d.value) for d in b.dims or ()] == [("N", None), (None, 3)]
    assert [(o.name, o.dtype) for o in func.outputs] == [("O", "fp16"), ("P", None)]


def test_sigils_and_primes() -> None:
    # PlaidML lexes `#Name` as an upper-case name and `$name` as a lower-case one.
    (text,) = body_text("function (#x[N]) -> (Y') { Y'[$i : N] = +(#x[$i]); }")
    assert text == "Y'[i : N] = +(x[i])"


def test_several_named_functions() -> None:
    module = parse_tile(
        "function first(A) -> (B) { B = A; }\nfunction second(A) -> (B) { B = -A; }", "t.tile"
    )
    assert [f.name for f in module.functions] == ["first", "second"]
    assert module.functions[1].span == Span("t.tile", 2, 1)


@pytest.mark.parametrize(
    ("src", "message", "line", "col"),
    [
        (
            "function (A) -> (B) { B = A + ; }",
            "syntax error: unexpected ';', expected one of '(', '-', '~', a number, "
            "a tensor or size name, an index or function name, ...",
            1,
            31,
        ),
        (
            "function (A) -> (B) {\n  B[i] = +(A[i])\n}",
            "syntax error: unexpected '}', expected one of ';', ',', 'default', 'no_defract'",
            3,
            1,
        ),
        (
            "function (A) -> (B) { B = A @ 2; }",
            "syntax error: unexpected character '@', expected one of ';', ')', ']', ',', '!=', "
            "'&', ...",
            1,
            29,
        ),
        (
            "function (A) -> (B) { B = A;",
            "syntax error: unexpected end of input, expected one of '}', '[[', "
            "a tensor or size name",
            1,
            29,
        ),
        (
            "function (A) -> (B) { b = A; }",
            "syntax error: unexpected 'b', expected one of '}', '[[', a tensor or size name",
            1,
            23,
        ),
    ],
)
def test_syntax_errors(src: str, message: str, line: int, col: int) -> None:
    with pytest.raises(CompileError) as err:
        parse_tile(src, "bad.tile")
    (diag,) = err.value.diagnostics
    assert diag.message == message
    assert diag.span == Span("bad.tile", line, col)


def test_grammar_tables_are_cached_between_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lark's LALR analysis is kept under $PLAIDC_CACHE_DIR; a damaged file is rebuilt."""
    from plaidc.tile import parser

    monkeypatch.setenv("PLAIDC_CACHE_DIR", str(tmp_path))
    source = "function (A[N]) -> (B) { B = A; }"
    cached = tmp_path / "lark" / "tile.lark.cache"
    try:
        parser._lark.cache_clear()
        parser.parse_tile(source, "a.tile")
        assert cached.stat().st_size > 0
        cached.write_bytes(b"damaged")
        parser._lark.cache_clear()
        assert parser.parse_tile(source, "a.tile") is not None
    finally:
        parser._lark.cache_clear()
