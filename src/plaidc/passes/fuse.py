"""`fuse`: fuse adjacent producer/consumer blocks over a shared buffer into one outer block.

Two adjacent sibling blocks A (the producer) and B (the consumer) that share a buffer A writes
and B reads become one *fused* block F that walks A's output index space (the indices of A that
place A's view of the shared buffer); each point of F runs the part of A with those index values
(A's other indices, e.g. a contraction's reduction indices, inside it) and then the part of B
that reads what that part of A produced. A part without indices of its own is inlined into F
(PlaidML's "flatten trivial"), so an elementwise epilogue becomes plain statements after the
contraction's inner block, and a chain of elementwise blocks becomes one block.

Legality comes from the access analysis (`plaidc.analysis.fusion`): every A point that writes an
element a B point reads (and every A point reading an element a B point writes) must fall in
that B point's fused point, so a reduction finishes inside the fused point before the epilogue
reads it (Definition 2: F's view of the shared buffer keeps A's aggregation, so the result in
memory is unchanged). Blocks that both write one buffer, views that alias a written buffer, and
index starts that are not constants are left alone. An A with a single point (a contraction
tiled into one tile) fuses with B into a single-point F. After a fusion the fused block is
tried again with the next statement, so a chain of epilogues folds in; fused blocks are then
searched for pairs of their own.

Before / after (matmul + bias, F walks `m, n`; the bias add is inlined):

    block [k:6, m:4, n:5] ( // mm              block [m:4, n:5] ( // mm+bias
        in A[m, k] ...                             in A[m, 0] fp32:I(1, 6) ...
        in B[k, n] ...                             in B[0, n] fp32:I(6, 1) ...
        out T[m, n]:add ...                        in C[n] ...
    ) { ... }                                      inout T[m, n]:add ...
    block [i:4, j:5] ( // bias                     out Y[m, n] ...
        in T[i, j] ...                         ) {
        in C[j] ...                              0: block [k:6, m = m, n = n] ( // mm
        out Y[i, j] ...                               in A[0, k] ... out T[0, 0]:add ...
    ) {                                            ) { ... }
      0: $t = load(T)                            1: $t = load(T)
      1: $c = load(C)                            2: $c = load(C)
      2: $y = add($t, $c)                        3: $y = add($t, $c)
      3: Y = store($y)                           4: Y = store($y)
    }                                          }

Options: `reqs` (work inside matching blocks), `parent_reqs` (fuse only children of matching
blocks), `a_reqs` / `b_reqs` (tags the producer / consumer must carry), `exclude` (neither they
nor the parent may carry these), `fused_set` (tags added to F, which otherwise carries A's tags;
the parts keep their own), `output_match` (every buffer B writes has the shape of the shared
buffer), `no_inner` (fuse only when both parts are inlined and neither has blocks).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from plaidc.analysis import AnalysisError, DomainCache, footprint, footprint_box
from plaidc.analysis.fusion import IndexLink, fusion_violations
from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.passes.selection import REQS_SUBTREE_HELP, map_sub_blocks, matches
from plaidc.stripe.ir import (
    Affine,
    Block,
    Constant,
    Constraint,
    Index,
    Intrinsic,
    Load,
    LoadIndex,
    RefDir,
    Refinement,
    Special,
    Statement,
    Store,
    TensorShape,
)
from plaidc.stripe.uses import (
    location_affines,
    scalar_outputs,
    substitute_indices,
    trivially_true,
    used_index_names,
)


@dataclass(frozen=True)
class FuseOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_SUBTREE_HELP)
    exclude: tuple[str, ...] = option(
        (), "neither the parent nor the producer or consumer may carry any of these tags"
    )
    parent_reqs: tuple[str, ...] = option(
        ("all",), "fuse only the children of blocks that carry all these tags"
    )
    a_reqs: tuple[str, ...] = option(("all",), "tags the producer (the first block) must carry")
    b_reqs: tuple[str, ...] = option(("all",), "tags the consumer (the second block) must carry")
    fused_set: tuple[str, ...] = option(
        (), "tags added to the fused block, which otherwise carries the producer's"
    )
    output_match: bool = option(
        False, "fuse only when every buffer the consumer writes has the shared buffer's shape"
    )
    no_inner: bool = option(
        False, "fuse only when both parts are inlined (neither keeps indices nor has blocks)"
    )


@register("fuse", FuseOptions, "fuse adjacent producer/consumer blocks into one outer block")
def fuse(program: Block, opts: FuseOptions) -> Block:
    return _walk((program,), opts, active=False)


def _walk(
    chain: tuple[Block, ...], opts: FuseOptions, active: bool, just_fused: bool = False
) -> Block:
    block = chain[-1]
    active = active or matches(block, opts.reqs, opts.exclude)
    created: set[int] = set()
    # A block this pass just made holds the pair already considered one level up: fusing its
    # children again would nest the same pair forever (a one-point pair without linked indices).
    if active and not just_fused and matches(block, opts.parent_reqs, opts.exclude):
        block, created = _fuse_children(chain, opts)
    here = (*chain[:-1], block)
    return map_sub_blocks(
        block, lambda child: _walk((*here, child), opts, active, id(child) in created)
    )


# --------------------------------------------------------------------------------------------
# Fusing the statements of one parent


def _fuse_children(chain: tuple[Block, ...], opts: FuseOptions) -> tuple[Block, set[int]]:
    """The parent with adjacent pairs fused, and the identities of the fused blocks."""
    parent = chain[-1]
    domains = DomainCache()
    # Each statement with the original positions it stands for (to renumber dependencies).
    items: list[tuple[Statement, frozenset[int]]] = [
        (stmt, frozenset([pos])) for pos, stmt in enumerate(parent.stmts)
    ]
    pos = 0
    fused_any = False
    while pos + 1 < len(items):
        a, b = items[pos][0], items[pos + 1][0]
        fused = None
        if isinstance(a, Block) and isinstance(b, Block):
            fused = _try_fuse(chain, a, b, opts, domains)
        if fused is None:
            pos += 1
            continue
        items[pos] = (fused, items[pos][1] | items[pos + 1][1])
        del items[pos + 1]
        fused_any = True
    if not fused_any:
        return parent, set()
    new_pos = {orig: new for new, (_, origs) in enumerate(items) for orig in origs}
    stmts: list[Statement] = []
    for new, (stmt, origs) in enumerate(items):
        deps = {new_pos[d] for o in origs for d in parent.stmts[o].deps} - {new}
        dep_t = tuple(sorted(deps))
        stmts.append(stmt if stmt.deps == dep_t else dataclasses.replace(stmt, deps=dep_t))
    created = {id(s) for s, (_, origs) in zip(stmts, items, strict=True) if len(origs) > 1}
    return dataclasses.replace(parent, stmts=tuple(stmts)), created


def _try_fuse(
    chain: tuple[Block, ...], a: Block, b: Block, opts: FuseOptions, domains: DomainCache
) -> Block | None:
    if not (matches(a, opts.a_reqs, opts.exclude) and matches(b, opts.b_reqs, opts.exclude)):
        return None
    if not (_fusable_shape(a) and _fusable_shape(b)) or a.location != b.location:
        return None
    if opts.no_inner and (_has_blocks(a) or _has_blocks(b)):
        return None
    parent = chain[-1]
    a_bufs = {r.from_ for r in a.refs if r.from_ is not None}
    b_bufs = {r.from_ for r in b.refs if r.from_ is not None}
    a_writes = {r.from_ for r in a.refs if r.from_ is not None and r.dir.writes}
    b_writes = {r.from_ for r in b.refs if r.from_ is not None and r.dir.writes}
    if a_writes & b_writes or _aliased(parent, a_bufs | b_bufs, a_writes | b_writes):
        return None
    for buffer in sorted(a_writes & b_bufs):
        if opts.output_match and not _outputs_match(parent, buffer, b_writes):
            continue
        try:
            links = _links(chain, a, b, buffer, domains)
            # Without a linked index the fused block has one point: only worth it when A has
            # one point too (a contraction tiled into a single tile).
            if not links and a.count != 1:
                continue
            if fusion_violations(chain, a, b, links, sorted(a_bufs & b_bufs), domains):
                continue
        except AnalysisError:
            continue
        fused = _build(a, b, links, opts)
        if fused is not None:
            return fused
    return None


def _fusable_shape(block: Block) -> bool:
    """Constant index starts (the fused block re-derives them) and index-free locations."""
    if any(not idx.affine.is_constant for idx in block.idxs):
        return False
    if any(aff.names() for aff in location_affines(block.location)):
        return False
    return all(not aff.names() for r in block.refs for aff in location_affines(r.location))


def _has_blocks(block: Block) -> bool:
    return any(isinstance(s, Block) for s in block.stmts)


def _aliased(parent: Block, used: set[str], written: set[str]) -> bool:
    """Whether two of the parent's views used by the pair refine one buffer and one is
    written (the analysis treats each parent view as its own buffer)."""
    groups: dict[str, set[str]] = {}
    for name in used:
        ref = parent.ref(name)
        key = name if ref is None or ref.from_ is None else ref.from_
        groups.setdefault(key, set()).add(name)
    return any(len(names) > 1 and names & written for names in groups.values())


def _outputs_match(parent: Block, buffer: str, b_writes: set[str]) -> bool:
    shared = parent.ref(buffer)
    if shared is None:
        return False
    for name in b_writes:
        ref = parent.ref(name)
        if ref is None or ref.shape.sizes != shared.shape.sizes:
            return False
    return True


# --------------------------------------------------------------------------------------------
# The fusion plan: which index of A decides which points of B


def _single_term(aff: Affine) -> tuple[str, int, int] | None:
    if len(aff.terms) != 1:
        return None
    ((name, coeff),) = aff.terms
    return name, coeff, aff.const


def _links(
    chain: tuple[Block, ...], a: Block, b: Block, buffer: str, domains: DomainCache
) -> list[IndexLink]:
    """Match, dimension by dimension of the shared buffer, an index of A placing A's view with an
    index of B placing B's: B's index then ranges over the window of elements one A point
    writes. Dimensions without a single index on both sides stay unlinked (B's index, if any,
    then runs whole inside every fused point; the legality check decides)."""
    a_refs = [r for r in a.refs if r.from_ == buffer]
    b_refs = [r for r in b.refs if r.from_ == buffer]
    if len(a_refs) != 1 or not b_refs:
        return []
    ra, rb = a_refs[0], b_refs[0]
    if ra.shape.strides != rb.shape.strides:
        return []
    a_box = footprint_box(
        footprint((*chain, a), ra.into, reads=False, writes=True, domains=domains)
    )
    b_box = footprint_box(footprint((*chain, b), rb.into, domains=domains))
    if a_box is None or b_box is None:
        return []
    links: list[IndexLink] = []
    for dim, (acc_a, acc_b) in enumerate(zip(ra.access, rb.access, strict=True)):
        term_a, term_b = _single_term(acc_a), _single_term(acc_b)
        if term_a is None or term_b is None:
            continue
        (ia, ca, ka), (ib, cb, kb) = term_a, term_b
        if ca <= 0 or any(ia == lk.a_index or ib == lk.b_index for lk in links):
            continue
        (lo, hi), (blo, bhi) = a_box[dim], b_box[dim]
        if cb == 1 and blo == bhi == 0:
            # B reads one element per point along this dimension: the window is A's tile.
            link = IndexLink(ia, ib, ca, ka + lo - kb, max(hi - lo + 1, ca))
        elif cb == ca and (ka - kb) % cb == 0 and lo <= blo and bhi <= hi:
            # B is tiled like A: tile for tile.
            link = IndexLink(ia, ib, 1, (ka - kb) // cb, 1)
        else:
            continue
        a_idx, b_idx = a.idx(ia), b.idx(ib)
        if a_idx is not None and b_idx is not None and _covers(a_idx, b_idx, link):
            links.append(link)
    return links


def _window(a_idx: Index, link: IndexLink) -> tuple[int, int]:
    """The lowest and highest value B's index takes over all fused points."""
    start = a_idx.affine.const
    low = link.scale * start + link.offset
    high = link.scale * (start + a_idx.range - 1) + link.offset + link.width - 1
    return low, high


