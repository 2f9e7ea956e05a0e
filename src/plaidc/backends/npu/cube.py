"""Contractions on the Cube: `O[m.., n..] = +(A[m.., k..] * B[k.., n..])` as fractal GEMMs.

A kernel whose one store sums products of two loads is a matrix product once its indices are
sorted by role: M (output indices B does not use), N (output indices only B uses), K (the
reduced indices) and batch (output indices both operands use, one GEMM per value). For each
tile (a batch point, a block of M and of N, and a K step):

1. each operand is gathered from its GM window into a row-major matrix in UB, rows M (or N)
   by columns K, with the columns padded to the fractal size and zero there and at points the
   constraints exclude; a convolution becomes a GEMM this way (img2col, AKG's Eq. 1), since the
   gather follows any affine access;
2. the matrices become fp16 (see below), MTE3 copies them to L1 as 16-row column strips
   (`[Ko][Mo][16][16]`: each strip of 16 columns, one 32-B burst per row), MTE1 loads the
   fractals into L0A (`[Mo][Ko]`) and L0B (`[Ko][No]`, B's rows being N: already n-major);
3. `mad` accumulates into L0C over the K steps (`init` on the first);
4. the vector unit brings L0C to UB, turns the `[No][Mo][16][16]` fractals into row-major rows
   with one masked copy per fractal column, and the result is stored like any vector value.

Precision. The Cube multiplies fp16 by fp16 into fp32. fp16 programs use it directly (exact
products, fp32 accumulation, as numpy's fp16 matmul; the interpreter rounds each product to
fp16 first). fp32
programs (`[codegen] fp32_contraction = "split"`, the default) split each operand
`x = hi + lo * 2^-11` with `hi = fp16(x)`, `lo = fp16((x - hi) * 2^11)` and compute
`A_hi B_hi + 2^-11 (A_hi B_lo + A_lo B_hi)` in two L0C accumulators: each operand carries 22
significant bits and the dropped `A_lo B_lo` term is 2^-22 relative, so results match fp32 at
its tolerance for inputs in fp16's normal range. Outside it the split is wrong, silently (the
data is only known at run time): |x| > 65504 overflows to inf (NaN results), and |x| below
~6e-5 falls into fp16 subnormals: 1e-6-scale inputs lose about 1e-3 relative, 1e-8-scale ones
everything (hi is 0 or one subnormal step, and the dropped lo * lo term dominates: even the
sign of a product of 1e-8 values can come out wrong). `plaidc run
--check` compares such outputs at fp16 tolerance (`NpuArtifact.reduced_precision`).
`fp32_contraction = "vector"` keeps fp32 contractions on the vector unit (exact fp32 products,
no range limit, much slower). A fix would scale rows of A and columns of B by powers of two
computed at run time, consistently over all K steps.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass

from plaidc.backends.npu.context import Context
from plaidc.backends.npu.kernels import Access, KConst, Kernel, KLoad, KOp, KStore
from plaidc.backends.npu.moves import Placement, Space
from plaidc.backends.npu.ops import (
    Arena,
    Buf,
    Op,
    OutOfMemory,
    call,
    comment,
    elems_per_block,
    lit,
    offset_buf,
)
from plaidc.backends.npu.ops import round_up as up
from plaidc.backends.npu.placement import Placed
from plaidc.backends.npu.staging import Tiler
from plaidc.backends.npu.valops import Val, ValueEmitter
from plaidc.backends.npu.vector import (
    Lowered,
    Plan,
    Tile,
    TileLowering,
    analyse,
    cut_further,
    pipeline_tiles_first,
    placement_note,
    tile_comment,
    var_tilings,
)
from plaidc.backends.npu.vtypes import infer
from plaidc.stripe.ir import Affine, DType

SPLIT_SHIFT = 11  # lo parts are scaled by 2^11: an fp16 significand's width


@dataclass(frozen=True)
class Contraction:
    a: Access
    b: Access
    store: KStore
    m: tuple[str, ...]
    n: tuple[str, ...]
    k: tuple[str, ...]
    batch: tuple[str, ...]
    a_cons: tuple[Affine, ...]
    b_cons: tuple[Affine, ...]
    out_cons: tuple[Affine, ...]
    dtype: DType  # of both operands
    split: bool
    out: DType  # of the output: the operands' type, or fp32 for fp16 operands (L0C's type)


def recognise(ctx: Context, kernel: Kernel) -> Contraction | None:
    """The kernel as a Cube contraction, or None when it is not one (or the options say no)."""
    stores = kernel.stores()
    mach = ctx.machine
    square = mach.cube_m == mach.cube_n == mach.cube_k and mach.cube_m * 2 % 32 == 0
    if len(stores) != 1 or stores[0].agg != "add" or not square:
        return None
    store = stores[0]
    defs = {s.dst: s for s in kernel.body if isinstance(s, (KLoad, KOp))}
    types = infer(kernel, ctx.buffers)

    def widening(stmt: KOp) -> bool:  # fp16 -> fp32: the Cube's exact fp16 products
        return (
            stmt.op == "as_float"
            and types[stmt.dst].dtype is DType.FP32
            and types[stmt.args[0]].dtype is DType.FP16
        )

    def through(name: str) -> KLoad | KOp | None:
        stmt = defs.get(name)
        while isinstance(stmt, KOp) and (stmt.op in ("assign", "ident") or widening(stmt)):
            stmt = defs.get(stmt.args[0])
        return stmt

    product = through(store.src)
    if not isinstance(product, KOp) or product.op != "mul" or len(product.args) != 2:
        return None
    a, b = through(product.args[0]), through(product.args[1])
    if not isinstance(a, KLoad) or not isinstance(b, KLoad):
        return None
    dtype = types[product.dst].dtype
    stored = ctx.storage[store.access.buffer]
    operands = {ctx.storage[a.access.buffer], ctx.storage[b.access.buffer]}
    exact = operands == {DType.FP16} and dtype is DType.FP32
    if exact:
        dtype = DType.FP16  # products of fp16 operands made exact in fp32: fp16 on the Cube
    # an fp16 product (rounded, as Stripe computes it) may only be stored as fp16
    if operands != {dtype} or stored not in ((dtype, DType.FP32) if exact else (dtype,)):
        return None
    if dtype is DType.FP32 and ctx.options.fp32_contraction != "split":
        return None
    if dtype is DType.FP16 and ctx.options.fp16_contraction != "cube":
        return None
    if dtype not in (DType.FP16, DType.FP32):
        return None
    out = set(store.access.offset.names())
    used_a, used_b = set(a.access.offset.names()), set(b.access.offset.names())
    red = [v for v, _ in kernel.idxs if v not in out]
    if not red:
        return None
    order = {v: k for k, (v, _) in enumerate(kernel.idxs)}

    def by(aff: Affine, names: set[str]) -> tuple[str, ...]:
        return tuple(sorted(names, key=lambda v: (-abs(aff.coeff(v)), order[v])))

    m_vars = by(store.access.offset, out - used_b)
    n_vars = by(store.access.offset, (out & used_b) - used_a)
    batch = by(store.access.offset, out & used_a & used_b)
    k_vars = by(a.access.offset, set(red))
    if not m_vars and not n_vars:
        return None  # dot products (one per batch point): 1 x 1 GEMMs, the vector unit's
    a_side, b_side = set(m_vars) | set(k_vars), set(n_vars) | set(k_vars)
    a_cons: list[Affine] = []
    b_cons: list[Affine] = []
    out_cons: list[Affine] = []
    for con in kernel.constraints:
        # a constraint bounds every matrix whose indices it names: one on M alone (a ragged
        # last tile) bounds A's rows as well as C's, one on K alone both operands
        names = set(con.names()) - set(batch)
        bounded = False
        for side, found in ((out, out_cons), (a_side, a_cons), (b_side, b_cons)):
            if names <= side:
                found.append(con)
                bounded = True
        if not bounded:
            return None  # couples M, N and K: not a product of two matrices
    return Contraction(
        a.access,
        b.access,
        store,
        m_vars,
        n_vars,
        k_vars,
        batch,
        tuple(a_cons),
        tuple(b_cons),
        tuple(out_cons),
        dtype,
        dtype is DType.FP32,
        stored,
    )


def lower_contraction(
    ctx: Context, kernel: Kernel, epilogue: Epilogue | None = None
) -> list[Op] | None:
    """The kernel on the Cube (with `epilogue` fused after it), or None (use the vector unit)
    when it is not a contraction or no tiling fits."""
    con = recognise(ctx, kernel)
    if con is None:
        return None
    return pipeline_tiles_first(
        kernel, lambda pinned: _lower_tiled(ctx, kernel, con, epilogue, pinned)
    )


def _lower_tiled(
    ctx: Context,
    kernel: Kernel,
    con: Contraction,
    epilogue: Epilogue | None,
    pinned: tuple[str, ...],
) -> Lowered | None:
    """The contraction on the first tiling (fewest tiles first, `pinned` indices one point
    per tile) whose tiles fit every buffer, or None."""
    ranges = kernel.ranges
    frac = ctx.machine.cube_m
    limit = ctx.options.max_tiles
    m_tilings = var_tilings(con.m, ranges, dict.fromkeys(con.m, frac), limit, pinned)
    n_tilings = var_tilings(con.n, ranges, dict.fromkeys(con.n, frac), limit, pinned)
    k_tilings = var_tilings(con.k, ranges, dict.fromkeys(con.k, frac), limit, pinned)
    batches = list(itertools.product(*[range(ranges[v]) for v in con.batch]))
    choices = sorted(
        itertools.product(range(len(m_tilings)), range(len(n_tilings)), range(len(k_tilings))),
        key=lambda c: (len(m_tilings[c[0]]) * len(n_tilings[c[1]]) * len(k_tilings[c[2]]), c),
    )

    def extent(tilings: list[list[dict]], index: int) -> int:
        return _count(tuple(tilings[index][0]), {v: n for v, (_, n) in tilings[index][0].items()})

    def fits(mi: int, ni: int, ki: int) -> bool:
        m, n, k = extent(m_tilings, mi), extent(n_tilings, ni), extent(k_tilings, ki)
        uses = len(n_tilings[ni])
        resident = _resident_bytes(ctx, con, m_tilings[mi][0], k_tilings[ki], uses) is not None
        tile = {**m_tilings[mi][0], **n_tilings[ni][0], **k_tilings[ki][0]}
        sizes = {v: n for v, (_, n) in tile.items()}
        return _fits(ctx, con, m, n, k, resident) and _windows_fit(ctx, con, sizes)

    fitting = [(mi, ni, ki) for mi, ni, ki in choices if fits(mi, ni, ki)]
    for mi, ni, ki in fitting[:32]:
        count = len(batches) * len(m_tilings[mi]) * len(n_tilings[ni])
        if count * len(k_tilings[ki]) > ctx.options.max_tiles:
            continue
        first = ctx.tiles
        tiles = [
            ({v: (x, 1) for v, x in zip(con.batch, batch, strict=True)} | mt, nt)
            for batch in batches
            for mt, nt in itertools.product(m_tilings[mi], n_tilings[ni])
        ]
        first_tile = tiles[0][0] | tiles[0][1] | k_tilings[ki][0]
        sizes = {v: n for v, (_, n) in first_tile.items() if v not in con.batch}
        cut = cut_further(sizes, ranges, pinned)
        # the pipeline's UB placement holds for its own tiles (the epilogue's are its own)
        own = pinned == kernel.pinned and not cut and epilogue is None
        placed = dict(kernel.placed) if own else {}
        try:
            ops: list[Op] = []
            honoured: set[str] = set()
            resident: _Resident | None = None
            for k, (outer, nt) in enumerate(tiles):
                tile = outer | nt
                if len(tiles) > 1:
                    starts = {v: s for v, (s, _) in tile.items()}
                    sizes = {v: n for v, (_, n) in tile.items()}
                    ops.append(tile_comment(k, len(tiles), starts, sizes, ranges))
                if resident is None or resident.outer != outer:
                    resident = _resident(ctx, con, outer, k_tilings[ki], len(n_tilings[ni]))
                gemm = Gemm(ctx, kernel, con, tile, epilogue, resident, placed)
                ops.extend(gemm.lower(k_tilings[ki]))
                if k == 0:
                    honoured = gemm.honoured
            if placed:
                ops.insert(1 if len(tiles) > 1 else 0, comment(placement_note(kernel, honoured)))
            return ops, cut
        except OutOfMemory:
            ctx.tiles = first
        except _NotCube:
            ctx.tiles = first
            return None
    return None


def _fits(ctx: Context, con: Contraction, m: int, n: int, k: int, resident: bool) -> bool:
    """Whether a GEMM tile of m x n x k plausibly fits every buffer's share (a filter on the
    tilings to try; planning the tile decides). With A `resident` in L1, the tile's own L1
    buffers get half of L1, and A and B take UB one after the other."""
    mach, share = ctx.machine, ctx.options.buffering
    f = mach.cube_m
    mp, np_, kp = up(m, f), up(n, f), up(k, f)
    parts = 2 if con.split else 1
    size = con.dtype.byte_size
    per_elem = size + (2 + 4 + 2 if con.split else 0)
    steps = [mp * kp * per_elem + m * k * size, np_ * kp * per_elem + n * k * size]
    ub_step = max(steps) if resident else sum(steps)
    ub_out = max(parts, 2) * mp * np_ * 4
    l1_tile = parts * (np_ if resident else mp + np_) * kp * 2
    return (
        parts * mp * kp * 2 <= mach.l0a_bytes // share
        and parts * np_ * kp * 2 <= mach.l0b_bytes // share
        and parts * mp * np_ * 4 <= mach.l0c_bytes // share
        and l1_tile <= mach.l1_bytes // (2 if resident else 1) // share
        and max(ub_step, ub_out) <= mach.ub_bytes // share
    )


def _windows_fit(ctx: Context, con: Contraction, sizes: dict[str, int]) -> bool:
    """Whether each operand's GM window fits UB's share when it cannot be read in rows: with
    no stride a whole number of 32-B blocks, the window (`staging`) is the contiguous span of
    the tile's elements, whole rows of the matrix included (a 16 x 16 tile of a 1030-wide
    matrix spans 16 of its rows)."""
    share = ctx.machine.ub_bytes // ctx.options.buffering
    size = con.dtype.byte_size
    for access in (con.a, con.b):
        terms = [(v, k) for v, k in access.offset.terms if sizes.get(v, 1) > 1]
        strides = [abs(k) for _, k in terms if abs(k) > 1]
        if not strides or any(k * size % 32 == 0 for k in strides):
            continue  # in rows of whole blocks (or one run): `_fits` counts the window
        span = 1 + sum(abs(k) * (sizes.get(v, 1) - 1) for v, k in terms)
        if span * size > share:
            return False
    return True


_Tile = dict[str, tuple[int, int]]  # index -> (start, extent)


@dataclass
class _Resident:
    """The left operand's fp16 parts in L1 for every K step of the output tiles that share
    it (one batch point and M block, `outer`): the first of them loads and converts it, the
    others only bring its fractals from L1 to L0A. Groups alternate between the halves of
    the lower half of L1 (`arena`), so the next group's operand loads while this one's last
    tile computes; the tiles' own L1 buffers live in the upper half."""

    outer: _Tile
    arena: Arena
    streaming: int  # where the tiles' own L1 buffers start
    steps: dict[int, tuple[Matrix, list[Buf]]] = dataclasses.field(default_factory=dict)


