"""The `gather` special on the NPU: a data-dependent row address, through the scalar unit.

`out[p..., e...] = source[clamp(index[p...], 0, rows - 1), e...]` (the interpreter's clamping).
DMA and vector addresses are fixed when an instruction issues, and a row of the source need not
start on a 32-B block, so the copy itself runs on the scalar unit (PIPE_S), which reads each
index from UB and then copies the row element by element between UB windows:

1. MTE2 brings the whole source and the tile's indices into UB (8/16-bit and bool buffers are
   converted to int32 lanes there, as everywhere);
2. PIPE_S, for every index point: `k = clamp(ld_ubuf(index), 0, rows - 1)`, then
   `st_ubuf(out + ..., ld_ubuf(source + k * row_stride + ...))` for every element of the row;
3. MTE3 writes the output window back (read first when the tile covers only part of it).

Tiles cut the index's outermost dimension until a tile's windows fit in its share of UB; a
source larger than that share is a CompileError (it would need one DMA per row).
"""

from __future__ import annotations

from typing import NamedTuple

from plaidc.backends.c import ast as c
from plaidc.backends.npu.context import Context
from plaidc.backends.npu.kernels import GatherKernel, Operand, error
from plaidc.backends.npu.moves import Space, affine_expr
from plaidc.backends.npu.ops import Buf, Op, OutOfMemory, comment, lit
from plaidc.backends.npu.staging import Tiler, Window
from plaidc.stripe.ir import Affine


def _access(op: Operand, names: list[str], starts: dict[str, int]) -> Affine:
    """The element of `op` at `names` (one index per dimension, tile-local plus `starts`)."""
    aff = Affine.const_(op.offset)
    for name, stride in zip(names, op.shape.strides, strict=True):
        aff = aff + (Affine.var(name) + starts.get(name, 0)) * stride
    return aff


def lower_gather(ctx: Context, g: GatherKernel) -> list[Op]:
    """The ops of a gather, in as few tiles (cuts of the index's first dimension) as fit."""
    sizes = g.index.shape.sizes
    first = sizes[0] if sizes else 1
    parts = 1
    while True:
        step = -(-first // parts)
        parity = ctx.parity
        try:
            ops: list[Op] = []
            for k, lo in enumerate(range(0, first, step)):
                ops.extend(_tile(ctx, g, lo, min(step, first - lo), parity + k))
            ctx.parity = parity + len(range(0, first, step))
            return ops
        except OutOfMemory:
            if step == 1:
                raise error(
                    f"{g.name}: the gather's source and one index row do not fit in UB "
                    f"({ctx.machine.ub_bytes} bytes)",
                    g.span,
                ) from None
            parts *= 2


def _tile(ctx: Context, g: GatherKernel, lo: int, count: int, parity: int) -> list[Op]:
    ops: list[Op] = []
    tiler = Tiler(ctx, ctx.arena("UB", parity), ops)
    src, idx, out = g.source, g.index, g.out
    p_names = [f"p{d}" for d in range(len(idx.shape.sizes))]
    e_names = [f"e{d}" for d in range(len(src.shape.sizes) - 1)]
    p_sizes = dict(zip(p_names, idx.shape.sizes, strict=True))
    if p_names:
        p_sizes[p_names[0]] = count
    e_sizes = dict(zip(e_names, src.shape.sizes[1:], strict=True))
    starts = {p_names[0]: lo} if p_names else {}

    # The source, whole: its row index `r` is data, so every row must be there.
    src_space = Space({"r": src.shape.sizes[0], **e_sizes})
    src_access = _access(src, ["r", *e_names], {})
    src_window = tiler.window(src_space, src.buffer, [src_access])
    src_buf = tiler.read_window(src_window)
    src_pos = src_window.to_ub(src_space.fold(src_access))
    # The tile's indices.
    idx_space = Space(dict(p_sizes))
    idx_access = _access(idx, p_names, starts)
    idx_window = tiler.window(idx_space, idx.buffer, [idx_access])
    idx_buf = tiler.read_window(idx_window)
    idx_pos = idx_window.to_ub(idx_space.fold(idx_access))
    # The output window (read first when the tile writes only part of it).
    out_space = Space({**p_sizes, **e_sizes})
    out_access = _access(out, [*p_names, *e_names], starts)
    out_window = tiler.window(out_space, out.buffer, [out_access])
    out_pos = out_window.to_ub(out_space.fold(out_access))
    lanes = tiler.lane_room(out.buffer, out_window.elements)
    out_buf = tiler.arena.alloc(lanes * ctx.storage[out.buffer].byte_size, f"window {out.buffer}")
    if not tiler.covers(out_space, out_window):
        tiler.dma("in", out_window, out_buf)

    ops.append(comment(f"{g.name}: rows picked by {idx.buffer}, copied by the scalar unit"))
    ops.append(
        _copy_op(
            ctx,
            Placed(src, src_buf, src_pos, src_window),
            Placed(idx, idx_buf, idx_pos, idx_window),
            Placed(out, out_buf, out_pos, out_window),
            (p_names, e_names, {**p_sizes, **e_sizes}),
        )
    )
    tiler.dma("out", out_window, out_buf)
    return ops


class Placed(NamedTuple):
    """An operand's window in UB: its buffer there and the UB position of its elements."""

    operand: Operand
    buf: Buf
    pos: Affine
    window: Window


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
