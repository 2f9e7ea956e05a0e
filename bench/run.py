"""`make bench`: the QUALITY.md workloads on the CPU targets, timed against numpy in one run.

For every workload and every target (`c`, `llvm`, and `opencl` on the OpenCL runtime here,
pocl's CPU device) it compiles the program (Tile -> Stripe -> the target's default pipeline ->
the backend; the compile time includes the C compiler, the LLVM JIT or the OpenCL build, with
fresh artifact caches so nothing is reused), checks the outputs
against the numpy reference, then times numpy and each target in blocks of runs, in rotating
order with a pause before each block (so machine noise hits all of them alike and OpenBLAS's
idle-spinning threads do not steal a core from the next runner), and reports median times and
the ratio `numpy time / plaidc time` (> 1: plaidc is faster).
Results also go to `bench/results.json`.

`matmul 1024^3 (tiled)` runs `bench/matmul_1024_tiled.stripe`, a matmul tiled by hand in the
form PlaidML's CPU pipeline produces (thread block, k tiles, a #mac_inner stencil block), for
the micro-kernel; the other rows run the Tile programs through the targets' own pipelines.

Usage: `python bench/run.py [--runs N] [--only SUBSTRING] [--targets c,llvm,opencl] [--no-npu]`;
a target may name a stage of its config, `opencl:gpu` (work-groups and `__local` tiles).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
Arrays = dict[str, np.ndarray]


def _conv_ref(x: Arrays) -> np.ndarray:
    img, ker, bias = x["I"], x["K"], x["B"]
    n, h, w, ci = img.shape
    kh, kw, _, co = ker.shape
    oh, ow = h - kh + 1, w - kw + 1
    cols = np.lib.stride_tricks.sliding_window_view(img, (kh, kw), axis=(1, 2))
    cols = cols.transpose(0, 1, 2, 4, 5, 3).reshape(n * oh * ow, kh * kw * ci)
    out = np.maximum(cols @ ker.reshape(-1, co) + bias, 0)
    return out.reshape(n, oh, ow, co)


def _mlp_ref(x: Arrays) -> np.ndarray:
    h = np.maximum(x["X"] @ x["W1"] + x["B1"], 0)
    h = np.maximum(h @ x["W2"] + x["B2"], 0)
    return np.maximum(h @ x["W3"] + x["B3"], 0)


def _softmax_ref(x: Arrays) -> np.ndarray:
    e = np.exp(x["X"] - x["X"].max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _layernorm_ref(x: Arrays) -> np.ndarray:
    v = x["X"]
    mu = v.mean(axis=1, keepdims=True)
    return (v - mu) / np.sqrt(v.var(axis=1, keepdims=True) + 1e-5) * x["Gamma"] + x["Beta"]


def _gconv_ref(x: Arrays) -> np.ndarray:
    img, ker = x["I"], x["W1"]
    kh, kw = ker.shape[3:]
    win = np.lib.stride_tricks.sliding_window_view(img, (kh, kw), axis=(3, 4))
    out = np.einsum("ngihwyx,goiyx->ngohw", win, ker, optimize=True)
    return out + x["B"][None, :, :, None, None]


@dataclass(frozen=True)
class Workload:
    label: str
    source: str  # examples/<name>.tile or a .stripe path relative to the repository
    dims: dict[str, int]
    reference: Callable[[Arrays], np.ndarray]
    flops: float = 0.0
    note: str = ""


WORKLOADS = [
    Workload(
        "matmul 1024^3",
        "examples/matmul.tile",
        {"M": 1024, "K": 1024, "N": 1024},
        lambda x: x["A"] @ x["B"],
        2 * 1024**3,
    ),
    Workload(
        "matmul 1024^3 (tiled)",
        "bench/matmul_1024_tiled.stripe",
        {},
        lambda x: x["A"] @ x["B"],
        2 * 1024**3,
        "hand-tiled Stripe in PlaidML's final form",
    ),
    Workload(
        "conv3x3 56x56x64->64 +bias+relu",
        "examples/conv2d_bias_relu.tile",
        {"N": 1, "H": 58, "W": 58, "CI": 64, "KH": 3, "KW": 3, "CO": 64},
        _conv_ref,
        2 * 56 * 56 * 64 * 64 * 9,
    ),
    Workload(
        "MLP 3x1024 batch 128",
        "examples/mlp_3layer.tile",
        {"B": 128, "D0": 1024, "D1": 1024, "D2": 1024, "D3": 1024},
        _mlp_ref,
        3 * 2 * 128 * 1024 * 1024,
    ),
    Workload("softmax 128x4096", "examples/softmax.tile", {"B": 128, "N": 4096}, _softmax_ref),
    Workload(
        "layernorm 128x4096", "examples/layernorm.tile", {"B": 128, "N": 4096}, _layernorm_ref
    ),
    Workload(
        "tc tmm 128,1024,1024",
        "examples/tc_tmm.tile",
        {"M": 128, "K": 1024, "N": 1024},
        lambda x: x["A"] @ x["B"].T,
        2 * 128 * 1024 * 1024,
    ),
    Workload(
        "tc tbmm 500,26,72,26",
        "examples/tc_tbmm.tile",
        {"B": 500, "N": 26, "M": 72, "K": 26},
        lambda x: np.einsum("bnm,bkm->bnk", x["X"], x["Y"]),
        2 * 500 * 26 * 72 * 26,
    ),
    Workload(
        "tc gconv 32,32,16,16,14,14",
        "examples/tc_gconv.tile",
        {"N": 32, "G": 32, "C": 16, "F": 16, "H": 16, "W": 16, "KH": 3, "KW": 3},
        _gconv_ref,
        2 * 32 * 32 * 16 * 16 * 14 * 14 * 9,
    ),
]


@dataclass
class Result:
    workload: str
    note: str
    numpy_ms: float
    targets: dict[str, dict[str, Any]] = field(default_factory=dict)


def _load(workload: Workload) -> Any:
    from plaidc import driver

    session = driver.Session()
    return driver.load_program(
        session, str(ROOT / workload.source), driver.Bindings(dims=workload.dims)
    )


def _compile(program: Any, target: str) -> tuple[Any, float]:
    from plaidc import driver
    from plaidc.backends import get_backend
    from plaidc.targets import load_target

    start = time.perf_counter()
    name, _, stage = target.partition(":")
    cfg = load_target(name)
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage(stage or "default")))
    artifact = get_backend(cfg.backend).compile(compiled, cfg)
    return artifact, time.perf_counter() - start


def _bench(workload: Workload, targets: list[str], runs: int) -> Result:
    from plaidc import driver
    from plaidc.interp import program_io

    program = _load(workload)
    inputs = driver.random_inputs(program_io(program).inputs, seed=0)
    expected = np.asarray(workload.reference(inputs))
    runners: dict[str, Callable[[], object]] = {"numpy": lambda: workload.reference(inputs)}
    result = Result(workload.label, workload.note, 0.0)
    for target in targets:
        try:
            artifact, seconds = _compile(program, target)
            outputs = artifact.run(inputs)  # a missing OpenCL runtime shows here
        except Exception as err:  # reported in the table, the other targets still run
            result.targets[target] = {"error": f"{type(err).__name__}: {err}"}
            continue
        (got,) = outputs.values()
        # Errors relative to the output's scale: long fp32 sums differ in the last bits,
        # which near-zero elements (relu outputs) magnify under an element-wise rtol.
        error = float(np.max(np.abs(got - expected.reshape(got.shape)), initial=0.0))
        ok = error <= 1e-4 * float(np.max(np.abs(expected), initial=0.0)) + 1e-5
        result.targets[target] = {"compile_s": seconds, "correct": ok}
        runners[target] = lambda a=artifact: a.run(inputs)
    times: dict[str, list[float]] = {name: [] for name in runners}
    for fn in runners.values():  # warm-up: first-touch of buffers, thread start-up
        fn()
    order = list(runners)
    passes = 3
    for pass_ in range(passes):
        # Blocks of runs per runner, in a rotating order, each after a pause: OpenBLAS's
        # threads keep spinning for tens of milliseconds after a call, and would otherwise
        # take a core from whichever runner follows numpy.
        for name in order[pass_ % len(order) :] + order[: pass_ % len(order)]:
            time.sleep(0.3)
            for _ in range(max(1, runs // passes)):
                start = time.perf_counter()
                runners[name]()
                times[name].append(time.perf_counter() - start)
    result.numpy_ms = statistics.median(times["numpy"]) * 1e3
    for target in targets:
        entry = result.targets[target]
        if "error" in entry:
            continue
        median = statistics.median(times[target])
        entry["median_ms"] = median * 1e3
        entry["min_ms"] = min(times[target]) * 1e3
        entry["ratio"] = statistics.median(times["numpy"]) / median
        entry["ratio_min"] = min(times["numpy"]) / min(times[target])
        if workload.flops:
            entry["gflops"] = workload.flops / median / 1e9
    return result


def _row(result: Result, targets: list[str]) -> str:
    cells = [f"{result.workload:32}", f"{result.numpy_ms:10.2f}"]
    for target in targets:
        entry = result.targets[target]
        if "error" in entry:
            cells.append(f"{'error':>30}")
            continue
        flag = "" if entry["correct"] else " WRONG"
        cells.append(
            f"{entry['median_ms']:9.2f} {entry['ratio']:6.2f}x {entry['compile_s']:6.2f}s{flag}"
        )
    return " ".join(cells)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--only", default="")
    parser.add_argument("--targets", default="c,llvm,opencl")
    parser.add_argument("--no-npu", action="store_true", help="skip the NPU section")
    args = parser.parse_args(argv)
    targets = [t for t in args.targets.split(",") if t]
    sys.path.insert(0, str(ROOT / "src"))
    # A fresh artifact cache, so compile times include the C compiler / the LLVM optimiser.
    os.environ["PLAIDC_CACHE_DIR"] = tempfile.mkdtemp(prefix="plaidc-bench-")
    # pocl keeps its own cache of built OpenCL programs.
    os.environ["POCL_CACHE_DIR"] = os.path.join(os.environ["PLAIDC_CACHE_DIR"], "pocl")
    header = [f"{'workload':32}", f"{'numpy ms':>10}"]
    header += [f"{t + ': ms  ratio  compile':>30}" for t in targets]
    print(" ".join(header))
    results = []
    for workload in WORKLOADS:
        if args.only and args.only not in workload.label:
            continue
        result = _bench(workload, targets, args.runs)
        print(_row(result, targets), flush=True)
        results.append(result)
    print(
        "ratio = numpy median time / plaidc median time (> 1: plaidc faster); compile = "
        "pipeline + backend, cold artifact cache"
    )
    for result in results:
        if result.note:
            print(f"  {result.workload}: {result.note}")
    payload = [
        {"workload": r.workload, "note": r.note, "numpy_ms": r.numpy_ms, "targets": r.targets}
        for r in results
    ]
    (ROOT / "bench" / "results.json").write_text(json.dumps(payload, indent=2) + "\n")
    wrong = [r.workload for r in results for t in r.targets.values() if t.get("correct") is False]
    if not args.no_npu:  # the NPU section (simulated cycles), results in bench/npu_results.json
        npu = npu_section()
        wrong += [
            str(r["matmul"]) for r in npu if not (r["plaidc"]["correct"] and r["naive"]["correct"])
        ]
    return 1 if wrong else 0


# ============================================================================================
# NPU section (issue #7): simulated cycles of the `npu` target's mapping against the naive one.
# Not wall-clock: the cycle model of the plaidc NPU simulator (NPU.md). The naive mapping is the
# same backend with `[codegen] buffering = 1, reuse = false, serialise = true` (one buffer, no
# operand kept in L1, a barrier after every operation): AKG's "naive kernel" baseline.

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


# ============================================================================================


if __name__ == "__main__":
    sys.exit(main())
