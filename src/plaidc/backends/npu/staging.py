"""GM windows in UB: reading a tile's inputs, moving them into layouts, writing its outputs.

Shared by the vector and the Cube lowering. A *window* is the part of a GM buffer one tile
touches, as DMA moves it: whole 32-B blocks, in `rows` bursts of `width` elements whose GM
starts are `stride` elements apart (one burst when that is smallest). Its extent comes from the
exact bounds (isl) of the tile's accesses: the terms of an access whose coefficients are
multiples of the stride pick the row, the others must stay inside one row. So a column block of
a row-major matrix is `rows x width`, not every row in full, and the UB position of an element
stays affine in the tile's indices (`Window.to_ub`).

`write_window` stores a tile's values into a buffer: straight from the value when the value
already is the window, otherwise through a staging window, first read from GM when the tile
writes only some of its elements so that the others (written by other tiles or kernels) survive
the whole-block write back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from plaidc.backends.c import ast as c
from plaidc.backends.npu.context import Context
from plaidc.backends.npu.moves import Placement, Space, choose_path
from plaidc.backends.npu.ops import (
    BLOCK,
    Arena,
    Buf,
    Op,
    Region,
    call,
    elems_per_block,
    offset_buf,
    round_up,
)
from plaidc.backends.npu.placement import Placed
from plaidc.backends.npu.valops import CONVERSIONS, convert_op
from plaidc.backends.npu_sim.isa import ALIGN_DMAS, ENCODING
from plaidc.stripe.ir import Affine, DType

MAX_BURSTS = ENCODING["MAX_NBURST"]  # nBurst's field width (plaidc_npu.h)
MAX_LENBURST = ENCODING["MAX_LENBURST"]  # an exact window's row, in bytes
MAX_SPLIT = 64  # a store's exact windows, one per value of an index, at most (`_split_store`)


def byte_exact(ctx: Context, store: bool) -> bool:
    """Whether the chip moves ragged rows byte-exact (`Window.exact`) from GM to UB (`store`
    False: `copy_gm_to_ubuf_align`) or back (`copy_ubuf_to_gm_align`). These extend NPU.md's
    DMAs (32-B aligned GM, whole-block bursts); a chip that `lacks` them (`npu-strict`) brings
    whole blocks around the rows, and the vector unit lays them out."""
    return ctx.machine.has(ALIGN_DMAS[1] if store else ALIGN_DMAS[0])


@dataclass(frozen=True)
class Window:
    """GM elements `first + r * stride + [0, width)` for `r < rows`, kept in UB as rows of
    `width` elements (`rows == 1`: one contiguous range), or of `pitch` elements when `exact`:
    then each row is one byte-exact burst (`copy_gm_to_ubuf_align`, `copy_ubuf_to_gm_align`)
    from wherever it starts in GM to the start of a block in UB, so rows whose GM starts are
    not whole blocks apart (a ragged matrix's) still land as rows of a matrix."""

    name: str
    first: int
    rows: int
    stride: int
    width: int
    pitch: int = 0  # UB elements from one row to the next (exact windows), else `width`
    exact: bool = False

    @property
    def row_pitch(self) -> int:
        return self.pitch or self.width

    @property
    def elements(self) -> int:
        """The window's elements in UB (an exact window's rows padded to `pitch`)."""
        return self.rows * self.row_pitch

    @property
    def gm_elements(self) -> int:
        """The GM elements the window's transfers touch."""
        return self.rows * self.width

    def to_ub(self, access: Affine) -> Affine:
        """The UB position (in the window) of the element `access` names."""
        rel = access - self.first
        if self.rows == 1:
            return rel
        pitch = self.row_pitch
        pos = Affine.const_(rel.const // self.stride * pitch + rel.const % self.stride)
        for name, coeff in rel.terms:
            step = coeff // self.stride * pitch if coeff % self.stride == 0 else coeff
            pos = pos + Affine.var(name, step)
        return pos


def _bounds(space: Space, aff: Affine) -> tuple[int, int]:
    found = space.bounds(aff)
    assert found is not None, "bounds of an empty tile"
    return found


def _strided(
    space: Space, accesses: list[Affine], stride: int, g: int, first: int
) -> tuple[int, int] | None:
    """`(rows, width)` of a window with this row stride, or None when an access leaves a row."""
    rows, width = 0, 0
    for access in accesses:
        rel = access - first
        row_part = Affine(tuple(t for t in rel.terms if t[1] % stride == 0), 0)
        col_part = Affine(tuple(t for t in rel.terms if t[1] % stride != 0), rel.const % stride)
        col_lo, col_hi = _bounds(space, col_part) if col_part.terms else (col_part.const,) * 2
        if col_lo < 0 or col_hi >= stride:
            return None
        base = rel.const - rel.const % stride
        row_lo, row_hi = _bounds(space, row_part + base) if row_part.terms else (base, base)
        if row_lo < 0:
            return None
        rows = max(rows, row_hi // stride + 1)
        width = max(width, col_hi + 1)
    width = round_up(width, g)
    return (rows, width) if width <= stride else None


@dataclass
class Tiler:
    """What one tile emits into: the context, its UB arena and its op list."""

    ctx: Context
    arena: Arena
    ops: list[Op]
    honoured: set[str] = field(default_factory=set)  # windows put where the pipeline placed them

    def window(
        self,
        space: Space,
        name: str,
        accesses: list[Affine],
        strides: set[int] | None = None,
        pitch: int = 0,
        store: bool = False,
    ) -> Window:
        """The smallest window of buffer `name` holding every element `accesses` reach on the
        tile's points (its rows `strides` apart when given; none: one contiguous range).
        `pitch` > 0 also allows exact windows (`Window.exact`) with rows `pitch` elements
        apart in UB (at least the row's width in whole blocks), where GM's rows are not whole
        blocks apart: the rows the caller lays its matrix out in; only where the chip has the
        byte-exact DMA of that direction (`store`: UB -> GM, else GM -> UB; `byte_exact`)."""
        accesses = [space.fold(a) for a in accesses]
        lo, hi = _bounds(space, accesses[0])
        for access in accesses[1:]:
            more = _bounds(space, access)
            lo, hi = min(lo, more[0]), max(hi, more[1])
        size = self.ctx.gm_type[name].byte_size
        g = elems_per_block(self.ctx.gm_type[name])
        first = max(lo, 0) // g * g
        end = min(round_up(hi + 1, g), round_up(self.ctx.buffers[name].extent, g))
        best = Window(name, first, 1, end - first, end - first)
        if strides is None:
            strides = {abs(k) for a in accesses for _, k in a.terms}
        for stride in sorted(k for k in strides if k * size % BLOCK == 0):
            shape = _strided(space, accesses, stride, g, first)
            if shape is None or not 1 < shape[0] <= MAX_BURSTS:
                continue
            last = first + (shape[0] - 1) * stride + shape[1]
            if shape[0] * shape[1] < best.elements and last <= round_up(
                self.ctx.buffers[name].extent, g
            ):
                best = Window(name, first, shape[0], stride, shape[1])
        if not pitch or self.ctx.storage[name] != self.ctx.gm_type[name]:
            return best
        if not byte_exact(self.ctx, store):
            return best  # NPU.md's strict DMAs: the caller lays the rows out (vector unit)
        if best.rows > 1 and best.width == pitch and best.first == max(lo, 0):
            return best  # already the caller's rows (from the window's first element)
        # Rows `pitch` apart are the caller's matrix (no vector pass to lay it out), so an
        # exact window holding only the tile's elements is taken over any other, even one of
        # fewer elements (in UB: the caller's padding).
        exact: Window | None = None
        start = max(lo, 0)
        for stride in sorted(k for k in strides if k > 1):
            shape = _strided(space, accesses, stride, 1, start)
            if shape is None or not 1 < shape[0] <= MAX_BURSTS:
                continue
            rows, width = shape
            if width * size > MAX_LENBURST:
                continue
            row_pitch = max(pitch, round_up(width, g))
            if start + (rows - 1) * stride + width > self.ctx.buffers[name].extent:
                continue
            if exact is None or rows * row_pitch < exact.elements:
                exact = Window(name, start, rows, stride, width, row_pitch, exact=True)
        if exact is None and best.rows == 1 and best.width != hi + 1 - start:
            span = hi + 1 - start  # one run: its elements, not the whole blocks around them
            if span * size <= MAX_LENBURST:
                exact = Window(name, start, 1, span, span, round_up(span, g), exact=True)
        if exact is None or (
            exact.elements > best.elements and exact.gm_elements != space.point_count()
        ):
            return best
        return exact

    def dma(self, direction: str, window: Window, buf: Buf) -> None:
        """The window between GM and `buf` (UB or L1, in the buffer's lane type), in bursts.
        8/16-bit and bool elements travel at their width through a UB scratch and are converted
        to or from int32 lanes there."""
        lane, gm = self.ctx.storage[window.name], self.ctx.gm_type[window.name]
        if lane == gm:
            self.ops.append(self._transfer(direction, window, buf, gm))
            return
        n, rb = window.elements, self.ctx.repeat_bytes
        scratch = self.arena.alloc(self.lane_room(window.name, n), f"{gm} {window.name}")
        if direction == "in":
            self.ops.append(self._transfer("in", window, scratch, gm))
            self.ops.append(convert_op(CONVERSIONS[gm, lane], buf, lane, scratch, gm, n, rb))
        else:
            self.ops.append(convert_op(CONVERSIONS[lane, gm], scratch, gm, buf, lane, n, rb))
            self.ops.append(self._transfer("out", window, scratch, gm))
        self.arena.release(scratch)

    def lane_room(self, name: str, elements: int) -> int:
        """Elements a UB buffer of `name`'s lanes needs for `elements`: whole conversion
        repeats when the buffer converts at the window."""
        if self.ctx.storage[name] == self.ctx.gm_type[name]:
            return elements
        return round_up(elements, self.ctx.repeat_bytes // 4)

    def _transfer(self, direction: str, window: Window, buf: Buf, dtype: DType) -> Op:
        """One DMA of the window's `dtype` elements between GM and `buf`."""
        size, g = dtype.byte_size, elems_per_block(dtype)
        blocks, gap = window.width // g, (window.stride - window.width) // g
        gm = self.ctx.gm(window.name, window.first)
        lo = window.first * size
        hi = (window.first + (window.rows - 1) * window.stride + window.width) * size
        gm_region = Region(f"GM:{window.name}", lo, hi)
        local = Region(buf.mem, buf.offset, buf.offset + window.elements * size)
        if window.exact:  # byte bursts, GM gaps in bytes, UB gaps in blocks
            nbytes = window.width * size
            gm_gap = (window.stride - window.width) * size
            ub_gap = (window.row_pitch * size - round_up(nbytes, BLOCK)) // BLOCK
            assert buf.mem == "UB", "exact windows go between GM and UB"
            if direction == "in":
                args = (buf.ptr(dtype), gm, 0, window.rows, nbytes, gm_gap, ub_gap)
                stmt = call("copy_gm_to_ubuf_align", *args)
                return Op("PIPE_MTE2", (stmt,), (gm_region,), (local,), f"load {window.name}")
            args = (gm, buf.ptr(dtype), 0, window.rows, nbytes, ub_gap, gm_gap)
            stmt = call("copy_ubuf_to_gm_align", *args)
            return Op("PIPE_MTE3", (stmt,), (local,), (gm_region,), f"store {window.name}")
        if direction == "in":
            intr = "copy_gm_to_ubuf" if buf.mem == "UB" else "copy_gm_to_cbuf"
            stmt = call(intr, buf.ptr(dtype), gm, 0, window.rows, blocks, gap, 0)
            return Op("PIPE_MTE2", (stmt,), (gm_region,), (local,), f"load {window.name}")
        stmt = call("copy_ubuf_to_gm", gm, buf.ptr(dtype), 0, window.rows, blocks, 0, gap)
        return Op("PIPE_MTE3", (stmt,), (local,), (gm_region,), f"store {window.name}")

    def read_window(
        self, window: Window, room: int = 0, lead: int = 0, at: Placed | None = None
    ) -> Buf:
        """The window in a new UB buffer of at least `room` elements, starting `lead` elements
        (whole UB alignment units) into it: a matrix aliasing the window may begin before
        the window's first element (padding). `at`: where the pass pipeline placed it, used
        when the buffer fits there."""
        size = self.ctx.storage[window.name].byte_size
        elements = self.lane_room(window.name, max(window.elements + lead, room))
        buf = self.placed_or_new(elements * size, window.name, at)
        self.dma("in", window, offset_buf(buf, lead * size))
        return buf

    def placed_or_new(self, nbytes: int, name: str, at: Placed | None) -> Buf:
        """`nbytes` for buffer `name`'s window at the placement `at` (its offset an absolute
        address in the arena's memory) when they fit there and are free, else wherever the
        arena has room."""
        if at is not None and nbytes <= at.size:
            buf = self.arena.claim(at.offset, nbytes)
            if buf is not None:
                self.honoured.add(name)
                return buf
        return self.arena.alloc(nbytes, f"window {name}")

    def move(
        self,
        space: Space,
        run: str | None,
        dst: Placement,
        src: Placement,
        window: tuple[int, int],
        keep: bool,
        note: str,
    ) -> None:
        """`moves.Mover.move` with a scratch from this tile's arena when it needs one."""
        scratch = None
        if choose_path(space, run, dst.pos, src.pos, dst.dtype) == "spread":
            g = elems_per_block(dst.dtype)
            cap = max(g, self.arena.size // 8 // BLOCK // g * g)
            per_pass = min(round_up(window[1] - window[0], g), cap)
            scratch = self.arena.alloc(per_pass * BLOCK, "move scratch")
        self.ops.append(
            self.ctx.mover.move(
                space, run, dst, src, window=window, keep=keep, scratch=scratch, note=note
            )
        )
        if scratch is not None:
            self.arena.release(scratch)

    def covers(self, space: Space, window: Window) -> bool:
        """Whether a store at every point of `space` (one element each, injective) writes every
        element of `window` that exists (the padding after a buffer's last element needs no
        keeping), so the window need not be read from GM first."""
        valid = window.gm_elements
        if window.rows == 1:
            valid = min(window.width, self.ctx.buffers[window.name].extent - window.first)
        return space.point_count() == valid

    def _sends(self, space: Space, access: Affine, src: Placement, window: Window) -> bool:
        """Whether the value `src` is `window` as it is (the store is one transfer)."""
        ub_pos = window.to_ub(space.fold(access))
        same = all(ub_pos.coeff(v) == src.pos.coeff(v) for v in space.sizes)
        return same and ub_pos.const == src.pos.const == 0 and self.covers(space, window)

    def _exact_rows(self, space: Space, name: str, access: Affine, src: Placement) -> Window | None:
        """An exact window (`Window.exact`) that is the value's rows, or None: rows of its
        largest stride, the narrowest rows, or rows of any one index among several (a conv's
        output rows, `x` and `y` by channels)."""
        pitch = max((k for v, k in src.pos.terms if space.sizes.get(v, 1) > 1), default=0)
        tries: list[tuple[set[int] | None, int]] = [(None, pitch), (None, 1)]
        steps = sorted({abs(k) for _, k in space.fold(access).terms})
        tries += [({step}, 1) for step in steps]
        for strides, row_pitch in tries:
            found = self.window(space, name, [access], strides, pitch=row_pitch, store=True)
            if self._sends(space, access, src, found):
                return found
        return None

    def _split_store(self, space: Space, name: str, access: Affine, src: Placement) -> Op | None:
        """The store as one exact window (`_exact_rows`) per value of one index (the one of
        fewest values, at most `MAX_SPLIT`), all in one op, where no single window is the
        value's rows: a conv's output tile of a few columns `y` of every row `x` is rows `x`
        per `y`, which two levels of bursts would take. None where no index does it."""
        live = sorted((v for v, n in space.sizes.items() if n > 1), key=lambda v: space.sizes[v])
        size = self.ctx.storage[name].byte_size
        for var in live:
            if space.sizes[var] > MAX_SPLIT:
                break
            stmts: list[c.Stmt] = []
            reads: list[Region] = []
            writes: list[Region] = []
            for x in range(space.sizes[var]):
                fixed = {var: Affine.const_(x)}
                sub = Space(
                    {v: 1 if v == var else n for v, n in space.sizes.items()},
                    tuple(con.substitute(fixed) for con in space.constraints),
                )
                if sub.is_empty():
                    continue
                pos = src.pos.substitute(fixed)
                if (src.buf.offset + pos.const * size) % BLOCK:
                    break  # an exact window's UB side starts on a block (copy_ubuf_to_gm_align)
                part = Placement(offset_buf(src.buf, pos.const * size), src.dtype, pos - pos.const)
                window = self._exact_rows(sub, name, access.substitute(fixed), part)
                if window is None:
                    break
                op = self._transfer("out", window, part.buf, self.ctx.storage[name])
                stmts.extend(op.stmts)
                reads.extend(op.reads)
                writes.extend(op.writes)
            else:
                if stmts:
                    return Op(
                        "PIPE_MTE3", tuple(stmts), tuple(reads), tuple(writes), f"store {name}"
                    )
        return None

    def write_window(
        self,
        space: Space,
        run: str | None,
        name: str,
        access: Affine,
        src: Placement,
        at: Placed | None = None,
        exact: bool = False,
    ) -> None:
        """Store `src` (positions over `space`'s indices) into buffer `name` at `access`, for
        every point of `space` (which has only the store's indices). `exact`: the window may
        be an exact one (`Window.exact`) with the rows of `src` (its largest stride)."""
        dtype = self.ctx.storage[name]
        window = self.window(space, name, [access])
        if exact and not self._sends(space, access, src, window):
            found = self._exact_rows(space, name, access, src)
            if found is not None:
                window = found
            else:
                split = self._split_store(space, name, access, src)
                if split is not None:
                    self.ops.append(split)
                    return
        access = space.fold(access)
        covered = self.covers(space, window)
        ub_pos = window.to_ub(access)
        same = all(ub_pos.coeff(v) == src.pos.coeff(v) for v in space.sizes)
        if covered and same and ub_pos.const == src.pos.const == 0:
            self.dma("out", window, src.buf)  # the value is the window
            if at is not None and (src.buf.mem, src.buf.offset) == ("UB", at.offset):
                self.honoured.add(name)
            return
        room = self.lane_room(name, window.elements)
        staging = self.placed_or_new(room * dtype.byte_size, name, at)
        if not covered:  # keep what other tiles and kernels wrote around this tile's elements
            self.dma("in", window, staging)
        dst = Placement(staging, dtype, ub_pos)
        self.move(space, run, dst, src, (0, window.elements), not covered, f"scatter {name}")
        self.dma("out", window, staging)