def _covers(a_idx: Index, b_idx: Index, link: IndexLink) -> bool:
    """Every value of B's index falls in exactly one fused point's window."""
    if link.width != link.scale and a_idx.range > 1:
        return False
    low, high = _window(a_idx, link)
    start = b_idx.affine.const
    return low <= start and high >= start + b_idx.range - 1


# --------------------------------------------------------------------------------------------
# Building the fused block


@dataclass(frozen=True)
class _Part:
    """A or B rewritten to run inside one fused point: `block` uses passthrough indices (names
    -> fused index names in `passthrough`) for the fused indices."""

    block: Block
    passthrough: Mapping[str, str]


@dataclass
class _Piece:
    """One refinement of a part split into the fused block's view (`outer`, over F's indices,
    with `sizes`) and the part's access within it (`inner`)."""

    part: int
    ref: Refinement
    outer: list[Affine]
    inner: list[Affine]
    sizes: list[int]


def _a_part(a: Block, links: Sequence[IndexLink]) -> _Part:
    linked = {lk.a_index for lk in links}
    idxs = tuple(Index(i.name, 1, Affine.var(i.name)) if i.name in linked else i for i in a.idxs)
    return _Part(
        _drop_unit_indices(dataclasses.replace(a, idxs=idxs), linked), {n: n for n in linked}
    )


