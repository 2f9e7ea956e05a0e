"""Host facts (plaidc.targets.host), thread counts chosen at run time, the typed option reader
(plaidc.options), and a config loader that imports no backend."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pytest

from plaidc.diagnostics import CompileError
from plaidc.options import OptionError, option_docs, read_options
from plaidc.targets import load_target, parse_config
from plaidc.targets.host import HOST_KEYS, detect, host_facts

from .support import EXAMPLES, REPO


def _sysfs(tmp_path: Path, caches: list[tuple[str, str, str, str]]) -> Path:
    for number, (level, kind, size, line) in enumerate(caches):
        folder = tmp_path / "cache" / f"index{number}"
        folder.mkdir(parents=True)
        for name, value in zip(
            ("level", "type", "size", "coherency_line_size"), (level, kind, size, line), strict=True
        ):
            (folder / name).write_text(value + "\n")
    return tmp_path / "cache"


def _cpuinfo(tmp_path: Path, flags: str) -> Path:
    path = tmp_path / "cpuinfo"
    path.write_text(f"processor\t: 0\nflags\t\t: fpu sse2 {flags}\n\nprocessor\t: 1\n")
    return path


def test_caches_vector_width_and_threads_are_read_from_the_host_files(tmp_path: Path) -> None:
    sysfs = _sysfs(
        tmp_path,
        [
            ("1", "Data", "48K", "64"),
            ("1", "Instruction", "32K", "64"),
            ("2", "Unified", "2048K", "64"),
            ("3", "Unified", "300M", "64"),
        ],
    )
    facts = detect({}, 12, sysfs, _cpuinfo(tmp_path, "avx avx2 avx512f"))
    assert facts.values == {
        "threads": 12,
        "l1_bytes": 48 * 1024,
        "l2_bytes": 2048 * 1024,
        "cache_line": 64,
        "vector_bytes": 64,
    }
    assert facts.warnings == ()
    for flags, width in (("avx avx2", 32), ("avx", 32), ("sse4_2", 16)):
        assert detect({}, 1, sysfs, _cpuinfo(tmp_path, flags)).values["vector_bytes"] == width


def test_missing_sysfs_falls_back(tmp_path: Path) -> None:
    facts = detect({}, 1, tmp_path / "absent", tmp_path / "no-cpuinfo")
    assert facts.values["vector_bytes"] == 16
    assert {facts.sources[k] for k in ("l1_bytes", "l2_bytes", "cache_line")} <= {
        "sysconf",
        "fallback (no sysfs or sysconf cache sizes)",
    }
    assert all(facts.values[k] > 0 for k in HOST_KEYS)


@pytest.mark.parametrize(
    ("omp", "threads", "warns"),
    [("3", 3, False), ("4,2", 4, False), (" 5 ", 5, False), ("abc", 6, True), ("0", 6, True)],
)
def test_omp_num_threads_is_honoured_and_validated(
    omp: str, threads: int, warns: bool, tmp_path: Path
) -> None:
    facts = detect({"OMP_NUM_THREADS": omp}, 6, tmp_path, tmp_path / "x")
    assert facts.values["threads"] == threads
    assert bool(facts.warnings) == warns
    if warns:
        assert "OMP_NUM_THREADS" in facts.warnings[0].message
        assert facts.warnings[0].severity == "warning"


def test_vector_width_agrees_with_llvm_host_features() -> None:
    llvm = pytest.importorskip("llvmlite.binding")
    llvm.initialize_native_target()
    features = llvm.get_host_cpu_features()
    if features.get("avx512f"):
        expected = 64
    elif features.get("avx2") or features.get("avx"):
        expected = 32
    else:
        expected = 16
    assert host_facts().values["vector_bytes"] == expected


CPU = '[target]\nname = "chip"\nbackend = "c"\n[hardware]\n{hardware}\n[codegen]\n'


def test_cpu_configs_detect_what_they_leave_out_and_keep_what_they_set() -> None:
    config = parse_config(CPU.format(hardware="threads = 7"), "chip.toml")
    assert config.hardware["threads"] == 7
    assert config.detected == frozenset(HOST_KEYS) - {"threads"}
    assert config.hardware["l1_bytes"] == host_facts().values["l1_bytes"]
    builtin = load_target("c")
    assert builtin.detected == frozenset(HOST_KEYS)
    opencl_like = CPU.replace('"c"', '"opencl"').format(hardware='vector_bytes = "detect"')
    config = parse_config(opencl_like, "gpu.toml")
    assert config.detected == {"vector_bytes"}  # a device backend detects only on request
    assert "threads" not in config.hardware


@pytest.mark.parametrize(
    ("setting", "shown"),
    [("threads = 2.5", "2.5"), ('l1_bytes = "big"', '"big"'), ("threads = true", "true")],
)
def test_host_facts_of_the_wrong_type_are_located_errors(setting: str, shown: str) -> None:
    with pytest.raises(CompileError) as info:
        parse_config(CPU.format(hardware=setting), "chip.toml")
    diag = info.value.diagnostics[0]
    key = setting.split(" =")[0]
    assert diag.message == f'[hardware] {key} = {shown} must be a positive integer or "detect"'
    assert diag.span is not None and (diag.span.line, diag.span.col) == (5, 1)


def test_loading_targets_imports_no_backend() -> None:
    script = (
        "import sys, plaidc.targets as t\n"
        "for name in t.builtin_target_names(): t.load_target(name)\n"
        "print([m for m in sys.modules if m.startswith('plaidc.backends')])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


_COUNT_THREADS = textwrap.dedent(
    """
    import os, sys
    from plaidc import driver
    from plaidc.backends import get_backend
    from plaidc.targets import load_target
    target = load_target(sys.argv[1])
    session = driver.Session()
    dims = {"M": 128, "K": 64, "N": 128}
    program = driver.load_program(session, sys.argv[2], driver.Bindings(dims=dims))
    program = driver.run_pipeline(program, driver.resolve_steps(target.stage()))
    from plaidc.interp.program import program_io
    inputs = driver.random_inputs(program_io(program).inputs, seed=0)
    artifact = get_backend(target.backend).compile(program, target)
    before = len(os.listdir("/proc/self/task"))
    artifact.run(inputs)
    print(len(os.listdir("/proc/self/task")) - before)
    """
)


@pytest.mark.parametrize("backend", ["c", "llvm"])
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="counts threads in /proc")
def test_generated_code_runs_on_the_threads_omp_num_threads_asks_for(backend: str) -> None:
    """Without a configured count the code leaves it to the OpenMP runtime: OMP_NUM_THREADS=3
    gives libgomp's pool 2 threads besides the caller (num_threads(2) gave 1, whatever the
    environment said)."""
    for omp, extra in (("3", 2), ("1", 0)):
        env = {**os.environ, "OMP_NUM_THREADS": omp}
        args = [sys.executable, "-c", _COUNT_THREADS, backend, str(EXAMPLES / "matmul.tile")]
        result = subprocess.run(args, capture_output=True, text=True, env=env, cwd=REPO)
        assert result.returncode == 0, result.stderr
        assert int(result.stdout.strip().splitlines()[-1]) == extra, (omp, result.stdout)


def test_a_configured_thread_count_is_fixed_in_the_c() -> None:
    from plaidc.backends.c.emit import emit_c
    from plaidc.backends.loopnest import lower_program
    from plaidc.backends.loopnest.options import lowering_options
    from plaidc.backends.loopnest.plan import Plan

    def pragmas(plan: Plan) -> list[str]:
        return [line.strip() for line in emit_c(plan).splitlines() if "omp parallel" in line]

    from plaidc import driver

    target = load_target("c")
    program = driver.load_program(
        driver.Session(),
        str(EXAMPLES / "matmul.tile"),
        driver.Bindings({"M": 64, "K": 64, "N": 64}),
    )
    program = driver.run_pipeline(program, driver.resolve_steps(target.stage()))
    from plaidc.backends.c import CCodegen

    for codegen, clause in (
        (target.codegen, ""),
        ({**target.codegen, "threads": 3}, " num_threads(3)"),
    ):
        options, _ = lowering_options(codegen, "c", CCodegen)
        options = type(options)(**{**options.__dict__, "threads": max(options.threads, 2)})
        found = pragmas(lower_program(program, options))
        head = "#pragma omp parallel if(plaidc_threads_"
        assert found and all(p.startswith(head) and p.endswith(clause or ")") for p in found), found


@dataclass(frozen=True)
class _Example:
    mode: Literal["fast", "slow"] = field(default="fast", metadata={"help": "how"})
    count: int = field(default=2, metadata={"help": "how many", "min": 1})
    flag: bool = False
    names: tuple[str, ...] = ()


@pytest.mark.parametrize(
    ("raw", "text", "expected"),
    [
        ({"mode": "medium"}, False, '"fast" or "slow"'),
        ({"count": 0}, False, "an integer >= 1"),
        ({"count": 2.0}, False, "an integer"),
        ({"flag": "false"}, False, "true or false"),
        ({"names": "a"}, False, "a list of strings"),
        ({"names": [1]}, False, "a list of strings"),
        ({"count": "x"}, True, "an integer"),
    ],
)
def test_the_option_reader_says_what_it_expected(
    raw: dict[str, object], text: bool, expected: str
) -> None:
    with pytest.raises(OptionError) as info:
        read_options(_Example, raw, text=text)
    assert info.value.expected == expected
    assert info.value.key == next(iter(raw))


def test_the_option_reader_converts_command_line_text_and_documents_options() -> None:
    got = read_options(_Example, {"count": "0x10", "flag": "on", "names": "[a, b]"}, text=True)
    assert got == _Example(count=16, flag=True, names=("a", "b"))
    with pytest.raises(OptionError, match="did you mean 'count'"):
        read_options(_Example, {"cuont": 1})
    docs = {d.name: d for d in option_docs(_Example)}
    assert (docs["mode"].type, docs["mode"].default, docs["mode"].help) == ("str", '"fast"', "how")
    assert docs["mode"].allowed == ('"fast"', '"slow"')
    assert docs["count"].allowed == (">= 1",)


def test_plaidc_targets_name_shows_detected_hardware_codegen_and_pipeline(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from plaidc.cli import plaidc_main

    result = CliRunner().invoke(plaidc_main, ["targets", "cpu"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    threads = host_facts().values["threads"]
    assert f"  threads = {threads}  # detected: " in out
    assert '  omp_wait_policy = "passive"  (str | none) libgomp\'s OMP_WAIT_POLICY' in out
    assert '. autotile (tile_contract) {reqs=["contraction"]' in out
    result = CliRunner().invoke(plaidc_main, ["targets", "npu"])
    assert "  buffering = 2  (int) fraction of a buffer" in result.stdout
    assert "detected" not in result.stdout
