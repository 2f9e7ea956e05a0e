"""`reduce-constraints`: make each block's iteration domain explicit and minimal (isl, exact).

For every block in a matched subtree, given all of its ancestors' indices and constraints:

1. a block whose domain is empty (it never runs, for any ancestor point) is deleted;
2. each index range shrinks to the offsets some point of the domain actually takes: the top
   of the range is cut, and a first offset `lo > 0` is folded into the uses (`x` becomes
   `x + lo` in the block's accesses, constraints, `load_index`es and the children's index
   starts), so index starts keep their form;
3. constraints implied by the rest of the domain are dropped, one at a time (dropping one may
   make another necessary, so the question is asked again after every removal).

The domain never changes, only how it is written, so the pass is exact. The questions go
through `plaidc.analysis` (`block_domain`, `index_bounds`, `implied_constraints`); a block the
analysis cannot describe (a malformed scope) is left as it is.

Before / after:

    block [i:3, x:12] (                 block [i:3, x:2] (          (x in [2, 3] only)
        -1 + i + x >= 0                     in I[2 + i + x] ...
        12 - i - x >= 0                     out O[2 + x]:add ...
        3 - x >= 0                      ) { ... }
        -2 + x >= 0
        in I[i + x] ...                 (a sibling `block [k:4] ( -5 + k >= 0 ...` is deleted)
        out O[x]:add ...
    ) { ... }
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from plaidc.analysis import AnalysisError, block_domain, implied_constraints, index_bounds
from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.passes.selection import EXCLUDE_HELP, REQS_SUBTREE_HELP, matches
from plaidc.stripe.ir import Affine, Block, Index, Statement
from plaidc.stripe.uses import keep_statements, substitute_indices

__all__ = ["ReduceConstraintsOptions", "reduce_subtree", "shift_index_ranges"]


@dataclass(frozen=True)
class ReduceConstraintsOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_SUBTREE_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)


@register(
    "reduce-constraints",
    ReduceConstraintsOptions,
    "drop redundant constraints, shrink index ranges, delete never-running blocks (isl)",
)
def reduce_constraints(program: Block, opts: ReduceConstraintsOptions) -> Block:
    result = _walk((), program, opts, active=False)
    # The root has no indices and no constraints a parent could contradict: never deleted.
    return program if result is None else result


def reduce_subtree(ancestors: Sequence[Block], block: Block) -> Block | None:
    """Reduce `block` (whose ancestors, root first, are `ancestors`) and everything below it;
    None when `block` never runs. Other passes use this to tidy blocks they create."""
    return _walk(tuple(ancestors), block, ReduceConstraintsOptions(), active=True)


def _walk(
    ancestors: tuple[Block, ...], block: Block, opts: ReduceConstraintsOptions, active: bool
) -> Block | None:
    active = active or matches(block, opts.reqs, opts.exclude)
    if active:
        reduced = _reduce_block(ancestors, block)
        if reduced is None:
            return None
        block = reduced
    chain = (*ancestors, block)
    stmts: list[Statement] = []
    keep: list[bool] = []
    changed = False
    for stmt in block.stmts:
        if isinstance(stmt, Block):
            new = _walk(chain, stmt, opts, active)
            changed |= new is not stmt
            stmts.append(stmt if new is None else new)
            keep.append(new is not None)
        else:
            stmts.append(stmt)
            keep.append(True)
    if not changed:
        return block
    return keep_statements(dataclasses.replace(block, stmts=tuple(stmts)), keep)


def _reduce_block(ancestors: tuple[Block, ...], block: Block) -> Block | None:
    """`block` with its ranges and constraints reduced (same object when nothing changes), or
    None when its domain is empty."""
    try:
        if block_domain((*ancestors, block)).is_empty():
            return None
        bounds = index_bounds((*ancestors, block))
    except AnalysisError:
        return block
    shrunk: dict[str, tuple[int, int]] = {}
    for idx, bound in zip(block.idxs, bounds, strict=True):
        if bound is not None and bound != (0, idx.range - 1):
            shrunk[idx.name] = bound
    block = shift_index_ranges(block, shrunk)
    return _drop_implied(ancestors, block)


def shift_index_ranges(block: Block, offsets: dict[str, tuple[int, int]]) -> Block:
    """Restrict each named index of `block` to the offsets `[lo, hi]` of its current range:
    the range becomes `hi - lo + 1` and the uses of the index see `index + lo`, so every point
    keeps the values it had (the index start, over the parent, is unchanged)."""
    if not offsets:
        return block
    shifts = {name: Affine.var(name) + lo for name, (lo, _) in offsets.items() if lo != 0}
    shifted = substitute_indices(block, shifts)
    idxs: list[Index] = []
    for idx in shifted.idxs:
        if idx.name in offsets:
            lo, hi = offsets[idx.name]
            idx = dataclasses.replace(idx, range=hi - lo + 1)
        idxs.append(idx)
    return dataclasses.replace(shifted, idxs=tuple(idxs))


def _drop_implied(ancestors: tuple[Block, ...], block: Block) -> Block:
    while block.constraints:
        try:
            implied = implied_constraints((*ancestors, block))
        except AnalysisError:
            return block
        if not any(implied):
            return block
        drop = implied.index(True)
        block = dataclasses.replace(
            block, constraints=block.constraints[:drop] + block.constraints[drop + 1 :]
        )
    return block
