"""The GEMM tile choice (`tile_gemm`, shipped with `enabled = false`: autotile's
`lines_per_output` model with `resident_bytes`, each input within a budget and no total
budget) on c and llvm.

Contractions without a sliding window (matmul, MLP layers, tmm, tbmm) are tiled by the cache
lines their tiles move, an operand whose block-wide view fits `resident_bytes` counting
`resident_cost` per line: a 1024^3 matmul (no operand fits half of L2) gets tiles of many
rows, so B's packed block is reused by many row blocks; convolutions (windows) are left to
`tile_contract`. Ragged shapes (multiples of no tile) run against numpy and the interpreter.
"""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.diagnostics import CompileError
from plaidc.interp import program_io, run_program
from plaidc.targets import TargetConfig, load_target, parse_config
from plaidc.tile import compile_tile

from .support import EXAMPLES
from .support.gemm_tiles import inner_tiles

BACKENDS = ["c", "llvm"]


def gemm_config(backend: str, l2_bytes: int = 2 << 20, enabled: bool = True) -> TargetConfig:
    """The backend's shipped config with its `tile_gemm` step switched on (`enabled`), its
    `whole_gemm` step off, and a fixed L2."""
    text = load_target(backend).source
    step = '[[stage.default.passes]]\nname = "tile_gemm"\npass = "autotile"\nenabled = false\n'
    assert step in text
    text = text.replace(step, step.replace("false", "true" if enabled else "false"), 1)
    # the `whole_gemm` step before it would take the large products whole: off here
    whole = '[[stage.default.passes]]\nname = "whole_gemm"\npass = "autotile"\n'
    assert whole in text
    text = text.replace(whole, whole + "enabled = false\n", 1)
    text = text.replace("[hardware]\n", f"[hardware]\nl2_bytes = {l2_bytes}\n", 1)
    return parse_config(text, f"{backend}.toml")


def run(backend: str, name: str, dims: dict[str, int], seed: int) -> list[dict[str, int]]:
    """Compile `examples/NAME.tile` with the GEMM step, check it against the interpreter
    (and numpy for a matmul), and return the GEMM step's tiles."""
    cfg = gemm_config(backend)
    source = (EXAMPLES / f"{name}.tile").read_text()
    program = compile_tile(source, f"{name}.tile", dims=dims).program
    inputs = driver.random_inputs(program_io(program).inputs, seed=seed)
    steps = driver.resolve_steps(cfg.stage("default"))
    optimised = driver.run_pipeline(program, steps)
    got = get_backend(backend).compile(optimised, cfg).run(inputs)
    terms = driver.longest_reduction(program)  # `--check`'s tolerance for long sums
    assert not driver.compare_outputs(run_program(program, inputs), got, reduction_terms=terms)
    if name == "matmul":
        a, b = (inputs[k].astype(np.float64) for k in ("A", "B"))
        np.testing.assert_allclose(got["C"], a @ b, rtol=1e-4, atol=1e-3)
    return inner_tiles(optimised)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("m", "k", "n"), [(999, 1001, 1003), (1030, 517, 300), (77, 1500, 129)], ids=str
)
def test_ragged_matmuls_match(backend: str, m: int, k: int, n: int) -> None:
    tiles = run(backend, "matmul", {"M": m, "K": k, "N": n}, seed=m + k + n)
    assert tiles, "the GEMM step tiled nothing"


def test_big_matmul_gets_tall_tiles_and_convolutions_are_left_alone() -> None:
    """1024^3 with a 2 MiB L2: each input tile within 512 KiB, no operand resident: the
    step picks 512-row tiles (B's block reused by 64 row blocks of 8), not tile_contract's
    256x256x128 (a quarter of L2 in all); a convolution slides a window: not this step's."""
    cfg = gemm_config("c")
    steps = driver.resolve_steps(cfg.stage("default"))
    mm = compile_tile(
        (EXAMPLES / "matmul.tile").read_text(), "matmul.tile", dims=dict(M=1024, K=1024, N=1024)
    ).program
    (tile,) = inner_tiles(driver.run_pipeline(mm, steps))
    assert tile == {"k": 256, "m": 512, "n": 512}
    conv_dims = dict(N=1, H=18, W=18, CI=16, KH=3, KW=3, CO=16)
    conv = compile_tile(
        (EXAMPLES / "conv2d_bias_relu.tile").read_text(), "conv.tile", dims=conv_dims
    ).program
    assert inner_tiles(driver.run_pipeline(conv, steps)) == []


def test_the_step_is_off_by_default() -> None:
    """Shipped with `enabled = false`: the stage leaves it out, tile_contract tiles 1024^3
    for a quarter of L2 in all."""
    cfg = gemm_config("c", enabled=False)
    assert "tile_gemm" not in [step.name for step in cfg.stage("default")]
    mm = compile_tile(
        (EXAMPLES / "matmul.tile").read_text(), "matmul.tile", dims=dict(M=1024, K=1024, N=1024)
    ).program
    assert inner_tiles(driver.run_pipeline(mm, driver.resolve_steps(cfg.stage()))) == []


def test_enabled_must_be_a_bool() -> None:
    text = load_target("c").source.replace(
        'name = "tile_gemm"\npass = "autotile"\nenabled = false',
        'name = "tile_gemm"\npass = "autotile"\nenabled = "no"',
    )
    with pytest.raises(CompileError, match="`enabled` must be true or false"):
        parse_config(text, "c.toml")


@pytest.mark.parametrize("backend", BACKENDS)
def test_mlp_and_tmm_match(backend: str) -> None:
    run(backend, "mlp_3layer", dict(B=37, D0=300, D1=129, D2=64, D3=77), seed=5)
    run(backend, "tc_tmm", dict(M=65, N=300, K=1030), seed=6)
