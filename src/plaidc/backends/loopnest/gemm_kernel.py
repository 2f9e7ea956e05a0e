"""The register-blocked GEMM micro-kernel: a plan function per kernel shape (see `gemm`).

Per call the kernel computes `C[i*c_row + j] (+)= sum_k A[i*a_row + k*a_k] * B[k*b_k + j*b_j]`
for `i < m`, `j < n`, `k < k`. It keeps an `MR x NR` block of C (`NR = gemm_vectors * lanes`
columns, a panel of B) in vector registers across the whole k loop and updates it with fused
multiply-adds, reading B's panels and A's row blocks packed or in place (`gemm_pack`: what is
packed, and the pack loops). Where a call's one partial panel of B may be read in place if its
padded vectors stay within B's buffer, whose end the caller passes (`b_bound`), the kernel
holds both variants. A large kernel runs BLIS-style in chunks of rows or panels and blocks of
the reduction (`gemm_shape.Blocking`); C's final values go through the epilogue
(`gemm_epilogue`). `Kernel` builds those loops, the register block's k loop and C's loads and
stores.

The sizes are compile-time constants, except in a ragged kernel (the edge tiles of a tiling
whose tile does not divide the extent): there any of `m`, `n`, `k` may be a run-time extent
(an integer parameter, at most the shape's constant, which sizes the scratch buffers). The
k loop then simply stops early; rows past the last full register block are padded with zero
rows in the packed A block and columns past the last full panel are zero in the packed B
panel, both computed into a small C tile of which only the valid part is copied to C, so no
element outside the extents is read or written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from plaidc.backends.loopnest.gemm_epilogue import Epilogue, applied, describe
from plaidc.backends.loopnest.gemm_ints import (
    is_const,
    negate,
    pdiv,
    sub,
    when_positive,
)
from plaidc.backends.loopnest.gemm_pack import (
    Packer,
    Window,
    k_nest,
    packing,
    row_offset,
    row_offset_by,
)
from plaidc.backends.loopnest.gemm_shape import (
    Blocking,
    GemmShape,
    Layout,
    block_size,
    blocking,
    column,
    needs_b_bound,
    overlaps,
)
from plaidc.backends.loopnest.optimise import hoist_scratch
from plaidc.backends.loopnest.plan import (
    STATUS,
    Alloc,
    AssignVar,
    BufferParam,
    DeclVar,
    Function,
    IBin,
    ICmp,
    IConst,
    If,
    ILogic,
    IntExpr,
    IntParam,
    IVar,
    LetInt,
    LetScalar,
    Loop,
    SBinary,
    ScalarType,
    SCast,
    SConst,
    SExpr,
    SFma,
    SLoad,
    Stmt,
    Store,
    SVar,
    free_names,
    iadd,
    imul,
)
from plaidc.stripe.ir import DType

if TYPE_CHECKING:
    from plaidc.backends.loopnest.lower import Lowering


class Kernel:
    """Builds the plan function of one micro-kernel shape."""

    def __init__(
        self, lowering: Lowering, shape: GemmShape, lay: Layout, epilogue: Epilogue | None = None
    ) -> None:
        self.lw = lowering
        self.s = shape
        self.lay = lay
        # applied to each element between its reduction and its store (`gemm_epilogue`)
        self.epilogue = epilogue
        inputs = epilogue.inputs if epilogue is not None else ()
        self.epilogue_params = [lowering.names.fresh("E") for _ in inputs]
        self.t = ScalarType(shape.dtype)
        self.vt = ScalarType(shape.dtype, lay.lanes)
        names = lowering.names
        self.a, self.b, self.c = names.fresh("A"), names.fresh("B"), names.fresh("C")
        self.scratch = names.fresh("scratch")
        self.ext: dict[str, IntExpr] = {}
        for dim, size in (("m", shape.m), ("n", shape.n), ("k", shape.k)):
            runtime = dim in shape.runtime
            self.ext[dim] = IVar(names.fresh(f"{dim}_ext")) if runtime else IConst(size)
        # what is packed (`gemm_pack`); `pack_b` is cleared while `build` makes the variant
        # that reads a call's partial panel of B in place
        self.packing = packing(shape, lay, lowering.options.gemm_a_in_place)
        self.pack_b = self.packing.pack_b
        self.packer = Packer(
            names, shape, lay, self.packing, (self.a, self.b, self.scratch), self.ext["n"]
        )
        # the last vector of columns overlaps the one before it (`overlaps`)
        self.overlap = overlaps(shape, lay)
        self.columns = [column(shape, lay, v) for v in range(lay.nv)]
        self.b_avail = IVar(names.fresh("b_avail")) if shape.b_bound else None
        self.blocking = blocking(lowering, shape, lay)
        # The part of the work being built: all of it, unless `_blocked` builds a chunk's k
        # block. The accumulators start at zero: always (True, a kernel overwriting C) or
        # where an IntExpr holds (in the first k block only).
        self.window = Window(self.ext["k"], shape.k)
        self.fresh_c: bool | IntExpr = shape.overwrite
        # A split reduction's calls (`GemmShape.split`) take run-time flags, nonzero in the
        # first call (the accumulators start at zero) and in the last (the epilogue applies).
        self.first = IVar(names.fresh("first")) if shape.split else None
        self.last = IVar(names.fresh("last")) if shape.split else None
        if self.first is not None:
            self.fresh_c = ICmp("!=", self.first, IConst(0))

    def fresh(self, hint: str) -> str:
        return self.lw.names.fresh(hint)

    def build(self, name: str) -> Function:
        s, lay = self.s, self.lay
        if self.b_avail is not None and needs_b_bound(s, lay):
            # the last row of B a call reads, padded to the panel, within B's buffer?
            last = self._last_b_row()
            fits = ICmp("<=", iadd(last, IConst(lay.nr)), self.b_avail)
            self.pack_b = False
            in_place = self._body()
            self.pack_b = True
            body: list[Stmt] = [If(fits, tuple(in_place), tuple(self._body()))]
        else:
            body = self._body()
        params: list[BufferParam | IntParam] = [
            BufferParam(self.a, s.dtype, False),
            BufferParam(self.b, s.dtype, False),
            BufferParam(self.c, s.dtype, True),
            BufferParam(self.scratch, s.dtype, True),
        ]
        if self.epilogue is not None:
            for param, used in zip(self.epilogue_params, self.epilogue.inputs, strict=True):
                params.append(BufferParam(param, self.lw.buffer_types[used.buffer], False))
        body = list(hoist_scratch(tuple(body)))
        if STATUS in free_names(tuple(body)).buffers:
            # a pack on the heap reports a failed allocation through the caller's status word
            params.append(BufferParam(STATUS, DType.I32, True))
        params += [IntParam(e.name) for e in self.ext.values() if isinstance(e, IVar)]
        if self.first is not None and self.last is not None:
            params += [IntParam(self.first.name), IntParam(self.last.name)]
        if self.b_avail is not None:
            params.append(IntParam(self.b_avail.name))
        what = "C = A B" if s.overwrite else "C += A B"
        if s.split:
            what = "C += A B (C = A B in a split reduction's first call)"
        sizes = "x".join(
            f"{dim}<={size}" if dim in s.runtime else str(size)
            for dim, size in (("m", s.m), ("n", s.n), ("k", s.k))
        )
        rows = f"rows {list(s.row_dims)}" if s.row_dims else f"C row stride {s.c_row}"
        if s.k_dims:
            strides = f"reduction {list(s.k_dims)}, B column stride {s.b_j}"
        else:
            strides = f"A strides ({s.a_row}, {s.a_k}), B strides ({s.b_k}, {s.b_j})"
        comment = (
            f"micro-kernel {what}: {sizes} {s.dtype}, {strides}, {rows}; {lay.mr}x{lay.nr}"
            " register block"
        )
        if self.epilogue is not None:
            comment += f"; stores {describe(self.epilogue)} ({self.epilogue.title})"
        if self.packing.full_panels_in_place:
            comment += "; B's full panels read in place"
        if self.blocking is not None:
            b = self.blocking
            unit = "row blocks" if b.split == "rows" else "panels"
            comment += f"; B packed in blocks of {b.kc} rows; {b.chunks} chunks of {b.per} {unit}"
        return Function(name, tuple(params), tuple(body), comment, contract=True)

    def _last_b_row(self) -> IntExpr:
        """Where the last row of B a call reads starts (B's reduction steps are >= 0)."""
        s = self.s
        if s.k_dims:
            return IConst(sum((size - 1) * b for size, _, b in s.k_dims))
        return imul(sub(self.ext["k"], IConst(1)), s.b_k)

    def _body(self) -> list[Stmt]:
        """B's packing (when `pack_b`) and every row block."""
        s, lay = self.s, self.lay
        m = self.ext["m"]
        if self.blocking is not None:
            return self._blocked(self.blocking)
        body: list[Stmt] = []
        if self.pack_b:
            body += self.packer.pack_b(self.window)
        if "m" in s.runtime or "n" in s.runtime:
            body.append(self._ragged_rows())
        else:
            full_rows = imul(pdiv(m, lay.mr), lay.mr)
            if not is_const(full_rows, 0):
                row = self.fresh("i0")
                block = self._row_block(IVar(row), lay.mr)
                # Row blocks write disjoint rows of C: they may run on threads.
                loop = Loop(
                    row, IConst(0), full_rows, tuple(block), step=lay.mr, parallel=s.parallel
                )
                body.append(loop)
            if s.m % lay.mr:
                body += self._row_block(full_rows, s.m % lay.mr)
        return body

    def _blocked(self, b: Blocking) -> list[Stmt]:
        """The kernel as chunks of rows or panels (a parallel loop when it runs on threads),
        each packing its panels of B's k blocks into its own part of the scratch and running
        its row blocks on them."""
        s, lay = self.s, self.lay
        chunk, block = IVar(self.fresh("chunk")), IVar(self.fresh("kblock"))
        k0 = IVar(self.fresh("k0"))
        k = self.ext["k"]
        ragged_k = isinstance(k, IVar) or s.k % b.kc != 0
        kb = IVar(self.fresh("kc")) if ragged_k else IConst(b.kc)
        # the k block from `k0`, packed into the chunk's own part of the scratch
        self.window = Window(kb, b.kc, k0, imul(chunk, block_size(s, lay, b)))
        if b.kc < s.k and (s.overwrite or s.split):
            first_block = ICmp("==", k0, IConst(0))
            first_call = self.fresh_c
            if isinstance(first_call, bool):  # an overwriting kernel: every call is the first
                self.fresh_c = first_block
            else:
                self.fresh_c = ILogic("and", first_call, first_block)
        steps: list[Stmt] = [LetInt(k0.name, imul(block, b.kc))]
        if isinstance(kb, IVar):
            steps.append(LetInt(kb.name, IBin("min", IConst(b.kc), sub(k, k0))))
        rows: list[Stmt] = []
        if "m" in s.runtime or "n" in s.runtime:
            rows.append(self._ragged_rows())
        else:
            first: IntExpr = IConst(0)
            last = s.m // lay.mr * lay.mr
            if b.split == "rows":
                first = imul(chunk, b.per * lay.mr)
            else:
                full = s.n // lay.nr
                p_lo = imul(chunk, b.per)
                p_hi = IBin("min", iadd(p_lo, IConst(b.per)), IConst(full))
                tail_panel = ICmp("==", chunk, IConst(full // b.per))
                self.window = replace(self.window, p_lo=p_lo, p_hi=p_hi, tail_panel=tail_panel)
            if last > 0:
                row = self.fresh("i0")
                end: IntExpr = IConst(last)
                if b.split == "rows":
                    end = IBin("min", iadd(first, IConst(b.per * lay.mr)), end)
                block_rows = self._row_block(IVar(row), lay.mr)
                rows.append(Loop(row, first, end, tuple(block_rows), step=lay.mr))
            if s.m % lay.mr:
                tail = self._row_block(IConst(last), s.m % lay.mr)
                if b.split == "rows" and b.chunks > 1:
                    tail = [If(ICmp("==", chunk, IConst(last // (b.per * lay.mr))), tuple(tail))]
                rows += tail
        steps += self.packer.pack_b(self.window) + rows
        count = pdiv(iadd(k, IConst(b.kc - 1)), b.kc)
        if s.split and isinstance(k, IVar):
            # a split reduction's call stores C with an empty reduction too (`gemm.lower_gemm`)
            count = IBin("max", count, IConst(1))
        k_blocks = Loop(block.name, IConst(0), count, tuple(steps))
        parallel = s.parallel and b.chunks > 1
        return [Loop(chunk.name, IConst(0), IConst(b.chunks), (k_blocks,), parallel=parallel)]

    def _row_block(self, i0: IntExpr, rows: int) -> list[Stmt]:
        """Rows i0..i0+rows-1 of C (a kernel of constant `m` and `n`)."""
        s, lay = self.s, self.lay
        out: list[Stmt] = []
        apack = None
        starts: list[IntExpr] | None = None
        w = self.window
        if self.packing.pack_a:
            apack = self.fresh("apack")
            out += self.packer.pack_a(w, apack, i0, rows, None)
        elif self.packing.a_rows_in_place:
            # where each row's window starts in A, once per row block
            starts = []
            for r in range(rows):
                start = IVar(self.fresh(f"arow{r}"))
                out.append(LetInt(start.name, row_offset(s, iadd(i0, IConst(r)), 1)))
                starts.append(start)
        full = pdiv(self.ext["n"], lay.nr)
        if not is_const(full, 0):
            p = self.fresh("p")
            body2 = self._panel(i0, rows, IVar(p), IConst(lay.nr), apack, None, starts)
            out.append(Loop(p, *w.panel_range(full), tuple(body2)))
        width = sub(self.ext["n"], imul(full, lay.nr))
        if not is_const(width, 0):
            partial = self._panel(i0, rows, full, width, apack, None, starts)
            out += w.in_tail_panel(when_positive(width, partial))
        if apack is None:
            return out
        nbytes = rows * w.kstride * s.dtype.byte_size
        heap = nbytes > self.lw.options.stack_bytes
        return [Alloc(apack, s.dtype, rows * w.kstride, tuple(out), heap=heap, scratch=True)]

    def _ragged_rows(self) -> Loop:
        """Every row block of a kernel with run-time `m` or `n`: a block of MR rows on full
        panels runs on registers straight from and to C, any other (the last rows, the last
        panel) through the zero-padded A block and a C tile. Two copies of the register block
        in all, where separate loops for full and partial blocks would take four."""
        s, lay = self.s, self.lay
        m, n = self.ext["m"], self.ext["n"]
        i0 = IVar(self.fresh("i0"))
        rows = IVar(self.fresh("rows"))
        apack = self.fresh("apack")
        full_rows = ICmp("==", rows, IConst(lay.mr))
        w = self.window
        packs = If(
            full_rows,
            tuple(self.packer.pack_a(w, apack, i0, lay.mr, None)),
            tuple(self.packer.pack_a(w, apack, i0, lay.mr, rows)),
        )
        p, width = IVar(self.fresh("p")), IVar(self.fresh("width"))
        whole = ILogic("and", full_rows, ICmp("==", width, IConst(lay.nr)))
        direct = self._panel(i0, lay.mr, p, IConst(lay.nr), apack, None)
        tiled = self._panel(i0, lay.mr, p, width, apack, rows)
        panel = (
            LetInt(width.name, IBin("min", IConst(lay.nr), sub(n, imul(p, lay.nr)))),
            If(whole, tuple(direct), tuple(tiled)),
        )
        panels = pdiv(iadd(n, IConst(lay.nr - 1)), lay.nr)
        heap = lay.mr * w.kstride * s.dtype.byte_size > self.lw.options.stack_bytes
        block = (
            LetInt(rows.name, IBin("min", IConst(lay.mr), sub(m, i0))),
            Alloc(
                apack,
                s.dtype,
                lay.mr * w.kstride,
                (packs, Loop(p.name, IConst(0), panels, panel)),
                heap=heap,
                scratch=True,
            ),
        )
        # Row blocks write disjoint rows of C: they may run on threads.
        return Loop(i0.name, IConst(0), m, block, step=lay.mr, parallel=s.parallel)

    def _panel(
        self,
        i0: IntExpr,
        rows: int,
        p: IntExpr,
        width: IntExpr,
        apack: str | None,
        valid: IntExpr | None,
        a_starts: list[IntExpr] | None = None,
    ) -> list[Stmt]:
        """One `rows x NR` block of C at rows i0, panel p, of which `width` columns (and
        `valid` rows, None: all) are C's; a partial block goes through a small tile, as
        vectors cannot stop early. A's rows come from `apack`, else from `a_starts` (where
        each row starts in A), else from A's even steps."""
        s, lay, vt = self.s, self.lay, self.vt
        direct = is_const(width, lay.nr) or (self.overlap and is_const(width, s.n))
        tile = self.fresh("ctile") if valid is not None or not direct else None

        def c_element(r: IntExpr, j: IntExpr) -> IntExpr:
            return iadd(iadd(row_offset(s, iadd(i0, r), 2), imul(p, lay.nr)), j)

        def tile_element(r: IntExpr, j: IntExpr) -> IntExpr:
            return iadd(imul(r, lay.nr), j)

        def copy_columns(src: str, dst: str, r: IntExpr, final: bool) -> Loop:
            """Columns 0..width-1 of row r between C and the tile (C's `final` values: the
            epilogue applied)."""
            j = self.fresh("j")
            at_c, at_tile = c_element(r, IVar(j)), tile_element(r, IVar(j))
            load: SExpr = SLoad(src, at_c if src == self.c else at_tile, self.t)
            if dst == self.c and final:
                at = iadd(imul(p, lay.nr), IVar(j))
                load = self._epilogue(load, at, at_c, iadd(i0, r), self.t)
            store = Store(dst, at_tile if src == self.c else at_c, load)
            return Loop(j, IConst(0), width, (store,), vector=True)

        def copy_rows(src: str, dst: str, final: bool = False) -> list[Stmt]:
            if valid is None:
                return [copy_columns(src, dst, IConst(r), final) for r in range(rows)]
            row = self.fresh("r")
            return [Loop(row, IConst(0), valid, (copy_columns(src, dst, IVar(row), final),))]

        # C's current values (unless this call overwrites C: `fresh_c`; decided at run time
        # for a k block after the first and a split reduction's later calls): the
        # accumulators start at zero and C is added after the k loop, straight from C on a
        # full block, from the C tile on a partial one. Both paths must sum in the same order,
        # so that equal sums round alike (`tests/test_gemm_same_order.py`: a C tile that
        # started from C while the registers added C last rounded the light ResNet-50's equal
        # logits apart), and a long reduction rounds in blocks, as BLAS kernels do.
        reads_c: list[Stmt] = []
        if tile is not None and self.fresh_c is not True:
            if valid is not None:
                # rows past `valid` start at zero rather than undefined
                e = self.fresh("e")
                zero = Store(tile, IVar(e), SConst(0.0, self.t))
                reads_c.append(Loop(e, IConst(0), IConst(rows * lay.nr), (zero,), vector=True))
            reads_c += copy_rows(self.c, tile)
        accs = [[self.fresh(f"c{r}_{v}") for v in range(lay.nv)] for r in range(rows)]
        start = SCast(SConst(0.0, self.t), vt)
        body: list[Stmt] = [
            DeclVar(accs[r][v], vt, start) for r in range(rows) for v in range(lay.nv)
        ]
        # B from its packed panels, except a GEMV's full panels (`Packing.full_panels_in_place`)
        b_packed = self.pack_b and not (
            self.packing.full_panels_in_place and is_const(width, lay.nr)
        )
        body += self._k_loop(i0, rows, p, apack, accs, a_starts, b_packed)
        for r in range(rows):
            for v in range(lay.nv):
                if tile is None:
                    at = c_element(IConst(r), IConst(self.columns[v]))
                    load = SLoad(self.c, at, vt)
                else:
                    load = SLoad(tile, tile_element(IConst(r), IConst(v * lay.lanes)), vt)
                reads_c.append(
                    AssignVar(accs[r][v], SBinary("add", SVar(accs[r][v], vt), load, vt))
                )
        if not isinstance(self.fresh_c, bool):
            body.append(If(negate(self.fresh_c), tuple(reads_c)))
        elif not self.fresh_c:
            body += reads_c
        if tile is None:

            def stores(final: bool) -> list[Stmt]:
                out: list[Stmt] = []
                for r in range(rows):
                    for v in range(lay.nv):
                        column = IConst(self.columns[v])
                        value: SExpr = SVar(accs[r][v], vt)
                        if final:
                            at = iadd(imul(p, lay.nr), column)
                            element = c_element(IConst(r), column)
                            value = self._epilogue(value, at, element, iadd(i0, IConst(r)), vt)
                        out.append(Store(self.c, c_element(IConst(r), column), value))
                return out

            return body + self._finishing(stores)
        for r in range(rows):
            for v in range(lay.nv):
                lane = IConst(v * lay.lanes)
                body.append(Store(tile, tile_element(IConst(r), lane), SVar(accs[r][v], vt)))
        body += self._finishing(lambda final: copy_rows(tile, self.c, final))
        return [Alloc(tile, s.dtype, rows * lay.nr, tuple(body))]

    def _finishing(self, stores: Callable[[bool], list[Stmt]]) -> list[Stmt]:
        """C's stores, `stores(final)`: final (the epilogue applied) in every call, except
        where only the last call of a split reduction finishes C (`GemmShape.split`)."""
        if self.epilogue is None or self.last is None:
            return stores(True)
        last = ICmp("!=", self.last, IConst(0))
        return [If(last, tuple(stores(True)), tuple(stores(False)))]

    def _epilogue(
        self, value: SExpr, column: IntExpr, element: IntExpr, row: IntExpr, t: ScalarType
    ) -> SExpr:
        """What is stored for `value`, C's final value at `column` (one element or a vector of
        consecutive columns) of row `row`, at offset `element` of C: the epilogue applied to
        it, if any."""
        if self.epilogue is None:
            return value
        params, rows = self.epilogue_params, partial(row_offset_by, self.s, row)
        return applied(self.epilogue, value, column, element, params, t, rows)

    def _k_loop(
        self,
        i0: IntExpr,
        rows: int,
        p: IntExpr,
        apack: str | None,
        accs: list[list[str]],
        a_starts: list[IntExpr] | None,
        b_packed: bool,
    ) -> list[Stmt]:
        """The register-blocked reduction: per k, NV vectors of B (from its packed panels
        where `b_packed`, else from B), one broadcast A element per row, and `rows x NV` fused
        multiply-adds into the accumulators. One flat loop, except over an operand read in
        place across a multi-index reduction (a loop per index)."""
        s, lay, vt = self.s, self.lay, self.vt
        w = self.window

        def step(k: IntExpr, a_off: IntExpr, b_off: IntExpr) -> list[Stmt]:
            body: list[Stmt] = []
            bvals = []
            for v in range(lay.nv):
                name = self.fresh(f"b{v}")
                lane = IConst(self.columns[v])
                if b_packed:
                    load = SLoad(self.scratch, self.packer.packed_b(w, p, k, lane), vt)
                else:
                    load = SLoad(self.b, iadd(iadd(b_off, imul(p, lay.nr)), lane), vt)
                body.append(LetScalar(name, load))
                bvals.append(SVar(name, vt))
            for r in range(rows):
                name = self.fresh(f"a{r}")
                if apack is not None:
                    element = SLoad(apack, iadd(IConst(r), imul(k, rows)), self.t)
                elif a_starts is not None:
                    element = SLoad(self.a, iadd(a_starts[r], a_off), self.t)
                else:
                    a_step = self.packing.a_step
                    assert a_step is not None  # else A is packed
                    offset = iadd(imul(iadd(i0, IConst(r)), s.a_row), imul(k, a_step))
                    element = SLoad(self.a, offset, self.t)
                body.append(LetScalar(name, SCast(element, vt)))
                for v in range(lay.nv):
                    acc = SVar(accs[r][v], vt)
                    body.append(AssignVar(accs[r][v], SFma(SVar(name, vt), bvals[v], acc, vt)))
            return body

        if s.k_dims and (not self.pack_b or a_starts is not None):
            return k_nest(self.lw.names, s, w, step)
        k = IVar(self.fresh("k"))
        # operands read in place: the k block's start counts
        a_off, b_off = imul(iadd(k, w.k0), s.a_k), imul(iadd(k, w.k0), s.b_k)
        return [Loop(k.name, IConst(0), w.kb, tuple(step(k, a_off, b_off)))]
