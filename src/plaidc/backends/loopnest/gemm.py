"""GEMM-like blocks as register-blocked micro-kernels (plaidc's own; no BLAS).

A block the config's `gemm_tags` select (PlaidML's stencil pass tags them `#mac_inner`) is
run as a micro-kernel when its shape allows: a leaf block without constraints whose body is
`load A, load B, mul, store C` in one float type, C accumulating with `add`, and whose indices
play three roles, read off the flat strides of the accesses:

* `j` moves C with unit stride, and one input (called B) but not the other (A): vector lanes
  (B is packed into contiguous panels when its `j` stride is not 1);
* `i` moves A and C but not B: register-block rows, each row an A element broadcast; rows of
  C must not overlap (its `i` stride at least the `j` extent);
* `k` moves A and B but not C: the reduction.

Per execution the kernel computes `C[i*c_row + j] (+)= sum_k A[i*a_row + k*a_k] *
B[k*b_k + j*b_j]`, all sizes and strides compile-time constants. It packs B into zero-padded
panels of `NR = gemm_vectors * lanes` columns (when the panels are reused by several row
blocks or a panel is partial) and A into `MR x K` row blocks (when several panels reuse them),
keeps an `MR x NR` block of C in vector registers across the whole k loop and updates it with
fused multiply-adds. The result is the same sum as the generic loops (up to rounding order),
which is what Definition 2 asks of an `add` aggregation.

When the block is the top reducing level of C, the kernel writes C instead of accumulating
and the footprint initialisation is skipped: it writes every element of the `I x J` box.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from plaidc.backends.loopnest.aggregation import WrittenRef
from plaidc.backends.loopnest.optimise import hoist_scratch, work
from plaidc.backends.loopnest.plan import (
    Alloc,
    AssignVar,
    BufferArg,
    BufferParam,
    Call,
    DeclVar,
    Function,
    IConst,
    IntExpr,
    IVar,
    LetScalar,
    Loop,
    ScalarType,
    SCast,
    SConst,
    SExpr,
    SFma,
    SLoad,
    Stmt,
    Store,
    SVar,
    affine_expr,
    iadd,
    imul,
)
from plaidc.backends.loopnest.scope import Scope
from plaidc.stripe.ir import Affine, Block, DType, Intrinsic, Load
from plaidc.stripe.ir import Store as StripeStore

if TYPE_CHECKING:
    from plaidc.backends.loopnest.lower import Lowering

_FLOATS = (DType.FP32, DType.FP64)


@dataclass(frozen=True)
class GemmShape:
    """A micro-kernel's constants: element type, sizes, strides, and whether it overwrites C."""

    dtype: DType
    m: int
    n: int
    k: int
    a_row: int
    a_k: int
    b_k: int
    b_j: int
    c_row: int
    overwrite: bool
    parallel: bool = False


@dataclass(frozen=True)
class GemmCall:
    """A GEMM-like block: its kernel shape and where A, B and C start."""

    shape: GemmShape
    a: tuple[str, Affine]
    b: tuple[str, Affine]
    c: tuple[str, Affine]
    c_ref: str


def _flat(scope: Scope, name: str) -> dict[str, int]:
    view = scope.views[name]
    coeffs: dict[str, int] = {}
    for access, stride in zip(view.ref.access, view.ref.shape.strides, strict=True):
        for idx, c in access.terms:
            coeffs[idx] = coeffs.get(idx, 0) + c * stride
    return coeffs


def _body_pattern(block: Block) -> tuple[str, str, str] | None:
    """(A ref, B ref, C ref) if the body is `load, load, mul, store` of the product."""
    loads: dict[str, str] = {}
    product = None
    store = None
    for stmt in block.stmts:
        if isinstance(stmt, Load):
            loads[stmt.into] = stmt.from_
        elif isinstance(stmt, Intrinsic) and stmt.name == "mul" and product is None:
            if len(stmt.inputs) != 2 or not all(i in loads for i in stmt.inputs):
                return None
            product = (stmt.outputs[0], loads[stmt.inputs[0]], loads[stmt.inputs[1]])
        elif isinstance(stmt, StripeStore) and store is None:
            store = stmt
        else:
            return None
    if product is None or store is None or store.from_ != product[0] or len(loads) != 2:
        return None
    return product[1], product[2], store.into


