"""The way out of a Cube tile (`GemmResult`, a part of `gemm.Gemm`): the L0C accumulators'
result through UB to GM, by rows or by fractal columns, or into a fused epilogue."""

from __future__ import annotations

from collections.abc import Callable

from plaidc.backends.npu.context import Context
from plaidc.backends.npu.cube_match import Contraction, Epilogue
from plaidc.backends.npu.cube_residency import Resident
from plaidc.backends.npu.cube_store import fractal_columns_store, fractal_columns_window
from plaidc.backends.npu.fractal_layout import fractal_rows
from plaidc.backends.npu.kernels import KLoad, KOp, KStore
from plaidc.backends.npu.moves import Placement, Space, as_one_run
from plaidc.backends.npu.ops import Buf, Op, OutOfMemory, call, hoist_independent
from plaidc.backends.npu.placement import Placed
from plaidc.backends.npu.staging import Tiler
from plaidc.backends.npu.valops import (
    BINARY_INSTR,
    UNARY_INSTR,
    FractalShape,
    Val,
    ValueEmitter,
)
from plaidc.backends.npu.vector import Tile, TileLowering
from plaidc.backends.npu.vtypes import VType
from plaidc.stripe.ir import Affine, DType

SPLIT_SHIFT = 11  # lo parts are scaled by 2^11: an fp16 significand's width


def dense_position(names: tuple[str, ...], sizes: dict[str, int], unit: int) -> Affine:
    pos, stride = Affine(), unit
    for v in reversed(names):
        pos = pos + Affine.var(v, stride)
        stride *= sizes[v]
    return pos


