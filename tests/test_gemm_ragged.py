"""GEMM tiles cut short by constraints (ragged edges) on the micro-kernel, on c and llvm.

A tiling whose tile does not divide the extent leaves edge tiles whose inner block carries
constraints (`M - 1 - m - mo >= 0`); the loop-nest lowering runs them through a micro-kernel
with run-time extents (`gemm.py`, `gemm_kernel.py`). Each case is compared with numpy and with
the interpreter, and each checks that the ragged kernel (its comment reads `m<=16`) ran.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.stripe.parser import parse_stripe
from plaidc.targets import TargetConfig, load_target, parse_config
from plaidc.tile import compile_tile

from .support import EXAMPLES
from .support.backend_c import matmul_program

BACKENDS = ["c", "llvm"]


def tiled(
    m: int,
    n: int,
    k: int,
    tiles: tuple[int, int, int],
    extra: tuple[str, ...] = (),
    dtype: str = "fp32",
) -> str:
    """`C[m, n] += A[m, k] * B[k, n]` tiled as autotile does (`tm x tn x tk` tiles, an inner
    `#contract_inner` block bounded by overflow constraints), plus `extra` constraints."""
    tm, tn, tk = tiles
    outer = [f"k:{-(-k // tk)}", f"m:{-(-m // tm)}", f"n:{-(-n // tn)}"]
    bounds = [f"{k - 1} - k - ko >= 0", f"{m - 1} - m - mo >= 0", f"{n - 1} - n - no >= 0"]
    constraints = "\n".join(f"          {c}" for c in (*bounds, *extra))
    kernel = f"""\
    0: #contract_outer #kernel
    block [{", ".join(outer)}] (
        in A[{tm}*m, {tk}*k] {dtype}:I({tm}, {tk}):({k}, 1):1 B
        in B[{tk}*k, {tn}*n] {dtype}:I({tk}, {tn}):({n}, 1):1 B
        out C[{tm}*m, {tn}*n]:add {dtype}:I({tm}, {tn}):({n}, 1):1 B
    ) {{
      0: #contract_inner
      block [k:{tk}, m:{tm}, n:{tn}, ko = {tk}*k, mo = {tm}*m, no = {tn}*n] (
{constraints}
          in A[m, k] {dtype}:I(1, 1):({k}, 1):1 B
          in B[k, n] {dtype}:I(1, 1):({n}, 1):1 B
          out C[m, n]:add {dtype}:I(1, 1):({n}, 1):1 B
      ) {{
        0: $a = load(A)
        1: $b = load(B)
        2: $c = mul($a, $b)
        3: C = store($c)
      }}
    }}
