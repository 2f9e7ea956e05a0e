"""`dead-code`: remove statements whose effects nothing observes, and empty blocks.

Dead: a scalar statement whose outputs are unused; a store into a local allocation that
nothing reads; a nested block with no statements or with no refinement that writes outside
it. Runs to a fixed point, bottom-up, so a block emptied by the removal goes too.

Before / after:

    0: $a = load(A)                 0: $b = load(B)
    1: $b = load(B)                 1: C = store($b)
    2: $c = add($a, $a)
    3: C = store($b)
"""

from __future__ import annotations

from dataclasses import dataclass

from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.passes.selection import (
    EXCLUDE_HELP,
    REQS_SUBTREE_HELP,
    map_all_blocks,
    rewrite_matching,
)
from plaidc.stripe.ir import Block, Special, Store
from plaidc.stripe.uses import (
    keep_statements,
    read_ref_names,
    scalar_inputs,
    scalar_outputs,
)


@dataclass(frozen=True)
class DeadCodeOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_SUBTREE_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)


@register("dead-code", DeadCodeOptions, "remove unused statements and empty blocks")
def dead_code(program: Block, opts: DeadCodeOptions) -> Block:
    return rewrite_matching(
        program, opts.reqs, lambda b: map_all_blocks(b, _eliminate), opts.exclude
    )


def _eliminate(block: Block) -> Block:
    while True:
        keep = _live_statements(block)
        if all(keep):
            return block
        block = keep_statements(block, keep)


def _live_statements(block: Block) -> list[bool]:
    # `#user` allocations are the program's inputs and outputs: always observable.
    local_allocs = {r.into for r in block.refs if r.from_ is None and "user" not in r.tags}
    read = read_ref_names(block)
    live_scalars: set[str] = set()
    keep = [True] * len(block.stmts)
    for pos in range(len(block.stmts) - 1, -1, -1):
        stmt = block.stmts[pos]
        outs = scalar_outputs(stmt)
        if outs:
            alive = any(o in live_scalars for o in outs)
        elif isinstance(stmt, Store):
            alive = stmt.into not in local_allocs or stmt.into in read
        elif isinstance(stmt, Special):
            alive = any(o not in local_allocs or o in read for o in stmt.outputs)
        elif isinstance(stmt, Block):
            alive = bool(stmt.stmts) and any(
                r.dir.writes and (r.from_ not in local_allocs or r.from_ in read)
                for r in stmt.refs
                if r.from_ is not None
            )
        else:
            alive = True
        keep[pos] = alive
        if alive:
            live_scalars.update(scalar_inputs(stmt))
    return keep
