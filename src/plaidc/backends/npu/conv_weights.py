"""A convolution's weights into L1 before its tiles, all K steps from one transfer.

Without this, the first output tile of a core brings each K step's weights when it needs
them: one GM transfer per K step (each paying the GM latency), so the first tile's K steps
follow the transfers (MTE2 ~2x slower than the Cube there) and the next tile's feature map
queues behind them. Here every K step's weights of an N block come in one DMA (the GM window
of all of them, in UB), before the first tile's own feature-map load; the vector unit lays
each K step's matrix out from it as the `[Ko][No]` fractals L1 holds (`ko_major`: rows in
img2col's column order, `(u, v, c)`), one block-strided copy per window row, fractal column
and a vector repeat's worth of a fractal's rows, repeated over the window's columns; MTE3
copies each K step's fractals to its slot of `Weights` in one transfer. The tiles then find
them `loaded`.

Only for fp16 weights whose img2col columns need no padding (channels a multiple of the
fractal, every N column a real one) and whose rows are whole 32-B blocks in the window, when
the window and one K step's fractals fit the UB half: otherwise (None) the tiles load them
as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plaidc.backends.c import ast as c
from plaidc.backends.npu.cube_match import count_points
from plaidc.backends.npu.cube_residency import Matrix
from plaidc.backends.npu.img2col import ConvLayout
from plaidc.backends.npu.moves import Space
from plaidc.backends.npu.ops import (
    BLOCK,
    MAX_REPEAT,
    Buf,
    Op,
    OutOfMemory,
    call,
    elems_per_block,
    lit,
)
from plaidc.backends.npu.staging import Tiler
from plaidc.stripe.ir import DType

if TYPE_CHECKING:
    from plaidc.backends.npu.gemm import Gemm


def preload(
    gemm: Gemm, k_tiles: list[dict], parity: int, defer: int = 0
) -> tuple[list[Op], list[Op]] | None:
    """The ops bringing every K step's weights of `gemm`'s N block into their `Weights`
    slots (and recording them there as loaded), in the UB half of `parity`; None when the
    weights are not such (nothing recorded). The last `defer` K steps come in a transfer
    of their own, whose ops are the second list (for the caller to issue later: after the
    first tile's window, so that its K steps start while they arrive); else it is empty."""
    con, ctx, weights = gemm.con, gemm.ctx, gemm.weights
    if weights is None or con.split or con.dtype is not DType.FP16:
        return None
    if not 0 <= defer < len(k_tiles):
        return None
    convs = [gemm.conv_layout(kt) for kt in k_tiles]
    if any(conv is None or conv.padded or conv.c is None for conv in convs):
        return None
    per = ctx.repeat_bytes // BLOCK  # the blocks (fractal rows) a vector repeat moves
    if gemm.fk % per:
        return None
    n_count = count_points(con.n, gemm.sizes)
    if n_count % gemm.fn or len([v for v in con.n if gemm.sizes[v] > 1]) != 1:
        return None
    head: list[Op] = []
    tail: list[Op] = []
    tiler = Tiler(ctx, ctx.arena("UB", parity), head)
    g = elems_per_block(DType.FP16)
    loaded = {}
    images: list[Buf] = []
    cut = len(k_tiles) - defer
    groups = [range(cut), range(cut, len(k_tiles))] if defer else [range(cut)]
    try:
        for ops, steps_of in zip((head, tail), groups, strict=False):
            tiler.ops = ops
            box = {}
            for v in con.k:
                lo = min(k_tiles[s][v][0] for s in steps_of)
                box[v] = (lo, max(k_tiles[s][v][0] + k_tiles[s][v][1] for s in steps_of) - lo)
            whole = _space(gemm, box)
            if whole.is_empty() or whole.live_constraints:
                return None
            starts = {**gemm.starts, **{v: s for v, (s, _) in box.items()}}
            access = gemm.local(con.b.offset, starts)
            window = tiler.window(whole, con.b.buffer, [access])
            buf = tiler.read_window(window)
            for step in steps_of:
                k_tile, conv = k_tiles[step], convs[step]
                assert conv is not None
                space = _space(gemm, k_tile)
                if space.is_empty() or space.live_constraints:
                    return None
                starts = {**gemm.starts, **{v: s for v, (s, _) in k_tile.items()}}
                src = window.to_ub(space.fold(gemm.local(con.b.offset, starts)))
                n_var = next(v for v in con.n if gemm.sizes[v] > 1)
                steps = {v: src.coeff(v) for v in (conv.u, conv.v, conv.c) if v is not None}
                if src.coeff(n_var) != 1 or src.const % g or any(k % g for k in steps.values()):
                    return None
                rows, cols = conv.columns, n_count
                nbytes = rows * cols * 2
                if len(images) < 2:  # two, alternating: a K step's copies overlap the last's
                    images.append(tiler.arena.alloc(nbytes, "weights as fractals"))
                image = images[step % 2]
                stmts = _image(image, buf, conv, src.const, steps, cols, gemm.fk, gemm.fn, per)
                reads, writes = (buf.region(),), (image.region(0, nbytes),)
                ops.append(Op("PIPE_V", tuple(stmts), reads, writes, "weights as fractals"))
                l1 = weights.arena(step).alloc(nbytes, "b in L1")
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
                ops.append(Op("PIPE_MTE3", (stmt,), writes, (l1.region(),), "weights to L1"))
                mat = Matrix(True, rows, cols, (gemm.fk, gemm.fn), None, ko_major=True)
                loaded[weights.block, step] = (mat, [l1])
    except OutOfMemory:
        return None
    weights.loaded.update(loaded)
    return head, tail


def deferrable(gemm: Gemm, k_tiles: list[dict], mad_cycles: int) -> int:
    """How many of the last K steps' weights may come after the first tile's window (0 or
    1): where their transfer (the machine's GM latency and bandwidth) takes no longer than
    the Cube's `mad_cycles` for the K steps before them, so they arrive while it computes
    (the first tile's window then no longer waits for them)."""
    mach = gemm.ctx.machine
    if len(k_tiles) < 2:
        return 0
    nbytes = gemm.rows_n * max(count_points(gemm.con.k, kt) for kt in _sizes(k_tiles)) * 2
    dma = mach.gm_latency + -(-nbytes // mach.gm_bytes_per_cycle)
    return 1 if dma <= mad_cycles * (len(k_tiles) - 1) else 0


def _sizes(k_tiles: list[dict]) -> list[dict[str, int]]:
    return [{v: n for v, (_, n) in kt.items()} for kt in k_tiles]


def _space(gemm: Gemm, k_box: dict) -> Space:
    """The right operand's points for the K indices of `k_box` (index -> (start, extent))."""
    con = gemm.con
    sizes = {**gemm.sizes, **{v: n for v, (_, n) in k_box.items()}}
    starts = {**gemm.starts, **{v: s for v, (s, _) in k_box.items()}}
    return Space(
        {v: sizes[v] for v in (*con.batch, *con.k, *con.n)},
        tuple(gemm.local(a, starts) for a in con.b_cons),
    )


def _image(
    image: Buf,
    window: Buf,
    conv: ConvLayout,
    first: int,
    steps: dict[str, int],
    cols: int,
    fk: int,
    fn: int,
    per: int,
) -> list[c.Stmt]:
    """Vector copies of one K step's weights from their GM window in UB (the element of
    window position `(u, v)`, channel `c` and column `n` at `first + u*steps[u] + v*steps[v]
    + c*steps[c] + n`) into `image` as `ko_major` fractals: fractal `(ko, no)` at
    `ko * cols/fn + no`, `ko` the img2col column block `(u * kW + v) * c1 + cb`, its `fk`
    rows (channels `cb * fk + r`) one block each. A copy moves `per` rows of one fractal column
    for each window column `v` (a repeat each)."""
    g = elems_per_block(DType.FP16)
    strips = cols // fn
    cu, cv, cc = (steps.get(v, 0) if v is not None else 0 for v in (conv.u, conv.v, conv.c))
    ku, kw = conv.size(conv.u), conv.size(conv.v)
    if ku > 1 and (kw == 1 or cu == kw * cv):  # window rows and columns as one run
        ku, kw, cv = 1, ku * kw, cv if kw > 1 else cu
    stmts: list[c.Stmt] = []
    for ui in range(ku):
        for cb in range(conv.c1):
            for no in range(strips):
                for h in range(0, fk, per):
                    for v0 in range(0, kw, MAX_REPEAT):
                        ko = (ui * kw + v0) * conv.c1 + cb
                        src = first + ui * cu + v0 * cv + (cb * fk + h) * cc + no * fn
                        stmts.append(
                            call(
                                "vmuls",
                                image.ptr(DType.FP16, ((ko * strips + no) * fk + h) * BLOCK),
                                window.ptr(DType.FP16, src // g * BLOCK),
                                lit(1),
                                min(MAX_REPEAT, kw - v0),
                                1,
                                cc // g,
                                conv.c1 * strips * fk,
                                cv // g,
                            )
                        )
    return stmts
