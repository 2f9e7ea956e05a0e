"""Row-wise kernels on the CPU targets: float max/min reductions vectorise on c (a NaN-ignoring
reduction plus a NaN flag) and still propagate NaN as numpy does; softmax and layernorm become
one block per row (`fuse_rows`), their intermediates a row-sized buffer."""

from __future__ import annotations

import math

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.c.emit import emit_c
from plaidc.backends.loopnest import lower_program
from plaidc.backends.loopnest.scope import LoweringOptions
from plaidc.stripe.ir import Block, DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile

MAX_MIN = "function (X[B, N]) -> (M, L) { M[b : B] = >(X[b, n]); L[b : B] = <(X[b, n]); }"


def pipelined(source: str, target: str, **shapes: tuple[int, ...]) -> Block:
    typed = {name: (DType.FP32, shape) for name, shape in shapes.items()}
    program = compile_tile(source, "rows.tile", shapes=typed).program
    config = load_target(target)
    return driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))


@pytest.mark.parametrize("target", ["c", "llvm"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_max_min_reductions_propagate_nan_and_infinities(target: str, dtype: type) -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((6, 37)).astype(dtype)
    x[1, 5] = np.nan  # one NaN among numbers
    x[2, :] = -np.inf  # all -inf: max is -inf, not the identity
    x[3, 7] = np.inf
    x[4, :] = np.nan
    x[5, 36] = np.nan  # in the vector loop's remainder
    typed = {"X": (DType(np.dtype(dtype).name.replace("float", "fp")), x.shape)}
    program = compile_tile(MAX_MIN, "mm.tile", shapes=typed).program
    config = load_target(target)
    optimised = driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))
    out = get_backend(target).compile(optimised, config).run({"X": x})
    np.testing.assert_array_equal(out["M"], np.max(x, axis=1))
    np.testing.assert_array_equal(out["L"], np.min(x, axis=1))


def test_c_float_max_reduction_is_an_openmp_max_reduction() -> None:
    program = pipelined(MAX_MIN, "c", X=(4, 64))
    flagged = emit_c(lower_program(program, LoweringOptions(nan_flagged_minmax=True)))
    assert "reduction(max:" in flagged and "reduction(min:" in flagged
    plain = emit_c(lower_program(program, LoweringOptions()))
    assert "reduction(max:" not in plain


SOFTMAX = """function (X[B, N]) -> (Y) {
  M[b, 0 : B, 1] = >(X[b, n]);
  E = exp(X - M);
  S[b, 0 : B, 1] = +(E[b, n]);
  Y = E / S;
}"""


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_softmax_is_one_block_per_row(target: str) -> None:
    program = pipelined(SOFTMAX, target, X=(512, 1000))
    (main,) = [s for s in program.stmts if isinstance(s, Block)]
    kernels = [s for s in main.stmts if isinstance(s, Block)]
    assert len(kernels) == 1
    (rows,) = kernels  # blocks of whole rows
    tiles = math.prod(i.range for i in rows.idxs)
    assert tiles > 1
    e = next(r for r in rows.refs if r.into == "E")
    assert e.shape.sizes == (512 // tiles, 1000)  # a block's rows, not the whole tensor
    x = np.random.default_rng(1).standard_normal((512, 1000)).astype(np.float32)
    out = get_backend(target).compile(program, load_target(target)).run({"X": x})
    e_ref = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out["Y"], e_ref / e_ref.sum(axis=1, keepdims=True), rtol=1e-5)
