"""Special statements in the interpreter: zero, copy, reshape, shape, gather, scatter, prng."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from plaidc.interp import InterpError, run_program
from plaidc.stripe.ir import Block, DType, Index, Refinement, Special

from .support.interp import aff, block, idx, param, program, rand, ref

# --------------------------------------------------------------------------------------------
# Specials


def special_program(
    special: Special,
    params: Sequence[Refinement],
    inner_refs: Sequence[Refinement] | None = None,
    idxs: Sequence[Index] = (),
) -> Block:
    """The special inside one block (with the given indices) over the root's parameters."""
    refs = (
        inner_refs
        if inner_refs is not None
        else [
            ref(
                p.dir.value,
                p.into,
                p.access,
                p.shape.sizes,
                strides=p.shape.strides,
                dtype=p.shape.dtype,
            )
            for p in params
        ]
    )
    return program(params, [block("special", idxs, refs, [special])])


def test_special_zero_on_row_views_at_every_point() -> None:
    # zero() inside a 2-point block zeroes rows 0 and 2 of O (views at [2*i, 0]).
    prog = special_program(
        Special(name="zero", inputs=(), outputs=("R",)),
        [param("inout", "O", [3, 2])],
        [ref("out", "R", [aff(i=2), 0], [1, 2], strides=[2, 1], from_="O")],
        [idx("i", 2)],
    )
    out = run_program(prog, {"O": np.ones((3, 2), np.float32)})
    np.testing.assert_array_equal(out["O"], [[0, 0], [1, 1], [0, 0]])


@pytest.mark.parametrize("name", ["copy", "reshape"])
def test_special_copy_and_reshape_are_row_major(name: str) -> None:
    prog = special_program(
        Special(name=name, inputs=("I",), outputs=("O",)),
        [param("in", "I", [2, 6]), param("out", "O", [3, 4], DType.I32)],
    )
    data = np.arange(12, dtype=np.float32).reshape(2, 6) * 1.5
    out = run_program(prog, {"I": data})
    np.testing.assert_array_equal(out["O"], data.reshape(3, 4).astype(np.int32))


def test_special_copy_through_strided_view() -> None:
    # The input view is the transpose of I (strides (1, 3)): the copy reads it row-major.
    prog = special_program(
        Special(name="copy", inputs=("T",), outputs=("O",)),
        [param("in", "I", [2, 3]), param("out", "O", [3, 2])],
        [
            ref("in", "T", [0, 0], [3, 2], strides=[1, 3], from_="I"),
            ref("out", "O", [0, 0], [3, 2], strides=[2, 1]),
        ],
    )
    data = rand([2, 3])
    np.testing.assert_array_equal(run_program(prog, {"I": data})["O"], data.T)


def test_special_shape() -> None:
    prog = special_program(
        Special(name="shape", inputs=("I",), outputs=("O",)),
        [param("in", "I", [2, 5, 7]), param("out", "O", [3], DType.I32)],
    )
    out = run_program(prog, {"I": rand([2, 5, 7])})
    np.testing.assert_array_equal(out["O"], [2, 5, 7])


def test_special_gather_clamps_indices() -> None:
    prog = special_program(
        Special(name="gather", inputs=("V", "I"), outputs=("O",)),
        [
            param("in", "V", [4, 3]),
            param("in", "I", [2, 2], DType.I32),
            param("out", "O", [2, 2, 3]),
        ],
    )
    values = rand([4, 3])
    index = np.array([[0, 3], [-5, 9]], np.int32)
    out = run_program(prog, {"V": values, "I": index})
    np.testing.assert_array_equal(out["O"], values[np.clip(index, 0, 3)])


def test_special_scatter_adds_into_zeros() -> None:
    prog = special_program(
        Special(name="scatter", inputs=("E", "I", "V"), outputs=("O",)),
        [
            param("in", "E", [3, 2]),
            param("in", "I", [3], DType.I32),
            param("in", "V", [4, 2]),
            param("out", "O", [4, 2]),
        ],
    )
    updates = rand([3, 2])
    index = np.array([1, 3, 1], np.int32)
    expected = np.zeros((4, 2), np.float32)
    np.add.at(expected, index, updates)
    out = run_program(prog, {"E": updates, "I": index, "V": rand([4, 2], 1)})
    np.testing.assert_allclose(out["O"], expected, rtol=1e-6)


def test_special_scatter_out_of_range_raises() -> None:
    prog = special_program(
        Special(name="scatter", inputs=("E", "I", "V"), outputs=("O",)),
        [
            param("in", "E", [1]),
            param("in", "I", [1], DType.I32),
            param("in", "V", [2]),
            param("out", "O", [2]),
        ],
    )
    with pytest.raises(InterpError, match="scatter index 2 is outside"):
        run_program(prog, {"E": rand([1]), "I": np.array([2], np.int32), "V": rand([2])})


def test_special_output_aggregates_like_a_store() -> None:
    # copy() at 3 points, each writing the whole of O through O:add, sums the three rows.
    prog = special_program(
        Special(name="copy", inputs=("R",), outputs=("S",)),
        [param("in", "I", [3, 2]), param("out", "O", [2])],
        [
            ref("in", "R", ["i", 0], [1, 2], strides=[2, 1], from_="I"),
            ref("out", "S", [0], [2], from_="O", agg="add"),
        ],
        [idx("i", 3)],
    )
    data = rand([3, 2])
    np.testing.assert_allclose(run_program(prog, {"I": data})["O"], data.sum(axis=0), rtol=1e-6)


@pytest.mark.parametrize(
    ("name", "message"), [("prng_step", "not supported"), ("bogus", "unknown special")]
)
def test_unsupported_specials_raise(name: str, message: str) -> None:
    prog = special_program(
        Special(name=name, inputs=("I",), outputs=("O",)),
        [param("in", "I", [2]), param("out", "O", [2])],
    )
    with pytest.raises(InterpError, match=f"{message}.*|.*{message}"):
        run_program(prog, {"I": rand([2])})
