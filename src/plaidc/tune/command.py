"""What `plaidc tune` does once its options are read: tune a program, or list and show the
database (`--list`, `--show KEY`). Printing goes through `echo` (the CLI's)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.stripe.ir import Block
from plaidc.tune.db import Record, TuneDb, trials_of
from plaidc.tune.measure import ChildMeasurer, Timing, metric_of
from plaidc.tune.progress import TuneProgress, show_value
from plaidc.tune.space import point_key
from plaidc.tune.tuner import TuneRequest, TuneSummary, tune

Echo = Callable[[str], None]


def contraction_flops(program: Block) -> float:
    """2 x the points of every multiply-add leaf block (a GEMM's or convolution's FLOPs)."""
    import math

    from plaidc.stripe.ir import Intrinsic

    total = 0.0

    def walk(block: Block, outer: int) -> None:
        nonlocal total
        points = outer * math.prod(max(i.range, 1) for i in block.idxs)
        children = [s for s in block.stmts if isinstance(s, Block)]
        if not children:
            muls = any(isinstance(s, Intrinsic) and s.name == "mul" for s in block.stmts)
            adds = any(r.agg_op == "add" for r in block.refs if r.dir.writes)
            if muls and adds:
                total += 2.0 * points
        for child in children:
            walk(child, points)

    walk(program, 1)
    return total


def run_tune(request: TuneRequest, db: TuneDb, timeout: float, echo: Echo) -> TuneSummary:
    """Tune with candidates measured in child processes; inputs are random (seed 0) and the
    interpreter's outputs on them the reference."""
    from plaidc.driver import longest_reduction, random_inputs, through_half_precision
    from plaidc.interp import program_io, run_program

    program = request.program
    inputs = random_inputs(program_io(program).inputs, 0)
    expected = run_program(program, inputs)
    loose = through_half_precision(program) | _cube_outputs(request, program)
    metric = metric_of(request.cfg)
    progress = TuneProgress(metric, contraction_flops(program))
    with tempfile.TemporaryDirectory(prefix="plaidc-tune-") as workdir:
        terms = longest_reduction(program)
        measurer = ChildMeasurer(Path(workdir), inputs, expected, loose, timeout=timeout,
                                 timing=Timing(), reduction_terms=terms)  # fmt: skip
        summary = tune(request, db, measurer, progress, echo)
    _report(summary, metric, db, echo)
    return summary


def _cube_outputs(request: TuneRequest, program: Block) -> frozenset[str]:
    """On the NPU every float output may come from the Cube's fp16 operands: checked at fp16
    tolerance, as `plaidc run --check` does for outputs the backend names."""
    if request.cfg.backend != "npu":
        return frozenset()
    return frozenset(r.into for r in program.refs if r.dir.writes and r.shape.dtype.is_float)


def _report(summary: TuneSummary, metric: str, db: TuneDb, echo: Echo) -> None:
    failed = ", ".join(f"{n} {status}" for status, n in sorted(summary.failed.items()))
    echo(
        f"plaidc tune: {summary.reason}: {summary.measured} trials measured, {summary.reused} "
        f"points reused a measured program, space of {summary.space_size} points"
        + (f"; failed: {failed}" if failed else "")
    )
    if summary.best is None:
        echo("plaidc tune: no correct candidate yet")
        return
    best = summary.best["result"]["value"]
    line = f"plaidc tune: best {show_value(best, metric)}: {point_key(summary.best['params'])}"
    if summary.default is not None:
        base = summary.default["result"]["value"]
        line += f" (untuned {show_value(base, metric)}: x{base / best:.3g})"
    echo(line)
    if summary.confirm is not None:
        confirm = summary.confirm
        chosen = confirm["candidates"][confirm["chosen"]]
        measured = ", ".join(
            show_value(c["value"], metric) + (" (untuned)" if c["default"] else "")
            for c in confirm["candidates"]
        )
        echo(
            f"plaidc tune: side by side ({confirm['rounds']} rounds: {measured}) chose "
            f"{show_value(chosen['value'], metric)}: {point_key(chosen['params'])}"
        )
    echo(f"plaidc tune: key {summary.key} in {db.path}")


def list_records(db: TuneDb, echo: Echo) -> None:
    """One line per key: program, target, shapes, trials, best."""
    by_key: dict[str, list[Record]] = {}
    for record in db.records():
        if record["kind"] == "trial":
            by_key.setdefault(record["key"], []).append(record)
    if not by_key:
        echo(f"no tuning records in {db.path}")
        return
    for key, records in by_key.items():
        first = records[0]
        ok = [r for r in records if r["result"]["status"] == "ok"]
        best = min(ok, key=lambda r: r["result"]["value"]) if ok else None
        shapes = " ".join(
            f"{name}={dtype}[{','.join(map(str, sizes))}]"
            for name, (dtype, sizes) in sorted(first.get("shapes", {}).items())
        )
        value = show_value(best["result"]["value"], first.get("metric", "")) if best else "-"
        measured = sum(1 for r in records if r.get("trial") is not None)
        echo(
            f"{key}  {first.get('program')} -t {first.get('target')} ({first.get('stage')}) "
            f"{shapes}: {measured} trials, {len(ok)} correct, best {value}"
        )


def show_records(db: TuneDb, key: str, echo: Echo) -> None:
    """Every trial of the key (a unique prefix will do) and its sessions' ends."""
    records = db.records()
    keys = sorted({r["key"] for r in records if r["key"].startswith(key)})
    if len(keys) != 1:
        why = "no key starts with" if not keys else f"{len(keys)} keys start with"
        raise CompileError([Diagnostic(f"--show: {why} '{key}' in {db.path}")])
    trials = trials_of(records, keys[0])
    echo(f"key {keys[0]}: {trials[0].get('program')} -t {trials[0].get('target')}")
    for record in trials:
        result = record["result"]
        what = (
            show_value(result["value"], result.get("metric", ""))
            if result["status"] == "ok"
            else f"{result['status']}: {result.get('message', '')}"
        )
        trial = record.get("trial")
        number = f"{trial}/{record.get('of')}" if trial is not None else "(reused)"
        echo(f"  {record['session']} {number:>8} {what:>16}  {point_key(record['params'])}")
    for record in records:
        if record["key"] != keys[0]:
            continue
        if record["kind"] == "end":
            echo(f"  {record['session']} ended: {record['reason']} ({record['trials']} trials)")
        elif record["kind"] == "confirm":
            metric = trials[0].get("metric", "seconds")
            for index, candidate in enumerate(record["candidates"]):
                mark = "chosen" if index == record["chosen"] else ""
                mark += " (untuned)" if candidate.get("default") else ""
                echo(
                    f"  {record['session']} side by side {show_value(candidate['value'], metric)}"
                    f" {mark:>17}  {point_key(candidate['params'])}"
                )
