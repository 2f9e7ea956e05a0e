"""Every intrinsic of TILE.md (plus `assign`) in the interpreter, against numpy references."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from plaidc.interp import InterpError, run_program
from plaidc.stripe.ir import (
    Affine,
    Block,
    Constant,
    DType,
    Index,
    Intrinsic,
    Load,
    RefDir,
    Refinement,
    Statement,
    Store,
    TensorShape,
)

F32, I32, BOOL = DType.FP32, DType.I32, DType.BOOL


def _ref(direction: str, name: str, n: int, dtype: DType, point: bool) -> Refinement:
    return Refinement(
        dir=RefDir(direction),
        from_=name,
        into=name,
        access=(Affine.var("i") if point else Affine(),),
        shape=TensorShape(dtype, (1 if point else n,), (1,)),
    )


def eltwise(
    name: str,
    in_dtypes: Sequence[DType],
    out_dtype: DType,
    n: int,
    constants: Sequence[Constant] = (),
    extra: Sequence[Statement] = (),
) -> Block:
    """`O[i] = name($x0, ..., constants...)` over inputs I0, I1, ... then `extra` statements.

    The intrinsic's result is `$r`; `extra` may compute `$y` from it, else `$r` is stored.
    """
    ins = [f"I{k}" for k in range(len(in_dtypes))]
    args = [f"$x{k}" for k in range(len(ins))] + [c.name for c in constants]
    body: list[Statement] = [Load(from_=r, into=f"$x{k}") for k, r in enumerate(ins)]
    body += [*constants, Intrinsic(name=name, inputs=tuple(args), outputs=("$r",)), *extra]
    body.append(Store(from_="$y" if extra else "$r", into="O"))
    refs = [_ref("in", r, n, d, True) for r, d in zip(ins, in_dtypes, strict=True)]
    kernel = Block(
        name="k",
        idxs=(Index("i", n),),
        refs=(*refs, _ref("out", "O", n, out_dtype, True)),
        stmts=tuple(body),
    )
    params = [_ref("in", r, n, d, False) for r, d in zip(ins, in_dtypes, strict=True)]
    return Block(
        name="program", refs=(*params, _ref("out", "O", n, out_dtype, False)), stmts=(kernel,)
    )


def run(prog: Block, *arrays: np.ndarray) -> np.ndarray:
    return run_program(prog, {f"I{k}": a for k, a in enumerate(arrays)})["O"]


X = np.array([-2.5, -0.75, -0.1, 0.0, 0.3, 0.9, 1.7, 3.25], np.float32)
Y = np.array([1.5, -0.75, 2.0, 0.5, 0.3, -4.0, 1.7, 0.25], np.float32)
UNIT = np.array([-0.99, -0.5, -0.1, 0.0, 0.2, 0.6, 0.8, 0.95], np.float32)
POS = np.array([0.01, 0.3, 0.5, 1.0, 2.0, 7.5, 40.0, 1e3], np.float32)

UNARY_FLOAT: list[tuple[str, np.ndarray, Callable[[np.ndarray], np.ndarray]]] = [
    ("abs", X, np.abs),
    ("acos", UNIT, np.arccos),
    ("asin", UNIT, np.arcsin),
    ("atan", X, np.arctan),
    ("ceil", X, np.ceil),
    ("cos", X, np.cos),
    ("cosh", X, np.cosh),
    ("exp", X, np.exp),
    ("floor", X, np.floor),
    ("log", POS, np.log),
    ("neg", X, np.negative),
    ("recip", POS, lambda x: 1.0 / x),
    ("relu", X, lambda x: np.where(x > 0, x, 0)),
    ("sigmoid", X, lambda x: 1.0 / (1.0 + np.exp(-x.astype(np.float64)))),
    ("sin", X, np.sin),
    ("sinh", X, np.sinh),
    ("sqrt", POS, np.sqrt),
    ("tan", UNIT, np.tan),
    ("tanh", X, np.tanh),
    ("ident", X, lambda x: x),
    ("assign", X, lambda x: x),
]


@pytest.mark.parametrize(
    ("name", "data", "reference"), UNARY_FLOAT, ids=[c[0] for c in UNARY_FLOAT]
)
def test_unary_float(
    name: str, data: np.ndarray, reference: Callable[[np.ndarray], np.ndarray]
) -> None:
    out = run(eltwise(name, [F32], F32, data.size), data)
    np.testing.assert_allclose(out, reference(data.astype(np.float64)), rtol=1e-6, atol=1e-7)


def test_round_is_half_away_from_zero() -> None:
    data = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49999997, -3.7], np.float32)
    out = run(eltwise("round", [F32], F32, data.size), data)
    np.testing.assert_array_equal(out, [-3, -2, -1, 1, 2, 3, 0, -4])


BINARY_FLOAT: list[tuple[str, Callable[[np.ndarray, np.ndarray], np.ndarray]]] = [
    ("add", np.add),
    ("sub", np.subtract),
    ("mul", np.multiply),
    ("div", np.divide),
    ("max", np.maximum),
    ("min", np.minimum),
]


@pytest.mark.parametrize(("name", "reference"), BINARY_FLOAT, ids=[c[0] for c in BINARY_FLOAT])
def test_binary_float(name: str, reference: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> None:
    out = run(eltwise(name, [F32, F32], F32, X.size), X, Y)
    np.testing.assert_allclose(out, reference(X.astype(np.float64), Y), rtol=1e-6)


def test_pow() -> None:
    out = run(eltwise("pow", [F32, F32], F32, POS.size), POS, Y)
    np.testing.assert_allclose(out, np.power(POS.astype(np.float64), Y), rtol=1e-5)


COMPARISONS = [
    ("cmp_eq", np.equal),
    ("cmp_ne", np.not_equal),
    ("cmp_lt", np.less),
    ("cmp_gt", np.greater),
    ("cmp_le", np.less_equal),
    ("cmp_ge", np.greater_equal),
]


@pytest.mark.parametrize(("name", "reference"), COMPARISONS, ids=[c[0] for c in COMPARISONS])
def test_comparisons_give_bool(
    name: str, reference: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> None:
    # Stored into i32 so that a non-bool result (e.g. the difference) would show.
    out = run(eltwise(name, [F32, F32], I32, X.size), X, Y)
    np.testing.assert_array_equal(out, reference(X, Y).astype(np.int32))


def test_cond_selects() -> None:
    mask = np.array([True, False, True, False, True, True, False, False])
    out = run(eltwise("cond", [BOOL, F32, F32], F32, X.size), mask, X, Y)
    np.testing.assert_array_equal(out, np.where(mask, X, Y))


def test_cond_with_int_literal_keeps_float() -> None:
    # PlaidML's relu: cond(cmp_lt(x, 0), 0, x) with `(int)0` literals.
    prog = eltwise(
        "cmp_lt",
        [F32],
        F32,
        X.size,
        [Constant(name="$zero", value=0, type="int")],
        [Intrinsic(name="cond", inputs=("$r", "$zero", "$x0"), outputs=("$y",))],
    )
    np.testing.assert_array_equal(run(prog, X), np.maximum(X, 0))


A_INT = np.array([-7, 7, -7, 7, 9, -9, 0, 100], np.int32)
B_INT = np.array([2, 2, -2, -2, 3, 4, 5, -7], np.int32)


def test_integer_division_truncates_like_c() -> None:
    out = run(eltwise("div", [I32, I32], I32, A_INT.size), A_INT, B_INT)
    expected = [math.trunc(int(a) / int(b)) for a, b in zip(A_INT, B_INT, strict=True)]
    np.testing.assert_array_equal(out, expected)
    assert out.tolist()[:4] == [-3, 3, 3, -3]


def test_integer_division_by_literal() -> None:
    prog = eltwise("div", [I32], I32, A_INT.size, [Constant(name="$two", value=2, type="int")])
    np.testing.assert_array_equal(run(prog, A_INT), [-3, 3, -3, 3, 4, -4, 0, 50])


BITWISE = [
    ("bit_and", np.bitwise_and),
    ("bit_or", np.bitwise_or),
    ("bit_xor", np.bitwise_xor),
    ("bit_left", np.left_shift),
    ("bit_right", np.right_shift),
]


@pytest.mark.parametrize(("name", "reference"), BITWISE, ids=[c[0] for c in BITWISE])
def test_bitwise(name: str, reference: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> None:
    shifts = np.abs(B_INT)
    out = run(eltwise(name, [I32, I32], I32, A_INT.size), A_INT, shifts)
    np.testing.assert_array_equal(out, reference(A_INT, shifts))


def test_bit_not() -> None:
    out = run(eltwise("bit_not", [I32], I32, A_INT.size), A_INT)
    np.testing.assert_array_equal(out, -A_INT - 1)


def test_bitwise_on_floats_raises() -> None:
    with pytest.raises(InterpError, match="intrinsic 'bit_and' cannot apply to"):
        run(eltwise("bit_and", [F32, F32], F32, X.size), X, Y)


def _width(bits: int) -> list[Constant]:
    return [Constant(name="$w", value=bits, type="int")]


def _plus(value: int) -> list[Statement]:
    """`$y = $r + (int)value`: the sum is computed in `$r`'s type, which shows it."""
    return [
        Constant(name="$k", value=value, type="int"),
        Intrinsic(name="add", inputs=("$r", "$k"), outputs=("$y",)),
    ]


