"""Scalar intrinsics (TILE.md's function names plus `assign`), vectorised over points.

Each intrinsic maps per-point values (1-D arrays, or Python scalars meaning "the same at every
point") to one value. Types follow numpy 2 promotion, in which Python scalars are weak: a literal
`(int)0` compared with an fp32 value is compared as fp32, added to an i8 value gives i8. Integer
division and remainder follow C (truncation toward zero); comparisons give bool; casts take their
bit width from a second, constant input.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from plaidc.interp.dtypes import Value, convert
from plaidc.interp.errors import InterpError
from plaidc.stripe.ir import arity_error

Impl = Callable[..., Value]


def _is_weak(value: Value) -> bool:
    """Python scalars (not numpy scalars) are weakly typed under NEP 50."""
    return isinstance(value, (int, float, bool)) and not isinstance(value, np.generic)


def _is_integer(*values: Value) -> bool:
    kind = np.result_type(*values).kind
    return kind in "iu"


def _div(a: Value, b: Value) -> Value:
    """C division: truncating for integers, true division otherwise."""
    if _is_integer(a, b):
        # a - fmod(a, b) is an exact multiple of b, so floor division of it is exact truncation.
        return np.floor_divide(np.subtract(a, np.fmod(a, b)), b)
    return np.true_divide(a, b)


def _round(x: Value) -> Value:
    """C `round`: halfway cases away from zero (numpy's `round` goes to even)."""
    if _is_integer(x):
        return x
    whole = np.trunc(x)
    frac = np.subtract(x, whole)  # exact for binary floats
    return np.where(np.abs(frac) >= 0.5, np.add(whole, np.sign(x)), whole)


def _pow(a: Value, b: Value) -> Value:
    if _is_integer(a, b) and np.any(np.less(b, 0)):
        # numpy refuses negative integer exponents; C code would go through floating point.
        return np.power(np.asarray(a, dtype=np.float64), b).astype(np.result_type(a, b))
    return np.power(a, b)


def _sigmoid(x: Value) -> Value:
    return np.true_divide(1, np.add(1, np.exp(np.negative(x))))


def _relu(x: Value) -> Value:
    return np.maximum(x, 0)


def _cond(c: Value, a: Value, b: Value) -> Value:
    return np.where(np.not_equal(c, 0), a, b)


def _ident(x: Value) -> Value:
    return x


def _bit_not(x: Value) -> Value:
    return np.invert(x)


def _cast_width(width: Value, name: str, allowed: tuple[int, ...]) -> int:
    arr = np.asarray(width)
    if arr.size == 0 or not np.all(arr == arr.flat[0]):
        raise InterpError(f"intrinsic {name} needs a constant bit width")
    bits = int(arr.flat[0])
    if bits not in allowed:
        raise InterpError(f"intrinsic {name}: bit width {bits} is not one of {allowed}")
    return bits


def _as_float(x: Value, width: Value = 32) -> Value:
    bits = _cast_width(width, "as_float", (16, 32, 64))
    return np.asarray(x).astype(np.dtype(f"float{bits}"), casting="unsafe")


def _as_int(x: Value, width: Value = 32) -> Value:
    bits = _cast_width(width, "as_int", (8, 16, 32, 64))
    return convert(x, np.dtype(f"int{bits}"))


def _as_uint(x: Value, width: Value = 32) -> Value:
    bits = _cast_width(width, "as_uint", (8, 16, 32, 64))
    return convert(x, np.dtype(f"uint{bits}"))


def _as_bool(x: Value, width: Value = 1) -> Value:
    return np.not_equal(x, 0)


INTRINSICS: dict[str, Impl] = {
    # arithmetic
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": _div,
    "neg": np.negative,
    # comparisons (bool results)
    "cmp_eq": np.equal,
    "cmp_ne": np.not_equal,
    "cmp_lt": np.less,
    "cmp_gt": np.greater,
    "cmp_le": np.less_equal,
    "cmp_ge": np.greater_equal,
    "cond": _cond,
    # bitwise
    "bit_and": np.bitwise_and,
    "bit_or": np.bitwise_or,
    "bit_xor": np.bitwise_xor,
    "bit_not": _bit_not,
    "bit_left": np.left_shift,
    "bit_right": np.right_shift,
    # functions
    "abs": np.abs,
    "acos": np.arccos,
    "asin": np.arcsin,
    "atan": np.arctan,
    "ceil": np.ceil,
    "cos": np.cos,
    "cosh": np.cosh,
    "exp": np.exp,
    "floor": np.floor,
    "log": np.log,
    "max": np.maximum,
    "min": np.minimum,
    "pow": _pow,
    "recip": lambda x: np.true_divide(1, x),
    "relu": _relu,
    "round": _round,
    "sigmoid": _sigmoid,
    "sin": np.sin,
    "sinh": np.sinh,
    "sqrt": np.sqrt,
    "tan": np.tan,
    "tanh": np.tanh,
    "ident": _ident,
    "assign": _ident,
    # casts: the second input is the bit width, from a constant
    "as_float": _as_float,
    "as_int": _as_int,
    "as_uint": _as_uint,
    "as_bool": _as_bool,
}

# How many inputs each intrinsic takes: (fewest, most).


def apply_intrinsic(name: str, args: Sequence[Value], where: str) -> Value:
    """Apply intrinsic `name` to `args`; `where` names the block for error messages.

    Raises InterpError for an unknown name, a wrong number of inputs, or inputs whose types the
    operation does not accept (e.g. `bit_and` on floats).
    """
    impl = INTRINSICS.get(name)
    if impl is None:
        raise InterpError(f"{where}: unknown intrinsic '{name}'")
    problem = arity_error(name, len(args))
    if problem:
        raise InterpError(f"{where}: {problem}")
    try:
        # C leaves division by zero, overflow and domain errors to the hardware; numpy's
        # IEEE results (inf, NaN, wrap-around) are what a CPU gives, so no warnings.
        with np.errstate(all="ignore"):
            result = impl(*args)
    except (TypeError, ValueError, OverflowError) as err:
        types = ", ".join(_type_name(a) for a in args)
        raise InterpError(f"{where}: intrinsic '{name}' cannot apply to ({types}): {err}") from err
    if all(_is_weak(a) for a in args):
        # Keep results of constant-only expressions weakly typed, as their inputs were.
        return np.asarray(result).item()
    return result


def _type_name(value: Value) -> str:
    if _is_weak(value):
        return f"literal {type(value).__name__}"
    return str(np.asarray(value).dtype)
