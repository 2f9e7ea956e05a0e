"""Scalar semantics of the NPU backend: the cases of `test_backend_c_scalars.py` (every
intrinsic on every element type, weakly typed constants, casts, converting stores) plus casts
between the NPU's own types, on the simulator against the interpreter.

The NPU computes in fp16, fp32 and int32 lanes and converts i8, u8, i16, u16 and bool at its
windows, so many cases have no mapping: those must be a CompileError naming what is missing,
never a wrong answer, and the cases on the NPU's types with ops of its vector ISA must run.
Cases of one input type that map share one program (one simulator build); a mismatch names the
case.
"""

from __future__ import annotations

import numpy as np
import pytest

from plaidc.backends.npu import NpuArtifact, NpuBackend, generate
from plaidc.diagnostics import CompileError
from plaidc.interp import run_program
from plaidc.stripe.parser import parse_stripe
from plaidc.targets import load_target

from .support.backend_c_scalars import CASES, _ids, program
from .support.backend_opencl_scalars import batch_program, case_failures, case_inputs

Case = tuple[str, str, int, str, str | None]

# Conversions between the NPU's own types: explicit casts and stores into another type.
NPU_CASTS: list[Case] = [
    ("as_int", "fp32", 2, "i32", "(int)32"),
    ("as_int", "fp16", 2, "i32", "(int)32"),
    ("as_int", "fp32", 2, "i8", "(int)8"),
    ("as_int", "i32", 2, "i8", "(int)8"),
    ("as_uint", "i32", 2, "u8", "(int)8"),
    ("as_uint", "i8", 2, "u8", "(int)8"),
    ("as_int", "u8", 2, "i32", "(int)32"),
    ("as_int", "bool", 2, "i32", "(int)32"),
    ("as_float", "i32", 2, "fp32", "(int)32"),
    ("as_float", "i32", 2, "fp16", "(int)16"),
    ("as_float", "i8", 2, "fp32", "(int)32"),
    ("as_float", "bool", 2, "fp32", "(int)32"),
    ("as_float", "fp32", 2, "fp16", "(int)16"),
    ("ident", "fp32", 1, "i32", None),
    ("ident", "fp32", 1, "i8", None),
    ("ident", "i32", 1, "fp32", None),
    ("ident", "i32", 1, "u8", None),
    ("ident", "i32", 1, "bool", None),
    ("ident", "fp32", 1, "bool", None),
    ("ident", "u8", 1, "i8", None),
    ("ident", "bool", 1, "fp16", None),
    ("as_int", "fp32", 2, "i16", "(int)16"),
    ("as_int", "i32", 2, "i16", "(int)16"),
    ("as_uint", "i32", 2, "u16", "(int)16"),
    ("as_uint", "i16", 2, "u16", "(int)16"),
    ("as_int", "u16", 2, "i32", "(int)32"),
    ("as_float", "i16", 2, "fp32", "(int)32"),
    ("ident", "fp32", 1, "i16", None),
    ("ident", "i32", 1, "u16", None),
    ("ident", "u8", 1, "i16", None),
    ("ident", "u16", 1, "i8", None),
]
ALL_CASES = CASES + NPU_CASTS

NPU_TYPES = {"fp16", "fp32", "i32", "i8", "u8", "i16", "u16", "bool"}
ISA = {"add", "sub", "mul", "max", "min", "neg", "abs", "relu", "ident", "as_int", "as_uint"}
ISA |= {"as_float", "as_bool", "cond", *(f"cmp_{k}" for k in ("eq", "ne", "lt", "gt", "le", "ge"))}
# float operations; on integers numpy computes them in a float type (fp64 in fp32 lanes)
FLOAT_ISA = {"div", "exp", "log", "sqrt", "recip", "sigmoid", "floor", "ceil", "round"}
# casts to types without lanes: fp64, u32
OUT_OF_RANGE = {("as_float", "fp64"), ("as_uint", "u32")}


def must_map(case: Case) -> bool:
    """Cases on the NPU's types whose operation is in its vector ISA."""
    op, dtype, _, out, constant = case
    if dtype == "bool" and out == "bool" and op in ("add", "mul", "max", "min", "abs", "ident"):
        return True
    if dtype not in NPU_TYPES - {"bool"} or out not in NPU_TYPES:
        return False
    if (op, out) in OUT_OF_RANGE or (op, constant) in OUT_OF_RANGE:
        return False
    if op == "div" and dtype not in ("fp16", "fp32"):
        return False  # the interpreter's integer division: no instruction
    return op in ISA or op in FLOAT_ISA


def stripe(case: Case) -> str:
    op, dtype, arity, out, constant = case
    if op == "cond":
        return program("cond", dtype, out, 2).replace("cond($x, $y)", "cond($x, $y, $x)")
    return program(op, dtype, out, arity, constant)


def _classify() -> tuple[dict[str, list[Case]], dict[Case, str]]:
    target = load_target("npu")
    mapped: dict[str, list[Case]] = {}
    refused: dict[Case, str] = {}
    for case in ALL_CASES:
        try:
            generate(parse_stripe(stripe(case), "case.stripe"), target)
        except CompileError as err:
            refused[case] = str(err)
            continue
        mapped.setdefault(case[1], []).append(case)
    return mapped, refused


MAPPED, REFUSED = _classify()


@pytest.mark.parametrize("case", list(REFUSED), ids=_ids)
def test_cases_without_a_mapping_are_named_errors(case: Case) -> None:
    assert not must_map(case), f"{_ids(case)} should run on the NPU: {REFUSED[case]}"
    assert "NPU" in REFUSED[case] or "no lanes" in REFUSED[case], REFUSED[case]


@pytest.mark.parametrize("dtype", sorted(MAPPED))
def test_npu_scalar_semantics(dtype: str) -> None:
    cases = MAPPED[dtype]
    prog = parse_stripe(batch_program(cases), f"scalars_{dtype}.stripe")
    values: dict[str, np.ndarray] = {}
    for k, case in enumerate(cases):
        case_values = case_inputs(case)
        if case[3] in ("i8", "u8", "i16", "u16") and case[1] in ("fp16", "fp32"):
            # float -> 8/16-bit wraps through int32 only where the value fits int32
            case_values = {k: np.clip(v, -100, 100) for k, v in case_values.items()}
        values[f"X{k}"], values[f"Y{k}"] = case_values["X"], case_values["Y"]
    artifact = NpuBackend().compile(prog, load_target("npu"))
    assert isinstance(artifact, NpuArtifact)
    got = artifact.run(values)
    failures = case_failures(cases, run_program(prog, values), got)
    assert not failures, "\n".join(failures)


def test_the_npu_types_are_covered() -> None:
    assert {"fp16", "fp32", "i32", "i8", "u8", "bool"} <= set(MAPPED)
    assert sum(len(v) for v in MAPPED.values()) > 140
