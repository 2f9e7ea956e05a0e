"""The next row of Cube tiles' left operand brought into L1 while this row computes.

A row of output tiles (one batch point and M block, `Resident`) keeps its left operand in L1:
today its first tile loads every K step of it, GM -> UB -> L1, beside its right operand's, so
that MTE2 is about twice the Cube's time on that tile. Here the tiles of the row before, from
their second on, bring the first `steps` K steps of it instead, straight from GM into L1
(`copy_gm_to_cbuf`: one DMA per strip of `cube_k` columns, each strip the fractals L1 holds,
so no conversion or UB is needed), a few DMAs after each of their K steps, where MTE2 has
room (it brings only the right operand there). The next row's first tile then loads only the
K steps left (through UB, as before).

Where: a row's prefetched K steps alternate between two places in L1 by the row's parity
(the next row's go where the row before this one's were, while this row reads its own), and
its other K steps have one place for all rows (the next row's first tile overwrites each
once this row's last tile has loaded it into L0A). `steps` is as many as L1 holds beside the
tiles' own double-buffered L1 buffers (the right operand's K steps); when two whole
residencies fit the lower half of L1 (`resident_alternates`), every full one, each row's
K steps where they were (the halves of that half, by the row's parity).

Only an fp16 left operand that is a plain row-major matrix of full tiles: one M and one K
index, K unit-stride and M a whole number of 32-byte blocks, no constraint on it, the
prefetched K steps full and in order, the next row's M block full. Anything else keeps
the first tile's loads.
"""

from __future__ import annotations

from dataclasses import dataclass

from plaidc.backends.npu.context import Context
from plaidc.backends.npu.cube_match import Contraction, count_points
from plaidc.backends.npu.cube_residency import Matrix, Resident, TileBox
from plaidc.backends.npu.cube_tiling import resident_alternates, resident_step_bytes
from plaidc.backends.npu.moves import Space
from plaidc.backends.npu.ops import BLOCK, Buf, Op, Region, call
from plaidc.backends.npu.ops import round_up as up
from plaidc.backends.npu_sim.isa import ENCODING
from plaidc.stripe.ir import Affine, DType


