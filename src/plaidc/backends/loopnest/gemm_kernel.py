"""The register-blocked GEMM micro-kernel: a plan function per kernel shape (see `gemm`).

Per call the kernel computes `C[i*c_row + j] (+)= sum_k A[i*a_row + k*a_k] * B[k*b_k + j*b_j]`
for `i < m`, `j < n`, `k < k`. It packs B into zero-padded panels of `NR = gemm_vectors *
lanes` columns (when the panels are reused by several row blocks, a panel is partial or B's
columns are strided) and A into `MR x K` row blocks (when several panels reuse them, or the
rows are padded), keeps an `MR x NR` block of C in vector registers across the whole k loop
and updates it with fused multiply-adds. A is read in place when one panel uses it and it
steps evenly over the reduction (a grouped conv's weights), and when it is an image whose
window runs are contiguous (an NHWC convolution's rows: one start per row and row block, the k
loops broadcasting from the image, no im2col); B is read in place when its one
partial panel's padded vectors stay within B's buffer, which the caller passes (`b_bound`).
An operand whose reduction is contiguous (a transposed product's B, a row-major A) packs as
vector transposes (`gemm_transpose`); a row-major B packs row by row across its panels.

The sizes are compile-time constants, except in a ragged kernel (the edge tiles of a tiling
whose tile does not divide the extent): there any of `m`, `n`, `k` may be a run-time extent
(an integer parameter, at most the shape's constant, which sizes the scratch buffers). The
k loop then simply stops early; rows past the last full register block are padded with zero
rows in the packed A block and columns past the last full panel are zero in the packed B
panel, both computed into a small C tile of which only the valid part is copied to C, so no
element outside the extents is read or written.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from plaidc.backends.loopnest.gemm_epilogue import Epilogue, applied, describe
from plaidc.backends.loopnest.gemm_ints import (
    at_least,
    even_step,
    is_const,
    negate,
    pdiv,
    rem,
    sub,
    when_positive,
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
    pack_b_size,
    reads_b_in_place,
)
from plaidc.backends.loopnest.gemm_transpose import transposable, transposed
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
        # a full panel is read in place; a partial one when the call's vectors fit (`build`)
        full_in_place = reads_b_in_place(shape, lay) and not needs_b_bound(shape, lay)
        self.pack_b = pack_b_size(shape, lay) > 0 and not full_in_place
        # One row block (a GEMV: the classifier's 1 x 2048 x 1000) uses each element of B
        # once: its full panels are read in place (contiguous columns), and only a partial
        # last panel is packed (zero-padded), where packing all of B tripled its traffic.
        self.full_panels_in_place = (
            self.pack_b
            and shape.m <= lay.mr
            and shape.n >= lay.nr
            and shape.b_j == 1
            and not shape.k_dims
            and not shape.runtime
        )
        # set while a full panel's register block is built when it reads B in place
        self.b_direct = False
        # the last vector of columns overlaps the one before it (`overlaps`)
        self.overlap = overlaps(shape, lay)
        self.columns = [column(shape, lay, v) for v in range(lay.nv)]
        self.b_avail = IVar(names.fresh("b_avail")) if shape.b_bound else None
        # A row blocks are packed when several panels reuse them, and always when rows span
        # several indices or A does not step evenly over a reduction of several indices (the
        # k loop then reads packed operands only). A grouped convolution's weights (one
        # panel, the window contiguous in A) are read in place: packing them again for every
        # output row cost as much as the row's multiply-adds.
        self.a_step = even_step([(size, a) for size, a, _ in shape.k_dims], shape.a_k)
        # An implicit GEMM's image rows (a convolution: rows or reduction of several indices)
        # whose window runs are contiguous (`(j, ci)` of an NHWC image) are read in place:
        # per k, each row's broadcast comes straight from the image (one pointer per row,
        # the window's runs streaming through L1), as oneDNN's and MLAS's direct
        # convolutions do. Packing them cost an element copy per row and k, reused by few
        # panels (2 for 64 output channels). So are a 1x1 convolution's rows of several
        # indices (its channels the one contiguous reduction index), whose packing was a
        # scalar copy per row and k.
        self.a_rows_in_place = (
            bool(shape.row_dims or shape.k_dims)
            and (shape.k_dims[-1][1] == 1 if shape.k_dims else shape.a_k == 1)
            and not {"m", "n"} & set(shape.runtime)
        )
        uneven = (bool(shape.row_dims) or self.a_step is None) and not self.a_rows_in_place
        reused = math.ceil(shape.n / lay.nr) > 1 and shape.k > 1 and not self.a_rows_in_place
        self.pack_a = uneven or reused
        self.blocking = blocking(lowering, shape, lay)
        # Where B is packed, how far apart its packed rows' panels are, the reduction's start
        # and length in the current k block, and when the accumulators start at zero (True:
        # always, as a kernel overwriting C; an IntExpr: in the first k block only).
        self.b_base: IntExpr = IConst(0)
        self.kstride = shape.k
        self.k0: IntExpr = IConst(0)
        self.kb: IntExpr = self.ext["k"]
        self.fresh_c: bool | IntExpr = shape.overwrite
        # A split reduction's calls (`GemmShape.split`) take run-time flags, nonzero in the
        # first call (the accumulators start at zero) and in the last (the epilogue applies).
        self.first = IVar(names.fresh("first")) if shape.split else None
        self.last = IVar(names.fresh("last")) if shape.split else None
        if self.first is not None:
            self.fresh_c = ICmp("!=", self.first, IConst(0))
        # The panels of B this chunk computes: from `p_lo` to `p_hi` (None: every full panel),
        # the partial last panel where `tail_panel` holds (None: always).
        self.p_lo: IntExpr = IConst(0)
        self.p_hi: IntExpr | None = None
        self.tail_panel: IntExpr | None = None

    def fresh(self, hint: str) -> str:
        return self.lw.names.fresh(hint)

    def _row_offset(self, row: IntExpr, operand: int) -> IntExpr:
        """Where row `row` starts in A (`operand` 1) or C (2), relative to row 0."""
        s = self.s
        if not s.row_dims:
            return imul(row, s.a_row if operand == 1 else s.c_row)
        return self._row_offset_by(row, tuple(dim[operand] for dim in s.row_dims))

    def _row_offset_by(self, row: IntExpr, strides: tuple[int, ...]) -> IntExpr:
        """Where row `row` is, relative to row 0, in a buffer that moves `strides[d]` per
        step of row dimension `d` (one stride for flat rows)."""
        s = self.s
        if not s.row_dims:
            return imul(row, strides[0])
        out: IntExpr = IConst(0)
        rest = row
        dims = [(dim[0], stride) for dim, stride in zip(s.row_dims, strides, strict=True)]
        for pos, (size, stride) in enumerate(reversed(dims)):  # innermost first
            outermost = pos == len(dims) - 1
            here = rest if outermost else rem(rest, size)
            out = iadd(out, imul(here, stride))
            rest = pdiv(rest, size)
        return out

    def _k_nest(
        self, body: Callable[[IntExpr, IntExpr, IntExpr], list[Stmt]], k: str | None = None
    ) -> list[Stmt]:
        """Loops over the reduction around `body(flat k, A offset, B offset)` (one loop named
        `k`, else one per index of `k_dims`, outermost first)."""
        s = self.s
        if not s.k_dims:
            var = IVar(k if k is not None else self.fresh("k"))
            at = iadd(var, self.k0)
            inner = body(var, imul(at, s.a_k), imul(at, s.b_k))
            return [Loop(var.name, IConst(0), self.kb, tuple(inner))]
        names = [self.fresh("k") for _ in s.k_dims]
        flat: IntExpr = IConst(0)
        a_off: IntExpr = IConst(0)
        b_off: IntExpr = IConst(0)
        for name, (size, a, b) in zip(names, s.k_dims, strict=True):
            flat = iadd(imul(flat, size), IVar(name))
            a_off, b_off = iadd(a_off, imul(IVar(name), a)), iadd(b_off, imul(IVar(name), b))
        stmts = body(flat, a_off, b_off)
        for name, (size, _, _) in reversed(list(zip(names, s.k_dims, strict=True))):
            stmts = [Loop(name, IConst(0), IConst(size), tuple(stmts))]
        return stmts

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
        if self.full_panels_in_place:
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
            body += self._pack_b()
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
        self.b_base = imul(chunk, block_size(s, lay, b))
        self.kstride = b.kc
        self.k0 = IVar(self.fresh("k0"))
        k = self.ext["k"]
        ragged_k = isinstance(k, IVar) or s.k % b.kc != 0
        self.kb = IVar(self.fresh("kc")) if ragged_k else IConst(b.kc)
        if b.kc < s.k and (s.overwrite or s.split):
            first_block = ICmp("==", self.k0, IConst(0))
            first_call = self.fresh_c
            if isinstance(first_call, bool):  # an overwriting kernel: every call is the first
                self.fresh_c = first_block
            else:
                self.fresh_c = ILogic("and", first_call, first_block)
        steps: list[Stmt] = [LetInt(self.k0.name, imul(block, b.kc))]
        if isinstance(self.kb, IVar):
            steps.append(LetInt(self.kb.name, IBin("min", IConst(b.kc), sub(k, self.k0))))
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
                self.p_lo = imul(chunk, b.per)
                self.p_hi = IBin("min", iadd(self.p_lo, IConst(b.per)), IConst(full))
                self.tail_panel = ICmp("==", chunk, IConst(full // b.per))
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
        steps += self._pack_b() + rows
        count = pdiv(iadd(k, IConst(b.kc - 1)), b.kc)
        if s.split and isinstance(k, IVar):
            # a split reduction's call stores C with an empty reduction too (`gemm.lower_gemm`)
            count = IBin("max", count, IConst(1))
        k_blocks = Loop(block.name, IConst(0), count, tuple(steps))
        parallel = s.parallel and b.chunks > 1
        return [Loop(chunk.name, IConst(0), IConst(b.chunks), (k_blocks,), parallel=parallel)]

    def _panel_range(self, full: IntExpr) -> tuple[IntExpr, IntExpr]:
        """The full panels this chunk computes: `[p_lo, p_hi)`, all `[0, full)` unsplit."""
        return self.p_lo, full if self.p_hi is None else self.p_hi

    def _tail_panel(self, stmts: list[Stmt]) -> list[Stmt]:
        """`stmts` (the partial last panel's) where this chunk computes it."""
        if self.tail_panel is None or not stmts:
            return stmts
        return [If(self.tail_panel, tuple(stmts))]

    def _pack_b(self) -> list[Stmt]:
        """B's row k of panel p goes to scratch[(p*K + k)*NR ...], zero-padded to NR columns
        (vector copies when B's columns are contiguous, element copies otherwise)."""
        s, lay = self.s, self.lay
        n = self.ext["n"]
        out: list[Stmt] = []
        full = pdiv(n, lay.nr)

        def dst(p: IntExpr, k: IntExpr, j: IntExpr) -> IntExpr:
            return iadd(self.b_base, iadd(self._packed_b(p, k), j))

        def src(p: IntExpr, b_off: IntExpr, j: IntExpr) -> IntExpr:
            return iadd(b_off, imul(iadd(imul(p, lay.nr), j), s.b_j))

        if self.full_panels_in_place:
            pass  # read in place by the register blocks
        elif not is_const(full, 0) and s.b_j == 1:
            p = IVar(self.fresh("p"))

            def vectors(k: IntExpr, _: IntExpr, b_off: IntExpr) -> list[Stmt]:
                body: list[Stmt] = []
                for v in range(lay.nv):
                    lane = IConst(v * lay.lanes)
                    load = SLoad(self.b, src(p, b_off, lane), self.vt)
                    body.append(Store(self.scratch, dst(p, k, lane), load))
                return [Loop(p.name, *self._panel_range(full), tuple(body))]

            # row by row of B, all its panels: B's rows are read front to back, where a
            # panel at a time read a few lines of each row, a page apart, which the
            # prefetchers do not follow
            out += self._k_nest(vectors)
        elif not is_const(full, 0) and self._transposes(s.b_k, lay.lanes):
            out += self._pack_b_transposed(full)
        elif not is_const(full, 0):
            p, j = IVar(self.fresh("p")), IVar(self.fresh("j"))

            def elements(k: IntExpr, _: IntExpr, b_off: IntExpr) -> list[Stmt]:
                return [Store(self.scratch, dst(p, k, j), SLoad(self.b, src(p, b_off, j), self.t))]

            inner = Loop(j.name, IConst(0), IConst(lay.nr), tuple(self._k_nest(elements)))
            out.append(Loop(p.name, *self._panel_range(full), (inner,)))
        width = sub(n, imul(full, lay.nr))
        if is_const(width, 0):
            return out
        if self.overlap and self._transposes(s.b_k, lay.lanes) and at_least(self.kb, lay.lanes):
            return out + self._pack_b_overlapping()
        k0 = self.fresh("k") if not s.k_dims else None
        j, pad = IVar(self.fresh("j")), IVar(self.fresh("j"))

        def last(k: IntExpr, _: IntExpr, b_off: IntExpr) -> list[Stmt]:
            copy = Store(self.scratch, dst(full, k, j), SLoad(self.b, src(full, b_off, j), self.t))
            zero = Store(self.scratch, dst(full, k, pad), SConst(0.0, self.t))
            copies = Loop(j.name, IConst(0), width, (copy,), vector=s.b_j == 1)
            if self.overlap:  # no vector reads the columns past `n`
                return [copies]
            return [copies, Loop(pad.name, width, IConst(lay.nr), (zero,), vector=True)]

        return out + self._tail_panel(when_positive(width, self._k_nest(last, k0)))

    def _pack_b_overlapping(self) -> list[Stmt]:
        """The one panel of an overlapping kernel's B whose reduction is contiguous (`b_k` 1,
        `lanes <= n`, `lanes <= kb`): blocks of `lanes` columns by `lanes` rows of k, the last
        block of each starting `lanes` before the end (overlapping the one before it, whose
        elements it stores again), each `lanes` vector loads along k, transposed, stored as
        `lanes` rows of the panel. No element copies for the remainders, no read past B."""
        s, lay = self.s, self.lay
        lanes = lay.lanes
        g, kv = IVar(self.fresh("g")), IVar(self.fresh("kb"))
        first = IBin("min", imul(g, lanes), IConst(s.n - lanes))
        k = IBin("min", imul(kv, lanes), sub(self.kb, IConst(lanes)))
        at = IVar(self.fresh("k"))
        body: list[Stmt] = [LetInt(at.name, k)]
        loads: list[SExpr] = [
            SLoad(self.b, iadd(iadd(at, self.k0), imul(iadd(first, IConst(c)), s.b_j)), self.vt)
            for c in range(lanes)
        ]
        shuffles, rows = transposed(self.lw.names, loads, self.vt)
        body += shuffles
        for q, row in enumerate(rows):
            dst = iadd(self._packed_b(IConst(0), iadd(at, IConst(q))), first)
            body.append(Store(self.scratch, iadd(self.b_base, dst), row))
        k_blocks = pdiv(iadd(self.kb, IConst(lanes - 1)), lanes)
        groups = IConst(math.ceil(s.n / lanes))
        return [Loop(g.name, IConst(0), groups, (Loop(kv.name, IConst(0), k_blocks, tuple(body)),))]

    def _transposes(self, k_step: int, rows: int) -> bool:
        """Whether an operand that steps by `k_step` over a simple reduction packs blocks of
        `rows` rows as shuffled vectors (`gemm_transpose`): its reduction is contiguous."""
        return not self.s.k_dims and k_step == 1 and transposable(rows, self.lay.lanes)

    def _k_blocks(self, body: Callable[[IntExpr], list[Stmt]], rest: Loop) -> list[Stmt]:
        """`body(k)` for the reduction's blocks of `lanes` rows from `k`, then `rest` (the
        loop over the last `kb % lanes` rows, its bounds replaced)."""
        lanes = self.lay.lanes
        blocks = pdiv(self.kb, lanes)
        kb = IVar(self.fresh("kb"))
        out: list[Stmt] = []
        if not is_const(blocks, 0):
            out.append(Loop(kb.name, IConst(0), blocks, tuple(body(imul(kb, lanes)))))
        done = imul(blocks, lanes)
        if not (isinstance(self.kb, IConst) and self.kb.value % lanes == 0):
            out.append(replace(rest, lo=done, hi=self.kb))
        return out

    def _pack_b_transposed(self, full: IntExpr) -> list[Stmt]:
        """The full panels of a B whose reduction is contiguous (`b_k` 1): per panel, group
        of `lanes` columns and block of `lanes` rows of k, `lanes` vector loads along k,
        transposed, stored as `lanes` rows of the panel."""
        s, lay = self.s, self.lay
        lanes = lay.lanes
        p = IVar(self.fresh("p"))

        def block(k: IntExpr) -> list[Stmt]:
            # one group of `lanes` columns per iteration: the panel's groups as a loop keep
            # the code (and the C compiler's time) to one transpose
            group = IVar(self.fresh("g"))
            first = iadd(imul(p, lay.nr), imul(group, lanes))
            loads: list[SExpr] = [
                SLoad(self.b, iadd(iadd(k, self.k0), imul(iadd(first, IConst(c)), s.b_j)), self.vt)
                for c in range(lanes)
            ]
            body, rows = transposed(self.lw.names, loads, self.vt)
            for q, row in enumerate(rows):
                at = iadd(self._packed_b(p, iadd(k, IConst(q))), imul(group, lanes))
                body.append(Store(self.scratch, iadd(self.b_base, at), row))
            return [Loop(group.name, IConst(0), IConst(lay.nv), tuple(body))]

        kv, j = IVar(self.fresh("k")), IVar(self.fresh("j"))
        src = iadd(iadd(kv, self.k0), imul(iadd(imul(p, lay.nr), j), s.b_j))
        copy = Store(
            self.scratch,
            iadd(self.b_base, iadd(self._packed_b(p, kv), j)),
            SLoad(self.b, src, self.t),
        )
        rest = Loop(
            kv.name, IConst(0), self.kb, (Loop(j.name, IConst(0), IConst(lay.nr), (copy,)),)
        )
        return [Loop(p.name, *self._panel_range(full), tuple(self._k_blocks(block, rest)))]

    def _packed_b(self, p: IntExpr, k: IntExpr) -> IntExpr:
        """Where row k of panel p starts in the packed B (relative to the chunk's part)."""
        return imul(iadd(imul(sub(p, self.p_lo), self.kstride), k), self.lay.nr)

    def _row_block(self, i0: IntExpr, rows: int) -> list[Stmt]:
        """Rows i0..i0+rows-1 of C (a kernel of constant `m` and `n`)."""
        s, lay = self.s, self.lay
        out: list[Stmt] = []
        apack = None
        starts: list[IntExpr] | None = None
        if self.pack_a:
            apack = self.fresh("apack")
            out += self._pack_a(apack, i0, rows, None)
        elif self.a_rows_in_place:
            # where each row's window starts in A, once per row block
            starts = []
            for r in range(rows):
                start = IVar(self.fresh(f"arow{r}"))
                out.append(LetInt(start.name, self._row_offset(iadd(i0, IConst(r)), 1)))
                starts.append(start)
        full = pdiv(self.ext["n"], lay.nr)
        if not is_const(full, 0):
            p = self.fresh("p")
            self.b_direct = self.full_panels_in_place
            body2 = self._panel(i0, rows, IVar(p), IConst(lay.nr), apack, None, starts)
            self.b_direct = False
            out.append(Loop(p, *self._panel_range(full), tuple(body2)))
        width = sub(self.ext["n"], imul(full, lay.nr))
        if not is_const(width, 0):
            partial = self._panel(i0, rows, full, width, apack, None, starts)
            out += self._tail_panel(when_positive(width, partial))
        if apack is None:
            return out
        nbytes = rows * self.kstride * s.dtype.byte_size
        heap = nbytes > self.lw.options.stack_bytes
        return [Alloc(apack, s.dtype, rows * self.kstride, tuple(out), heap=heap, scratch=True)]

    def _pack_a(self, pack: str, i0: IntExpr, rows: int, valid: IntExpr | None) -> list[Stmt]:
        """A rows i0..i0+rows-1, k-major ([k][r]), into `pack` (a buffer of the row block's
        own, one per thread); with `valid`, the rows from `valid` on are zero."""
        s = self.s
        k0 = self.fresh("k") if not s.k_dims else None
        if valid is None and not s.row_dims and self._transposes(s.a_k, rows):
            return self._pack_a_transposed(pack, i0, rows)
        if valid is None:
            starts = [self._row_offset(iadd(i0, IConst(r)), 1) for r in range(rows)]

            def copy_rows(k: IntExpr, a_off: IntExpr, _: IntExpr) -> list[Stmt]:
                return [
                    Store(
                        pack,
                        iadd(IConst(r), imul(k, rows)),
                        SLoad(self.a, iadd(start, a_off), self.t),
                    )
                    for r, start in enumerate(starts)
                ]

            return self._k_nest(copy_rows, k0)
        e, row = self.fresh("e"), IVar(self.fresh("r"))
        zero = Store(pack, IVar(e), SConst(0.0, self.t))
        start = self._row_offset(iadd(i0, row), 1)

        def copy_valid(k: IntExpr, a_off: IntExpr, _: IntExpr) -> list[Stmt]:
            load = SLoad(self.a, iadd(start, a_off), self.t)
            copy = Store(pack, iadd(row, imul(k, rows)), load)
            return [Loop(row.name, IConst(0), valid, (copy,))]

        return [
            Loop(e, IConst(0), IConst(rows * self.kstride), (zero,), vector=True),
            *self._k_nest(copy_valid, k0),
        ]

    def _pack_a_transposed(self, pack: str, i0: IntExpr, rows: int) -> list[Stmt]:
        """`_pack_a` of A rows whose reduction is contiguous (`a_k` 1): per block of `lanes`
        k, `rows` vector loads along k, transposed into `rows` vectors of the `[k][r]` block."""
        lanes = self.lay.lanes
        starts = [self._row_offset(iadd(i0, IConst(r)), 1) for r in range(rows)]

        def block(k: IntExpr) -> list[Stmt]:
            loads: list[SExpr] = [
                SLoad(self.a, iadd(start, iadd(k, self.k0)), self.vt) for start in starts
            ]
            shuffles, vectors = transposed(self.lw.names, loads, self.vt)
            stores = [
                Store(pack, iadd(imul(k, rows), IConst(q * lanes)), v)
                for q, v in enumerate(vectors)
            ]
            return [*shuffles, *stores]

        kv = IVar(self.fresh("k"))
        copies = [
            Store(
                pack,
                iadd(IConst(r), imul(kv, rows)),
                SLoad(self.a, iadd(start, iadd(kv, self.k0)), self.t),
            )
            for r, start in enumerate(starts)
        ]
        return self._k_blocks(block, Loop(kv.name, IConst(0), self.kb, tuple(copies)))

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
        packs = If(
            full_rows,
            tuple(self._pack_a(apack, i0, lay.mr, None)),
            tuple(self._pack_a(apack, i0, lay.mr, rows)),
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
        heap = lay.mr * self.kstride * s.dtype.byte_size > self.lw.options.stack_bytes
        block = (
            LetInt(rows.name, IBin("min", IConst(lay.mr), sub(m, i0))),
            Alloc(
                apack,
                s.dtype,
                lay.mr * self.kstride,
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
            return iadd(iadd(self._row_offset(iadd(i0, r), 2), imul(p, lay.nr)), j)

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
        body += self._k_loop(i0, rows, p, apack, accs, a_starts)
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

        def row_offset(strides: tuple[int, ...]) -> IntExpr:
            return self._row_offset_by(row, strides)

        params = self.epilogue_params
        return applied(self.epilogue, value, column, element, params, t, row_offset)

    def _k_loop(
        self,
        i0: IntExpr,
        rows: int,
        p: IntExpr,
        apack: str | None,
        accs: list[list[str]],
        a_starts: list[IntExpr] | None = None,
    ) -> list[Stmt]:
        """The register-blocked reduction: per k, NV vectors of B, one broadcast A element per
        row, and `rows x NV` fused multiply-adds into the accumulators. One flat loop, except
        over an operand read in place across a multi-index reduction (a loop per index)."""
        s, lay, vt = self.s, self.lay, self.vt

        def step(k: IntExpr, a_off: IntExpr, b_off: IntExpr) -> list[Stmt]:
            body: list[Stmt] = []
            bvals = []
            for v in range(lay.nv):
                name = self.fresh(f"b{v}")
                lane = IConst(self.columns[v])
                if self.pack_b and not self.b_direct:
                    at = iadd(self.b_base, iadd(self._packed_b(p, k), lane))
                    load = SLoad(self.scratch, at, vt)
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
                    assert self.a_step is not None  # else A is packed
                    offset = iadd(imul(iadd(i0, IConst(r)), s.a_row), imul(k, self.a_step))
                    element = SLoad(self.a, offset, self.t)
                body.append(LetScalar(name, SCast(element, vt)))
                for v in range(lay.nv):
                    acc = SVar(accs[r][v], vt)
                    body.append(AssignVar(accs[r][v], SFma(SVar(name, vt), bvals[v], acc, vt)))
            return body

        if s.k_dims and (not self.pack_b or a_starts is not None):
            return self._k_nest(step)
        k = IVar(self.fresh("k"))
        # operands read in place: the k block's start counts
        a_off, b_off = imul(iadd(k, self.k0), s.a_k), imul(iadd(k, self.k0), s.b_k)
        return [Loop(k.name, IConst(0), self.kb, tuple(step(k, a_off, b_off)))]
