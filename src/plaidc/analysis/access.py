"""Access relations of refinements: which buffer elements a point of a block touches.

Element coordinates of a view are relative to the view's element 0 (`0 <= c < size` when inside
the view). A refinement `R` of the block at depth `d` places its element 0 at coordinates
`access(R)(point)` of its parent view, so an element at coordinates `c` of `R` is at `access + c`
of the parent when both views share strides (the usual case). When the strides differ (a
reshaping view) elements are matched through flat offsets: `sum(c * stride)` of the child equals
`sum(c' * stride')` of the parent for some `c'` inside the parent view.

Only statements touch memory: a `load`/`store` touches element 0 of its view, a Special its whole
views. `trace` follows one such access from the view it names up through the views it refines to
the owning allocation (or the program root), and gives at every level the elements reached and
those that fall outside that level's view, over the full chain domain (every ancestor's and the
leaf's indices and constraints). Views themselves may stick out of their parents (a tiled outer
view with a halo, the Stripe paper's Figure 5b); only elements actually reached matter.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise

import islpy as isl

from plaidc.analysis.domain import DomainCache, project_to_depth
from plaidc.analysis.space import (
    MAX_OPERATIONS,
    OFFSET_NAME,
    AnalysisError,
    AnalysisTooComplex,
    coord_space,
    dim_names,
    map_from_affines,
    set_space,
    split_dim_name,
)
from plaidc.stripe.ir import Block, Load, Refinement, Special, Statement, Store

__all__ = [
    "LeafAccess",
    "LevelAccess",
    "Lifted",
    "access_map",
    "accesses_through",
    "disjoint",
    "footprint",
    "footprint_box",
    "footprint_extent",
    "leaf_elements",
    "lift",
    "overlapping_points",
    "resolve_view",
    "sharing_points",
    "statement_accesses",
    "trace",
    "view_box",
]


# --------------------------------------------------------------------------------------------
# Views and their relations


def view_box(ref: Refinement, ctx: isl.Context) -> isl.Set:
    """The coordinates `0 <= c < size` of the elements of view `ref`."""
    space = coord_space(ctx, ref.shape.ndims)
    box = isl.BasicSet.universe(space)
    ls = isl.LocalSpace.from_space(space)
    for d, size in enumerate(ref.shape.sizes):
        var = isl.Aff.var_on_domain(ls, isl.dim_type.set, d)
        box = box.add_constraint(isl.Constraint.inequality_from_aff(var))
        box = box.add_constraint(
            isl.Constraint.inequality_from_aff(var.neg().add_constant_val(size - 1))
        )
    return isl.Set.from_basic_set(box)


def access_map(domain: isl.Set, ref: Refinement, depth: int) -> isl.Map:
    """`point -> coordinates of ref's element 0 in its parent view`, for the points of `domain`
    (a chain domain containing the indices of the block at `depth` that owns `ref`)."""
    return map_from_affines(domain.get_space(), ref.access, depth).intersect_domain(domain)


def leaf_elements(domain: isl.Set, ref: Refinement, whole_view: bool) -> isl.Map:
    """`point -> coordinates in view ref` of the elements one statement touches: element 0
    (load/store) or every element of the view (Special)."""
    ctx = domain.get_ctx()
    space = isl.Space.map_from_domain_and_range(
        domain.get_space(), coord_space(ctx, ref.shape.ndims)
    )
    if whole_view:
        elems = isl.Map.from_domain_and_range(domain, view_box(ref, ctx))
        return elems
    return isl.Map.from_multi_aff(isl.MultiAff.zero(space)).intersect_domain(domain)


def _flat_layout(ctx: isl.Context, strides: Sequence[int]) -> isl.Map:
    """`coordinates -> flat offset` of a view with `strides`."""
    space = coord_space(ctx, len(strides))
    mspace = isl.Space.map_from_domain_and_range(space, set_space(ctx, [OFFSET_NAME]))
    aff = isl.Aff.zero_on_domain(isl.LocalSpace.from_space(space))
    for d, stride in enumerate(strides):
        aff = aff.set_coefficient_val(isl.dim_type.in_, d, stride)
    affs = isl.AffList.alloc(ctx, 1).add(aff)
    return isl.Map.from_multi_aff(isl.MultiAff.from_aff_list(mspace, affs))


@dataclass(frozen=True)
class Lifted:
    """Elements of a child view seen from its parent view `parent` (see `lift`). `outside` is
    computed when first asked for (most callers want only `elements`) unless `flat`."""

    elements: isl.Map
    parent: Refinement
    flat_outside: isl.Map | None = None

    @property
    def flat(self) -> bool:
        return self.flat_outside is not None

    @cached_property
    def outside(self) -> isl.Map:
        return _outside(self.elements, self.parent, self.flat_outside)


def _outside(elements: isl.Map, view: Refinement, flat_outside: isl.Map | None) -> isl.Map:
    if flat_outside is not None:
        return flat_outside
    return elements.subtract_range(view_box(view, elements.get_ctx()))


def lift(elements: isl.Map, child: Refinement, depth: int, parent: Refinement) -> Lifted:
    """Map `elements` (chain point -> coordinates in view `child`, owned by the block at
    `depth`) to coordinates in `child`'s parent view `parent`. `outside` holds the reached
    elements that are not inside `parent`: coordinates, or when `flat` (the views' strides
    differ) flat offsets relative to `parent`'s element 0. Raises AnalysisError on mismatched
    ranks."""
    ctx = elements.get_ctx()
    shape = child.shape
    if not (len(child.access) == shape.ndims == len(shape.strides)):
        raise AnalysisError(f"refinement '{child.into}': access rank differs from its shape's")
    pshape = parent.shape
    if len(pshape.sizes) != len(pshape.strides):
        raise AnalysisError(f"refinement '{parent.into}': as many sizes as strides expected")
    origin = map_from_affines(elements.get_space().domain(), child.access, depth)
    reached = origin.sum(elements)
    if shape.strides == pshape.strides and len(pshape.sizes) == shape.ndims:
        return Lifted(reached, parent)
    offsets = reached.apply_range(_flat_layout(ctx, shape.strides))
    layout = _flat_layout(ctx, pshape.strides).intersect_domain(view_box(parent, ctx))
    # The parent's elements as flat offsets: with strides that overlap irregularly isl's
    # subtraction can run for hours, so it gets a budget.
    ctx.reset_operations()
    ctx.set_max_operations(MAX_OPERATIONS)
    try:
        outside = offsets.subtract_range(layout.range())
        lifted = offsets.apply_range(layout.reverse())
    except isl.Error as err:
        if "maximal number of operations" not in str(err):
            raise
        raise AnalysisTooComplex(
            f"refinement '{child.into}': its strides {shape.strides} and those of the view it "
            f"refines, {pshape.strides}, are too irregular to check which elements it reaches "
            f"(isl gave up after {MAX_OPERATIONS} operations)"
        ) from None
    finally:
        ctx.set_max_operations(0)
    return Lifted(lifted, parent, outside)


def resolve_view(
    chain: Sequence[Block], ref_name: str, stop_depth: int = 0
) -> list[tuple[int, Refinement]]:
    """The views that refinement `ref_name` of `chain[-1]` refines, as `(depth, refinement)`
    from the leaf upwards, ending at an allocation, at the root, or at `stop_depth`. Raises
    AnalysisError when a name does not resolve."""
    depth = len(chain) - 1
    ref = chain[depth].ref(ref_name)
    if ref is None:
        raise AnalysisError(f"no refinement '{ref_name}'")
    out = [(depth, ref)]
    while ref.from_ is not None and depth > stop_depth:
        parent = chain[depth - 1].ref(ref.from_)
        if parent is None:
            raise AnalysisError(f"refinement '{ref.into}' refines unknown '{ref.from_}'")
        depth -= 1
        ref = parent
        out.append((depth, ref))
    return out


@dataclass(frozen=True)
class LevelAccess:
    """What one statement's access reaches at one level of views (see `trace`).

    `elements`: chain point -> coordinates in view `ref` (owned by the block at `depth`) of the
    elements reached; `outside`: the reached elements outside `ref`'s view (chain point ->
    coordinates, or flat offsets when `flat`). Both are over the leaf chain's full domain.
    `outside` is computed when first asked for (footprints never need it) unless `flat`.
    """

    depth: int
    ref: Refinement
    elements: isl.Map
    flat_outside: isl.Map | None = None

    @property
    def flat(self) -> bool:
        return self.flat_outside is not None

    @cached_property
    def outside(self) -> isl.Map:
        return _outside(self.elements, self.ref, self.flat_outside)


def trace(
    chain: Sequence[Block],
    ref_name: str,
    whole_view: bool,
    domains: DomainCache | None = None,
    stop_depth: int = 0,
) -> list[LevelAccess]:
    """Follow the access of a statement of `chain[-1]` through view `ref_name` (element 0, or
    the `whole_view`) up through the views it refines (see `resolve_view`); one entry per
    level, leaf first."""
    cache = domains if domains is not None else DomainCache()
    levels = resolve_view(chain, ref_name, stop_depth)
    domain = cache.domain(chain)
    leaf_depth, leaf = levels[0]
    elems = leaf_elements(domain, leaf, whole_view)
    out = [LevelAccess(leaf_depth, leaf, elems)]
    for (depth, child), (pdepth, parent) in pairwise(levels):
        lifted = lift(out[-1].elements, child, depth, parent)
        out.append(LevelAccess(pdepth, parent, lifted.elements, lifted.flat_outside))
    return out


# --------------------------------------------------------------------------------------------
# Accesses below a block


def statement_accesses(stmt: Statement) -> Iterator[tuple[str, bool, bool]]:
    """The refinements a statement touches: `(name, writes, whole_view)`."""
    if isinstance(stmt, Load):
        yield stmt.from_, False, False
    elif isinstance(stmt, Store):
        yield stmt.into, True, False
    elif isinstance(stmt, Special):
        for name in stmt.inputs:
            yield name, False, True
        for name in stmt.outputs:
            yield name, True, True


@dataclass(frozen=True)
class LeafAccess:
    """A statement's access to view `ref` of `chain[-1]` (the block holding the statement)."""

    chain: tuple[Block, ...]
    ref: str
    stmt: Statement
    writes: bool
    whole_view: bool


