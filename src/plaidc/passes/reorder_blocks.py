"""`reorder-blocks`: order sibling statements so that consumers follow their producers.

Fusion (`fuse`) only merges *adjacent* producer/consumer blocks, but the lowering emits kernels
in Tile statement order, where a consumer may sit several kernels after its producer. This pass
rebuilds each matched block's statement list as a topological order of its dependence graph:

* statement `j` depends on an earlier statement `i` when `j` lists `i` in its dependencies, uses
  a scalar `i` defines, or both touch one buffer and at least one of them writes it (RAW, WAR
  and WAW). Buffers are compared by the allocation their views resolve to (through the
  ancestors' refinements), so two views of one buffer conflict; a view that does not resolve
  conflicts with everything;
* among the statements whose dependences are placed, the next one is the earliest (in the old
  order) block that reads a buffer the block just placed writes; if there is none, the earliest
  statement. So a program whose consumers already follow their producers keeps its order
  (the pass is stable and idempotent), and statement order changes only where it makes a
  producer and its consumer adjacent;
* when no block reads what was just placed and the earliest ready block feeds a consumer whose
  other producers are all ready too, those producers go first, the one writing the fewest
  elements first: the consumer then follows the producer of its largest operand, so a
  convolution `T` and its bias add `O = T + Bias` become adjacent (and fuse) rather than the
  small `Bias` broadcast and the add.

Dependency lists (`deps`) are renumbered for the new positions.

Before / after:

    0: block (out A) { ... }          0: block (out A) { ... }
    1: block (out B) { ... }          1: block (in A, out C) { ... }
    2: block (in A, out C) { ... }    2: block (out B) { ... }
    3: block (in B, out D) { ... }    3: block (in B, out D) { ... }
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from plaidc.analysis import AnalysisError, resolve_view
from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.passes.selection import EXCLUDE_HELP, REQS_SUBTREE_HELP, matches
from plaidc.stripe.ir import Block, Load, Special, Statement, Store
from plaidc.stripe.uses import scalar_inputs, scalar_outputs

__all__ = [
    "Effects",
    "ReorderBlocksOptions",
    "depends",
    "overlap",
    "reorder_statements",
    "resolve_buffer",
    "statement_effects",
]


@dataclass(frozen=True)
class ReorderBlocksOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_SUBTREE_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)


@register(
    "reorder-blocks",
    ReorderBlocksOptions,
    "reorder sibling blocks so consumers follow their producers (dataflow-respecting)",
)
def reorder_blocks(program: Block, opts: ReorderBlocksOptions) -> Block:
    return _walk((), program, opts, active=False)


def _walk(
    ancestors: tuple[Block, ...], block: Block, opts: ReorderBlocksOptions, active: bool
) -> Block:
    active = active or matches(block, opts.reqs, opts.exclude)
    chain = (*ancestors, block)
    stmts: list[Statement] = []
    changed = False
    for stmt in block.stmts:
        if isinstance(stmt, Block):
            new = _walk(chain, stmt, opts, active)
            changed |= new is not stmt
            stmts.append(new)
        else:
            stmts.append(stmt)
    if changed:
        block = dataclasses.replace(block, stmts=tuple(stmts))
    if not active or len(block.stmts) < 3 or sum(isinstance(s, Block) for s in block.stmts) < 2:
        # The order only changes to bring a block next to the block feeding it: that takes two
        # blocks and something between them.
        return block
    order = reorder_statements((*ancestors, block))
    if order == list(range(len(block.stmts))):
        return block
    return _permute(block, order)


# A buffer as the dependence analysis sees it: the allocation a view resolves to, as
# (depth of the owning block, name there); None stands for "unknown", which meets everything.
Buffer = tuple[int, str] | None


@dataclass(frozen=True)
class Effects:
    """What one statement reads and writes: buffers, and scalars it defines and uses."""

    reads: frozenset[Buffer]
    writes: frozenset[Buffer]
    defines: frozenset[str]
    uses: frozenset[str]


def reorder_statements(chain: Sequence[Block]) -> list[int]:
    """The new order of `chain[-1]`'s statements (old positions, in new order)."""
    block = chain[-1]
    effects = [statement_effects(chain, stmt) for stmt in block.stmts]
    count = len(block.stmts)
    preds: list[set[int]] = [set(stmt.deps) for stmt in block.stmts]
    for j in range(count):
        for i in range(j):
            if depends(effects[i], effects[j]):
                preds[j].add(i)
    waiting = [len(p) for p in preds]
    users: list[list[int]] = [[] for _ in range(count)]
    for j, before in enumerate(preds):
        for i in before:
            users[i].append(j)
    ready = [k for k in range(count) if not waiting[k]]  # kept sorted by old position
    order: list[int] = []
    placed: set[int] = set()
    while ready:
        pick = None
        if order and isinstance(block.stmts[order[-1]], Block):
            last = effects[order[-1]]
            for k in ready:
                if isinstance(block.stmts[k], Block) and overlap(last.writes, effects[k].reads):
                    pick = k
                    break
        if pick is None:
            pick = _smallest_sibling_producer(block, ready[0], ready, preds, users, placed)
        ready.remove(pick)
        placed.add(pick)
        order.append(pick)
        for j in users[pick]:
            waiting[j] -= 1
            if not waiting[j]:
                bisect.insort(ready, j)
    return order


