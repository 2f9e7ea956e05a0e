"""ONNX element types narrower than Tile's (float8, float4, int4, int2: `narrow_types`), carried
in wider Tile types: a Cast into them must give exactly ml_dtypes' values (the onnx
reference's), ties, subnormals, overflow, inf and NaN included, on interp and c."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ml_dtypes = pytest.importorskip("ml_dtypes")
from onnx import TensorProto, helper  # noqa: E402

from plaidc.onnx.runner import run_onnx  # noqa: E402

from .support.onnx_models import model_of  # noqa: E402

FLOATS = {
    "float8_e4m3fn": TensorProto.FLOAT8E4M3FN,
    "float8_e4m3fnuz": TensorProto.FLOAT8E4M3FNUZ,
    "float8_e5m2": TensorProto.FLOAT8E5M2,
    "float8_e5m2fnuz": TensorProto.FLOAT8E5M2FNUZ,
    "float4_e2m1fn": TensorProto.FLOAT4E2M1,
}
INTS = {
    "int4": TensorProto.INT4,
    "uint4": TensorProto.UINT4,
    "int2": TensorProto.INT2,
    "uint2": TensorProto.UINT2,
}


def cast_model(source: int, to: int, n: int, **attrs: int) -> object:
    x = helper.make_tensor_value_info("x", source, [n])
    y = helper.make_tensor_value_info("y", to, [n])
    node = helper.make_node("Cast", ["x"], ["y"], to=to, **attrs)
    graph = helper.make_graph([node], "cast", [x], [y])
    return model_of(graph, 23)


def every_value_and_midpoint(dtype: np.dtype) -> np.ndarray:
    """All finite values of a narrow float, the midpoints between neighbours (ties), points
    just beside them, beyond the largest value, tiny values, inf and NaN, both signs."""
    bits = np.arange(256 if dtype.itemsize == 1 and "float4" not in dtype.name else 16)
    values = np.unique(bits.astype(np.uint8).view(dtype).astype(np.float64))
    values = values[np.isfinite(values)]
    mids = (values[1:] + values[:-1]) / 2
    near = np.concatenate([mids * (1 + 2.0**-20), mids * (1 - 2.0**-20)])
    top = float(values.max())
    extra = [top * 1.01, top * 1.2, top * 4, 1e30, 2.0**-30, np.inf, -np.inf, np.nan]
    grid = np.concatenate([values, mids, near, extra, -np.asarray(extra)])
    return grid.astype(np.float32)


@pytest.mark.parametrize("target", ["interp", "c"])
@pytest.mark.parametrize("saturate", [1, 0])
@pytest.mark.parametrize("name", sorted(FLOATS))
def test_cast_to_narrow_float_rounds_like_ml_dtypes(name: str, saturate: int, target: str) -> None:
    dtype = np.dtype(getattr(ml_dtypes, name))
    x = every_value_and_midpoint(dtype)
    model = cast_model(TensorProto.FLOAT, FLOATS[name], x.size, saturate=saturate)
    got = run_onnx("cast.onnx", {"x": x}, target, model=model)["y"]
    assert got.dtype == dtype
    clipped = np.clip(x, -float(ml_dtypes.finfo(dtype).max), float(ml_dtypes.finfo(dtype).max))
    with np.errstate(over="ignore", invalid="ignore"):
        want = (clipped if saturate and "float8" in name else x).astype(dtype)
    have, expect = got.astype(np.float64), want.astype(np.float64)
    if "float4" in name:  # no NaN: ml_dtypes gives (-)0, plaidc 0
        expect[np.isnan(x)] = 0.0
    np.testing.assert_array_equal(have, expect, err_msg=f"{name} saturate={saturate}")


@pytest.mark.parametrize("target", ["interp", "c"])
@pytest.mark.parametrize("name", sorted(INTS))
def test_cast_to_narrow_int_wraps_like_ml_dtypes(name: str, target: str) -> None:
    dtype = np.dtype(getattr(ml_dtypes, name))
    x = np.array([-20.5, -9, -8.5, -8, -3.7, -1, -0.5, 0, 0.9, 1.5, 2.5, 3, 7.9, 8, 15, 16, 33],
                 dtype=np.float32)  # fmt: skip
    model = cast_model(TensorProto.FLOAT, INTS[name], x.size)
    got = run_onnx("cast.onnx", {"x": x}, target, model=model)["y"]
    assert got.dtype == dtype
    np.testing.assert_array_equal(got.astype(np.int64), x.astype(dtype).astype(np.int64))


@pytest.mark.parametrize("name", sorted(FLOATS) + sorted(INTS))
def test_narrow_inputs_read_exactly(name: str) -> None:
    dtype = np.dtype(getattr(ml_dtypes, name))
    n = 16 if "4" in name or "2" in name else 256
    raw = np.arange(n).astype(np.uint8).view(dtype) if dtype.itemsize == 1 else None
    assert raw is not None
    proto = FLOATS.get(name, INTS.get(name))
    model = cast_model(proto, TensorProto.FLOAT, raw.size)
    got = run_onnx("cast.onnx", {"x": raw}, "interp", model=model)["y"]
    np.testing.assert_array_equal(got, raw.astype(np.float32))


def test_arithmetic_on_a_narrow_type_is_a_located_error() -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT8E4M3FN, [4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT8E4M3FN, [4])
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "x"], ["y"], name="add")], "g", [x], [y]
    )
    model = model_of(graph, 23)
    from plaidc.diagnostics import CompileError

    with pytest.raises(
        CompileError, match="node 0 'add' \\(Add\\): element type float8_e4m3fn is only"
    ):
        run_onnx("m.onnx", {"x": np.zeros(4, dtype=ml_dtypes.float8_e4m3fn)}, model=model)


def nearest_even(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The exact rounding of in-range `x` to `dtype`: the nearest value, ties to the one whose
    code is even (ml_dtypes rounds float64 through float32, which can round twice)."""
    codes = np.arange(256, dtype=np.uint8)
    values = codes.view(dtype).astype(np.float64)
    keep = np.isfinite(values) & ~((values == 0) & np.signbit(values))
    values, codes = values[keep], codes[keep]
    order = np.argsort(values)
    values, codes = values[order], codes[order]
    high = np.clip(np.searchsorted(values, x), 1, values.size - 1)
    low = high - 1
    below, above = x - values[low], values[high] - x
    pick = np.where(below < above, low, high)
    pick = np.where(below == above, np.where(codes[low] % 2 == 0, low, high), pick)
    return values[pick]


