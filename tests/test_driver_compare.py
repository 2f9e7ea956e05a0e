"""`driver.compare_outputs`, the oracle of `plaidc run --check` and of the differential tests:
integers are compared exactly, as integers, and reported as integers."""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver


@pytest.mark.parametrize(
    ("dtype", "want", "got"),
    [
        (np.uint64, 2**64 - 3, 2**64 - 1),  # equal once both are float64
        (np.int64, 2**62 + 1, 2**62),
        (np.uint32, 2**32 - 3, 2**32 - 1),
        (np.int8, -128, 127),
    ],
)
def test_integers_differing_in_their_low_bits_are_a_mismatch(
    dtype: type, want: int, got: int
) -> None:
    expected = {"O": np.full(4, want, dtype=dtype)}
    actual = {"O": np.full(4, got, dtype=dtype)}
    (problem,) = driver.compare_outputs(expected, actual)
    assert f"got {got}, expected {want}" in problem.message
    assert "differs at 4 of 4 elements; worst at (0,)" in problem.message


def test_equal_integers_of_other_widths_match_and_rank_zero_works() -> None:
    big = np.uint64(2**64 - 3)
    assert not driver.compare_outputs({"O": np.array(big)}, {"O": np.array(big)})
    assert not driver.compare_outputs(
        {"O": np.array([5, -1], np.int64)}, {"O": np.array([5, -1], np.int32)}
    )
    (problem,) = driver.compare_outputs(
        {"O": np.array(-1, np.int64)}, {"O": np.array(2**64 - 1, np.uint64)}
    )
    assert "worst at (): got 18446744073709551615, expected -1" in problem.message


def test_the_first_differing_integer_is_reported() -> None:
    want = np.arange(6, dtype=np.int32).reshape(2, 3)
    got = want.copy()
    got[1, 0] += 1
    got[1, 2] += 100
    (problem,) = driver.compare_outputs({"O": want}, {"O": got})
    assert "differs at 2 of 6 elements; worst at (1, 0): got 4, expected 3" in problem.message


def test_floats_keep_their_tolerance_and_nan_matches_nan() -> None:
    want = np.array([1.0, np.nan, 3.0], np.float32)
    assert not driver.compare_outputs({"O": want}, {"O": want + np.float32(1e-6)})
    (problem,) = driver.compare_outputs({"O": want}, {"O": np.array([1.0, np.nan, 3.1], "f4")})
    assert "worst at (2,): got 3.0999999, expected 3" in problem.message


def test_float_tolerance_grows_with_the_square_root_of_the_reduction_length() -> None:
    # A cancelling element (0.01 in an output of scale 40): an error of 3e-5 is within what
    # a 1024-term fp32 sum may carry (2^-23 * 32 * 40 = 1.5e-4), not within the fixed atol.
    want = {"O": np.array([40.0, 0.01], np.float32)}
    got = {"O": np.array([40.0, 0.01003], np.float32)}
    assert driver.compare_outputs(want, got)
    assert not driver.compare_outputs(want, got, reduction_terms=1024)
    far = {"O": np.array([40.0, 0.0105], np.float32)}
    assert driver.compare_outputs(want, far, reduction_terms=1024)
    ints = {"O": np.array([4, 5], np.int32)}
    assert driver.compare_outputs(ints, {"O": np.array([4, 6], np.int32)}, reduction_terms=10**6)


def test_longest_reduction_counts_the_terms_of_one_element() -> None:
    from plaidc.stripe.ir import DType
    from plaidc.tile import compile_tile

    def terms(source: str, **shapes: tuple[int, ...]) -> int:
        typed = {n: (DType.FP32, s) for n, s in shapes.items()}
        return driver.longest_reduction(compile_tile(source, "t.tile", shapes=typed).program)

    matmul = "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }"
    assert terms(matmul, A=(3, 7), B=(7, 5)) == 7
    conv = (
        "function (I[X, C], F[R, C, D]) -> (O) {"
        " O[x, d : X - R + 1, D] = +(I[x + r, c] * F[r, c, d]); }"
    )
    assert terms(conv, I=(10, 4), F=(3, 4, 2)) == 12
    assert terms("function (A[N]) -> (B) { B = A + 1; }", A=(5,)) == 1
