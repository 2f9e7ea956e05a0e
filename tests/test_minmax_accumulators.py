"""Max/min reduction loops as interleaved parts with their own accumulators (`[codegen]
minmax_accumulators`, `plaidc.backends.loopnest.interleave`): the same results as numpy, NaN
and infinities in every part and in the remainder, and sums left alone."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.loopnest import lower_program
from plaidc.backends.loopnest.plan import Loop, walk_stmts
from plaidc.backends.loopnest.scope import LoweringOptions
from plaidc.stripe.ir import Block, DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile

MAX_MIN = "function (X[B, N]) -> (M, L) { M[b : B] = >(X[b, n]); L[b : B] = <(X[b, n]); }"
SUM = "function (X[B, N]) -> (S) { S[b : B] = +(X[b, n]); }"
COLS = 4 * 16 * 3 + 7  # three whole vectors per part and a remainder


def optimised(source: str, target: str, dtype: DType, shape: tuple[int, int]) -> Block:
    program = compile_tile(source, "mm.tile", shapes={"X": (dtype, shape)}).program
    config = load_target(target)
    return driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))


def vector_reductions(program: Block, copies: int) -> list[int]:
    plan = lower_program(program, LoweringOptions(vector_bytes=64, minmax_accumulators=copies))
    stmts = tuple(s for f in plan.functions for s in f.body)
    return [len(s.reductions) for s in walk_stmts(stmts) if isinstance(s, Loop) and s.reductions]


def special_rows(dtype: type) -> np.ndarray:
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((8, COLS)) * 100).astype(dtype)
    if np.issubdtype(dtype, np.floating):
        quarter = (COLS - 7) // 4
        for part in range(4):
            x[part, part * quarter + 5] = np.nan  # a NaN in each part
        x[4, COLS - 2] = np.nan  # in the remainder
        x[5, :] = -np.inf
        x[6, 3 * quarter + 1] = np.inf  # the maximum in the last part
        x[7, COLS - 1] = -np.inf  # the minimum in the remainder
    else:
        x[6, COLS - 1] = np.iinfo(dtype).max
        x[7, 2] = np.iinfo(dtype).min
    return x


@pytest.mark.parametrize("target", ["c", "llvm"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_split_max_min_match_numpy_with_specials_in_every_part(target: str, dtype: type) -> None:
    x = special_rows(dtype)
    stripe_type = DType(np.dtype(dtype).name.replace("float", "fp").replace("int", "i"))
    program = optimised(MAX_MIN, target, stripe_type, x.shape)
    config = load_target(target)
    config = dataclasses.replace(config, codegen={**config.codegen, "minmax_accumulators": 4})
    out = get_backend(target).compile(program, config).run({"X": x})
    np.testing.assert_array_equal(out["M"], np.max(x, axis=1))
    np.testing.assert_array_equal(out["L"], np.min(x, axis=1))


def test_max_min_loops_are_split_and_sums_are_not() -> None:
    program = optimised(MAX_MIN, "c", DType.FP32, (4, COLS))
    plain, split = vector_reductions(program, 1), vector_reductions(program, 4)
    # each accumulator four times in the split loop, then the remainder loop with the originals
    assert sorted(split) == sorted([4 * n for n in plain] + plain)
    sums = optimised(SUM, "c", DType.FP32, (4, COLS))
    assert vector_reductions(sums, 4) == vector_reductions(sums, 1)
    short = optimised(MAX_MIN, "c", DType.FP32, (4, 63))  # under 4 x 16 iterations
    assert vector_reductions(short, 4) == vector_reductions(short, 1)


def test_cpu_configs_split_max_min_loops() -> None:
    assert load_target("llvm").codegen.get("minmax_accumulators") == 4
    assert load_target("c").codegen.get("minmax_accumulators") == 2
    for target in ("c", "llvm"):
        assert load_target(target).codegen.get("sum_accumulators") == 2


def split_sum_loops(program: Block, copies: int) -> list[int]:
    options = LoweringOptions(vector_bytes=64, sum_accumulators=copies)
    plan = lower_program(program, options)
    stmts = tuple(s for f in plan.functions for s in f.body)
    return [len(s.reductions) for s in walk_stmts(stmts) if isinstance(s, Loop) and s.reductions]


# softmax: its exp and the sum of it are one loop (`fuse_row_sums`)
EXP_SUM = """function (X[B, N]) -> (Y) {
  M[b, 0 : B, 1] = >(X[b, n]);
  E = exp(X - M);
  S[b, 0 : B, 1] = +(E[b, n]);
  Y = E / S;
}"""


def test_sum_loops_are_split_by_sum_accumulators_unless_they_compute_a_math_function() -> None:
    sums = optimised(SUM, "c", DType.FP32, (4, COLS))
    plain, split = split_sum_loops(sums, 1), split_sum_loops(sums, 2)
    assert sorted(split) == sorted([2 * n for n in plain] + plain)
    maxes = optimised(MAX_MIN, "c", DType.FP32, (4, COLS))
    assert split_sum_loops(maxes, 2) == split_sum_loops(maxes, 1)  # not sums
    exps = optimised(EXP_SUM, "c", DType.FP32, (4, COLS))
    assert split_sum_loops(exps, 2) == split_sum_loops(exps, 1)  # bound by the exp


@pytest.mark.parametrize("target", ["c", "llvm"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_split_sums_match_numpy(target: str, dtype: type) -> None:
    rng = np.random.default_rng(2)
    x = (rng.standard_normal((6, COLS)) * 100).astype(dtype)
    if np.issubdtype(dtype, np.floating):
        x[1, 5] = np.nan  # in the first part
        x[2, COLS // 2 + 3] = np.inf  # in the second
        x[3, COLS - 1] = -np.inf  # in the remainder
        x[4, :] = np.float32(1e30) * np.sign(rng.standard_normal(COLS))  # cancelling
    else:
        x[5, :] = np.iinfo(dtype).max  # wraps the same in any order
    stripe_type = DType(np.dtype(dtype).name.replace("float", "fp").replace("int", "i"))
    program = optimised(SUM, target, stripe_type, x.shape)
    config = load_target(target)
    config = dataclasses.replace(config, codegen={**config.codegen, "sum_accumulators": 4})
    got = get_backend(target).compile(program, config).run({"X": x})
    with np.errstate(all="ignore"):
        want = {"S": x.sum(axis=1, dtype=dtype)}
    assert not driver.compare_outputs(want, got, reduction_terms=COLS)


def test_llvm_reductions_leave_a_zero_maximums_sign_open_and_elementwise_max_keeps_it() -> None:
    # `nsz` on the reduction's llvm.maximum (numpy's own reductions return whichever zero
    # comes last: the sign is order-dependent), none on an elementwise max (relu)
    source = "function (X[B, N]) -> (M, R) { M[b : B] = >(X[b, n]); R = max(X, 0); }"
    program = optimised(source, "llvm", DType.FP32, (5, COLS))
    ir_text = get_backend("llvm").compile(program, load_target("llvm")).source
    calls = [line for line in ir_text.splitlines() if '@"llvm.maximum' in line and "call" in line]
    assert any(" nsz " in line for line in calls)
    assert any(" nsz " not in line for line in calls)
    x = special_rows(np.float32)[:5]
    x[4, :] = np.where(np.arange(COLS) % 2, np.float32(-0.0), np.float32(0.0))  # only zeros
    out = get_backend("llvm").compile(program, load_target("llvm")).run({"X": x})
    want = np.max(x, axis=1)
    np.testing.assert_array_equal(out["M"], want)  # NaN rows NaN, -0.0 == 0.0
    assert out["M"][4] == 0
    np.testing.assert_array_equal(np.signbit(out["R"]), np.signbit(np.maximum(x, 0)))
