"""Transposing packs of the micro-kernel (`gemm_transpose`), on c and llvm.

Where an operand's reduction is contiguous (a transposed product's B, `B[n, k]`; a row-major
A), the kernel packs blocks of `lanes` rows of k as vector loads, a perfect-shuffle network of
two-input shuffles (`SShuffle`) and vector stores; the last `k % lanes` rows are copied element
by element. The network is checked on its own (every power-of-two block), and the kernels on
ragged sizes, 8- and 16-lane vectors, constant and run-time reductions and blocked ones
(k blocks of `kc` rows, a shorter last one) against numpy (float64) and the interpreter.
"""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.loopnest.gemm_transpose import transposable, transposed
from plaidc.backends.loopnest.names import Namer
from plaidc.backends.loopnest.plan import LetScalar, ScalarType, SShuffle, SVar
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import DType
from plaidc.stripe.parser import parse_stripe
from plaidc.targets import load_target
from plaidc.tile import compile_tile

from .support import EXAMPLES
from .test_gemm_ragged import with_codegen

BACKENDS = ["c", "llvm"]


@pytest.mark.parametrize("rows", [2, 4, 8, 16, 32])
@pytest.mark.parametrize("lanes", [2, 4, 8, 16])
def test_shuffle_network_transposes(rows: int, lanes: int) -> None:
    """The network, evaluated lane by lane, puts lane l of row r at flat position l*R + r."""
    vt = ScalarType(DType.FP32, lanes)
    block = np.arange(rows * lanes).reshape(rows, lanes)
    values = {f"row{r}": block[r] for r in range(rows)}
    stmts, out = transposed(Namer(), [SVar(f"row{r}", vt) for r in range(rows)], vt)
    for stmt in stmts:
        assert isinstance(stmt, LetScalar) and isinstance(stmt.value, SShuffle)
        a, b = (values[x.name] for x in (stmt.value.a, stmt.value.b) if isinstance(x, SVar))
        values[stmt.name] = np.concatenate([a, b])[list(stmt.value.mask)]
    assert len(out) == rows
    flat = np.concatenate([values[v.name] for v in out if isinstance(v, SVar)])
    np.testing.assert_array_equal(flat, block.T.ravel())
    assert len(stmts) == rows * (rows.bit_length() - 1)


def test_only_powers_of_two_transpose() -> None:
    assert transposable(8, 16) and transposable(2, 2)
    assert not transposable(6, 16) and not transposable(8, 12) and not transposable(1, 16)


def tmm(m: int, n: int, k: int, dtype: str = "fp32") -> str:
    """`C[m, n] = +(A[m, k] * B[n, k])` as one untiled kernel block (B's reduction
    contiguous, its columns k apart)."""
    return f"""0: #program
block []:1 (
    #user none new@0x00000000 A[0, 0] {dtype}:I({m}, {k}):({k}, 1):1 B
    #user none new@0x00000000 B[0, 0] {dtype}:I({n}, {k}):({k}, 1):1 B
    #user none new@0x00000000 C[0, 0] {dtype}:I({m}, {n}):({n}, 1):1 B
) {{
  0: #main
  block []:1 (
      in A[0, 0] {dtype}:I({m}, {k}):({k}, 1):1 B
      in B[0, 0] {dtype}:I({n}, {k}):({k}, 1):1 B
      out C[0, 0] {dtype}:I({m}, {n}):({n}, 1):1 B
  ) {{
    0: #contraction #kernel
    block [m:{m}, n:{n}, k:{k}] (
        in A[m, k] {dtype}:I(1, 1):({k}, 1):1 B
        in B[n, k] {dtype}:I(1, 1):({k}, 1):1 B
        out C[m, n]:add {dtype}:I(1, 1):({n}, 1):1 B
    ) {{
      0: $a = load(A)
      1: $b = load(B)
      2: $c = mul($a, $b)
      3: C = store($c)
    }}
  }}
}}
"""


def shuffles(backend: str, source: str, lanes: int) -> int:
    """How many interleaving shuffles of `lanes`-lane vectors `source` holds."""
    if backend == "c":
        return source.count("__builtin_shufflevector(")
    return source.count(f"i32 0, i32 {lanes}, i32 1, i32 {lanes + 1}")


# (M, N, K, vector bytes, gemm_block_bytes, type): full and partial panels and row blocks, a
# reduction shorter than a block of lanes, one that lanes divide and ragged ones; 8-lane (AVX2)
# and 16-lane vectors; blocked reductions (the budget holds a few rows of B's panels: k blocks
# start past 0 and the last is shorter).
CASES = [
    (16, 64, 64, 64, 0, "fp32"),
    (37, 45, 53, 64, 0, "fp32"),
    (9, 70, 5, 64, 0, "fp32"),
    (40, 96, 100, 32, 0, "fp32"),
    (24, 64, 300, 64, 64 * 100 * 4, "fp32"),
    (19, 100, 203, 32, 48 * 64 * 4, "fp32"),
    (21, 40, 77, 64, 0, "fp64"),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: "x".join(map(str, c)))
def test_transposed_b_packs_with_shuffles(backend: str, case: tuple) -> None:
    m, n, k, vector_bytes, block_bytes, dtype = case
    program = parse_stripe(tmm(m, n, k, dtype), "tmm.stripe")
    inputs = driver.random_inputs(program_io(program).inputs, seed=3)
    cfg = with_codegen(backend, vector_bytes=vector_bytes, gemm_block_bytes=block_bytes)
    artifact = get_backend(backend).compile(program, cfg)
    got = artifact.run(inputs)
    a, b = (inputs[name].astype(np.float64) for name in ("A", "B"))
    np.testing.assert_allclose(got["C"], a @ b.T, rtol=1e-4, atol=1e-4)
    assert not driver.compare_outputs(run_program(program, inputs), got)
    lanes = vector_bytes // (8 if dtype == "fp64" else 4)
    assert "micro-kernel" in artifact.source
    if k >= lanes:
        assert shuffles(backend, artifact.source, lanes) > 0
    if block_bytes:
        assert "B packed in blocks of" in artifact.source


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("size", [(128, 256, 256), (33, 65, 129), (7, 1001, 17)])
def test_tmm_pipeline(backend: str, size: tuple[int, int, int]) -> None:
    """TC's tmm through the target's pipeline (tiled, ragged edge tiles with run-time k)."""
    m, n, k = size
    path = EXAMPLES / "tc_tmm.tile"
    dims = {"M": m, "N": n, "K": k}
    program = compile_tile(path.read_text(), str(path), dims=dims).program
    program = driver.run_pipeline(program, driver.resolve_steps(load_target(backend).stage()))
    inputs = driver.random_inputs(program_io(program).inputs, seed=4)
    got = get_backend(backend).compile(program, load_target(backend)).run(inputs)
    a, b = (inputs[name].astype(np.float64) for name in ("A", "B"))
    np.testing.assert_allclose(got["C"], a @ b.T, rtol=1e-4, atol=1e-4)
    assert not driver.compare_outputs(run_program(program, inputs), got)
