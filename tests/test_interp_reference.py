"""The interpreter on real PlaidML 0.7 dumps (every pass of its CPU pipeline) and on Figure 5.

Each dump folder holds the Tile program's inputs and the expected outputs (from an independent
numpy implementation); `names.json` maps Tile names to the buffer names PlaidML gave them.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from plaidc import driver
from plaidc.interp import InterpError, program_io, run_program
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe
from plaidc.stripe.verify import verify

from .support import EXAMPLES, REFERENCE, REFERENCE_DUMPS, REFERENCE_PROGRAMS

DUMPS = REFERENCE_DUMPS

# PlaidML's lowering gives its `#zero` block a `dst` view with unit strides (`I(1, 1):(1, 1)`),
# which its next, undumped, step rewrites to the buffer's strides. Read as STRIPE.md says (a
# view's strides are the buffer's), the initial dumps of `padassign` zero the first 10 flat
# elements only and leave the rest of the border unwritten: the interpreter shows them as its
# poison NaN. Every other element must be right, and no other dump may leave any unwritten.
PRE_FIXUP_ZERO = {
    f"padassign/{stage}" for stage in ("00_initial", "01_localize_tmps", "02_prune_refs")
}


def test_reference_dumps_are_present() -> None:
    # Guards the parametrised test below against silently collecting nothing.
    assert len(DUMPS) >= 9 * 14


def _dump_id(dump: Path) -> str:
    return f"{dump.parents[1].name}/{dump.stem}"


@pytest.mark.parametrize("dump", DUMPS, ids=[_dump_id(p) for p in DUMPS])
def test_plaidml_dump_reproduces_expected(dump: Path) -> None:
    """Each dump parses, verifies, prints back identically after a reparse, and interprets to
    the numpy reference outputs on the recorded inputs."""
    folder = dump.parents[1]
    names = json.loads((folder / "names.json").read_text())
    with np.load(folder / "inputs.npz") as data:
        inputs = {names[k]: data[k] for k in data.files}
    with np.load(folder / "expected.npz") as data:
        expected = {names[k]: data[k] for k in data.files}
    program = parse_stripe(dump.read_text(), str(dump))
    assert verify(program) == []
    text = print_stripe(program)
    assert print_stripe(parse_stripe(text, "reprinted.stripe")) == text
    io = program_io(program)
    assert set(io.inputs) == set(inputs)
    assert set(io.outputs) == set(expected)
    outputs = run_program(program, inputs)
    for name, want in expected.items():
        got = outputs[name]
        if _dump_id(dump) in PRE_FIXUP_ZERO:
            unwritten = np.isnan(got)
            assert unwritten.any()
            got, want = got[~unwritten], want[~unwritten]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg=name)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("folder", REFERENCE_PROGRAMS)
def test_every_stage_agrees_with_the_initial_dump_on_random_inputs(folder: str, seed: int) -> None:
    stages = sorted((REFERENCE / folder / "stripe").glob("*.stripe"))
    programs = [parse_stripe(p.read_text(), str(p)) for p in stages]
    inputs = driver.random_inputs(program_io(programs[0]).inputs, seed=seed)
    want = run_program(programs[0], inputs)
    for path, program in zip(stages[1:], programs[1:], strict=True):
        got = run_program(program, inputs)
        for name, value in want.items():
            written = ~np.isnan(value)
            np.testing.assert_allclose(
                got[name][written], value[written], rtol=1e-4, atol=1e-5, err_msg=str(path)
            )
            assert not np.isnan(got[name]).any() or _dump_id(path) in PRE_FIXUP_ZERO, path


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


ZERO_BLOCK = """\
block [] ( // prog
    out B[0] fp32(3):(1)
) {
  0: block [i:2, k:2] ( // zero
      out B[i + k] fp32(1):(1)
  ) {
    0: $z = (float)0
    1: B = store($z)
  }
}
"""


def test_points_storing_one_value_into_an_element_agree_under_assign() -> None:
    """STRIPE.md semantics rule 3 as PlaidML's `#zero` blocks need it; different values are
    still an error."""
    out = run_program(parse_stripe(ZERO_BLOCK, "z.stripe"), {})
    np.testing.assert_array_equal(out["B"], np.zeros(3, np.float32))
    differing = ZERO_BLOCK.replace("$z = (float)0", "$z = load_index(k)")
    with pytest.raises(InterpError, match="with different values, at element 1 of buffer 'B'"):
        run_program(parse_stripe(differing, "z.stripe"), {})
