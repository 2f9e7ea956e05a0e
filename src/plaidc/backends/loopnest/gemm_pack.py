"""Packing a micro-kernel's operands (see `gemm_kernel`): what it packs, and the pack loops.

B packs into zero-padded panels of `NR = gemm_vectors * lanes` columns, row k of panel p at
`(p*K + k)*NR` of the scratch its caller passes (when the panels are reused by several row
blocks, a panel is partial or B's columns are strided); A into `MR x K` row blocks, k-major, in
a buffer of the row block's own (when several panels reuse them, or the rows are padded). A is
read in place when one panel uses it and it steps evenly over the reduction (a grouped conv's
weights), and when its rows are contiguous along the reduction: an image whose window runs are
contiguous (an NHWC convolution's rows: one start per row and row block, the k loops
broadcasting from the image, no im2col) or a plain GEMM's row-major A; a GEMV reads B's full
panels in place and packs only its partial last panel. An operand whose reduction is contiguous
(a transposed product's B; a row-major A where it is packed: a ragged kernel, OpenCL) packs as
vector transposes (`gemm_transpose`); a row-major B packs row by row across its panels.

`packing` decides what is packed from the kernel's shape and register tile; a `Packer`
builds the pack loops of one kernel for a `Window` of its work (a block of the reduction
and, in a blocked kernel's chunk, its panels of B). `row_offset` and `k_nest` address the
operands as both the packs and the kernel's k loop read them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from plaidc.backends.loopnest.gemm_ints import (
    at_least,
    even_step,
    is_const,
    pdiv,
    rem,
    sub,
    when_positive,
)
from plaidc.backends.loopnest.gemm_shape import (
    GemmShape,
    Layout,
    needs_b_bound,
    overlaps,
    pack_b_size,
    reads_b_in_place,
)
from plaidc.backends.loopnest.gemm_transpose import transposable, transposed
from plaidc.backends.loopnest.names import Namer
from plaidc.backends.loopnest.plan import (
    IBin,
    IConst,
    If,
    IntExpr,
    IVar,
    LetInt,
    Loop,
    ScalarType,
    SConst,
    SExpr,
    SLoad,
    Stmt,
    Store,
    iadd,
    imul,
)


@dataclass(frozen=True)
class Packing:
    """What a micro-kernel packs and what it reads in place (`packing`)."""

    # B's panels are packed (a call whose partial panel fits in B reads it in place when the
    # kernel takes B's bound: `Kernel.build`)
    pack_b: bool
    # ... except its full panels, read in place (a GEMV)
    full_panels_in_place: bool
    # A's row blocks are packed
    pack_a: bool
    # A's rows are read in place from one start per row (an image's contiguous window runs,
    # a row-major A)
    a_rows_in_place: bool
    # how far one step of the flat reduction moves A (None: unevenly)
    a_step: int | None


def packing(shape: GemmShape, lay: Layout, flat_a_in_place: bool = True) -> Packing:
    """What `shape`'s kernel with register tile `lay` packs (`flat_a_in_place`: a plain
    GEMM's rows may be read in place, `[codegen] gemm_a_in_place`)."""
    # a full panel is read in place; a partial one when the call's vectors fit (`Kernel.build`)
    full_in_place = reads_b_in_place(shape, lay) and not needs_b_bound(shape, lay)
    pack_b = pack_b_size(shape, lay) > 0 and not full_in_place
    # One row block (a GEMV: the classifier's 1 x 2048 x 1000) uses each element of B
    # once: its full panels are read in place (contiguous columns), and only a partial
    # last panel is packed (zero-padded), where packing all of B tripled its traffic.
    full_panels_in_place = (
        pack_b
        and shape.m <= lay.mr
        and shape.n >= lay.nr
        and shape.b_j == 1
        and not shape.k_dims
        and not shape.runtime
    )
    # A row blocks are packed when several panels reuse them, and always when rows span
    # several indices or A does not step evenly over a reduction of several indices (the
    # k loop then reads packed operands only). A grouped convolution's weights (one
    # panel, the window contiguous in A) are read in place: packing them again for every
    # output row cost as much as the row's multiply-adds.
    a_step = even_step([(size, a) for size, a, _ in shape.k_dims], shape.a_k)
    # An implicit GEMM's image rows (a convolution: rows or reduction of several indices)
    # whose window runs are contiguous (`(j, ci)` of an NHWC image) are read in place:
    # per k, each row's broadcast comes straight from the image (one pointer per row,
    # the window's runs streaming through L1), as oneDNN's and MLAS's direct
    # convolutions do. Packing them cost an element copy per row and k, reused by few
    # panels (2 for 64 output channels). So are a 1x1 convolution's rows of several
    # indices (its channels the one contiguous reduction index), whose packing was a
    # scalar copy per row and k. And so are a plain GEMM's rows when its reduction is
    # contiguous in A (a row-major A: an MLP layer's activations, tmm, a 1x1 convolution;
    # `flat_a_in_place`, off on OpenCL, untimed there), whose packing was a vector
    # transpose per row block and k block: one thread, CPU time, interleaved best of 8-10 x
    # 20, c: MLP 3x1024 batch 128 6.05 -> 5.90, 6.08 -> 5.83 and
    # 6.18 -> 6.03 ms (llvm 6.00 -> 5.87), tmm 128x1024x1024 2.01 -> 1.96 ms, 1x1 2048->512
    # @7x7 0.99 -> 0.94 ms; matmul 1024^3 (13.6-14.2 ms), tbmm, 999^3 (ragged: still packed)
    # and 1x1 convolutions at 14x14-56x56 within 1.5% either way.
    a_rows_in_place = (
        (bool(shape.row_dims or shape.k_dims) or flat_a_in_place)
        and (shape.k_dims[-1][1] == 1 if shape.k_dims else shape.a_k == 1)
        and not {"m", "n"} & set(shape.runtime)
    )
    uneven = (bool(shape.row_dims) or a_step is None) and not a_rows_in_place
    reused = math.ceil(shape.n / lay.nr) > 1 and shape.k > 1 and not a_rows_in_place
    return Packing(pack_b, full_panels_in_place, uneven or reused, a_rows_in_place, a_step)


