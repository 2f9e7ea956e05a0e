"""Scalar semantics of the OpenCL backend: the cases of `test_backend_c_scalars.py` (every
intrinsic on every element type, weakly typed constants, casts, stores that convert), on a
real OpenCL device.

An OpenCL build costs far more than a C compile, so the cases of one input type share one
program and one kernel: a block over `i` computing every case, `O<k>[i] = op(X<k>[i], Y<k>[i])`
for case `k`, on that case's inputs. A mismatch names the case.
"""

from __future__ import annotations

import numpy as np
import pytest

from plaidc.interp import run_program
from plaidc.stripe.parser import parse_stripe

from .support.backend_c_scalars import CASES
from .support.backend_opencl import compile_opencl, needs_opencl
from .support.backend_opencl_scalars import (
    Case,
    batch_program,
    case_failures,
    case_inputs,
)

BATCHES: dict[str, list[Case]] = {}
for _case in CASES:
    BATCHES.setdefault(_case[1], []).append(_case)


@needs_opencl
@pytest.mark.parametrize("dtype", sorted(BATCHES))
def test_opencl_scalar_semantics(dtype: str) -> None:
    cases = BATCHES[dtype]
    program = parse_stripe(batch_program(cases), f"scalars_{dtype}.stripe")
    values: dict[str, np.ndarray] = {}
    for k, case in enumerate(cases):
        case_values = case_inputs(case)
        values[f"X{k}"], values[f"Y{k}"] = case_values["X"], case_values["Y"]
    artifact = compile_opencl(program)
    assert len(artifact.program.kernels) == 1, "one kernel for all the cases of a type"
    got = artifact.run(values)
    failures = case_failures(cases, run_program(program, values), got)
    assert not failures, "\n".join(failures)
