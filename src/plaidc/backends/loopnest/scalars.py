"""Typing and lowering of Stripe's scalar statements to plan operations.

The interpreter defines what a scalar statement means, through numpy 2's promotion rules (in
which `(int)`/`(float)` constants are *weakly typed*, NEP 50). To agree with it exactly, types are
not re-derived here: each intrinsic is applied, at compile time, to stand-in values of the right
dtypes with the interpreter's own implementation (`plaidc.interp.intrinsics`), and the dtype of
the answer is the type of the generated operation. Statements whose inputs are all compile-time
constants are folded the same way, so a constant expression has exactly the interpreter's value.

A value during lowering is `Known` (a compile-time constant: a weak Python scalar or a numpy
scalar) or `Runtime` (a plan expression of a numpy dtype).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np

from plaidc.backends.loopnest.plan import (
    BOOL,
    UNARY_MATH,
    SBinary,
    ScalarType,
    SCast,
    SCompare,
    SConst,
    SExpr,
    SSelect,
    SUnary,
)
from plaidc.diagnostics import CompileError, Diagnostic, Span
from plaidc.interp import (
    FLOAT_CONVERTS_THROUGH,
    InterpError,
    apply_intrinsic,
    cast_to,
    numpy_dtype,
)
from plaidc.stripe.ir import DType

_DTYPES = {numpy_dtype(d): d for d in DType if d is not DType.BF16}


@dataclass(frozen=True)
class Known:
    """A compile-time constant: a Python scalar (weak) or a numpy scalar (strong)."""

    value: Any


@dataclass(frozen=True)
class Runtime:
    """A value computed at run time, of numpy dtype `dtype`."""

    expr: SExpr
    dtype: np.dtype


Value = Union[Known, Runtime]


def dtype_of(npdtype: np.dtype) -> DType:
    """The Stripe dtype of a numpy dtype; CompileError for types Stripe has no name for."""
    found = _DTYPES.get(np.dtype(npdtype))
    if found is None:
        raise CompileError([Diagnostic(f"values of numpy type {npdtype} are not supported")])
    return found


def storage(dtype: DType) -> DType:
    """The type elements of `dtype` are stored and computed in (bf16 lives in float32)."""
    return DType.FP32 if dtype is DType.BF16 else dtype


def stype(npdtype: np.dtype) -> ScalarType:
    return ScalarType(dtype_of(npdtype))


def literal(value: Any, dtype: DType) -> SConst:
    """A literal of `dtype` holding `value` converted as numpy converts it."""
    dtype = storage(dtype)
    with np.errstate(all="ignore"):
        arr = np.asarray(value).astype(numpy_dtype(dtype), casting="unsafe")
    item = arr.item()
    if dtype is DType.BOOL:
        item = bool(item)
    elif dtype.is_float:
        item = float(item)
    else:
        item = int(item)
    return SConst(item, ScalarType(dtype))


def _is_weak(value: Any) -> bool:
    return isinstance(value, (bool, int, float)) and not isinstance(value, np.generic)


def _outside(value: Value, npdtype: np.dtype) -> bool:
    """A weak integer constant outside the range of integer type `npdtype`."""
    if not isinstance(value, Known) or not _is_weak(value.value) or isinstance(value.value, bool):
        return False
    if not isinstance(value.value, int):
        return False
    info = np.iinfo(npdtype)
    return not info.min <= value.value <= info.max


def _u64_against_negative(op: str, args: Sequence[Value]) -> SExpr:
    """A u64 value compared with a negative literal: the value is always the greater."""
    literal_first = isinstance(args[0], Known)
    greater = {"gt", "ge", "ne"} if not literal_first else {"lt", "le", "ne"}
    return SConst(op in greater, stype(np.dtype(np.bool_)))


def _stand_in(value: Value) -> Any:
    if isinstance(value, Known):
        return value.value
    return np.ones(1, dtype=value.dtype)


def convert(value: Value, npdtype: np.dtype) -> SExpr:
    """`value` as an operand of type `npdtype` (numpy's conversion of an operand)."""
    target = stype(npdtype)
    if isinstance(value, Known):
        if target.dtype is DType.BOOL:
            return SConst(bool(value.value), target)
        return literal(value.value, target.dtype)
    if value.dtype == np.dtype(npdtype):
        return value.expr
    return cast(value.expr, target)


def cast(expr: SExpr, target: ScalarType) -> SExpr:
    """C conversion of `expr` to `target` (to bool: `!= 0`; float to integer as the
    interpreter converts, through FLOAT_CONVERTS_THROUGH's type, which a value that does not
    fit the target wraps from; a non-negative u64 directly)."""
    source = _expr_type(expr)
    if source == target:
        return expr
    if target.dtype is DType.BOOL and not target.is_vector:
        zero = literal(0, source.dtype)
        return SCompare("ne", expr, zero)
    through = FLOAT_CONVERTS_THROUGH.get(target.dtype) if source.dtype.is_float else None
    if through is None:
        return SCast(expr, target)
    wrapped = SCast(SCast(expr, ScalarType(through, target.lanes)), target)
    if target.dtype is not DType.U64:
        return wrapped
    if target.is_vector:  # no vector select here: u64 vectors convert directly
        return SCast(expr, target)
    negative = SCompare("lt", expr, literal(0, source.dtype))
    return SSelect(negative, wrapped, SCast(expr, target), target)


def _expr_type(expr: SExpr) -> ScalarType:
    return expr.type


class ScalarTyper:
    """Applies Stripe intrinsics to values; `where` names the block for error messages."""

    def __init__(self, where: str, span: Span | None = None) -> None:
        self.where = where
        self.span = span

    def error(self, message: str) -> CompileError:
        return CompileError([Diagnostic(f"{self.where}: {message}", self.span)])

    # ---- the interpreter as the type oracle -------------------------------------------------

    def _oracle(self, name: str, args: Sequence[Value]) -> Any:
        try:
            return apply_intrinsic(name, [_stand_in(a) for a in args], self.where)
        except InterpError as err:
            raise self.error(str(err).removeprefix(f"{self.where}: ")) from None
        except OverflowError as err:
            raise self.error(f"intrinsic '{name}': {err}") from None

    def apply(self, name: str, args: Sequence[Value]) -> Value:
        """The value of intrinsic `name` on `args`."""
        if all(isinstance(a, Known) for a in args):
            return self._fold(name, args)
        if name in ("ident", "assign"):
            self._oracle(name, args)  # arity check
            return args[0]
        if name == "recip":
            self._oracle(name, args)
            return self.apply("div", [Known(1), args[0]])
        if name == "relu":
            self._oracle(name, args)
            return self.apply("max", [args[0], Known(0)])
        if name == "sigmoid":
            self._oracle(name, args)
            denom = self.apply("add", [Known(1), self.apply("exp", [self.apply("neg", args)])])
            return self.apply("div", [Known(1), denom])
        result = np.asarray(self._oracle(name, args))
        out = result.dtype
        return Runtime(self._lower(name, args, out), out)

    def _fold(self, name: str, args: Sequence[Value]) -> Known:
        result = self._oracle(name, args)
        if all(_is_weak(a.value) for a in args if isinstance(a, Known)):
            return Known(result)
        return Known(np.asarray(result)[()])

    def _lower(self, name: str, args: Sequence[Value], out: np.dtype) -> SExpr:
        t = stype(out)
        if name in ("add", "sub", "mul"):
            op = name
            if t.dtype is DType.BOOL:
                op = {"add": "bit_or", "mul": "bit_and"}.get(name, name)
            return SBinary(op, convert(args[0], out), convert(args[1], out), t)
        if name in ("div", "max", "min", "pow", "bit_and", "bit_or", "bit_xor"):
            return SBinary(name, convert(args[0], out), convert(args[1], out), t)
        if name in ("bit_left", "bit_right"):
            op = "shl" if name == "bit_left" else "shr"
            return SBinary(op, convert(args[0], out), convert(args[1], out), t)
        if name.startswith("cmp_"):
            common = np.result_type(*[_stand_in(a) for a in args])
            if common.kind in "iu" and any(_outside(a, common) for a in args):
                # `u8 > -1` compares numbers, as numpy does: in int64, which holds both sides
                # unless the tensor is u64, whose every value is above a negative literal
                if common == np.uint64:
                    return _u64_against_negative(name[len("cmp_") :], args)
                common = np.dtype(np.int64)
            a, b = convert(args[0], common), convert(args[1], common)
            return SCompare(name[len("cmp_") :], a, b)
        if name == "cond":
            return SSelect(self._truth(args[0]), convert(args[1], out), convert(args[2], out), t)
        if name in ("neg", "bit_not"):
            return SUnary(name, convert(args[0], out), t)
        if name == "abs":
            return SUnary("abs", convert(args[0], out), t)
        if name in UNARY_MATH:
            operand = convert(args[0], out)
            if not t.dtype.is_float:
                # numpy's rounding functions keep integer types: nothing to do.
                return operand
            return SUnary(name, operand, t)
        if name in ("as_float", "as_int", "as_uint"):
            return convert(args[0], out)
        if name == "as_bool":
            return self._truth(args[0])
        raise self.error(f"intrinsic '{name}' is not supported by this backend")

    def _truth(self, value: Value) -> SExpr:
        """`value != 0` as a bool expression."""
        if isinstance(value, Known):
            return SConst(bool(np.not_equal(value.value, 0)), BOOL)
        if value.dtype == np.dtype(np.bool_):
            return value.expr
        return SCompare("ne", value.expr, literal(0, dtype_of(value.dtype)))


def store_value(value: Value, dtype: DType) -> SExpr:
    """What a store of `value` into an element of `dtype` writes (the interpreter's `cast_to`:
    C conversions, `!= 0` for bool, rounding to bfloat16 for bf16)."""
    if isinstance(value, Known):
        stored = cast_to(value.value, dtype)[()]
        return literal(stored, dtype)
    target = ScalarType(storage(dtype))
    expr = cast(value.expr, target)
    if dtype is DType.BF16:
        expr = SUnary("round_bf16", expr, target)
    return expr


def identity(op: str, dtype: DType) -> SConst:
    """The identity element of aggregation `op` on elements of `dtype`."""
    dtype = storage(dtype)
    if op == "add":
        return literal(0, dtype)
    if op == "mul":
        return literal(1, dtype)
    if op not in ("max", "min"):
        raise CompileError([Diagnostic(f"unknown aggregation '{op}'")])
    low = op == "max"
    if dtype is DType.BOOL:
        return SConst(not low, ScalarType(dtype))
    if dtype.is_float:
        return SConst(-math.inf if low else math.inf, ScalarType(dtype))
    info = np.iinfo(numpy_dtype(dtype))
    return SConst(int(info.min if low else info.max), ScalarType(dtype))


def aggregate(op: str, acc: SExpr, value: SExpr, t: ScalarType) -> SExpr:
    """`op(acc, value)` as the interpreter aggregates (numpy ufuncs, bool as or/and)."""
    if t.dtype is DType.BOOL:
        op = {"add": "bit_or", "mul": "bit_and", "max": "bit_or", "min": "bit_and"}[op]
    return SBinary(op, acc, value, t)


__all__ = [
    "Known",
    "Runtime",
    "ScalarTyper",
    "Value",
    "aggregate",
    "cast",
    "convert",
    "dtype_of",
    "identity",
    "literal",
    "storage",
    "store_value",
    "stype",
]
