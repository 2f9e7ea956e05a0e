"""Autotile's cost model and tile-size search (PASSES.md "Autotile: cost model and search").

A candidate gives every index of a block a tile size; `count = ceil(range / size)` tiles per
index. For each refinement that moves data (not an allocation, not in `ignore_refs`) the
candidate's tile of the view has a size per dimension (an affine function of the tile sizes
that isl derives once per refinement, `plaidc.analysis.tiles`: halo and overflow included),
hence bytes and cache lines (`memory_io`); an `inout` view counts as input and as output.
With `footprint = "iterations"` a refinement's bytes are instead the element size times the
tile sizes of the indices its access uses: the operand matrix a GEMM unit reads (a
convolution's img2col, larger than its window), while the cache lines stay the views'. A
candidate over a byte budget (total, all inputs, all outputs, or any one input:
`max_each_input_size`, for operands that go to separate buffers) is excluded; among the rest
the lowest cost wins, ties going to fewer tiles, then to the lexicographically smaller sizes.
Two cost models:

* `density` (PlaidML's): `ineff * (1 + input_cost*in_lines + output_cost*out_lines) /
  prod(size) + split_factor * log2(prod(count))`, where `ineff` multiplies the padding waste
  `prod(size*count/range)` with `min/actual` for tiles smaller than `min_size`, outputs smaller
  than `min_out_size`, fewer tiles than `min_count` and fewer output tiles than
  `min_out_count` (output sizes and counts over the indices that address an output).
* `lines_per_output` (the Stripe paper's Figure 4): cache lines moved by all tiles, per output
  point, `prod(count) * (input_cost*in_lines + output_cost*out_lines) / outputs`, where
  `outputs` is the number of points of the searched indices that address an output (x*y for a
  convolution tiled spatially). Indices the search does not touch scale every candidate's cost
  alike, so this ranks like the paper's "lines per multiply-accumulate".

With `threads`, either cost is multiplied by the busiest thread's share of the work
(`thread_balance`: the output index with the most tiles runs on the threads, contiguous runs of
tiles each, as the CPU backends' static schedule), since the slowest thread sets the time: 7
tiles on 2 threads cost 8/7 of 8 tiles (shares within `thread_slack` of even count as even: 999
in 4 tiles of 256, 512 and 487 per thread, keeps its tiles). Such an index also tries the sizes
that split it evenly.

Candidate sizes per searched index are 1..range, or the powers of two below the range and the
range (`only_po2`), or the divisors of the range (`only_even`). The search is exhaustive when
the space is at most `max_exhaustive` candidates (evaluated at once with numpy; the scalar
model re-ranks the near-ties). Otherwise it is a pruned best-first search: a coarse
sub-lattice (powers of two, thinned to `max_exhaustive` candidates) is searched exhaustively,
then from its best, the smallest tile and the whole block the search moves one index one
candidate size up or down, always from the cheapest valid candidate found so far, never from
an excluded one (bytes only grow with the sizes), until `max_evals` candidates have been
evaluated. Both are deterministic.

The default budget (`max_total_size` 16 KiB) only keeps the pass meaningful without a target
config; targets set the budgets and `cache_width` from their `[hardware]` table.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args, get_type_hints

import numpy as np

from plaidc.analysis.tiles import tile_extent
from plaidc.options import PowersOfTwo, option
from plaidc.passes.selection import EXCLUDE_HELP
from plaidc.passes.tiling import tileable_range
from plaidc.stripe.ir import Block, RefDir, Refinement

__all__ = [
    "COST_MODELS",
    "AutotileOptions",
    "Candidate",
    "SearchResult",
    "autotile_candidates",
    "memory_io",
    "search_tiles",
]


# What `plaidc tune` may try for the byte budgets and the cost weights (a config narrows them).
_BUDGETS = PowersOfTwo(256, 1 << 26)
_WEIGHTS = (0.25, 0.5, 1.0, 2.0, 4.0)


@dataclass(frozen=True)
class AutotileOptions:
    """Options of the `autotile` pass (PlaidML's AutotilePass, plus the search controls)."""

    reqs: tuple[str, ...] = option(
        ("contraction",),
        'tile the outermost blocks with indices that carry all these tags ("all": every block)',
    )
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    outer_set: tuple[str, ...] = option(
        (), "tags added to the outer block (over the tiles), which keeps the original's tags"
    )
    inner_set: tuple[str, ...] = option((), "tags of the inner block (one tile)")
    copy_tags: bool = option(False, "the inner block also gets the original block's tags")
    clear_outer: bool = option(False, "the outer block drops the original's tags (keeps outer_set)")
    idxs: tuple[str, ...] = option((), "split only the indices named here (empty: every index)")
    acc_idxs: bool = option(
        True, "split accumulation indices (those no output access uses); false: keep them whole"
    )
    windows: bool = option(
        True,
        "tile blocks whose input slides a window (a pooling: an output index and an "
        "accumulation index of range > 1 in one access dimension; a 1x1 convolution's slides "
        "none); false: leave them to later steps",
    )
    out_idxs: bool = option(
        True, "split indices an output access uses; false: split only the reduction (GEMM K steps)"
    )
    only_po2: bool = option(
        False,
        "candidate sizes are the powers of two below an index's range, and the range",
        tune=True,
    )
    only_even: bool = option(False, "candidate sizes are the divisors of an index's range")
    max_total_size: int = option(
        16384,
        "bytes of one tile's refinements together at most (0: no limit)",
        tune=_BUDGETS,
        min=0,
    )
    max_input_size: int = option(
        0, "bytes of one tile's inputs together at most (0: no limit)", min=0
    )
    max_output_size: int = option(
        0,
        "bytes of one tile's outputs together at most (0: no limit)",
        min=0,
        tune=_BUDGETS,
    )
    max_each_input_size: int = option(
        0,
        "bytes of each input of one tile at most, operands in separate buffers (0: no limit)",
        tune=_BUDGETS,
        min=0,
    )
    batches: bool = option(
        True,
        "tile blocks with a batch index (one that every refinement's access uses: a batched "
        "matmul's); false: leave them to later steps",
    )
    min_each_input_size: int = option(
        0,
        "match only blocks each of whose inputs the whole block reads at least this many "
        "bytes of (0: any); a block with a smaller input is left to later steps",
        min=0,
    )
    max_whole_input_size: int = option(
        0,
        "match only blocks none of whose inputs the whole block reads more than this many "
        "bytes of (0: any); a block with a larger input is left to later steps",
        min=0,
    )
    footprint: Literal["view", "iterations"] = option(
        "view",
        "a refinement's bytes: its tile of the view (halo included), or the element size times "
        "the tile sizes of the indices its access uses (a GEMM operand: img2col)",
    )
    ignore_refs: tuple[str, ...] = option(
        (), "refinements (by name) that count in neither the byte budgets nor the cost"
    )
    cache_width: int = option(
        0, "bytes of one cache line for the cost's line counts (0: count elements)", min=0
    )
    cost_model: Literal["density", "lines_per_output"] = option(
        "density",
        "PlaidML's cost per tile point plus split_factor, or the Stripe paper's cache lines "
        "moved per output point",
        tune=True,
    )
    input_cost: float = option(1.0, "weight of one input cache line in the cost", tune=_WEIGHTS)
    output_cost: float = option(1.0, "weight of one output cache line in the cost", tune=_WEIGHTS)
    resident_bytes: int = option(
        0,
        "lines_per_output: a refinement whose whole view is at most this many bytes stays in "
        "cache across tiles (an operand a GEMM re-reads from L2), so its lines cost "
        "resident_cost each (0: every line costs the same)",
        min=0,
    )
    resident_cost: float = option(
        1.0, "lines_per_output: weight of a line of a refinement within resident_bytes"
    )
    threads: int = option(
        0,
        "threads that split the tiles of the output index with the most tiles (a static "
        "schedule): the cost is multiplied by the busiest thread's share of the work over an "
        "even share, and that index also tries the sizes that split it evenly over "
        "threads, 2*threads, ... tiles (0 or 1: no threads)",
        min=0,
    )
    thread_slack: float = option(
        0.05,
        "threads: a busiest thread's share up to 1 + thread_slack counts as even (a last tile "
        "a few percent short costs less than odd tile sizes' partial register blocks)",
        min=0,
    )
    min_run_bytes: int = option(
        0,
        "a refinement's contiguous dimension (stride 1), addressed by one index, is not cut "
        "into runs of fewer bytes than this (its index keeps sizes of at least as many "
        "elements, or its whole range): a tile that reads one cache line of each of many "
        "rows defeats the prefetchers, which the line counts do not see (0: any)",
        min=0,
    )
    split_factor: float = option(
        0.001, "density: cost added per log2 of the tile count (favours fewer tiles)"
    )
    min_size: int = option(
        1, "density: tiles of fewer points cost more, by min_size / points", min=1
    )
    min_out_size: int = option(
        1, "density: tiles of fewer output points cost more, by min_out_size / points", min=1
    )
    min_count: int = option(
        1, "density: fewer tiles than this cost more, by min_count / tiles", min=1
    )
    min_out_count: int = option(
        1, "density: fewer output tiles than this cost more, by min_out_count / tiles", min=1
    )
    elide_trivial: bool = option(
        False, "leave a block as it is when the best tile is all-whole or all-ones"
    )
    max_exhaustive: int = option(
        65536, "search every candidate when there are at most this many (else best-first)", min=0
    )
    max_evals: int = option(512, "candidates a best-first search evaluates at most", min=1)
    verbose: bool = option(False, "report the candidates' costs and the choice on stderr")


COST_MODELS: tuple[str, ...] = get_args(get_type_hints(AutotileOptions)["cost_model"])


@dataclass(frozen=True)
class Candidate:
    """One evaluated tiling: a size per index (index order), its tile count, the bytes and
    cache lines of one tile, and its cost or the reason it was excluded."""

    sizes: tuple[tuple[str, int], ...]
    tiles: int
    input_bytes: int
    output_bytes: int
    total_bytes: int
    in_lines: int
    out_lines: int
    cost: float | None
    excluded: str | None = None

    @property
    def tile(self) -> dict[str, int]:
        return dict(self.sizes)

    def key(self) -> tuple[float, int, tuple[int, ...]]:
        """Ordering of valid candidates: cost (rounded so that float noise does not decide),
        then fewer tiles, then smaller sizes."""
        cost = math.inf if self.cost is None else float(f"{self.cost:.12g}")
        return cost, self.tiles, tuple(s for _, s in self.sizes)


@dataclass(frozen=True)
class SearchResult:
    """The best candidate (None when every one is excluded), the size of the search space,
    whether it was searched exhaustively, the indices searched, and the candidates listed for
    a report (see `search_tiles`)."""

    candidates: tuple[Candidate, ...]
    best: Candidate | None
    space: int
    exhaustive: bool
    searched: tuple[str, ...]


def memory_io(
    sizes: Sequence[int], strides: Sequence[int], elem_bytes: int, cache_width: int
) -> int:
    """Cache lines of `cache_width` bytes touched by a view (tile-aligned): dimensions are
    walked by increasing stride, merging each into the current contiguous run while its stride
    does not leave a gap (or leaves one smaller than a line); the first that does, and every
    later one, multiplies the number of runs. Lines = runs * ceil(run bytes / cache_width).
    Without a cache width every element counts as one line."""
    return _lines(sizes, strides, _stride_order(strides), elem_bytes, cache_width)


def _stride_order(strides: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(range(len(strides)), key=lambda d: (abs(strides[d]), d)))


def _lines(
    sizes: Sequence[int],
    strides: Sequence[int],
    order: Sequence[int],
    elem_bytes: int,
    cache_width: int,
) -> int:
    if cache_width <= 0:
        return math.prod(sizes)
    span = runs = 1
    merging = True
    for d in order:
        size, stride = sizes[d], abs(strides[d])
        if size <= 1:
            continue
        if merging and (stride <= span or stride * elem_bytes < cache_width):
            span += (size - 1) * stride
        else:
            merging = False
            runs *= size
    return runs * -(-(span * elem_bytes) // cache_width)


@dataclass(frozen=True)
class _RefModel:
    """A counted refinement, its tile extent as (constant, ((index position, coefficient),
    ...)) per dimension, and its dimensions' positions sorted by stride (for `memory_io`)."""

    ref: Refinement
    dims: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]
    order: tuple[int, ...]
    elem_bytes: int
    reads: bool
    writes: bool
    # positions of the indices its access uses (the `iterations` footprint)
    used: tuple[int, ...]

    @staticmethod
    def of(ref: Refinement, names: Sequence[str]) -> _RefModel:
        extent = tile_extent(ref, names)
        pos = {n: k for k, n in enumerate(names)}
        dims = tuple((d.const, tuple((pos[n], c) for n, c in d.terms)) for d in extent.dims)
        order = _stride_order(ref.shape.strides)
        used = sorted({pos[n] for a in ref.access for n in a.names() if n in pos})
        return _RefModel(
            ref,
            dims,
            order,
            ref.shape.dtype.byte_size,
            ref.dir.reads,
            ref.dir.writes,
            tuple(used),
        )

    def sizes(self, tile: Sequence[int]) -> list[int]:
        return [const + sum(c * tile[k] for k, c in terms) for const, terms in self.dims]

    def footprint(self, tile: Sequence[int], ext: Sequence[int], kind: str) -> int:
        """Bytes of the tile's `view` (extents `ext`) or of the `iterations` reading it."""
        elems = math.prod(ext) if kind == "view" else math.prod(tile[k] for k in self.used)
        return elems * self.elem_bytes

    def lines(self, sizes: Sequence[int], cache_width: int) -> int:
        return _lines(sizes, self.ref.shape.strides, self.order, self.elem_bytes, cache_width)

    def lines_grid(self, ext: Sequence[np.ndarray], n: int, cache_width: int) -> np.ndarray:
        """`memory_io` for a column of candidates at once (`ext`: one array of sizes per
        dimension)."""
        if not ext:
            return np.ones(n, dtype=np.int64)
        if cache_width <= 0:
            return np.prod(np.stack(ext), axis=0)
        strides = self.ref.shape.strides
        span = np.ones(n, dtype=np.int64)
        runs = np.ones(n, dtype=np.int64)
        merging = np.ones(n, dtype=bool)
        for d in self.order:
            size, stride = ext[d], abs(strides[d])
            active = size > 1
            merge = active & merging & ((stride <= span) | (stride * self.elem_bytes < cache_width))
            split = active & ~merge
            span = np.where(merge, span + (size - 1) * stride, span)
            runs = np.where(split, runs * size, runs)
            merging &= ~split
        return runs * -(-(span * self.elem_bytes) // cache_width)


def _accumulation_idxs(block: Block) -> set[str]:
    written = {n for r in block.refs if r.dir.writes for a in r.access for n in a.names()}
    return {i.name for i in block.idxs if i.name not in written}


def _sizes_for(rng: int, opts: AutotileOptions, output: bool) -> Sequence[int]:
    """The candidate sizes of one index, ascending; a `range`, not a list, for all of 1..rng,
    and divisors found up to the square root, so that huge ranges cost no time or memory. An
    output index on threads also tries the sizes that cut it into `threads`, `2*threads`, ...
    tiles of (nearly) equal size (56 on 2 threads: 28, 14, 7, 4, 2, 1)."""
    if opts.only_po2:
        out, s = [], 1
        while s < rng:
            out.append(s)
            s *= 2
        return sorted({*out, rng, *_even_splits(rng, opts, output)})
    if opts.only_even:
        small = [s for s in range(1, math.isqrt(rng) + 1) if rng % s == 0]
        return sorted({*small, *(rng // s for s in small), *_even_splits(rng, opts, output)})
    return range(1, rng + 1)


def _even_splits(rng: int, opts: AutotileOptions, output: bool) -> list[int]:
    """`ceil(rng / n)` for `n = threads * 2^k` tiles (n <= rng): sizes that load every thread
    alike (an output index; none without threads)."""
    if not output or opts.threads < 2:
        return []
    out, n = [], opts.threads
    while n <= rng:
        out.append(-(-rng // n))
        n *= 2
    return out


def thread_balance(
    sizes: np.ndarray,
    ranges: Sequence[int],
    is_out: Sequence[bool],
    threads: int,
    slack: float = 0.0,
) -> np.ndarray:
    """Per candidate (a row of `sizes`), the busiest thread's work over an even share when
    `threads` split the tiles of the output index with the most tiles, as a static schedule
    does (contiguous runs of `ceil(count / threads)` tiles, the first runs full): 1 when the
    tiles spread evenly, `threads` when one thread gets all. A candidate with one tile of
    every index is 1 (the code inside the tile chooses its own threads). Ties between
    indices count the worse. Shares up to `1 + slack` count as 1."""
    n = len(sizes)
    cols = [k for k, out in enumerate(is_out) if out and ranges[k] > 1]
    if threads < 2 or not cols:
        return np.ones(n, dtype=np.float64)
    size = sizes[:, cols]
    rng = np.array([ranges[k] for k in cols], dtype=np.int64)
    counts = -(-rng // size)
    busiest = np.minimum(-(-counts // threads) * size, rng)
    share = busiest * threads / rng
    most = counts.max(axis=1)
    worst = np.where(counts == most[:, None], share, 0.0).max(axis=1)
    return np.where((most > 1) & (worst > 1.0 + slack), worst, 1.0)


class _Model:
    """The per-block facts every candidate evaluation needs, computed once."""

    def __init__(self, block: Block, opts: AutotileOptions) -> None:
        self.opts = opts
        self.names = [i.name for i in block.idxs]
        self.ranges = [i.range for i in block.idxs]
        acc = _accumulation_idxs(block)
        self.is_out = [n not in acc for n in self.names]
        self.searched = [
            i.range > 1
            and tileable_range(i)
            and (not opts.idxs or i.name in opts.idxs)
            and (opts.acc_idxs or i.name not in acc)
            and (opts.out_idxs or i.name in acc)
            for i in block.idxs
        ]
        self.choices = [
            _sizes_for(i.range, opts, out) if s else [max(i.range, 1)]
            for i, s, out in zip(block.idxs, self.searched, self.is_out, strict=True)
        ]
        self.refs = [
            _RefModel.of(r, self.names)
            for r in block.refs
            if r.from_ is not None and r.dir != RefDir.NONE and r.into not in opts.ignore_refs
        ]
        if opts.min_run_bytes > 0:
            for m in self.refs:
                self._keep_runs(m, opts.min_run_bytes)
        self.outputs = math.prod(
            r for r, s, o in zip(self.ranges, self.searched, self.is_out, strict=True) if s and o
        )

    def _keep_runs(self, m: _RefModel, run_bytes: int) -> None:
        """Drop the sizes of the index addressing `m`'s contiguous dimension alone that cut
        it into runs shorter than `run_bytes` (the whole range stays a choice)."""
        unit = [k for k, stride in enumerate(m.ref.shape.strides) if abs(stride) == 1]
        if len(unit) != 1 or len(m.ref.access[unit[0]].terms) != 1:
            return
        ((name, coeff),) = m.ref.access[unit[0]].terms
        if name not in self.names or abs(coeff) != 1:
            return
        k = self.names.index(name)
        if not self.searched[k]:
            return
        least, sizes = -(-run_bytes // m.elem_bytes), self.choices[k]
        if isinstance(sizes, range):  # 1..range: kept lazy for huge ranges
            self.choices[k] = range(min(least, self.ranges[k]), self.ranges[k] + 1)
        else:
            self.choices[k] = [s for s in sizes if s >= least or s == self.ranges[k]]

    def whole_bytes(self, m: _RefModel) -> int:
        """Bytes of the view of `m` that the whole block reads or writes."""
        return math.prod(m.sizes(self.ranges)) * m.elem_bytes

    def weight(self, m: _RefModel) -> float:
        """A refinement's weight per line: `resident_cost` when the view of it the whole block
        reads or writes stays in cache (`resident_bytes`), else 1."""
        opts = self.opts
        if opts.resident_bytes > 0 and self.whole_bytes(m) <= opts.resident_bytes:
            return opts.resident_cost
        return 1.0

    def evaluate(self, sizes: tuple[int, ...]) -> Candidate:
        opts = self.opts
        counts = [-(-r // s) for r, s in zip(self.ranges, sizes, strict=True)]
        in_bytes = out_bytes = total = in_lines = out_lines = each_in = 0
        w_in = w_out = 0.0
        for m in self.refs:
            ext = m.sizes(sizes)
            nbytes = m.footprint(sizes, ext, opts.footprint)
            lines = m.lines(ext, opts.cache_width)
            total += nbytes
            weighted = lines * self.weight(m)
            w_in += weighted if m.reads else 0.0
            w_out += weighted if m.writes else 0.0
            if m.reads:
                in_bytes += nbytes
                in_lines += lines
                each_in = max(each_in, nbytes)
            if m.writes:
                out_bytes += nbytes
                out_lines += lines
        tiles = math.prod(counts)
        excluded = None
        for what, value, limit in (
            ("total", total, opts.max_total_size),
            ("input", in_bytes, opts.max_input_size),
            ("output", out_bytes, opts.max_output_size),
            ("each_input", each_in, opts.max_each_input_size),
        ):
            if limit > 0 and value > limit:
                excluded = f"{what} {value} B > max_{what}_size {limit} B"
                break
        cost = None
        if not excluded:
            cost = self._cost(sizes, counts, in_lines, out_lines, w_in, w_out)
            cost *= self.balance_one(sizes)
        named = tuple(zip(self.names, sizes, strict=True))
        return Candidate(
            named, tiles, in_bytes, out_bytes, total, in_lines, out_lines, cost, excluded
        )

    def balance(self, grid: np.ndarray) -> np.ndarray:
        """`thread_balance` of every row of `grid`: the factor on its cost."""
        opts = self.opts
        return thread_balance(grid, self.ranges, self.is_out, opts.threads, opts.thread_slack)

    def balance_one(self, sizes: Sequence[int]) -> float:
        """`balance` of one candidate, in plain Python (the scalar search evaluates hundreds
        one at a time; numpy's per-call overhead was most of their cost): the same arithmetic,
        int64 products and float64 quotients, so the same value."""
        opts = self.opts
        cols = [k for k, out in enumerate(self.is_out) if out and self.ranges[k] > 1]
        if opts.threads < 2 or not cols:
            return 1.0
        counts = [-(-self.ranges[k] // sizes[k]) for k in cols]
        most = max(counts)
        worst = 0.0
        for k, count in zip(cols, counts, strict=True):
            if count == most:
                busiest = min(-(-count // opts.threads) * sizes[k], self.ranges[k])
                worst = max(worst, float(busiest * opts.threads) / float(self.ranges[k]))
        return worst if most > 1 and worst > 1.0 + opts.thread_slack else 1.0

    def tile_counts(self, grid: np.ndarray) -> np.ndarray:
        """Number of tiles of each candidate (a row of sizes per candidate)."""
        ranges = np.array(self.ranges, dtype=np.int64)
        return np.prod(-(-ranges // grid), axis=1)

    def costs(self, grid: np.ndarray) -> np.ndarray:
        """`evaluate`'s cost for every row of `grid` at once (inf where excluded): the same
        model in numpy, for exhaustive searches."""
        opts = self.opts
        n = len(grid)
        ranges = np.array(self.ranges, dtype=np.int64)
        counts = -(-ranges // grid)
        keys = ("in", "out", "total", "inl", "outl", "each_in")
        sums = {k: np.zeros(n, dtype=np.int64) for k in keys}
        w_in = np.zeros(n, dtype=np.float64)
        w_out = np.zeros(n, dtype=np.float64)
        for m in self.refs:
            ext = [
                np.full(n, const, dtype=np.int64) + sum(c * grid[:, k] for k, c in terms)
                for const, terms in m.dims
            ]
            counted = ext if opts.footprint == "view" else [grid[:, k] for k in m.used]
            elems = np.prod(np.stack(counted), axis=0) if counted else np.ones(n, dtype=np.int64)
            nbytes = elems * m.elem_bytes
            lines = m.lines_grid(ext, n, opts.cache_width)
            sums["total"] += nbytes
            if m.reads:
                w_in += lines * self.weight(m)
            if m.writes:
                w_out += lines * self.weight(m)
            if m.reads:
                sums["in"] += nbytes
                sums["inl"] += lines
                sums["each_in"] = np.maximum(sums["each_in"], nbytes)
            if m.writes:
                sums["out"] += nbytes
                sums["outl"] += lines
        excluded = np.zeros(n, dtype=bool)
        for key, limit in (
            ("total", opts.max_total_size),
            ("in", opts.max_input_size),
            ("out", opts.max_output_size),
            ("each_in", opts.max_each_input_size),
        ):
            if limit > 0:
                excluded |= sums[key] > limit
        io = opts.input_cost * sums["inl"] + opts.output_cost * sums["outl"]
        tiles = np.prod(counts, axis=1)
        if opts.cost_model == "lines_per_output":
            cost = (
                tiles * (opts.input_cost * w_in + opts.output_cost * w_out) / max(self.outputs, 1)
            )
        else:
            sizes = grid.astype(np.float64)
            expand = np.prod(sizes * counts / ranges, axis=1)
            size = np.prod(sizes, axis=1)
            outs = np.array(self.is_out, dtype=bool)
            ineff = expand
            for minimum, actual in (
                (opts.min_size, size),
                (opts.min_out_size, np.prod(sizes[:, outs], axis=1)),
                (opts.min_count, tiles),
                (opts.min_out_count, np.prod(counts[:, outs], axis=1)),
            ):
                if minimum > 1:
                    ineff = ineff * (minimum / np.minimum(actual, minimum))
            cost = ineff * (1.0 + io) / size + opts.split_factor * np.log2(tiles)
        return np.where(excluded, np.inf, cost * self.balance(grid))

    def _cost(
        self,
        sizes: Sequence[int],
        counts: Sequence[int],
        ins: int,
        outs: int,
        w_ins: float,
        w_outs: float,
    ) -> float:
        opts = self.opts
        io = opts.input_cost * ins + opts.output_cost * outs
        tiles = math.prod(counts)
        if opts.cost_model == "lines_per_output":
            weighted = opts.input_cost * w_ins + opts.output_cost * w_outs
            return tiles * weighted / max(self.outputs, 1)
        expand = math.prod(
            s * c / r for s, c, r in zip(sizes, counts, self.ranges, strict=True) if r > 0
        )
        size = math.prod(sizes)
        out_size = math.prod(s for s, o in zip(sizes, self.is_out, strict=True) if o)
        out_count = math.prod(c for c, o in zip(counts, self.is_out, strict=True) if o)
        ineff = expand
        for minimum, actual in (
            (opts.min_size, size),
            (opts.min_out_size, out_size),
            (opts.min_count, tiles),
            (opts.min_out_count, out_count),
        ):
            ineff *= minimum / min(actual, minimum) if minimum > 1 and actual > 0 else 1.0
        return ineff * (1.0 + io) / max(size, 1) + opts.split_factor * math.log2(tiles)


def input_bytes(block: Block, opts: AutotileOptions) -> list[int]:
    """Bytes of the view each input of `block` has over the whole block. Raises AnalysisError
    when a refinement's extent cannot be derived."""
    model = _Model(block, opts)
    return [model.whole_bytes(m) for m in model.refs if m.reads]


def search_tiles(block: Block, opts: AutotileOptions, *, detail: bool = False) -> SearchResult:
    """Search `block`'s tile sizes under `opts` (see the module docstring). With `detail` the
    result lists the candidates for a report: every one evaluated when there are at most
    `REPORT_ALL`, else the best and the first excluded ones. Raises AnalysisError when a
    refinement's tile extent cannot be derived."""
    if any(i.range < 1 for i in block.idxs):
        return SearchResult((), None, 0, True, ())  # no point to tile
    model = _Model(block, opts)
    space = math.prod(len(c) for c in model.choices)
    searched = tuple(n for n, s in zip(model.names, model.searched, strict=True) if s)
    if space <= opts.max_exhaustive:
        return _exhaustive(model, space, searched, detail)
    return _best_first(model, space, searched)


# How many candidates a detailed exhaustive result lists in full; above it, half of this many
# of the best and of the excluded ones.
REPORT_ALL = 4096
# Candidates within this relative cost of the minimum are re-ranked exactly (scalar model).
_TIE_TOLERANCE = 1e-9
_TIE_RERANK = 64


def _exhaustive(model: _Model, space: int, searched: tuple[str, ...], detail: bool) -> SearchResult:
    grid, costs, best = _grid_search(model, model.choices)
    cands: tuple[Candidate, ...] = ()
    if detail:
        valid = np.isfinite(costs)
        if space <= REPORT_ALL:
            rows = np.arange(len(grid))
        else:
            good = np.flatnonzero(valid)
            good = good[np.argsort(costs[good], kind="stable")[: REPORT_ALL // 2]]
            rows = np.concatenate([good, np.flatnonzero(~valid)[: REPORT_ALL // 2]])
        cands = tuple(model.evaluate(_row(grid[i])) for i in rows)
    return SearchResult(cands, best, space, True, searched)


def _grid_search(
    model: _Model, choices: Sequence[Sequence[int]]
) -> tuple[np.ndarray, np.ndarray, Candidate | None]:
    """Every candidate of the lattice `choices` at once: the grid (a row of sizes each), the
    costs (inf where excluded) and the best candidate."""
    mesh = np.meshgrid(*[np.array(c, dtype=np.int64) for c in choices], indexing="ij")
    grid = np.stack([m.reshape(-1) for m in mesh], axis=1)
    costs = model.costs(grid)
    valid = np.isfinite(costs)
    if not valid.any():
        return grid, costs, None
    low = float(costs[valid].min())
    near = np.flatnonzero(valid & (costs <= low + _TIE_TOLERANCE * max(1.0, abs(low))))
    # Fewer tiles, then smaller sizes, among the (near-)ties; the scalar model decides.
    tiles = model.tile_counts(grid[near])
    order = np.lexsort([*(grid[near, k] for k in reversed(range(grid.shape[1]))), tiles])
    ranked = [model.evaluate(_row(grid[near[i]])) for i in order[:_TIE_RERANK]]
    return grid, costs, min(ranked, key=Candidate.key)


def _coarse(choices: Sequence[Sequence[int]], limit: int) -> list[list[int]]:
    """A sub-lattice of at most `limit` candidates (when possible): per index the powers of two
    among its sizes and its extremes, then every other size of the longest list dropped until
    the product fits."""
    out = []
    for sizes in choices:
        po2 = [1 << k for k in range(sizes[-1].bit_length()) if 1 << k in sizes]
        out.append(sorted({sizes[0], sizes[-1], *po2}))
    while math.prod(len(c) for c in out) > limit:
        longest = max(range(len(out)), key=lambda d: len(out[d]))
        if len(out[longest]) <= 2:
            break
        sizes = out[longest]
        out[longest] = sorted({*sizes[::2], sizes[-1]})
    return out


def _row(values: np.ndarray) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


def autotile_candidates(block: Block, opts: AutotileOptions) -> list[Candidate]:
    """The candidates the search evaluates for `block` (all of them up to `REPORT_ALL`), each
    with its cost or its exclusion reason (for tests and verbose output)."""
    return list(search_tiles(block, opts, detail=True).candidates)


def _best_first(model: _Model, space: int, searched: tuple[str, ...]) -> SearchResult:
    """Best-first local search over the full lattice from the smallest tile, the whole block
    and the best of a coarse sub-lattice searched exhaustively; a valid candidate's neighbours
    (one index one size up or down) are evaluated, an excluded one is a dead end."""
    choices = model.choices
    evaluated: list[Candidate] = []
    seen: set[tuple[int, ...]] = set()
    heap: list[tuple[tuple[float, int, tuple[int, ...]], tuple[int, ...]]] = []
    best: Candidate | None = None

    def visit(pos: tuple[int, ...]) -> None:
        nonlocal best
        seen.add(pos)
        cand = model.evaluate(tuple(c[p] for c, p in zip(choices, pos, strict=True)))
        evaluated.append(cand)
        if cand.excluded is None:
            heapq.heappush(heap, (cand.key(), pos))
            if best is None or cand.key() < best.key():
                best = cand

    seeds = [tuple(0 for _ in choices), tuple(len(c) - 1 for c in choices)]
    coarse = _coarse(choices, max(model.opts.max_exhaustive, 1))
    if math.prod(len(c) for c in coarse) <= max(model.opts.max_exhaustive, 1):
        _, _, coarse_best = _grid_search(model, coarse)
        if coarse_best is not None:
            sizes = [s for _, s in coarse_best.sizes]
            seeds.append(tuple(c.index(s) for c, s in zip(choices, sizes, strict=True)))
    for pos in seeds:
        if pos not in seen:
            visit(pos)
    budget = max(model.opts.max_evals, len(evaluated))
    while heap and len(evaluated) < budget:
        _, pos = heapq.heappop(heap)
        for d, step in itertools.product(range(len(choices)), (1, -1)):
            nxt = (*pos[:d], pos[d] + step, *pos[d + 1 :])
            if 0 <= nxt[d] < len(choices[d]) and nxt not in seen and len(evaluated) < budget:
                visit(nxt)
    return SearchResult(tuple(evaluated), best, space, False, searched)
