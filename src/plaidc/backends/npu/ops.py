"""The backend's machine-level program: pipe operations with exact memory footprints.

The code generators produce a straight-line list of `Op`s (with marks where the iterations of
a loop begin and end, `loops`). Each runs on one pipe and holds the C
statements that issue its instructions (possibly a loop of instructions, all on that pipe) and
the byte ranges it may read and write in each memory (`Region`s: a superset of what its
instructions touch). Nothing else orders pipes, so `sync.insert_sync` can derive every
set_flag/wait_flag from these footprints alone.

On-chip addresses come from `Arena`s: first-fit allocation inside a window of a memory, aligned
as the machine requires; running out is `OutOfMemory`, which the tile planner catches to try a
smaller tile. No size is hard-coded: capacities and alignments come from the target config's
`[hardware]` table (`NpuMachine`).
"""

from __future__ import annotations

from dataclasses import dataclass

from plaidc.backends.c import ast as c
from plaidc.backends.npu.loops import LoopMark
from plaidc.backends.npu_sim import isa
from plaidc.stripe.ir import DType

# The ISA element type (isa.ELEMENT_TYPES) holding each Stripe type. 8- and 16-bit integer and
# bool buffers keep their width in GM and UB windows, converted to and from int32 lanes there
# (`staging`).
ISA_TYPES = {
    DType.FP16: "f16",
    DType.FP32: "f32",
    DType.I32: "s32",
    DType.I8: "s8",
    DType.U8: "u8",
    DType.I16: "s16",
    DType.U16: "u16",
    DType.BOOL: "u8",
}
C_TYPES = {dtype: isa.ELEMENT_TYPES[t][0] for dtype, t in ISA_TYPES.items()}
# Helper-function suffixes of the lane types.
SUFFIX = {dtype: t for dtype, t in ISA_TYPES.items() if t in isa.LANE_TYPES}
_MEMORY = {m.name: m for m in isa.MEMORY_TABLE}
# The ISA's units (`isa.ENCODING`): DMA bursts and vector strides count 32-B blocks; one vector
# instruction runs at most 255 repeats (a fractal load as many fractals), over a 128-lane mask.
# (A repeat's size is the machine's vector_repeat_bytes.)
BLOCK = isa.BLOCK_BYTES
MAX_REPEAT = isa.MAX_REPEAT
MASK_LANES = isa.MASK_LANES


def elems_per_block(dtype: DType) -> int:
    return BLOCK // dtype.byte_size


def round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


@dataclass(frozen=True)
class Region:
    """Bytes `[lo, hi)` of a memory: `UB`, `L1`, `L0A`, `L0B`, `L0C`, or `GM:<buffer>`."""

    mem: str
    lo: int
    hi: int

    def overlaps(self, other: Region) -> bool:
        return self.mem == other.mem and self.lo < other.hi and other.lo < self.hi


BARRIER = "PIPE_ALL"  # the `pipe` of an op that orders every pipe (a barrier)


@dataclass(frozen=True)
class Op:
    """Instructions of one pipe and the memory they may read and write."""

    pipe: str
    stmts: tuple[c.Stmt, ...]
    reads: tuple[Region, ...] = ()
    writes: tuple[Region, ...] = ()
    note: str = ""
    mark: LoopMark | None = None  # no instructions: where a loop's iteration begins or ends


def comment(text: str) -> Op:
    """An op holding only a comment (no pipe, no memory)."""
    return Op("", (c.Comment(text),))


def begin_iteration(loop: int, index: int, count: int) -> Op:
    """Iteration `index` of loop `loop` (of `count`) starts here (`loops`)."""
    return Op("", (), mark=LoopMark(loop, index, count))


def end_loop(loop: int, count: int, cores: bool = False) -> Op:
    return Op("", (), mark=LoopMark(loop, -1, count, cores))


def begin_core(loop: int, core: int, count: int) -> list[Op]:
    """Iteration `core` of a loop whose iterations run one per core (`LoopMark.cores`): it
    starts with this core's pipes drained, so no flag orders it after another core's ops."""
    return [Op("", (), mark=LoopMark(loop, core, count, True)), barrier_op()]


def barrier_op() -> Op:
    """`pipe_barrier(PIPE_ALL)`: everything before is ordered before everything after."""
    return Op(BARRIER, (call("pipe_barrier", "PIPE_ALL"),))


def sync_all_cores_op() -> Op:
    """The cross-core barrier: every core's work before it is done before any core goes on."""
    return Op(BARRIER, (call("sync_all_cores"),))


class OutOfMemory(Exception):
    """An arena cannot hold a requested buffer."""


@dataclass(frozen=True)
class Buf:
    """An on-chip buffer: `size` bytes at byte `offset` of memory `mem`."""

    mem: str
    offset: int
    size: int

    def region(self, lo: int = 0, hi: int | None = None) -> Region:
        return Region(self.mem, self.offset + lo, self.offset + (self.size if hi is None else hi))

    def ptr(self, dtype: DType | str, byte_offset: int = 0) -> c.Expr:
        """`(__ubuf__ float *)(UB_BASE + 0x100)`, as a C expression."""
        ctype = C_TYPES[dtype] if isinstance(dtype, DType) else dtype
        mem = _MEMORY[self.mem]
        assert mem.base is not None, "on-chip buffers only"
        addr = c.Binary("+", c.Ident(mem.base), c.Literal(hex(self.offset + byte_offset)))
        return c.Cast(f"{mem.qualifier} {ctype} *", addr)


