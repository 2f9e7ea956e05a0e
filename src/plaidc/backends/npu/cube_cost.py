"""The estimated cycles of a GEMM on one Cube tiling: the schedule the backend emits, replayed
on the machine's costs (NPU.md's timing model), to rank tilings by.

The simulator charges each instruction `latency + bytes / bandwidth` (a `mad` its fractal
count, a vector instruction its repeats plus `vector_latency`) on its pipe, pipes run in
program order, and a `wait_flag` holds a pipe until the instruction it waits for is done.
The backend's code for a tiling is, per output tile and K step: MTE2 brings the step's
operand windows from GM into a UB half (byte-exact rows: each row's bytes rounded up to whole
32-B blocks, so a ragged tile moves only its valid rows and columns); with the fp32 split the
vector unit cuts them into fp16 hi and lo parts; MTE3 copies them into an L1 half as strips
of `cube_k` columns; MTE1 loads the fractals into an L0A and L0B half; the Cube's `mad`s
accumulate into an L0C half. After a tile's last K step the vector unit brings the result
out of L0C into a UB half (and, unless it goes by fractal columns, into row-major rows), and
MTE3 stores it: one DMA of its rows, or one per fractal column when its rows do not fit UB
beside the K steps' windows (`GemmResult._rows_crowd`), issued during the next tile.

Replaying that with each buffer half freed when its last reader is done gives what a
max-of-pipes bound misses: the first K step's chain before the Cube starts and the last
tile's store after it ends, the per-DMA latencies, ragged last tiles (the Cube still computes
the padded box: its `mad`s, L1 strips and L0 loads are the box's, only the GM transfers are
the valid points'), a store that holds up the next K step's windows (UB), and whether MTE2
or the Cube bounds a row. The left operand resident in L1 across a row's tiles is loaded by
the row's first tile only, or prefetched straight into L1 by the row before
(`cube_prefetch`). Every number is the machine description's (`NpuMachine`); nothing is
measured. An estimate for plain matrices (not a convolution's img2col windows).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from plaidc.backends.npu import cube_prefetch
from plaidc.backends.npu.context import Context
from plaidc.backends.npu.cube_match import Contraction, count_points
from plaidc.backends.npu.cube_tiling import CubeTiling, TileBox, resident_step_bytes
from plaidc.backends.npu.moves import Space
from plaidc.backends.npu.ops import BLOCK
from plaidc.backends.npu.ops import round_up as up
from plaidc.stripe.ir import Affine


def ranked(ctx: Context, con: Contraction, found: Iterator[CubeTiling]) -> list[CubeTiling]:
    """The tilings `found`, fewest estimated cycles first (`estimated_cycles`; ties: the
    order found, fewest tiles first)."""
    return sorted(found, key=lambda t: estimated_cycles(ctx, con, t))


def estimated_cycles(
    ctx: Context, con: Contraction, tiling: CubeTiling, placed_peak: int | None = None
) -> int:
    """The cycles of a GEMM on `tiling` (see the module). `placed_peak`: where the pass
    pipeline placed the K step's windows in a UB half, the end of the highest (its own
    tiles keep them there, which decides whether the store fits beside them)."""
    return _Schedule(ctx, con, tiling, placed_peak).run()


@dataclass(frozen=True)
class _Box:
    """One tile of an index set: its points as the Cube computes them (the box, padded to
    whole fractals: `padded`) and the points the constraints leave (`valid`)."""

    padded: int
    valid: int


class _Schedule:
    """The tiling's instructions, by pipe and in program order, with the buffer halves each
    waits for (see the module)."""

    def __init__(
        self, ctx: Context, con: Contraction, tiling: CubeTiling, placed_peak: int | None
    ) -> None:
        self.ctx, self.con, self.tiling = ctx, con, tiling
        mach = self.mach = ctx.machine
        self.halves = ctx.options.buffering
        self.parts = 2 if con.split else 1
        self.size = con.dtype.byte_size
        self.share = mach.ub_bytes // self.halves
        self.placed_peak = placed_peak
        self.m = [_box(con, con.m, b, mach.cube_m) for b in tiling.m]
        self.n = [_box(con, con.n, b, mach.cube_n) for b in tiling.n]
        self.k = [_box(con, con.k, b, mach.cube_k) for b in tiling.k]
        # which operand's rows are its GM bursts: the index set without the unit stride
        self.a_rows_m = not _unit(con.a.offset, con.k)
        self.b_rows_k = not _unit(con.b.offset, con.n)
        uses = len(tiling.n)
        self.resident = resident_step_bytes(ctx, con, tiling.m[0], tiling.k, uses) is not None
        self.prefetch = self._prefetch()
        self.clock: dict[str, int] = {}

    def _prefetch(self) -> cube_prefetch.Prefetch | None:
        ctx, con, tiling = self.ctx, self.con, self.tiling
        if not self.resident or ctx.options.serialise:
            return None
        outers = [
            {v: (x, 1) for v, x in zip(con.batch, batch, strict=True)} | mt
            for batch in tiling.batches
            for mt in tiling.m
        ]
        return cube_prefetch.plan(ctx, con, outers, tiling.n, tiling.k)

    # -- costs ----------------------------------------------------------------------------------

    def gm(self, nbytes: int) -> int:
        return self.mach.gm_latency + -(-nbytes // self.mach.gm_bytes_per_cycle)

    def window(self, rows: int, cols: int, size: int) -> int:
        """GM <-> UB bytes of a window of `rows` bursts of `cols` elements (byte-exact rows,
        each whole 32-B blocks in UB)."""
        return rows * up(cols * size, BLOCK)

    def vec(self, passes: int, elements: int) -> int:
        lanes = self.mach.vector_repeat_bytes // 4
        return passes * (-(-elements // lanes) + self.mach.vector_latency)

    def issue(self, pipe: str, cost: int, *ready: int) -> int:
        """Issue an instruction of `cost` cycles on `pipe` once `ready` are: its end."""
        if self.ctx.options.serialise:  # a barrier after every op: nothing overlaps
            start = max(self.clock.values(), default=0)
        else:
            start = max((self.clock.get(pipe, 0), *ready))
        self.clock[pipe] = start + cost
        return start + cost

    # -- the schedule ---------------------------------------------------------------------------

    def run(self) -> int:
        mach, con, tiling = self.mach, self.con, self.tiling
        fm, fn, fk = mach.cube_m, mach.cube_n, mach.cube_k
        halves, parts, size = self.halves, self.parts, self.size
        ub_free = [0] * halves
        ub_store = [0] * halves  # bytes of a pending store's result in each UB half
        l1_free, l0_free, l0c_free = [0] * halves, [0] * halves, [0] * halves
        v_free = [0] * halves  # when the vector unit is done with a result's fractals
        store_free = [0] * halves  # ... and its store
        columns = False
        slot = cube = 0
        pending: list[tuple[int, int]] = []  # the previous tile's store DMAs: (cost, ready)
        pending_half = 0
        rows = [(b, m) for b in range(len(tiling.batches)) for m in range(len(tiling.m))]
        # the rows split over the cores as evenly as they come (`cube._core_chunks`), each
        # core on its own buffers and pipes: the first chunk is the largest
        rows = rows[: -(-len(rows) // min(mach.cores, len(rows)))]
        sub = max(tiling.sub, 1)
        steps = len(self.k)
        times = [ub_free, l1_free, l0_free, l0c_free, v_free, store_free]

        def shift(delta: int) -> None:
            """Every time by `delta` later: the loop iterations a sample skips."""
            for clock in times:
                clock[:] = [t + delta for t in clock]
            self.clock = {p: t + delta for p, t in self.clock.items()}
            pending[:] = [(cost, at + delta) for cost, at in pending]

        row_ends: list[int] = []
        for ri, (_, mi) in enumerate(rows):
            if _skipped(ri, len(rows)):
                continue
            mb = self.m[mi]
            mo = mb.padded // fm
            tile_ends: list[int] = []
            for nj, nb in enumerate(self.n):
                if _skipped(nj, len(self.n)):
                    slot, cube = slot + steps + 1, cube + steps
                    continue
                no = nb.padded // fn
                tile = ri * len(self.n) + nj
                mad_end = peak = 0
                for s, kb in enumerate(self.k):
                    ko = kb.padded // fk
                    half = slot % halves
                    a_loaded = not self.resident or (nj == 0 and not self._prefetched(ri, s))
                    a_bytes = (
                        self.window(mb.valid, kb.valid, size)
                        if self.a_rows_m
                        else self.window(kb.valid, mb.valid, size)
                    )
                    b_bytes = (
                        self.window(kb.valid, nb.valid, size)
                        if self.b_rows_k
                        else self.window(nb.valid, kb.valid, size)
                    )
                    windows = (mb.padded * kb.padded if a_loaded else 0) + kb.padded * nb.padded
                    peak = max(peak, windows * size)
                    # the step's windows wait for the UB half's last store when they do not
                    # fit beside its result
                    top = self.placed_peak if self.placed_peak is not None else windows * size
                    # the windows wait for the half's previous windows to be in L1, and
                    # for its last result when they do not fit beside it: for the vector
                    # unit to be done with its fractals, and a store by fractal columns too
                    ready = ub_free[half]
                    if top + ub_store[half] > self.share:
                        if pending and half == pending_half and columns:  # the store first
                            for cost, at in pending:
                                store_free[half] = self.issue("MTE3", cost, at)
                            pending = []
                        ready = max(ready, v_free[half], store_free[half] if columns else 0)
                    # each operand: its DMA, with the split its hi and lo parts (the vector
                    # unit, five passes), then MTE3's strips into L1 (parts x K fractal
                    # columns)
                    b_cols = kb.padded * nb.padded
                    t_b = self.operand(b_bytes, b_cols, parts * no, ready, l1_free[cube % halves])
                    t3 = t_b
                    if a_loaded:
                        a_cols = mb.padded * kb.padded
                        l1_ready = l1_free[cube % halves]
                        t3 = max(t3, self.operand(a_bytes, a_cols, parts * ko, ready, l1_ready))
                    ub_free[half] = t3
                    # MTE1's loads into L0A and L0B and the Cube's mads, by L0 sub-step and
                    # M part (B's fractals once for the parts)
                    hm = max(tiling.m_parts, 1)
                    a_l0 = self.l1_l0(
                        parts * -(-mo // hm), mo * fm * kb.padded * 2 * parts // (sub * hm)
                    )
                    b_l0 = self.l1_l0(
                        parts * -(-(ko if sub == 1 else max(sub, ko)) // sub),
                        no * fn * kb.padded * 2 * parts // sub,
                    )
                    mad = (3 if con.split else 1) * -(-mo // hm) * -(-ko // sub) * no
                    t1 = max(t3, l0_free[cube % halves])
                    first = l0c_free[tile % halves] if s == 0 else 0
                    for _ in range(sub):
                        for part in range(hm):
                            t1 = self.issue("MTE1", a_l0 + (b_l0 if part == 0 else 0), t1)
                            mad_end = self.issue("M", mad, t1, first)
                    l1_free[cube % halves] = t1
                    l0_free[cube % halves] = mad_end
                    slot, cube = slot + 1, cube + 1
                    # the previous tile's store, spread over this tile's K steps after the
                    # first, or after the first when there is one step
                    share = self._share(len(pending), s, steps)
                    for cost, at in pending[:share]:
                        store_free[pending_half] = self.issue("MTE3", cost, at)
                    pending = pending[share:]
                    if self.prefetch is not None and nj >= 1 and ri + 1 < len(rows):
                        strip = self.gm(self.prefetch.rows * fk * 2)
                        each = -(-self.prefetch.per // steps)
                        self.issue("MTE2", each * strip)
                for cost, at in pending:  # what a one-step tile did not spread
                    store_free[pending_half] = self.issue("MTE3", cost, at)
                half = slot % halves
                slot += 1
                t_v, dmas, held, columns = self.result(
                    mb, nb, mad_end, max(ub_free[half], store_free[half]), peak
                )
                v_free[half] = t_v
                l0c_free[tile % halves] = t_v
                pending, pending_half = [(d, t_v) for d in dmas], half
                ub_store[half] = held
                tile_ends.append(max(self.clock.values()))
                if nj == SAMPLE and len(self.n) > SAMPLE + 2:  # the steady tiles skipped
                    shift((len(self.n) - SAMPLE - 2) * (tile_ends[-1] - tile_ends[-2]))
            if self.prefetch is None:  # the row's last store goes at its end
                for cost, at in pending:
                    store_free[pending_half] = self.issue("MTE3", cost, at)
                pending = []
            row_ends.append(max(self.clock.values()))
            if ri == SAMPLE and len(rows) > SAMPLE + 2:  # the steady rows skipped
                shift((len(rows) - SAMPLE - 2) * (row_ends[-1] - row_ends[-2]))
                skipped = (len(rows) - SAMPLE - 2) * len(self.n)
                slot, cube = slot + skipped * (steps + 1), cube + skipped * steps
        for cost, at in pending:
            self.issue("MTE3", cost, at)
        return max(self.clock.values(), default=0)

    def operand(self, gm_bytes: int, elements: int, strips: int, ready: int, l1: int) -> int:
        """One operand of a K step into L1: its DMA into UB once `ready`, the split's hi and
        lo parts, its `strips` into L1 once the L1 half is free (`l1`): their end."""
        t = self.issue("MTE2", self.gm(gm_bytes), ready)
        if self.con.split:
            t = self.issue("V", self.vec(5, elements), t)
        return self.issue("MTE3", self.strips(strips, elements * 2 * self.parts), t, l1)

    def _prefetched(self, ri: int, s: int) -> bool:
        """Whether row `ri`'s K step `s` of the left operand is in L1 before its first tile."""
        return self.prefetch is not None and ri >= 1 and s < self.prefetch.steps

    @staticmethod
    def _share(count: int, s: int, steps: int) -> int:
        if steps == 1:
            return count
        if s == 0:
            return 0
        each = -(-count // (steps - 1))
        return count if s == steps - 1 else each

    def strips(self, count: int, nbytes: int) -> int:
        mach = self.mach
        return count * mach.ub_l1_latency + -(-nbytes // mach.ub_l1_bytes_per_cycle)

    def l1_l0(self, count: int, nbytes: int) -> int:
        mach = self.mach
        return count * mach.l1_l0_latency + -(-nbytes // mach.l1_l0_bytes_per_cycle)

    def result(
        self, mb: _Box, nb: _Box, mad_end: int, ub_ready: int, windows: int
    ) -> tuple[int, list[int], int, bool]:
        """A tile's result out of L0C: the vector unit's end, the store's DMAs (their
        costs) and the UB bytes the result holds until they are done."""
        mach, con = self.mach, self.con
        fn, parts = mach.cube_n, self.parts
        out = mb.padded * nb.padded
        out_size = con.out.byte_size
        no = nb.padded // fn
        m_parts = max(self.tiling.m_parts, 1)
        vector = m_parts * parts * mach.l0c_ub_latency
        vector += -(-out * 4 * parts // mach.l0c_ub_bytes_per_cycle)
        if con.split:  # the two accumulators' sum
            vector += self.vec(2, out)
        rows_bytes = out * out_size
        fractal_bytes = out * (2 if out_size == 2 and not con.split else 4)
        columns = not con.split and out_size * fn % BLOCK == 0 and self._crowd(rows_bytes, windows)
        if columns:  # one DMA per fractal column, `valid` bursts of a fractal row
            cols = [min(fn, nb.valid - c * fn) for c in range(no)]
            dmas = [self.gm(self.window(mb.valid, w, out_size)) for w in cols if w > 0]
            held = fractal_bytes
        else:  # the fractals into row-major rows, one DMA of the valid rows
            per = mach.vector_repeat_bytes // BLOCK
            blocks = fn * out_size // BLOCK or 1
            vector += no * blocks * (-(-mb.padded // per) + mach.vector_latency)
            dmas = [self.gm(self.window(mb.valid, nb.valid, out_size))]
            held = self.share  # from the bottom of the half, where the next windows go
        end = self.issue("V", vector, mad_end, ub_ready)
        return end, dmas, held, columns

    def _crowd(self, rows_bytes: int, windows: int) -> bool:
        """`GemmResult._rows_crowd`: the result's fractals and rows beside the tile's
        largest K step's windows (`windows` bytes, or up to where the pipeline placed them)
        overflow the UB half."""
        if self.placed_peak is not None:
            windows = max(windows, self.placed_peak)
        return 2 * rows_bytes + windows > self.share


# Rows of tiles (and tiles of a row) replayed: the first SAMPLE + 1 and the last; those
# between take the time the last replayed steady one took (the schedule is periodic there).
SAMPLE = 2


def _skipped(index: int, count: int) -> bool:
    return count > SAMPLE + 2 and SAMPLE < index < count - 1


def _box(con: Contraction, names: tuple[str, ...], box: TileBox, side: int) -> _Box:
    sizes = {v: n for v, (_, n) in box.items() if v in names}
    starts = tuple((v, box[v][0]) for v in names if v in box)
    padded = up(count_points(names, sizes), side)
    cons = tuple(c for c in (*con.a_cons, *con.b_cons, *con.out_cons) if _within(c, names))
    return _Box(padded, _valid(tuple(sizes.items()), starts, cons))


def _within(aff: Affine, names: tuple[str, ...]) -> bool:
    return all(v in names for v, _ in aff.terms)


@cache
def _valid(
    sizes: tuple[tuple[str, int], ...],
    starts: tuple[tuple[str, int], ...],
    cons: tuple[Affine, ...],
) -> int:
    """Points of a tile box (`sizes`, at `starts`) that the constraints `cons` leave."""
    shift = {v: Affine.var(v) + s for v, s in starts if s}
    space = Space(dict(sizes), tuple(c.substitute(shift) for c in cons))
    if not space.live_constraints:  # the whole box
        return count_points(tuple(v for v, _ in sizes), dict(sizes))
    return space.point_count()


def _unit(offset: Affine, names: tuple[str, ...]) -> bool:
    """Whether one of `names` is the access's unit-stride index."""
    return any(abs(k) == 1 for v, k in offset.terms if v in names)
