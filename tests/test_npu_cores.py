"""Several NPU cores (`[hardware] cores`): a Cube kernel's rows of output tiles split over the
cores by block_idx, other kernels on core 0, a cross-core barrier between dependent kernels."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends.npu_sim import NpuSimError
from plaidc.interp import program_io
from plaidc.targets import TargetConfig, load_target

from .support.backend_npu_units import run_checked, tile_program
from .support.paths import EXAMPLES

MATMUL = (EXAMPLES / "matmul.tile").read_text()
# a matmul whose columns a max over the rows (a vector kernel) reads whole: the max needs every
# core's rows, so it waits at a cross-core barrier
MATMUL_T = """function (A[M, K], B[K, N]) -> (T) {
  C[m, n : M, N] = +(A[m, k] * B[k, n]);
  T[n : N] = >(C[m, n]);
}"""
SHAPES = {"A": ("fp32", (512, 256)), "B": ("fp32", (256, 256))}


def on_cores(cores: int) -> TargetConfig:
    base = load_target("npu")
    return dataclasses.replace(base, hardware={**base.hardware, "cores": cores})


def test_matmul_splits_its_output_rows_over_the_cores() -> None:
    program = tile_program(MATMUL, SHAPES)
    one = run_checked(program, on_cores(1)).last_report
    four = run_checked(program, on_cores(4))
    report = four.last_report
    assert one is not None and report is not None
    assert "block_idx" in four.source
    # every core did a quarter of the Cube's work, and the run is about 4x shorter
    assert len(report.core_busy) == 4
    assert [busy["PIPE_M"] for busy in report.core_busy] == [one.busy_cycles["PIPE_M"] // 4] * 4
    assert report.busy_cycles["PIPE_M"] == one.busy_cycles["PIPE_M"]
    assert report.total_cycles == max(report.core_cycles)
    assert report.total_cycles * 3.2 <= one.total_cycles
    assert report.core_barriers == 0  # one kernel: nothing to wait for


@pytest.mark.parametrize("cores", [2, 3])
def test_uneven_splits_match(cores: int) -> None:
    # 4 rows of output tiles over 3 cores (2, 1, 1): the cores' code is not alike
    program = tile_program(MATMUL, SHAPES)
    report = run_checked(program, on_cores(cores)).last_report
    assert report is not None
    assert all(cycles > 0 for cycles in report.core_cycles)


def test_dependent_kernels_wait_at_a_cross_core_barrier() -> None:
    program = tile_program(MATMUL_T, SHAPES)
    artifact = run_checked(program, on_cores(2))
    report = artifact.last_report
    assert report is not None
    assert artifact.source.count("sync_all_cores();") == 1
    assert report.core_barriers == 1
    assert "if (block_idx == 0)" in artifact.source  # the max runs on core 0
    # the report shows each core's pipes: core 1 only did its half of the matmul
    assert report.core_busy[1]["PIPE_M"] == report.core_busy[0]["PIPE_M"]
    assert report.core_cycles[1] < report.core_cycles[0]
    # without the barrier, the simulator's GM race check catches the max reading rows
    # core 1 wrote
    broken = dataclasses.replace(
        artifact, source=artifact.source.replace("sync_all_cores();", ""), built=None
    )
    inputs = driver.random_inputs(program_io(program).inputs, 3)
    with pytest.raises(NpuSimError, match="cross-core race: core 1 writes GM"):
        broken.run(inputs)


def test_vector_kernels_run_on_core_zero() -> None:
    program = tile_program((EXAMPLES / "softmax.tile").read_text(), {"X": ("fp32", (8, 40))})
    artifact = run_checked(program, on_cores(2))
    report = artifact.last_report
    assert report is not None
    assert "if (block_idx == 0)" in artifact.source
    assert report.core_cycles[1] == 0 and report.core_barriers == 0
    assert np.all(np.array(list(report.core_busy[1].values())) == 0)
