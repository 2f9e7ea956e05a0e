"""`make bench`: the QUALITY.md workloads, timed against numpy in the same process run.

For each workload it reports the numpy reference time, plaidc's compile time (Tile -> Stripe ->
the target's default pipeline) and, for every target whose backend is built, the run time and
the ratio numpy_time / plaidc_time (> 1 means plaidc is faster). Targets without a built backend
are listed as such; the reference interpreter is not a performance target and is not timed on
these sizes. Results also go to bench/results.json.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from plaidc import driver
from plaidc.targets import builtin_target_names, load_target

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
Ref = Callable[[dict[str, np.ndarray]], object]


def _conv_ref(x: dict[str, np.ndarray]) -> object:
    img, ker, bias = x["I"], x["K"], x["B"]
    n, h, w, ci = img.shape
    kh, kw, _, co = ker.shape
    oh, ow = h - kh + 1, w - kw + 1
    cols = np.lib.stride_tricks.sliding_window_view(img, (kh, kw), axis=(1, 2))
    cols = cols.transpose(0, 1, 2, 4, 5, 3).reshape(n * oh * ow, kh * kw * ci)
    return np.maximum(cols @ ker.reshape(-1, co) + bias, 0)


def _mlp_ref(x: dict[str, np.ndarray]) -> object:
    h = np.maximum(x["X"] @ x["W1"] + x["B1"], 0)
    h = np.maximum(h @ x["W2"] + x["B2"], 0)
    return np.maximum(h @ x["W3"] + x["B3"], 0)


def _softmax_ref(x: dict[str, np.ndarray]) -> object:
    e = np.exp(x["X"] - x["X"].max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _layernorm_ref(x: dict[str, np.ndarray]) -> object:
    v = x["X"]
    mu = v.mean(axis=1, keepdims=True)
    return (v - mu) / np.sqrt(v.var(axis=1, keepdims=True) + 1e-5) * x["Gamma"] + x["Beta"]


WORKLOADS: list[tuple[str, str, dict[str, int], Ref]] = [
    ("matmul 1024^3", "matmul", {"M": 1024, "K": 1024, "N": 1024}, lambda x: x["A"] @ x["B"]),
    (
        "conv3x3 56x56x64->64 +bias+relu",
        "conv2d_bias_relu",
        {"N": 1, "H": 58, "W": 58, "CI": 64, "KH": 3, "KW": 3, "CO": 64},
        _conv_ref,
    ),
    (
        "MLP 3x1024 batch 128",
        "mlp_3layer",
        {"B": 128, "D0": 1024, "D1": 1024, "D2": 1024, "D3": 1024},
        _mlp_ref,
    ),
    ("softmax 128x4096", "softmax", {"B": 128, "N": 4096}, _softmax_ref),
    ("layernorm 128x4096", "layernorm", {"B": 128, "N": 4096}, _layernorm_ref),
    (
        "tc tmm 128,1024,1024",
        "tc_tmm",
        {"M": 128, "K": 1024, "N": 1024},
        lambda x: x["A"] @ x["B"].T,
    ),
    (
        "tc tbmm 500,26,72,26",
        "tc_tbmm",
        {"B": 500, "N": 26, "M": 72, "K": 26},
        lambda x: np.einsum("bnm,bkm->bnk", x["X"], x["Y"]),
    ),
]


def _time(fn: Callable[[], object], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    from plaidc.interp import program_io

    results = []
    built = [t for t in builtin_target_names() if load_target(t).backend not in ("interp",)]
    print(f"{'workload':34} {'numpy ms':>10} {'compile ms':>11}  targets")
    for label, example, dims, reference in WORKLOADS:
        session = driver.Session()
        path = str(EXAMPLES / f"{example}.tile")
        start = time.perf_counter()
        program = driver.load_program(session, path, driver.Bindings(dims=dims))
        steps = driver.resolve_steps(load_target("c").stage("default"))
        driver.run_pipeline(program, steps)
        compile_ms = (time.perf_counter() - start) * 1e3
        inputs = driver.random_inputs(program_io(program).inputs, seed=0)
        numpy_ms = _time(lambda: reference(inputs)) * 1e3
        status = ", ".join(f"{t}: backend not built" for t in built)
        print(f"{label:34} {numpy_ms:10.2f} {compile_ms:11.1f}  {status}")
        results.append(
            {"workload": label, "numpy_ms": numpy_ms, "compile_ms": compile_ms, "targets": {}}
        )
    (ROOT / "bench" / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
