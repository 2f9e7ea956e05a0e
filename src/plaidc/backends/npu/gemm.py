"""One output tile of a Cube contraction (`Gemm`): its K steps, each operand gathered into a
row-major matrix in UB, converted to fp16 parts, copied to L1 as fractal strips and loaded into
L0A/L0B, `mad` into the L0C accumulators, then the result back through UB to GM (or into a
fused epilogue). `cube` has the whole story and chooses the tiles.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from plaidc.backends.npu import conv_map_rows, conv_rows, img2col
from plaidc.backends.npu.context import Context
from plaidc.backends.npu.cube_match import Contraction, Epilogue, count_points
from plaidc.backends.npu.cube_residency import Matrix, Resident, Weights
from plaidc.backends.npu.fractal_layout import ko_major_image
from plaidc.backends.npu.gemm_result import SPLIT_SHIFT, GemmResult, dense_position
from plaidc.backends.npu.kernels import Access, Kernel
from plaidc.backends.npu.loops import sample, steady
from plaidc.backends.npu.moves import Placement, Space, choose_path
from plaidc.backends.npu.ops import (
    BLOCK,
    MAX_REPEAT,
    Arena,
    Buf,
    Op,
    OutOfMemory,
    begin_iteration,
    call,
    elems_per_block,
    end_loop,
    offset_buf,
)
from plaidc.backends.npu.ops import round_up as up
from plaidc.backends.npu.placement import Placed
from plaidc.backends.npu.staging import Tiler, Window
from plaidc.backends.npu.valops import Val, ValueEmitter
from plaidc.backends.npu_sim.isa import IMG2COL_PARAMS
from plaidc.stripe.ir import Affine, DType


class NotCube(Exception):
    """This tile has a shape the Cube lowering does not handle; use the vector unit."""


@dataclass
class _Operand:
    """An operand of one K step: its matrix's shape, the gather from its GM window."""

    matrix: Matrix
    n_rows: int
    n_cols: int
    space: Space
    pos: Affine
    run: str | None
    name: str
    window: Buf | None = None
    src: Affine = dataclasses.field(default_factory=Affine)
    alias: bool = False
    holes: bool = False  # positions no point writes inside the matrix (padded channels): zero
    rect: Window | None = None  # the GM window the matrix aliases, when it holds only points
    laid: bool = False  # `window` is the matrix, brought by DMA as it is (`conv_rows`)


