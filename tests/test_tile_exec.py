"""Tile programs compiled to Stripe and run by the reference interpreter, against numpy written
here; and PlaidML's own reference programs against their expected outputs.

Every compiled program must also verify, and print/parse back to the same IR.
"""

from __future__ import annotations

import numpy as np
import pytest

from plaidc.interp import run_program
from plaidc.stripe.ir import Block, DType
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe
from plaidc.stripe.verify import verify
from plaidc.tile import compile_tile

from .support import REFERENCE, REFERENCE_PROGRAMS

RNG = np.random.default_rng(1234)

_DTYPES = {
    np.dtype(np.float32): DType.FP32,
    np.dtype(np.float64): DType.FP64,
    np.dtype(np.float16): DType.FP16,
    np.dtype(np.int8): DType.I8,
    np.dtype(np.int32): DType.I32,
    np.dtype(np.int64): DType.I64,
    np.dtype(np.bool_): DType.BOOL,
}


def compile_checked(src: str, inputs: dict[str, np.ndarray], **dims: int) -> Block:
    shapes = {k: (_DTYPES[v.dtype], v.shape) for k, v in inputs.items()}
    program = compile_tile(src, "t.tile", dims=dims, shapes=shapes).program
    assert [d.render() for d in verify(program)] == []
    assert parse_stripe(print_stripe(program), "t.stripe") == program
    return program


def run(src: str, inputs: dict[str, np.ndarray], **dims: int) -> dict[str, np.ndarray]:
    program = compile_checked(src, inputs, **dims)
    return dict(run_program(program, {k: v.copy() for k, v in inputs.items()}))


def rand(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def close(actual: np.ndarray, expected: np.ndarray) -> None:
    assert actual.shape == expected.shape
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5)


def test_matmul() -> None:
    a, b = rand(5, 7), rand(7, 3)
    src = "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }"
    out = run(src, {"A": a, "B": b})
    close(out["C"], a @ b)


def test_fp16_matmul_multiplies_exactly_and_rounds_once_as_numpy_does() -> None:
    """fp16 products of 300 x 300 overflow fp16 but not the fp32 accumulator: numpy's fp16
    matmul gives 300; products of 2^-25 round to 0 in fp16, their sum 2^-24 does not."""
    src = "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }"
    a = np.array([[300.0, -299.0], [2.0**-12, 2.0**-12]], np.float16)
    b = np.array([[300.0], [300.0]], np.float16)
    b_small = np.array([[2.0**-13], [2.0**-13]], np.float16)
    assert run(src, {"A": a, "B": b})["C"][0, 0] == (a @ b)[0, 0] == 300.0
    tiny = run(src, {"A": a, "B": b_small})["C"][1, 0]
    assert tiny == (a @ b_small)[1, 0] == np.float16(2.0**-24)
    # an fp16 sum of 3001 ones rounds once (3000), not stopping at 2048
    ones = np.ones((1, 3001), np.float16)
    total = run("function (A[M, K]) -> (C) { C[m : M] = +(A[m, k]); }", {"A": ones})["C"]
    assert total[0] == 3000.0


def test_fp16_contraction_with_a_default_accumulates_in_fp32_too() -> None:
    """`default D` initialises the fp32 temporary from D (exactly); the row the contraction
    writes is its exact sum (products of 300 overflow fp16 and cancel), the others keep D."""
    src = (
        "function (A[M, K], B[K, N], D[P, N]) -> (C) {"
        " C[m + 1, n : P, N] = +(A[m, k] * B[k, n]) default D; }"
    )
    a = np.array([[300.0, -299.0]], np.float16)
    b = np.array([[300.0], [300.0]], np.float16)
    d = np.full((3, 1), 7.0, np.float16)
    out = run(src, {"A": a, "B": b, "D": d})["C"]
    np.testing.assert_array_equal(out, np.array([[7.0], [300.0], [7.0]], np.float16))


def test_fp64_default_of_an_fp16_contraction_is_rounded_once() -> None:
    """Rows the contraction leaves take the default rounded to fp16 once (not via fp32)."""
    src = "function (A[M, K], D[P, N]) -> (C) { C[m, 0 : P, N] = +(A[m, k]) default D; }"
    a = np.ones((3, 5), np.float16)
    d = np.full((5, 1), 1 + 2.0**-11 + 2.0**-40, np.float64)
    out = run(src, {"A": a, "D": d})["C"]
    np.testing.assert_array_equal(out[3:], d[3:].astype(np.float16))  # 1.00098, not 1.0
    np.testing.assert_array_equal(out[:3], np.full((3, 1), 5.0, np.float16))


