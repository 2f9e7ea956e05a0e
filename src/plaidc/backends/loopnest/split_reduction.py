"""A GEMM-like block under a block that only steps its reduction, run with run-time flags.

Autotile splits a long reduction into a block over its k blocks around the GEMM-like leaf (an
MLP layer's tile: `block [i:4] { block [b:128, i:256, j:256] #contract_inner }`). That outer
block is the top reducing level of C, so the generic lowering initialises (zeroes) C's box
before it, every micro-kernel call adds into C, and an elementwise block after it (a bias
and relu) runs as a second pass over C.

When the outer block does nothing but step the reduction and tile C (no constraints, one
statement: the leaf, whose calls write C's whole box each time, `GemmCall.whole`; each of
its indices either moves C, with distinct values writing disjoint elements, or moves only
the reduction), the calls take flags instead (`GemmShape.split`): for each tile of C, the
first call's accumulators start at zero, so it writes C and the initialisation goes; the
last applies the epilogue (`gemm_epilogue`) to its registers before the store, so the second
pass goes. Whatever the loops' order, a constraint-free block visits the reduction indices
of one tile of C in increasing order: its first call has each of them at 0, its last each at
the end of its range. (A transposed product's `[kk:4, n:4]` block: C was zeroed whole,
single-threaded, before the parallel loop over `n`.)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from plaidc.backends.loopnest.aggregation import WrittenRef, loop_is_independent
from plaidc.backends.loopnest.gemm import GemmCall, lower_gemm
from plaidc.backends.loopnest.gemm import detect as detect_gemm
from plaidc.backends.loopnest.gemm_epilogue import Epilogue
from plaidc.backends.loopnest.gemm_ints import all_of
from plaidc.backends.loopnest.optimise import parallel_index
from plaidc.backends.loopnest.plan import (
    Comment,
    ICmp,
    IConst,
    IntExpr,
    ISelect,
    IVar,
    Stmt,
)
from plaidc.backends.loopnest.scope import Scope
from plaidc.stripe.ir import Block

if TYPE_CHECKING:
    from plaidc.backends.loopnest.lower import Lowering


@dataclass(frozen=True)
class SplitReduction:
    """The leaf GEMM of a block that steps its reduction: `c_ref`, the block's refinement of
    C (whose initialisation the first call replaces), and the flags' conditions over the
    block's index variables."""

    gemm: GemmCall
    c_ref: str
    title: str
    first: IntExpr
    last: IntExpr

    def lower(self, lowering: Lowering, epilogue: Epilogue | None) -> list[Stmt]:
        """One point of the block: the leaf's kernel call with its flags."""
        flags = (_as_int(self.first), _as_int(self.last))
        return [Comment(self.title), *lower_gemm(lowering, self.gemm, epilogue, flags)]


def detect(
    lowering: Lowering, scope: Scope, written: dict[str, WrittenRef]
) -> SplitReduction | None:
    """`scope`'s block as a split reduction around a GEMM-like leaf, or None."""
    block = scope.chain[-1]
    if not lowering.options.gemm_split_flags or block.constraints or len(block.stmts) != 1:
        return None
    leaf = block.stmts[0]
    tags = lowering.options.gemm_tags
    if not isinstance(leaf, Block) or not tags or not leaf.tags.has_any(tags) or len(written) != 1:
        return None
    ((c_ref, w),) = written.items()
    if not w.init or w.mode != "add":
        return None
    leaf_scope, leaf_written, allocs = lowering.child_scope(scope, leaf, 0)
    if allocs:
        return None
    # the leaf is lowered inside this block's loops: inside a parallel one, if any, where its
    # kernel must not open threads of its own (`finish_block`)
    outer = lowering.in_parallel
    lowering.in_parallel = outer or parallel_index(lowering, scope, written) is not None
    try:
        gemm = detect_gemm(lowering, leaf_scope, leaf_written)
    finally:
        lowering.in_parallel = outer
    if gemm is None or not gemm.whole or leaf_written[gemm.c_ref].ref.from_ != c_ref:
        return None
    depth = scope.depth
    moves_c = {name for name, _ in gemm.c[1].terms}
    steps: list[tuple[IVar, int]] = []
    for idx in block.idxs:
        var = scope.vars[(depth, idx.name)]
        if idx.range == 1:
            continue
        if var not in moves_c:
            steps.append((IVar(var), idx.range))
        elif not loop_is_independent(written, depth, idx.name):
            return None  # two of its values write a common element of C
    if _box_moves(gemm, {var.name for var, _ in steps}):
        return None  # the reduction's steps write different boxes of C
    first = all_of([ICmp("==", var, IConst(0)) for var, _ in steps])
    last = all_of([ICmp("==", var, IConst(size - 1)) for var, size in steps])
    title = leaf.name or "#0"
    split_gemm = replace(gemm, shape=replace(gemm.shape, split=True))
    return SplitReduction(split_gemm, c_ref, title, first, last)


def _box_moves(gemm: GemmCall, names: set[str]) -> bool:
    """Whether a bound of the calls' box of C (of their rows, columns or the loops around
    them; not of the reduction) depends on a variable of `names`."""
    bounds = [b for role, b, _ in gemm.bounds if role != "k"]
    bounds += [loop.bounds for loop in gemm.outer]
    return any(
        name in names
        for b in bounds
        for bound in (*b.lows, *b.highs)
        for name, _ in bound.value.terms
    )


def _as_int(cond: IntExpr) -> IntExpr:
    """A condition as an integer argument: 1 or 0."""
    return ISelect(cond, IConst(1), IConst(0))