"""
    return matmul_program(m, n, k, dtype, kernel)


def run_both(backend: str, text: str, seed: int = 0, inputs: dict | None = None) -> tuple:
    """(inputs, backend's outputs, interpreter's outputs, source) of a Stripe program."""
    program = parse_stripe(text, "ragged.stripe")
    if inputs is None:
        inputs = driver.random_inputs(program_io(program).inputs, seed=seed)
    artifact = get_backend(backend).compile(program, load_target(backend))
    got = artifact.run(inputs)
    want = run_program(program, inputs)
    mismatches = driver.compare_outputs(want, got)
    assert not mismatches, mismatches[0].message
    return inputs, got, artifact.source


def ragged_comment_lines(source: str) -> list[str]:
    return [line for line in source.splitlines() if "micro-kernel" in line and "<=" in line]


# (M, N, K, tiles): an edge tile in m alone, n alone, k alone, in all three, and tiles larger
# than the whole product (every tile an edge).
EDGE_CASES = [
    (40, 64, 32, (16, 32, 16)),
    (32, 70, 32, (16, 32, 16)),
    (32, 64, 37, (16, 32, 16)),
    (37, 53, 29, (16, 32, 16)),
    (5, 3, 7, (16, 32, 16)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", EDGE_CASES, ids=lambda c: "x".join(map(str, c[:3])))
def test_edge_tiles_run_on_the_ragged_kernel(
    backend: str, case: tuple[int, int, int, tuple[int, int, int]]
) -> None:
    m, n, k, tiles = case
    inputs, got, source = run_both(backend, tiled(m, n, k, tiles))
    np.testing.assert_allclose(got["C"], inputs["A"] @ inputs["B"], rtol=1e-4, atol=1e-4)
    ragged = ragged_comment_lines(source)
    assert ragged, "the edge tiles should run on a ragged micro-kernel"
    # only the dimensions with an edge are run-time extents
    for dim, size, tile in (("m", m, tiles[0]), ("n", n, tiles[1]), ("k", k, tiles[2])):
        assert (f"{dim}<={tile}" in ragged[0]) == (size % tile != 0), ragged[0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_fp64_edges(backend: str) -> None:
    inputs, got, source = run_both(backend, tiled(21, 19, 23, (8, 16, 8), dtype="fp64"))
    np.testing.assert_allclose(got["C"], inputs["A"] @ inputs["B"], rtol=1e-10, atol=1e-10)
    assert ragged_comment_lines(source)


@pytest.mark.parametrize("backend", BACKENDS)
def test_lower_bounds_and_guards(backend: str) -> None:
    """`m + mo - 3 >= 0` starts the edge tile at row 3 (an offset origin), `k + ko - 5 >= 0`
    drops the first 5 terms; `no - 32 >= 0` (no tile index) skips whole tiles."""
    extra = ("m + mo - 3 >= 0", "k + ko - 5 >= 0", "no - 32 >= 0")
    inputs, got, source = run_both(backend, tiled(37, 70, 29, (16, 32, 16), extra))
    a, b = inputs["A"], inputs["B"]
    want = a[3:, 5:] @ b[5:, 32:]
    np.testing.assert_allclose(got["C"][3:, 32:], want, rtol=1e-4, atol=1e-4)
    assert ragged_comment_lines(source)


@pytest.mark.parametrize("backend", BACKENDS)
def test_other_constraints_use_the_generic_loops(backend: str) -> None:
    """A constraint on two tile indices (`m - k >= 0`: a triangle) is no box: no kernel."""
    inputs, got, source = run_both(
        backend, tiled(20, 32, 20, (16, 32, 16), ("m + mo - k - ko >= 0",))
    )
    want = np.tril(inputs["A"]) @ inputs["B"]
    np.testing.assert_allclose(got["C"], want, rtol=1e-4, atol=1e-4)
    assert not ragged_comment_lines(source)


@pytest.mark.parametrize("backend", BACKENDS)
def test_padding_does_not_spread_infinities(backend: str) -> None:
    """Rows and columns past the extents are zero in the packed operands; an infinity in A's
    last row and B's last column must reach only that row and column of C (0 * inf = NaN
    would appear in the padding, which is never stored)."""
    program = parse_stripe(tiled(21, 37, 19, (16, 32, 16)), "inf.stripe")
    inputs = driver.random_inputs(program_io(program).inputs, seed=4)
    inputs["A"][20, 18] = np.inf
    inputs["B"][18, 36] = -np.inf
    _, got, _ = run_both(backend, tiled(21, 37, 19, (16, 32, 16)), inputs=inputs)
    with np.errstate(invalid="ignore"):
        want = inputs["A"].astype(np.float64) @ inputs["B"].astype(np.float64)
    finite = np.isfinite(want)
    assert not finite[20].any() and not finite[:, 36].any() and finite[:20, :36].all()
    np.testing.assert_allclose(got["C"], want, rtol=1e-4, atol=1e-4)


# The matmul of the op library through the whole target pipeline (autotile picks power-of-two
# tiles, so these sizes leave edge tiles).
PIPELINE_SIZES = [(1, 1, 1), (7, 7, 7), (17, 17, 17), (33, 33, 33), (37, 53, 29), (65, 130, 67)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("size", PIPELINE_SIZES, ids=lambda s: "x".join(map(str, s)))
def test_matmul_pipeline_ragged_sizes(backend: str, size: tuple[int, int, int]) -> None:
    m, k, n = size
    path = EXAMPLES / "matmul.tile"
    program = compile_tile(path.read_text(), str(path), dims={"M": m, "K": k, "N": n}).program
    steps = driver.resolve_steps(load_target(backend).stage("default"))
    program = driver.run_pipeline(program, steps)
    inputs = driver.random_inputs(program_io(program).inputs, seed=5)
    artifact = get_backend(backend).compile(program, load_target(backend))
    got = artifact.run(inputs)
    a, b = (inputs[name].astype(np.float64) for name in sorted(inputs))
    np.testing.assert_allclose(got["C"], a @ b, rtol=1e-4, atol=1e-4)
    assert not driver.compare_outputs(run_program(program, inputs), got)
    if m > 1:
        assert "micro-kernel" in artifact.source


# --------------------------------------------------------------------------------------------
# The register block against the register file


def with_codegen(backend: str, **keys: object) -> TargetConfig:
    """The backend's config with [codegen] keys replaced or added."""
    text = load_target(backend).source
    lines = []
    for line in text.splitlines():
        if line.split("=")[0].strip() not in keys:
            lines.append(line)
        if line.strip() == "[codegen]":
            lines += [f"{k} = {json.dumps(v)}" for k, v in keys.items()]
    return parse_config("\n".join(lines) + "\n", f"{backend}.toml")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("keys", "block"),
    [
        ({"vector_bytes": 64}, "8x32"),  # AVX-512: 32 registers hold 8 x 2 (19)
        ({"vector_bytes": 32}, "6x16"),  # AVX2: 16 registers, 8 x 2 would spill
        ({"vector_bytes": 32, "vector_registers": 32}, "8x16"),  # AVX-512VL's ymm0-31
        ({"vector_bytes": 64, "vector_registers": 8}, "2x32"),  # 2*2 + 2 + 1 <= 8 < 3*2 + 3
    ],
)
def test_register_block_fits_the_register_file(
    backend: str, keys: dict[str, int], block: str
) -> None:
    program = parse_stripe(tiled(40, 64, 32, (16, 64, 16)), "regs.stripe")
    inputs = driver.random_inputs(program_io(program).inputs, seed=6)
    cfg = with_codegen(backend, gemm_rows=8, gemm_vectors=2, **keys)
    artifact = get_backend(backend).compile(program, cfg)
    comments = [line for line in artifact.source.splitlines() if "micro-kernel" in line]
    assert comments and all(f"; {block} register block" in line for line in comments), comments
    got = artifact.run(inputs)
    np.testing.assert_allclose(got["C"], inputs["A"] @ inputs["B"], rtol=1e-4, atol=1e-4)
