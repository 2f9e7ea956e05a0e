"""`expand-math`: rewrite intrinsics a target lacks into ones it has (the NPU's vector ISA has
exp, ln, reciprocal and arithmetic, but no tanh or pow).

* `tanh(x)` becomes `1 - 2 / (exp(2x) + 1)`: exact limits (+-1 when exp overflows or vanishes,
  NaN stays NaN), within a few ulp of the result's magnitude near 0 (absolute error ~1e-7 in
  fp32); an fp16 x computes in fp32 and rounds to fp16 once.
* `pow(x, n)` with a weakly typed constant integer `1 <= n <= max_power` becomes multiplications
  by repeated squaring (one rounding per product). A float constant `c` promotes x first as
  the power would (`x * (float)1`: an int x becomes fp64): integral `|c| <= max_power` by
  squaring (`1 / x^n` for negative c), others as `exp(c * ln x)` (NaN for x < 0, as numpy's).
  A weak integer `-n` or 0 of an fp16 or fp32 x (a load, or arithmetic on loads) is `1 / x^n`
  or 1 of x's type. Other x with 0 or a negative integer, and strongly typed integer
  exponents, are left alone.
* `pow(c, y)` of a weakly typed constant `c > 0` (not 1) and an fp16 or fp32 tensor y:
  `exp(y ln c)` in fp32, within a few ulp of fp32 times |y ln c|; y's type.
* `pow(x, y)` of two fp16 or fp32 tensors (loads, or arithmetic on loads, of one type):
  `|x| ** y = exp(y ln |x|)` in fp32, negated for a negative base and an odd integral y, NaN
  for a negative finite base and a non-integral y, 1 where y is 0 or x is 1 (numpy's cases;
  |y| >= 2^24 counts as an even integer, as every such float is). Within a few ulp of fp32
  times |y ln x| (the rounding of the product), not correctly rounded. Integer tensors and
  mixed types are left alone (a target without `pow` reports them).
* `sinh`, `cosh`: `exp(x - ln 2) -+ exp(-x - ln 2)` in fp32 (finite as far as they are; `sinh`
  by its Taylor series where |x| < 0.5, which the difference would cancel away); within 1e-5
  relative (the rounding of x - ln 2), the others within 1e-6 relative or 2e-7 absolute.
* `sin`, `cos`, `tan`: `k = round(x * 2/pi)`, `r = x - k*pi/2` in three parts (Cody-Waite),
  Taylor polynomials of sin and cos on |r| <= pi/4 (error < 2e-9) and the quadrant `k mod 4`
  picking and negating them; `tan = sin / cos`. Computed in fp32 (`as_float(x, 32)`, so fp16
  inputs keep fp32 accuracy; fp64 inputs would lose theirs: the rewrite is for targets
  without fp64 lanes); within ~1e-7 absolute of the true value for |x| < 1e5, not for huge |x|.
* `atan`: reduced to [0, 1] by `1/|x|`, then to |t| <= tan(pi/12) by `(t - 1/sqrt 3) /
  (1 + t/sqrt 3)` (+ pi/6), odd Taylor polynomial to t^11; `asin(x) = atan(x / sqrt((1-x)(1+x)))`,
  `acos(x) = 2 atan(sqrt((1-x) / (1+x)))` (accurate near +-1, where pi/2 - asin cancels).
  NaN and infinities give what numpy gives, except the sign of a zero result.

* `bit_left(x, n)`, `bit_right(x, n)` (`x << n`, `x >> n`) of an integer x (a load, or
  arithmetic on loads) and a weak constant `0 <= n <` x's width: `x * 2^n` (wrapping as the
  shift does), `x / 2^n` for unsigned x, its floor for signed x (arithmetic shift); for targets
  without bit operations.

Constants are weakly typed (`(int)1`, `(float)2`), so each step keeps the operand's type as
the original intrinsic did (a shift's constants have x's type). Options: `ops` (which rewrites
run), `max_power`.

Before / after:

    0: $x = load(X)                 0: $x = load(X)
    1: $y = tanh($x)                1: $y_c2 = (float)2
    2: Y = store($y)                2: $y_c1 = (int)1
                                    3: $y_2x = mul($x, $y_c2)
                                    4: $y_e = exp($y_2x)
                                    5: $y_d = add($y_e, $y_c1)
                                    6: $y_q = div($y_c2, $y_d)
                                    7: $y = sub($y_c1, $y_q)
                                    8: Y = store($y)
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Literal, get_args

from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.passes.selection import (
    EXCLUDE_HELP,
    REQS_SUBTREE_HELP,
    map_all_blocks,
    rewrite_matching,
)
from plaidc.stripe.ir import Block, Constant, DType, Intrinsic, Load, Statement
from plaidc.stripe.uses import scalar_inputs, scalar_outputs

ExpandedOp = Literal[
    "tanh",
    "pow",
    "sinh",
    "cosh",
    "sin",
    "cos",
    "tan",
    "atan",
    "asin",
    "acos",
    "bit_left",
    "bit_right",
]
REWRITES: tuple[ExpandedOp, ...] = get_args(ExpandedOp)
TRIGONOMETRY = ("sinh", "cosh", "sin", "cos", "tan", "atan", "asin", "acos")


@dataclass(frozen=True)
class ExpandMathOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_SUBTREE_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    ops: tuple[ExpandedOp, ...] = option(REWRITES, "the intrinsics to rewrite (others stay)")
    max_power: int = option(
        16,
        "pow(x, n) by repeated squaring for constant integers n up to this (1/x^n for -n)",
        min=0,
    )


@register(
    "expand-math",
    ExpandMathOptions,
    "rewrite tanh, trigonometry and integer powers into exp/log/div/mul/round",
)
def expand_math(program: Block, opts: ExpandMathOptions) -> Block:
    return rewrite_matching(
        program, opts.reqs, lambda b: map_all_blocks(b, lambda x: _expand(x, opts)), opts.exclude
    )


def _expand(block: Block, opts: ExpandMathOptions) -> Block:
    constants = _constants(block)
    floats = _typed_scalars(block)
    integers = _typed_scalars(block, _INTEGERS)
    taken = _scalar_names(block)
    replaced: dict[int, list[Statement]] = {}
    for pos, stmt in enumerate(block.stmts):
        if not isinstance(stmt, Intrinsic) or stmt.name not in opts.ops or len(stmt.outputs) != 1:
            continue
        fresh = _Fresh(stmt.outputs[0], taken)
        if stmt.name == "tanh" and len(stmt.inputs) == 1:
            x = stmt.inputs[0]
            replaced[pos] = _tanh(x, stmt.outputs[0], fresh, floats.get(x) is DType.FP16)
        elif stmt.name in TRIGONOMETRY and len(stmt.inputs) == 1:
            build = _Builder(fresh)
            result = _TRIG[stmt.name](build, stmt.inputs[0])
            build.op("ident", result, out=stmt.outputs[0])
            replaced[pos] = build.stmts
        elif stmt.name in ("bit_left", "bit_right") and len(stmt.inputs) == 2:
            count = constants.get(stmt.inputs[1])
            dtype = integers.get(stmt.inputs[0])
            if count is not None and count.type == "int" and dtype is not None:
                rewrite = _shift(stmt, int(count.value), dtype, fresh)
                if rewrite is not None:
                    replaced[pos] = rewrite
        elif stmt.name == "pow" and len(stmt.inputs) == 2:
            x, y = stmt.inputs
            exponent, base = constants.get(y), constants.get(x)
            rewrite = None
            if exponent is not None:
                rewrite = _constant_power(x, exponent, stmt.outputs[0], fresh, opts, floats.get(x))
            elif (dtype := floats.get(x)) and floats.get(y) == dtype:
                rewrite = _tensor_power(x, y, stmt.outputs[0], dtype, fresh)
            elif base is not None and (dtype := floats.get(y)):
                rewrite = _constant_base(base, y, stmt.outputs[0], dtype, fresh)
            if rewrite is not None:
                replaced[pos] = rewrite
    if not replaced:
        return block
    return _splice(block, replaced)


def _constants(block: Block) -> dict[str, Constant]:
    """The block's constant scalars, with negated constants (Tile writes `-2.0` as
    `neg((float)2.0)`) folded."""
    found: dict[str, Constant] = {}
    for stmt in block.stmts:
        if isinstance(stmt, Constant):
            found[stmt.name] = stmt
        elif isinstance(stmt, Intrinsic) and stmt.name == "neg" and len(stmt.outputs) == 1:
            operand = found.get(stmt.inputs[0]) if len(stmt.inputs) == 1 else None
            if operand is not None:
                name = stmt.outputs[0]
                found[name] = Constant(name=name, value=-operand.value, type=operand.type)
    return found


# Intrinsics whose result has their operands' type when all of them have one.
_SAME_TYPE = ("add", "sub", "mul", "div", "neg", "abs", "max", "min", "exp", "log", "sqrt")


_INTEGERS: tuple[DType, ...] = (
    DType.I8,
    DType.I16,
    DType.I32,
    DType.I64,
    DType.U8,
    DType.U16,
    DType.U32,
)
_INTEGERS += (DType.U64,)


def _typed_scalars(
    block: Block, types: tuple[DType, ...] = (DType.FP16, DType.FP32)
) -> dict[str, DType]:
    """Scalars known to have one of `types` (default fp16 and fp32): loads of such
    refinements, and arithmetic whose operands have one type of these, or are weakly typed
    constants (which adopt it)."""
    refs = {r.into: r.shape.dtype for r in block.refs}
    weak = {s.name for s in block.stmts if isinstance(s, Constant) and s.type in ("int", "float")}
    found: dict[str, DType] = {}
    for stmt in block.stmts:
        if isinstance(stmt, Load) and refs.get(stmt.from_) in types:
            found[stmt.into] = refs[stmt.from_]
        elif isinstance(stmt, Intrinsic) and stmt.name in _SAME_TYPE and len(stmt.outputs) == 1:
            operand_types = {found.get(x) for x in stmt.inputs if x not in weak}
            if len(operand_types) == 1 and None not in operand_types:
                found[stmt.outputs[0]] = operand_types.pop()  # type: ignore[assignment]
    return found


def _tensor_power(x: str, y: str, out: str, dtype: DType, fresh: _Fresh) -> list[Statement]:
    """`pow(x, y)` of two tensors of float type `dtype`, in fp32 (see the module doc)."""
    b = _Builder(fresh)
    if dtype is DType.FP16:
        x, y = b.fp32(x), b.fp32(y)
    magnitude = b.op("exp", b.op("mul", y, b.op("log", b.op("abs", x))))
    small = b.select(b.op("cmp_lt", b.op("abs", y), 16777216.0), y, 0.0)
    whole = b.op("floor", small)
    integral = b.op("cmp_eq", whole, small)
    odd = b.op("cmp_ne", b.op("mul", b.op("floor", b.op("mul", whole, 0.5)), 2.0), whole)
    signed = b.select(odd, b.op("neg", magnitude), magnitude)
    finite = b.op("cmp_eq", b.op("mul", x, 0.0), 0.0)
    fractional = b.select(finite, b.op("sqrt", x), magnitude)  # NaN; (-inf) ** y = inf ** y
    zero = b.op("cmp_eq", x, 0.0)
    negative = b.select(integral, signed, b.select(zero, magnitude, fractional))
    # -0.0 is a negative base too: (-0) ** -3 = -inf
    sign = b.select(zero, b.op("div", 1.0, x), x)
    power = b.select(b.op("cmp_lt", sign, 0.0), negative, magnitude)
    power = b.select(b.op("cmp_eq", y, 0.0), 1.0, power)
    # (-1) ** +-inf = 1 (exp(inf * 0) is NaN); (-1) ** NaN stays NaN
    infinite = b.select(b.op("cmp_eq", y, y), 1.0, power)
    unit = b.select(b.op("cmp_eq", b.op("mul", y, 0.0), 0.0), power, infinite)
    power = b.select(b.op("cmp_eq", b.op("abs", x), 1.0), unit, power)
    if dtype is DType.FP16:
        power = b.select(b.op("cmp_eq", x, 1.0), 1.0, power)
        width = fresh("w")
        b.stmts.append(Constant(name=width, value=16, type="int"))
        b.op("as_float", power, width, out=out)
    else:
        b.select(b.op("cmp_eq", x, 1.0), 1.0, power, out=out)
    return b.stmts


def _small_integer(value: float, limit: int) -> bool:
    return float(value).is_integer() and 1 <= value <= limit


def _constant_power(
    x: str,
    exponent: Constant,
    out: str,
    fresh: _Fresh,
    opts: ExpandMathOptions,
    x_float: DType | None = None,
) -> list[Statement] | None:
    """`pow(x, c)` for a constant `c`, or None to leave it. A weak int `c` keeps x's type
    (x * x; `x_float`: x is known to be fp16 or fp32, so `x ** -n` is `1 / x ** n`); any
    other type promotes x as the power does (`x_i32 ** 2.0` is fp64), which `x * (type)1`
    reproduces before the products."""
    value = float(exponent.value)
    if exponent.type == "int":
        if x_float is not None and value == 0:  # 1 of x's type, NaN ** 0 included
            b = _Builder(fresh)
            width = fresh("w")
            b.stmts.append(
                Constant(name=width, value=16 if x_float is DType.FP16 else 32, type="int")
            )
            b.op("as_float", b.c(1.0), width, out=out)
            return b.stmts
        if x_float is not None and value < 0 and _small_integer(-value, opts.max_power):
            b = _Builder(fresh)
            b.op("div", 1.0, _chain(b, x, int(-value)) if value < -1 else x, out=out)
            return b.stmts
        if not _small_integer(value, opts.max_power):
            return None  # 0 keeps x's type, negatives of integers are the interpreter's own
        return _power(x, int(value), out, fresh)
    if not exponent.type.startswith("fp") and exponent.type != "float":
        return None  # a strongly typed integer exponent: integer semantics, left alone
    if value == 0 or value != value or abs(value) > opts.max_power:
        return None  # x ** 0 is 1 even for NaN; NaN and large exponents: left to the target
    b = _Builder(fresh)
    one = fresh("one")
    b.stmts.append(Constant(name=one, value=1.0, type=exponent.type))
    t = b.op("mul", x, one)  # promoted as x ** c promotes x
    if value == 0.5:  # numpy's own shortcut for fp32/fp64 (NaN at -inf; fp16's powf: inf)
        b.op("sqrt", t, out=out)
        return b.stmts
    n = int(abs(value))
    if value.is_integer():
        power = b.op("ident", t) if n == 1 else _chain(b, t, n)
    else:
        # NaN for negative finite x (sqrt, log), as numpy's; (-inf) ** c is inf ** c; a zero
        # base is +0 (x + 0.0), so 0 ** -c is +inf
        finite = b.op("cmp_eq", b.op("mul", t, 0.0), 0.0)
        base = b.op("add", b.select(finite, t, b.op("abs", t)), 0.0)
        if (2 * abs(value)).is_integer():  # n + 1/2: products and a square root, exact
            root = b.op("sqrt", base)
            power = root if n == 0 else b.op("mul", _chain(b, base, n), root)
        else:
            scale = fresh("c")
            b.stmts.append(Constant(name=scale, value=abs(value), type=exponent.type))
            power = b.op("exp", b.op("mul", b.op("log", base), scale))
    if value > 0:
        b.op("ident", power, out=out)
    else:
        b.op("div", one, power, out=out)
    return b.stmts


def _constant_base(
    base: Constant, y: str, out: str, dtype: DType, fresh: _Fresh
) -> list[Statement] | None:
    """`pow(c, y)` for a weakly typed constant `c > 0`, `c != 1` and a tensor `y` of float
    type `dtype`: `exp(y ln c)` in fp32 (within fp32's rounding of `y ln c`, relative); the
    result has y's type, as numpy's `2.0 ** y` has. Other bases are left alone."""
    value = float(base.value)
    if base.type not in ("int", "float") or not value > 0 or value == 1 or value == math.inf:
        return None
    b = _Builder(fresh)
    t = b.fp32(y) if dtype is DType.FP16 else y
    power = b.op("exp", b.op("mul", t, math.log(value)))
    if dtype is DType.FP16:
        width = fresh("w")
        b.stmts.append(Constant(name=width, value=16, type="int"))
        b.op("as_float", power, width, out=out)
    else:
        b.op("ident", power, out=out)
    return b.stmts


def _shift(stmt: Intrinsic, count: int, dtype: DType, fresh: _Fresh) -> list[Statement] | None:
    """`x << n` and `x >> n` of an integer x of type `dtype` and a weak constant count below
    its width: `x * 2^n` (wrapping as the shift does), `x / 2^n` for an unsigned x, and the
    floor of it for a signed one (`q - (x - q * 2^n < 0)` after truncating division; the sign,
    -1 or 0, for n one below the width). Other counts are left to the target."""
    bits = 8 * dtype.byte_size
    if not 0 <= count < bits:
        return None
    b = _Builder(fresh)
    x, out = stmt.inputs[0], stmt.outputs[0]

    def typed(value: int) -> str:
        """`value` as a constant of x's type (2^(bits-1) wraps to a signed type's minimum)."""
        if not dtype.is_unsigned_int and value == 1 << (bits - 1):
            value = -value
        const = fresh("k")
        b.stmts.append(Constant(name=const, value=value, type=dtype.value))
        return const

    if stmt.name == "bit_left":
        b.op("mul", x, typed(1 << count), out=out)
    elif dtype.is_unsigned_int:
        b.op("div", x, typed(1 << count), out=out)
    elif count == bits - 1:
        b.op("cond", b.op("cmp_lt", x, typed(0)), typed(-1), typed(0), out=out)
    else:
        scale = typed(1 << count)
        q = b.op("div", x, scale)
        r = b.op("sub", x, b.op("mul", q, scale))
        b.op("sub", q, b.op("cond", b.op("cmp_lt", r, typed(0)), typed(1), typed(0)), out=out)
    return b.stmts


def _chain(b: _Builder, x: str, n: int) -> str:
    """x ** n (n >= 2) by repeated squaring, as the builder's statements."""
    product = b.fresh("pw")
    b.stmts.extend(_power(x, n, product, b.fresh))
    return product