@dataclass(frozen=True)
class Prefetch:
    """How the rows of one tiling keep and prefetch their left operand (see the module)."""

    stride: int  # L1 bytes of one K step of the left operand
    count: int  # K steps of a row
    steps: int  # the first `steps` K steps are prefetched
    strips: int  # DMAs (strips of `cube_k` columns) of one K step
    rows: int  # fractal-padded rows of the M block (each strip's bursts)
    kstep: int  # K points of a full K step
    bases: tuple[int, int]  # where each row parity's prefetched K steps start in L1
    # where the K steps after `steps` are, for every row (None: after the prefetched ones, in
    # the row parity's place: two whole residencies fit)
    shared: int | None
    streaming: int  # the tiles' own L1 buffers from here on
    align: int
    tiles: int  # tiles of a row (`uses`)
    per: int  # DMAs of each of a row's tiles from its second on
    frac: tuple[int, int]  # the Cube's (cube_m, cube_k)
    lda: int  # GM elements from one row of the left operand to the next
    m_sizes: dict[str, int]  # the M indices' points in a full row of tiles
    k_origin: int  # the left operand's offset at the first K step's start
    con: Contraction
    k_tiles: list[TileBox]

    def full(self, outer: TileBox) -> bool:
        """Whether the row `outer` has the M block the prefetch brings (not a ragged one),
        whole in each prefetched K step (no constraint cuts it)."""
        if any(outer[v][1] != n for v, n in self.m_sizes.items()):
            return False
        return all(_whole(self.con, outer | kt) for kt in self.k_tiles[: self.steps])

    def resident(self, outer: TileBox, group: int, prefetched: bool) -> Resident:
        """The residency of the row `outer` (the `group`th), with its prefetched K steps in
        L1 already when `prefetched` (not a core's first row)."""
        base = self.bases[group % 2]
        places = tuple(
            base + s * self.stride
            if s < self.steps or self.shared is None
            else self.shared + (s - self.steps) * self.stride
            for s in range(self.count)
        )
        res = Resident(outer, base, self.stride, self.align, self.streaming, places=places)
        if prefetched:  # as `Gemm._read` plans them: rows M, columns K, fractal strips
            for s in range(self.steps):
                mat = Matrix(False, self.rows, self.kstep, self.frac, None)
                res.steps[s] = (mat, [Buf("L1", places[s], self.stride)])
        return res

    def dmas(
        self, ctx: Context, con: Contraction, nxt: Resident, tile: int, step: int, lead: bool
    ) -> list[Op]:
        """The DMAs tile `tile` of a row issues after its K step `step`: strips of the next
        row's (`nxt`) prefetched K steps, in order, `per` from each of `tiles - 1` tiles (the
        last of them the rest), as many after each of its K steps (the first K step the
        rest): the K steps, and the tiles, stay alike. The tiles from the second on in a
        core's first row (`lead`: its first tile loads the row's own), else from the first
        on (so that on-chip addresses, `base + j * per`, keep their sign from row to row and
        the rows' loops stay alike)."""
        tile -= int(lead)
        if not 0 <= tile < self.tiles - 1:
            return []
        total = self.steps * self.strips
        each, extra = divmod(self.per, self.count)
        first = tile * self.per + (0 if step == 0 else extra + step * each)
        end = first + each + (extra if step == 0 else 0)
        if tile == self.tiles - 2 and step == self.count - 1:
            end = total
        fk, name, lda = self.frac[1], con.a.buffer, self.lda
        first_k = _at(con.a.offset, nxt.outer) - con.a.offset.const + self.k_origin
        ops = []
        for d in range(first, end):
            s, c = divmod(d, self.strips)
            element = first_k + s * self.kstep + c * fk
            dst = nxt.places[s] + c * self.rows * fk * 2
            gap = (lda - fk) * 2 // BLOCK
            stmt = call(
                "copy_gm_to_cbuf",
                Buf("L1", dst, self.rows * fk * 2).ptr(DType.FP16),
                ctx.gm(name, element),
                0,
                self.rows,
                fk * 2 // BLOCK,
                gap,
                0,
            )
            lo = element * 2
            hi = (element + (self.rows - 1) * lda + fk) * 2
            reads = (Region(f"GM:{name}", lo, hi),)
            writes = (Region("L1", dst, dst + self.rows * fk * 2),)
            ops.append(Op("PIPE_MTE2", (stmt,), reads, writes, f"prefetch {name}"))
        return ops


def _dense_stride(offset: Affine, names: tuple[str, ...], sizes: dict[str, int]) -> int | None:
    """The stride in GM of the dense order of the points of `names` (each with `sizes`
    points, the last fastest) when `offset` lays them out so, else None."""
    live = [v for v in names if sizes.get(v, 1) > 1]
    if not live:
        return None
    unit = offset.coeff(live[-1])
    expect = unit
    for v in reversed(live):
        if offset.coeff(v) != expect:
            return None
        expect *= sizes[v]
    return unit


def _whole(con: Contraction, box: TileBox) -> bool:
    """Whether every point of `box` (the left operand's M and K indices) is one the
    contraction's constraints on it keep (`Space.live_constraints`: none cuts the box)."""
    shift = {v: Affine.var(v) + s for v, (s, _) in box.items() if s}
    sizes = {v: n for v, (_, n) in box.items()}
    return not Space(sizes, tuple(a.substitute(shift) for a in con.a_cons)).live_constraints


def _at(offset: Affine, box: TileBox) -> int:
    """`offset` at the starts of `box` (other indices at 0)."""
    return offset.const + sum(k * box[v][0] for v, k in offset.terms if v in box)


