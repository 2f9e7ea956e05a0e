"""The next row of Cube tiles' left operand prefetched into L1 during this row
(`backends/npu/cube_prefetch.py`): straight from GM (`copy_gm_to_cbuf`), a few strips after
each K step of the row before, so that a row's first tile no longer brings it beside the right
operand. Each case runs on the simulator and is checked against the interpreter (small
shapes, on a machine scaled so that the prefetch pays) or numpy (the default machine's
1024-wide shapes, which the interpreter takes minutes over)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact, _generate, cube, cube_cost
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import DType
from plaidc.targets import load_target

from .support import EXAMPLES

# A machine on which a 64-row tile's K steps keep the Cube busier than MTE2 brings the right
# operand, and its first tile would make MTE2 the busier: there the prefetch pays.
SMALL = {
    "gm_latency": 20,
    "gm_bytes_per_cycle": 256,
    "l1_bytes": 262144,
    "ub_bytes": 65536,
    "l0a_bytes": 32768,
    "l0b_bytes": 32768,
    "l0c_bytes": 65536,
}


def _compiled(
    m: int, k: int, n: int, hardware: dict[str, Any] | None = None, dtype: DType = DType.FP16
) -> tuple[Any, Any, Any]:
    shapes = {"A": (dtype, (m, k)), "B": (dtype, (k, n))}
    program = driver.load_program(
        driver.Session(), str(EXAMPLES / "matmul.tile"), driver.Bindings(shapes=shapes)
    )
    base = load_target("npu")
    target = dataclasses.replace(base, hardware={**dict(base.hardware), **(hardware or {})})
    compiled = driver.run_pipeline(program, driver.resolve_steps(target.stage("default")))
    return program, compiled, target


def _run(program: Any, artifact: NpuArtifact, interpreter: bool) -> None:
    """Run on the simulator: no flag left set, and the interpreter's result (or numpy's, at
    fp16's precision: the Cube's products are exact, its sums fp32)."""
    inputs = driver.random_inputs(program_io(program).inputs, seed=7)
    got = artifact.run({k: v.copy() for k, v in inputs.items()})
    report = artifact.report_json()
    assert report is not None and report["unwaited_flags"] == 0
    if interpreter:
        loose = artifact.reduced_precision
        assert not driver.compare_outputs(run_program(program, inputs), got, loose)
        return
    a, b = (np.asarray(v, np.float64) for v in inputs.values())
    want = a @ b
    (have,) = got.values()
    error = np.max(np.abs(np.asarray(have, np.float64) - want))
    assert error <= 2e-3 * np.max(np.abs(want))


@pytest.fixture
def prefetching(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the tilings with the prefetch offered: on the small machine `cube_cost` ranks
    tilings without it first (fp16 320 x 512 x 512: 52,468 simulated cycles against 78,992
    for the one with it that the estimate before took); these tests are about its code."""
    ranked = cube.ranked

    def with_prefetch(ctx: Any, con: Any, found: Any) -> list[Any]:
        order = ranked(ctx, con, found)
        return [t for t in order if cube_cost._Schedule(ctx, con, t, None).prefetch is not None]

    monkeypatch.setattr(cube, "ranked", with_prefetch)


@pytest.mark.usefixtures("prefetching")
def test_the_next_rows_left_operand_comes_during_this_row() -> None:
    """fp16 320 x 512 x 512 on the small machine: rows of 64-row tiles (the pipeline's
    blocks of 128 leave a last row with no points), each K step of the next row brought by
    the tiles of this one; the result is the interpreter's."""
    program, compiled, target = _compiled(320, 512, 512, SMALL)
    artifact = get_backend("npu").compile(compiled, target)
    assert isinstance(artifact, NpuArtifact)
    assert "copy_gm_to_cbuf(" in artifact.source
    _run(program, artifact, interpreter=True)


@pytest.mark.usefixtures("prefetching")
def test_a_sampled_row_loop_with_the_prefetch_rolls_and_computes_the_program() -> None:
    """fp16 896 x 512 x 512 on the small machine: 14 rows of tiles, more than a sample
    lowers. The rows stay alike (the prefetch's L1 addresses alternate by the row's parity),
    so the sampled lowering is the full one, rolled; a row's last store, issued in the next
    row's first tile, is there for the row the sample skipped too."""
    program, compiled, target = _compiled(896, 512, 512, SMALL)
    sampled = _generate(compiled, target, sampling=True)
    assert "copy_gm_to_cbuf(" in sampled.source
    assert sampled.source == _generate(compiled, target, sampling=False).source
    assert sampled.source.count("\n") < 2000
    artifact = get_backend("npu").compile(compiled, target)
    assert isinstance(artifact, NpuArtifact)
    _run(program, artifact, interpreter=False)


def test_ragged_k_and_an_odd_number_of_rows_on_the_default_machine() -> None:
    """fp16 1280 x 1008 x 1024 with the default config: 5 rows of 256 x 128 tiles, K steps
    of 128 and a last one of 112. The full K steps are prefetched (7 of 8: L1 holds 7 beside
    the current row's and the right operand's buffers), the ragged one is loaded by each
    row's first tile; the last row has no next one."""
    program, compiled, target = _compiled(1280, 1008, 1024)
    artifact = get_backend("npu").compile(compiled, target)
    assert isinstance(artifact, NpuArtifact)
    assert "copy_gm_to_cbuf(" in artifact.source
    _run(program, artifact, interpreter=False)


def test_a_ragged_last_row_and_two_cores() -> None:
    """fp16 1000 x 1008 x 1024: the last row of tiles is cut short (M = 1000), so the row
    before it does not prefetch it and it loads its own; on 2 cores each core's first row
    loads its own and prefetches the next."""
    for cores in (1, 2):
        program, compiled, target = _compiled(1000, 1008, 1024, {"cores": cores})
        artifact = get_backend("npu").compile(compiled, target)
        assert isinstance(artifact, NpuArtifact)
        assert "copy_gm_to_cbuf(" in artifact.source
        _run(program, artifact, interpreter=False)


def test_no_prefetch_where_it_would_not_pay_or_does_not_apply() -> None:
    """fp32 operands (split into fp16 parts in UB: no straight copy to L1), and a tiling
    whose K steps keep MTE2 busier than the Cube already (fp16 384 x 640 x 896: the strips'
    latencies would only add to it), keep the first tile's loads."""
    for m, k, n, dtype in ((1280, 1008, 1024, DType.FP32), (384, 640, 896, DType.FP16)):
        _, compiled, target = _compiled(m, k, n, dtype=dtype)
        assert "copy_gm_to_cbuf(" not in _generate(compiled, target, sampling=True).source
