"""`widen-accumulators`: aggregate narrow float sums and products in a wider buffer, round once.

Stripe's aggregation (STRIPE.md, Definition 2) combines the values the points of one block
execution store to an element and writes the result once; the interpreter (like numpy's fp16
sums and matmuls) combines fp16 values in fp32 and rounds once. A backend that accumulates in
place in the buffer's own type rounds after every term instead: an fp16 sum of 2000 terms drifts
by tenths and an overflowing one gives NaN instead of inf. This pass makes the wide accumulator
explicit, so every backend inherits it: a child block (matching `reqs`) that aggregates with
`add` or `mul` into a `narrow` float buffer of its parent gets a fresh `accumulator`-typed
buffer instead, and a new block after it stores that buffer into the original one (a store
converts to the buffer's type: one rounding per element). Later passes may fuse that block into
the aggregating one and localize the wide buffer into its tiles.

Applied only where it is exact. Each value stored through the widened view is first rounded to
the narrow type (`as_float(v, 16)`: Stripe's narrow store did that), so only the aggregation
gets wider; hence only fp16 (bf16 has no rounding intrinsic). The parent's view is not itself
aggregated (the child is the top reducing level), the child only writes the view (no reads),
no nested block aggregates into it and no Special writes it (their own narrow roundings would
be lost), and a view the store-back reuses has the parent's strides. The new block stores
exactly the elements the child writes (isl decides): when they are the same box for every
execution of the parent, that box; otherwise, for a child without nested blocks, the points of
its own write access (`O[2*i]`, a diagonal `O[i, i]`, a triangle `j - i < N`) with the
constraints of their projection, when that projection is one polyhedron and the access is
one-to-one on it. Anything else is left as it is.

Before / after (`narrow = ["fp16"]`):

    block [] ( // main                            block [] ( // main
        out C[0] fp16:I(8):(1)                        out C[0] fp16:I(8):(1)
    ) {                                               none C_acc[0] fp32:I(8):(1)
      0: block [i:8, k:4] (                       ) {
          in A[i, k] fp16 ...                       0: block [i:8, k:4] (
          out C[i]:add fp16:I(1):(1)                    in A[i, k] fp16 ...
      ) { ... }                                         out C[i]:add fp32:I(1):(1)  (from C_acc)
    }                                               ) { ... }
                                                    1: block [i0:8] (
                                                        in C_acc[i0] fp32:I(1):(1)
                                                        out C[i0] fp16:I(1):(1)
                                                    ) { $x = load(C_acc); C = store($x) }
                                                  }
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import islpy as isl

from plaidc.analysis import AnalysisError, DomainCache, footprint_box
from plaidc.analysis.fusion import parent_elements
from plaidc.analysis.ranges import (
    IndexSpace,
    injective_on_projection,
    minimal_constraints,
    projection_constraints,
)
from plaidc.options import option
from plaidc.passes.cache import shift_deps
from plaidc.passes.registry import PassOptionError, register
from plaidc.passes.selection import EXCLUDE_HELP, map_sub_blocks, matches
from plaidc.stripe.ir import (
    Affine,
    Block,
    Constant,
    Constraint,
    DType,
    Index,
    Intrinsic,
    Load,
    RefDir,
    Refinement,
    Special,
    Statement,
    Store,
    Tags,
    TensorShape,
)
from plaidc.stripe.uses import scalar_outputs, terms_per_element

WIDENED_OPS = ("add", "mul")


@dataclass(frozen=True)
class WidenAccumulatorsOptions:
    reqs: tuple[str, ...] = option(
        ("all",), "widen the aggregations of blocks (at any depth) that carry all these tags"
    )
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    narrow: tuple[Literal["fp16", "fp32"], ...] = option(
        ("fp16",),
        "buffer types whose add/mul aggregations get a wide accumulator",
        expects='a list of "fp16" or "fp32" (the types a rounding intrinsic exists for)',
    )
    accumulator: Literal["fp16", "fp32", "fp64", "bf16"] = option(
        "fp32", "type of the wide accumulator (wider than every narrow type)"
    )
    cast_set: tuple[str, ...] = option(
        ("eltwise", "kernel"), "tags of the block storing the wide buffer back (for fuse)"
    )
    min_terms: int = option(
        0, "widen only aggregations combining at least this many terms into one element", min=0
    )

    def __post_init__(self) -> None:  # checked with the options, before the pass runs
        wide_bits = 8 * DType(self.accumulator).byte_size
        for name in self.narrow:
            if _ROUNDING_BITS[DType(name)] >= wide_bits:
                raise PassOptionError(
                    f"pass 'widen-accumulators': option 'narrow': {name} is not narrower than"
                    f" the accumulator {self.accumulator}"
                )


@register(
    "widen-accumulators",
    WidenAccumulatorsOptions,
    "aggregate narrow float sums/products in a wide buffer, converted back once",
)
def widen_accumulators(program: Block, opts: WidenAccumulatorsOptions) -> Block:
    accumulator = DType(opts.accumulator)
    narrow = {DType(n) for n in opts.narrow}
    return _walk((program,), opts, narrow, accumulator, DomainCache())


def _walk(
    chain: tuple[Block, ...],
    opts: WidenAccumulatorsOptions,
    narrow: set[DType],
    accumulator: DType,
    domains: DomainCache,
) -> Block:
    block = chain[-1]
    pos = 0
    while pos < len(block.stmts):
        child = block.stmts[pos]
        if isinstance(child, Block) and matches(child, opts.reqs, opts.exclude):
            widened = _widen_child(chain, pos, opts, narrow, accumulator, domains)
            if widened is not None:
                block, added = widened
                chain = (*chain[:-1], block)
                pos += 1 + added
                continue
        pos += 1
    here = (*chain[:-1], block)
    return map_sub_blocks(block, lambda c: _walk((*here, c), opts, narrow, accumulator, domains))


def _widen_child(
    chain: tuple[Block, ...],
    pos: int,
    opts: WidenAccumulatorsOptions,
    narrow: set[DType],
    accumulator: DType,
    domains: DomainCache,
) -> tuple[Block, int] | None:
    """Widen every qualifying refinement of the child at `pos`; the new parent block and the
    number of statements added after the child, or None when nothing qualified."""
    parent = chain[-1]
    added = 0
    for name in [r.into for r in _block_at(parent, pos).refs]:
        child = _block_at(parent, pos)
        ref = child.ref(name)
        assert ref is not None
        if not _qualifies(parent, child, ref, narrow):
            continue
        if terms_per_element(child, ref) < opts.min_terms:
            continue
        assert ref.from_ is not None
        try:
            cover = _written_box(chain, child, ref.from_, domains)
        except AnalysisError:
            continue
        if cover is None:
            cover = _written_points(parent, child, ref)
        if cover is None:
            continue
        parent = _rewrite(parent, pos, ref, cover, accumulator, opts.cast_set, len(chain) == 1)
        added += 1
    return (parent, added) if added else None


def _block_at(parent: Block, pos: int) -> Block:
    stmt = parent.stmts[pos]
    assert isinstance(stmt, Block)
    return stmt


def _qualifies(parent: Block, child: Block, ref: Refinement, narrow: set[DType]) -> bool:
    if ref.from_ is None or ref.agg_op not in WIDENED_OPS or ref.shape.dtype not in narrow:
        return False
    if ref.dir is not RefDir.OUT:
        return False
    if sum(1 for r in child.refs if r.from_ == ref.from_) != 1:
        return False
    outer = parent.ref(ref.from_)
    if outer is None or outer.agg_op not in (None, "assign"):
        return False
    # A nested block aggregating into the view rounds its own sums to the narrow type before
    # the child aggregates them: widening would drop that rounding. Only flat aggregations.
    return not _aggregated_below(child, ref.into)


def _aggregated_below(block: Block, name: str) -> bool:
    """Whether a nested block aggregates into view `name`, or a Special writes it (its values
    would not be rounded to the narrow type)."""
    for stmt in block.stmts:
        if isinstance(stmt, Special) and name in stmt.outputs:
            return True
        if not isinstance(stmt, Block):
            continue
        for r in stmt.refs:
            if r.from_ == name and (r.agg_op in WIDENED_OPS or _aggregated_below(stmt, r.into)):
                return True
    return False


@dataclass(frozen=True)
class Cover:
    """The points of the store-back block: one per element the child writes, at `access`."""

    idxs: tuple[Index, ...]
    constraints: tuple[Constraint, ...]
    access: tuple[Affine, ...]


def _written_box(
    chain: tuple[Block, ...], child: Block, buffer: str, domains: DomainCache
) -> Cover | None:
    """The box of elements of the parent's view `buffer` that one execution of `child` writes,
    when that set is exactly a box and the same for every execution of the parent."""
    child_chain = (*chain, child)
    written = parent_elements(child_chain, buffer, reads=False, writes=True, domains=domains)
    if written.is_empty():
        return None
    box = footprint_box(written)
    if box is None:
        return None
    # parent point -> element, over the parent's own domain
    outer_dims = sum(len(b.idxs) for b in chain)
    per_parent = written.project_out(
        isl.dim_type.in_, outer_dims, written.dim(isl.dim_type.in_) - outer_dims
    )
    whole = isl.Map.from_domain_and_range(
        domains.domain(chain), _box_set(per_parent.get_space().range(), box)
    )
    if not per_parent.is_equal(whole):
        return None
    names = [f"i{d}" for d in range(len(box))]
    return Cover(
        idxs=tuple(Index(n, hi - lo + 1) for n, (lo, hi) in zip(names, box, strict=True)),
        constraints=(),
        access=tuple(Affine.var(n) + lo for n, (lo, _) in zip(names, box, strict=True)),
    )


def _written_points(parent: Block, child: Block, ref: Refinement) -> Cover | None:
    """For a child without nested blocks and without passthrough indices: its indices that
    `ref`'s access uses, constrained to the projection of its points (when that is one
    polyhedron and the access is one-to-one on it)."""
    if any(isinstance(s, Block) for s in child.stmts):
        return None
    if any(i.affine.terms or i.affine.const for i in child.idxs):
        return None
    outer = parent.ref(ref.from_) if ref.from_ is not None else None
    if outer is None or ref.shape.strides != outer.shape.strides:
        return None  # the access is in the child's own layout (a restrided or reshaped view)
    used = {n for a in ref.access for n, _ in a.terms}
    keep = tuple(i.name for i in child.idxs if i.name in used)
    ranges = {i.name: (0, i.range - 1) for i in child.idxs}
    bounds = [
        bound
        for name, (lo, hi) in ranges.items()
        for bound in (Affine.var(name) - lo, Affine.const_(hi) - Affine.var(name))
    ]
    space = IndexSpace(
        tuple(i.name for i in child.idxs),
        tuple(bounds) + tuple(c.affine for c in child.constraints),
    )
    if not injective_on_projection(space, keep, ref.access):
        return None
    projected = projection_constraints(space, keep)
    if projected is None:
        return None
    kept = minimal_constraints(keep, {n: ranges[n] for n in keep}, projected)
    return Cover(
        idxs=tuple(i for i in child.idxs if i.name in used),
        constraints=tuple(Constraint(c) for c in kept),
        access=ref.access,
    )


def _box_set(space: isl.Space, box: Sequence[tuple[int, int]]) -> isl.Set:
    out = isl.Set.universe(space)
    for d, (lo, hi) in enumerate(box):
        out = out.lower_bound_val(isl.dim_type.set, d, lo).upper_bound_val(isl.dim_type.set, d, hi)
    return out


def _rewrite(
    parent: Block,
    pos: int,
    ref: Refinement,
    cover: Cover,
    accumulator: DType,
    cast_set: Sequence[str],
    at_root: bool,
) -> Block:
    assert ref.from_ is not None
    outer = parent.ref(ref.from_)
    assert outer is not None
    wide_name = _fresh({r.into for r in parent.refs}, f"{ref.from_}_acc")
    wide = Refinement(
        dir=RefDir.NONE,
        from_=None,
        into=wide_name,
        access=tuple(Affine() for _ in outer.shape.sizes),
        shape=dataclasses.replace(outer.shape, dtype=accumulator),
        location=outer.location,
        # at the program root an allocation without `#tmp` would be a program buffer
        tags=Tags.of("tmp") if at_root else Tags(),
    )
    child = _block_at(parent, pos)
    child = _retype(child, ref.into, accumulator, ref.shape.dtype)
    refs = tuple(
        dataclasses.replace(r, from_=wide_name) if r.into == ref.into else r for r in child.refs
    )
    child = dataclasses.replace(child, refs=refs)
    store_back = _store_back(outer, wide, cover, cast_set)
    stmts: list[Statement] = []
    tracked = any(s.deps for s in parent.stmts)
    for i, stmt in enumerate(parent.stmts):
        moved = shift_deps(stmt, lambda d: d + 1 if d > pos else d) if i > pos else stmt
        if i > pos and tracked and pos in moved.deps:
            moved = dataclasses.replace(moved, deps=tuple(sorted({*moved.deps, pos + 1})))
        if i == pos:
            stmts.append(child)
            stmts.append(dataclasses.replace(store_back, deps=(pos,) if tracked else ()))
        else:
            stmts.append(moved)
    return dataclasses.replace(parent, refs=(*parent.refs, wide), stmts=tuple(stmts))


def _retype(block: Block, name: str, dtype: DType, narrow: DType) -> Block:
    """View `name` of `block` and every view below refining it take element type `dtype`;
    the values stored through them are first rounded to `narrow`, as the narrow view's store
    did (Stripe stores convert), so only the aggregation gets wider."""
    refs = tuple(
        dataclasses.replace(r, shape=dataclasses.replace(r.shape, dtype=dtype))
        if r.into == name
        else r
        for r in block.refs
    )
    stmts = tuple(
        _retype_children(s, name, dtype, narrow) for s in _narrow_stores(block, name, narrow)
    )
    return dataclasses.replace(block, refs=refs, stmts=stmts)


def _retype_children(stmt: Statement, name: str, dtype: DType, narrow: DType) -> Statement:
    if not isinstance(stmt, Block):
        return stmt
    out = stmt
    for r in stmt.refs:
        if r.from_ == name:
            out = _retype(out, r.into, dtype, narrow)
    return out


# The cast rounding a value to each narrow type (bf16 has none: its stores are left as they are).
_ROUNDING_BITS = {DType.FP16: 16, DType.FP32: 32}


def _narrow_stores(block: Block, name: str, narrow: DType) -> tuple[Statement, ...]:
    """`block`'s statements with `$v_narrow = as_float($v, 16)` before each store to `name`
    (an exact no-op for values already of the narrow type)."""
    bits = _ROUNDING_BITS.get(narrow)
    stores = [k for k, s in enumerate(block.stmts) if isinstance(s, Store) and s.into == name]
    if bits is None or not stores:
        return block.stmts
    tracked = any(s.deps for s in block.stmts)
    taken = {n for stmt in block.stmts for n in scalar_outputs(stmt)}
    width = _fresh(taken, f"$_{name}_bits")
    new_pos: dict[int, int] = {}
    out: list[Statement] = [Constant(name=width, value=bits, type="int")]
    for k, stmt in enumerate(block.stmts):
        if k in stores:
            assert isinstance(stmt, Store)
            rounded = _fresh(taken, f"{stmt.from_}_{narrow}")
            cast_deps = tuple(new_pos[d] for d in stmt.deps) + ((0,) if tracked else ())
            out.append(
                Intrinsic(
                    name="as_float",
                    inputs=(stmt.from_, width),
                    outputs=(rounded,),
                    deps=tuple(sorted(cast_deps)),
                )
            )
            new_pos[k] = len(out)
            deps = (len(out) - 1,) if tracked else ()
            out.append(dataclasses.replace(stmt, from_=rounded, deps=deps))
            continue
        new_pos[k] = len(out)
        out.append(shift_deps(stmt, lambda d: new_pos[d]))
    return tuple(out)


def _store_back(
    outer: Refinement, wide: Refinement, cover: Cover, cast_set: Sequence[str]
) -> Block:
    """An elementwise block storing the covered elements of `wide` into `outer` (the store
    converts)."""
    ones = tuple(1 for _ in cover.access)

    def view(ref: Refinement, direction: RefDir) -> Refinement:
        return Refinement(
            dir=direction,
            from_=ref.into,
            into=ref.into,
            access=cover.access,
            shape=TensorShape(ref.shape.dtype, ones, ref.shape.strides),
            location=ref.location,
        )

    value = f"${wide.into}"
    return Block(
        name="widen_store",
        comments=(f"{outer.into} = {wide.into} converted to {outer.shape.dtype}",),
        idxs=cover.idxs,
        constraints=cover.constraints,
        refs=(view(wide, RefDir.IN), view(outer, RefDir.OUT)),
        stmts=(Load(from_=wide.into, into=value), Store(from_=value, into=outer.into)),
        tags=Tags.of(*cast_set),
    )


def _fresh(taken: set[str], base: str) -> str:
    """`base`, or `base1`, `base2`, ...: the first name not in `taken` (then taken)."""
    name, n = base, 1
    while name in taken:
        name, n = f"{base}{n}", n + 1
    taken.add(name)
    return name
