"""`schedule`: order a block's statements under a local-memory budget, swapping buffers out
and back in when its working set does not fit.

Every block in a matched block's subtree that owns allocations located in `mem_loc` (see
`place.in_memory`) is scheduled, innermost first:

1. **Order.** Statements are list-scheduled along their dependences (scalar def/use, explicit
   `deps`, and two statements touching one buffer, one of them writing; views of one buffer
   are one buffer), greedily preferring the ready statement that frees the most local bytes
   and opens the fewest, then the earlier one. The new order is kept only when its peak of live
   local bytes is lower than the original order's (so the pass never makes things worse and
   leaves a block alone where it cannot help).
2. **Swap.** Walking the order with `plaidc.analysis.liveness`'s model (an allocation is live
   from its first to its last use), when a statement's working set (the local buffers live
   then plus the peak of local buffers inside the statement) exceeds the budget, the live
   buffers the statement does not use are evicted, furthest next use first (Belady): a
   swap-out block copies the buffer to a fresh allocation in `swap_loc` just before the
   statement, and a swap-in block copies it into a *new* local allocation (`T_1`, `T_2`, ...)
   just before its next use, which with the statements after it uses that name. Each segment
   is a separate allocation, so `place` may put the segments anywhere.

The budget of a block is `mem_size` less every `mem_loc` allocation of its ancestors (a
conservative reservation) and sizes count rounded up to `alignment`. A statement whose own
buffers and inner peak exceed the budget is a CompileError. `mem_size` 0 means no budget: the
pass only reorders. `place` afterwards may still fail by fragmentation (its packing is not
optimal); swapping guarantees the live total fits, not a packing.

Copies are whole buffers, element by element, so they are exact: between a swap-out and its
swap-in no statement uses the buffer, and contents are what they were. Tags `swap_out_set` /
`swap_in_set` and location `xfer_loc` mark the transfer blocks.

Before / after (`--pass schedule{mem_loc=UB,mem_size=64}`, buffers of 32 B):

    0: block (out T1 = ...) { ... }      0: block (out T1) {...}   # produce T1
    1: block (out T2 = ...) { ... }      1: block (in T1) {...}    # consume T1
    2: block (in T1) { ... }             2: block (out T2) {...}   # produce T2
    3: block (in T2) { ... }             3: block (in T2) {...}    # consume T2

(the original order holds 64 B at once, the new one 32 B).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from plaidc.analysis import AnalysisError, resolve_view
from plaidc.analysis.liveness import allocation_bytes, live_ranges, peak_bytes
from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.options import option
from plaidc.passes.cache import copy_block, fresh_name, shift_deps
from plaidc.passes.place import align_up, in_memory
from plaidc.passes.registry import PassOptionError, location_option, register
from plaidc.passes.selection import EXCLUDE_HELP, REQS_SUBTREE_HELP, matches
from plaidc.stripe.ir import (
    Block,
    Load,
    Location,
    RefDir,
    Refinement,
    Special,
    Statement,
    Store,
    Tags,
)
from plaidc.stripe.uses import (
    is_program_buffer,
    scalar_inputs,
    scalar_outputs,
    statement_ref_names,
)

__all__ = ["ScheduleOptions", "schedule"]


@dataclass(frozen=True)
class ScheduleOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_SUBTREE_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    mem_loc: str = option(
        "", "the local memory, a location name such as UB (empty: the pass does nothing)"
    )
    mem_size: int = option(0, "bytes of the local memory (0: no budget, only reorder)", min=0)
    alignment: int = option(1, "sizes count rounded up to a multiple of this many bytes", min=1)
    swap_loc: str = option("", "location of the swapped-out copies (empty: none)")
    xfer_loc: str = option("", "location of the swap transfer blocks (empty: none)")
    reorder: bool = option(True, "reorder statements when that lowers the peak of live bytes")
    swap_in_set: tuple[str, ...] = option(("xfer", "swap_in"), "tags of the swap-in blocks")
    swap_out_set: tuple[str, ...] = option(("xfer", "swap_out"), "tags of the swap-out blocks")

    def __post_init__(self) -> None:
        if self.mem_loc and not self.mem_loc.isidentifier():
            raise PassOptionError(
                f"pass 'schedule': option 'mem_loc': expected a memory name such as UB, "
                f'got "{self.mem_loc}"'
            )
        location_option(self.swap_loc, "schedule", "swap_loc")
        location_option(self.xfer_loc, "schedule", "xfer_loc")


@register("schedule", ScheduleOptions, "order statements under a local-memory budget, swapping")
def schedule(program: Block, opts: ScheduleOptions) -> Block:
    if not opts.mem_loc:
        return program
    ctx = _Context(
        opts,
        location_option(opts.mem_loc, "schedule", "mem_loc"),
        location_option(opts.swap_loc, "schedule", "swap_loc"),
        location_option(opts.xfer_loc, "schedule", "xfer_loc"),
    )
    return _walk((program,), ("",), False, ctx)


@dataclass(frozen=True)
class _Context:
    opts: ScheduleOptions
    mem_loc: Location | None
    swap_loc: Location | None
    xfer_loc: Location | None

    def size(self, ref: Refinement) -> int:
        return align_up(allocation_bytes(ref), self.opts.alignment)

    def local(self, ref: Refinement, is_root: bool) -> bool:
        if ref.from_ is not None or (is_root and is_program_buffer(ref)):
            return False
        return in_memory(ref, self.opts.mem_loc)


def _walk(chain: tuple[Block, ...], labels: tuple[str, ...], active: bool, ctx: _Context) -> Block:
    """Post-order over the subtree: children first (their peaks feed the parent's schedule)."""
    block = chain[-1]
    active = active or matches(block, ctx.opts.reqs, ctx.opts.exclude)
    stmts: list[Statement] = []
    changed = False
    for pos, stmt in enumerate(block.stmts):
        if isinstance(stmt, Block):
            name = stmt.name or f"[{pos}]"
            label = f"{labels[-1]}/{name}" if labels[-1] else name
            new = _walk((*chain, stmt), (*labels, label), active, ctx)
            changed |= new is not stmt
            stmts.append(new)
        else:
            stmts.append(stmt)
    if changed:
        block = dataclasses.replace(block, stmts=tuple(stmts))
        chain = (*chain[:-1], block)
    if not active:
        return block
    return _schedule_block(chain, labels[-1], ctx)


# --------------------------------------------------------------------------------------------
# Facts about the statements of one block


@dataclass(frozen=True)
class _Stmt:
    """One statement: the local allocations it uses, its inner peak, and its accesses."""

    uses: frozenset[str]
    inner: int
    reads: frozenset[object]
    writes: frozenset[object]
    scalars_in: frozenset[str]
    scalars_out: frozenset[str]


def _owner_key(chain: tuple[Block, ...], name: str) -> object:
    """One key per buffer: views of the same buffer share it."""
    try:
        depth, ref = resolve_view(chain, name)[-1]
    except AnalysisError:
        return ("?", name)
    return (depth, ref.into)


def _facts(chain: tuple[Block, ...], ctx: _Context, local: set[str]) -> list[_Stmt]:
    block = chain[-1]
    keys = {r.into: _owner_key(chain, r.into) for r in block.refs}
    out = []
    for stmt in block.stmts:
        reads: set[object] = set()
        writes: set[object] = set()
        if isinstance(stmt, Load):
            reads.add(keys.get(stmt.from_, stmt.from_))
        elif isinstance(stmt, Store):
            writes.add(keys.get(stmt.into, stmt.into))
        elif isinstance(stmt, Special):
            reads.update(keys.get(n, n) for n in stmt.inputs)
            writes.update(keys.get(n, n) for n in stmt.outputs)
        elif isinstance(stmt, Block):
            for r in stmt.refs:
                if r.from_ is None:
                    continue
                key = keys.get(r.from_, r.from_)
                reads.add(key)  # an `out` view may be read back
                if r.dir.writes or r.dir == RefDir.NONE:
                    writes.add(key)
        inner = 0
        if isinstance(stmt, Block):
            inner = peak_bytes(
                live_ranges(stmt, lambda r: in_memory(r, ctx.opts.mem_loc), is_root=False),
                ctx.size,
            )
        out.append(
            _Stmt(
                frozenset(statement_ref_names(stmt) & local),
                inner,
                frozenset(reads),
                frozenset(writes),
                frozenset(scalar_inputs(stmt)),
                frozenset(scalar_outputs(stmt)),
            )
        )
    return out


def _predecessors(block: Block, facts: Sequence[_Stmt]) -> list[set[int]]:
    """For each statement, the earlier statements it must stay after."""
    preds: list[set[int]] = []
    for j, b in enumerate(facts):
        mine = set(block.stmts[j].deps)
        for i in range(j):
            a = facts[i]
            if (
                a.scalars_out & (b.scalars_in | b.scalars_out)
                or a.writes & (b.reads | b.writes)
                or a.reads & b.writes
            ):
                mine.add(i)
        preds.append(mine)
    return preds


def _peak(order: Sequence[int], facts: Sequence[_Stmt], sizes: dict[str, int]) -> int:
    """Peak live local bytes of `order` (an allocation is live from first to last use)."""
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for k, s in enumerate(order):
        for a in facts[s].uses:
            first.setdefault(a, k)
            last[a] = k
    peak = 0
    for k, s in enumerate(order):
        live = sum(sizes[a] for a in first if first[a] <= k <= last[a])
        peak = max(peak, live + facts[s].inner)
    return peak


def _greedy(preds: Sequence[set[int]], facts: Sequence[_Stmt], sizes: dict[str, int]) -> list[int]:
    """List schedule preferring statements that free local bytes and open few."""
    n = len(facts)
    users = {a: sum(1 for f in facts if a in f.uses) for a in sizes}
    opened: set[str] = set()
    done: set[int] = set()
    order: list[int] = []
    while len(order) < n:
        ready = [s for s in range(n) if s not in done and preds[s] <= done]

        def cost(s: int) -> tuple[int, int]:
            opens = sum(sizes[a] for a in facts[s].uses if a not in opened)
            frees = sum(sizes[a] for a in facts[s].uses if users[a] == 1)
            return (opens - frees, s)

        pick = min(ready, key=cost)
        order.append(pick)
        done.add(pick)
        for a in facts[pick].uses:
            opened.add(a)
            users[a] -= 1
    return order


# --------------------------------------------------------------------------------------------
# Scheduling one block


def _schedule_block(chain: tuple[Block, ...], label: str, ctx: _Context) -> Block:
    block = chain[-1]
    is_root = len(chain) == 1
    local_refs = {r.into: r for r in block.refs if ctx.local(r, is_root)}
    if not local_refs:
        return block
    sizes = {n: ctx.size(r) for n, r in local_refs.items()}
    facts = _facts(chain, ctx, set(local_refs))
    original = list(range(len(block.stmts)))
    order = original
    if ctx.opts.reorder:
        candidate = _greedy(_predecessors(block, facts), facts, sizes)
        if _peak(candidate, facts, sizes) < _peak(original, facts, sizes):
            order = candidate
    budget = None
    if ctx.opts.mem_size:
        reserved = sum(
            ctx.size(r)
            for depth, outer in enumerate(chain[:-1])
            for r in outer.refs
            if ctx.local(r, depth == 0)
        )
        budget = ctx.opts.mem_size - reserved
    return _swap(block, order, facts, local_refs, sizes, budget, label, ctx)


def _rename(stmt: Statement, names: dict[str, str]) -> Statement:
    """`stmt` using the current segment name of each local allocation."""
    if isinstance(stmt, Load) and stmt.from_ in names:
        return dataclasses.replace(stmt, from_=names[stmt.from_])
    if isinstance(stmt, Store) and stmt.into in names:
        return dataclasses.replace(stmt, into=names[stmt.into])
    if isinstance(stmt, Special):
        ins = tuple(names.get(n, n) for n in stmt.inputs)
        outs = tuple(names.get(n, n) for n in stmt.outputs)
        if ins != stmt.inputs or outs != stmt.outputs:
            return dataclasses.replace(stmt, inputs=ins, outputs=outs)
    if isinstance(stmt, Block) and any(r.from_ in names for r in stmt.refs):
        refs = tuple(
            dataclasses.replace(r, from_=names[r.from_])
            if r.from_ is not None and r.from_ in names
            else r
            for r in stmt.refs
        )
        return dataclasses.replace(stmt, refs=refs)
    return stmt


def _swap(
    block: Block,
    order: list[int],
    facts: Sequence[_Stmt],
    local_refs: dict[str, Refinement],
    sizes: dict[str, int],
    budget: int | None,
    label: str,
    ctx: _Context,
) -> Block:
    """Emit `order`, evicting and restoring local buffers so each statement fits `budget`."""
    next_uses: dict[str, list[int]] = {a: [] for a in local_refs}
    for k, s in enumerate(order):
        for a in sorted(facts[s].uses):
            next_uses[a].append(k)
    current = {a: a for a in local_refs}  # the name of each allocation's current segment
    swapped: dict[str, str] = {}  # evicted allocation -> its copy in swap_loc
    resident: set[str] = set()
    taken = {r.into for r in block.refs}
    new_refs: list[Refinement] = []
    out: list[Statement] = []
    new_pos: dict[int, int] = {}
    with_deps = any(s.deps for s in block.stmts)
    last_pos: dict[str, int] = {}  # position in `out` of the last statement using a segment
    for s in order:
        uses = facts[s].uses
        for a in uses:
            next_uses[a].pop(0)
        need = sum(sizes[a] for a in resident | uses) + facts[s].inner
        if budget is not None and need > budget:
            victims = sorted(resident - uses, key=lambda a: (-(next_uses[a] or [len(order)])[0], a))
            for v in victims:
                if need <= budget:
                    break
                copy = fresh_name(f"{v}_swap", taken)
                taken.add(copy)
                swap = dataclasses.replace(
                    local_refs[v], into=copy, location=ctx.swap_loc, offset=0
                )
                new_refs.append(swap)
                xfer = _copy(f"swap_out_{v}", local_refs[v], current[v], copy, ctx, True)
                if with_deps and current[v] in last_pos:
                    xfer = dataclasses.replace(xfer, deps=(last_pos[current[v]],))
                last_pos[copy] = len(out)
                out.append(xfer)
                swapped[v] = copy
                resident.discard(v)
                need -= sizes[v]
            if need > budget:
                raise _overflow(block, label, s, uses, facts[s].inner, sizes, budget, ctx)
        deps: set[int] = set()
        for a in sorted(uses & swapped.keys()):
            segment = fresh_name(a, taken)
            taken.add(segment)
            new_refs.append(dataclasses.replace(local_refs[a], into=segment, offset=0))
            xfer = _copy(f"swap_in_{a}", local_refs[a], swapped[a], segment, ctx, False)
            if with_deps:
                xfer = dataclasses.replace(xfer, deps=(last_pos[swapped[a]],))
            deps.add(len(out))
            out.append(xfer)
            current[a] = segment
            del swapped[a]
        resident |= uses
        stmt = _rename(block.stmts[s], current)
        new_pos[s] = len(out)
        stmt = shift_deps(stmt, lambda d: new_pos[d])
        if with_deps and deps:
            stmt = dataclasses.replace(stmt, deps=tuple(sorted({*stmt.deps, *deps})))
        for a in uses:
            last_pos[current[a]] = len(out)
        out.append(stmt)
        resident -= {a for a in uses if not next_uses[a]}
    if order == list(range(len(block.stmts))) and not new_refs:
        return block
    return dataclasses.replace(block, refs=(*block.refs, *new_refs), stmts=tuple(out))


def _copy(
    name: str, like: Refinement, src: str, dst: str, ctx: _Context, out_of_local: bool
) -> Block:
    """A whole-buffer copy between two allocations shaped like `like`."""
    src_ref = dataclasses.replace(
        like, into=src, location=ctx.mem_loc if out_of_local else ctx.swap_loc
    )
    dst_ref = dataclasses.replace(
        like, into=dst, location=ctx.swap_loc if out_of_local else ctx.mem_loc, agg_op=None
    )
    sizes = like.shape.sizes
    zero = [0] * len(sizes)
    tags = ctx.opts.swap_out_set if out_of_local else ctx.opts.swap_in_set
    return copy_block(
        name, src_ref, dst_ref, zero, zero, sizes, ctx.xfer_loc, Tags.of(*tags), set()
    )


def _overflow(
    block: Block,
    label: str,
    pos: int,
    uses: frozenset[str],
    inner: int,
    sizes: dict[str, int],
    budget: int,
    ctx: _Context,
) -> CompileError:
    where = f"block '{label}'" if label else "the program"
    bufs = ", ".join(f"'{a}' ({sizes[a]} B)" for a in sorted(uses)) or "no local buffer"
    message = (
        f"schedule: statement {pos} of {where} needs {sum(sizes[a] for a in uses) + inner} B "
        f"of {ctx.opts.mem_loc} ({bufs}, and {inner} B inside it), more than the {budget} B "
        f"left of {ctx.opts.mem_size} B"
    )
    return CompileError([Diagnostic(message, block.stmts[pos].span or block.span)])
