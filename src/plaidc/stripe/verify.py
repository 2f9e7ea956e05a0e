"""The Stripe verifier: every well-formedness rule of STRIPE.md, in one place.

`verify(program)` returns every problem found as a located `Diagnostic` (an empty list means the
program is well formed); `verify_or_raise` raises them together as one `CompileError`. Messages
name the block by its path from the program (`main/kernel_0`; an unnamed block by its statement
position, `[0]`) and the refinement, scalar or index at fault.

Checks, per block:

1. Names: indices and refinements are unique within the block; a refinement's `from` names a
   refinement of the parent block (at the root it may name a program parameter); loads, stores
   and Specials name refinements of this block; scalars are defined before use and assigned once
   (SSA per block body); dependencies point at earlier statements; intrinsic and Special names
   are known.
2. Scopes: refinement accesses and locations, constraints and `load_index` use only this block's
   indices; an index's start uses only the parent's indices (at the root, none).
3. Shapes: access rank == interior rank == the parent view's rank, as many strides as sizes,
   sizes and ranges not negative, a view has its parent's dtype, aggregation is one of
   `add mul max min assign` or absent, stores and Special outputs go to a refinement that may
   write (`out`, `inout` or `none`), and a writing view (`out`/`inout`) does not refine an `in`
   view. Loads are not restricted by direction: PlaidML's own fused dumps read back `out` views.
4. Bounds (isl): every element a statement touches (element 0 of a loaded/stored view, the
   whole view of a Special), followed up through the views it refines to the owning buffer,
   lies inside the view at every level, for every point of the full chain domain. Views may
   stick out of their parents (halos); only elements reached count.
5. Aggregation (isl): a view with `assign` (or no) aggregation that refines a parent view is
   stored to injectively: no two distinct points of one block execution store the same element
   (only provable violations are reported), unless both store the same point-independent value
   (one store statement whose value is computed only from constants and from loads that every
   point makes alike, `plaidc.stripe.uses.point_independent_stores`), as PlaidML's `#zero`
   blocks do.
6. Races (isl, STRIPE.md semantics rule 4): no point of a block reads an element of a buffer
   owned above it that another point of the same block execution writes (through any of the
   block's refinements, so aliasing views meet), since points run in no defined order.

The polyhedral checks use `plaidc.analysis`; they are skipped where checks 1-3 already failed in
a way that makes the question meaningless (an unknown name, a rank mismatch).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

import islpy as isl

from plaidc.analysis import (
    AnalysisError,
    AnalysisTooComplex,
    DomainCache,
    LevelAccess,
    format_point,
    project_to_depth,
    sample,
    sample_pair,
    sharing_points,
    statement_accesses,
    trace,
)
from plaidc.diagnostics import CompileError, Diagnostic, Span
from plaidc.stripe.ir import (
    AGG_OPS,
    INTRINSICS,
    SPECIALS,
    Affine,
    Block,
    Intrinsic,
    Load,
    LoadIndex,
    RefDir,
    Refinement,
    Special,
    Statement,
    Store,
    arity_error,
)
from plaidc.stripe.printer import format_affine
from plaidc.stripe.uses import (
    location_affines,
    point_independent_stores,
    scalar_inputs,
    scalar_outputs,
)

__all__ = ["verify", "verify_or_raise"]


def verify(program: Block) -> list[Diagnostic]:
    """All well-formedness problems of `program` (empty when it is valid): checks 1-4 in program
    order, then the aggregation (5) and race (6) findings, outer blocks first."""
    checker = _Verifier()
    points = 1
    for idx in program.idxs:
        points *= idx.range
    if points != 1:
        checker.error(
            f"block '{_root_label(program)}': the program block must have exactly one point; "
            f"its indices have {points}",
            program.span,
        )
    checker.walk((program,), (_root_label(program),), ((),))
    checker.check_assign_outputs()
    checker.check_aggregations()
    checker.check_shared()
    return checker.diagnostics


def verify_or_raise(program: Block) -> None:
    """Raise a CompileError carrying every diagnostic of `verify(program)`, if there is any."""
    diagnostics = verify(program)
    if diagnostics:
        raise CompileError(diagnostics)


# --------------------------------------------------------------------------------------------
# Naming things in messages


def _root_label(program: Block) -> str:
    return program.name or "<program>"


Path = tuple[int, ...]  # statement positions from the root to a block


def _child_label(parent_labels: Sequence[str], child: Block, position: int) -> str:
    own = child.name or f"[{position}]"
    # Paths start below the program: `main/kernel_0`, not `stripe_program/main/kernel_0`.
    return own if len(parent_labels) == 1 else f"{parent_labels[-1]}/{own}"


def _scalar(name: str) -> str:
    return name if name.startswith("$") else f"${name}"


def _ints(values: Sequence[int]) -> str:
    return "(" + ", ".join(str(v) for v in values) + ")"


def _stmt_kind(stmt: Statement) -> str:
    if isinstance(stmt, Load):
        return "load"
    if isinstance(stmt, Store):
        return "store"
    if isinstance(stmt, Special):
        return f"special '{stmt.name}'"
    return type(stmt).__name__.lower()


# --------------------------------------------------------------------------------------------
# The walk


@dataclass
class _AssignTarget:
    """The stores reaching one `assign` view, collected over all leaves below it (with every
    other `assign` view of the same parent view in that block: aliasing views meet here)."""

    label: str
    depth: int
    ref: Refinement
    elements: isl.Map
    # Stores of one point-independent value (by leaf and statement): their points may share.
    same_value: dict[tuple[Path, int], isl.Map] = field(default_factory=dict)

    def conflicts(self) -> tuple[isl.Map, isl.Map]:
        """Pairs of distinct points storing a common element where not both store the same
        point-independent value, and every element stored (to name the common one)."""
        pairs = sharing_points(self.elements, self.depth)
        same = list(self.same_value.values())
        for k, first in enumerate(same):
            pairs = pairs.union(sharing_points(self.elements, self.depth, first))
            for second in same[k + 1 :]:
                pairs = pairs.union(sharing_points(first, self.depth, second))
        return pairs, _union([self.elements, *same])


@dataclass
class _Aggregations:
    """Per aggregation of the views of one parent view in one block, the first such view and
    the elements they store into: two aggregations must not meet on an element."""

    label: str
    depth: int
    by_agg: dict[str, tuple[Refinement, isl.Map]] = field(default_factory=dict)


@dataclass
class _Verifier:
    """One verification run: the diagnostics so far and the isl objects shared by its checks
    (a fresh `DomainCache` per run, nothing global)."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    domains: DomainCache = field(default_factory=DomainCache)
    # Blocks (by id) whose chain domain cannot be built: isl checks below them are skipped.
    # Blocks are keyed by their position path from the root (not by object identity: a pass may
    # put one Block object at several places), refinements by (block path, name).
    broken: set[Path] = field(default_factory=set)
    reported_bounds: set[tuple[Path, str]] = field(default_factory=set)
    assign_targets: dict[tuple[Path, Path, str], _AssignTarget] = field(default_factory=dict)
    aggregations: dict[tuple[Path, Path, str], _Aggregations] = field(default_factory=dict)
    shared: dict[tuple[Path, Path, str], _Shared] = field(default_factory=dict)

    def error(self, message: str, span: Span | None) -> None:
        self.diagnostics.append(Diagnostic(message, span))

    def walk(
        self, chain: tuple[Block, ...], labels: tuple[str, ...], paths: tuple[Path, ...]
    ) -> None:
        block = chain[-1]
        parent = chain[-2] if len(chain) > 1 else None
        label = labels[-1]
        domain_ok = self.check_indices(block, parent, label, labels)
        self.check_refinements(block, parent, label, labels)
        self.check_statements(block, label)
        path = paths[-1]
        if not domain_ok or (parent is not None and path[:-1] in self.broken):
            self.broken.add(path)
        uniform = point_independent_stores(block)
        for position, stmt in enumerate(block.stmts):
            if isinstance(stmt, Block):
                child_label = _child_label(labels, stmt, position)
                self.walk((*chain, stmt), (*labels, child_label), (*paths, (*path, position)))
            elif path not in self.broken:
                self.check_accesses(chain, labels, paths, stmt, position, uniform.get(position))

    # ---- checks 1-3 --------------------------------------------------------------------------

    def check_indices(
        self, block: Block, parent: Block | None, label: str, labels: Sequence[str]
    ) -> bool:
        """Check the index list and the constraints; False when the block's domain cannot be
        built (a name out of scope)."""
        before = len(self.diagnostics)
        seen: set[str] = set()
        parent_names = {i.name for i in parent.idxs} if parent is not None else set()
        where = f"the parent block '{labels[-2]}'" if len(labels) > 1 else "an enclosing block"
        for idx in block.idxs:
            span = idx.span or block.span
            if idx.name in seen:
                self.error(f"block '{label}': duplicate index '{idx.name}'", span)
            seen.add(idx.name)
            if idx.range < 0:
                self.error(f"block '{label}': index '{idx.name}' has negative range", span)
            for name in idx.affine.names():
                if name not in parent_names:
                    self.error(
                        f"block '{label}': index '{idx.name}' starts at "
                        f"'{format_affine(idx.affine)}', but '{name}' is not an index of "
                        f"{where}",
                        span,
                    )
        names = {i.name for i in block.idxs}
        for con in block.constraints:
            for name in con.affine.names():
                if name not in names:
                    self.error(
                        f"block '{label}': constraint '{format_affine(con.affine)} >= 0' uses "
                        f"'{name}', which is not an index of this block",
                        con.span or block.span,
                    )
        domain_ok = len(self.diagnostics) == before
        for affine in location_affines(block.location):
            self.check_scope(affine, names, f"block '{label}': location", block.span)
        return domain_ok

    def check_scope(self, affine: Affine, names: set[str], what: str, span: Span | None) -> None:
        for name in affine.names():
            if name not in names:
                self.error(
                    f"{what} uses '{name}', which is not an index of this block",
                    span,
                )

    def check_refinements(
        self, block: Block, parent: Block | None, label: str, labels: Sequence[str]
    ) -> None:
        names = {i.name for i in block.idxs}
        seen: set[str] = set()
        for ref in block.refs:
            span = ref.span or block.span
            what = f"block '{label}': refinement '{ref.into}'"
            if ref.into in seen:
                self.error(f"block '{label}': duplicate refinement '{ref.into}'", span)
            seen.add(ref.into)
            for affine in ref.access:
                self.check_scope(affine, names, f"{what}: access '{format_affine(affine)}'", span)
            for affine in location_affines(ref.location):
                self.check_scope(affine, names, f"{what}: location", span)
            shape = ref.shape
            if len(shape.sizes) != len(shape.strides):
                self.error(
                    f"{what} has {len(shape.sizes)} sizes but {len(shape.strides)} strides", span
                )
            if len(ref.access) != shape.ndims:
                self.error(
                    f"{what} has {len(ref.access)} access dimensions but its shape has "
                    f"{shape.ndims}",
                    span,
                )
            if any(s < 0 for s in shape.sizes):
                self.error(f"{what} has a negative size {_ints(shape.sizes)}", span)
            if ref.agg_op is not None and ref.agg_op not in AGG_OPS:
                self.error(
                    f"{what} has unknown aggregation '{ref.agg_op}' (expected one of "
                    f"{', '.join(AGG_OPS)})",
                    span,
                )
            if parent is None or ref.from_ is None:
                continue
            source = parent.ref(ref.from_)
            if source is None:
                self.error(
                    f"{what} refines '{ref.from_}', which is not a refinement of the parent "
                    f"block '{labels[-2]}'",
                    span,
                )
                continue
            of = f"'{source.into}' in block '{labels[-2]}'"
            if source.shape.ndims != shape.ndims:
                self.error(
                    f"{what} has rank {shape.ndims} but {of} has rank {source.shape.ndims}", span
                )
            if source.shape.dtype != shape.dtype:
                self.error(
                    f"{what} has type {shape.dtype} but {of} has type {source.shape.dtype}",
                    span,
                )
            if ref.dir.writes and source.dir == RefDir.IN:
                self.error(f"{what} is '{ref.dir}' but refines {of}, which is 'in'", span)

    def check_statements(self, block: Block, label: str) -> None:
        defined: set[str] = set()
        refs = {r.into: r for r in block.refs}
        for position, stmt in enumerate(block.stmts):
            span = stmt.span or block.span
            for dep in stmt.deps:
                if not 0 <= dep < position:
                    self.error(
                        f"block '{label}': statement {position} depends on statement {dep}, "
                        f"which does not precede it",
                        span,
                    )
            if isinstance(stmt, Block):
                continue
            if isinstance(stmt, Intrinsic) and stmt.name not in INTRINSICS:
                self.error(f"block '{label}': unknown intrinsic '{stmt.name}'", span)
            elif isinstance(stmt, Intrinsic) and arity_error(stmt.name, len(stmt.inputs)):
                self.error(f"block '{label}': {arity_error(stmt.name, len(stmt.inputs))}", span)
            elif isinstance(stmt, Intrinsic) and len(stmt.outputs) != 1:
                self.error(
                    f"block '{label}': intrinsic '{stmt.name}' has {len(stmt.outputs)} outputs; "
                    "every intrinsic has one",
                    span,
                )
            if isinstance(stmt, Special) and stmt.name not in SPECIALS:
                self.error(f"block '{label}': unknown special '{stmt.name}'", span)
            for name, writes, _ in statement_accesses(stmt):
                ref = refs.get(name)
                kind = _stmt_kind(stmt)
                if ref is None:
                    self.error(
                        f"block '{label}': {kind} names '{name}', which is not a refinement "
                        f"of this block",
                        span,
                    )
                elif writes and ref.dir == RefDir.IN:
                    self.error(
                        f"block '{label}': {kind} writes to refinement '{name}', which is 'in'",
                        span,
                    )
            if isinstance(stmt, LoadIndex):
                names = {i.name for i in block.idxs}
                self.check_scope(
                    stmt.affine,
                    names,
                    f"block '{label}': load_index '{format_affine(stmt.affine)}'",
                    span,
                )
            for name in scalar_inputs(stmt):
                if name not in defined:
                    self.error(
                        f"block '{label}': scalar '{_scalar(name)}' is used before it is defined",
                        span,
                    )
            for name in scalar_outputs(stmt):
                if name in defined:
                    self.error(
                        f"block '{label}': scalar '{_scalar(name)}' is assigned more than once",
                        span,
                    )
                defined.add(name)

    # ---- check 4: accesses stay inside their views --------------------------------------------

    def check_accesses(
        self,
        chain: tuple[Block, ...],
        labels: tuple[str, ...],
        paths: tuple[Path, ...],
        stmt: Statement,
        position: int,
        uniform: bool | None = None,
    ) -> None:
        """`stmt` is at `position` in `chain[-1]`. `uniform`: for a store of a point-independent
        value, whether that value is a constant (see `point_independent_stores`); None for any
        other statement."""
        block = chain[-1]
        for name, writes, whole_view in statement_accesses(stmt):
            if block.ref(name) is None:
                continue
            try:
                levels = trace(chain, name, whole_view, self.domains)
            except AnalysisTooComplex as err:
                ref = block.ref(name)
                self.error(f"cannot verify: {err}", ref.span if ref else None)
                continue
            except AnalysisError:
                # An unresolved name or a rank mismatch, reported by checks 1-3.
                continue
            for k, level in enumerate(levels):
                key = (paths[level.depth], level.ref.into)
                if key not in self.reported_bounds and not level.outside.is_empty():
                    self.reported_bounds.add(key)
                    self.report_bounds(levels, k, labels, stmt, name)
            if writes:
                store = (paths[-1], position) if uniform is not None else None
                self.collect_assign_writes(levels, labels, paths, store, bool(uniform))
            self.collect_shared(levels, labels, paths, writes)

    def report_bounds(
        self,
        levels: list[LevelAccess],
        k: int,
        labels: Sequence[str],
        stmt: Statement,
        name: str,
    ) -> None:
        level = levels[k]
        found = sample_pair(level.outside)
        assert found is not None
        index_part, reached = found
        if level.flat:
            where = f"flat offset {reached.get('@o')}"
        else:
            where = f"element {list(reached.values())}"
        leaf_label = labels[levels[0].depth]
        via = f"the {_stmt_kind(stmt)} of '{name}' in block '{leaf_label}'"
        view = f"'{level.ref.into}' {_ints(level.ref.shape.sizes)}"
        if k == 0:
            self.error(
                f"block '{leaf_label}': {via} reaches outside refinement {view}: {where} at "
                f"point {format_point(index_part)}",
                stmt.span,
            )
            return
        child = levels[k - 1]
        self.error(
            f"block '{labels[child.depth]}': refinement '{child.ref.into}' reaches outside its "
            f"parent {view} of block '{labels[level.depth]}': {where} at point "
            f"{format_point(index_part)}, by {via}",
            child.ref.span or stmt.span,
        )

    # ---- check 5: assign outputs are injective ------------------------------------------------

    def collect_assign_writes(
        self,
        levels: list[LevelAccess],
        labels: Sequence[str],
        paths: Sequence[Path],
        store: tuple[Path, int] | None = None,
        constant: bool = False,
    ) -> None:
        """`store`: the leaf and statement when it stores a point-independent value (the same
        at every point of the leaf block; at every enclosing level too when `constant`): its
        points do not conflict with one another there (STRIPE.md semantics rule 3)."""
        for k, (child, parent) in enumerate(pairwise(levels)):
            ref = child.ref
            reached = project_to_depth(parent.elements, child.depth)
            assert isinstance(reached, isl.Map)
            key = (paths[child.depth], paths[parent.depth], parent.ref.into)
            aggs = self.aggregations.setdefault(
                key, _Aggregations(labels[child.depth], child.depth)
            )
            agg = ref.agg_op or "assign"
            first, elements = aggs.by_agg.get(agg, (ref, None))
            aggs.by_agg[agg] = (first, reached if elements is None else elements.union(reached))
            if agg != "assign":
                continue
            target = self.assign_targets.get(key)
            if target is None:
                target = _AssignTarget(
                    labels[child.depth], child.depth, ref, reached.subtract(reached)
                )
                self.assign_targets[key] = target
            if store is not None and (k == 0 or constant):
                same = target.same_value.get(store)
                target.same_value[store] = reached if same is None else same.union(reached)
            else:
                target.elements = target.elements.union(reached)

    def check_aggregations(self) -> None:
        """Views of one parent view in one block storing into one element, within one execution
        of the block, under different aggregations (`:add` and `:max`, `assign` and `:add`):
        the result is undefined."""
        for aggs in sorted(self.aggregations.values(), key=lambda a: a.depth):
            stored = list(aggs.by_agg.items())
            for k, (agg, (ref, elements)) in enumerate(stored):
                for other_agg, (other, other_elements) in stored[k + 1 :]:
                    same_point = elements.intersect(other_elements)
                    if (
                        same_point.is_empty()
                        and sharing_points(elements, aggs.depth, other_elements).is_empty()
                    ):
                        continue
                    self.error(
                        f"block '{aggs.label}': refinements '{ref.into}' ({agg}) and "
                        f"'{other.into}' ({other_agg}) store into the same elements of "
                        f"'{ref.from_}'; an element takes one aggregation",
                        other.span,
                    )

    def check_assign_outputs(self) -> None:
        for target in sorted(self.assign_targets.values(), key=lambda t: t.depth):
            pairs, elements = target.conflicts()
            if pairs.is_empty():
                continue
            pair = sample_pair(pairs)
            assert pair is not None
            first, second = pair
            element = _common_element(elements, first, second)
            agg = target.ref.agg_op or "assign"
            self.error(
                f"block '{target.label}': refinement '{target.ref.into}' has aggregation "
                f"'{agg}' but points {format_point(_own(first, target.depth))} and "
                f"{format_point(_own(second, target.depth))} both store element {element} of "
                f"'{target.ref.from_}'",
                target.ref.span,
            )

    # ---- check 6: no point reads what another point writes ----------------------------------

    def collect_shared(
        self,
        levels: list[LevelAccess],
        labels: Sequence[str],
        paths: Sequence[Path],
        writes: bool,
    ) -> None:
        """Record the access of `levels` for every block between the leaf and the buffer that
        owns the elements, in the owner's coordinates: views aliasing one buffer (`in X = A`,
        `out Y = A`) meet there."""
        owner = levels[-1]
        for level in levels[:-1]:
            key = (paths[level.depth], paths[owner.depth], owner.ref.into)
            reached = project_to_depth(owner.elements, level.depth)
            assert isinstance(reached, isl.Map)
            shared = self.shared.get(key)
            if shared is None:
                shared = _Shared(labels[level.depth], level.depth, owner.ref, labels[owner.depth])
                self.shared[key] = shared
            shared.add(level.ref, reached, writes)

    def check_shared(self) -> None:
        for shared in sorted(self.shared.values(), key=lambda s: s.depth):
            if not shared.reads or not shared.writes:
                continue
            writes = _union([m for _, m in shared.writes.values()])
            for ref, reads in shared.reads.values():
                pairs = sharing_points(reads, shared.depth, writes)
                if pairs.is_empty():
                    continue
                pair = sample_pair(pairs)
                assert pair is not None
                reader, writer = pair
                element = _common_element(reads, reader, writer, writes)
                writer_refs = [
                    w.into
                    for w, m in shared.writes.values()
                    if not m.intersect_domain(_fix(m.get_space().domain(), writer)).is_empty()
                ]
                self.error(
                    f"block '{shared.label}': refinement '{ref.into}' reads element {element} "
                    f"of '{shared.owner.into}' in block '{shared.owner_label}' at point "
                    f"{format_point(_own(reader, shared.depth))}, which point "
                    f"{format_point(_own(writer, shared.depth))} writes through refinement "
                    f"'{writer_refs[0]}'",
                    ref.span,
                )
                break


