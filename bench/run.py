"""`make bench`: the QUALITY.md workloads on plaidc's CPU targets, against numpy, onnxruntime and
PyTorch, each runner in its own process.

Every runner (numpy, each plaidc target, onnxruntime and PyTorch when installed) runs in a child
process of its own (`bench/worker.py`): one process's OpenMP and OpenBLAS thread pools fought
over the cores, and numpy's 1024^3 matmul read 31.5 ms in one row and 6.7 ms in the next. A
worker prepares its runner once (for plaidc: the target's pipeline and backend, timed as compile
time, with fresh artifact caches and plaidc's modules byte-compiled as installed), checks the
output against the numpy reference, then times blocks of calls on request. Blocks are
interleaved: block 1 of every runner, then block 2, ..., in a rotating order with a pause before
each (spinning idle thread pools of the previous runner would take a core), so the machine's
noise hits all runners alike. The table gives the best and
median call of each runner over its blocks and the ratios `numpy time / runner time` (> 1: faster
than numpy), % of the peak measured by an FMA probe for the FLOP-bound rows, and GB/s for the
row-reduction rows. numpy's process runs with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset, so
OpenBLAS picks its own kernels (recorded in the results). Everything goes to
`bench/results.json`; the NPU section (simulated cycles) to `bench/npu_results.json`.

Usage: `python bench/run.py [--shapes standard|odd|all] [--blocks N] [--only SUBSTRING (repeatable)]
[--targets c,llvm,opencl] [--no-third-party] [--no-npu] [--tune-db FILE]`; a target may name a
stage of its config, `opencl:gpu` (work-groups and `__local` tiles). With `--tune-db FILE` each
plaidc target runs twice, untuned and tuned (`c+tuned`: the database's best record applied, as
`plaidc compile` would), interleaved like every runner, and a second table gives untuned / tuned.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bytecode import compile_bytecode  # noqa: E402
from machine import FmaProbe, describe, library_versions  # noqa: E402
from runners import THIRD_PARTY, TUNED  # noqa: E402
from workloads import SHAPE_SETS, Workload, find  # noqa: E402

# OpenBLAS settings this environment may pin (slow Haswell kernels): numpy's process drops them.
OPENBLAS_PINS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


@dataclass
class Worker:
    runner: str
    process: subprocess.Popen[str]
    status: dict[str, Any]
    times: list[list[float]] = field(default_factory=list)

    def request(self, line: str) -> dict[str, Any] | None:
        """Send a request, read the answer; None if the worker died."""
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            return None
        answer = self.process.stdout.readline()
        return json.loads(answer) if answer else None

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def child_env(runner: str, base: dict[str, str]) -> dict[str, str]:
    env = dict(base)
    if runner == "numpy":
        for name in OPENBLAS_PINS:
            env.pop(name, None)
    else:  # numpy only checks results there: no second BLAS thread pool beside the runner's
        env["OPENBLAS_NUM_THREADS"] = "1"
    return env


def start_worker(runner: str, workload: Workload, env: dict[str, str], log: IO[str]) -> Worker:
    """Start a worker and wait until it has prepared its runner (compiles run one at a time)."""
    process = subprocess.Popen(
        [sys.executable, str(HERE / "worker.py"), runner, workload.label],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        env=child_env(runner, env),
        cwd=HERE,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    status = json.loads(line) if line else {"error": f"worker exited ({process.wait()})"}
    return Worker(runner, process, status)


def bench_workload(
    workload: Workload,
    runners: list[str],
    blocks: int,
    pause: float,
    env: dict[str, str],
    log: IO[str],
) -> dict[str, dict[str, Any]]:
    workers = []
    for runner in runners:
        log.write(f"--- {workload.label}: {runner}\n")
        log.flush()
        workers.append(start_worker(runner, workload, env, log))
    live = [w for w in workers if w.status.get("ready")]
    for block in range(blocks):
        for worker in live[block % len(live) :] + live[: block % len(live)] if live else []:
            time.sleep(pause)
            answer = worker.request("block")
            if answer is None:
                worker.status = {"error": f"worker died while timing (its log: {log.name})"}
            elif "times" in answer:
                worker.times.append(answer["times"])
        live = [w for w in live if "error" not in w.status]
    for worker in workers:
        worker.close()
    return summarise(workload, workers)


def summarise(workload: Workload, workers: list[Worker]) -> dict[str, dict[str, Any]]:
    entries: dict[str, dict[str, Any]] = {}
    for worker in workers:
        entry = {k: v for k, v in worker.status.items() if k != "ready"}
        calls = [t for block in worker.times for t in block]
        if calls and "error" not in entry:
            entry["best_ms"] = min(calls) * 1e3
            entry["median_ms"] = statistics.median(calls) * 1e3
            entry["block_medians_ms"] = [statistics.median(b) * 1e3 for b in worker.times]
            entry["blocks"] = len(worker.times)
        entries[worker.runner] = entry
    numpy = entries.get("numpy", {})
    for entry in entries.values():
        if "best_ms" not in entry:
            continue
        if "best_ms" in numpy:
            entry["ratio_best"] = numpy["best_ms"] / entry["best_ms"]
            entry["ratio_median"] = numpy["median_ms"] / entry["median_ms"]
        if workload.flops:
            entry["gflops"] = workload.flops / entry["best_ms"] / 1e6
        if workload.bytes_moved:
            entry["gbps"] = workload.bytes_moved / entry["best_ms"] / 1e6
    return entries


def cell_rows(workload: Workload, entries: dict[str, dict[str, Any]], peak: float) -> list[str]:
    rows = []
    for index, (runner, entry) in enumerate(entries.items()):
        name = workload.label if index == 0 else ""
        if "not_installed" in entry:
            rows.append(f"| {name} | {runner} | not installed | | | | |")
            continue
        if "best_ms" not in entry:
            rows.append(f"| {name} | {runner} | error: {entry.get('error', '?')[:80]} | | | | |")
            continue
        ratio = (
            f"{entry['ratio_best']:.2f}x / {entry['ratio_median']:.2f}x"
            if "ratio_best" in entry
            else ""
        )
        if "gflops" in entry:
            rate = f"{entry['gflops']:.0f} GFLOP/s"
            rate += f", {entry['gflops'] / peak:.0%} of peak" if peak else ""
        else:
            rate = f"{entry['gbps']:.1f} GB/s" if "gbps" in entry else ""
        compile_s = f"{entry['compile_s']:.2f}" if entry.get("compile_s") is not None else ""
        wrong = "" if entry.get("correct", True) else " **WRONG**"
        rows.append(
            f"| {name} | {runner}{wrong} | {entry['best_ms']:.2f} | {entry['median_ms']:.2f} "
            f"| {ratio} | {rate} | {compile_s} |"
        )
    return rows


def print_report(machine: dict[str, Any], probe: dict[str, Any], results: list[Any]) -> None:
    """The Markdown report: machine and probe, then one row per workload and runner."""
    peak = float(probe.get("peak_gflops", 0.0))
    print(f"Machine: {machine['cpu']}, {machine['cores_used']} cores used")
    if "error" in probe:
        print(f"FMA probe failed: {probe['error']} (no % of peak)")
    else:
        readings = ", ".join(f"{r:.0f}" for r in probe["readings_gflops"])
        print(
            f"FMA probe: peak {peak:.1f} GFLOP/s fp32 on {probe['threads']} threads, "
            f"{probe['simd_floats']}-float vectors (best of readings {readings} between "
            f"workloads; `{probe['command']}`)"
        )
    blas = [r["runners"].get("numpy", {}).get("info", {}).get("blas") for r in results]
    blas = [b for b in blas if b]
    if blas:
        described = "; ".join(", ".join(f"{k} {v}" for k, v in pool.items()) for pool in blas[0])
        print(f"numpy's BLAS: {described}")
    print(
        "\nEach runner in its own process; best and median call over interleaved blocks; "
        "vs numpy = numpy time / runner time, best / median (> 1: faster than numpy).\n"
    )
    print("| workload | runner | best ms | median ms | vs numpy | rate | compile s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for result, workload in results_with_workloads(results):
        print("\n".join(cell_rows(workload, result["runners"], peak)))
    print(
        "\nrate: GFLOP/s of the best call and its share of the probed peak (contractions), or "
        "GB/s read and written (row reductions); compile: plaidc's pipeline + backend with "
        "cold caches, onnxruntime's session creation."
    )
    for _, workload in results_with_workloads(results):
        if workload.note:
            print(f"  {workload.label}: {workload.note}")


def print_tuned(results: list[Any], targets: list[str]) -> None:
    """Tuned against untuned, per workload and target: untuned / tuned of the best and the
    median call (>= 1: the tuned row is at least as fast), and the options applied."""
    print("\n| workload | target | untuned / tuned, best / median | tuned options |")
    print("|---|---|---:|---|")
    for result in results:
        runners = result["runners"]
        for target in [t for t in targets if not t.endswith(TUNED)]:
            plain, tuned = runners.get(target, {}), runners.get(target + TUNED, {})
            if "best_ms" not in plain or "best_ms" not in tuned:
                continue
            info = tuned.get("info", {})
            params = info.get("tuned")
            options = (
                ", ".join(f"{k}={v}" for k, v in sorted(params.items()))
                if params
                else f"no record (key {info.get('tuning_key')}): the untuned pipeline"
            )
            if info.get("untuned_point"):  # both rows run one program: their ratio is noise
                options = "the config's own point (the same program: the ratio is noise)"
            best = plain["best_ms"] / tuned["best_ms"]
            median = plain["median_ms"] / tuned["median_ms"]
            print(f"| {result['workload']} | {target} | {best:.2f}x / {median:.2f}x | {options} |")


def results_with_workloads(results: list[Any]) -> list[tuple[Any, Workload]]:
    return [(r, find(r["workload"])) for r in results]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--shapes", choices=sorted(SHAPE_SETS), default="standard")
    parser.add_argument("--blocks", type=int, default=5, help="timed blocks per runner (>= 3)")
    parser.add_argument("--pause", type=float, default=0.2, help="seconds before each block")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        help="workloads whose label contains this (repeatable: any of them)",
    )
    parser.add_argument("--targets", default="c,llvm,opencl", help="plaidc targets[:stage]")
    parser.add_argument("--no-third-party", action="store_true", help="no onnxruntime/torch")
    parser.add_argument("--no-npu", action="store_true", help="skip the NPU section")
    parser.add_argument("--results", type=Path, default=HERE / "results.json")
    parser.add_argument(
        "--tune-db",
        type=Path,
        default=None,
        help="a tuning database (bench/tune_workloads.py fills one): each plaidc target also "
        "runs tuned (`c+tuned`, its best record applied) beside the untuned row",
    )
    args = parser.parse_args(argv)
    if args.blocks < 3:
        parser.error("--blocks must be at least 3 (best and median of several blocks)")
    if args.pause < 0:
        parser.error("--pause must not be negative")
    targets = [t for t in args.targets.split(",") if t]
    if args.tune_db is not None:
        if not args.tune_db.is_file():
            parser.error(f"--tune-db: no such file: {args.tune_db}")
        targets = [row for t in targets for row in (t, t + TUNED)]
    only = args.only or [""]
    workloads = [w for w in SHAPE_SETS[args.shapes] if any(o in w.label for o in only)]
    env = dict(os.environ)
    # Fresh artifact caches, so compile times include the C compiler / the LLVM optimiser and
    # pocl's OpenCL build.
    scratch = Path(tempfile.mkdtemp(prefix="plaidc-bench-"))
    env["PLAIDC_CACHE_DIR"] = str(scratch)
    env["POCL_CACHE_DIR"] = str(scratch / "pocl")
    if args.tune_db is not None:  # the tuned rows read it; the plain rows never do
        env["PLAIDC_TUNE_DB"] = str(args.tune_db.resolve())
    # plaidc's modules byte-compiled, as an installed package's are: else each worker compiles
    # the source of every backend and pass module it imports, inside its compile time.
    compile_bytecode()
    machine = describe()
    probe = FmaProbe(scratch)
    probe.measure()
    results = []
    log_path = scratch / "bench.log"
    with open(log_path, "w") as log:
        for workload in workloads:
            print(f"bench: {workload.label}", file=sys.stderr, flush=True)
            runners = ["numpy", *targets]
            if workload.third_party and not args.no_third_party:
                runners += THIRD_PARTY
            if workload.runners:  # no numpy program: the runners it names that were asked for
                asked = [*targets, *([] if args.no_third_party else THIRD_PARTY)]
                named = [row for r in workload.runners for row in (r, r + TUNED)]
                runners = [r for r in named if r in asked]
                if not runners:
                    continue
            entries = bench_workload(workload, runners, args.blocks, args.pause, env, log)
            probe.measure()
            results.append(
                {
                    "workload": workload.label,
                    "source": workload.source,
                    "dims": workload.dims,
                    "flops": workload.flops,
                    "bytes_moved": workload.bytes_moved,
                    "note": workload.note,
                    "runners": entries,
                }
            )
    peak = probe.summary()
    for result in results:
        for entry in result["runners"].values():
            if "gflops" in entry and "peak_gflops" in peak:
                entry["peak_fraction"] = entry["gflops"] / peak["peak_gflops"]
    print_report(machine, peak, results)
    if args.tune_db is not None:
        print_tuned(results, targets)
    print(f"Worker logs: {log_path}")
    payload = {
        "machine": {**machine, "fma_probe": peak},
        "libraries": library_versions(),
        "settings": {"shapes": args.shapes, "blocks": args.blocks, "pause_s": args.pause},
        "results": results,
    }
    args.results.write_text(json.dumps(payload, indent=2) + "\n")
    wrong = [
        r["workload"] for r in results for e in r["runners"].values() if e.get("correct") is False
    ]
    if not args.no_npu:
        from npu import npu_cores_section, npu_section

        npu = npu_section()
        wrong += [
            str(r["matmul"])
            for r in npu
            if not all(r[k]["correct"] for k in ("plaidc", "naive") if k in r)  # no naive: 1024^3
        ]
        cores = npu_cores_section()
        wrong += [
            r["workload"]
            for r in cores
            if not all(r[k]["correct"] for k in ("naive", "one_core", "four_cores"))
        ]
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