def _b_part(a: Block, b: Block, links: Sequence[IndexLink]) -> _Part:
    by_b = {lk.b_index: lk for lk in links}
    kept = [i for i in b.idxs if not (i.name in by_b and by_b[i.name].width == 1)]
    taken = {i.name for i in kept}
    names: dict[str, str] = {}
    for lk in links:
        names[lk.a_index] = _fresh(lk.a_index, taken)
        taken.add(names[lk.a_index])
    values: dict[str, Affine] = {}
    for lk in links:
        base = Affine.var(names[lk.a_index], lk.scale) + lk.offset
        values[lk.b_index] = base if lk.width == 1 else Affine.var(lk.b_index) + base
    sub = substitute_indices(b, values)
    idxs = [
        Index(i.name, by_b[i.name].width, Affine(), i.tags) if i.name in by_b else i for i in kept
    ]
    idxs += [Index(names[lk.a_index], 1, Affine.var(lk.a_index)) for lk in links]
    constraints = list(sub.constraints)
    for lk in links:
        a_idx, b_idx = a.idx(lk.a_index), b.idx(lk.b_index)
        assert a_idx is not None and b_idx is not None
        low, high = _window(a_idx, lk)
        start, value = b_idx.affine.const, values[lk.b_index]
        if low < start:
            constraints.append(Constraint(value - start))
        if high > start + b_idx.range - 1:
            constraints.append(Constraint(-value + (start + b_idx.range - 1)))
    block = dataclasses.replace(sub, idxs=tuple(idxs), constraints=tuple(constraints))
    passthrough = {v: k for k, v in names.items()}
    return _Part(_drop_unit_indices(block, set(passthrough)), passthrough)


