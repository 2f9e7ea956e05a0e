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


def _npu_run(
    program: Any,
    codegen: dict[str, Any],
    hardware: dict[str, Any] | None = None,
    numpy_reference: bool = False,
) -> dict[str, Any]:
    """Simulated cycles of the program on the npu target, and whether its output matches the
    interpreter's (`numpy_reference`: a matmul's, by numpy, where the interpreter would take
    minutes)."""
    import dataclasses

    from plaidc import driver
    from plaidc.backends import get_backend
    from plaidc.interp import program_io, run_program
    from plaidc.targets import load_target

    base = load_target("npu")
    cfg = dataclasses.replace(
        base,
        codegen={**dict(base.codegen), **codegen},
        hardware={**dict(base.hardware), **(hardware or {})},
    )
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    artifact = get_backend("npu").compile(compiled, cfg)
    inputs = driver.random_inputs(program_io(program).inputs, seed=0)
    got = artifact.run(inputs)
    report = artifact.report_json()
    assert report is not None
    # Relative to the output's scale, as for the CPU rows: fp32 sums of 512 products that
    # nearly cancel differ from the interpreter's order of summation in the last bits.
    if numpy_reference:
        a, b = (np.asarray(v, np.float64) for v in inputs.values())
        want, (have,) = a @ b, got.values()
    else:
        (want,), (have,) = run_program(program, inputs).values(), got.values()
    have, want = np.asarray(have, np.float64), np.asarray(want, np.float64)
    error = float(np.max(np.abs(have - want), initial=0.0))
    # fp16 results: fp16's precision (the interpreter rounds each product to fp16 first)
    out = next(iter(program_io(program).outputs.values()))
    rtol = 1e-2 if out.dtype.byte_size == 2 else 1e-4
    ok = error <= rtol * float(np.max(np.abs(want), initial=0.0)) + 1e-5
    busy = report["busy_cycles"]["PIPE_M"]
    return {
        "macs": report["cube_macs"],
        "core_cycles": [core["cycles"] for core in report["per_core"]],
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
    # fp32 1024^3 (issue #21): the plaidc mapping only, checked against numpy (the naive
    # mapping's run and the interpreter take minutes at this size)
    dims = {"M": 1024, "K": 1024, "N": 1024}
    program = driver.load_program(
        driver.Session(), str(EXAMPLES / "matmul.tile"), driver.Bindings(dims=dims)
    )
    fast = _npu_run(program, {}, numpy_reference=True)
    flag = "" if fast["correct"] else " WRONG"
    print(
        f"{'1024x1024x1024':16} {fast['cycles']:14d} {fast['cube_busy'] / fast['cycles']:9.1%}"
        f" {'-':>13} {'-':>10} {'-':>8}{flag}",
        flush=True,
    )
    rows.append({"matmul": [1024, 1024, 1024], "plaidc": fast})
    print("Cube busy = PIPE_M busy cycles / total cycles; speedup = naive cycles / plaidc cycles")
    (ROOT / "bench" / "npu_results.json").write_text(json.dumps(rows, indent=2) + "\n")
    return rows


# The issue #21 goals: fp16 matmul 1024^3 and conv 3x3 58x58x64->64 + bias + relu, on 1 and 4
# cores, beside the naive mapping and the Cube's roofline (MACs / Cube MACs per cycle).
NPU_CORES_WORKLOADS = (
    ("matmul 1024^3 fp16", "matmul.tile", {"A": (1024, 1024), "B": (1024, 1024)}),
    (
        "conv 3x3 58x58x64->64+bias+relu fp16",
        "conv2d_bias_relu.tile",
        {"I": (1, 58, 58, 64), "K": (3, 3, 64, 64), "B": (64,)},
    ),
)


def npu_compile_row() -> dict[str, Any]:
    """`plaidc compile examples/matmul.tile -t npu -D M=1024 -D K=1024 -D N=1024` (fp32), as a
    user runs it (issue #21's goal: < 5 s, < 1 GB, < 3,000 lines): wall and CPU seconds, the
    child's peak memory, lines of C."""
    import resource
    import subprocess
    import sys
    import tempfile
    import time
    from pathlib import Path

    plaidc = Path(sys.executable).parent / "plaidc"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "mm.npu.c"
        command = [str(plaidc), "compile", str(EXAMPLES / "matmul.tile"), "-t", "npu"]
        command += ["-D", "M=1024", "-D", "K=1024", "-D", "N=1024"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([*command, "-o", str(out)], check=True, capture_output=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        lines = len(out.read_text().splitlines())
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    # ru_maxrss of children: the largest child so far (KiB on Linux)
    row = {"wall_s": wall, "cpu_s": cpu, "peak_mib": after.ru_maxrss / 1024, "lines": lines}
    print(
        f"compile matmul 1024^3 -t npu: {wall:.1f} s wall, {cpu:.1f} s CPU, "
        f"{row['peak_mib']:.0f} MiB peak, {lines} lines of C (goal < 5 s, < 1 GB, < 3,000)"
    )
    return row


# The same conv on other chips and cores, and on fp32 inputs (the hi/lo split: 3 mads a step)
NPU_CONV_VARIANTS = (
    ("fp16, 2 cores", "fp16", {"cores": 2}),
    (
        "fp16, small chip (UB 64 KiB, L1 256 KiB)",
        "fp16",
        {"ub_bytes": 65536, "l1_bytes": 262144},
    ),
    ("fp32, 1 core", "fp32", {}),
    ("fp32, 4 cores", "fp32", {"cores": 4}),
)


def npu_conv_variants() -> list[dict[str, Any]]:
    """Print and return the goal conv's cycles on the `NPU_CONV_VARIANTS`."""
    from plaidc import driver
    from plaidc.stripe.ir import DType

    _, example, shapes = NPU_CORES_WORKLOADS[1]
    print(f"{'conv 3x3 58x58x64->64+bias+relu':44} {'cycles':>9} {'Cube busy':>9} {'roofline':>9}")
    rows = []
    for name, dtype, hardware in NPU_CONV_VARIANTS:
        typed = {k: (DType(dtype), dims) for k, dims in shapes.items()}
        program = driver.load_program(
            driver.Session(), str(EXAMPLES / example), driver.Bindings(shapes=typed)
        )
        run = _npu_run(program, {}, hardware)
        cores = hardware.get("cores", 1)
        busy = run["cube_busy"] / (run["cycles"] * cores)
        flag = "" if run["correct"] else " WRONG"
        roofline = run["macs"] // 4096 // cores
        print(f"{name:44} {run['cycles']:9d} {busy:8.1%} {roofline:9d}{flag}", flush=True)
        rows.append({"variant": name, **run, "roofline_cycles": roofline})
    print("Cube busy here: PIPE_M busy / (cycles x cores); fp32 does 3 mads per K step")
    return rows


def npu_cores_section() -> list[dict[str, Any]]:
    """Print and return the multi-core rows: cycles on 1 and 4 cores, Cube busy, the naive
    mapping's cycles and the roofline."""
    from plaidc import driver
    from plaidc.stripe.ir import DType

    print()
    print("NPU goals (simulated cycles, default config, fp16)")
    print(
        f"{'workload':38} {'naive':>9} {'1 core':>9} {'Cube busy':>9} {'4 cores':>9}"
        f" {'speedup':>8} {'roofline':>9}"
    )
    rows = []
    for name, example, shapes in NPU_CORES_WORKLOADS:
        typed = {k: (DType.FP16, dims) for k, dims in shapes.items()}
        program = driver.load_program(
            driver.Session(), str(EXAMPLES / example), driver.Bindings(shapes=typed)
        )
        naive = _npu_run(program, NPU_NAIVE)
        one = _npu_run(program, {})
        four = _npu_run(program, {}, {"cores": 4})
        roofline = one["macs"] // 4096
        speedup = one["cycles"] / four["cycles"]
        flag = "" if naive["correct"] and one["correct"] and four["correct"] else " WRONG"
        print(
            f"{name:38} {naive['cycles']:9d} {one['cycles']:9d}"
            f" {one['cube_busy'] / one['cycles']:8.1%} {four['cycles']:9d}"
            f" {speedup:7.2f}x {roofline:9d}{flag}",
            flush=True,
        )
        rows.append(
            {
                "workload": name,
                "naive": naive,
                "one_core": one,
                "four_cores": four,
                "speedup_4_cores": speedup,
                "roofline_cycles": roofline,
            }
        )
    print("Cube busy = PIPE_M busy / total cycles on 1 core; roofline = MACs / 4096 per cycle")
    variants = npu_conv_variants()
    compile_row = npu_compile_row()
    results = {"workloads": rows, "conv_variants": variants, "compile_matmul_1024": compile_row}
    (ROOT / "bench" / "npu_cores_results.json").write_text(json.dumps(results, indent=2) + "\n")
    return rows
