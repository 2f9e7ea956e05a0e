"""Strided NCHW convolutions (ONNX's layout) on the GEMM micro-kernel, on c and llvm.

`O[n, m, y, x] = +(I[n, c, S*y + ky - P, S*x + kx - P] * K[m, c, ky, kx])`: the output column
`x` steps the image by the stride, so B's columns are strided (packed), and a padding constraint
bounds `S*x` together with a window index (`S*x + kx - P >= 0`), read as `x >= ceil((P - kx) /
S)` per value of the window loop (`gemm.py`). Ragged edges come from sizes the stride does not
divide. Each case is compared with numpy and with the interpreter.
"""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile

STRIDED_CONV = """function (I[N, C, H, W], K[M, C, KH, KW]) -> (O) {
    O[n, m, y, x : N, M, (H + 2 * P - KH) / S + 1, (W + 2 * P - KW) / S + 1] =
        +(I[n, c, S * y + ky - P, S * x + kx - P] * K[m, c, ky, kx]);
}
"""


def strided_reference(image: np.ndarray, kernel: np.ndarray, stride: int, pad: int) -> np.ndarray:
    """conv2d of an NCHW image with an MCHW kernel, zero padding `pad`, stride `stride`."""
    n, _, h, w = image.shape
    m, _, kh, kw = kernel.shape
    oh, ow = (h + 2 * pad - kh) // stride + 1, (w + 2 * pad - kw) // stride + 1
    padded = np.pad(image.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    out = np.zeros((n, m, oh, ow))
    for ky in range(kh):
        for kx in range(kw):
            rows = slice(ky, ky + stride * (oh - 1) + 1, stride)
            cols = slice(kx, kx + stride * (ow - 1) + 1, stride)
            window = padded[:, :, rows, cols]
            out += np.einsum("nchw,mc->nmhw", window, kernel[:, :, ky, kx].astype(np.float64))
    return out


# (N, C, H, W, M, K, S, P): ResNet-50's strided layers shrunk (the 7x7/2 stem, the 3x3/2
# and the 1x1/2 downsample), stride 3, and odd sizes the stride does not divide.
SHAPES = [
    (1, 3, 23, 21, 16, 7, 2, 3),
    (1, 16, 15, 14, 24, 3, 2, 1),
    (2, 24, 13, 17, 40, 1, 2, 0),
    (1, 8, 17, 19, 9, 3, 3, 1),
    (1, 5, 16, 20, 33, 3, 3, 0),
    (1, 12, 11, 9, 20, 5, 2, 2),
]


@pytest.mark.parametrize("backend", ["c", "llvm"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_strided_conv_runs_on_the_micro_kernel(backend: str, shape: tuple[int, ...]) -> None:
    n, c, h, w, m, k, stride, pad = shape
    shapes = {"I": (DType.FP32, (n, c, h, w)), "K": (DType.FP32, (m, c, k, k))}
    dims = {"S": stride, "P": pad}
    program = compile_tile(STRIDED_CONV, "strided.tile", shapes=shapes, dims=dims).program
    cfg = load_target(backend)
    program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    inputs = driver.random_inputs(program_io(program).inputs, seed=11)
    artifact = get_backend(backend).compile(program, cfg)
    got = artifact.run(inputs)
    want = strided_reference(inputs["I"], inputs["K"], stride, pad)
    np.testing.assert_allclose(got["O"], want, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got["O"], run_program(program, inputs)["O"], rtol=1e-4, atol=1e-4)
    kernels = [line for line in artifact.source.splitlines() if "micro-kernel" in line]
    assert kernels, "the strided convolution should run on the micro-kernel"
    # the output column steps the image by the stride: B's column stride
    assert any(f"B column stride {stride}" in line or f", {stride})," in line for line in kernels)
