"""A GEMM-like block's elementwise successor on the micro-kernel's registers (`gemm_epilogue`).

A convolution's `R = relu(O + B)` runs between the reduction and the store of each register
block (vectors) or in the copy out of a partial block's C tile (elements), instead of as a
second pass over the tile's C. Each case is compared with float64 numpy, with the interpreter
and with the same program compiled without the fusion (bitwise for a bias and relu: the same
additions and maxima of the same operands), on c and llvm. The biases are drawn so that about
half of the outputs are cut by the relu: a bias added twice, or left out, or a relu skipped on
some block, changes many outputs.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.targets import TargetConfig, load_target
from plaidc.tile import compile_tile

from .support import EXAMPLES

BACKENDS = ["c", "llvm"]
BIAS_RELU = (EXAMPLES / "conv2d_bias_relu.tile").read_text()


def _config(backend: str, fuse: bool) -> TargetConfig:
    cfg = load_target(backend)
    return dataclasses.replace(cfg, codegen={**cfg.codegen, "gemm_epilogue": fuse})


def _build(backend: str, source: str, dims: dict[str, int], fuse: bool = True) -> tuple:
    cfg = _config(backend, fuse)
    program = compile_tile(source, "conv.tile", dims=dims).program
    program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    return program, get_backend(backend).compile(program, cfg)


def _conv(image: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """conv2d, NHWC image, HWIO kernel, valid padding, stride 1, in float64."""
    kh, kw = kernel.shape[:2]
    oh, ow = image.shape[1] - kh + 1, image.shape[2] - kw + 1
    out = np.zeros((image.shape[0], oh, ow, kernel.shape[3]))
    for i in range(kh):
        for j in range(kw):
            out += image[:, i : i + oh, j : j + ow, :].astype(np.float64) @ kernel[i, j]
    return out


def _inputs(program, seed: int) -> dict[str, np.ndarray]:
    """Random inputs with a bias of the convolution's own scale, negative and positive."""
    inputs = driver.random_inputs(program_io(program).inputs, seed=seed)
    scale = float(np.std(_conv(inputs["I"], inputs["K"].astype(np.float64))))
    rng = np.random.default_rng(seed)
    inputs["B"] = (rng.standard_normal(inputs["B"].shape) * scale).astype(np.float32)
    return inputs


def _second_pass(source: str, kernel: str = "kernel_1") -> bool:
    """Whether the elementwise block `kernel` is lowered on its own (its comment, in C or
    LLVM IR)."""
    return any(line.strip(" /*;").startswith(f"{kernel}(") for line in source.splitlines())


def _fused_kernels(source: str) -> list[str]:
    return [
        line for line in source.splitlines() if "micro-kernel C = A B" in line and "stores" in line
    ]


