"""The machine is the config: Cubes of other sizes (`cube_m`, `cube_n`, `cube_k` each read),
the memories' sizes read from one description, and the Cube tiling's knobs.

Each program goes through the npu pipeline (whose Cube frames and paddings are written in the
config's Cube sizes) and the backend, runs on the simulator with the same machine, and must
match the interpreter with the Cube doing the work: a wrong fractal layout for a non-square
Cube gives wrong numbers, not just other cycles.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact
from plaidc.backends.npu_sim import NpuMachine
from plaidc.diagnostics import CompileError
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import Block, DType
from plaidc.targets import TargetConfig, load_target
from plaidc.tune.space import apply_point, build_space

from .support import EXAMPLES


def _target(hardware: dict[str, object] | None = None, **codegen: object) -> TargetConfig:
    base = load_target("npu")
    return dataclasses.replace(
        base,
        hardware={**base.hardware, **(hardware or {})},
        codegen={**base.codegen, **codegen},
    )


def _matmul(m: int, k: int, n: int, dtype: str) -> Block:
    shapes = {"A": (DType(dtype), (m, k)), "B": (DType(dtype), (k, n))}
    bindings = driver.Bindings(dims={"M": m, "K": k, "N": n}, shapes=shapes)
    return driver.load_program(driver.Session(), str(EXAMPLES / "matmul.tile"), bindings)


def _conv() -> Block:
    dims = {"N": 1, "H": 9, "W": 11, "CI": 5, "KH": 3, "KW": 3, "CO": 20}
    path = str(EXAMPLES / "conv2d_padded.tile")
    return driver.load_program(driver.Session(), path, driver.Bindings(dims=dims))


def _run(program: Block, target: TargetConfig) -> NpuArtifact:
    """Through the pipeline and the backend; the simulated outputs match the interpreter."""
    compiled = driver.run_pipeline(program, driver.resolve_steps(target.stage("default")))
    artifact = get_backend("npu").compile(compiled, target)
    assert isinstance(artifact, NpuArtifact)
    inputs = driver.random_inputs(program_io(program).inputs, seed=5)
    got = artifact.run({k: v.copy() for k, v in inputs.items()})
    mismatches = driver.compare_outputs(run_program(program, inputs), got)
    assert not mismatches, mismatches[0].message
    return artifact


CUBES = [(32, 32, 32), (32, 16, 16), (16, 32, 16), (16, 16, 48), (48, 32, 16)]


@pytest.mark.parametrize(("cube_m", "cube_n", "cube_k"), CUBES)
@pytest.mark.parametrize(
    "program", ["matmul 40x70x50 fp32", "matmul 40x70x50 fp16", "matmul 9x33x17 fp16", "conv"]
)
def test_other_cube_sizes_run_contractions_on_the_cube(
    cube_m: int, cube_n: int, cube_k: int, program: str
) -> None:
    if program == "conv":
        prog = _conv()
    else:
        dims, dtype = program.split()[1:]
        m, k, n = (int(x) for x in dims.split("x"))
        prog = _matmul(m, k, n, dtype)
    cube = {"cube_m": cube_m, "cube_n": cube_n, "cube_k": cube_k}
    artifact = _run(prog, _target(cube))
    report = artifact.last_report
    assert report is not None and report.macs > 0, "the contraction did not run on the Cube"
    # each mad's dimensions are whole fractals of this Cube: mad(c, a, b, m, k, n, init)
    mads = re.findall(r"mad\([^;]*?, (\d+), (\d+), (\d+), [01]\);", artifact.source)
    assert mads
    for m, k, n in mads:
        assert int(m) % cube_m == 0 and int(k) % cube_k == 0 and int(n) % cube_n == 0


def test_the_cube_size_changes_the_mapping() -> None:
    """A 32-wide Cube takes half as many mads' worth of fractal rows as a 16-wide one on the
    same matmul, and its report counts its own MACs per cycle."""
    prog = _matmul(64, 64, 64, "fp16")
    small = _run(prog, _target()).last_report
    large = _run(prog, _target({"cube_m": 32, "cube_n": 32, "cube_k": 32})).last_report
    assert small is not None and large is not None
    assert small.cube_macs_per_cycle == 16**3 and large.cube_macs_per_cycle == 32**3
    assert large.busy_cycles["PIPE_M"] < small.busy_cycles["PIPE_M"]


@pytest.mark.parametrize(
    ("cube", "why"),
    [
        ({"cube_k": 8}, "multiples of 16"),
        ({"cube_n": 24}, "multiples of 16"),
        ({"cube_n": 128}, r"cube_n \* 4 at most vector_repeat_bytes \(256\)"),
    ],
)
def test_a_cube_the_code_generator_cannot_map_is_named(cube: dict[str, int], why: str) -> None:
    with pytest.raises(CompileError, match=rf"cube_m/cube_n/cube_k = .*{why}"):
        get_backend("npu").compile(_matmul(16, 16, 16, "fp32"), _target(cube))


def test_the_memories_come_from_the_description() -> None:
    """Sizes and alignments of each memory are the config's, read through one table."""
    hardware = {**load_target("npu").hardware, "ub_bytes": 65536, "l1_align": 64}
    machine = NpuMachine.from_hardware(hardware)
    assert machine.memory("UB") == (65536, 32)
    assert machine.memory("L1") == (hardware["l1_bytes"], 64)
    assert machine.memory("L0A")[1] == machine.memory("L0B")[1] == hardware["l0ab_align"]
    with pytest.raises(KeyError):
        machine.memory("GM")


