"""Value types of a kernel on the NPU's vector unit, and which intrinsics the unit can run.

Every kernel value is one of
* a *vector*: one element per iteration point, in one of the vector unit's lane types
  (fp16, fp32, int32); a `bool` is an int32 vector of 0/1 (`boolean`); an 8- or 16-bit
  integer (`i8`, `u8`, `i16`, `u16`) is an int32 vector whose values stay in its type's range
  (`narrow`): operations that can leave it (add, sub, mul, neg, abs) wrap their result back,
  so the lanes compute exactly what numpy's 8- and 16-bit arithmetic does;
* a *mask*: the bits a comparison leaves (one per lane), consumed by `cond`;
* a *scalar*: a constant, folded at compile time with the interpreter's own intrinsics, so weak
  (`(int)`/`(float)`) and strong literals promote exactly as numpy 2 does for the interpreter.

Types follow the interpreter (numpy 2 promotion); a type the unit has no lanes for (fp64 from
`i32 + fp32`, 64-bit integers, uint32) or an intrinsic outside its ISA is a CompileError
naming the operation. `tanh` and friends fail here unless a pass rewrote them. 8- and 16-bit
and bool buffers keep their width in GM and UB windows; `staging` converts them to and from
int32 lanes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from plaidc.backends.npu.kernels import Buffer, KConst, Kernel, KLoad, KOp, KStore, error
from plaidc.backends.npu.ops import ISA_TYPES
from plaidc.backends.npu_sim import isa
from plaidc.interp import InterpError, apply_intrinsic, cast_to, constant_value, numpy_dtype
from plaidc.stripe.ir import DType

# Lane types of the vector unit, by Stripe dtype.
LANE_TYPES = (DType.FP16, DType.FP32, DType.I32)
FLOATS = (DType.FP16, DType.FP32)
# Integer types kept in int32 lanes within their own range.
NARROW = (DType.I8, DType.U8, DType.I16, DType.U16)
# Buffer element types converted to int32 lanes at the window (their own width in GM).
BYTE_TYPES = (*NARROW, DType.BOOL)
# numpy's arithmetic on bools, as instructions on 0/1 lanes: add is or, mul is and.
BOOL_ARITHMETIC = {"add": "vmax", "max": "vmax", "mul": "vmin", "min": "vmin", "abs": None}
# Operations whose 8/16-bit result can leave its range in int32 lanes (wrapped back).
WRAPPING = ("add", "sub", "mul", "div", "neg", "abs")

# The ISA instructions each Tile intrinsic becomes (valops); it takes the lane types all of
# them take (isa.VECTOR_TABLE), e.g. `div` (vrec, vmul) only floats (an integer `div` goes
# through fp32 lanes and back: `IntrinsicLowering._int_div`).
LOWERED_TO = {
    "add": ("vadd",),
    "sub": ("vsub",),
    "mul": ("vmul",),
    "div": ("vrec", "vmul"),
    "max": ("vmax",),
    "min": ("vmin",),
    "neg": ("vmuls",),
    "exp": ("vexp",),
    "log": ("vln",),
    "abs": ("vabs",),
    "relu": ("vrelu",),
    "sqrt": ("vsqrt",),
    "recip": ("vrec",),
    "sigmoid": ("vmuls", "vexp", "vadds", "vrec"),
}
# floor / ceil / round of float lanes: converted to int32 with that rounding and back, where
# |x| < 2^23 (larger floats are integers already; NaN and inf stay).
ROUNDING = {"floor": "vconv_f322s32f", "ceil": "vconv_f322s32c", "round": "vconv_f322s32a"}
BINARY = ("add", "sub", "mul", "div", "max", "min")
UNARY = ("neg", "exp", "log", "abs", "relu", "sqrt", "recip", "sigmoid", *ROUNDING)
COMPARE = ("cmp_eq", "cmp_ne", "cmp_lt", "cmp_gt", "cmp_le", "cmp_ge")
PASSTHROUGH = ("assign", "ident")
CASTS = ("as_float", "as_int", "as_uint")
# The casts' results the unit has lanes for, by (intrinsic, width).
CAST_TARGETS = {
    ("as_float", 16): DType.FP16,
    ("as_float", 32): DType.FP32,
    ("as_int", 8): DType.I8,
    ("as_int", 16): DType.I16,
    ("as_int", 32): DType.I32,
    ("as_uint", 8): DType.U8,
    ("as_uint", 16): DType.U16,
}
SUPPORTED = (*BINARY, *UNARY, *COMPARE, *PASSTHROUGH, *CASTS, "cond", "as_bool")


@dataclass(frozen=True)
class VType:
    """`kind` is `vec`, `mask` or `scalar`. Vectors and masks have a lane `dtype` (a mask's is
    the type its comparison ran in); scalars carry their folded `value` (a Python number when
    weakly typed, a numpy scalar otherwise)."""

    kind: str
    dtype: DType | None = None
    boolean: bool = False
    value: object = None
    narrow: DType | None = None  # i8 / u8 values in int32 lanes

    @property
    def is_vec(self) -> bool:
        return self.kind == "vec"

    @property
    def is_scalar(self) -> bool:
        return self.kind == "scalar"

    @property
    def weak(self) -> bool:
        return self.kind == "scalar" and isinstance(self.value, (bool, int, float))


def vec(dtype: DType) -> VType:
    """A vector of (logical) type `dtype`: 8/16-bit integers in int32 lanes, bool as int32 0/1."""
    if dtype in NARROW:
        return VType("vec", DType.I32, narrow=dtype)
    if dtype is DType.BOOL:
        return VType("vec", DType.I32, boolean=True)
    return VType("vec", dtype)


def lane_of(dtype: DType) -> DType:
    """The lanes values of (logical) type `dtype` compute in."""
    return DType.I32 if dtype in BYTE_TYPES else dtype


def storage_dtype(buf: Buffer) -> DType:
    """The lane type a buffer's elements are computed in (8/16-bit and bool ones in int32)."""
    if buf.dtype in LANE_TYPES:
        return buf.dtype
    if buf.dtype in BYTE_TYPES:
        return DType.I32
    what = "program input/output" if buf.is_input or buf.is_output else "buffer"
    raise error(
        f"{what} '{buf.name}' has type {buf.dtype}, which the NPU vector unit has no lanes for "
        "(it computes in fp16, fp32 and int32, and converts i8, u8, i16, u16 and bool)"
    )


