"""Special statements (whole-view operations) as plain loops over view elements.

Semantics as in `plaidc.interp.specials`: a special reads and writes whole views, elements in
row-major order of the views' sizes, and its writes are the point's writes (so they accumulate
where the view's stores would). `zero`, `copy`, `reshape`, `shape`, `gather` and `scatter`
are supported; `prng_*` has no defined meaning (the interpreter refuses it too).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from plaidc.backends.loopnest.plan import (
    FAIL_SCATTER_INDEX,
    I64,
    STATUS,
    IBin,
    ICmp,
    IConst,
    If,
    ILogic,
    IntExpr,
    IScalar,
    IVar,
    LetScalar,
    Loop,
    ScalarType,
    SCast,
    SConst,
    SLoad,
    Stmt,
    Store,
    SVar,
    affine_expr,
    iadd,
    imul,
)
from plaidc.backends.loopnest.scalars import Runtime, literal, storage, store_value
from plaidc.backends.loopnest.scope import Scope, View
from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.interp import numpy_dtype
from plaidc.stripe.ir import DType, Special

if TYPE_CHECKING:
    from plaidc.backends.loopnest.lower import Lowering

Body = Callable[[list[IntExpr]], list[Stmt]]


def _error(scope: Scope, message: str) -> CompileError:
    return CompileError([Diagnostic(f"{scope.path}: {message}")])


def element_loops(lowering: Lowering, sizes: Sequence[int], body: Body) -> list[Stmt]:
    """Loops over the row-major multi-indices of `sizes`, around `body(coordinates)`."""
    iters = [lowering.names.fresh(f"e{d}") for d in range(len(sizes))]
    stmts = body([IVar(v) for v in iters])
    for var, size in reversed(list(zip(iters, sizes, strict=True))):
        if size == 0:
            return []
        stmts = [Loop(var, IConst(0), IConst(size), tuple(stmts))]
    return stmts


def element_offset(view: View, coords: Sequence[IntExpr]) -> IntExpr:
    """Offset in the view's buffer of the element at `coords`."""
    out = affine_expr(view.base)
    for coord, stride in zip(coords, view.ref.shape.strides, strict=True):
        out = iadd(out, imul(coord, stride))
    return out


def _flat(coords: Sequence[IntExpr], sizes: Sequence[int]) -> IntExpr:
    out: IntExpr = IConst(0)
    for coord, size in zip(coords, sizes, strict=True):
        out = iadd(imul(out, size), coord)
    return out


def _unflatten(flat: IntExpr, sizes: Sequence[int]) -> list[IntExpr]:
    coords = []
    for d, size in enumerate(sizes):
        after = math.prod(sizes[d + 1 :])
        coord = IBin("pdiv", flat, IConst(after)) if after != 1 else flat
        coords.append(IBin("rem", coord, IConst(size)) if d else coord)
    return coords


