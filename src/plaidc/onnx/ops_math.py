"""Elementwise ONNX ops: arithmetic, activations, comparisons and logic, Where, Cast, Clip.

Each is one Tile elementwise statement (Tile broadcasts numpy-style, as ONNX does); a known
one-element operand is written as a literal.
"""

from __future__ import annotations

import numpy as np

from plaidc.onnx.emitter import Emitter, Unsupported, Value, kind, known, literal, tile_dtype
from plaidc.onnx.importer import Node, converter
from plaidc.onnx.narrow_types import carrier, cast_into

UNARY = {
    "Relu": "relu({x})",
    "Sigmoid": "sigmoid({x})",
    "Tanh": "tanh({x})",
    "Exp": "exp({x})",
    "Log": "log({x})",
    "Sqrt": "sqrt({x})",
    "Abs": "abs({x})",
    "Neg": "-{x}",
    "Reciprocal": "recip({x})",
    "Floor": "floor({x})",
    "Ceil": "ceil({x})",
    "Sin": "sin({x})",
    "Cos": "cos({x})",
    "Tan": "tan({x})",
    "Asin": "asin({x})",
    "Acos": "acos({x})",
    "Atan": "atan({x})",
    "Sinh": "sinh({x})",
    "Cosh": "cosh({x})",
    "Softsign": "{x} / (1.0 + abs({x}))",
    "Softplus": "log(exp({x}) + 1.0)",
    "Sign": "{x} > 0 ? 1 : ({x} < 0 ? (-1) : 0)",
}

BINARY = {
    "Add": "{a} + {b}",
    "Sub": "{a} - {b}",
    "Mul": "{a} * {b}",
    "Div": "{a} / {b}",
    "Equal": "{a} == {b}",
    "Less": "{a} < {b}",
    "Greater": "{a} > {b}",
    "LessOrEqual": "{a} <= {b}",
    "GreaterOrEqual": "{a} >= {b}",
    "And": "{a} & {b}",
    "Or": "{a} | {b}",
    "Xor": "{a} ^ {b}",
}

