"""Loop nests scanning a block's domain (isl's AST generator), for code generators.

A backend emitting loops for block `chain[-1]` asks `loop_ast(chain)` for a loop nest over the
block's own indices, in index order, whose bounds already honour the index ranges and every
constraint (so no guard is left in the body where isl can fold it into the bounds). Ancestor
indices appear as isl parameters named with `space.dim_name` (`x@1`); the loop iterators carry
the block's Stripe index names.
"""

from __future__ import annotations

from collections.abc import Sequence

import islpy as isl

from plaidc.analysis.domain import DomainCache, outer_as_params
from plaidc.analysis.space import dim_names, split_dim_name
from plaidc.stripe.ir import Block

__all__ = ["ast_children", "loop_ast"]


def loop_ast(
    chain: Sequence[Block],
    order: Sequence[str] | None = None,
    domains: DomainCache | None = None,
) -> isl.AstNode:
    """An isl AST scanning the points of `chain[-1]` for one ancestor point, outermost loop
    first in `order` (Stripe index names; default: the block's index order). Each leaf is a
    user node whose call arguments are the block's indices in index order."""
    cache = domains if domains is not None else DomainCache()
    depth = len(chain) - 1
    dom = outer_as_params(cache.domain(chain), depth)
    assert isinstance(dom, isl.Set)
    names = [split_dim_name(n)[1] for n in dim_names(dom.get_space())]
    loop_order = list(order) if order is not None else names
    if sorted(loop_order) != sorted(names):
        raise ValueError(f"loop order {loop_order} is not a permutation of {names}")
    # The context is what holds for the ancestor point: it executes the parent. It must not be
    # `dom.params()` (the ancestor points where this block has points at all): isl would then
    # drop the guard that skips ancestor points where the block is empty.
    if depth > 0:
        parent = outer_as_params(cache.domain(chain[:-1]), depth)
        assert isinstance(parent, isl.Set)
        context = parent.params()
    else:
        context = dom.params()
    key = (str(dom), tuple(loop_order), str(context))
    known = cache.asts.get(key)
    if known is not None:
        return known
    ctx = dom.get_ctx()
    space = dom.get_space()
    params = dim_names(space, isl.dim_type.param)
    target = isl.Space.set_alloc(ctx, space.dim(isl.dim_type.param), len(names))
    for pos in range(space.dim(isl.dim_type.param)):
        target = target.set_dim_name(isl.dim_type.param, pos, params[pos])
    ls = isl.LocalSpace.from_space(space)
    affs = isl.AffList.alloc(ctx, len(names))
    for name in loop_order:
        affs = affs.add(isl.Aff.var_on_domain(ls, isl.dim_type.set, names.index(name)))
    mspace = isl.Space.map_from_domain_and_range(space, target)
    schedule = isl.Map.from_multi_aff(isl.MultiAff.from_aff_list(mspace, affs))
    schedule = schedule.intersect_domain(dom)
    build = isl.AstBuild.from_context(context)
    ids = isl.IdList.alloc(ctx, len(names))
    for name in loop_order:
        ids = ids.add(isl.Id(name, None, context=ctx))
    build = build.set_iterators(ids)
    node = build.node_from_schedule_map(isl.UnionMap.from_map(schedule))
    cache.asts[key] = node
    return node


def ast_children(node: isl.AstNode) -> list[isl.AstNode]:
    """The children of an isl block node (islpy's AstNodeList has no `to_list`)."""
    children = node.block_get_children()
    return [children.get_at(i) for i in range(children.n_ast_node())]
