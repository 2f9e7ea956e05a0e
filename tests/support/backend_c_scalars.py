"""Scalar-operation cases (every intrinsic over the types) that every backend runs."""

from __future__ import annotations

import numpy as np

from plaidc.interp import numpy_dtype
from plaidc.stripe.ir import DType
from plaidc.stripe.parser import parse_stripe

from .backend_c import compile_and_compare

N = 24


FLOATS = ["fp16", "fp32", "fp64", "bf16"]


INTS = ["i8", "i16", "i32", "i64", "u8", "u32", "u64"]


BINARY = [
    "add",
    "sub",
    "mul",
    "div",
    "max",
    "min",
    "pow",
    "cmp_eq",
    "cmp_ne",
    "cmp_lt",
    "cmp_gt",
    "cmp_le",
    "cmp_ge",
]


INT_ONLY = ["bit_and", "bit_or", "bit_xor", "bit_left", "bit_right"]


UNARY_FLOAT = [
    "neg",
    "abs",
    "exp",
    "log",
    "sqrt",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "ceil",
    "floor",
    "round",
    "recip",
    "relu",
    "sigmoid",
    "ident",
]


UNARY_INT = ["neg", "abs", "bit_not", "relu", "ident", "ceil", "floor", "round"]


def program(op: str, dtype: str, out: str, arity: int, constant: str | None = None) -> str:
    """`O[i] = op(X[i], Y[i])`; with `constant`, the second operand is that constant."""
    args = ["$x"] if arity == 1 else ["$x", "$c" if constant else "$y"]
    stmts = ["$x = load(X)", "$y = load(Y)"]
    if constant:
        stmts.append(f"$c = {constant}")
    stmts += [f"$r = {op}({', '.join(args)})", "O = store($r)"]
    body = "\n".join(f"    {n}: {s}" for n, s in enumerate(stmts))
    return f"""block []:1 (
    in X[0] {dtype}({N}):(1)
    in Y[0] {dtype}({N}):(1)
    out O[0] {out}({N}):(1)
) {{
  0:
  block [i:{N}] (
      in X[i] {dtype}(1):(1)
      in Y[i] {dtype}(1):(1)
      out O[i] {out}(1):(1)
  ) {{
{body}
  }}
}}
"""


def inputs(dtype: str, op: str) -> dict[str, np.ndarray]:
    """Values where C and numpy could differ, plus random ones, as X and Y."""
    rng = np.random.default_rng(abs(hash((dtype, op))) % 2**32)
    npdt = numpy_dtype(DType(dtype))
    if npdt.kind == "f":
        special = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, np.nan, np.inf, -np.inf]
        if op in ("pow", "exp", "sinh", "cosh"):
            special = [0.0, 1.0, -1.0, 0.5, -2.5, 3.0, np.nan, 2.0, -0.5, 1.5]
        x = np.array(special + list(rng.uniform(-4, 4, N - len(special))))
        y = np.array(list(rng.uniform(-4, 4, N - len(special))) + special[::-1])
        with np.errstate(invalid="ignore"):
            return {"X": x.astype(npdt), "Y": y.astype(npdt)}
    if npdt.kind == "b":
        return {"X": rng.integers(0, 2, N).astype(bool), "Y": rng.integers(0, 2, N).astype(bool)}
    info = np.iinfo(npdt)
    special = [0, 1, 2, 3, 7, int(info.max), int(info.min), int(info.max) - 1]
    if info.min < 0:
        special += [-1, -7]
    if op == "pow":
        special = [0, 1, 2, 3, 5]
        if info.min < 0:
            special += [-1, -2]
    low, high = max(info.min, -100), min(info.max, 100)
    x = np.array(special + list(rng.integers(low, high, N - len(special))))
    y = np.array(list(rng.integers(low, high, N - len(special))) + special[::-1])
    if op in ("bit_left", "bit_right"):
        y = np.array([*rng.integers(0, 70, N - 4), 0, 63, 64, 200])
    if op == "pow":
        y = np.abs(y) % 5
    return {"X": x.astype(npdt), "Y": y.astype(npdt)}


def _cases() -> list[tuple[str, str, int, str, str | None]]:
    cases: list[tuple[str, str, int, str, str | None]] = []
    for dtype in FLOATS + INTS + ["bool"]:
        is_float = dtype in FLOATS
        unary = UNARY_FLOAT if is_float else UNARY_INT
        binary = BINARY + ([] if is_float else INT_ONLY)
        if dtype == "bool":
            unary = ["bit_not", "ident", "abs"]
            binary = ["add", "mul", "max", "min", "cmp_eq", "cmp_lt", "bit_and", "bit_xor"]
        for op in unary:
            cases.append((op, dtype, 1, dtype, None))
        for op in binary:
            out = (
                "bool"
                if op.startswith("cmp_")
                else ("fp64" if op == "div" and not is_float else dtype)
            )
            cases.append((op, dtype, 2, out, None))
    # Weakly typed constants: the constant adopts the other operand's type.
    for dtype in ("fp16", "fp32", "i8", "u8", "i32"):
        cases.append(("add", dtype, 2, dtype, "(int)3"))
        cases.append(("mul", dtype, 2, "fp64", "(float)0.5"))
        cases.append(("cmp_lt", dtype, 2, "bool", "(int)2"))
        cases.append(("div", dtype, 2, "fp64", "(int)2"))
    # Casts and conditional selection.
    for dtype in ("fp32", "fp64", "i32", "u8"):
        cases.append(("as_int", dtype, 2, "i32", "(int)16"))
        cases.append(("as_float", dtype, 2, "fp64", "(int)16"))
        cases.append(("as_uint", dtype, 2, "u32", "(int)8"))
        cases.append(("as_bool", dtype, 1, "bool", None))
    cases.append(("cond", "fp32", 3, "fp32", None))
    cases.append(("cond", "i8", 3, "i8", None))
    # Stores convert: float results into integer and bf16 outputs.
    cases.append(("mul", "fp32", 2, "i16", None))
    cases.append(("add", "fp32", 2, "bf16", None))
    return cases


CASES = _cases()


def _ids(case: tuple[str, str, int, str, str | None]) -> str:
    op, dtype, _, out, constant = case
    return f"{op}-{dtype}-{out}" + ("-const" if constant else "")


def run_case(backend: str, case: tuple[str, str, int, str, str | None]) -> None:
    op, dtype, arity, out, constant = case
    if op == "cond":
        text = program("cond", dtype, out, 2).replace("cond($x, $y)", "cond($x, $y, $x)")
    else:
        text = program(op, dtype, out, arity, constant)
    prog = parse_stripe(text, f"{op}.stripe")
    values = inputs(dtype, op)
    if out in INTS and dtype in FLOATS:
        # Float-to-integer conversion of NaN, infinities or out-of-range values is undefined.
        values = {k: np.nan_to_num(np.clip(v, -100, 100), nan=1.0) for k, v in values.items()}
    if op in ("as_int", "as_uint") and dtype in FLOATS:
        values = {k: np.nan_to_num(np.clip(v, 0, 100), nan=1.0) for k, v in values.items()}
    compile_and_compare(backend, prog, values)
