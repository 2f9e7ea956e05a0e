"""Small and batched GEMMs on the micro-kernel, on c and llvm (`gemm_shape.overlaps`, the
transposed pack of one overlapping panel, even row blocks, batch tiles overwriting C).

A row of `lanes < n <= NR` columns, no multiple of `lanes` (tbmm's 26), runs as whole vectors
whose last one overlaps the one before it (columns 10..25): no C tile, no padded columns.
Every case is compared with numpy in float64 and with the interpreter: a vector at a wrong
column, a transposed block at a wrong k, a short or missing row block all change the result.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile

from .support import EXAMPLES
from .test_gemm_batch import compile_and_run, kernel_lines

BACKENDS = ["c", "llvm"]
TBMM = EXAMPLES / "tc_tbmm.tile"


def tbmm(backend: str, b: int, n: int, m: int, k: int) -> tuple[np.ndarray, str]:
    """tbmm's output checked against numpy, and the generated source."""
    dims = {"B": b, "N": n, "M": m, "K": k}
    inputs, got, source = compile_and_run(backend, TBMM.read_text(), str(TBMM), dims)
    want = np.einsum("bnm,bkm->bnk", inputs["X"].astype(np.float64), inputs["Y"])
    np.testing.assert_allclose(got["Z"], want, rtol=1e-4, atol=1e-4)
    return got["Z"], source


def blocks(source: str) -> list[tuple[int, int]]:
    """(rows, columns) of each micro-kernel's register block."""
    return [
        (int(r), int(c))
        for line in kernel_lines(source)
        for r, c in re.findall(r"(\d+)x(\d+) register block", line)
    ]


