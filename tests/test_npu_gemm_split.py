"""A GEMM's K steps larger than an L0 half (`cube_tiling.l0_split`: K ranges, M parts), its
tilings ranked by estimated cycles, and fp16 results stored by fractal columns
(`cube_store`): each run on the simulator against the interpreter."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact, cube, cube_tiling
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import DType
from plaidc.targets import TargetConfig, load_target

from .support import EXAMPLES


def _target(hardware: dict[str, Any] | None = None, **codegen: Any) -> TargetConfig:
    base = load_target("npu")
    return dataclasses.replace(
        base,
        hardware={**base.hardware, **(hardware or {})},
        codegen={**base.codegen, **codegen},
    )


def _run(m: int, k: int, n: int, dtype: str, target: TargetConfig) -> NpuArtifact:
    shapes = {"A": (DType(dtype), (m, k)), "B": (DType(dtype), (k, n))}
    program = driver.load_program(
        driver.Session(), str(EXAMPLES / "matmul.tile"), driver.Bindings(shapes=shapes)
    )
    compiled = driver.run_pipeline(program, driver.resolve_steps(target.stage("default")))
    artifact = get_backend("npu").compile(compiled, target)
    assert isinstance(artifact, NpuArtifact)
    inputs = driver.random_inputs(program_io(program).inputs, seed=7)
    got = artifact.run(inputs)
    loose = artifact.reduced_precision
    mismatches = driver.compare_outputs(run_program(program, inputs), got, loose)
    assert not mismatches, mismatches[0].message
    report = artifact.report_json()
    assert report is not None and report["unwaited_flags"] == 0
    return artifact


@pytest.fixture
def n_blocks_of_128(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ranked tilings cut to those with N blocks of 128: the tests below lower one
    tiling, whichever the estimate would put first (`cube_cost`: a close call between
    256 x 128 and 256 x 64 tiles of this 512 x 256 x 256 matmul, 20,960 and 21,344
    simulated cycles)."""
    ranked = cube.ranked

    def only_128(ctx: Any, con: Any, found: Any) -> list[Any]:
        return [t for t in ranked(ctx, con, found) if cube_tiling._extent(t.n) == 128]

    monkeypatch.setattr(cube, "ranked", only_128)


def _mads(artifact: NpuArtifact) -> list[tuple[int, int, int]]:
    """(m, k, n) of each `mad` in the C."""
    found = []
    for line in artifact.source.splitlines():
        if "mad((" in line:
            args = [a.strip() for a in line.rsplit(")", 2)[-2].split(",")]
            found.append((int(args[-4]), int(args[-3]), int(args[-2])))
    return found


@pytest.mark.usefixtures("n_blocks_of_128")
@pytest.mark.parametrize("dtype", ["fp16", "fp32"])
def test_a_tile_taller_than_an_l0a_half_takes_m_parts(dtype: str) -> None:
    """256 x 128 tiles with K steps of 128: A's 256 x 128 fp16 fractals are a whole L0A, so
    each K step's products go in M parts of at most 128 rows (fp32: hi and lo parts, 64),
    each into its own accumulator, B loaded once for them."""
    target = _target(cube_tile_m=256, cube_tile_n=128, cube_k_step=128)
    artifact = _run(512, 256, 256, dtype, target)
    mads = _mads(artifact)
    assert mads and all(m <= 128 and k <= 128 and n == 128 for m, k, n in mads)


@pytest.mark.parametrize("dtype", ["fp16", "fp32"])
def test_a_k_step_longer_than_an_l0_half_takes_k_ranges(dtype: str) -> None:
    """K steps of 256 on 128 x 128 tiles: B's 256 x 128 fp16 fractals are a whole L0B, so
    each K step reaches the Cube in two ranges of its K fractals (ragged K: 300)."""
    target = _target(cube_tile_m=128, cube_tile_n=128, cube_k_step=256)
    artifact = _run(256, 300, 256, dtype, target)
    mads = _mads(artifact)
    assert mads and all(k <= 128 for _, k, _ in mads)


@pytest.mark.usefixtures("n_blocks_of_128")
def test_an_fp16_result_too_large_for_rows_is_stored_by_fractal_columns() -> None:
    """A 256 x 128 fp16 tile: its fractals and rows would take the whole UB share, so it goes
    to GM by one DMA per fractal column (8 per tile), with no vector pass making rows."""
    target = _target(cube_tile_m=256, cube_tile_n=128, cube_k_step=128)
    artifact = _run(512, 256, 256, "fp16", target)
    stores = [line for line in artifact.source.splitlines() if "copy_ubuf_to_gm(C" in line]
    assert stores and all(", 0, 256, 1, 0, 15);" in line for line in stores)
    assert "CC_MODE_F16" in artifact.source


def test_the_backend_tiles_replace_the_pipelines_only_when_estimated_faster() -> None:
    """fp16 1024 x 256 x 512: the backend's tiling (estimated at least 10% faster) runs in
    fewer simulated cycles than the pass pipeline's; `cube_own_tiles = false` keeps the
    pipeline's."""
    own = _run(1024, 256, 512, "fp16", _target())
    pipeline = _run(1024, 256, 512, "fp16", _target(cube_own_tiles=False))
    assert "tiles chosen by the backend (estimated faster" in own.source
    assert "tiles chosen by the pass pipeline" in pipeline.source
    assert own.last_report is not None and pipeline.last_report is not None
    assert own.last_report.total_cycles < pipeline.last_report.total_cycles
