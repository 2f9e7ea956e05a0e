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

Tiles. The pass pipeline's (`tile_cube`: output blocks and K steps, the C says when they were
cut further) are tried first, then the backend's own; a tiling is taken when its tiles plausibly
fit every buffer (`cube_tiling`, which also has the knobs `plaidc tune` searches) and planning
them does not run out of room. Modules: `cube_match` recognises the kernels, `cube_tiling`
orders the tilings, `gemm` lowers one output tile, this one lowers the tiling's loops.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from dataclasses import dataclass

from plaidc.backends.npu import conv_map_rows, conv_weights, cube_prefetch, img2col
from plaidc.backends.npu.context import Context
from plaidc.backends.npu.cube_cost import estimated_cycles, ranked
from plaidc.backends.npu.cube_match import Contraction, Epilogue, count_points, recognise
from plaidc.backends.npu.cube_residency import Resident, TileBox, Weights
from plaidc.backends.npu.cube_tiling import (
    CubeTiling,
    img2col_layout,
    resident_alternates,
    resident_step_bytes,
    tilings,
)
from plaidc.backends.npu.gemm import Gemm, NotCube
from plaidc.backends.npu.kernels import Kernel
from plaidc.backends.npu.loops import sample, steady
from plaidc.backends.npu.moves import Space
from plaidc.backends.npu.ops import (
    Op,
    OutOfMemory,
    begin_core,
    begin_iteration,
    comment,
    end_loop,
)
from plaidc.backends.npu.ops import round_up as up
from plaidc.backends.npu.placement import CUBE_MEMS, Placed
from plaidc.backends.npu.staging import Tiler
from plaidc.backends.npu.valops import Val
from plaidc.backends.npu.vector import (
    Lowered,
    cut_further,
    pipeline_tiles_first,
    placement_note,
    tile_comment,
    tiles_chosen,
)
from plaidc.backends.npu_sim.machine import BLOCK_BYTES
from plaidc.stripe.ir import Affine

# The share of L1 a convolution's weights may take (`_weights`): a half, else a quarter (as
# before: the tiles' own buffers then have the rest).
WEIGHTS_SHARE_BEFORE = 4

# The backend's best tiling replaces the pass pipeline's only when estimated this much
# faster or more (`cube_cost.estimated_cycles` is a model: closer calls are
# within its error).
ESTIMATE_MARGIN = 0.9


def lower_contraction(
    ctx: Context, kernel: Kernel, epilogue: Epilogue | None = None
) -> list[Op] | None:
    """The kernel on the Cube (with `epilogue` fused after it), or None (use the vector unit)
    when it is not a contraction or no tiling fits."""
    con = recognise(ctx, kernel)
    if con is None:
        return None
    ranges = kernel.ranges
    if not ctx.cube_tiles.cube_own_tiles or _by_img2col(ctx, kernel, con):
        return pipeline_tiles_first(
            kernel, lambda pinned: _lower_tiled(ctx, kernel, con, epilogue, pinned)
        )
    # A GEMM: the backend's tilings by estimated cycles; the pass pipeline's tiles first
    # unless the best of those is estimated clearly faster (`ESTIMATE_MARGIN`).
    own = ranked(ctx, con, tilings(ctx, con, ranges, (), gemm=True))
    pipeline = next(tilings(ctx, con, ranges, kernel.pinned), None) if kernel.pinned else None
    # last, the tilings without L0 parts, fewest tiles first (more of them plausibly fit)
    plain = list(tilings(ctx, con, ranges, ()))
    tries: list[tuple[tuple[str, ...], list[CubeTiling] | None]] = [((), own), ((), plain)]
    if pipeline is not None:
        # its own tiles keep the windows where the pipeline placed them in UB
        peak = max(
            (
                at.offset + at.size
                for name, at in kernel.placed_in("UB").items()
                if name in (con.a.buffer, con.b.buffer)
            ),
            default=None,
        )
        pipeline_first = not own or estimated_cycles(ctx, con, own[0]) > ESTIMATE_MARGIN * (
            estimated_cycles(ctx, con, pipeline, peak)
        )
        pinned_try = (kernel.pinned, None)
        tries = [pinned_try, *tries] if pipeline_first else [tries[0], pinned_try, tries[1]]
    for pinned, order in tries:
        lowered = _lower_tiled(ctx, kernel, con, epilogue, pinned, order)
        if lowered is not None:
            ops, cut = lowered
            if kernel.pinned:
                faster = not pinned and pipeline is not None
                why = " (estimated faster than the pass pipeline's)" if faster else ""
                ops.insert(0, tiles_chosen(bool(pinned), cut, why))
            return ops
    return None


