"""`localize`: move an allocation that only one child block uses into that child, shrunk.

An allocation (a `none` refinement; at the program root a `#tmp` one, never a `#user` buffer or a
parameter) that exactly one statement of its block uses, that statement being a child block,
becomes an allocation of that child: one fresh buffer per point of the child instead of one per
point of the parent. The buffer is shrunk to the bounding box of the elements the child touches
through its view (footprint from `plaidc.analysis`) and gets dense strides (in the order of the
old strides); views below the child that refine it are shifted to the box and restrided.
Repeated downwards, so an allocation sinks to the innermost block using it.

It is legal when no point of the child reads an element that another point of the same child
execution writes (checked with isl): then each point only sees its own writes, exactly as with a
private buffer, and since nothing else uses the buffer, what the child leaves there is dead.
Skipped when the child refines the buffer through more than one view, when a view below it has
other strides (a reshaping view), or when a statement of the child touches the view while the
box does not start at its element 0.

Before / after (`ref_reqs` restricts the moved refinements to those carrying these tags):

    block [] ( // main                       block [] ( // main
        none T[0] fp32:I(8):(1)                  in A[0] ...
        in A[0] ...                          ) {
    ) {                                        0: block [i:8] (
      0: block [i:8] (                              in A[i] ...
          in A[i] ...                               none T[0] fp32:I(1):(1)
          inout T[i] fp32:I(1):(1)              ) { ... }
      ) { ... }                              }
    }
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from plaidc.analysis import AnalysisError, DomainCache
from plaidc.analysis.fusion import private_copy_check
from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.passes.selection import EXCLUDE_HELP, REQS_SUBTREE_HELP, map_sub_blocks, matches
from plaidc.stripe.ir import Affine, Block, RefDir, Refinement, Statement, TensorShape
from plaidc.stripe.uses import statement_ref_names


@dataclass(frozen=True)
class LocalizeOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_SUBTREE_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    ref_reqs: tuple[str, ...] = option(
        (), "move an allocation only when the child's view of it carries all these tags"
    )


@register("localize", LocalizeOptions, "move allocations used by one child into it, shrunk")
def localize(program: Block, opts: LocalizeOptions) -> Block:
    return _walk((program,), opts, active=False)


def _walk(chain: tuple[Block, ...], opts: LocalizeOptions, active: bool) -> Block:
    block = chain[-1]
    active = active or matches(block, opts.reqs, opts.exclude)
    if active:
        block = _localize_block(chain, opts)
    here = (*chain[:-1], block)
    return map_sub_blocks(block, lambda child: _walk((*here, child), opts, active))


def _localize_block(chain: tuple[Block, ...], opts: LocalizeOptions) -> Block:
    block = chain[-1]
    is_root = len(chain) == 1
    domains = DomainCache()
    for alloc in block.refs:
        if alloc.from_ is not None or "user" in alloc.tags:
            continue
        if is_root and alloc.dir is not RefDir.NONE:
            continue  # a parameter of the program
        users = [pos for pos, stmt in enumerate(block.stmts) if _uses(stmt, alloc.into)]
        if len(users) != 1 or not isinstance(block.stmts[users[0]], Block):
            continue
        child = block.stmts[users[0]]
        assert isinstance(child, Block)
        try:
            moved = _move_into(chain, child, alloc, opts, domains)
        except AnalysisError:
            continue
        if moved is None:
            continue
        stmts = list(block.stmts)
        stmts[users[0]] = moved
        refs = tuple(r for r in block.refs if r.into != alloc.into)
        block = dataclasses.replace(block, refs=refs, stmts=tuple(stmts))
        chain = (*chain[:-1], block)
    return block


def _uses(stmt: Statement, name: str) -> bool:
    return name in statement_ref_names(stmt)


def _move_into(
    chain: tuple[Block, ...],
    child: Block,
    alloc: Refinement,
    opts: LocalizeOptions,
    domains: DomainCache,
) -> Block | None:
    views = [r for r in child.refs if r.from_ == alloc.into]
    if len(views) != 1 or not views[0].tags.has_all(opts.ref_reqs):
        return None
    view = views[0]
    flows, box = private_copy_check((*chain, child), view.into, domains)
    if flows or box is None:
        return None
    low = [lo for lo, _ in box]
    direct = any(_uses(s, view.into) for s in child.stmts if not isinstance(s, Block))
    if direct and any(lo != 0 for lo in low):
        return None
    if not same_strides_below(child, view.into, view.shape.strides):
        return None
    sizes = [hi - lo + 1 for lo, hi in box]
    strides = _dense_strides(sizes, view.shape.strides)
    local = Refinement(
        dir=RefDir.NONE,
        from_=None,
        into=view.into,
        access=tuple(Affine() for _ in sizes),
        shape=TensorShape(view.shape.dtype, tuple(sizes), strides),
        agg_op=view.agg_op,
        location=view.location if view.location is not None else alloc.location,
        # `#tmp` marks views of program-level temporaries; this one is now a local buffer.
        tags=view.tags.remove("tmp"),
    )
    refs = tuple(local if r.into == view.into else r for r in child.refs)
    shift = [Affine.const_(-lo) for lo in low]
    stmts = tuple(
        restride_below(s, view.into, strides, shift) if isinstance(s, Block) else s
        for s in child.stmts
    )
    return dataclasses.replace(child, refs=refs, stmts=stmts)


def _dense_strides(sizes: Sequence[int], old: Sequence[int]) -> tuple[int, ...]:
    """Packed strides laying the dimensions out in the order of the old strides (largest
    first, ties in dimension order), so a transposed layout stays transposed."""
    order = sorted(range(len(sizes)), key=lambda d: (-abs(old[d]), d))
    strides = [0] * len(sizes)
    acc = 1
    for d in reversed(order):
        strides[d] = acc
        acc *= max(sizes[d], 1)
    return tuple(strides)


def same_strides_below(block: Block, name: str, strides: tuple[int, ...]) -> bool:
    """Whether every view of `name` in `block`'s child blocks (and below) has `strides`."""
    for stmt in block.stmts:
        if not isinstance(stmt, Block):
            continue
        for ref in stmt.refs:
            if ref.from_ != name:
                continue
            if ref.shape.strides != strides or not same_strides_below(stmt, ref.into, strides):
                return False
    return True


def restride_below(
    block: Block, name: str, strides: tuple[int, ...], shift: Sequence[Affine] | None
) -> Block:
    """Give every view of `name` in `block` (and below) the new strides; shift the first
    level's accesses by `shift`."""
    refs = []
    changed = False
    for ref in block.refs:
        if ref.from_ != name:
            refs.append(ref)
            continue
        changed = True
        access = ref.access
        if shift is not None:
            access = tuple(a + s for a, s in zip(access, shift, strict=True))
        shape = dataclasses.replace(ref.shape, strides=strides)
        refs.append(dataclasses.replace(ref, access=access, shape=shape))
    if not changed:
        return block
    stmts = tuple(block.stmts)
    for ref in block.refs:
        if ref.from_ == name:
            stmts = tuple(
                restride_below(s, ref.into, strides, None) if isinstance(s, Block) else s
                for s in stmts
            )
    return dataclasses.replace(block, refs=tuple(refs), stmts=stmts)
