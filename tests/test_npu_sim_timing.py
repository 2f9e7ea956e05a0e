"""The pipe-level timing model of NPU.md on tiny kernels (tests/npu_kernels/timing.c).

Each expected count is derived twice: as literal numbers for the shipped machine (the arithmetic
spelled out in comments) and as a formula over the machine description, evaluated on a second,
different machine, so the simulator cannot be hard-coding the defaults."""

from __future__ import annotations

import numpy as np
import pytest

from plaidc.backends.npu_sim import NpuMachine

from .support.npu_sim import default_machine, run


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def gm(m: NpuMachine, nbytes: int) -> int:
    return m.gm_latency + _ceil(nbytes, m.gm_bytes_per_cycle)


def l1_l0(m: NpuMachine, nbytes: int) -> int:
    return m.l1_l0_latency + _ceil(nbytes, m.l1_l0_bytes_per_cycle)


def l0c_ub(m: NpuMachine, nbytes: int) -> int:
    return m.l0c_ub_latency + _ceil(nbytes, m.l0c_ub_bytes_per_cycle)


def vector(m: NpuMachine, repeat: int) -> int:
    return repeat + m.vector_latency


def other_machine() -> NpuMachine:
    return default_machine().replace(
        gm_latency=90,
        gm_bytes_per_cycle=16,
        l1_l0_latency=5,
        l1_l0_bytes_per_cycle=64,
        l0c_ub_latency=7,
        l0c_ub_bytes_per_cycle=32,
        vector_latency=3,
    )


MACHINES = [
    pytest.param(default_machine(), id="default"),
    pytest.param(other_machine(), id="other"),
]


def test_default_numbers() -> None:
    m = default_machine()
    # GM -> UB 64 B: 200 + 64/64 = 201; vadds: 1 + 8 = 9 from 201; UB -> GM: 201 more from 210
    r = run(
        "timing.c", "dma_vector_dma", {"X": np.ones(16, np.float32), "O": np.zeros(16, np.float32)}
    )
    assert r.report.total_cycles == 411
    assert r.report.busy_cycles == {
        "PIPE_S": 0,
        "PIPE_V": 9,
        "PIPE_M": 0,
        "PIPE_MTE1": 0,
        "PIPE_MTE2": 201,
        "PIPE_MTE3": 201,
    }
    assert np.array_equal(r.buffers["O"], np.full(16, 2, np.float32))
    # L1: 10 KiB from GM, 200 + 160 = 360; L0A 4 KiB: 16 + 16 = 32; L0B 6 KiB: 16 + 24 = 40;
    # mad 32x64x48: 2*4*3 = 24; L0C -> UB 6 KiB: 16 + 24 = 40.  360+32+40+24+40 = 496
    r = run("timing.c", "cube_chain", {"A": np.zeros(5120, np.float16)})
    assert r.report.total_cycles == 496
    assert r.report.busy_cycles["PIPE_M"] == 24
    assert r.report.cube_utilisation == pytest.approx(32 * 64 * 48 / (496 * 4096))
    assert m.cube_macs_per_cycle == 4096


@pytest.mark.parametrize("m", MACHINES)
def test_serial_chain_adds_up(m: NpuMachine) -> None:
    r = run(
        "timing.c",
        "dma_vector_dma",
        {"X": np.ones(16, np.float32), "O": np.zeros(16, np.float32)},
        machine=m,
    )
    assert r.report.total_cycles == gm(m, 64) + vector(m, 1) + gm(m, 64)


@pytest.mark.parametrize("m", MACHINES)
def test_pipes_overlap_when_synchronised(m: NpuMachine) -> None:
    buffers = {
        "X": np.ones(16, np.float32),
        "Y": np.arange(1024, dtype=np.float32),
        "O": np.zeros(16, np.float32),
        "P": np.zeros(1024, np.float32),
    }
    r = run("timing.c", "overlap", buffers, machine=m)
    mte2 = gm(m, 64) + gm(m, 4096)  # the two loads back to back on MTE2
    v_done = gm(m, 64) + vector(m, 1)  # V starts after the first load only
    store_b = v_done + gm(m, 64)
    total = max(store_b, mte2) + gm(m, 4096)  # the second store waits for V's store and MTE2
    report = r.report
    assert report.total_cycles == total
    assert report.busy_cycles["PIPE_MTE2"] == mte2
    assert report.busy_cycles["PIPE_V"] == vector(m, 1)
    assert report.busy_cycles["PIPE_MTE3"] == gm(m, 64) + gm(m, 4096)
    # overlap: the pipes together were busy longer than the run took
    assert sum(report.busy_cycles.values()) > report.total_cycles
    assert np.array_equal(r.buffers["O"], np.full(16, 3, np.float32))
    assert np.array_equal(r.buffers["P"], buffers["Y"])


@pytest.mark.parametrize("m", MACHINES)
def test_cube_chain(m: NpuMachine) -> None:
    r = run("timing.c", "cube_chain", {"A": np.zeros(5120, np.float16)}, machine=m)
    frac = 512
    mad = _ceil(32, m.cube_m) * _ceil(64, m.cube_k) * _ceil(48, m.cube_n)
    total = gm(m, 20 * frac) + l1_l0(m, 8 * frac) + l1_l0(m, 12 * frac) + mad + l0c_ub(m, 6 * 1024)
    assert r.report.total_cycles == total
    assert r.report.busy_cycles["PIPE_M"] == mad
    assert r.report.macs == 32 * 64 * 48
    assert r.report.bytes_moved["L1->L0B"] == 12 * frac


@pytest.mark.parametrize("m", MACHINES)
def test_barrier_waits_for_every_pipe(m: NpuMachine) -> None:
    r = run("timing.c", "barrier", {"X": np.zeros(1024, np.float32)}, machine=m)
    assert r.report.total_cycles == gm(m, 4096) + vector(m, 16)


def test_report_json_and_table() -> None:
    r = run("timing.c", "cube_chain", {"A": np.zeros(5120, np.float16)})
    data = r.report.to_json()
    assert data["total_cycles"] == 496
    assert data["peak_bytes"] == {"L1": 10240, "UB": 6144, "L0A": 4096, "L0B": 6144, "L0C": 6144}
    assert data["bytes_moved"]["GM->L1"] == 10240
    assert data["unwaited_flags"] == 0
    table = r.report.render()
    assert "NPU simulation: 496 cycles (1 core)" in table
    assert "Cube: 98304 MACs, utilisation 4.8%" in table
    assert "L0B" in table and "65536" in table


@pytest.mark.parametrize("m", MACHINES)
def test_double_buffering_runs_clean_and_overlaps(m: NpuMachine) -> None:
    x = np.arange(8 * 512, dtype=np.float32)
    r = run("timing.c", "double_buffer", {"X": x, "O": np.zeros_like(x)}, machine=m)
    assert np.array_equal(r.buffers["O"], x + 1)
    load, compute = gm(m, 2048), vector(m, 8)
    assert load > compute  # so the loads (and the stores behind them) set the pace
    # steady state: one load per tile on MTE2; the last tile's compute and store trail it
    assert r.report.total_cycles == 8 * load + compute + load
    assert r.report.total_cycles < 8 * (2 * load + compute)  # what a serial schedule takes
    assert r.report.unwaited_flags == 0
