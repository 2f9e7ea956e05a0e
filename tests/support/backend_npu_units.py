"""Tiling a program for the NPU and running it checked against the interpreter."""

from __future__ import annotations

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import Block, DType
from plaidc.targets import TargetConfig
from plaidc.tile import compile_tile


def tile_program(text: str, shapes: dict[str, tuple[str, tuple[int, ...]]]) -> Block:
    typed = {name: (DType(dt), dims) for name, (dt, dims) in shapes.items()}
    return compile_tile(text, "test.tile", shapes=typed).program


def run_checked(program: Block, target: TargetConfig, seed: int = 3) -> NpuArtifact:
    artifact = get_backend("npu").compile(program, target)
    assert isinstance(artifact, NpuArtifact)
    inputs = driver.random_inputs(program_io(program).inputs, seed)
    got = artifact.run(inputs)
    mismatches = driver.compare_outputs(run_program(program, inputs), got)
    assert not mismatches, mismatches[0].message
    return artifact
