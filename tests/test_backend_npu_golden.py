"""Golden files for the CCE-like C of a few kernels (`tests/golden/npu/*.c`).

Each golden is compared byte for byte with what the NPU backend emits now, and the golden file
itself is compiled against the simulator and run against the interpreter, so a golden is never
a text that does not build, breaks a hardware rule, or computes something else. Regenerate
after an intended change with `PLAIDC_UPDATE_GOLDEN=1 pytest tests/test_backend_npu_golden.py`
and review the diff.
"""

from __future__ import annotations

import dataclasses

import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact, build
from plaidc.interp import run_program
from plaidc.targets import load_target

from .support.backend_c import load_program, program_inputs
from .support.backend_c_golden import GOLDEN, check_golden

# One kernel per feature: reductions, broadcasts and division on the vector unit (softmax);
# the Cube through the fp32 split with uneven sizes (matmul); img2col with padding constraints
# zeroed in the gathered matrix (conv2d_padded); specials and partial writes of one output by
# two kernels (concat); a pure data movement (transpose); a contraction with its bias epilogue
# fused on the result in UB (dense).
KERNELS = {
    "dense": "tile/dense",
    "softmax": "tile/softmax",
    "matmul": "tile/matmul",
    "conv2d_padded": "tile/conv2d_padded",
    "concat": "tile/concat",
    "transpose": "tile/transpose",
}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_npu_golden(name: str) -> None:
    program = load_program(KERNELS[name])
    artifact = get_backend("npu").compile(program, load_target("npu"))
    assert isinstance(artifact, NpuArtifact)
    golden = GOLDEN / "npu" / f"{name}.c"
    check_golden(golden, artifact.source)
    params = [artifact.c_names[n] for n in sorted(artifact.buffers)]
    text = golden.read_text()
    from_golden = dataclasses.replace(artifact, source=text, built=build(text, params))
    inputs = program_inputs(KERNELS[name], program)
    got = from_golden.run(inputs)
    assert not driver.compare_outputs(run_program(program, inputs), got)
