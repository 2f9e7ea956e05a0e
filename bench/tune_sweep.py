"""How good is `plaidc tune`'s search? The best point of an exhaustive sweep of a workload's
search space against what a tuning session of `--trials` trials (64 by default) chooses, both
measured the way `plaidc tune` measures.

For the workload of `bench/workloads.py` that `--only` names (a Tile program), it sweeps every
point of the target's space (points whose pipelines give the same program share one
measurement; where the space has more than `--max-points` points, a random search of that many
trials stands in for the sweep), then tunes with `--trials` in a fresh database. Each session
ends as `plaidc tune` does: its fastest few and the config's own point re-measured side by side,
and its choice. On a CPU the times are noisy, so the sweep's choice, the tune's choice and the
config's own point are then re-measured side by side in `--repeats` separate children of
`--rounds` interleaved rounds each; the result is the median over the repeats of the ratio
tune / sweep (<= 1.05 is the goal), with the spread of those ratios as the noise. On the NPU
cycles are exact and the ratio is read off directly.

The sweep's readings also serve as the objective of replayed searches (no measuring): for 8 to
64 trials and `--replay-seeds` seeds, the share of the tuner's searches, and of random ones,
whose best reading is within 5% of the sweep's best.

Usage: python bench/tune_sweep.py --only matmul --target c [--trials 64] [--dims M=256,N=256]
       [--repeats 3] [--rounds 7] [--max-points 1000] [--out FILE.json]
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

from workloads import STANDARD, Workload

from plaidc import driver
from plaidc.targets import load_target
from plaidc.tune.command import contraction_flops
from plaidc.tune.db import TuneDb, best_valid
from plaidc.tune.measure import ChildMeasurer, metric_of
from plaidc.tune.progress import TuneProgress, show_value
from plaidc.tune.search import Search
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
    expected = run_program(program, inputs)
    terms = driver.longest_reduction(program)
    return ChildMeasurer(workdir, inputs, expected, frozenset(loose), reduction_terms=terms)


class RandomOrder(Search):
    """The stand-in for a sweep of a space too big to sweep: random unvisited points."""

    def propose(self) -> Any:
        return None if self.exhausted() else self._random_unvisited()


def _session(
    program: Any, label: str, cfg: Any, trials: int, db: TuneDb, measurer: ChildMeasurer,
    search: type[Search] | None = None,
) -> tuple[Any, dict[str, Any]]:  # fmt: skip
    """Tune; (the summary, the record compile would apply: the session's choice)."""
    request = TuneRequest(program, label, cfg, "default", trials)
    progress = TuneProgress(metric_of(cfg), contraction_flops(program))
    note = lambda line: print(line, file=sys.stderr)  # noqa: E731
    summary = tune(request, db, measurer, progress, note, search=search or Search)
    space = build_space(cfg, "default")
    chosen, _ = best_valid(db.records(), summary.key, space.contains)
    assert chosen is not None, "no correct candidate"
    return summary, chosen


def replay(space: Any, records: list[dict[str, Any]], budget: int, seed: int, search: Any) -> float:
    """The best value a search of `budget` trials finds with the sweep's measurements as the
    objective (no measuring): the tuner's loop, where a point of an already measured program
    costs no trial."""
    by_point = {point_key(r["params"]): r for r in records if r.get("kind") == "trial"}
    searcher = search(space, [space.default_point()], seed=seed)
    measured: set[Any] = set()
    best, proposals = float("inf"), 0
    while len(measured) < budget and proposals <= 50 * budget + space.size:
        point = searcher.propose()
        proposals += 1
        if point is None:
            break
        record = by_point[point_key(point)]
        result = record["result"]
        measured.add(record.get("fingerprint") or point_key(point))
        value = result["value"] if result["status"] == "ok" else None
        searcher.record(point, value)
        if value is not None:
            best = min(best, value)
    return best


def replays(space: Any, records: list[dict[str, Any]], seeds: int) -> dict[str, Any]:
    """For budgets of 8 to 64 trials and `seeds` seeds, the share of searches (the tuner's and
    a random one) whose best is within 5% of the sweep's best reading, and the median ratio."""
    values = [r["result"]["value"] for r in records
              if r.get("kind") == "trial" and r["result"]["status"] == "ok"]  # fmt: skip
    optimum = min(values)
    table: dict[str, Any] = {}
    for name, search in (("search", Search), ("random", RandomOrder)):
        for budget in (8, 16, 32, 64):
            ratios = [replay(space, records, budget, seed, search) / optimum
                      for seed in range(seeds)]  # fmt: skip
            table[f"{name} {budget}"] = {
                "within_5pct": sum(r <= 1.05 for r in ratios) / len(ratios),
                "median_ratio": statistics.median(ratios),
            }
    return table


def _side_by_side(
    program: Any, cfg: Any, points: list[dict[str, Any]], measurer: ChildMeasurer, rounds: int
) -> list[float]:
    from plaidc.stripe.printer import print_stripe

    candidates = []
    for point in points:
        point_cfg, steps = apply_point(cfg, "default", point)
        final = driver.run_pipeline(program, driver.resolve_steps(steps))
        candidates.append((print_stripe(final), point_cfg))
    outcome = measurer.compare(candidates, rounds)
    if outcome.status != "ok":
        raise SystemExit(f"re-measuring failed: {outcome.status}: {outcome.message}")
    return list(outcome.extra["medians"])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--only", required=True, help="a substring of the workload's label")
    parser.add_argument("--target", default="c")
    parser.add_argument("--trials", type=int, default=64)
    parser.add_argument("--dims", default="", help="override sizes: M=256,N=256")
    parser.add_argument("--max-points", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3, help="side-by-side re-measures")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds of each")
    parser.add_argument("--replay-seeds", type=int, default=100, help="searches replayed")
    parser.add_argument(
        "--out", default=None, help="write the result as JSON here (the sweep's records beside it)"
    )
    args = parser.parse_args()
    dims = {k: int(v) for k, v in (d.split("=") for d in args.dims.split(",") if d)}
    found = [w for w in STANDARD if args.only in w.label and w.source.endswith(".tile")]
    if not found:
        parser.error(f"no Tile workload of the benchmark's standard set matches '{args.only}'")
    workload = found[0]
    cfg = load_target(args.target)
    program = _program(workload, dims)
    space = build_space(cfg, "default")
    metric = metric_of(cfg)
    exhaustive = space.size <= args.max_points
    with tempfile.TemporaryDirectory(prefix="plaidc-sweep-") as tmp:
        work = Path(tmp)
        measurer = _measurer(program, work, cfg.backend == "npu")
        start = time.monotonic()
        sweep_db = TuneDb(Path(args.out + ".sweep.jsonl") if args.out else work / "sweep.jsonl")
        if sweep_db.path.exists():
            sweep_db.path.unlink()
        sweep, sweep_choice = _session(
            program, workload.source, cfg, space.size if exhaustive else args.max_points,
            sweep_db, measurer, None if exhaustive else RandomOrder,
        )  # fmt: skip
        sweep_s = time.monotonic() - start
        records = sweep_db.records(sweep.key)
        replayed = replays(space, records, args.replay_seeds) if exhaustive else {}
        start = time.monotonic()
        tuned, tune_choice = _session(
            program, workload.source, cfg, args.trials, TuneDb(work / "tune.jsonl"), measurer
        )
        tune_s = time.monotonic() - start
        default_point = space.default_point()
        ratios, untuned = [], []
        if metric == "seconds":
            points = [sweep_choice["params"], tune_choice["params"], default_point]
            for _ in range(args.repeats):
                best_sweep, best_tune, default = _side_by_side(
                    program, cfg, points, measurer, args.rounds
                )
                ratios.append(best_tune / best_sweep)
                untuned.append(default / best_tune)
        else:
            best_sweep = sweep_choice["result"]["value"]
            best_tune = tune_choice["result"]["value"]
            default = sweep.default["result"]["value"] if sweep.default else float("nan")
            ratios, untuned = [best_tune / best_sweep], [default / best_tune]
    ratio = statistics.median(ratios)
    if point_key(sweep_choice["params"]) == point_key(tune_choice["params"]):
        ratio = 1.0
    result = {
        "workload": workload.label,
        "dims": {**workload.dims, **dims},
        "target": args.target,
        "space": space.size,
        "sweep": "exhaustive" if exhaustive else f"random search of {args.max_points}",
        "sweep_measured": sweep.measured,
        "sweep_reused": sweep.reused,
        "sweep_reason": sweep.reason,
        "sweep_seconds": round(sweep_s, 1),
        "tune_trials": tuned.measured,
        "tune_seconds": round(tune_s, 1),
        "sweep_point": point_key(sweep_choice["params"]),
        "tune_point": point_key(tune_choice["params"]),
        "default_point": point_key(default_point),
        "tune_over_sweep": ratio,
        "tune_over_sweep_each": ratios,
        "untuned_over_tuned_each": untuned,
        "last_remeasure": {"sweep": best_sweep, "tune": best_tune, "default": default},
        "replays": replayed,
    }
    noise = f" (repeats {', '.join(f'{r:.3f}' for r in ratios)})" if len(ratios) > 1 else ""
    same = result["sweep_point"] == result["tune_point"]
    result["same_point"] = same
    if same:  # two copies of one program side by side: the ratios are the noise alone
        noise = f" (the same point: x1 by identity; its copies side by side read{noise[1:-1]})"
    print(
        f"{workload.label} on {args.target}: space {space.size} points; "
        f"{result['sweep']} sweep: {sweep.measured} programs measured in {sweep_s:.0f} s, "
        f"chose {result['sweep_point']}; {tuned.measured} trials in {tune_s:.0f} s chose "
        f"{result['tune_point']}; side by side tune/sweep x{ratio:.3f}{noise}, last "
        f"{show_value(best_tune, metric)} vs {show_value(best_sweep, metric)}, untuned "
        f"{show_value(default, metric)} (untuned/tuned "
        f"{', '.join(f'{u:.3f}' for u in untuned)}); within 5%: {ratio <= 1.05}"
    )
    print(
        f"replayed on the sweep's readings ({args.replay_seeds} seeds), share within 5% of its "
        "best / median ratio: "
        + "; ".join(
            f"{k}: {v['within_5pct']:.0%} / {v['median_ratio']:.3f}" for k, v in replayed.items()
        )
    )
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2, default=str) + "\n")


if __name__ == "__main__":
    main()