def _resident(
    ctx: Context, con: Contraction, outer: _Tile, k_tiles: list[_Tile], uses: int
) -> _Resident | None:
    """A residency for the left operand of the tiles sharing `outer`, when `[codegen] reuse`
    is on, more than one tile uses it and all its K steps fit a quarter of L1 (an eighth
    with single buffering: half of L1 stays for the tiles' own transfers)."""
    half = _resident_bytes(ctx, con, outer, k_tiles, uses)
    if half is None:
        return None
    arena = ctx.arena("L1", parity=ctx.groups, hi=half)
    ctx.groups += 1
    return _Resident(outer, arena, half)


def _resident_bytes(
    ctx: Context, con: Contraction, outer: _Tile, k_tiles: list[_Tile], uses: int
) -> int | None:
    """Where L1's residencies end (its half), or None when the left operand of the tiles
    sharing `outer` is not to be resident (see `_resident`)."""
    if not ctx.options.reuse or uses < 2:
        return None
    size, align = ctx.capacity("L1")
    half = size // 2 // align * align
    f = ctx.machine.cube_m
    rows = up(_count(con.m, {v: n for v, (_, n) in outer.items() if v in con.m}), f)
    parts = 2 if con.split else 1
    need = sum(
        up(parts * rows * up(_count(con.k, {v: n for v, (_, n) in kt.items()}), f) * 2, align)
        for kt in k_tiles
    )
    return half if need <= half // ctx.options.buffering // align * align else None