class _Fresh:
    """New scalar names derived from `base`, unused in the block."""

    def __init__(self, base: str, taken: set[str]) -> None:
        self.base, self.taken = base, taken

    def __call__(self, suffix: str) -> str:
        name, n = f"{self.base}_{suffix}", 1
        while name in self.taken:
            name, n = f"{self.base}_{suffix}{n}", n + 1
        self.taken.add(name)
        return name


def _tanh(x: str, out: str, fresh: _Fresh, fp16: bool = False) -> list[Statement]:
    """`1 - 2 / (exp(2x) + 1)`; an fp16 x computes in fp32 and rounds once at the end (in fp16
    the subtraction leaves an absolute error of half fp16's ulp of 1, ~5e-4: tanh(0.038) came
    out 2% low, and `tanh(X) * 64` failed --check on the NPU)."""
    if fp16:
        b = _Builder(fresh)
        xf = b.fp32(x)
        t = b.op("sub", 1.0, b.op("div", 2.0, b.op("add", b.op("exp", b.op("mul", xf, 2.0)), 1.0)))
        width = fresh("w")
        b.stmts.append(Constant(name=width, value=16, type="int"))
        b.op("as_float", t, width, out=out)
        return b.stmts
    two, one = fresh("c2"), fresh("c1")
    twice, e, d, q = fresh("2x"), fresh("e"), fresh("d"), fresh("q")
    return [
        Constant(name=two, value=2.0, type="float"),
        Constant(name=one, value=1, type="int"),
        Intrinsic(name="mul", inputs=(x, two), outputs=(twice,)),
        Intrinsic(name="exp", inputs=(twice,), outputs=(e,)),
        Intrinsic(name="add", inputs=(e, one), outputs=(d,)),
        Intrinsic(name="div", inputs=(two, d), outputs=(q,)),
        Intrinsic(name="sub", inputs=(one, q), outputs=(out,)),
    ]


