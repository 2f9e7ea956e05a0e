"""Golden files for the emitted LLVM IR of the kernels of `test_backend_c_golden.py`
(`tests/golden/llvm/*.ll`); each golden is JIT-compiled and run against the interpreter.
Regenerate with `PLAIDC_UPDATE_GOLDEN=1 pytest tests/test_backend_llvm_golden.py`."""

from __future__ import annotations

import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.llvm.jit import jit
from plaidc.backends.loopnest.runtime import run_plan
from plaidc.interp import program_io, run_program
from plaidc.targets import load_target

from .support.backend_c import load_program
from .support.backend_c_golden import GOLDEN, KERNELS, check_golden, pin_golden_host


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_llvm_golden(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pin_golden_host(monkeypatch)
    program = load_program(KERNELS[name])
    artifact = get_backend("llvm").compile(program, load_target("llvm"))
    golden = GOLDEN / "llvm" / f"{name}.ll"
    check_golden(golden, artifact.source)
    jitted = jit(golden.read_text(), artifact.uses_threads, vector_math=artifact.vector_math)
    inputs = driver.random_inputs(program_io(program).inputs, seed=4)
    got = run_plan(artifact.plan, jitted.entry, inputs)
    assert not driver.compare_outputs(run_program(program, inputs), got)
