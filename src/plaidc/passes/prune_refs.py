"""`prune-refs`: remove refinements nothing in their block uses.

At the program root, buffers exchanged with the caller (`#user` allocations and parameters)
stay even when unused, since they are the program's interface.

Before / after:

    block [i:4]:4 (                 block [i:4]:4 (
        in A[i] ...                     out B[i] ...
        in C[0] ...  (unused)       ) { ... }
        out B[i] ...
    ) { ... }
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.passes.selection import EXCLUDE_HELP, REQS_SUBTREE_HELP, map_sub_blocks, matches
from plaidc.stripe.ir import Block
from plaidc.stripe.uses import is_program_buffer, used_ref_names


@dataclass(frozen=True)
class PruneRefsOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_SUBTREE_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)


@register("prune-refs", PruneRefsOptions, "remove refinements that nothing uses")
def prune_refs(program: Block, opts: PruneRefsOptions) -> Block:
    return _walk(program, opts, is_root=True, active=False)


def _walk(block: Block, opts: PruneRefsOptions, is_root: bool, active: bool) -> Block:
    active = active or matches(block, opts.reqs, opts.exclude)
    block = map_sub_blocks(block, lambda child: _walk(child, opts, False, active))
    if not active:
        return block
    used = used_ref_names(block)
    refs = tuple(r for r in block.refs if r.into in used or (is_root and is_program_buffer(r)))
    if len(refs) == len(block.refs):
        return block
    return dataclasses.replace(block, refs=refs)
