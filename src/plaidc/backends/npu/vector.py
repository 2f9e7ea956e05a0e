"""Kernels on the vector unit: layouts, tiles, loads, the value DAG, reductions and stores.

A kernel's indices split into *output* indices (those its store names) and *reduction* indices
(the rest). One tile of the kernel is laid out in UB as rows: one row per output point
(output indices row-major, in the store's order) holding that point's reduction points
(row-major, padded to whole 32-B blocks); a kernel without reduction is one dense row-major
array. For each tile:

1. MTE2 brings the window of each input buffer the tile reads (its exact footprint, from isl,
   rounded out to 32-B blocks) from GM into UB;
2. each load becomes a layout vector: an *alias* of the window when the access is the layout
   itself (elementwise code on same-shaped tensors moves nothing), otherwise a move (`moves`);
3. the intrinsics run as whole-layout vector instructions (`valops`);
4. a reduction fills the positions of non-existent points (constraints) with its identity and
   reduces each row (`plaidc_r{add,max,min}`), giving one element per output point;
5. the store writes the output window: straight from the value when it is the window itself,
   otherwise through a staging window (read from GM first when the tile writes only part of
   it, so bytes other kernels or tiles wrote survive), and MTE3 writes it back.

Tiles cut the output indices (outermost first) so that one tile's buffers fit in its share of UB
(half of it: the next tile's loads overlap this tile's compute); the first tiling whose every
tile fits wins. Only when no such tiling exists is the reduction cut too: later parts combine
their partial results with what the earlier ones stored.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import islpy as isl

from plaidc.backends.c import ast as c
from plaidc.backends.npu.context import Context
from plaidc.backends.npu.fused_ops import ADD_RELU_INSTR, fuse_add_relu
from plaidc.backends.npu.kernels import KConst, Kernel, KLoad, KOp, KStore, error
from plaidc.backends.npu.moves import Placement, Space
from plaidc.backends.npu.ops import (
    Arena,
    Buf,
    Op,
    OutOfMemory,
    call,
    comment,
    elems_per_block,
    offset_buf,
    round_up,
)
from plaidc.backends.npu.placement import CUBE_MEMS, Placed
from plaidc.backends.npu.reindex import one_to_one
from plaidc.backends.npu.staging import Tiler, Window
from plaidc.backends.npu.valops import IntrinsicLowering, Val, ValueEmitter, cast_scalar
from plaidc.backends.npu.vtypes import VType, infer
from plaidc.stripe.ir import Affine, DType

IDENTITY = {"add": 0.0, "mul": 1.0, "max": float("-inf"), "min": float("inf")}
FOLD = {"add": "vadd", "mul": "vmul", "max": "vmax", "min": "vmin"}
INT_IDENTITY = {"add": 0, "mul": 1, "max": -(2**31), "min": 2**31 - 1}


@dataclass(frozen=True)
class Plan:
    """How a kernel maps onto the vector unit."""

    out: tuple[str, ...]  # output indices, slowest first
    red: tuple[str, ...]  # reduction indices, slowest first
    agg: str  # "assign" or the reduction
    align: int  # a padded row is a multiple of this many elements
    types: dict[str, VType]


def _injective(kernel: Kernel, aff: Affine, out: frozenset[str]) -> bool:
    """Whether distinct output points (indices `out`, under the kernel's constraints) store
    to distinct elements through `aff`."""
    ranges = kernel.ranges
    span = 0
    for name, coeff in sorted(aff.terms, key=lambda t: abs(t[1])):
        if abs(coeff) <= span:
            break
        span += abs(coeff) * (ranges[name] - 1)
    else:
        return True  # mixed-radix strides: injective on the whole box
    return one_to_one(kernel, aff, [v for v in ranges if v in out])


def analyse(ctx: Context, kernel: Kernel) -> Plan | None:
    """The kernel's plan, or None when it stores nothing."""
    types = infer(kernel, ctx.buffers)
    stores = kernel.stores()
    if not stores:
        return None
    out_sets = {frozenset(s.access.offset.names()) for s in stores}
    if len(out_sets) > 1:
        raise error(f"{kernel.name}: stores over different index sets", kernel.span)
    out_set = out_sets.pop()
    red = tuple(v for v, _ in kernel.idxs if v not in out_set)
    aggs = {s.agg for s in stores}
    agg = aggs.pop() if len(aggs) == 1 else "mixed"
    if agg == "add" and ctx.buffers[stores[0].access.buffer].dtype is DType.BOOL:
        agg = "max"  # a bool sum is an or: the max of 0/1 values
    for store in stores:
        if not _injective(kernel, store.access.offset, out_set):
            raise error(
                f"{kernel.name}: the store into '{store.access.buffer}' at "
                f"[{store.access.offset}] sends several points to one element along a diagonal; "
                "the NPU backend needs one output element per output point",
                kernel.span,
            )
    if red:
        if agg not in IDENTITY or len(stores) > 1:
            raise error(
                f"{kernel.name}: aggregation '{agg}' over {', '.join(red)} has no NPU vector "
                "reduction (vcadd, vcmax, vcmin and vmul folds serve add, max, min and mul of one "
                "output)",
                kernel.span,
            )
        _check_fibers(kernel, red)
    first = stores[0].access.offset
    order = {v: k for k, (v, _) in enumerate(kernel.idxs)}
    out = tuple(sorted(out_set, key=lambda v: (-abs(first.coeff(v)), order[v])))
    loads = kernel.loads()
    key = loads[0].access.offset if loads else Affine()
    red = tuple(sorted(red, key=lambda v: (-abs(key.coeff(v)), order[v])))
    dtypes = {t.dtype for t in types.values() if t.dtype is not None}
    dtypes |= {ctx.storage[s.access.buffer] for s in kernel.body if isinstance(s, (KLoad, KStore))}
    align = max(elems_per_block(d) for d in dtypes) if dtypes else 8
    return Plan(out, red, agg, align, types)


def _check_fibers(kernel: Kernel, red: tuple[str, ...]) -> None:
    """Every output point that passes the constraints on output indices alone must have a
    contributing point (else it would be written with the reduction's identity)."""
    mixed = [a for a in kernel.constraints if any(v in red for v in a.names())]
    if not mixed:
        return
    sizes = dict(kernel.idxs)
    full = Space(sizes, kernel.constraints).domain()
    outer = Space(sizes, tuple(a for a in kernel.constraints if a not in mixed)).domain()
    positions = [k for k, (v, _) in enumerate(kernel.idxs) if v in red]

    def project(s: isl.Set) -> isl.Set:
        for pos in reversed(positions):
            s = s.project_out(isl.dim_type.set, pos, 1)
        return s

    if not project(full).is_equal(project(outer)):
        raise error(
            f"{kernel.name}: some output elements have no contributing point under the "
            "constraints; the NPU backend reduces every output point it writes",
            kernel.span,
        )


# --------------------------------------------------------------------------------------------
# Tiles


@dataclass(frozen=True)
class Tile:
    """One tile: each index's origin and extent (output indices, then reduction indices)."""

    starts: dict[str, int]
    sizes: dict[str, int]
    partial: bool = False  # a later part of a cut reduction: combine with the output so far

    def local(self, aff: Affine) -> Affine:
        return aff.substitute({v: Affine.var(v) + s for v, s in self.starts.items() if s})


def _sizes_for(total: int, step: int) -> list[int]:
    """Tile extents to try along one index, largest first, aligned to `step` where possible."""
    sizes, t = [], total
    while t > 1:
        t //= 2
        aligned = t // step * step
        sizes.append(aligned if aligned >= step else t)
    sizes.extend([step, 1])
    return sorted({s for s in sizes if 1 <= s < total}, reverse=True)


def _aligned(size: int, step: int) -> int:
    return size // step * step if size >= step else size


def var_tilings(
    names: tuple[str, ...],
    ranges: dict[str, int],
    steps: dict[str, int],
    limit: int,
    pinned: tuple[str, ...] = (),
) -> list[list[dict[str, tuple[int, int]]]]:
    """Tilings of the indices `names` (each a list of tiles `{index: (start, extent)}`), the
    whole box first; the outermost index is cut first, in extents aligned to its step where
    possible. `pinned` indices have extent 1 in every tiling (the pass pipeline's tiles).
    Then every index at once, halved again and again. Tilings of more than `limit` tiles are
    left out."""
    pin = {v: 1 for v in names if v in pinned}
    choices = [{v: ranges[v] for v in names} | pin]
    for k, var in enumerate(names):
        if var in pin:
            continue
        for size in _sizes_for(ranges[var], steps[var]):
            extents = {v: 1 for v in names[:k]} | {var: size}
            choices.append(extents | {v: ranges[v] for v in names[k + 1 :]} | pin)
    free = [v for v in names if v not in pin and ranges[v] > 1]
    for t in range(
        1, max((ranges[v] for v in free), default=1).bit_length() if len(free) > 1 else 0
    ):
        # every index halved t times: square-ish tiles (a transpose's windows are small only
        # when both of its indices are cut)
        sizes = {v: -(-ranges[v] // 2**t) for v in free}
        choices.append(
            {v: ranges[v] for v in names}
            | pin
            | {v: _aligned(n, steps[v]) for v, n in sizes.items()}
        )
    result = []
    for extents in choices:
        grids = [range(0, ranges[v], extents[v]) for v in names]
        if math.prod(len(g) for g in grids) > limit:
            continue
        result.append(
            [
                {v: (o, min(extents[v], ranges[v] - o)) for v, o in zip(names, at, strict=True)}
                for at in itertools.product(*grids)
            ]
        )
    return result


def tilings(
    plan: Plan, kernel: Kernel, ctx: Context, pinned: tuple[str, ...] = ()
) -> Iterator[list[Tile]]:
    """Tilings of the kernel, fewest tiles first; the reduction is cut only when no tiling of
    the output indices alone fits (then partial results are combined through the output).
    `pinned` indices are cut into single points (see `var_tilings`)."""
    ranges, limit = kernel.ranges, ctx.options.max_tiles
    store = kernel.stores()[0]
    g = elems_per_block(ctx.storage[store.access.buffer])
    steps = {v: g // math.gcd(abs(store.access.offset.coeff(v)) or 1, g) for v in plan.out}
    outs = var_tilings(plan.out, ranges, steps, limit, pinned)
    reds = var_tilings(plan.red, ranges, dict.fromkeys(plan.red, plan.align), limit, pinned)
    combos = sorted(
        itertools.product(range(len(outs)), range(len(reds))),
        key=lambda c: (c[1] > 0, len(outs[c[0]]) * len(reds[c[1]]), c),
    )
    for i, j in combos:
        if len(outs[i]) * len(reds[j]) > limit:
            continue
        tiles = []
        for out_tile in outs[i]:
            for k, red_tile in enumerate(reds[j]):
                both = out_tile | red_tile
                starts = {v: s for v, (s, _) in both.items()}
                sizes = {v: n for v, (_, n) in both.items()}
                tiles.append(Tile(starts, sizes, partial=k > 0))
        yield tiles


def placement_note(kernel: Kernel, honoured: set[tuple[str, str]], on_cube: bool = True) -> str:
    """Which copies of a kernel's first tile sit where the pass pipeline placed them
    (`honoured`: (memory, buffer)): its UB windows, and a Cube K step's L1 and L0 buffers, or
    (`on_cube` False: the kernel runs on the vector unit) that those are unused."""
    notes = []
    for mem in ("UB", *CUBE_MEMS):
        placed = kernel.placed_in(mem)
        if mem != "UB" and not placed:
            continue
        if mem != "UB" and not on_cube:
            notes.append((mem, ", ".join(placed)))
            continue
        used = [f"{n} @ {at.offset:#x}" for n, at in placed.items() if (mem, n) in honoured]
        rest = [n for n in placed if (mem, n) not in honoured]
        note = ", ".join(used) if used else "none"
        if rest:
            note += "; chosen here instead: " + ", ".join(rest)
        notes.append((mem, note))
    text = "UB windows at the pass pipeline's offsets (in each tile's half of UB): " + notes[0][1]
    cube = ". ".join(f"{mem}: {note}" for mem, note in notes[1:])
    if cube and on_cube:
        text += ". The Cube's buffers at its offsets (in each K step's half): " + cube
    elif cube:
        text += f". Unused: the Cube's buffers the pipeline placed ({cube}), as this runs on "
        text += "the vector unit"
    return text


def tile_comment(
    k: int, count: int, starts: dict[str, int], sizes: dict[str, int], ranges: dict[str, int]
) -> Op:
    """`/* tile 2 of 4: m in [8, 16) */`, naming the indices the tiling cuts."""
    cut = [v for v in sizes if sizes[v] < ranges[v]]
    where = ", ".join(f"{v} in [{starts[v]}, {starts[v] + sizes[v]})" for v in cut)
    return comment(f"tile {k + 1} of {count}: {where}")


def lower_kernel(ctx: Context, kernel: Kernel) -> list[Op]:
    """The ops computing `kernel` on the vector unit."""
    plan = analyse(ctx, kernel)
    if plan is None:
        return []
    ops = pipeline_tiles_first(kernel, lambda pinned: _lower_tiled(ctx, kernel, plan, pinned))
    if ops is not None:
        return ops
    raise error(
        f"{kernel.name}: no tiling fits: a tile must fit its share of UB "
        f"({ctx.machine.ub_bytes} bytes, [hardware] ub_bytes) and a kernel unrolls at most "
        f"[codegen] max_tiles = {ctx.options.max_tiles} tiles; raise either, or shorten the "
        "reduction",
        kernel.span,
    )


# A lowering on some tiling: its operations and whether it had to cut the tiles it was
# given (the pass pipeline's, or the whole kernel) into smaller ones.
Lowered = tuple[list[Op], bool]


def pipeline_tiles_first(
    kernel: Kernel, lower: Callable[[tuple[str, ...]], Lowered | None]
) -> list[Op] | None:
    """`lower(pinned)` with the pass pipeline's tiles (`kernel.pinned`, cut further when they
    do not fit), else with the backend's own choice; the C says which. None if neither fits."""
    for pinned in [kernel.pinned, ()] if kernel.pinned else [()]:
        lowered = lower(pinned)
        if lowered is not None:
            ops, cut = lowered
            if kernel.pinned:
                ops.insert(0, tiles_chosen(bool(pinned), cut))
            return ops
    return None


def tiles_chosen(pinned: bool, cut: bool, why: str = "") -> Op:
    """The comment saying whose tiles a kernel runs: the pass pipeline's (`pinned`, `cut`
    further to fit the buffers) or the backend's (`why`)."""
    who = "the pass pipeline (tagged inner blocks)" if pinned else "the backend"
    if pinned and cut:
        who += ", cut further by the backend to fit its buffers"
    return comment(f"tiles chosen by {who}{why}")


def cut_further(sizes: dict[str, int], ranges: dict[str, int], pinned: tuple[str, ...]) -> bool:
    """Whether a tile of these `sizes` is smaller than the tiles it was given: one point of
    each `pinned` index and the whole range of the others."""
    return any(v not in pinned and n < ranges[v] for v, n in sizes.items())


def _lower_tiled(
    ctx: Context, kernel: Kernel, plan: Plan, pinned: tuple[str, ...]
) -> Lowered | None:
    """The first tiling (see `tilings`) whose every tile fits UB, lowered; None if none does."""
    for tiles in tilings(plan, kernel, ctx, pinned):
        first = ctx.parity
        try:
            ops: list[Op] = []
            started: set[tuple[int, ...]] = set()  # output tiles some part has written
            for k, tile in enumerate(tiles):
                if len(tiles) > 1:
                    ops.append(tile_comment(k, len(tiles), tile.starts, tile.sizes, kernel.ranges))
                out_tile = tuple(tile.starts[v] for v in plan.out)
                if tile.partial and out_tile not in started:
                    # the earlier parts had no points (padding): this part starts the output
                    tile = dataclasses.replace(tile, partial=False)
                parity = first + k
                lowering = TileLowering(ctx, kernel, plan, tile, ctx.arena("UB", parity))
                try:
                    lowered = lowering.lower()
                except OutOfMemory:
                    if not lowering.placed:
                        raise
                    # the pipeline's placement left the temporaries too little room
                    arena = ctx.arena("UB", parity)
                    lowering = TileLowering(ctx, kernel, plan, tile, arena, placement=False)
                    lowered = lowering.lower()
                if lowered:
                    started.add(out_tile)
                if k == 0 and kernel.placed_in("UB"):
                    honoured = {("UB", name) for name in lowering.tiler.honoured}
                    ops.append(comment(placement_note(kernel, honoured, on_cube=False)))
                ops.extend(lowered)
        except OutOfMemory:
            continue
        ctx.parity = first + len(tiles)
        return ops, cut_further(tiles[0].sizes, kernel.ranges, pinned)
    return None


# --------------------------------------------------------------------------------------------
# One tile


class TileLowering:
    """One tile of a kernel on the vector unit. `arena` is the UB it allocates from: a share
    of its own (`own_share`, the half of UB of the tile's parity) or one it shares (a fused
    epilogue's, in its contraction's tile); `bound` gives buffers whose loads are already in
    UB, in this tile's layout (a fused producer's result). With `placement`, the tile's
    windows (and the values stored straight into an output) go where the pass pipeline placed
    them, when they fit (`_placement`); the outputs' placements are reserved until their
    stores. The loads of the buffers in `keep` are never released: `kept` gives their values
    after `lower` (a fused epilogue's loop-invariant operand, bound in the next tiles)."""

    def __init__(
        self,
        ctx: Context,
        kernel: Kernel,
        plan: Plan,
        tile: Tile,
        arena: Arena,
        bound: dict[str, Val] | None = None,
        placement: bool = True,
        own_share: bool = True,
        keep: frozenset[str] = frozenset(),
    ) -> None:
        self.ctx, self.kernel, self.plan, self.tile = ctx, kernel, plan, tile
        self.keep, self.kept = keep, dict[str, Val]()
        order = [*plan.out, *plan.red]
        cons = tuple(tile.local(a) for a in kernel.constraints)
        self.space = Space({v: tile.sizes[v] for v in order}, cons)
        self.arena = arena  # the tile's share of UB
        self.bound = bound if bound is not None else {}
        self.ops: list[Op] = []
        # Layout: rows of `row` elements, one per output point.
        red_count = 1
        for v in plan.red:
            red_count *= tile.sizes[v]
        self.row = round_up(red_count, plan.align) if plan.red else 1
        self.rows = 1
        for v in plan.out:
            self.rows *= tile.sizes[v]
        self.n = self.rows * self.row
        self.pos = self._dense(plan.out, self.row) + self._dense(plan.red, 1)
        self.out_pos = self._dense(plan.out, 1)
        self.values = IntrinsicLowering(self.n, ctx.repeat_bytes, self.arena, self.ops, kernel.name)
        self.tiler = Tiler(ctx, self.arena, self.ops)
        self.windows: dict[str, tuple[Window, Buf]] = {}
        self.placed = self._placement(own_share) if placement else {}
        # a Cube result's fused epilogue stores the result's rows byte-exact where they are
        # ragged (`staging.Window.exact`), as the Cube's own store does
        self.exact_store = not own_share

    def _placement(self, own_share: bool) -> dict[str, Placed]:
        """Where the pass pipeline placed this tile's windows (`Kernel.placed`), as addresses
        in this tile's share of UB: only for a tile the pipeline chose, whole (one point of the
        pinned indices, every other index whole), in a share of its own, and when the
        placement fits the share."""
        kernel, sizes = self.kernel, self.tile.sizes
        ub = kernel.placed_in("UB")
        if not ub or not own_share or self.tile.partial or self.bound:
            return {}
        pinned, ranges = set(kernel.pinned), kernel.ranges
        if not pinned <= set(sizes):
            return {}
        if any(n != (1 if v in pinned else ranges[v]) for v, n in sizes.items()):
            return {}
        # The pipeline's `place` gives each copy whole vector repeats (`granule`), as the
        # vector unit's layouts take; a window that needs more is put elsewhere.
        rb, base = self.ctx.repeat_bytes, self.arena.base
        placed = {n: Placed(base + at.offset, round_up(at.size, rb)) for n, at in ub.items()}
        if max(at.offset + at.size for at in placed.values()) > base + self.arena.size:
            return {}
        return placed

    def _dense(self, names: tuple[str, ...], unit: int) -> Affine:
        pos, stride = Affine(), unit
        for v in reversed(names):
            pos = pos + Affine.var(v, stride)
            stride *= self.tile.sizes[v]
        return pos

    def _run(self, names: tuple[str, ...]) -> str | None:
        live = [v for v in names if self.tile.sizes[v] > 1]
        return live[-1] if live else None

    def lower(self) -> list[Op]:
        if self.space.is_empty():
            return []
        body = list(self.kernel.body)
        if self.ctx.machine.has(ADD_RELU_INSTR):  # relu(a + b) in one pass (`fused_ops`)
            body = fuse_add_relu(body, self.plan.types)
        last_use: dict[str, int] = {}
        for k, stmt in enumerate(body):
            for name in _uses(stmt):
                last_use[name] = k
        self._load_windows()
        for name in self.kernel.written_buffers():  # outputs' placements wait for them
            at = self.placed.get(name)
            if at is not None and name not in self.windows:
                self.arena.reserve(at.offset, at.size)
        windows = {w for _, w in self.windows.values()}
        # Values stored as they are into a placed output go to its placement (`_store`).
        straight = {} if self.plan.red else self.placed
        into = {
            s.src: straight[s.access.buffer]
            for s in self.kernel.stores()
            if s.access.buffer in straight
        }
        for stmt in reversed(body):  # through copies (`assign`), to the value's producer
            if isinstance(stmt, KOp) and stmt.op in ("assign", "ident") and stmt.dst in into:
                into.setdefault(stmt.args[0], into[stmt.dst])
        vals: dict[str, Val] = {}
        holders: dict[Buf, set[str]] = {}  # buffers this tile allocated for values
        for k, stmt in enumerate(body):
            defined: list[str] = []
            if isinstance(stmt, KLoad):
                with self.values.preferring(into.get(stmt.dst)):
                    vals[stmt.dst] = self._load(stmt)
                if stmt.access.buffer in self.keep:
                    self.kept[stmt.access.buffer] = vals[stmt.dst]
                else:
                    defined.append(stmt.dst)
            elif isinstance(stmt, KConst):
                vals[stmt.dst] = Val("scalar", None, scalar=self.plan.types[stmt.dst].value)
            elif isinstance(stmt, KOp):
                with self.values.preferring(into.get(stmt.dst)):
                    vals[stmt.dst] = self._op(stmt, vals)
                defined.append(stmt.dst)
            else:
                value = vals[stmt.src]
                # The store may clobber the value's buffer if nothing reads it afterwards.
                busy = any(
                    last_use.get(name, -1) > k and vals[name].buf == value.buf for name in vals
                )
                self._store(stmt, value, busy)
            for name in defined:
                buf = vals[name].buf
                kept = any(buf == val.buf for val in self.kept.values())
                if buf is not None and buf not in windows and not vals[name].const and not kept:
                    holders.setdefault(buf, set()).add(name)
            for name in {*_uses(stmt), *defined}:
                if last_use.get(name, k) > k:
                    continue
                buf = vals[name].buf
                if buf is not None and name in holders.get(buf, ()):
                    holders[buf].discard(name)
                    if not holders[buf]:
                        del holders[buf]
                        self.arena.release(buf)
        return self.ops

    # -- loads ----------------------------------------------------------------------------------

    def _load_windows(self) -> None:
        """One UB window per input buffer, with room for the layouts that alias it."""
        by_buffer: dict[str, list[KLoad]] = {}
        for load in self.kernel.loads():
            if load.access.buffer not in self.bound:
                by_buffer.setdefault(load.access.buffer, []).append(load)
        for name, loads in by_buffer.items():
            dtype = self.ctx.storage[name]
            accesses = [self.tile.local(load.access.offset) for load in loads]
            window = self.tiler.window(self.space, name, accesses)
            room = 0
            for load in loads:
                delta = self._alias_offset(load, window, dtype)
                if delta is not None:
                    room = max(room, delta + self.values.vec_bytes(dtype) // dtype.byte_size)
            buf = self.tiler.read_window(window, room, at=self.placed.get(name))
            self.windows[name] = (window, buf)

    def _alias_offset(self, load: KLoad, window: Window, dtype: DType) -> int | None:
        """Element offset in the window where the load's layout starts, if the load *is* the
        layout there (same strides for every index, block-aligned start)."""
        access = window.to_ub(self.space.fold(self.tile.local(load.access.offset)))
        pos = self.space.fold(self.pos)
        same = all(access.coeff(v) == pos.coeff(v) for v in self.space.sizes)
        if same and access.const >= 0 and access.const % elems_per_block(dtype) == 0:
            return access.const
        return None

    def _load(self, load: KLoad) -> Val:
        name = load.access.buffer
        if name in self.bound:
            return self.bound[name]
        dtype = self.ctx.storage[name]
        window, buf = self.windows[name]
        delta = self._alias_offset(load, window, dtype)
        if delta is not None:
            return Val("vec", dtype, buf, offset=delta * dtype.byte_size)
        out = self.values.alloc_vec(dtype, f"load {name}")
        assert out.buf is not None
        access = window.to_ub(self.space.fold(self.tile.local(load.access.offset)))
        src = Placement(buf, dtype, access)
        dst = Placement(out.buf, dtype, self.space.fold(self.pos))
        run = self._run((*self.plan.out, *self.plan.red))
        self.tiler.move(self.space, run, dst, src, (0, self.n), False, f"gather {name}")
        return out

    # -- operations -----------------------------------------------------------------------------

    def _op(self, op: KOp, vals: dict[str, Val]) -> Val:
        t = self.plan.types[op.dst]
        args = [vals[a] for a in op.args]
        if t.is_scalar:
            return Val("scalar", None, scalar=t.value)
        if op.op in ("assign", "ident"):
            return args[0]
        lowering = self.values
        out = lowering.intrinsic(op.op, t, args, [self.plan.types[a] for a in op.args])
        for tmp in lowering.scratch:
            if tmp is not out and tmp.buf is not None:
                self.arena.release(tmp.buf)
        lowering.scratch.clear()
        return out

    # -- stores ---------------------------------------------------------------------------------

    def _as_stored(self, store: KStore, value: Val, private: bool) -> Val:
        """The value as a layout vector of the buffer's lane type, in a buffer the store may
        overwrite when `private` (a bool buffer stores `value != 0`)."""
        lowering = self.values
        name = store.access.buffer
        dtype, target = self.ctx.storage[name], self.ctx.buffers[name].dtype
        if value.kind == "scalar":
            out = lowering.alloc_vec(dtype, "broadcast")
            lowering.dup(out, cast_scalar(cast_scalar(value.scalar, target), dtype))
            return out
        mask = None
        if target is DType.BOOL and value.kind == "vec" and not self.plan.types[store.src].boolean:
            assert value.dtype is not None
            zero = lowering.const_vec(0, value.dtype)
            mask = Val("mask", value.dtype, self.arena.alloc(lowering.mask_bytes(value.dtype)))
            lowering.compare("vcmp_ne", mask, value, zero)
            value = mask
        if value.kind == "mask":
            out = lowering.alloc_vec(dtype, "bool")
            one, zero = lowering.const_vec(1, dtype), lowering.const_vec(0, dtype)
            lowering.select(out, value, one, zero)
            if mask is not None and mask.buf is not None:
                self.arena.release(mask.buf)
            return out
        if value.dtype != dtype:
            out = lowering.alloc_vec(dtype, "conversion")
            lowering.convert(out, value)
            return out
        if private:
            out = lowering.alloc_vec(dtype, "copy")
            lowering.with_scalar("vmuls", out, value, 1)
            return out
        return value

    def _store(self, store: KStore, value: Val, used_later: bool) -> None:
        name = store.access.buffer
        dtype = self.ctx.storage[name]
        plan = self.plan
        if plan.red:
            stored = self._reduce(store, value, used_later, self.placed.get(name))
            red = set(plan.red)
            space = Space(
                {v: self.tile.sizes[v] for v in plan.out},
                tuple(a for a in self.space.constraints if not set(a.names()) & red),
            )
            src_pos = self.out_pos
            if self.tile.partial:
                self._combine(stored, name, dtype, space)
        else:
            with self.values.preferring(self.placed.get(name)):
                stored = self._as_stored(store, value, False)
            space, src_pos = self.space, self.pos
        assert stored.buf is not None
        src = Placement(offset_buf(stored.buf, stored.offset), dtype, space.fold(src_pos))
        access = self.tile.local(store.access.offset)
        self.tiler.write_window(
            space,
            self._run(plan.out),
            name,
            access,
            src,
            self.placed.get(name),
            exact=self.exact_store,
        )

    def _reduce(self, store: KStore, value: Val, used_later: bool, at: Placed | None) -> Val:
        """One element per output point: fill non-existent points with the identity, then
        reduce each row (the value's buffer is folded in place, so it must be private). The
        result goes to `at` when it fits there (the output's placement)."""
        plan = self.plan
        lowering = self.values
        dtype = self.ctx.storage[store.access.buffer]
        count = 1
        for v in plan.red:
            count *= self.tile.sizes[v]
        in_place = bool(self.space.live_constraints) or count > lowering.lanes(dtype)
        stored = self._as_stored(store, value, private=in_place and used_later)
        assert stored.buf is not None
        run = plan.red[-1]
        identity = IDENTITY[plan.agg] if dtype is not DType.I32 else INT_IDENTITY[plan.agg]
        placement = Placement(
            offset_buf(stored.buf, stored.offset), dtype, self.space.fold(self.pos)
        )
        fill = self.ctx.mover.fill_invalid(self.space, run, placement, identity, "identity")
        if fill is not None:
            self.ops.append(fill)
        # fp16 sums accumulate in fp32 lanes and round once, as numpy and the other targets
        # do (an fp16 running sum of 30000 terms drifts by tens); max and min are exact.
        terms, lanes = stored, dtype
        if dtype is DType.FP16 and plan.agg == "add":
            terms, lanes = lowering.alloc_vec(DType.FP32, "fp32 terms"), DType.FP32
            lowering.convert(terms, stored)
        assert terms.buf is not None
        reduced = ValueEmitter(self.rows, self.ctx.repeat_bytes, self.arena, self.ops, "reduced")
        with reduced.preferring(at if lanes is dtype else None):  # else the rounded rows
            out = reduced.alloc_vec(lanes, "reduced").buf
        assert out is not None
        helper = self.ctx.mover.helper(f"r{plan.agg}", lanes)
        args: list[c.Expr | int | str] = [out.ptr(lanes), terms.ptr(), self.rows, self.row, count]
        writes = [out.region(), lowering.region(terms)]
        scratch = None
        if plan.agg == "mul":  # the lanes of each row's last block, one at a time
            scratch = self.arena.alloc(reduced.vec_bytes(lanes), "lane scratch")
            args.append(scratch.ptr(lanes))
            writes.append(scratch.region())
        stmt = call(helper, *args)
        self.ops.append(
            Op("PIPE_V", (stmt,), (lowering.region(terms),), tuple(writes), f"reduce {plan.agg}")
        )
        if scratch is not None:
            self.arena.release(scratch)
        if lanes is dtype:
            return Val("vec", dtype, out)
        self.arena.release(terms.buf)
        with reduced.preferring(at):
            rounded = reduced.alloc_vec(dtype, "reduced")
        reduced.convert(rounded, Val("vec", lanes, out))
        self.arena.release(out)
        return rounded

    def _combine(self, partial: Val, name: str, dtype: DType, space: Space) -> None:
        """`partial` (one element per output point) op= what earlier parts of the cut
        reduction left in the output."""
        access = space.fold(self.tile.local(self.kernel.stores()[0].access.offset))
        window = self.tiler.window(space, name, [access])
        buf = self.tiler.read_window(window)
        reduced = ValueEmitter(self.rows, self.ctx.repeat_bytes, self.arena, self.ops, "combine")
        before = reduced.alloc_vec(dtype, "partial so far")
        assert before.buf is not None
        self.tiler.move(
            space,
            self._run(self.plan.out),
            Placement(before.buf, dtype, space.fold(self.out_pos)),
            Placement(buf, dtype, window.to_ub(access)),
            (0, self.rows),
            False,
            "partial so far",
        )
        reduced.binary(FOLD[self.plan.agg], partial, partial, before)


def _uses(stmt: object) -> list[str]:
    if isinstance(stmt, KOp):
        return list(stmt.args)
    if isinstance(stmt, KStore):
        return [stmt.src]
    return []
