"""The Cube's tiling, in one place: which tiles of a contraction the backend tries, in what
order, what each buffer's budget is, and the knobs `plaidc tune` searches.

A tile is a batch point, a block of M and of N (an output block) and a K step. The tilings of
each index set come from `vector.var_tilings`, aligned to the Cube's side for that set (M to
`cube_m`, N to `cube_n`, K to `cube_k`); a tiling is tried when its first (largest) tile
plausibly fits every buffer's share (`fits`: L0A, L0B, L0C, L1 and UB, with double buffering
each a half) and its operand windows fit UB (`windows_fit`), fewest tiles first. Planning the
tile decides (`cube` falls back to the next on OutOfMemory).

The pass pipeline's `tile_cube` step (npu.toml) proposes tiles first, sized by budgets the
config writes in the same terms (L0A/L0B halves per operand, a quarter of L0C for the
accumulators); the backend checks its tiles with these same functions and cuts them further
when they do not fit.

Knobs (`[codegen]`, `CubeTileOptions`): the most points of M, N and K in one tile
(`cube_tile_m`, `cube_tile_n`, `cube_k_step`; 0 = as many as fit). They narrow the tilings
tried, whoever proposed them. `cube_own_tiles` false keeps a matrix product on the pass
pipeline's tiles where the estimate would take the backend's (the estimate is a model: an
fp32 64 x 128 x 96 matmul runs 10% fewer cycles on the pipeline's). `plaidc tune -t npu`
searches them all.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from plaidc.backends.npu import img2col
from plaidc.backends.npu.context import Context
from plaidc.backends.npu.cube_match import Contraction, count_points
from plaidc.backends.npu.kernels import error
from plaidc.backends.npu.moves import Space
from plaidc.backends.npu.ops import BLOCK
from plaidc.backends.npu.ops import round_up as up
from plaidc.backends.npu.staging import byte_exact
from plaidc.backends.npu.vector import var_tilings
from plaidc.options import OptionError, option, read_options
from plaidc.stripe.ir import Affine

TileBox = dict[str, tuple[int, int]]  # index -> (start, extent)

# How many of the tilings that plausibly fit a contraction is planned before giving up (a
# 16 x 100 x 1030 matmul on a 64 KiB UB needed its 67th).
MAX_ATTEMPTS = 128

_EXTENTS = (0, 16, 32, 64, 128, 256, 512)


@dataclass(frozen=True)
class CubeTileOptions:
    """`[codegen]` knobs of the Cube's tiles (npu.toml), read with `context.Options`."""

    cube_tile_m: int = option(
        0,
        "the most points of a contraction's M indices (output rows) in one Cube tile; 0: as "
        "many as fit",
        min=0,
        tune=_EXTENTS,
    )
    cube_tile_n: int = option(
        0,
        "the most points of a contraction's N indices (output columns) in one Cube tile; 0: "
        "as many as fit",
        min=0,
        tune=_EXTENTS,
    )
    cube_k_step: int = option(
        0,
        "the most points of a contraction's K indices (the reduction) in one K step of the "
        "Cube; 0: as many as fit",
        min=0,
        tune=_EXTENTS,
    )

    cube_own_tiles: bool = option(
        True,
        "a matrix product may take the backend's own Cube tiles (ranked by estimated cycles) "
        "instead of the pass pipeline's when they are estimated at least 10% faster",
        tune=True,
    )

    @staticmethod
    def from_codegen(codegen: Mapping[str, Any]) -> CubeTileOptions:
        """The knobs among `[codegen]`'s keys (`context.Options` reads the others)."""
        own = {k: v for k, v in codegen.items() if k in CUBE_TILE_KEYS}
        try:
            return read_options(CubeTileOptions, own)
        except OptionError as err:
            raise error(f"[codegen] {err.key} = {err.value!r} must be {err.expected}") from None


CUBE_TILE_KEYS = frozenset(f.name for f in dataclasses.fields(CubeTileOptions))


@dataclass(frozen=True)
class CubeTiling:
    """One tiling of a contraction: the batch points, the M blocks, the N blocks (the output
    tiles are every batch point and M block with every N block) and the K steps."""

    batches: list[tuple[int, ...]]
    m: list[TileBox]
    n: list[TileBox]
    k: list[TileBox]
    sub: int = 1  # L0 sub-steps per K step (`l0_split`)
    m_parts: int = 1  # ... and M parts per sub-step