COMPARISONS = {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor"}
BOOL = np.dtype(np.bool_)


def broadcast(*values: Value) -> tuple[int, ...]:
    try:
        return tuple(int(d) for d in np.broadcast_shapes(*(v.shape for v in values)))
    except ValueError:
        shapes = " and ".join(str(list(v.shape)) for v in values)
        raise Unsupported(f"shapes {shapes} do not broadcast") from None


def _float_only(node: Node, value: Value) -> None:
    if kind(value.dtype) != "f":
        raise Unsupported(f"{node.op_type} of {value.dtype} is not supported (floats only)")


@converter(*UNARY)
def unary(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    if node.op_type not in ("Abs", "Neg", "Sign"):
        _float_only(node, x)
    text = UNARY[node.op_type].format(x=out.tensor(x))
    return [out.assign(node.op_type, text, x.shape, x.dtype)]


@converter(*BINARY)
def binary(node: Node, out: Emitter) -> list[Value]:
    a, b = node.required(0), node.required(1)
    shape = broadcast(a, b)
    text = BINARY[node.op_type].format(a=out.operand(a, len(shape)), b=out.operand(b, len(shape)))
    dtype = BOOL if node.op_type in COMPARISONS else a.dtype
    return [out.assign(node.op_type, text, shape, dtype)]


@converter("Not")
def logical_not(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    return [out.assign("Not", f"{out.tensor(x)} == 0", x.shape, BOOL)]


@converter("Pow")
def power(node: Node, out: Emitter) -> list[Value]:
    base, exponent = node.required(0), node.required(1)
    shape = broadcast(base, exponent)
    b = out.operand(base, len(shape))
    e = out.operand(exponent, len(shape))
    if kind(base.dtype) == "f" and exponent.dtype != base.dtype and exponent.const is None:
        e = f"as_float({e}, {base.dtype.itemsize * 8})"
    square = exponent.const is not None and exponent.size == 1 and kind(base.dtype) == "f"
    if square and float(np.asarray(exponent.const).reshape(-1)[0]) == 2.0:  # exact, common
        return [out.assign("Pow", f"{b} * {b}", shape, base.dtype)]
    text = f"pow({b}, {e})"
    if kind(base.dtype) in "iu":
        text = (
            f"as_int(round(pow(as_float({b}, 64), as_float({e}, 64))), {base.dtype.itemsize * 8})"
        )
    return [out.assign("Pow", text, shape, base.dtype)]


@converter("Max", "Min", "Sum", "Mean")
def variadic(node: Node, out: Emitter) -> list[Value]:
    values = [v for v in node.inputs if v is not None]
    if not values:
        raise Unsupported("no inputs")
    shape = broadcast(*values)
    terms = [out.operand(v, len(shape)) for v in values]
    fn = {"Max": "max", "Min": "min"}.get(node.op_type)
    text = terms[0]
    for term in terms[1:]:
        text = f"{fn}({text}, {term})" if fn else f"{text} + {term}"
    if len(terms) == 1:
        text = f"ident({text})"
    if node.op_type == "Mean":
        text = f"({text}) / {literal(len(terms), values[0].dtype)}"
    return [out.assign(node.op_type, text, shape, values[0].dtype)]


@converter("Where")
def where(node: Node, out: Emitter) -> list[Value]:
    cond, a, b = node.required(0), node.required(1), node.required(2)
    shape = broadcast(cond, a, b)
    first = out.operand(a, len(shape))
    if cond.shape != shape and a.shape != shape and b.shape != shape:
        first = out.tensor(a)  # two literals: the result's shape needs a tensor operand
    text = f"{out.tensor(cond)} ? {first} : {out.operand(b, len(shape))}"
    return [out.assign("Where", text, shape, a.dtype)]


@converter("Cast")
def cast(node: Node, out: Emitter) -> list[Value]:
    from onnx import helper

    x = node.required(0)
    node.reject("round_mode")
    to = np.dtype(helper.tensor_dtype_to_np_dtype(node.attr("to")))
    return [cast_value(out, x, to, saturate=bool(node.attr("saturate", 1)))]


def cast_value(out: Emitter, x: Value, to: np.dtype, saturate: bool = True) -> Value:
    tile_dtype(to)  # an unsupported target type is an error naming it
    if to == x.dtype:
        return x
    wide = carrier(x.dtype)
    if wide is not None:  # read a carried type as the carrier that holds its values
        x = Value(x.shape, wide, out.tensor(x))
    if carrier(to) is not None:
        return cast_into(out, x, to, saturate)
    if to.name == "bfloat16":
        raise Unsupported("a Cast to bfloat16 is not supported (Tile has no conversion to bf16)")
    if to == x.dtype:
        return x
    source = out.tensor(x)
    bits = to.itemsize * 8
    if to == BOOL:
        text = f"as_bool({source})"
    elif kind(to) == "f":
        text = f"as_float({source}, {bits})"
    elif kind(to) == "i":
        text = f"as_int({source}, {bits})"
    else:
        text = f"as_uint({source}, {bits})"
    return out.assign("Cast", text, x.shape, to)


@converter("Clip")
def clip(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    text = out.tensor(x)
    if node.opset < 11:
        bounds: list[Value | None] = [None, None]
        low, high = node.attr("min"), node.attr("max")
        from plaidc.onnx.emitter import known

        bounds = [
            None if low is None else known(np.array(low, dtype=x.dtype)),
            None if high is None else known(np.array(high, dtype=x.dtype)),
        ]
    else:
        bounds = [node.input(1), node.input(2)]
    for fn, bound in zip(("max", "min"), bounds, strict=True):
        if bound is None:
            continue
        if bound.const is not None and kind(bound.dtype) == "f" and np.isinf(bound.const).all():
            continue
        text = f"{fn}({text}, {out.operand(bound, x.rank)})"
    if text == out.tensor(x):
        text = f"ident({text})"
    return [out.assign("Clip", text, x.shape, x.dtype)]


@converter("LeakyRelu", "Elu", "Selu", "Celu", "ThresholdedRelu", "HardSigmoid", "HardSwish")
def activation(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    _float_only(node, x)
    v, op = out.tensor(x), node.op_type

    def lit(name: str, default: float) -> str:
        return literal(node.attr(name, default), x.dtype)

    if op == "LeakyRelu":
        text = f"{v} < 0 ? {v} * {lit('alpha', 0.01)} : {v}"
    elif op == "Elu":
        text = f"{v} < 0 ? {lit('alpha', 1.0)} * (exp({v}) - 1.0) : {v}"
    elif op == "Celu":
        alpha = lit("alpha", 1.0)
        text = f"max({v}, 0.0) + min(0.0, {alpha} * (exp({v} / {alpha}) - 1.0))"
    elif op == "Selu":
        alpha, gamma = (
            lit("alpha", 1.67326319217681884765625),
            lit("gamma", 1.05070102214813232421875),
        )
        text = f"{v} <= 0 ? {gamma} * ({alpha} * exp({v}) - {alpha}) : {gamma} * {v}"
    elif op == "ThresholdedRelu":
        text = f"{v} > {lit('alpha', 1.0)} ? {v} : 0.0"
    elif op == "HardSigmoid":
        text = f"max(min({lit('alpha', 0.2)} * {v} + {lit('beta', 0.5)}, 1.0), 0.0)"
    else:  # HardSwish
        text = f"{v} * max(min({v} / 6.0 + 0.5, 1.0), 0.0)"
    return [out.assign(op, text, x.shape, x.dtype)]


@converter("PRelu")
def prelu(node: Node, out: Emitter) -> list[Value]:
    x, slope = node.required(0), node.required(1)
    shape = broadcast(x, slope)
    v = out.tensor(x)
    text = f"{v} < 0 ? {v} * {out.operand(slope, len(shape))} : {v}"
    return [out.assign("PRelu", text, shape, x.dtype)]


# erf: 2/sqrt(pi) (x - x^3/3 + x^5/10 - x^7/42 + x^9/216) below |x| = 0.5 (relative error
# under 1e-6 there), Abramowitz & Stegun 7.1.26 above (absolute error under 1.5e-7).
_AS = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def erf(out: Emitter, x: Value, hint: str = "Erf") -> Value:
    v = out.tensor(x)
    a = out.assign(f"{hint}_abs", f"abs({v})", x.shape, x.dtype).tile
    t = out.assign(f"{hint}_t", f"1.0 / (1.0 + 0.3275911 * {a})", x.shape, x.dtype).tile
    poly = f"{_AS[4]}"
    for c in reversed(_AS[:4]):
        poly = f"({poly} * {t} {'-' if c < 0 else '+'} {abs(c)})"
    tail = out.assign(f"{hint}_far", f"1.0 - {poly} * {t} * exp(-({a} * {a}))", x.shape, x.dtype)
    x2 = out.assign(f"{hint}_sq", f"{v} * {v}", x.shape, x.dtype).tile
    series = (
        f"1.1283791670955126 * {v} * (1.0 - {x2} * (0.3333333333333333 - {x2} * "
        f"(0.1 - {x2} * (0.023809523809523808 - {x2} * 0.004629629629629629))))"
    )
    far = tail.tile
    text = f"{a} < 0.5 ? {series} : ({v} < 0 ? -{far} : {far})"
    return out.assign(hint, text, x.shape, x.dtype)


@converter("Erf")
def erf_op(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    _float_only(node, x)
    return [erf(out, x)]


@converter("Gelu")
def gelu(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    _float_only(node, x)
    v = out.tensor(x)
    mode = node.attr("approximate", b"none")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    if mode == "tanh":
        inner = f"0.7978845608028654 * ({v} + 0.044715 * {v} * {v} * {v})"
        return [out.assign("Gelu", f"0.5 * {v} * (1.0 + tanh({inner}))", x.shape, x.dtype)]
    if mode != "none":
        raise Unsupported(f"approximate='{mode}' is not supported")
    scaled = out.assign("Gelu_in", f"{v} * 0.7071067811865476", x.shape, x.dtype)
    e = erf(out, scaled, "Gelu_erf").tile
    return [out.assign("Gelu", f"0.5 * {v} * (1.0 + {e})", x.shape, x.dtype)]


@converter("Identity", "Dropout")
def identity(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    if node.op_type != "Dropout":
        return [x]
    training = node.constant(2, "training_mode") if node.opset >= 12 else None
    if training is not None and bool(training):
        ratio = node.constant(1, "ratio")
        if ratio is None or float(ratio) != 0.0:  # (default 0.5)
            raise Unsupported(
                "training_mode=true drops elements at random: only ratio 0 is supported"
            )
    # nothing is dropped: the mask keeps every element
    return [x, known(np.ones(x.shape, dtype=np.bool_))][: max(1, node.output_count)]
