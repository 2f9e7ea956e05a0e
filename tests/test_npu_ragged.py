"""Issue 21: ragged matrix products on the NPU (M, K or N no multiple of the fractal, rows no
whole number of 32-B blocks) run on the Cube with their rows brought in and stored by
byte-exact transfers (`copy_gm_to_ubuf_align`, `copy_ubuf_to_gm_align`), not gathered element
by element on the vector unit, and no shape that fits the machine is refused. Checked against
the interpreter (small shapes) or numpy."""

from __future__ import annotations

import dataclasses
import re
from importlib import resources

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact
from plaidc.interp import run_program
from plaidc.stripe.ir import DType
from plaidc.targets import TargetConfig, load_target, parse_config
from plaidc.tile import compile_tile

from .support.backend_c import load_program, program_inputs

MATMUL = "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }"
DTYPES = {"fp16": (DType.FP16, np.float16), "fp32": (DType.FP32, np.float32)}


def _chip(kind: str, cores: int = 1, lacks: dict[str, list[str]] | None = None) -> TargetConfig:
    lacks = lacks or {}
    if kind == "small":  # UB 64 KiB, L1 256 KiB (test_backend_npu_small_memory)
        text = (resources.files("plaidc") / "targets" / "npu.toml").read_text()
        for key, value in {"ub_bytes": 65536, "l1_bytes": 262144}.items():
            text = re.sub(rf"(?m)^{key}\s*=\s*\d+", f"{key} = {value}", text)
        cfg = parse_config(text, "small_npu.toml")
    elif kind == "strict":  # NPU.md's DMAs only: no byte-exact `_align` transfers
        cfg = load_target("npu-strict")
    else:
        cfg = load_target("npu")
    return dataclasses.replace(cfg, hardware={**dict(cfg.hardware), "cores": cores, **lacks})


def _run(
    m: int, k: int, n: int, dtype: str, chip: str = "default", cores: int = 1, **hardware: list[str]
) -> tuple[NpuArtifact, dict[str, np.ndarray], np.ndarray]:
    cfg = _chip(chip, cores, hardware)
    ir_type, np_type = DTYPES[dtype]
    program = compile_tile(
        MATMUL, "ragged.tile", shapes={"A": (ir_type, (m, k)), "B": (ir_type, (k, n))}
    ).program
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    artifact = get_backend("npu").compile(compiled, cfg)
    assert isinstance(artifact, NpuArtifact)
    rng = np.random.default_rng(m * 7 + k * 3 + n)
    inputs = {
        "A": rng.uniform(-1, 1, (m, k)).astype(np_type),
        "B": rng.uniform(-1, 1, (k, n)).astype(np_type),
    }
    got = np.asarray(artifact.run({key: v.copy() for key, v in inputs.items()})["C"])
    if m * k * n <= 200_000:  # the interpreter, as `plaidc run --check` compares
        mismatches = driver.compare_outputs(run_program(program, inputs), {"C": got})
        assert not mismatches, mismatches[0].message
    want = inputs["A"].astype(np.float64) @ inputs["B"].astype(np.float64)
    tol = 2e-2 if dtype == "fp16" else 1e-4
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol)
    return artifact, inputs, got


@pytest.mark.parametrize(
    ("m", "k", "n", "dtype", "chip", "cores"),
    [
        (17, 33, 5, "fp16", "default", 1),  # smaller than one fractal in every direction
        (17, 33, 5, "fp32", "small", 1),
        (100, 300, 70, "fp16", "default", 1),  # rows of 600 and 140 bytes
        (100, 300, 70, "fp32", "default", 2),
        (130, 128, 128, "fp16", "default", 1),  # ragged in M alone
        (128, 130, 128, "fp32", "default", 1),  # ... in K alone (A's rows)
        (128, 128, 130, "fp16", "small", 1),  # ... in N alone (B's and C's rows)
        (200, 190, 230, "fp32", "default", 4),
    ],
)
def test_ragged_matmul_runs_on_the_cube(
    m: int, k: int, n: int, dtype: str, chip: str, cores: int
) -> None:
    artifact, _, _ = _run(m, k, n, dtype, chip, cores)
    report = artifact.report_json()
    assert report is not None
    assert report["cube_macs"] > 0  # the Cube did the products
    # no element-by-element gather of the operands or scatter of the result
    assert "plaidc_spread" not in artifact.source
    if k % 16 or n % 16:
        assert "_align(" in artifact.source
    if cores > 1 and m > 128:  # several rows of tiles: the cores' stores write disjoint bytes
        working = [c for c in report["per_core"] if c["busy_cycles"]["PIPE_M"] > 0]
        assert len(working) > 1


