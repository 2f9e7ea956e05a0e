"""How Stripe element types live in numpy: storage dtypes, casts on store, and poison values.

Every `DType` maps to the numpy dtype of the same width and kind, except `bf16`, which numpy does
not have: a bf16 buffer is stored as float32 and every value written into it is rounded to the
nearest bf16 (round half to even, NaN kept), so the stored values are exactly the bf16 values and
arithmetic on loaded values happens in float32 (as bf16 hardware usually does). Programs' bf16
outputs come back as float32 arrays holding bf16-representable values.
"""

from __future__ import annotations

from typing import Union

import numpy as np

from plaidc.stripe.ir import DType

_NUMPY_DTYPES: dict[DType, np.dtype] = {
    DType.BOOL: np.dtype(np.bool_),
    DType.I8: np.dtype(np.int8),
    DType.I16: np.dtype(np.int16),
    DType.I32: np.dtype(np.int32),
    DType.I64: np.dtype(np.int64),
    DType.U8: np.dtype(np.uint8),
    DType.U16: np.dtype(np.uint16),
    DType.U32: np.dtype(np.uint32),
    DType.U64: np.dtype(np.uint64),
    DType.FP16: np.dtype(np.float16),
    DType.FP32: np.dtype(np.float32),
    DType.FP64: np.dtype(np.float64),
    DType.BF16: np.dtype(np.float32),  # emulated, see the module docstring
}

# A scalar value during execution: one value per point (a 1-D array), or a Python scalar that
# stands for the same value at every point. Python scalars come from `(int)`/`(float)` constants
# and stay *weakly typed*: numpy 2 lets them adopt the other operand's dtype (NEP 50), which is
# TILE.md's rule for literals.
Value = Union[np.ndarray, np.generic, int, float, bool]


def numpy_dtype(dtype: DType) -> np.dtype:
    """The numpy dtype that stores elements of `dtype` (float32 for bf16)."""
    return _NUMPY_DTYPES[dtype]


def round_to_bf16(values: np.ndarray) -> np.ndarray:
    """Round float32 values to the nearest bfloat16 (ties to even), returned as float32."""
    f32 = np.ascontiguousarray(values, dtype=np.float32)
    bits = f32.view(np.uint32)
    # Add 0x7FFF plus the lowest kept bit, then truncate: round-to-nearest-even on the top half.
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) & np.uint32(
        0xFFFF0000
    )
    out = rounded.view(np.float32)
    # The carry can turn a NaN into an infinity; keep NaNs NaN.
    return np.where(np.isnan(f32), f32, out)


def cast_to(values: Value, dtype: DType) -> np.ndarray:
    """Convert `values` to the storage dtype of `dtype` with C conversion semantics
    (float to integer: `convert`)."""
    target = numpy_dtype(dtype)
    arr = np.asarray(values)
    out = arr != 0 if dtype is DType.BOOL and arr.dtype != np.bool_ else convert(arr, target)
    if dtype is DType.BF16:
        out = round_to_bf16(out)
    return np.asarray(out)


# The integer type C (and numpy on x86-64) converts a float through on its way to these types;
# the backends' lowering converts the same way (`convert`).
FLOAT_CONVERTS_THROUGH: dict[DType, DType] = {
    DType.I8: DType.I32,
    DType.U8: DType.I32,
    DType.I16: DType.I32,
    DType.U16: DType.I32,
    DType.U32: DType.I64,
    DType.U64: DType.I64,
}
_THROUGH = {
    numpy_dtype(target): np.iinfo(numpy_dtype(through))
    for target, through in FLOAT_CONVERTS_THROUGH.items()
}


def convert(values: Value, target: np.dtype) -> np.ndarray:
    """`values` as `target` (numpy's unsafe conversion). A float becoming an integer is
    truncated toward zero: exact where that fits `target`; where it does not but fits the type
    the conversion goes through (int32 for 8- and 16-bit targets, int64 for u32 and u64) it
    wraps modulo 2^bits, so `as_int(300.0, 8)` is 44 and `as_uint(-3.0, 32)` is 2^32 - 3 (as
    numpy does on x86-64, and every backend); NaN, infinities and values beyond both are
    unspecified (numpy's result here; backends may differ)."""
    arr = np.asarray(values)
    with np.errstate(invalid="ignore", over="ignore"):
        out = arr.astype(target, casting="unsafe")
        through = _THROUGH.get(np.dtype(target))
        if arr.dtype.kind != "f" or through is None:
            return out
        t = np.trunc(arr.astype(np.float64))
        own = np.iinfo(out.dtype)
        fits = (t >= float(own.min)) & (t < float(own.max) + 1)
        wraps = (t >= float(through.min)) & (t < -float(through.min)) & ~fits
        if np.any(wraps):
            wrapped = np.where(wraps, t, 0).astype(through.dtype).astype(target)
            out = np.asarray(np.where(wraps, wrapped, out), dtype=target)
    return out


def poison_value(dtype: DType) -> int | float | bool:
    """The value a fresh (uninitialised) buffer holds, so that reading it before writing shows.

    Floats: NaN. Integers cannot hold NaN, so they get an extreme value that is unlikely to be a
    legitimate result: the most negative value for signed types, the largest for unsigned types.
    Bools: True.
    """
    if dtype.is_float:
        return float("nan")
    if dtype.is_signed_int:
        return int(np.iinfo(numpy_dtype(dtype)).min)
    if dtype.is_unsigned_int:
        return int(np.iinfo(numpy_dtype(dtype)).max)
    return True


def constant_value(value: int | float, type_name: str) -> Value:
    """The run-time value of a `Constant` statement `(type)value`.

    `int` and `float` give weakly typed Python scalars; a dtype name (`fp16`, `i8`, ...) gives a
    numpy scalar of that exact type. Raises ValueError for an unknown type name.
    """
    if type_name == "int":
        return int(value)
    if type_name == "float":
        return float(value)
    dtype = DType(type_name)  # ValueError for unknown names; the caller reports it
    return cast_to(value, dtype)[()]
