"""Convolutions + bias + ReLU on the NPU (issue 21): simulated cycles and Cube busy of
`R = relu(conv2d(I, K) + B)` (NHWC, HWIO, 3x3) for shapes given as
HxWxCI-CO[:stride[:pad[:dtype[:cores[:check]]]]], e.g.

    python bench/npu_convs.py 58x58x64-64 58x58x64-64:1:0:fp16:4 56x56x128-128:2 57x43x64-64:1:1

(`check`: 1 compares the output with the interpreter's, which takes a while on large shapes).
Cycles are the simulator's (exact), not wall-clock; one JSON line per shape.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile

CONV = (
    "function (I[N, H, W, CI], K[KH, KW, CI, CO], B[CO]) -> (R) {{\n"
    "  O[n, x, y, co : N, (H + 2 * {p} - KH) / {s} + 1, (W + 2 * {p} - KW) / {s} + 1, CO] ="
    " +(I[n, {s} * x + i - {p}, {s} * y + j - {p}, ci] * K[i, j, ci, co]);\n"
    "  R = relu(O + B);\n}}\n"
)


def measure(spec: str) -> dict[str, Any]:
    shape, *rest = spec.split(":")
    defaults = ["1", "0", "fp16", "1", "0"]
    if len(rest) > len(defaults):
        raise SystemExit(f"{spec}: HxWxCI-CO[:stride[:pad[:dtype[:cores[:check]]]]]")
    stride, pad, dtype, cores, check = rest + defaults[len(rest) :]
    hw, co = shape.split("-")
    h, w, ci = (int(x) for x in hw.split("x"))
    t = DType(dtype)
    shapes = {"I": (t, (1, h, w, ci)), "K": (t, (3, 3, ci, int(co))), "B": (t, (int(co),))}
    source = CONV.format(s=int(stride), p=int(pad))
    program = compile_tile(source, "conv.tile", shapes=shapes).program
    base = load_target("npu")
    cfg = dataclasses.replace(base, hardware={**dict(base.hardware), "cores": int(cores)})
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    artifact = get_backend("npu").compile(compiled, cfg)
    inputs = driver.random_inputs(program_io(program).inputs, seed=0)
    got = artifact.run({k: v.copy() for k, v in inputs.items()})
    report = artifact.report_json()
    assert report is not None
    row: dict[str, Any] = {"conv": spec, "cycles": report["total_cycles"]}
    row["cube_busy"] = report["busy_cycles"]["PIPE_M"]
    row["per_core"] = [core["cycles"] for core in report["per_core"]]
    if check == "1":
        row["correct"] = not driver.compare_outputs(run_program(program, inputs), got)
    return row


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(json.dumps(measure(arg)), flush=True)
