"""How good is `plaidc tune`'s search? An exhaustive sweep of a workload's search space against
a tuning run of `--trials` trials (64 by default), both measured the way `plaidc tune` measures.

For each workload of `bench/run.py` chosen by `--only` it sweeps every point of the target's
space (points whose pipelines give the same program share one measurement, so this is the
distinct programs of the space; with `--max-points N` a random N of them), then tunes with
`--trials` in a fresh database, and prints the best of each and their ratio (the tune's best
over the sweep's best: <= 1.05 is the goal). On a CPU target times are noisy: the two bests
are re-measured side by side (`--remeasure`, default 5 alternating rounds) before comparing.

Usage: python bench/tune_sweep.py --only matmul --target c [--trials 64] [--dims M=256,K=256,N=256]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import WORKLOADS, Workload

from plaidc import driver
from plaidc.targets import load_target
from plaidc.tune.command import contraction_flops
from plaidc.tune.db import TuneDb
from plaidc.tune.measure import ChildMeasurer, Timing, metric_of
from plaidc.tune.progress import TuneProgress, show_value
from plaidc.tune.space import apply_point, build_space, point_key
from plaidc.tune.tuner import TuneRequest, tune

ROOT = Path(__file__).resolve().parents[1]


def _program(workload: Workload, dims: dict[str, int]) -> Any:
    bound = {**workload.dims, **dims}
    return driver.load_program(
        driver.Session(), str(ROOT / workload.source), driver.Bindings(bound)
    )


def _measurer(program: Any, workdir: Path, npu: bool) -> ChildMeasurer:
    from plaidc.interp import program_io, run_program

    inputs = driver.random_inputs(program_io(program).inputs, 0)
    loose = driver.through_half_precision(program)
    if npu:
        loose |= {r.into for r in program.refs if r.dir.writes}
    return ChildMeasurer(workdir, inputs, run_program(program, inputs), frozenset(loose),
                         timing=Timing())  # fmt: skip


def _run(program: Any, label: str, cfg: Any, trials: int, db: TuneDb, workdir: Path) -> Any:
    request = TuneRequest(program, label, cfg, "default", trials)
    progress = TuneProgress(metric_of(cfg), contraction_flops(program))
    measurer = _measurer(program, workdir, cfg.backend == "npu")
    return tune(request, db, measurer, progress, lambda line: print(line, file=sys.stderr))


def _remeasure(program: Any, cfg: Any, points: list[dict[str, Any]], rounds: int, workdir: Path):
    from plaidc.stripe.printer import print_stripe

    measurer = _measurer(program, workdir, False)
    texts = []
    for point in points:
        point_cfg, steps = apply_point(cfg, "default", point)
        final = driver.run_pipeline(program, driver.resolve_steps(steps))
        texts.append((print_stripe(final), point_cfg))
    times: list[list[float]] = [[] for _ in points]
    for _ in range(rounds):
        for i, (text, point_cfg) in enumerate(texts):
            outcome = measurer(text, point_cfg)
            if outcome.value is not None:
                times[i].append(outcome.value)
    return [statistics.median(t) if t else float("inf") for t in times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", required=True, help="a substring of the workload's label")
    parser.add_argument("--target", default="c")
    parser.add_argument("--trials", type=int, default=64)
    parser.add_argument("--dims", default="", help="override sizes: M=256,N=256")
    parser.add_argument("--remeasure", type=int, default=5)
    parser.add_argument("--out", default=None, help="write the result as JSON here")
    args = parser.parse_args()
    dims = {k: int(v) for k, v in (d.split("=") for d in args.dims.split(",") if d)}
    (workload,) = [w for w in WORKLOADS if args.only in w.label and w.source.endswith(".tile")][:1]
    cfg = load_target(args.target)
    program = _program(workload, dims)
    space = build_space(cfg, "default")
    metric = metric_of(cfg)
    with tempfile.TemporaryDirectory(prefix="plaidc-sweep-") as tmp:
        work = Path(tmp)
        start = time.monotonic()
        sweep = _run(program, workload.source, cfg, space.size, TuneDb(work / "sweep.jsonl"), work)
        sweep_s = time.monotonic() - start
        start = time.monotonic()
        tuned = _run(program, workload.source, cfg, args.trials, TuneDb(work / "tune.jsonl"), work)
        tune_s = time.monotonic() - start
        assert sweep.best is not None and tuned.best is not None
        best_sweep, best_tune = sweep.best["result"]["value"], tuned.best["result"]["value"]
        default = sweep.default["result"]["value"] if sweep.default else None
        if metric == "seconds" and args.remeasure:
            points = [sweep.best["params"], tuned.best["params"], space.default_point()]
            best_sweep, best_tune, default = _remeasure(program, cfg, points, args.remeasure, work)
    result = {
        "workload": workload.label,
        "dims": {**workload.dims, **dims},
        "target": args.target,
        "space": space.size,
        "sweep_measured": sweep.measured,
        "sweep_seconds": round(sweep_s, 1),
        "tune_trials": tuned.measured,
        "tune_seconds": round(tune_s, 1),
        "best_sweep": best_sweep,
        "best_tune": best_tune,
        "default": default,
        "tune_over_sweep": best_tune / best_sweep,
        "sweep_point": point_key(sweep.best["params"]),
        "tune_point": point_key(tuned.best["params"]),
    }
    print(
        f"{workload.label} on {args.target}: sweep of {sweep.measured} programs "
        f"({space.size} points) best {show_value(best_sweep, metric)}; {tuned.measured} trials "
        f"best {show_value(best_tune, metric)} (x{best_tune / best_sweep:.3f} of the sweep's); "
        f"untuned {show_value(default, metric)}"
    )
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