@pytest.mark.parametrize(
    ("m", "k", "n", "dtype", "chip"),
    [
        (300, 200, 500, "fp32", "small"),  # refused: "no tiling fits"
        (520, 490, 530, "fp32", "default"),  # ragged in all three, two K steps
    ],
)
def test_ragged_fp32_matmuls_that_were_refused(
    m: int, k: int, n: int, dtype: str, chip: str
) -> None:
    _run(m, k, n, dtype, chip)


def test_ragged_rows_reach_the_cube_without_the_vector_unit() -> None:
    """fp16 100 x 300 x 70: each operand's rows come in as the rows of its matrix (no vector
    instruction lays them out), and the result's rows go out by one transfer."""
    artifact, _, _ = _run(100, 300, 70, "fp16")
    source = artifact.source
    assert "copy_gm_to_ubuf_align(" in source and "copy_ubuf_to_gm_align(" in source
    assert "vcmax" not in source


# --------------------------------------------------------------------------------------------
# NPU.md's strict machine (`npu-strict`: `[hardware] lacks` both `_align` DMAs): ragged rows come
# in as whole blocks and the vector unit lays them out; the result goes back the same way.

ALIGN_DMAS = ("copy_gm_to_ubuf_align", "copy_ubuf_to_gm_align")


@pytest.mark.parametrize(
    ("m", "k", "n", "dtype", "cores"),
    [
        (17, 33, 5, "fp16", 1),  # smaller than one fractal in every direction
        (17, 33, 5, "fp32", 2),
        (100, 300, 70, "fp16", 1),  # rows of 600 and 140 bytes
        (100, 300, 70, "fp32", 2),
        (130, 128, 128, "fp16", 2),  # ragged in M alone
        (128, 130, 128, "fp32", 1),  # ... in K alone (A's rows)
        (128, 128, 130, "fp16", 1),  # ... in N alone (B's and C's rows)
        (150, 90, 110, "fp32", 1),  # ... in all three
    ],
)
def test_ragged_matmul_on_the_strict_chip(m: int, k: int, n: int, dtype: str, cores: int) -> None:
    artifact, _, _ = _run(m, k, n, dtype, "strict", cores)
    assert set(artifact.machine.lacks) == set(ALIGN_DMAS)
    report = artifact.report_json()
    assert report is not None and report["cube_macs"] > 0  # still the Cube's products
    assert "_align(" not in artifact.source
    assert "copy_gm_to_ubuf(" in artifact.source and "copy_ubuf_to_gm(" in artifact.source


def test_the_strict_chip_costs_nothing_where_rows_are_whole_blocks() -> None:
    """The default chip takes the operands' rows as `_align` bursts even when they are whole
    blocks; the strict one takes them as one contiguous transfer of the same blocks."""
    strict, _, _ = _run(160, 64, 48, "fp16", "strict")
    full, _, _ = _run(160, 64, 48, "fp16")
    assert "_align(" not in strict.source
    strict_report, full_report = strict.report_json(), full.report_json()
    assert strict_report is not None and full_report is not None
    assert strict_report["total_cycles"] == full_report["total_cycles"]


@pytest.mark.parametrize("lacked", ALIGN_DMAS)
def test_a_chip_may_lack_one_byte_exact_direction(lacked: str) -> None:
    """fp16 100 x 300 x 70 uses both on the default chip; without one, that direction moves
    whole blocks and the other stays byte-exact."""
    artifact, _, _ = _run(100, 300, 70, "fp16", lacks=[lacked])
    (kept,) = set(ALIGN_DMAS) - {lacked}
    assert f"{lacked}(" not in artifact.source
    assert f"{kept}(" in artifact.source


@pytest.mark.parametrize(
    "program_id",
    ["tile/matmul", "tile/dense", "tile/conv2d_padded", "tile/mlp_3layer", "tile/tc_tbmm"],
)
def test_op_library_contractions_on_the_strict_chip(program_id: str) -> None:
    """Programs whose default-chip C uses the `_align` DMAs (the goldens matmul, dense and
    conv2d_padded) run on the Cube without them and match the interpreter."""
    program = load_program(program_id)
    artifact = get_backend("npu").compile(program, load_target("npu-strict"))
    assert isinstance(artifact, NpuArtifact)
    assert "_align(" not in artifact.source
    inputs = program_inputs(program_id, program)
    got = artifact.run({key: v.copy() for key, v in inputs.items()})
    mismatches = driver.compare_outputs(run_program(program, inputs), got)
    assert not mismatches, mismatches[0].message
    report = artifact.last_report
    assert report is not None and report.macs > 0 and report.unwaited_flags == 0
