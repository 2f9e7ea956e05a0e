"""The micro-kernel's BLIS-style blocking (`gemm_shape.Blocking`), on c and llvm.

A kernel of constant sizes that packs both operands runs its rows in chunks, one per thread
(one parallel loop), and its reduction in blocks of kc rows of B, kc from the config's
`gemm_block_bytes` (the packed `kc x n` block's budget). Each chunk packs each k block of B
once into its own part of the scratch; the first k block starts the accumulators at zero when
the kernel overwrites C, the later ones add to C. Each case is compared with numpy (float64)
and the interpreter, and checks from the kernel's comment that the blocking it meant ran.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.stripe.parser import parse_stripe
from plaidc.targets import load_target
from plaidc.tile import compile_tile

from .support import EXAMPLES
from .support.backend_c import matmul_program
from .test_gemm_ragged import tiled, with_codegen

BACKENDS = ["c", "llvm"]
BLOCKED = re.compile(r"B packed in blocks of (\d+) rows; (\d+) chunks of (\d+) (row blocks|panels)")


def whole(m: int, n: int, k: int, dtype: str = "fp32") -> str:
    """`C[m, n] = A[m, k] * B[k, n]` as one untiled kernel block (the kernel overwrites C)."""
    kernel = f"""\
    0: #contraction #kernel
    block [m:{m}, n:{n}, k:{k}] (
        in A[m, k] {dtype}:I(1, 1):({k}, 1):1 B
        in B[k, n] {dtype}:I(1, 1):({n}, 1):1 B
        out C[m, n]:add {dtype}:I(1, 1):({n}, 1):1 B
    ) {{
      0: $a = load(A)
      1: $b = load(B)
      2: $c = mul($a, $b)
      3: C = store($c)
    }}
