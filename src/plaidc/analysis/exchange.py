"""Communication of a program split over MPI ranks, derived from its refinements with isl.

The program's `main` block runs its kernels (its child blocks) in order. Each rank runs its
part of every kernel (`part`: the kernel block restricted to the rank's points, or None where
the rank runs none of it). What a part reads and writes of `main`'s buffers is a footprint
(`access.footprint`): an exact isl set of element coordinates, however deep the accesses are.

`plan_exchange` follows, kernel by kernel, which elements of each buffer every rank holds a
current copy of (`have`) and which ones it is the authority for (`own`: it computed them last,
or it is the root rank holding the program's inputs). Before a kernel, every rank receives
exactly what its part reads and it does not hold, each element from the rank owning it; after
the program, the root receives the outputs it does not hold. Nothing is sent twice and nothing
unread is sent, so the bytes received are the analytic minimum for the partition: the points
of `reads - have` summed over kernels (`ExchangePlan.minimum`).

`check_plan` verifies a plan independently of how it was made: every receive has its send of
the same bytes, no rank sends to itself, and, replaying the transfers, every part finds every
element it reads already on its rank (a removed transfer is caught here). Every receive and
send is non-blocking; a phase waits for its receives, and a send is waited for at a phase no
earlier than its receive's (`send_done_points`), so every wait depends only on messages both of
whose ends every rank posts at that phase or before: a plan whose receives all have their sends
cannot deadlock under MPI's ordering rules (messages of one pair of ranks are told apart by
their tag).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import islpy as isl

from plaidc.analysis.access import footprint, view_box
from plaidc.analysis.domain import DomainCache, format_point, point_count, sample
from plaidc.analysis.space import AnalysisError, dim_names
from plaidc.stripe.ir import Block, RefDir, Refinement


@dataclass(frozen=True)
class PartAccess:
    """The elements (coordinates in `main`'s views, by buffer name) a part reads and writes."""

    reads: dict[str, isl.Set]
    writes: dict[str, isl.Set]


@dataclass(frozen=True)
class Transfer:
    """Elements of `buffer` that rank `src` sends to rank `dst` before kernel `phase` (after
    the last kernel: the gather of the outputs)."""

    phase: int
    src: int
    dst: int
    buffer: str
    elements: isl.Set
    count: int
    nbytes: int
    tag: int


@dataclass(frozen=True)
class ExchangePlan:
    ranks: int
    root: int
    buffers: tuple[Refinement, ...]  # main's views, in main's order
    kernels: tuple[str, ...]
    runs: tuple[tuple[bool, ...], ...]  # [kernel][rank]: the rank runs a part of it
    phases: tuple[tuple[Transfer, ...], ...]  # one per kernel, then the gather
    accesses: tuple[tuple[PartAccess | None, ...], ...]  # [kernel][rank]
    minimum: tuple[int, ...]  # bytes each rank must receive, analytically

    def buffer(self, name: str) -> Refinement:
        return next(b for b in self.buffers if b.into == name)

    def sent(self, rank: int) -> int:
        return sum(t.nbytes for phase in self.phases for t in phase if t.src == rank)

    def received(self, rank: int) -> int:
        return sum(t.nbytes for phase in self.phases for t in phase if t.dst == rank)


@dataclass(frozen=True)
class Storage:
    """What one rank allocates of a buffer: the elements at offsets `start <= o < start +
    elements` of the buffer's full layout (offset `sum(c * stride)`); the rank's code addresses
    them through a base pointer `start` elements before its allocation."""

    start: int
    elements: int


def rank_storage(plan: ExchangePlan, read_reach: int = 0) -> tuple[dict[str, Storage], ...]:
    """Per rank and buffer of `main`, the span of the layout the rank touches: the offsets of
    its footprint (every element its parts read or write, that it sends or receives; the root:
    the whole of the program's inputs and outputs), from isl's exact sets. A buffer the rank's
    parts read extends `read_reach` bytes further, within the buffer: compiled code may load a
    whole vector past the last element it uses (the GEMM reads a narrow B in place, its lanes
    past B's columns unused)."""
    touched: list[dict[str, isl.Set]] = [{} for _ in range(plan.ranks)]
    read: list[set[str]] = [set() for _ in range(plan.ranks)]
    for kernel in plan.accesses:
        for r, acc in enumerate(kernel):
            if acc is not None:
                read[r].update(acc.reads)

    def add(r: int, name: str, elements: isl.Set) -> None:
        mine = touched[r]
        mine[name] = mine[name].union(elements) if name in mine else elements

    for kernel in plan.accesses:
        for r, acc in enumerate(kernel):
            if acc is not None:
                for table in (acc.reads, acc.writes):
                    for name, elements in table.items():
                        add(r, name, elements)
    for phase in plan.phases:
        for t in phase:
            add(t.src, t.buffer, t.elements)
            add(t.dst, t.buffer, t.elements)
    out: list[dict[str, Storage]] = []
    for r in range(plan.ranks):
        spans = {}
        for ref in plan.buffers:
            if r == plan.root and ref.dir != RefDir.NONE:  # it reads or writes them whole
                spans[ref.into] = Storage(0, max(ref.shape.extent, 1))
                continue
            used = touched[r].get(ref.into)
            if used is None or used.is_empty():
                spans[ref.into] = Storage(0, 0)
                continue
            low, high = offset_span(used.coalesce(), ref.shape.strides)
            if ref.into in read[r]:
                itemsize = ref.shape.dtype.byte_size
                last = max(ref.shape.extent, 1) - 1
                high = max(high, min(last, high + -(-read_reach // itemsize)))
            spans[ref.into] = Storage(low, high - low + 1)
        out.append(spans)
    return tuple(out)


def send_points(plan: ExchangePlan) -> dict[int, int]:
    """Per transfer (by tag), the earliest point its sender may send it: after the last kernel
    before the transfer's phase in which the sender's part writes any of its elements (0: from
    the start, the root's inputs). The sender owns the elements from then to the phase: no
    later kernel of it writes them and it receives none of them (it holds them)."""
    points: dict[int, int] = {}
    for phase in plan.phases:
        for t in phase:
            point = 0
            for k in range(t.phase):
                acc = plan.accesses[k][t.src]
                written = None if acc is None else acc.writes.get(t.buffer)
                if written is not None and not written.intersect(t.elements).is_empty():
                    point = k + 1
            points[t.tag] = point
    return points


def _touches(acc: PartAccess | None, name: str, elements: isl.Set, writes_only: bool) -> bool:
    if acc is None:
        return False
    tables = (acc.writes,) if writes_only else (acc.reads, acc.writes)
    return any(name in table and not table[name].intersect(elements).is_empty() for table in tables)


def untouched_before(plan: ExchangePlan, t: Transfer) -> bool:
    """Whether the receiving rank of `t` leaves `t`'s elements alone before `t`'s phase: none of
    its parts of earlier kernels reads or writes them and no earlier transfer sends or brings
    them to it. Then the receive may write them into the rank's buffer at any time before the
    phase (it is posted when the run starts, no copy through a message buffer)."""
    for k in range(t.phase):
        if _touches(plan.accesses[k][t.dst], t.buffer, t.elements, writes_only=False):
            return False
        for u in plan.phases[k]:
            if (
                u.buffer == t.buffer
                and t.dst in (u.src, u.dst)
                and not u.elements.intersect(t.elements).is_empty()
            ):
                return False
    return True


def send_done_points(plan: ExchangePlan, points: dict[int, int]) -> dict[int, int]:
    """Per transfer (by tag), the position by which its send must be complete when it is sent
    straight from the sender's buffer, `points` giving the position it is posted at: the first
    kernel from there on whose part on the sender writes any of its elements, or the first
    phase bringing the sender any of them (position `p`: before kernel `p`'s messages are
    unpacked and the kernel runs; `len(plan.kernels)`: before the gather's are unpacked;
    `len(plan.kernels) + 1`: at the end of the run)."""
    done: dict[int, int] = {}
    end = len(plan.kernels) + 1
    for phase in plan.phases:
        for t in phase:
            point = points.get(t.tag, t.phase)
            due = end
            for p in range(point, end):
                writes = p < len(plan.kernels) and _touches(
                    plan.accesses[p][t.src], t.buffer, t.elements, writes_only=True
                )
                brought = any(
                    u.dst == t.src
                    and u.buffer == t.buffer
                    and not u.elements.intersect(t.elements).is_empty()
                    for u in plan.phases[p]
                )
                if writes or brought:
                    due = p
                    break
            done[t.tag] = due
    return done


def offset_span(elements: isl.Set, strides: Sequence[int]) -> tuple[int, int]:
    """The least and the greatest offset `sum(c * stride)` of the (non-empty, bounded) set."""
    ctx = elements.get_ctx()
    coords = [f"c{d}" for d in range(len(strides))]
    terms = " + ".join(f"{s} * {c}" for s, c in zip(strides, coords, strict=True)) or "0"
    aff = isl.Aff.read_from_str(ctx, f"{{ [{', '.join(coords)}] -> [({terms})] }}")
    low, high = elements.min_val(aff), elements.max_val(aff)
    if not (low.is_int() and high.is_int()):
        raise AnalysisError("a footprint without bounds")
    return low.to_python(), high.to_python()


def main_of(program: Block) -> Block:
    """The `main` block of a program (the root's child tagged `main`)."""
    for stmt in program.stmts:
        if isinstance(stmt, Block) and "main" in stmt.tags:
            return stmt
    raise AnalysisError("the program has no block tagged 'main'")


def part_access(program: Block, part: Block) -> PartAccess:
    """What `part` (a kernel of `main`, or a rank's part of one) reads and writes of `main`'s
    buffers."""
    main = main_of(program)
    alone = dataclasses.replace(main, stmts=(dataclasses.replace(part, deps=()),))
    root = dataclasses.replace(program, stmts=(alone,))
    cache = DomainCache()
    reads: dict[str, isl.Set] = {}
    writes: dict[str, isl.Set] = {}
    used = {ref.from_ for ref in part.refs}
    for ref in main.refs:
        if ref.into not in used:
            continue
        for want, out in ((False, reads), (True, writes)):
            fp = footprint((root, alone), ref.into, reads=not want, writes=want, domains=cache)
            elements = _plain(fp.range())
            if not elements.is_empty():
                out[ref.into] = elements
    return PartAccess(reads, writes)


def _plain(s: isl.Set) -> isl.Set:
    """`s` in an anonymous space (sets of different origins compare)."""
    space = isl.Space.set_alloc(s.get_ctx(), 0, s.dim(isl.dim_type.set))
    return (
        isl.Set.from_basic_set(isl.BasicSet.universe(space))
        .intersect(s.reset_space(space) if s.get_space() != space else s)
        .coalesce()
    )


def whole(ref: Refinement, ctx: isl.Context) -> isl.Set:
    """Every element of view `ref`."""
    return _plain(view_box(ref, ctx))


def first_overlap(
    program: Block, parts: Sequence[Block | None]
) -> tuple[int, int, str, str] | None:
    """Two ranks whose parts write a common element: `(rank, rank, buffer, element)`, or None
    when the parts write disjoint elements (the split is legal)."""
    written = [None if p is None else part_access(program, p).writes for p in parts]
    for r, mine in enumerate(written):
        for q in range(r + 1, len(written)):
            theirs = written[q]
            if mine is None or theirs is None:
                continue
            for name, elements in mine.items():
                if name in theirs:
                    common = elements.intersect(theirs[name])
                    if not common.is_empty():
                        return r, q, name, _element(common)
    return None


def inner_conflict(
    program: Block, parts: Sequence[Block | None]
) -> tuple[int, int, str, str] | None:
    """Two ranks `(reader, writer, view, element)` where one rank's part of a kernel reads an
    element of one of the kernel's own views (its temporaries included: at the same point of the
    kernel block, as each point has its own) that another rank's part writes: such a kernel
    would need communication inside itself. None: each rank's part reads only what its own part
    or the kernel's inputs provide."""
    main = main_of(program)
    cache = DomainCache()
    accesses: list[tuple[dict[str, isl.Set], dict[str, isl.Set]] | None] = []
    for part in parts:
        if part is None:
            accesses.append(None)
            continue
        own = dataclasses.replace(part, deps=())
        alone = dataclasses.replace(main, stmts=(own,))
        root = dataclasses.replace(program, stmts=(alone,))
        reads: dict[str, isl.Set] = {}
        writes: dict[str, isl.Set] = {}
        for ref in part.refs:
            for want, out in ((False, reads), (True, writes)):
                fp = footprint(
                    (root, alone, own), ref.into, reads=not want, writes=want, domains=cache
                )
                # A temporary of the kernel block is one per point of it: only accesses at the
                # same point of the block meet (pairs of point and element).
                pairs = fp.wrap().flatten() if ref.is_allocation else fp.range()
                elements = _plain(pairs)
                if not elements.is_empty():
                    out[ref.into] = elements
        accesses.append((reads, writes))
    for r, mine in enumerate(accesses):
        for q, theirs in enumerate(accesses):
            if q == r or mine is None or theirs is None:
                continue
            for name, read in mine[0].items():
                if name in theirs[1]:
                    common = read.intersect(theirs[1][name])
                    if not common.is_empty():
                        return r, q, name, _element(common)
    return None


def _element(s: isl.Set) -> str:
    point = sample(s)
    if point is None:
        return "?"
    names = dim_names(s.get_space())
    return (
        "[" + ", ".join(str(point.get(n, 0)) for n in names) + "]" if names else format_point(point)
    )


def plan_exchange(
    program: Block,
    parts: Sequence[Sequence[Block | None]],
    root: int,
    by_step: bool = False,
    names: Sequence[str] | None = None,
) -> ExchangePlan:
    """The transfers that give every rank what its parts read (`parts[kernel][rank]`) and the
    root rank the program's outputs; see the module docstring. `by_step`: the elements one rank
    sends another are split by the kernel that computed them (one message each, sent as soon as
    that kernel ran: the chunks of a kernel's parts send their results while the next chunk
    runs). `names`: the kernels' names (default: their parts' blocks')."""
    main = main_of(program)
    ranks = len(parts[0]) if parts else 1
    ctx = isl.DEFAULT_CONTEXT
    state = _State(main, ranks, root, ctx, by_step)
    accesses: list[tuple[PartAccess | None, ...]] = []
    phases: list[tuple[Transfer, ...]] = []
    minimum = [0] * ranks
    for k, kernel_parts in enumerate(parts):
        acc = tuple(None if p is None else part_access(program, p) for p in kernel_parts)
        accesses.append(acc)
        phase: list[Transfer] = []
        for r, a in enumerate(acc):
            if a is None:
                continue
            for name, need in a.reads.items():
                own = a.writes.get(name)
                minimum[r] += state.fetch(k, r, name, need, phase, written=own)
        phases.append(tuple(phase))
        for r, a in enumerate(acc):
            if a is not None:
                for name, elements in a.writes.items():
                    state.wrote(r, name, elements, k)
    gather: list[Transfer] = []
    for ref in main.refs:
        if ref.dir in (RefDir.OUT, RefDir.INOUT):
            minimum[root] += state.fetch(len(parts), root, ref.into, whole(ref, ctx), gather, True)
    phases.append(tuple(gather))
    return ExchangePlan(
        ranks=ranks,
        root=root,
        buffers=main.refs,
        kernels=tuple(names)
        if names is not None
        else tuple(
            next((p.name for p in kp if p is not None), f"kernel_{k}") for k, kp in enumerate(parts)
        ),
        runs=tuple(tuple(p is not None for p in kp) for kp in parts),
        phases=tuple(phases),
        accesses=tuple(accesses),
        minimum=tuple(minimum),
    )


class _State:
    """Per rank and buffer: the elements held (`have`) and owned (`own`)."""

    def __init__(
        self, main: Block, ranks: int, root: int, ctx: isl.Context, by_step: bool = False
    ) -> None:
        self.refs = {ref.into: ref for ref in main.refs}
        self.have: list[dict[str, isl.Set]] = [{} for _ in range(ranks)]
        self.own: list[dict[str, isl.Set]] = [{} for _ in range(ranks)]
        # with `by_step`: per rank and buffer, the elements it owns by the kernel that wrote
        # them (in kernel order; what it owns from the start, the root's inputs, is in none)
        self.by_step = by_step
        self.made: list[dict[str, list[tuple[int, isl.Set]]]] = [{} for _ in range(ranks)]
        self.ranks = ranks
        self.tags = 0
        for ref in main.refs:
            if ref.dir in (RefDir.IN, RefDir.INOUT):
                self.have[root][ref.into] = whole(ref, ctx)
                self.own[root][ref.into] = whole(ref, ctx)

    def _get(self, table: list[dict[str, isl.Set]], r: int, name: str, like: isl.Set) -> isl.Set:
        return table[r].get(name, isl.Set.empty(like.get_space()))

    def fetch(
        self,
        phase: int,
        r: int,
        name: str,
        need: isl.Set,
        out: list[Transfer],
        partial: bool = False,
        written: isl.Set | None = None,
    ) -> int:
        """Plan what rank `r` needs of `need` and does not hold; returns its bytes. Elements
        no rank holds that the part itself `written` are its own (it stores them before it
        loads them)."""
        missing = need.subtract(self._get(self.have, r, name, need)).coalesce()
        if missing.is_empty():
            return 0
        ref = self.refs[name]
        size = ref.shape.dtype.byte_size
        total = point_count(missing) * size
        for s in range(self.ranks):
            if s == r or missing.is_empty():
                continue
            piece = missing.intersect(self._get(self.own, s, name, need)).coalesce()
            if piece.is_empty():
                continue
            for part in self._by_step(s, name, piece):
                count = point_count(part)
                self.tags += 1
                out.append(Transfer(phase, s, r, name, part, count, count * size, self.tags))
            missing = missing.subtract(piece).coalesce()
        if written is not None and not missing.is_empty():
            produced = missing.intersect(written)
            total -= point_count(produced) * size if not produced.is_empty() else 0
            missing = missing.subtract(written).coalesce()
        if not missing.is_empty():
            if not partial:
                raise AnalysisError(
                    f"rank {r} reads elements of '{name}' that no rank computed, e.g. "
                    f"{_element(missing)}"
                )
            total -= point_count(missing) * size  # never written: nothing to gather
        self.have[r][name] = self._get(self.have, r, name, need).union(need).coalesce()
        return total

    def _by_step(self, s: int, name: str, piece: isl.Set) -> list[isl.Set]:
        """`piece` (elements rank `s` owns) as one set, or with `by_step` split by the kernel
        that computed them (what it owned from the start first)."""
        if not self.by_step:
            return [piece]
        steps = [piece.intersect(made).coalesce() for _, made in self.made[s].get(name, [])]
        steps = [part for part in steps if not part.is_empty()]
        rest = piece
        for part in steps:
            rest = rest.subtract(part)
        rest = rest.coalesce()
        return [rest, *steps] if not rest.is_empty() else steps

    def wrote(self, r: int, name: str, elements: isl.Set, step: int) -> None:
        for q in range(self.ranks):
            made = self.made[q].get(name, [])
            self.made[q][name] = [(k, e.subtract(elements).coalesce()) for k, e in made]
            if q == r:
                continue
            for table in (self.have, self.own):
                if name in table[q]:
                    table[q][name] = table[q][name].subtract(elements).coalesce()
        if self.by_step:
            self.made[r][name].append((step, elements))
        for table in (self.have, self.own):
            table[r][name] = self._get(table, r, name, elements).union(elements).coalesce()


# --------------------------------------------------------------------------------------------
# The verifier


def check_plan(plan: ExchangePlan, program: Block) -> list[str]:
    """Every problem of `plan` (empty: sound); see the module docstring."""
    problems: list[str] = []
    ctx = isl.DEFAULT_CONTEXT
    seen: set[tuple[int, int, int, int]] = set()
    for k, phase in enumerate(plan.phases):
        for t in phase:
            where = f"phase {k}: transfer {t.tag} of '{t.buffer}' from rank {t.src} to {t.dst}"
            if t.src == t.dst:
                problems.append(f"{where}: a rank waits on itself")
            if not (0 <= t.src < plan.ranks and 0 <= t.dst < plan.ranks):
                problems.append(f"{where}: no such rank")
            key = (k, t.src, t.dst, t.tag)
            if key in seen:
                problems.append(f"{where}: the tag is used twice")
            seen.add(key)
            size = plan.buffer(t.buffer).shape.dtype.byte_size
            if t.nbytes != point_count(t.elements) * size or t.count * size != t.nbytes:
                problems.append(f"{where}: the send and the receive differ in bytes")
    problems.extend(_replay(plan, ctx))
    return problems


def _replay(plan: ExchangePlan, ctx: isl.Context) -> list[str]:
    """Replay the transfers: every element a part reads must be on its rank by then, and every
    element a transfer sends must be current on the sender."""
    refs = {ref.into: ref for ref in plan.buffers}
    have: list[dict[str, isl.Set]] = [{} for _ in range(plan.ranks)]
    for ref in plan.buffers:
        if ref.dir in (RefDir.IN, RefDir.INOUT):
            have[plan.root][ref.into] = whole(ref, ctx)
    problems: list[str] = []

    def held(r: int, name: str) -> isl.Set:
        return have[r].get(name, isl.Set.empty(whole(refs[name], ctx).get_space()))

    for k, phase in enumerate(plan.phases):
        for t in phase:
            stale = t.elements.subtract(held(t.src, t.buffer))
            if not stale.is_empty():
                problems.append(
                    f"phase {k}: rank {t.src} sends elements of '{t.buffer}' it does not hold,"
                    f" e.g. {_element(stale)}"
                )
        for t in phase:
            have[t.dst][t.buffer] = held(t.dst, t.buffer).union(t.elements).coalesce()
        if k == len(plan.kernels):
            for ref in plan.buffers:
                if ref.dir not in (RefDir.OUT, RefDir.INOUT):
                    continue
                written = isl.Set.empty(whole(ref, ctx).get_space())
                for r in range(plan.ranks):
                    written = written.union(held(r, ref.into))
                lost = written.subtract(held(plan.root, ref.into))
                if not lost.is_empty():
                    problems.append(
                        f"the root rank {plan.root} lacks elements of output '{ref.into}', e.g."
                        f" {_element(lost)}"
                    )
            break
        for r, acc in enumerate(plan.accesses[k]):
            if acc is None:
                continue
            for name, need in acc.reads.items():
                lack = need.subtract(held(r, name))
                if name in acc.writes:
                    lack = lack.subtract(acc.writes[name])
                if not lack.is_empty():
                    problems.append(
                        f"kernel {plan.kernels[k]}: rank {r} reads elements of '{name}' it does"
                        f" not hold, e.g. {_element(lack)}"
                    )
        for r, acc in enumerate(plan.accesses[k]):
            if acc is None:
                continue
            for name, elements in acc.writes.items():
                for q in range(plan.ranks):
                    if q != r and name in have[q]:
                        have[q][name] = have[q][name].subtract(elements)
                have[r][name] = held(r, name).union(elements).coalesce()
    return problems


# --------------------------------------------------------------------------------------------
# Code generation


def scan_ast(elements: isl.Set, statement: str) -> isl.AstNode:
    """A loop nest visiting every element of `elements` once, in lexicographic order (so the
    sender's packing and the receiver's unpacking agree), calling `statement(c0, c1, ...)`."""
    ctx = elements.get_ctx()
    ndims = elements.dim(isl.dim_type.set)
    named = elements.set_tuple_name(statement)
    schedule = isl.Map.identity(isl.Space.map_from_set(named.get_space())).intersect_domain(named)
    schedule = schedule.reset_tuple_id(isl.dim_type.out)
    build = isl.AstBuild.from_context(isl.Set.universe(isl.Space.params_alloc(ctx, 0)))
    ids = isl.IdList.alloc(ctx, ndims)
    for d in range(ndims):
        ids = ids.add(isl.Id(f"c{d}", None, context=ctx))
    build = build.set_iterators(ids)
    return build.node_from_schedule_map(isl.UnionMap.from_map(schedule))


def boxes(elements: isl.Set) -> list[tuple[tuple[int, int], ...]] | None:
    """`elements` as disjoint boxes (per box, the least and greatest coordinate of every
    dimension), in a fixed order; None where some piece is not a box (a strided set)."""
    out = []
    for piece in elements.coalesce().make_disjoint().get_basic_sets():
        box = isl.Set.from_basic_set(piece)
        bounds = []
        hull = isl.Set.universe(box.get_space())
        for d in range(box.dim(isl.dim_type.set)):
            low, high = box.dim_min_val(d), box.dim_max_val(d)
            if not (low.is_int() and high.is_int()):
                return None
            bounds.append((low.to_python(), high.to_python()))
            hull = hull.lower_bound_val(isl.dim_type.set, d, low)
            hull = hull.upper_bound_val(isl.dim_type.set, d, high)
        if not hull.is_equal(box):
            return None
        out.append(tuple(bounds))
    return out


@dataclass(frozen=True)
class Collective:
    """Transfers of one phase that one MPI collective does exactly: `bcast` (one sender, the
    same elements to every other rank) or `allgather` (every rank sends its own elements to
    every other rank, the same elements to each)."""

    kind: str
    buffer: str
    transfers: tuple[Transfer, ...]
    pieces: tuple[Transfer | None, ...]  # per rank, what it contributes (allgather: one each)


def collectives(phase: Sequence[Transfer], ranks: int) -> list[Collective]:
    """The collectives that replace transfers of `phase` exactly (see `Collective`); the
    transfers they cover are those of their `transfers`."""
    if ranks < 3:
        return []  # with two ranks a collective is one message anyway
    out: list[Collective] = []
    by_buffer: dict[str, list[Transfer]] = {}
    for t in phase:
        by_buffer.setdefault(t.buffer, []).append(t)
    for name, group in by_buffer.items():
        senders: dict[int, list[Transfer]] = {}
        for t in group:
            senders.setdefault(t.src, []).append(t)
        # allgather: every rank sends the same elements to every other rank
        if len(senders) == ranks and all(
            _same_to_all(sent, src, ranks) for src, sent in senders.items()
        ):
            every: tuple[Transfer | None, ...] = tuple(senders[r][0] for r in range(ranks))
            out.append(Collective("allgather", name, tuple(group), every))
            continue
        for src, sent in senders.items():
            if _same_to_all(sent, src, ranks):
                one = tuple(sent[0] if r == src else None for r in range(ranks))
                out.append(Collective("bcast", name, tuple(sent), one))
    return out


def _same_to_all(sent: Sequence[Transfer], src: int, ranks: int) -> bool:
    if sorted(t.dst for t in sent) != [r for r in range(ranks) if r != src]:
        return False
    return all(t.elements.is_equal(sent[0].elements) for t in sent[1:])
