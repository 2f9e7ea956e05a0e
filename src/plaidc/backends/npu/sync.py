"""Sync insertion: a flag on every cross-pipe dependence, and no more.

Pipes run concurrently and each runs its own instructions in order, so two operations conflict
when they sit on different pipes and touch overlapping bytes of one memory, at least one of them
writing (RAW, WAR, WAW). For each operation, in program order, this pass finds for every other
pipe the newest conflicting operation the current pipe is not yet ordered after, and orders it:
`set_flag(src, dst, e)` right after that operation, `wait_flag(src, dst, e)` right before this
one. Ordering is tracked with vector clocks exactly as the simulator tracks it (a flag carries
what its source pipe knew when it was set, so orders compose transitively), which is what makes
the result minimal: a dependence already implied by earlier flags gets no flag of its own.

Setting the flag right after the producer (not right before the consumer) lets the source pipe
run ahead, which is what double buffering needs. Event ids are given per (src, dst) pair so that
no flag is raised twice before it is waited for (the simulator's "lost set" rule).
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from dataclasses import dataclass, field

from plaidc.backends.npu.ops import BARRIER, Op, Region
from plaidc.backends.npu_sim.isa import PIPES

EVENTS = 8


@dataclass(frozen=True)
class Flag:
    """`set_flag`/`wait_flag(src, dst, EVENT_IDevent)`."""

    src: str
    dst: str
    event: int


@dataclass
class Synced:
    """The operations with the flags to set after and to wait for before each of them."""

    ops: list[Op]
    sets_after: list[list[Flag]] = field(default_factory=list)
    waits_before: list[list[Flag]] = field(default_factory=list)

    @property
    def flag_count(self) -> int:
        return sum(len(w) for w in self.waits_before)


@dataclass(frozen=True)
class _Access:
    index: int
    pipe: str
    region: Region
    write: bool


def insert_sync(ops: list[Op]) -> Synced:
    """Decide the flags that order every cross-pipe conflict among `ops`."""
    n = len(ops)
    result = Synced(list(ops), [[] for _ in range(n)], [[] for _ in range(n)])
    # known[p][q]: newest op of pipe q that pipe p is ordered after (-1: none).
    known: dict[str, dict[str, int]] = {p: dict.fromkeys(PIPES, -1) for p in PIPES}
    snapshot: list[dict[str, int]] = []
    history: dict[str, list[_Access]] = defaultdict(list)
    # For each (src, dst) pair, the op index before which each event's last flag is waited for.
    freed_at: dict[tuple[str, str], list[int]] = defaultdict(lambda: [-1] * EVENTS)
    by_pipe: dict[str, list[int]] = defaultdict(list)  # op indices of each pipe, in order
    for j, op in enumerate(ops):
        p = op.pipe
        if not p:  # a comment: no instructions
            snapshot.append({})
            continue
        if p == BARRIER:  # orders everything before it before everything after it
            newest = {q: (ids[-1] if ids else -1) for q, ids in by_pipe.items()}
            for mine_known in known.values():
                mine_known.update(newest)
            history.clear()
            freed_at.clear()
            snapshot.append({})
            continue
        need: dict[str, int] = {}
        mine = [(r, False) for r in op.reads] + [(r, True) for r in op.writes]
        for region, write in mine:
            for acc in history[region.mem]:
                if acc.pipe == p or not (write or acc.write) or not acc.region.overlaps(region):
                    continue
                if acc.index > known[p][acc.pipe] and acc.index > need.get(acc.pipe, -1):
                    need[acc.pipe] = acc.index
        for q, m in sorted(need.items(), key=lambda item: -item[1]):
            if known[p][q] >= m:
                continue  # ordered already through a flag just added
            # Set the flag as early as an event is free: right after op m, or later when all
            # events of the pair are in flight (right before op j one always is).
            events = freed_at[(q, p)]
            at = next(k for k in range(m, j) if any(e <= k for e in events))
            event = next(e for e in range(EVENTS) if events[e] <= at)
            events[event] = j
            flag = Flag(q, p, event)
            result.sets_after[at].append(flag)
            result.waits_before[j].append(flag)
            latest = by_pipe[q][bisect.bisect_right(by_pipe[q], at) - 1]
            for pipe, index in snapshot[latest].items():
                known[p][pipe] = max(known[p][pipe], index)
        snap = dict(known[p])
        snap[p] = j
        snapshot.append(snap)
        by_pipe[p].append(j)
        for region, write in mine:
            if write:
                # Everything inside a region this op overwrites is ordered before it; a later
                # op that conflicts with such an access conflicts with this write as well.
                history[region.mem] = [
                    a
                    for a in history[region.mem]
                    if not (region.lo <= a.region.lo and a.region.hi <= region.hi)
                ]
        for region, write in mine:
            history[region.mem].append(_Access(j, p, region, write))
    return result
