"""Definition-2 aggregation as in-place accumulation, and the parallelism that is safe with it.

STRIPE.md: each element that points of one block execution store gets `agg(v_1, ..., v_n)` of
the values those points produced, and prior contents never enter. Generated code computes this
in place: at the *top reducing level* of a buffer — the outermost block whose points really
share elements of a refinement with an `add mul max min` agg_op — the elements the block
execution stores (its exact write footprint, from isl) are set to the identity of the agg_op,
and every store below accumulates into memory. Nested reducing levels with the same agg_op
compose (a sum of sums is a sum); a level whose points never share an element is transparent
(one value per element, whatever the agg_op). Refinements owned by a block (fresh allocations,
program buffers) start a new chain.

The same isl relations say which loops may run in parallel: a loop over index `x` of a block
is parallel when no two points with different `x` write a common element.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import islpy as isl

from plaidc.analysis import (
    DomainCache,
    dim_name,
    footprint,
    lift,
    outer_as_params,
    project_to_depth,
    sharing_points,
    view_box,
)
from plaidc.analysis.space import dim_names
from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.stripe.ir import Block, Refinement, Special

AGG_OPS = ("add", "mul", "max", "min")


@dataclass(frozen=True)
class WrittenRef:
    """What the block at the end of a chain writes through one refinement.

    `footprint`: chain point -> coordinates in the *parent's* view (`parent`, which the
    refinement refines) of every element its statements and descendants write; `shared`:
    pairs of distinct points of one execution writing a common element (empty when each
    element has one writer); `mode`: the agg_op
    stores through the refinement accumulate with (None: plain stores); `init`: this block is
    the top reducing level, so its footprint is initialised before it runs."""

    ref: Refinement
    parent: Refinement
    footprint: isl.Map
    shared: isl.Map
    mode: str | None
    init: bool


def written_refs(
    chain: Sequence[Block],
    parent_modes: dict[str, str | None],
    cache: DomainCache,
    where: str,
) -> dict[str, WrittenRef]:
    """Analyse every refinement of `chain[-1]` that views a parent buffer and is written.
    `parent_modes` gives the accumulation mode of the parent's refinements by name."""
    block = chain[-1]
    depth = len(chain) - 1
    out: dict[str, WrittenRef] = {}
    for ref in block.refs:
        if ref.from_ is None:
            continue
        parent = chain[-2].ref(ref.from_)
        if parent is None:
            raise CompileError(
                [Diagnostic(f"{where}: refinement '{ref.into}' refines unknown '{ref.from_}'")]
            )
        own = footprint(chain, ref.into, reads=False, writes=True, domains=cache)
        if own.is_empty():
            continue
        # Coordinates in the parent's view are comparable between points (a refinement's own
        # coordinates move with the point).
        fp = lift(own, ref, depth, parent).elements
        shared = sharing_points(fp, depth)
        inherited = parent_modes.get(ref.from_)
        op = ref.agg_op
        if op in (None, "assign") or shared.is_empty():
            out[ref.into] = WrittenRef(ref, parent, fp, shared, inherited, init=False)
            continue
        if op not in AGG_OPS:
            raise CompileError([Diagnostic(f"{where}: unknown agg_op '{op}' on '{ref.into}'")])
        if inherited is not None and inherited != op:
            raise CompileError(
                [
                    Diagnostic(
                        f"{where}: refinement '{ref.into}' aggregates with '{op}' inside an"
                        f" aggregation with '{inherited}' of the same elements; nested"
                        " aggregations with different agg_ops are not supported by this backend"
                    )
                ]
            )
        out[ref.into] = WrittenRef(ref, parent, fp, shared, op, init=inherited is None)
    return out


def init_elements(
    chain: Sequence[Block], written: WrittenRef, cache: DomainCache
) -> tuple[isl.Set, isl.Set]:
    """The elements one execution of `chain[-1]` writes through `written.ref`, as coordinates
    in the parent's view `written.parent` (a set whose parameters are the ancestors' indices),
    and the context isl may assume for those parameters."""
    depth = len(chain) - 1
    per_parent = project_to_depth(written.footprint, depth - 1)
    as_params = outer_as_params(per_parent, depth)
    assert isinstance(as_params, isl.Map)
    elements = as_params.range().coalesce()
    context = outer_as_params(cache.domain(chain[:-1]), depth)
    assert isinstance(context, isl.Set)
    return elements, context.params()


def distinct_writers_differ_in(shared: isl.Map, depth: int, index: str) -> bool:
    """Whether every pair of points in `shared` (points of the block at `depth` writing a
    common element) has the same value of `index`: then iterations of a loop over `index`
    never write a common element."""
    if shared.is_empty():
        return True
    deltas = shared.deltas()
    names = dim_names(deltas.get_space())
    target = dim_name(depth, index)
    if target not in names:
        return False
    pos = names.index(target)
    lo, hi = deltas.dim_min_val(pos), deltas.dim_max_val(pos)
    return bool(lo.is_zero() and hi.is_zero())


def loop_is_independent(written: dict[str, WrittenRef], depth: int, index: str) -> bool:
    """Iterations of a loop over `index` (of the block at `depth`) write disjoint elements
    through every written refinement."""
    return all(distinct_writers_differ_in(w.shared, depth, index) for w in written.values())


def fully_written(program: Block, cache: DomainCache) -> set[str]:
    """Root buffers (by name) whose every element the program writes, so their prior
    contents can never be observed: callers need not initialise them."""
    out: set[str] = set()
    for ref in program.refs:
        box = view_box(ref, cache.ctx)
        covered = box.subtract(box)  # the empty set in the same space
        for child in program.stmts:
            if isinstance(child, Special) and ref.into in child.outputs:
                covered = box
            if not isinstance(child, Block):
                continue
            for view in child.refs:
                if view.from_ != ref.into or not view.dir.writes:
                    continue
                chain = (program, child)
                own = footprint(chain, view.into, reads=False, writes=True, domains=cache)
                lifted = lift(own, view, 1, ref)
                if lifted.flat:
                    continue
                covered = covered.union(lifted.elements.range())
        if not covered.is_empty() and box.is_subset(covered):
            out.add(ref.into)
    return out