_ZERO = IConst(0)


@dataclass(frozen=True)
class Window:
    """The part of a kernel's work that the code being built covers: a block of the
    reduction (all of it in an unblocked kernel) and, in a blocked kernel's chunk, its panels
    of B and its part of the scratch (`Kernel._blocked`)."""

    # the block's length, and how far apart its packed rows' panels are (the reduction's
    # length, or the k blocks' `kc`)
    kb: IntExpr
    kstride: int
    # the block's start in the reduction
    k0: IntExpr = _ZERO
    # where the chunk's packed B starts in the scratch
    b_base: IntExpr = _ZERO
    # the panels of B the chunk computes: from `p_lo` to `p_hi` (None: every full panel),
    # the partial last panel where `tail_panel` holds (None: always)
    p_lo: IntExpr = _ZERO
    p_hi: IntExpr | None = None
    tail_panel: IntExpr | None = None

    def panel_range(self, full: IntExpr) -> tuple[IntExpr, IntExpr]:
        """The full panels this chunk computes: `[p_lo, p_hi)`, all `[0, full)` unsplit."""
        return self.p_lo, full if self.p_hi is None else self.p_hi

    def in_tail_panel(self, stmts: list[Stmt]) -> list[Stmt]:
        """`stmts` (the partial last panel's) where this chunk computes it."""
        if self.tail_panel is None or not stmts:
            return stmts
        return [If(self.tail_panel, tuple(stmts))]


def row_offset(shape: GemmShape, row: IntExpr, operand: int) -> IntExpr:
    """Where row `row` starts in A (`operand` 1) or C (2), relative to row 0."""
    if not shape.row_dims:
        return imul(row, shape.a_row if operand == 1 else shape.c_row)
    return row_offset_by(shape, row, tuple(dim[operand] for dim in shape.row_dims))


def row_offset_by(shape: GemmShape, row: IntExpr, strides: tuple[int, ...]) -> IntExpr:
    """Where row `row` is, relative to row 0, in a buffer that moves `strides[d]` per step of
    row dimension `d` (one stride for flat rows)."""
    if not shape.row_dims:
        return imul(row, strides[0])
    out: IntExpr = IConst(0)
    rest = row
    dims = [(dim[0], stride) for dim, stride in zip(shape.row_dims, strides, strict=True)]
    for pos, (size, stride) in enumerate(reversed(dims)):  # innermost first
        outermost = pos == len(dims) - 1
        here = rest if outermost else rem(rest, size)
        out = iadd(out, imul(here, stride))
        rest = pdiv(rest, size)
    return out


