"""Issue #7: the same code on a smaller chip. A user config with UB = 64 KiB and L1 = 256 KiB
(everything else as `npu.toml`) compiles and runs every program: the tiles
shrink, nothing overflows (the simulator rejects any access beyond a buffer's capacity), and the
outputs still match the interpreter."""

from __future__ import annotations

import re
from importlib import resources

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact
from plaidc.diagnostics import CompileError
from plaidc.interp import run_program
from plaidc.stripe.ir import DType
from plaidc.targets import TargetConfig, parse_config
from plaidc.tile import compile_tile

from .support.backend_c import NPU_REFUSED, PROGRAMS, load_program, program_inputs

SMALL = {"ub_bytes": 64 * 1024, "l1_bytes": 256 * 1024}


def small_chip() -> TargetConfig:
    text = (resources.files("plaidc") / "targets" / "npu.toml").read_text()
    for key, value in SMALL.items():
        text, count = re.subn(rf"(?m)^{key}\s*=\s*\d+", f"{key} = {value}", text)
        assert count == 1, f"npu.toml has no single `{key} = ...` line"
    return parse_config(text, "small_npu.toml")


def test_small_chip_really_is_smaller() -> None:
    cfg = small_chip()
    assert cfg.hardware["ub_bytes"] == SMALL["ub_bytes"]
    assert cfg.hardware["l1_bytes"] == SMALL["l1_bytes"]


@pytest.mark.parametrize("program_id", PROGRAMS)
def test_small_chip_runs_every_program(program_id: str) -> None:
    cfg = small_chip()
    program = load_program(program_id)
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    if program_id in NPU_REFUSED:
        with pytest.raises(CompileError, match=NPU_REFUSED[program_id]):
            get_backend("npu").compile(compiled, cfg)
        return
    artifact = get_backend("npu").compile(compiled, cfg)
    assert isinstance(artifact, NpuArtifact)
    inputs = program_inputs(program_id, program)
    got = artifact.run({k: v.copy() for k, v in inputs.items()})
    mismatches = driver.compare_outputs(run_program(program, inputs), got)
    assert not mismatches, mismatches[0].message
    report = artifact.report_json()
    assert report is not None
    # The simulator ran with the small capacities, and nothing used more than them.
    for memory, limit in (("UB", SMALL["ub_bytes"]), ("L1", SMALL["l1_bytes"])):
        assert report["capacity"][memory] == limit
        assert report["peak_bytes"][memory] <= limit


MATMUL = "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }"


@pytest.mark.parametrize(
    ("m", "k", "n"),
    [
        (513, 128, 16),  # a last M tile of one row: A's window is that row, its gather too
        (16, 100, 1030),  # B's rows (4120 B) are no whole number of blocks: K steps shrink
        (260, 8, 260),
    ],
)
def test_small_chip_runs_ragged_matmuls(m: int, k: int, n: int) -> None:
    """Found by fuzzing: the gather of A read 32 rows of a one-row window (a hazard with
    B's load beside it: the constraint on M alone bounded C but not A), and no tiling fitted
    when B's window had to span whole rows of a 1030-wide matrix."""
    cfg = small_chip()
    program = compile_tile(
        MATMUL, "ragged.tile", shapes={"A": (DType.FP32, (m, k)), "B": (DType.FP32, (k, n))}
    ).program
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    rng = np.random.default_rng(m + n)
    inputs = {
        "A": rng.uniform(-1, 1, (m, k)).astype(np.float32),
        "B": rng.uniform(-1, 1, (k, n)).astype(np.float32),
    }
    got = get_backend("npu").compile(compiled, cfg).run(inputs)["C"]
    want = inputs["A"].astype(np.float64) @ inputs["B"].astype(np.float64)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_a_pipeline_tiling_that_leaves_few_fitting_tilings() -> None:
    """A Cube budget that also counts UB (columns of B cut to 16) on the small chip, for B's
    1030-wide rows (4120 B, no whole number of blocks): of the tilings that plausibly fit,
    the first 66 run out of UB when planned; the backend gave up after 32 ("no tiling fits")."""
    old = 'max_each_input_size = "${min(hardware.l0a_bytes, hardware.l0b_bytes) // 2}"'
    new = old.replace("hardware.l0b_bytes)", "hardware.l0b_bytes, hardware.ub_bytes // 4)")
    text = small_chip().source
    assert old in text
    cfg = parse_config(text.replace(old, new), "small_npu.toml")
    program = compile_tile(
        MATMUL, "ragged.tile", shapes={"A": (DType.FP32, (16, 100)), "B": (DType.FP32, (100, 1030))}
    ).program
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    rng = np.random.default_rng(3)
    inputs = {"A": rng.uniform(-1, 1, (16, 100)), "B": rng.uniform(-1, 1, (100, 1030))}
    inputs = {k: v.astype(np.float32) for k, v in inputs.items()}
    got = get_backend("npu").compile(compiled, cfg).run(inputs)["C"]
    np.testing.assert_allclose(got, inputs["A"] @ inputs["B"], rtol=1e-4, atol=1e-4)


def test_small_chip_transposes_with_misaligned_rows() -> None:
    """513 x 300 fp32 transposed: neither row (1200 B, 2052 B) is a whole number of 32-B
    blocks, so windows span whole rows and only tiles cut in both indices fit 64 KiB (no
    tiling fitted before the backend tried square-ish tiles)."""
    cfg = small_chip()
    text = "function (A[I, J]) -> (O) { O[j, i : J, I] = =(A[i, j]); }"
    program = compile_tile(text, "t.tile", shapes={"A": (DType.FP32, (513, 300))}).program
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    a = np.random.default_rng(2).uniform(-1, 1, (513, 300)).astype(np.float32)
    got = get_backend("npu").compile(compiled, cfg).run({"A": a})["O"]
    np.testing.assert_array_equal(got, a.T)
