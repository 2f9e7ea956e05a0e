"""A convolution's weights as img2col's padded rows, brought by DMA alone (no vector layout).

The right operand of a convolution that goes by img2col is a matrix whose rows follow the
img2col columns, `(u, v, c)` with the channels padded to whole fractals (`ConvLayout`), and
whose columns are the output channels padded to the fractal. In GM (HWIO weights
`K[u, v, c, n]`) the rows of one window position `(u, v)` are the channels' rows, `n`
contiguous: one burst each. So each window position's rows come in by one DMA, straight into
their rows of the padded matrix in UB: byte-exact bursts (`copy_gm_to_ubuf_align`) where the
rows are no whole number of 32-B blocks (24 or 40 output channels of fp16), whole blocks
otherwise. The padded channels' rows (and any column a burst leaves) are zero: one
`vector_dup` of the matrix before the transfers. Without this, such a matrix was laid out
element by element on the vector unit (`plaidc_spread`/`collect`: ~56k cycles for the
weights of a 3x3 24->24 conv).

`rows` plans it, or says None where the window positions' rows are not such (a chip without
the byte-exact DMA and ragged rows, a constraint that leaves holes inside a burst, too many
window positions): the caller then gathers the matrix as before.
"""

from __future__ import annotations

import itertools

from plaidc.backends.npu.img2col import ConvLayout
from plaidc.backends.npu.moves import Placement, Space
from plaidc.backends.npu.ops import Buf, OutOfMemory, elems_per_block, offset_buf, round_up
from plaidc.backends.npu.staging import MAX_BURSTS, MAX_LENBURST, Tiler, Window, byte_exact
from plaidc.stripe.ir import Affine, DType

# More window positions than this (a DMA each, each paying the GM latency) and the caller
# gathers the matrix instead: a 7x7 kernel is 49.
MAX_POSITIONS = 64


def rows(
    tiler: Tiler,
    conv: ConvLayout,
    space: Space,
    name: str,
    access: Affine,
    pos: Affine,
    shape: tuple[int, int],
    dtype: DType,
    zero: bool,
) -> Buf | None:
    """The padded matrix (`shape` = rows, columns) of buffer `name`'s points over `space`
    (`access`: their GM offsets, `pos`: their positions in the matrix, both over `space`'s
    indices) in a new buffer of `tiler`'s arena, filled by `tiler`'s ops: a zero fill first
    where some position is none of the points' (`zero`: padded channels or excluded points;
    also columns past a row's last block), then one DMA per window position. None (nothing
    emitted or allocated) when the points are not such rows."""
    n_rows, cols = shape
    outer = [v for v in (conv.u, conv.v) if v is not None and space.sizes.get(v, 1) > 1]
    whole = _one_transfer(tiler, space, name, access, pos, cols, outer)
    if whole is not None:
        try:
            return _from_one_transfer(tiler, space, pos, shape, dtype, zero, outer, *whole)
        except OutOfMemory:
            pass  # no room for the transfer's rows beside the matrix: a DMA per position
    points = list(itertools.product(*(range(space.sizes[v]) for v in outer)))
    if len(points) > MAX_POSITIONS:
        return None
    plans: list[tuple[Window, int]] = []
    for values in points:
        fixed = {v: Affine.const_(x) for v, x in zip(outer, values, strict=True)}
        sub = Space(
            {v: (1 if v in fixed else n) for v, n in space.sizes.items()},
            tuple(c.substitute(fixed) for c in space.constraints),
        )
        if sub.is_empty():
            continue
        at = space.fold(pos.substitute(fixed))
        acc = space.fold(access.substitute(fixed))
        window = tiler.window(sub, name, [acc], pitch=cols)
        ub = window.to_ub(sub.fold(acc))
        live = [v for v in sub.sizes if sub.sizes[v] > 1]
        if ub.const != 0 or any(ub.coeff(v) != at.coeff(v) for v in live):
            return None
        if window.gm_elements != sub.point_count():
            return None  # the burst would bring elements of excluded points
        if window.rows > 1 and window.row_pitch != cols:
            return None
        plans.append((window, at.const))
    size, g = dtype.byte_size, elems_per_block(dtype)
    # every column of a row written: by its burst, or zero by the byte-exact DMA's last block
    covered = all(round_up(window.width, g) == cols for window, _ in plans)
    buf = tiler.arena.alloc(n_rows * cols * size, "weights as img2col rows")
    if zero or not covered or not plans:
        tiler.ops.append(tiler.ctx.mover.fill_all(buf, dtype, n_rows * cols, 0))
    for window, start in plans:
        tiler.dma("in", window, offset_buf(buf, start * size))
    return buf


