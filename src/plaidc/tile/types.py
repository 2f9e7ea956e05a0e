"""Tile's element types, their promotion rules and the table of functions it knows.

Promotion follows PlaidML's arithmetic conversion rank (bool < i8 < u8 < i16 < u16 < i32 <
u32 < i64 < u64 < fp16 < bf16 < fp32 < fp64): an operation's type is the higher-ranked of its
operands. Literals are *weak*: an integer literal adopts the other operand's type, a float
literal adopts a floating-point type and otherwise makes the result fp32 (TILE.md "Types").
"""

from __future__ import annotations

from dataclasses import dataclass

from plaidc.stripe.ir import DType

_RANK = {
    DType.BOOL: 0,
    DType.I8: 1,
    DType.U8: 2,
    DType.I16: 3,
    DType.U16: 4,
    DType.I32: 5,
    DType.U32: 6,
    DType.I64: 7,
    DType.U64: 8,
    DType.FP16: 9,
    DType.BF16: 10,
    DType.FP32: 11,
    DType.FP64: 12,
}

DTYPE_NAMES = tuple(d.value for d in DType)


def parse_dtype(name: str) -> DType | None:
    """The DType called `name`, or None."""
    try:
        return DType(name)
    except ValueError:
        return None


def promote(a: DType, b: DType) -> DType:
    """The common supertype of two element types."""
    return a if _RANK[a] >= _RANK[b] else b


@dataclass(frozen=True)
class ScalarType:
    """The type of a value: an element type and whether it comes from a bare literal."""

    dtype: DType
    weak: bool = False


INT_LITERAL = ScalarType(DType.I32, weak=True)
FLOAT_LITERAL = ScalarType(DType.FP32, weak=True)


def unify(a: ScalarType, b: ScalarType) -> ScalarType:
    """The type of a binary operation's operands after literals adopted the other's type."""
    if a.weak and b.weak:
        return ScalarType(promote(a.dtype, b.dtype), weak=True)
    if a.weak or b.weak:
        lit, other = (a, b) if a.weak else (b, a)
        if lit.dtype.is_float and not other.dtype.is_float:
            return ScalarType(DType.FP32)
        return ScalarType(other.dtype)
    return ScalarType(promote(a.dtype, b.dtype))


def unify_all(types: list[ScalarType]) -> ScalarType:
    out = types[0]
    for t in types[1:]:
        out = unify(out, t)
    return out


# --------------------------------------------------------------------------------------------
# Functions (TILE.md "Functions known by name")

#: Functions whose result has the (unified) type of their arguments.
SAME_TYPE_FUNCS = {
    "abs": 1,
    "ceil": 1,
    "floor": 1,
    "round": 1,
    "relu": 1,
    "ident": 1,
    "max": 2,
    "min": 2,
}

#: Functions that compute in floating point: an integer argument gives an fp32 result.
FLOAT_FUNCS = {
    "acos": 1,
    "asin": 1,
    "atan": 1,
    "cos": 1,
    "cosh": 1,
    "exp": 1,
    "log": 1,
    "pow": 2,
    "recip": 1,
    "sigmoid": 1,
    "sin": 1,
    "sinh": 1,
    "sqrt": 1,
    "tan": 1,
    "tanh": 1,
}

#: Casts and the bit widths each accepts (as_bool takes no width).
CASTS: dict[str, dict[int, DType]] = {
    "as_float": {16: DType.FP16, 32: DType.FP32, 64: DType.FP64},
    "as_int": {8: DType.I8, 16: DType.I16, 32: DType.I32, 64: DType.I64},
    "as_uint": {8: DType.U8, 16: DType.U16, 32: DType.U32, 64: DType.U64},
    "as_bool": {},
}

#: Whole-buffer operations, only allowed as the whole right-hand side of a statement
#: (except `index`, which is elementwise), with their argument counts (None: at least 1).
SPECIALS: dict[str, int | None] = {
    "reshape": None,
    "gather": 2,
    "scatter": 3,
    "index": 2,
    "shape": 1,
    "builtin_softmax": 3,
    "builtin_logsoftmax": 3,
}

#: Operators as intrinsics (TILE.md "Elementwise").
BINARY_INTRINSICS = {
    "+": "add",
    "-": "sub",
    "*": "mul",
    "/": "div",
    "==": "cmp_eq",
    "!=": "cmp_ne",
    "<": "cmp_lt",
    ">": "cmp_gt",
    "<=": "cmp_le",
    ">=": "cmp_ge",
    "&": "bit_and",
    "|": "bit_or",
    "^": "bit_xor",
    "<<": "bit_left",
    ">>": "bit_right",
}
UNARY_INTRINSICS = {"-": "neg", "~": "bit_not"}
BITWISE = {"bit_and", "bit_or", "bit_xor", "bit_left", "bit_right", "bit_not"}

#: The intrinsics operators desugar to may also be called by name (`cond(C, A, B)`), as
#: PlaidML's own printed Tile does.
OPERATOR_FUNCS = {
    **{name: 2 for name in BINARY_INTRINSICS.values()},
    "neg": 1,
    "bit_not": 1,
    "cond": 3,
}

KNOWN_FUNCTIONS = tuple(
    sorted({*SAME_TYPE_FUNCS, *FLOAT_FUNCS, *CASTS, *SPECIALS, *OPERATOR_FUNCS})
)


def function_arity(name: str) -> int | None:
    """The number of arguments `name` takes (None: variable), for the known functions."""
    if name in SAME_TYPE_FUNCS:
        return SAME_TYPE_FUNCS[name]
    if name in FLOAT_FUNCS:
        return FLOAT_FUNCS[name]
    if name in CASTS:
        return 1 if name == "as_bool" else 2
    if name in OPERATOR_FUNCS:
        return OPERATOR_FUNCS[name]
    return SPECIALS.get(name)


def function_result(name: str, args: list[ScalarType]) -> ScalarType:
    """The result type of an elementwise function applied to arguments of these types."""
    unified = unify_all(args)
    if name in FLOAT_FUNCS and not unified.dtype.is_float:
        return ScalarType(DType.FP32)
    return unified