"""
    return matmul_program(m, n, k, dtype, kernel)


def run_blocked(backend: str, text: str, seed: int, **codegen: object) -> tuple[dict, str]:
    """(outputs, source) of `text` on `backend` with `codegen` keys, checked against numpy
    (float64) and the interpreter."""
    program = parse_stripe(text, "blocked.stripe")
    inputs = driver.random_inputs(program_io(program).inputs, seed=seed)
    cfg = with_codegen(backend, vector_bytes=64, **codegen)
    artifact = get_backend(backend).compile(program, cfg)
    got = artifact.run(inputs)
    a, b = (inputs[name].astype(np.float64) for name in ("A", "B"))
    np.testing.assert_allclose(got["C"], a @ b, rtol=1e-4, atol=1e-4)
    assert not driver.compare_outputs(run_program(program, inputs), got)
    return got, artifact.source


Blocked = tuple[int, int, int, str]


def blockings(source: str) -> list[Blocked]:
    """(kc, chunks, per chunk, "row blocks" or "panels") of each blocked kernel in `source`."""
    return [
        (int(kc), int(chunks), int(per), unit) for kc, chunks, per, unit in BLOCKED.findall(source)
    ]


# (M, N, K, gemm_block_bytes, threads, blocking or None: unblocked), with 64-byte vectors
# (8 x 32 register blocks). The budgets hold 10 rows of two 32-wide panels (all of B's, or a
# chunk's share: 70 columns are 3 panels, 2 per chunk), evened out over the reduction.
# Threads split rows when M >= N (each chunk packs all of B), else panels (each packs all of
# A): a row tail in the last chunk, a panel tail in the chunk of the last panel (alone in it:
# 70 = 2 x 32 + 6), more threads than panels; the plain kernel (B packed once, row blocks on
# the threads) where rows would split a reduction within the budget, and for one thread with
# the reduction within the budget.
CASES = [
    (64, 64, 100, 64 * 4 * 10, 1, (10, 1, 8, "row blocks")),
    (37, 70, 50, 64 * 4 * 10, 2, (10, 2, 2, "panels")),
    (96, 64, 33, 64 * 4 * 8, 3, (7, 3, 4, "row blocks")),
    (70, 40, 30, 64 * 4 * 10, 2, (10, 2, 5, "row blocks")),
    (100, 70, 300, 0, 2, None),
    (20, 40, 9, 0, 4, (9, 2, 1, "panels")),
    (13, 100, 64, 128 * 4 * 64, 2, (64, 2, 2, "panels")),
    (13, 100, 64, 128 * 4 * 64, 1, None),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: "x".join(map(str, c[:3])))
def test_blocked_kernel_matches(
    backend: str, case: tuple[int, int, int, int, int, Blocked | None]
) -> None:
    m, n, k, budget, threads, want = case
    _, source = run_blocked(
        backend,
        whole(m, n, k),
        seed=m + n + k,
        gemm_block_bytes=budget,
        threads=threads,
        parallel_min_work=1,
    )
    assert blockings(source) == ([want] if want else [])


def test_threads_split_rows_in_one_parallel_loop() -> None:
    """Two threads: the kernel's one parallel loop runs a chunk of rows per thread, each
    packing its own B blocks; no parallel loop around the k blocks."""
    _, source = run_blocked(
        "c", whole(64, 64, 96), seed=1, gemm_block_bytes=64 * 4 * 32, threads=2, parallel_min_work=1
    )
    assert blockings(source) == [(32, 2, 4, "row blocks")]
    assert source.count("#pragma omp parallel") == 1


def test_unblocked_kernels_stay_as_they_were() -> None:
    """One thread and a reduction within the budget: no blocking."""
    _, source = run_blocked(
        "c", whole(64, 64, 32), seed=2, gemm_block_bytes=1 << 20, threads=1, parallel_min_work=1
    )
    assert "micro-kernel" in source and not blockings(source)


@pytest.mark.parametrize("backend", BACKENDS)
def test_blocked_kernel_adds_to_c(backend: str) -> None:
    """Tiles of a k-split tiling add to C: every k block of the kernel loads C (none starts at
    zero), and the sum over the tiles is the product."""
    _, source = run_blocked(
        backend, tiled(64, 64, 96, (64, 64, 48)), seed=3, gemm_block_bytes=64 * 4 * 16, threads=1
    )
    assert blockings(source) == [(16, 1, 8, "row blocks")]
    assert "C += A B" in source


@pytest.mark.parametrize("backend", BACKENDS)
def test_blocked_fp64(backend: str) -> None:
    program = whole(29, 45, 40, "fp64")
    parsed = parse_stripe(program, "fp64.stripe")
    inputs = driver.random_inputs(program_io(parsed).inputs, seed=7)
    cfg = with_codegen(
        backend, vector_bytes=64, gemm_block_bytes=48 * 8 * 8, threads=2, parallel_min_work=1
    )
    artifact = get_backend(backend).compile(parsed, cfg)
    got = artifact.run(inputs)
    np.testing.assert_allclose(got["C"], inputs["A"] @ inputs["B"], rtol=1e-12, atol=1e-12)
    # 3 panels of 16 doubles, 2 per chunk: 3072 bytes hold 12 rows, evened out to 10
    assert blockings(artifact.source) == [(10, 2, 2, "panels")]


@pytest.mark.parametrize("backend", BACKENDS)
def test_edge_tiles_block_their_reduction(backend: str) -> None:
    """Edge tiles (run-time m, n and k: 37 x 53 x 29 in 16 x 64 x 16 tiles) run their
    reduction in k blocks too, the last block and the last k tile's blocks shorter."""
    _, source = run_blocked(
        backend, tiled(37, 53, 29, (16, 64, 16)), seed=9, gemm_block_bytes=64 * 4 * 8, threads=1
    )
    assert blockings(source) == [(8, 1, 2, "row blocks")]
    assert "m<=16xn<=64xk<=16" in source


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("size", [(300, 257, 270), (129, 100, 1030)], ids=str)
def test_pipeline_matmul_blocked(backend: str, size: tuple[int, int, int]) -> None:
    """The target's own pipeline and config on odd sizes, with a block budget small enough to
    split the reduction."""
    m, k, n = size
    path = EXAMPLES / "matmul.tile"
    program = compile_tile(path.read_text(), str(path), dims={"M": m, "K": k, "N": n}).program
    steps = driver.resolve_steps(load_target(backend).stage("default"))
    program = driver.run_pipeline(program, steps)
    inputs = driver.random_inputs(program_io(program).inputs, seed=8)
    cfg = with_codegen(backend, gemm_block_bytes=16384)
    got = get_backend(backend).compile(program, cfg).run(inputs)
    a, b = (inputs[name].astype(np.float64) for name in ("A", "B"))
    np.testing.assert_allclose(got["C"], a @ b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("backend", BACKENDS)
def test_blocks_that_read_c_add_to_it(backend: str) -> None:
    """A block that reads C (a later k block of a blocked kernel: 64 x 64 x 100 in blocks of
    10 rows, and the k-split tiles of a tiling) adds C after its k loop; the first k block of
    an overwriting kernel does not read C. A sum that added C twice, or dropped it, or read a
    stale C, would differ from numpy and the interpreter (both compared in run_blocked)."""
    _, source = run_blocked(
        backend, whole(64, 64, 100), seed=11, gemm_block_bytes=64 * 4 * 10, threads=1
    )
    assert blockings(source) == [(10, 1, 8, "row blocks")]
    _, source = run_blocked(
        backend, tiled(64, 64, 96, (64, 64, 48)), seed=12, gemm_block_bytes=0, threads=1
    )
    assert "C += A B" in source
    _, source = run_blocked(backend, whole(64, 64, 32), seed=13, gemm_block_bytes=0, threads=1)
    assert "C = A B" in source