def _dense(names: tuple[str, ...], sizes: dict[str, int], unit: int) -> Affine:
    pos, stride = Affine(), unit
    for v in reversed(names):
        pos = pos + Affine.var(v, stride)
        stride *= sizes[v]
    return pos


def _count(names: tuple[str, ...], sizes: dict[str, int]) -> int:
    total = 1
    for v in names:
        total *= sizes[v]
    return total


class _NotCube(Exception):
    """This tile has a shape the Cube lowering does not handle; use the vector unit."""


@dataclass(frozen=True)
class Matrix:
    """An operand in UB: `rows x cols` (both padded to the fractal size), row-major; its rows
    are K when `k_rows`."""

    k_rows: bool
    rows: int
    cols: int
    buf: Buf | None


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


class Gemm:
    """One output tile of a contraction: K steps into one L0C accumulator, then the store."""

    def __init__(
        self,
        ctx: Context,
        kernel: Kernel,
        con: Contraction,
        tile: dict,
        epilogue: Epilogue | None = None,
        resident: _Resident | None = None,
        placed: dict[str, Placed] | None = None,
    ) -> None:
        self.ctx, self.kernel, self.con, self.epilogue = ctx, kernel, con, epilogue
        self.resident = resident
        # where the pass pipeline placed the tile's UB windows, in a share of UB
        self.placed = placed or {}
        self.tilers: list[Tiler] = []  # those given a placement
        self.frac = ctx.machine.cube_m
        self.starts = {v: s for v, (s, _) in tile.items()}
        self.sizes = {v: n for v, (_, n) in tile.items()}
        self.rows_m = up(_count(con.m, self.sizes), self.frac)
        self.rows_n = up(_count(con.n, self.sizes), self.frac)
        self.ops: list[Op] = []

    def local(self, aff: Affine, starts: dict[str, int]) -> Affine:
        return aff.substitute({v: Affine.var(v) + s for v, s in starts.items() if s})

    def lower(self, k_tiles: list[dict]) -> list[Op]:
        con, ctx = self.con, self.ctx
        l0c = ctx.arena("L0C", parity=self.ctx.tiles)
        mo, no = self.rows_m // self.frac, self.rows_n // self.frac
        c_bytes = mo * no * self.frac * self.frac * 4
        accumulators = [l0c.alloc(c_bytes, "C") for _ in range(2 if con.split else 1)]
        for step, k_tile in enumerate(k_tiles):
            self._k_step(k_tile, step, accumulators)
            ctx.tiles += 1
        self._store(accumulators)
        ctx.tiles += 1
        return self.ops

    def _at(self, tiler: Tiler, name: str) -> Placed | None:
        """Where the pipeline placed buffer `name`'s window, in `tiler`'s share of UB (in
        whole vector repeats, as `place` sized it), or None. The tiler reports whether the
        window went there (`honoured`)."""
        at = self.placed.get(name)
        if at is None:
            return None
        arena, rb = tiler.arena, self.ctx.repeat_bytes
        self.tilers.append(tiler)
        placed = Placed(arena.base + at.offset, up(at.size, rb))
        return placed if placed.offset + placed.size <= arena.base + arena.size else None

    @property
    def honoured(self) -> set[str]:
        """The windows this tile put where the pass pipeline placed them."""
        return {name for tiler in self.tilers for name in tiler.honoured}

    # -- one K step -----------------------------------------------------------------------------

    def _read(
        self,
        tiler: Tiler,
        access: Access,
        outer: tuple[str, ...],
        k_tile: dict,
        cons: tuple[Affine, ...],
    ) -> _Operand:
        """Plan an operand's matrix and bring its GM window into UB. The matrix is row-major,
        rows and columns padded to the fractal size; its rows are the M (or N) indices, or
        the K indices when the other index set is contiguous in GM: then the gather is a copy
        (or nothing), and the fractals are transposed on their way to L0."""
        con, dtype = self.con, self.con.dtype
        starts = {**self.starts, **{v: s for v, (s, _) in k_tile.items()}}
        sizes = {**self.sizes, **{v: n for v, (_, n) in k_tile.items()}}
        live = [v for v in (*outer, *con.k) if sizes[v] > 1 and access.offset.coeff(v)]
        inner = min(live, key=lambda v: abs(access.offset.coeff(v)), default=None)
        k_rows = inner is not None and inner in outer
        row_vars, col_vars = (con.k, outer) if k_rows else (outer, con.k)
        n_rows, n_cols = _count(row_vars, sizes), _count(col_vars, sizes)
        rows, cols = up(n_rows, self.frac), up(n_cols, self.frac)
        space = Space(
            {v: sizes[v] for v in (*con.batch, *row_vars, *col_vars)},
            tuple(self.local(a, starts) for a in cons),
        )
        pos = space.fold(_dense(row_vars, sizes, cols) + _dense(col_vars, sizes, 1))
        runs = [v for v in col_vars if sizes[v] > 1]
        op = _Operand(
            Matrix(k_rows, rows, cols, None),
            n_rows,
            n_cols,
            space,
            pos,
            runs[-1] if runs else None,
            access.buffer,
        )
        if space.is_empty():
            return op
        acc = self.local(access.offset, starts)
        window = tiler.window(space, access.buffer, [acc])
        op.src = window.to_ub(space.fold(acc))
        g = elems_per_block(dtype)
        op.alias = all(op.src.coeff(v) == pos.coeff(v) for v in space.sizes)
        op.alias = op.alias and op.src.const % g == 0
        if not op.alias:
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

    def _matrix(self, tiler: Tiler, op: _Operand) -> Matrix:
        """The operand's matrix from its window: gathered (img2col), zero at padded K
        positions and at the points the constraints exclude."""
        dtype, mat = self.con.dtype, op.matrix
        total = mat.rows * mat.cols
        mover = self.ctx.mover
        if op.window is None:  # no point of this tile touches the operand
            buf = tiler.arena.alloc(total * dtype.byte_size, "matrix")
            tiler.ops.append(mover.fill_all(buf, dtype, total, 0))
            return dataclasses.replace(mat, buf=buf)
        if op.alias:
            buf = offset_buf(op.window, op.src.const * dtype.byte_size)
        else:
            buf = tiler.arena.alloc(total * dtype.byte_size, "matrix")
            src, dst = Placement(op.window, dtype, op.src), Placement(buf, dtype, op.pos)
            sizes = op.space.sizes
            live_run = op.run or next((v for v in reversed(sizes) if sizes[v] > 1), None)
            tiler.move(op.space, live_run, dst, src, (0, total), False, f"img2col {op.name}")
            tiler.arena.release(op.window)
        if op.space.live_constraints:
            if op.run is None:
                raise _NotCube("excluded points in a one-column matrix")
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
        """Row-major fp16 matrix in UB -> L1 as column strips of fractals:
        fractal (strip c, row block r) at index `c * rows/16 + r`, rows x cols within."""
        strips, f = mat.cols // self.frac, self.frac
        stmts = [
            call(
                "copy_ubuf_to_cbuf",
                l1.ptr(DType.FP16, k * mat.rows * f * 2),
                ub.ptr(DType.FP16, k * f * 2),
                0,
                mat.rows,
                f * 2 // 32,
                (strips - 1) * f * 2 // 32,
                0,
            )
            for k in range(strips)
        ]
        reads = (ub.region(0, mat.rows * mat.cols * 2),)
        return Op("PIPE_MTE3", tuple(stmts), reads, (l1.region(),), "to L1")

    def _to_l0(self, which: str, mat: Matrix, l1: Buf, l0: Buf) -> Op:
        """L1 strips -> L0A `[Mo][Ko]` (`which` "a") or L0B `[Ko][No]` ("b") fractals, in the
        Cube's orientation ([m][k] and [n][k] within a fractal)."""
        f, frac_bytes = self.frac, self.frac * self.frac * 2
        intr = "load_cbuf_to_ca" if which == "a" else "load_cbuf_to_cb"
        outer = (mat.cols if mat.k_rows else mat.rows) // f
        ko = (mat.rows if mat.k_rows else mat.cols) // f
        # (destination fractal, source fractal, count, source stride, transpose) runs
        runs: list[tuple[int, int, int, int, int]] = []
        if which == "a" and not mat.k_rows:  # L1 (ko, mo) at ko*Mo + mo
            runs = [(m * ko, m, ko, outer, 0) for m in range(outer)]
        elif which == "a":  # L1 (mo, ko) at mo*Ko + ko, stored [k][m]
            runs = [(0, 0, outer * ko, 1, 1)]
        elif not mat.k_rows:  # L1 (ko, no) at ko*No + no, already [n][k]
            runs = [(0, 0, outer * ko, 1, 0)]
        else:  # L1 (no, ko) at no*Ko + ko, stored [k][n]
            runs = [(k * outer, k, outer, ko, 1) for k in range(ko)]
        stmts = []
        for dst, src, count, stride, transpose in runs:
            for r0 in range(0, count, 255):
                stmts.append(
                    call(
                        intr,
                        l0.ptr(DType.FP16, (dst + r0) * frac_bytes),
                        l1.ptr(DType.FP16),
                        src + r0 * stride,
                        min(255, count - r0),
                        stride,
                        0,
                        transpose,
                    )
                )
        return Op("PIPE_MTE1", tuple(stmts), (l1.region(),), (l0.region(),), f"{which} fractals")

    def _fp16_to_l1(self, tiler: Tiler, which: str, mat: Matrix, l1: Arena) -> list[Buf]:
        """The matrix's fp16 parts, converted in UB, in new L1 buffers of `l1`."""
        assert mat.buf is not None
        parts = []
        fractals = mat.rows * mat.cols // (self.frac * self.frac)
        for part in self._to_fp16(tiler, mat.buf, mat.rows * mat.cols):
            parts.append(l1.alloc(fractals * self.frac * self.frac * 2, f"{which} in L1"))
            self.ops.append(self._to_l1(part, mat, parts[-1]))
        return parts

    def _resident_a(self, tiler: Tiler, read: _Operand, step: int) -> None:
        """Step `step` of the left operand into its L1 residency."""
        assert self.resident is not None
        mat = self._matrix(tiler, read)
        self.resident.steps[step] = (mat, self._fp16_to_l1(tiler, "a", mat, self.resident.arena))

    def _k_step(self, k_tile: dict, step: int, accumulators: list[Buf]) -> None:
        con, ctx, init, res = self.con, self.ctx, step == 0, self.resident
        tiler = Tiler(ctx, ctx.arena("UB"), self.ops)
        cached = res.steps.get(step) if res is not None else None
        # Both windows first, so that MTE2 brings B while the vector unit gathers A; except
        # when A goes to its residency: then A and B take UB one after the other (only the
        # group's first tile pays that, and the K steps can be twice as long).
        read_a = self._read(tiler, con.a, con.m, k_tile, con.a_cons) if cached is None else None
        if read_a is not None and res is not None:
            self._resident_a(tiler, read_a, step)
            cached, read_a = res.steps[step], None
            tiler = Tiler(ctx, ctx.arena("UB"), self.ops)
        read_b = self._read(tiler, con.b, con.n, k_tile, con.b_cons)
        mat_a = self._matrix(tiler, read_a) if read_a is not None else None
        mat_b = self._matrix(tiler, read_b)
        l1 = ctx.arena("L1", lo=res.streaming) if res is not None else ctx.arena("L1")
        l0a, l0b = ctx.arena("L0A"), ctx.arena("L0B")
        l0: dict[str, list[Buf]] = {"a": [], "b": []}
        for which, mat, arena in (("a", mat_a, l0a), ("b", mat_b, l0b)):
            if mat is None:  # the left operand, resident in L1 since the group's first tile
                assert cached is not None
                mat_a, l1_parts = cached
            else:
                l1_parts = self._fp16_to_l1(tiler, which, mat, l1)
            for l1_buf in l1_parts:
                use = mat_a if which == "a" else mat
                assert use is not None
                dst = arena.alloc(l1_buf.size, f"{which} in L0")
                self.ops.append(self._to_l0(which, use, l1_buf, dst))
                l0[which].append(dst)
        assert mat_a is not None
        kp = mat_a.rows if mat_a.k_rows else mat_a.cols
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
                self.rows_m,
                kp,
                self.rows_n,
                int(first),
            )
            reads = [la.region(), lb.region()] + ([] if first else [acc.region()])
            self.ops.append(Op("PIPE_M", (stmt,), tuple(reads), (acc.region(),), "mad"))

    # -- the result -----------------------------------------------------------------------------

    def _store(self, accumulators: list[Buf]) -> None:
        con, ctx = self.con, self.ctx
        tiler = Tiler(ctx, ctx.arena("UB"), self.ops)
        mo, no, f = self.rows_m // self.frac, self.rows_n // self.frac, self.frac
        elems = mo * no * f * f
        out_t = con.out
        values = ValueEmitter(elems, ctx.repeat_bytes, tiler.arena, tiler.ops, "cube result")
        # The output's window goes where the pipeline placed it: the result's rows when they
        # fit there (padded to whole fractals, they are the window the store sends), else
        # the store's staging. The place is kept free of the fractals while there is room
        # for them elsewhere (an fp32 tile's two accumulators may need it).
        at = self._at(tiler, con.store.access.buffer) if self.epilogue is None else None
        kept = at is not None and tiler.arena.reserve(at.offset, at.size)
        fractals = []
        for acc in accumulators:
            try:
                ub = values.alloc_vec(DType.FP32, "C fractals")
            except OutOfMemory:
                if not kept or at is None:
                    raise
                freed = tiler.arena.claim(at.offset, at.size)  # ends the reservation
                assert freed is not None
                tiler.arena.release(freed)
                kept = False
                ub = values.alloc_vec(DType.FP32, "C fractals")
            stmt = call(
                "copy_matrix_cc_to_ubuf",
                ub.ptr(),
                acc.ptr("float"),
                0,
                1,
                mo * no,
                0,
                0,
                "CC_MODE_F32",
            )
            self.ops.append(Op("PIPE_V", (stmt,), (acc.region(),), (values.region(ub),), "L0C"))
            fractals.append(ub)
        result = fractals[0]
        if con.split:
            values.with_scalar("vmuls", fractals[1], fractals[1], 2.0**-SPLIT_SHIFT)
            values.binary("vadd", result, result, fractals[1])
            tiler.arena.release(fractals[1].buf)  # type: ignore[arg-type]
        if out_t is DType.FP16:
            half = values.alloc_vec(DType.FP16, "C fp16")
            values.convert(half, result)
            result = half
        # [No][Mo][16][16] fractals -> row-major [Mp][Np]: one masked copy per fractal column
        fits = at is not None and values.vec_bytes(out_t) <= at.size
        with values.preferring(at if fits else None):
            rows = values.alloc_vec(out_t, "C rows")
        assert rows.buf is not None and result.buf is not None
        size = out_t.byte_size
        stmts = [call("plaidc_mask", 0, f)]
        for n in range(no):
            for m0 in range(0, self.rows_m, 255):
                count = min(255, self.rows_m - m0)
                stmts.append(
                    call(
                        "vmuls",
                        rows.ptr((m0 * self.rows_n + n * f) * size),
                        result.ptr((n * self.rows_m + m0) * f * size),
                        lit(1),
                        count,
                        1,
                        1,
                        self.rows_n * size // 32,
                        f * size // 32,
                    )
                )
        stmts.append(call("plaidc_mask", 0, 128))
        self.ops.append(
            Op("PIPE_V", tuple(stmts), (values.region(result),), (values.region(rows),), "C rows")
        )
        order = (*con.batch, *con.m, *con.n)
        space = Space(
            {v: self.sizes[v] for v in order},
            tuple(self.local(a, self.starts) for a in con.out_cons),
        )
        pos = _dense(con.m, self.sizes, self.rows_n) + _dense(con.n, self.sizes, 1)
        live = [v for v in order if self.sizes[v] > 1]
        access = self.local(con.store.access.offset, self.starts)
        src = Placement(rows.buf, out_t, space.fold(pos))
        if self.epilogue is not None:
            self._epilogue(tiler, src, space)
            return
        if not space.is_empty():
            name = con.store.access.buffer
            tiler.write_window(space, live[-1] if live else None, name, access, src, at)

    def _epilogue(self, tiler: Tiler, result: Placement, space: Space) -> None:
        """Run the fused elementwise kernel on this tile's result, still in UB."""
        ep = self.epilogue
        assert ep is not None
        names = ep.names
        tile = Tile(
            {names[v]: self.starts[v] for v in space.sizes},
            {names[v]: self.sizes[v] for v in space.sizes},
        )
        lowering = TileLowering(self.ctx, ep.kernel, ep.plan, tile, arena=tiler.arena)
        renamed = result.pos.substitute({v: Affine.var(names[v]) for v in space.sizes})
        value = lowering.values.alloc_vec(result.dtype, "fused input")
        assert value.buf is not None
        dst = Placement(value.buf, result.dtype, lowering.space.fold(lowering.pos))
        live = [v for v in ep.plan.out if tile.sizes[v] > 1]
        src = Placement(result.buf, result.dtype, renamed)
        run = live[-1] if live else None
        tiler.move(lowering.space, run, dst, src, (0, lowering.n), False, "to the epilogue")
        lowering.bound = {ep.buffer: value}
        self.ops.extend(lowering.lower())


