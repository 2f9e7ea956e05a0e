"""Iteration domains of nested blocks and the questions asked of them.

A *chain* is a root-to-block path of nested blocks (`chain[0]` is the program, `chain[-1]` the
block of interest). Its domain is the set of points of all indices along the chain, named with
`space.dim_name`, satisfying for every level: each index lies in `[start, start + range)` where
`start` is the index's affine over the parent's indices, and every constraint of the level holds.
So a point of the domain is one execution of the last block's body, together with the ancestor
points that led to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import islpy as isl

from plaidc.analysis.space import (
    AnalysisError,
    aff_from_affine,
    affine_from_constraint,
    dim_name,
    dim_names,
    split_dim_name,
)
from plaidc.stripe.ir import Affine, Block

__all__ = [
    "DomainCache",
    "affine_bounds",
    "block_domain",
    "chain_dims",
    "dim_bounds",
    "extend_domain",
    "format_point",
    "implied_constraints",
    "index_bounds",
    "outer_as_params",
    "point_count",
    "project_to_depth",
    "sample",
    "sample_pair",
    "simplify_constraints",
]


def chain_dims(chain: Sequence[Block]) -> list[str]:
    """The isl dimension names of a chain's domain, root first, each level in index order."""
    return [dim_name(depth, idx.name) for depth, block in enumerate(chain) for idx in block.idxs]


def extend_domain(parent: isl.Set, block: Block, depth: int) -> isl.Set:
    """The domain of a chain whose last block is `block` at `depth`, from its parent chain's
    domain `parent` (a set over the parent chain's dimensions). Raises ScopeError when an index
    start or a constraint names an index out of scope."""
    first = parent.dim(isl.dim_type.set)
    dom = parent.add_dims(isl.dim_type.set, len(block.idxs))
    for k, idx in enumerate(block.idxs):
        dom = dom.set_dim_name(isl.dim_type.set, first + k, dim_name(depth, idx.name))
    space = dom.get_space()
    positions = {name: pos for pos, name in enumerate(dim_names(space))}
    box = isl.BasicSet.universe(space)
    for k, idx in enumerate(block.idxs):
        start = aff_from_affine(space, idx.affine, depth - 1, positions)
        var = isl.Aff.var_on_domain(isl.LocalSpace.from_space(space), isl.dim_type.set, first + k)
        # start <= idx <= start + range - 1
        box = box.add_constraint(isl.Constraint.inequality_from_aff(var.sub(start)))
        upper = start.add_constant_val(idx.range - 1).sub(var)
        box = box.add_constraint(isl.Constraint.inequality_from_aff(upper))
    for con in block.constraints:
        aff = aff_from_affine(space, con.affine, depth, positions)
        box = box.add_constraint(isl.Constraint.inequality_from_aff(aff))
    return dom.intersect(isl.Set.from_basic_set(box))


class DomainCache:
    """Chain domains built incrementally and cached for one traversal of one program.

    Keys are block identities, so a cache must not outlive the IR it was filled from; it keeps
    the blocks alive so identities cannot be reused. Create one per verification or pass run.
    """

    def __init__(self, ctx: isl.Context | None = None) -> None:
        self.ctx = ctx if ctx is not None else isl.DEFAULT_CONTEXT
        self._sets: dict[tuple[int, ...], tuple[Sequence[Block], isl.Set]] = {}
        # `loops.loop_ast`'s loop nests by (domain, loop order, context) as isl prints them:
        # a program's repeated layers scan the same domains (ResNet-50: 200 nests, 68 distinct)
        self.asts: dict[tuple[str, tuple[str, ...], str], isl.AstNode] = {}

    def domain(self, chain: Sequence[Block]) -> isl.Set:
        """The domain of `chain` (see the module docstring)."""
        key = tuple(id(b) for b in chain)
        hit = self._sets.get(key)
        if hit is not None:
            return hit[1]
        if not chain:
            dom = isl.Set.universe(isl.Space.set_alloc(self.ctx, 0, 0))
        else:
            dom = extend_domain(self.domain(chain[:-1]), chain[-1], len(chain) - 1)
        self._sets[key] = (tuple(chain), dom)
        return dom


