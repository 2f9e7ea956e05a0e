"""A/B of target configs on the benchmark workloads: each config compiles each workload once
(compile time reported), its output is checked against the workload's numpy reference, then
the configs run interleaved (A, B, A, B, ...) and each reports its best and median CPU time
(`time.process_time`, so other processes' load on a shared machine counts less than in wall
time; run it with OMP_NUM_THREADS=1 for one thread).

    OMP_NUM_THREADS=1 python bench/ab_configs.py --rounds 8 \
        --config old=old.toml --config new=src/plaidc/targets/c.toml "matmul 1024^3" "tc tmm"

A workload is a label of `workloads.py` (STANDARD, ODD, SMOKE), `matmul MxKxN`, `softmax RxC`
or `layernorm RxC`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workloads import Workload, find, layernorm, load_program, make_inputs, matches, matmul, softmax

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.targets import parse_config


def workload(label: str) -> Workload:
    kind, _, size = label.partition(" ")
    if kind == "matmul" and "x" in size:
        m, k, n = (int(v) for v in size.split("x"))
        return matmul(m, k, n)
    if kind in ("softmax", "layernorm") and "x" in size:
        rows, cols = (int(v) for v in size.split("x"))
        return (softmax if kind == "softmax" else layernorm)(rows, cols)
    return find(label)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workloads", nargs="+")
    parser.add_argument("--config", action="append", required=True, help="NAME=FILE.toml")
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    configs = {}
    for item in args.config:
        name, _, path = item.partition("=")
        configs[name] = parse_config(Path(path).read_text(), path)
    for label in args.workloads:
        w = workload(label)
        inputs = make_inputs(w)
        expected = w.reference(inputs)
        runs = {}
        line = [f"{w.label:28}"]
        for name, cfg in configs.items():
            start = time.perf_counter()
            program = load_program(w)
            steps = driver.resolve_steps(cfg.stage("default"))
            artifact = get_backend(cfg.backend).compile(driver.run_pipeline(program, steps), cfg)
            compile_s = time.perf_counter() - start
            (got,) = artifact.run(inputs).values()
            if not matches(np.asarray(got), expected):
                print(f"{w.label}: {name} is WRONG", file=sys.stderr)
                return 1
            runs[name] = (artifact, [])
            line.append(f"{name} compile {compile_s:.2f}s")
        for _ in range(args.rounds):
            for artifact, times in runs.values():
                start = time.process_time()
                artifact.run(inputs)
                times.append(time.process_time() - start)
        for name, (_, times) in runs.items():
            line.append(f"{name} {1e3 * min(times):.4g}/{1e3 * statistics.median(times):.4g} ms")
        if w.flops:
            best = {n: min(t) for n, (_, t) in runs.items()}
            line.append(" ".join(f"{n} {w.flops / t / 1e9:.0f}GF/s" for n, t in best.items()))
        print("  ".join(line), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