class GemmResult:
    """The store half of `gemm.Gemm`: the tile state it reads is declared here, and the four
    methods below are `Gemm`'s (these bodies never run)."""

    ctx: Context
    con: Contraction
    epilogue: Epilogue | None
    resident: Resident | None
    ops: list[Op]
    tilers: list[Tiler]
    starts: dict[str, int]
    sizes: dict[str, int]
    rows_m: int
    rows_n: int
    fm: int
    fn: int
    m_parts: int
    defer: bool
    deferred: Op | None
    invariants: dict[tuple, Val] | None

    def local(self, aff: Affine, starts: dict[str, int]) -> Affine:
        raise NotImplementedError

    def _at(self, tiler: Tiler, name: str) -> Placed | None:
        raise NotImplementedError

    def _tiler(self, parity: int) -> Tiler:
        raise NotImplementedError

    def m_ranges(self) -> list[tuple[int, int]]:
        raise NotImplementedError

    # -- the result -----------------------------------------------------------------------------

    def _store(self, accumulators: list[Buf], parity: int) -> None:
        """The accumulators' result to GM (or the epilogue), in the UB half of `parity`.

        The next tile's second K step brings its operand windows into this same half while
        this store drains (the K steps alternate halves): the store keeps off the bytes where
        those windows go (their pipeline placements), so that the transfer need not wait for
        the store to finish, when the store fits beside them; otherwise it takes the half."""
        keep = [] if self.epilogue is not None else self._next_windows(parity)
        if keep:
            ops, tilers = len(self.ops), len(self.tilers)
            try:
                self._store_in(self._tiler(parity), accumulators, keep)
                return
            except OutOfMemory:  # planned again without keeping the windows' bytes free
                del self.ops[ops:], self.tilers[tilers:]
        self._store_in(self._tiler(parity), accumulators, [])

    def _next_windows(self, parity: int) -> list[Placed]:
        """Where the pipeline placed, in the UB half of `parity`, the windows a K step reads
        from GM: B's, and A's unless A is resident in L1."""
        names = [self.con.b.buffer] + ([self.con.a.buffer] if self.resident is None else [])
        arena = self.ctx.arena("UB", parity)
        probe = Tiler(self.ctx, arena, [])
        found = [self._at(probe, name) for name in names]
        return [at for at in found if at is not None]

    def _store_in(self, tiler: Tiler, accumulators: list[Buf], keep: list[Placed]) -> None:
        """`_store` in `tiler`'s share of UB, keeping the bytes of `keep` free."""
        con, ctx = self.con, self.ctx
        for window in keep:
            tiler.arena.reserve(window.offset, window.size)
        fm, f = self.fm, self.fn
        mo, no = self.rows_m // fm, self.rows_n // f
        elems = self.rows_m * self.rows_n
        out_t = con.out
        values = ValueEmitter(elems, ctx.repeat_bytes, tiler.arena, tiler.ops, "cube result")
        order = (*con.batch, *con.m, *con.n)
        space = Space(
            {v: self.sizes[v] for v in order},
            tuple(self.local(a, self.starts) for a in con.out_cons),
        )
        pos = dense_position(con.m, self.sizes, self.rows_n) + dense_position(con.n, self.sizes, 1)
        access = self.local(con.store.access.offset, self.starts)
        name = con.store.access.buffer
        columns = None
        if self.epilogue is None and not space.is_empty() and self._rows_crowd(tiler, values):
            columns = fractal_columns_window(tiler, space, name, access, pos, out_t, self.rows_n, f)
        # stored by fractal columns, the result stays in UB until the next tile's K steps
        # are under way (the store is deferred): at the top of the share, clear of their
        # windows (taken from the bottom)
        top = None
        if columns is not None:
            nbytes = values.vec_bytes(out_t)
            top = Placed(
                (tiler.arena.base + tiler.arena.size - nbytes)
                // ctx.repeat_bytes
                * ctx.repeat_bytes,
                nbytes,
            )
        # The output's window goes where the pipeline placed it: the result's rows when they
        # fit there (padded to whole fractals, they are the window the store sends), else
        # the store's staging. The place is kept free of the fractals while there is room
        # for them elsewhere (an fp32 tile's two accumulators may need it).
        at = self._at(tiler, con.store.access.buffer) if self.epilogue is None else None
        kept = at is not None and tiler.arena.reserve(at.offset, at.size)
        # An fp16 result converts on its way out of L0C (CC_MODE_F16): no fp32 copy in UB,
        # no vconv
        on_move = out_t is DType.FP16 and not con.split
        frac_t = DType.FP16 if on_move else DType.FP32
        fractals = []
        start = len(self.ops)  # the first op that waits for the accumulators
        hm = self.m_parts
        for k in range(len(accumulators) // hm):
            accs = accumulators[k * hm : (k + 1) * hm]
            try:
                with values.preferring(top if k == 0 else None):
                    ub = values.alloc_vec(frac_t, "C fractals")
            except OutOfMemory:
                if not kept or at is None:
                    raise
                freed = tiler.arena.claim(at.offset, at.size)  # ends the reservation
                assert freed is not None
                tiler.arena.release(freed)
                kept = False
                ub = values.alloc_vec(frac_t, "C fractals")
            # each M part's [No][rows] fractals into the tile's [No][Mo]
            stmts = []
            for acc, (m0, m1) in zip(accs, self.m_ranges(), strict=True):
                bursts = (1, mo * no, 0) if hm == 1 else (no, m1 - m0, mo - (m1 - m0))
                stmts.append(
                    call(
                        "copy_matrix_cc_to_ubuf",
                        ub.ptr(m0 * fm * f * frac_t.byte_size),
                        acc.ptr("float"),
                        0,
                        bursts[0],
                        bursts[1],
                        0,
                        bursts[2],
                        "CC_MODE_F16" if frac_t is DType.FP16 else "CC_MODE_F32",
                    )
                )
            reads = tuple(acc.region() for acc in accs)
            self.ops.append(Op("PIPE_V", tuple(stmts), reads, (values.region(ub),), "L0C"))
            fractals.append(ub)
        result = fractals[0]
        if con.split:
            values.with_scalar("vmuls", fractals[1], fractals[1], 2.0**-SPLIT_SHIFT)
            values.binary("vadd", result, result, fractals[1])
            tiler.arena.release(fractals[1].buf)  # type: ignore[arg-type]
        if out_t is DType.FP16 and not on_move:
            half = values.alloc_vec(DType.FP16, "C fp16")
            values.convert(half, result)
            tiler.arena.release(result.buf)  # type: ignore[arg-type]
            result = half
        if columns is not None:  # the fractal columns straight to GM (`cube_store`)
            assert result.buf is not None
            store = fractal_columns_store(
                ctx, columns, result.buf, out_t, self.rows_m, self.rows_n, f
            )
            if self.defer:
                self.deferred = store
            else:
                self.ops.append(store)
            return
        fits = at is not None and values.vec_bytes(out_t) <= at.size

        def laid_out() -> Placement:
            """[No][Mo][fm][fn] fractals -> row-major [Mp][Np]"""
            with values.preferring(at if fits else None):
                rows = values.alloc_vec(out_t, "C rows")
            assert rows.buf is not None and result.buf is not None
            rb = ctx.repeat_bytes
            stmts = fractal_rows(rows.buf, result.buf, out_t, self.rows_m, self.rows_n, f, rb)
            reads, writes = (values.region(result),), (values.region(rows),)
            self.ops.append(Op("PIPE_V", tuple(stmts), reads, writes, "C rows"))
            return Placement(rows.buf, out_t, space.fold(pos))

        if self.epilogue is not None:
            first = len(self.ops)
            shape = FractalShape(self.rows_m, self.rows_n, f)
            self._epilogue(tiler, result, shape, space.fold(pos), laid_out, space)
            # the epilogue's loads of its other inputs go before the result's way out of L0C
            hoist_independent(self.ops, start, first)
            return
        live = [v for v in order if self.sizes[v] > 1]
        src = laid_out()
        if not space.is_empty():
            before = len(self.ops)
            run = live[-1] if live else None
            tiler.write_window(space, run, name, access, src, at, exact=True)
            # the result is the window: one transfer, which may be issued later
            if self.defer and len(self.ops) == before + 1 and self.ops[-1].pipe == "PIPE_MTE3":
                self.deferred = self.ops.pop()

    def _rows_crowd(self, tiler: Tiler, values: ValueEmitter) -> bool:
        """Whether the result's fractals and its row-major rows, beside the largest K step's
        windows, overflow the UB share: then the next tile's windows would wait for the
        store, and the result goes to GM by fractal columns (`cube_store`: no rows in UB)
        instead. Not for the split's two accumulators: their sum takes the vector unit
        anyway, and MTE3, busy with both parts' strips, is better off with one transfer."""
        if self.con.split:
            return False
        out_t = self.con.out
        rows = values.vec_bytes(out_t) * 2  # fp16 fractals out of L0C (or fp32's), the rows
        windows = max((t.arena.peak for t in self.tilers[:-1]), default=0)
        return rows + windows > tiler.arena.size

    def _epilogue(
        self,
        tiler: Tiler,
        fractals: Val,
        shape: FractalShape,
        rows_pos: Affine,
        laid_out: Callable[[], Placement],
        space: Space,
    ) -> None:
        """Run the fused elementwise kernel on this tile's result, still in UB: `fractals` as
        they came out of L0C (`shape`), whose row-major rows at `rows_pos` `laid_out` makes.
        Where those rows are the epilogue's layout and its only use of the result is one
        elementwise operation (`_reads_fractals`), that operation reads the fractals itself
        (`ValueEmitter._on_fractals`: no layout copy). Its other inputs that are the same in
        every tile of this core's run (`_invariant`: a bias) are loaded by the first tile
        only and kept in UB for the next ones (`Gemm.invariants`, their bytes held out of
        every arena meanwhile: `Context.held`)."""
        ep = self.epilogue
        assert ep is not None and fractals.dtype is not None and fractals.buf is not None
        names = ep.names
        tile = Tile(
            {names[v]: self.starts[v] for v in space.sizes},
            {names[v]: self.sizes[v] for v in space.sizes},
        )
        keys = _invariant(ep, tile) if self.invariants is not None else {}
        cache = self.invariants if self.invariants is not None else {}
        bound = {name: cache[key] for name, key in keys.items() if key in cache}
        lowering = TileLowering(
            self.ctx, ep.kernel, ep.plan, tile, tiler.arena, own_share=False, keep=frozenset(keys)
        )
        renamed = rows_pos.substitute({v: Affine.var(names[v]) for v in space.sizes})
        layout = lowering.space.fold(lowering.pos)
        flat = as_one_run(lowering.space, layout, renamed)
        dtype = fractals.dtype
        same = flat is not None and flat[2] == flat[3]
        values = lowering.values
        if same and _reads_fractals(ep, dtype) and values.fractal_rows(shape, dtype) is not None:
            # the fractals' bytes stay taken, as the laid-out rows leave them: the epilogue's
            # values go above them, clear of the next tile's windows (taken from the bottom)
            lowering.keep = lowering.keep | {ep.buffer}
            input_ = Val("vec", dtype, fractals.buf, fractal=shape)
            lowering.bound = {**bound, ep.buffer: input_}
            self.ops.extend(lowering.lower())
            self._hold(keys, lowering.kept)
            return
        result = laid_out()
        if same and values.vec_bytes(dtype) <= result.buf.size:
            # the result's rows are the epilogue's layout already: its input, as they are
            lowering.bound = {**bound, ep.buffer: Val("vec", dtype, result.buf)}
            self.ops.extend(lowering.lower())
            self._hold(keys, lowering.kept)
            return
        value = values.alloc_vec(dtype, "fused input")
        assert value.buf is not None
        dst = Placement(value.buf, dtype, layout)
        live = [v for v in ep.plan.out if tile.sizes[v] > 1]
        src = Placement(result.buf, dtype, renamed)
        run = live[-1] if live else None
        moved = lowering.space
        if flat is not None:  # one copy where the two lay the tile out alike
            moved, run, d, s = flat
            dst, src = Placement(dst.buf, dst.dtype, d), Placement(src.buf, src.dtype, s)
        tiler.move(moved, run, dst, src, (0, lowering.n), False, "to the epilogue")
        lowering.bound = {**bound, ep.buffer: value}
        self.ops.extend(lowering.lower())
        self._hold(keys, lowering.kept)

    def _hold(self, keys: dict[str, tuple], kept: dict[str, Val]) -> None:
        """Keep the invariant inputs this tile loaded for the next tiles of its core."""
        if self.invariants is None:
            return
        for name, key in keys.items():
            val = kept.get(name)
            if key in self.invariants or val is None or val.buf is None:
                continue
            self.invariants[key] = val
            self.ctx.held.append(val.buf)


FRACTAL_READERS = frozenset({*BINARY_INSTR, *UNARY_INSTR, "neg"})


def _reads_fractals(ep: Epilogue, dtype: DType) -> bool:
    """Whether the epilogue reads the Cube's result (`dtype` lanes) once, by one elementwise
    operation of that type (`FRACTAL_READERS`; its other operand a scalar or a vector of the
    same type), so that the operation can read it as fractals (`ValueEmitter._on_fractals`):
    nothing else sees its layout."""
    kernel, types = ep.kernel, ep.plan.types
    loads = [ld for ld in kernel.loads() if ld.access.buffer == ep.buffer]
    if len(loads) != 1:
        return False
    x = loads[0].dst
    users = [
        st
        for st in kernel.body
        if (isinstance(st, KOp) and x in st.args) or (isinstance(st, KStore) and st.src == x)
    ]
    if len(users) != 1 or not isinstance(users[0], KOp):
        return False
    op = users[0]
    if op.op not in FRACTAL_READERS or op.args.count(x) != 1:
        return False

    def plain(t: VType) -> bool:
        return t.kind == "vec" and t.dtype is dtype and not t.boolean and t.narrow is None

    others = [types[a] for a in op.args if a != x]
    return plain(types[op.dst]) and all(t.is_scalar or plain(t) for t in others)


def _invariant(ep: Epilogue, tile: Tile) -> dict[str, tuple]:
    """The epilogue's inputs (other than the Cube's result) whose value in the tile's layout
    is the same in every tile of this size with the same starts of the indices they read:
    buffer -> that key. Only for an epilogue without constraints (no tile-dependent mask),
    and inputs loaded once and used only by operations (a store could take the buffer)."""
    kernel = ep.kernel
    if kernel.constraints or ep.plan.red:
        return {}
    loads: dict[str, list[KLoad]] = {}
    for load in kernel.loads():
        loads.setdefault(load.access.buffer, []).append(load)
    direct = {s.src for s in kernel.stores()} | {
        a
        for st in kernel.body
        if isinstance(st, KOp) and st.op in ("assign", "ident")
        for a in st.args
    }
    sizes = tuple(sorted(tile.sizes.items()))
    keys: dict[str, tuple] = {}
    for name, group in loads.items():
        if name == ep.buffer or len(group) != 1 or group[0].dst in direct:
            continue
        access = group[0].access.offset
        read = tuple(sorted((v, s) for v, s in tile.starts.items() if access.coeff(v)))
        keys[name] = (name, access, sizes, read)
    return keys
