"""`place`: give the allocations located in one memory offsets that never collide.

Every `none` refinement in a matched block's subtree whose location is `mem_loc` (its first
unit's name: `UB` matches `UB` and `UB[1]`) gets `offset` (printed `new@0x...`) such that two
allocations live at the same time (`plaidc.analysis.liveness`; with `whole_block` an allocation
is live while its block runs, otherwise from its first to its last use among the block's
statements) occupy disjoint byte ranges, each offset a multiple of `alignment` and each range
within `mem_size` bytes (0: unbounded). A buffer's bytes are the elements its strides span
times the element size, rounded up to a multiple of `granule`. Allocations that cannot fit are
a CompileError naming the buffer, its size and the buffers live with it.

Placement is first fit, largest buffer first (then earliest, then in program order): the
lowest aligned offset clear of every already placed buffer whose range meets this one. It is
deterministic, and it never fails when the memory is unbounded; with a bound it may fail where
a cleverer packing would succeed (interval packing is NP-hard), never the other way round.

The matched block's subtree is one placement problem: allocations outside it are not seen, so
match the block owning every buffer of that memory (the default `all` matches the program).
Offsets do not change what a program computes; the interpreter ignores them.

Before / after (`--pass place{mem_loc=UB,mem_size=1024,alignment=32}`):

    block [] (                                 block [] (
        none A<UB>[0] fp32:I(10):(1)               none new@0x00000000 A<UB>[0] ...
        none B<UB>[0] fp32:I(8):(1)                none new@0x00000040 B<UB>[0] ...
    ) {                                        ) {
      0: block ( none T<UB> ... ) {...}          0: block ( none new@0x00000060 T<UB> ... )
      1: block ( none U<UB> ... ) {...}          1: block ( none new@0x00000060 U<UB> ... )
      ...                                        ...

(`A` and `B` live across both children; the siblings' `T` and `U` share space.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from plaidc.analysis.liveness import (
    LiveRange,
    allocation_bytes,
    live_ranges,
    peak_bytes,
)
from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.options import option
from plaidc.passes.registry import PassOptionError, register
from plaidc.passes.selection import EXCLUDE_HELP, rewrite_matching
from plaidc.stripe.ir import Block, Refinement, Statement

__all__ = [
    "PlaceOptions",
    "PlacementError",
    "Request",
    "align_up",
    "first_fit",
    "in_memory",
    "place",
]


@dataclass(frozen=True)
class PlaceOptions:
    reqs: tuple[str, ...] = option(
        ("all",), "place the allocations in the outermost blocks carrying all these tags, as one"
    )
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    mem_loc: str = option(
        "", "the memory to place, a location name such as UB (empty: the pass does nothing)"
    )
    mem_size: int = option(0, "bytes of that memory (0: unbounded)", min=0)
    alignment: int = option(1, "every offset is a multiple of this many bytes", min=1)
    granule: int = option(
        1, "every allocation's bytes are rounded up to a multiple of this (a unit's repeat)", min=1
    )
    whole_block: bool = option(
        False, "an allocation is live while its block runs (else from its first to its last use)"
    )

    def __post_init__(self) -> None:
        if self.mem_loc and not self.mem_loc.isidentifier():
            raise PassOptionError(
                f"pass 'place': option 'mem_loc': expected a memory name such as UB, "
                f'got "{self.mem_loc}"'
            )


@dataclass(frozen=True)
class Request:
    """A buffer of `size` bytes live over ticks `start..end` (inclusive)."""

    size: int
    start: int
    end: int

    def meets(self, other: Request) -> bool:
        return self.start <= other.end and other.start <= self.end


class PlacementError(Exception):
    """Request `index` does not fit; `conflicts` are the placed requests live with it, as
    `(index, offset)`."""

    def __init__(self, index: int, conflicts: list[tuple[int, int]]) -> None:
        super().__init__(f"request {index} does not fit")
        self.index = index
        self.conflicts = conflicts


def align_up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def first_fit(requests: Sequence[Request], mem_size: int, alignment: int) -> list[int]:
    """Offsets for `requests` (multiples of `alignment`, within `mem_size` bytes unless it is
    0) such that requests live at the same time never overlap; see the module docstring."""
    order = sorted(range(len(requests)), key=lambda k: (-requests[k].size, requests[k].start, k))
    offsets: list[int | None] = [None] * len(requests)
    for k in order:
        req = requests[k]
        busy = sorted(
            (offsets[j], requests[j].size)
            for j in range(len(requests))
            if offsets[j] is not None and requests[j].size > 0 and requests[j].meets(req)
        )
        offset = 0
        for start, size in busy:
            assert start is not None
            if offset + req.size <= start:
                break
            offset = max(offset, align_up(start + size, alignment))
        if mem_size and offset + req.size > mem_size:
            conflicts = [
                (j, off)
                for j, off in enumerate(offsets)
                if off is not None and requests[j].meets(req)
            ]
            raise PlacementError(k, conflicts)
        offsets[k] = offset
    return [o if o is not None else 0 for o in offsets]


def in_memory(ref: Refinement, mem_loc: str) -> bool:
    """Whether `ref` is located in memory `mem_loc` (by its location's first unit name)."""
    return ref.location is not None and ref.location.units[0].name == mem_loc


@register("place", PlaceOptions, "assign non-overlapping offsets to the allocations in a memory")
def place(program: Block, opts: PlaceOptions) -> Block:
    if not opts.mem_loc:
        return program
    return rewrite_matching(
        program, opts.reqs, lambda block: _place(block, block is program, opts), opts.exclude
    )


def _place(block: Block, is_root: bool, opts: PlaceOptions) -> Block:
    label = "" if is_root else (block.name or "block")
    ranges = live_ranges(
        block,
        lambda ref: in_memory(ref, opts.mem_loc),
        opts.whole_block,
        is_root=is_root,
        label=label,
    )
    if not ranges:
        return block
    requests = [Request(_footprint(r.ref, opts), r.start, r.end) for r in ranges]
    try:
        offsets = first_fit(requests, opts.mem_size, opts.alignment)
    except PlacementError as err:
        raise _error(ranges, err, opts) from None
    table: dict[tuple[int, ...], dict[str, int]] = {}
    for r, offset in zip(ranges, offsets, strict=True):
        table.setdefault(r.path, {})[r.ref.into] = offset
    return _apply(block, (), table)


def _footprint(ref: Refinement, opts: PlaceOptions) -> int:
    """The bytes an allocation takes: its own, in whole granules."""
    return align_up(allocation_bytes(ref), opts.granule)


def _apply(
    block: Block, path: tuple[int, ...], table: dict[tuple[int, ...], dict[str, int]]
) -> Block:
    mine = table.get(path, {})
    refs = tuple(
        dataclasses.replace(r, offset=mine[r.into])
        if r.into in mine and r.from_ is None and r.offset != mine[r.into]
        else r
        for r in block.refs
    )
    changed = any(a is not b for a, b in zip(refs, block.refs, strict=True))
    stmts: list[Statement] = []
    for pos, stmt in enumerate(block.stmts):
        if isinstance(stmt, Block):
            new = _apply(stmt, (*path, pos), table)
            changed |= new is not stmt
            stmts.append(new)
        else:
            stmts.append(stmt)
    if not changed:
        return block
    return dataclasses.replace(block, refs=refs, stmts=tuple(stmts))


def _describe(r: LiveRange) -> str:
    where = f" of block '{r.label}'" if r.label else " of the program"
    return f"'{r.ref.into}'{where} ({allocation_bytes(r.ref)} B)"


def _error(ranges: list[LiveRange], err: PlacementError, opts: PlaceOptions) -> CompileError:
    failed = ranges[err.index]
    live = ", ".join(
        f"{_describe(ranges[j])} at 0x{off:x}"
        for j, off in sorted(err.conflicts, key=lambda c: c[1])
    )
    peak = peak_bytes(ranges, lambda ref: align_up(_footprint(ref, opts), opts.alignment))
    message = (
        f"place: {_describe(failed)} does not fit in {opts.mem_loc} "
        f"({opts.mem_size} B, alignment {opts.alignment}); live at the same time: "
        f"{live or 'nothing'}"
    )
    note = f"at the peak, {peak} B (sizes aligned) of {opts.mem_loc} are live at once"
    return CompileError([Diagnostic(message, failed.ref.span, notes=(note,))])
