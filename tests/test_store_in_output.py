"""`store-in-output`: a row kernel's temporary (softmax's E, layernorm's D) lives in the output
window its last user writes, updated in place; refused where that would change a result."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import run_program
from plaidc.passes.store_in_output import StoreInOutputOptions, store_in_output
from plaidc.stripe.ir import Block, DType, RefDir, sub_blocks
from plaidc.stripe.parser import parse_stripe
from plaidc.targets import load_target
from plaidc.tile import compile_tile

# softmax 4x8 after the c pipeline's `localize` (the step before this pass): E is a local
# allocation of the row kernel, read by the last block, which writes Y at the same element.
SOFTMAX_ROWS = (Path(__file__).parent / "data" / "softmax_rows_localized.stripe").read_text()
FINAL = "block [i1:4, i2:8]:32 ( // kernel_3(E,S)"

SOFTMAX = """function (X[B, N]) -> (Y) {
  M[b, 0 : B, 1] = >(X[b, n]); E = exp(X - M); S[b, 0 : B, 1] = +(E[b, n]); Y = E / S;
}"""
SOFTMAX_3D = """function (X[A, B, N]) -> (Y) {
  M[a, b, 0 : A, B, 1] = >(X[a, b, n]); E = exp(X - M);
  S[a, b, 0 : A, B, 1] = +(E[a, b, n]); Y = E / S;
}"""
LAYERNORM = """function (X[B, N], G[N], H[N]) -> (Y) {
  S[b, 0 : B, 1] = +(X[b, n]); Mean = S / N; D = X - Mean; D2 = D * D;
  V[b, 0 : B, 1] = +(D2[b, n]); Var = V / N; Y = D / sqrt(Var + 1e-5) * G + H;
}"""


def local_allocations(block: Block) -> list[str]:
    """Names of the allocations (`none` refinements, not `#user`) of more than one element."""
    found = [
        r.into
        for r in block.refs
        if r.dir is RefDir.NONE
        and r.from_ is None
        and r.shape.elem_count > 1
        and "user" not in r.tags
    ]
    for child in sub_blocks(block):
        found += local_allocations(child)
    return found


def inputs(program: Block, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    main = next(iter(sub_blocks(program)))
    return {
        r.into: (rng.standard_normal(r.shape.sizes) * 30).astype(np.float32)
        for r in main.refs
        if r.dir is RefDir.IN
    }


def test_the_temporary_moves_into_the_output_window() -> None:
    program = parse_stripe(SOFTMAX_ROWS)
    assert "E" in local_allocations(program)
    moved = store_in_output(program, StoreInOutputOptions())
    assert "E" not in local_allocations(moved)
    assert "E = Y[" in str(moved)  # the producer writes the row into Y's window
    x = inputs(program)
    np.testing.assert_array_equal(run_program(moved, x)["Y"], run_program(program, x)["Y"])


def test_a_last_user_writing_part_of_the_window_keeps_the_temporary() -> None:
    # The last block writes half of each row: E's other half would be left in Y.
    text = SOFTMAX_ROWS.replace(FINAL, "block [i1:4, i2:4]:16 ( // kernel_3(E,S)")
    program = parse_stripe(text)
    assert "E" in local_allocations(store_in_output(program, StoreInOutputOptions()))


def test_a_last_user_reading_another_element_keeps_the_temporary() -> None:
    # Y[i] = E[7 - i] / S: writing Y[i] in place would clobber E[i] before another point reads it.
    lines = SOFTMAX_ROWS.splitlines()
    at = next(i for i, line in enumerate(lines) if FINAL in line)
    assert "in E[i1, i2]" in lines[at + 2]
    lines[at + 2] = lines[at + 2].replace("in E[i1, i2]", "in E[i1, -i2 + 7]")
    program = parse_stripe("\n".join(lines))
    moved = store_in_output(program, StoreInOutputOptions())
    assert "E" in local_allocations(moved)
    x = inputs(program)
    np.testing.assert_array_equal(run_program(moved, x)["Y"], run_program(program, x)["Y"])


def pipelined(source: str, target: str, **shapes: tuple[int, ...]) -> Block:
    typed = {name: (DType.FP32, shape) for name, shape in shapes.items()}
    program = compile_tile(source, "rows.tile", shapes=typed).program
    config = load_target(target)
    return driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))


def softmax_ref(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("target", ["c", "llvm"])
@pytest.mark.parametrize("shape", [(7, 33), (13, 4099), (3, 50000), (2, 5, 37), (3, 4, 1000)])
def test_softmax_rows_run_in_the_output_on_odd_and_3d_shapes(
    target: str, shape: tuple[int, ...]
) -> None:
    source = SOFTMAX if len(shape) == 2 else SOFTMAX_3D
    program = pipelined(source, target, X=shape)
    assert "E" not in local_allocations(program)
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(shape) * 40).astype(np.float32)  # rows of large dynamic range
    got = get_backend(target).compile(program, load_target(target)).run({"X": x})["Y"]
    np.testing.assert_allclose(got, softmax_ref(x.astype(np.float64)), rtol=2e-5, atol=1e-30)


@pytest.mark.parametrize("target", ["c", "llvm"])
@pytest.mark.parametrize(("rows", "cols"), [(5, 4099), (33, 1000)])
def test_layernorm_rows_run_in_the_output(target: str, rows: int, cols: int) -> None:
    program = pipelined(LAYERNORM, target, X=(rows, cols), G=(cols,), H=(cols,))
    assert "D" not in local_allocations(program)
    rng = np.random.default_rng(4)
    x = (rng.standard_normal((rows, cols)) * 1e3 + 5e3).astype(np.float32)
    g, h = (
        rng.standard_normal(cols).astype(np.float32),
        rng.standard_normal(cols).astype(np.float32),
    )
    got = get_backend(target).compile(program, load_target(target)).run({"X": x, "G": g, "H": h})
    x64 = x.astype(np.float64)
    mu = x64.mean(axis=1, keepdims=True)
    want = (x64 - mu) / np.sqrt(x64.var(axis=1, keepdims=True) + 1e-5) * g + h
    np.testing.assert_allclose(got["Y"], want, rtol=1e-4, atol=1e-4)
