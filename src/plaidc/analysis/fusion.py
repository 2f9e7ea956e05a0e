"""Polyhedral legality questions of the fusion and localisation passes.

Both passes move computation or storage between the points of blocks, so both ask which points
touch which elements of a buffer owned by an enclosing block:

* `parent_elements` — `point of chain[-1] -> coordinates in the parent's view` of the elements
  that a block reads or writes through its refinements of one parent buffer.
* `fusion_violations` — for two sibling blocks A (first) and B that are to run as parts of one
  fused block, where each fused point runs the part of A with some A points and then the part
  of B with some B points: the dependences between A and B points (A writes what B reads, or B
  writes what A reads) that would join points of *different* fused points. Legal iff empty.
* `cross_point_flow` — pairs of distinct points of one block execution where one writes an
  element of a buffer that the other reads (what makes a per-point copy of the buffer wrong).
* `relative_box` — the bounding box of everything a block touches through one refinement, in
  that refinement's coordinates (the size a per-point copy needs).
* `private_copy_check` — both of the above for a block's only view of a parent buffer, from one
  footprint of its writes and one of its reads (localize asks them of every candidate).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import islpy as isl

from plaidc.analysis.access import footprint, footprint_box, lift, sharing_points
from plaidc.analysis.domain import DomainCache
from plaidc.analysis.space import AnalysisError, coord_space
from plaidc.stripe.ir import Block

__all__ = [
    "IndexLink",
    "cross_point_flow",
    "fusion_violations",
    "parent_elements",
    "private_copy_check",
    "relative_box",
]


def _empty_elements(domains: DomainCache, chain: Sequence[Block], ndims: int) -> isl.Map:
    space = domains.domain(chain).get_space()
    rng = coord_space(domains.ctx, ndims)
    return isl.Map.empty(isl.Space.map_from_domain_and_range(space, rng))


def parent_elements(
    chain: Sequence[Block],
    buffer: str,
    *,
    reads: bool,
    writes: bool,
    domains: DomainCache,
) -> isl.Map:
    """`point of chain[-1] -> coordinates in view buffer of chain[-2]` of the elements that the
    point (statements and descendants) reads (`reads`) or writes (`writes`) through every
    refinement of chain[-1] that refines `buffer`. Raises AnalysisError when `buffer` is not a
    refinement of the parent or a view's rank differs from it."""
    block = chain[-1]
    parent_ref = chain[-2].ref(buffer)
    if parent_ref is None:
        raise AnalysisError(f"no refinement '{buffer}' in the parent block")
    depth = len(chain) - 1
    result = _empty_elements(domains, chain, parent_ref.shape.ndims)
    for ref in block.refs:
        if ref.from_ != buffer:
            continue
        touched = footprint(chain, ref.into, reads=reads, writes=writes, domains=domains)
        if touched.is_empty():
            continue
        result = result.union(lift(touched, ref, depth, parent_ref).elements)
    return result.coalesce()


@dataclass(frozen=True)
class IndexLink:
    """How the fused block's index `a_index` (an index of A, kept with A's range) decides the B
    points of one fused point: B's index `b_index` takes the values `scale * a + offset + r`,
    `0 <= r < width`."""

    a_index: str
    b_index: str
    scale: int
    offset: int
    width: int


def _same_fused_point(
    space: isl.Space, ancestors: int, a: Block, b: Block, links: Sequence[IndexLink]
) -> isl.Map:
    """`A point -> B point` pairs in one fused point: equal ancestors, and every linked B index
    within its window of the linked A index."""
    ls = isl.LocalSpace.from_space(space)
    rel = _same_ancestors(space, ancestors)
    a_pos = {idx.name: ancestors + k for k, idx in enumerate(a.idxs)}
    b_pos = {idx.name: ancestors + k for k, idx in enumerate(b.idxs)}
    for link in links:
        pa, pb = a_pos[link.a_index], b_pos[link.b_index]
        # b - scale * a - offset >= 0
        low = isl.Constraint.inequality_alloc(ls)
        low = low.set_coefficient_val(isl.dim_type.out, pb, 1)
        low = low.set_coefficient_val(isl.dim_type.in_, pa, -link.scale)
        low = low.set_constant_val(-link.offset)
        # scale * a + offset + width - 1 - b >= 0
        high = isl.Constraint.inequality_alloc(ls)
        high = high.set_coefficient_val(isl.dim_type.out, pb, -1)
        high = high.set_coefficient_val(isl.dim_type.in_, pa, link.scale)
        high = high.set_constant_val(link.offset + link.width - 1)
        rel = rel.add_constraint(low).add_constraint(high)
    return isl.Map.from_basic_map(rel)


