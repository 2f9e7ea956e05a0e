"""The CPU backends' runtime hands the entry outputs and temporaries on 64-byte boundaries
(numpy's large arrays start 16 bytes into a page: every 64-byte vector store would straddle
two cache lines), with the interpreter's contents: poison where nothing is written."""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.loopnest.runtime import ALIGNMENT, aligned_empty
from plaidc.stripe.ir import DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.bool_])
@pytest.mark.parametrize("count", [1, 3, 1000, 1 << 19])
def test_aligned_empty_is_aligned_and_of_the_asked_size(dtype: type, count: int) -> None:
    arrays = [aligned_empty(count, np.dtype(dtype)) for _ in range(4)]
    for a in arrays:
        assert a.ctypes.data % ALIGNMENT == 0
        assert a.shape == (count,) and a.dtype == dtype and a.flags.c_contiguous
        a[:] = 1  # writable, the whole extent


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_outputs_start_on_a_cache_line_and_keep_the_poison(target: str) -> None:
    # Y is written in full, Z only on its diagonal: the rest reads back as the interpreter's
    # poison value, so the aligned buffer is filled like the unaligned one was.
    source = "function (X[N, N]) -> (Y, Z) { Y = X * 2; Z[i, i : N, N] = =(X[i, i]); }"
    program = compile_tile(source, "a.tile", shapes={"X": (DType.FP32, (300, 300))}).program
    config = load_target(target)
    steps = driver.resolve_steps(config.stage("default"))
    artifact = get_backend(target).compile(driver.run_pipeline(program, steps), config)
    x = np.arange(300 * 300, dtype=np.float32).reshape(300, 300)
    out = artifact.run({"X": x})
    assert out["Y"].ctypes.data % ALIGNMENT == 0
    np.testing.assert_array_equal(out["Y"], x * 2)
    from plaidc.interp import run_program

    want = run_program(program, {"X": x})["Z"]
    np.testing.assert_array_equal(out["Z"], want)