def _by_img2col(ctx: Context, kernel: Kernel, con: Contraction) -> bool:
    """Whether the contraction takes a convolution's path (the pass pipeline's tiles, the
    left operand by img2col) rather than the GEMM tilings ranked by `estimated_cycles`
    (which model plain matrices): a convolution img2col reads with its indices as the
    program has them, or one whose indices the pipeline split (`x = 2*x + x_1`, `ci = 8*ci +
    ci_1`: no tile's roles show the window until the split index has one point per tile)
    when its weights stay in L1 on the pipeline's tiles. Where they do not, each of those
    tiles gathers every K step's weights again in img2col's row order (channels padded to
    whole fractals), and K steps of one window position read as plain matrices do better
    (fp32 3x3 58x58x64->64 on a 256 KiB L1: 1,288,108 cycles against 2,463,943)."""
    whole = {v: (0, n) for v, n in kernel.ranges.items()}
    if img2col_layout(ctx, con, whole) is not None:
        return True
    shape, mach = ctx.buffers[con.a.buffer].shape, ctx.machine
    if mach.cube_m != mach.cube_k or not img2col.reads_window(shape, con.a.offset, con.m, con.k):
        return False
    tiling = next(tilings(ctx, con, kernel.ranges, kernel.pinned), None)
    if tiling is None:
        return False
    first = {v: (0, 1) for v in con.batch} | tiling.m[0] | tiling.n[0] | tiling.k[0]
    conv = img2col_layout(ctx, con, first)
    return conv is not None and _weights(ctx, con, conv, tiling.n, tiling.k) is not None


