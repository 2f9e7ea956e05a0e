"""A fused epilogue's loop-invariant input (a conv's or a dense layer's bias) is loaded by each
core's first output tile only and kept in UB for the core's other tiles (`GemmResult._epilogue`,
its bytes held out of every later arena by `Context.held`). Simulated against the interpreter:
a tile that allocated over the held bias would change the result."""

from __future__ import annotations

import pytest

from plaidc.targets import load_target

from .support.backend_npu_units import run_checked, with_changes
from .test_npu_epilogue import CONV_BIAS_RELU, MLP, assert_one_cube_kernel, conv_shapes, pipelined


def bias_loads(source: str) -> int:
    """The bias's GM -> UB transfers in the C (each core's code, a loop body once)."""
    return sum(1 for line in source.splitlines() if "copy_gm_to_ubuf(" in line and ", B," in line)


@pytest.mark.parametrize("cores", [1, 2])
def test_conv_bias_is_loaded_once_per_core(cores: int) -> None:
    """30x30x32->48: 7 rows of output tiles, 4 and 3 a core on 2 cores."""
    program = pipelined(CONV_BIAS_RELU, conv_shapes("fp16", 30, 30, 32, 48))
    artifact = run_checked(program, with_changes({"cores": cores}))
    assert_one_cube_kernel(artifact.source)
    assert bias_loads(artifact.source) == cores
    report = artifact.report_json()
    assert report is not None and len(report["per_core"]) == cores


def test_a_ragged_last_tile_loads_its_own_bias() -> None:
    """20x20x16->24: the last row of tiles is smaller; its bias layout is not the others'."""
    program = pipelined(CONV_BIAS_RELU, conv_shapes("fp16", 20, 20, 16, 24))
    artifact = run_checked(program, with_changes({"cores": 2}))
    assert_one_cube_kernel(artifact.source)


def test_mlp_bias_is_kept_across_its_tiles() -> None:
    shapes = {"X": ("fp16", (512, 64)), "W": ("fp16", (64, 64)), "B": ("fp16", (64,))}
    artifact = run_checked(pipelined(MLP, shapes), load_target("npu"))
    assert_one_cube_kernel(artifact.source)
    assert "tile 2 of" in artifact.source or "iterations" in artifact.source
    assert bias_loads(artifact.source) == 1


def test_the_naive_mapping_loads_the_bias_in_every_tile() -> None:
    """`reuse = false` (the naive baseline keeps nothing across tiles)."""
    program = pipelined(CONV_BIAS_RELU, conv_shapes("fp16", 30, 30, 32, 48))
    artifact = run_checked(program, with_changes(reuse=False))
    assert bias_loads(artifact.source) > 1