def _drop_unit_indices(block: Block, keep: set[str]) -> Block:
    """Replace the part's own indices of range 1 by their (constant) value, so a part left with
    one point per fused point can be inlined."""
    values = {
        i.name: Affine.const_(i.affine.const)
        for i in block.idxs
        if i.range == 1 and i.name not in keep
    }
    if not values:
        return block
    sub = substitute_indices(block, values)
    return dataclasses.replace(sub, idxs=tuple(i for i in sub.idxs if i.name not in values))


def _fresh(name: str, taken: Iterable[str]) -> str:
    used = set(taken)
    if name not in used:
        return name
    k = 0
    while f"{name}_{k}" in used:
        k += 1
    return f"{name}_{k}"


def _split(part: _Part, which: int) -> list[_Piece]:
    """Split each refinement of a part into F's view and the part's access within it."""
    local = {i.name: i for i in part.block.idxs if i.name not in part.passthrough}
    pieces = []
    for ref in part.block.refs:
        if ref.from_ is None:
            continue
        outer, inner, sizes = [], [], []
        for aff, size in zip(ref.access, ref.shape.sizes, strict=True):
            out_terms, in_terms = [], []
            low, spread = aff.const, 0
            for name, coeff in aff.terms:
                if name in part.passthrough:
                    out_terms.append((part.passthrough[name], coeff))
                    continue
                idx = local[name]
                first, last = idx.affine.const, idx.affine.const + idx.range - 1
                low += min(coeff * first, coeff * last)
                spread += abs(coeff) * (idx.range - 1)
                in_terms.append((name, coeff))
            outer.append(Affine.of(out_terms, low))
            inner.append(Affine.of(in_terms, aff.const - low))
            sizes.append(size + spread)
        pieces.append(_Piece(which, ref, outer, inner, sizes))
    return pieces