class _Builder:
    """Statements of a rewrite: `op` appends an intrinsic and returns its output's name;
    numbers become weakly typed constants (so each step keeps its operands' type)."""

    def __init__(self, fresh: _Fresh) -> None:
        self.fresh = fresh
        self.stmts: list[Statement] = []
        self.constants: dict[float, str] = {}

    def c(self, value: float) -> str:
        if value not in self.constants:
            name = self.fresh("k")
            self.stmts.append(Constant(name=name, value=float(value), type="float"))
            self.constants[value] = name
        return self.constants[value]

    def fp32(self, x: str) -> str:
        """`as_float(x, 32)`."""
        width = self.fresh("w")
        self.stmts.append(Constant(name=width, value=32, type="int"))
        return self.op("as_float", x, width)

    def op(self, name: str, *args: str | float, out: str | None = None) -> str:
        inputs = tuple(a if isinstance(a, str) else self.c(a) for a in args)
        result = out or self.fresh(name)
        self.stmts.append(Intrinsic(name=name, inputs=inputs, outputs=(result,)))
        return result

    def poly(self, x: str, coeffs: list[float]) -> str:
        """c0 + c1 x + c2 x^2 + ... by Horner's rule."""
        acc = self.c(coeffs[-1])
        for coeff in reversed(coeffs[:-1]):
            acc = self.op("add", self.op("mul", acc, x), coeff)
        return acc

    def select(self, test: str, a: str | float, b: str | float, out: str | None = None) -> str:
        return self.op("cond", test, a, b, out=out)


