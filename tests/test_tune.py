"""`plaidc tune`: the search space from option metadata and [tune], the database, the search,
the loop (with a fake measurer: no timing), applying records, and the child-process runner."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pytest

from plaidc import driver
from plaidc.diagnostics import CompileError
from plaidc.options import PowersOfTwo, tunable_fields, tunable_values
from plaidc.targets import load_target, parse_config
from plaidc.tune.db import TuneDb, best_valid, default_db_path, tuning_key
from plaidc.tune.measure import ChildMeasurer, Outcome, Timing
from plaidc.tune.search import Search
from plaidc.tune.space import Param, Space, apply_point, build_space, point_key
from plaidc.tune.tuner import TuneRequest, tune
from tests.support import EXAMPLES, REPO

PLAIDC = [str(Path(sys.executable).parent / "plaidc")]  # the installed command


def matmul(m: int = 16, k: int = 16, n: int = 16) -> Any:
    return driver.load_program(
        driver.Session(), str(EXAMPLES / "matmul.tile"), driver.Bindings({"M": m, "K": k, "N": n})
    )


# ---- option metadata -----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Knobs:
    size: int = dataclasses.field(default=4, metadata={"tune": PowersOfTwo(2, 16)})
    mode: Literal["a", "b"] = dataclasses.field(default="a", metadata={"tune": True})
    flag: bool = dataclasses.field(default=False, metadata={"tune": True})
    rows: int = dataclasses.field(default=8, metadata={"tune": (4, 8)})
    fixed: int = 3


def test_tunable_values_come_from_field_metadata():
    assert tunable_values(Knobs, "size") == (2, 4, 8, 16)
    assert tunable_values(Knobs, "mode") == ("a", "b")
    assert tunable_values(Knobs, "flag") == (False, True)
    assert tunable_values(Knobs, "fixed") is None
    assert set(tunable_fields(Knobs)) == {"size", "mode", "flag", "rows"}


# ---- the search space ------------------------------------------------------------------------


def _config(tune_toml: str) -> Any:
    text = (REPO / "src/plaidc/targets/c.toml").read_text()
    text = text.split("[tune.", 1)[0] + text[text.index("# The CPU pipeline") :]
    return parse_config(text.replace("[codegen]", tune_toml + "\n[codegen]", 1), "my.toml")


def test_space_of_the_c_target_starts_at_the_configured_point():
    cfg = load_target("c")
    space = build_space(cfg, "default")
    names = [p.name for p in space.params]
    assert "tile_contract.max_total_size" in names and "codegen.gemm_rows" in names
    default = space.default_point()
    assert default["tile_contract.max_total_size"] == cfg.hardware["l2_bytes"] // 4
    assert default["codegen.gemm_rows"] == cfg.codegen["gemm_rows"]
    assert space.contains(default)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("[tune.tile_contrct]\ncost_model = true", "no step of the config is named 'tile_contrct'"),
        ("[tune.tile_contract]\nreqs = true", "'reqs': not tunable"),
        ("[tune.tile_contract]\nmax_totl = true", "'max_totl': no such option"),
        ("[tune.tile_contract]\ncost_model = [1, 2]", '1 is not "density" or "lines_per_output"'),
        ("[tune.codegen]\ngemm_rows = 4", "must be true"),
    ],
)
def test_a_bad_tune_table_is_an_error_at_its_key(table: str, message: str):
    cfg = _config(table)
    with pytest.raises(CompileError) as info:
        build_space(cfg, "default")
    diag = info.value.diagnostics[0]
    assert message in diag.message
    assert diag.span is not None and diag.span.file == "my.toml"
    located = cfg.source.splitlines()[diag.span.line - 1]
    header, key_line = table.splitlines()
    assert located in (header, key_line)


def test_apply_point_sets_pass_options_and_codegen():
    cfg = load_target("c")
    point = build_space(cfg, "default").default_point()
    point["tile_contract.max_total_size"] = 4096
    point["codegen.gemm_rows"] = 4
    tuned, steps = apply_point(cfg, "default", point)
    assert tuned.codegen["gemm_rows"] == 4 and cfg.codegen["gemm_rows"] == 8
    step = next(s for s in steps if s.name == "tile_contract")
    assert step.options["max_total_size"] == 4096


# ---- the database and its key ------------------------------------------------------------------


def test_default_db_path_follows_the_environment(tmp_path: Path):
    assert default_db_path({"PLAIDC_TUNE_DB": "x.jsonl", "XDG_CACHE_HOME": "/c"}) == Path("x.jsonl")
    assert default_db_path({"XDG_CACHE_HOME": "/c"}) == Path("/c/plaidc/tune.jsonl")
    assert default_db_path({"HOME": "/h"}) == Path("/h/.cache/plaidc/tune.jsonl")


def test_corrupt_lines_are_skipped_with_a_warning_naming_file_and_line(tmp_path: Path):
    path = tmp_path / "db.jsonl"
    warnings: list[str] = []
    db = TuneDb(path, warn=warnings.append)
    good = {"kind": "end", "key": "k", "session": "s", "reason": "complete"}
    db.append(good)
    with open(path, "a") as fp:
        fp.write('{"kind": "trial", "key": "k"\n')  # cut short
        fp.write('{"kind": "end", "key": "k"')  # a writer killed mid-line: no newline
    db.append(good)  # starts on a line of its own
    assert db.records() == [good, good]
    assert warnings[0].startswith(f"{path}:2: warning: line skipped")
    assert warnings[1].startswith(f"{path}:3: warning: line skipped")


def test_the_key_changes_with_program_config_and_stage():
    cfg = load_target("c")
    key = tuning_key(matmul(), cfg, "default")
    assert tuning_key(matmul(), cfg, "default") == key
    assert tuning_key(matmul(16, 16, 32), cfg, "default").key != key.key
    edited = dataclasses.replace(cfg, source=cfg.source + "\n# edited\n")
    other = tuning_key(matmul(), edited, "default")
    assert other.key != key.key and other.parts["program"] == key.parts["program"]


def test_best_valid_skips_failures_and_stale_parameters():
    def trial(params: dict[str, Any], status: str, value: float | None) -> dict[str, Any]:
        result = {"status": status, **({"value": value} if value is not None else {})}
        return {"kind": "trial", "key": "k", "session": "s", "params": params, "result": result}

    records = [
        trial({"a": 1}, "wrong", None),
        trial({"a": 2}, "ok", 5.0),
        trial({"gone": 1}, "ok", 1.0),
        trial({"a": 3}, "ok", 4.0),
    ]
    best, stale = best_valid(records, "k", lambda p: set(p) == {"a"})
    assert best is not None and best["params"] == {"a": 3} and stale == 1


# ---- the search --------------------------------------------------------------------------------


def _grid(n: int) -> Space:
    values = tuple(range(n))
    return Space(
        (Param("s", "x", values, 0), Param("s", "y", values, 0), Param("s", "z", (0, 1), 0))
    )


def test_search_finds_the_optimum_of_a_smooth_space_and_never_repeats():
    space = _grid(12)  # 288 points

    def cost(p: dict[str, Any]) -> float:
        return (p["s.x"] - 9) ** 2 + (p["s.y"] - 3) ** 2 + 5 * p["s.z"] + 1

    search = Search(space, [space.default_point()], seed=1)
    seen = set()
    for _ in range(40):
        point = search.propose()
        assert point is not None and point_key(point) not in seen
        seen.add(point_key(point))
        search.record(point, cost(point))
    best = search.best()
    assert best is not None and best[0] == 1


def test_search_exhausts_a_small_space_then_stops():
    space = _grid(2)
    search = Search(space, seed=0)
    for _ in range(space.size):
        point = search.propose()
        assert point is not None
        search.record(point, None)  # every candidate fails: none is a parent
    assert search.propose() is None and search.best() is None


# ---- the loop, with a fake measurer --------------------------------------------------------------


class FakeMeasurer:
    """Cycles from the candidate's codegen and tiles; `wrong` for buffering 1 (never chosen);
    raises KeyboardInterrupt on call `stop_at`."""

    def __init__(self, stop_at: int | None = None) -> None:
        self.calls = 0
        self.stop_at = stop_at

    def __call__(self, stripe_text: str, cfg: Any) -> Outcome:
        self.calls += 1
        if self.calls == self.stop_at:
            raise KeyboardInterrupt
        if cfg.codegen["buffering"] == 1:
            return Outcome("wrong", "cycles", message="fake mismatch")
        return Outcome("ok", "cycles", 1000.0 + len(stripe_text) % 97 + 10 * cfg.codegen["reuse"])


class Quiet:
    def trial(self, *args: Any) -> None:
        pass

    def close(self) -> None:
        pass


def _request(trials: int, **kw: Any) -> TuneRequest:
    """An npu request over a small space: 8 points, of which buffering x reuse make 4
    distinct programs (the backend's fingerprint of its C: at 32x64x1024 the left operand
    is shared by several tiles, so `reuse` matters, and the cost model's choice does not
    change the code)."""
    table = {"codegen": {"reuse": True, "buffering": True}, "tile_cube": {"cost_model": True}}
    cfg = dataclasses.replace(load_target("npu"), tune=table)
    return TuneRequest(matmul(*SMALL), "matmul.tile", cfg, "default", trials, **kw)


SMALL = (32, 64, 1024)


def test_tune_records_every_trial_and_never_chooses_a_wrong_one(tmp_path: Path):
    db = TuneDb(tmp_path / "db.jsonl")
    notes: list[str] = []
    summary = tune(_request(12), db, FakeMeasurer(), Quiet(), notes.append)
    trials = [r for r in db.records() if r["kind"] == "trial" and r["trial"] is not None]
    assert len(trials) == summary.measured == 4 and summary.reused == 4
    assert summary.best is not None and summary.best["result"]["status"] == "ok"
    assert summary.best["params"]["codegen.buffering"] == 2
    assert any(r["result"]["status"] == "wrong" for r in trials)
    first = trials[0]
    cfg = _request(1).cfg
    assert first["params"] == build_space(cfg, "default").default_point()
    assert {"key", "params", "result", "date", "plaidc", "parts"} <= set(first)
    assert db.records()[-1]["kind"] == "end" and db.records()[-1]["reason"] == "exhausted"
    # the compile path applies it: the best record's options, with a note
    lines: list[str] = []
    tuned = driver.apply_tuning(matmul(*SMALL), cfg, "default", db.path, lines.append)
    assert tuned.record is not None and tuned.record["result"] == summary.best["result"]
    assert lines and lines[-1].startswith("plaidc: tuned options from")


def test_interrupted_tuning_keeps_its_trials_and_resume_continues(tmp_path: Path):
    db = TuneDb(tmp_path / "db.jsonl")
    first = tune(_request(4), db, FakeMeasurer(stop_at=3), Quiet(), lambda _: None)
    assert first.reason == "interrupted" and first.measured == 2
    assert db.records()[-1]["reason"] == "interrupted"
    notes: list[str] = []
    again = tune(_request(4, resume=True), db, FakeMeasurer(), Quiet(), notes.append)
    assert again.session == first.session and any("resuming" in n for n in notes)
    trials = [r for r in db.records() if r["kind"] == "trial" and r["trial"] is not None]
    assert sorted(r["trial"] for r in trials) == [1, 2, 3, 4]
    assert len({point_key(r["params"]) for r in trials}) == 4  # nothing measured twice


def test_an_empty_space_says_so(tmp_path: Path):
    cfg = dataclasses.replace(load_target("npu"), tune={})
    request = dataclasses.replace(_request(4), cfg=cfg)
    with pytest.raises(CompileError, match=r"search space .* is empty"):
        tune(request, TuneDb(tmp_path / "db.jsonl"), FakeMeasurer(), Quiet(), lambda _: None)


def test_records_whose_parameters_no_longer_exist_are_ignored_with_a_note(tmp_path: Path):
    db = TuneDb(tmp_path / "db.jsonl")
    program, cfg = matmul(), load_target("npu")
    key = tuning_key(program, cfg, "default").key
    db.append(
        {"kind": "trial", "key": key, "session": "s", "params": {"tile_cube.gone": 1},
         "result": {"status": "ok", "value": 1.0}}
    )  # fmt: skip
    notes: list[str] = []
    tuned = driver.apply_tuning(program, cfg, "default", db.path, notes.append)
    assert tuned.record is None and "no longer has; ignored" in notes[0]


# ---- the child-process runner ------------------------------------------------------------------


def _measurer(tmp_path: Path, expected_scale: float = 1.0, timeout: float = 120.0) -> Any:
    from plaidc.interp import program_io, run_program

    program = matmul(16, 16, 16)
    inputs = driver.random_inputs(program_io(program).inputs, 0)
    expected = {k: v * expected_scale for k, v in run_program(program, inputs).items()}
    measurer = ChildMeasurer(
        tmp_path, inputs, expected, frozenset({"C"}), timeout=timeout, timing=Timing(max_runs=3)
    )
    cfg = load_target("npu")
    final = driver.run_pipeline(program, driver.resolve_steps(cfg.stage()))
    from plaidc.stripe.printer import print_stripe

    return measurer, print_stripe(final), cfg


def test_child_measures_npu_cycles_and_detects_wrong_crash_and_timeout(tmp_path: Path):
    measurer, text, cfg = _measurer(tmp_path)
    ok = measurer(text, cfg)
    assert ok.status == "ok" and ok.value is not None and ok.value > 0
    assert measurer(text, cfg).value == ok.value  # cycles are exact
    wrong, text, cfg = _measurer(tmp_path, expected_scale=2.0)
    assert wrong(text, cfg).status == "wrong"
    crash = measurer("block [] ( oops", cfg)
    assert crash.status == "crash" and crash.message
    slow, text, cfg = _measurer(tmp_path, timeout=0.05)
    assert slow(text, cfg).status == "timeout"


# ---- the command line --------------------------------------------------------------------------


def _run(args: list[str], db: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PLAIDC_TUNE_DB": str(db)}
    return subprocess.run([*PLAIDC, *args], capture_output=True, text=True, env=env, cwd=REPO)


def test_tune_list_show_and_compile_with_and_without_tuning(tmp_path: Path):
    db = tmp_path / "tune.jsonl"
    dims = ["-D", "M=16", "-D", "K=16", "-D", "N=16"]
    tuned = _run(["tune", "examples/matmul.tile", "-t", "npu", *dims, "--trials", "2"], db)
    assert tuned.returncode == 0, tuned.stderr
    assert "trial 1/2" in tuned.stderr and "plaidc tune: best" in tuned.stderr
    listed = _run(["tune", "--list"], db)
    assert "examples/matmul.tile -t npu" in listed.stdout and "2 trials" in listed.stdout
    key = listed.stdout.split()[0]
    shown = _run(["tune", "--show", key[:8]], db)
    assert shown.returncode == 0 and "ended: complete" in shown.stdout
    dump = tmp_path / "dumps"
    out = tmp_path / "mm.npu.c"
    compiled = _run(["compile", "examples/matmul.tile", "-t", "npu", *dims, "-o", str(out),
                     "--dump-dir", str(dump)], db)  # fmt: skip
    assert compiled.returncode == 0 and "plaidc: tuned options from" in compiled.stderr
    assert "codegen.buffering = " in (dump / "tuning.txt").read_text()
    untuned = _run(["compile", "examples/matmul.tile", "-t", "npu", *dims, "-o", str(out),
                    "--no-tuning"], db)  # fmt: skip
    assert untuned.returncode == 0 and "tuned options" not in untuned.stderr
    lines = db.read_text().splitlines()
    assert all(json.loads(line)["key"] == key for line in lines)


def test_tune_usage_errors(tmp_path: Path):
    db = tmp_path / "tune.jsonl"
    assert _run(["tune", "examples/matmul.tile"], db).returncode == 2  # no target
    assert _run(["tune"], db).returncode == 2
    missing = _run(["tune", "--show", "abc"], db)
    assert missing.returncode == 1 and "no key starts with 'abc'" in missing.stderr
    db.write_text("not json\n")
    listed = _run(["tune", "--list"], db)
    assert f"{db}:1: warning: line skipped" in listed.stderr and listed.returncode == 0


def test_an_unknown_tunable_fails_compile_at_the_config_line(tmp_path: Path):
    text = (REPO / "src/plaidc/targets/npu.toml").read_text()
    config = tmp_path / "chip.toml"
    config.write_text(text.replace("[tune.codegen]\nreuse = true", "[tune.codegen]\nreus = true"))
    result = _run(["compile", "examples/matmul.tile", "--config", str(config), "-D", "M=4",
                   "-D", "K=4", "-D", "N=4", "--emit", "stripe-opt"], tmp_path / "db")  # fmt: skip
    assert result.returncode == 1
    line = text.splitlines().index("[tune.codegen]") + 2  # the line after the header
    assert f"{config}:{line}:1: error: [tune.codegen] 'reus': no such option" in result.stderr
    assert "^" in result.stderr


def test_tuned_records_change_the_compiled_program(tmp_path: Path):
    """A record's options reach the pipeline: a tiny tile budget gives more, smaller tiles."""
    program, cfg = matmul(128, 128, 128), load_target("npu")
    space = build_space(cfg, "default")
    point = space.default_point()
    point["tile_cube.max_each_input_size"] = min(space.params[0].values)
    point["tile_cube.max_output_size"] = min(space.params[1].values)
    db = TuneDb(tmp_path / "db.jsonl")
    key = tuning_key(program, cfg, "default").key
    db.append({"kind": "trial", "key": key, "session": "s", "params": point,
               "result": {"status": "ok", "value": 1.0, "metric": "cycles"}})  # fmt: skip
    from plaidc.stripe.printer import print_stripe

    tuned = driver.apply_tuning(program, cfg, "default", db.path, lambda _: None)
    plain = driver.run_pipeline(program, driver.resolve_steps(cfg.stage()))
    assert print_stripe(driver.run_pipeline(program, tuned.steps)) != print_stripe(plain)
    assert np.isfinite(tuned.record["result"]["value"]) if tuned.record else False


