"""Convolutions on the GEMM micro-kernel (implicit GEMM), on c and llvm.

A convolution tile is GEMM-like with several row indices (output pixels `x, y`) and several
reduction indices (the window `i, j, ci`): the lowering merges indices that both operands step
over as one (`j, ci` of an NHWC image) and runs the rest as multi-index rows and reduction of
the micro-kernel, packing A's rows from the image window (`gemm.py`, `gemm_kernel.py`,
`gemm_pack.py`). Each case is compared with numpy and with the interpreter.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.targets import load_target
from plaidc.tile import compile_tile

from .support import EXAMPLES

BACKENDS = ["c", "llvm"]


def conv_reference(image: np.ndarray, kernel: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """relu(conv2d(I, K) + B): NHWC image, HWIO kernel, valid padding, stride 1 (float64)."""
    kh, kw = kernel.shape[:2]
    oh, ow = image.shape[1] - kh + 1, image.shape[2] - kw + 1
    out = np.zeros((image.shape[0], oh, ow, kernel.shape[3]))
    for i in range(kh):
        for j in range(kw):
            window = image[:, i : i + oh, j : j + ow, :].astype(np.float64)
            out += window @ kernel[i, j].astype(np.float64)
    return np.maximum(out + bias, 0.0)


# (N, H, W, CI, KH, KW, CO): the benchmark's layer shrunk, odd sizes and kernel shapes.
CONV_SHAPES = [
    (1, 18, 18, 64, 3, 3, 64),
    (2, 13, 11, 24, 3, 2, 40),
    (1, 12, 17, 16, 1, 1, 33),
    (1, 9, 10, 37, 5, 3, 19),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", CONV_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_conv_runs_on_the_micro_kernel(backend: str, shape: tuple[int, ...]) -> None:
    n, h, w, ci, kh, kw, co = shape
    path = EXAMPLES / "conv2d_bias_relu.tile"
    dims = {"N": n, "H": h, "W": w, "CI": ci, "KH": kh, "KW": kw, "CO": co}
    program = compile_tile(path.read_text(), str(path), dims=dims).program
    cfg = load_target(backend)
    program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    inputs = driver.random_inputs(program_io(program).inputs, seed=8)
    artifact = get_backend(backend).compile(program, cfg)
    got = artifact.run(inputs)
    want = conv_reference(inputs["I"], inputs["K"], inputs["B"])
    np.testing.assert_allclose(got["R"], want, rtol=1e-4, atol=1e-4)
    assert not driver.compare_outputs(run_program(program, inputs), got)
    kernels = [line for line in artifact.source.splitlines() if "micro-kernel" in line]
    assert kernels, "the convolution should run on the micro-kernel"
    if kh > 1:
        # the window (i, j, ci) is a reduction of several indices, (j, ci) merged into one
        assert any("reduction [(" in line for line in kernels), kernels
        assert any(f"({kw * ci}, 1, {co})" in line for line in kernels), kernels


@pytest.mark.parametrize("backend", BACKENDS)
def test_image_rows_are_read_in_place(backend: str) -> None:
    """An NHWC convolution's rows (output pixels) are not packed: each row block's window
    starts (`arow*`) are computed once and the k loop broadcasts straight from the image;
    with 64 output channels (two panels) the pixels were packed as an `apack` block."""
    path = EXAMPLES / "conv2d_bias_relu.tile"
    dims = {"N": 1, "H": 18, "W": 19, "CI": 64, "KH": 3, "KW": 3, "CO": 64}
    program = compile_tile(path.read_text(), str(path), dims=dims).program
    cfg = load_target(backend)
    program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    inputs = driver.random_inputs(program_io(program).inputs, seed=3)
    artifact = get_backend(backend).compile(program, cfg)
    got = artifact.run(inputs)
    want = conv_reference(inputs["I"], inputs["K"], inputs["B"])
    np.testing.assert_allclose(got["R"], want, rtol=1e-4, atol=1e-4)
    assert "micro-kernel C = A B" in artifact.source
    assert "arow0" in artifact.source and "apack" not in artifact.source


def _tiled_rows(backend: str, source: str, dims: dict[str, int], budget: int) -> tuple:
    """`source` through `backend`'s pipeline with tile_contract splitting only the output rows
    `x` (powers of two, within `budget` bytes): edge tiles cut `x` short."""
    path = EXAMPLES / source
    program = compile_tile(path.read_text(), str(path), dims=dims).program
    cfg = load_target(backend)
    steps = [
        dataclasses.replace(
            step,
            options=dataclasses.replace(
                step.options, idxs=("x",), max_total_size=budget, threads=0
            ),
        )
        if step.name == "tile_contract"
        else step
        for step in driver.resolve_steps(cfg.stage("default"))
    ]
    program = driver.run_pipeline(program, steps)
    inputs = driver.random_inputs(program_io(program).inputs, seed=5)
    artifact = get_backend(backend).compile(program, cfg)
    return program, inputs, artifact, artifact.run(inputs)


# (source, dims, budget, output, stride): a 5x3 window over 9 output rows in tiles of 4
# (4, 4, 1); a 3x3/2 window over 9 rows in tiles of 8 (8, 1).
RAGGED_ROWS = [
    ("conv2d_bias_relu.tile", dict(N=1, H=13, W=11, CI=8, KH=5, KW=3, CO=12), 12000, "R", 1),
    ("conv2d_strided.tile", dict(N=1, H=19, W=17, CI=8, KH=3, KW=3, CO=20), 21000, "O", 2),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", RAGGED_ROWS, ids=lambda c: c[0].split(".")[0])
def test_edge_tiles_of_output_rows_run_on_the_micro_kernel(backend: str, case: tuple) -> None:
    """An edge tile whose output rows `x` are cut short (`x` bounded by a constraint): the
    pixels of one row are the kernel's rows and `x` a loop around the call, bounded per tile."""
    source, dims, budget, out, stride = case
    program, inputs, artifact, got = _tiled_rows(backend, source, dims, budget)
    image, kernel = inputs["I"].astype(np.float64), inputs["K"].astype(np.float64)
    kh, kw = kernel.shape[:2]
    win = np.lib.stride_tricks.sliding_window_view(image, (kh, kw), axis=(1, 2))
    want = np.einsum("nxycij,ijco->nxyo", win[:, ::stride, ::stride], kernel)
    if "B" in inputs:
        want = np.maximum(want + inputs["B"], 0.0)
    np.testing.assert_allclose(got[out], want, rtol=1e-4, atol=1e-4)
    assert not driver.compare_outputs(run_program(program, inputs), got)
    source_lines = artifact.source.splitlines()
    # the tiles of x are cut short (a bound on x's offset), and the kernel ran
    assert any("micro-kernel" in line for line in source_lines), "no micro-kernel"
    rows = -(-(dims["W"] - kw + 1) // stride)
    # (each call writes its whole box of C: the kernel overwrites it, `C = A B`)
    assert any(f"micro-kernel C = A B: {rows}x" in line for line in source_lines), [
        line for line in source_lines if "micro-kernel" in line
    ]


# (CO, register block) with 16-lane vectors and 32 registers: the width that pads the fewest
# output channels, the configured 2 vectors on a tie.
CONV_WIDTHS = [(40, "8x48"), (33, "8x48"), (64, "8x32"), (24, "8x32"), (128, "8x32"), (8, "8x16")]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CONV_WIDTHS, ids=lambda c: f"co{c[0]}")
def test_conv_register_block_width_follows_the_channels(backend: str, case: tuple) -> None:
    """A convolution's register block is as wide as pads its output channels least (40
    channels: one panel of 3 vectors, not a full and a mostly empty panel of 2)."""
    co, block = case
    path = EXAMPLES / "conv2d_bias_relu.tile"
    dims = {"N": 1, "H": 11, "W": 10, "CI": 5, "KH": 3, "KW": 3, "CO": co}
    program = compile_tile(path.read_text(), str(path), dims=dims).program
    cfg = load_target(backend)
    cfg = dataclasses.replace(
        cfg, codegen={**cfg.codegen, "vector_bytes": 64, "vector_registers": 32}
    )
    program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    inputs = driver.random_inputs(program_io(program).inputs, seed=9)
    artifact = get_backend(backend).compile(program, cfg)
    kernels = [line for line in artifact.source.splitlines() if "micro-kernel" in line]
    assert kernels and all(f"; {block} register block" in line for line in kernels), kernels
    got = artifact.run(inputs)
    want = conv_reference(inputs["I"], inputs["K"], inputs["B"])
    np.testing.assert_allclose(got["R"], want, rtol=1e-4, atol=1e-4)
    assert not driver.compare_outputs(run_program(program, inputs), got)
