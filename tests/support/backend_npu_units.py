"""Tiling a program for the NPU and running it checked against the interpreter."""

from __future__ import annotations

import dataclasses

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import Block, DType
from plaidc.targets import TargetConfig, load_target
from plaidc.tile import compile_tile


def tile_program(text: str, shapes: dict[str, tuple[str, tuple[int, ...]]]) -> Block:
    typed = {name: (DType(dt), dims) for name, (dt, dims) in shapes.items()}
    return compile_tile(text, "test.tile", shapes=typed).program


def run_checked(
    program: Block, target: TargetConfig, seed: int = 3, pipeline: bool = False
) -> NpuArtifact:
    """`program` compiled for `target` (after the target's default pass pipeline, as `plaidc
    run` has it, when `pipeline`) and run on the simulator on random inputs: its outputs must
    match the interpreter's and every flag set must have been waited for."""
    compiled = program
    if pipeline:
        compiled = driver.run_pipeline(program, driver.resolve_steps(target.stage("default")))
    artifact = get_backend("npu").compile(compiled, target)
    assert isinstance(artifact, NpuArtifact)
    inputs = driver.random_inputs(program_io(program).inputs, seed)
    got = artifact.run({name: value.copy() for name, value in inputs.items()})
    mismatches = driver.compare_outputs(run_program(program, inputs), got)
    assert not mismatches, mismatches[0].message
    report = artifact.last_report
    assert report is not None and report.unwaited_flags == 0
    return artifact


def unrolled() -> TargetConfig:
    """The npu target writing one copy of the code per tile and K step (`loops = false`),
    for tests that read the addresses each one uses off the C."""
    target = load_target("npu")
    return dataclasses.replace(target, codegen={**dict(target.codegen), "loops": False})


def with_changes(
    hardware: dict[str, object] | None = None, target: str = "npu", **codegen: object
) -> TargetConfig:
    """The `target` config (npu or npu-strict) with some of its hardware and codegen changed."""
    base = load_target(target)
    return dataclasses.replace(
        base,
        hardware={**base.hardware, **(hardware or {})},
        codegen={**base.codegen, **codegen},
    )