def test_nearest_starts_from_the_best_point_of_the_closest_shape(tmp_path: Path):
    db = TuneDb(tmp_path / "db.jsonl")
    tune(_request(8), db, FakeMeasurer(), Quiet(), lambda _: None)
    best = min(
        (r for r in db.records() if r["kind"] == "trial" and r["result"]["status"] == "ok"),
        key=lambda r: r["result"]["value"],
    )
    assert best["shapes"]["A"] == ["fp32", list(SMALL[:2])]
    notes: list[str] = []
    request = dataclasses.replace(_request(2, nearest=True), program=matmul(32, 64, 512))
    tune(request, db, FakeMeasurer(), Quiet(), notes.append)
    assert any(f"--nearest: starting from key {best['key']}" in n for n in notes)
    new = [r for r in db.records() if r["kind"] == "trial" and r["key"] != best["key"]]
    assert new[1]["params"] == best["params"]  # after the config's own point, the nearest's


# ---- which points make the same program --------------------------------------------------------


def _final(program: Any, cfg: Any) -> Any:
    return driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_codegen_values_a_program_does_not_use_make_no_new_program(target: str):
    """The CPU backends fingerprint the code they emit: a GEMM register block changes the
    matmul's code, not the layernorm's (no GEMM), so tuning measures the layernorm once."""
    from plaidc.backends import build_fingerprint

    base = load_target(target)
    shapes = [dataclasses.replace(base, codegen={**base.codegen, "gemm_rows": r}) for r in (6, 8)]
    norm = driver.load_program(
        driver.Session(), str(EXAMPLES / "layernorm.tile"), driver.Bindings({"B": 8, "N": 32})
    )
    norms = {build_fingerprint(_final(norm, cfg), cfg) for cfg in shapes}
    mms = {build_fingerprint(_final(matmul(64, 64, 64), cfg), cfg) for cfg in shapes}
    assert len(norms) == 1 and None not in norms
    assert len(mms) == 2
    # a build option changes the artifact whatever the code
    if target == "c":
        flags = dataclasses.replace(base, codegen={**base.codegen, "cflags": ["-O2"]})
        assert build_fingerprint(_final(norm, flags), flags) not in norms


def test_a_backend_without_a_fingerprint_gives_none():
    from plaidc.backends import build_fingerprint

    cfg = load_target("mpi")
    assert build_fingerprint(_final(matmul(), cfg), cfg) is None
