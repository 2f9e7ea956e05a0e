"""OpenCL runtimes and platform choice: the vendors folder that shows the ICD loader the runtimes
the virtual environment ships, probing platforms with a trivial kernel (fake platforms), the
error for a runtime whose compiler is broken (a real platform made to fail its probe, as pocl
3.0 fails on AMD Zen 5), and `make demo` going on without a broken target."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from plaidc import demo
from plaidc.backends import BackendUnavailable
from plaidc.backends.opencl import runtime
from plaidc.backends.opencl.platforms import (
    candidate_order,
    choose_platform,
    compiler_message,
    expose_venv_runtimes,
    write_vendors_folder,
)
from plaidc.cli import plaidc_main
from plaidc.stripe.ir import Block
from plaidc.targets import TargetConfig

from .support import EXAMPLES
from .support.backend_opencl import needs_opencl, opencl_skip_reason

# --------------------------------------------------------------------------------------------
# The vendors folder


def venv_with_intel(tmp_path: Path) -> Path:
    prefix = tmp_path / "venv"
    (prefix / "lib").mkdir(parents=True)
    (prefix / "lib" / "libintelocl.so").write_bytes(b"")
    return prefix


def test_the_venvs_intel_runtime_and_the_systems_icds_are_listed(tmp_path: Path) -> None:
    system = tmp_path / "system"
    system.mkdir()
    (system / "nvidia.icd").write_text("libnvidia-opencl.so.1\n")
    (system / "notes.txt").write_text("not an ICD\n")
    environ = {"OPENCL_VENDOR_PATH": str(system)}
    folder = expose_venv_runtimes(environ, venv_with_intel(tmp_path), tmp_path / "cache")
    assert folder is not None and environ["OCL_ICD_VENDORS"] == str(folder)
    assert folder.parent == tmp_path / "cache" / "opencl-vendors"
    listed = {p.name: p.read_text() for p in folder.iterdir()}
    intel = tmp_path / "venv" / "lib" / "libintelocl.so"
    assert listed == {
        "nvidia.icd": "libnvidia-opencl.so.1\n",
        "plaidc-intel-cpu.icd": f"{intel}\n",
    }


@pytest.mark.parametrize("variable", ["OCL_ICD_VENDORS", "OCL_ICD_FILENAMES"])
def test_the_users_loader_variables_are_left_alone(tmp_path: Path, variable: str) -> None:
    environ = {variable: "/opt/my-icds"}
    assert expose_venv_runtimes(environ, venv_with_intel(tmp_path), tmp_path / "cache") is None
    assert environ == {variable: "/opt/my-icds"}
    assert not (tmp_path / "cache").exists()


def test_nothing_changes_without_a_runtime_in_the_venv(tmp_path: Path) -> None:
    environ: dict[str, str] = {}
    (tmp_path / "venv" / "lib").mkdir(parents=True)
    assert expose_venv_runtimes(environ, tmp_path / "venv", tmp_path / "cache") is None
    assert environ == {}


def test_the_folder_is_named_by_its_contents_and_written_once(tmp_path: Path) -> None:
    first = write_vendors_folder({"a.icd": "/lib/a.so"}, tmp_path)
    assert write_vendors_folder({"a.icd": "/lib/a.so"}, tmp_path) == first
    other = write_vendors_folder({"a.icd": "/lib/b.so"}, tmp_path)
    assert other != first and (other / "a.icd").read_text() == "/lib/b.so\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([first.name, other.name])


def test_an_unwritable_cache_leaves_the_loader_alone(tmp_path: Path) -> None:
    (tmp_path / "cache").write_text("a file where the cache folder should be")
    environ: dict[str, str] = {}
    assert expose_venv_runtimes(environ, venv_with_intel(tmp_path), tmp_path / "cache") is None
    assert environ == {}


# --------------------------------------------------------------------------------------------
# Choosing a platform (fake platforms; the probe says whether a platform builds)


@dataclass
class FakePlatform:
    name: str
    devices: list[str] = field(default_factory=lambda: ["a device"])

    def get_devices(self) -> list[str]:
        return self.devices


@dataclass
class Probe:
    """Fails the platforms named in `broken` with a compiler message; records what it probed."""

    broken: dict[str, str] = field(default_factory=dict)
    probed: list[str] = field(default_factory=list)

    def __call__(self, platform: FakePlatform) -> str | None:
        self.probed.append(platform.name)
        return self.broken.get(platform.name)


POCL = FakePlatform("Portable Computing Language")
INTEL = FakePlatform("Intel(R) OpenCL")
GPU = FakePlatform("NVIDIA CUDA")
EMPTY = FakePlatform("Empty", devices=[])
ZEN5 = "error: unknown target CPU 'generic'\nnote: valid target CPU values are: x86-64, ..."


def test_other_platforms_come_first_then_the_cpu_runtimes_fastest_first() -> None:
    assert candidate_order([INTEL, EMPTY, POCL, GPU]) == [GPU, POCL, INTEL]


def test_the_first_platform_that_builds_is_used_and_probing_stops_there() -> None:
    probe = Probe()
    assert choose_platform([INTEL, POCL], None, probe) is POCL
    assert probe.probed == [POCL.name]


def test_a_platform_whose_compiler_fails_is_passed_over() -> None:
    """pocl 3.0 (LLVM 14) on AMD Zen 5: Intel's CPU runtime is used instead."""
    probe = Probe(broken={POCL.name: ZEN5})
    assert choose_platform([POCL, INTEL], None, probe) is INTEL
    assert probe.probed == [POCL.name, INTEL.name]


