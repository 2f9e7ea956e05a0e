"""Diagnostics of the Tile frontend: each error kind with its exact message and position, every
error of a program reported in one run, binding errors and warnings."""

from __future__ import annotations

import pytest

from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.stripe.ir import DType
from plaidc.tile import compile_tile

Shapes = dict[str, tuple[DType, tuple[int, ...]]]


def errors(
    src: str, dims: dict[str, int] | None = None, shapes: Shapes | None = None
) -> list[Diagnostic]:
    with pytest.raises(CompileError) as err:
        compile_tile(src, "e.tile", dims=dims or {}, shapes=shapes or {})
    return err.value.diagnostics


def where(d: Diagnostic) -> tuple[int, int]:
    assert d.span is not None and d.span.file == "e.tile"
    return d.span.line, d.span.col


def col_of(src: str, needle: str, nth: int = 0) -> int:
    """1-based column of the nth occurrence of `needle` in a one-line source."""
    pos = -1
    for _ in range(nth + 1):
        pos = src.index(needle, pos + 1)
    return pos + 1


@pytest.mark.parametrize(
    ("src", "needle", "message"),
    [
        (
            "function (A[N]) -> (B) { B = expp(A); }",
            "expp",
            "unknown function 'expp'; did you mean 'exp'?",
        ),
        ("function (A[N]) -> (B) { B = frobnicate(A); }", "frob", "unknown function 'frobnicate'"),
        ("function (A[N]) -> (B) { B = Q + 1; }", "Q", "undefined name Q"),
        ("function (A[N]) -> (B) { B = Aa + 1; }", "Aa", "undefined name Aa; did you mean 'A'?"),
        (
            "function (A[N], C[M]) -> (B) { B = A + C; }",
            "+",
            "shape mismatch: A has shape [4] and C has shape [3]; they cannot be broadcast "
            "together",
        ),
        (
            "function (I[N]) -> (O) { O[i : N] = +(I[i]), k < 3; }",
            "k <",
            "index k appears only in constraints; every index must index a tensor",
        ),
        ("function (I[N]) -> (O, P) { O = I; }", "P", "output P is never assigned"),
        (
            "function (I[N]) -> (O) { O[i : 2] = =(I[j]); }",
            "=(",
            "'=' contraction assigns an element of O more than once: i=0, j=0 and i=0, j=1 "
            "both write O[0]",
        ),
        (
            "function (I[N]) -> (O) { O[i * j : N] = +(I[i]); }",
            "*",
            "index polynomial is not affine: cannot multiply two index expressions",
        ),
        (
            "function (I[N]) -> (O) { O[i : N] = +(I[i / j]); }",
            "/",
            "cannot divide by an index expression",
        ),
        (
            "function (I[N]) -> (O) { O[i + j : N] = +(I[i + j]); }",
            "i +",
            "cannot infer a finite range for index i; bound it with a constraint such as `i < N`",
        ),
        (
            "function (I[N]) -> (O) { O[i : N] = +(I[i, i]); }",
            "I[i,",
            "I has 1 dimensions but is indexed with 2 indices",
        ),
        (
            "function (I[N]) -> (O) { O[i] = +(I[i]); }",
            "O[",
            "the sizes of O are missing: write O[i, ... : SIZE, ...]",
        ),
        ("function (I[N]) -> (O) { O[i, j : N] = +(I[i]); }", "O[", "O has 2 indices but 1 sizes"),
        (
            "function (A[N], B[N], C[N]) -> (O) { O[i : N] = +(A[i] * B[i] ? C[i]); }",
            "* B",
            "the ternary contraction needs '==' (A == B ? C), not '*'",
        ),
        (
            "function (A[N], D[M]) -> (O) { O[i : N] = +(A[i]) default D; }",
            "D;",
            "default D has shape [3] but O has shape [4]",
        ),
        (
            "function (A[N]) -> (O) { O = reshape(A, 3); }",
            "reshape",
            "cannot reshape A of shape [4] (4 elements) to [3] (3 elements)",
        ),
        (
            "function (A[N]) -> (O) { O = exp(reshape(A, 4)); }",
            "reshape",
            "reshape(...) must be the whole right-hand side of a statement",
        ),
        (
            "function (A[N]) -> (O) { O = as_float(A, 8); }",
            "8",
            "as_float takes a bit width of 16|32|64, not 8",
        ),
        ("function (A[N]) -> (O) { O = A & 1; }", "&", "bit_and needs integer operands, not fp32"),
        ("function (A[N]) -> (O) { O = exp(A, A); }", "exp", "exp takes 1 arguments, not 2"),
        ("function (A[N]) -> (O: i32) { O = A; }", "i32", "output O is fp32 but is declared i32"),
        (
            "function (A[N]) -> (O) { O[i : N / 0] = +(A[i]); }",
            "/",
            "division by zero in a size",
        ),
        (
            "function (A[N]) -> (O) { O[i : A] = +(A[i]); }",
            "A]",
            "A is a tensor, but the size must be known when binding",
        ),
        ("function (A[N]) -> (A) { }", "A)", "A is both an input and an output"),
        (
            "function (A[N]) -> (O) { O = -(A > 0); }",
            "-(A",
            "unary minus needs a number, not bool (use ~ for logical not, or as_int first)",
        ),
        (
            "function (A[N]) -> (O) { O = (A > 0) - (A < 1); }",
            "- (A <",
            "subtraction needs numbers, not two bools (use != for exclusive or, or as_int first)",
        ),
    ],
)
def test_single_error(src: str, needle: str, message: str) -> None:
    (diag,) = errors(src, dims={"N": 4, "M": 3})
    assert diag.message == message
    assert where(diag) == (1, col_of(src, needle))


