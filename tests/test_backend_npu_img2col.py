"""Convolutions on the Cube through `img2col_cbuf_to_ca`: every kind the Cube runs (strided,
dilated, padded, grouped, with bias and ReLU), fp32 and fp16, at shapes with channel counts
that are not whole fractals, ragged output channels and several output tiles, match the
interpreter; the C uses the instruction; an fp16 convolution's operands reach the Cube with no
vector instruction; a depthwise convolution does not go by img2col."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact
from plaidc.interp import program_io, run_program
from plaidc.targets import load_target

from .support.paths import EXAMPLES

# example -> its dimensions here
CONVS = {
    "conv2d_strided": dict(N=1, H=11, W=9, CI=20, KH=3, KW=3, CO=18),
    "conv2d_padded": dict(N=2, H=7, W=5, CI=16, KH=3, KW=3, CO=8),
    "conv2d_dilated": dict(N=1, H=10, W=9, CI=8, KH=3, KW=2, CO=5),
    "conv2d_grouped": dict(N=1, H=6, W=7, CI=32, CIG=16, KH=3, KW=3, CO=32),
    "conv2d_bias_relu": dict(N=1, H=20, W=19, CI=32, KH=3, KW=3, CO=24),
    "conv2d_valid": dict(N=3, H=6, W=5, CI=3, KH=3, KW=2, CO=4),
}


def _program(name: str, dims: dict[str, int], fp16: bool, tmp_path: Path):
    text = (EXAMPLES / f"{name}.tile").read_text()
    if fp16:  # the same program on fp16 inputs
        header = next(line for line in text.splitlines() if line.startswith("function ("))
        inputs = header[len("function (") : header.index(") ->")]
        text = text.replace(
            header, header.replace(inputs, re.sub(r"(\w+\[[^\]]*\])", r"\1: fp16", inputs))
        )
    path = tmp_path / f"{name}.tile"
    path.write_text(text)
    return driver.load_program(driver.Session(), str(path), driver.Bindings(dims=dims))


def _run(program, config=None):
    target = config or load_target("npu")
    artifact = get_backend("npu").compile(program, target)
    assert isinstance(artifact, NpuArtifact)
    inputs = driver.random_inputs(program_io(program).inputs, seed=3)
    got = artifact.run({k: v.copy() for k, v in inputs.items()})
    mismatches = driver.compare_outputs(run_program(program, inputs), got)
    assert not mismatches, mismatches[0].message
    return artifact


@pytest.mark.parametrize("fp16", [False, True], ids=["fp32", "fp16"])
@pytest.mark.parametrize("name", sorted(CONVS))
def test_conv_goes_by_img2col_and_matches(name: str, fp16: bool, tmp_path: Path) -> None:
    program = _program(name, CONVS[name], fp16, tmp_path)
    if fp16:
        assert "fp16" in str(program_io(program).inputs)
    artifact = _run(program)
    assert "img2col_cbuf_to_ca(" in artifact.source
    report = artifact.last_report
    assert report is not None and report.macs > 0 and report.unwaited_flags == 0
    assert report.by_intrinsic.get("img2col_cbuf_to_ca", 0) > 0


def test_fp16_conv_operands_reach_the_cube_with_no_vector_pass(tmp_path: Path) -> None:
    text = (
        "function (I[N, H, W, CI]: fp16, K[KH, KW, CI, CO]: fp16) -> (O) {\n"
        "  O[n, x, y, co : N, H - KH + 1, W - KW + 1, CO] ="
        " +(I[n, x + i, y + j, ci] * K[i, j, ci, co]);\n}\n"
    )
    path = tmp_path / "conv16.tile"
    path.write_text(text)
    dims = dict(N=1, H=18, W=18, CI=32, KH=3, KW=3, CO=32)
    program = driver.load_program(driver.Session(), str(path), driver.Bindings(dims=dims))
    artifact = _run(program)
    report = artifact.last_report
    assert report is not None
    # the vector unit only takes the results out of L0C (and rounds them to fp16)
    vector = {
        name
        for name, count in report.by_intrinsic.items()
        if count and (name.startswith("v") or name.startswith("plaidc_"))
    }
    assert vector <= {"vconv_f322f16", "vmuls"}, vector
    assert report.bytes_moved["GM->L1"] > 0  # windows and weights straight to L1
    assert report.bytes_moved["GM->UB"] < report.bytes_moved["GM->L1"]


def test_depthwise_conv_does_not_go_by_img2col(tmp_path: Path) -> None:
    dims = dict(N=1, H=6, W=7, C=16, KH=3, KW=3, CM=1)
    program = driver.load_program(
        driver.Session(), str(EXAMPLES / "conv2d_depthwise.tile"), driver.Bindings(dims=dims)
    )
    artifact = _run(program)
    assert "img2col_cbuf_to_ca(" not in artifact.source


def _chip(kind: str):
    target = load_target("npu")
    changes = {"small": {"ub_bytes": 65536, "l1_bytes": 262144}, "cores2": {"cores": 2}}[kind]
    return dataclasses.replace(target, hardware={**dict(target.hardware), **changes})


@pytest.mark.parametrize("fp16", [False, True], ids=["fp32", "fp16"])
@pytest.mark.parametrize("chip", ["small", "cores2"])
@pytest.mark.parametrize("name", ["conv2d_bias_relu", "conv2d_padded", "conv2d_strided"])
def test_conv_by_img2col_on_a_small_chip_and_two_cores(
    name: str, chip: str, fp16: bool, tmp_path: Path
) -> None:
    program = _program(name, CONVS[name], fp16, tmp_path)
    artifact = _run(program, _chip(chip))
    assert "img2col_cbuf_to_ca(" in artifact.source


def test_fp32_conv_whose_indices_the_pipeline_split_still_goes_by_img2col(
    tmp_path: Path,
) -> None:
    """An fp32 conv the pass pipeline tiles by splitting its indices (x = 2*x + x_1, ci = 8*ci
    + ci_1) is still a convolution: it keeps the conv path (the pipeline's tiles, img2col)
    rather than the GEMM tilings ranked by `estimated_cycles`, which model plain matrices
    (those read it as 9 window positions of strided matrices: 43,824 cycles vs 36,620)."""
    dims = dict(N=1, H=18, W=18, CI=64, KH=3, KW=3, CO=64)
    program = _program("conv2d_bias_relu", dims, False, tmp_path)
    steps = driver.resolve_steps(load_target("npu").stage("default"))
    artifact = _run(driver.run_pipeline(program, steps))
    assert "img2col_cbuf_to_ca(" in artifact.source
    assert "tiles chosen by the backend (estimated" not in artifact.source


def test_reads_window_whatever_the_split() -> None:
    """`img2col.reads_window`: an output index and a reduced one on the same map axis, also
    through split indices; not a matmul, not a depthwise conv (channel not reduced)."""
    from plaidc.backends.npu.img2col import reads_window
    from plaidc.stripe.ir import Affine, DType, TensorShape

    nhwc = TensorShape(DType.FP32, (1, 18, 18, 64), (20736, 1152, 64, 1))
    split = Affine.of({"ci": 8, "ci_1": 1, "i": 1152, "j": 64, "x": 2304, "x_1": 1152, "y": 64})
    m, k = ("x", "x_1", "y"), ("i", "j", "ci", "ci_1")
    assert reads_window(nhwc, split, m, k)
    # a 1x1 conv is a plain GEMM over the pixels
    assert not reads_window(nhwc, Affine.of({"x": 1152, "y": 64, "ci": 1}), ("x", "y"), ("ci",))
    depthwise = Affine.of({"x": 1152, "i": 1152, "y": 64, "j": 64, "c": 1})
    assert not reads_window(nhwc, depthwise, ("x", "y"), ("i", "j"))
    matrix = TensorShape(DType.FP32, (64, 32), (32, 1))
    assert not reads_window(matrix, Affine.of({"m": 32, "k": 1}), ("m",), ("k",))
