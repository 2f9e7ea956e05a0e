"""The CPU backends' call path (`plaidc.backends.loopnest.runtime.run_plan`): inputs of every
kind reach the entry with the interpreter's values, bad inputs are reported before the entry
runs, and the data addresses it reads from ndarray objects are numpy's own."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.loopnest import runtime
from plaidc.diagnostics import CompileError
from plaidc.interp import run_program
from plaidc.stripe.ir import DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile

SOURCE = "function (X[M, N], W[N]) -> (Y) { Y = X * W + 1; }"


def _artifact(target: str, dtype: DType = DType.FP32) -> tuple[object, object]:
    shapes = {"X": (dtype, (5, 7)), "W": (dtype, (7,))}
    program = compile_tile(SOURCE, "a.tile", shapes=shapes).program
    config = load_target(target)
    steps = driver.resolve_steps(config.stage("default"))
    return program, get_backend(target).compile(driver.run_pipeline(program, steps), config)


def _arrays() -> tuple[np.ndarray, np.ndarray]:
    x = np.arange(35, dtype=np.float32).reshape(5, 7) / 8
    return x, np.linspace(-2, 2, 7, dtype=np.float32)


class _Sub(np.ndarray):
    """An ndarray subclass (passed through the buffer protocol, converted like any array)."""


def _frozen(a: np.ndarray) -> np.ndarray:
    a = a.copy()
    a.flags.writeable = False
    return a


# Each: what is passed for X and W; the entry must see the same values as the interpreter.
INPUT_KINDS = {
    "contiguous": lambda x, w: (x, w),
    "read-only": lambda x, w: (_frozen(x), _frozen(w)),
    "transposed view": lambda x, w: (np.asfortranarray(x), w),
    "strided view": lambda x, w: (np.repeat(x, 2, axis=1)[:, ::2], np.repeat(w, 3)[::3]),
    "offset view": lambda x, w: (np.vstack([x, x])[5:], np.concatenate([w, w])[7:]),
    "float64": lambda x, w: (x.astype(np.float64), w.astype(np.float64)),
    "lists": lambda x, w: (x.tolist(), w.tolist()),
    "subclass": lambda x, w: (x.view(_Sub), w.view(_Sub)),
}


@pytest.mark.parametrize("target", ["c", "llvm"])
@pytest.mark.parametrize("kind", sorted(INPUT_KINDS))
def test_every_kind_of_input_reaches_the_entry_as_its_values(target: str, kind: str) -> None:
    program, artifact = _artifact(target)
    x, w = _arrays()
    px, pw = INPUT_KINDS[kind](x, w)
    got = artifact.run({"X": px, "W": pw})["Y"]
    want = run_program(program, {"X": x, "W": w})["Y"]
    np.testing.assert_array_equal(got, want)
    assert got.shape == (5, 7) and got.dtype == np.float32


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_repeated_calls_get_fresh_outputs(target: str) -> None:
    _, artifact = _artifact(target)
    x, w = _arrays()
    first = artifact.run({"X": x, "W": w})["Y"]
    kept = first.copy()
    second = artifact.run({"X": x * 2, "W": w})["Y"]
    assert not np.shares_memory(first, second)
    np.testing.assert_array_equal(first, kept)
    np.testing.assert_array_equal(second, x * 2 * w + 1)


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        (lambda x, w: {"X": x}, r"missing input 'W' of shape fp32\(7\)"),
        (lambda x, w: {"X": x, "W": w[:6]}, r"input 'W' has shape \(6,\), but the program"),
        (lambda x, w: {"X": x.T, "W": w}, r"input 'X' has shape \(7, 5\)"),
        (lambda x, w: {"X": x, "W": w, "Z": w}, r"unknown input 'Z'"),
        (lambda x, w: {"X": x, "V": w}, r"missing input 'W'(.|\n)*unknown input 'V'"),
    ],
)
def test_bad_inputs_are_reported_before_the_entry_runs(inputs: object, message: str) -> None:
    _, artifact = _artifact("c")
    x, w = _arrays()
    calls = []

    def entry(table: int) -> None:
        calls.append(table)

    with pytest.raises(CompileError, match=message):
        runtime.run_plan(artifact.plan, entry, inputs(x, w))  # type: ignore[operator]
    assert not calls


def test_an_input_given_as_an_equal_tuple_shape_is_accepted() -> None:
    # a nested list's shape is a tuple like the buffer's sizes: no error, the values converted
    program, artifact = _artifact("c")
    x, w = _arrays()
    got = artifact.run({"X": [list(r) for r in x], "W": tuple(w)})["Y"]
    np.testing.assert_array_equal(got, run_program(program, {"X": x, "W": w})["Y"])


@pytest.mark.parametrize(
    "array",
    [
        np.empty(3, np.float32),
        np.zeros((4, 5), np.int8)[1:, 2:],
        np.arange(10.0)[::-3],
        _frozen(np.arange(6.0)),
        np.asarray(np.float64(2)),
        np.empty(0, np.int32),
        np.asfortranarray(np.ones((3, 4))),
        np.ones((2, 2)).view(_Sub),  # a subclass: through the buffer protocol
    ],
)
def test_data_addresses_are_numpys(array: np.ndarray) -> None:
    if array.size:
        assert runtime._address(array) == array.ctypes.data
    else:
        assert runtime._address(array) in (array.ctypes.data, 0)


def test_the_data_offset_is_found_on_cpython() -> None:
    # where it is not (another interpreter), addresses come through the buffer protocol
    import sys

    if sys.implementation.name == "cpython":
        assert object.__basicsize__ == runtime._DATA_OFFSET
        probe = np.arange(4.0)
        found = ctypes.c_void_p.from_address(id(probe) + runtime._DATA_OFFSET).value
        assert found == probe.ctypes.data