def _tiles(artifact: NpuArtifact) -> int:
    """The output tiles of the (one) Cube kernel, from the C's "tile 1 of N" comment."""
    found = re.search(r"tile 1 of (\d+)", artifact.source)
    return int(found.group(1)) if found else 1


def test_the_cube_tile_knobs_bound_the_tiles() -> None:
    """`cube_tile_m`/`cube_tile_n`/`cube_k_step` bound a tile's points of M, N and K; the
    results still match, with more tiles and K steps than the default's."""
    prog = _matmul(128, 256, 96, "fp16")
    default = _run(prog, _target())
    bounded = _run(prog, _target(cube_tile_m=32, cube_tile_n=32, cube_k_step=64))
    assert _tiles(bounded) > _tiles(default)
    for m, k, n in re.findall(r"mad\([^;]*?, (\d+), (\d+), (\d+), [01]\);", bounded.source):
        assert int(m) <= 32 and int(n) <= 32 and int(k) <= 64


def test_a_bad_cube_tile_knob_is_named() -> None:
    with pytest.raises(CompileError, match=r"\[codegen\] cube_tile_m = -16 must be"):
        get_backend("npu").compile(_matmul(16, 16, 16, "fp32"), _target(cube_tile_m=-16))


def test_plaidc_tune_searches_the_cube_tile_knobs() -> None:
    """npu.toml's [tune.codegen] names the knobs; a point setting them reaches the backend."""
    cfg = load_target("npu")
    space = build_space(cfg, "default")
    params = {p.name: p.values for p in space.params}
    for knob in ("codegen.cube_tile_m", "codegen.cube_tile_n", "codegen.cube_k_step"):
        assert params[knob][0] == 0 and len(params[knob]) > 2
        assert space.default_point()[knob] == 0
    point = {**space.default_point(), "codegen.cube_tile_n": 16}
    tuned, steps = apply_point(cfg, "default", point)
    program = driver.run_pipeline(_matmul(32, 32, 64, "fp16"), driver.resolve_steps(steps))
    artifact = get_backend("npu").compile(program, tuned)
    assert isinstance(artifact, NpuArtifact)
    assert _tiles(artifact) == 4  # N = 64 in tiles of 16