def detect(lowering: Lowering, scope: Scope, written: dict[str, WrittenRef]) -> GemmCall | None:
    """The micro-kernel form of `scope`'s block, or None when it is not GEMM-like."""
    block = scope.chain[-1]
    tags = lowering.options.gemm_tags
    if not tags or not block.tags.has_any(tags) or block.constraints:
        return None
    if any(r.from_ is None for r in block.refs):
        return None
    pattern = _body_pattern(block)
    if pattern is None:
        return None
    a_name, b_name, c_name = pattern
    if len({a_name, b_name, c_name}) != 3 or c_name not in written:
        return None
    a_view, b_view, c_view = (scope.views[n] for n in pattern)
    dtype = c_view.ref.shape.dtype
    if dtype not in _FLOATS or {a_view.ref.shape.dtype, b_view.ref.shape.dtype} != {dtype}:
        return None
    if c_view.mode != "add" or a_view.mode is not None or b_view.mode is not None:
        return None
    fa, fb, fc = _flat(scope, a_name), _flat(scope, b_name), _flat(scope, c_name)
    moving = [idx.name for idx in block.idxs if idx.range > 1]
    # j: unit stride in C, moving exactly one input, which is B from here on.
    js = [n for n in moving if fc.get(n, 0) == 1 and (fa.get(n, 0) == 0) != (fb.get(n, 0) == 0)]
    if len(js) != 1:
        return None
    j = js[0]
    if fa.get(j, 0) != 0:
        a_name, b_name = b_name, a_name
        fa, fb = fb, fa
    by_role = {"j": j}
    for name in moving:
        if name == j:
            continue
        ca, cb, cc = fa.get(name, 0), fb.get(name, 0), fc.get(name, 0)
        if cb == 0 and ca != 0 and cc != 0:
            role = "i"
        elif cc == 0 and ca != 0 and cb != 0:
            role = "k"
        else:
            return None
        if role in by_role:
            return None
        by_role[role] = name
    i, k = by_role.get("i"), by_role.get("k")
    ranges = {idx.name: idx.range for idx in block.idxs}
    if i is not None and abs(fc[i]) < ranges[j]:
        # rows of C overlap (`C[2*i + j]` with 3 columns): a row's register tile would
        # overwrite or lose another row's sums, so the generic loops aggregate them
        return None
    # Where the first point (every index at its start) places each view's element 0.
    local = scope.var_affine(scope.depth)
    starts = {
        idx.name: idx.affine.substitute(scope.var_affine(scope.depth - 1)) for idx in block.idxs
    }
    origin = {local_name: starts[local_name] for local_name in local}

    def at_origin(name: str) -> Affine:
        return scope.views[name].base.substitute(
            {var.terms[0][0]: origin[idx] for idx, var in local.items()}
        )

    w = written[c_name]
    opts = lowering.options
    threads = bool(opts.parallel_tags) and not lowering.in_parallel and opts.threads > 1
    shape = GemmShape(
        dtype=dtype,
        m=ranges[i] if i else 1,
        n=ranges[j],
        k=ranges[k] if k else 1,
        a_row=fa.get(i, 0) if i else 0,
        a_k=fa.get(k, 0) if k else 0,
        b_k=fb.get(k, 0) if k else 0,
        b_j=fb[j],
        c_row=fc.get(i, 0) if i else 0,
        overwrite=w.init,
        parallel=threads and work(block) >= opts.parallel_min_work,
    )
    return GemmCall(
        shape,
        (scope.views[a_name].buffer, at_origin(a_name)),
        (scope.views[b_name].buffer, at_origin(b_name)),
        (scope.views[c_name].buffer, at_origin(c_name)),
        c_name,
    )


# --------------------------------------------------------------------------------------------
# The kernel


@dataclass(frozen=True)
class _Layout:
    lanes: int
    nv: int
    mr: int

    @property
    def nr(self) -> int:
        return self.nv * self.lanes