def offset_buf(buf: Buf, byte_offset: int) -> Buf:
    """The part of `buf` from `byte_offset` on, as a buffer of its own."""
    return Buf(buf.mem, buf.offset + byte_offset, buf.size - byte_offset)


class Arena:
    """First-fit allocation in bytes `[base, base + size)` of memory `mem`."""

    def __init__(self, mem: str, base: int, size: int, align: int) -> None:
        self.mem, self.base, self.size, self.align = mem, base, size, align
        self.free: list[tuple[int, int]] = [(base, base + size)]
        self.reserved: list[tuple[int, int]] = []
        self.peak = 0

    def alloc(self, nbytes: int, what: str = "") -> Buf:
        need = round_up(max(nbytes, 1), self.align)
        for k, (lo, hi) in enumerate(self.free):
            if hi - lo >= need:
                self.free[k] = (lo + need, hi)
                if self.free[k][0] == hi:
                    del self.free[k]
                self.peak = max(self.peak, lo + need - self.base)
                return Buf(self.mem, lo, need)
        raise OutOfMemory(f"{self.mem}: no room for {need} bytes ({what})")

    def reserve(self, offset: int, nbytes: int) -> bool:
        """Keep `nbytes` at `offset` from `alloc` until a `claim` inside them (a placement
        whose buffer is made later); False when they are not free."""
        buf = self.claim(offset, nbytes)
        if buf is not None:
            self.reserved.append((buf.offset, buf.offset + buf.size))
        return buf is not None

    def claim(self, offset: int, nbytes: int) -> Buf | None:
        """The buffer at exactly `offset` (a placement chosen before this arena existed), or
        None when those bytes are not free (or reserved) or not aligned. A claim inside a
        reservation ends the reservation."""
        need = round_up(max(nbytes, 1), self.align)
        if offset % self.align:
            return None
        for k, (lo, hi) in enumerate(self.reserved):
            if lo <= offset and offset + need <= hi:
                del self.reserved[k]
                self.release(Buf(self.mem, lo, hi - lo))
                break
        for k, (lo, hi) in enumerate(self.free):
            if lo <= offset and offset + need <= hi:
                rest = [(lo, offset), (offset + need, hi)]
                self.free[k : k + 1] = [(a, b) for a, b in rest if b > a]
                self.peak = max(self.peak, offset + need - self.base)
                return Buf(self.mem, offset, need)
        return None

    def release(self, buf: Buf) -> None:
        self.free.append((buf.offset, buf.offset + buf.size))
        self.free.sort()
        merged: list[tuple[int, int]] = []
        for lo, hi in self.free:
            if merged and merged[-1][1] == lo:
                merged[-1] = (merged[-1][0], hi)
            else:
                merged.append((lo, hi))
        self.free = merged


# --------------------------------------------------------------------------------------------
# C building blocks


def lit(value: int) -> c.Expr:
    return c.Literal(str(value)) if value >= 0 else c.Unary("-", c.Literal(str(-value)))


def call(name: str, *args: c.Expr | int | str) -> c.Stmt:
    """`name(args);` with ints printed as literals and strs as identifiers."""
    exprs = [
        lit(a) if isinstance(a, int) else c.Ident(a) if isinstance(a, str) else a for a in args
    ]
    return c.ExprStmt(c.CallExpr(name, tuple(exprs)))


def scalar_literal(value: float | int, dtype: DType) -> c.Expr:
    """A C literal holding exactly `value` (already rounded to `dtype` by the caller)."""
    if dtype is DType.I32:
        return lit(int(value))
    number = float(value)
    if number != number:
        return c.Literal("NAN")
    if number in (float("inf"), float("-inf")):
        return c.Literal("INFINITY" if number > 0 else "-INFINITY")
    if number == int(number) and abs(number) < 2**53:
        text = f"{int(number)}.0"
        if number == 0 and str(number).startswith("-"):
            text = "-0.0"
    else:
        text = number.hex()  # C99 hex float literal: exact
    return c.Literal(text)


def hoist_independent(ops: list[Op], start: int, first: int) -> None:
    """Move each op of `ops[first:]` that touches no byte the ops from `ops[start]` on (kept
    in place) write, and writes none they read, to just before `ops[start]`, in order: work
    that does not wait for those ops (an epilogue's loads of its other inputs, waiting for a
    Cube result) is issued before them, so that an in-order pipe does it meanwhile. Nothing
    moves past an op without a pipe (a loop mark, a comment) or a barrier."""
    kept, hoisted = list(ops[start:first]), []
    if any(not op.pipe or op.pipe == BARRIER for op in kept):
        return
    for op in ops[first:]:
        if not op.pipe or op.pipe == BARRIER or any(_conflict(op, other) for other in kept):
            kept.append(op)
        else:
            hoisted.append(op)
    ops[start:] = hoisted + kept


def _conflict(op: Op, other: Op) -> bool:
    """Whether the two ops must stay in order: one writes bytes the other reads or writes."""
    return any(w.overlaps(r) for w in op.writes for r in (*other.reads, *other.writes)) or any(
        r.overlaps(w) for r in op.reads for w in other.writes
    )
