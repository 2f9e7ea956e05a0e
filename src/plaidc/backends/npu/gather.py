"""The `gather` special on the NPU: a data-dependent row address, through the scalar unit.

`out[p..., e...] = source[clamp(index[p...], 0, rows - 1), e...]` (the interpreter's clamping).
A row of the source need not start on a 32-B block, and vector addresses are fixed when an
instruction issues, so the rows are placed by the scalar unit (PIPE_S), which reads each index
from UB. Two ways, whichever the machine's numbers make cheaper (`_cheaper`):

* **Whole source in UB** (small tables): MTE2 brings the whole source and the tile's indices
  into UB (8/16-bit and bool buffers converted to int32 lanes there, as everywhere); PIPE_S,
  for every index point, `k = clamp(ld_ubuf(index), 0, rows - 1)`, then copies the row
  element by element into the output window; MTE3 writes the window back (read first when the
  tile covers only part of it). Tiles cut the index's outermost dimension until a tile's
  windows fit in its share of UB; each tile brings the whole source again.
* **Rows by DMA** (any table size): per tile, PIPE_S reads the tile's clamped indices into
  scalar registers (a C array), MTE2 brings each picked row's 32-B blocks from GM into a slot
  of a UB staging buffer (one DMA per row, at an address computed from the index), and PIPE_S
  copies each row from its slot (at the row's offset within its first block) into the output
  window, which MTE3 writes back. Tiles alternate between the halves of UB, so one tile's row
  transfers overlap the previous tile's copies and store.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

from plaidc.backends.c import ast as c
from plaidc.backends.npu.context import Context
from plaidc.backends.npu.kernels import GatherKernel, Operand, error
from plaidc.backends.npu.moves import Space, affine_expr
from plaidc.backends.npu.ops import (
    Buf,
    Op,
    OutOfMemory,
    Region,
    call,
    comment,
    elems_per_block,
    lit,
    round_up,
)
from plaidc.backends.npu.staging import Tiler, Window
from plaidc.stripe.ir import Affine


def _access(op: Operand, names: list[str], starts: dict[str, int]) -> Affine:
    """The element of `op` at `names` (one index per dimension, tile-local plus `starts`)."""
    aff = Affine.const_(op.offset)
    for name, stride in zip(names, op.shape.strides, strict=True):
        aff = aff + (Affine.var(name) + starts.get(name, 0)) * stride
    return aff


def lower_gather(ctx: Context, g: GatherKernel) -> list[Op]:
    """The ops of a gather: the whole source in UB or its rows by DMA (`_cheaper`), in as few
    tiles (cuts of the index's first dimension) as fit."""
    whole = _tiled(ctx, g, _tile, 1)
    if whole is not None and _cheaper(ctx, g, whole[1]):
        ops, tiles = whole
    else:
        # rows by DMA, in two tiles at least (where the index has two rows): one tile's row
        # transfers overlap the other's copies
        by_dma = _tiled(ctx, g, _dma_tile, 2)
        if by_dma is None:
            size, _ = ctx.capacity("UB")
            share = size // ctx.options.buffering
            raise error(
                f"{g.name}: one row of the gather's source, with its index and output row, "
                f"does not fit in a tile's share of UB ({share} bytes: ub_bytes = {size} with "
                f"[codegen] buffering = {ctx.options.buffering})",
                g.span,
            )
        ops, tiles = by_dma
    ctx.parity += tiles
    return ops


TileFn = Callable[[Context, GatherKernel, int, int, int], list[Op]]


def _tiled(ctx: Context, g: GatherKernel, tile: TileFn, parts: int) -> tuple[list[Op], int] | None:
    """The gather in tiles of `tile` (ops and the tile count): the index's first dimension in
    `parts` tiles or more, doubling until every tile fits; None if one-row tiles do not."""
    sizes = g.index.shape.sizes
    first = sizes[0] if sizes else 1
    parts = min(parts, first)
    while True:
        step = -(-first // parts)
        starts = range(0, first, step)
        try:
            ops: list[Op] = []
            for k, lo in enumerate(starts):
                ops.extend(tile(ctx, g, lo, min(step, first - lo), ctx.parity + k))
            return ops, len(starts)
        except OutOfMemory:
            if step == 1:
                return None
            parts *= 2


def _cheaper(ctx: Context, g: GatherKernel, whole_tiles: int) -> bool:
    """Whether bringing the whole source once per tile (`whole_tiles` tiles) costs MTE2 no
    more cycles than one DMA per index point of its row's blocks (the machine's latency and
    bandwidth; the scalar unit's copies are the same either way)."""
    mach = ctx.machine
    size = ctx.gm_type[g.source.buffer].byte_size
    source_bytes = math.prod(g.source.shape.sizes) * size
    row_bytes = _row_slot(ctx, g)[2] * size
    points = math.prod(g.index.shape.sizes)
    whole = whole_tiles * (mach.gm_latency + source_bytes / mach.gm_bytes_per_cycle)
    by_dma = points * (mach.gm_latency + row_bytes / mach.gm_bytes_per_cycle)
    return whole <= by_dma


def _tile_names(
    g: GatherKernel, lo: int, count: int
) -> tuple[list[str], list[str], dict[str, int], dict[str, int], dict[str, int]]:
    """A tile of `count` index points from `lo`: the index dimensions' names `p0..` (the first
    cut to the tile), a source row's element dimensions `e0..`, their sizes, and the tile's
    start."""
    p_names = [f"p{d}" for d in range(len(g.index.shape.sizes))]
    e_names = [f"e{d}" for d in range(len(g.source.shape.sizes) - 1)]
    p_sizes = dict(zip(p_names, g.index.shape.sizes, strict=True))
    if p_names:
        p_sizes[p_names[0]] = count
    e_sizes = dict(zip(e_names, g.source.shape.sizes[1:], strict=True))
    starts = {p_names[0]: lo} if p_names else {}
    return p_names, e_names, p_sizes, e_sizes, starts


def _tile(ctx: Context, g: GatherKernel, lo: int, count: int, parity: int) -> list[Op]:
    ops: list[Op] = []
    tiler = Tiler(ctx, ctx.arena("UB", parity), ops)
    src, idx = g.source, g.index
    p_names, e_names, p_sizes, e_sizes, starts = _tile_names(g, lo, count)

    # The source, whole: its row index `r` is data, so every row must be there.
    src_space = Space({"r": src.shape.sizes[0], **e_sizes})
    src_access = _access(src, ["r", *e_names], {})
    src_window = tiler.window(src_space, src.buffer, [src_access])
    src_buf = tiler.read_window(src_window)
    src_pos = src_window.to_ub(src_space.fold(src_access))
    # The tile's indices and its output window.
    idx_at, out_at = _index_and_output(ctx, tiler, g, p_sizes, e_sizes, starts)

    ops.append(comment(f"{g.name}: rows picked by {idx.buffer}, copied by the scalar unit"))
    src_at = Placed(src, src_buf, src_pos, src_window)
    ops.append(_copy_op(ctx, src_at, idx_at, out_at, (p_names, e_names, {**p_sizes, **e_sizes})))
    tiler.dma("out", out_at.window, out_at.buf)
    return ops


class Placed(NamedTuple):
    """An operand's window in UB: its buffer there and the UB position of its elements."""

    operand: Operand
    buf: Buf
    pos: Affine
    window: Window


def _index_and_output(
    ctx: Context,
    tiler: Tiler,
    g: GatherKernel,
    p_sizes: dict[str, int],
    e_sizes: dict[str, int],
    starts: dict[str, int],
) -> tuple[Placed, Placed]:
    """A tile's index window (read) and output window (read first when the tile writes only
    part of it) in UB, in that order."""
    idx, out = g.index, g.out
    p_names, e_names = list(p_sizes), list(e_sizes)
    idx_space = Space(dict(p_sizes))
    idx_access = _access(idx, p_names, starts)
    idx_window = tiler.window(idx_space, idx.buffer, [idx_access])
    idx_buf = tiler.read_window(idx_window)
    idx_pos = idx_window.to_ub(idx_space.fold(idx_access))
    out_space = Space({**p_sizes, **e_sizes})
    out_access = _access(out, [*p_names, *e_names], starts)
    out_window = tiler.window(out_space, out.buffer, [out_access])
    out_pos = out_window.to_ub(out_space.fold(out_access))
    lanes = tiler.lane_room(out.buffer, out_window.elements)
    out_buf = tiler.arena.alloc(lanes * ctx.storage[out.buffer].byte_size, f"window {out.buffer}")
    if not tiler.covers(out_space, out_window):
        tiler.dma("in", out_window, out_buf)
    return Placed(idx, idx_buf, idx_pos, idx_window), Placed(out, out_buf, out_pos, out_window)


def _copy_op(
    ctx: Context,
    src: Placed,
    idx: Placed,
    out: Placed,
    loops: tuple[list[str], list[str], dict[str, int]],
) -> Op:
    """The scalar unit's loop nest: for each index point read `k`, then copy the row."""
    p_names, e_names, sizes = loops
    space = Space(sizes)

    def ptr(placed: Placed, subst: dict[str, c.Expr] | None = None) -> c.Expr:
        base = placed.buf.ptr(ctx.storage[placed.operand.buffer])
        return c.Binary("+", base, affine_expr(space.fold(placed.pos), space, subst))

    rows = src.operand.shape.sizes[0]
    k = c.Ident("k")
    read = c.Cast("int64_t", c.CallExpr("ld_ubuf", (ptr(idx),)))
    clamp = c.Ternary(
        c.Binary("<", k, lit(0)),
        lit(0),
        c.Ternary(c.Binary(">", k, lit(rows - 1)), lit(rows - 1), k),
    )
    # The source position with its row index `r` replaced by the runtime `k`.
    element = c.CallExpr("ld_ubuf", (ptr(src, {"r": k}),))
    body: tuple[c.Stmt, ...] = (c.ExprStmt(c.CallExpr("st_ubuf", (ptr(out), element))),)
    for name in reversed(e_names):
        if sizes[name] > 1:
            body = (c.For(space.cvar(name), lit(0), lit(sizes[name]), body),)
    row: tuple[c.Stmt, ...] = (
        c.Decl("int64_t", "k", read),
        c.Assign(k, clamp),
        *body,
    )
    for name in reversed(p_names):
        if sizes[name] > 1:
            row = (c.For(space.cvar(name), lit(0), lit(sizes[name]), row),)
    stmt: c.Stmt = c.Compound(row)
    reads = tuple(
        p.buf.region(0, p.window.elements * ctx.storage[p.operand.buffer].byte_size)
        for p in (src, idx)
    )
    writes = (out.buf.region(),)
    return Op("PIPE_S", (stmt,), reads, writes, "gather")


# ---- rows by DMA ------------------------------------------------------------------------------


def _row_slot(ctx: Context, g: GatherKernel) -> tuple[int, int, int]:
    """A source row's extent relative to its first element (`lo`, `hi`: the least and greatest
    element offset of the row's points) and the elements a UB slot needs for the row's blocks
    wherever the row starts within a 32-B block."""
    sizes, strides = g.source.shape.sizes[1:], g.source.shape.strides[1:]
    lo = sum(min(0, (n - 1) * s) for n, s in zip(sizes, strides, strict=True))
    hi = sum(max(0, (n - 1) * s) for n, s in zip(sizes, strides, strict=True))
    per_block = elems_per_block(ctx.gm_type[g.source.buffer])
    return lo, hi, round_up(hi - lo + per_block, per_block)


def _dma_tile(ctx: Context, g: GatherKernel, lo: int, count: int, parity: int) -> list[Op]:
    """One tile of index points, its rows brought from GM one DMA each (see the module)."""
    ops: list[Op] = []
    tiler = Tiler(ctx, ctx.arena("UB", parity), ops)
    src, idx, out = g.source, g.index, g.out
    p_names, e_names, p_sizes, e_sizes, starts = _tile_names(g, lo, count)
    # The tile's indices and its output window.
    idx_at, out_at = _index_and_output(ctx, tiler, g, p_sizes, e_sizes, starts)
    idx_buf, idx_pos, idx_window = idx_at.buf, idx_at.pos, idx_at.window
    out_buf, out_pos, out_window = out_at.buf, out_at.pos, out_at.window
    # A slot of whole blocks per index point for its row, in the source's GM type.
    gm_type = ctx.gm_type[src.buffer]
    size, per_block = gm_type.byte_size, elems_per_block(gm_type)
    row_lo, row_hi, slot = _row_slot(ctx, g)
    points = math.prod(p_sizes.values())
    stage = tiler.arena.alloc(points * slot * size, f"rows of {src.buffer}")

    space = Space({**p_sizes, **e_sizes})
    point = affine_expr(space.fold(_dense(p_names, p_sizes)), space)  # the point's slot
    rows = c.Ident(f"gather_rows_{ctx.unique()}")
    picked = c.Subscript(rows, point)
    nrows = src.shape.sizes[0]
    # The first element of the picked row's blocks, and the row's offset in its first block.
    first = c.Binary(
        "+", lit(src.offset + row_lo), c.Binary("*", picked, lit(src.shape.strides[0]))
    )
    block_start = c.Binary("*", c.Binary("/", first, lit(per_block)), lit(per_block))
    within = c.Binary("%", first, lit(per_block))
    blocks = c.Binary("/", c.Binary("+", within, lit(row_hi - row_lo + per_block)), lit(per_block))
    slot_ptr = c.Binary("+", stage.ptr(gm_type), c.Binary("*", point, lit(slot)))
    ops.append(
        comment(f"{g.name}: rows picked by {idx.buffer}, one DMA each (the table stays in GM)")
    )

    # PIPE_S: each index, clamped, into a scalar register.
    k = c.Ident("k")
    read_idx = c.Binary(
        "+", idx_buf.ptr(ctx.storage[idx.buffer]), affine_expr(space.fold(idx_pos), space)
    )
    clamp = c.Ternary(
        c.Binary("<", k, lit(0)),
        lit(0),
        c.Ternary(c.Binary(">", k, lit(nrows - 1)), lit(nrows - 1), k),
    )
    pick: tuple[c.Stmt, ...] = (
        c.Decl("int64_t", "k", c.Cast("int64_t", c.CallExpr("ld_ubuf", (read_idx,)))),
        c.Assign(picked, clamp),
    )
    decl = c.Decl("int64_t", rows.name, array=max(points, 1))
    idx_bytes = idx_window.elements * ctx.storage[idx.buffer].byte_size
    ops.append(
        Op(
            "PIPE_S",
            (decl, _loops(space, p_names, pick)),
            (idx_buf.region(0, idx_bytes),),
            (),
            "indices",
        )
    )
    # MTE2: each picked row's blocks into its slot.
    gm_row = c.Binary("+", c.Ident(ctx.gm_names[src.buffer]), block_start)
    dma = call("copy_gm_to_ubuf", slot_ptr, gm_row, 0, 1, blocks, 0, 0)
    extent = round_up(ctx.buffers[src.buffer].extent, per_block) * size
    ops.append(
        Op(
            "PIPE_MTE2",
            (_loops(space, p_names, (dma,)),),
            (Region(f"GM:{src.buffer}", 0, extent),),
            (stage.region(),),
            f"rows of {src.buffer}",
        )
    )
    # PIPE_S: each row from its slot into the output window.
    # the element's offset in the row, from the row's least element
    in_row = Affine.const_(-row_lo)
    for name, stride in zip(e_names, src.shape.strides[1:], strict=True):
        in_row = in_row + Affine.var(name, stride)
    rel = affine_expr(space.fold(in_row), space)
    element = c.CallExpr("ld_ubuf", (c.Binary("+", c.Binary("+", slot_ptr, within), rel),))
    out_ptr = c.Binary(
        "+", out_buf.ptr(ctx.storage[out.buffer]), affine_expr(space.fold(out_pos), space)
    )
    store: tuple[c.Stmt, ...] = (c.ExprStmt(c.CallExpr("st_ubuf", (out_ptr, element))),)
    for name in reversed(e_names):
        if e_sizes[name] > 1:
            store = (c.For(space.cvar(name), lit(0), lit(e_sizes[name]), store),)
    ops.append(
        Op(
            "PIPE_S",
            (_loops(space, p_names, store),),
            (stage.region(),),
            (out_buf.region(),),
            "gather",
        )
    )
    tiler.dma("out", out_window, out_buf)
    return ops


def _dense(names: list[str], sizes: dict[str, int]) -> Affine:
    """The row-major position of a point of `names` (of `sizes`)."""
    pos, stride = Affine(), 1
    for name in reversed(names):
        pos = pos + Affine.var(name, stride)
        stride *= sizes[name]
    return pos


def _loops(space: Space, names: list[str], body: tuple[c.Stmt, ...]) -> c.Stmt:
    """`body` in `for` loops over the indices `names` (those of more than one point)."""
    for name in reversed(names):
        if space.sizes[name] > 1:
            body = (c.For(space.cvar(name), lit(0), lit(space.sizes[name]), body),)
    return c.Compound(body)
