"""Every illegal use of the hardware is a NpuSimError naming the instruction, its line in the
generated C and the bytes involved (tests/npu_kernels/errors.c marks the line to blame)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from plaidc.backends.npu_sim import NpuSimError

from .support.npu_sim import default_machine, error_line, run

RANGE = re.compile(r"bytes \[-?0x[0-9a-f]+, -?0x[0-9a-f]+\)")

# kernel -> (instruction blamed, fragments the message must contain)
CASES: dict[str, tuple[str, tuple[str, ...]]] = {
    "misaligned_ub": (
        "copy_gm_to_ubuf",
        ("misaligned dst", "UB bytes [0x10, 0x50)", "32-byte alignment"),
    ),
    "misaligned_l0a": (
        "load_cbuf_to_ca",
        ("misaligned dst", "L0A bytes [0x100, 0x300)", "512-byte alignment"),
    ),
    "ub_capacity": ("vector_dup", ("UB bytes [0x40000, 0x40020)", "outside UB (capacity 262144")),
    "gm_overrun": (
        "copy_gm_to_ubuf",
        ("GM 'X' bytes [0x0, 0x80)", "past the end of 'X' (64 bytes)"),
    ),
    "vector_on_l1": (
        "vadd",
        (
            "illegal data path",
            "src0 is in L1 (L1 bytes [0x0, 0x100))",
            "vector unit accesses only UB",
        ),
    ),
    "cube_reads_ub": (
        "mad",
        ("illegal data path", "a is in UB (UB bytes [0x0, 0x200))", "left operand only from L0A"),
    ),
    "dma_wrong_memory": (
        "copy_gm_to_ubuf",
        ("illegal data path", "dst is in L1 (L1 bytes [0x0, 0x40))", "writes only UB"),
    ),
    "raw_mte2_v": (
        "vrelu",
        (
            "read-after-write hazard",
            "src UB bytes [0x0, 0x20) on PIPE_V",
            "copy_gm_to_ubuf at errors.c:",
            "PIPE_MTE2",
        ),
    ),
    "war_v_mte2": (
        "copy_gm_to_ubuf",
        (
            "write-after-read hazard",
            "dst UB bytes [0x0, 0x100) on PIPE_MTE2",
            "still being read by vrelu at errors.c:",
            "PIPE_V",
        ),
    ),
    "waw_v_mte2": (
        "copy_gm_to_ubuf",
        ("write-after-write hazard", "dst UB bytes [0x0, 0x100) on PIPE_MTE2", "vector_dup"),
    ),
    "raw_m_v": (
        "copy_matrix_cc_to_ubuf",
        ("read-after-write hazard", "src L0C bytes [0x0, 0x400) on PIPE_V", "mad at errors.c:"),
    ),
    "raw_v_mte3": (
        "copy_ubuf_to_gm",
        ("read-after-write hazard", "src UB bytes [0x0, 0x100) on PIPE_MTE3", "vector_dup"),
    ),
    "sync_too_early": (
        "copy_ubuf_to_gm",
        ("read-after-write hazard", "src UB bytes [0x0, 0x100)", "vector_dup at errors.c:"),
    ),
    "raw_mte2_s": (
        "ld_ubuf",
        (
            "read-after-write hazard",
            "UB bytes [0xc, 0x10) on PIPE_S",
            "copy_gm_to_ubuf",
            "PIPE_MTE2",
        ),
    ),
    "scalar_store_to_l1": ("st_ubuf", ("illegal data path", "reach only UB")),
    "wrong_element_type": ("vadd", ("src0 is float *, but needs half *",)),
    "repeat_too_large": ("vexp", ("repeat = 256 is outside [1, 255]",)),
    "not_an_npu_address": ("copy_gm_to_ubuf", ("src", "is not an NPU address")),
}
NO_RANGE = {"wrong_element_type", "repeat_too_large", "not_an_npu_address"}


def _fail(kernel: str) -> NpuSimError:
    # X: 256 fp32 (1 KiB), except where the kernel must run past a 64-B argument
    x = np.zeros(16 if kernel == "gm_overrun" else 256, np.float32)
    with pytest.raises(NpuSimError) as caught:
        run("errors.c", kernel, {"X": x})
    return caught.value


def _fail_half(kernel: str) -> NpuSimError:
    with pytest.raises(NpuSimError) as caught:
        run("errors.c", kernel, {"A": np.zeros(256, np.float16)})
    return caught.value


@pytest.mark.parametrize("kernel", sorted(CASES))
def test_error_names_instruction_line_and_bytes(kernel: str) -> None:
    instruction, fragments = CASES[kernel]
    err = _fail_half(kernel) if kernel == "misaligned_l0a" else _fail(kernel)
    message = str(err)
    line = error_line("errors.c", kernel)
    assert err.instruction == instruction
    assert (err.file, err.line) == ("errors.c", line)
    assert message.startswith(f"errors.c:{line}:1: error: {instruction}: "), message
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    if kernel not in NO_RANGE:
        assert RANGE.search(message), message


def test_hazard_names_the_other_instruction_line() -> None:
    err = _fail("raw_mte2_v")
    load_line = error_line("errors.c", "raw_mte2_v") - 1  # the copy_gm_to_ubuf just above
    assert f"copy_gm_to_ubuf at errors.c:{load_line} on PIPE_MTE2" in str(err)
    # the note says which flag would fix it
    assert err.diagnostics[0].notes == (
        f"set_flag(PIPE_MTE2, PIPE_V, EVENT_IDn) after errors.c:{load_line} and "
        f"wait_flag(PIPE_MTE2, PIPE_V, EVENT_IDn) before errors.c:{load_line + 1} would order them",
    )


def test_deadlock() -> None:
    err = _fail("deadlock")
    message = str(err)
    assert err.instruction == "wait_flag"
    assert err.line == error_line("errors.c", "deadlock")
    assert "deadlock" in message
    assert "wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID1)" in message
    assert "no earlier set_flag(PIPE_MTE2, PIPE_V, EVENT_ID1)" in message


def test_flag_raised_twice() -> None:
    err = _fail("double_set")
    assert err.instruction == "set_flag"
    assert err.line == error_line("errors.c", "double_set")
    assert f"already raised (set_flag at errors.c:{err.line - 1})" in str(err)


def test_cross_core_race() -> None:
    # one core alone is fine; two cores writing the same GM bytes race
    run("errors.c", "cores_race", {"X": np.zeros(64, np.float32)})
    with pytest.raises(NpuSimError) as caught:
        run(
            "errors.c",
            "cores_race",
            {"X": np.zeros(64, np.float32)},
            machine=default_machine().replace(cores=2),
        )
    message = str(caught.value)
    assert caught.value.line == error_line("errors.c", "cores_race")
    assert "cross-core race: core 1 writes GM 'X' bytes [0x0, 0x100)" in message
    assert "core 0 writes" in message


def test_capacity_comes_from_the_machine() -> None:
    # the kernel that overflows a 256 KiB UB is legal on a machine with a bigger UB
    machine = default_machine().replace(ub_bytes=512 * 1024)
    run("errors.c", "ub_capacity", {"X": np.zeros(256, np.float32)}, machine=machine)


def test_alignment_comes_from_the_machine() -> None:
    machine = default_machine().replace(ub_align=16)
    run("errors.c", "misaligned_ub", {"X": np.zeros(256, np.float32)}, machine=machine)


def test_cross_core_barrier_orders_cores() -> None:
    # core k writes its half of X and, after the barrier, copies the other core's half to Y
    machine = default_machine().replace(cores=2)
    buffers = {"X": np.zeros(128, np.float32), "Y": np.zeros(128, np.float32)}
    done = run("errors.c", "cores_exchange", buffers, machine=machine)
    np.testing.assert_array_equal(done.buffers["Y"][:64], np.full(64, 2.0, np.float32))
    np.testing.assert_array_equal(done.buffers["Y"][64:], np.full(64, 1.0, np.float32))
    report = done.report
    assert report.core_barriers == 1
    # both cores resume core_barrier_latency cycles after the later arrival, and both
    # did the same work: their clocks agree, and the run lasts at least the latency
    assert report.core_cycles[0] == report.core_cycles[1] == report.total_cycles
    assert report.total_cycles > machine.core_barrier_latency
    longer = run(
        "errors.c", "cores_exchange", buffers, machine=machine.replace(core_barrier_latency=1000)
    )
    assert longer.report.total_cycles == report.total_cycles - machine.core_barrier_latency + 1000
    # the same kernel without the barrier: the GM race check sees core 1 overwrite what
    # core 0 read
    with pytest.raises(NpuSimError) as caught:
        run("errors.c", "cores_exchange", buffers, "NO_CORE_BARRIER", machine=machine)
    assert caught.value.line == error_line("errors.c", "cores_exchange")
    assert "cross-core race: core 1 writes GM 'X'" in str(caught.value)


def test_cross_core_barrier_every_core_must_reach() -> None:
    run("errors.c", "cores_barrier_skipped", {"X": np.zeros(8, np.float32)})  # one core: fine
    with pytest.raises(NpuSimError) as caught:
        machine = default_machine().replace(cores=2)
        run("errors.c", "cores_barrier_skipped", {"X": np.zeros(8, np.float32)}, machine=machine)
    assert caught.value.line == error_line("errors.c", "cores_barrier_skipped")
    assert "deadlock: core 0 waits at sync_all_cores, which core 1 finished" in str(caught.value)
