"""`plaidc run --profile` (c, llvm): each kernel call timed, listed by time with GFLOP/s.

The instrumented program must compute what the plain one does; the FLOP counts come from
isl's exact point counts (a padded convolution's border taps excluded); other targets are a
usage error.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.loopnest.plan import Clock, walk_stmts
from plaidc.backends.loopnest.profile import PROFILE_BUFFER, kernel_flops
from plaidc.cli import plaidc_main
from plaidc.interp import program_io
from plaidc.stripe.ir import DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile

TWO_KERNELS = """function (I[N, H, W, C], K[3, 3, C, M], B[M]) -> (R) {
    O[n, y, x, m : N, H, W, M] = +(I[n, y + ky - 1, x + kx - 1, c] * K[ky, kx, c, m]);
    R = relu(O + B);
}
"""
SHAPES = {
    "I": (DType.FP32, (2, 9, 7, 5)),
    "K": (DType.FP32, (3, 3, 5, 11)),
    "B": (DType.FP32, (11,)),
}


def _compiled(target: str) -> tuple:
    program = compile_tile(TWO_KERNELS, "two.tile", shapes=SHAPES).program
    cfg = load_target(target)
    return driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default"))), cfg


def _padded_taps(h: int, w: int) -> int:
    """Window taps inside an h x w image over all outputs of a 3x3 'same' convolution."""
    rows = sum(min(y + 1, h - 1) - max(y - 1, 0) + 1 for y in range(h))
    cols = sum(min(x + 1, w - 1) - max(x - 1, 0) + 1 for x in range(w))
    return rows * cols


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_instrumented_program_computes_the_same_and_times_each_call(target: str) -> None:
    compiled, cfg = _compiled(target)
    inputs = driver.random_inputs(program_io(compiled).inputs, seed=2)
    plain = get_backend(target).compile(compiled, cfg).run(inputs)
    timed = get_backend(target).compile(compiled, cfg, profile=True)
    for _ in range(3):
        got = timed.run(inputs)
    assert set(got) == set(plain) and PROFILE_BUFFER not in got
    np.testing.assert_array_equal(got["R"], plain["R"])
    recorder = timed.profiler
    assert recorder.runs == 3 and len(recorder.profiled.kernels) >= 1
    assert (recorder.seconds > 0).all() and (recorder.best <= recorder.seconds).all()
    entry = next(f for f in recorder.profiled.plan.functions if f.name == "plaidc_main")
    clocks = [s for s in walk_stmts(entry.body) if isinstance(s, Clock)]
    assert len(clocks) == 2 * len(recorder.profiled.kernels)


def test_flops_are_exact_point_counts() -> None:
    compiled, _ = _compiled("c")
    flops = kernel_flops(compiled)
    # the convolution: 2 per in-image tap, per image, input and output channel
    conv = 2 * 2 * _padded_taps(9, 7) * 5 * 11
    assert sorted(flops.values(), reverse=True)[0] == conv
    assert sum(flops.values()) == conv  # the bias + relu kernel multiplies nothing


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_profile_table_lists_kernels_by_time(tmp_path: Path, target: str) -> None:
    path = tmp_path / "two.tile"
    path.write_text(TWO_KERNELS)
    dims = ["-D", "N=2", "-D", "H=30", "-D", "W=20", "-D", "C=16", "-D", "M=24"]
    args = ["run", str(path), "-t", target, *dims, "--random-inputs", "0", "--profile"]
    result = CliRunner().invoke(plaidc_main, [*args, "--bench", "4"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    head = next(k for k, line in enumerate(lines) if line.startswith("profile: 4 runs"))
    rows = []
    for line in lines[head + 2 :]:
        match = re.match(r"\s*([\d.]+)\s+([\d.]+)%\s+([\d.]+)\s+([\d.]+|-)\s+(kernel_\w+)", line)
        if not match:
            break
        rows.append(match.groups())
    assert rows, result.output
    times = [float(r[0]) for r in rows]
    assert times == sorted(times, reverse=True)
    assert abs(sum(float(r[1]) for r in rows) - 100.0) < 0.5
    rates = [r[3] for r in rows]
    assert any(rate != "-" and float(rate) > 0 for rate in rates)  # the convolution
    assert "O[n, y, x, m" in result.output  # each kernel says what it computes
    assert "R: float32[2, 30, 20, 24]" in result.output


def test_profile_on_other_targets_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "two.tile"
    path.write_text(TWO_KERNELS)
    dims = ["-D", "N=1", "-D", "H=4", "-D", "W=4", "-D", "C=2", "-D", "M=3"]
    result = CliRunner().invoke(
        plaidc_main, ["run", str(path), "-t", "interp", *dims, "--random-inputs", "0", "--profile"]
    )
    assert result.exit_code == 2
    assert "--profile: target 'interp' has no kernel timing" in result.output