def _layout(lowering: Lowering, shape: GemmShape) -> _Layout:
    lanes = max(lowering.options.vector_bytes // shape.dtype.byte_size, 1)
    nv = max(1, min(lowering.options.gemm_vectors, math.ceil(shape.n / lanes)))
    mr = max(1, min(lowering.options.gemm_rows, shape.m))
    return _Layout(lanes, nv, mr)


def _pack_b_size(shape: GemmShape, lay: _Layout) -> int:
    """Elements of the packed B panels (0: B is read in place)."""
    panels = math.ceil(shape.n / lay.nr)
    if shape.m > lay.mr or shape.n % lay.nr != 0 or shape.b_j != 1:
        return panels * shape.k * lay.nr
    return 0


class _Kernel:
    """Builds the plan function of one micro-kernel shape."""

    def __init__(self, lowering: Lowering, shape: GemmShape, lay: _Layout) -> None:
        self.lw = lowering
        self.s = shape
        self.lay = lay
        self.t = ScalarType(shape.dtype)
        self.vt = ScalarType(shape.dtype, lay.lanes)
        names = lowering.names
        self.a, self.b, self.c = names.fresh("A"), names.fresh("B"), names.fresh("C")
        self.scratch = names.fresh("scratch")
        self.pack_b = _pack_b_size(shape, lay) > 0
        # A row blocks are packed when several panels reuse them.
        self.pack_a = math.ceil(shape.n / lay.nr) > 1 and shape.k > 1

    def fresh(self, hint: str) -> str:
        return self.lw.names.fresh(hint)

    def build(self, name: str) -> Function:
        s, lay = self.s, self.lay
        body: list[Stmt] = []
        if self.pack_b:
            body += self._pack_b()
        full_rows = s.m // lay.mr * lay.mr
        if full_rows:
            row = self.fresh("i0")
            block = self._row_block(IVar(row), lay.mr)
            # Row blocks write disjoint rows of C: they may run on threads.
            body.append(
                Loop(
                    row,
                    IConst(0),
                    IConst(full_rows),
                    tuple(block),
                    step=lay.mr,
                    parallel=s.parallel,
                )
            )
        if s.m % lay.mr:
            body += self._row_block(IConst(full_rows), s.m % lay.mr)
        params = (
            BufferParam(self.a, s.dtype, False),
            BufferParam(self.b, s.dtype, False),
            BufferParam(self.c, s.dtype, True),
            BufferParam(self.scratch, s.dtype, True),
        )
        what = "C = A B" if s.overwrite else "C += A B"
        comment = (
            f"micro-kernel {what}: {s.m}x{s.n}x{s.k} {s.dtype}, A strides ({s.a_row}, {s.a_k}),"
            f" B strides ({s.b_k}, {s.b_j}), C row stride {s.c_row}; {lay.mr}x{lay.nr} register"
            " block"
        )
        return Function(name, params, hoist_scratch(tuple(body)), comment, contract=True)

    def _pack_b(self) -> list[Stmt]:
        """B's row k of panel p goes to scratch[(p*K + k)*NR ...], zero-padded to NR columns
        (vector copies when B's columns are contiguous, element copies otherwise)."""
        s, lay = self.s, self.lay
        out: list[Stmt] = []
        panels = math.ceil(s.n / lay.nr)
        full = s.n // lay.nr

        def dst(p: IntExpr, k: IntExpr, j: IntExpr) -> IntExpr:
            return iadd(imul(iadd(imul(p, s.k), k), lay.nr), j)

        def src(p: IntExpr, k: IntExpr, j: IntExpr) -> IntExpr:
            return iadd(imul(k, s.b_k), imul(iadd(imul(p, lay.nr), j), s.b_j))

        if full and s.b_j == 1:
            p, k = self.fresh("p"), self.fresh("k")
            body: list[Stmt] = []
            for v in range(lay.nv):
                lane = IConst(v * lay.lanes)
                load = SLoad(self.b, src(IVar(p), IVar(k), lane), self.vt)
                body.append(Store(self.scratch, dst(IVar(p), IVar(k), lane), load))
            inner = Loop(k, IConst(0), IConst(s.k), tuple(body))
            out.append(Loop(p, IConst(0), IConst(full), (inner,)))
        elif full:
            p, j, k = self.fresh("p"), self.fresh("j"), self.fresh("k")
            load = SLoad(self.b, src(IVar(p), IVar(k), IVar(j)), self.t)
            copy = Store(self.scratch, dst(IVar(p), IVar(k), IVar(j)), load)
            inner = Loop(j, IConst(0), IConst(lay.nr), (Loop(k, IConst(0), IConst(s.k), (copy,)),))
            out.append(Loop(p, IConst(0), IConst(full), (inner,)))
        if panels > full:
            width = s.n - full * lay.nr
            last = IConst(full)
            k, j, pad = self.fresh("k"), self.fresh("j"), self.fresh("j")
            load = SLoad(self.b, src(last, IVar(k), IVar(j)), self.t)
            copy = Store(self.scratch, dst(last, IVar(k), IVar(j)), load)
            zero = Store(self.scratch, dst(last, IVar(k), IVar(pad)), SConst(0.0, self.t))
            rows = (
                Loop(j, IConst(0), IConst(width), (copy,), vector=s.b_j == 1),
                Loop(pad, IConst(width), IConst(lay.nr), (zero,), vector=True),
            )
            out.append(Loop(k, IConst(0), IConst(s.k), rows))
        return out

    def _row_block(self, i0: IntExpr, rows: int) -> list[Stmt]:
        s, lay = self.s, self.lay
        out: list[Stmt] = []
        apack = None
        if self.pack_a:
            # A rows i0..i0+rows-1, k-major ([k][r]), in a buffer of their own (one per thread).
            apack = self.fresh("apack")
            k = self.fresh("k")
            body = []
            for r in range(rows):
                src = iadd(imul(iadd(i0, IConst(r)), s.a_row), imul(IVar(k), s.a_k))
                dst = iadd(IConst(r), imul(IVar(k), rows))
                body.append(Store(apack, dst, SLoad(self.a, src, self.t)))
            out.append(Loop(k, IConst(0), IConst(s.k), tuple(body)))
        panels = math.ceil(s.n / lay.nr)
        full = s.n // lay.nr
        if full:
            p = self.fresh("p")
            body2 = self._panel(i0, rows, IVar(p), lay.nr, apack)
            out.append(Loop(p, IConst(0), IConst(full), tuple(body2)))
        if panels > full:
            out += self._panel(i0, rows, IConst(full), s.n - full * lay.nr, apack)
        if apack is None:
            return out
        nbytes = rows * s.k * s.dtype.byte_size
        heap = nbytes > self.lw.options.stack_bytes
        return [Alloc(apack, s.dtype, rows * s.k, tuple(out), heap=heap, scratch=True)]

    def _panel(
        self, i0: IntExpr, rows: int, p: IntExpr, width: int, apack: str | None
    ) -> list[Stmt]:
        """One `rows x NR` block of C at rows i0, panel p, of which `width` columns are C's
        (a partial panel goes through a small tile, as vectors cannot stop early)."""
        s, lay, vt = self.s, self.lay, self.vt
        tile = self.fresh("ctile") if width < lay.nr else None

        def c_element(r: int, j: IntExpr) -> IntExpr:
            return iadd(iadd(imul(iadd(i0, IConst(r)), s.c_row), imul(p, lay.nr)), j)

        def tile_element(r: int, j: IntExpr) -> IntExpr:
            return iadd(IConst(r * lay.nr), j)

        def copy_columns(src: str, dst: str, r: int) -> Loop:
            """Columns 0..width-1 of row r between C and the tile."""
            j = self.fresh("j")
            at_c, at_tile = c_element(r, IVar(j)), tile_element(r, IVar(j))
            load = SLoad(src, at_c if src == self.c else at_tile, self.t)
            store = Store(dst, at_tile if src == self.c else at_c, load)
            return Loop(j, IConst(0), IConst(width), (store,), vector=True)

        body: list[Stmt] = []
        if tile is not None and not s.overwrite:
            body += [copy_columns(self.c, tile, r) for r in range(rows)]
        accs = [[self.fresh(f"c{r}_{v}") for v in range(lay.nv)] for r in range(rows)]
        for r in range(rows):
            for v in range(lay.nv):
                lane = IConst(v * lay.lanes)
                init: SExpr
                if s.overwrite:
                    init = SCast(SConst(0.0, self.t), vt)
                elif tile is not None:
                    init = SLoad(tile, tile_element(r, lane), vt)
                else:
                    init = SLoad(self.c, c_element(r, lane), vt)
                body.append(DeclVar(accs[r][v], vt, init))
        body.append(self._k_loop(i0, rows, p, apack, accs))
        for r in range(rows):
            for v in range(lay.nv):
                lane = IConst(v * lay.lanes)
                value = SVar(accs[r][v], vt)
                if tile is not None:
                    body.append(Store(tile, tile_element(r, lane), value))
                else:
                    body.append(Store(self.c, c_element(r, lane), value))
        if tile is None:
            return body
        body += [copy_columns(tile, self.c, r) for r in range(rows)]
        return [Alloc(tile, s.dtype, rows * lay.nr, tuple(body))]

    def _k_loop(
        self, i0: IntExpr, rows: int, p: IntExpr, apack: str | None, accs: list[list[str]]
    ) -> Loop:
        """The register-blocked reduction: per k, NV vectors of B, one broadcast A element per
        row, and `rows x NV` fused multiply-adds into the accumulators."""
        s, lay, vt = self.s, self.lay, self.vt
        k = self.fresh("k")
        body: list[Stmt] = []
        bvals = []
        for v in range(lay.nv):
            name = self.fresh(f"b{v}")
            lane = IConst(v * lay.lanes)
            if self.pack_b:
                load = SLoad(
                    self.scratch, iadd(imul(iadd(imul(p, s.k), IVar(k)), lay.nr), lane), vt
                )
            else:
                load = SLoad(self.b, iadd(iadd(imul(IVar(k), s.b_k), imul(p, lay.nr)), lane), vt)
            body.append(LetScalar(name, load))
            bvals.append(SVar(name, vt))
        for r in range(rows):
            name = self.fresh(f"a{r}")
            if apack is not None:
                element = SLoad(apack, iadd(IConst(r), imul(IVar(k), rows)), self.t)
            else:
                offset = iadd(imul(iadd(i0, IConst(r)), s.a_row), imul(IVar(k), s.a_k))
                element = SLoad(self.a, offset, self.t)
            body.append(LetScalar(name, SCast(element, vt)))
            for v in range(lay.nv):
                acc = SVar(accs[r][v], vt)
                body.append(AssignVar(accs[r][v], SFma(SVar(name, vt), bvals[v], acc, vt)))
        return Loop(k, IConst(0), IConst(s.k), tuple(body))


def lower_gemm(lowering: Lowering, call: GemmCall) -> list[Stmt]:
    """A call of the micro-kernel for `call` (built once per shape), with its scratch."""
    shape = call.shape
    lay = _layout(lowering, shape)
    fname = lowering.gemm_kernels.get((shape, lay))
    if fname is None:
        kernel = _Kernel(lowering, shape, lay)
        fname = lowering.names.fresh("gemm")
        lowering.functions.append(kernel.build(fname))
        lowering.gemm_kernels[(shape, lay)] = fname
    bsize = _pack_b_size(shape, lay)
    scratch = lowering.names.fresh("gemm_scratch")
    lowering.buffer_types[scratch] = shape.dtype
    args = (
        BufferArg(call.a[0], affine_expr(call.a[1]), writes=False),
        BufferArg(call.b[0], affine_expr(call.b[1]), writes=False),
        BufferArg(call.c[0], affine_expr(call.c[1])),
        BufferArg(scratch),
    )
    size = max(bsize, 1)
    nbytes = size * shape.dtype.byte_size
    return [
        Alloc(
            scratch,
            shape.dtype,
            size,
            (Call(fname, args),),
            heap=nbytes > lowering.options.stack_bytes,
            scratch=True,
        )
    ]
