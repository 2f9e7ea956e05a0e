"""A Cube tile's result stored to GM straight from its fractals in UB.

L0C's result comes to UB as `[No][Mo][fm][fn]` fractals: fractal column `no` is the tile's
rows in order, `fn` elements each. Where the output's window in GM is the tile's rows (a
window `Tiler.write_window` would send as it is: every element written, in the row-major
order of the tile's points), each fractal column is one DMA of `rows` bursts of `fn` elements,
the output's row stride apart in GM. That needs no vector pass to make the rows row-major and
no UB for them: the store takes half the UB (the next tile's operand windows fit beside it,
so their transfers need not wait for the store), and the vector unit only moves the result
out of L0C.
"""

from __future__ import annotations

from plaidc.backends.npu.context import Context
from plaidc.backends.npu.moves import Space
from plaidc.backends.npu.ops import BLOCK, Buf, Op, Region, call
from plaidc.backends.npu.staging import Tiler, Window
from plaidc.backends.npu_sim.isa import ENCODING
from plaidc.stripe.ir import Affine, DType


def fractal_columns_window(
    tiler: Tiler,
    space: Space,
    name: str,
    access: Affine,
    rows_pos: Affine,
    dtype: DType,
    rows_n: int,
    fn: int,
) -> Window | None:
    """The window of buffer `name` a tile's result (`dtype`, over `space`, stored at
    `access`) goes to by fractal columns, or None when the window is not the tile's rows laid
    out as `rows_pos` says (row-major, `fn`-padded rows: each element written once), when
    the store converts (narrow GM types) or when a fractal's row is not whole 32-B blocks."""
    ctx = tiler.ctx
    size = dtype.byte_size
    if ctx.storage[name] != dtype or ctx.gm_type[name] != dtype or fn * size % BLOCK:
        return None
    window = tiler.window(space, name, [access], pitch=rows_n, store=True)
    ub_pos = window.to_ub(space.fold(access))
    pos = space.fold(rows_pos)
    if not tiler.covers(space, window) or ub_pos.const != 0 or pos.const != 0:
        return None
    if any(ub_pos.coeff(v) != pos.coeff(v) for v in space.sizes):
        return None
    rows, stride = _rows(window, rows_n)
    if rows * rows_n != window.elements or rows_n % fn:
        return None
    if rows > ENCODING["MAX_NBURST"] or (stride - fn) * size // BLOCK > ENCODING["MAX_GAP"]:
        return None
    return window


def _rows(window: Window, rows_n: int) -> tuple[int, int]:
    """The tile's rows in `window` (laid out as the tile's `rows_n`-element rows) and their
    stride in GM: the window's rows, or (one contiguous run) runs of `rows_n` elements."""
    if window.rows > 1:
        return window.rows, window.stride
    return window.width // rows_n, rows_n


def fractal_columns_store(
    ctx: Context, window: Window, result: Buf, dtype: DType, rows_m: int, rows_n: int, fn: int
) -> Op:
    """The DMAs (MTE3) storing the `[No][rows_m][fn]` fractals in `result` (`dtype`) to
    `window` (from `fractal_columns_window`): one per fractal column."""
    size = dtype.byte_size
    rows, stride = _rows(window, rows_n)
    gap = (stride - fn) * size // BLOCK if rows > 1 else 0
    if window.exact:  # byte-exact rows (`Window.exact`); the last column may be narrower
        widths = [min(fn, window.width - no * fn) for no in range(rows_n // fn)]
        stmts = tuple(
            call(
                "copy_ubuf_to_gm_align",
                ctx.gm(window.name, window.first + no * fn),
                result.ptr(dtype, no * rows_m * fn * size),
                0,
                rows,
                w * size,
                (fn * size - -(-w * size // BLOCK) * BLOCK) // BLOCK,
                (stride - w) * size,
            )
            for no, w in enumerate(widths)
            if w > 0
        )
    else:
        stmts = tuple(
            call(
                "copy_ubuf_to_gm",
                ctx.gm(window.name, window.first + no * fn),
                result.ptr(dtype, no * rows_m * fn * size),
                0,
                rows,
                fn * size // BLOCK,
                0,
                gap,
            )
            for no in range(rows_n // fn)
        )
    lo = window.first * size
    hi = (window.first + (rows - 1) * stride + min(rows_n, window.width)) * size
    reads = (Region(result.mem, result.offset, result.offset + rows_n * rows_m * size),)
    writes = (Region(f"GM:{window.name}", lo, hi),)
    return Op("PIPE_MTE3", stmts, reads, writes, f"store {window.name}")