# (B, N, M, K): K (the output's columns, the kernel's n) between 16 and 32 lanes and no
# multiple of 16; M (the reduction) below, at and past a vector, ragged; B no multiple of the
# batch tile (its last tile cut short).
OVERLAPPING = [
    (37, 26, 72, 26),
    (5, 13, 19, 17),
    (3, 30, 16, 31),
    (9, 26, 7, 21),
    (2, 40, 45, 29),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", OVERLAPPING, ids=lambda s: "x".join(map(str, s)))
def test_overlapping_last_vector(backend: str, shape: tuple[int, int, int, int]) -> None:
    _, source = tbmm(backend, *shape)
    assert any(cols == 32 for _, cols in blocks(source)), kernel_lines(source)
    if backend == "c":
        assert "ctile" not in source, "an overlapping row needs no C tile"


@pytest.mark.parametrize("backend", BACKENDS)
def test_small_rows_run_in_even_blocks(backend: str) -> None:
    """26 rows by 2 vectors: two blocks of 13 (the registers hold 14), not 3 x 8 + 2."""
    _, source = tbmm(backend, 7, 26, 72, 26)
    assert (13, 32) in blocks(source), kernel_lines(source)


@pytest.mark.parametrize("backend", BACKENDS)
def test_cut_batch_tiles_overwrite_c(backend: str) -> None:
    """The batch tile cut short by `B` (a bound of the loop around the call only) leaves each
    call's box of C whole: the kernel writes C instead of zeroing and adding to it."""
    _, source = tbmm(backend, 37, 26, 72, 26)
    assert any("micro-kernel C = A B" in line for line in kernel_lines(source))


ROW_MAJOR = """function (A[B, I, K], X[B, K, J]) -> (C) {
  C[b, i, j : B, I, J] = +(A[b, i, k] * X[b, k, j]);
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dims", [(6, 9, 21, 26), (3, 26, 70, 19), (64, 33, 65, 17)])
def test_row_major_b_read_in_place(backend: str, dims: tuple[int, int, int, int]) -> None:
    """A row-major B of one partial panel is read in place: its last vector overlaps instead
    of running past the row (or past the buffer, for the last batch)."""
    b, i, k, j = dims
    inputs, got, source = compile_and_run(
        backend, ROW_MAJOR, "bmm.tile", {"B": b, "I": i, "K": k, "J": j}
    )
    want = np.einsum("bik,bkj->bij", inputs["A"].astype(np.float64), inputs["X"])
    np.testing.assert_allclose(got["C"], want, rtol=1e-4, atol=1e-4)
    assert kernel_lines(source)


ADDING = """function (A[B, I, K], X[B, K, J]) -> (C) {
  C[b + i, j : B + I - 1, J] = +(A[b, i, k] * X[b, k, j]);
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_overlapping_vectors_add_to_c(backend: str) -> None:
    """Calls whose boxes of C overlap add to C (`C += A B`): both overlapping vectors read C's
    old values before either stores, so the shared columns are added to once."""
    dims = {"B": 4, "I": 11, "K": 23, "J": 27}
    inputs, got, source = compile_and_run(backend, ADDING, "adding.tile", dims)
    a, x = inputs["A"].astype(np.float64), inputs["X"].astype(np.float64)
    want = np.zeros((4 + 11 - 1, 27))
    for b in range(4):
        want[b : b + 11] += a[b] @ x[b]
    np.testing.assert_allclose(got["C"], want, rtol=1e-4, atol=1e-4)
    assert any("C += A B" in line for line in kernel_lines(source)), kernel_lines(source)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", [(100, 8, 8, 8), (20, 48, 48, 48), (64, 33, 65, 17)])
def test_other_small_batches(backend: str, shape: tuple[int, int, int, int]) -> None:
    tbmm(backend, *shape)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("k", "columns"), [(48, 48), (40, 48), (80, 80), (97, 32)])
def test_columns_in_one_panel(backend: str, k: int, columns: int) -> None:
    """Up to 6 vectors of columns (the registers then hold blocks of 4 rows) run as one
    panel in a kernel on one thread (100 batches: the batch tiles run on threads): 48 as 3
    vectors, 40 as 3 (the last overlapping), 80 as 5; 97 keeps 2-vector panels and a
    partial one."""
    _, source = tbmm(backend, 100, 19, 21, k)
    assert {cols for _, cols in blocks(source)} == {columns}, kernel_lines(source)


def kernel_function(source: str) -> str:
    """The C text of the (first) micro-kernel function."""
    start = source.index("/* micro-kernel")
    return source[start : source.index("\n}\n", start)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("batches", [40, 7])
def test_batch_loop_runs_on_threads(backend: str, batches: int) -> None:
    """A batch of small GEMMs in one tile: the loop over the calls runs on threads (each
    thread with its own scratch), not each call's kernel (a parallel region per call)."""
    _, source = tbmm(backend, batches, 19, 21, 40)
    if backend == "c":
        assert "omp" not in kernel_function(source)
        loop = source.index("#pragma omp for")
        assert source.index("gemm_scratch[", loop) < source.index("gemm(", loop)


@pytest.mark.parametrize("backend", BACKENDS)
def test_overlapping_fp64(backend: str) -> None:
    """fp64 (8 lanes): 26 columns as 4 vectors, the last at column 18, its B packed as 8 x 8
    transposes with the last k block overlapping (30 = 3 x 8 + 6)."""
    shapes = {"X": (DType.FP64, (5, 26, 30)), "Y": (DType.FP64, (5, 26, 30))}
    program = compile_tile(TBMM.read_text(), str(TBMM), shapes=shapes).program
    cfg = load_target(backend)
    program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    inputs = driver.random_inputs(program_io(program).inputs, seed=5)
    artifact = get_backend(backend).compile(program, cfg)
    got = artifact.run(inputs)
    assert not driver.compare_outputs(run_program(program, inputs), got)
    want = np.einsum("bnm,bkm->bnk", inputs["X"], inputs["Y"])
    np.testing.assert_allclose(got["Z"], want, rtol=1e-12, atol=1e-12)
    assert (6, 32) in blocks(artifact.source), kernel_lines(artifact.source)
