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
fit every buffer (`_fits`) and planning them does not run out of room. Modules: `cube_match`
recognises the kernels, `gemm` lowers one output tile, this one chooses the tiling.
"""

from __future__ import annotations

import itertools

from plaidc.backends.npu import img2col
from plaidc.backends.npu.context import Context
from plaidc.backends.npu.cube_match import Contraction, Epilogue, count_points, recognise
from plaidc.backends.npu.gemm import Gemm, NotCube, Resident, TileBox, Weights
from plaidc.backends.npu.kernels import Kernel
from plaidc.backends.npu.loops import sample, steady
from plaidc.backends.npu.ops import Op, OutOfMemory, begin_iteration, comment, end_loop
from plaidc.backends.npu.ops import round_up as up
from plaidc.backends.npu.placement import CUBE_MEMS
from plaidc.backends.npu.vector import (
    Lowered,
    cut_further,
    pipeline_tiles_first,
    placement_note,
    tile_comment,
    var_tilings,
)

# How many of the tilings that plausibly fit a contraction is planned before giving up (a
# 16 x 100 x 1030 matmul on a 64 KiB UB needed its 67th).
MAX_ATTEMPTS = 128


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
        return count_points(
            tuple(tilings[index][0]), {v: n for v, (_, n) in tilings[index][0].items()}
        )

    def fits(mi: int, ni: int, ki: int) -> bool:
        m, n, k = extent(m_tilings, mi), extent(n_tilings, ni), extent(k_tilings, ki)
        uses = len(n_tilings[ni])
        resident = None
        if _conv(ctx, con, m_tilings[mi][0] | n_tilings[ni][0] | k_tilings[ki][0]) is None:
            resident = _resident_step_bytes(ctx, con, m_tilings[mi][0], k_tilings[ki], uses)
        tile = {**m_tilings[mi][0], **n_tilings[ni][0], **k_tilings[ki][0]}
        sizes = {v: n for v, (_, n) in tile.items()}
        return _fits(ctx, con, m, n, k, resident is not None) and _windows_fit(ctx, con, sizes)

    fitting = [(mi, ni, ki) for mi, ni, ki in choices if fits(mi, ni, ki)]
    for mi, ni, ki in fitting[:MAX_ATTEMPTS]:
        count = len(batches) * len(m_tilings[mi]) * len(n_tilings[ni])
        if count * len(k_tilings[ki]) > ctx.options.max_tiles:
            continue
        first, groups = ctx.tiles, ctx.groups
        outers = [
            {v: (x, 1) for v, x in zip(con.batch, batch, strict=True)} | mt
            for batch in batches
            for mt in m_tilings[mi]
        ]
        inners, k_tiles = n_tilings[ni], k_tilings[ki]
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
        try:
            ops: list[Op] = []

            # A loop over the output tiles' rows (batch points and M blocks: A resident in L1
            # for the tiles of one, the first of which loads it) around a loop over their N
            # blocks, so that every address is affine in the two loop indices.
            uses = len(inners)
            forms = con.forms
            conv = _conv(ctx, con, first_tile)
            weights = _weights(ctx, con, conv, len(outers), inners, k_tiles)
            outer_loop = ctx.new_loop()
            for oi in sample(len(outers), ctx.sampling and steady(outers, forms)):
                ops.append(begin_iteration(outer_loop, oi, len(outers)))
                resident = None
                if conv is None:
                    resident = _resident(ctx, con, outers[oi], k_tiles, uses, groups + oi)
                inner_loop = ctx.new_loop()
                for nj in sample(uses, ctx.sampling and steady(inners, forms)):
                    ops.append(begin_iteration(inner_loop, nj, uses))
                    if weights is not None:
                        weights.block, weights.tile = nj, oi * uses + nj
                    k, tile = oi * uses + nj, outers[oi] | inners[nj]
                    if count > 1:
                        starts = {v: s for v, (s, _) in tile.items()}
                        sizes = {v: n for v, (_, n) in tile.items()}
                        ops.append(tile_comment(k, count, starts, sizes, ranges))
                    gemm = Gemm(ctx, kernel, con, tile, epilogue, resident, placed, weights)
                    ops.extend(gemm.lower(k_tiles, first + k * steps))
                    if k == 0 and placed:  # after "tile 1 of N", where the vector unit's note
                        ops.append(comment(placement_note(kernel, gemm.honoured)))
                ops.append(end_loop(inner_loop, uses))
            ops.append(end_loop(outer_loop, len(outers)))
            ctx.tiles, ctx.groups = first + count * steps, groups + len(outers)
            return ops, cut
        except OutOfMemory:
            ctx.tiles, ctx.groups = first, groups
        except NotCube:
            ctx.tiles, ctx.groups = first, groups
            return None
    return None


def _conv(ctx: Context, con: Contraction, tile: TileBox) -> img2col.ConvLayout | None:
    """The roles of a convolution's indices when its left operand goes by img2col."""
    sizes = {v: n for v, (_, n) in tile.items()}
    shape = ctx.buffers[con.a.buffer].shape
    return img2col.layout(shape, con.a.offset, con.m, con.k, sizes, ctx.machine.cube_m)