def accesses_through(chain: Sequence[Block], ref_name: str) -> list[LeafAccess]:
    """Every statement access in `chain[-1]` or its descendants that goes through refinement
    `ref_name` of `chain[-1]` (directly, or via child refinements refining it)."""
    out: list[LeafAccess] = []

    def walk(path: tuple[Block, ...], name: str) -> None:
        block = path[-1]
        for stmt in block.stmts:
            if isinstance(stmt, Block):
                for ref in stmt.refs:
                    if ref.from_ == name:
                        walk((*path, stmt), ref.into)
                continue
            for target, writes, whole in statement_accesses(stmt):
                if target == name:
                    out.append(LeafAccess(path, name, stmt, writes, whole))

    walk(tuple(chain), ref_name)
    return out


def footprint(
    chain: Sequence[Block],
    ref_name: str,
    *,
    reads: bool = True,
    writes: bool = True,
    domains: DomainCache | None = None,
) -> isl.Map:
    """`point of chain[-1] -> coordinates in view ref_name` of every element that the point's
    statements and descendants read (`reads`) or write (`writes`) through the view. The domain
    is the chain domain of `chain[-1]` (ancestors included)."""
    cache = domains if domains is not None else DomainCache()
    depth = len(chain) - 1
    ref = chain[-1].ref(ref_name)
    if ref is None:
        raise AnalysisError(f"no refinement '{ref_name}'")
    space = isl.Space.map_from_domain_and_range(
        cache.domain(chain).get_space(), coord_space(cache.ctx, ref.shape.ndims)
    )
    result = isl.Map.empty(space)
    for acc in accesses_through(chain, ref_name):
        if not (reads if not acc.writes else writes):
            continue
        levels = trace(acc.chain, acc.ref, acc.whole_view, cache, stop_depth=depth)
        reached = project_to_depth(levels[-1].elements, depth)
        assert isinstance(reached, isl.Map)
        result = result.union(reached)
    return result.coalesce()