_FACT = [float(math.factorial(k)) for k in range(14)]
# sin r = r (1 - r^2/3! + r^4/5! - ...), cos r = 1 - r^2/2! + ... : polynomials in r^2
_SIN = [(-1) ** k / _FACT[2 * k + 1] for k in range(6)]
_COS = [(-1) ** k / _FACT[2 * k] for k in range(7)]
# pi/2 in three parts (Cody-Waite): k * _PIO2[0] is exact for |k| < 2^16 in fp32
_PIO2 = (1.5703125, 4.837512969970703125e-4, 7.5497899548918821691639751e-8)
_ATAN = [(-1) ** k / (2 * k + 1) for k in range(6)]  # atan t = t (1 - t^2/3 + ...)
_SINH = [1 / _FACT[2 * k + 1] for k in range(4)]  # sinh x = x (1 + x^2/3! + ...), |x| < 0.5


def _sin_cos(b: _Builder, x: str) -> tuple[str, str]:
    """sin x and cos x, by quadrant."""
    xf = b.fp32(x)
    k = b.op("round", b.op("mul", xf, 2.0 / math.pi))
    r = xf
    for part in _PIO2:
        r = b.op("sub", r, b.op("mul", k, part))
    r2 = b.op("mul", r, r)
    sin_r = b.op("mul", r, b.poly(r2, _SIN))
    cos_r = b.poly(r2, _COS)
    quadrant = b.op("sub", k, b.op("mul", b.op("floor", b.op("mul", k, 0.25)), 4.0))
    neg_sin, neg_cos = b.op("neg", sin_r), b.op("neg", cos_r)

    def pick(values: tuple[str, str, str, str]) -> str:
        last = values[3]
        for q in (2, 1, 0):
            last = b.select(b.op("cmp_eq", quadrant, float(q)), values[q], last)
        return last

    return pick((sin_r, cos_r, neg_sin, neg_cos)), pick((cos_r, neg_sin, neg_cos, sin_r))