@pytest.mark.parametrize("target", ["interp", "c"])
@pytest.mark.parametrize("name", ["float8_e4m3fn", "float8_e5m2"])
def test_cast_from_double_rounds_once(name: str, target: str) -> None:
    """From float64 the rounding happens in float64, once: values beside a tie, closer than
    float32 can tell, go to their nearer side."""
    dtype = np.dtype(getattr(ml_dtypes, name))
    grid = every_value_and_midpoint(dtype).astype(np.float64)
    top = float(ml_dtypes.finfo(dtype).max)
    grid = grid[np.abs(grid) <= top]
    x = np.concatenate([grid, grid * (1 + 2.0**-40), grid * (1 - 2.0**-40)])
    x = x[np.abs(x) <= top]
    model = cast_model(TensorProto.DOUBLE, FLOATS[name], x.size, saturate=0)
    got = run_onnx("cast.onnx", {"x": x}, target, model=model)["y"]
    np.testing.assert_array_equal(got.astype(np.float64), nearest_even(x, dtype))


@pytest.mark.parametrize("name", sorted(INTS))
def test_cast_integers_to_narrow_int_wraps(name: str) -> None:
    dtype = np.dtype(getattr(ml_dtypes, name))
    x = np.array([-300, -9, -8, -3, -1, 0, 1, 2, 3, 7, 8, 15, 16, 257], dtype=np.int32)
    model = cast_model(TensorProto.INT32, INTS[name], x.size)
    got = run_onnx("cast.onnx", {"x": x}, "c", model=model)["y"]
    np.testing.assert_array_equal(got.astype(np.int64), x.astype(dtype).astype(np.int64))