def plan(
    ctx: Context,
    con: Contraction,
    outers: list[TileBox],
    inners: list[TileBox],
    k_tiles: list[TileBox],
) -> Prefetch | None:
    """The prefetch of the tiling's rows' left operand (see the module), or None when it
    does not apply or there is no room for it."""
    mach = ctx.machine
    fm, fk = mach.cube_m, mach.cube_k
    uses, count = len(inners), len(k_tiles)
    if uses < 2 or len(outers) < 2 or con.split or con.dtype is not DType.FP16:
        return None
    name, offset = con.a.buffer, con.a.offset
    if ctx.storage[name] is not DType.FP16 or ctx.gm_type[name] is not DType.FP16:
        return None
    if any(v not in (*con.m, *con.k, *con.batch) for v, _ in offset.terms):
        return None
    m_sizes = {v: n for v, (_, n) in outers[0].items() if v in con.m}
    k_sizes = {v: n for v, (_, n) in k_tiles[0].items()}
    lda = _dense_stride(offset, con.m, m_sizes)
    if lda is None or _dense_stride(offset, con.k, k_sizes) != 1:
        return None
    rows, kstep = count_points(con.m, m_sizes), count_points(con.k, k_sizes)
    if rows % fm or kstep % fk or lda < kstep or lda * 2 % BLOCK or fk * 2 % BLOCK:
        return None
    if rows > ENCODING["MAX_NBURST"] or (lda - fk) * 2 // BLOCK > ENCODING["MAX_GAP"]:
        return None
    stride = resident_step_bytes(ctx, con, outers[0], k_tiles, uses)
    if stride is None or stride != rows * kstep * 2:
        return None
    # the K steps prefetched: full, each `kstep` elements after the one before, with no
    # constraint cutting them (in the first row)
    full = 0
    for s, kt in enumerate(k_tiles):
        sizes = {v: n for v, (_, n) in kt.items()}
        if sizes != k_sizes or _at(offset, kt) - _at(offset, k_tiles[0]) != s * kstep:
            break
        if not _whole(con, outers[0] | kt):
            break
        full += 1
    size, align = ctx.capacity("L1")
    half = size // 2 // align * align
    shared: int | None = None
    if resident_alternates(ctx, stride, count):
        if full < 1:
            return None
        bases = (ctx.arena("L1", 0, hi=half).base, ctx.arena("L1", 1, hi=half).base)
        steps, streaming = full, half
    else:
        b_cols = up(count_points(con.n, {v: n for v, (_, n) in inners[0].items()}), mach.cube_n)
        need = ctx.options.buffering * up(b_cols * kstep * 2, align)
        room = (size - need) // align * align - count * stride
        steps = min(full, room // stride)
        if steps < 1:
            return None
        bases = (0, steps * stride)
        shared = 2 * steps * stride
        streaming = (count + steps) * stride
    strips = kstep // fk
    per = steps * strips // (uses - 1)
    n_points = count_points(con.n, {v: n for v, (_, n) in inners[0].items()})
    if per < 1 or not _pays(ctx, (rows, kstep, n_points), count, uses, steps, per):
        return None
    return Prefetch(
        stride,
        count,
        steps,
        strips,
        rows,
        kstep,
        bases,
        shared,
        streaming,
        align,
        uses,
        per,
        (fm, fk),
        lda,
        m_sizes,
        _at(offset, k_tiles[0]),
        con,
        k_tiles,
    )


def _pays(
    ctx: Context, tile: tuple[int, int, int], count: int, uses: int, steps: int, per: int
) -> bool:
    """Whether a row of `uses` tiles (`tile` = its M, K step and N points; `count` K steps)
    is estimated faster with `steps` K steps of its left operand prefetched, `per` strip
    DMAs (each paying GM's latency) from each tile of the row before (`Prefetch.dmas`),
    than with its first tile loading them: each K step takes its Cube's time or its MTE2's,
    the longer (the machine's costs, as `cube_cost.estimated_cycles`). Not where MTE2 is
    the busier already: there the strips' latencies only add to it."""
    mach = ctx.machine
    m, k, n = tile

    def gm(nbytes: int) -> int:
        return mach.gm_latency + -(-nbytes // mach.gm_bytes_per_cycle)

    cube = -(-m // mach.cube_m) * -(-k // mach.cube_k) * -(-n // mach.cube_n)
    a, b, strip = gm(m * k * 2), gm(k * n * 2), gm(m * mach.cube_k * 2)
    loaded = count * max(cube, a + b) + (uses - 1) * count * max(cube, b)
    each, extra = divmod(per, count)
    rest = steps * k // mach.cube_k - per * (uses - 1)  # the last tile's last K step's
    tile_steps = max(cube, b + (each + extra) * strip) + (count - 1) * max(cube, b + each * strip)
    prefetched = (
        steps * max(cube, b)
        + (count - steps) * max(cube, a + b)
        + (uses - 1) * tile_steps
        + rest * strip
    )
    return prefetched < loaded
