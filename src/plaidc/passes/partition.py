"""`partition-compute` and `partition-memory`: split a block's work across `num_parts` units.

Both split a matched block (`tiling.tile_block`) into an outer block with at most `num_parts`
points (one per unit) around an inner block holding one unit's share. The outer block's tags
are replaced by `set_tags` and the inner block takes the original ones (so later passes that
look for `#kernel`/`#contraction` find each unit's share); the outer indices that really split
(range > 1) get `#<idx_tag>`. Only indices that address an output are split, so no two units
aggregate into one element, and only indices starting at 0. Meaning is kept: the tiles
partition the points and outer aggregation combines them exactly as before. `num_parts = 1`
(the default) does nothing; so do blocks without indices or with whole-buffer Specials.

* `partition-compute` picks outer counts whose product is as close to `num_parts` as possible
  without exceeding it (PlaidML's cost: `num_parts - count`, an excess costs
  `(num_parts + 1) * (count - num_parts)`), then the least padding, then splitting earlier
  indices more.
* `partition-memory` banks one index: with exactly one output, it takes the input viewing the
  largest buffer and the index with a stride in both that input and the output whose split
  into `num_parts` pads least (then the largest range, then the first), provided that index
  walks a single dimension of the input. The split index is the bank number: every outer
  refinement it addresses gets the location unit `<bank_unit>[index]` (appended to the
  refinement's location, if any), so each unit's slice lives in its own bank. Locations
  carry no semantics. PlaidML also re-laid out the underlying allocation per bank and banked
  the other blocks using it consistently; plaidc banks each matched block on its own and
  leaves layouts to placement.

Before / after `--pass partition-compute{num_parts=2,set_tags=[part],idx_tag=unit}`:

    #kernel block [i:8, k:4] (              #part block [(#unit i:2), k:1] (
        in A[i, k] ...                          in A[4*i, 0] fp32:I(4, 4):(4, 1)
        out B[i]:add ...                        out B[4*i]:add fp32:I(4):(1)
    ) { ... }                               ) {
                                              #kernel block [i:4, k:4] (
                                                  in A[i, k] ...  out B[i]:add ...
                                              ) { ... }
                                            }
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from plaidc.analysis import AnalysisError, resolve_view
from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.passes.selection import EXCLUDE_HELP, REQS_OUTERMOST_HELP, map_sub_blocks, matches
from plaidc.passes.tiling import TilingError, tile_block, tileable_range
from plaidc.stripe.ir import Affine, Block, Index, Location, LocUnit, RefDir, Refinement, Special


@dataclass(frozen=True)
class PartitionOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_OUTERMOST_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    num_parts: int = option(1, "units to split the work across (1: the pass does nothing)", min=1)
    set_tags: tuple[str, ...] = option(
        (), "tags of the outer block (one point per unit), replacing the original's"
    )
    idx_tag: str = option("", "tag of the outer indices that really split (empty: none)")


@dataclass(frozen=True)
class PartitionMemoryOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_OUTERMOST_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    num_parts: int = option(1, "units to split the work across (1: the pass does nothing)", min=1)
    set_tags: tuple[str, ...] = option(
        (), "tags of the outer block (one point per unit), replacing the original's"
    )
    idx_tag: str = option("", "tag of the outer indices that really split (empty: none)")
    bank_unit: str = option(
        "BANK", "location unit <bank_unit>[index] the split views get, one bank per unit"
    )


@register("partition-compute", PartitionOptions, "split a block's work across N units")
def partition_compute(program: Block, opts: PartitionOptions) -> Block:
    if opts.num_parts <= 1:
        return program

    def split(block: Block, ancestors: tuple[Block, ...]) -> Block:
        sizes = compute_split(block, opts.num_parts)
        if sizes is None:
            return block
        return _partition(block, ancestors, sizes, opts.set_tags, opts.idx_tag)

    return _walk(program, (), opts.reqs, opts.exclude, split)


@register("partition-memory", PartitionMemoryOptions, "split a block and its buffers into banks")
def partition_memory(program: Block, opts: PartitionMemoryOptions) -> Block:
    if opts.num_parts <= 1:
        return program

    def split(block: Block, ancestors: tuple[Block, ...]) -> Block:
        name = bank_index(block, ancestors, opts.num_parts)
        if name is None:
            return block
        idx = block.idx(name)
        assert idx is not None
        sizes = {name: -(-idx.range // opts.num_parts)}
        outer = _partition(block, ancestors, sizes, opts.set_tags, opts.idx_tag)
        if outer is block:
            return block
        return _bank_refs(outer, name, opts.bank_unit)

    return _walk(program, (), opts.reqs, opts.exclude, split)


def _walk(
    block: Block,
    ancestors: tuple[Block, ...],
    reqs: Sequence[str],
    exclude: Sequence[str],
    fn: Callable[[Block, tuple[Block, ...]], Block],
) -> Block:
    """Pre-order, outermost match (like `selection.rewrite_matching`), passing the chain."""
    if matches(block, reqs, exclude):
        return fn(block, ancestors)
    chain = (*ancestors, block)
    return map_sub_blocks(block, lambda child: _walk(child, chain, reqs, exclude, fn))


def _partition(
    block: Block,
    ancestors: tuple[Block, ...],
    sizes: dict[str, int],
    set_tags: Sequence[str],
    idx_tag: str,
) -> Block:
    try:
        outer = tile_block(
            block,
            sizes,
            outer_tags=set_tags,
            copy_tags=True,
            clear_outer=True,
            ancestors=ancestors,
        )
    except TilingError:
        return block
    if idx_tag:
        idxs = tuple(
            dataclasses.replace(i, tags=i.tags.add(idx_tag)) if i.range > 1 else i
            for i in outer.idxs
        )
        outer = dataclasses.replace(outer, idxs=idxs)
    return outer


def _splittable(block: Block) -> bool:
    return bool(block.idxs) and not any(isinstance(s, Special) for s in block.stmts)


def _outputs(block: Block) -> list[Refinement]:
    return [r for r in block.refs if r.dir in (RefDir.OUT, RefDir.INOUT)]


def _flat_stride(ref: Refinement, index: str) -> int:
    return sum(a.coeff(index) * s for a, s in zip(ref.access, ref.shape.strides, strict=False))


# --------------------------------------------------------------------------------------------
# partition-compute: outer counts as close to num_parts as possible


def compute_split(block: Block, num_parts: int) -> dict[str, int] | None:
    """Tile sizes splitting `block` into at most `num_parts` parts over its output indices, or
    None when no index can be split."""
    if not _splittable(block):
        return None
    outs = _outputs(block)
    candidates = [
        i
        for i in block.idxs
        if i.range > 1 and tileable_range(i) and any(_flat_stride(r, i.name) for r in outs)
    ]
    if not candidates:
        return None
    best: tuple[tuple[int, int, tuple[int, ...]], tuple[int, ...]] | None = None
    for counts in _count_choices(candidates, num_parts):
        product, padded, exact = 1, 1, 1
        for idx, count in zip(candidates, counts, strict=True):
            product *= count
            padded *= count * -(-idx.range // count)
            exact *= idx.range
        key = (num_parts - product, padded - exact, tuple(-c for c in counts))
        if best is None or key < best[0]:
            best = (key, counts)
    assert best is not None
    sizes = {
        idx.name: -(-idx.range // count)
        for idx, count in zip(candidates, best[1], strict=True)
        if count > 1
    }
    return sizes or None


def _count_choices(idxs: Sequence[Index], limit: int) -> Iterator[tuple[int, ...]]:
    """Every vector of achievable tile counts (`ceil(range / size)`) with product <= limit."""
    options = [_achievable_counts(i.range, limit) for i in idxs]

    def extend(pos: int, product: int, chosen: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if pos == len(idxs):
            yield chosen
            return
        for count in options[pos]:
            if product * count > limit:
                break
            yield from extend(pos + 1, product * count, (*chosen, count))

    yield from extend(0, 1, ())


def _achievable_counts(extent: int, limit: int) -> list[int]:
    """Counts `c <= limit` that some tile size gives exactly (`ceil(extent / ceil(extent/c))`
    is `c`), ascending."""
    return [c for c in range(1, min(extent, limit) + 1) if -(-extent // -(-extent // c)) == c]


# --------------------------------------------------------------------------------------------
# partition-memory: one banked index


def bank_index(block: Block, ancestors: Sequence[Block], num_parts: int) -> str | None:
    """The index to bank `block` (whose ancestors, root first, are `ancestors`) on (see the
    module docstring), or None."""
    if not _splittable(block):
        return None
    outs = _outputs(block)
    ins = [r for r in block.refs if r.dir == RefDir.IN]
    if len(outs) != 1 or not ins:
        return None
    (out,) = outs
    chain = (*ancestors, block)
    biggest = max(ins, key=lambda r: _buffer_size(chain, r))  # the first of equal sizes
    best: tuple[tuple[float, int, int], str] | None = None
    for pos, idx in enumerate(block.idxs):
        if idx.range <= 1 or not tileable_range(idx):
            continue
        if not _flat_stride(biggest, idx.name) or not _flat_stride(out, idx.name):
            continue
        if sum(1 for a in biggest.access if a.coeff(idx.name)) != 1:
            continue  # banking along several dimensions at once is not expressible
        tile = -(-idx.range // num_parts)
        waste = tile * num_parts - idx.range
        key = (waste / (tile * num_parts), -idx.range, pos)
        if best is None or key < best[0]:
            best = (key, idx.name)
    return None if best is None else best[1]


def _buffer_size(chain: Sequence[Block], ref: Refinement) -> int:
    """Elements of the buffer `ref` (of `chain[-1]`) is a view of (the view's own size when
    the chain does not resolve)."""
    try:
        _, base = resolve_view(chain, ref.into)[-1]
    except AnalysisError:
        return ref.shape.elem_count
    return base.shape.elem_count


def _bank_refs(outer: Block, name: str, unit: str) -> Block:
    """Give each outer refinement addressed by the banked index `name` its bank location."""
    idx = outer.idx(name)
    if idx is None or idx.range <= 1:
        return outer
    bank = LocUnit(unit, (Affine.var(name),))
    refs = []
    for ref in outer.refs:
        if any(a.coeff(name) for a in ref.access):
            units = ref.location.units if ref.location is not None else ()
            ref = dataclasses.replace(ref, location=Location((*units, bank)))
        refs.append(ref)
    return dataclasses.replace(outer, refs=tuple(refs))