def _lower_tiled(
    ctx: Context,
    kernel: Kernel,
    con: Contraction,
    epilogue: Epilogue | None,
    pinned: tuple[str, ...],
    order: list[CubeTiling] | None = None,
    weights_share: int = 2,
    hold: bool = True,
    slab: bool = True,
) -> Lowered | None:
    """The contraction on the first tiling (`cube_tiling.tilings`: fewest tiles first,
    `pinned` indices one point per tile; `order`: these instead) whose tiles fit every buffer, or
    None. None too when `epilogue` does not fit a tiling that fits the contraction alone: the
    epilogue would cost the contraction finer tiles (more loads of its operands) than the
    separate kernel's trip through GM saves. A convolution's weights stay in L1 when they fit
    `1 / weights_share` of it (`_weights`); a tiling that then runs out of room is tried
    again with them in a quarter (or not kept). A fused epilogue's invariant inputs are kept
    in UB across a core's tiles (`hold`) unless that leaves a tile too little room: the
    tiling is tried again with them loaded by every tile."""
    ranges = kernel.ranges
    for tiling in order if order is not None else tilings(ctx, con, ranges, pinned):
        first, groups = ctx.parity, ctx.groups
        outers = [
            {v: (x, 1) for v, x in zip(con.batch, batch, strict=True)} | mt
            for batch in tiling.batches
            for mt in tiling.m
        ]
        inners, k_tiles = tiling.n, tiling.k
        count = len(outers) * len(inners)
        first_tile = outers[0] | inners[0] | k_tiles[0]
        sizes = {v: n for v, (_, n) in first_tile.items() if v not in con.batch}
        cut = cut_further(sizes, ranges, pinned)
        # the pipeline's placements hold for its own tiles; a fused epilogue plans UB its own
        # way (the pipeline placed the unfused kernels' windows), but not the Cube's buffers
        own = pinned == kernel.pinned and not cut
        placed = {
            (at.mem, name): at
            for name, at in kernel.placed
            if own and (epilogue is None or at.mem in CUBE_MEMS)
        }
        # Each tile takes one UB/L1/L0 half per K step and one for its store (`Gemm.lower`):
        # tile k's first half is the parity of `first + k * steps`.
        steps = len(k_tiles) + 1
        weights: Weights | None = None
        deferred: list[Op] = []  # weights the core's first tile brings after its window
        try:
            ops: list[Op] = []

            # A loop over the output tiles' rows (batch points and M blocks: A resident in L1
            # for the tiles of one, the first of which loads it) around a loop over their N
            # blocks, so that every address is affine in the two loop indices.
            uses = len(inners)
            forms = con.forms
            # The rows of output tiles split over the cores: chunk c on core c (`cores`).
            chunks = _core_chunks(ctx, con, epilogue, outers, inners)
            core_loop = ctx.new_loop() if len(chunks) > 1 else None
            # a convolution's weights stay in L1 across its output tiles (`_weights`)
            conv = img2col_layout(ctx, con, first_tile)
            weights = _weights(ctx, con, conv, inners, k_tiles, weights_share)
            # the next row's left operand into L1 during this row (`cube_prefetch`)
            prefetch = None
            if conv is None and ctx.options.reuse and not ctx.options.serialise:
                prefetch = cube_prefetch.plan(ctx, con, outers, inners, k_tiles)
            for ci, (lo, hi) in enumerate(chunks):
                if core_loop is not None:
                    ops.extend(begin_core(core_loop, ci, len(chunks)))
                # a fused epilogue's invariant inputs, loaded by the core's first tile and
                # kept in its UB for the others (`GemmResult._epilogue`)
                ctx.held = []
                invariants: dict[tuple, Val] | None = {} if hold and ctx.options.reuse else None
                if weights is not None:
                    weights.loaded.clear()  # each core loads them into its own L1
                    weights.late.clear()
                    preloaded, deferred = _preload(
                        ctx, kernel, con, outers[lo], inners, k_tiles, weights
                    )
                    ops.extend(preloaded)
                    # the core's windows in one run of L1 (`conv_map_rows`)
                    span = (lo * len(inners), hi * len(inners) - 1)
                    weights.rows = None
                    if slab:
                        weights.rows = _row_slab(ctx, kernel, con, tiling, outers, weights, span)
                part = outers[lo:hi]
                outer_loop = ctx.new_loop()
                # With the prefetch, a row's last store goes into the next row's first tile,
                # as any tile's into the next: that tile no longer brings its left operand,
                # which kept MTE2 the busier and hid the store at the row's end
                carry = prefetch is not None
                pending: Op | None = None
                done_row = -1
                rows = _Rows(
                    ctx, kernel, con, tiling, outers, placed, weights, prefetch, conv, first, groups
                )

                for li in sample(len(part), ctx.sampling and steady(part, forms)):
                    oi = lo + li
                    ops.append(begin_iteration(outer_loop, li, len(part)))
                    if carry and li > done_row + 1:  # the sample skipped the row before
                        previous = rows.resident(oi - 1, li - 1)
                        pending = rows.skipped_store(oi - 1, uses - 1, previous)
                    resident = rows.resident(oi, li)
                    nxt = None  # the next row's, which this row's tiles prefetch
                    later = li + 1 < len(part)
                    if prefetch is not None and later and prefetch.full(outers[oi + 1]):
                        nxt = prefetch.resident(outers[oi + 1], groups + oi + 1, False)
                    inner_loop = ctx.new_loop()
                    done = -1
                    for nj in sample(uses, ctx.sampling and steady(inners, forms)):
                        ops.append(begin_iteration(inner_loop, nj, uses))
                        if weights is not None:
                            weights.block, weights.tile = nj, oi * uses + nj
                        k, tile = oi * uses + nj, outers[oi] | inners[nj]
                        if count > 1:
                            starts = {v: s for v, (s, _) in tile.items()}
                            sizes = {v: n for v, (_, n) in tile.items()}
                            ops.append(tile_comment(k, count, starts, sizes, ranges))
                        if nj > done + 1:  # a sampled loop skipped the previous tile: its store
                            pending = rows.skipped_store(oi, nj - 1, resident)
                            if weights is not None:
                                weights.block, weights.tile = nj, k
                        gemm = Gemm(ctx, kernel, con, tile, epilogue, resident, placed, weights)
                        gemm.defer = epilogue is None
                        gemm.invariants = invariants
                        gemm.sub, gemm.m_parts = tiling.sub, tiling.m_parts
                        if prefetch is not None and nxt is not None:
                            gemm.prefetch = _prefetching(ctx, con, prefetch, nxt, nj, li == 0)
                        if li == 0 and nj == 0 and weights is not None:
                            gemm.after_window = deferred
                        tile_ops = gemm.lower(
                            k_tiles, first + k * steps, _cube_parity(first, k, len(k_tiles))
                        )
                        ops.extend(defer_store(pending, tile_ops, nj == 0))
                        if weights is not None:
                            weights.late.clear()  # the core's first tile brought them
                        pending, done = gemm.deferred, nj
                        if k == 0 and placed:  # after "tile 1 of N", the vector unit's note
                            ops.append(comment(placement_note(kernel, gemm.honoured)))
                    ops.append(end_loop(inner_loop, uses))
                    if pending is not None and not carry:
                        ops.append(pending)
                        pending = None
                    done_row = li
                ops.append(end_loop(outer_loop, len(part)))
                if pending is not None:
                    ops.append(pending)
            if core_loop is not None:
                ops.append(end_loop(core_loop, len(chunks), cores=True))
        except conv_map_rows.SlabMiss:
            # a tile's window is not where the core's run of rows holds it: the slots
            ctx.parity, ctx.groups = first, groups
            ctx.held = []
            return _lower_tiled(
                ctx, kernel, con, epilogue, pinned, [tiling], weights_share, hold, slab=False
            )
        except OutOfMemory:
            if ctx.held:  # the epilogue's kept inputs left a tile too little room
                ctx.held = []
                again = _lower_tiled(
                    ctx, kernel, con, epilogue, pinned, [tiling], weights_share, hold=False
                )
                if again is not None:
                    return again
            if weights is not None and weights_share < WEIGHTS_SHARE_BEFORE:
                # the weights' share of L1 left the tiles too little: as they were before
                again = _lower_tiled(
                    ctx, kernel, con, epilogue, pinned, [tiling], WEIGHTS_SHARE_BEFORE, hold
                )
                if again is not None:
                    return again
            if epilogue is not None:
                alone = _lower_tiled(ctx, kernel, con, None, pinned, [tiling], hold=hold)
                ctx.parity, ctx.groups = first, groups
                if alone is not None:
                    return None
            continue
        except NotCube:
            return None
        finally:
            ctx.held = []
        ctx.parity, ctx.groups = first + count * steps, groups + len(outers)
        return ops, cut
    return None


