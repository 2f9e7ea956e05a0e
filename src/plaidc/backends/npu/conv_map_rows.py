"""A core's feature-map rows in L1 once, for the img2col tiles of a convolution.

Each output tile of a convolution whose left operand goes by img2col brings its GM window
(the feature-map rows its output rows read, KH - stride rows more than its own share) into
L1 once for all its K steps (`Gemm._shared_window`). Consecutive tiles of a core read
overlapping windows: tile t's rows `[s*r*t, s*r*t + span)` and tile t+1's `[s*r*(t+1), ..)`
share `span - s*r` rows (a 3x3 conv's tiles of 2 output rows: 2 of the 4). With two window
slots alternating between tiles, each tile brings all of its rows again.

Here the core's windows live in one run of L1, `RowSlab`: GM element `e` of the feature map at
`base + (e - first) * elem` for every window of the core's tiles, so that a tile's window is
where the rows the tiles before it brought already are, and the tile brings only the rest
(`loads`: the window's GM range past the previous tile's). Nothing in the run is written
twice, so a transfer never waits for an img2col of an earlier tile to finish reading (no
write-after-read), and MTE2 runs as far ahead of the Cube as its queue lets it. The core's
first tile also brings the second tile's new rows right after its own window (`prefetch`),
before the transfers its epilogue issues (a bias), which would otherwise queue in front of
them while the Cube needs them next.

Only where every window of the core is one contiguous GM range (whole feature-map rows: the
tile's output rows span the map's width), the windows advance with the tiles, and the run
from the first tile's window to the last tile's fits the L1 the window slots had; otherwise
(None) the tiles keep alternating slots.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from plaidc.backends.npu import img2col
from plaidc.backends.npu.moves import Space
from plaidc.backends.npu.staging import Tiler, Window

if TYPE_CHECKING:
    from plaidc.backends.npu.gemm import Gemm

Extent = tuple[int, int]  # a window's GM elements [first, end)


class SlabMiss(Exception):
    """A tile's window is not where the run holds it (not contiguous, behind the first
    window, past the run's end or misaligned): the tiles must use the window slots."""


@dataclass
class RowSlab:
    """The feature map's GM elements `[first, first + size / elem)` at L1 `base` for the
    tiles `lead` .. `last` of one core (their indices among the kernel's tiles)."""

    base: int
    size: int
    first: int
    elem: int
    align: int
    lead: int
    last: int
    extent: Callable[[int], Extent | None]  # tile index -> its window's GM range
    prefetch: bool = True
    known: dict[int, Extent | None] = field(default_factory=dict)

    def window(self, tile: int) -> Extent:
        """Tile `tile`'s GM range, checked to lie in the run."""
        if tile not in self.known:
            self.known[tile] = self.extent(tile)
        found = self.known[tile]
        if found is None:
            raise SlabMiss(f"tile {tile}: not one contiguous window")
        lo, hi = found
        if lo < self.first or (hi - self.first) * self.elem > self.size:
            raise SlabMiss(f"tile {tile}: window [{lo}, {hi}) outside the run")
        if (lo - self.first) * self.elem % self.align:
            raise SlabMiss(f"tile {tile}: window at a misaligned L1 address")
        return found

    def address(self, element: int) -> int:
        """The L1 address of GM element `element` of the run."""
        return self.base + (element - self.first) * self.elem

    def loads(self, tile: int) -> list[Extent]:
        """The GM ranges tile `tile` brings, in order: its window past what the tiles before
        it brought (all of it for the core's first), and for the core's first tile the
        second's new rows as well (`prefetch`)."""
        lo, hi = self.window(tile)
        start = lo
        if tile > self.lead and self._shared(tile - 1):
            prev_lo, prev_hi = self.window(tile - 1)
            if lo < prev_lo:
                raise SlabMiss(f"tile {tile}: its window starts before the previous tile's")
            start = max(lo, prev_hi)
            if self.prefetch and tile == self.lead + 1:
                start = hi  # the core's first tile brought them
        out = [(start, hi)] if start < hi else []
        if self.prefetch and tile == self.lead and tile < self.last and self._shared(tile + 1):
            nxt_lo, nxt_hi = self.window(tile + 1)
            if nxt_lo < lo:
                raise SlabMiss(f"tile {tile + 1}: its window starts before the previous tile's")
            if max(hi, nxt_lo) < nxt_hi:
                out.append((max(hi, nxt_lo), nxt_hi))
        return out

    def _shared(self, tile: int) -> bool:
        """Whether tile `tile` reads a window of all its K steps (else it brings each K
        step's own window into its L1 buffers, not the run, and the run leaves it out)."""
        if tile not in self.known:
            self.known[tile] = self.extent(tile)
        return self.known[tile] is not None


def plan(
    extent: Callable[[int], Extent | None],
    lead: int,
    last: int,
    base: int,
    size: int,
    elem: int,
    align: int,
) -> RowSlab | None:
    """The run for tiles `lead` .. `last` of a core in L1 `[base, base + size)`, or None when
    their first or last window is not contiguous or the run from the first to the last does
    not fit (`elem`: bytes of an element)."""
    first, final = extent(lead), extent(last)
    if final is None and last > lead:  # a ragged last tile may read by K steps
        final = extent(last - 1)
    if first is None or final is None or final[0] < first[0]:
        return None
    if (final[1] - first[0]) * elem > size:
        return None
    return RowSlab(base, size, first[0], elem, align, lead, last, extent)


def shared_window(gemm: Gemm, k_tiles: list[dict], tiler: Tiler) -> Window | None:
    """The GM window of `gemm`'s left operand that every K step's img2col reads (one the
    first K step's `img2col.plan` takes), or None when it does not go by img2col."""
    con = gemm.con
    conv = gemm.conv_layout(k_tiles[0])
    if conv is None:
        return None
    box = {}
    for v in con.k:
        lo = min(kt[v][0] for kt in k_tiles)
        box[v] = (lo, max(kt[v][0] + kt[v][1] for kt in k_tiles) - lo)
    starts = {**gemm.starts, **{v: s for v, (s, _) in box.items()}}
    sizes = {**gemm.sizes, **{v: n for v, (_, n) in box.items()}}
    space = Space(
        {v: sizes[v] for v in (*con.batch, *con.m, *con.k)},
        tuple(gemm.local(a, starts) for a in con.a_cons),
    )
    if space.is_empty():
        return None
    # the first K step's img2col must read this window (the others are alike)
    first = {**gemm.starts, **{v: s for v, (s, _) in k_tiles[0].items()}}
    step_space = Space(
        {v: gemm.sizes.get(v, k_tiles[0].get(v, (0, 1))[1]) for v in space.sizes},
        tuple(gemm.local(a, first) for a in con.a_cons),
    )
    step_access = gemm.local(con.a.offset, first)
    access = gemm.local(con.a.offset, starts)
    for strides in (None, {conv.row}, set()):
        window = tiler.window(space, con.a.buffer, [access], strides)
        if img2col.plan(conv, step_space, window, step_access, gemm.rows_m) is not None:
            return window
    return None