def footprint_box(fp: isl.Map | isl.Set) -> list[tuple[int, int]] | None:
    """Per dimension `(min, max)` of the elements of a footprint over all its points (a map's
    range, or a set of coordinates); None when nothing is reached."""
    elems = fp.range() if isinstance(fp, isl.Map) else fp
    if elems.is_empty():
        return None
    out = []
    for d in range(elems.dim(isl.dim_type.set)):
        lo, hi = elems.dim_min_val(d), elems.dim_max_val(d)
        if not (lo.is_int() and hi.is_int()):
            raise AnalysisError(f"footprint is unbounded in dimension {d}")
        out.append((int(lo.to_python()), int(hi.to_python())))
    return out


def footprint_extent(fp: isl.Map) -> list[int] | None:
    """Per dimension, the largest `max - min + 1` of the elements reached by one point of a
    footprint map: the sizes of a buffer holding any single point's footprint (e.g. a tile with
    its halo). None when nothing is reached."""
    if fp.is_empty():
        return None
    # c -> c' for two elements of one point; their differences bound the extent.
    deltas = fp.reverse().apply_range(fp).deltas()
    out = []
    for d in range(deltas.dim(isl.dim_type.set)):
        hi = deltas.dim_max_val(d)
        if not hi.is_int():
            raise AnalysisError(f"footprint is unbounded in dimension {d}")
        out.append(int(hi.to_python()) + 1)
    return out