# (N, H, W, CI, KH, KW, CO): 64 channels (two full panels), 40 and 19 (a partial panel: its
# elements through the C tile), 33 (one full panel and one of a single column), 1x1 windows,
# rows that leave a partial register block.
CONVS = [
    (1, 18, 18, 64, 3, 3, 64),
    (2, 13, 11, 24, 3, 2, 40),
    (1, 9, 10, 37, 5, 3, 19),
    (1, 12, 17, 16, 1, 1, 33),
    (1, 7, 13, 3, 3, 3, 24),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", CONVS, ids=lambda s: "x".join(map(str, s)))
def test_bias_relu_runs_on_the_registers(backend: str, shape: tuple[int, ...]) -> None:
    n, h, w, ci, kh, kw, co = shape
    dims = {"N": n, "H": h, "W": w, "CI": ci, "KH": kh, "KW": kw, "CO": co}
    program, artifact = _build(backend, BIAS_RELU, dims)
    assert _fused_kernels(artifact.source), "the bias and relu should run in the micro-kernel"
    # no second pass: the elementwise block is not lowered on its own
    assert not _second_pass(artifact.source)
    inputs = _inputs(program, seed=11)
    got = artifact.run(inputs)["R"]
    pre = _conv(inputs["I"], inputs["K"]) + inputs["B"]
    assert 0.25 < np.mean(pre > 0) < 0.75, "the relu should cut some outputs and keep others"
    np.testing.assert_allclose(got, np.maximum(pre, 0.0), rtol=1e-4, atol=1e-4 * np.abs(pre).max())
    assert not driver.compare_outputs(run_program(program, inputs), {"R": got})
    _, unfused = _build(backend, BIAS_RELU, dims, fuse=False)
    assert not _fused_kernels(unfused.source) and _second_pass(unfused.source)
    np.testing.assert_array_equal(got, unfused.run(inputs)["R"])


@pytest.mark.parametrize("backend", BACKENDS)
def test_relu_of_nan_is_nan(backend: str) -> None:
    """The vector max propagates NaN as numpy's maximum does (relu(NaN) = NaN), in either
    operand; -inf stays out (relu(-inf) = 0)."""
    dims = {"N": 1, "H": 8, "W": 9, "CI": 16, "KH": 3, "KW": 3, "CO": 40}
    program, artifact = _build(backend, BIAS_RELU, dims)
    assert _fused_kernels(artifact.source)
    inputs = _inputs(program, seed=2)
    inputs["I"][0, 0, 0, 0] = np.nan
    inputs["B"][3] = np.nan
    inputs["B"][35] = -np.inf
    got = artifact.run(inputs)["R"]
    want = run_program(program, inputs)["R"]
    assert np.isnan(got[0, 0, 0]).all() and np.isnan(got[..., 3]).all()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    column = got[..., 35]
    assert (column[~np.isnan(column)] == 0).all()
    assert not driver.compare_outputs({"R": want}, {"R": got})


# An epilogue that is not one: each reads something the register block does not hold.
NOT_EPILOGUES = {
    # a bias per output column y and channel: it varies along the kernel's rows and columns
    # and is not laid out as C (no index x)
    "row and column bias": """function (I[N, H, W, CI], K[KH, KW, CI, CO], S[OY, CO]) -> (R) {
  O[n, x, y, co : N, H - KH + 1, W - KW + 1, CO] = +(I[n, x + i, y + j, ci] * K[i, j, ci, co]);
  R = O + S;
}""",
    # an operation without a lane-by-lane vector form here (exp)
    "exp": """function (I[N, H, W, CI], K[KH, KW, CI, CO], B[CO]) -> (R) {
  O[n, x, y, co : N, H - KH + 1, W - KW + 1, CO] = +(I[n, x + i, y + j, ci] * K[i, j, ci, co]);
  R = exp(O - B);
}""",
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(NOT_EPILOGUES))
def test_other_successors_stay_a_second_pass(backend: str, name: str) -> None:
    dims = {"N": 1, "H": 10, "W": 12, "CI": 16, "KH": 3, "KW": 3, "CO": 32}
    if "OY" in NOT_EPILOGUES[name]:
        dims.update(OY=10)
    program, artifact = _build(backend, NOT_EPILOGUES[name], dims)
    assert any("micro-kernel" in line for line in artifact.source.splitlines())
    assert "micro-kernel C = A B" in artifact.source  # the kernel's C is final: it could fuse
    assert not _fused_kernels(artifact.source)
    assert _second_pass(artifact.source)
    inputs = driver.random_inputs(program_io(program).inputs, seed=4)
    got = artifact.run(inputs)
    assert not driver.compare_outputs(run_program(program, inputs), got)


SCALED = """function (I[N, H, W, CI], K[KH, KW, CI, CO], B[CO], S[ONE]) -> (R) {
  O[n, x, y, co : N, H - KH + 1, W - KW + 1, CO] = +(I[n, x + i, y + j, ci] * K[i, j, ci, co]);
  R = min(-(O * S) - B, 2.5) / 3;
}"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_scalar_inputs_and_other_operations(backend: str) -> None:
    """A one-element input (the same value for every column: a broadcast), `mul`, `neg`,
    `sub`, `min` and `div` by a constant, on full and partial panels."""
    dims = {"N": 1, "H": 9, "W": 11, "CI": 8, "KH": 3, "KW": 3, "CO": 40, "ONE": 1}
    program, artifact = _build(backend, SCALED, dims)
    assert _fused_kernels(artifact.source)
    inputs = driver.random_inputs(program_io(program).inputs, seed=6)
    inputs["S"][0] = 1.75
    got = artifact.run(inputs)["R"]
    conv = _conv(inputs["I"], inputs["K"])
    want = np.minimum(-(conv * 1.75) - inputs["B"], 2.5) / 3
    assert 0.1 < np.mean(want == 2.5 / 3) < 0.9
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
    assert not driver.compare_outputs(run_program(program, inputs), {"R": got})
    # within rounding of the second pass (either may contract `-(O*S) - B` into a fused
    # multiply-add, or divide by 3 as a product with its reciprocal)
    _, unfused = _build(backend, SCALED, dims, fuse=False)
    np.testing.assert_allclose(got, unfused.run(inputs)["R"], rtol=1e-6, atol=1e-6)


STRIDED = """function (I[N, H, W, CI], K[KH, KW, CI, CO], B[CO]) -> (R) {
  O[n, x, y, co : N, (H - KH) / 2 + 1, (W - KW) / 2 + 1, CO] =
      +(I[n, 2 * x + i, 2 * y + j, ci] * K[i, j, ci, co]);
  R = relu(O + B);
}"""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("co", [32, 40])
def test_strided_conv_bias_relu(backend: str, co: int) -> None:
    """A 3x3/2 convolution (rows two pixels apart in the image) with its bias and relu on the
    registers, a full and a partial panel."""
    dims = {"N": 1, "H": 17, "W": 15, "CI": 16, "KH": 3, "KW": 3, "CO": co}
    program, artifact = _build(backend, STRIDED, dims)
    assert _fused_kernels(artifact.source) and not _second_pass(artifact.source)
    inputs = _inputs(program, seed=7)
    got = artifact.run(inputs)["R"]
    pre = _conv(inputs["I"], inputs["K"])[:, ::2, ::2] + inputs["B"]
    assert 0.25 < np.mean(pre > 0) < 0.75
    np.testing.assert_allclose(got, np.maximum(pre, 0.0), rtol=1e-4, atol=1e-4 * np.abs(pre).max())
    assert not driver.compare_outputs(run_program(program, inputs), {"R": got})


RESIDUAL = """function (I[N, H, W, CI], K[KH, KW, CI, CO], B[CO], S[N, OH, OW, CO]) -> (R) {
  O[n, x, y, co : N, H - KH + 1, W - KW + 1, CO] = +(I[n, x + i, y + j, ci] * K[i, j, ci, co]);
  R = relu(S + (O + B));
}"""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "shape", [*CONVS, (1, 30, 30, 128, 3, 3, 128)], ids=lambda s: "x".join(map(str, s))
)
def test_residual_add_runs_on_the_registers(backend: str, shape: tuple[int, ...]) -> None:
    """A residual laid out as the convolution's output (ResNet's shortcut), read per element
    of the register block (a vector per accumulator, elements in a partial block's copy out
    of its C tile; 128 channels: the last call of a split reduction), with the bias and the
    relu; bitwise equal to the second pass."""
    n, h, w, ci, kh, kw, co = shape
    dims = {"N": n, "H": h, "W": w, "CI": ci, "KH": kh, "KW": kw, "CO": co}
    dims.update(OH=h - kh + 1, OW=w - kw + 1)
    program, artifact = _build(backend, RESIDUAL, dims)
    assert any("stores max(add(E" in line for line in artifact.source.splitlines())
    assert not _second_pass(artifact.source)
    inputs = _inputs(program, seed=12)
    conv = _conv(inputs["I"], inputs["K"])
    inputs["S"] = (np.random.default_rng(3).standard_normal(conv.shape) * conv.std()).astype(
        np.float32
    )
    got = artifact.run(inputs)["R"]
    pre = conv + inputs["B"] + inputs["S"]
    assert 0.25 < np.mean(pre > 0) < 0.75
    np.testing.assert_allclose(got, np.maximum(pre, 0.0), rtol=1e-4, atol=1e-4 * np.abs(pre).max())
    _, unfused = _build(backend, RESIDUAL, dims, fuse=False)
    assert _second_pass(unfused.source)
    np.testing.assert_array_equal(got, unfused.run(inputs)["R"])


BATCHED_RESIDUAL = """function (A[NB, M, K], B[NB, K, N], S[NB, M, N]) -> (R) {
  C[b, i, j : NB, M, N] = +(A[b, i, k] * B[b, k, j]);
  R = relu(C + S);
}"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_residual_moves_with_the_batch_loop(backend: str) -> None:
    """A batch of small GEMMs (a loop around the kernel calls, each call its own C) plus a
    residual laid out as C: each call reads the residual of its own batch element."""
    dims = {"NB": 40, "M": 26, "K": 72, "N": 26}
    program, artifact = _build(backend, BATCHED_RESIDUAL, dims)
    assert any("stores max(add(C, E0)" in line for line in artifact.source.splitlines())
    inputs = driver.random_inputs(program_io(program).inputs, seed=5)
    product = np.einsum("bik,bkj->bij", inputs["A"].astype(np.float64), inputs["B"])
    inputs["S"] = (inputs["S"] * product.std()).astype(np.float32)
    got = artifact.run(inputs)["R"]
    want = np.maximum(product + inputs["S"], 0)
    assert 0.25 < np.mean(want > 0) < 0.75
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
    _, unfused = _build(backend, BATCHED_RESIDUAL, dims, fuse=False)
    np.testing.assert_array_equal(got, unfused.run(inputs)["R"])