def _smallest_sibling_producer(
    block: Block,
    pick: int,
    ready: list[int],
    preds: list[set[int]],
    users: list[list[int]],
    placed: set[int],
) -> int:
    """`pick`, or, where a block consumer of block `pick` waits only on ready blocks besides
    it, the one of them writing the fewest elements (the earliest on a tie), so that the
    producer of the consumer's largest operand is placed last, next to the consumer."""
    stmts = block.stmts
    if not isinstance(stmts[pick], Block):
        return pick
    for user in sorted(users[pick]):
        if not isinstance(stmts[user], Block):
            continue
        waiting = [p for p in preds[user] if p not in placed]
        if len(waiting) < 2 or not all(p in ready and isinstance(stmts[p], Block) for p in waiting):
            continue
        return min(waiting, key=lambda p: (_written_elements(block, stmts[p]), p))
    return pick


def _written_elements(parent: Block, stmt: Statement) -> int:
    """Elements of the buffers (`parent`'s views) that block `stmt` writes."""
    assert isinstance(stmt, Block)
    sizes = {ref.into: ref.shape.elem_count for ref in parent.refs}
    return sum(sizes.get(r.from_, 0) for r in stmt.refs if r.from_ is not None and r.dir.writes)


def overlap(first: frozenset[Buffer], second: frozenset[Buffer]) -> bool:
    """Whether two sets of buffers may share one (an unknown buffer meets every other)."""
    if not first or not second:
        return False
    return None in first or None in second or bool(first & second)


def depends(earlier: Effects, later: Effects) -> bool:
    """Whether a statement with effects `later` must stay after one with effects `earlier`."""
    return (
        bool(earlier.defines & later.uses)
        or overlap(earlier.writes, later.reads | later.writes)
        or overlap(earlier.reads, later.writes)
    )


def statement_effects(chain: Sequence[Block], stmt: Statement) -> Effects:
    """The effects of `stmt`, a statement of `chain[-1]`, with its views resolved to buffers."""
    reads: set[str] = set()
    writes: set[str] = set()
    if isinstance(stmt, Block):
        for ref in stmt.refs:
            if ref.from_ is None:
                continue  # the child's own allocation
            # A `none` view of a parent buffer says nothing about its use: assume both.
            if ref.dir.reads or not ref.dir.writes:
                reads.add(ref.from_)
            if ref.dir.writes or not ref.dir.reads:
                writes.add(ref.from_)
    elif isinstance(stmt, Load):
        reads.add(stmt.from_)
    elif isinstance(stmt, Store):
        writes.add(stmt.into)
    elif isinstance(stmt, Special):
        reads.update(stmt.inputs)
        writes.update(stmt.outputs)
    return Effects(
        frozenset(resolve_buffer(chain, n) for n in reads),
        frozenset(resolve_buffer(chain, n) for n in writes),
        frozenset(scalar_outputs(stmt)),
        frozenset(scalar_inputs(stmt)),
    )


def resolve_buffer(chain: Sequence[Block], name: str) -> Buffer:
    """The buffer view `name` of `chain[-1]` resolves to (None when it does not resolve)."""
    try:
        depth, ref = resolve_view(chain, name)[-1]
    except AnalysisError:
        return None
    if ref.from_ is not None:
        # A root parameter: the caller's buffer, named by the root refinement's `from`.
        return (-1, ref.from_)
    return (depth, ref.into)


def _permute(block: Block, order: list[int]) -> Block:
    new_pos = {old: new for new, old in enumerate(order)}
    stmts: list[Statement] = []
    for old in order:
        stmt = block.stmts[old]
        deps = tuple(sorted(new_pos[d] for d in stmt.deps))
        stmts.append(stmt if deps == stmt.deps else dataclasses.replace(stmt, deps=deps))
    return dataclasses.replace(block, stmts=tuple(stmts))
