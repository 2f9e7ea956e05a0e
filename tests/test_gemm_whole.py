"""Large GEMMs left whole (`whole_gemm`, c and llvm): a window-free, unbatched contraction whose
every input spans at least half of L2 is one tile, blocked and threaded by the micro-kernel
itself (`gemm_shape.blocking`: B in kc-row blocks, one chunk of rows or panels per thread, C
written instead of initialised and added to). Anything else goes on to tile_contract.

The L2 is set small here (64 KiB: inputs of 32 KiB and more stay whole, B blocks of 32 KiB) so
that small, ragged shapes take the path with several k blocks, chunks and edge tiles; results
run against numpy and the interpreter (an element the kernel failed to write keeps the
runtime's poison value and fails the comparison).
"""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.passes.autotile import has_batch
from plaidc.stripe.ir import Block
from plaidc.targets import TargetConfig, load_target, parse_config
from plaidc.tile import compile_tile

from .support import EXAMPLES
from .support.gemm_tiles import inner_tiles

BACKENDS = ["c", "llvm"]
SMALL_L2 = 64 << 10


def config(backend: str, l2_bytes: int = SMALL_L2) -> TargetConfig:
    """The backend's shipped config with a fixed L2 (and the L1 that goes with the tiles)."""
    text = load_target(backend).source
    text = text.replace("[hardware]\n", f"[hardware]\nl2_bytes = {l2_bytes}\n", 1)
    return parse_config(text, f"{backend}.toml")


def program(name: str, dims: dict[str, int]) -> Block:
    source = (EXAMPLES / f"{name}.tile").read_text()
    return compile_tile(source, f"{name}.tile", dims=dims).program


def optimise(backend: str, prog: Block, l2_bytes: int = SMALL_L2) -> Block:
    cfg = config(backend, l2_bytes)
    return driver.run_pipeline(prog, driver.resolve_steps(cfg.stage("default")))


def run(backend: str, name: str, dims: dict[str, int], seed: int) -> tuple[Block, dict]:
    """Compile and run `examples/NAME.tile` with the small L2, check it against the
    interpreter, and return the optimised program and the outputs."""
    cfg = config(backend)
    prog = program(name, dims)
    inputs = driver.random_inputs(program_io(prog).inputs, seed=seed)
    optimised = driver.run_pipeline(prog, driver.resolve_steps(cfg.stage("default")))
    got = get_backend(backend).compile(optimised, cfg).run(inputs)
    terms = driver.longest_reduction(prog)
    assert not driver.compare_outputs(run_program(prog, inputs), got, reduction_terms=terms)
    return optimised, {"inputs": inputs, "outputs": got}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("m", "k", "n"),
    [(97, 131, 203), (203, 97, 131), (64, 1030, 96), (300, 40, 257), (1, 9000, 37)],
    ids=str,
)
def test_whole_matmuls_match_numpy(backend: str, m: int, k: int, n: int) -> None:
    """Ragged sizes (multiples of no register block, k blocks or chunk), rows split (m >= n)
    and panels split (m < n), a long reduction in many k blocks, a single row."""
    optimised, run_ = run(backend, "matmul", {"M": m, "K": k, "N": n}, seed=m * k + n)
    sizes = {"m": m, "k": k, "n": n}
    assert inner_tiles(optimised) == [{i: size for i, size in sizes.items() if size > 1}]
    a, b = (run_["inputs"][name].astype(np.float64) for name in ("A", "B"))
    np.testing.assert_allclose(run_["outputs"]["C"], a @ b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("backend", BACKENDS)
def test_whole_mlp_and_tmm_match(backend: str) -> None:
    """Fused bias/relu epilogues after a whole layer, and a transposed B (packed by vector
    transposes) in a whole tmm."""
    optimised, _ = run(backend, "mlp_3layer", dict(B=70, D0=300, D1=129, D2=200, D3=77), seed=3)
    assert len(inner_tiles(optimised)) == 3
    optimised, _ = run(backend, "tc_tmm", dict(M=130, N=300, K=257), seed=4)
    assert inner_tiles(optimised) == [{"m": 130, "n": 300, "kk": 257}]


@pytest.mark.parametrize("backend", BACKENDS)
def test_small_inputs_batches_and_windows_are_tiled(backend: str) -> None:
    """An input under half of L2 (A: 16 x 300 fp32, 19 KiB), a batched matmul and a
    convolution are not left whole: tile_contract tiles them as before."""
    small = optimise(backend, program("matmul", dict(M=16, K=300, N=400)))
    assert inner_tiles(small) == []
    tbmm = program("tc_tbmm", dict(B=40, N=26, M=72, K=26))
    assert inner_tiles(optimise(backend, tbmm)) == []
    conv = program("conv2d_bias_relu", dict(N=1, H=66, W=66, CI=16, KH=3, KW=3, CO=16))
    assert inner_tiles(optimise(backend, conv)) == []


def test_the_threshold_follows_the_config_l2() -> None:
    """The same 1024x256x1024 product (1 MiB inputs) is whole with a 2 MiB L2 (whole_gemm)
    and a 4 MiB one (whole_gemm_mid: inputs of 128 KiB to 2 MiB) and tiled with a 64 MiB one
    (under L2/32): the thresholds are the config's, not constants."""
    mm = program("matmul", dict(M=1024, K=256, N=1024))
    whole = [{"m": 1024, "k": 256, "n": 1024}]
    assert inner_tiles(optimise("c", mm, 2 << 20)) == whole
    assert inner_tiles(optimise("c", mm, 4 << 20)) == whole
    assert inner_tiles(optimise("c", mm, 64 << 20)) == []


def kernel(prog: Block) -> Block:
    """The program's first kernel (program -> main -> kernel)."""
    main = next(b for b in prog.stmts if isinstance(b, Block))
    return next(b for b in main.stmts if isinstance(b, Block))


def test_has_batch() -> None:
    """tbmm's `b` is used by X, Y and Z; a matmul has no index all three use."""
    assert has_batch(kernel(program("tc_tbmm", dict(B=4, N=3, M=5, K=2))))
    assert not has_batch(kernel(program("tc_tbmm", dict(B=1, N=3, M=5, K=2))))
    assert not has_batch(kernel(program("matmul", dict(M=8, K=8, N=8))))