def block_domain(chain: Sequence[Block], ctx: isl.Context | None = None) -> isl.Set:
    """The iteration domain of `chain[-1]` over all indices of the chain (root first)."""
    return DomainCache(ctx).domain(chain)


def project_to_depth(obj: isl.Set | isl.Map, depth: int) -> isl.Set | isl.Map:
    """Project out the index dimensions deeper than `depth` from a set, or from the domain of a
    map, over a chain domain (dimensions are ordered by depth, so they form a suffix)."""
    kind = isl.dim_type.set if isinstance(obj, isl.Set) else isl.dim_type.in_
    space = obj.get_space()
    names = dim_names(space, kind)
    keep = sum(1 for n in names if split_dim_name(n)[0] <= depth)
    return obj.project_out(kind, keep, len(names) - keep)


def outer_as_params(obj: isl.Set | isl.Map, depth: int) -> isl.Set | isl.Map:
    """Turn the index dimensions of depth < `depth` into parameters, so questions about the
    block at `depth` hold "for every ancestor point" (e.g. a per-execution footprint)."""
    kind = isl.dim_type.set if isinstance(obj, isl.Set) else isl.dim_type.in_
    names = dim_names(obj.get_space(), kind)
    outer = sum(1 for n in names if split_dim_name(n)[0] < depth)
    return obj.move_dims(isl.dim_type.param, 0, kind, 0, outer)


def point_count(s: isl.Set) -> int:
    """The exact number of integer points of a bounded, parameter-free set."""
    if s.dim(isl.dim_type.param):
        # count_val on a parametric set silently answers 0; refuse instead.
        raise AnalysisError("cannot count the points of a parametric set")
    val = s.count_val()
    if not val.is_int():
        raise AnalysisError(f"set is unbounded: {s}")
    return int(val.to_python())


def _int(val: isl.Val) -> int | None:
    return int(val.to_python()) if val.is_int() else None


def affine_bounds(domain: isl.Set, affine: Affine, depth: int) -> tuple[int, int] | None:
    """`(min, max)` of `affine` (over the indices of the block at `depth`) on `domain`; None when
    the domain is empty. Raises AnalysisError when unbounded."""
    if domain.is_empty():
        return None
    aff = aff_from_affine(domain.get_space(), affine, depth)
    lo, hi = _int(domain.min_val(aff)), _int(domain.max_val(aff))
    if lo is None or hi is None:
        raise AnalysisError(f"{affine} is unbounded on {domain}")
    return lo, hi


def dim_bounds(s: isl.Set, dim: int | str) -> tuple[int, int] | None:
    """`(min, max)` of one dimension (by position or name) of a parameter-free set; None when
    empty. Raises AnalysisError when unbounded."""
    if s.is_empty():
        return None
    pos = dim if isinstance(dim, int) else dim_names(s.get_space()).index(dim)
    aff = isl.Aff.var_on_domain(isl.LocalSpace.from_space(s.get_space()), isl.dim_type.set, pos)
    lo, hi = _int(s.min_val(aff)), _int(s.max_val(aff))
    if lo is None or hi is None:
        raise AnalysisError(f"dimension {dim} is unbounded in {s}")
    return lo, hi


def sample(s: isl.Set) -> dict[str, int] | None:
    """One point of `s` as `{dimension name: value}` (None when empty); lexicographically
    smallest, so messages are deterministic."""
    if s.is_empty():
        return None
    point = s.lexmin().sample_point()
    return {
        name: int(point.get_coordinate_val(isl.dim_type.set, pos).to_python())
        for pos, name in enumerate(dim_names(s.get_space()))
    }


def sample_pair(relation: isl.Map) -> tuple[dict[str, int], dict[str, int]] | None:
    """One pair of a map as `(domain point, range point)`, each `{name: value}` (None when
    empty); lexicographically smallest, so messages are deterministic."""
    if relation.is_empty():
        return None
    point = relation.wrap().lexmin().sample_point()
    space = relation.get_space()
    values = [
        int(point.get_coordinate_val(isl.dim_type.set, pos).to_python())
        for pos in range(space.dim(isl.dim_type.in_) + space.dim(isl.dim_type.out))
    ]
    ins = dim_names(space, isl.dim_type.in_)
    outs = dim_names(space, isl.dim_type.out)
    return dict(zip(ins, values[: len(ins)], strict=True)), dict(
        zip(outs, values[len(ins) :], strict=True)
    )


