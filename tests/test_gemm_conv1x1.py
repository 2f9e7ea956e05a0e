"""1x1 convolutions are GEMMs (c and llvm): `O[n, x, y, co] = +(I[n, s*x + i, s*y + j, ci] *
K[i, j, ci, co])` with `i, j : 1` slides no window (`slides_window` ignores indices of range 1),
so `whole_gemm` (every input at least half of L2) or `whole_gemm_mid` (every input between
L2/32 and L2/2) leaves it whole (M = H*W rows, K = CI, N = CO) and the micro-kernel blocks it:
the first k block writes C, the later ones add to it, and the batch-norm/relu epilogue runs on
the registers after the last. Others go on to tile_contract (K split into tiles: C zeroed,
added to, then the epilogue as its own pass).

The shapes are ResNet-50's and ragged ones (M = 49, 196, 3136; K = 64 .. 2048; N = 1000):
with a 64 KiB L2 (B blocks of 32 KiB: several k blocks even at K = 64) and with a 2 MiB one
(a Zen 5's: weights over 1 MiB, or an input under 64 KiB, are tiled by tile_contract).
Results run against numpy: a first k block that added to C instead of writing it (C holds the
runtime's poison value or an earlier call's result), a k block left out or an epilogue missing
or applied twice fails the comparison.
"""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.passes.autotile import slides_window
from plaidc.stripe.ir import Block
from plaidc.targets import TargetConfig, load_target, parse_config
from plaidc.tile import compile_tile

from .support.gemm_tiles import inner_tiles

BACKENDS = ["c", "llvm"]

# A 1x1 convolution with its folded batch norm and relu (ONNX's Conv + BatchNormalization +
# Relu as the importer writes them: channels last, the kernel's spatial indices of range 1).
CONV1X1 = """
function (I[N, H, W, CI], K[KH, KW, CI, CO], S[CO], B[CO]) -> (R) {
  O[n, x, y, co : N, (H - KH) / SD + 1, (W - KW) / SD + 1, CO] =
      +(I[n, SD * x + i, SD * y + j, ci] * K[i, j, ci, co]);
  R = relu(O * S + B);
}
"""


def config(backend: str, l2_bytes: int) -> TargetConfig:
    text = load_target(backend).source
    text = text.replace("[hardware]\n", f"[hardware]\nl2_bytes = {l2_bytes}\n", 1)
    return parse_config(text, f"{backend}.toml")


def program(hw: int, ci: int, co: int, stride: int = 1) -> Block:
    dims = dict(N=1, H=hw, W=hw, CI=ci, CO=co, KH=1, KW=1, SD=stride)
    return compile_tile(CONV1X1, "conv1x1.tile", dims=dims).program


def reference(inputs: dict[str, np.ndarray], stride: int) -> np.ndarray:
    image = inputs["I"][:, ::stride, ::stride, :].astype(np.float64)
    weights = inputs["K"][0, 0].astype(np.float64)
    return np.maximum(image @ weights * inputs["S"] + inputs["B"], 0.0)


def compile_run(
    backend: str, prog: Block, l2_bytes: int, seed: int
) -> tuple[Block, dict[str, np.ndarray], dict[str, np.ndarray]]:
    cfg = config(backend, l2_bytes)
    inputs = driver.random_inputs(program_io(prog).inputs, seed=seed)
    optimised = driver.run_pipeline(prog, driver.resolve_steps(cfg.stage("default")))
    artifact = get_backend(backend).compile(optimised, cfg)
    artifact.run(inputs)  # a second call must not add to the first call's C
    return optimised, inputs, artifact.run(inputs)


