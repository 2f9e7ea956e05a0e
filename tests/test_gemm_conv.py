"""Convolutions on the GEMM micro-kernel (implicit GEMM), on c and llvm.

A convolution tile is GEMM-like with several row indices (output pixels `x, y`) and several
reduction indices (the window `i, j, ci`): the lowering merges indices that both operands step
over as one (`j, ci` of an NHWC image) and runs the rest as multi-index rows and reduction of
the micro-kernel, packing A's rows from the image window (`gemm.py`, `gemm_kernel.py`).
Each case is compared with numpy and with the interpreter.
"""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.targets import load_target
from plaidc.tile import compile_tile

from .support import EXAMPLES

BACKENDS = ["c", "llvm"]


def conv_reference(image: np.ndarray, kernel: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """relu(conv2d(I, K) + B): NHWC image, HWIO kernel, valid padding, stride 1 (float64)."""
    kh, kw = kernel.shape[:2]
    oh, ow = image.shape[1] - kh + 1, image.shape[2] - kw + 1
    out = np.zeros((image.shape[0], oh, ow, kernel.shape[3]))
    for i in range(kh):
        for j in range(kw):
            window = image[:, i : i + oh, j : j + ow, :].astype(np.float64)
            out += window @ kernel[i, j].astype(np.float64)
    return np.maximum(out + bias, 0.0)


# (N, H, W, CI, KH, KW, CO): the benchmark's layer shrunk, odd sizes and kernel shapes.
CONV_SHAPES = [
    (1, 18, 18, 64, 3, 3, 64),
    (2, 13, 11, 24, 3, 2, 40),
    (1, 12, 17, 16, 1, 1, 33),
    (1, 9, 10, 37, 5, 3, 19),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", CONV_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_conv_runs_on_the_micro_kernel(backend: str, shape: tuple[int, ...]) -> None:
    n, h, w, ci, kh, kw, co = shape
    path = EXAMPLES / "conv2d_bias_relu.tile"
    dims = {"N": n, "H": h, "W": w, "CI": ci, "KH": kh, "KW": kw, "CO": co}
    program = compile_tile(path.read_text(), str(path), dims=dims).program
    cfg = load_target(backend)
    program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    inputs = driver.random_inputs(program_io(program).inputs, seed=8)
    artifact = get_backend(backend).compile(program, cfg)
    got = artifact.run(inputs)
    want = conv_reference(inputs["I"], inputs["K"], inputs["B"])
    np.testing.assert_allclose(got["R"], want, rtol=1e-4, atol=1e-4)
    assert not driver.compare_outputs(run_program(program, inputs), got)
    kernels = [line for line in artifact.source.splitlines() if "micro-kernel" in line]
    assert kernels, "the convolution should run on the micro-kernel"
    if kh > 1:
        # the window (i, j, ci) is a reduction of several indices, (j, ci) merged into one
        assert any("reduction [(" in line for line in kernels), kernels
        assert any(f"({kw * ci}, 1, {co})" in line for line in kernels), kernels