def format_point(values: Mapping[str, int]) -> str:
    """Render a sampled chain point, levels separated by `|`: `{y=0 | x=1, i=0}`. Dimensions
    that are not indices (`@c0`) are rendered as they are."""
    levels: dict[int, list[str]] = {}
    extra: list[str] = []
    for name, value in values.items():
        try:
            depth, index = split_dim_name(name)
        except ValueError:
            extra.append(f"{name}={value}")
            continue
        levels.setdefault(depth, []).append(f"{index}={value}")
    parts = [", ".join(levels[d]) for d in sorted(levels)]
    text = "{" + " | ".join(parts) + "}"
    return f"{text} {', '.join(extra)}" if extra else text


def implied_constraints(chain: Sequence[Block], ctx: isl.Context | None = None) -> list[bool]:
    """For each constraint of `chain[-1]`: whether it is implied by the rest of the chain's
    domain (index boxes, its other constraints, all ancestors), i.e. is removable."""
    cache = DomainCache(ctx)
    parent = cache.domain(chain[:-1])
    block = chain[-1]
    depth = len(chain) - 1
    full = extend_domain(parent, block, depth)
    out = []
    for k in range(len(block.constraints)):
        rest = replace(block, constraints=block.constraints[:k] + block.constraints[k + 1 :])
        out.append(extend_domain(parent, rest, depth).is_subset(full))
    return out


def simplify_constraints(chain: Sequence[Block], ctx: isl.Context | None = None) -> list[Affine]:
    """Constraints equivalent to those of `chain[-1]` given the rest of the chain's domain, as
    affines `>= 0` over the block's own indices: isl's `gist` against the index boxes and the
    ancestors when isl can say it without ancestor indices or existential variables, otherwise
    the block's constraints that are not implied by the others (`implied_constraints`). Empty
    when every constraint is redundant."""
    cache = DomainCache(ctx)
    parent = cache.domain(chain[:-1])
    block = chain[-1]
    depth = len(chain) - 1
    full = extend_domain(parent, block, depth)
    context = extend_domain(parent, replace(block, constraints=()), depth)
    outer = parent.dim(isl.dim_type.set)
    # Eliminate the ancestors so isl cannot phrase the result in their terms.
    full = full.project_out(isl.dim_type.set, 0, outer)
    context = context.project_out(isl.dim_type.set, 0, outer)
    pieces = full.gist(context).get_basic_sets()
    try:
        if len(pieces) != 1:
            raise AnalysisError("simplified constraints are not convex")
        out = []
        for con in pieces[0].get_constraints():
            aff = affine_from_constraint(con, depth)
            out.append(aff)
            if con.is_equality():
                out.append(-aff)
        return out
    except AnalysisError:
        implied = implied_constraints(chain, ctx)
        return [
            c.affine
            for c, redundant in zip(block.constraints, implied, strict=True)
            if not redundant
        ]


def index_bounds(
    chain: Sequence[Block], ctx: isl.Context | None = None
) -> list[tuple[int, int] | None]:
    """For each index of `chain[-1]`: the smallest and largest offset `value - start` taken by a
    point of the domain (so `(0, range - 1)` when no constraint cuts the box), or None when the
    domain is empty. Lets a pass shrink ranges that constraints make unreachable."""
    dom = block_domain(chain, ctx)
    depth = len(chain) - 1
    out: list[tuple[int, int] | None] = []
    for idx in chain[-1].idxs:
        offset = Affine.var(idx.name)
        start = idx.affine
        if dom.is_empty():
            out.append(None)
            continue
        space = dom.get_space()
        aff = aff_from_affine(space, offset, depth).sub(aff_from_affine(space, start, depth - 1))
        lo, hi = _int(dom.min_val(aff)), _int(dom.max_val(aff))
        out.append(None if lo is None or hi is None else (lo, hi))
    return out