def test_when_no_platform_builds_every_reason_is_given() -> None:
    probe = Probe(broken={POCL.name: ZEN5, INTEL.name: "another failure"})
    with pytest.raises(BackendUnavailable) as caught:
        choose_platform([POCL, INTEL], None, probe)
    message = caught.value.diagnostics[0].message
    assert message.startswith("no OpenCL platform can build a trivial kernel")
    assert "'Portable Computing Language': error: unknown target CPU 'generic'" in message
    assert "'Intel(R) OpenCL': another failure" in message
    assert "PLAIDC_OPENCL_PLATFORM" in message and ".[opencl]" in message
    assert "\n" not in message  # one paragraph


@pytest.mark.parametrize("choice", ["portable", "POCL", "0"])
def test_a_forced_platform_is_used_or_its_failure_reported(choice: str) -> None:
    if choice == "POCL":
        with pytest.raises(BackendUnavailable, match="matches no OpenCL platform"):
            choose_platform([POCL, INTEL], choice, Probe())
        return
    assert choose_platform([POCL, INTEL], choice, Probe()) is POCL
    with pytest.raises(BackendUnavailable) as caught:
        choose_platform([POCL, INTEL], choice, Probe(broken={POCL.name: ZEN5}))
    message = caught.value.diagnostics[0].message
    assert "'Portable Computing Language' (forced by PLAIDC_OPENCL_PLATFORM)" in message
    assert "unknown target CPU 'generic'" in message
    assert "found 0: 'Portable Computing Language', 1: 'Intel(R) OpenCL'" in message


def test_a_long_compiler_message_is_cut_to_its_first_lines() -> None:
    log = "\n".join(f"line {k}" for k in range(40))
    with pytest.raises(BackendUnavailable) as caught:
        choose_platform([POCL], None, Probe(broken={POCL.name: log}))
    message = caught.value.diagnostics[0].message
    assert "the only OpenCL platform, 'Portable Computing Language', cannot build" in message
    assert "line 5 | ..." in message and "line 6" not in message


def test_pyopencls_framing_of_a_build_error_is_dropped() -> None:
    error = (
        "clBuildProgram failed: BUILD_PROGRAM_FAILURE - clBuildProgram failed\n\n"
        "Build on <pyopencl.Device 'cpu' on 'Intel(R) OpenCL' at 0x55>:\n\n"
        "1:1:2: error: unknown target CPU 'generic'\n(options: -I /x/pyopencl/cl)\n"
    )
    assert compiler_message(error) == "1:1:2: error: unknown target CPU 'generic'"
    assert compiler_message("clBuildProgram failed") == "clBuildProgram failed"