@dataclass
class _Shared:
    """Accesses of the points of one block to one buffer owned above it (coordinates in the
    owning view), by the block's refinement they go through."""

    label: str
    depth: int
    owner: Refinement
    owner_label: str
    # Keyed by the refinement's name in the block `label` names.
    reads: dict[str, tuple[Refinement, isl.Map]] = field(default_factory=dict)
    writes: dict[str, tuple[Refinement, isl.Map]] = field(default_factory=dict)

    def add(self, ref: Refinement, elements: isl.Map, writes: bool) -> None:
        table = self.writes if writes else self.reads
        old = table.get(ref.into)
        table[ref.into] = (ref, elements if old is None else old[1].union(elements))


def _union(maps: Sequence[isl.Map]) -> isl.Map:
    out = maps[0]
    for m in maps[1:]:
        out = out.union(m)
    return out


def _own(point: dict[str, int], depth: int) -> dict[str, int]:
    """The indices of the block at `depth` in a sampled chain point."""
    return {n: v for n, v in point.items() if n.endswith(f"@{depth}")}


def _fix(space: isl.Space, values: dict[str, int]) -> isl.Set:
    """The single point `values` (in dimension order) of set space `space`."""
    s = isl.Set.universe(space)
    for pos, value in enumerate(values.values()):
        s = s.fix_val(isl.dim_type.set, pos, isl.Val.int_from_si(space.get_ctx(), value))
    return s


def _common_element(
    elements: isl.Map,
    first: dict[str, int],
    second: dict[str, int],
    other: isl.Map | None = None,
) -> str:
    """An element that `elements` reaches at point `first` and `other` (default: `elements`)
    reaches at point `second`, rendered as a list."""
    space = elements.get_space().domain()
    a = elements.intersect_domain(_fix(space, first)).range()
    b = (elements if other is None else other).intersect_domain(_fix(space, second)).range()
    element = sample(a.intersect(b))
    return str(list(element.values())) if element is not None else "?"