def tilings(
    ctx: Context,
    con: Contraction,
    ranges: dict[str, int],
    pinned: tuple[str, ...],
    gemm: bool = False,
) -> Iterator[CubeTiling]:
    """The tilings to try, fewest tiles first: those whose tiles plausibly fit every buffer,
    within the knobs and `[codegen] max_tiles`, at most MAX_ATTEMPTS of them. `pinned`
    indices have one point per tile (the pass pipeline's tiles)."""
    mach, limit, knobs = ctx.machine, ctx.options.max_tiles, ctx.cube_tiles
    sets = (
        (con.m, mach.cube_m, knobs.cube_tile_m),
        (con.n, mach.cube_n, knobs.cube_tile_n),
        (con.k, mach.cube_k, knobs.cube_k_step),
    )
    per_set = []
    for names, side, most in sets:
        found = var_tilings(names, ranges, dict.fromkeys(names, side), limit, pinned)
        if most:  # the knob: tiles of at most `most` points (one point always qualifies)
            found = [t for t in found if _extent(t) <= most] or found[-1:]
        if gemm:  # a GEMM's tiles: each one run of rows, of columns and of K
            found = [t for t in found if all(_contiguous(b, names, ranges) for b in t)] or found
            found = [[clipped(con, names, b) for b in t] for t in found]
        per_set.append(found)
    m_tilings, n_tilings, k_tilings = per_set
    batches = list(itertools.product(*[range(ranges[v]) for v in con.batch]))
    choices = sorted(
        itertools.product(range(len(m_tilings)), range(len(n_tilings)), range(len(k_tilings))),
        key=lambda c: (len(m_tilings[c[0]]) * len(n_tilings[c[1]]) * len(k_tilings[c[2]]), c),
    )
    found_count = 0
    for mi, ni, ki in choices:
        m_t, n_t, k_t = m_tilings[mi], n_tilings[ni], k_tilings[ki]
        if len(batches) * len(m_t) * len(n_t) * len(k_t) > limit:
            continue
        uses = len(n_t)
        resident = resident_step_bytes(ctx, con, m_t[0], k_t, uses) is not None
        tile = {**m_t[0], **n_t[0], **k_t[0]}
        sizes = {v: n for v, (_, n) in tile.items()}
        m, n, k = _extent(m_t), _extent(n_t), _extent(k_t)
        # img2col writes a K step's window into L0A whole: no sub-steps
        # a GEMM's K steps may reach L0 in parts (`l0_split`); img2col writes a K step's
        # window into L0A whole
        split = l0_split(ctx, con, m, n, k) if gemm else (1, 1)
        if not (fits(ctx, con, m, n, k, resident, split, gemm) and windows_fit(ctx, con, sizes)):
            continue
        if gemm and not _rows_in_bursts(con, m_t, n_t, k_t):
            continue
        yield CubeTiling(batches, m_t, n_t, k_t, *split)
        found_count += 1
        if found_count >= MAX_ATTEMPTS:
            return


def clipped(con: Contraction, names: tuple[str, ...], box: TileBox) -> TileBox:
    """A GEMM tile `box` of the index set `names` cut to the points the constraints on
    those indices leave (their bounding box, isl): a ragged last tile (700 rows in tiles of
    128: 60 rows) then computes, moves and loads the fractals of its valid points, not of
    the whole box (64 rows, not 128)."""
    cons = tuple(c for c in (*con.a_cons, *con.b_cons, *con.out_cons) if _within(c, names))
    return dict(_clip(tuple(box.items()), cons)) if cons else box


def _within(aff: Affine, names: tuple[str, ...]) -> bool:
    return all(v in names for v, _ in aff.terms)


@cache
def _clip(
    box: tuple[tuple[str, tuple[int, int]], ...], cons: tuple[Affine, ...]
) -> tuple[tuple[str, tuple[int, int]], ...]:
    shift = {v: Affine.var(v) + s for v, (s, _) in box if s}
    space = Space({v: n for v, (_, n) in box}, tuple(c.substitute(shift) for c in cons))
    if not space.live_constraints:  # every point of the box is valid (no isl needed)
        return box
    out = []
    for v, (start, extent) in box:
        bounds = space.bounds(Affine.var(v)) if extent > 1 else None
        if bounds is None:  # one point, or none valid: as it is
            out.append((v, (start, extent)))
            continue
        lo, hi = bounds
        out.append((v, (start + lo, hi - lo + 1)))
    return tuple(out)