def _same_ancestors(space: isl.Space, ancestors: int) -> isl.BasicMap:
    ls = isl.LocalSpace.from_space(space)
    rel = isl.BasicMap.universe(space)
    for pos in range(ancestors):
        eq = isl.Constraint.equality_alloc(ls)
        eq = eq.set_coefficient_val(isl.dim_type.in_, pos, 1)
        eq = eq.set_coefficient_val(isl.dim_type.out, pos, -1)
        rel = rel.add_constraint(eq)
    return rel


def fusion_violations(
    parent_chain: Sequence[Block],
    a: Block,
    b: Block,
    links: Sequence[IndexLink],
    buffers: Sequence[str],
    domains: DomainCache,
) -> list[str]:
    """The buffers (refinements of `parent_chain[-1]`, among `buffers`) through which fusing
    `a` and `b` along `links` would break a dependence: some A point writes an element that a B
    point of another fused point reads, or reads an element that such a B point writes. Only
    pairs within one execution of the parent count. Empty when the fusion is legal for these
    buffers (buffers both blocks write are the caller's business)."""
    chain_a = (*parent_chain, a)
    chain_b = (*parent_chain, b)
    ancestors = sum(len(block.idxs) for block in parent_chain)
    bad = []
    for buffer in buffers:
        a_writes = parent_elements(chain_a, buffer, reads=False, writes=True, domains=domains)
        a_reads = parent_elements(chain_a, buffer, reads=True, writes=False, domains=domains)
        b_writes = parent_elements(chain_b, buffer, reads=False, writes=True, domains=domains)
        b_reads = parent_elements(chain_b, buffer, reads=True, writes=False, domains=domains)
        deps = a_writes.apply_range(b_reads.reverse()).union(
            a_reads.apply_range(b_writes.reverse())
        )
        if deps.is_empty():
            continue
        space = deps.get_space()
        deps = deps.intersect(isl.Map.from_basic_map(_same_ancestors(space, ancestors)))
        if not deps.subtract(_same_fused_point(space, ancestors, a, b, links)).is_empty():
            bad.append(buffer)
    return bad


def cross_point_flow(chain: Sequence[Block], buffer: str, domains: DomainCache) -> bool:
    """Whether two distinct points of one execution of `chain[-1]` meet on an element of the
    parent's `buffer` that one writes and the other reads."""
    writes = parent_elements(chain, buffer, reads=False, writes=True, domains=domains)
    if writes.is_empty():
        return False
    reads = parent_elements(chain, buffer, reads=True, writes=False, domains=domains)
    if reads.is_empty():
        return False
    return not sharing_points(writes, len(chain) - 1, reads).is_empty()


def relative_box(
    chain: Sequence[Block], ref_name: str, domains: DomainCache
) -> list[tuple[int, int]] | None:
    """Per dimension `(min, max)` of the coordinates, in view `ref_name` of `chain[-1]`, of every
    element that any point reads or writes through it; None when nothing is touched."""
    return footprint_box(footprint(chain, ref_name, domains=domains))


def private_copy_check(
    chain: Sequence[Block], view_name: str, domains: DomainCache
) -> tuple[bool, list[tuple[int, int]] | None]:
    """`(cross_point_flow, relative_box)` of `chain[-1]`'s view `view_name`, when it is the
    block's only refinement of its parent buffer: each footprint is traced once (the two
    questions apart trace every access twice). Raises AnalysisError as they do."""
    view = chain[-1].ref(view_name)
    if view is None or view.from_ is None:
        raise AnalysisError(f"'{view_name}' is no view of a parent buffer")
    parent_ref = chain[-2].ref(view.from_)
    if parent_ref is None:
        raise AnalysisError(f"no refinement '{view.from_}' in the parent block")
    depth = len(chain) - 1
    writes = footprint(chain, view_name, reads=False, domains=domains)
    reads = footprint(chain, view_name, writes=False, domains=domains)
    box = footprint_box(writes.union(reads).coalesce())
    if writes.is_empty():
        return False, box
    written = lift(writes, view, depth, parent_ref).elements.coalesce()
    if reads.is_empty():
        return False, box
    read = lift(reads, view, depth, parent_ref).elements.coalesce()
    return not sharing_points(written, depth, read).is_empty(), box