def test_same_tensor_twice_in_a_contraction() -> None:
    a = rand(4, 4)
    out = run("function (A[N, N]) -> (C) { C[i, j : N, N] = +(A[i, k] * A[k, j]); }", {"A": a})
    close(out["C"], a @ a)


def pad_conv_reference(x: np.ndarray, w: np.ndarray, stride: int, dil: int, pad: int) -> np.ndarray:
    """NHWC convolution with zero padding, stride and dilation, by loops."""
    n, h, wd, _ = x.shape
    kh, kw, _, co = w.shape
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    oh = (h + 2 * pad - dil * (kh - 1) - 1) // stride + 1
    ow = (wd + 2 * pad - dil * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, oh, ow, co), np.float32)
    for i in range(kh):
        for j in range(kw):
            patch = xp[
                :,
                i * dil : i * dil + stride * oh : stride,
                j * dil : j * dil + stride * ow : stride,
            ]
            out += np.einsum("nxyc,cd->nxyd", patch[:, :oh, :ow], w[i, j])
    return out


def test_conv_with_padding_via_constraints() -> None:
    x, w, b = rand(2, 6, 5, 3), rand(3, 3, 3, 4), rand(4)
    src = """function (I[N, H, W, CI], K[KH, KW, CI, CO], B[CO]) -> (R) {
      O[n, x, y, co : N, H, W, CO] = +(I[n, x + i - 1, y + j - 1, ci] * K[i, j, ci, co]);
      R = relu(O + B);
    }"""
    out = run(src, {"I": x, "K": w, "B": b})
    close(out["R"], np.maximum(pad_conv_reference(x, w, 1, 1, 1) + b, 0))


def test_strided_and_dilated_conv() -> None:
    x, w = rand(1, 11, 9, 2), rand(2, 3, 2, 3)
    src = """function (I[N, H, W, CI], K[KH, KW, CI, CO]) -> (O) {
      O[n, x, y, co : N, (H - 2 * (KH - 1) - 1) / 2 + 1, (W - 2 * (KW - 1) - 1) / 2 + 1, CO] =
          +(I[n, 2 * x + 2 * i, 2 * y + 2 * j, ci] * K[i, j, ci, co]);
    }"""
    close(run(src, {"I": x, "K": w})["O"], pad_conv_reference(x, w, 2, 2, 0))


def test_maxpool_2d_stride_2() -> None:
    x = rand(7, 6)
    src = (
        "function (I[H, W]) -> (O) { O[x, y : H / 2, W / 2] = >(I[2x + i, 2y + j]), i < 2, j < 2; }"
    )
    close(run(src, {"I": x})["O"], x[:6].reshape(3, 2, 3, 2).max(axis=(1, 3)))


def test_cumsum() -> None:
    x = rand(9)
    out = run("function (I[N]) -> (O) { O[i : N] = +(I[k]), i - k < N; }", {"I": x})
    close(out["O"], np.cumsum(x))


def test_tile_md_softmax() -> None:
    x = rand(4, 6)
    src = """function (X[B, N]) -> (Y) {
      M[b, 0 : B, 1] = >(X[b, n]);  E = exp(X - M);  S[b, 0 : B, 1] = +(E[b, n]);  Y = E / S;
    }"""
    e = np.exp(x - x.max(axis=1, keepdims=True))
    close(run(src, {"X": x})["Y"], e / e.sum(axis=1, keepdims=True))


def test_builtin_softmax_and_logsoftmax_expand() -> None:
    x = rand(3, 5)
    src = """function (X[R, C]) -> (Y, L) {
      Y = builtin_softmax(X, R, C);  L = builtin_logsoftmax(X * 2, R, C);
    }"""
    out = run(src, {"X": x})
    e = np.exp(x - x.max(axis=1, keepdims=True))
    close(out["Y"], e / e.sum(axis=1, keepdims=True))
    x2 = 2 * x
    close(
        out["L"],
        x2
        - x2.max(1, keepdims=True)
        - np.log(np.exp(x2 - x2.max(1, keepdims=True)).sum(1, keepdims=True)),
    )


def test_builtin_softmax_temporaries_leave_later_names_free() -> None:
    # The expansion's temporaries (Y_max, Y_exp, ...) must not take a name that a later
    # statement assigns: that was reported as `Reassignment to Y_exp`.
    x = rand(3, 5)
    src = """function (X[R, C]) -> (Z) {
      Y = builtin_softmax(X, R, C);  Y_exp = X * 2;  Z = Y + Y_exp;
    }"""
    e = np.exp(x - x.max(axis=1, keepdims=True))
    close(run(src, {"X": x})["Z"], e / e.sum(axis=1, keepdims=True) + 2 * x)


