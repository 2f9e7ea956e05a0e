"""Ragged matrix products on the NPU (issue 21): simulated cycles and Cube busy of
`C = A @ B` for shapes given as MxKxN[:dtype[:chip[:cores]]] (dtype fp16 or fp32, chip
`default`, `small`: UB 64 KiB, L1 256 KiB, or `strict`: the npu-strict target, without the
byte-exact `_align` DMAs), each checked against numpy.

    python bench/npu_ragged.py 1000x990x1030 1000x990x1030:fp32 300x200x500:fp32:small:1

Cycles are the simulator's (exact), not wall-clock; one JSON line per shape.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any

import numpy as np

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.diagnostics import CompileError
from plaidc.stripe.ir import DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile

MATMUL = "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }"
SMALL = {"ub_bytes": 64 * 1024, "l1_bytes": 256 * 1024}
TYPES = {"fp16": (DType.FP16, np.float16, 1e-2), "fp32": (DType.FP32, np.float32, 1e-4)}


def measure(m: int, k: int, n: int, dtype: str, chip: str, cores: int) -> dict[str, Any]:
    base = load_target("npu-strict" if chip == "strict" else "npu")
    hardware = {**dict(base.hardware), **(SMALL if chip == "small" else {}), "cores": cores}
    cfg = dataclasses.replace(base, hardware=hardware)
    ir_type, np_type, tol = TYPES[dtype]
    shapes = {"A": (ir_type, (m, k)), "B": (ir_type, (k, n))}
    program = compile_tile(MATMUL, "ragged.tile", shapes=shapes).program
    row: dict[str, Any] = {"shape": f"{m}x{k}x{n}", "dtype": dtype, "chip": chip, "cores": cores}
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    try:
        artifact = get_backend("npu").compile(compiled, cfg)
    except CompileError as err:
        return {**row, "refused": str(err).splitlines()[0]}
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (m, k)).astype(np_type)
    b = rng.uniform(-1, 1, (k, n)).astype(np_type)
    got = np.asarray(artifact.run({"A": a, "B": b})["C"], np.float64)
    want = a.astype(np.float64) @ b.astype(np.float64)
    error = float(np.max(np.abs(got - want), initial=0.0))
    report = artifact.report_json()
    assert report is not None
    return {
        **row,
        "cycles": report["total_cycles"],
        "cube_busy_percent": round(100 * report["cube_utilisation"], 1),  # of all cores
        "correct": error <= tol * max(1.0, float(np.max(np.abs(want), initial=0.0))),
    }


def main(specs: list[str]) -> None:
    for spec in specs:
        shape, dtype, chip, cores = (spec.split(":") + ["fp16", "default", "1"][spec.count(":") :])[
            :4
        ]
        if chip not in ("default", "small", "strict"):
            sys.exit(f"npu_ragged.py: unknown chip {chip!r} (default, small or strict)")
        m, k, n = (int(x) for x in shape.split("x"))
        print(json.dumps(measure(m, k, n, dtype, chip, int(cores))), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["100x300x70", "1000x990x1030"])
