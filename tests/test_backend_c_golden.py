"""Golden files for the emitted C of a few kernels (`tests/golden/c/*.c`).

Each golden is compared byte for byte with what the C backend emits now, and the golden file
itself is compiled and run against the interpreter, so a golden is never a text that does not
build or computes something else. Regenerate after an intended change with
`PLAIDC_UPDATE_GOLDEN=1 pytest tests/test_backend_c_golden.py` and review the diff.
"""

from __future__ import annotations

import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.c.build import DEFAULT_FLAGS, build_library, load_entry
from plaidc.backends.loopnest.runtime import run_plan
from plaidc.backends.toolchain import find_compiler
from plaidc.interp import program_io, run_program
from plaidc.targets import load_target

from .support.backend_c import load_program
from .support.backend_c_golden import (
    GOLDEN,
    KERNELS,
    check_golden,
    pin_golden_host,
)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_c_golden(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pin_golden_host(monkeypatch)
    program = load_program(KERNELS[name])
    artifact = get_backend("c").compile(program, load_target("c"))
    golden = GOLDEN / "c" / f"{name}.c"
    check_golden(golden, artifact.source)
    library = build_library(golden.read_text(), find_compiler(None), DEFAULT_FLAGS)
    inputs = driver.random_inputs(program_io(program).inputs, seed=4)
    got = run_plan(artifact.plan, load_entry(library), inputs)
    assert not driver.compare_outputs(run_program(program, inputs), got)