def _weights(
    ctx: Context,
    con: Contraction,
    conv: img2col.ConvLayout | None,
    outers: int,
    inners: list[TileBox],
    k_tiles: list[TileBox],
) -> Weights | None:
    """L1 for a convolution's weights (every N block and K step, each in its padded
    img2col row order), kept across the output tiles when `[codegen] reuse` is on, more
    than one tile row shares them and they fit a quarter of L1 (the top quarter; the tiles'
    own buffers double-buffer below it). Not with batch indices (a grouped convolution's
    groups): each batch point has weights of its own."""
    if conv is None or not ctx.options.reuse or outers < 2 or con.batch:
        return None  # (batch points, e.g. a grouped conv's groups, have weights of their own)
    size, align = ctx.capacity("L1")
    f = ctx.machine.cube_m
    cols = up(count_points(con.n, {v: n for v, (_, n) in inners[0].items()}), f)
    stride = up((2 if con.split else 1) * conv.columns * cols * 2, align)
    total = stride * len(inners) * len(k_tiles)
    if total > size // 4:
        return None
    base = size - total
    # the tiles' windows (`Weights.window_slot`) in the half below, for single-part operands
    windows = base // 2 // align * align if not con.split else 0
    return Weights(base, stride, len(k_tiles), align, windows=windows)


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


def _resident(
    ctx: Context, con: Contraction, outer: TileBox, k_tiles: list[TileBox], uses: int, group: int
) -> Resident | None:
    """A residency for the left operand of the tiles sharing `outer` (the `group`th such
    set of tiles), when `[codegen] reuse` is on, more than one tile uses it and all its K
    steps fit a quarter of L1 (an eighth with single buffering: half of L1 stays for the
    tiles' own transfers). Groups alternate between the halves of that quarter."""
    stride = _resident_step_bytes(ctx, con, outer, k_tiles, uses)
    if stride is None:
        return None
    size, align = ctx.capacity("L1")
    half = size // 2 // align * align
    arena = ctx.arena("L1", parity=group, hi=half)
    return Resident(outer, arena.base, stride, align, half)


def _resident_step_bytes(
    ctx: Context, con: Contraction, outer: TileBox, k_tiles: list[TileBox], uses: int
) -> int | None:
    """The L1 bytes each K step of the resident left operand takes (K step `s` at `s` times
    them, the first step being the largest), or None when the left operand of the tiles
    sharing `outer` is not to be resident (see `_resident`)."""
    if not ctx.options.reuse or uses < 2:
        return None
    size, align = ctx.capacity("L1")
    half = size // 2 // align * align
    f = ctx.machine.cube_m
    rows = up(count_points(con.m, {v: n for v, (_, n) in outer.items() if v in con.m}), f)
    parts = 2 if con.split else 1
    cols = up(count_points(con.k, {v: n for v, (_, n) in k_tiles[0].items()}), f)
    stride = parts * up(rows * cols * 2, align)
    fits = stride * len(k_tiles) <= half // ctx.options.buffering // align * align
    return stride if fits else None