# A bias per row of C: one value per accumulator row, broadcast along its columns. Each case:
# its program, dimensions, the bias input, and the elementwise block the kernel takes over
# (the grouped conv's is kernel_2, after the bias's broadcast into `Bias`).
ROW_BIAS = {
    # per output column y of an NHWC convolution: the kernel's rows are pixels (x, y), two
    # row dimensions; the bias moves along the inner one only
    "conv per pixel column": (
        """function (I[N, H, W, CI], K[KH, KW, CI, CO], S[OY, ONE]) -> (R) {
  O[n, x, y, co : N, H - KH + 1, W - KW + 1, CO] = +(I[n, x + i, y + j, ci] * K[i, j, ci, co]);
  R = relu(O + S);
}""",
        {"N": 2, "H": 10, "W": 12, "CI": 16, "KH": 3, "KW": 3, "CO": 40, "OY": 10, "ONE": 1},
        "S",
        "kernel_1",
    ),
    # TC's grouped NCHW convolution: the rows are output channels, the bias moves with the
    # group (a loop around the calls, on threads) and the channel (the rows)
    "grouped NCHW conv": (
        (EXAMPLES / "tc_gconv.tile").read_text(),
        {"N": 3, "G": 4, "C": 8, "F": 12, "H": 9, "W": 11, "KH": 3, "KW": 3},
        "B",
        "kernel_2",
    ),
    # a batch of GEMMs with a bias per batch element and row (a loop around the calls)
    "batched GEMM": (
        """function (A[NB, M, K], B[NB, K, N], S[NB, M, ONE]) -> (R) {
  C[b, i, j : NB, M, N] = +(A[b, i, k] * B[b, k, j]);
  R = relu(C + S);
}""",
        {"NB": 7, "M": 26, "K": 40, "N": 36, "ONE": 1},
        "S",
        "kernel_1",
    ),
}


