"""The `gather` special on -t npu: the whole table in UB when that is cheaper, else its rows
by DMA (any table size, `backends/npu/gather.py`), out-of-range indices clamped as the
interpreter clamps them, every element type (8/16-bit and bool through int32 lanes)."""

from __future__ import annotations

import numpy as np
import pytest

from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact
from plaidc.diagnostics import CompileError
from plaidc.interp import numpy_dtype, run_program
from plaidc.stripe.ir import Block, DType
from plaidc.stripe.parser import parse_stripe
from plaidc.targets import load_target

from .support.backend_npu_units import with_changes


def gather_program(v: tuple[str, tuple[int, ...]], i: tuple[str, tuple[int, ...]]) -> Block:
    """`O = gather(V, I)` on a `v` source and `i` indices (dense row-major)."""

    def ref(direction: str, name: str, dtype: str, dims: tuple[int, ...]) -> str:
        strides = [int(np.prod(dims[k + 1 :])) for k in range(len(dims))]
        zeros = ", ".join("0" for _ in dims)
        return f"    {direction} {name}[{zeros}] {dtype}({', '.join(map(str, dims))}):" + (
            f"({', '.join(map(str, strides))})"
        )

    out = i[1] + v[1][1:]
    refs = [ref("in", "V", *v), ref("in", "I", *i), ref("out", "O", v[0], out)]
    text = "block []:1 (\n" + "\n".join(refs) + "\n) {\n  0: O = gather(V, I)\n}\n"
    return parse_stripe(text, "gather.stripe")


@pytest.mark.parametrize(
    ("v", "i", "ub_bytes"),
    [
        (("fp32", (10, 3, 2)), ("i8", (4, 5)), None),  # rows of 6: never block-aligned
        (("fp16", (7, 5)), ("i32", (9,)), None),
        (("i8", (6, 3)), ("u8", (2, 7)), None),
        (("fp32", (64, 16)), ("i32", (40, 8)), 16384),  # tiles cut the indices
    ],
)
def test_gather_clamps_rows_through_the_scalar_unit(
    v: tuple[str, tuple[int, ...]], i: tuple[str, tuple[int, ...]], ub_bytes: int | None
) -> None:
    program = gather_program(v, i)
    rng = np.random.default_rng(5)
    rows = v[1][0]
    values = rng.integers(-3, rows + 3, size=i[1])  # out-of-range indices are clamped
    if i[0] == "u8":
        values = np.abs(values)
    inputs = {
        "V": (rng.standard_normal(v[1]) * 50).astype(numpy_dtype(DType(v[0]))),
        "I": values.astype(numpy_dtype(DType(i[0]))),
    }
    target = with_changes({"ub_bytes": ub_bytes}) if ub_bytes else load_target("npu")
    artifact = get_backend("npu").compile(program, target)
    assert isinstance(artifact, NpuArtifact)
    got = artifact.run(inputs)
    want = run_program(program, inputs)
    np.testing.assert_array_equal(got["O"], want["O"])
    if ub_bytes:
        assert artifact.source.count("gather_O: rows picked by I") > 1


def _run_gather(
    v: tuple[str, tuple[int, ...]], i: tuple[str, tuple[int, ...]], ub_bytes: int | None
) -> NpuArtifact:
    """The gather on random rows, some out of range; the simulated output must equal the
    interpreter's."""
    program = gather_program(v, i)
    rng = np.random.default_rng(11)
    rows = v[1][0]
    high = min(rows + 3, 127 if i[0] == "i8" else 255 if i[0] == "u8" else rows + 3)
    values = rng.integers(0 if i[0] == "u8" else -3, high, size=i[1])
    inputs = {
        "V": (rng.standard_normal(v[1]) * 50).astype(numpy_dtype(DType(v[0]))),
        "I": values.astype(numpy_dtype(DType(i[0]))),
    }
    target = with_changes({"ub_bytes": ub_bytes}) if ub_bytes else load_target("npu")
    artifact = get_backend("npu").compile(program, target)
    assert isinstance(artifact, NpuArtifact)
    got = artifact.run(inputs)
    np.testing.assert_array_equal(got["O"], run_program(program, inputs)["O"])
    report = artifact.last_report
    assert report is not None and report.peak_bytes["UB"] <= (ub_bytes or 262144)
    return artifact


@pytest.mark.parametrize(
    ("v", "i", "ub_bytes"),
    [
        (("fp32", (50000, 64)), ("i32", (4, 8)), None),  # an embedding larger than UB
        (("fp32", (500, 64)), ("i32", (3, 5)), None),  # 125 KiB: too big for half of UB
        (("fp16", (70000, 7)), ("i32", (33,)), None),  # rows of 14 B: never block-aligned
        (("fp32", (3000, 3, 5)), ("i8", (2, 7)), 16384),
        (("i8", (9000, 11)), ("u8", (5, 3)), 16384),  # 8-bit rows into int32 lanes
        (("fp32", (4000, 6)), ("i32", (300,)), 16384),  # many tiles of indices
    ],
)
def test_a_table_larger_than_ub_is_gathered_row_by_row(
    v: tuple[str, tuple[int, ...]], i: tuple[str, tuple[int, ...]], ub_bytes: int | None
) -> None:
    artifact = _run_gather(v, i, ub_bytes)
    assert "one DMA each (the table stays in GM)" in artifact.source
    # the rows' transfers are addressed by the picked row: a loop of DMAs, not the table
    assert "copy_gm_to_ubuf" in artifact.source and "gather_rows_" in artifact.source


def test_a_small_table_stays_whole_in_ub() -> None:
    artifact = _run_gather(("fp32", (10, 3, 2)), ("i32", (40, 8)), None)
    assert "copied by the scalar unit" in artifact.source
    assert "one DMA each" not in artifact.source


def test_rows_by_dma_overlap_across_tiles() -> None:
    """With the rows of two tiles in alternate halves of UB, the second tile's row transfers
    run while the first tile's rows are copied: the total is less than the pipes' busy
    cycles added up."""
    artifact = _run_gather(("fp32", (50000, 64)), ("i32", (16, 8)), None)
    report = artifact.last_report
    assert report is not None
    busy = report.busy_cycles
    assert report.total_cycles < busy["PIPE_MTE2"] + busy["PIPE_S"] + busy["PIPE_MTE3"]


def test_a_row_larger_than_ub_is_named_with_the_share() -> None:
    program = gather_program(("fp32", (4, 100000)), ("i32", (2,)))
    message = (
        r"one row of the gather's source, with its index and output row, does not fit in a "
        r"tile's share of UB \(131072 bytes: ub_bytes = 262144 with \[codegen\] buffering = 2\)"
    )
    with pytest.raises(CompileError, match=message):
        get_backend("npu").compile(program, load_target("npu"))
