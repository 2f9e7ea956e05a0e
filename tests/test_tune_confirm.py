"""`plaidc tune` on CPU targets: the closing side-by-side confirmation (which record compile
applies), the child's side-by-side measuring, and a warm database that compile only reads."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from plaidc import driver
from plaidc.cli import plaidc_main
from plaidc.stripe.printer import print_stripe
from plaidc.targets import load_target
from plaidc.tune import measure as measure_module
from plaidc.tune import tuner as tuner_module
from plaidc.tune.db import TuneDb, best_valid, tuning_key
from plaidc.tune.measure import ChildMeasurer, Outcome, Timing
from plaidc.tune.space import build_space
from plaidc.tune.tuner import CONFIRM_MARGIN, TuneRequest, _choose, tune, wins_needed
from tests.support import EXAMPLES


def matmul(m: int = 16, k: int = 16, n: int = 16) -> Any:
    return driver.load_program(
        driver.Session(), str(EXAMPLES / "matmul.tile"), driver.Bindings({"M": m, "K": k, "N": n})
    )


class Quiet:
    def trial(self, *args: Any) -> None:
        pass

    def close(self) -> None:
        pass


class NoisyMeasurer:
    """Trial times favour 6 for gemm_rows (a lucky reading); side by side every program takes
    `truth` of its gemm_rows (default 1.0)."""

    def __init__(self, truth: dict[int, float]) -> None:
        self.truth = truth
        self.compared: list[int] = []

    def __call__(self, stripe_text: str, cfg: Any) -> Outcome:
        rows = cfg.codegen["gemm_rows"]
        return Outcome("ok", "seconds", 0.5 if rows == 6 else 1.0 + rows * 1e-9)

    def compare(self, candidates: list[tuple[str, Any]], rounds: int) -> Outcome:
        works = [cfg.codegen["gemm_rows"] for _, cfg in candidates]
        self.compared = works
        medians = [self.truth.get(w, 1.0) for w in works]
        extra = {"medians": medians, "spread": [0.01] * len(works)}
        return Outcome("ok", "seconds", min(medians), extra=extra)


def _request(trials: int = 8) -> TuneRequest:
    cfg = dataclasses.replace(load_target("c"), tune={"codegen": {"gemm_rows": [6, 8, 12]}})
    # large enough for the GEMM micro-kernel, so each register block is another program
    return TuneRequest(matmul(48, 48, 48), "matmul.tile", cfg, "default", trials)


def _applied(request: TuneRequest, db: TuneDb) -> dict[str, Any] | None:
    tuned = driver.apply_tuning(request.program, request.cfg, "default", db.path, lambda _: None)
    return tuned.record


def test_a_lucky_trial_that_is_not_faster_side_by_side_is_not_chosen(tmp_path: Path):
    db = TuneDb(tmp_path / "db.jsonl")
    request = _request()
    fake = NoisyMeasurer({6: 1.0 - CONFIRM_MARGIN / 2, 8: 1.0})  # within the margin
    summary = tune(request, db, fake, Quiet(), lambda _: None)
    assert summary.best is not None
    assert summary.best["params"]["codegen.gemm_rows"] == 6  # the fastest trial
    assert sorted(fake.compared) == [6, 8, 12]  # the config's point among them
    confirm = db.records()[-1]
    assert confirm["kind"] == "confirm" and confirm["key"] == summary.key
    chosen = confirm["candidates"][confirm["chosen"]]
    assert chosen["default"] and chosen["params"]["codegen.gemm_rows"] == 8
    record = _applied(request, db)
    assert record is not None and record.get("confirmed")
    assert record["params"]["codegen.gemm_rows"] == 8
    assert record["result"]["value"] == 1.0


def test_a_point_faster_side_by_side_by_the_margin_is_chosen(tmp_path: Path):
    db = TuneDb(tmp_path / "db.jsonl")
    request = _request()
    tune(request, db, NoisyMeasurer({12: 0.9}), Quiet(), lambda _: None)
    record = _applied(request, db)
    assert record is not None and record["params"]["codegen.gemm_rows"] == 12
    assert record["result"]["value"] == 0.9


def test_a_failed_confirmation_leaves_the_fastest_trial(tmp_path: Path):
    class Failing(NoisyMeasurer):
        def compare(self, candidates: list[tuple[str, Any]], rounds: int) -> Outcome:
            return Outcome("crash", "seconds", message="boom")

    db = TuneDb(tmp_path / "db.jsonl")
    notes: list[str] = []
    request = _request()
    tune(request, db, Failing({}), Quiet(), notes.append)
    assert any("confirmation failed (crash: boom)" in n for n in notes)
    assert all(r["kind"] != "confirm" for r in db.records())
    record = _applied(request, db)
    assert record is not None and record["params"]["codegen.gemm_rows"] == 6


def test_best_valid_takes_the_latest_valid_confirmation(tmp_path: Path):
    def trial(work: int, value: float) -> dict[str, Any]:
        return {"kind": "trial", "key": "k", "session": "s", "trial": 1,
                "params": {"w": work}, "result": {"status": "ok", "value": value}}  # fmt: skip

    def confirm(*works: int, chosen: int) -> dict[str, Any]:
        candidates = [{"params": {"w": w}, "value": 2.0 + i} for i, w in enumerate(works)]
        return {"kind": "confirm", "key": "k", "session": "s", "candidates": candidates,
                "chosen": chosen}  # fmt: skip

    records = [trial(1, 1.0), trial(2, 3.0), confirm(1, 2, chosen=1), confirm(1, 3, chosen=0)]
    best, _ = best_valid(records, "k", lambda p: True)
    assert best is not None and best["params"] == {"w": 1} and best["result"]["value"] == 2.0
    best, _ = best_valid(records[:3], "k", lambda p: True)
    assert best is not None and best["params"] == {"w": 2} and best["result"]["value"] == 3.0
    best, _ = best_valid(records[:3], "k", lambda p: p["w"] != 2)  # stale: the fastest trial
    assert best is not None and best["params"] == {"w": 1} and best["result"]["value"] == 1.0


def test_a_malformed_confirm_record_is_skipped_with_a_warning(tmp_path: Path):
    path = tmp_path / "db.jsonl"
    good = {"kind": "confirm", "key": "k", "session": "s", "chosen": 0,
            "candidates": [{"params": {}, "value": 1.0}]}  # fmt: skip
    path.write_text(json.dumps({**good, "chosen": 3}) + "\n" + json.dumps(good) + "\n")
    warnings: list[str] = []
    assert len(TuneDb(path, warnings.append).records()) == 1
    assert warnings == [f"{path}:1: warning: line skipped: a 'confirm' record whose 'chosen' "
                        "is not one of its candidates"]  # fmt: skip


def _c_measurer(tmp_path: Path, scale: float = 1.0) -> tuple[ChildMeasurer, Any, Any]:
    from plaidc.interp import program_io, run_program

    program = matmul(24, 40, 24)
    inputs = driver.random_inputs(program_io(program).inputs, 0)
    expected = {k: v * scale for k, v in run_program(program, inputs).items()}
    measurer = ChildMeasurer(tmp_path, inputs, expected, frozenset(), timing=Timing(max_runs=5),
                             reduction_terms=driver.longest_reduction(program))  # fmt: skip
    return measurer, program, load_target("c")


def test_the_child_compares_candidates_side_by_side_and_checks_each(tmp_path: Path):
    measurer, program, cfg = _c_measurer(tmp_path)
    space = build_space(cfg, "default")
    from plaidc.tune.space import apply_point

    candidates = []
    for rows in (6, 12):
        point = {**space.default_point(), "codegen.gemm_rows": rows}
        point_cfg, steps = apply_point(cfg, "default", point)
        final = driver.run_pipeline(program, driver.resolve_steps(steps))
        candidates.append((print_stripe(final), point_cfg))
    outcome = measurer.compare(candidates, 3)
    assert outcome.status == "ok", outcome.message
    medians, spread = outcome.extra["medians"], outcome.extra["spread"]
    assert len(medians) == 2 and all(m > 0 for m in medians) and outcome.value == min(medians)
    assert len(spread) == 2 and all(s >= 0 for s in spread)
    (tmp_path / "wrong").mkdir()
    wrong, _, _ = _c_measurer(tmp_path / "wrong", scale=2.0)
    outcome = wrong.compare(candidates, 3)
    assert outcome.status == "wrong" and outcome.message.startswith("candidate 0:")


def test_a_warm_database_compile_measures_nothing(tmp_path: Path, monkeypatch: Any):
    """compile with a tuned record applies it and starts no tuning and no measuring child."""
    program, cfg = matmul(8, 8, 8), load_target("c")
    point = {**build_space(cfg, "default").default_point(), "codegen.parallel_min_work": 4096}
    db = TuneDb(tmp_path / "db.jsonl")
    db.append({"kind": "trial", "key": tuning_key(program, cfg, "default").key, "session": "s",
               "trial": 1, "params": point,
               "result": {"status": "ok", "value": 1e-6, "metric": "seconds"}})  # fmt: skip

    def no_measuring(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("compile measured a candidate")

    monkeypatch.setattr(measure_module.ChildMeasurer, "__init__", no_measuring)
    monkeypatch.setattr(measure_module, "_measure", no_measuring)
    monkeypatch.setattr(tuner_module, "tune", no_measuring)
    args = ["compile", str(EXAMPLES / "matmul.tile"), "-t", "c", "-D", "M=8", "-D", "K=8",
            "-D", "N=8", "--db", str(db.path), "-o", str(tmp_path / "mm.c")]  # fmt: skip
    result = CliRunner().invoke(plaidc_main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "plaidc: tuned options from" in result.output
    assert "codegen.parallel_min_work=4096" in result.output


def test_a_lookup_by_key_parses_only_the_lines_naming_it(tmp_path: Path):
    path = tmp_path / "db.jsonl"
    ours = {"kind": "trial", "key": "a" * 24, "session": "s", "params": {},
            "result": {"status": "ok", "value": 1.0}}  # fmt: skip
    theirs = {**ours, "key": "b" * 24}
    broken = json.dumps(ours)[:-9]  # a line of our key a killed writer left unfinished
    path.write_text("\n".join([json.dumps(theirs), "{not json", json.dumps(ours), broken]) + "\n")
    warnings: list[str] = []
    found = TuneDb(path, warnings.append).records("a" * 24)
    assert [r["key"] for r in found] == ["a" * 24]
    assert len(warnings) == 1 and warnings[0].startswith(f"{path}:4: warning: line skipped")
    assert len(TuneDb(path, warnings.append).records()) == 2 and len(warnings) == 3


def test_another_point_must_beat_the_configs_in_nearly_every_round():
    assert [wins_needed(n) for n in (4, 5, 7, 15)] == [5, 5, 7, 12]
    own = [1.0] * 15
    steady = [0.9] * 12 + [1.01] * 3  # 12 of 15 rounds faster
    lucky = [0.6] * 11 + [1.05] * 4  # a lower median, 4 rounds slower
    assert _choose([1.0, 0.9], [own, steady], own=0) == 1
    assert _choose([1.0, 0.6], [own, lucky], own=0) == 0
    assert _choose([1.0, 0.6, 0.9], [own, lucky, steady], own=0) == 2
    assert _choose([1.0, 0.99], [own, [0.99] * 15], own=0) == 0  # within the margin
    assert _choose([1.0, 0.6], [own, lucky], own=None) == 1  # no config's point to keep


def test_candidates_are_checked_at_the_tolerance_of_run_check(tmp_path: Path):
    """An error a 4096-term sum may make (eps * sqrt(terms) * the output's scale) is no
    mismatch with the program's reduction terms, and is one without them."""
    import math

    import numpy as np

    from plaidc.interp import program_io, run_program

    program, cfg = matmul(8, 4096, 8), load_target("c")
    inputs = driver.random_inputs(program_io(program).inputs, 0)
    expected = run_program(program, inputs)
    want = expected["C"].astype(np.float64)
    at = np.unravel_index(int(np.argmin(np.abs(want))), want.shape)
    rtol, atol = driver.tolerances(np.dtype(np.float32))
    extra = float(np.finfo(np.float32).eps) * math.sqrt(4096) * float(np.abs(want).max())
    shifted = expected["C"].copy()
    shifted[at] += atol + rtol * abs(want[at]) + extra / 2
    text = print_stripe(driver.run_pipeline(program, driver.resolve_steps(cfg.stage())))
    for terms, status in ((1, "wrong"), (driver.longest_reduction(program), "ok")):
        work = tmp_path / str(terms)
        work.mkdir()
        measurer = ChildMeasurer(work, inputs, {"C": shifted}, frozenset(),
                                 timing=Timing(max_runs=5), reduction_terms=terms)  # fmt: skip
        assert measurer(text, cfg).status == status
