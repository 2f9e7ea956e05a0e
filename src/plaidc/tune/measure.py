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
    ) -> None:
        self.workdir = workdir
        self.timeout = timeout
        self.timing = timing
        self.loose = loose
        self.inputs_path = workdir / "inputs.npz"
        self.expected_path = workdir / "expected.npz"
        np.savez(self.inputs_path, **inputs)  # type: ignore[arg-type]
        np.savez(self.expected_path, **expected)  # type: ignore[arg-type]

    def __call__(self, stripe_text: str, cfg: TargetConfig) -> Outcome:
        metric = metric_of(cfg)
        job = {
            "stripe": stripe_text,
            "config": cfg,
            "inputs": str(self.inputs_path),
            "expected": str(self.expected_path),
            "loose": sorted(self.loose),
            "metric": metric,
            "timing": self.timing,
        }
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
                _, stderr = child.communicate(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                _kill_group(child)
                return Outcome("timeout", metric, message=f"ran past {self.timeout:g} s")
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


def _measure(job: dict[str, Any]) -> dict[str, Any]:
    from plaidc.backends import get_backend
    from plaidc.driver import compare_outputs
    from plaidc.stripe.parser import parse_stripe

    cfg: TargetConfig = job["config"]
    program = parse_stripe(job["stripe"], "<candidate>")
    artifact = get_backend(cfg.backend).compile(program, cfg)
    with np.load(job["inputs"]) as data:
        inputs = {name: data[name] for name in data.files}
    with np.load(job["expected"]) as data:
        expected = {name: data[name] for name in data.files}
    outputs = artifact.run(inputs)
    mismatches = compare_outputs(expected, outputs, frozenset(job["loose"]))
    if mismatches:
        return {"status": "wrong", "message": "; ".join(m.message for m in mismatches)}
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


def _agree(values: list[float], rel_tol: float) -> bool:
    return len(values) == 3 and max(values) - min(values) <= rel_tol * min(values)


if __name__ == "__main__":
    _child(Path(sys.argv[1]), Path(sys.argv[2]))