@dataclass
class _Rows:
    """What the tiles of a tiling's rows share: a row's residency and the store of a tile
    that a sampled loop skipped."""

    ctx: Context
    kernel: Kernel
    con: Contraction
    tiling: CubeTiling
    outers: list[TileBox]
    placed: dict[tuple[str, str], Placed]
    weights: Weights | None
    prefetch: cube_prefetch.Prefetch | None
    conv: img2col.ConvLayout | None
    first: int  # the first tile's UB parity
    groups: int  # the first row's group number

    def resident(self, oi: int, li: int) -> Resident | None:
        """The left operand's residency for row `oi` (the `li`th of its core), or None."""
        con, k_tiles, uses = self.con, self.tiling.k, len(self.tiling.n)
        outer, group = self.outers[oi], self.groups + oi
        if self.prefetch is not None:
            brought = li > 0 and self.prefetch.full(outer)
            return self.prefetch.resident(outer, group, brought)
        if self.conv is None:
            return _resident(self.ctx, con, outer, k_tiles, uses, group)
        return None

    def skipped_store(self, oi: int, nj: int, resident: Resident | None) -> Op | None:
        """The deferred store of tile (`oi`, `nj`), which a sampled loop skipped."""
        tiling, weights = self.tiling, self.weights
        k_tiles, uses = tiling.k, len(tiling.n)
        k = oi * uses + nj
        if weights is not None:
            weights.block, weights.tile = nj, k
        tile = self.outers[oi] | tiling.n[nj]
        gemm = Gemm(self.ctx, self.kernel, self.con, tile, None, resident, self.placed, weights)
        gemm.defer = True
        gemm.sub, gemm.m_parts = tiling.sub, tiling.m_parts
        steps = len(k_tiles) + 1
        gemm.lower(k_tiles, self.first + k * steps, _cube_parity(self.first, k, len(k_tiles)))
        return gemm.deferred


def _prefetching(
    ctx: Context,
    con: Contraction,
    prefetch: cube_prefetch.Prefetch,
    nxt: Resident,
    tile: int,
    lead: bool,
) -> Callable[[int], list[Op]]:
    """The DMAs tile `tile` of a row (a core's first: `lead`) issues after each of its K
    steps: the next row's (`nxt`) left operand."""
    return lambda step: prefetch.dmas(ctx, con, nxt, tile, step, lead)