def _rows_in_bursts(
    con: Contraction, m_t: list[TileBox], n_t: list[TileBox], k_t: list[TileBox]
) -> bool:
    """Whether each operand's window comes in as one burst per row: its rows (the index set
    without the unit stride) one index of the box, or its rows whole 32-B blocks. A window
    whose rows span two indices of a split one (K steps of 2 `k` x 64 `k_1`) and are no
    whole number of blocks (70 fp16 columns) is brought in as runs and its elements spread
    into rows on the vector unit (fp16 140 x 300 x 70: 79,502 cycles against 5,361 for K
    steps of one `k`), which `cube_cost` does not model."""
    size = con.dtype.byte_size
    for access, sets in ((con.a, (m_t, k_t, con.m, con.k)), (con.b, (k_t, n_t, con.k, con.n))):
        rows_t, cols_t, rows, cols = sets
        if not any(abs(c) == 1 for v, c in access.offset.terms if v in cols):
            rows_t, cols_t, rows, cols = cols_t, rows_t, cols, rows
        if all(sum(1 for v in rows if box.get(v, (0, 1))[1] > 1) <= 1 for box in rows_t):
            continue
        width = count_points(cols, {v: n for v, (_, n) in cols_t[0].items()})
        if width * size % BLOCK:  # the full tiles' (a ragged last one's rows come in whole)
            return False
    return True


def _contiguous(box: TileBox, names: tuple[str, ...], ranges: dict[str, int]) -> bool:
    """Whether the tile `box` of the index set `names` (outermost first, as `recognise`
    orders them: `256*m + m_1` is `m, m_1`) is one run of the index they make: inside the
    outermost index it cuts, every index is whole. A box of 3 `m` x 64 `m_1` is three runs of
    64 rows, which one DMA brings in only as their whole span, the vector unit then picking
    the rows out (fp16 768 x 512 x 512: PIPE_V 94,208 cycles of vmuls, Cube 22% busy).
    A GEMM's N blocks and K steps are held to it too: a K step of 3 `k` x 64 `k_1` (fp16
    700 x 700 x 500) or an N block of 2 `n` x 64 `n_1` gathers its windows on the vector
    unit the same way (376,572 and 462,204 cycles against 141,544 for the same extents in
    one run; `cube_cost` does not model the gather)."""
    cut = False
    for v in names:
        start, extent = box[v]
        if cut and (start, extent) != (0, ranges[v]):
            return False
        cut = cut or extent > 1
    return True


def _extent(tiling: list[TileBox]) -> int:
    """Points of the first (largest) tile of a tiling of one index set."""
    first = tiling[0]
    return count_points(tuple(first), {v: n for v, (_, n) in first.items()})


def img2col_layout(ctx: Context, con: Contraction, tile: TileBox) -> img2col.ConvLayout | None:
    """The roles of a convolution's indices when its left operand goes by img2col (the
    tile's K steps then load L0A by `img2col_cbuf_to_ca`), else None."""
    mach = ctx.machine
    if mach.cube_m != mach.cube_k:
        return None
    sizes = {v: n for v, (_, n) in tile.items()}
    shape = ctx.buffers[con.a.buffer].shape
    return img2col.layout(shape, con.a.offset, con.m, con.k, sizes, mach.cube_k)


