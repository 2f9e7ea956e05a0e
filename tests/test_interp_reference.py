"""The interpreter on real PlaidML 0.7 dumps (every pass of its CPU pipeline) and on Figure 5.

Each dump folder holds the Tile program's inputs and the expected outputs (from an independent
numpy implementation); `names.json` maps Tile names to the buffer names PlaidML gave them.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from plaidc.interp import program_io, run_program
from plaidc.stripe.parser import parse_stripe

from .support import EXAMPLES, REFERENCE_DUMPS

DUMPS = REFERENCE_DUMPS


def test_reference_dumps_are_present() -> None:
    # Guards the parametrised test below against silently collecting nothing.
    assert len(DUMPS) >= 5 * 14


@pytest.mark.parametrize("dump", DUMPS, ids=[f"{p.parents[1].name}/{p.stem}" for p in DUMPS])
def test_plaidml_dump_reproduces_expected(dump: Path) -> None:
    folder = dump.parents[1]
    names = json.loads((folder / "names.json").read_text())
    with np.load(folder / "inputs.npz") as data:
        inputs = {names[k]: data[k] for k in data.files}
    with np.load(folder / "expected.npz") as data:
        expected = {names[k]: data[k] for k in data.files}
    program = parse_stripe(dump.read_text(), str(dump))
    io = program_io(program)
    assert set(io.inputs) == set(inputs)
    assert set(io.outputs) == set(expected)
    outputs = run_program(program, inputs)
    for name, want in expected.items():
        np.testing.assert_allclose(outputs[name], want, rtol=1e-4, atol=1e-5, err_msg=name)


def conv_reference(image: np.ndarray, filters: np.ndarray) -> np.ndarray:
    """Figure 5's 3x3 'same' convolution, O[x, y, k] = sum I[x+i-1, y+j-1, c] * F[i, j, k, c],
    in i8 arithmetic (exact sums wrapped to 8 bits, which is what i8 mul/add give)."""
    padded = np.pad(image.astype(np.int64), ((1, 1), (1, 1), (0, 0)))
    h, w, _ = image.shape
    out = np.zeros((h, w, filters.shape[2]), np.int64)
    for i in range(3):
        for j in range(3):
            out += np.einsum(
                "xyc,kc->xyk", padded[i : i + h, j : j + w], filters[i, j].astype(np.int64)
            )
    return out.astype(np.int8)


@pytest.mark.parametrize("seed", [0, 1])
def test_figure5_before_and_after_tiling_agree(seed: int) -> None:
    before = parse_stripe((EXAMPLES / "fig5a.stripe").read_text(), "fig5a.stripe")
    after = parse_stripe((EXAMPLES / "fig5b.stripe").read_text(), "fig5b.stripe")
    rng = np.random.default_rng(seed)
    io = program_io(before)
    assert io == program_io(after)
    inputs = {
        name: rng.integers(-128, 128, size=shape.sizes).astype(np.int8)
        for name, shape in io.inputs.items()
    }
    out_before = run_program(before, inputs)
    out_after = run_program(after, inputs)
    np.testing.assert_array_equal(out_before["O"], out_after["O"])
    np.testing.assert_array_equal(out_before["O"], conv_reference(inputs["I"], inputs["F"]))
