"""Convolutions whose channels are no whole fractals, and outer products (K = 1), on the Cube.

A convolution's weights with channel counts short of the Cube's 16 (3, 24, 40) come in by
one DMA per window position straight into img2col's padded rows (`conv_rows`: byte-exact
bursts where the rows are ragged), and its result's ragged rows leave by byte-exact stores,
with no element-by-element layout on the vector unit (`plaidc_spread`), split over the cores
like any other; a matrix product with K = 1 (an outer product) runs on the Cube with K padded
to a fractal. Every case runs on the simulator against the interpreter (random inputs), so a
wrong pad, offset, stride or group is a mismatch; the strict chip (no byte-exact DMAs) gets the
same results by the vector layout.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from plaidc import driver
from plaidc.backends.npu import NpuArtifact
from plaidc.stripe.ir import DType

from .support.backend_npu_units import run_checked, with_changes
from .support.paths import EXAMPLES

# stride s, dilation d, zero padding p on each side
CONV = (
    "function (I[N, H, W, CI]: {t}, K[KH, KW, CI, CO]: {t}) -> (O) {{\n"
    "  O[n, x, y, co : N, (H + 2 * {p} - {d} * (KH - 1) - 1) / {s} + 1,"
    " (W + 2 * {p} - {d} * (KW - 1) - 1) / {s} + 1, CO] ="
    " +(I[n, {s} * x + {d} * i - {p}, {s} * y + {d} * j - {p}, ci] * K[i, j, ci, co]);\n}}\n"
)


def _conv(tmp_path: Path, dims: dict[str, int], t: str, s: int = 1, d: int = 1, p: int = 0):
    path = tmp_path / "conv.tile"
    path.write_text(CONV.format(t=t, s=s, d=d, p=p))
    return driver.load_program(driver.Session(), str(path), driver.Bindings(dims=dims))


def _run(program, target: str = "npu", **hardware) -> NpuArtifact:
    return run_checked(program, with_changes(hardware, target=target), seed=7, pipeline=True)


def _elementwise_layout(artifact: NpuArtifact) -> int:
    """Vector instructions laying out elements one by one (`plaidc_spread`'s single-lane
    `vcmax`, and `collect`'s)."""
    report = artifact.last_report
    assert report is not None
    return report.by_intrinsic.get("vcmax", 0)


# (H, W, CI, KH, KW, CO, stride, dilation, padding)
SHAPES = {
    "3x3_24_24": (16, 15, 24, 3, 3, 24, 1, 1, 0),
    "3x3_40_40": (14, 13, 40, 3, 3, 40, 1, 1, 0),
    "3x3_3_64": (17, 16, 3, 3, 3, 64, 1, 1, 0),
    "3x3_64_40": (14, 14, 64, 3, 3, 40, 1, 1, 0),
    "1x1_40_24": (12, 12, 40, 1, 1, 24, 1, 1, 0),
    "stride2_pad1_24_40": (21, 17, 24, 3, 3, 40, 2, 1, 1),
    "dilated_40_24": (16, 15, 40, 3, 2, 24, 1, 2, 0),
    "5x1_pad2_3_24": (15, 14, 3, 5, 1, 24, 1, 1, 2),
}


@pytest.mark.parametrize("t", ["fp16", "fp32"])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_odd_channel_convs_match_with_no_elementwise_layout(
    shape: str, t: str, tmp_path: Path
) -> None:
    h, w, ci, kh, kw, co, s, d, p = SHAPES[shape]
    dims = dict(N=2, H=h, W=w, CI=ci, KH=kh, KW=kw, CO=co)
    artifact = _run(_conv(tmp_path, dims, t, s, d, p))
    assert "img2col_cbuf_to_ca(" in artifact.source
    assert _elementwise_layout(artifact) == 0
    if (co * (2 if t == "fp16" else 4)) % 32:  # ragged rows: the weights' by byte-exact DMA
        assert re.search(r"copy_gm_to_ubuf_align\([^;]*\bK\b", artifact.source)


def test_weights_of_every_window_position_in_one_transfer(tmp_path: Path) -> None:
    """A K step of every window position and channel: all the weights' rows by one
    byte-exact DMA, each position's rows then copied into place by whole blocks."""
    dims = dict(N=1, H=30, W=30, CI=24, KH=3, KW=3, CO=24)
    artifact = _run(_conv(tmp_path, dims, "fp16"))
    assert len(re.findall(r"copy_gm_to_ubuf_align\([^;]*\bK\b", artifact.source)) == 1
    assert _elementwise_layout(artifact) == 0


@pytest.mark.parametrize("cores", [2, 4])
@pytest.mark.parametrize("shape", ["3x3_24_24", "1x1_40_24", "stride2_pad1_24_40"])
def test_odd_channel_convs_split_over_cores(shape: str, cores: int, tmp_path: Path) -> None:
    _, _, ci, kh, kw, co, s, d, p = SHAPES[shape]
    dims = dict(N=1, H=30, W=30, CI=ci, KH=kh, KW=kw, CO=co)
    artifact = _run(_conv(tmp_path, dims, "fp16", s, d, p), cores=cores)
    report = artifact.last_report
    assert report is not None
    assert len(report.core_cycles) == cores and all(report.core_cycles)
    assert _elementwise_layout(artifact) == 0


@pytest.mark.parametrize("shape", ["3x3_40_40", "3x3_64_40"])
def test_odd_channel_convs_on_the_small_chip(shape: str, tmp_path: Path) -> None:
    """UB 64 KiB, L1 256 KiB: the weights' one transfer may not fit beside its matrix (a DMA
    per window position then), the results are the same."""
    _, _, ci, kh, kw, co, s, d, p = SHAPES[shape]
    dims = dict(N=1, H=30, W=30, CI=ci, KH=kh, KW=kw, CO=co)
    artifact = _run(_conv(tmp_path, dims, "fp16", s, d, p), ub_bytes=64 * 1024, l1_bytes=256 * 1024)
    assert _elementwise_layout(artifact) == 0


def test_grouped_conv_with_odd_channels_per_group(tmp_path: Path) -> None:
    """Two groups of 24 input and 24 output channels: each group's weights are a batch
    point's own padded rows, the result's columns the group's own."""
    shapes = {"I": (DType.FP16, (1, 9, 9, 48)), "K": (DType.FP16, (3, 3, 24, 48))}
    program = driver.load_program(
        driver.Session(), str(EXAMPLES / "conv2d_grouped.tile"), driver.Bindings(shapes=shapes)
    )
    artifact = _run(program)
    assert "mad(" in artifact.source
    assert _elementwise_layout(artifact) == 0


@pytest.mark.parametrize("shape", ["3x3_24_24", "stride2_pad1_24_40"])
def test_strict_chip_still_matches(shape: str, tmp_path: Path) -> None:
    """Without the byte-exact DMAs, the ragged rows are laid out on the vector unit (slower,
    the same results)."""
    h, w, ci, kh, kw, co, s, d, p = SHAPES[shape]
    dims = dict(N=1, H=h, W=w, CI=ci, KH=kh, KW=kw, CO=co)
    artifact = _run(_conv(tmp_path, dims, "fp16", s, d, p), target="npu-strict")
    assert "_align(" not in artifact.source.split("void plaidc_kernel")[1]


MATMUL = "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }"


def _matmul(t: DType, m: int, k: int, n: int):
    bindings = driver.Bindings(shapes={"A": (t, (m, k)), "B": (t, (k, n))})
    return driver.load_program(driver.Session(), str(EXAMPLES / "matmul.tile"), bindings)


@pytest.mark.parametrize("cores", [1, 4])
@pytest.mark.parametrize("t", [DType.FP16, DType.FP32])
@pytest.mark.parametrize(("m", "n"), [(256, 256), (100, 70), (17, 300)])
def test_outer_product_runs_on_the_cube(m: int, n: int, t: DType, cores: int) -> None:
    artifact = _run(_matmul(t, m, 1, n), cores=cores)
    report = artifact.last_report
    assert report is not None and report.by_intrinsic.get("mad", 0) > 0
    if cores > 1 and m >= 256:  # the rows of output tiles (two of 128) split over cores
        assert sum(1 for cycles in report.core_cycles if cycles) >= 2
    assert _elementwise_layout(artifact) == 0


def test_scaling_rows_by_a_vector_stays_elementwise(tmp_path: Path) -> None:
    """`+(A[i, j] * B[j])` has no reduced index and no index only B uses: no matrix
    product, the vector unit's."""
    path = tmp_path / "scale.tile"
    path.write_text("function (A[M, N], B[N]) -> (C) { C[i, j : M, N] = +(A[i, j] * B[j]); }\n")
    shapes = {"A": (DType.FP16, (20, 40)), "B": (DType.FP16, (40,))}
    program = driver.load_program(driver.Session(), str(path), driver.Bindings(shapes=shapes))
    artifact = _run(program)
    assert "mad(" not in artifact.source
