"""What a Cube contraction keeps in L1 across output tiles, and the shape of an operand in UB.

`Resident`: the left operand's fp16 parts for every K step of the tiles sharing one M block;
`Weights`: a convolution's weights for every N block and K step (img2col brings each tile's
window); `Matrix`: an operand gathered into UB as whole fractals. `gemm` lowers one output tile
with them; `cube` decides when they are kept.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from plaidc.backends.npu.conv_map_rows import RowSlab
from plaidc.backends.npu.ops import Arena, Buf

TileBox = dict[str, tuple[int, int]]  # index -> (start, extent)


@dataclass(frozen=True)
class Matrix:
    """An operand in UB: `rows x cols`, row-major, padded to whole fractals of `frac` (rows,
    cols): the Cube's K side across K, its M (or N) side across M (or N); its rows are K when
    `k_rows`."""

    k_rows: bool
    rows: int
    cols: int
    frac: tuple[int, int]
    buf: Buf | None
    ko_major: bool = False  # in L1 as [Ko][No] fractals (rows K): one load to L0B


@dataclass
class Resident:
    """The left operand's fp16 parts in L1 for every K step of the output tiles that share
    it (one batch point and M block, `outer`): the first of them loads and converts it, the
    others only bring its fractals from L1 to L0A. K step `s` lives at `base + s * stride`
    (in a half of the lower half of L1 that alternates between groups, so the next group's
    operand loads while this one's last tile computes); the tiles' own L1 buffers live in
    the upper half, from `streaming`."""

    outer: TileBox
    base: int
    stride: int
    align: int
    streaming: int
    steps: dict[int, tuple[Matrix, list[Buf]]] = dataclasses.field(default_factory=dict)
    # where each K step is, when not `base + s * stride` (`cube_prefetch`)
    places: tuple[int, ...] = ()

    def arena(self, step: int) -> Arena:
        at = self.places[step] if self.places else self.base + step * self.stride
        return Arena("L1", at, self.stride, self.align)


@dataclass
class Weights:
    """A convolution's right operand (its weights) in L1 for every N block and K step, loaded
    by the first output tile that needs each and read by all the others: img2col brings the
    left operand's window for each tile, and the weights are what the tiles share. Slot
    `n * steps + s` (N block `n`, K step `s`) at `base + slot * stride`; the tiles' own L1
    buffers live below `base`."""

    base: int
    stride: int
    steps: int
    align: int
    block: int = 0  # the N block of the tile being lowered
    # L1 from `windows` to `base` holds the left operand's windows, one per tile (two slots,
    # alternating between tiles): each tile loads its window once for all its K steps
    windows: int = 0
    tile: int = 0  # the index of the tile being lowered
    # the core's windows in one run of L1 from `windows` on (`conv_map_rows`), else None: the
    # two slots
    rows: RowSlab | None = None
    # (N block, K step)s whose weights the core's first tile brings after its window
    # (`conv_weights.deferrable`): that tile loads them into L0B after its img2col, not before
    late: set[tuple[int, int]] = dataclasses.field(default_factory=set)
    loaded: dict[tuple[int, int], tuple[Matrix, list[Buf]]] = dataclasses.field(
        default_factory=dict
    )

    def arena(self, step: int) -> Arena:
        slot = self.block * self.steps + step
        return Arena("L1", self.base + slot * self.stride, self.stride, self.align)

    def window_slot(self) -> Arena:
        half = (self.base - self.windows) // 2 // self.align * self.align
        return Arena("L1", self.windows + half * (self.tile % 2), half, self.align)
