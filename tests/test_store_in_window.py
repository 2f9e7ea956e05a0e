"""`store-in-window`: a temporary that one copy moves into a zero-padded buffer (a padded
convolution's input) is written in that buffer's window, and only the border is zeroed;
refused where the copy is not a translation of the whole temporary or the buffer is used
otherwise. Checked against the interpreter before the pass and on c and llvm."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import run_program
from plaidc.passes.store_in_window import StoreInWindowOptions, store_in_window
from plaidc.stripe.ir import Block, Special, sub_blocks
from plaidc.targets import load_target
from plaidc.tile import compile_tile

# relu, then a copy into the window [1, 1] of P (one row above, two rows below, one column
# left, three right), then a 3x3 convolution reading P: the import's padded convolution input.
PADDED_CONV = """function (I[N, H, W, C], K[3, 3, C, M]) -> (O) {
  R = relu(I);
  P[n, y, x, c : N, PH, PW, C] = =(R[n, y - 1, x - 1, c]);
  O[n, y, x, m : N, OH, OW, M] = +(P[n, y + i, x + j, c] * K[i, j, c, m]);
}"""
# R is also read after the copy (a residual branch): its readers read the window.
RESIDUAL = """function (I[N, H, W, C], K[3, 3, C, C]) -> (O) {
  R = relu(I);
  P[n, y, x, c : N, H + 2, W + 2, C] = =(R[n, y - 1, x - 1, c]);
  T[n, y, x, m : N, H, W, C] = +(P[n, y + i, x + j, c] * K[i, j, c, m]);
  O = T + R;
}"""
# A transposing copy of a program input (the import's first padded convolution): it stays, but
# only the border around what it writes is zeroed.
TRANSPOSED = """function (I[N, C, H, W], K[3, 3, C, M]) -> (O) {
  P[n, y, x, c : N, H + 3, W + 2, C] = =(I[n, c, y - 2, x - 1]);
  O[n, y, x, m : N, H + 1, W, M] = +(P[n, y + i, x + j, c] * K[i, j, c, m]);
}"""
# Copies that are no translation of all of R: every other row, and a part of R.
STRIDED = """function (I[N, H, W, C]) -> (O) {
  R = relu(I);
  P[n, y, x, c : N, H, W + 2, C] = =(R[n, 2 * y, x - 1, c]);
  O = P * 2.0;
}"""
PART = """function (I[N, H, W, C]) -> (O) {
  R = relu(I);
  P[n, y, x, c : N, H, W + 2, C] = =(R[n, y, x - 1, c]), y < 3;
  O = P * 2.0;
}"""
# R also reshaped: a reshape reads its view's elements in a flat order, so R keeps its buffer.
RESHAPED = """function (I[N, H, W, C]) -> (O, F) {
  R = relu(I);
  P[n, y, x, c : N, H + 2, W + 2, C] = =(R[n, y - 1, x - 1, c]);
  O = P * 2.0;
  F = reshape(R, N * H * W * C);
}"""
# A sum into P of one term per element is the same values, but no plain copy.
SUMMED = """function (I[N, H, W, C]) -> (O) {
  R = relu(I);
  P[n, y, x, c : N, H + 2, W + 2, C] = +(R[n, y - 1, x - 1, c]);
  O = P * 2.0;
}"""


def lowered(source: str, **dims: int) -> Block:
    return compile_tile(source, "window.tile", dims=dims).program


def pipelined(source: str, target: str, **dims: int) -> Block:
    config = load_target(target)
    return driver.run_pipeline(
        lowered(source, **dims), driver.resolve_steps(config.stage("default"))
    )


def blocks(program: Block) -> list[Block]:
    found = []
    for child in sub_blocks(program):
        found.append(child)
        found += blocks(child)
    return found


def zeroed_elements(program: Block) -> int:
    return sum(
        b.refs[0].shape.elem_count
        for b in blocks(program)
        if any(isinstance(s, Special) and s.name == "zero" for s in b.stmts)
    )


def copies_of(program: Block, name: str) -> int:
    """Blocks reading `name` that write nothing else than one element of a copy."""
    return sum(
        1
        for b in blocks(program)
        if b.idxs and any(r.from_ == name for r in b.refs) and "assign" in str(b)
    )


def inputs(program: Block, seed: int = 0) -> dict[str, np.ndarray]:
    from plaidc.interp import program_io

    rng = np.random.default_rng(seed)
    return {
        name: rng.standard_normal(shape.sizes).astype(np.float32)
        for name, shape in program_io(program).inputs.items()
    }


@pytest.mark.parametrize(
    ("source", "dims"),
    [
        (PADDED_CONV, dict(N=1, H=6, W=5, C=3, M=4, PH=9, PW=9, OH=7, OW=7)),
        (PADDED_CONV, dict(N=2, H=5, W=7, C=16, M=5, PH=7, PW=9, OH=5, OW=7)),
        (RESIDUAL, dict(N=2, H=4, W=3, C=5)),
    ],
)
def test_the_copy_goes_and_only_the_border_is_zeroed(source: str, dims: dict[str, int]) -> None:
    program = lowered(source, **dims)
    assert copies_of(program, "R") == 1
    moved = store_in_window(program, StoreInWindowOptions())
    assert copies_of(moved, "R") == 0
    assert "R = P[" in str(moved)  # relu writes P's window
    n, h, w, c = dims["N"], dims["H"], dims["W"], dims["C"]
    padded = n * dims.get("PH", h + 2) * dims.get("PW", w + 2) * c
    assert zeroed_elements(program) == padded
    assert zeroed_elements(moved) == padded - n * h * w * c
    x = inputs(program)
    want = run_program(program, x)["O"]
    np.testing.assert_array_equal(run_program(moved, x)["O"], want)


@pytest.mark.parametrize(("n", "c", "h", "w"), [(1, 3, 7, 5), (2, 16, 4, 9)])
def test_a_transposing_copy_of_an_input_stays_and_its_border_is_zeroed(
    n: int, c: int, h: int, w: int
) -> None:
    program = lowered(TRANSPOSED, N=n, C=c, H=h, W=w, M=4)
    moved = store_in_window(program, StoreInWindowOptions())
    assert copies_of(moved, "I") == 1
    padded = n * (h + 3) * (w + 2) * c
    assert zeroed_elements(program) == padded
    assert zeroed_elements(moved) == padded - n * h * w * c
    x = inputs(program)
    np.testing.assert_array_equal(run_program(moved, x)["O"], run_program(program, x)["O"])


@pytest.mark.parametrize("source", [STRIDED, PART, SUMMED, RESHAPED])
def test_copies_that_are_no_window_of_the_whole_temporary_stay(source: str) -> None:
    program = lowered(source, N=1, H=6, W=5, C=3)
    moved = store_in_window(program, StoreInWindowOptions())
    assert copies_of(moved, "R") == 1  # (the zeroing may still shrink to what it misses)
    x = inputs(program)
    got, want = run_program(moved, x), run_program(program, x)
    for name in want:
        np.testing.assert_array_equal(got[name], want[name])


def test_a_buffer_written_again_after_the_copy_stays() -> None:
    # P zeroed a second time after the copy: its window must not hold R's values.
    program = lowered(PADDED_CONV, N=1, H=6, W=5, C=3, M=4, PH=9, PW=9, OH=7, OW=7)
    main = next(iter(sub_blocks(program)))
    zero = next(i for i, s in enumerate(main.stmts) if "zero" in s.tags)
    stmts = (*main.stmts[: zero + 2], main.stmts[zero], *main.stmts[zero + 2 :])
    rest = tuple(s for s in program.stmts if s is not main)
    again = dataclasses.replace(program, stmts=(dataclasses.replace(main, stmts=stmts), *rest))
    moved = store_in_window(again, StoreInWindowOptions())
    assert copies_of(moved, "R") == 1
    x = inputs(again)
    assert not run_program(again, x)["O"].any()  # O reads a zero P
    np.testing.assert_array_equal(run_program(moved, x)["O"], run_program(again, x)["O"])


def test_a_program_output_is_never_the_window() -> None:
    source = """function (I[N, H, W, C]) -> (P) {
      R = relu(I);
      P[n, y, x, c : N, H + 2, W + 2, C] = =(R[n, y - 1, x - 1, c]);
    }"""
    program = lowered(source, N=1, H=4, W=4, C=2)
    moved = store_in_window(program, StoreInWindowOptions())
    assert copies_of(moved, "R") == 1
    x = inputs(program)
    np.testing.assert_array_equal(run_program(moved, x)["P"], run_program(program, x)["P"])


@pytest.mark.parametrize("target", ["c", "llvm"])
@pytest.mark.parametrize(
    ("source", "dims"),
    [
        (PADDED_CONV, dict(N=1, H=13, W=11, C=24, M=40, PH=16, PW=15, OH=14, OW=13)),
        (PADDED_CONV, dict(N=2, H=9, W=17, C=3, M=17, PH=11, PW=19, OH=9, OW=17)),
        (RESIDUAL, dict(N=1, H=14, W=14, C=33)),
    ],
)
def test_padded_convolutions_run_on_the_cpu(source: str, dims: dict[str, int], target: str) -> None:
    program = pipelined(source, target, **dims)
    assert copies_of(program, "R") == 0  # the pass ran in the target's pipeline
    source_program = lowered(source, **dims)
    x = inputs(source_program, seed=5)
    got = get_backend(target).compile(program, load_target(target)).run(x)["O"]
    want = run_program(source_program, x)["O"]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_an_imported_padded_convolution_matches_onnxruntime(tmp_path: Path) -> None:
    """A 1x1 conv padded (1, 0) above/left, (2, 1) below/right (the input's transposing copy
    keeps, its border is zeroed) -> BatchNormalization -> Relu -> a conv padded (1, 2), (0, 1),
    stride 2, on 7 channels and batch 2: the relu writes the padded buffer."""
    onnx = pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper, numpy_helper

    from plaidc.onnx.runner import run_onnx

    from .support.onnx_models import model_of

    rng = np.random.default_rng(2)

    def init(name: str, *shape: int, low: float = -0.5, high: float = 0.5) -> object:
        return numpy_helper.from_array(rng.uniform(low, high, shape).astype(np.float32), name)

    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], pads=[1, 0, 2, 1]),
        helper.make_node("BatchNormalization", ["c1", "s", "b", "m", "v"], ["bn"]),
        helper.make_node("Relu", ["bn"], ["r"]),
        helper.make_node("Conv", ["r", "w2"], ["y"], pads=[1, 2, 0, 1], strides=[2, 2]),
    ]
    inits = [
        init("w1", 7, 5, 1, 1),
        init("s", 7, low=0.5, high=1.5),
        init("b", 7),
        init("m", 7),
        init("v", 7, low=0.5, high=1.5),
        init("w2", 6, 7, 3, 3),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5, 11, 9])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    path = tmp_path / "padded.onnx"
    onnx.save(model_of(helper.make_graph(nodes, "g", [x], [y], inits), 17), str(path))
    image = rng.standard_normal((2, 5, 11, 9)).astype(np.float32)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    (want,) = session.run(None, {"x": image})
    for target in ("c", "llvm"):
        got = run_onnx(str(path), {"x": image}, target)["y"]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
