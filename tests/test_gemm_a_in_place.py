"""A plain GEMM's rows of A read in place (`[codegen] gemm_a_in_place`, `gemm_pack.packing`).

A row-major A (the reduction contiguous in each row: an MLP layer's activations, tmm's A) is
read by the micro-kernel straight from A, one start per row of the register block, instead of
being packed per row block and k block. The multiply-adds are the same in the same order, so
the result is bitwise the packed kernel's. Shapes: several panels (A reused by each), a
partial row block, k blocks of a blocked kernel (each row block reads its k block's part of
A: a block that read from the reduction's start would fail), a column-major A (still packed),
and batches (A moving with the batch loop), on c and llvm against float64 numpy.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.targets import load_target
from plaidc.tile import compile_tile

BACKENDS = ["c", "llvm"]

ROW_MAJOR = """function (A[M, K], B[K, N]) -> (C) {
  C[i, j : M, N] = +(A[i, k] * B[k, j]);
}"""
COLUMN_MAJOR = """function (A[K, M], B[K, N]) -> (C) {
  C[i, j : M, N] = +(A[k, i] * B[k, j]);
}"""
BATCHED = """function (A[NB, M, K], B[NB, K, N]) -> (C) {
  C[b, i, j : NB, M, N] = +(A[b, i, k] * B[b, k, j]);
}"""

CASES = {
    "panels": (ROW_MAJOR, {"M": 29, "K": 40, "N": 96}, {}),
    "blocked k": (ROW_MAJOR, {"M": 64, "K": 300, "N": 64}, {"gemm_block_bytes": 64 * 4 * 64}),
    "column-major A": (COLUMN_MAJOR, {"M": 24, "K": 36, "N": 64}, {}),
    "batched": (BATCHED, {"NB": 5, "M": 12, "K": 20, "N": 160}, {}),
}


def _build(backend: str, source: str, dims: dict[str, int], codegen: dict, in_place: bool):
    cfg = load_target(backend)
    cfg = dataclasses.replace(cfg, codegen={**cfg.codegen, **codegen, "gemm_a_in_place": in_place})
    program = compile_tile(source, "gemm.tile", dims=dims).program
    program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    return program, get_backend(backend).compile(program, cfg)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_rows_of_a_in_place(backend: str, name: str) -> None:
    source, dims, codegen = CASES[name]
    program, artifact = _build(backend, source, dims, codegen, in_place=True)
    _, packed = _build(backend, source, dims, codegen, in_place=False)
    assert "micro-kernel" in artifact.source
    if name == "blocked k":  # k blocks of 60 rows: each row block reads its block's part of A
        assert "B packed in blocks of 60 rows" in artifact.source
    if name == "column-major A":
        assert artifact.source == packed.source  # nothing to read in place
    else:
        assert "apack" not in artifact.source and "apack" in packed.source
    inputs = driver.random_inputs(program_io(program).inputs, seed=len(name))
    got = artifact.run(inputs)["C"]
    a, b = inputs["A"].astype(np.float64), inputs["B"].astype(np.float64)
    want = a.T @ b if name == "column-major A" else a @ b
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.abs(want).max())
    assert not driver.compare_outputs(run_program(program, inputs), {"C": got})
    np.testing.assert_array_equal(got, packed.run(inputs)["C"])
