"""Micro-kernels whose rows span several indices (`GemmShape.row_dims`: an implicit GEMM's
output image, a strided 1x1 convolution's rows) are blocked as a plain GEMM's are
(`gemm_shape.blocking`: k blocks of `gemm_block_bytes`, chunks of rows or panels on threads),
and read A's rows in place when the reduction is one contiguous index (a 1x1 convolution's
channels): per k, each row's element straight from the image, the k block's start included.

ResNet-50's 1x1/2 512->1024 convolution (196 rows of a 28x28 image, K = 512, N = 1024) packed
all 2 MiB of B and streamed it from L3 for every row block. Each case runs `C[x, y, n] =
+(A[S*x, S*y, k] * B[k, n])` as one kernel block against numpy (float64) and the interpreter,
with ragged rows (M = 35, 63), panels (N = 70) and k blocks (K = 50 in blocks of 10, 13 of 7),
and checks from the source that the blocking it meant ran and that A was not packed: a k block
that read A from the reduction's start instead of its own would fail the comparison.
"""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.stripe.parser import parse_stripe

from .test_gemm_blocked import Blocked, blockings
from .test_gemm_ragged import with_codegen

BACKENDS = ["c", "llvm"]


def strided_rows(h: int, w: int, n: int, k: int, stride: int) -> str:
    """`C[x, y, j] = +(A[S*x, S*y, c] * B[c, j])` (an NHWC 1x1 convolution of stride S) as
    one untiled kernel block writing C."""
    ih, iw = stride * (h - 1) + 1, stride * (w - 1) + 1
    a_sizes, a_strides = f"{ih}, {iw}, {k}", f"{iw * k}, {k}, 1"
    c_sizes, c_strides = f"{h}, {w}, {n}", f"{w * n}, {n}, 1"
    return f"""0: #program
block []:1 (
    #user none new@0x00000000 A[0, 0, 0] fp32:I({a_sizes}):({a_strides}):1 B
    #user none new@0x00000000 B[0, 0] fp32:I({k}, {n}):({n}, 1):1 B
    #user none new@0x00000000 C[0, 0, 0] fp32:I({c_sizes}):({c_strides}):1 B
) {{
  0: #main
  block []:1 (
      in A[0, 0, 0] fp32:I({a_sizes}):({a_strides}):1 B
      in B[0, 0] fp32:I({k}, {n}):({n}, 1):1 B
      out C[0, 0, 0] fp32:I({c_sizes}):({c_strides}):1 B
  ) {{
    0: #contraction #kernel
    block [x:{h}, y:{w}, j:{n}, c:{k}] (
        in A[{stride}*x, {stride}*y, c] fp32:I(1, 1, 1):({a_strides}):1 B
        in B[c, j] fp32:I(1, 1):({n}, 1):1 B
        out C[x, y, j]:add fp32:I(1, 1, 1):({c_strides}):1 B
    ) {{
      0: $a = load(A)
      1: $b = load(B)
      2: $c = mul($a, $b)
      3: C = store($c)
    }}
  }}
}}
"""


# (H, W, N, K, stride, gemm_block_bytes, threads, blocking): 64-byte vectors (8 rows, or
# rows in even blocks where few blocks of the most rows the registers hold cover M: 35 rows
# in 3 blocks of 12, 110 in 4 of 28 with one vector of columns; panels of 16 or 32 columns as
# the layout picks for N; a ragged last row block either way). Rows split when M >= N (each
# chunk packs all of B), else panels; K = 50 in blocks of 17 and 13 in blocks of 7 end with a
# short block.
CASES = [
    (5, 7, 64, 50, 2, 64 * 4 * 10, 1, (10, 1, 3, "row blocks")),
    (5, 7, 70, 50, 2, 96 * 4 * 10, 2, (17, 2, 3, "panels")),
    (11, 10, 100, 13, 3, 112 * 4 * 7, 2, (7, 2, 2, "row blocks")),
    (3, 3, 100, 64, 2, 128 * 4 * 16, 2, (32, 2, 4, "panels")),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: "x".join(map(str, c[:5])))
def test_blocked_rows_match(backend: str, case: tuple[int, ...]) -> None:
    h, w, n, k, stride, budget, threads, *_ = case
    want: Blocked = case[-1]  # type: ignore[assignment]
    program = parse_stripe(strided_rows(h, w, n, k, stride), "rows.stripe")
    inputs = driver.random_inputs(program_io(program).inputs, seed=h * w + n + k)
    cfg = with_codegen(
        backend,
        vector_bytes=64,
        gemm_block_bytes=budget,
        threads=threads,
        parallel_min_work=1,
    )
    artifact = get_backend(backend).compile(program, cfg)
    artifact.run(inputs)  # a second call must overwrite C, not add to the first's
    got = artifact.run(inputs)
    image = inputs["A"][::stride, ::stride, :].astype(np.float64)
    expected = image @ inputs["B"].astype(np.float64)
    np.testing.assert_allclose(got["C"], expected, rtol=1e-4, atol=1e-4)
    assert not driver.compare_outputs(run_program(program, inputs), got)
    assert blockings(artifact.source) == [want]
    assert "apack" not in artifact.source  # A's rows read in place
