"""An elementwise block after a GEMM-like block, run on the micro-kernel's registers.

PlaidML's fusion leaves a convolution's or a dense layer's bias and activation as a second
block in the contraction's tile: `R = relu(O + B)` reads each element of the tile's C once
more, after the micro-kernel stored it. When that block (the epilogue) maps each element of C
to itself, the micro-kernel applies it to its accumulators instead, between the reduction
and the store, and the second pass over C disappears (oneDNN's and MLAS's post-ops).

An epilogue qualifies when (checked here, else the blocks run as before):

* the GEMM overwrites its box of C (the whole reduction in one call, no constraints, no
  blocking of the reduction): each stored value is final; or it is one of the calls of a
  split reduction (`split_reduction`), of which the last applies the epilogue;
* the next block is a leaf without constraints or allocations over exactly the elements of
  that box, each once (its indices, merged as the GEMM's are, span the same offsets from the
  same first element), and it stores one value per point to that element without
  aggregation;
* it reads C only at the element it writes, and other buffers through the column index alone
  with step 0 (a scalar) or 1 (a bias: a vector per register block's columns), or at the
  element it writes in a buffer laid out as C (a residual: a vector per accumulator), or
  through C's row and outer indices alone (a bias per row: a grouped NCHW convolution's per
  output channel, one value broadcast per accumulator row), each such index matching one of
  the kernel's row dimensions or loops around its calls by range and C stride;
* its value is built from the element type's `add`, `sub`, `mul`, `div`, `max`, `min` and
  `neg` (relu is `max(x, 0)`), which mean on vectors what they mean on each lane: the same
  operations on the same operands as the second pass (bitwise equal results for a bias and
  relu; elsewhere the compiler may contract a multiply and an add, in either, within rounding).

The block's statements are lowered as one point (`Lowering.body`) and read back as one
expression over the accumulator (`ACC`) and the inputs (`INPUT0`, ...), which the kernel
instantiates on vectors for its full register blocks and on scalars where a partial block goes
through its C tile (`applied`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from plaidc.backends.loopnest.gemm_shape import blocking, layout
from plaidc.backends.loopnest.plan import (
    Comment,
    IConst,
    IntExpr,
    LetScalar,
    SBinary,
    ScalarType,
    SCast,
    SConst,
    SExpr,
    SLoad,
    Stmt,
    Store,
    SUnary,
    SVar,
    affine_expr,
)
from plaidc.backends.loopnest.simplify import affine_form
from plaidc.diagnostics import CompileError
from plaidc.stripe.ir import Affine, Block, Constant, Intrinsic, Load
from plaidc.stripe.ir import Store as StripeStore

if TYPE_CHECKING:
    from plaidc.backends.loopnest.gemm import GemmCall
    from plaidc.backends.loopnest.lower import Lowering
    from plaidc.backends.loopnest.scope import Scope

# Placeholder names in an epilogue's expression (plan variables never contain '%').
ACC = "%acc"
INPUT = "%in"
_BINARY = ("add", "sub", "mul", "div", "max", "min")
_UNARY = ("neg",)


@dataclass(frozen=True)
class EpilogueInput:
    """A buffer the epilogue reads: at `origin` for column 0, moving `step` (0 or 1) per
    column of C; with `element`, laid out as C (a residual added to a convolution's output):
    at `origin` for C's first element, moving as C does over its rows, columns and the loops
    around the calls; with `rows` (a bias per row), one value per row of C: at `origin` for
    C's first row, moving `rows[d]` per step of the kernel's row dimension `d` (one for flat
    rows) and `outer[j]` per step of the loop `j` around the calls (`GemmCall.outer`)."""

    buffer: str
    origin: Affine
    step: int
    element: bool = False
    rows: tuple[int, ...] = ()
    outer: tuple[int, ...] = ()

    @property
    def per_row(self) -> bool:
        return bool(self.rows)


@dataclass(frozen=True)
class Epilogue:
    """What the micro-kernel stores instead of each accumulated element: `value` over `ACC`
    (the element) and `INPUT{i}` (`inputs[i]` at the element's column)."""

    value: SExpr
    inputs: tuple[EpilogueInput, ...]
    title: str

    @property
    def key(self) -> tuple[object, ...]:
        """What the kernel's code depends on (not where the inputs are)."""
        return (self.value, tuple((i.step, i.element, i.rows) for i in self.inputs))


class _NotFusable(Exception):
    """The block is not an epilogue of the GEMM."""


def detect(
    lowering: Lowering, parent: Scope, gemm: GemmCall, block: Block, pos: int
) -> Epilogue | None:
    """`block` (statement `pos` of `parent`'s block, right after `gemm`'s) as `gemm`'s
    epilogue, or None when it is not one (module docstring)."""
    shape = gemm.shape
    if not (shape.overwrite or shape.split):
        return None
    # an edge tile's calls write a box cut by bounds (run-time extents, which `lower_gemm`
    # derives from these bounds: `shape.runtime` is still empty here), not the shape's
    if any(role in ("m", "n") for role, _, _ in gemm.bounds):
        return None
    b = blocking(lowering, shape, layout(lowering, shape))
    if b is not None and b.kc < shape.k:
        return None  # the reduction's blocks store partial sums
    if block.constraints or any(ref.from_ is None for ref in block.refs):
        return None
    if not all(isinstance(s, (Load, StripeStore, Intrinsic, Constant)) for s in block.stmts):
        return None
    scope, written, _ = lowering.child_scope(parent, block, pos)
    if len(written) != 1 or any(w.mode is not None for w in written.values()):
        return None
    try:
        stmts = lowering.body(scope)
    except CompileError:
        return None  # lowered on its own, it reports the error where it is
    depth = len(scope.chain) - 1
    ranges = {scope.vars[(depth, idx.name)]: idx.range for idx in block.idxs}
    # each index's first value (`affine + 0`), over the enclosing plan variables
    outer = scope.var_affine(depth - 1)
    starts = {scope.vars[(depth, idx.name)]: idx.affine.substitute(outer) for idx in block.idxs}
    try:
        return _read(gemm, stmts, ranges, starts, block.name or f"#{pos}")
    except _NotFusable:
        return None


def _split(form: Affine, starts: dict[str, Affine]) -> tuple[dict[str, int], Affine]:
    """An offset's coefficients on the block's indices, and its value at their first point
    (each index at its start)."""
    coeffs = {name: c for name, c in form.terms if name in starts}
    rest = Affine(tuple(t for t in form.terms if t[0] not in starts), form.const)
    for name, c in coeffs.items():
        rest = rest + starts[name] * c
    return coeffs, rest


def _canonical(dims: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`(range, stride)` dimensions of a box of offsets, innermost first, with a dimension
    merged into the next inner one where it continues it (`(14, 3584), (28, 64)` stay apart,
    `(3, 192), (64, 3)` become `(192, 3)`): equal lists span equal sets of offsets."""
    out: list[tuple[int, int]] = []
    for size, stride in sorted((d for d in dims if d[0] > 1), key=lambda d: (abs(d[1]), d[0])):
        if out and stride == out[-1][1] * out[-1][0]:
            out[-1] = (out[-1][0] * size, out[-1][1])
        else:
            out.append((size, stride))
    return out


def _read(
    gemm: GemmCall,
    stmts: list[Stmt],
    ranges: dict[str, int],
    starts: dict[str, Affine],
    title: str,
) -> Epilogue:
    shape = gemm.shape
    t = ScalarType(shape.dtype)
    c_buffer = gemm.c[0]
    lets: dict[str, SExpr] = {}
    store: Store | None = None
    for s in stmts:
        if isinstance(s, LetScalar) and store is None:
            lets[s.name] = s.value
        elif isinstance(s, Store) and store is None and s.agg is None and s.buffer == c_buffer:
            store = s
        elif not isinstance(s, Comment):
            raise _NotFusable
    if store is None:
        raise _NotFusable
    out_form = affine_form(store.offset)
    c_origin = affine_form(affine_expr(gemm.c[1]))
    if out_form is None or c_origin is None:
        raise _NotFusable
    coeffs, origin = _split(out_form, starts)
    if origin != c_origin:
        raise _NotFusable
    # C's box: the kernel's rows and the loops around its calls, then its columns
    row_dims = [(m, s) for m, _, s in shape.row_dims] or [(shape.m, shape.c_row)]
    rows = row_dims + [(loop.range, loop.steps[2]) for loop in gemm.outer]
    want = _canonical(rows)
    moving = [name for name, size in ranges.items() if size > 1]
    for column in moving:
        if coeffs.get(column, 0) != 1 or ranges[column] != shape.n:
            continue
        others = [(ranges[n], coeffs.get(n, 0)) for n in moving if n != column]
        if any(stride == 0 for _, stride in others) or _canonical(others) != want:
            continue
        dims = _row_dims({n: (ranges[n], coeffs[n]) for n in moving if n != column}, rows)
        shape_dims = (len(row_dims), len(rows))
        reader = _Reader(lets, out_form, column, starts, c_buffer, t, dims, shape_dims)
        value = reader.walk(store.value)
        return Epilogue(value, tuple(reader.inputs), title)
    raise _NotFusable


def _row_dims(
    indices: dict[str, tuple[int, int]], dims: list[tuple[int, int]]
) -> dict[str, int] | None:
    """Which of C's `(range, stride)` dimensions (the kernel's row dimensions, then the loops
    around its calls) each of the block's other indices (`(range, C stride)`) is: None when
    one matches none or several (a dimension the kernel merged from several indices)."""
    out: dict[str, int] = {}
    for name, pair in indices.items():
        found = [d for d, dim in enumerate(dims) if dim == pair]
        if len(found) != 1 or found[0] in out.values():
            return None
        out[name] = found[0]
    return out


class _Reader:
    """The epilogue's value over the placeholders: loads of the element are `ACC`, loads of
    other buffers (module docstring) `INPUT{i}` of `inputs`; anything else raises
    `_NotFusable`. `dims`: the block's indices other than the column as C's dimensions
    (`_row_dims`), None if unknown; `counts`: how many of C's dimensions are the kernel's
    rows, and how many there are with the loops around the calls."""

    def __init__(
        self,
        lets: dict[str, SExpr],
        element: Affine,
        column: str,
        starts: dict[str, Affine],
        c_buffer: str,
        t: ScalarType,
        dims: dict[str, int] | None,
        counts: tuple[int, int],
    ) -> None:
        self.lets, self.element, self.column, self.starts = lets, element, column, starts
        self.c_buffer, self.t, self.dims, self.counts = c_buffer, t, dims, counts
        self.inputs: list[EpilogueInput] = []

    def walk(self, e: SExpr) -> SExpr:
        t = self.t
        if e.type != t:
            raise _NotFusable
        if isinstance(e, SVar) and e.name in self.lets:
            return self.walk(self.lets[e.name])
        if isinstance(e, SConst):
            return e
        if isinstance(e, SLoad):
            return self._load(e)
        if isinstance(e, SBinary) and e.op in _BINARY:
            return SBinary(e.op, self.walk(e.a), self.walk(e.b), t)
        if isinstance(e, SUnary) and e.op in _UNARY:
            return SUnary(e.op, self.walk(e.arg), t)
        if isinstance(e, SCast) and e.arg.type == t:
            return self.walk(e.arg)
        raise _NotFusable

    def _load(self, e: SLoad) -> SExpr:
        form = affine_form(e.offset)
        if form is None:
            raise _NotFusable
        if e.buffer == self.c_buffer:
            if form != self.element:
                raise _NotFusable  # another element of C
            return SVar(ACC, self.t)
        coeffs, origin = _split(form, self.starts)
        if coeffs == _split(self.element, self.starts)[0]:  # laid out as C: a residual
            return self._input(EpilogueInput(e.buffer, origin, 1, element=True))
        across = {name: c for name, c in coeffs.items() if name != self.column and c != 0}
        step = coeffs.get(self.column, 0)
        if not across:
            if step not in (0, 1):
                raise _NotFusable
            return self._input(EpilogueInput(e.buffer, origin, step))
        if step != 0 or self.dims is None or not set(across) <= set(self.dims):
            raise _NotFusable
        nrows, ndims = self.counts
        strides = [0] * ndims
        for name, c in across.items():
            strides[self.dims[name]] = c
        rows, outer = tuple(strides[:nrows]), tuple(strides[nrows:])
        return self._input(EpilogueInput(e.buffer, origin, 0, rows=rows, outer=outer))

    def _input(self, read: EpilogueInput) -> SExpr:
        self.inputs.append(read)
        return SVar(f"{INPUT}{len(self.inputs) - 1}", self.t)


def applied(
    epilogue: Epilogue,
    acc: SExpr,
    column: IntExpr,
    element: IntExpr,
    params: list[str],
    t: ScalarType,
    row_offset: Callable[[tuple[int, ...]], IntExpr],
) -> SExpr:
    """The epilogue's value for `acc` (a vector of consecutive columns from `column`, or one
    element; `element`: where it is in C, from C's first element) with input `i` read from
    kernel parameter `params[i]` (its column 0, or its first element, or its first row;
    `row_offset(strides)`: where the element's row is, for strides per row dimension)."""
    scalar = ScalarType(t.dtype)

    def walk(e: SExpr) -> SExpr:
        if isinstance(e, SVar) and e.name == ACC:
            return acc
        if isinstance(e, SVar):
            i = int(e.name[len(INPUT) :])
            read, param = epilogue.inputs[i], params[i]
            if read.element:
                return SLoad(param, element, t)
            if read.step == 1:
                return SLoad(param, column, t)
            one = SLoad(param, row_offset(read.rows) if read.per_row else IConst(0), scalar)
            return SCast(one, t) if t.is_vector else one
        if isinstance(e, SConst):
            return SCast(e, t) if t.is_vector else e
        if isinstance(e, SBinary):
            return SBinary(e.op, walk(e.a), walk(e.b), t)
        if isinstance(e, SUnary):
            return SUnary(e.op, walk(e.arg), t)
        raise TypeError(f"not an epilogue expression: {e!r}")

    return walk(epilogue.value)


def describe(epilogue: Epilogue) -> str:
    """A short text of the epilogue for the kernel's comment."""

    def text(e: SExpr) -> str:
        if isinstance(e, SVar):
            return "C" if e.name == ACC else f"E{e.name[len(INPUT) :]}"
        if isinstance(e, SConst):
            return str(e.value)
        if isinstance(e, SBinary):
            return f"{e.op}({text(e.a)}, {text(e.b)})"
        if isinstance(e, SUnary):
            return f"{e.op}({text(e.arg)})"
        return "?"

    return text(epilogue.value)
