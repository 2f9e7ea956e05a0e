"""ONNX element types narrower than any Tile type, carried in a wider Tile type that holds
their values exactly: the 8- and 4-bit floats in fp32, the 4- and 2-bit integers in i8/u8.

A carried tensor holds only values of its ONNX type, so its values are exact; what makes a
value one of them is the Cast into the type, written here as Tile arithmetic with the ONNX
semantics (the onnx reference's, i.e. ml_dtypes' conversions):

* to a narrow float: round to nearest, ties to even, at the format's precision (fixed below its
  smallest normal); out of range saturates to the largest finite value (`saturate`, the
  default, and float4 always) or becomes inf (E5M2) / NaN (the others); NaN stays NaN (float4,
  which has none, gives 0);
* to a narrow integer: C conversion to an integer (truncation), then wrap-around to the width.

Arithmetic on a carried type would round after every operation in the narrow type, which the
wide Tile type does not do: only Cast and Identity take carried tensors (others are an error).
bfloat16 is not carried: it is Tile's bf16.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from plaidc.onnx.emitter import Emitter, Unsupported, Value, literal


@dataclass(frozen=True)
class NarrowFloat:
    """A small float format: `mantissa` stored bits, the exponent of its smallest normal,
    its largest finite value, and what a finite value beyond it becomes unsaturated."""

    mantissa: int
    min_exponent: int
    max: float
    overflow: str  # "inf", "nan" or "max"
    has_nan: bool = True


#: ml_dtypes' type name -> the format (float8e8m0 is readable, no Cast writes it).
NARROW_FLOATS = {
    "float8_e4m3fn": NarrowFloat(3, -6, 448.0, "nan"),
    "float8_e4m3fnuz": NarrowFloat(3, -7, 240.0, "nan"),
    "float8_e5m2": NarrowFloat(2, -14, 57344.0, "inf"),
    "float8_e5m2fnuz": NarrowFloat(2, -15, 57344.0, "nan"),
    "float4_e2m1fn": NarrowFloat(1, 0, 6.0, "max", has_nan=False),
}
READ_ONLY_FLOATS = {"float8_e8m0fnu"}
#: narrow integers: (bits, signed)
NARROW_INTS = {"int4": (4, True), "uint4": (4, False), "int2": (2, True), "uint2": (2, False)}


def carrier(dtype: np.dtype[Any]) -> np.dtype[Any] | None:
    """The numpy dtype that carries `dtype` in Tile (None: not a carried type)."""
    name = np.dtype(dtype).name
    if name in NARROW_FLOATS or name in READ_ONLY_FLOATS:
        return np.dtype(np.float32)
    if name in NARROW_INTS:
        return np.dtype(np.int8 if NARROW_INTS[name][1] else np.uint8)
    return None


def is_carried(dtype: np.dtype[Any]) -> bool:
    return carrier(dtype) is not None


def to_carrier(array: np.ndarray) -> np.ndarray:
    """An array of a carried type as its carrier (exact); others unchanged."""
    wide = carrier(array.dtype)
    return array if wide is None else np.asarray(array).astype(wide)


def from_carrier(array: np.ndarray, dtype: np.dtype[Any]) -> np.ndarray:
    """A result of ONNX type `dtype` as that type (exact: it holds that type's values)."""
    if is_carried(dtype) or np.dtype(dtype).name == "bfloat16":
        return np.asarray(array).astype(dtype)
    return array


def cast_into(out: Emitter, x: Value, to: np.dtype[Any], saturate: bool) -> Value:
    """`x` converted to the carried type `to`, by Tile arithmetic in its carrier."""
    name = np.dtype(to).name
    if name in NARROW_INTS:
        return _wrap_int(out, x, to, *NARROW_INTS[name])
    if name in NARROW_FLOATS:
        return _round_float(out, x, to, NARROW_FLOATS[name], saturate)
    raise Unsupported(f"a Cast to element type {name} is not supported")


def _wrap_int(out: Emitter, x: Value, to: np.dtype[Any], bits: int, signed: bool) -> Value:
    source = out.tensor(x)
    whole = source if x.dtype.kind in "iu" else f"as_int({source}, 32)"  # floats truncate
    width, half = 1 << bits, 1 << (bits - 1)
    if signed:
        text = f"as_int(((({whole}) + {half}) & {width - 1}) - {half}, 8)"
    else:
        text = f"as_uint(({whole}) & {width - 1}, 8)"
    return out.assign("Cast", text, x.shape, to)


def _round_float(
    out: Emitter, x: Value, to: np.dtype[Any], fmt: NarrowFloat, saturate: bool
) -> Value:
    """Round to nearest even at the format's precision, in fp64 for fp64 and integer
    sources (exact there) and fp32 otherwise."""
    wide = x.dtype.kind in "iu" or x.dtype == np.float64
    bits, huge = (64, 2.0**1023) if wide else (32, 2.0**127)
    compute = np.dtype(np.float64 if wide else np.float32)
    source = out.tensor(x)
    if x.dtype != compute:
        widened = out.assign("Wide", f"as_float({source}, {bits})", x.shape, compute)
        assert widened.tile is not None
        source = widened.tile
    lit = lambda v: literal(v, compute)  # noqa: E731
    shape = x.shape
    # |x|, limited to twice the largest value (still an overflow, and no inf / inf below)
    a = out.assign("Abs", f"min(abs({source}), {lit(2 * fmt.max)})", shape, compute).tile
    # its binade 2^e: log2 rounded down, corrected by one where log is off at a power of 2
    e0 = out.assign("Exp2", f"floor(log({a}) * {lit(1.4426950408889634)})", shape, compute).tile
    e1 = out.assign(
        "Exp2",
        f"{e0} - (pow(2.0, {e0}) > {a} ? 1.0 : 0.0) + (pow(2.0, {e0} + 1.0) <= {a} ? 1.0 : 0.0)",
        shape,
        compute,
    ).tile
    ulp = out.assign(
        "Ulp", f"pow(2.0, max({e1}, {lit(fmt.min_exponent)}) - {fmt.mantissa})", shape, compute
    ).tile
    y = out.assign("Units", f"{a} / {ulp}", shape, compute).tile  # exact: a power of 2
    r0 = out.assign("Up", f"floor({y} + 0.5)", shape, compute).tile
    # a tie rounds to the even neighbour: down by one where r0 is odd
    r = out.assign(
        "Even", f"{r0} - ({r0} - {y} == 0.5 ? {r0} - 2.0 * floor({r0} * 0.5) : 0.0)", shape, compute
    ).tile
    q = out.assign("Rounded", f"{r} * {ulp}", shape, compute).tile
    sign = f"({source} < 0.0 ? -1.0 : 1.0)"
    if saturate or fmt.overflow == "max":
        mag = f"min({q}, {lit(fmt.max)})"
    elif fmt.overflow == "inf":  # a * 2^127 overflows: a > max >= 2^15
        mag = f"({q} > {lit(fmt.max)} ? {a} * {lit(huge)} : {q})"
    else:  # inf - inf: NaN
        mag = f"({q} > {lit(fmt.max)} ? {a} * {lit(huge)} - {a} * {lit(huge)} : {q})"
    nan = source if fmt.has_nan else "0.0"
    text = f"{source} == {source} ? {sign} * {mag} : {nan}"
    value = out.assign("Cast", text, shape, compute)
    if bits == 64:
        value = out.assign("Cast", f"as_float({value.tile}, 32)", shape, np.dtype(np.float32))
    return Value(shape, np.dtype(to), value.tile)