def test_as_int_truncates_and_yields_its_width() -> None:
    data = np.array([-3.7, 2.9, 100.2, -128.0], np.float32)
    prog = eltwise("as_int", [F32], I32, data.size, _width(8), _plus(100))
    # 100 + 100 wraps in i8: the result type is i8.
    np.testing.assert_array_equal(run(prog, data), [97, 102, -56, -28])


def test_as_uint_wraps() -> None:
    data = np.array([-1, 255, 256, 7], np.int32)
    prog = eltwise("as_uint", [I32], I32, data.size, _width(8))
    np.testing.assert_array_equal(run(prog, data), [255, 255, 0, 7])


def test_as_float_rounds_to_its_width() -> None:
    data = np.array([2049, 1, -3, 65504], np.int32)
    prog = eltwise("as_float", [I32], F32, data.size, _width(16))
    np.testing.assert_array_equal(run(prog, data), [2048, 1, -3, 65504])


def test_as_float_64_keeps_precision() -> None:
    data = np.array([2**40 + 1, 3], np.int64)
    prog = eltwise("as_float", [DType.I64], DType.FP64, data.size, _width(64))
    np.testing.assert_array_equal(run(prog, data), [2.0**40 + 1, 3.0])


def test_as_bool() -> None:
    data = np.array([0.0, 0.5, -2.0, 0.0], np.float32)
    prog = eltwise("as_bool", [F32], I32, data.size)
    np.testing.assert_array_equal(run(prog, data), [0, 1, 1, 0])


def test_bad_cast_width_raises() -> None:
    prog = eltwise("as_int", [F32], I32, 2, _width(12))
    with pytest.raises(InterpError, match="bit width 12"):
        run(prog, np.zeros(2, np.float32))


def test_float_literal_adopts_fp16() -> None:
    # fp16 * (float)0.1 is computed in fp16, so the product carries fp16 rounding.
    data = np.array([3.0, 7.0, 1000.0, -5.0], np.float16)
    prog = eltwise(
        "mul", [DType.FP16], F32, data.size, [Constant(name="$c", value=0.1, type="float")]
    )
    np.testing.assert_array_equal(run(prog, data), (data * np.float16(0.1)).astype(np.float32))


def test_wrong_arity_raises() -> None:
    with pytest.raises(InterpError, match="intrinsic 'add' takes 2 inputs, got 1"):
        run(eltwise("add", [F32], F32, 2), np.zeros(2, np.float32))