def _cube_parity(first: int, k: int, k_steps: int) -> tuple[int, int]:
    """Tile k's L0C half and its first K step's L1/L0A/L0B half (`Gemm.lower`): the tiles
    alternate L0C halves and every K step, also across tiles, the other buffers' halves."""
    return first + k, first + k * k_steps


def defer_store(pending: Op | None, tile_ops: list[Op], spread_only: bool = False) -> list[Op]:
    """The previous tile's store (`pending`: its transfer from UB to GM) issued among this
    tile's ops: MTE3 runs in order, so a store issued as soon as its tile ends holds up the
    next tile's copies into L1 until the result has come out of L0C through the vector unit;
    issued a tile later, its result is long ready. Its transfers (a store by fractal columns
    is several) are spread over this tile's K steps (`spread_store`) that end before the
    first op touching the bytes it reads or writes, where there are enough of them; else,
    when no op touches them (and not `spread_only`: the previous row's last store, which
    waited at the row's end before), after the tile's ops, and otherwise before them."""
    if pending is None:
        return tile_ops
    touched = [*pending.reads, *pending.writes]
    before = len(tile_ops)
    for i, op in enumerate(tile_ops):
        if any(w.overlaps(r) for w in op.writes for r in touched) or any(
            r.overlaps(w) for r in op.reads for w in pending.writes
        ):
            before = i
            break
    spread = spread_store(pending, tile_ops, before)
    if spread is not None:
        return spread
    after = before == len(tile_ops) and not spread_only
    return [*tile_ops, pending] if after else [pending, *tile_ops]


def spread_store(pending: Op, tile_ops: list[Op], before: int | None = None) -> list[Op] | None:
    """`tile_ops` with the transfers of `pending` (one op each, in their order) at the ends of
    the tile's K steps after the first that end before op `before` (all: None), as many at
    each (the last of them takes the rest), or None when those K steps outnumber the
    transfers or there are none, or when they are not all of a sampled loop's.

    Issued after the whole tile, a store of several transfers sits in MTE3's queue in front
    of the next tile's first copies into L1, which MTE3 can run only a K step or two ahead
    of the Cube (the L1 halves): the Cube waits for the store's tail at every tile boundary.
    A few of them after each K step fill MTE3's slack there instead. The first K step is
    left out: its copies are issued before the previous tile's result leaves L0C. The share
    of each K step is the same (a multiple of the K step's index in the transfers' order),
    so that the K steps stay alike and their loop rolls (`loops`), also when sampled: a
    step the sample leaves out has its transfers in the rolled loop's body."""
    before = len(tile_ops) if before is None else before
    marks = [(i, op.mark) for i, op in enumerate(tile_ops) if op.mark is not None]
    if not marks:
        return None
    loop, steps = marks[0][1].loop, marks[0][1].count
    own = [(i, mark) for i, mark in marks if mark.loop == loop]
    # the K steps that end before `before` (a K step ends where the next mark is)
    slots = steps - 1  # K steps 1.. that end in time
    if before < len(tile_ops):
        ended = [a.index for (_, a), (j, _) in itertools.pairwise(own) if j <= before]
        if [mark.index for _, mark in own if mark.index >= 0] != list(range(steps)):
            return None  # a sample: the steps after `before` would be alike, and have none
        slots = len(ended) - 1
    pieces = [dataclasses.replace(pending, stmts=(stmt,)) for stmt in pending.stmts]
    if slots < 1 or len(pieces) < slots:
        return None
    per = len(pieces) // slots
    out: list[Op] = []
    current: int | None = None  # the K step whose ops are being copied
    for i, op in enumerate(tile_ops):
        mark = op.mark
        if mark is not None and mark.loop == loop:
            if current is not None and 1 <= current <= slots and i <= before:
                # the end of K step `current`: its share of the transfers
                end = len(pieces) if current == slots else current * per
                out.extend(pieces[(current - 1) * per : end])
            current = mark.index if mark.index >= 0 else None
        out.append(op)
    return out


