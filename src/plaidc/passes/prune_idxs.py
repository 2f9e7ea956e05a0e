"""`prune-idxs`: remove indices that cannot matter.

An index of range 1 starting at 0 is the constant 0: its uses are replaced by 0 and it goes.
An unused index of range 1 (a passthrough nothing reads) goes. An unused index of larger range
goes only when repeating the block body cannot change the result (every written refinement
aggregates with max or min), because with `add` the repetition is the computation. Blocks are
visited parent first, so a passthrough of a pruned parent index becomes 0 and goes in the same
run (the pass is idempotent).

Before / after:

    block [k:1, m:4, x = x]:4 (          block [m:4]:4 (
        in A[m, 2*k] ...                     in A[m, 0] ...
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.passes.selection import (
    EXCLUDE_HELP,
    REQS_SUBTREE_HELP,
    map_all_blocks_preorder,
    rewrite_matching,
)
from plaidc.stripe.ir import Affine, Block
from plaidc.stripe.uses import substitute_indices, trivially_true, used_index_names


@dataclass(frozen=True)
class PruneIdxsOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_SUBTREE_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)


@register("prune-idxs", PruneIdxsOptions, "remove constant-zero and unused block indices")
def prune_idxs(program: Block, opts: PruneIdxsOptions) -> Block:
    return rewrite_matching(
        program, opts.reqs, lambda b: map_all_blocks_preorder(b, _prune_block), opts.exclude
    )


def _repetition_is_harmless(block: Block) -> bool:
    return all(r.agg_op in ("max", "min") for r in block.refs if r.dir.writes)


def _prune_block(block: Block) -> Block:
    zeros = {i.name: Affine() for i in block.idxs if i.range == 1 and i.affine.is_zero}
    pruned = substitute_indices(block, zeros)
    used = used_index_names(pruned)
    keep = []
    for idx in pruned.idxs:
        if idx.name in zeros:
            continue
        if idx.name not in used and (idx.range == 1 or _repetition_is_harmless(pruned)):
            continue
        keep.append(idx)
    if len(keep) == len(block.idxs):
        return block
    constraints = tuple(c for c in pruned.constraints if not trivially_true(c))
    return dataclasses.replace(pruned, idxs=tuple(keep), constraints=constraints)
