"""Tag-based block selection shared by every pass (PASSES.md "How a pass picks its blocks")."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from plaidc.stripe.ir import Block, Statement

# The one-line helps (`plaidc passes`) of the selection options most passes take: `reqs` for a
# pass that rewrites the outermost matching blocks, or everything in and below a match, and
# `exclude`, which every pass reads the same way.
REQS_OUTERMOST_HELP = 'rewrite the outermost blocks that carry all these tags ("all": every block)'
REQS_SUBTREE_HELP = 'work in the blocks that carry all these tags ("all": every block) and below'
EXCLUDE_HELP = "a block carrying any of these tags does not match (blocks inside it still may)"


def matches(block: Block, reqs: Sequence[str], exclude: Sequence[str] = ()) -> bool:
    """A block matches when it carries every tag in `reqs` (`all` matches any block) and none
    of `exclude`."""
    return block.tags.has_all(reqs) and not block.tags.has_any(exclude)


def rewrite_matching(
    block: Block,
    reqs: Sequence[str],
    fn: Callable[[Block], Block],
    exclude: Sequence[str] = (),
) -> Block:
    """Pre-order walk applying `fn` to the outermost blocks that match; returns `block` itself
    when nothing changed."""
    if matches(block, reqs, exclude):
        return fn(block)
    return map_sub_blocks(block, lambda child: rewrite_matching(child, reqs, fn, exclude))


def map_sub_blocks(block: Block, fn: Callable[[Block], Block]) -> Block:
    """Apply `fn` to each directly nested block, keeping identity when nothing changed."""
    changed = False
    stmts: list[Statement] = []
    for stmt in block.stmts:
        if isinstance(stmt, Block):
            new = fn(stmt)
            changed |= new is not stmt
            stmts.append(new)
        else:
            stmts.append(stmt)
    return dataclasses.replace(block, stmts=tuple(stmts)) if changed else block


def map_all_blocks(block: Block, fn: Callable[[Block], Block]) -> Block:
    """Post-order: rewrite children first, then the block itself."""
    return fn(map_sub_blocks(block, lambda child: map_all_blocks(child, fn)))


def map_all_blocks_preorder(block: Block, fn: Callable[[Block], Block]) -> Block:
    """Pre-order: rewrite the block first (so children see its result), then its children."""
    return map_sub_blocks(fn(block), lambda child: map_all_blocks_preorder(child, fn))
