"""A fused epilogue's first operation reads the Cube's result as it came out of L0C (the
`[No][Mo][fm][fn]` fractals, `ValueEmitter._on_fractals`): no layout copy to rows first; and
`relu(a + b)` is one `vaddrelu` (`fused_ops`). Checked by execution against the interpreter
with a bias that differs per channel, so that a wrong stride, fractal column or bias offset
gives wrong elements."""

from __future__ import annotations

import re

import pytest

from plaidc.backends.npu.fused_ops import fuse_add_relu
from plaidc.backends.npu.kernels import Access, KLoad, KOp, KStore
from plaidc.backends.npu.vtypes import VType
from plaidc.stripe.ir import Affine, DType
from plaidc.targets import load_target

from .support.backend_npu_units import run_checked, with_changes
from .test_npu_epilogue import CONV_BIAS_RELU, assert_one_cube_kernel, conv_shapes, pipelined

LAYER = """function (X[M, K], W[K, N], B[N]) -> (Y) {
  Z[m, n : M, N] = +(X[m, k] * W[k, n]);
  Y = %s;
}"""


def layer(expr: str, dtype: str, m: int, k: int, n: int) -> str:
    shapes = {"X": (dtype, (m, k)), "W": (dtype, (k, n)), "B": (dtype, (n,))}
    program = pipelined(LAYER % expr, shapes)
    source = run_checked(program, load_target("npu")).source
    assert_one_cube_kernel(source)
    return source


def blocks(dtype: str, n: int) -> tuple[int, int]:
    """The 32-B blocks of a result row (`n` padded to whole 16-element fractal rows) and of a
    fractal row: the block strides of an instruction between the fractals and the rows."""
    size = DType(dtype).byte_size
    return -(-n // 16) * 16 * size // 32, 16 * size // 32


def layout_copies(source: str, row: int, frac: int) -> int:
    """The vector copies (`vmuls` by 1) that lay a Cube result's fractals out as rows (block
    strides a row in the destination, a fractal row in the source)."""
    copy = re.compile(rf"vmuls\(\(__ubuf__ .*\), 1, \d+, {row}, {frac}, \d+, \d+\);")
    return sum(1 for line in source.splitlines() if copy.search(line))


def fractal_reads(source: str, instr: str, row: int, frac: int) -> int:
    """The `instr` instructions that read the fractals themselves: the destination's block
    stride a row, a source's a fractal row (the first operand's, or the second's)."""
    reads = re.compile(rf"\b{instr}\(\(__ubuf__ .*, \d+, {row}, ({frac}|{row}, {frac}), \d+, ")
    return sum(1 for line in source.splitlines() if reads.search(line))


@pytest.mark.parametrize(
    ("dtype", "m", "k", "n"),
    [("fp16", 256, 128, 64), ("fp16", 40, 29, 48), ("fp16", 64, 32, 96), ("fp32", 64, 48, 48)],
)
def test_bias_relu_reads_the_fractals_in_one_instruction(
    dtype: str, m: int, k: int, n: int
) -> None:
    source = layer("relu(Z + B)", dtype, m, k, n)
    row, frac = blocks(dtype, n)
    assert not re.search(r"\bvrelu\(", source)
    assert fractal_reads(source, "vaddrelu", row, frac) > 0
    assert layout_copies(source, row, frac) == 0, "the result was laid out as rows first"


@pytest.mark.parametrize(
    ("expr", "instr"),
    [
        ("relu(B + Z)", "vaddrelu"),  # the fractals as the second operand
        ("Z * B", "vmul"),
        ("Z - B", "vsub"),
        ("B - Z", "vsub"),
        ("max(Z, B)", "vmax"),
        ("Z * 3.0", "vmuls"),  # a scalar
        ("2.0 - Z", "vmuls"),  # by -1, then vadds
        ("max(Z, 0.25)", "vmax"),  # a constant vector: repeat stride 0
        ("relu(Z)", "vrelu"),
        ("abs(Z)", "vabs"),
    ],
)
def test_first_operations_on_the_fractals(expr: str, instr: str) -> None:
    source = layer(expr, "fp16", 48, 40, 96)
    row, frac = blocks("fp16", 96)
    assert fractal_reads(source, instr, row, frac) > 0
    assert layout_copies(source, row, frac) == 0


def test_a_result_read_twice_is_laid_out_as_rows_first() -> None:
    source = layer("relu(Z - B) * Z", "fp16", 48, 40, 96)
    assert layout_copies(source, *blocks("fp16", 96)) > 0


@pytest.mark.parametrize(("m", "n"), [(37, 48), (48, 53)])
def test_ragged_rows_or_columns_are_laid_out_as_rows_first(m: int, n: int) -> None:
    """37 rows (the fractals' 48 padded: a repeat of 8 rows would write past the epilogue's
    layout) or 53 columns (rows of 53, the fractals' 64): the layout copy, then relu(Z + B)."""
    source = layer("relu(Z + B)", "fp16", m, 29, n)
    assert layout_copies(source, *blocks("fp16", n)) > 0 and "vaddrelu(" in source


@pytest.mark.parametrize(
    ("h", "w", "ci", "co", "ragged"), [(58, 58, 64, 64, False), (20, 20, 16, 48, True)]
)
def test_conv_bias_relu_on_the_fractals(h: int, w: int, ci: int, co: int, ragged: bool) -> None:
    """The 20x20 conv's last tile is ragged (fewer rows than its fractals hold, not a whole
    repeat's worth): that tile lays its result out as rows first."""
    program = pipelined(CONV_BIAS_RELU, conv_shapes("fp16", h, w, ci, co))
    source = run_checked(program, load_target("npu")).source
    assert_one_cube_kernel(source)
    row, frac = blocks("fp16", co)
    assert fractal_reads(source, "vaddrelu", row, frac) > 0
    assert (layout_copies(source, row, frac) > 0) == ragged


def test_conv_with_channels_not_whole_fractal_rows() -> None:
    """7 output channels (a fractal row of 16 holds them): checked by execution."""
    program = pipelined(CONV_BIAS_RELU, conv_shapes("fp16", 13, 11, 5, 7))
    assert_one_cube_kernel(run_checked(program, load_target("npu")).source)


def test_a_chip_without_vaddrelu_adds_then_relus() -> None:
    program = pipelined(CONV_BIAS_RELU, conv_shapes("fp16", 20, 20, 16, 48))
    source = run_checked(program, with_changes({"lacks": ["vaddrelu"]})).source
    assert "vaddrelu(" not in source and "vadd(" in source and "vrelu(" in source


F16 = VType("vec", DType.FP16)


def test_fuse_add_relu_only_where_the_sum_has_no_other_reader() -> None:
    load = [KLoad("a", Access("A", Affine())), KLoad("b", Access("B", Affine()))]
    types = {name: F16 for name in ("a", "b", "s", "r")}
    body = [*load, KOp("s", "add", ("a", "b")), KOp("r", "relu", ("s",))]
    store_r = KStore(Access("Y", Affine()), "assign", "r")
    fused = fuse_add_relu([*body, store_r], types)
    assert fused == [*load, KOp("r", "add_relu", ("a", "b")), store_r]
    # the sum stored too: both operations stay
    store_s = KStore(Access("Z", Affine()), "assign", "s")
    assert fuse_add_relu([*body, store_r, store_s], types) == [*body, store_r, store_s]
    # a scalar operand: vadds has no relu form
    scalar = {**types, "b": VType("scalar", None, value=1.0)}
    assert fuse_add_relu([*body, store_r], scalar) == [*body, store_r]
