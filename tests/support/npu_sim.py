"""Helpers for the NPU simulator tests: build the hand-written kernels of tests/npu_kernels."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from plaidc.backends.npu_sim import NpuKernel, NpuMachine, NpuRun, compile_kernel
from plaidc.backends.npu_sim.runner import DEFAULT_CFLAGS
from plaidc.targets import load_target

from .paths import TESTS

KERNELS = TESTS / "npu_kernels"


def default_machine() -> NpuMachine:
    """The machine of the shipped npu target config."""
    return NpuMachine.from_hardware(load_target("npu").hardware)


def build(file: str, kernel: str, params: tuple[str, ...], *defines: str) -> NpuKernel:
    """Compile `kernel` of tests/npu_kernels/`file` (with -Wall -Werror and extra -D defines)."""
    source = (KERNELS / file).read_text()
    cflags = (*DEFAULT_CFLAGS, *(f"-D{d}" for d in defines))
    return compile_kernel(source, kernel, params, filename=file, cflags=cflags)


def run(
    file: str,
    kernel: str,
    buffers: Mapping[str, np.ndarray],
    *defines: str,
    machine: NpuMachine | None = None,
) -> NpuRun:
    built = build(file, kernel, tuple(buffers), *defines)
    return built.run(buffers, machine or default_machine())


def error_line(file: str, kernel: str) -> int:
    """The line of `file` marked `expect-error: <kernel>`."""
    lines = (KERNELS / file).read_text().splitlines()
    marked = [i + 1 for i, text in enumerate(lines) if f"expect-error: {kernel} " in text + " "]
    assert len(marked) == 1, f"{file} marks {kernel} {len(marked)} times"
    return marked[0]