def _atan(b: _Builder, x: str) -> str:
    a = b.op("abs", x)
    inverted = b.op("cmp_gt", a, 1.0)
    t = b.select(inverted, b.op("div", 1.0, a), a)
    root3 = math.sqrt(3.0)
    far = b.op("cmp_gt", t, 2.0 - root3)  # tan(pi/12)
    shifted = b.op("div", b.op("sub", t, 1.0 / root3), b.op("add", b.op("div", t, root3), 1.0))
    u = b.select(far, shifted, t)
    y = b.op("mul", u, b.poly(b.op("mul", u, u), _ATAN))
    y = b.select(far, b.op("add", y, math.pi / 6), y)
    y = b.select(inverted, b.op("sub", math.pi / 2, y), y)
    return b.select(b.op("cmp_lt", x, 0.0), b.op("neg", y), y)


def _half_exps(b: _Builder, x: str) -> tuple[str, str]:
    """e^x / 2 and e^-x / 2, as exp(+-x - ln 2): finite up to where sinh and cosh are."""
    return b.op("exp", b.op("sub", x, math.log(2))), b.op(
        "exp", b.op("sub", b.op("neg", x), math.log(2))
    )


def _sinh(b: _Builder, x: str) -> str:
    x = b.fp32(x)
    e, inv = _half_exps(b, x)
    wide = b.op("sub", e, inv)
    x2 = b.op("mul", x, x)
    series = b.op("mul", x, b.poly(x2, _SINH))
    return b.select(b.op("cmp_lt", b.op("abs", x), 0.5), series, wide)


