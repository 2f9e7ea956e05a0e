"""`make bench`'s harness (bench/): runner processes, numpy's environment, ratios, the FMA probe.

Speeds are never asserted (QUALITY.md): these check that the harness measures what it says,
on the tiny `smoke` shapes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import run as bench_run  # noqa: E402
from machine import FmaProbe  # noqa: E402
from workloads import find  # noqa: E402


def test_only_numpys_process_loses_the_openblas_pins() -> None:
    pinned = {"OPENBLAS_CORETYPE": "Haswell", "OPENBLAS_L2_SIZE": "262144", "HOME": "/h"}
    numpy_env = bench_run.child_env("numpy", pinned)
    assert "OPENBLAS_CORETYPE" not in numpy_env and "OPENBLAS_L2_SIZE" not in numpy_env
    assert numpy_env["HOME"] == "/h"
    c_env = bench_run.child_env("c", pinned)
    assert c_env["OPENBLAS_CORETYPE"] == "Haswell" and c_env["OPENBLAS_NUM_THREADS"] == "1"
    assert pinned["OPENBLAS_CORETYPE"] == "Haswell"  # the parent's environment is untouched


def test_ratios_are_numpy_time_over_runner_time() -> None:
    workload = find("matmul 33x17x29")
    numpy = bench_run.Worker("numpy", None, {"ready": True}, [[0.004, 0.002], [0.003]])  # type: ignore[arg-type]
    fast = bench_run.Worker("c", None, {"ready": True}, [[0.001, 0.005], [0.002, 0.004]])  # type: ignore[arg-type]
    broken = bench_run.Worker("llvm", None, {"error": "boom"}, [])  # type: ignore[arg-type]
    entries = bench_run.summarise(workload, [numpy, fast, broken])
    assert entries["numpy"]["best_ms"] == pytest.approx(2.0)
    assert entries["c"]["best_ms"] == pytest.approx(1.0)
    assert entries["c"]["median_ms"] == pytest.approx(3.0)
    assert entries["c"]["ratio_best"] == pytest.approx(2.0)
    assert entries["c"]["ratio_median"] == pytest.approx(1.0)
    assert entries["c"]["gflops"] == pytest.approx(2 * 33 * 17 * 29 / 1e-3 / 1e9)
    assert entries["llvm"] == {"error": "boom"}


def test_fma_probe_measures_a_positive_peak(tmp_path: Path) -> None:
    probe = FmaProbe(tmp_path)
    probe.measure()
    assert probe.error == ""
    summary = probe.summary()
    assert summary["peak_gflops"] > 0
    assert summary["simd_floats"] in (4, 8, 16)
    assert summary["threads"] >= 1


def test_smoke_run_checks_every_runner_in_its_own_process(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    command = [sys.executable, str(BENCH / "run.py"), "--shapes", "smoke", "--only", "conv"]
    command += ["--targets", "c", "--blocks", "3", "--pause", "0", "--no-npu"]
    ran = subprocess.run(
        [*command, "--results", str(results)], capture_output=True, text=True, timeout=600
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "| workload | runner | best ms |" in ran.stdout
    payload = json.loads(results.read_text())
    assert payload["machine"]["fma_probe"]["peak_gflops"] > 0
    labels = [r["workload"] for r in payload["results"]]
    assert labels == ["conv3x3 6x6x5->7 +bias+relu", "tc gconv 2,3,4,5,4,4"]
    for result in payload["results"]:
        runners = result["runners"]
        assert list(runners) == ["numpy", "c", "onnxruntime", "torch"]
        assert runners["numpy"]["info"]["blas"] is not None
        assert runners["c"]["correct"] is True and runners["c"]["blocks"] == 3
        assert runners["c"]["ratio_best"] > 0 and runners["c"]["compile_s"] > 0
        for name in ("onnxruntime", "torch"):  # optional: checked when installed
            entry = runners[name]
            assert "not_installed" in entry or entry["correct"] is True, entry


def test_resnet_row_feeds_the_graph_input_and_checks_against_onnxruntime() -> None:
    """The ResNet-50 row: numpy has no program of it, so its runners are plaidc c and
    onnxruntime, fed the model's one graph input (the weights are the model's)."""
    pytest.importorskip("onnxruntime")
    from runners import prepare
    from workloads import ONNX_MODEL, STANDARD, make_inputs, matches

    (workload,) = [w for w in STANDARD if w.kind == "onnx"]
    assert workload.runners == ("c", "onnxruntime") and not workload.third_party
    inputs = make_inputs(workload)
    assert sorted(inputs) == ["gpu_0/data_0", ONNX_MODEL]
    assert inputs["gpu_0/data_0"].shape == (1, 3, 224, 224)
    prepared = prepare("onnxruntime", workload, inputs, threads=1)
    expected = workload.reference(inputs)
    assert expected.shape == (1, 1000)
    assert matches(prepared.output(), expected)
    assert not matches(prepared.output() + 1e-3, expected)


def test_tune_db_runs_each_plaidc_target_untuned_and_tuned(tmp_path: Path) -> None:
    """The tuned row applies the database's record (a point other than the config's), the
    plain row never reads it; both are checked against numpy."""
    from workloads import load_program

    from plaidc.targets import load_target
    from plaidc.tune.db import TuneDb, tuning_key
    from plaidc.tune.space import build_space

    workload = find("matmul 33x17x29")
    cfg = load_target("c")
    point = {**build_space(cfg, "default").default_point(), "codegen.gemm_rows": 6}
    db = TuneDb(tmp_path / "tune.jsonl")
    key = tuning_key(load_program(workload), cfg, "default").key
    db.append({"kind": "trial", "key": key, "session": "s", "trial": 1, "params": point,
               "result": {"status": "ok", "value": 1e-6, "metric": "seconds"}})  # fmt: skip
    results = tmp_path / "results.json"
    command = [sys.executable, str(BENCH / "run.py"), "--shapes", "smoke", "--only", "matmul"]
    command += ["--targets", "c", "--blocks", "3", "--pause", "0", "--no-npu"]
    command += ["--no-third-party", "--tune-db", str(db.path), "--results", str(results)]
    ran = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "| workload | target | untuned / tuned, best / median | tuned options |" in ran.stdout
    (result,) = json.loads(results.read_text())["results"]
    runners = result["runners"]
    assert list(runners) == ["numpy", "c", "c+tuned"]
    assert runners["c+tuned"]["info"]["tuned"] == point
    assert runners["c+tuned"]["info"]["untuned_point"] is False
    assert runners["c"]["info"] == {}
    assert all(runners[r]["correct"] is True for r in ("c", "c+tuned"))
    missing = subprocess.run([*command[:-4], "--tune-db", str(tmp_path / "none.jsonl")],
                             capture_output=True, text=True)  # fmt: skip
    assert missing.returncode == 2 and "--tune-db: no such file" in missing.stderr


def test_compile_time_times_each_pair_cold_and_fails_over_the_limit() -> None:
    """bench/compile_time.py: one row per workload and target, each a fresh process with an
    empty cache (the compile really runs: a positive time), exit 1 when a pair is over."""
    command = [sys.executable, str(BENCH / "compile_time.py"), "--shapes", "smoke"]
    command += ["--only", "tbmm", "--targets", "c,llvm", "--repeat", "1"]
    ran = subprocess.run([*command, "--limit", "60"], capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    rows = [line for line in ran.stdout.splitlines() if line.startswith("| tc tbmm")]
    assert [row.split("|")[2].strip() for row in rows] == ["c", "llvm"]
    for row in rows:
        best, median, cpu = (float(cell) for cell in row.split("|")[3:6])
        assert 0 < best <= median and cpu > 0
    over = subprocess.run([*command, "--limit", "0"], capture_output=True, text=True, timeout=600)
    assert over.returncode == 1 and "**no**" in over.stdout, over.stdout + over.stderr


def test_bytecode_writes_plaidcs_pyc_even_when_python_would_not() -> None:
    """The bench byte-compiles plaidc first, as an install does (PYTHONDONTWRITEBYTECODE)."""
    import importlib.util

    from bytecode import compile_bytecode

    import plaidc.driver

    source = Path(plaidc.driver.__file__)
    cached = Path(importlib.util.cache_from_source(str(source)))
    cached.unlink(missing_ok=True)
    assert compile_bytecode()
    assert cached.is_file() and cached.stat().st_mtime >= source.stat().st_mtime