def _row_bias_reference(name: str, x: dict[str, np.ndarray]) -> np.ndarray:
    if name == "conv per pixel column":
        pre = _conv(x["I"], x["K"]) + x["S"].astype(np.float64)
        return np.maximum(pre, 0.0)
    if name == "grouped NCHW conv":
        img, ker = x["I"].astype(np.float64), x["W1"].astype(np.float64)
        kh, kw = ker.shape[3:]
        win = np.lib.stride_tricks.sliding_window_view(img, (kh, kw), axis=(3, 4))
        out = np.einsum("ngihwyx,goiyx->ngohw", win, ker)
        return out + x["B"][None, :, :, None, None]
    product = np.einsum("bik,bkj->bij", x["A"].astype(np.float64), x["B"])
    return np.maximum(product + x["S"], 0.0)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(ROW_BIAS))
def test_row_bias_runs_on_the_registers(backend: str, name: str) -> None:
    """An input read through C's rows (and the loops around the calls) alone is one value
    per accumulator row: fused, bitwise equal to the second pass and to float64 numpy within
    rounding. The biases are distinct per row and of the output's scale, so a bias read at
    the wrong row, group or batch element changes many outputs."""
    source, dims, bias, epilogue = ROW_BIAS[name]
    program, artifact = _build(backend, source, dims)
    fused = _fused_kernels(artifact.source)
    assert fused and all("add(C, E0)" in line or "add(E0, C)" in line for line in fused), fused
    assert f"({epilogue}(" in fused[0]
    assert not _second_pass(artifact.source, epilogue)
    inputs = driver.random_inputs(program_io(program).inputs, seed=9)
    scale = float(np.std(_row_bias_reference(name, {**inputs, bias: 0 * inputs[bias]})))
    rng = np.random.default_rng(1)
    inputs[bias] = (rng.standard_normal(inputs[bias].shape) * scale).astype(np.float32)
    got = next(iter(artifact.run(inputs).values()))
    want = _row_bias_reference(name, inputs)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
    assert not driver.compare_outputs(run_program(program, inputs), artifact.run(inputs))
    _, unfused = _build(backend, source, dims, fuse=False)
    assert _second_pass(unfused.source, epilogue)
    np.testing.assert_array_equal(got, next(iter(unfused.run(inputs).values())))