def test_one_hot() -> None:
    idx = np.array([2, 0, 4, 4], np.int32)
    count = np.arange(5, dtype=np.int32)
    src = "function (Idx[B], Count[C]) -> (O) { O[b, c : B, C] = =(Idx[b] == Count[c]); }"
    out = run(src, {"Idx": idx, "Count": count})["O"]
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out, np.eye(5, dtype=bool)[idx])


def test_ternary_contraction_argmax() -> None:
    x = rand(4, 7)
    src = """function (X[B, N]) -> (O) {
      M[b : B] = >(X[b, n]);
      J = index(X, 1);
      O[b : B] = >(X[b, n] == M[b] ? J[b, n]);
    }"""
    out = run(src, {"X": x})["O"]
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, x.argmax(axis=1))


def test_tile_no_defract_example() -> None:
    a = rand(10, 20)
    src = "function (A[H, W]) -> (O) { O[x + 10*i, y + 20*j : 50, 80] = =(A[x, y]) no_defract; }"
    np.testing.assert_array_equal(run(src, {"A": a})["O"], np.tile(a, (5, 4)))


def test_defract_rational_coefficients() -> None:
    # A transposed (fractionally strided) convolution: only integer (i - j + 1) / 2 count.
    x, k = rand(5), rand(3)
    src = "function (I[N], K[KK]) -> (O) { O[i : 2 * N] = +(I[(i - j + 1) / 2] * K[j]); }"
    expected = np.zeros(10, np.float32)
    for i in range(10):
        for j in range(3):
            if (i - j + 1) % 2 == 0 and 0 <= (i - j + 1) // 2 < 5:
                expected[i] += x[(i - j + 1) // 2] * k[j]
    close(run(src, {"I": x, "K": k})["O"], expected)


def test_defract_upsample() -> None:
    x = rand(4)
    out = run("function (I[N]) -> (O) { O[i : 2 * N] = +(I[i / 2]); }", {"I": x})["O"]
    expected = np.zeros(8, np.float32)
    expected[::2] = x
    close(out, expected)


def test_default_fills_unreached_elements() -> None:
    a, d = rand(4), rand(6)
    out = run(
        "function (A[N], D[M]) -> (O) { O[i + 1 : M] = +(A[i]) default D; }", {"A": a, "D": d}
    )
    expected = d.copy()
    expected[1:5] = a
    close(out["O"], expected)


def test_unreached_elements_are_zero_for_every_aggregation() -> None:
    x = rand(3) + 5
    for agg, fn in [("+", np.add), ("*", np.multiply), (">", np.maximum), ("<", np.minimum)]:
        out = run(f"function (A[N]) -> (O) {{ O[2 * i : 6] = {agg}(A[i]); }}", {"A": x})["O"]
        expected = np.zeros(6, np.float32)
        expected[::2] = fn.reduce(x[:, None], axis=1)
        close(out, expected)


def test_product_and_min_aggregations() -> None:
    x = rand(3, 4)
    src = "function (A[M, N]) -> (P, Q) { P[i : M] = *(A[i, j]); Q[j : N] = <(A[i, j]); }"
    out = run(src, {"A": x})
    close(out["P"], x.prod(axis=1))
    close(out["Q"], x.min(axis=0))


def test_scalar_output_and_scalar_input() -> None:
    x, s = rand(3, 4), np.array(1.5, np.float32)
    out = run("function (A[M, N], S[]) -> (T) { T[] = +(A[i, j] * S[]); }", {"A": x, "S": s})
    close(out["T"], np.array(x.sum() * 1.5, np.float32))


def test_broadcasting_constants_and_bind_time_values() -> None:
    a, b, s = rand(3, 1, 4), rand(5, 1), np.array(2.5, np.float32)
    src = """function (A[X, Y, Z], B[P, Q], S[]) -> (O) {
      Two = 2;  Half = Two / 4.0;  O = A * B + S * Two - X + Half;
    }"""
    close(run(src, {"A": a, "B": b, "S": s})["O"], a * b + 2.5 * 2 - 3 + 0.5)


def test_integer_types_and_literal_promotion() -> None:
    a = RNG.integers(-5, 5, (4, 3)).astype(np.int8)
    b = RNG.integers(-5, 5, (3, 2)).astype(np.int32)
    src = """function (A[M, K], B[K, N]) -> (C, D, E) {
      C[m, n : M, N] = +(A[m, k] * B[k, n]);  D = A + 1;  E = C > 0;
    }"""
    out = run(src, {"A": a, "B": b})
    assert out["C"].dtype == np.int32 and out["D"].dtype == np.int8 and out["E"].dtype == np.bool_
    c = a.astype(np.int32) @ b
    np.testing.assert_array_equal(out["C"], c)
    np.testing.assert_array_equal(out["D"], a + np.int8(1))
    np.testing.assert_array_equal(out["E"], c > 0)


def test_casts_index_and_shape() -> None:
    v = rand(5, 3)
    src = """function (V[N, C]) -> (F, J, Sh) {
      F = as_float(as_int(V * 10, 32), 64);  J = index(V, 1) * 10 + index(V, 0);  Sh = shape(V);
    }"""
    out = run(src, {"V": v})
    assert out["F"].dtype == np.float64
    np.testing.assert_array_equal(out["F"], np.trunc(v * 10).astype(np.float64))
    np.testing.assert_array_equal(out["J"], np.arange(3)[None, :] * 10 + np.arange(5)[:, None])
    np.testing.assert_array_equal(out["Sh"], [5, 3])


def test_gather_scatter_reshape() -> None:
    v, idx = rand(5, 3), np.array([4, 0, 2, 2], np.int32)
    src = """function (V[N, C], Ix[M]) -> (G, S, R) {
      G = gather(V, Ix);  S = scatter(G, Ix, V);  R = reshape(V, 3, N);
    }"""
    out = run(src, {"V": v, "Ix": idx})
    close(out["G"], v[idx])
    scattered = np.zeros_like(v)
    np.add.at(scattered, idx, v[idx])
    close(out["S"], scattered)
    close(out["R"], v.reshape(3, 5))


def test_constant_output() -> None:
    out = run("function (A[N]) -> (O, P) { O = 3; P = A * 0 + O; }", {"A": rand(2)})
    assert out["O"].shape == () and out["O"] == 3
    close(out["P"], np.full(2, 3, np.float32))


def test_entry_selects_function() -> None:
    src = "function a(X[N]) -> (Y) { Y = X + 1; }\nfunction b(X[N]) -> (Y) { Y = X * 3; }"
    x = rand(3)
    shapes = {"X": (DType.FP32, (3,))}
    for entry, expected in [(None, x + 1), ("a", x + 1), ("b", x * 3)]:
        program = compile_tile(src, "t.tile", shapes=shapes, entry=entry).program
        close(run_program(program, {"X": x})["Y"], expected)


@pytest.mark.parametrize("name", REFERENCE_PROGRAMS)
def test_plaidml_reference_program(name: str) -> None:
    folder = REFERENCE / name
    with np.load(folder / "inputs.npz") as data:
        inputs = {k: data[k] for k in data.files}
    with np.load(folder / "expected.npz") as data:
        expected = {k: data[k] for k in data.files}
    out = run((folder / "program.tile").read_text(), inputs)
    assert set(out) == set(expected)
    for key, want in expected.items():
        close(out[key], want)


def test_reference_programs_are_present() -> None:
    # Guards the parametrised test above against silently collecting nothing.
    assert len(REFERENCE_PROGRAMS) >= 5


def test_intrinsics_callable_by_name() -> None:
    a, b = rand(5), rand(5)
    src = "function (A[N], B[N]) -> (C) { C = cond(cmp_lt(A, B), add(A, 1), neg(B)); }"
    close(run(src, {"A": a, "B": b})["C"], np.where(a < b, a + 1, -b))


def test_sigils_decide_index_or_size_whatever_the_case() -> None:
    # TILE.md: `#Name` lexes as an upper-case name (a size) and `$name` as a lower-case one (an
    # index variable), also when the letter after the sigil has the other case.
    x = rand(4)
    src = "function (A[#n]) -> (O) { O[$J : #n] = =(A[#n - 1 - $J]); }"
    close(run(src, {"A": x})["O"], x[::-1])


def test_names_stripe_cannot_spell_and_scalar_name_clashes() -> None:
    # `#t0` is a tensor named t0: its load `$t0` must not clash with a temporary's name.
    x, y = rand(3), rand(3)
    src = "function (#t0[N], Y_p[N]) -> (Y') { Y' = #t0 * 2 + Y_p * #t0; }"
    program = compile_checked(src, {"t0": x, "Y_p": y})
    out = run_program(program, {"t0": x, "Y_p": y})
    assert list(out) == ["Y_p1"]  # `Y'` renamed, avoiding the input Y_p
    close(out["Y_p1"], x * 2 + y * x)
