"""A micro-kernel's shape and the decisions made from it alone (see `gemm_kernel`): its
register tile (`layout`), which operands it packs, whether it reads B in place, its BLIS-style
blocking and the scratch its caller passes."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from plaidc.stripe.ir import DType

if TYPE_CHECKING:
    from plaidc.backends.loopnest.lower import Lowering


@dataclass(frozen=True)
class GemmShape:
    """A micro-kernel's constants: element type, sizes, strides, and whether it overwrites C.

    `runtime` names the sizes among `m`, `n`, `k` that are run-time extents (parameters of
    the kernel, in that order, each at most the constant, which sizes the scratch)."""

    dtype: DType
    m: int
    n: int
    k: int
    a_row: int
    a_k: int
    b_k: int
    b_j: int
    c_row: int
    overwrite: bool
    parallel: bool = False
    runtime: tuple[str, ...] = ()
    # Rows or the reduction spanning several indices (a convolution's output pixels `x, y`,
    # its window `i, j, ci`): `(range, A stride, C or B stride)` per index, outermost first,
    # flattened in that order; `a_row`/`c_row` or `a_k`/`b_k` are then unused.
    row_dims: tuple[tuple[int, int, int], ...] = ()
    k_dims: tuple[tuple[int, int, int], ...] = ()
    # The kernel also takes how many elements of B are readable from its B pointer; a call
    # whose vectors of B (one panel, padded to NR columns) all stay within them reads B in
    # place instead of packing it (`reads_b_in_place`).
    b_bound: bool = False
    # One of several calls that split a reduction over C's whole box (a tile's k blocks,
    # `gemm.split_reduction`): the kernel takes run-time flags `first` (the accumulators start
    # at zero: C is written, not read) and `last` (the epilogue is applied before the store).
    split: bool = False


# Kernels of at most this many row blocks of the most rows the registers hold get even blocks.
_FEW_ROW_BLOCKS = 4


@dataclass(frozen=True)
class Layout:
    """The register tile: `mr` rows by `nv` vectors of `lanes` elements."""

    lanes: int
    nv: int
    mr: int

    @property
    def nr(self) -> int:
        return self.nv * self.lanes


def layout(lowering: Lowering, shape: GemmShape) -> Layout:
    """The configured `gemm_rows x gemm_vectors` block, cut to the shape and to the register
    file: `mr * nv` accumulators, `nv` B vectors and one broadcast A element must fit in
    `vector_registers`, or the compiler spills accumulators in the k loop (8 x 2 takes 19
    registers: fine with AVX-512's 32, 6 x 2 with AVX2's 16)."""
    opts = lowering.options
    lanes = max(opts.vector_bytes // shape.dtype.byte_size, 1)
    regs = opts.vector_registers
    vectors = math.ceil(shape.n / lanes)
    nv = max(1, min(opts.gemm_vectors, vectors, (regs - 1) // 2))
    one_panel = vectors * lanes * shape.k * shape.dtype.byte_size
    implicit = bool(shape.row_dims or shape.k_dims)
    if implicit:
        nv = _conv_vectors(shape.n, lanes, nv, opts.gemm_rows, regs)
    elif (
        shape.n % (nv * lanes)
        and vectors <= (regs - 1) // 5
        and not shape.parallel
        and "n" not in shape.runtime
        and (opts.gemm_block_bytes <= 0 or one_panel <= opts.gemm_block_bytes)
    ):
        # a small kernel (on one thread, its B in one block: `blocking` would leave it
        # whole) takes all of a constant `n` in one panel, as long as the registers still
        # hold blocks of 4 rows: 48 columns as 3 vectors, not a panel of 32 and one of 16
        # padded to 32 that goes through a C tile (a partial vector overlaps: `overlaps`)
        nv = vectors
    most = max(1, (regs - nv - 1) // nv)
    mr = max(1, min(opts.gemm_rows, shape.m, most))
    blocks = math.ceil(shape.m / most)
    if shape.m % mr and blocks <= _FEW_ROW_BLOCKS and not shape.runtime:
        # a small kernel's rows in even blocks, as many as the registers allow: a short last
        # block (26 = 3 x 8 + 2; a 3x3 convolution's 7 x 7 = 6 x 8 + 1 pixels) runs a k loop
        # bound by its few accumulators' FMA latency. 3x3 512->512 @7x7 (ResNet-50's last
        # stage), one thread, CPU time, interleaved best of 10 x 20: 2.23 -> 2.12 ms and
        # 2.15 -> 2.08 ms (13-row blocks); 3x3/2 256->256 @7x7 0.497 -> 0.469 ms; 1x1/2
        # 1024->2048 @7x7 1.81 -> 1.78 ms
        mr = max(mr, math.ceil(shape.m / blocks))
    return Layout(lanes, nv, mr)


def overlaps(shape: GemmShape, lay: Layout) -> bool:
    """Whether the kernel's last vector of columns overlaps the one before it instead of
    running past `n`: one panel of a constant `n` between `lanes` and `NR` that is no
    multiple of `lanes` (tbmm's 26 columns: vectors at 0 and 10, not 0 and 16). The
    overlapped columns are computed twice from the same operands in the same order, so both
    stores write the same values; C and B are then read and written as whole vectors within
    their rows (no C tile, no padded B columns, B in place without a bound)."""
    return (
        lay.lanes < shape.n <= lay.nr
        and shape.n % lay.lanes != 0
        and not {"m", "n"} & set(shape.runtime)
    )


def column(shape: GemmShape, lay: Layout, vector: int) -> int:
    """The first column of the register tile's vector `vector` (see `overlaps`)."""
    if overlaps(shape, lay):
        return min(vector * lay.lanes, shape.n - lay.lanes)
    return vector * lay.lanes


def _conv_vectors(n: int, lanes: int, nv: int, rows: int, regs: int) -> int:
    """The register block's width in vectors for an implicit GEMM (a convolution) with `n`
    output channels: the configured `nv`, unless another width that keeps `rows` rows within
    the registers computes fewer padded columns (40 channels: 3 vectors of 16 compute 48
    columns in one panel, where 2 computed 64 in a full and a mostly empty panel, whose
    columns also went through the C tile)."""

    def padded(width: int) -> int:
        return math.ceil(n / (width * lanes)) * width * lanes

    fits = [w for w in range(1, math.ceil(n / lanes) + 1) if rows * w + w + 1 <= regs]
    best = min(fits, key=lambda w: (padded(w), w != nv, -w), default=nv)
    return best if padded(best) < padded(nv) else nv


def pack_b_size(shape: GemmShape, lay: Layout) -> int:
    """Elements of the packed B panels (0: B is read in place)."""
    panels = math.ceil(shape.n / lay.nr)
    partial = "n" in shape.runtime or shape.n % lay.nr != 0
    if shape.m > lay.mr or partial or shape.b_j != 1 or shape.k_dims:
        return panels * shape.k * lay.nr
    return 0


def reads_b_in_place(shape: GemmShape, lay: Layout) -> bool:
    """Whether calls of `shape` may skip packing B (where their vectors of B stay within B's
    buffer): one panel (a grouped conv's 14-pixel rows, a narrow matrix), contiguous
    columns, reduction steps that do not go backwards, constant `m`, `n`. Past `n` in a
    partial panel the lanes hold B's next elements instead of zeros: they only reach columns
    of the C tile that are never stored."""
    k_steps = [b for _, _, b in shape.k_dims] if shape.k_dims else [shape.b_k]
    return (
        pack_b_size(shape, lay) > 0
        and math.ceil(shape.n / lay.nr) == 1
        and shape.b_j == 1
        and all(step >= 0 for step in k_steps)
        and not {"m", "n"} & set(shape.runtime)
    )


def needs_b_bound(shape: GemmShape, lay: Layout) -> bool:
    """Whether reading B in place needs B's buffer end (`b_bound`): a partial panel's padded
    vectors may run past it, a full panel's never do (they read B's own columns), nor do
    overlapping ones (`overlaps`)."""
    return reads_b_in_place(shape, lay) and shape.n % lay.nr != 0 and not overlaps(shape, lay)


@dataclass(frozen=True)
class Blocking:
    """A large kernel's BLIS-style blocking: its rows (`split` "rows": runs of `per` row
    blocks of MR) or its panels of B ("panels": runs of `per` panels) split into `chunks`, one
    per thread in one parallel loop, and the reduction into blocks of `kc` rows (the last one
    shorter). Per chunk and k block, the chunk's panels of B's `kc x n` block are packed once
    into its own part of the scratch and reused by every row block; each row block's `MR x
    kc` panel of A is packed once and reused by every panel of the chunk."""

    split: str
    chunks: int
    per: int
    kc: int

    def chunk_panels(self, panels: int) -> int:
        """How many panels of B one chunk packs."""
        return self.per if self.split == "panels" else panels


def blocking(lowering: Lowering, shape: GemmShape, lay: Layout) -> Blocking | None:
    """How `shape`'s kernel is blocked, or None for the plain loop nest: a kernel with one
    reduction index that packs B, and either runs on threads (one chunk per thread) or has a
    reduction longer than the B block that fits `gemm_block_bytes` (BLIS's kc: `kc x n`
    packed elements in that budget, the blocks evened out). Rows of several indices (an
    implicit GEMM's image: a strided 1x1 convolution) block as flat rows do: unblocked,
    ResNet-50's 1x1/2 512->1024 (196 rows, K 512, N 1024) streamed all 2 MiB of its packed B
    from L3 for every row block (one thread, best of 25 interleaved: 3.43 -> 2.43 ms).

    Threads split the operand whose packing they would otherwise repeat the more: each chunk
    of rows packs all of B (`k x n`), each chunk of panels all of A (`m x k`), so a short,
    wide product (an MLP layer's 128 rows) splits its panels. Rows are split only when the
    reduction is blocked (else the plain kernel packs B once and runs its row blocks on the
    threads). A kernel with run-time `m` or `n` (an edge tile) is blocked over k only, and
    not when it runs on threads."""
    opts = lowering.options
    panels = math.ceil(shape.n / lay.nr)
    if shape.k_dims or shape.b_bound:
        return None
    if pack_b_size(shape, lay) == 0 or reads_b_in_place(shape, lay) or panels < 2 or shape.k < 2:
        return None
    ragged = bool({"m", "n"} & set(shape.runtime))
    if ragged and shape.parallel:
        return None
    split = "panels" if shape.m < shape.n else "rows"
    units = panels if split == "panels" else math.ceil(shape.m / lay.mr)
    chunks = min(opts.threads, units) if shape.parallel else 1
    per = math.ceil(units / chunks)
    chunks = math.ceil(units / per)
    kc = shape.k
    if opts.gemm_block_bytes > 0:
        # a chunk of panels packs only its own: its block is `kc x per * NR`
        packed = per if split == "panels" and chunks > 1 else panels
        row_bytes = packed * lay.nr * shape.dtype.byte_size
        kc = max(1, min(shape.k, opts.gemm_block_bytes // row_bytes))
        kc = math.ceil(shape.k / math.ceil(shape.k / kc))
    if split == "rows" and kc == shape.k:
        # one B block: packed once before the parallel loop over row blocks (the plain
        # kernel) costs less than a copy per chunk (measured 2.4x faster on 100x70x300 with
        # one thread running both chunks)
        chunks = 1
    if chunks == 1:
        split, per = "rows", math.ceil(shape.m / lay.mr)
        if kc == shape.k:
            return None
    return Blocking(split, chunks, per, kc)


def scratch_size(lowering: Lowering, shape: GemmShape, lay: Layout) -> int:
    """Elements of the scratch buffer the caller passes: the packed B panels, or a blocked
    kernel's B block per chunk."""
    b = blocking(lowering, shape, lay)
    if b is None:
        return pack_b_size(shape, lay)
    return b.chunks * block_size(shape, lay, b)


def block_size(shape: GemmShape, lay: Layout, b: Blocking) -> int:
    """Elements of one chunk's packed `kc x n` block of B (its panels, padded)."""
    return b.chunk_panels(math.ceil(shape.n / lay.nr)) * lay.nr * b.kc