@dataclass(frozen=True)
class Epilogue:
    """An elementwise kernel fused after a contraction: it reads the contraction's result
    (`buffer`, a temporary nothing else reads) from UB, index `v` of the contraction being its
    index `names[v]`, so the result never goes through GM."""

    kernel: Kernel
    plan: Plan
    names: dict[str, str]
    buffer: str


def epilogue_for(ctx: Context, producer: Kernel, consumer: Kernel, readers: int) -> Epilogue | None:
    """`consumer` as an epilogue of the contraction `producer`, when it is one: it has no
    reduction and no constraints, and reads the result (a temporary no other kernel reads)
    at the very elements the contraction writes, through a renaming of the indices."""
    con = recognise(ctx, producer)
    if con is None or con.out_cons or readers != 1:
        return None
    name = con.store.access.buffer
    buf = ctx.buffers[name]
    if buf.is_input or buf.is_output:
        return None
    plan = analyse(ctx, consumer)
    if plan is None or plan.red or consumer.constraints:
        return None
    reads = {load.access.offset for load in consumer.loads() if load.access.buffer == name}
    if len(reads) != 1 or any(s.access.buffer == name for s in consumer.stores()):
        return None
    read, written = reads.pop(), con.store.access.offset
    ranges, producer_ranges = consumer.ranges, producer.ranges
    if read.const != written.const or len(read.terms) != len(consumer.idxs):
        return None
    names: dict[str, str] = {}
    for var, coeff in written.terms:
        match = [u for u, k in read.terms if k == coeff and ranges[u] == producer_ranges[var]]
        if len(match) != 1:
            return None
        names[var] = match[0]
    outs = (*con.batch, *con.m, *con.n)
    if set(names) != set(outs) or len(set(names.values())) != len(names):
        return None
    return Epilogue(consumer, plan, names, name)