def _weights(
    ctx: Context,
    con: Contraction,
    conv: img2col.ConvLayout | None,
    inners: list[TileBox],
    k_tiles: list[TileBox],
    share: int = 2,
) -> Weights | None:
    """L1 for a convolution's weights (every N block and K step, each in its padded
    img2col row order), kept across the output tiles when `[codegen] reuse` is on and they
    fit `1 / share` of L1 (the top; the tiles' own buffers double-buffer below it): half of
    it first, else every tile brings each K step's weights again (on a 256 KiB L1, the 3x3
    64->64 fp16 conv's 72 KiB; an fp32 conv's hi and lo parts, in K steps of 8 channels
    padded to 16, four times that), and a quarter where half leaves a tiling too little.
    Also for a core's single row of tiles: the weights then come before it in one transfer
    (`conv_weights`) rather than one per K step. Not with batch indices (a grouped
    convolution's groups): each batch point has weights of its own."""
    if conv is None or not ctx.options.reuse or con.batch:
        return None
    size, align = ctx.capacity("L1")
    fn = ctx.machine.cube_n
    cols = up(count_points(con.n, {v: n for v, (_, n) in inners[0].items()}), fn)
    stride = up((2 if con.split else 1) * conv.columns * cols * 2, align)
    total = stride * len(inners) * len(k_tiles)
    if total > size // share:
        return None
    base = size - total
    # the tiles' windows (`Weights.window_slot`) in the half below, for single-part operands
    windows = base // 2 // align * align if not con.split else 0
    return Weights(base, stride, len(k_tiles), align, windows=windows)