def _merge(pieces: list[_Piece]) -> tuple[list[Refinement], dict[tuple[int, str], str]] | None:
    """F's refinements, and for each part's refinement the name of its view in F. Pieces of one
    parent view placed alike (equal dtype, strides and index terms) share one view covering
    them all; differently placed views of a buffer get one view each, unless one writes."""
    groups: dict[tuple[object, ...], list[_Piece]] = {}
    for p in pieces:
        shape = p.ref.shape
        key = (p.ref.from_, shape.dtype, shape.strides, tuple(a.terms for a in p.outer))
        groups.setdefault(key, []).append(p)
    per_buffer: dict[str, list[list[_Piece]]] = {}
    for members in groups.values():
        assert members[0].ref.from_ is not None
        per_buffer.setdefault(members[0].ref.from_, []).append(members)
    refs: list[Refinement] = []
    views: dict[tuple[int, str], str] = {}
    taken = set(per_buffer)
    for from_, group_list in sorted(per_buffer.items()):
        if len(group_list) > 1 and any(p.ref.dir.writes for g in group_list for p in g):
            return None
        for k, members in enumerate(group_list):
            name = from_ if k == 0 else _fresh(from_, taken)
            taken.add(name)
            ref = _merged_view(name, members)
            if ref is None:
                return None
            refs.append(ref)
            views.update({(p.part, p.ref.into): name for p in members})
    return refs, views


def _merged_view(name: str, members: list[_Piece]) -> Refinement | None:
    first = members[0]
    ndims = len(first.outer)
    base = [min(p.outer[d].const for p in members) for d in range(ndims)]
    ends = [max(p.outer[d].const + p.sizes[d] for p in members) for d in range(ndims)]
    for p in members:
        p.inner = [p.inner[d] + (p.outer[d].const - base[d]) for d in range(ndims)]
    aggs = {p.ref.agg_op for p in members if p.ref.dir.writes}
    if len(aggs) > 1:
        return None
    reads = any(p.ref.dir.reads for p in members)
    writes = any(p.ref.dir.writes for p in members)
    direction = RefDir.INOUT if reads and writes else RefDir.OUT if writes else RefDir.IN
    tags = first.ref.tags
    for p in members[1:]:
        tags = tags.add(*p.ref.tags)
    shape = first.ref.shape
    sizes = tuple(e - b for b, e in zip(base, ends, strict=True))
    return Refinement(
        dir=direction,
        from_=first.ref.from_,
        into=name,
        access=tuple(Affine(first.outer[d].terms, base[d]) for d in range(ndims)),
        shape=TensorShape(shape.dtype, sizes, shape.strides),
        agg_op=aggs.pop() if aggs else None,
        location=first.ref.location,
        is_const=all(p.ref.is_const for p in members),
        tags=tags,
    )


def _build(a: Block, b: Block, links: Sequence[IndexLink], opts: FuseOptions) -> Block | None:
    parts = [_a_part(a, links), _b_part(a, b, links)]
    pieces = [p for k, part in enumerate(parts) for p in _split(part, k)]
    merged = _merge(pieces)
    if merged is None:
        return None
    refs, views = merged
    fused_refs = list(refs)
    a_idxs = {i.name: i for i in a.idxs}
    idxs = tuple(a_idxs[lk.a_index] for lk in links)
    # Dependencies only matter when the pair used them; then B waits for all of A.
    any_deps = any(s.deps for s in (*a.stmts, *b.stmts))
    stmts: list[Statement] = []
    comments: list[str] = []
    scalars: set[str] = set()
    a_count = 0
    for k, part in enumerate(parts):
        block = _with_views(part, [p for p in pieces if p.part == k], views)
        if _inlinable(block, part, fused_refs):
            new = _inline(block, part, fused_refs, scalars)
            comments += block.comments
        elif opts.no_inner:
            return None
        else:
            new = [dataclasses.replace(block, deps=())]
        offset = len(stmts)
        for stmt in new:
            deps = tuple(d + offset for d in stmt.deps)
            if k == 1 and any_deps and not deps:
                deps = tuple(range(a_count))
            stmts.append(stmt if deps == stmt.deps else dataclasses.replace(stmt, deps=deps))
        if k == 0:
            a_count = len(stmts)
    return Block(
        name="+".join(n for n in (a.name, b.name) if n),
        comments=tuple(comments),
        idxs=idxs,
        refs=tuple(fused_refs),
        stmts=tuple(stmts),
        location=a.location,
        tags=a.tags.add(*opts.fused_set),
        span=a.span or b.span,
    )


