"""`unroll`: replace a block's iterations by straight-line copies of its body.

A matched block loses the unrolled indices (all of them, or with `expand_idx=TAG` only those
carrying `#TAG`); its body is repeated once per value of those indices (row-major, points that
fail a constraint left out) with the values substituted: refinement accesses, `load_index`
(which keeps its statement, now of a constant affine, so the value's type is unchanged) and the
index starts of nested blocks. Each copy reads and writes through its own views of the parent's
buffers, one per distinct access (`A_0`, `A_1`, ...; a view that does not move keeps its name),
gets its own allocations (they were per point), and renames its scalars so that they stay SSA.

Meaning is kept (STRIPE.md Definition 2). The copies now run in one point, where a later store
replaces an earlier one; where the original points aggregated into one element, the copies
combine explicitly: the second and later stores of a view emit `agg(previous, value)` before
storing. Nested blocks cannot be combined that way, so a block whose nested blocks write an
element that another unrolled point also writes is left alone (isl decides), as is a block with
whole-buffer Specials, a constraint mixing unrolled and kept indices, a location over unrolled
indices, or more than `max_copies` copies (when non-zero). An unrolled index whose start is over
the parent's indices stays as a range-1 passthrough holding that start.

Before / after:

    block [i:2]:2 (                           block []:1 (
        in A[i] fp32:I(1):(1)                     in A_0 = A[0] fp32:I(1):(1)
        out S[0]:add fp32:I(1):(1)                in A_1 = A[1] fp32:I(1):(1)
    ) {                                           out S[0]:add fp32:I(1):(1)
      0: $a = load(A)                         ) {
      1: S = store($a)                          0: $a_0 = load(A_0)
    }                                           1: S = store($a_0)
                                                2: $a_1 = load(A_1)
                                                3: $S_1 = add($a_0, $a_1)
                                                4: S = store($S_1)
                                              }
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import islpy as isl

from plaidc.analysis import (
    AnalysisError,
    DomainCache,
    dim_name,
    footprint,
    lift,
    sharing_points,
)
from plaidc.analysis.space import dim_names
from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.passes.selection import EXCLUDE_HELP, REQS_OUTERMOST_HELP, map_sub_blocks, matches
from plaidc.stripe.ir import (
    Affine,
    Block,
    Constant,
    Intrinsic,
    Load,
    LoadIndex,
    Location,
    LocUnit,
    Refinement,
    Special,
    Statement,
    Store,
    sub_blocks,
)
from plaidc.stripe.uses import location_affines, scalar_outputs

# Aggregations whose scalar intrinsic of the same name combines two values the same way.
_COMBINABLE = frozenset(["add", "mul", "max", "min"])


@dataclass(frozen=True)
class UnrollOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_OUTERMOST_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    expand_idx: str = option("", "unroll only the indices carrying this tag (empty: every index)")
    max_copies: int = option(
        0, "leave blocks that would need more copies than this alone (0: no limit)", min=0
    )


@register("unroll", UnrollOptions, "unroll block iterations into straight-line copies")
def unroll(program: Block, opts: UnrollOptions) -> Block:
    return _walk(program, (), opts)


def _walk(block: Block, ancestors: tuple[Block, ...], opts: UnrollOptions) -> Block:
    if matches(block, opts.reqs, opts.exclude):
        return _unroll(block, ancestors, opts)
    chain = (*ancestors, block)
    return map_sub_blocks(block, lambda child: _walk(child, chain, opts))


def _unroll(block: Block, ancestors: tuple[Block, ...], opts: UnrollOptions) -> Block:
    unrolled = [i for i in block.idxs if not opts.expand_idx or opts.expand_idx in i.tags]
    if not unrolled or any(i.range <= 0 for i in unrolled):
        return block
    copies = 1
    for idx in unrolled:
        copies *= idx.range
    if opts.max_copies and copies > opts.max_copies:
        return block
    names = {i.name for i in unrolled}
    if any(isinstance(s, Special) for s in block.stmts):
        return block
    if any(n in names for a in location_affines(block.location) for n in a.names()):
        return block
    # Unrolled indices with a constant start become constants; the others stay as a range-1
    # passthrough of their start, and the copy's value is that plus the offset.
    constant = {i.name for i in unrolled if i.affine.is_constant}
    kept_constraints, per_copy = [], []
    for con in block.constraints:
        used = set(con.affine.names())
        if not used & names:
            kept_constraints.append(con)
        elif used <= constant:
            per_copy.append(con)
        else:
            return block
    if copies > 1 and _children_share_writes(block, ancestors, names):
        return block

    first = {
        i.name: Affine.const_(i.affine.const) if i.name in constant else Affine.var(i.name)
        for i in unrolled
    }
    builder = _Builder(block, first, single_copy=copies == 1)
    for offsets in itertools.product(*(range(i.range) for i in unrolled)):
        values: dict[str, Affine] = {}
        for idx, off in zip(unrolled, offsets, strict=True):
            if idx.name in constant:
                values[idx.name] = Affine.const_(idx.affine.const + off)
            else:
                values[idx.name] = Affine.var(idx.name) + off
        if all(c.affine.substitute(values).const >= 0 for c in per_copy):
            builder.add_copy(values)

    idxs = tuple(
        dataclasses.replace(i, range=1, span=None) if i.name in names else i
        for i in block.idxs
        if i.name not in constant
    )
    return dataclasses.replace(
        block,
        idxs=idxs,
        constraints=tuple(kept_constraints),
        refs=builder.refs(),
        stmts=tuple(builder.stmts),
    )


def _children_share_writes(block: Block, ancestors: tuple[Block, ...], names: set[str]) -> bool:
    """Whether two points of `block` differing only in the unrolled indices (`names`) may
    write one element of a parent buffer that a nested block writes: copies of nested blocks
    overwrite each other instead of aggregating. Unknown (an analysis error) counts as yes."""
    written = {
        r.from_
        for child in sub_blocks(block)
        for r in child.refs
        if r.dir.writes and r.from_ is not None
    }
    targets = [r for r in block.refs if r.into in written and not r.is_allocation]
    if not targets:
        return False
    chain = (*ancestors, block)
    depth = len(ancestors)
    kept = [dim_name(depth, i.name) for i in block.idxs if i.name not in names]
    cache = DomainCache()
    try:
        for ref in targets:
            elements = footprint(chain, ref.into, reads=False, domains=cache)
            # Footprints are relative to the view, which moves with the point: compare the
            # elements in the parent's view.
            parent = ancestors[-1].ref(ref.from_) if ancestors and ref.from_ else None
            if parent is not None:
                elements = lift(elements, ref, depth, parent).elements
            if not _same_dims(sharing_points(elements, depth), kept).is_empty():
                return True
    except AnalysisError:
        return True
    return False


def _same_dims(pairs: isl.Map, dims: Sequence[str]) -> isl.Map:
    """`pairs` restricted to pairs that agree on the named dimensions."""
    space = pairs.get_space()
    positions = {n: p for p, n in enumerate(dim_names(space, isl.dim_type.in_))}
    ls = isl.LocalSpace.from_space(space)
    same = isl.BasicMap.universe(space)
    for dim in dims:
        pos = positions[dim]
        eq = isl.Constraint.equality_alloc(ls)
        eq = eq.set_coefficient_val(isl.dim_type.in_, pos, 1)
        eq = eq.set_coefficient_val(isl.dim_type.out, pos, -1)
        same = same.add_constraint(eq)
    return pairs.intersect(isl.Map.from_basic_map(same))


@dataclass
class _Builder:
    """Accumulates the copies of a block's body, their views and their scalar names."""

    block: Block
    first: Mapping[str, Affine]  # the unrolled indices' values at the first point
    single_copy: bool
    stmts: list[Statement] = field(default_factory=list)
    # (refinement, access, location) -> view name; allocations are keyed by copy instead.
    views: dict[tuple[object, ...], str] = field(default_factory=dict)
    view_refs: dict[str, Refinement] = field(default_factory=dict)
    ref_names: set[str] = field(default_factory=set)
    scalar_names: set[str] = field(default_factory=set)
    used_refs: set[str] = field(default_factory=set)
    # Per view: the scalar holding what the earlier copies stored there (combined).
    stored: dict[str, str] = field(default_factory=dict)
    copy_number: int = 0

    def __post_init__(self) -> None:
        self.ref_names = {r.into for r in self.block.refs}
        for stmt in self.block.stmts:
            self.scalar_names.update(scalar_outputs(stmt))

    def add_copy(self, values: Mapping[str, Affine]) -> None:
        number = self.copy_number
        self.copy_number += 1
        before = dict(self.stored)
        scalars: dict[str, str] = {}
        positions: dict[int, int] = {}
        for pos, stmt in enumerate(self.block.stmts):
            deps = tuple(positions[d] for d in stmt.deps if d in positions)
            for new in self._copy(stmt, values, number, scalars, before):
                new = dataclasses.replace(new, deps=deps, span=None)
                positions[pos] = len(self.stmts)
                self.stmts.append(new)

    def refs(self) -> tuple[Refinement, ...]:
        """The views the copies use, and the refinements no statement used (kept, as seen from
        the first point, since removing refinements is prune-refs' business)."""
        out = list(self.view_refs.values())
        for ref in self.block.refs:
            if ref.into not in self.used_refs:
                out.append(
                    dataclasses.replace(
                        ref,
                        access=tuple(a.substitute(self.first) for a in ref.access),
                        location=_sub_location(ref.location, self.first),
                    )
                )
        return tuple(out)

    # ---- statements ----

    def _copy(
        self,
        stmt: Statement,
        values: Mapping[str, Affine],
        number: int,
        scalars: dict[str, str],
        before: Mapping[str, str],
    ) -> list[Statement]:
        def scalar(name: str) -> str:
            return scalars.get(name, name)

        def define(name: str) -> str:
            scalars[name] = self._fresh_scalar(name, number)
            return scalars[name]

        if isinstance(stmt, Load):
            view = self._view(stmt.from_, values, number)
            return [dataclasses.replace(stmt, from_=view, into=define(stmt.into))]
        if isinstance(stmt, LoadIndex):
            affine = stmt.affine.substitute(values)
            return [dataclasses.replace(stmt, affine=affine, into=define(stmt.into))]
        if isinstance(stmt, Constant):
            return [dataclasses.replace(stmt, name=define(stmt.name))]
        if isinstance(stmt, Intrinsic):
            inputs = tuple(scalar(n) for n in stmt.inputs)
            outputs = tuple(define(n) for n in stmt.outputs)
            return [dataclasses.replace(stmt, inputs=inputs, outputs=outputs)]
        if isinstance(stmt, Store):
            return self._store(stmt, values, number, scalar(stmt.from_), before)
        if isinstance(stmt, Block):
            return [self._child(stmt, values, number)]
        raise AssertionError(f"unexpected statement {stmt!r}")  # Specials were refused

    def _store(
        self,
        stmt: Store,
        values: Mapping[str, Affine],
        number: int,
        value: str,
        before: Mapping[str, str],
    ) -> list[Statement]:
        view = self._view(stmt.into, values, number)
        out: list[Statement] = []
        combine = self.view_refs[view].agg_op or ""
        previous = before.get(view)
        if previous is not None and combine in _COMBINABLE:
            # An earlier copy (an earlier point) stored here: aggregate with its value.
            total = self._fresh_scalar(f"${stmt.into}", number)
            out.append(Intrinsic(name=combine, inputs=(previous, value), outputs=(total,)))
            value = total
        out.append(dataclasses.replace(stmt, from_=value, into=view))
        self.stored[view] = value
        return out

    def _child(self, child: Block, values: Mapping[str, Affine], number: int) -> Block:
        idxs = tuple(
            dataclasses.replace(i, affine=i.affine.substitute(values), span=None)
            for i in child.idxs
        )
        refs = tuple(
            r
            if r.from_ is None
            else dataclasses.replace(r, from_=self._view(r.from_, values, number))
            for r in child.refs
        )
        return dataclasses.replace(child, idxs=idxs, refs=refs)

    # ---- views and names ----

    def _view(self, name: str, values: Mapping[str, Affine], number: int) -> str:
        """The name of this copy's view of refinement `name` (created on first use)."""
        ref = self.block.ref(name)
        if ref is None:
            return name  # not a refinement of this block; the verifier reports it
        self.used_refs.add(name)
        access = tuple(a.substitute(values) for a in ref.access)
        location = _sub_location(ref.location, values)
        # Allocations were per point, so each copy gets its own; views are per distinct access.
        per_copy = ref.is_allocation and not self.single_copy
        moves = per_copy or access != ref.access or location != ref.location
        key: tuple[object, ...] = (name, number) if per_copy else (name, access, location)
        existing = self.views.get(key)
        if existing is not None:
            return existing
        into = self._fresh_ref(name) if moves else name
        self.views[key] = into
        self.view_refs[into] = dataclasses.replace(
            ref, into=into, access=access, location=location, span=None
        )
        return into

    def _fresh_ref(self, base: str) -> str:
        k = 0
        while f"{base}_{k}" in self.ref_names:
            k += 1
        self.ref_names.add(f"{base}_{k}")
        return f"{base}_{k}"

    def _fresh_scalar(self, base: str, number: int) -> str:
        name = f"{base}_{number}"
        k = 0
        while name in self.scalar_names:
            k += 1
            name = f"{base}_{number}_{k}"
        self.scalar_names.add(name)
        return name


def _sub_location(loc: Location | None, values: Mapping[str, Affine]) -> Location | None:
    if loc is None:
        return None
    return Location(
        tuple(LocUnit(u.name, tuple(a.substitute(values) for a in u.idxs)) for u in loc.units)
    )
