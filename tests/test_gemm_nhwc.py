"""Padded channels-last (NHWC) convolutions on the GEMM micro-kernel, on c and llvm.

`O[n, y, x, m] = +(I[n, s*y + ky - p, s*x + kx - p, c] * K[ky, kx, c, m])`: the output
channels are the vector columns and both output pixel indices move A and C, so both are row
indices, each bounded by padding together with its window index. A bound names one index,
so the innermost row index (`x`) stays the kernel's rows and `y` becomes a loop around the
call (`gemm.py`). Each case is compared with numpy (float64) and with the interpreter; odd
channel counts, strides, pads and batch 2 included.
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


def nhwc_conv(stride: int, pad: int) -> str:
    def at(o: str, k: str) -> str:
        text = f"{stride} * {o} + {k}" if stride > 1 else f"{o} + {k}"
        return f"{text} - {pad}" if pad else text

    return f"""function (I[N, H, W, C], K[KH, KW, C, M]) -> (O) {{
    O[n, y, x, m : N, OH, OW, M] = +(I[n, {at("y", "ky")}, {at("x", "kx")}, c] * K[ky, kx, c, m]);
}}
"""


def reference(image: np.ndarray, kernel: np.ndarray, stride: int, pad: int) -> np.ndarray:
    n, h, w, _ = image.shape
    kh, kw, _, m = kernel.shape
    padded = np.pad(image.astype(np.float64), ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    oh, ow = (h + 2 * pad - kh) // stride + 1, (w + 2 * pad - kw) // stride + 1
    out = np.zeros((n, oh, ow, m))
    for ky in range(kh):
        for kx in range(kw):
            window = padded[:, ky : ky + stride * (oh - 1) + 1 : stride,
                            kx : kx + stride * (ow - 1) + 1 : stride, :]  # fmt: skip
            out += np.einsum("nhwc,cm->nhwm", window, kernel[ky, kx].astype(np.float64))
    return out


# (N, H, W, C, M, K, stride, pad): ResNet-50's padded layers shrunk (3x3/1 on 7x7 and 56x56,
# 3x3/2, the 7x7/2 stem with 3 channels), channel counts no vector width divides, batch 2
CASES = [
    (1, 7, 7, 64, 48, 3, 1, 1),
    (2, 9, 14, 20, 19, 3, 1, 1),
    (1, 15, 13, 24, 40, 3, 2, 1),
    (1, 23, 23, 3, 16, 7, 2, 3),
    (2, 10, 11, 5, 33, 5, 1, 2),
]


@pytest.mark.parametrize("backend", ["c", "llvm"])
@pytest.mark.parametrize("case", CASES, ids=str)
def test_padded_nhwc_conv_runs_on_the_micro_kernel(
    backend: str, case: tuple[int, int, int, int, int, int, int, int]
) -> None:
    n, h, w, c, m, k, stride, pad = case
    oh, ow = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
    shapes = {"I": (DType.FP32, (n, h, w, c)), "K": (DType.FP32, (k, k, c, m))}
    dims = {"OH": oh, "OW": ow}
    source = nhwc_conv(stride, pad)
    program = compile_tile(source, "nhwc.tile", shapes=shapes, dims=dims).program
    cfg = load_target(backend)
    program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    inputs = driver.random_inputs(program_io(program).inputs, seed=3)
    artifact = get_backend(backend).compile(program, cfg)
    got = artifact.run(inputs)["O"]
    want = reference(inputs["I"], inputs["K"], stride, pad)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got, run_program(program, inputs)["O"], rtol=1e-4, atol=1e-4)
    assert "micro-kernel" in artifact.source, "the padded convolution should run on the kernel"