# --------------------------------------------------------------------------------------------
# Relations between points


def _outer_count(space: isl.Space, depth: int) -> int:
    return sum(1 for n in dim_names(space, isl.dim_type.in_) if split_dim_name(n)[0] < depth)


def sharing_points(elements: isl.Map, depth: int, other: isl.Map | None = None) -> isl.Map:
    """Pairs `p -> q` of distinct points of the block at `depth` within one execution of it
    (equal ancestor indices) such that `elements(p)` and `other(q)` (default: `elements(q)`)
    share an element. Both maps go from that block's chain domain (no deeper dimensions) to
    coordinates of one buffer view. With `other` omitted the result is empty iff the access is
    injective per execution, the condition on `assign` outputs; with a write map and a read map
    it gives the points reading what another point writes (STRIPE.md semantics rule 4)."""
    pairs = elements.apply_range((elements if other is None else other).reverse())
    space = pairs.get_space()
    same_outer = isl.BasicMap.universe(space)
    ls = isl.LocalSpace.from_space(space)
    for pos in range(_outer_count(space, depth)):
        eq = isl.Constraint.equality_alloc(ls)
        eq = eq.set_coefficient_val(isl.dim_type.in_, pos, 1)
        eq = eq.set_coefficient_val(isl.dim_type.out, pos, -1)
        same_outer = same_outer.add_constraint(eq)
    pairs = pairs.intersect(isl.Map.from_basic_map(same_outer))
    return pairs.subtract(isl.Map.identity(space))


def overlapping_points(first: isl.Map, second: isl.Map) -> isl.Map:
    """Pairs `p -> q` such that `first(p)` and `second(q)` share an element: with a write and a
    read map, the dependences between the writing and the reading points."""
    return first.apply_range(second.reverse())


def disjoint(first: isl.Map | isl.Set, second: isl.Map | isl.Set) -> bool:
    """Whether two element sets (or the ranges of two access maps) share no element."""
    a = first.range() if isinstance(first, isl.Map) else first
    b = second.range() if isinstance(second, isl.Map) else second
    return bool(a.intersect(b).is_empty())
