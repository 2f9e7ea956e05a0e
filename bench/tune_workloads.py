"""Tune the benchmark's workloads into one database, for `make bench BENCH_ARGS="--tune-db FILE"`.

For every Tile or Stripe workload of the shape set (`--only` narrows it) and every target whose
config has a search space, it runs `plaidc tune SOURCE -t TARGET -D ... --trials N
--time-budget S --db FILE` (64 trials, at most 150 s of trials by default: with the closing
side-by-side confirmation a session stays within 3 minutes; the interpreter's reference outputs,
computed once before the trials, are not counted). ONNX models are not tuned (no record: the
bench's tuned row is the untuned pipeline).

Usage: python bench/tune_workloads.py --db FILE [--shapes standard] [--targets c,llvm]
       [--only SUBSTRING] [--trials 64] [--time-budget 150]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from workloads import SHAPE_SETS  # noqa: E402

PLAIDC = Path(sys.executable).parent / "plaidc"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--db", required=True, type=Path, help="the tuning database to fill")
    parser.add_argument("--shapes", choices=sorted(SHAPE_SETS), default="standard")
    parser.add_argument("--targets", default="c,llvm", help="plaidc targets with a [tune] table")
    parser.add_argument("--only", default="", help="workloads whose label contains this")
    parser.add_argument("--trials", type=int, default=64)
    parser.add_argument("--time-budget", type=float, default=150.0)
    args = parser.parse_args(argv)
    failed = 0
    for workload in SHAPE_SETS[args.shapes]:
        if args.only not in workload.label or workload.kind == "onnx":
            continue
        for target in [t for t in args.targets.split(",") if t]:
            name, _, stage = target.partition(":")
            command = [str(PLAIDC), "tune", workload.source, "-t", name, "--db", str(args.db)]
            command += ["--trials", str(args.trials), "--time-budget", str(args.time_budget)]
            command += ["--stage", stage] if stage else []
            for dim, value in workload.dims.items():
                command += ["-D", f"{dim}={value}"]
            print(f"tune: {workload.label} on {target}", file=sys.stderr, flush=True)
            start = time.monotonic()
            done = subprocess.run(command, cwd=HERE.parent, capture_output=True, text=True)
            lines = [line for line in done.stderr.splitlines() if line.startswith("plaidc tune:")]
            print(f"## {workload.label} -t {target}: {time.monotonic() - start:.0f} s")
            print("\n".join(lines[-4:]) if done.returncode == 0 else done.stderr[-2000:])
            failed += done.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