# 64-bit types numpy gives operations on 32-bit (and narrower) values: fp32 with int32
# (`A_fp32 * B_i32`), weak constants only (`c ? 1.0 : 0.0`). The interpreter computes them in
# 64 bits and rounds (wraps) at the store into a 32-bit buffer; the vector unit computes them
# in 32-bit lanes: the same values within fp32 rounding (one rounding more on the int32 ->
# fp32 conversion), and the same integers unless an intermediate leaves the int32 range.
WIDE_IN_LANES = {np.dtype(np.float64): DType.FP32, np.dtype(np.int64): DType.I32}


def _logical_dtype(np_dtype: np.dtype, what: str, kernel: Kernel) -> DType:
    for dtype in (*LANE_TYPES, *NARROW, DType.BOOL):
        if numpy_dtype(dtype) == np_dtype:
            return dtype
    if np_dtype in WIDE_IN_LANES:
        return WIDE_IN_LANES[np_dtype]
    raise error(
        f"{what} computes in {np_dtype}, which the NPU vector unit has no lanes "
        "for (fp16, fp32, int32; i8 and u8 in int32 lanes)",
        kernel.span,
    )


def _sample(t: VType) -> object:
    """A value standing for `t` in numpy's type promotion."""
    if t.is_scalar:
        return t.value
    if t.kind == "mask":
        return np.zeros(1, np.bool_)
    assert t.dtype is not None
    return np.zeros(1, numpy_dtype(t.narrow or t.dtype))


def promote(types: list[VType], what: str, kernel: Kernel) -> DType:
    """The (logical) type numpy gives an operation on `types` (at least one vector or mask;
    a mask is a bool value)."""
    samples: list[Any] = [_sample(t) for t in types]
    return _logical_dtype(np.result_type(*samples), what, kernel)


def _result_dtype(name: str, args: list[VType], where: str, kernel: Kernel) -> DType:
    """The type the interpreter's own intrinsic gives on values of these types (`exp` of an
    int32 is fp64, of an int8 fp16); the operands are converted to it."""
    samples: list[Any] = [_sample(a) for a in args]
    try:
        sample = apply_intrinsic(name, samples, where)
    except InterpError:  # the interpreter refuses these types: say so below, in NPU terms
        return promote(args, where, kernel)
    return _logical_dtype(np.asarray(sample).dtype, where, kernel)


def infer(kernel: Kernel, buffers: dict[str, Buffer]) -> dict[str, VType]:
    """The type of every value of `kernel`; CompileError for what the vector unit cannot do."""
    types: dict[str, VType] = {}

    def get(name: str) -> VType:
        if name not in types:
            raise error(f"{kernel.name}: scalar '{name}' is used before it is defined", kernel.span)
        return types[name]

    for stmt in kernel.body:
        if isinstance(stmt, KLoad):
            buf = buffers[stmt.access.buffer]
            storage_dtype(buf)  # a CompileError for a type without lanes
            types[stmt.dst] = vec(buf.dtype)
        elif isinstance(stmt, KConst):
            try:
                value = constant_value(stmt.value, stmt.type)
            except ValueError:
                raise error(f"{kernel.name}: unknown constant type '{stmt.type}'") from None
            types[stmt.dst] = VType("scalar", value=value)
        elif isinstance(stmt, KOp):
            types[stmt.dst] = _op_type(kernel, stmt, [get(a) for a in stmt.args])
        elif isinstance(stmt, KStore):
            # Every store converts (between lane types, to 8 bits at the window, to bool by
            # `!= 0`): only a buffer type without lanes is an error.
            get(stmt.src)
            storage_dtype(buffers[stmt.access.buffer])
    _widen_masks(kernel, types)
    return types


