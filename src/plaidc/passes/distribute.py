"""`distribute`: split the kernels of `main` over `ranks` MPI processes (the `mpi` target).

For every kernel (a child block of `main`) the pass picks one index to split: in the kernel
block itself, or, when that block has no index of range > 1 (a one-tile outer block), in the
first block below it that has. The index is the first of `idxs` the block has whose split is
legal (empty `idxs`: the block's index addressing an output with the largest range whose split
is legal). Rank `r`
of `N` gets the points `R*r//N <= i < R*(r+1)//N` of an index of range `R` (balanced parts).
The split block is tagged `#distribute=N` and its index `#rank`; `rank_parts` gives each
rank its part (the block with the bounds as constraints), as the backend compiles it.

A split is legal only when isl proves that the parts write disjoint elements
(`analysis.exchange.first_overlap`): an index of `idxs` that a block has but that cannot be
split (a reduction index: the parts would add into the same elements), when none of the ones it
has can, is an error naming the block and an element two ranks would both write. A kernel with
no index to split runs on the root rank alone. A kernel of several blocks under a one-point
block (fused) has each block split along the same dimension of its output, legal when, besides,
no rank reads what another rank's blocks write (`analysis.exchange.inner_conflict`).
`ranks = 1` does nothing.

    #kernel block [i:8, k:4] (...)   -->   #distribute=2 #kernel block [#rank i:8, k:4] (...)
    rank 0's part: the same block with constraints i >= 0, 3 - i >= 0; rank 1's: i - 4 >= 0.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from plaidc.analysis.exchange import first_overlap, inner_conflict, main_of
from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.stripe.ir import Affine, Block, Constraint, Index, RefDir, Refinement

DISTRIBUTE_TAG = "distribute"
RANK_TAG = "rank"


@dataclass(frozen=True)
class DistributeOptions:
    ranks: int = option(
        1, "MPI processes to split the kernels over (1: the pass does nothing)", min=1
    )
    idxs: tuple[str, ...] = option(
        (), "indices to split, by preference (empty: the legal output index of largest range)"
    )


@register("distribute", DistributeOptions, "split the kernels of main over MPI ranks")
def distribute(program: Block, opts: DistributeOptions) -> Block:
    if opts.ranks <= 1 or not any(isinstance(s, Block) and "main" in s.tags for s in program.stmts):
        return program  # nothing to split (the mpi backend says why it cannot run such Stripe)
    main = main_of(program)
    stmts = []
    for stmt in main.stmts:
        if isinstance(stmt, Block):
            stmt = _distribute_kernel(program, stmt, opts)
        stmts.append(stmt)
    new_main = dataclasses.replace(main, stmts=tuple(stmts))
    return dataclasses.replace(
        program, stmts=tuple(new_main if s is main else s for s in program.stmts)
    )


def _target(kernel: Block) -> Block:
    """The block of `kernel` whose index is split (see the module docstring)."""
    block = kernel
    while not any(i.range > 1 for i in block.idxs):
        children = [s for s in block.stmts if isinstance(s, Block)]
        if len(children) != 1:
            break
        block = children[0]
    return block


def _writes_with(block: Block, name: str) -> bool:
    outs: list[Refinement] = [r for r in block.refs if r.dir in (RefDir.OUT, RefDir.INOUT)]
    return any(a.coeff(name) for r in outs for a in r.access)


def _distribute_kernel(program: Block, kernel: Block, opts: DistributeOptions) -> Block:
    target = _target(kernel)
    if not any(i.range > 1 for i in target.idxs):
        children = [s for s in target.stmts if isinstance(s, Block)]
        if len(children) > 1:
            return _distribute_fused(program, kernel, target, children, opts)
        return kernel
    splittable = [i for i in target.idxs if i.range > 1 and i.affine.is_zero]
    if opts.idxs:
        candidates = [i for n in opts.idxs for i in target.idxs if i.name == n]
        if not candidates:
            return kernel
    else:
        candidates = sorted(
            (i for i in splittable if _writes_with(target, i.name)), key=lambda i: -i.range
        )
    reasons = []
    for idx in candidates:
        if idx.range <= 1 or not idx.affine.is_zero:
            reasons.append(f"index '{idx.name}' has a single value")
            continue
        tagged = _tag(kernel, {id(target): idx.name}, opts.ranks)
        why = _illegal(program, tagged, opts.ranks)
        if why is None:
            return tagged
        reasons.append(f"index '{idx.name}' cannot be distributed: {why}")
    if opts.idxs:
        raise _error(target, kernel, "; ".join(reasons))
    return kernel


def _illegal(program: Block, tagged: Block, ranks: int) -> str | None:
    """Why splitting `tagged` over `ranks` is not legal (None: it is)."""
    parts = [rank_part(tagged, r, 0) for r in range(ranks)]
    overlap = first_overlap(program, parts)
    if overlap is not None:
        r, q, buffer, element = overlap
        return f"ranks {r} and {q} would both write element {element} of '{buffer}'"
    conflict = inner_conflict(program, parts)
    if conflict is not None:
        r, q, buffer, element = conflict
        return f"rank {r} would read element {element} of '{buffer}' that rank {q} writes"
    return None


def _output_dim_index(block: Block, dim: int) -> str | None:
    """The splittable index of `block` addressing dimension `dim` of its first output."""
    outs = [r for r in block.refs if r.dir in (RefDir.OUT, RefDir.INOUT)]
    if not outs or dim >= len(outs[0].access):
        return None
    for idx in block.idxs:
        if idx.range > 1 and idx.affine.is_zero and outs[0].access[dim].coeff(idx.name):
            return idx.name
    return None


def _distribute_fused(
    program: Block, kernel: Block, target: Block, children: list[Block], opts: DistributeOptions
) -> Block:
    """A kernel of several blocks (fused): each block is split along the same dimension of its
    output (or by the first of `idxs` it has), so that each rank's blocks feed each other; a
    block with no such index runs on every rank (it may only write the kernel's temporaries)."""
    if opts.idxs:
        choices = [
            {id(c): next(i.name for n in opts.idxs for i in c.idxs if i.name == n)}
            for c in children
            if any(i.name in opts.idxs for i in c.idxs)
        ]
        attempts = [{k: v for choice in choices for k, v in choice.items()}]
    else:
        ndims = max((len(r.access) for c in children for r in c.refs), default=0)
        attempts = []
        for dim in range(ndims):
            names = {id(c): _output_dim_index(c, dim) for c in children}
            attempts.append({k: v for k, v in names.items() if v is not None})
    for chosen in attempts:
        if not chosen:
            continue
        tagged = _tag(kernel, chosen, opts.ranks)
        why = _illegal(program, tagged, opts.ranks)
        if why is None:
            return tagged
        if opts.idxs:
            raise _error(target, kernel, f"the named indices cannot be distributed: {why}")
    return kernel


def _error(target: Block, kernel: Block, why: str) -> CompileError:
    name = target.name or kernel.name or "?"
    return CompileError(
        [Diagnostic(f"distribute: block '{name}': {why}", target.span or kernel.span)]
    )


def _map_targets(block: Block, targets: set[int], fn: Callable[[Block], Block]) -> Block:
    """`block` with every block whose identity is in `targets` replaced by `fn` of it."""
    if id(block) in targets:
        return fn(block)
    stmts = tuple(_map_targets(s, targets, fn) if isinstance(s, Block) else s for s in block.stmts)
    return dataclasses.replace(block, stmts=stmts)


def _tag(kernel: Block, chosen: dict[int, str], ranks: int) -> Block:
    """`kernel` with each block of `chosen` (by identity) split on the index it names."""

    def tag(block: Block) -> Block:
        name = chosen[id(block)]
        idxs = tuple(
            dataclasses.replace(i, tags=i.tags.add(RANK_TAG)) if i.name == name else i
            for i in block.idxs
        )
        return dataclasses.replace(block, idxs=idxs, tags=block.tags.add(**{DISTRIBUTE_TAG: ranks}))

    return _map_targets(kernel, set(chosen), tag)


# --------------------------------------------------------------------------------------------
# Each rank's part


def part_bounds(extent: int, ranks: int, rank: int) -> tuple[int, int]:
    """`[lo, hi)` of rank `rank`'s points of an index of range `extent` split `ranks` ways."""
    return extent * rank // ranks, extent * (rank + 1) // ranks


def distributed_blocks(kernel: Block) -> list[Block]:
    """The blocks of `kernel` the pass split."""
    if DISTRIBUTE_TAG in kernel.tags:
        return [kernel]
    found: list[Block] = []
    for stmt in kernel.stmts:
        if isinstance(stmt, Block):
            found.extend(distributed_blocks(stmt))
    return found


def kernel_ranks(kernel: Block) -> int | None:
    """The rank count `kernel` was split for (None: not split)."""
    blocks = distributed_blocks(kernel)
    if not blocks:
        return None
    value = blocks[0].tags.get(DISTRIBUTE_TAG)
    return value if isinstance(value, int) else None


def rank_part(kernel: Block, rank: int, root: int, chunk: int = 0, chunks: int = 1) -> Block | None:
    """Rank `rank`'s part of `kernel` (None: it runs none of it), or with `chunks` > 1 its
    `chunk`-th of that many consecutive pieces (rank `r`'s part split the way the ranks split the
    index: piece `r * chunks + chunk` of `ranks * chunks`, which nest in the rank's part). A
    kernel the pass did not split runs whole on the `root` rank (its only chunk is 0)."""
    blocks = distributed_blocks(kernel)
    if not blocks:
        return kernel if rank == root and chunk == 0 else None
    ranks = kernel_ranks(kernel) or 1
    pieces, piece = ranks * chunks, rank * chunks + chunk
    bounds: dict[int, tuple[Constraint, ...]] = {}
    empty = True
    for block in blocks:
        idx: Index = next(i for i in block.idxs if RANK_TAG in i.tags)
        lo, hi = part_bounds(idx.range, pieces, piece)
        empty = empty and lo >= hi
        var = Affine.var(idx.name)
        bounds[id(block)] = (Constraint(var - lo), Constraint(Affine.const_(hi - 1) - var))
    if empty:
        return None

    def restrict(b: Block) -> Block:
        return dataclasses.replace(b, constraints=(*b.constraints, *bounds[id(b)]))

    return _map_targets(kernel, set(bounds), restrict)