def _cosh(b: _Builder, x: str) -> str:
    return b.op("add", *_half_exps(b, b.fp32(x)))


def _asin(b: _Builder, x: str) -> str:
    xf = b.fp32(x)
    rest = b.op("sqrt", b.op("mul", b.op("sub", 1.0, xf), b.op("add", xf, 1.0)))
    return _atan(b, b.op("div", xf, rest))


def _acos(b: _Builder, x: str) -> str:
    xf = b.fp32(x)
    ratio = b.op("div", b.op("sub", 1.0, xf), b.op("add", xf, 1.0))
    return b.op("mul", _atan(b, b.op("sqrt", ratio)), 2.0)


_TRIG = {
    "sin": lambda b, x: _sin_cos(b, x)[0],
    "cos": lambda b, x: _sin_cos(b, x)[1],
    "tan": lambda b, x: b.op("div", *_sin_cos(b, x)),
    "atan": lambda b, x: _atan(b, b.fp32(x)),
    "asin": _asin,
    "acos": _acos,
    "sinh": _sinh,
    "cosh": _cosh,
}


def _power(x: str, n: int, out: str, fresh: _Fresh) -> list[Statement]:
    """`x ** n` (n >= 1) by repeated squaring: products of `x ** 2**k`; the last defines `out`.
    With n == 1 the result is `ident(x)`."""
    factors: list[str] = []
    square = x
    stmts: list[Statement] = []
    while True:
        if n & 1:
            factors.append(square)
        n >>= 1
        if not n:
            break
        nxt = fresh("sq")
        stmts.append(Intrinsic(name="mul", inputs=(square, square), outputs=(nxt,)))
        square = nxt
    result = factors[0]
    for k, factor in enumerate(factors[1:], start=2):
        name = out if k == len(factors) else fresh("p")
        stmts.append(Intrinsic(name="mul", inputs=(result, factor), outputs=(name,)))
        result = name
    if result != out:
        stmts.append(Intrinsic(name="ident", inputs=(result,), outputs=(out,)))
    return stmts


def _scalar_names(block: Block) -> set[str]:
    return {n for st in block.stmts for n in (*scalar_inputs(st), *scalar_outputs(st))}


def _splice(block: Block, replaced: dict[int, list[Statement]]) -> Block:
    """Replace statement `pos` by the list `replaced[pos]`. A statement depending on a replaced
    one depends on its last replacement; the replacements inherit the original's deps."""
    new_pos: dict[int, int] = {}
    stmts: list[Statement] = []
    for pos, stmt in enumerate(block.stmts):
        deps = tuple(sorted({new_pos[d] for d in stmt.deps}))
        if pos in replaced:
            for k, new in enumerate(replaced[pos]):
                tags = stmt.tags if k == len(replaced[pos]) - 1 else new.tags
                stmts.append(dataclasses.replace(new, deps=deps, tags=tags, span=stmt.span))
        else:
            stmts.append(stmt if deps == stmt.deps else dataclasses.replace(stmt, deps=deps))
        new_pos[pos] = len(stmts) - 1
    return dataclasses.replace(block, stmts=tuple(stmts))