def k_nest(
    names: Namer,
    shape: GemmShape,
    w: Window,
    body: Callable[[IntExpr, IntExpr, IntExpr], list[Stmt]],
    k: str | None = None,
) -> list[Stmt]:
    """Loops over the window's reduction around `body(flat k, A offset, B offset)` (one loop
    named `k`, else one per index of `k_dims`, outermost first)."""
    if not shape.k_dims:
        var = IVar(k if k is not None else names.fresh("k"))
        at = iadd(var, w.k0)
        inner = body(var, imul(at, shape.a_k), imul(at, shape.b_k))
        return [Loop(var.name, IConst(0), w.kb, tuple(inner))]
    loops = [names.fresh("k") for _ in shape.k_dims]
    flat: IntExpr = IConst(0)
    a_off: IntExpr = IConst(0)
    b_off: IntExpr = IConst(0)
    for name, (size, a, b) in zip(loops, shape.k_dims, strict=True):
        flat = iadd(imul(flat, size), IVar(name))
        a_off, b_off = iadd(a_off, imul(IVar(name), a)), iadd(b_off, imul(IVar(name), b))
    stmts = body(flat, a_off, b_off)
    for name, (size, _, _) in reversed(list(zip(loops, shape.k_dims, strict=True))):
        stmts = [Loop(name, IConst(0), IConst(size), tuple(stmts))]
    return stmts