def _row_slab(
    ctx: Context,
    kernel: Kernel,
    con: Contraction,
    tiling: CubeTiling,
    outers: list[TileBox],
    weights: Weights,
    span: tuple[int, int],
) -> conv_map_rows.RowSlab | None:
    """The run of L1 holding the windows of a core's tiles `span` (first and last index),
    where the window slots of `weights` were, or None (`conv_map_rows.plan`)."""
    if not weights.windows:
        return None
    uses = len(tiling.n)
    tiler = Tiler(ctx, ctx.arena("UB", 0), [])

    def extent(k: int) -> conv_map_rows.Extent | None:
        tile = outers[k // uses] | tiling.n[k % uses]
        window = conv_map_rows.shared_window(Gemm(ctx, kernel, con, tile), tiling.k, tiler)
        if window is None or window.rows != 1:
            return None
        return window.first, window.first + window.width

    elem = ctx.gm_type[con.a.buffer].byte_size
    size = weights.base - weights.windows
    return conv_map_rows.plan(extent, *span, weights.windows, size, elem, weights.align)


def _preload(
    ctx: Context,
    kernel: Kernel,
    con: Contraction,
    outer: TileBox,
    inners: list[TileBox],
    k_tiles: list[TileBox],
    weights: Weights,
) -> tuple[list[Op], list[Op]]:
    """A convolution's weights for every N block and K step into L1 before a core's first
    output tile (`conv_weights`), where they are such; the tiles load the others. With one
    N block, the last K step's may come in a transfer of their own after the first tile's
    window (`conv_weights.deferrable`): the second list, for that tile to issue."""
    ops: list[Op] = []
    tail: list[Op] = []
    for nj, inner in enumerate(inners):
        weights.block = nj
        gemm = Gemm(ctx, kernel, con, outer | inner, None, None, None, weights)
        defer = 0
        conv = gemm.conv_layout(k_tiles[0])
        if len(inners) == 1 and conv is not None and not ctx.options.serialise:
            mad = gemm.rows_m // gemm.fm * (conv.columns // gemm.fk) * (gemm.rows_n // gemm.fn)
            defer = conv_weights.deferrable(gemm, k_tiles, mad)
        found = conv_weights.preload(gemm, k_tiles, ctx.parity, defer)
        if found is None and defer:
            found = conv_weights.preload(gemm, k_tiles, ctx.parity)
        if found is not None:
            ops.extend(found[0])
            tail.extend(found[1])
            if found[1]:
                weights.late.add((nj, len(k_tiles) - 1))
    return ops, tail


def _resident(
    ctx: Context, con: Contraction, outer: TileBox, k_tiles: list[TileBox], uses: int, group: int
) -> Resident | None:
    """A residency for the left operand of the tiles sharing `outer` (the `group`th such
    set of tiles), when `[codegen] reuse` is on, more than one tile uses it and all its K
    steps fit a quarter of L1 (an eighth with single buffering: half of L1 stays for the
    tiles' own transfers). Groups alternate between the halves of that quarter."""
    stride = resident_step_bytes(ctx, con, outer, k_tiles, uses)
    if stride is None:
        return None
    size, align = ctx.capacity("L1")
    half = size // 2 // align * align
    base = 0
    if resident_alternates(ctx, stride, len(k_tiles)):
        base = ctx.arena("L1", parity=group, hi=half).base
    return Resident(outer, base, stride, align, half)


def _core_chunks(
    ctx: Context,
    con: Contraction,
    epilogue: Epilogue | None,
    outers: list[TileBox],
    inners: list[TileBox],
) -> list[tuple[int, int]]:
    """The rows of output tiles (`outers`) each core runs, as [lo, hi) ranges, as even as
    they come where the GM bytes the cores store allow (one range: all on one core). The
    cores' stores must touch disjoint 32-B GM blocks (the simulator's race granule: two cores
    writing parts of one block race, even by byte-exact stores), so each boundary between
    two cores' rows is the even one or the nearest row after which every store of the rows
    before ends in an earlier block than any store of the rows after begins (a conv's output
    rows of 15 x 40 fp16 in tiles of 3 rows: every second tile); a boundary with none is
    dropped (fewer cores)."""
    n = len(outers)
    cores = min(ctx.machine.cores, n)
    if cores < 2:
        return [(0, n)]
    if epilogue is None:
        stores = [(con.store.access.offset, con.out.byte_size, dict[str, str]())]
    else:
        names = epilogue.names
        stores = [
            (s.access.offset, ctx.gm_type[s.access.buffer].byte_size, names)
            for s in epilogue.kernel.stores()
        ]
    rows = []
    for outer in outers:
        # each tile's own span (a hull of the row's tiles would reach past it where the
        # pipeline split an index: rows x = 2*x + x_1 from (8, 0) to (11, 0) are not 16..23)
        tiles = []
        for box in (outer | inners[0], outer | inners[-1]):
            hull = {v: (s, s + n - 1) for v, (s, n) in box.items()}
            if epilogue is None:  # the output's constraints clip ragged tiles (isl)
                tiles.append([_clipped_span(con, hull)])
            else:
                tiles.append([_span(offset, size, hull, names) for offset, size, names in stores])
        rows.append([_union([t[k] for t in tiles]) for k in range(len(stores))])

    def splits(j: int) -> bool:
        """Whether rows [.., j) store into earlier GM blocks than rows [j, ..)."""
        for k in range(len(stores)):
            before, after = _union([r[k] for r in rows[:j]]), _union([r[k] for r in rows[j:]])
            empty = before[1] < before[0] or after[1] < after[0]
            if not empty and before[1] // BLOCK_BYTES >= after[0] // BLOCK_BYTES:
                return False
        return True

    q, r = divmod(n, cores)
    bounds: list[int] = []
    for c in range(1, cores):
        even = c * q + min(c, r)
        near = sorted(range(max(bounds, default=0) + 1, n), key=lambda j: (abs(j - even), j))
        found = next((j for j in near if splits(j)), None)
        if found is not None:
            bounds.append(found)
    edges = [0, *sorted(bounds), n]
    return list(itertools.pairwise(edges))


def _union(spans: list[tuple[int, int]]) -> tuple[int, int]:
    """The first and last byte of the non-empty `spans` ((0, -1) when none is)."""
    found = [(a, b) for a, b in spans if b >= a]
    return (min(a for a, _ in found), max(b for _, b in found)) if found else (0, -1)


def _clipped_span(con: Contraction, hull: dict[str, tuple[int, int]]) -> tuple[int, int]:
    """The first and last byte the contraction's store reaches over the points of `hull`
    (index -> first and last value) that its output constraints keep."""
    shift = {v: Affine.var(v) + a for v, (a, _) in hull.items() if a}
    space = Space(
        {v: b - a + 1 for v, (a, b) in hull.items()},
        tuple(c.substitute(shift) for c in con.out_cons),
    )
    found = space.bounds(con.store.access.offset.substitute(shift))
    if found is None:
        return 0, -1
    size = con.out.byte_size
    return found[0] * size, found[1] * size + size - 1


def _span(
    offset: Affine, size: int, hull: dict[str, tuple[int, int]], names: dict[str, str]
) -> tuple[int, int]:
    """The first and last byte `offset` (elements of `size` bytes) reaches over `hull`
    (index -> first and last value; `names` renames the hull's indices into the offset's)."""
    ranges = {names.get(v, v): r for v, r in hull.items()}
    lo = hi = offset.const
    for v, k in offset.terms:
        a, b = ranges.get(v, (0, 0))
        lo += min(k * a, k * b)
        hi += max(k * a, k * b)
    return lo * size, hi * size + size - 1
