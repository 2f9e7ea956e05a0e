"""Batched and grouped GEMMs on the micro-kernel, on c and llvm.

An index that moves C but is neither the kernel's rows, columns nor reduction (tbmm's batch
`b`, moving A, B and C; a grouped convolution's output rows `n, h` next to its vector columns
`w`, moving the image and the output) becomes a loop around the kernel call (`gemm.py`).
Each case is compared with numpy and with the interpreter, and checks the micro-kernel ran.
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


def compile_and_run(backend: str, text: str, name: str, dims: dict[str, int]) -> tuple:
    """(inputs, backend's outputs, generated source) of a Tile program through the target's
    pipeline, checked against the interpreter."""
    program = compile_tile(text, name, dims=dims).program
    cfg = load_target(backend)
    program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    inputs = driver.random_inputs(program_io(program).inputs, seed=3)
    artifact = get_backend(backend).compile(program, cfg)
    got = artifact.run(inputs)
    mismatches = driver.compare_outputs(run_program(program, inputs), got)
    assert not mismatches, mismatches[0].message
    return inputs, got, artifact.source


def kernel_lines(source: str) -> list[str]:
    return [line for line in source.splitlines() if "micro-kernel" in line]


# (B, N, M, K): the benchmark's shape shrunk, sizes no tile or vector divides.
TBMM_SHAPES = [(20, 26, 72, 26), (37, 13, 11, 19), (3, 5, 3, 9), (1, 17, 33, 40)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", TBMM_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_batched_matmul_runs_on_the_micro_kernel(backend: str, shape: tuple[int, ...]) -> None:
    b, n, m, k = shape
    path = EXAMPLES / "tc_tbmm.tile"
    dims = {"B": b, "N": n, "M": m, "K": k}
    inputs, got, source = compile_and_run(backend, path.read_text(), str(path), dims)
    want = np.einsum("bnm,bkm->bnk", inputs["X"].astype(np.float64), inputs["Y"])
    np.testing.assert_allclose(got["Z"], want, rtol=1e-4, atol=1e-4)
    assert kernel_lines(source), "the batched matmul should run on the micro-kernel"


# (N, G, C, F, H, W, KH, KW). The weights (A) step evenly over the window (i, kh, kw), so
# with one panel the kernel reads them in place: 16 filters (two row blocks), 7 (one short
# block), 9 (a block and one row), and 21 columns (two panels: packed).
GCONV_SHAPES = [
    (2, 3, 4, 16, 14, 14, 3, 3),
    (3, 2, 5, 7, 9, 11, 3, 2),
    (2, 2, 3, 9, 7, 8, 2, 3),
    (1, 4, 3, 9, 6, 21, 1, 1),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", GCONV_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_grouped_conv_runs_on_the_micro_kernel(backend: str, shape: tuple[int, ...]) -> None:
    n, g, c, f, h, w, kh, kw = shape
    path = EXAMPLES / "tc_gconv.tile"
    dims = {"N": n, "G": g, "C": c, "F": f, "H": h, "W": w, "KH": kh, "KW": kw}
    inputs, got, source = compile_and_run(backend, path.read_text(), str(path), dims)
    image, weights = inputs["I"].astype(np.float64), inputs["W1"].astype(np.float64)
    oh, ow = h - kh + 1, w - kw + 1
    want = np.zeros((n, g, f, oh, ow))
    for i in range(kh):
        for j in range(kw):
            window = image[:, :, :, i : i + oh, j : j + ow]
            want += np.einsum("ngchw,gfc->ngfhw", window, weights[:, :, :, i, j])
    want += inputs["B"][None, :, :, None, None]
    np.testing.assert_allclose(got["O"], want, rtol=1e-4, atol=1e-4)
    assert kernel_lines(source), "the grouped convolution should run on the micro-kernel"


OVERLAP = """function (A[B, I, K], X[B, K, J]) -> (C) {
  C[b + i, j : B + I - 1, J] = +(A[b, i, k] * X[b, k, j]);
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_batches_writing_the_same_rows_add_up(backend: str) -> None:
    """Batch `b` and rows `i` both move C's rows (`C[b + i, j]`): the calls' boxes of C
    overlap, so no call may overwrite C; each adds its sums to the others'."""
    dims = {"B": 5, "I": 7, "K": 13, "J": 19}
    inputs, got, source = compile_and_run(backend, OVERLAP, "overlap.tile", dims)
    a, x = inputs["A"].astype(np.float64), inputs["X"].astype(np.float64)
    want = np.zeros((5 + 7 - 1, 19))
    for b in range(5):
        want[b : b + 7] += a[b] @ x[b]
    np.testing.assert_allclose(got["C"], want, rtol=1e-4, atol=1e-4)
    assert kernel_lines(source), "the batched matmul should run on the micro-kernel"


# Rows moving C by two strides that are not nested (`4*x + 6*y`): runs of two columns at 0, 4,
# 6 and 10, disjoint although neither stride steps over the other's whole range (isl says so).
INTERLEAVED = """function (A[X, Y, K], W[K, J]) -> (C) {
  C[4*x + 6*y + j : 12] = +(A[x, y, k] * W[k, j]);
}
"""
# The same with strides 2 and 3: the runs at 2 and 3 share element 3.
SHARED = """function (A[X, Y, K], W[K, J]) -> (C) {
  C[2*x + 3*y + j : 9] = +(A[x, y, k] * W[k, j]);
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("text", "dims", "size", "strides", "kernel"),
    [
        (INTERLEAVED, {"X": 2, "Y": 2, "K": 37, "J": 2}, 12, (4, 6), True),
        (SHARED, {"X": 3, "Y": 2, "K": 37, "J": 2}, 9, (2, 3), False),
    ],
    ids=["apart", "shared"],
)
def test_rows_of_two_strides(
    backend: str,
    text: str,
    dims: dict[str, int],
    size: int,
    strides: tuple[int, int],
    kernel: bool,
) -> None:
    """Rows of two indices run on the micro-kernel exactly when their runs of C are disjoint;
    where they share elements the generic loops add both rows' sums."""
    inputs, got, source = compile_and_run(backend, text, "rows.tile", dims)
    a, w = inputs["A"].astype(np.float64), inputs["W"].astype(np.float64)
    want = np.zeros(size)
    for x in range(dims["X"]):
        for y in range(dims["Y"]):
            at = strides[0] * x + strides[1] * y
            want[at : at + dims["J"]] += a[x, y] @ w
    np.testing.assert_allclose(got["C"], want, rtol=1e-4, atol=1e-4)
    assert bool(kernel_lines(source)) == kernel
