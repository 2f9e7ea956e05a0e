"""The simulator's timeline as Chrome trace-event JSON (`plaidc run -t npu --trace FILE.json`).

The simulator records, only when asked, one record per instruction (its pipe, start cycle,
cost, intrinsic and line in the generated C), per set_flag (the cycle its flag is released) and
per wait_flag (the cycle it was reached and how long its pipe stalled). `NpuTrace.to_chrome`
turns them into the Trace Event Format that Perfetto and chrome://tracing open:

- a process per core ("NPU core N") and a thread per pipe ("PIPE_M", ...), named by "M" events;
- an "X" slice per instruction (category "instr"), per set_flag and per wait_flag (category
  "sync"; a wait_flag lasts as long as its pipe stalled);
- a flow arrow ("s" at the set_flag, "f" binding to the next slice of the waiting pipe) per flag;
- a "sync" slice on PIPE_S per cross-core barrier (sync_all_cores), as long as the core waited
  for the others and the barrier's latency.

Time is in cycles: the format's microsecond is one NPU cycle (said in `otherData`).
"""

from __future__ import annotations

import ctypes
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from plaidc.backends.npu_sim.isa import PIPES

# Mirrors plaidc_npu_trace_record (plaidc_npu.h); the runner checks its size against the C.
TRACE_RECORD = np.dtype(
    [
        (name, np.uint64)
        for name in (
            "kind",
            "core",
            "pipe",
            "start",
            "cycles",
            "flow",
            "peer",
            "event",
            "line",
            "name",
            "file",
        )
    ]
)
INSTR, SET_FLAG, WAIT_FLAG, CORE_BARRIER = 0, 1, 2, 3  # enum plaidc_npu_trace_kind
DEFAULT_TRACE_EVENTS = 200_000
TRACE_EVENTS_ENV = "PLAIDC_NPU_TRACE_EVENTS"
TIME_UNIT = "cycles: one microsecond of the timeline is one simulated NPU cycle"


@dataclass(frozen=True)
class NpuTrace:
    """The records of one run (the first `cap`, in simulation order) and how many were lost."""

    records: np.ndarray  # TRACE_RECORD
    names: dict[int, str]  # the C string at each name/file address the records hold
    dropped: int
    cap: int
    cores: int

    @classmethod
    def from_records(cls, records: np.ndarray, dropped: int, cap: int, cores: int) -> NpuTrace:
        """Copies the records out of the simulator's array and reads the C strings they point
        to (string literals of the loaded kernel library, alive as long as it is)."""
        pointers = np.unique(np.concatenate([records["name"], records["file"]]))
        names = {int(p): ctypes.string_at(int(p)).decode() for p in pointers if p}
        return cls(records.copy(), names, dropped, cap, cores)

    @property
    def truncated(self) -> bool:
        return self.dropped > 0

    def note(self) -> str | None:
        """What the cap cut off, or None."""
        if not self.dropped:
            return None
        total = len(self.records) + self.dropped
        return (
            f"the trace keeps the first {len(self.records)} of {total} simulator events "
            f"(the cap); set {TRACE_EVENTS_ENV} to keep more"
        )

    def to_chrome(self) -> dict[str, Any]:
        """The Trace Event Format's JSON object form."""
        events: list[dict[str, Any]] = []
        for core in range(self.cores):
            name = f"NPU core {core}"
            events.append(_meta("process_name", core, None, {"name": name}))
            events.append(_meta("process_sort_index", core, None, {"sort_index": core}))
            if self.truncated:
                labels = {"labels": f"truncated: first {len(self.records)} events"}
                events.append(_meta("process_labels", core, None, labels))
            for tid, pipe in enumerate(PIPES):
                events.append(_meta("thread_name", core, tid, {"name": pipe}))
                events.append(_meta("thread_sort_index", core, tid, {"sort_index": tid}))
        waited = set(self.records["flow"][self.records["kind"] == WAIT_FLAG].tolist())
        for r in self.records.tolist():
            kind, core, pipe, start, cycles, flow, peer, event, line, name, file = r
            source = f"{self.names.get(file, '?')}:{line}"
            slice_ = {
                "ph": "X",
                "name": self.names.get(name, "?"),
                "cat": "instr" if kind == INSTR else "sync",
                "pid": core,
                "tid": pipe,
                "ts": start,
                "dur": cycles,
                "args": {"source": source, "line": line},
            }
            events.append(slice_)
            if kind == INSTR:
                continue
            if kind == CORE_BARRIER:  # this core's wait for the others
                slice_["args"]["stall_cycles"] = cycles
                continue
            src, dst = (pipe, peer) if kind == SET_FLAG else (peer, pipe)
            flag = f"{PIPES[src]} -> {PIPES[dst]} EVENT_ID{event}"
            slice_["args"]["flag"] = flag
            if kind == WAIT_FLAG:
                slice_["args"]["stall_cycles"] = cycles
            if flow in waited:  # a pair whose both ends were recorded
                arrow = {"name": flag, "cat": "flag", "id": flow, "pid": core, "tid": pipe}
                if kind == SET_FLAG:
                    events.append({**arrow, "ph": "s", "ts": start})
                else:  # binds to the waiting pipe's next slice: the instruction it held
                    events.append({**arrow, "ph": "f", "ts": start + cycles})
        other: dict[str, Any] = {
            "time_unit": TIME_UNIT,
            "cores": self.cores,
            "events_cap": self.cap,
            "events_recorded": len(self.records),
            "events_dropped": self.dropped,
            "truncated": self.truncated,
        }
        if self.truncated:
            other["note"] = self.note()
        return {"traceEvents": events, "otherData": other}

    def write(self, path: Path) -> None:
        """Writes the JSON beside `path` and renames it into place: never half a file."""
        text = json.dumps(self.to_chrome(), separators=(",", ":"))
        folder = path.parent if str(path.parent) else Path(".")
        fd, scratch = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        umask = os.umask(0)
        os.umask(umask)
        try:
            os.fchmod(fd, 0o666 & ~umask)  # as an ordinary new file, not mkstemp's 0600
            with os.fdopen(fd, "w") as out:
                out.write(text)
                out.write("\n")
            os.replace(scratch, path)
        except BaseException:
            Path(scratch).unlink(missing_ok=True)
            raise


def _meta(name: str, pid: int, tid: int | None, args: dict[str, Any]) -> dict[str, Any]:
    event: dict[str, Any] = {"ph": "M", "name": name, "pid": pid, "args": args}
    if tid is not None:
        event["tid"] = tid
    return event


def trace_cap(environ: dict[str, str] | os._Environ[str] | None = None) -> int:
    """The event cap: `$PLAIDC_NPU_TRACE_EVENTS` (a positive integer) or 200,000."""
    env = os.environ if environ is None else environ
    text = env.get(TRACE_EVENTS_ENV, "").strip()
    if not text:
        return DEFAULT_TRACE_EVENTS
    try:
        cap = int(text.replace("_", ""))
    except ValueError:
        cap = 0
    if cap < 1:
        raise ValueError(f"{TRACE_EVENTS_ENV}={text!r}: expected a positive number of events")
    return cap