def _with_views(part: _Part, pieces: list[_Piece], views: Mapping[tuple[int, str], str]) -> Block:
    """The part with its refinements re-pointed at F's views, unused passthrough indices and
    trivially true constraints dropped."""
    by_into = {p.ref.into: p for p in pieces}
    refs = []
    for ref in part.block.refs:
        piece = by_into.get(ref.into)
        if piece is None:
            refs.append(ref)
            continue
        refs.append(
            dataclasses.replace(ref, from_=views[(piece.part, ref.into)], access=tuple(piece.inner))
        )
    block = dataclasses.replace(part.block, refs=tuple(refs))
    used = used_index_names(block)
    idxs = tuple(i for i in block.idxs if i.name in used or i.name not in part.passthrough)
    constraints = tuple(c for c in block.constraints if not trivially_true(c))
    return dataclasses.replace(block, idxs=idxs, constraints=constraints)


def _inlinable(block: Block, part: _Part, fused_refs: Sequence[Refinement]) -> bool:
    """A part runs as plain statements of F when it has one point per fused point (only
    passthrough indices, no constraints) and each of its views starts where F's does (a Special
    also needs the same extent, as it touches the whole view)."""
    if block.constraints or any(i.name not in part.passthrough for i in block.idxs):
        return False
    outer = {r.into: r for r in fused_refs}
    special_refs = {
        n for s in block.stmts if isinstance(s, Special) for n in (*s.inputs, *s.outputs)
    }
    for ref in block.refs:
        if ref.from_ is None:
            continue
        if any(not a.is_zero for a in ref.access):
            return False
        if ref.into in special_refs and outer[ref.from_].shape.sizes != ref.shape.sizes:
            return False
    return True


def _inline(
    block: Block, part: _Part, fused_refs: list[Refinement], scalars: set[str]
) -> list[Statement]:
    """The part's statements as statements of F: refinements renamed to F's views (the part's
    own allocations become F's, renamed if taken), passthrough indices to F's indices, and
    scalars renamed where an earlier inlined part defined the same name."""
    ref_names = {r.into: r.from_ for r in block.refs if r.from_ is not None}
    taken = {r.into for r in fused_refs}
    for ref in block.refs:
        if ref.from_ is None:
            name = _fresh(ref.into, taken)
            taken.add(name)
            ref_names[ref.into] = name
            fused_refs.append(dataclasses.replace(ref, into=name))
    idx_values = {p: Affine.var(o) for p, o in part.passthrough.items()}
    renamed: dict[str, str] = {}
    out: list[Statement] = []
    for stmt in block.stmts:
        for name in scalar_outputs(stmt):
            new = _fresh(name, scalars)
            scalars.add(new)
            renamed[name] = new
        out.append(_rename(stmt, ref_names, renamed, idx_values))
    return out


def _rename(
    stmt: Statement,
    refs: Mapping[str, str],
    scalars: Mapping[str, str],
    idxs: Mapping[str, Affine],
) -> Statement:
    def s(name: str) -> str:
        return scalars.get(name, name)

    if isinstance(stmt, Load):
        return dataclasses.replace(stmt, from_=refs[stmt.from_], into=s(stmt.into))
    if isinstance(stmt, Store):
        return dataclasses.replace(stmt, from_=s(stmt.from_), into=refs[stmt.into])
    if isinstance(stmt, LoadIndex):
        return dataclasses.replace(stmt, affine=stmt.affine.substitute(idxs), into=s(stmt.into))
    if isinstance(stmt, Constant):
        return dataclasses.replace(stmt, name=s(stmt.name))
    if isinstance(stmt, Intrinsic):
        return dataclasses.replace(
            stmt,
            inputs=tuple(s(n) for n in stmt.inputs),
            outputs=tuple(s(n) for n in stmt.outputs),
        )
    if isinstance(stmt, Special):
        return dataclasses.replace(
            stmt,
            inputs=tuple(refs[n] for n in stmt.inputs),
            outputs=tuple(refs[n] for n in stmt.outputs),
        )
    child_refs = tuple(
        r if r.from_ is None else dataclasses.replace(r, from_=refs[r.from_]) for r in stmt.refs
    )
    child_idxs = tuple(dataclasses.replace(i, affine=i.affine.substitute(idxs)) for i in stmt.idxs)
    return dataclasses.replace(stmt, refs=child_refs, idxs=child_idxs)
