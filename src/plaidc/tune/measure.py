"""Measuring one candidate in a child process with a hard timeout.

The parent runs the pipeline (pure Python: a pass that fails is recorded, not fatal) and hands
the child the final Stripe, the candidate's target config, the inputs and the interpreter's
outputs (`python -m plaidc.tune.measure JOB`). The child compiles with the backend, runs once and
compares with the interpreter's outputs (a mismatch is a `wrong` result), then measures: on the
NPU the simulator's cycle count (exact: one run); elsewhere wall-clock runs repeated until the
median is stable (the medians of the last runs within `rel_tol` of each other) or a limit.
A child that crashes (a signal, a compiler that fails) is a `crash`; one that runs past the
timeout is killed with its whole process group (the C compiler included): a `timeout`.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from plaidc.targets import TargetConfig

STATUSES = ("ok", "wrong", "crash", "timeout")


@dataclass(frozen=True)
class Outcome:
    """A candidate's result: `value` (seconds or cycles) when `status` is ok, else `message`."""

    status: str
    metric: str
    value: float | None = None
    message: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"status": self.status, "metric": self.metric}
        if self.value is not None:
            data["value"] = self.value
        if self.message:
            data["message"] = self.message
        data.update(self.extra)
        return data


@dataclass(frozen=True)
class Timing:
    """How wall-clock times are repeated: at least `min_runs`, at most `max_runs` or
    `max_seconds`, stopping once the medians after each of the last three runs agree within
    `rel_tol`."""

    min_runs: int = 5
    max_runs: int = 50
    max_seconds: float = 10.0
    rel_tol: float = 0.02


def metric_of(cfg: TargetConfig) -> str:
    return "cycles" if cfg.backend == "npu" else "seconds"


class ChildMeasurer:
    """Measures candidates of one program: inputs and expected outputs are written once."""

    def __init__(
        self,
        workdir: Path,
        inputs: dict[str, np.ndarray],
        expected: dict[str, np.ndarray],
        loose: frozenset[str],
        *,
        timeout: float = 120.0,
        timing: Timing = Timing(),
        reduction_terms: int = 1,
    ) -> None:
        self.workdir = workdir
        self.reduction_terms = reduction_terms  # the tolerance of `plaidc run --check`'s
        self.timeout = timeout
        self.timing = timing
        self.loose = loose
        self.inputs_path = workdir / "inputs.npz"
        self.expected_path = workdir / "expected.npz"
        np.savez(self.inputs_path, **inputs)  # type: ignore[arg-type]
        np.savez(self.expected_path, **expected)  # type: ignore[arg-type]

    def __call__(self, stripe_text: str, cfg: TargetConfig) -> Outcome:
        return self._run_child({"stripe": stripe_text, "config": cfg}, metric_of(cfg))

    def compare(self, candidates: Sequence[tuple[str, TargetConfig]], rounds: int) -> Outcome:
        """Wall-clock times of several candidates side by side in one child: each compiled and
        checked, then `rounds` rounds in which every candidate (in a rotating order) runs one
        block of calls; `extra["medians"]` holds each candidate's median call over its blocks,
        `extra["spread"]` each one's (max - min) / min of its block medians (the noise) and
        `extra["blocks"]` the block medians themselves, by round."""
        job = {"compare": [{"stripe": s, "config": c} for s, c in candidates], "rounds": rounds}
        timeout = self.timeout * max(1, len(candidates))
        return self._run_child(job, "seconds", timeout)

    def _run_child(
        self, work: dict[str, Any], metric: str, timeout: float | None = None
    ) -> Outcome:
        job = {
            **work,
            "inputs": str(self.inputs_path),
            "expected": str(self.expected_path),
            "loose": sorted(self.loose),
            "terms": self.reduction_terms,
            "metric": metric,
            "timing": self.timing,
        }
        timeout = timeout or self.timeout
        with tempfile.TemporaryDirectory(dir=self.workdir) as tmp:
            job_path, result_path = Path(tmp) / "job.pickle", Path(tmp) / "result.json"
            job_path.write_bytes(pickle.dumps(job))
            command = [sys.executable, "-m", "plaidc.tune.measure", str(job_path), str(result_path)]
            # A session of its own: Ctrl-C reaches the tuner only, and a timeout kills the
            # child's whole group (a C compiler it started included).
            child = subprocess.Popen(
                command,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                start_new_session=True,
                cwd=tmp,
            )
            try:
                _, stderr = child.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                _kill_group(child)
                return Outcome("timeout", metric, message=f"ran past {timeout:g} s")
            except BaseException:
                _kill_group(child)
                raise
            if result_path.exists():
                data = json.loads(result_path.read_text())
                return Outcome(
                    data["status"], metric, data.get("value"), data.get("message", ""),
                    data.get("extra", {}),
                )  # fmt: skip
            tail = " ".join(stderr.decode(errors="replace").split()[-40:])
            how = (
                f"killed by signal {-child.returncode}"
                if child.returncode < 0
                else f"exit status {child.returncode}"
            )
            return Outcome("crash", metric, message=f"the measuring process died ({how}) {tail}")