def _one_transfer(
    tiler: Tiler,
    space: Space,
    name: str,
    access: Affine,
    pos: Affine,
    cols: int,
    outer: list[str],
) -> tuple[Window, Affine, int] | None:
    """Every window position's rows in one transfer, their positions in it and how many
    rows each position has: where the points' rows are one window of rows `cols` apart in UB
    (HWIO weights: one burst each; with the byte-exact DMA, also the rows of other K steps'
    channels between them, brought and ignored), each position's rows dense (as in the
    matrix) and no constraint but on the rows' index."""
    rows = [v for v, n in space.sizes.items() if n > 1 and pos.coeff(v) == cols]
    if not outer or len(rows) != 1:
        return None
    # constraints on the rows alone (a ragged last K step's channels): fewer rows, all valid
    if any(set(con.names()) != {rows[0]} for con in space.live_constraints):
        return None
    count = space.bounds(Affine.var(rows[0]))
    if count is None or count[0] != 0:
        return None
    folded = space.fold(access)
    stride = abs(folded.coeff(rows[0]))  # GM elements from a row to the next
    window = tiler.window(space, name, [access], {stride}, pitch=cols)
    if window.gm_elements != space.point_count() and byte_exact(tiler.ctx, store=False):
        # the rows of other K steps' channels between this one's: brought too (one burst
        # each, ignored), rather than a transfer per window position
        found = space.bounds(folded)
        columns = [v for v, n in space.sizes.items() if n > 1 and v not in (*outer, *rows)]
        width = space.bounds(Affine.of({v: folded.coeff(v) for v in columns}))
        if found is None or width is None or min(found[0], width[0]) < 0:
            return None
        first, last = found
        span = width[1] - width[0] + 1
        n_rows = (last - first) // stride + 1
        size = tiler.ctx.gm_type[name].byte_size
        if span > stride or n_rows > MAX_BURSTS or span * size > MAX_LENBURST:
            return None
        window = Window(name, first, n_rows, stride, span, cols, exact=True)
    ub = window.to_ub(folded)
    inner = [v for v, n in space.sizes.items() if n > 1 and v not in outer]
    if ub.const != 0 or (window.rows > 1 and window.row_pitch != cols):
        return None
    if any(ub.coeff(v) != pos.coeff(v) for v in inner) or any(ub.coeff(v) % cols for v in outer):
        return None
    if any(folded.coeff(v) % stride for v in outer):
        return None
    return window, ub, count[1] + 1


def _from_one_transfer(
    tiler: Tiler,
    space: Space,
    pos: Affine,
    shape: tuple[int, int],
    dtype: DType,
    zero: bool,
    outer: list[str],
    window: Window,
    ub: Affine,
    rows: int,
) -> Buf:
    """The padded matrix from `_one_transfer`'s window: the rows of each window position
    copied as one run to their place (whole blocks: the vector unit's block copies)."""
    n_rows, cols = shape
    size, g = dtype.byte_size, elems_per_block(dtype)
    run = rows * cols  # a position's rows (`_one_transfer`)
    buf = tiler.arena.alloc(n_rows * cols * size, "weights as img2col rows")
    try:
        scratch = tiler.arena.alloc(round_up(window.elements, g) * size, "weights' rows")
    except OutOfMemory:
        tiler.arena.release(buf)
        raise
    if zero or round_up(window.width, g) != cols:
        tiler.ops.append(tiler.ctx.mover.fill_all(buf, dtype, n_rows * cols, 0))
    tiler.dma("in", window, scratch)
    flat = "row_run"
    places = Space({**{v: space.sizes[v] for v in outer}, flat: run})
    dst = Affine.of({v: pos.coeff(v) for v in outer}) + Affine.var(flat)
    src = Affine.of({v: ub.coeff(v) for v in outer}) + Affine.var(flat)
    tiler.move(
        places,
        flat,
        Placement(buf, dtype, dst),
        Placement(scratch, dtype, src),
        (0, n_rows * cols),
        True,
        "weights' rows into place",
    )
    tiler.arena.release(scratch)
    return buf