SHAPES = [
    # (H = W, CI, CO, stride): ResNet-50's 1x1 layers, then ragged ones
    (14, 1024, 256, 1),
    (7, 512, 2048, 1),
    (56, 64, 256, 1),
    (56, 256, 64, 1),
    (14, 256, 1000, 1),
    (7, 2048, 1000, 1),
    (13, 97, 131, 1),
    (28, 256, 512, 2),
    (15, 130, 77, 2),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("l2_bytes", [64 << 10, 2 << 20], ids=["l2_64k", "l2_2m"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_1x1_conv_is_a_whole_gemm_with_its_epilogue(
    backend: str, l2_bytes: int, shape: tuple[int, int, int, int]
) -> None:
    hw, ci, co, stride = shape
    prog = program(hw, ci, co, stride)
    optimised, inputs, got = compile_run(backend, prog, l2_bytes, seed=hw * ci + co)
    out_hw = (hw - 1) // stride + 1
    # whole where each input (the image's span, strided or not, and the weights) spans at
    # least half of L2 (whole_gemm), or at least L2/32 and none more than half (whole_gemm_mid)
    small, large = sorted((hw * hw * ci * 4, ci * co * 4))
    whole = small >= l2_bytes // 2 or (small >= l2_bytes // 32 and large <= l2_bytes // 2)
    full = {"x": out_hw, "y": out_hw, "ci": ci, "co": co}
    tiles = [{n: s for n, s in tile.items() if s > 1} for tile in inner_tiles(optimised)]
    assert tiles == ([full] if whole else [])
    expected = reference(inputs, stride)
    np.testing.assert_allclose(
        got["R"], expected.astype(np.float32), rtol=1e-4, atol=1e-4 * np.abs(expected).max()
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_1x1_conv_matches_the_interpreter(backend: str) -> None:
    """A small ragged one against the reference interpreter too (several k blocks)."""
    prog = program(9, 70, 45)
    _, inputs, got = compile_run(backend, prog, 64 << 10, seed=5)
    terms = driver.longest_reduction(prog)
    assert not driver.compare_outputs(run_program(prog, inputs), got, reduction_terms=terms)


def kernel(prog: Block) -> Block:
    main = next(b for b in prog.stmts if isinstance(b, Block))
    return next(b for b in main.stmts if isinstance(b, Block))


def test_only_indices_of_range_1_are_no_window() -> None:
    """`x + i` with `i : 1` reads one pixel per output; with `i : 3` (a 3x3 conv) neighbouring
    outputs read overlapping pixels."""
    assert not slides_window(kernel(program(8, 4, 4)))
    assert not slides_window(kernel(program(8, 4, 4, stride=2)))
    dims = dict(N=1, H=8, W=8, CI=4, CO=4, KH=3, KW=3, SD=1)
    assert slides_window(kernel(compile_tile(CONV1X1, "conv3x3.tile", dims=dims).program))


CHAIN = """
function (I[N, H, W, C0], K1[C0, C1], K2[C1, C2], B[C2]) -> (R) {
  O1[n, x, y, c : N, H, W, C1] = +(I[n, x, y, ci] * K1[ci, c]);
  T = relu(O1);
  O2[n, x, y, c : N, H, W, C2] = +(T[n, x, y, ci] * K2[ci, c]);
  R = relu(O2 + B);
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_chained_whole_gemms_stay_separate_kernels(backend: str) -> None:
    """Two whole 1x1 convolutions in a row are two kernels (`fuse_rows` excludes `gemm_tiles`:
    index-less outer blocks would fuse into one), each with its relu fused, and correct."""
    dims = dict(N=1, H=14, W=14, C0=96, C1=160, C2=72)
    prog = compile_tile(CHAIN, "chain.tile", dims=dims).program
    optimised, inputs, got = compile_run(backend, prog, 64 << 10, seed=9)
    main = next(b for b in optimised.stmts if isinstance(b, Block))
    kernels = [b for b in main.stmts if isinstance(b, Block)]
    assert len(kernels) == 2
    assert all("gemm_tiles" in k.tags for k in kernels)
    image = inputs["I"].astype(np.float64)
    hidden = np.maximum(image @ inputs["K1"], 0.0)
    expected = np.maximum(hidden @ inputs["K2"] + inputs["B"], 0.0)
    np.testing.assert_allclose(
        got["R"], expected.astype(np.float32), rtol=1e-4, atol=1e-4 * np.abs(expected).max()
    )
