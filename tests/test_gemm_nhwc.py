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
from plaidc.stripe.parser import parse_stripe
from plaidc.targets import load_target
from plaidc.tile import compile_tile

from .support.backend_c import matmul_program


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


def _row_tiled_pointwise(h: int, w: int, k: int, n: int, ty: int, low: int) -> str:
    """A channels-last 1x1 convolution `C[y*w + x, m] += A[y*w + x, c] * B[c, m]` tiled over
    image rows `y` by `ty` (the last tile ragged: `h - 1 - y - yo >= 0`), as autotile leaves
    a fused kernel's; `low` rows skipped at the start (`y + yo - low >= 0`). The rows `(y, x)`
    merge into one run of the kernel's rows, bounded through `y` alone."""
    bounds = [f"{h - 1} - y - yo >= 0"] + ([f"y + yo - {low} >= 0"] if low else [])
    constraints = "\n".join(f"          {c}" for c in bounds)
    kernel = f"""\
    0: #contract_outer #kernel
    block [y:{-(-h // ty)}] (
        in A[{ty * w}*y, 0] fp32:I({ty * w}, {k}):({k}, 1):1 B
        in B[0, 0] fp32:I({k}, {n}):({n}, 1):1 B
        out C[{ty * w}*y, 0]:add fp32:I({ty * w}, {n}):({n}, 1):1 B
    ) {{
      0: #contract_inner
      block [c:{k}, y:{ty}, x:{w}, m:{n}, yo = {ty}*y] (
{constraints}
          in A[{w}*y + x, c] fp32:I(1, 1):({k}, 1):1 B
          in B[c, m] fp32:I(1, 1):({n}, 1):1 B
          out C[{w}*y + x, m]:add fp32:I(1, 1):({n}, 1):1 B
      ) {{
        0: $a = load(A)
        1: $b = load(B)
        2: $c = mul($a, $b)
        3: C = store($c)
      }}
    }}
"""
    return matmul_program(h * w, n, k, "fp32", kernel)


@pytest.mark.parametrize("backend", ["c", "llvm"])
@pytest.mark.parametrize("case", [(28, 28, 32, 40, 8, 0), (13, 7, 5, 19, 4, 3)], ids=str)
def test_ragged_tile_of_merged_rows_runs_on_the_micro_kernel(
    backend: str, case: tuple[int, int, int, int, int, int]
) -> None:
    h, w, k, n, ty, low = case
    program = parse_stripe(_row_tiled_pointwise(h, w, k, n, ty, low), "rows.stripe")
    inputs = driver.random_inputs(program_io(program).inputs, seed=4)
    artifact = get_backend(backend).compile(program, load_target(backend))
    got = artifact.run(inputs)["C"]
    want = inputs["A"].astype(np.float64) @ inputs["B"].astype(np.float64)
    done = slice(low * w, None)  # the rows before `low` are not computed
    np.testing.assert_allclose(got[done], want[done], rtol=1e-4, atol=1e-4)
    interp = run_program(program, inputs)["C"]
    np.testing.assert_allclose(got[done], interp[done], rtol=1e-4, atol=1e-4)
    ragged = [line for line in artifact.source.splitlines() if "micro-kernel" in line]
    assert ragged and f"m<={ty * w}x" in ragged[0], ragged