def l0_split(ctx: Context, con: Contraction, m: int, n: int, k: int) -> tuple[int, int]:
    """How an m x n x k tile's K steps reach the Cube: `(sub, m_parts)`, K steps in `sub`
    L0 sub-steps (ranges of their K fractals) and each sub-step's products in `m_parts`
    (ranges of A's fractal rows, each into accumulators of its own, B's fractals loaded once
    for them), so that each load fits the L0A and L0B shares; the K step's L1 and UB
    buffers, and its DMAs, stay whole (fewer, larger transfers from GM). Fewest sub-steps
    first (A's fractal rows are one load each per sub-step: longer loads, fewer of them),
    then fewest M parts. (0, 0) when no split fits."""
    mach, share = ctx.machine, ctx.options.buffering
    parts = 2 if con.split else 1
    mo, np_, ko = -(-m // mach.cube_m), up(n, mach.cube_n), -(-k // mach.cube_k)
    column = parts * mach.cube_k * 2  # bytes of one K fractal column of one row
    for sub in range(1, ko + 1):
        per = -(-ko // sub)
        if np_ * per * column > mach.l0b_bytes // share:
            continue
        rows = mach.l0a_bytes // share // (per * column) // mach.cube_m  # fractal rows
        if rows >= 1:
            return sub, -(-mo // rows)
    return 0, 0


def fits(
    ctx: Context,
    con: Contraction,
    m: int,
    n: int,
    k: int,
    resident: bool,
    split: tuple[int, int] = (1, 1),
    gemm: bool = False,
) -> bool:
    """Whether a GEMM tile of m x n x k plausibly fits every buffer's share (a filter on the
    tilings to try; planning the tile decides), its K steps reaching the Cube as `split`
    says (`l0_split`). With A `resident` in L1, the tile's own L1 buffers get half of L1,
    and A and B take UB one after the other."""
    mach, share = ctx.machine, ctx.options.buffering
    sub, m_parts = split
    if sub < 1:
        return False
    mp, np_, kp = up(m, mach.cube_m), up(n, mach.cube_n), up(k, mach.cube_k)
    kl0 = -(-kp // mach.cube_k // sub) * mach.cube_k  # K of one L0 sub-step
    ml0 = -(-mp // mach.cube_m // m_parts) * mach.cube_m  # M of one product
    parts = 2 if con.split else 1
    size = con.dtype.byte_size
    per_elem = size + (2 + 4 + 2 if con.split else 0)
    steps = [mp * kp * per_elem + m * k * size, np_ * kp * per_elem + n * k * size]
    ub_step = max(steps) if resident else sum(steps)
    # the result's fractals out of L0C and its rows: an fp16 result converted on the way out
    # (`Gemm._store`), else fp32 fractals (two with the split) and the converted rows
    one_fp16 = gemm and con.out.byte_size == 2 and not con.split
    ub_out = 2 * mp * np_ * 2 if one_fp16 else max(parts, 2) * mp * np_ * 4
    l1_tile = parts * (np_ if resident else mp + np_) * kp * 2
    return (
        parts * ml0 * kl0 * 2 <= mach.l0a_bytes // share
        and parts * np_ * kl0 * 2 <= mach.l0b_bytes // share
        and parts * mp * np_ * 4 <= mach.l0c_bytes // share
        and l1_tile <= mach.l1_bytes // (2 if resident else 1) // share
        and max(ub_step, ub_out) <= mach.ub_bytes // share
    )


def windows_fit(ctx: Context, con: Contraction, sizes: dict[str, int]) -> bool:
    """Whether each operand's GM window fits UB's share when it cannot be read in rows: with
    no stride a whole number of 32-B blocks, the window (`staging`) is the contiguous span of
    the tile's elements, whole rows of the matrix included (a 16 x 16 tile of a 1030-wide
    matrix spans 16 of its rows). Not for a matrix product's operands, whose rows come in
    byte-exact bursts whatever their stride (`staging.Window.exact`) where the chip has
    `copy_gm_to_ubuf_align`."""
    share = ctx.machine.ub_bytes // ctx.options.buffering
    size = con.dtype.byte_size
    exact = byte_exact(ctx, store=False)
    conv = img2col_layout(ctx, con, {v: (0, n) for v, n in sizes.items()}) is not None
    for access in (con.a, con.b):
        name = access.buffer
        if exact and not conv and ctx.storage[name] == ctx.gm_type[name]:
            continue  # a plain matrix's rows come in exact (`staging.Window.exact`)
        terms = [(v, k) for v, k in access.offset.terms if sizes.get(v, 1) > 1]
        strides = [abs(k) for _, k in terms if abs(k) > 1]
        if not strides or any(k * size % BLOCK == 0 for k in strides):
            continue  # in rows of whole blocks (or one run): `fits` counts the window
        span = 1 + sum(abs(k) * (sizes.get(v, 1) - 1) for v, k in terms)
        if span * size > share:
            return False
    return True


def resident_step_bytes(
    ctx: Context, con: Contraction, outer: TileBox, k_tiles: list[TileBox], uses: int
) -> int | None:
    """The L1 bytes each K step of the resident left operand takes (K step `s` at `s` times
    them, the first step being the largest), or None when the left operand of the tiles
    sharing `outer` is not to be resident: `[codegen] reuse` off, one tile using it, or its
    K steps not within the lower half of L1 (half of L1 stays for the tiles' own transfers).
    `resident_alternates` says whether successive groups alternate between the halves of
    that half."""
    if not ctx.options.reuse or uses < 2:
        return None
    size, align = ctx.capacity("L1")
    half = size // 2 // align * align
    mach = ctx.machine
    rows = up(count_points(con.m, {v: n for v, (_, n) in outer.items() if v in con.m}), mach.cube_m)
    parts = 2 if con.split else 1
    cols = up(count_points(con.k, {v: n for v, (_, n) in k_tiles[0].items()}), mach.cube_k)
    stride = parts * up(rows * cols * 2, align)
    return stride if stride * len(k_tiles) <= half else None


def resident_alternates(ctx: Context, stride: int, steps: int) -> bool:
    """Whether a residency of `steps` K steps of `stride` bytes fits a half of L1's lower
    half, so that successive groups of tiles alternate between those halves (the next
    group's operand loads while this group's last tile computes); else it takes the whole
    lower half, and the next group's first tile overwrites each K step once this group's
    last tile has loaded it into L0A (a larger residency: fewer, taller groups, so that the
    right operand is read from GM fewer times)."""
    size, align = ctx.capacity("L1")
    half = size // 2 // align * align
    return stride * steps <= half // ctx.options.buffering // align * align
