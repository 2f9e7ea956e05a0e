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
from plaidc.backends.npu.moves import Space
from plaidc.backends.npu.ops import Buf, elems_per_block, offset_buf, round_up
from plaidc.backends.npu.staging import Tiler, Window
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
