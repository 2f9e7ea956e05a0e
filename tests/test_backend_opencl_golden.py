"""Golden files for the emitted OpenCL C (`tests/golden/opencl/*.cl`).

The kernels of `test_backend_c_golden.py` (constraints and passthrough indices, reductions, the
GEMM micro-kernel on OpenCL vectors, nested aggregation into a fresh allocation, a data-
dependent index) and one in work-group form (thread blocks on work-items, `__local` copies,
barriers). Each golden is compared byte for byte with what the backend emits now, and the
golden file itself is built by the OpenCL compiler and run against the interpreter. Regenerate
with `PLAIDC_UPDATE_GOLDEN=1 pytest tests/test_backend_opencl_golden.py` and review the diff.
"""

from __future__ import annotations

import pytest

from plaidc import driver
from plaidc.backends.opencl.runtime import (
    Executable,
    build_options,
    build_program,
    default_device,
)
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import Block
from plaidc.targets import TargetConfig, load_target

from .support.backend_c import load_program
from .support.backend_c_golden import GOLDEN, KERNELS, check_golden
from .support.backend_opencl import compile_opencl, needs_opencl, workgroups_target

CASES = {name: (program, "opencl") for name, program in KERNELS.items()}
CASES["conv_workgroups"] = ("tile/conv2d_bias_relu", "workgroups")


def _case(name: str) -> tuple[Block, TargetConfig]:
    program_id, target = CASES[name]
    program = load_program(program_id)
    if target == "workgroups":
        cfg = workgroups_target()
        program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
        return program, cfg
    return program, load_target("opencl")


@pytest.mark.parametrize("name", sorted(CASES))
def test_opencl_golden_text(name: str) -> None:
    program, cfg = _case(name)
    check_golden(GOLDEN / "opencl" / f"{name}.cl", compile_opencl(program, cfg).source)


@needs_opencl
@pytest.mark.parametrize("name", sorted(CASES))
def test_opencl_golden_builds_and_runs(name: str) -> None:
    program, cfg = _case(name)
    kernels = compile_opencl(program, cfg).program
    device = default_device()
    golden = (GOLDEN / "opencl" / f"{name}.cl").read_text()
    binary = build_program(device, golden, build_options(device, ()))
    inputs = driver.random_inputs(program_io(program).inputs, seed=4)
    got = Executable(kernels, device, binary).run(inputs)
    assert not driver.compare_outputs(run_program(program, inputs), got)