def test_no_platform_with_a_device_says_how_to_install_one() -> None:
    with pytest.raises(BackendUnavailable, match=r"no OpenCL platform with a device.*\[opencl\]"):
        choose_platform([EMPTY], None, Probe())


# --------------------------------------------------------------------------------------------
# A real platform whose compiler fails (the probe kernel made invalid)


@pytest.fixture
def broken_compiler(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every platform's compiler fails the probe, with a message like pocl's on AMD Zen 5."""
    monkeypatch.setattr(runtime, "PROBE_KERNEL", "#error unknown target CPU 'generic'\n")
    runtime.open_device.cache_clear()
    yield
    runtime.open_device.cache_clear()


@needs_opencl
def test_a_broken_compiler_is_a_runtime_error_naming_the_platform(broken_compiler: None) -> None:
    matmul = [str(EXAMPLES / "matmul.tile"), "-D", "M=3", "-D", "K=2", "-D", "N=4"]
    result = CliRunner().invoke(
        plaidc_main, ["run", *matmul, "-t", "opencl", "--random-inputs", "1"]
    )
    assert result.exit_code == 1, result.output
    assert result.output.startswith("error: ")
    assert "build a trivial kernel" in result.output
    assert "unknown target CPU 'generic'" in result.output
    assert "PLAIDC_OPENCL_PLATFORM" in result.output
    assert "internal compiler error" not in result.output and "bug" not in result.output


@needs_opencl
def test_the_demo_lists_a_broken_runtime_as_unavailable_and_goes_on(
    broken_compiler: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(demo, "DEMO_PROGRAMS", ["matmul"])
    monkeypatch.setattr(demo, "builtin_target_names", lambda: ["c", "opencl"])
    assert demo.main() == 0
    rows = capsys.readouterr().out.splitlines()
    opencl = [row for row in rows if row.startswith("matmul") and " opencl " in row]
    assert len(opencl) == 1 and "unavailable: " in opencl[0]
    assert "unknown target CPU 'generic'" in opencl[0]
    assert any(row.startswith("matmul") and " c " in row and " ok " in row for row in rows)


def test_the_demo_lists_a_missing_platform_as_unavailable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PLAIDC_OPENCL_PLATFORM", "plaidc-test-no-such-platform")
    monkeypatch.setattr(demo, "DEMO_PROGRAMS", ["matmul"])
    monkeypatch.setattr(demo, "builtin_target_names", lambda: ["opencl"])
    assert demo.main() == 0
    out = capsys.readouterr().out
    assert "matmul             opencl unavailable: " in out
    assert "no OpenCL platform" in out or "matches no OpenCL platform" in out


def test_a_mismatch_on_an_available_target_fails_the_demo(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def wrong(cfg: TargetConfig, program: Block, inputs: dict[str, np.ndarray]) -> dict:
        return {name: value + 1 for name, value in demo.run_program(program, inputs).items()}

    monkeypatch.setattr(demo, "DEMO_PROGRAMS", ["matmul"])
    monkeypatch.setattr(demo, "builtin_target_names", lambda: ["c"])
    monkeypatch.setattr(demo, "_run_on", wrong)
    assert demo.main() == 1
    assert "MISMATCH" in capsys.readouterr().out


# --------------------------------------------------------------------------------------------
# The OpenCL tests fail, not skip, without a working runtime


def test_a_missing_runtime_fails_the_opencl_tests_unless_opted_out() -> None:
    assert opencl_skip_reason("no platform", {}) is None
    assert opencl_skip_reason("no platform", {"PLAIDC_TESTS_WITHOUT_OPENCL": "1"}) == (
        "no OpenCL runtime (PLAIDC_TESTS_WITHOUT_OPENCL is set): no platform"
    )
    assert opencl_skip_reason(None, {"PLAIDC_TESTS_WITHOUT_OPENCL": "1"}) is None
