"""`plaidc run -t npu --trace FILE.json`: the simulator's timeline as Chrome trace-event JSON."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from plaidc.backends.npu_sim import PIPES
from plaidc.cli import plaidc_main

from .support import EXAMPLES
from .support.cli import run_cli

pytestmark = pytest.mark.usefixtures("npu_cache")

PROGRAMS = {
    "matmul": ["matmul.tile", "-D", "M=64", "-D", "K=96", "-D", "N=48"],
    "conv": [
        "conv2d_valid.tile",
        "--shape",
        "I=fp32[1,10,10,16]",
        "--shape",
        "K=fp32[3,3,16,32]",
    ],
}


@pytest.fixture
def npu_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAIDC_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "npu_cache"))
    monkeypatch.delenv("PLAIDC_NPU_TRACE_EVENTS", raising=False)


def _run(program: str, tmp_path: Path, *extra: str) -> tuple[int, str, str]:
    name, *rest = PROGRAMS[program]
    args = ["run", str(EXAMPLES / name), *rest, "-t", "npu", "--random-inputs", "0", *extra]
    return run_cli(plaidc_main, args, tmp_path)


def _traced(program: str, tmp_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    code, _out, err = _run(
        program, tmp_path, "--trace", "trace.json", "--report", "report.json", "--check"
    )
    assert code == 0, err
    trace = json.loads((tmp_path / "trace.json").read_text())
    report = json.loads((tmp_path / "report.json").read_text())
    return trace, report


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_trace_matches_the_report(program: str, tmp_path: Path) -> None:
    trace, report = _traced(program, tmp_path)
    events = trace["traceEvents"]
    assert "cycles" in trace["otherData"]["time_unit"]
    assert trace["otherData"]["truncated"] is False

    # One named track per pipe of the (one) core.
    named = [e for e in events if e["name"] == "thread_name"]
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in named}
    assert threads == {(0, tid): pipe for tid, pipe in enumerate(PIPES)}
    processes = [e["args"]["name"] for e in events if e["name"] == "process_name"]
    assert processes == ["NPU core 0"]

    # One slice per instruction; their durations per pipe are the report's busy cycles, and
    # their counts its instruction counts.
    slices = [e for e in events if e["ph"] == "X"]
    busy: dict[str, int] = defaultdict(int)
    count: dict[str, int] = defaultdict(int)
    for s in slices:
        assert s["dur"] >= 0 and s["ts"] >= 0
        if s["cat"] == "instr":
            busy[PIPES[s["tid"]]] += s["dur"]
            count[PIPES[s["tid"]]] += 1
    assert {p: busy[p] for p in PIPES} == report["busy_cycles"]
    assert {p: count[p] for p in PIPES} == report["instructions"]
    assert max(s["ts"] + s["dur"] for s in slices) == report["total_cycles"]
    by_name: dict[str, int] = defaultdict(int)
    for s in slices:
        by_name[s["name"]] += 1
    for name, n in report["instructions_by_intrinsic"].items():
        if name not in ("set_flag", "wait_flag"):
            assert by_name[name] == n, name

    # Slices on one pipe do not overlap (in simulation order, each starts after the last ends).
    end: dict[tuple[int, int], int] = {}
    for s in slices:
        track = (s["pid"], s["tid"])
        assert s["ts"] >= end.get(track, 0), s
        end[track] = s["ts"] + s["dur"]

    # Every flag is an arrow from its set_flag to the pipe that waited, start before end.
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    finishes = {e["id"]: e for e in events if e["ph"] == "f"}
    assert starts and set(starts) == set(finishes)
    for flow, s in starts.items():
        f = finishes[flow]
        assert s["ts"] <= f["ts"]
        src, dst = s["name"].split(" EVENT_ID")[0].split(" -> ")
        assert (PIPES[s["tid"]], PIPES[f["tid"]]) == (src, dst)
    if program == "matmul":
        assert any(s["name"] == "mad" and s["tid"] == PIPES.index("PIPE_M") for s in slices)


def test_slices_name_their_line_in_the_generated_c(tmp_path: Path) -> None:
    trace, _ = _traced("matmul", tmp_path)
    name, *rest = PROGRAMS["matmul"]
    args = ["compile", str(EXAMPLES / name), *rest, "-t", "npu", "-o", "kernel.npu.c"]
    code, _out, err = run_cli(plaidc_main, args, tmp_path)
    assert code == 0, err
    lines = (tmp_path / "kernel.npu.c").read_text().splitlines()
    slices = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    for s in slices:
        line = s["args"]["line"]
        assert s["args"]["source"].endswith(f":{line}")
        assert f"{s['name']}(" in lines[line - 1], (s, lines[line - 1])


def test_the_cap_keeps_the_first_events_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLAIDC_NPU_TRACE_EVENTS", "25")
    code, _out, err = _run("matmul", tmp_path, "--trace", "trace.json")
    assert code == 0, err
    assert "PLAIDC_NPU_TRACE_EVENTS" in err and "first 25 of" in err
    trace = json.loads((tmp_path / "trace.json").read_text())
    other = trace["otherData"]
    assert other["truncated"] is True and other["events_cap"] == 25
    assert other["events_recorded"] == 25 and other["events_dropped"] > 0
    assert "first 25" in other["note"]
    assert len([e for e in trace["traceEvents"] if e["ph"] == "X"]) == 25
    # Arrows only where both ends were kept.
    starts = {e["id"] for e in trace["traceEvents"] if e["ph"] == "s"}
    assert starts == {e["id"] for e in trace["traceEvents"] if e["ph"] == "f"}


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_a_bad_cap_is_a_usage_error(
    value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLAIDC_NPU_TRACE_EVENTS", value)
    code, _out, err = _run("matmul", tmp_path, "--trace", "trace.json")
    assert code == 2 and "PLAIDC_NPU_TRACE_EVENTS" in err and "Traceback" not in err
    assert not (tmp_path / "trace.json").exists()


def test_trace_needs_the_npu_target(tmp_path: Path) -> None:
    name, *rest = PROGRAMS["matmul"]
    args = ["run", str(EXAMPLES / name), *rest, "-t", "interp", "--random-inputs", "0"]
    code, _out, err = run_cli(plaidc_main, [*args, "--trace", "t.json"], tmp_path)
    assert code == 2 and "--trace" in err and "Traceback" not in err
    assert not (tmp_path / "t.json").exists()


def test_an_unwritable_trace_is_an_input_error_and_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "t.json").mkdir()  # a directory where the file should go: the rename fails
    code, _out, err = _run("matmul", tmp_path, "--trace", "t.json")
    assert code == 1 and "cannot write 't.json'" in err and "Traceback" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]  # no scratch file left behind


def test_no_trace_unless_asked(tmp_path: Path) -> None:
    code, _out, err = _run("matmul", tmp_path, "--report", "report.json")
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]