class Packer:
    """Builds the pack loops of one micro-kernel: B's panels into the scratch (`scratch`,
    from `Window.b_base` on), a row block of A into a buffer of its own."""

    def __init__(
        self,
        names: Namer,
        shape: GemmShape,
        lay: Layout,
        what: Packing,
        operands: tuple[str, str, str],
        n: IntExpr,
    ) -> None:
        self.names = names
        self.s = shape
        self.lay = lay
        self.what = what
        # the kernel's A, B and scratch buffers, and its extent of `n` (run-time in a ragged
        # kernel)
        self.a, self.b, self.scratch = operands
        self.n = n
        self.t = ScalarType(shape.dtype)
        self.vt = ScalarType(shape.dtype, lay.lanes)
        # the last vector of columns overlaps the one before it (`overlaps`)
        self.overlap = overlaps(shape, lay)

    def fresh(self, hint: str) -> str:
        return self.names.fresh(hint)

    def packed_b(self, w: Window, p: IntExpr, k: IntExpr, column: IntExpr) -> IntExpr:
        """Where column `column` of row k of panel p lies in the scratch (in the window's
        part, whose first panel is `p_lo`)."""
        panel_row = imul(iadd(imul(sub(p, w.p_lo), w.kstride), k), self.lay.nr)
        return iadd(w.b_base, iadd(panel_row, column))

    def pack_b(self, w: Window) -> list[Stmt]:
        """B's row k of panel p goes to scratch[(p*K + k)*NR ...], zero-padded to NR columns
        (vector copies when B's columns are contiguous, element copies otherwise)."""
        s, lay = self.s, self.lay
        n = self.n
        out: list[Stmt] = []
        full = pdiv(n, lay.nr)

        def dst(p: IntExpr, k: IntExpr, j: IntExpr) -> IntExpr:
            return self.packed_b(w, p, k, j)

        def src(p: IntExpr, b_off: IntExpr, j: IntExpr) -> IntExpr:
            return iadd(b_off, imul(iadd(imul(p, lay.nr), j), s.b_j))

        if self.what.full_panels_in_place:
            pass  # read in place by the register blocks
        elif not is_const(full, 0) and s.b_j == 1:
            p = IVar(self.fresh("p"))

            def vectors(k: IntExpr, _: IntExpr, b_off: IntExpr) -> list[Stmt]:
                body: list[Stmt] = []
                for v in range(lay.nv):
                    lane = IConst(v * lay.lanes)
                    load = SLoad(self.b, src(p, b_off, lane), self.vt)
                    body.append(Store(self.scratch, dst(p, k, lane), load))
                return [Loop(p.name, *w.panel_range(full), tuple(body))]

            # row by row of B, all its panels: B's rows are read front to back, where a
            # panel at a time read a few lines of each row, a page apart, which the
            # prefetchers do not follow
            out += k_nest(self.names, s, w, vectors)
        elif not is_const(full, 0) and self._transposes(s.b_k, lay.lanes):
            out += self._pack_b_transposed(w, full)
        elif not is_const(full, 0):
            p, j = IVar(self.fresh("p")), IVar(self.fresh("j"))

            def elements(k: IntExpr, _: IntExpr, b_off: IntExpr) -> list[Stmt]:
                return [Store(self.scratch, dst(p, k, j), SLoad(self.b, src(p, b_off, j), self.t))]

            inner = Loop(
                j.name, IConst(0), IConst(lay.nr), tuple(k_nest(self.names, s, w, elements))
            )
            out.append(Loop(p.name, *w.panel_range(full), (inner,)))
        width = sub(n, imul(full, lay.nr))
        if is_const(width, 0):
            return out
        if self.overlap and self._transposes(s.b_k, lay.lanes) and at_least(w.kb, lay.lanes):
            return out + self._pack_b_overlapping(w)
        k0 = self.fresh("k") if not s.k_dims else None
        j, pad = IVar(self.fresh("j")), IVar(self.fresh("j"))

        def last(k: IntExpr, _: IntExpr, b_off: IntExpr) -> list[Stmt]:
            copy = Store(self.scratch, dst(full, k, j), SLoad(self.b, src(full, b_off, j), self.t))
            zero = Store(self.scratch, dst(full, k, pad), SConst(0.0, self.t))
            copies = Loop(j.name, IConst(0), width, (copy,), vector=s.b_j == 1)
            if self.overlap:  # no vector reads the columns past `n`
                return [copies]
            return [copies, Loop(pad.name, width, IConst(lay.nr), (zero,), vector=True)]

        return out + w.in_tail_panel(when_positive(width, k_nest(self.names, s, w, last, k0)))

    def _pack_b_overlapping(self, w: Window) -> list[Stmt]:
        """The one panel of an overlapping kernel's B whose reduction is contiguous (`b_k` 1,
        `lanes <= n`, `lanes <= kb`): blocks of `lanes` columns by `lanes` rows of k, the last
        block of each starting `lanes` before the end (overlapping the one before it, whose
        elements it stores again), each `lanes` vector loads along k, transposed, stored as
        `lanes` rows of the panel. No element copies for the remainders, no read past B."""
        s, lay = self.s, self.lay
        lanes = lay.lanes
        g, kv = IVar(self.fresh("g")), IVar(self.fresh("kb"))
        first = IBin("min", imul(g, lanes), IConst(s.n - lanes))
        k = IBin("min", imul(kv, lanes), sub(w.kb, IConst(lanes)))
        at = IVar(self.fresh("k"))
        body: list[Stmt] = [LetInt(at.name, k)]
        loads: list[SExpr] = [
            SLoad(self.b, iadd(iadd(at, w.k0), imul(iadd(first, IConst(c)), s.b_j)), self.vt)
            for c in range(lanes)
        ]
        shuffles, rows = transposed(self.names, loads, self.vt)
        body += shuffles
        for q, row in enumerate(rows):
            dst = self.packed_b(w, IConst(0), iadd(at, IConst(q)), first)
            body.append(Store(self.scratch, dst, row))
        k_blocks = pdiv(iadd(w.kb, IConst(lanes - 1)), lanes)
        groups = IConst(math.ceil(s.n / lanes))
        return [Loop(g.name, IConst(0), groups, (Loop(kv.name, IConst(0), k_blocks, tuple(body)),))]

    def _pack_b_transposed(self, w: Window, full: IntExpr) -> list[Stmt]:
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
                SLoad(self.b, iadd(iadd(k, w.k0), imul(iadd(first, IConst(c)), s.b_j)), self.vt)
                for c in range(lanes)
            ]
            body, rows = transposed(self.names, loads, self.vt)
            for q, row in enumerate(rows):
                at = self.packed_b(w, p, iadd(k, IConst(q)), imul(group, lanes))
                body.append(Store(self.scratch, at, row))
            return [Loop(group.name, IConst(0), IConst(lay.nv), tuple(body))]

        kv, j = IVar(self.fresh("k")), IVar(self.fresh("j"))
        src = iadd(iadd(kv, w.k0), imul(iadd(imul(p, lay.nr), j), s.b_j))
        copy = Store(self.scratch, self.packed_b(w, p, kv, j), SLoad(self.b, src, self.t))
        rest = Loop(kv.name, IConst(0), w.kb, (Loop(j.name, IConst(0), IConst(lay.nr), (copy,)),))
        return [Loop(p.name, *w.panel_range(full), tuple(self._k_blocks(w, block, rest)))]

    def pack_a(
        self, w: Window, pack: str, i0: IntExpr, rows: int, valid: IntExpr | None
    ) -> list[Stmt]:
        """A rows i0..i0+rows-1, k-major ([k][r]), into `pack` (a buffer of the row block's
        own, one per thread); with `valid`, the rows from `valid` on are zero."""
        s = self.s
        k0 = self.fresh("k") if not s.k_dims else None
        if valid is None and not s.row_dims and self._transposes(s.a_k, rows):
            return self._pack_a_transposed(w, pack, i0, rows)
        if valid is None:
            starts = [row_offset(s, iadd(i0, IConst(r)), 1) for r in range(rows)]

            def copy_rows(k: IntExpr, a_off: IntExpr, _: IntExpr) -> list[Stmt]:
                return [
                    Store(
                        pack,
                        iadd(IConst(r), imul(k, rows)),
                        SLoad(self.a, iadd(start, a_off), self.t),
                    )
                    for r, start in enumerate(starts)
                ]

            return k_nest(self.names, s, w, copy_rows, k0)
        e, row = self.fresh("e"), IVar(self.fresh("r"))
        zero = Store(pack, IVar(e), SConst(0.0, self.t))
        start = row_offset(s, iadd(i0, row), 1)

        def copy_valid(k: IntExpr, a_off: IntExpr, _: IntExpr) -> list[Stmt]:
            load = SLoad(self.a, iadd(start, a_off), self.t)
            copy = Store(pack, iadd(row, imul(k, rows)), load)
            return [Loop(row.name, IConst(0), valid, (copy,))]

        return [
            Loop(e, IConst(0), IConst(rows * w.kstride), (zero,), vector=True),
            *k_nest(self.names, s, w, copy_valid, k0),
        ]

    def _pack_a_transposed(self, w: Window, pack: str, i0: IntExpr, rows: int) -> list[Stmt]:
        """`pack_a` of A rows whose reduction is contiguous (`a_k` 1): per block of `lanes`
        k, `rows` vector loads along k, transposed into `rows` vectors of the `[k][r]` block."""
        lanes = self.lay.lanes
        starts = [row_offset(self.s, iadd(i0, IConst(r)), 1) for r in range(rows)]

        def block(k: IntExpr) -> list[Stmt]:
            loads: list[SExpr] = [
                SLoad(self.a, iadd(start, iadd(k, w.k0)), self.vt) for start in starts
            ]
            shuffles, vectors = transposed(self.names, loads, self.vt)
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
                SLoad(self.a, iadd(start, iadd(kv, w.k0)), self.t),
            )
            for r, start in enumerate(starts)
        ]
        return self._k_blocks(w, block, Loop(kv.name, IConst(0), w.kb, tuple(copies)))

    def _transposes(self, k_step: int, rows: int) -> bool:
        """Whether an operand that steps by `k_step` over a simple reduction packs blocks of
        `rows` rows as shuffled vectors (`gemm_transpose`): its reduction is contiguous."""
        return not self.s.k_dims and k_step == 1 and transposable(rows, self.lay.lanes)

    def _k_blocks(self, w: Window, body: Callable[[IntExpr], list[Stmt]], rest: Loop) -> list[Stmt]:
        """`body(k)` for the window's blocks of `lanes` rows from `k`, then `rest` (the loop
        over the last `kb % lanes` rows, its bounds replaced)."""
        lanes = self.lay.lanes
        blocks = pdiv(w.kb, lanes)
        kb = IVar(self.fresh("kb"))
        out: list[Stmt] = []
        if not is_const(blocks, 0):
            out.append(Loop(kb.name, IConst(0), blocks, tuple(body(imul(kb, lanes)))))
        done = imul(blocks, lanes)
        if not (isinstance(w.kb, IConst) and w.kb.value % lanes == 0):
            out.append(replace(rest, lo=done, hi=w.kb))
        return out
