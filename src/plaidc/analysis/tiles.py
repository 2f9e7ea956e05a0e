"""Tile extents: how large a view of a block becomes when the block is tiled.

Tiling a block gives each index `i` a tile of `t_i` consecutive values; a refinement of the
block then covers, per dimension, the elements its access reaches over the tile plus its own
interior size: the tile's view including the halo of a convolution and the overflow of an
uneven last tile. `tile_extent` answers that question once per refinement, with isl, as an
affine function of the tile sizes (a parametric maximum minus minimum over the tile box), so
that a tile-size search can evaluate thousands of candidates without asking isl again.

The box deliberately ignores the block's constraints: a tile is allocated and transferred
whole even where constraints skip its points (the Stripe paper's Figure 4 counts such
overflow). The exact per-point footprint of a built tiling, constraints included, is
`plaidc.analysis.access.footprint`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import islpy as isl

from plaidc.analysis.space import AnalysisError, affine_from_aff
from plaidc.stripe.ir import Affine, Refinement

__all__ = ["TileExtent", "tile_extent"]


@dataclass(frozen=True)
class TileExtent:
    """Per dimension of a view tiled by the tile sizes `t_name` of the block's indices, as
    affine functions of those sizes (`Affine`s over index names): `origin`, the smallest
    coordinate reached from the parent view when the tile starts at index values 0 (the
    access constant plus the reach of negative coefficients), and `dims`, the number of
    coordinates from there to the largest one reached."""

    origin: tuple[Affine, ...]
    dims: tuple[Affine, ...]

    def sizes(self, tile: Mapping[str, int]) -> tuple[int, ...]:
        """The view's sizes for the tile sizes `tile` (index name -> size)."""
        return tuple(d.evaluate(tile) for d in self.dims)

    def origins(self, tile: Mapping[str, int]) -> tuple[int, ...]:
        """The view's origin offsets for the tile sizes `tile` (index name -> size)."""
        return tuple(o.evaluate(tile) for o in self.origin)


def tile_extent(
    ref: Refinement, idx_names: Sequence[str], ctx: isl.Context | None = None
) -> TileExtent:
    """The sizes of view `ref` (owned by a block with indices `idx_names`) over a tile of
    `t_i >= 1` consecutive values of every index, as affine functions of the `t_i`: per
    dimension, `max - min + 1` of `access(u) + e` over `0 <= u_i < t_i`, `0 <= e < size`.
    Raises AnalysisError when an access names an index not in `idx_names`, or when isl's answer
    is not a single affine piece."""
    ctx = ctx if ctx is not None else isl.DEFAULT_CONTEXT
    names = list(idx_names)
    ndims = ref.shape.ndims
    if len(ref.access) != ndims:
        raise AnalysisError(f"refinement '{ref.into}': access rank differs from its shape's")
    for aff in ref.access:
        for name in aff.names():
            if name not in names:
                raise AnalysisError(f"refinement '{ref.into}': unknown index '{name}'")
    origin: list[Affine] = []
    dims: list[Affine] = []
    for aff, size in zip(ref.access, ref.shape.sizes, strict=True):
        if size <= 0:
            origin.append(Affine.const_(aff.const))
            dims.append(Affine())
            continue
        if ctx is isl.DEFAULT_CONTEXT:
            reach = _cached_dim_extent(aff, size)
        else:
            reach = _dim_extent(ctx, aff, size)
        if reach is None:
            raise AnalysisError(
                f"refinement '{ref.into}': tile extent is not affine in the tile sizes"
            )
        origin.append(reach[0])
        dims.append(reach[1])
    return TileExtent(tuple(origin), tuple(dims))


# A program asks for the extents of the same accesses many times (each tile-size search, the
# tiling, every block of a repeated layer: ResNet-50's 74 contraction blocks are 35 distinct
# ones), and each is two parametric optimisations in isl. The answer is a function of the
# access and the size alone (values, not names of buffers), so it is kept for the process.
@functools.lru_cache(maxsize=8192)
def _cached_dim_extent(aff: Affine, size: int) -> tuple[Affine, Affine] | None:
    return _dim_extent(isl.DEFAULT_CONTEXT, aff, size)


def _dim_extent(ctx: isl.Context, aff: Affine, size: int) -> tuple[Affine, Affine] | None:
    """One dimension's (origin, size) over the tile box; None when isl's answer is not a
    single affine piece."""
    low, high = _reach(ctx, aff, size)
    origin, extent = _affine_piece(low), _affine_piece(high.sub(low).add_constant_val(1))
    return None if origin is None or extent is None else (origin, extent)


def _reach(ctx: isl.Context, aff: Affine, size: int) -> tuple[isl.PwAff, isl.PwAff]:
    """The smallest and largest `aff(u) + e` over `0 <= u_i < t_i`, `0 <= e < size`, as
    functions of the parameters `t_i` (named after the indices `aff` names)."""
    names = list(aff.names())
    n = len(names)
    # Set dims: tile offsets @u*, the interior offset @e, the reached coordinate @v.
    space = isl.Space.set_alloc(ctx, n, n + 2)
    for k, name in enumerate(names):
        space = space.set_dim_name(isl.dim_type.param, k, name)
        space = space.set_dim_name(isl.dim_type.set, k, f"@u{k}")
    space = space.set_dim_name(isl.dim_type.set, n, "@e")
    space = space.set_dim_name(isl.dim_type.set, n + 1, "@v")
    ls = isl.LocalSpace.from_space(space)
    zero = isl.Aff.zero_on_domain(ls)
    box = isl.BasicSet.universe(space)

    def at_least(expr: isl.Aff) -> None:
        nonlocal box
        box = box.add_constraint(isl.Constraint.inequality_from_aff(expr))

    e = isl.Aff.var_on_domain(ls, isl.dim_type.set, n)
    at_least(e)
    at_least(e.neg().add_constant_val(size - 1))
    reached = e.add_constant_val(aff.const)
    for k, (_, coeff) in enumerate(aff.terms):
        t = zero.set_coefficient_val(isl.dim_type.param, k, 1)
        u = isl.Aff.var_on_domain(ls, isl.dim_type.set, k)
        at_least(t.add_constant_val(-1))  # t >= 1
        at_least(u)  # u >= 0
        at_least(t.sub(u).add_constant_val(-1))  # u <= t - 1
        reached = reached.add(u.scale_val(isl.Val.int_from_si(ctx, coeff)))
    v = isl.Aff.var_on_domain(ls, isl.dim_type.set, n + 1)
    box = box.add_constraint(isl.Constraint.equality_from_aff(v.sub(reached)))
    coords = isl.Set.from_basic_set(box).project_out(isl.dim_type.set, 0, n + 1)
    return coords.dim_min(0), coords.dim_max(0)


def _affine_piece(pw: isl.PwAff) -> Affine | None:
    """`pw` as an `Affine` when it is one affine function on every piece, else None."""
    pieces = pw.get_pieces()
    affs = {str(aff) for _, aff in pieces}
    return affine_from_aff(pieces[0][1]) if len(affs) == 1 else None