class Gemm(GemmResult):
    """One output tile of a contraction: K steps into one L0C accumulator, then the store."""

    def __init__(
        self,
        ctx: Context,
        kernel: Kernel,
        con: Contraction,
        tile: dict,
        epilogue: Epilogue | None = None,
        resident: Resident | None = None,
        placed: dict[tuple[str, str], Placed] | None = None,
        weights: Weights | None = None,
    ) -> None:
        self.ctx, self.kernel, self.con, self.epilogue = ctx, kernel, con, epilogue
        self.resident = resident
        self.weights = weights
        self.shared: tuple[Window, Buf] | None = None  # the left operand's window in L1
        # where the pass pipeline placed the tile's copies, by (memory, buffer): its UB
        # windows in a share of UB, its K step's L1, L0A, L0B and L0C buffers in theirs
        self.placed = placed or {}
        self.tilers: list[Tiler] = []  # the UB shares of its K steps and its store
        self.cube_honoured: set[tuple[str, str]] = set()  # (memory, buffer), as `honoured`
        # the Cube's fractal sides: A fractals are fm x fk, B's fn x fk, C's fm x fn
        mach = ctx.machine
        self.fm, self.fn, self.fk = mach.cube_m, mach.cube_n, mach.cube_k
        self.starts = {v: s for v, (s, _) in tile.items()}
        self.sizes = {v: n for v, (_, n) in tile.items()}
        self.rows_m = up(count_points(con.m, self.sizes), self.fm)
        self.rows_n = up(count_points(con.n, self.sizes), self.fn)
        self.ops: list[Op] = []
        # `defer`: the store's final transfer to GM is left out of the ops, as `deferred`, for
        # the caller to issue later (`cube.defer_stores`)
        self.defer = False
        # a fused epilogue's inputs kept in UB across this core's tiles (`GemmResult._epilogue`)
        self.invariants: dict[tuple, Val] | None = None
        self.deferred: Op | None = None
        # L0 sub-steps per K step and M parts per tile (`cube_tiling.l0_split`): 1, or more
        # when a K step's operands are larger than the L0A/L0B shares
        self.sub = 1
        self.m_parts = 1
        # the DMAs to issue after each K step (by its index): the next row of tiles' left
        # operand, prefetched into L1 (`cube_prefetch`)
        self.prefetch: Callable[[int], list[Op]] | None = None
        # ops to issue right after the tile's window comes into L1 (`_shared_window`): the
        # weights' K steps that the core's first tile lets come after its window
        # (`conv_weights.preload`'s deferred part)
        self.after_window: list[Op] = []

    def local(self, aff: Affine, starts: dict[str, int]) -> Affine:
        return aff.substitute({v: Affine.var(v) + s for v, s in starts.items() if s})

    def lower(
        self, k_tiles: list[dict], parity: int, cube: tuple[int, int] | None = None
    ) -> list[Op]:
        """The tile's ops: K step `s` in the UB halves of `parity + s`, its store in those
        of `parity + len(k_tiles)`. `cube` = (accumulator parity, first K step's parity):
        the L0C half and the L1/L0A/L0B halves of K step `s` (`step + s`), which the caller
        numbers across tiles so that consecutive K steps, also of consecutive tiles, take
        alternate halves (the UB numbering gives the store a half of its own, so a tile's
        first K step would take the half of the previous tile's last). None: `parity`, as
        UB. The K steps are a loop (`loops`)."""
        con, ctx = self.con, self.ctx
        acc_parity, step_parity = cube if cube is not None else (parity, parity)
        l0c = ctx.arena("L0C", parity=acc_parity)
        # each part's accumulators (fp32 split: two), one per M part (`m_ranges`)
        parts = 2 if con.split else 1
        c_bytes = [(m1 - m0) * self.fm * self.rows_n * 4 for m0, m1 in self.m_ranges()] * parts
        accumulators = self._cube_bufs(l0c, con.store.access.buffer, c_bytes, "C")
        if self.weights is not None and self.weights.windows and not con.split:
            self.shared = self._shared_window(k_tiles, parity)
        self.ops.extend(self.after_window)  # where no window came first
        self.after_window = []
        loop = ctx.new_loop()
        for step in sample(len(k_tiles), ctx.sampling and steady(k_tiles, con.forms)):
            self.ops.append(begin_iteration(loop, step, len(k_tiles)))
            self._k_step(k_tiles[step], step, accumulators, parity + step, step_parity + step)
            if self.prefetch is not None:
                self.ops.extend(self.prefetch(step))
        self.ops.append(end_loop(loop, len(k_tiles)))
        self._store(accumulators, parity + len(k_tiles))
        return self.ops

    def _at(self, tiler: Tiler, name: str) -> Placed | None:
        """Where the pipeline placed buffer `name`'s window, in `tiler`'s share of UB (in
        whole vector repeats, as `place` sized it), or None. The tiler records whether the
        window went there (`honoured`)."""
        at = self.placed.get(("UB", name))
        if at is None:
            return None
        arena, rb = tiler.arena, self.ctx.repeat_bytes
        placed = Placed(arena.base + at.offset, up(at.size, rb))
        return placed if placed.offset + placed.size <= arena.base + arena.size else None

    def _tiler(self, parity: int) -> Tiler:
        """A fresh share of UB for a K step or the store (the half of `parity`)."""
        self.tilers.append(Tiler(self.ctx, self.ctx.arena("UB", parity), self.ops))
        return self.tilers[-1]

    @property
    def honoured(self) -> set[tuple[str, str]]:
        """The copies this tile put where the pass pipeline placed them, as (memory, buffer):
        its UB windows, its L1, L0A, L0B and L0C buffers."""
        ub = {("UB", name) for tiler in self.tilers for name in tiler.honoured}
        return ub | self.cube_honoured

    def _cube_bufs(self, arena: Arena, name: str, sizes: list[int], what: str) -> list[Buf]:
        """Buffers of `sizes` bytes in `arena` (a share of L1, L0A, L0B or L0C) for `name`'s
        parts (an operand's fp16 parts, the split's accumulators): one after another from
        where the pass pipeline placed `name`'s copy in that memory, as many as fit in the
        copy's bytes (the first at least, else none), the others wherever there is room."""
        at = self.placed.get((arena.mem, name))
        bufs: list[Buf] = []
        if at is not None:
            offset, end = arena.base + at.offset, arena.base + at.offset + at.size
            for size in sizes:
                if offset + size > min(end, arena.base + arena.size):
                    break
                buf = arena.claim(offset, size)
                if buf is None:
                    break
                bufs.append(buf)
                offset += buf.size
            if bufs:
                self.cube_honoured.add((arena.mem, name))
        return bufs + [arena.alloc(size, what) for size in sizes[len(bufs) :]]

    # -- one K step -----------------------------------------------------------------------------

    def _read(
        self,
        tiler: Tiler,
        access: Access,
        outer: tuple[str, ...],
        k_tile: dict,
        cons: tuple[Affine, ...],
        conv: img2col.ConvLayout | None = None,
    ) -> _Operand:
        """Plan an operand's matrix and bring its GM window into UB. The matrix is row-major,
        rows and columns padded to the fractal size; its rows are the M (or N) indices, or
        the K indices when the other index set is contiguous in GM: then the gather is a copy
        (or nothing), and the fractals are transposed on their way to L0. With `conv` (the
        left operand goes by img2col) the K indices take its columns' order and padding."""
        con, dtype = self.con, self.con.dtype
        starts = {**self.starts, **{v: s for v, (s, _) in k_tile.items()}}
        sizes = {**self.sizes, **{v: n for v, (_, n) in k_tile.items()}}
        live = [v for v in (*outer, *con.k) if sizes[v] > 1 and access.offset.coeff(v)]
        inner = min(live, key=lambda v: abs(access.offset.coeff(v)), default=None)
        k_rows = inner is not None and inner in outer
        row_vars, col_vars = (con.k, outer) if k_rows else (outer, con.k)
        n_rows, n_cols = count_points(row_vars, sizes), count_points(col_vars, sizes)
        side = self.fm if outer is con.m else self.fn  # the fractal's M (or N) side
        frac = (self.fk, side) if k_rows else (side, self.fk)
        rows, cols = up(n_rows, frac[0]), up(n_cols, frac[1])
        space = Space(
            {v: sizes[v] for v in (*con.batch, *row_vars, *col_vars)},
            tuple(self.local(a, starts) for a in cons),
        )
        if conv is None:
            pos = dense_position(row_vars, sizes, cols) + dense_position(col_vars, sizes, 1)
        elif k_rows:  # rows K in the img2col columns' order, zero at padded channels
            n_rows = rows = conv.columns
            pos = conv.k_position() * cols + dense_position(col_vars, sizes, 1)
        else:
            n_cols = cols = conv.columns
            pos = dense_position(row_vars, sizes, cols) + conv.k_position()
        pos = space.fold(pos)
        runs = [v for v in col_vars if sizes[v] > 1]
        op = _Operand(
            Matrix(k_rows, rows, cols, frac, None),
            n_rows,
            n_cols,
            space,
            pos,
            runs[-1] if runs else None,
            access.buffer,
            holes=conv is not None and conv.padded,
        )
        if space.is_empty():
            return op
        acc = self.local(access.offset, starts)
        # a plain matrix's rows may come in exact (`Window.exact`): row-major at `cols`
        window = tiler.window(space, access.buffer, [acc], pitch=cols if conv is None else 0)
        op.src = window.to_ub(space.fold(acc))
        g = elems_per_block(dtype)
        op.alias = all(op.src.coeff(v) == pos.coeff(v) for v in space.sizes)
        op.alias = op.alias and op.src.const % g == 0 and not op.holes
        if op.alias and op.src.const == 0 and window.gm_elements == space.point_count():
            op.rect = window  # every element of the window is a point, and only those
        if not op.alias:
            if conv is not None and k_rows and self._spread(op):
                # the weights' rows element by element: by DMA instead, straight into place
                zero = conv.padded or bool(space.live_constraints)
                shape, name = (rows, cols), access.buffer
                laid = conv_rows.rows(tiler, conv, space, name, acc, pos, shape, dtype, zero)
                if laid is not None:
                    op.window, op.laid = laid, True
                    return op
            op.window = tiler.read_window(window, at=self._at(tiler, access.buffer))
            return op
        # The matrix is the window itself, starting `src.const` elements into it: before
        # the window's first element when the tile's first points read padding (x - 1).
        align = self.ctx.capacity("UB")[1]
        lead = up(max(-op.src.const, 0) * dtype.byte_size, align) // dtype.byte_size
        op.src = op.src + lead
        room, at = op.src.const + rows * cols, self._at(tiler, access.buffer)
        op.window = tiler.read_window(window, room=room, lead=lead, at=at)
        return op

    def _spread(self, op: _Operand) -> bool:
        """Whether `_matrix` would move the operand's points from its window element by
        element (`moves.choose_path`: rows no whole number of blocks apart)."""
        sizes = op.space.sizes
        run = op.run or next((v for v in reversed(sizes) if sizes[v] > 1), None)
        return choose_path(op.space, run, op.pos, op.src, self.con.dtype) == "spread"

    def _matrix(self, tiler: Tiler, op: _Operand) -> Matrix:
        """The operand's matrix from its window: gathered (img2col), zero at padded K
        positions and at the points the constraints exclude."""
        dtype, mat = self.con.dtype, op.matrix
        total = mat.rows * mat.cols
        mover = self.ctx.mover
        if op.laid:  # already the matrix, zero where no point is
            return dataclasses.replace(mat, buf=op.window)
        if op.window is None:  # no point of this tile touches the operand
            buf = tiler.arena.alloc(total * dtype.byte_size, "matrix")
            tiler.ops.append(mover.fill_all(buf, dtype, total, 0))
            return dataclasses.replace(mat, buf=buf)
        if op.alias:
            buf = offset_buf(op.window, op.src.const * dtype.byte_size)
        else:
            buf = tiler.arena.alloc(total * dtype.byte_size, "matrix")
            if op.holes:
                tiler.ops.append(mover.fill_all(buf, dtype, total, 0))
            src, dst = Placement(op.window, dtype, op.src), Placement(buf, dtype, op.pos)
            sizes = op.space.sizes
            live_run = op.run or next((v for v in reversed(sizes) if sizes[v] > 1), None)
            note = f"{'layout' if op.holes else 'img2col'} {op.name}"
            tiler.move(op.space, live_run, dst, src, (0, total), op.holes, note)
            tiler.arena.release(op.window)
        if op.rect is not None and op.rect.rows > 1 and op.space.live_constraints:
            # the points are the window's rows x width: zero the rest of the matrix in bands
            # (a ragged edge tile's columns beyond its width, its rows beyond its rows)
            rows, width = op.rect.rows, op.rect.width
            if width < mat.cols:
                tiler.ops.append(mover.fill_columns(buf, dtype, rows, mat.cols, width, mat.cols))
            if rows < mat.rows:
                rest = offset_buf(buf, rows * mat.cols * dtype.byte_size)
                tiler.ops.append(mover.fill_all(rest, dtype, (mat.rows - rows) * mat.cols, 0))
        elif op.space.live_constraints:
            if op.run is None:
                raise NotCube("excluded points in a one-column matrix")
            zero = mover.fill_invalid(op.space, op.run, Placement(buf, dtype, op.pos), 0, "zero")
            if zero is not None:
                tiler.ops.append(zero)
        if mat.k_rows and mat.rows > op.n_rows:
            pad = (mat.rows - op.n_rows) * mat.cols
            start = offset_buf(buf, op.n_rows * mat.cols * dtype.byte_size)
            tiler.ops.append(mover.fill_all(start, dtype, pad, 0))
        elif not mat.k_rows and mat.cols > op.n_cols:
            tiler.ops.append(
                mover.fill_columns(buf, dtype, op.n_rows, mat.cols, op.n_cols, mat.cols)
            )
        return dataclasses.replace(mat, buf=buf)

    def _to_fp16(self, tiler: Tiler, matrix: Buf, elems: int) -> list[Buf]:
        """The matrix as fp16 parts: itself (fp16 programs) or hi and lo (the fp32 split)."""
        if not self.con.split:
            return [matrix]
        values = ValueEmitter(elems, self.ctx.repeat_bytes, tiler.arena, tiler.ops, "split")
        x = Val("vec", DType.FP32, matrix)
        hi = values.alloc_vec(DType.FP16, "hi")
        back = values.alloc_vec(DType.FP32, "hi as fp32")
        lo = values.alloc_vec(DType.FP16, "lo")
        values.convert(hi, x)
        values.convert(back, hi)
        values.binary("vsub", back, x, back)
        values.with_scalar("vmuls", back, back, float(2**SPLIT_SHIFT))
        values.convert(lo, back)
        tiler.arena.release(back.buf)  # type: ignore[arg-type]
        return [hi.buf, lo.buf]  # type: ignore[list-item]

    def _to_l1(self, ub: Buf, mat: Matrix, l1: Buf) -> Op:
        """Row-major fp16 matrix in UB -> L1 as column strips of fractals: fractal (strip c,
        row block r) at index `c * rows/fr + r`, `fr x f` (the matrix's `frac`) within."""
        fr, f = mat.frac
        strips = mat.cols // f
        if mat.ko_major:  # fractal (ko, no) at ko * No + no: fr rows of one fractal row each
            stmts = [
                call(
                    "copy_ubuf_to_cbuf",
                    l1.ptr(DType.FP16, (ko * strips + no) * fr * f * 2),
                    ub.ptr(DType.FP16, (ko * fr * mat.cols + no * f) * 2),
                    0,
                    fr,
                    f * 2 // BLOCK,
                    (strips - 1) * f * 2 // BLOCK,
                    0,
                )
                for ko in range(mat.rows // fr)
                for no in range(strips)
            ]
            reads = (ub.region(0, mat.rows * mat.cols * 2),)
            return Op("PIPE_MTE3", tuple(stmts), reads, (l1.region(),), "to L1")
        stmts = [
            call(
                "copy_ubuf_to_cbuf",
                l1.ptr(DType.FP16, k * mat.rows * f * 2),
                ub.ptr(DType.FP16, k * f * 2),
                0,
                mat.rows,
                f * 2 // BLOCK,
                (strips - 1) * f * 2 // BLOCK,
                0,
            )
            for k in range(strips)
        ]
        reads = (ub.region(0, mat.rows * mat.cols * 2),)
        return Op("PIPE_MTE3", tuple(stmts), reads, (l1.region(),), "to L1")

    def _to_l0(
        self,
        which: str,
        mat: Matrix,
        l1: Buf,
        l0: Buf,
        ks: tuple[int, int],
        ms: tuple[int, int] | None = None,
    ) -> Op:
        """L1 strips -> L0A `[Mo][Ko]` (`which` "a") or L0B `[Ko][No]` ("b") fractals, in the
        Cube's orientation ([m][k] and [n][k] within a fractal), of the K fractals
        `ks` = [k0, k1) of the matrix (and of A, its fractal rows `ms`)."""
        f, fk = self.fm if which == "a" else self.fn, self.fk
        frac_bytes = f * fk * 2
        intr = "load_cbuf_to_ca" if which == "a" else "load_cbuf_to_cb"
        outer = (mat.cols if mat.k_rows else mat.rows) // f
        ko = (mat.rows if mat.k_rows else mat.cols) // fk
        k0, k1 = ks
        kn = k1 - k0
        # (destination fractal, source fractal, count, source stride, transpose) runs
        runs: list[tuple[int, int, int, int, int]] = []
        m0, m1 = ms if ms is not None else (0, outer)
        if which == "a" and not mat.k_rows:  # L1 (ko, mo) at ko*Mo + mo
            runs = [((m - m0) * kn, k0 * outer + m, kn, outer, 0) for m in range(m0, m1)]
        elif which == "a" and kn == ko:  # L1 (mo, ko) at mo*Ko + ko, stored [k][m]
            runs = [(0, m0 * ko, (m1 - m0) * ko, 1, 1)]
        elif which == "a":
            runs = [((m - m0) * kn, m * ko + k0, kn, 1, 1) for m in range(m0, m1)]
        elif not mat.k_rows or mat.ko_major:  # L1 (ko, no) at ko*No + no ([n][k] or [k][n])
            runs = [(0, k0 * outer, outer * kn, 1, int(mat.k_rows))]
        else:  # L1 (no, ko) at no*Ko + ko, stored [k][n]
            runs = [((k - k0) * outer, k, outer, ko, 1) for k in range(k0, k1)]
        stmts = []
        for dst, src, count, stride, transpose in runs:
            for r0 in range(0, count, MAX_REPEAT):
                stmts.append(
                    call(
                        intr,
                        l0.ptr(DType.FP16, (dst + r0) * frac_bytes),
                        l1.ptr(DType.FP16),
                        src + r0 * stride,
                        min(MAX_REPEAT, count - r0),
                        stride,
                        0,
                        transpose,
                    )
                )
        return Op("PIPE_MTE1", tuple(stmts), (l1.region(),), (l0.region(),), f"{which} fractals")

    def _fp16_to_l1(
        self, tiler: Tiler, which: str, mat: Matrix, l1: Arena, name: str | None
    ) -> list[Buf]:
        """The matrix's fp16 parts, converted in UB, in new L1 buffers of `l1`: where the
        pipeline placed `name`'s L1 copy when they fit there (None: anywhere)."""
        assert mat.buf is not None
        fp16 = self._to_fp16(tiler, mat.buf, mat.rows * mat.cols)
        sizes = [mat.rows * mat.cols * 2] * len(fp16)
        if name is None:
            parts = [l1.alloc(size, f"{which} in L1") for size in sizes]
        else:
            parts = self._cube_bufs(l1, name, sizes, f"{which} in L1")
        for part, buf in zip(fp16, parts, strict=True):
            self.ops.extend(self._fractals_to_l1(tiler, part, mat, buf))
        return parts

    def _fractals_to_l1(self, tiler: Tiler, ub: Buf, mat: Matrix, l1: Buf) -> list[Op]:
        """`_to_l1`, except for a `ko_major` matrix of more than two fractals whose fractal
        rows are one 32-B block each: the vector unit first lays the fractals out in UB as
        L1 takes them (`ko_major_image`: one block-strided copy per fractal column and 8
        rows of a fractal, all K blocks at once), then one transfer copies them to L1,
        rather than one transfer per fractal (each paying MTE3's latency)."""
        fr, f = mat.frac
        fractals = mat.rows // fr * (mat.cols // f)
        per = self.ctx.repeat_bytes // BLOCK  # blocks a vector repeat moves
        if not mat.ko_major or f * 2 != BLOCK or fr % per or fractals <= 2:
            return [self._to_l1(ub, mat, l1)]
        nbytes = mat.rows * mat.cols * 2
        try:
            image = tiler.arena.alloc(nbytes, "fractals")
        except OutOfMemory:
            return [self._to_l1(ub, mat, l1)]
        tiler.arena.release(image)  # read by the copy below, ordered by its flags
        stmts = ko_major_image(image, ub, mat.rows, mat.cols, fr, f, self.ctx.repeat_bytes)
        reads = (ub.region(0, nbytes),)
        lay = Op("PIPE_V", tuple(stmts), reads, (image.region(0, nbytes),), "fractals")
        stmt = call(
            "copy_ubuf_to_cbuf",
            l1.ptr(DType.FP16),
            image.ptr(DType.FP16),
            0,
            1,
            nbytes // BLOCK,
            0,
            0,
        )
        to_l1 = Op("PIPE_MTE3", (stmt,), (image.region(0, nbytes),), (l1.region(),), "to L1")
        return [lay, to_l1]

    def _resident_a(self, tiler: Tiler, read: _Operand, step: int) -> None:
        """Step `step` of the left operand into its L1 residency."""
        assert self.resident is not None
        mat = self._matrix(tiler, read)
        parts = self._fp16_to_l1(tiler, "a", mat, self.resident.arena(step), None)
        self.resident.steps[step] = (mat, parts)

    def conv_layout(self, k_tile: dict) -> img2col.ConvLayout | None:
        """The roles of the left operand's indices when it reads a feature map through a
        convolution window (`img2col`), else None."""
        if self.fk != self.fm:
            return None  # img2col writes fm x fk fractals of fk channels: kept square here
        sizes = {**self.sizes, **{v: n for v, (_, n) in k_tile.items()}}
        shape = self.ctx.buffers[self.con.a.buffer].shape
        return img2col.layout(shape, self.con.a.offset, self.con.m, self.con.k, sizes, self.fk)

    def _shared_window(self, k_tiles: list[dict], parity: int) -> tuple[Window, Buf] | None:
        """The left operand's GM window for all the tile's K steps, in L1 (the tile's slot of
        `weights`, or its place in the core's run of rows, `conv_map_rows`), when the operand
        goes by img2col and it fits: each K step's img2col reads its part of it, so MTE2
        brings it once rather than once per K step (and, in the run, only the rows the
        tiles before it did not bring)."""
        weights = self.weights
        assert weights is not None
        tiler = Tiler(self.ctx, self.ctx.arena("UB", parity), self.ops)
        window = conv_map_rows.shared_window(self, k_tiles, tiler)
        if window is None:
            return None
        nbytes = img2col.l1_bytes(window)
        rows = weights.rows
        if rows is not None:
            lo, hi = rows.window(weights.tile)
            if (lo, hi) != (window.first, window.first + window.width) or window.rows != 1:
                raise conv_map_rows.SlabMiss(f"tile {weights.tile}: its window changed")
            buf = Buf("L1", rows.address(lo), nbytes)
            for k, (start, end) in enumerate(rows.loads(weights.tile)):
                if k == 1:  # the tile's own rows, the deferred weights, the next tile's rows
                    self.ops.extend(self.after_window)
                    self.after_window = []
                part = Window(window.name, start, 1, end - start, end - start)
                at = Buf("L1", rows.address(start), img2col.l1_bytes(part))
                tiler.dma("in", part, at)
            self.ops.extend(self.after_window)
            self.after_window = []
            return window, buf
        slot = weights.window_slot()
        if nbytes > slot.size:
            return None
        buf = slot.alloc(nbytes, "a window in L1")
        tiler.dma("in", window, buf)
        self.ops.extend(self.after_window)
        self.after_window = []
        return window, buf

    def _img2col_window(
        self, tiler: Tiler, conv: img2col.ConvLayout, space: Space, access: Affine
    ) -> tuple[Window, dict[str, int]] | None:
        """The left operand's GM window for img2col and the instruction's parameters: the
        smallest window, else one in rows of the feature map, else one contiguous range (a
        window whose rows skip the map's rows, as a strided conv's K step of one kernel row
        has, is not a map the instruction reads)."""
        name = self.con.a.buffer
        for strides in (None, {conv.row}, set()):
            window = tiler.window(space, name, [access], strides)
            params = img2col.plan(conv, space, window, access, self.rows_m)
            if params is not None:
                return window, params
        return None

    def _img2col_a(
        self, tiler: Tiler, conv: img2col.ConvLayout, k_tile: dict, l1: Arena, parity: int
    ) -> list[Buf] | None:
        """The left operand's fractals in L0A by `img2col_cbuf_to_ca` from its GM window in
        L1 (fp16 parts: the window itself, or its hi and lo parts split in UB), or None (and
        nothing emitted) when the K step's window is not one the instruction reads."""
        con, ctx = self.con, self.ctx
        starts = {**self.starts, **{v: s for v, (s, _) in k_tile.items()}}
        sizes = {**self.sizes, **{v: n for v, (_, n) in k_tile.items()}}
        space = Space(
            {v: sizes[v] for v in (*con.batch, *con.m, *con.k)},
            tuple(self.local(a, starts) for a in con.a_cons),
        )
        if space.is_empty():
            return None
        access = self.local(con.a.offset, starts)
        name, parts = con.a.buffer, 2 if con.split else 1
        params, shared = None, None
        if self.shared is not None:  # the tile's window, in L1 since before its K steps
            window, shared = self.shared
            params = img2col.plan(conv, space, window, access, self.rows_m)
        if params is not None and shared is not None:
            l1_parts = [shared]
        else:
            found = self._img2col_window(tiler, conv, space, access)
            if found is None:
                return None
            window, params = found
            nbytes = img2col.l1_bytes(window)
            l1_parts = self._cube_bufs(l1, name, [nbytes] * parts, "a window in L1")
            if not con.split:
                tiler.dma("in", window, l1_parts[0])
            else:  # the window's fp32 elements split into fp16 hi and lo parts in UB, to L1
                room = up(window.elements, ctx.repeat_bytes // 2)
                ub = tiler.read_window(window, room=room, at=self._at(tiler, name))
                for part, l1_buf in zip(self._to_fp16(tiler, ub, room), l1_parts, strict=True):
                    stmt = call(
                        "copy_ubuf_to_cbuf",
                        l1_buf.ptr(DType.FP16),
                        part.ptr(DType.FP16),
                        0,
                        1,
                        nbytes // BLOCK,
                        0,
                        0,
                    )
                    reads, writes = (part.region(0, nbytes),), (l1_buf.region(),)
                    self.ops.append(Op("PIPE_MTE3", (stmt,), reads, writes, "a window to L1"))
        l0_bytes = params["mFractals"] * params["kFractals"] * self.fm * self.fk * 2
        l0_parts = self._cube_bufs(ctx.arena("L0A", parity), name, [l0_bytes] * parts, "a")
        for l1_buf, l0_buf in zip(l1_parts, l0_parts, strict=True):
            args = [params[key] for key in IMG2COL_PARAMS]
            stmt = call(
                "img2col_cbuf_to_ca", l0_buf.ptr(DType.FP16), l1_buf.ptr(DType.FP16), *args, 0
            )
            reads, writes = (l1_buf.region(),), (l0_buf.region(),)
            self.ops.append(Op("PIPE_MTE1", (stmt,), reads, writes, "a img2col"))
        return l0_parts

    def _k_step(
        self, k_tile: dict, step: int, accumulators: list[Buf], parity: int, cube_parity: int
    ) -> None:
        """K step `step` into `accumulators`, in the UB half of `parity` and the L1, L0A and
        L0B halves of `cube_parity`."""
        con, ctx, res = self.con, self.ctx, self.resident
        tiler = self._tiler(parity)
        cached = res.steps.get(step) if res is not None else None
        weights_l1 = self.weights
        hi = None
        if weights_l1 is not None:
            hi = weights_l1.windows if weights_l1.windows else weights_l1.base
        l1 = ctx.arena("L1", cube_parity, lo=res.streaming if res is not None else 0, hi=hi)
        # A convolution's left operand goes GM -> L1 -> L0A by img2col (not kept resident:
        # its window is what each tile loads).
        conv = self.conv_layout(k_tile) if cached is None else None
        before_a = len(self.ops)
        a_l0 = self._img2col_a(tiler, conv, k_tile, l1, cube_parity) if conv is not None else None
        if a_l0 is None:
            conv = None
        # Both windows first, so that MTE2 brings B while the vector unit gathers A. When A
        # goes to its residency, B's window goes beside A's when both fit the UB share (MTE2
        # brings it while A's strips go to L1), else after A's in the whole share (only the
        # group's first tile pays that, and the K steps can be twice as long).
        read_a = None
        if cached is None and a_l0 is None:
            read_a = self._read(tiler, con.a, con.m, k_tile, con.a_cons)
        if read_a is not None and res is not None:
            self._resident_a(tiler, read_a, step)
            cached, read_a = res.steps[step], None
            mark = len(self.ops)
            try:
                self._products(tiler, l1, k_tile, step, accumulators, cube_parity, cached)
                return
            except OutOfMemory:
                del self.ops[mark:]
            tiler = self._tiler(parity)
            l1 = ctx.arena("L1", cube_parity, lo=res.streaming, hi=hi)
        self._products(
            tiler, l1, k_tile, step, accumulators, cube_parity, cached, conv, a_l0, read_a, before_a
        )

    def _products(
        self,
        tiler: Tiler,
        l1: Arena,
        k_tile: dict,
        step: int,
        accumulators: list[Buf],
        cube_parity: int,
        cached: tuple[Matrix, list[Buf]] | None,
        conv: img2col.ConvLayout | None = None,
        a_l0: list[Buf] | None = None,
        read_a: _Operand | None = None,
        before_a: int = 0,
    ) -> None:
        """The rest of K step `step`: B's window (unless kept in L1), the operands into L1
        (A's: `read_a` from its window, `cached` from its residency, or `a_l0` in L0A by
        img2col with `conv`'s layout), then into L0 (in the halves of `cube_parity`; kept
        weights' loads go first, at `before_a`) and the products."""
        con, init = self.con, step == 0
        weights = self.weights if conv is not None else None
        kept = weights.loaded.get((weights.block, step)) if weights is not None else None
        read_b = None
        if kept is None:
            read_b = self._read(tiler, con.b, con.n, k_tile, con.b_cons, conv)
        mat_a = self._matrix(tiler, read_a) if read_a is not None else None
        mat_b = self._matrix(tiler, read_b) if read_b is not None else None
        in_l1: dict[str, tuple[Matrix, list[Buf], str]] = {}
        whole: dict[str, list[Buf]] = {}  # without sub-steps or M parts: each in L0 whole
        operands = (("a", mat_a, con.a.buffer), ("b", mat_b, con.b.buffer))
        for which, mat, name in operands:
            if which == "a" and a_l0 is not None:
                continue
            if which == "b" and kept is not None:  # the weights, in L1 since an earlier tile
                mat_b, l1_parts = kept
            elif which == "b" and weights is not None:
                assert mat is not None
                mat_b = dataclasses.replace(mat, ko_major=mat.k_rows)
                l1_parts = self._fp16_to_l1(tiler, which, mat_b, weights.arena(step), None)
                weights.loaded[weights.block, step] = (mat_b, l1_parts)
            elif mat is None:  # the left operand, resident in L1 since the group's first tile
                assert cached is not None
                mat_a, l1_parts = cached
            else:
                l1_parts = self._fp16_to_l1(tiler, which, mat, l1, name)
            use = mat_a if which == "a" else mat_b
            assert use is not None
            in_l1[which] = (use, l1_parts, name)
            if (self.sub, self.m_parts) == (1, 1):  # into L0 at once, whole
                ks = (0, (use.rows if use.k_rows else use.cols) // self.fk)
                n0 = len(self.ops)
                whole[which] = self._l0_parts(in_l1[which], which, cube_parity, ks)
                late = weights is not None and (weights.block, step) in weights.late
                if which == "b" and kept is not None and not late:
                    # ready before A's window: loaded first
                    loads = self.ops[n0:]
                    del self.ops[n0:]
                    self.ops[before_a:before_a] = loads
        if conv is not None:
            kp = conv.columns
        else:
            assert mat_a is not None
            kp = mat_a.rows if mat_a.k_rows else mat_a.cols
        # The K step's L0 sub-steps (`sub`): each a range of its K fractals, B's fractals
        # loaded once for the M parts' products (`m_parts`, each with its accumulators), in
        # the L0 halves that alternate with each load: a K step's L1 buffers may be larger
        # than an L0 half.
        ko = kp // self.fk
        per = -(-ko // self.sub)
        if a_l0 is not None and (per < ko or self.m_parts > 1):
            raise OutOfMemory("L0A: an img2col K step takes a whole L0A share")
        if (self.sub, self.m_parts) == (1, 1):
            l0 = {"a": a_l0 or whole["a"], "b": whole["b"]}
            self._mads(accumulators, l0, kp, self.rows_m, init)
            return
        for j, k0 in enumerate(range(0, ko, per)):
            k1 = min(k0 + per, ko)
            b_l0 = self._l0_parts(in_l1.get("b"), "b", cube_parity * self.sub + j, (k0, k1))
            for mi, rows in enumerate(self.m_ranges()):
                if a_l0 is not None:
                    a_parts = a_l0
                else:
                    slot = (cube_parity * self.sub + j) * self.m_parts + mi
                    a_parts = self._l0_parts(in_l1.get("a"), "a", slot, (k0, k1), rows)
                accs = accumulators[mi :: self.m_parts]
                l0 = {"a": a_parts, "b": b_l0}
                m_rows = (rows[1] - rows[0]) * self.fm
                self._mads(accs, l0, (k1 - k0) * self.fk, m_rows, init and j == 0)

    def m_ranges(self) -> list[tuple[int, int]]:
        """The M parts' ranges of fractal rows (`m_parts` of them, as even as they come)."""
        mo = self.rows_m // self.fm
        per = -(-mo // self.m_parts)
        return [(m0, min(m0 + per, mo)) for m0 in range(0, mo, per)]

    def _l0_parts(
        self,
        operand: tuple[Matrix, list[Buf], str] | None,
        which: str,
        parity: int,
        ks: tuple[int, int],
        ms: tuple[int, int] | None = None,
    ) -> list[Buf]:
        """An operand's fp16 parts in L0 (in the half of `parity`): its K fractals `ks` and
        (A) its fractal rows `ms`."""
        assert operand is not None
        use, l1_parts, name = operand
        ctx = self.ctx
        arena = ctx.arena("L0A" if which == "a" else "L0B", parity)
        side = self.fm if which == "a" else self.fn
        outer = (use.cols if use.k_rows else use.rows) // side
        if ms is not None:
            outer = ms[1] - ms[0]
        size = outer * (ks[1] - ks[0]) * side * self.fk * 2
        l0_parts = self._cube_bufs(arena, name, [size] * len(l1_parts), which)
        for l1_buf, dst in zip(l1_parts, l0_parts, strict=True):
            self.ops.append(self._to_l0(which, use, l1_buf, dst, ks, ms))
        return l0_parts

    def _mads(
        self, accumulators: list[Buf], l0: dict[str, list[Buf]], kp: int, m_rows: int, init: bool
    ) -> None:
        """The Cube's products of one L0 sub-step (`kp` of K, `m_rows` of M) into the
        accumulators."""
        con = self.con
        # fp16: C = A.B; split: C0 = Ahi.Bhi, C1 = Ahi.Blo + Alo.Bhi (scaled by 2^11)
        terms = [(0, 0, 0)] if not con.split else [(0, 0, 0), (1, 0, 1), (1, 1, 0)]
        for c_index, ai, bi in terms:
            first = init and (c_index, ai, bi) != (1, 1, 0)
            acc, la, lb = accumulators[c_index], l0["a"][ai], l0["b"][bi]
            stmt = call(
                "mad",
                acc.ptr("float"),
                la.ptr(DType.FP16),
                lb.ptr(DType.FP16),
                m_rows,
                kp,
                self.rows_n,
                int(first),
            )
            reads = [la.region(), lb.region()] + ([] if first else [acc.region()])
            self.ops.append(Op("PIPE_M", (stmt,), tuple(reads), (acc.region(),), "mad"))
