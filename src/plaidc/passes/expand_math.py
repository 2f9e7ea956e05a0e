"""`expand-math`: rewrite intrinsics a target lacks into ones it has (the NPU's vector ISA has
exp, ln, reciprocal and arithmetic, but no tanh or pow).

* `tanh(x)` becomes `1 - 2 / (exp(2x) + 1)`: exact limits (+-1 when exp overflows or vanishes,
  NaN stays NaN), within a few ulp of the result's magnitude near 0 (absolute error ~1e-7 in
  fp32).
* `pow(x, n)` with a weakly typed constant integer `1 <= n <= max_power` becomes multiplications
  by repeated squaring (one rounding per product). Other exponents are left alone:
  `exp(y * ln x)` is wrong for negative bases, so a target without `pow` reports it.

Constants are weakly typed (`(int)1`, `(float)2`), so each step keeps the operand's type as
the original intrinsic did. Options: `ops` (which rewrites run), `max_power`.

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
from dataclasses import dataclass

from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.passes.registry import register
from plaidc.passes.selection import map_all_blocks, rewrite_matching
from plaidc.stripe.ir import Block, Constant, Intrinsic, Statement
from plaidc.stripe.uses import scalar_inputs, scalar_outputs

REWRITES = ("tanh", "pow")


@dataclass(frozen=True)
class ExpandMathOptions:
    reqs: tuple[str, ...] = ("all",)
    exclude: tuple[str, ...] = ()
    ops: tuple[str, ...] = REWRITES
    max_power: int = 16


@register("expand-math", ExpandMathOptions, "rewrite tanh and integer powers into exp/div/mul")
def expand_math(program: Block, opts: ExpandMathOptions) -> Block:
    unknown = sorted(set(opts.ops) - set(REWRITES))
    if unknown:
        raise CompileError(
            [Diagnostic(f"expand-math: unknown op(s) {unknown}; it rewrites {list(REWRITES)}")]
        )
    return rewrite_matching(
        program, opts.reqs, lambda b: map_all_blocks(b, lambda x: _expand(x, opts)), opts.exclude
    )


def _expand(block: Block, opts: ExpandMathOptions) -> Block:
    constants = {s.name: s for s in block.stmts if isinstance(s, Constant)}
    taken = _scalar_names(block)
    replaced: dict[int, list[Statement]] = {}
    for pos, stmt in enumerate(block.stmts):
        if not isinstance(stmt, Intrinsic) or stmt.name not in opts.ops or len(stmt.outputs) != 1:
            continue
        fresh = _Fresh(stmt.outputs[0], taken)
        if stmt.name == "tanh" and len(stmt.inputs) == 1:
            replaced[pos] = _tanh(stmt.inputs[0], stmt.outputs[0], fresh)
        elif stmt.name == "pow" and len(stmt.inputs) == 2:
            exponent = constants.get(stmt.inputs[1])
            # only a weakly typed int exponent keeps the result in x's type, as x * x does
            # (`x_i32 ** 2.0` is fp64 in numpy)
            if (
                exponent is not None
                and exponent.type == "int"
                and _small_integer(exponent.value, opts.max_power)
            ):
                replaced[pos] = _power(stmt.inputs[0], int(exponent.value), stmt.outputs[0], fresh)
    if not replaced:
        return block
    return _splice(block, replaced)


def _small_integer(value: float, limit: int) -> bool:
    return float(value).is_integer() and 1 <= value <= limit


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


def _tanh(x: str, out: str, fresh: _Fresh) -> list[Statement]:
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