def converted_on_the_way_out(
    ctx: Context, producer: Kernel, consumer: Kernel, readers: int
) -> Kernel | None:
    """The contraction `producer` writing `consumer`'s output directly, when `consumer` only
    converts the contraction's fp32 result to fp16 element by element (the Tile lowering's
    `C = as_float(C_acc, 16)` after an fp16 matmul): the Cube's fp32 accumulator is rounded
    to fp16 once on its way out, exactly what the two kernels compute, without the fp32
    temporary going through GM. None when that is not the shape of the pair."""
    con = recognise(ctx, producer)
    if con is None or con.out is not DType.FP32 or con.out_cons or readers != 1:
        return None
    if consumer.constraints or len(consumer.body) != 4:
        return None
    load, const, cast, store = consumer.body
    if not (
        isinstance(load, KLoad)
        and isinstance(const, KConst)
        and isinstance(cast, KOp)
        and isinstance(store, KStore)
    ):
        return None
    temp, out = ctx.buffers[con.store.access.buffer], ctx.buffers[store.access.buffer]
    if (
        load.access.buffer != temp.name
        or temp.is_input
        or temp.is_output
        or (cast.op, cast.args) != ("as_float", (load.dst, const.dst))
        or const.value != 16
        or store.src != cast.dst
        or store.agg != "assign"
        or load.access.offset != store.access.offset
        or out.dtype is not DType.FP16
        or (out.extent, out.origin) != (temp.extent, temp.origin)
    ):
        return None
    # every element of the temporary is written by the contraction and read by the consumer
    written = _count((*con.batch, *con.m, *con.n), producer.ranges)
    visited = _count(tuple(v for v, _ in consumer.idxs), consumer.ranges)
    if not written == visited == temp.shape.elem_count:
        return None
    redirected = KStore(Access(out.name, con.store.access.offset), con.store.agg, con.store.src)
    body = tuple(redirected if s is con.store else s for s in producer.body)
    return dataclasses.replace(producer, body=body)
