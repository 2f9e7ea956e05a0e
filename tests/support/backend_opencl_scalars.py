"""Batching the scalar cases into one program, and their inputs and failures."""

from __future__ import annotations

import numpy as np

from plaidc import driver

from .backend_c_scalars import FLOATS, INTS, N, _ids, inputs

Case = tuple[str, str, int, str, str | None]


def case_inputs(case: Case) -> dict[str, np.ndarray]:
    """`run_case`'s inputs for `case` (values whose conversion C leaves undefined avoided)."""
    op, dtype, _, out, _ = case
    values = inputs(dtype, op)
    if out in INTS and dtype in FLOATS:
        values = {k: np.nan_to_num(np.clip(v, -100, 100), nan=1.0) for k, v in values.items()}
    if op in ("as_int", "as_uint") and dtype in FLOATS:
        values = {k: np.nan_to_num(np.clip(v, 0, 100), nan=1.0) for k, v in values.items()}
    return values


def batch_program(cases: list[Case]) -> str:
    """One program, one kernel block, computing every case (refinements X<k>, Y<k>, O<k>)."""
    outer, inner, body = [], [], []
    for k, (op, dtype, arity, out, constant) in enumerate(cases):
        for name, ty, direction in (("X", dtype, "in"), ("Y", dtype, "in"), ("O", out, "out")):
            outer.append(f"    {direction} {name}{k}[0] {ty}({N}):(1)")
            inner.append(f"      {direction} {name}{k}[i] {ty}(1):(1)")
        body += [f"$x{k} = load(X{k})", f"$y{k} = load(Y{k})"]
        args = [f"$x{k}"] if arity == 1 else [f"$x{k}", f"$c{k}" if constant else f"$y{k}"]
        if constant:
            body.append(f"$c{k} = {constant}")
        if op == "cond":
            args = [f"$x{k}", f"$y{k}", f"$x{k}"]
        body += [f"$r{k} = {op}({', '.join(args)})", f"O{k} = store($r{k})"]
    stmts = "\n".join(f"    {s}" for s in body)
    return (
        "block [] (\n"
        + "\n".join(outer)
        + "\n) {\n  0:\n  block [i:"
        + str(N)
        + "] (\n"
        + "\n".join(inner)
        + "\n  ) {\n"
        + stmts
        + "\n  }\n}\n"
    )


def case_failures(
    cases: list[Case], want: dict[str, np.ndarray], got: dict[str, np.ndarray]
) -> list[str]:
    """One line per case whose output `O<k>` differs in value or dtype, naming the case."""
    failures = []
    for k, case in enumerate(cases):
        name = f"O{k}"
        mismatches = driver.compare_outputs({name: want[name]}, {name: got[name]})
        if mismatches:
            failures.append(f"{_ids(case)}: {mismatches[0].message}")
        elif got[name].dtype != want[name].dtype:
            failures.append(f"{_ids(case)}: dtype {got[name].dtype}, expected {want[name].dtype}")
    return failures
