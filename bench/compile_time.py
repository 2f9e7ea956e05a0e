"""Cold compile time of the benchmark workloads, as `make bench` times it (issue 19: <= 0.6 s).

Usage: `python bench/compile_time.py [--shapes standard|odd|all|smoke] [--targets c,llvm]
[--repeat N] [--only SUBSTRING (repeatable)] [--limit SECONDS] [--no-bytecode]`

Each compile runs in a fresh process with a fresh, empty artifact cache, through the bench's own
runner (`runners.prepare`): the figure is the `compile s` column of `make bench`, i.e. the
target's pipeline and backend, with the Python imports they make, the C compiler or the LLVM
optimiser and code generator, and no cache of an earlier compile (the host's facts in the cache,
libgomp's spin count, come from an untimed first compile, as in `make bench`). The bytecode of
plaidc's own modules is written first (`bytecode.py`), as installing the package does;
`--no-bytecode` times the environment without it (PYTHONDONTWRITEBYTECODE set, no `__pycache__`).
The table gives the best and the median wall time of N processes per pair and the least CPU time
(the process's and the C compiler's: less sensitive to a busy machine), with the load average, as
the machine is shared. Time it alone: `flock /tmp/plaidc-timing.lock python bench/compile_time.py`.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bytecode import compile_bytecode  # noqa: E402
from workloads import SHAPE_SETS, Workload, find  # noqa: E402


def child(target: str, label: str) -> int:
    """One compile in this process; prints `{"compile_s": ...}`."""
    from runners import prepare
    from workloads import make_inputs

    workload = find(label)
    inputs = make_inputs(workload)
    before = cpu_seconds()
    prepared = prepare(target, workload, inputs, threads=0)
    print(json.dumps({"compile_s": prepared.compile_s, "cpu_s": cpu_seconds() - before}))
    return 0


def cpu_seconds() -> float:
    """User + system time of this process and its finished children (the C compiler)."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


# What the cache directory holds about the host rather than a program (libgomp's spin count,
# measured once per CPU model): `make bench` measures it in its first worker and every later
# worker reads it back, so the timed compiles get it; their artifact caches stay empty.
HOST_FACTS = ("spin",)


def one_compile(target: str, label: str, host: Path | None = None) -> tuple[float, float]:
    with tempfile.TemporaryDirectory(prefix="plaidc-ctime-") as scratch:
        for fact in HOST_FACTS if host is not None else ():
            if (host / fact).is_dir():
                shutil.copytree(host / fact, Path(scratch) / fact)
        env = dict(os.environ, PLAIDC_CACHE_DIR=scratch, POCL_CACHE_DIR=f"{scratch}/pocl")
        result = subprocess.run(
            [sys.executable, __file__, "--child", target, label],
            capture_output=True,
            text=True,
            env=env,
            cwd=HERE,
            check=False,
        )
    if result.returncode != 0:
        raise RuntimeError(f"{target} {label}: {result.stderr.strip()[-2000:]}")
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    return float(answer["compile_s"]), float(answer["cpu_s"])


def env_compile(target: str, label: str, cache: Path) -> None:
    """One compile with `cache` as the cache directory (it keeps what the compile wrote)."""
    env = dict(os.environ, PLAIDC_CACHE_DIR=str(cache), POCL_CACHE_DIR=f"{cache}/pocl")
    subprocess.run(
        [sys.executable, __file__, "--child", target, label],
        capture_output=True,
        env=env,
        cwd=HERE,
        check=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--shapes", choices=sorted(SHAPE_SETS), default="standard")
    parser.add_argument("--targets", default="c,llvm")
    parser.add_argument("--repeat", type=int, default=3, help="processes per pair")
    parser.add_argument("--only", action="append", default=[], help="label substring")
    parser.add_argument("--limit", type=float, default=0.6, help="seconds (issue 19)")
    parser.add_argument("--no-bytecode", action="store_true", help="do not byte-compile plaidc")
    parser.add_argument("--child", nargs=2, metavar=("TARGET", "LABEL"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(*args.child)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if not args.no_bytecode:
        compile_bytecode()
    only = args.only or [""]
    workloads = [w for w in SHAPE_SETS[args.shapes] if any(o in w.label for o in only)]
    if not args.only:  # the ONNX import is minutes of Python: name it to time it
        workloads = [w for w in workloads if w.kind != "onnx"]
    targets = [t for t in args.targets.split(",") if t]
    host = Path(tempfile.mkdtemp(prefix="plaidc-ctime-host-"))
    try:
        return timed_table(workloads, targets, args.repeat, args.limit, host)
    finally:
        shutil.rmtree(host, ignore_errors=True)


def timed_table(
    workloads: list[Workload], targets: list[str], repeat: int, limit: float, host: Path
) -> int:
    if workloads and targets:  # an untimed compile measures the host facts, as bench's first
        env_compile(targets[0], workloads[0].label, host)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| workload | target | best s | median s | best CPU s | <= limit |")
    print("|---|---|---:|---:|---:|---|")
    over = 0
    for workload in workloads:
        for target in targets:
            if workload.runners and target not in workload.runners:
                continue
            runs = [one_compile(target, workload.label, host) for _ in range(repeat)]
            times = [wall for wall, _ in runs]
            best, median = min(times), statistics.median(times)
            cpu = min(cpu for _, cpu in runs)
            over += best > limit
            verdict = "yes" if best <= limit else "**no**"
            row = f"| {workload.label} | {target} | {best:.2f} | {median:.2f} | {cpu:.2f}"
            print(f"{row} | {verdict} |")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
