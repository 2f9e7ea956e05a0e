"""The NPU backend on every test program: each one runs on the simulator and matches the
interpreter, or fails to compile with a CompileError naming what the NPU cannot do.

Programs: every PlaidML dump (all stages), `examples/*.stripe` and the op library of
`examples/examples.toml` (also checked against its independent numpy references, with the
manifest's tolerances). A run is clean by construction when it returns: the simulator raises on
any hazard, misalignment, capacity or data-path violation and on deadlocks; here we also require
that no flag is left raised and that contractions really use the Cube.
"""

from __future__ import annotations

import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact
from plaidc.diagnostics import CompileError
from plaidc.interp import run_program
from plaidc.targets import load_target

from .oplib_reference import REFERENCES, make_inputs
from .support.backend_c import MANIFEST, NPU_REFUSED, PROGRAMS, load_program, program_inputs
from .support.oplib import assert_output_matches

# What each program that cannot run on the NPU must say (a substring of the error).
# Contractions that must run on the Cube (fp32 through the hi/lo split).
CUBE_PROGRAMS = {
    "tile/matmul",
    "tile/dense",
    "tile/mlp_3layer",
    "tile/conv2d_valid",
    "tile/conv2d_padded",
    "tile/conv2d_strided",
    "tile/conv2d_dilated",
    "tile/conv2d_bias_relu",
    "tile/tc_tmm",
    "tile/tc_tbmm",
    "matmul/00_initial",
    "matmul/15_prune_refs",
    "conv_bias_relu/00_initial",
    "conv_bias_relu/15_prune_refs",
}


def test_expectations_name_real_programs() -> None:
    assert set(PROGRAMS) >= CUBE_PROGRAMS | set(NPU_REFUSED)


@pytest.mark.parametrize("program_id", PROGRAMS)
def test_npu_matches_interpreter(program_id: str) -> None:
    program = load_program(program_id)
    target = load_target("npu")
    if program_id in NPU_REFUSED:
        with pytest.raises(CompileError, match=NPU_REFUSED[program_id]):
            get_backend("npu").compile(program, target)
        return
    artifact = get_backend("npu").compile(program, target)
    assert isinstance(artifact, NpuArtifact)
    inputs = program_inputs(program_id, program)
    got = artifact.run({k: v.copy() for k, v in inputs.items()})
    mismatches = driver.compare_outputs(run_program(program, inputs), got)
    assert not mismatches, mismatches[0].message
    report = artifact.last_report
    assert report is not None and report.unwaited_flags == 0
    text = artifact.report()
    assert text is not None and text.startswith("NPU simulation:")
    if program_id in CUBE_PROGRAMS:
        assert report.macs > 0, "the contraction did not run on the Cube"
    if program_id.startswith("tile/"):
        spec = MANIFEST[program_id.removeprefix("tile/")]
        expected = REFERENCES[program_id.removeprefix("tile/")](make_inputs(spec))
        for name, want in expected.items():
            assert_output_matches(f"{program_id}.{name}", got[name], want, spec.rtol, spec.atol)


def test_integer_contraction_stays_on_the_vector_unit() -> None:
    program = load_program("tile/matmul_i32")
    artifact = get_backend("npu").compile(program, load_target("npu"))
    assert isinstance(artifact, NpuArtifact)
    inputs = program_inputs("tile/matmul_i32", program)
    got = artifact.run(inputs)
    assert not driver.compare_outputs(run_program(program, inputs), got)
    assert artifact.last_report is not None and artifact.last_report.macs == 0