def test_reassignment_points_at_both_definitions() -> None:
    src = "function (A[N]) -> (B) {\n  B = A;\n  B[i : N] = +(A[i]);\n}"
    (diag,) = errors(src, dims={"N": 4})
    assert diag.message == "Reassignment to B"
    assert where(diag) == (3, 3)
    assert diag.notes == ("B was first defined at e.tile:2:3",)


def test_several_errors_reported_in_one_run() -> None:
    src = """function (A[N], X) -> (B) {
  B = expp(A) + Zz;
  C[i] = +(A[i]);
  D[i, j : N, N] = +(A[i * j]);
  E = reshape(A, 3);
  F = A + G;
}"""
    diags = errors(src, dims={"N": 4})
    assert [(d.message, where(d)) for d in diags] == [
        (
            "input X has no declared shape; bind it with --shape X=fp32[..] or --input X=file.npy",
            (1, 17),
        ),
        ("unknown function 'expp'; did you mean 'exp'?", (2, 7)),
        ("undefined name Zz", (2, 17)),
        ("the sizes of C are missing: write C[i, ... : SIZE, ...]", (3, 3)),
        ("index polynomial is not affine: cannot multiply two index expressions", (4, 26)),
        ("cannot reshape A of shape [4] (4 elements) to [3] (3 elements)", (5, 7)),
        ("undefined name G", (6, 11)),
    ]


def test_a_failed_statement_does_not_cascade() -> None:
    # T's definition fails; its later uses are not reported again.
    src = "function (A[N]) -> (B) { T = frobnicate(A); U = T + 1; B = U * T; }"
    (diag,) = errors(src, dims={"N": 4})
    assert diag.message == "unknown function 'frobnicate'"


def test_rendering_has_file_line_col_and_caret() -> None:
    src = "function (A[N]) -> (B) {\n  B = exp(A) + Q;\n}"
    (diag,) = errors(src, dims={"N": 2})
    assert diag.render(src) == (
        "e.tile:2:16: error: undefined name Q\n  B = exp(A) + Q;\n               ^"
    )


# ---- binding --------------------------------------------------------------------------------


def test_unbound_dimension_says_how_to_bind_it() -> None:
    (diag,) = errors("function (A[M, K]) -> (B) { B = A; }", dims={"K": 3})
    assert diag.message == (
        "cannot bind dimension M of input A; bind it with -D M=<size>, --shape A=fp32[..] or "
        "--input A=file.npy"
    )
    assert where(diag) == (1, 13)


def test_dimension_bound_twice_names_both_places() -> None:
    src = "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }"
    shapes: Shapes = {"A": (DType.FP32, (2, 4)), "B": (DType.FP32, (5, 3))}
    (diag,) = errors(src, shapes=shapes)
    assert diag.message == (
        "dimension K is bound to 4 by the shape of A and to 5 by the shape of B"
    )
    assert where(diag) == (1, 22)
    assert diag.notes == ("K = 4 comes from the shape of A at e.tile:1:16",)


def test_shape_rank_mismatch() -> None:
    (diag,) = errors("function (A[M, K]) -> (B) { B = A; }", shapes={"A": (DType.FP32, (2, 3, 4))})
    assert diag.message == "input A is declared with 2 dimensions but its shape [2, 3, 4] has 3"


def test_unknown_dtype_annotation() -> None:
    (diag,) = errors("function (A[N]: fp31) -> (B) { B = A; }", dims={"N": 2})
    assert diag.message.startswith("unknown type fp31; expected one of bool i8")
    assert where(diag) == (1, 17)


