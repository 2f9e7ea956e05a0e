"""Padded NCHW convolutions on the GEMM micro-kernel, on c and llvm.

An ONNX-style convolution `O[n, m, y, x] = +(I[n, c, y + ky - 1, x + kx - 1] * K[m, c, ky,
kx])` carries padding constraints that bound an output index together with a window index
(`x + kx - 1 >= 0`). The lowering runs the window indices as loops around the kernel call,
whose values bound the output columns (`gemm.py`): the output pixels are the vector columns
and the output channels the rows. Each case is compared with numpy and with the interpreter.
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

PADDED_CONV = """function (I[N, C, H, W], K[M, C, KH, KW]) -> (O) {
    O[n, m, y, x : N, M, H, W] = +(I[n, c, y + ky - 1, x + kx - 1] * K[m, c, ky, kx]);
}
"""


def padded_reference(image: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """conv2d with 'same' padding (3x3, pad 1), NCHW image, MCHW kernel (float64)."""
    n, _, h, w = image.shape
    padded = np.pad(image.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, kernel.shape[0], h, w))
    for ky in range(3):
        for kx in range(3):
            window = padded[:, :, ky : ky + h, kx : kx + w]
            out += np.einsum("nchw,mc->nmhw", window, kernel[:, :, ky, kx].astype(np.float64))
    return out


@pytest.mark.parametrize("backend", ["c", "llvm"])
@pytest.mark.parametrize("shape", [(1, 64, 30, 27, 48), (2, 16, 9, 14, 20)], ids=str)
def test_padded_nchw_conv_runs_on_the_micro_kernel(
    backend: str, shape: tuple[int, int, int, int, int]
) -> None:
    n, c, h, w, m = shape
    shapes = {"I": (DType.FP32, (n, c, h, w)), "K": (DType.FP32, (m, c, 3, 3))}
    program = compile_tile(PADDED_CONV, "padded.tile", shapes=shapes).program
    cfg = load_target(backend)
    program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    inputs = driver.random_inputs(program_io(program).inputs, seed=5)
    artifact = get_backend(backend).compile(program, cfg)
    got = artifact.run(inputs)
    np.testing.assert_allclose(
        got["O"], padded_reference(inputs["I"], inputs["K"]), rtol=1e-4, atol=1e-4
    )
    # 576-term sums near zero: the absolute tolerance of their rounding, not --check's 1e-5
    want = run_program(program, inputs)["O"]
    np.testing.assert_allclose(got["O"], want, rtol=1e-4, atol=1e-4)
    assert "micro-kernel" in artifact.source, "the padded convolution should run on the kernel"
