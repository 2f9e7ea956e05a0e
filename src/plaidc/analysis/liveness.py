"""Liveness of allocations: which fresh buffers (`none` refinements) are live at the same time.

Time is a tick count over one execution of a block tree: every non-block statement is one
tick, a block statement spans the ticks of its own statements (one tick when it has none), in
statement order. The points of a block are taken to run one after another, or each on its own
instance of the memory, so one region serves an allocation at every point; the ticks of a
block are those of one of its points.

An allocation of block `X` is live

* with `whole_block`: during all of `X`'s ticks (it exists while `X` runs);
* otherwise: from the first tick of the first statement of `X` that uses it to the last tick of
  the last one (a load, store or Special naming it, or a child block refining it). Before its
  first use its contents are undefined (a fresh buffer), after its last use nothing reads them;
  an allocation nothing uses is live at `X`'s first tick only.

Two allocations may share memory exactly when their ranges do not intersect. In particular the
allocations of sibling blocks may share, and an allocation is live while any block below the
statements using it runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from plaidc.stripe.ir import Block, Refinement
from plaidc.stripe.uses import is_program_buffer, statement_ref_names

__all__ = [
    "LiveRange",
    "allocation_bytes",
    "live_at",
    "live_ranges",
    "peak_bytes",
    "statement_spans",
]


@dataclass(frozen=True)
class LiveRange:
    """Allocation `ref` of the block at statement path `path` (positions from the walk's root;
    `label` is that block's name path for messages), live over ticks `start..end` inclusive."""

    path: tuple[int, ...]
    label: str
    ref: Refinement
    start: int
    end: int

    def overlaps(self, other: LiveRange) -> bool:
        return self.start <= other.end and other.start <= self.end


def allocation_bytes(ref: Refinement) -> int:
    """Bytes an allocation occupies: the elements its strides span times the element size."""
    return ref.shape.extent * ref.shape.dtype.byte_size


def statement_spans(block: Block, start: int = 0) -> tuple[list[tuple[int, int]], int]:
    """The tick span `(first, last)` of each statement of `block` when its first statement
    starts at tick `start`, and the block's last tick."""
    spans: list[tuple[int, int]] = []
    tick = start
    for stmt in block.stmts:
        if isinstance(stmt, Block):
            _, last = statement_spans(stmt, tick)
            spans.append((tick, last))
            tick = last + 1
        else:
            spans.append((tick, tick))
            tick += 1
    return spans, max(tick - 1, start)


def live_ranges(
    block: Block,
    select: Callable[[Refinement], bool],
    whole_block: bool = False,
    *,
    is_root: bool = True,
    label: str = "",
) -> list[LiveRange]:
    """Live ranges of the allocations in `block` and below that `select` accepts (program
    buffers of the root excluded when `is_root`), with `block`'s first tick at 0."""
    out: list[LiveRange] = []
    _collect(block, (), label, 0, select, whole_block, is_root, out)
    return out


def _collect(
    block: Block,
    path: tuple[int, ...],
    label: str,
    start: int,
    select: Callable[[Refinement], bool],
    whole_block: bool,
    is_root: bool,
    out: list[LiveRange],
) -> None:
    spans, end = statement_spans(block, start)
    for ref in block.refs:
        if ref.from_ is not None or (is_root and is_program_buffer(ref)) or not select(ref):
            continue
        if whole_block:
            out.append(LiveRange(path, label, ref, start, end))
            continue
        users = [k for k, stmt in enumerate(block.stmts) if ref.into in statement_ref_names(stmt)]
        if users:
            out.append(LiveRange(path, label, ref, spans[users[0]][0], spans[users[-1]][1]))
        else:
            out.append(LiveRange(path, label, ref, start, start))
    for pos, stmt in enumerate(block.stmts):
        if isinstance(stmt, Block):
            name = stmt.name or f"[{pos}]"
            child_label = f"{label}/{name}" if label else name
            _collect(
                stmt, (*path, pos), child_label, spans[pos][0], select, whole_block, False, out
            )


def peak_bytes(ranges: Iterable[LiveRange], size: Callable[[Refinement], int]) -> int:
    """The largest total `size` of ranges live at one tick."""
    events: list[tuple[int, int]] = []
    for r in ranges:
        events.append((r.start, size(r.ref)))
        events.append((r.end + 1, -size(r.ref)))
    # At equal ticks, releases (negative) come first: a range ending at t-1 and one starting
    # at t never coexist.
    events.sort()
    peak = live = 0
    for _, delta in events:
        live += delta
        peak = max(peak, live)
    return peak


def live_at(ranges: Sequence[LiveRange], tick: int) -> list[LiveRange]:
    """The ranges live at `tick`."""
    return [r for r in ranges if r.start <= tick <= r.end]