def test_unknown_entry() -> None:
    with pytest.raises(CompileError) as err:
        compile_tile("function f(A) -> (B) { B = A; }", "e.tile", entry="g")
    assert err.value.diagnostics[0].message == "no function named 'g' in e.tile (f)"


def test_two_functions_of_one_name_are_an_error() -> None:
    text = "function f(A) -> (B) { B = A; }\nfunction f(A) -> (B) { B = A * 2; }\n"
    with pytest.raises(CompileError) as err:
        compile_tile(text, "e.tile", shapes={"A": (DType.FP32, (2,))})
    (diag,) = err.value.diagnostics
    assert diag.message == "two functions are named 'f' (the first at e.tile:1:1); rename one"
    assert where(diag) == (2, 1)


def test_a_d_name_the_function_does_not_have_is_a_warning() -> None:
    src = "function (A[N]) -> (B) { C = N * 2; B[i : C] = +(A[i / 2]); }"
    result = compile_tile(src, "e.tile", dims={"N": 3, "Q": 4})
    assert [w.message for w in result.warnings] == ["-D Q=4 is ignored: the function has no Q"]


def test_binding_precedence_shapes_over_dims_over_literals() -> None:
    src = "function (A[M, 3], B[M]) -> (C) { C = A; }"
    # -D M=5 loses to the shape of A; the literal 3 loses to the shape too (with warnings).
    result = compile_tile(
        src, "e.tile", dims={"M": 5}, shapes={"A": (DType.FP32, (2, 4)), "B": (DType.FP32, (2,))}
    )
    messages = [w.message for w in result.warnings]
    assert messages == [
        "-D M=5 is ignored: the shape of A binds M to 2",
        "dimension declared as 3 is 4 in the shape of A; using 4",
        "unused input B",
    ]
    assert all(w.severity == "warning" for w in result.warnings)
    c = result.program.ref("C")
    assert c is not None and c.shape.sizes == (2, 4)


def test_dims_bind_when_no_shape_is_given() -> None:
    result = compile_tile("function (A[M, 3]) -> (C) { C = A; }", "e.tile", dims={"M": 5})
    c = result.program.ref("C")
    assert c is not None and c.shape.sizes == (5, 3)
    assert result.warnings == []


def test_unused_input_warning_position() -> None:
    result = compile_tile("function (A[N], Unused[N]) -> (C) { C = A; }", "e.tile", dims={"N": 2})
    (warning,) = result.warnings
    assert warning.message == "unused input Unused"
    assert warning.span is not None and (warning.span.line, warning.span.col) == (1, 17)


def test_empty_contraction_warns() -> None:
    result = compile_tile(
        "function (A[N]) -> (O) { O[i : N] = +(A[i]), i - 10 < 1; }", "e.tile", dims={"N": 4}
    )
    assert [w.message for w in result.warnings] == [
        "contraction has no valid index assignment; O is all zeros"
    ]


def test_shape_for_a_name_that_is_not_an_input_warns() -> None:
    result = compile_tile(
        "function (A[N]) -> (C) { C = A; }",
        "e.tile",
        shapes={"A": (DType.FP32, (2,)), "Nope": (DType.FP32, (3,))},
    )
    assert [w.message for w in result.warnings] == [
        "Nope is not an input of the function; its shape is ignored"
    ]


@pytest.mark.parametrize(
    ("src", "needle", "value", "dtype"),
    [
        ("function (A[N]) -> (O) { O = A * -1; }", "-1", -1, "u8"),
        ("function (A[N]) -> (O) { O = A + 300; }", "300", 300, "u8"),
        ("function (A[N]) -> (O) { O = max(A, -1); }", "-1", -1, "u8"),
        ("function (A[N]) -> (O) { O = A > 0 ? A : 128; }", "128", 128, "i8"),
    ],
)
def test_integer_literal_outside_the_type_it_adopts(
    src: str, needle: str, value: int, dtype: str
) -> None:
    """TILE.md: an integer literal adopts the other operand's type; one that does not fit is
    a located error, not a silent wrap-around (comparisons compare numbers: `u8 > -1` holds)."""
    (diag,) = errors(src, shapes={"A": (DType(dtype), (4,))})
    assert diag.message.startswith(f"integer literal {value} does not fit {dtype}")
    assert where(diag) == (1, col_of(src, needle))
    compile_tile(
        "function (A[N]) -> (O, P) { O = A > -1; P = A == 256; }",
        "ok.tile",
        shapes={"A": (DType(dtype), (4,))},
    )
