"""Tiling mechanics: split a block into an outer block over tiles and an inner block over the
points of one tile (the Stripe paper §3.3, Figure 5). Shared by `autotile` and any pass that
needs a fixed tiling (`tile_block`); the search for good sizes lives in `autotile_cost`.

For an index `x` of range `R` tiled by `t` the outer block gets `x` of range `ceil(R/t)` (the
tile number) and the inner block `x` of range `t` (the offset inside the tile). Where the inner
block needs the original value of `x` (constraints, `load_index`, index starts of nested blocks,
locations, or the bound of an uneven split) it gets a passthrough index `xo = t*x` of the outer
`x`, and the original `x` reads `xo + x`. Indices left whole keep their range in the inner block
and get range 1 in the outer one (no passthrough: their tile always starts at 0). An index with
a start over the parent's indices (`x:4 = 3*p`) cannot be split; its outer index keeps the
start with range 1 (its value is where the inner range begins) and the passthrough is `xo = x`.

Each refinement of the outer block becomes the tile's view: the access with every index scaled
to its tile start (`3*x - 1` for `x + i - 1` tiled by 3), sized to the elements the inner block
reaches from it over all tiles (isl footprint: halo included, `I(5, 6, 8)` for a 3x3
convolution tiled 3x4). The inner refinement refines it with the original access relative to
the tile start (`x + i`). Outer refinements keep the direction and aggregation of the original
(an `add` output stays `add`: partial tiles aggregate like partial points). Allocations move
into the inner block, one per point as before. Constraints move to the inner block, rewritten
through the passthroughs, and an uneven split bounds the last tile: `R - 1 - xo - x >= 0`.

Before (Figure 5a) / after (Figure 5b), tile x=3, y=4:

    block [x:12, y:16, i:3, j:3, c:8, k:16] (
        -1 + x + i >= 0    ...
        in I[x + i - 1, y + j - 1, c] i8(1, 1, 1):(128, 8, 1)
        out O[x, y, k]:add i8(1, 1, 1):(256, 16, 1)
    ) { ... }
->
    block [x:4, y:4, i:1, j:1, c:1, k:1] (
        in I[3*x - 1, 4*y - 1, 0] i8(5, 6, 8):(128, 8, 1)
        out O[3*x, 4*y, 0]:add i8(3, 4, 16):(256, 16, 1)
    ) {
      block [x:3, y:4, i:3, j:3, c:8, k:16, xo = 3*x, yo = 4*y] (
          -1 + xo + x + i >= 0    ...
          in I[x + i, y + j, c] i8(1, 1, 1):(128, 8, 1)
          out O[x, y, k]:add i8(1, 1, 1):(256, 16, 1)
      ) { ... }
    }
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import islpy as isl

from plaidc.analysis import AnalysisError, DomainCache, footprint, footprint_box
from plaidc.analysis.tiles import tile_extent
from plaidc.stripe.ir import (
    NO_TAGS,
    Affine,
    Block,
    Constraint,
    Index,
    LoadIndex,
    Location,
    LocUnit,
    Refinement,
)
from plaidc.stripe.uses import location_affines, substitute_indices

__all__ = ["TilingError", "tile_block", "tileable_range"]


class TilingError(ValueError):
    """A requested tiling is not possible (unknown index, size out of range, ...)."""


def tileable_range(idx: Index) -> bool:
    """Whether `idx` may be split: an index with a start over the parent's indices is kept
    whole (its tiles would start at `start + t*x`, which the outer block cannot name)."""
    return idx.affine.is_zero


@dataclass(frozen=True)
class _Split:
    """How one index splits: the outer index, the inner offset index, the tile start as an
    affine over the outer block's indices (zero when the tile always starts at 0), and whether
    the last tile overflows the range."""

    outer: Index
    inner: Index
    base: Affine
    uneven: bool


def _split(idx: Index, size: int) -> _Split:
    if not tileable_range(idx):
        if size != idx.range:
            raise TilingError(f"index '{idx.name}' has a start and cannot be split")
        # The outer index keeps the start (range 1): its value is the tile start.
        outer = dataclasses.replace(idx, range=1, span=None)
        inner = Index(idx.name, idx.range, Affine(), idx.tags)
        return _Split(outer, inner, Affine.var(idx.name), False)
    count = -(-idx.range // size)
    outer = dataclasses.replace(idx, range=count, span=None)
    inner = Index(idx.name, size, Affine(), idx.tags)
    base = Affine.var(idx.name, size) if count > 1 else Affine()
    return _Split(outer, inner, base, idx.range % size != 0)


def _unique(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    k = 1
    while f"{name}{k}" in taken:
        k += 1
    return f"{name}{k}"


def _absolute_uses(block: Block) -> set[str]:
    """Indices whose absolute value the inner block needs: everything but refinement accesses
    (those become relative to the tile's view)."""
    affines: list[Affine] = [c.affine for c in block.constraints]
    for ref in block.refs:
        affines.extend(location_affines(ref.location))
        if ref.from_ is None:
            affines.extend(ref.access)
    affines.extend(location_affines(block.location))
    for stmt in block.stmts:
        if isinstance(stmt, LoadIndex):
            affines.append(stmt.affine)
        elif isinstance(stmt, Block):
            affines.extend(i.affine for i in stmt.idxs)
    return {name for aff in affines for name in aff.names()}


def _sub_location(loc: Location | None, values: Mapping[str, Affine]) -> Location | None:
    if loc is None:
        return None
    return Location(
        tuple(LocUnit(u.name, tuple(a.substitute(values) for a in u.idxs)) for u in loc.units)
    )


def tile_block(
    block: Block,
    sizes: Mapping[str, int],
    outer_tags: Iterable[str] = (),
    inner_tags: Iterable[str] = (),
    *,
    copy_tags: bool = False,
    clear_outer: bool = False,
    ancestors: Sequence[Block] | None = None,
) -> Block:
    """Split `block` into an outer block over tiles containing an inner block over one tile
    (see the module docstring). `sizes` maps index names to tile sizes (`1 <= t <= range`);
    indices not named stay whole. The outer block keeps the name, comments, location, tags
    (unless `clear_outer`) and statement fields of `block` and gains `outer_tags`; the inner
    block keeps the name and gains `inner_tags` (and `block`'s tags with `copy_tags`).
    Outer views are sized by isl to what the inner block reaches over every tile, constraints
    included; `ancestors` (root first, `block`'s parent last) give the context of `block`
    (index starts, outer constraints). Views stay the whole tile box where that question
    cannot be asked (an index start naming a parent index without `ancestors`). Raises
    TilingError."""
    by_name = {i.name: i for i in block.idxs}
    for name, size in sizes.items():
        idx = by_name.get(name)
        if idx is None:
            raise TilingError(f"block has no index '{name}'")
        if not 1 <= size <= max(idx.range, 1):
            raise TilingError(f"tile size {size} of index '{name}' is not in [1, {idx.range}]")
    splits = {i.name: _split(i, sizes.get(i.name, i.range)) for i in block.idxs}

    # Passthroughs for the indices whose absolute value the inner block needs.
    needed = _absolute_uses(block)
    taken = set(by_name)
    passthroughs: list[Index] = []
    full: dict[str, Affine] = {}
    bounds: list[Constraint] = []
    for idx in block.idxs:
        sp = splits[idx.name]
        if sp.base.is_zero or not (sp.uneven or idx.name in needed):
            continue
        pname = _unique(f"{idx.name}o", taken)
        taken.add(pname)
        passthroughs.append(Index(pname, 1, sp.base))
        full[idx.name] = Affine.var(pname) + Affine.var(idx.name)
        if sp.uneven:
            # The last tile overflows the range: keep `xo + x <= R - 1`.
            bound = Affine.const_(idx.range - 1) - Affine.var(pname) - Affine.var(idx.name)
            bounds.append(Constraint(bound))

    inner_sizes = {i.name: splits[i.name].inner.range for i in block.idxs}
    idx_names = [i.name for i in block.idxs]
    bases = {name: sp.base for name, sp in splits.items()}
    outer_refs: list[Refinement] = []
    inner_refs: list[Refinement] = []
    for ref in block.refs:
        if ref.from_ is None:
            inner_refs.append(
                dataclasses.replace(
                    ref,
                    access=tuple(a.substitute(full) for a in ref.access),
                    location=_sub_location(ref.location, full),
                )
            )
            continue
        outer_ref, inner_ref = _split_ref(ref, idx_names, bases, inner_sizes, full)
        outer_refs.append(outer_ref)
        inner_refs.append(inner_ref)

    body = substitute_indices(dataclasses.replace(block, refs=()), full)
    inner_tagset = block.tags if copy_tags else NO_TAGS
    inner = Block(
        name=block.name,
        idxs=tuple(splits[i.name].inner for i in block.idxs) + tuple(passthroughs),
        constraints=body.constraints + tuple(bounds),
        refs=tuple(inner_refs),
        stmts=body.stmts,
        location=body.location,
        tags=inner_tagset.add(*inner_tags),
        span=block.span,
    )
    outer_tagset = NO_TAGS if clear_outer else block.tags
    outer = dataclasses.replace(
        block,
        idxs=tuple(splits[i.name].outer for i in block.idxs),
        constraints=(),
        refs=tuple(outer_refs),
        stmts=(inner,),
        location=_sub_location(block.location, bases),
        tags=outer_tagset.add(*outer_tags),
    )
    return _fit_views(outer, ancestors)


def _split_ref(
    ref: Refinement,
    idx_names: Sequence[str],
    bases: Mapping[str, Affine],
    inner_sizes: Mapping[str, int],
    full: Mapping[str, Affine],
) -> tuple[Refinement, Refinement]:
    """The tile view (outer, sized to the whole tile box; `_fit_views` refines it) and the
    inner view of it."""
    try:
        extent = tile_extent(ref, idx_names)
    except AnalysisError as err:
        raise TilingError(str(err)) from None
    origins = extent.origins(inner_sizes)
    outer_access: list[Affine] = []
    inner_access: list[Affine] = []
    for aff, origin in zip(ref.access, origins, strict=True):
        # The tile view starts at the smallest element any point of the tile reaches.
        relative = Affine(aff.terms)
        outer_access.append(relative.substitute(bases) + origin)
        inner_access.append(aff - origin)
    shape = dataclasses.replace(ref.shape, sizes=extent.sizes(inner_sizes))
    outer = dataclasses.replace(
        ref,
        access=tuple(outer_access),
        shape=shape,
        location=_sub_location(ref.location, bases),
    )
    inner = dataclasses.replace(
        ref,
        from_=ref.into,
        access=tuple(inner_access),
        location=_sub_location(ref.location, full),
    )
    return outer, inner


def _fit_views(outer: Block, ancestors: Sequence[Block] | None) -> Block:
    """Shrink each outer view to the elements the inner block reaches from it over every tile
    (isl, constraints included); views nothing reaches keep the tile box."""
    chain = (*(ancestors or ()), outer)
    cache = DomainCache()
    refs: list[Refinement] = []
    changed = False
    for ref in outer.refs:
        try:
            reach = footprint_box(footprint(chain, ref.into, domains=cache))
        except (AnalysisError, isl.Error):
            reach = None
        if reach is None or any(
            lo < 0 or hi >= size for (lo, hi), size in zip(reach, ref.shape.sizes, strict=True)
        ):
            refs.append(ref)
            continue
        sizes = tuple(hi + 1 for _, hi in reach)
        if sizes != ref.shape.sizes:
            changed = True
            ref = dataclasses.replace(ref, shape=dataclasses.replace(ref.shape, sizes=sizes))
        refs.append(ref)
    return dataclasses.replace(outer, refs=tuple(refs)) if changed else outer