def _kill_group(child: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL)
    child.wait()


# ---- the child ----------------------------------------------------------------------------


def _child(job_path: Path, result_path: Path) -> None:
    job = pickle.loads(job_path.read_bytes())
    try:
        result = _measure(job)
    except Exception as err:  # every failure of a candidate is a result, never the tuner's
        lines = traceback.format_exception_only(type(err), err)
        result = {"status": "crash", "message": " ".join("".join(lines).split())[:2000]}
    result_path.write_text(json.dumps(result))


def _compiled(job: dict[str, Any], stripe_text: str, cfg: TargetConfig) -> Any:
    """The candidate's artifact, or the message of its wrong outputs (a str)."""
    from plaidc.backends import get_backend
    from plaidc.driver import compare_outputs
    from plaidc.stripe.parser import parse_stripe

    program = parse_stripe(stripe_text, "<candidate>")
    artifact = get_backend(cfg.backend).compile(program, cfg)
    outputs = artifact.run(job["inputs"])
    mismatches = compare_outputs(
        job["expected"], outputs, frozenset(job["loose"]), job.get("terms", 1)
    )
    if mismatches:
        return "; ".join(m.message for m in mismatches)
    return artifact


def _load(job: dict[str, Any]) -> dict[str, Any]:
    loaded = dict(job)
    for name in ("inputs", "expected"):
        with np.load(job[name]) as data:
            loaded[name] = {key: data[key] for key in data.files}
    return loaded


def _measure(job: dict[str, Any]) -> dict[str, Any]:
    job = _load(job)
    if "compare" in job:
        return _compare(job)
    cfg: TargetConfig = job["config"]
    artifact = _compiled(job, job["stripe"], cfg)
    if isinstance(artifact, str):
        return {"status": "wrong", "message": artifact}
    inputs = job["inputs"]
    if job["metric"] == "cycles":
        report = artifact.report_json() or {}
        extra = {"cube_utilisation": report.get("cube_utilisation")}
        return {"status": "ok", "value": report["total_cycles"], "extra": extra}
    timing: Timing = job["timing"]
    times: list[float] = []
    medians: list[float] = []
    start = time.perf_counter()
    while True:
        begin = time.perf_counter()
        artifact.run(inputs)
        times.append(time.perf_counter() - begin)
        medians.append(statistics.median(times))
        stable = len(times) >= timing.min_runs and _agree(medians[-3:], timing.rel_tol)
        over = len(times) >= timing.max_runs or time.perf_counter() - start > timing.max_seconds
        if stable or over:
            break
    return {
        "status": "ok",
        "value": medians[-1],
        "extra": {"runs": len(times), "stable": stable, "min": min(times)},
    }


COMPARE_BLOCK_SECONDS = 0.05  # one block of calls of a candidate takes about this long


def _compare(job: dict[str, Any]) -> dict[str, Any]:
    artifacts = []
    for number, candidate in enumerate(job["compare"]):
        artifact = _compiled(job, candidate["stripe"], candidate["config"])
        if isinstance(artifact, str):
            return {"status": "wrong", "message": f"candidate {number}: {artifact}"}
        artifacts.append(artifact)
    inputs = job["inputs"]
    calls = []
    for artifact in artifacts:  # warm, and how many calls make a block
        begin = time.perf_counter()
        artifact.run(inputs)
        calls.append(max(1, min(20, round(COMPARE_BLOCK_SECONDS / (time.perf_counter() - begin)))))
    blocks: list[list[float]] = [[] for _ in artifacts]
    times: list[list[float]] = [[] for _ in artifacts]
    for round_ in range(job["rounds"]):
        shift = round_ % len(artifacts)
        for i in [*range(shift, len(artifacts)), *range(shift)]:
            block = []
            for _ in range(calls[i]):
                begin = time.perf_counter()
                artifacts[i].run(inputs)
                block.append(time.perf_counter() - begin)
            times[i] += block
            blocks[i].append(statistics.median(block))
    medians = [statistics.median(t) for t in times]
    spread = [(max(b) - min(b)) / min(b) for b in blocks]
    extra = {"medians": medians, "spread": spread, "blocks": blocks}
    return {"status": "ok", "value": min(medians), "extra": extra}


def _agree(values: list[float], rel_tol: float) -> bool:
    return len(values) == 3 and max(values) - min(values) <= rel_tol * min(values)


if __name__ == "__main__":
    _child(Path(sys.argv[1]), Path(sys.argv[2]))
