"""Every element of a micro-kernel's C sums its products in one order, on c and llvm.

A register block on full panels keeps C in registers; a partial panel (or, in a ragged kernel,
a partial row block) goes through a small C tile. Both sum a call's (a k block's) products
from zero and add C after the k loop, so that elements of C whose operands are equal come out
bitwise equal, and a long reduction rounds in blocks, about as numpy's does. ed9931e's first
"late C add" did so on full blocks only while the C tile still started from C: as accurate,
but a partial panel's columns rounded differently (C + (p0 + p1 + ...) against
((C + p0) + p1) + ...). The light ResNet-50 (every weight 0.02) has 1000 equal logits near
9.7e18; 992 of them (31 full panels of 32) came out one ulp (2^40) below the last 8 (the
partial panel), and its softmax put all the probability on those 8 (0.125 where onnxruntime
gives 0.001 everywhere). The values compared within tolerance everywhere else, so only that
model caught it (04a3436 then went back to starting from C everywhere).

Each case makes every element of C the same sum (A's rows equal, B's columns equal), checks
that they are bitwise equal and close to float64, and that the kernel path it means ran.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.cli import plaidc_main
from plaidc.interp import program_io
from plaidc.stripe.parser import parse_stripe

from .test_gemm_blocked import blockings, whole
from .test_gemm_ragged import ragged_comment_lines, tiled, with_codegen

BACKENDS = ["c", "llvm"]

# The light ResNet-50's last layers in small: a product whose columns are equal (B's columns
# are all V) and the softmax of its logits scaled until one ulp decides it. N = 41 leaves a
# partial panel for any vector width; K = 8192 makes autotile split the reduction into tiles
# (C += A B, each tile's kernel adding to C). The interpreter's columns are equal, so its
# softmax is 1/N everywhere.
EQUAL_COLUMNS_SOFTMAX = """\
function (A[M, K], V[K]) -> (Y) {
  B[k, n : K, N] = =(V[k]);
  L[m, n : M, N] = +(A[m, k] * B[k, n]);
  Z = L * 1000000000.0;
  Mx[m, 0 : M, 1] = >(Z[m, n]);
  E = exp(Z - Mx);
  S[m, 0 : M, 1] = +(E[m, n]);
  Y = E / S;
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_softmax_of_equal_logits_is_uniform(tmp_path: Path, backend: str) -> None:
    path = tmp_path / "equal_columns.tile"
    path.write_text(EQUAL_COLUMNS_SOFTMAX)
    dims = ["-D", "M=2", "-D", "N=41", "-D", "K=8192"]
    compiled = CliRunner().invoke(
        plaidc_main, ["compile", str(path), "-t", backend, *dims, "-o", str(tmp_path / "out")]
    )
    assert compiled.exit_code == 0, compiled.output
    source = (tmp_path / "out").read_text()
    assert "micro-kernel C += A B" in source, "the reduction should be split into tiles"
    args = ["run", str(path), "-t", backend, *dims, "--random-inputs", "0", "--check"]
    result = CliRunner().invoke(plaidc_main, [*args, "--output-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "outputs match the interpreter" in result.output
    np.testing.assert_array_equal(np.load(tmp_path / "Y.npy"), np.float32(1 / 41))


def _equal_operands(program_text: str, seed: int) -> list[dict[str, np.ndarray]]:
    """Inputs of a matmul program whose rows of A are all one row and whose columns of B are
    all one column, so that every element of A B is the same dot product: a random row and
    column, and a row `1, 2^-24, 2^-24, ...` with B all ones, whose running sum `((1 + e) + e)
    + ...` stays 1 (each `+ e` a tie to even) where a sum of a block of `e`s added to C
    afterwards moves it: any two orders of its terms round it apart."""
    program = parse_stripe(program_text, "same_order.stripe")
    inputs = driver.random_inputs(program_io(program).inputs, seed=seed)
    a, b = inputs["A"], inputs["B"]
    a[:] = a[:1]
    b[:] = b[:, :1]
    ties_a = np.full_like(a, 2.0**-24)
    ties_a[:, 0] = 1
    return [inputs, {"A": ties_a, "B": np.ones_like(b)}]


def _run_equal(backend: str, text: str, seed: int, **codegen: object) -> str:
    """The source of a matmul program run on `_equal_operands`, each C checked to be one
    value, close to float64."""
    program = parse_stripe(text, "same_order.stripe")
    artifact = get_backend(backend).compile(program, with_codegen(backend, **codegen))
    for inputs in _equal_operands(text, seed):
        got = artifact.run(inputs)["C"]
        a, b = (inputs[name].astype(np.float64) for name in ("A", "B"))
        np.testing.assert_allclose(got, a @ b, rtol=1e-4, atol=1e-4)
        values = np.unique(got)
        assert values.size == 1, f"C holds {values.size} values for one sum: {values[:4]}"
    return artifact.source


# (M, N, K, tiles) of k-split tilings (each tile's kernel adds to C) on 64-byte vectors (8x32
# register blocks): a partial panel beside full ones in every tile (N 40 = 32 + 8), partial
# row blocks too (M 12 = 8 + 4), tiles that do not divide the extents (ragged kernels on the
# edges, their C tiles holding the partial rows and panels), and a one-row product as the
# light ResNet-50's final layer (1 x 1000 x 2048 in tiles of 128 on this host).
TILED_CASES = [
    (16, 40, 256, (16, 40, 64)),
    (12, 72, 192, (12, 72, 64)),
    (37, 70, 53, (16, 40, 16)),
    (1, 1000, 256, (1, 1000, 128)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", TILED_CASES, ids=lambda c: "x".join(map(str, c[:3])))
def test_tiles_adding_to_c_round_every_element_alike(
    backend: str, case: tuple[int, int, int, tuple[int, int, int]]
) -> None:
    m, n, k, tiles = case
    source = _run_equal(backend, tiled(m, n, k, tiles), seed=m + n + k, vector_bytes=64)
    assert "C += A B" in source
    ragged = any(size % tile for size, tile in zip((m, n, k), tiles, strict=True))
    assert bool(ragged_comment_lines(source)) == ragged


# (M, N, K, gemm_block_bytes, threads, blocking) of whole kernels (C = A B) whose reduction
# runs in k blocks: the first starts at zero, the later ones add to C, on full and partial
# panels and row blocks, in chunks of rows and of panels.
BLOCKED_CASES = [
    (12, 40, 256, 64 * 4 * 16, 1, (16, 1, 1, "row blocks")),
    (13, 100, 64, 128 * 4 * 16, 2, (32, 2, 2, "panels")),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", BLOCKED_CASES, ids=lambda c: "x".join(map(str, c[:3])))
def test_k_blocks_adding_to_c_round_every_element_alike(
    backend: str, case: tuple[int, int, int, int, int, tuple[int, int, int, str]]
) -> None:
    m, n, k, budget, threads, want = case
    source = _run_equal(
        backend,
        whole(m, n, k),
        seed=m + n + k,
        vector_bytes=64,
        gemm_block_bytes=budget,
        threads=threads,
        parallel_min_work=1,
    )
    assert blockings(source) == [want]


# (M, N, K, gemm_block_bytes, blocking): long reductions of a whole kernel in k blocks of 256
# and 512 (two and one row blocks per chunk).
LONG_CASES = [
    (16, 40, 4096, 64 * 4 * 256, (256, 1, 2, "row blocks")),
    (9, 70, 8192, 96 * 4 * 512, (512, 1, 1, "row blocks")),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", LONG_CASES, ids=lambda c: "x".join(map(str, c[:3])))
def test_k_blocks_sum_apart_from_c(
    backend: str, case: tuple[int, int, int, int, tuple[int, int, int, str]]
) -> None:
    """Each k block sums its products from zero and adds the sum to C, as BLAS kernels do: a
    sum of K positive terms is then off by about kc + K / kc roundings rather than K. Measured
    on these cases: at most 3.3e-7 relative (numpy's float32 matmul 3.3e-7); a running sum
    through C (each k block starting from C's values) 2.5e-6 to 4.3e-6."""
    m, n, k, budget, want = case
    program = parse_stripe(whole(m, n, k), "long.stripe")
    cfg = with_codegen(backend, vector_bytes=64, gemm_block_bytes=budget, threads=1)
    artifact = get_backend(backend).compile(program, cfg)
    assert blockings(artifact.source) == [want]
    rng = np.random.default_rng(k)
    a = rng.random((m, k), dtype=np.float32)
    b = rng.random((k, n), dtype=np.float32)
    got = artifact.run({"A": a, "B": b})["C"]
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert np.abs(got - exact).max() / exact.min() < 1e-6