def _widen_masks(kernel: Kernel, types: dict[str, VType]) -> None:
    """A comparison of fp16 values whose every use selects between 32-bit values (argmax's
    `X == M ? I : 0` with i32 indices) runs in fp32 lanes instead (exact: fp16 -> fp32 loses
    nothing), so that its mask has the lane width of the values it selects."""
    uses: dict[str, list[KOp]] = {}
    for stmt in kernel.body:
        if isinstance(stmt, KOp):
            for arg in stmt.args:
                uses.setdefault(arg, []).append(stmt)
        elif isinstance(stmt, KStore):
            uses.setdefault(stmt.src, []).append(KOp(dst="", op="store", args=(stmt.src,)))
    for stmt in kernel.body:
        if not (isinstance(stmt, KOp) and stmt.op in COMPARE):
            continue
        mask = types[stmt.dst]
        if mask.kind != "mask" or mask.dtype is not DType.FP16:
            continue
        users = uses.get(stmt.dst, [])
        if users and all(
            use.op == "cond"
            and use.args[0] == stmt.dst
            and types[use.dst].kind == "vec"
            and (lane := types[use.dst].dtype) is not None
            and lane.byte_size == 4
            for use in users
        ):
            types[stmt.dst] = VType("mask", DType.FP32)


def _op_type(kernel: Kernel, op: KOp, args: list[VType]) -> VType:
    name = op.op
    where = f"{kernel.name}: intrinsic '{name}'"
    if name.startswith("cast_"):  # a point reading back what it stored: the stored type
        return _cast_type(where, op, args[0], DType(name[5:]))
    if name == "pow":
        raise error(
            f"{where} is not in the NPU vector ISA, and expand-math left this one: it rewrites a "
            "float base's constant powers (integers up to max_power), a constant base > 0 to a "
            "float tensor's power and pow of two float tensors of one type, not integer bases "
            "with tensor or negative exponents, mixed types or a base <= 0 with a tensor exponent",
            op.span,
        )
    if name not in SUPPORTED:
        raise error(
            f"{where} is not in the NPU vector ISA (vadd vsub vmul vmax vmin vexp vln vabs vrelu "
            "vrec vsqrt, compare/select, conversions); rewrite it with a pass",
            op.span,
        )
    if all(a.is_scalar for a in args):
        try:
            value = apply_intrinsic(name, [a.value for a in args], kernel.name)  # type: ignore[misc]
        except Exception as err:  # the interpreter's own message is the best one
            raise error(f"{where}: {err}", op.span) from None
        return VType("scalar", value=value)
    if name in PASSTHROUGH:
        return args[0]
    if name in BOOL_ARITHMETIC and all(a.boolean or a.kind == "mask" for a in args):
        return vec(DType.BOOL)
    if name in COMPARE:
        if all(a.is_scalar or a.narrow is not None for a in args):
            # 8-bit values (numpy compares i8 with u8 in int16) compare exactly in int32 lanes
            return VType("mask", DType.I32)
        return VType("mask", lane_of(promote(args, where, kernel)))
    if name == "as_bool":
        return VType("mask", lane_of(promote(args[:1], where, kernel)))
    if name == "cond":
        if args[1].kind == "mask" or args[2].kind == "mask":
            raise error(f"{where}: selecting between bool values has no NPU mapping", op.span)
        dtype = promote(args[1:], where, kernel)
        return vec(dtype)
    if name in CASTS:
        width = args[1].value if len(args) > 1 else 32
        target = None
        if isinstance(width, (int, np.integer)):
            target = CAST_TARGETS.get((name, int(width)))
        if target is None:
            raise error(f"{where}: width {width} has no NPU vector lanes", op.span)
        return vec(target)
    # bools (0/1 lanes, or comparison results made 0/1 by `operand`) promote as numpy's do
    dtype = _result_dtype(name, args, where, kernel)
    # integer division goes through fp32 and back (valops `_int_div`): every lane type
    instrs = () if name == "div" and lane_of(dtype) is DType.I32 else LOWERED_TO.get(name, ())
    for instr in instrs:
        if ISA_TYPES[lane_of(dtype)] not in isa.intrinsic(instr).types:
            raise error(f"{where} on {dtype} has no NPU vector instruction ({instr})", op.span)
    return vec(dtype)


def _cast_type(where: str, op: KOp, value: VType, dtype: DType) -> VType:
    if value.is_scalar:
        return VType("scalar", value=cast_to(np.asarray(value.value), dtype)[()])
    if value.kind == "mask" and dtype is DType.BOOL:
        return value
    if value.kind == "vec" and (dtype is not DType.BOOL or value.boolean):
        return vec(dtype)
    raise error(f"{where}: reading back a {dtype} store has no NPU mapping", op.span)
