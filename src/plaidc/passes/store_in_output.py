"""`store-in-output`: keep a block's temporary in the output window its last user writes.

A row kernel (softmax, layernorm after `fuse_rows` and `localize`) computes a row-sized local
temporary (`E = exp(X - M)`, `D = X - Mean`) and finally writes the output row from it
(`Y = E / S`, `Y = D * ... + Beta`). The temporary is one more row-sized buffer for the cache
(X, E and Y rows of 4096 fp32 fill a 48 KiB L1), and writing Y only at the end brings its lines
in late. Stored in the output window itself, the last loop updates the row in place.

In a block, a local allocation `T` (never `#user`) is stored in the block's `out` refinement
`O` when:

* `T` and `O` have the same element type and sizes, the views of `T` below have `T`'s strides
  (none reshapes it; they take `O`'s), and `O` is a plain (not aggregated) output, the block's
  only view of its buffer;
* every statement using `T` or `O` is a child block; the last statement using `T` (`k`) is a
  leaf block writing `O`, and no statement before `k` uses `O` (so the window holds nothing the
  program needs while it holds `T`);
* in `k`, `T` and `O` are each used through one view, at the same access, every load of `T`'s
  view comes before the first store to `O`'s view, and no point of `k` writes an element of `O`
  that another point reads of `T` (isl: `analysis.sharing_points`), so each element is read
  before it is overwritten, in any order of the points;
* every element the block's statements touch through `T` is one that `k` writes through `O`
  (isl), so the window's other elements are never clobbered.

Then `T` is removed, the views of `T` in the statements before `k` refine `O` instead, and in
`k` the two views become one `inout` view of `O` (loads of `T` read it). The result is the same:
each element of the window ends with what `k` stores there.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from plaidc.analysis import AnalysisError, DomainCache
from plaidc.analysis.inplace import covers_temporary, points_apart
from plaidc.options import option
from plaidc.passes.localize import restride_below, same_strides_below
from plaidc.passes.registry import register
from plaidc.passes.selection import EXCLUDE_HELP, REQS_SUBTREE_HELP, map_sub_blocks, matches
from plaidc.stripe.ir import Block, Load, RefDir, Refinement, Statement, Store
from plaidc.stripe.uses import statement_ref_names


@dataclass(frozen=True)
class StoreInOutputOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_SUBTREE_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)


@register(
    "store-in-output",
    StoreInOutputOptions,
    "keep a local temporary in the output window that its last user writes",
)
def store_in_output(program: Block, opts: StoreInOutputOptions) -> Block:
    return _walk((program,), opts, active=False)


def _walk(chain: tuple[Block, ...], opts: StoreInOutputOptions, active: bool) -> Block:
    block = chain[-1]
    active = active or matches(block, opts.reqs, opts.exclude)
    if active and len(chain) > 1:
        block = _rewrite_block(chain)
    here = (*chain[:-1], block)
    return map_sub_blocks(block, lambda child: _walk((*here, child), opts, active))


def _rewrite_block(chain: tuple[Block, ...]) -> Block:
    block = chain[-1]
    domains = DomainCache()
    changed = True
    while changed:
        changed = False
        for temp in block.refs:
            if temp.from_ is not None or temp.dir is not RefDir.NONE or "user" in temp.tags:
                continue
            for out in block.refs:
                rewritten = _try(chain[:-1], block, temp, out, domains)
                if rewritten is not None:
                    block, changed = rewritten, True
                    break
            if changed:
                break
    return block


def _users(block: Block, name: str) -> list[int]:
    return [i for i, s in enumerate(block.stmts) if name in statement_ref_names(s)]


def _last_user(block: Block, source: str, target: str) -> int | None:
    """The position of the last statement using `source`, when it is a child block writing
    `target`, no statement before it uses `target`, and every statement using either is a
    child block."""
    uses_source, uses_target = _users(block, source), _users(block, target)
    if not uses_source:
        return None
    last = uses_source[-1]
    if last not in uses_target or any(i < last for i in uses_target):
        return None
    if not all(isinstance(block.stmts[i], Block) for i in (*uses_source, *uses_target)):
        return None
    return last


def _try(
    ancestors: tuple[Block, ...],
    block: Block,
    temp: Refinement,
    out: Refinement,
    domains: DomainCache,
) -> Block | None:
    if out.dir is not RefDir.OUT or out.from_ is None or out.agg_op not in (None, "assign"):
        return None
    if any(r.from_ == out.from_ and r.into != out.into for r in block.refs):
        return None
    if temp.shape.dtype != out.shape.dtype or temp.shape.sizes != out.shape.sizes:
        return None
    # The temporary takes the output's strides: its views must not reshape it.
    if not same_strides_below(block, temp.into, temp.shape.strides):
        return None
    last = _last_user(block, temp.into, out.into)
    if last is None:
        return None
    chain = (*ancestors, block)
    final = block.stmts[last]
    assert isinstance(final, Block)
    views = _views(final, temp.into, out.into)
    if views is None:
        return None
    read, write = views
    try:
        merged = _in_place((*chain, final), read, write, out.shape.strides, domains)
        if merged is None or not covers_temporary(chain, temp, out, final, write, domains):
            return None
    except AnalysisError:
        return None
    stmts = list(block.stmts)
    for i in _users(block, temp.into):
        stmts[i] = merged if i == last else _retarget(stmts[i], temp.into, out)
    refs = tuple(r for r in block.refs if r.into != temp.into)
    return dataclasses.replace(block, refs=refs, stmts=tuple(stmts))


def _views(user: Block, source: str, target: str) -> tuple[Refinement, Refinement] | None:
    """`user`'s one view of `source` (read) and of `target` (written, plain), at the same
    access and of the same sizes; None otherwise."""
    reads = [r for r in user.refs if r.from_ == source]
    writes = [r for r in user.refs if r.from_ == target]
    if len(reads) != 1 or len(writes) != 1:
        return None
    read, write = reads[0], writes[0]
    if read.dir is not RefDir.IN or write.dir is not RefDir.OUT:
        return None
    if write.agg_op not in (None, "assign") or read.access != write.access:
        return None
    if read.shape.dtype != write.shape.dtype or read.shape.sizes != write.shape.sizes:
        return None
    return read, write


def _in_place(
    chain: tuple[Block, ...],
    read: Refinement,
    write: Refinement,
    strides: tuple[int, ...],
    domains: DomainCache,
) -> Block | None:
    """`chain[-1]` with its views `read` (of the temporary) and `write` (of the output) merged
    into one `inout` view of the output, when every element is read before it is overwritten:
    no point writes an element another point reads (isl), and within a point, in a leaf every
    load comes before the first store, in a block the last child reading is (recursively) such
    a block and writes, and no child before it writes. None otherwise."""
    block = chain[-1]
    if not points_apart(chain, read, write, domains):
        return None
    if all(not isinstance(s, Block) for s in block.stmts):
        stores = [
            i for i, s in enumerate(block.stmts) if isinstance(s, Store) and s.into == write.into
        ]
        loads = [
            i for i, s in enumerate(block.stmts) if isinstance(s, Load) and s.from_ == read.into
        ]
        if not stores or any(i > stores[0] for i in loads):
            return None
        stmts = tuple(
            dataclasses.replace(s, from_=write.into)
            if isinstance(s, Load) and s.from_ == read.into
            else s
            for s in block.stmts
        )
    else:
        last = _last_user(block, read.into, write.into)
        if last is None:
            return None
        child = block.stmts[last]
        assert isinstance(child, Block)
        views = _views(child, read.into, write.into)
        if views is None:
            return None
        merged = _in_place((*chain, child), *views, strides, domains)
        if merged is None:
            return None
        out = dataclasses.replace(write, shape=dataclasses.replace(write.shape, strides=strides))
        stmts = tuple(
            merged if i == last else _retarget(s, read.into, out) if isinstance(s, Block) else s
            for i, s in enumerate(block.stmts)
        )
    new_write = dataclasses.replace(
        write,
        dir=RefDir.INOUT,
        shape=dataclasses.replace(write.shape, strides=strides),
    )
    refs = tuple(new_write if r.into == write.into else r for r in block.refs if r is not read)
    return dataclasses.replace(block, refs=refs, stmts=stmts)


def _retarget(stmt: Statement, old: str, out: Refinement) -> Statement:
    """A child block's views of `old` refine `out` instead, with `out`'s strides (below too)."""
    if not isinstance(stmt, Block):
        return stmt
    refs = tuple(dataclasses.replace(r, from_=out.into) if r.from_ == old else r for r in stmt.refs)
    return restride_below(dataclasses.replace(stmt, refs=refs), out.into, out.shape.strides, None)
