"""The NPU section of `make bench` (issue #7): simulated cycles of the `npu` target's mapping
against the naive one, written to `bench/npu_results.json`.

Not wall-clock: the cycle model of the plaidc NPU simulator (NPU.md). The naive mapping is the
same backend with `[codegen] buffering = 1, reuse = false, serialise = true` (one buffer, no
operand kept in L1, a barrier after every operation): AKG's "naive kernel" baseline.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from workloads import ROOT

EXAMPLES = ROOT / "examples"


NPU_MATMULS = ((256, 512, 512), (512, 512, 512))
NPU_NAIVE = {"buffering": 1, "reuse": False, "serialise": True}


def _npu_run(program: Any, codegen: dict[str, Any]) -> dict[str, Any]:
    import dataclasses

    from plaidc import driver
    from plaidc.backends import get_backend
    from plaidc.interp import program_io, run_program
    from plaidc.targets import load_target

    base = load_target("npu")
    cfg = dataclasses.replace(base, codegen={**dict(base.codegen), **codegen})
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    artifact = get_backend("npu").compile(compiled, cfg)
    inputs = driver.random_inputs(program_io(program).inputs, seed=0)
    got = artifact.run(inputs)
    report = artifact.report_json()
    assert report is not None
    # Relative to the output's scale, as for the CPU rows: fp32 sums of 512 products that
    # nearly cancel differ from the interpreter's order of summation in the last bits.
    (want,), (have,) = run_program(program, inputs).values(), got.values()
    error = float(np.max(np.abs(np.asarray(have) - np.asarray(want)), initial=0.0))
    ok = error <= 1e-4 * float(np.max(np.abs(want), initial=0.0)) + 1e-5
    busy = report["busy_cycles"]["PIPE_M"]
    return {
        "cycles": report["total_cycles"],
        "cube_busy": busy,
        "cube_utilisation": report["cube_utilisation"],
        "correct": ok,
    }


def npu_section() -> list[dict[str, Any]]:
    """Print and return the NPU rows: fp32 matmuls, plaidc's mapping vs the naive one."""
    from plaidc import driver

    print()
    print("NPU (simulated cycles, examples/matmul.tile, fp32 via the fp16 hi/lo split)")
    header = f"{'matmul':16} {'plaidc cycles':>14} {'Cube busy':>10} {'naive cycles':>13}"
    print(header + f" {'naive busy':>10} {'speedup':>8}")
    rows = []
    for m, k, n in NPU_MATMULS:
        dims = {"M": m, "K": k, "N": n}
        program = driver.load_program(
            driver.Session(), str(EXAMPLES / "matmul.tile"), driver.Bindings(dims=dims)
        )
        fast, naive = _npu_run(program, {}), _npu_run(program, NPU_NAIVE)
        speedup = naive["cycles"] / fast["cycles"]
        flag = "" if fast["correct"] and naive["correct"] else " WRONG"
        print(
            f"{f'{m}x{k}x{n}':16} {fast['cycles']:14d} {fast['cube_busy'] / fast['cycles']:9.1%}"
            f" {naive['cycles']:13d} {naive['cube_busy'] / naive['cycles']:9.1%}"
            f" {speedup:7.2f}x{flag}",
            flush=True,
        )
        rows.append({"matmul": [m, k, n], "plaidc": fast, "naive": naive, "speedup": speedup})
    print("Cube busy = PIPE_M busy cycles / total cycles; speedup = naive cycles / plaidc cycles")
    (ROOT / "bench" / "npu_results.json").write_text(json.dumps(rows, indent=2) + "\n")
    return rows
