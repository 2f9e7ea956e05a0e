"""The NPU simulator's driver: compiler discovery, the build cache, the machine description."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from plaidc.backends import BackendUnavailable
from plaidc.backends.npu_sim import NpuMachine, compile_kernel, find_c_compiler
from plaidc.backends.npu_sim.runner import SIM_DIR, SIM_SOURCES
from plaidc.diagnostics import CompileError
from plaidc.targets import load_target

from .support.npu_sim import default_machine

TINY = """#include "plaidc_npu.h"
void tiny(__gm__ float *X) {
  __ubuf__ float *x = (__ubuf__ float *)UB_BASE;
  copy_gm_to_ubuf(x, X, 0, 1, 1, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  vadds(x, x, 1.0f, 1, 1, 1, 8, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(X, x, 0, 1, 1, 0, 0);
}
"""


def test_missing_compiler_is_backend_unavailable() -> None:
    with pytest.raises(BackendUnavailable, match="no C compiler found"):
        compile_kernel(TINY, "tiny", ("X",), environ={"PATH": "/nonexistent"})
    with pytest.raises(BackendUnavailable, match="CC='no-such-cc'"):
        find_c_compiler({"PATH": os.environ.get("PATH", ""), "CC": "no-such-cc"})


def test_cache_by_content_hash(tmp_path: Path) -> None:
    env = {**os.environ, "PLAIDC_CACHE_DIR": str(tmp_path)}
    first = compile_kernel(TINY, "tiny", ("X",), environ=env)
    assert first.library.is_relative_to(tmp_path / "npu_sim")
    stamp = first.library.stat().st_mtime_ns
    again = compile_kernel(TINY, "tiny", ("X",), environ=env)
    assert again.library == first.library
    assert again.library.stat().st_mtime_ns == stamp  # not rebuilt
    changed = compile_kernel(TINY.replace("1.0f", "2.0f"), "tiny", ("X",), environ=env)
    assert changed.library != first.library
    out = changed.run({"X": np.zeros(8, np.float32)}, default_machine())
    assert np.array_equal(out.buffers["X"], np.full(8, 2, np.float32))


def test_compile_error_names_the_kernel_line() -> None:
    broken = TINY.replace("vadds(x, x, 1.0f, 1, 1, 1, 8, 8);", "vadds(x, x, 1.0f, 1);")
    with pytest.raises(CompileError) as caught:
        compile_kernel(broken, "tiny", ("X",), filename="tiny.cce")
    assert "tiny.cce:7" in str(caught.value)


def test_hardware_table_drives_the_machine() -> None:
    hardware = dict(load_target("npu").hardware)
    machine = NpuMachine.from_hardware(hardware)
    assert machine.ub_bytes == hardware["ub_bytes"]
    assert machine.alignments()[3] == hardware["l0ab_align"]
    del hardware["l0c_align"]
    with pytest.raises(CompileError, match="l0c_align"):
        NpuMachine.from_hardware(hardware)
    with pytest.raises(CompileError, match="vector_repeat_bytes"):
        default_machine().replace(vector_repeat_bytes=48)
    # 32-B repeats: an fp32 -> fp16 conversion writes half a block per repeat, which block
    # strides cannot express (the generated code raced in the simulator)
    for size in (32, 64, 96, 160):
        with pytest.raises(CompileError, match=f"vector_repeat_bytes = {size} must be a multiple"):
            default_machine().replace(vector_repeat_bytes=size)
    assert default_machine().replace(vector_repeat_bytes=128).vector_repeat_bytes == 128
    with pytest.raises(CompileError, match="ub_bytes = 99999999999 is more than the simulator"):
        default_machine().replace(ub_bytes=99999999999)  # was "out of host memory" at run time
    with pytest.raises(CompileError, match="gm_bytes_per_cycle"):
        NpuMachine.from_hardware({**load_target("npu").hardware, "gm_bytes_per_cycle": 0})


def test_arguments_must_match_parameters() -> None:
    kernel = compile_kernel(TINY, "tiny", ("X",))
    with pytest.raises(ValueError, match="tiny takes"):
        kernel.run({"Y": np.zeros(8, np.float32)}, default_machine())


def test_simulator_compiles_warning_free_under_extra_warnings(tmp_path: Path) -> None:
    # kernels are built with -Wall -Werror; the simulator itself also passes -Wextra -pedantic
    compiler = find_c_compiler()
    for name in SIM_SOURCES:
        done = subprocess.run(
            [
                *compiler,
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-pedantic",
                "-Werror",
                "-fPIC",
                "-c",
                str(SIM_DIR / name),
                "-o",
                str(tmp_path / f"{name}.o"),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr


def test_unwaited_flags_are_reported() -> None:
    source = TINY.replace(
        "copy_ubuf_to_gm(X, x, 0, 1, 1, 0, 0);", "set_flag(PIPE_V, PIPE_S, EVENT_ID3);"
    )
    report = (
        compile_kernel(source, "tiny", ("X",))
        .run({"X": np.zeros(8, np.float32)}, default_machine())
        .report
    )
    assert report.unwaited_flags == 1
    assert "1 flag(s) raised and never waited for" in report.render()


def test_a_kernel_with_a_frame_larger_than_a_default_stack_runs() -> None:
    """Kernels of thousands of tiles have frames of megabytes (9.4 MB for a 4096-tile
    matmul): they run on a thread with a large stack instead of crashing the process."""
    big = TINY.replace(
        "  __ubuf__ float *x = (__ubuf__ float *)UB_BASE;",
        "  volatile float frame[12 << 18]; /* 12 MB */\n"
        "  frame[0] = 0.0f;\n"
        "  frame[(12 << 18) - 1] = frame[0];\n"
        "  __ubuf__ float *x = (__ubuf__ float *)UB_BASE;",
    )
    kernel = compile_kernel(big, "tiny", ("X",))
    out = kernel.run({"X": np.zeros(8, np.float32)}, default_machine())
    assert np.array_equal(out.buffers["X"], np.full(8, 1, np.float32))
