"""The NPU simulator's functional semantics: hand-written CCE-like kernels against numpy."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from .support.npu_sim import default_machine, run

RNG = np.random.default_rng(7)


def f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def f16(*shape: int) -> np.ndarray:
    return RNG.uniform(-1, 1, shape).astype(np.float16)


def test_relu_add_exp() -> None:
    x, y = f32(512), f32(512)
    out = run("vector.c", "relu_add_exp", {"X": x, "Y": y, "O": np.zeros(512, np.float32)})
    expected = np.exp(np.maximum(x, 0) + y)
    np.testing.assert_allclose(out.buffers["O"], expected, rtol=1e-6)
    # the inputs come back unchanged
    assert np.array_equal(out.buffers["X"], x)
    assert out.report.bytes_moved["GM->UB"] == 2 * 2048
    assert out.report.bytes_moved["UB->GM"] == 2048
    assert out.report.instructions["PIPE_V"] == 3


def test_relu_add_exp_on_two_cores() -> None:
    x, y = f32(1024), f32(1024)
    machine = default_machine().replace(cores=2)
    buffers = {"X": x, "Y": y, "O": np.zeros(1024, np.float32)}
    two = run("vector.c", "relu_add_exp_cores", buffers, machine=machine)
    np.testing.assert_allclose(two.buffers["O"], np.exp(np.maximum(x, 0) + y), rtol=1e-6)
    one = run("vector.c", "relu_add_exp", {k: v[:512] for k, v in buffers.items()})
    # the cores run in parallel: as long as one core on half the data, twice the work
    assert two.report.total_cycles == one.report.total_cycles
    assert two.report.busy_cycles["PIPE_V"] == 2 * one.report.busy_cycles["PIPE_V"]


def test_strided_masked_vector_op() -> None:
    x, o = f32(256), f32(256)
    out = run("vector.c", "strided_masked", {"X": x, "O": o})
    expected = o.copy()
    for block in (0, 2, 16, 18):
        expected[8 * block : 8 * block + 8] = 2 * x[8 * block : 8 * block + 8]
    assert np.array_equal(out.buffers["O"], expected)


UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "vexp": np.exp,
    "vln": np.log,
    "vabs": np.abs,
    "vrelu": lambda v: np.maximum(v, 0),
    "vrec": lambda v: 1 / v,
    "vsqrt": np.sqrt,
    "vrsqrt": lambda v: 1 / np.sqrt(v),
}
EXACT = {"vabs", "vrelu", "vrec", "vsqrt"}  # correctly rounded in both dtypes


@pytest.mark.parametrize("dtype", ["float", "half"])
@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary(op: str, dtype: str) -> None:
    npt = np.float32 if dtype == "float" else np.float16
    x = RNG.uniform(0.1, 4, 256).astype(npt)
    if op in ("vabs", "vrelu"):
        x = (x - 2).astype(npt)
    out = run(
        "elementwise.c",
        "elementwise",
        {"X": x, "Y": x, "O": np.zeros_like(x)},
        f"T={dtype}",
        "N=256",
        f"UNARY={op}",
    )
    expected = UNARY[op](x.astype(np.float32)).astype(npt)
    if op in EXACT:
        assert np.array_equal(out.buffers["O"], expected)
    else:
        rtol = 2e-3 if npt is np.float16 else 1e-6
        got = out.buffers["O"].astype(np.float64)
        np.testing.assert_allclose(got, expected.astype(np.float64), rtol=rtol)


BINARY = {
    "vadd": np.add,
    "vsub": np.subtract,
    "vmul": np.multiply,
    "vmax": np.maximum,
    "vmin": np.minimum,
}


@pytest.mark.parametrize("dtype", ["float", "half", "int32_t"])
@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_is_exact(op: str, dtype: str) -> None:
    npt = {"float": np.float32, "half": np.float16, "int32_t": np.int32}[dtype]
    if npt is np.int32:
        x = RNG.integers(-(2**31), 2**31, 512, dtype=np.int64).astype(np.int32)
        y = RNG.integers(-(2**31), 2**31, 512, dtype=np.int64).astype(np.int32)
    else:
        x, y = (RNG.standard_normal(512) * 100).astype(npt), (RNG.standard_normal(512)).astype(npt)
        x[:4] = [np.nan, 1, np.inf, -0.0]
        y[:4] = [1, np.nan, -np.inf, 0.0]
    out = run(
        "elementwise.c",
        "elementwise",
        {"X": x, "Y": y, "O": np.zeros_like(x)},
        f"T={dtype}",
        "N=512",
        f"BINARY={op}",
    )
    with np.errstate(all="ignore"):
        expected = BINARY[op](x, y)  # numpy: float16 ops in float32, rounded; int32 wraps
    np.testing.assert_array_equal(out.buffers["O"], expected)


@pytest.mark.parametrize("dtype", ["float", "half", "int32_t"])
@pytest.mark.parametrize(("op", "fn"), [("vadds", np.add), ("vmuls", np.multiply)])
def test_scalar_ops(op: str, fn: np.ufunc, dtype: str) -> None:
    npt = {"float": np.float32, "half": np.float16, "int32_t": np.int32}[dtype]
    x = (RNG.standard_normal(256) * 50).astype(npt)
    out = run(
        "elementwise.c",
        "elementwise",
        {"X": x, "Y": x, "O": np.zeros_like(x)},
        f"T={dtype}",
        "N=256",
        f"SCALAR={op}",
        "VALUE=3",
    )
    np.testing.assert_array_equal(out.buffers["O"], fn(x, npt(3)))


def test_vector_dup_half() -> None:
    x = np.zeros(256, np.float16)
    out = run(
        "elementwise.c",
        "elementwise",
        {"X": x, "Y": x, "O": x},
        "T=half",
        "N=256",
        "DUP",
        "VALUE=0.1",
    )
    assert np.array_equal(out.buffers["O"], np.full(256, 0.1, np.float16))


COMPARE = {
    "vcmp_eq": np.equal,
    "vcmp_ne": np.not_equal,
    "vcmp_lt": np.less,
    "vcmp_le": np.less_equal,
    "vcmp_gt": np.greater,
    "vcmp_ge": np.greater_equal,
}


@pytest.mark.parametrize("dtype", ["float", "half"])
@pytest.mark.parametrize("op", sorted(COMPARE))
def test_compare_select(op: str, dtype: str) -> None:
    npt = np.float32 if dtype == "float" else np.float16
    x = RNG.integers(-3, 4, 256).astype(npt)
    y = RNG.integers(-3, 4, 256).astype(npt)
    x[0], y[1] = np.nan, np.nan
    out = run(
        "select.c",
        "select_kernel",
        {"X": x, "Y": y, "O": np.zeros_like(x), "BITS": np.zeros(32, np.uint8)},
        f"T={dtype}",
        "N=256",
        f"CMP={op}",
    )
    cond = COMPARE[op](x, y)
    assert np.array_equal(out.buffers["BITS"], np.packbits(cond, bitorder="little"))
    np.testing.assert_array_equal(out.buffers["O"], np.where(cond, x, y))


def test_conversions() -> None:
    special = [0.0, -0.0, 1.0, 65504.0, 65519.99, 65520.0, 1e9, -1e9, np.inf, -np.inf, np.nan]
    tiny = [2.0**-24, 2.0**-25, 2.0**-25 * 1.0001, 3 * 2.0**-25, 2.0**-14 * 0.999, 1e-10]
    ties = [1 + 2.0**-11, 1 + 3 * 2.0**-11, 2049.0, 2051.0]  # exactly between two halves
    values = np.array(special + tiny + [-v for v in tiny] + ties, np.float32)
    f = np.concatenate([values, f32(128 - len(values)) * 1000]).astype(np.float32)
    hin = np.concatenate([np.arange(-60000, 60000, 1000, dtype=np.float16)[:100], f16(28)])
    hin[:4] = [np.float16(2.0**-24), np.float16(-np.inf), np.float16(np.nan), np.float16(6e-5)]
    out = run(
        "convert.c",
        "convert",
        {"F": f, "H": np.zeros(128, np.float16), "HIN": hin, "G": np.zeros(128, np.float32)},
    )
    with np.errstate(over="ignore"):
        expected = f.astype(np.float16)
    np.testing.assert_array_equal(out.buffers["H"], expected)  # NaN == NaN here
    assert np.array_equal(out.buffers["H"].view(np.uint16) >> 15, expected.view(np.uint16) >> 15)
    np.testing.assert_array_equal(out.buffers["G"], hin.astype(np.float32))


def test_integer_conversions() -> None:
    f = np.concatenate([[0.0, -0.0, 2.5, -2.5, 0.999, -0.999, 1e10, -1e10, np.nan, 16777217.0]])
    f = np.concatenate([f, f32(118) * 1e5]).astype(np.float32)
    iin = np.concatenate([[0, 1, -1, 127, 128, -128, -129, 255, 256, 2**31 - 1, -(2**31)]])
    iin = np.concatenate([iin, RNG.integers(-(2**31), 2**31, 117)]).astype(np.int32)
    s8 = RNG.integers(-128, 128, 128).astype(np.int8)
    u8 = RNG.integers(0, 256, 128).astype(np.uint8)
    out = run(
        "convert_int.c",
        "convert_int",
        {
            "F": f,
            "I": np.zeros(128, np.int32),
            "IIN": iin,
            "G": np.zeros(128, np.float32),
            "S8IN": s8,
            "W": np.zeros(128, np.int32),
            "U8IN": u8,
            "V": np.zeros(128, np.int32),
            "S": np.zeros(128, np.int8),
            "U": np.zeros(128, np.uint8),
        },
    )
    # truncation toward zero; saturation out of range; NaN -> 0
    want = np.trunc(np.nan_to_num(f.astype(np.float64), nan=0.0))
    want = np.clip(want, -(2**31), 2**31 - 1).astype(np.int32)
    np.testing.assert_array_equal(out.buffers["I"], want)
    np.testing.assert_array_equal(out.buffers["G"], iin.astype(np.float32))
    np.testing.assert_array_equal(out.buffers["W"], s8.astype(np.int32))
    np.testing.assert_array_equal(out.buffers["V"], u8.astype(np.int32))
    np.testing.assert_array_equal(out.buffers["S"], iin.astype(np.int8))  # the low 8 bits
    np.testing.assert_array_equal(out.buffers["U"], iin.astype(np.uint8))


def test_16_bit_integer_conversions() -> None:
    """int16/uint16 <-> int32: widening exact, narrowing keeps the low 16 bits."""
    iin = np.concatenate([[0, 1, -1, 32767, 32768, -32768, -32769, 65535, 65536, 2**31 - 1]])
    iin = np.concatenate([iin, RNG.integers(-(2**31), 2**31, 118)]).astype(np.int32)
    s16 = RNG.integers(-(2**15), 2**15, 128).astype(np.int16)
    u16 = RNG.integers(0, 2**16, 128).astype(np.uint16)
    out = run(
        "convert_int16.c",
        "convert_int16",
        {
            "S16IN": s16,
            "W": np.zeros(128, np.int32),
            "U16IN": u16,
            "V": np.zeros(128, np.int32),
            "IIN": iin,
            "S": np.zeros(128, np.int16),
            "U": np.zeros(128, np.uint16),
        },
    )
    np.testing.assert_array_equal(out.buffers["W"], s16.astype(np.int32))
    np.testing.assert_array_equal(out.buffers["V"], u16.astype(np.int32))
    np.testing.assert_array_equal(out.buffers["S"], iin.astype(np.int16))
    np.testing.assert_array_equal(out.buffers["U"], iin.astype(np.uint16))


def test_scalar_unit_gathers_through_ub() -> None:
    v = f32(8)
    idx = np.array([0, 7, 3, -5, 12, 1, 1, 6, 2, 5, 4, 0, 7, 9, -1, 3], np.int32)
    out = run("scalar.c", "scalar_gather", {"V": v, "I": idx, "O": np.zeros(16, np.float32)})
    np.testing.assert_array_equal(out.buffers["O"], v[np.clip(idx, 0, 7)])
    assert out.report.instructions["PIPE_S"] == 48  # per element: load the index, load, store
    assert out.report.busy_cycles["PIPE_S"] == 48


def test_reductions() -> None:
    x, xh = f32(4, 64), f16(2, 128)
    x[3, 5] = 100.0
    buffers = {
        "X": x,
        "XH": xh,
        "SUM": np.zeros(8, np.float32),
        "MAX": np.zeros(8, np.float32),
        "MIN": np.zeros(8, np.float32),
        "PART": np.zeros(8, np.float32),
        "HSUM": np.zeros(16, np.float16),
    }
    out = run("reduce.c", "reduce", buffers).buffers
    # a float sum's rounding error scales with the magnitudes summed, not with the (possibly
    # cancelling) result
    scale = 1e-6 * float(np.abs(x).sum(axis=1).max())
    np.testing.assert_allclose(out["SUM"][:4], x.sum(axis=1), rtol=1e-5, atol=scale)
    assert np.array_equal(out["MAX"][:4], x.max(axis=1))
    assert np.array_equal(out["MIN"][:4], x.min(axis=1))
    np.testing.assert_allclose(out["PART"][:4], x[:, :16].sum(axis=1), rtol=1e-5, atol=scale)
    # fp16: accumulated in fp32, rounded once
    expected = xh.astype(np.float32).sum(axis=1).astype(np.float16)
    np.testing.assert_allclose(out["HSUM"][:2], expected, rtol=1e-3)


def test_matmul_16x16x16() -> None:
    a, b = f16(16, 16), f16(16, 16)
    out = run("matmul.c", "matmul16", {"A": a, "B": b, "C": np.zeros((16, 16), np.float32)})
    expected = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(out.buffers["C"], expected, rtol=1e-5, atol=1e-6)
    report = out.report
    assert report.macs == 16**3
    assert report.bytes_moved["L1->L0A"] == report.bytes_moved["L1->L0B"] == 512
    assert report.bytes_moved["L0C->UB"] == 1024
    assert report.peak_bytes["L0C"] == 1024


def test_matmul_relu_to_half() -> None:
    a, b = f16(16, 16), f16(16, 16)
    out = run(
        "matmul.c", "matmul16_relu_half", {"A": a, "B": b, "H": np.zeros((16, 16), np.float16)}
    )
    exact = np.maximum(a.astype(np.float32) @ b.astype(np.float32), 0)
    np.testing.assert_allclose(out.buffers["H"].astype(np.float32), exact, rtol=1e-3, atol=1e-4)
    assert out.buffers["H"].dtype == np.float16


def test_matmul_32x64x48_fractal_layouts() -> None:
    a, b = f16(32, 64), f16(64, 48)
    out = run("matmul.c", "matmul_32x64x48", {"A": a, "B": b, "C": np.zeros((32, 48), np.float32)})
    expected = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(out.buffers["C"], expected, rtol=1e-5, atol=1e-5)
    assert out.report.macs == 2 * 32 * 32 * 48


def test_matmul_through_ub_and_transposed_a_load() -> None:
    at, b = f16(16, 16), f16(16, 16)
    out = run(
        "matmul.c", "matmul16_from_ub", {"AT": at, "B": b, "C": np.zeros((16, 16), np.float32)}
    )
    expected = (2 * at.astype(np.float32)).T @ b.astype(np.float32)
    np.testing.assert_allclose(out.buffers["C"], expected, rtol=1e-5, atol=1e-6)
    assert out.report.bytes_moved["UB->L1"] == 512


def test_byte_exact_transfers_move_ragged_rows() -> None:
    """`copy_gm_to_ubuf_align` reads rows from any GM byte into whole UB blocks (the rest of a
    row's last block zero), `copy_ubuf_to_gm_align` writes back exactly the rows' bytes."""
    rows, cols, first = 5, 21, 3  # PITCH = 32 elements: 2 blocks a row
    x = f16(12, cols)
    o = f16(12, cols)
    out = run("dma_align.c", "rows_in_and_out", {"X": x, "O": o})
    want = o.copy()
    want[first : first + rows] = x[first : first + rows] * 2
    assert np.array_equal(out.buffers["O"], want)
    # whole UB blocks travel: 2 blocks (64 B) per 42-byte row, both ways
    assert out.report.bytes_moved["GM->UB"] == rows * 64
    assert out.report.bytes_moved["UB->GM"] == rows * 64
    assert out.report.by_intrinsic["copy_gm_to_ubuf_align"] == 1


def test_byte_exact_transfers_skip_rows_by_byte_gaps() -> None:
    cols = 21
    x, o = f16(4, cols), f16(4, cols)
    out = run("dma_align.c", "every_other_row", {"X": x, "O": o})
    want = o.copy()
    want[0], want[2] = x[1], x[3]
    assert np.array_equal(out.buffers["O"], want)


def test_byte_exact_transfers_keep_ub_on_blocks() -> None:
    from plaidc.backends.npu_sim import NpuSimError

    from .support.npu_sim import error_line

    with pytest.raises(NpuSimError) as caught:
        run("dma_align.c", "misaligned_ub_align", {"X": f16(64)})
    err = caught.value
    assert err.instruction == "copy_gm_to_ubuf_align"
    assert err.line == error_line("dma_align.c", "misaligned_ub_align")
    assert "misaligned dst" in str(err) and "32-byte alignment" in str(err)


@pytest.mark.parametrize("lacked", ["copy_gm_to_ubuf_align", "copy_ubuf_to_gm_align"])
def test_a_chip_without_byte_exact_transfers_rejects_them(lacked: str) -> None:
    """NPU.md's strict machine (`[hardware] lacks` the `_align` DMAs, as `npu-strict` does):
    the one it lacks is a hard error at its line, the other still runs."""
    from plaidc.backends.npu_sim import NpuSimError

    from .support.npu_sim import KERNELS

    x, o = f16(12, 21), f16(12, 21)
    machine = default_machine().replace(lacks=(lacked,))
    with pytest.raises(NpuSimError) as caught:
        run("dma_align.c", "rows_in_and_out", {"X": x, "O": o}, machine=machine)
    err = caught.value
    assert err.instruction == lacked
    assert f"{lacked} is not in this machine's instruction set ([hardware] lacks it)" in str(err)
    lines = (KERNELS / "dma_align.c").read_text().splitlines()
    assert err.line == next(i + 1 for i, t in enumerate(lines) if t.lstrip().startswith(lacked))
