"""Several cores (`[hardware] cores`): which core runs each kernel, and the barriers between.

A Cube kernel's output tiles are split over the cores by `cube` (a loop whose iteration k,
rows of output tiles, runs on core k: `LoopMark.cores`); every other kernel runs on core 0. A
kernel that reads or writes a GM buffer another kernel wrote since the last cross-core barrier
(or writes one it read) waits at a new one (`sync_all_cores`), unless both ran on core 0 only,
which orders them by itself. The simulator's GM race check catches a missing barrier.
"""

from __future__ import annotations

from plaidc.backends.npu.context import Context
from plaidc.backends.npu.ops import Op, begin_core, end_loop, sync_all_cores_op


class CorePlan:
    """The kernels in program order, each on its cores, with the barriers they need."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.read: set[str] = set()  # GM buffers read since the last cross-core barrier
        self.written: set[str] = set()  # ... and written
        self.core0_only = True  # every kernel since the last barrier ran on core 0 only
        self.barriers = 0

    def place(self, ops: list[Op], reads: set[str], writes: set[str]) -> list[Op]:
        """A kernel's ops (`reads` and `writes` its GM buffers) on their cores, after a
        cross-core barrier when it depends on a kernel since the last one."""
        if self.ctx.machine.cores == 1:
            return ops
        split = any(op.mark is not None and op.mark.cores for op in ops)
        out: list[Op] = []
        conflict = (reads | writes) & self.written or writes & self.read
        if conflict and not (self.core0_only and not split):
            out.append(sync_all_cores_op())
            self.barriers += 1
            self.read, self.written, self.core0_only = set(), set(), True
        self.read |= reads
        self.written |= writes
        self.core0_only = self.core0_only and not split
        if split:
            return out + ops
        loop = self.ctx.new_loop()
        return [*out, *begin_core(loop, 0, 1), *ops, end_loop(loop, 1, cores=True)]
