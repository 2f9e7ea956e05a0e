"""Work-group code: one point of a kernel block run by all the work-items of a group.

In the cooperative form of a kernel, a work-group executes the points of the kernel block
that share its group id, and the blocks the pipeline tagged as threads spread their points over
the group's work-items (their loops became *distributed regions*: `if (local_id < n) { ... }`,
see `plaidc.backends.opencl.lower`). Everything else in the body is *group code*: every
work-item runs it, in the same order, with the same values, so its control flow is uniform and
may hold barriers. This module makes group code correct when many work-items run it:

* Statements with side effects (stores, loops and conditionals that store) run on one
  work-item, the leader (`local_id == 0`), unless they are loops whose iterations are
  independent (`Loop.vector` without reductions): those are spread over the work-items
  (`for (i = lo + local_id; i < hi; i += group size)`).
* A barrier (local and global memory fences) comes before and after every statement that
  writes memory, so a write by one work-item and a read or write of the same element by another
  are always ordered (also across iterations of an enclosing group-code loop). Pure statements
  (bindings, private accumulators) run everywhere.
* Allocations in group code are shared by the group: they become `__local` buffers.

The rules are conservative (a barrier is placed whenever memory was written, whether or not
another work-item will touch it); they only cost time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from plaidc.backends.loopnest.plan import (
    Alloc,
    Call,
    ICmp,
    IConst,
    If,
    IVar,
    LetInt,
    LetScalar,
    Loop,
    Stmt,
    Store,
    iadd,
    imul,
    int_vars,
    walk_stmts,
)
from plaidc.backends.opencl.kernels import BARRIER

_BARRIER = Call(BARRIER, ())


def _writes(stmt: Stmt) -> bool:
    return any(
        isinstance(s, Store) or (isinstance(s, Call) and s.function != BARRIER)
        for s in walk_stmts((stmt,))
    )


@dataclass
class Cooperation:
    """Rewrites group code for a work-group of `size` work-items whose flat local id is the
    integer variable `local_id`."""

    local_id: str
    size: int
    local_allocs: list[Alloc] = field(default_factory=list)

    def distributed(self, stmt: Stmt) -> bool:
        """A region run by some of the work-items (a thread block's points)."""
        return isinstance(stmt, If) and self.local_id in set(int_vars(stmt.cond))

    def contains_distributed(self, stmt: Stmt) -> bool:
        return any(self.distributed(s) for s in walk_stmts((stmt,)))

    def rewrite(self, stmts: Sequence[Stmt]) -> tuple[Stmt, ...]:
        out: list[Stmt] = []
        for s in stmts:
            if self.distributed(s):
                out += [_BARRIER, s, _BARRIER]
            elif isinstance(s, Alloc):
                self.local_allocs.append(s)
                out.append(replace(s, body=self.rewrite(s.body)))
            elif isinstance(s, Loop) and self.contains_distributed(s):
                out.append(replace(s, body=self.rewrite(s.body)))
            elif isinstance(s, If) and self.contains_distributed(s):
                out.append(replace(s, then=self.rewrite(s.then), orelse=self.rewrite(s.orelse)))
            elif not _writes(s):
                out.append(s)
            elif isinstance(s, Loop) and self._spreadable(s):
                step = s.step * self.size
                start = iadd(s.lo, imul(IVar(self.local_id), s.step))
                out += [_BARRIER, replace(s, lo=start, step=step), _BARRIER]
            elif isinstance(s, Loop) and any(
                isinstance(x, Loop) and self._spreadable(x) for x in walk_stmts(s.body)
            ):
                # A uniform loop around a loop worth spreading: every work-item runs it.
                out.append(replace(s, body=self.rewrite(s.body)))
            else:
                leader = ICmp("==", IVar(self.local_id), IConst(0))
                out += [_BARRIER, If(leader, (s,)), _BARRIER]
        return _dedupe(out)

    @staticmethod
    def _spreadable(loop: Loop) -> bool:
        """Independent iterations of straight-line code (no accumulator, no nested control)."""
        if not loop.vector or loop.reductions:
            return False
        return all(isinstance(s, (LetInt, LetScalar, Store)) for s in loop.body)


def _dedupe(stmts: list[Stmt]) -> tuple[Stmt, ...]:
    out: list[Stmt] = []
    for s in stmts:
        if s == _BARRIER and out and out[-1] == _BARRIER:
            continue
        out.append(s)
    return tuple(out)