class _Special:
    def __init__(self, lowering: Lowering, scope: Scope, stmt: Special) -> None:
        self.lowering = lowering
        self.scope = scope
        self.stmt = stmt

    def view(self, name: str, reads: bool) -> View:
        view = self.scope.views.get(name)
        if view is None:
            raise _error(self.scope, f"special '{self.stmt.name}' names unknown '{name}'")
        if reads and view.mode is not None:
            raise _error(
                self.scope,
                f"special '{self.stmt.name}' reads '{name}', which this block aggregates into",
            )
        return view

    def load(self, view: View, coords: Sequence[IntExpr], out: list[Stmt]) -> Runtime:
        dtype = storage(view.ref.shape.dtype)
        name = self.lowering.names.fresh(f"{view.ref.into}_elem")
        load = SLoad(view.buffer, element_offset(view, coords), ScalarType(dtype))
        out.append(LetScalar(name, load))
        return Runtime(SVar(name, load.type), numpy_dtype(dtype))

    def store(self, view: View, coords: Sequence[IntExpr], value: Runtime | SConst) -> Store:
        expr = value if isinstance(value, SConst) else store_value(value, view.ref.shape.dtype)
        return Store(view.buffer, element_offset(view, coords), expr, view.mode)

    def output(self, inputs: int) -> View:
        if len(self.stmt.inputs) != inputs or len(self.stmt.outputs) != 1:
            raise _error(
                self.scope,
                f"special '{self.stmt.name}' takes {inputs} inputs and 1 output, got"
                f" {len(self.stmt.inputs)} and {len(self.stmt.outputs)}",
            )
        return self.view(self.stmt.outputs[0], reads=False)

    # ---- the specials -------------------------------------------------------------------

    def zero(self) -> list[Stmt]:
        out: list[Stmt] = []
        for name in self.stmt.outputs or self.stmt.inputs:
            view = self.view(name, reads=False)
            out += element_loops(self.lowering, view.ref.shape.sizes, self._zeros(view))
        return out

    def _zeros(self, view: View) -> Body:
        zero = literal(0, view.ref.shape.dtype)

        def body(coords: list[IntExpr]) -> list[Stmt]:
            return [self.store(view, coords, zero)]

        return body

    def copy(self) -> list[Stmt]:
        target = self.output(1)
        source = self.view(self.stmt.inputs[0], reads=True)
        tsizes, ssizes = target.ref.shape.sizes, source.ref.shape.sizes
        if math.prod(tsizes) != math.prod(ssizes):
            raise _error(
                self.scope,
                f"special '{self.stmt.name}' produces {math.prod(ssizes)} elements but its"
                f" output '{self.stmt.outputs[0]}' has {math.prod(tsizes)}",
            )

        def body(coords: list[IntExpr]) -> list[Stmt]:
            out: list[Stmt] = []
            src = coords if tsizes == ssizes else _unflatten(_flat(coords, tsizes), ssizes)
            value = self.load(source, src, out)
            return [*out, self.store(target, coords, value)]

        return element_loops(self.lowering, tsizes, body)

    def shape(self) -> list[Stmt]:
        target = self.output(1)
        source = self.view(self.stmt.inputs[0], reads=False)
        sizes = source.ref.shape.sizes
        if target.ref.shape.elem_count != len(sizes):
            raise _error(
                self.scope,
                f"special 'shape' produces {len(sizes)} elements but its output"
                f" '{self.stmt.outputs[0]}' has {target.ref.shape.elem_count}",
            )
        tsizes = target.ref.shape.sizes
        out: list[Stmt] = []
        for k, size in enumerate(sizes):
            coords: list[IntExpr] = [IConst(c) for c in _coords_of(k, tsizes)]
            out.append(self.store(target, coords, literal(size, target.ref.shape.dtype)))
        return out

    def index(self, view: View, coords: Sequence[IntExpr], out: list[Stmt]) -> str:
        """An i64 scalar holding the (truncated) index stored at `coords` of `view`."""
        value = self.load(view, coords, out)
        name = self.lowering.names.fresh("index")
        out.append(LetScalar(name, SCast(value.expr, I64)))
        return name

    def gather(self) -> list[Stmt]:
        target = self.output(2)
        values = self.view(self.stmt.inputs[0], reads=True)
        indices = self.view(self.stmt.inputs[1], reads=True)
        vsizes = values.ref.shape.sizes
        if not vsizes:
            raise _error(self.scope, "gather needs a source with at least one dimension")
        nidx = indices.ref.shape.ndims
        expect = (*indices.ref.shape.sizes, *vsizes[1:])
        if math.prod(expect) != target.ref.shape.elem_count:
            raise _error(self.scope, f"gather output '{target.ref.into}' has the wrong size")
        last = vsizes[0] - 1

        def body(coords: list[IntExpr]) -> list[Stmt]:
            out: list[Stmt] = []
            pick = IScalar(self.index(indices, coords[:nidx], out))
            clamped = IBin("max", IConst(0), IBin("min", pick, IConst(last)))
            value = self.load(values, [clamped, *coords[nidx:]], out)
            tcoords = _unflatten(_flat(coords, expect), target.ref.shape.sizes)
            if target.ref.shape.sizes == expect:
                tcoords = coords
            return [*out, self.store(target, tcoords, value)]

        return element_loops(self.lowering, expect, body)

    def scatter(self) -> list[Stmt]:
        target = self.output(3)
        updates = self.view(self.stmt.inputs[0], reads=True)
        indices = self.view(self.stmt.inputs[1], reads=True)
        like = self.view(self.stmt.inputs[2], reads=False)
        sizes = like.ref.shape.sizes
        if not sizes:
            raise _error(self.scope, "scatter needs a target with at least one dimension")
        if target.mode not in (None, "add"):
            raise _error(self.scope, f"scatter into an aggregation with '{target.mode}'")
        if target.ref.shape.sizes != sizes:
            raise _error(self.scope, "scatter output must be shaped like its third input")
        rest = sizes[1:]
        count = indices.ref.shape.elem_count
        if updates.ref.shape.elem_count != count * math.prod(rest):
            raise _error(
                self.scope,
                f"scatter updates '{self.stmt.inputs[0]}' have {updates.ref.shape.elem_count}"
                f" elements, expected {count} indices x {math.prod(rest)}",
            )
        dtype = storage(target.ref.shape.dtype)
        zero = literal(0, dtype)
        stmts = element_loops(self.lowering, sizes, lambda c: [self.store(target, c, zero)])
        isizes = indices.ref.shape.sizes
        usizes = updates.ref.shape.sizes

        def body(coords: list[IntExpr]) -> list[Stmt]:
            out: list[Stmt] = []
            nidx = len(isizes)
            pick = IScalar(self.index(indices, coords[:nidx], out))
            ucoords = _unflatten(_flat(coords, (*isizes, *rest)), usizes)
            value = self.load(updates, ucoords, out)
            converted = store_value(value, target.ref.shape.dtype)
            tcoords = [pick, *coords[nidx:]]
            at = element_offset(target, tcoords)
            if target.mode is None:
                current = SLoad(target.buffer, at, ScalarType(dtype))
                from plaidc.backends.loopnest.scalars import aggregate

                total = store_value(
                    Runtime(
                        aggregate("add", current, converted, ScalarType(dtype)), numpy_dtype(dtype)
                    ),
                    target.ref.shape.dtype,
                )
                write = Store(target.buffer, at, total)
            else:
                write = Store(target.buffer, at, converted, "add")
            inside = ILogic("and", ICmp(">=", pick, IConst(0)), ICmp("<", pick, IConst(sizes[0])))
            fail = Store(STATUS, IConst(0), SConst(FAIL_SCATTER_INDEX, ScalarType(DType.I32)))
            return [*out, If(inside, (write,), (fail,))]

        return stmts + element_loops(self.lowering, (*isizes, *rest), body)


def _coords_of(k: int, sizes: Sequence[int]) -> list[int]:
    coords = []
    for d in range(len(sizes)):
        after = math.prod(sizes[d + 1 :])
        coords.append((k // after) % sizes[d])
    return coords


def lower_special(lowering: Lowering, scope: Scope, stmt: Special) -> list[Stmt]:
    """Loops performing special `stmt` at one point of `scope`'s block."""
    special = _Special(lowering, scope, stmt)
    name = stmt.name
    if name == "zero":
        return special.zero()
    if name in ("copy", "reshape"):
        return special.copy()
    if name == "shape":
        return special.shape()
    if name == "gather":
        return special.gather()
    if name == "scatter":
        return special.scatter()
    if name.startswith("prng"):
        raise _error(scope, f"special '{name}' is not supported (it has no defined semantics)")
    raise _error(scope, f"unknown special '{name}'")
