"""`cache`: give a block a local copy, in a faster memory, of a refinement it uses.

For each selected refinement `R` of a matched block `B` (a view of a parent buffer whose
direction is in `dirs`, and which option `ref` names: by its name, one of its tags, a tag of a
view refining it in a block below, such as the `#A #B #C` that `stencil` puts on the inner
views, or `all`), `B` gets:

* a fresh `none` allocation named `R`, located in `mem_loc`, with dense strides and the sizes of
  the box of elements `B`'s points reach through `R` (its footprint, from `plaidc.analysis`),
  its last dimensions rounded up to multiples of `pad` (e.g. `pad = [16, 16]` for a Cube's
  16×16 fractals: the buffer then has the bytes of the padded tile; the transfers still copy
  the footprint only, and nothing reads the padding);
  the original view is renamed `R_raw` and keeps its direction, aggregation and access;
* a load transfer block just before the first statement using `R`, when some statement reads
  an element of `R` that no earlier statement of the point wrote: one point per box element,
  copying `R_raw` into the local buffer;
* its statements rewritten to use the local buffer (child views of `R` shifted to the box
  origin, restrided to the dense layout and located in `mem_loc`, down the whole subtree);
* a store transfer block just after the last statement using `R`, when something writes
  through `R`, copying the local buffer back to `R_raw` under `R`'s aggregation.

Transfer blocks carry the tags `load_set` / `store_set` and the location `xfer_loc` (for
stores `store_loc` when given, e.g. another DMA engine). Box elements outside `R`'s view or its
parent's view are cut off by constraints on the transfer (edge tiles, halos: passthrough
indices bring `B`'s indices in).

Definition 2 is kept exactly: a point's value for an element of `R_raw` is what the store
transfer copies, which is what the point's statements left in the local buffer (children
aggregate into the local buffer, which `B` owns, so nothing is aggregated twice), and `R_raw`
aggregates the points' values under the original agg_op (an `out ...:add` tile of a split
reduction contributes its partial sums). For that the copy-out must write exactly the elements
the point writes (a poison element copied out would enter the aggregation), and the copy-in
must read the elements the point reads and nothing another point writes; both are checked with
isl on the rewritten block, with the bounds of every copied element. A refinement is left as
it is (the pass does nothing for it) when a check fails, when a Special or a view with other
strides uses it below `B`, when another refinement of `B` aliases its buffer and one of them
writes, or when the footprint cannot be analysed.

Blocks are matched pre-order, outermost first, without descending into a match; the program
block itself is searched through (its refinements are the caller's buffers).

Before / after (`--pass cache{reqs=[tile],ref=[A],mem_loc=UB,xfer_loc=DMA}`):

    block [x:4]:4 (                            block [x:4]:4 (
        in A[8*x] fp32:I(8):(1)                    none new@0x00000000 A<UB>[0] fp32:I(8):(1)
        out B[8*x] fp32:I(8):(1)                   in A_raw = A[8*x] fp32:I(8):(1)
    ) {                                            out B[8*x] fp32:I(8):(1)
      0: block [i:8]:8 (                       ) {
          in A[i] fp32:I(1):(1)                  0: #xfer #xfer_load
          out B[i] fp32:I(1):(1)                 block<DMA> [i0:8]:8 ( // load_A
      ) { ... }                                      in src = A_raw[i0] fp32:I(1):(1)
    }                                                out dst = A<UB>[i0]:assign fp32:I(1):(1)
                                                 ) { 0: $X = load(src)  1: dst = store($X) }
                                                 1: block [i:8]:8 ( in A<UB>[i] ... ) { ... }
                                               }

The local buffer is per point of `B` (a fresh allocation), so each point copies its own tile;
its size is the box, over all points, of the footprint relative to `R`'s element 0: the tile
when `R` moves with the point (autotiled code), the whole view when it does not.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import islpy as isl

from plaidc.analysis import (
    AnalysisError,
    DomainCache,
    extend_domain,
    footprint,
    footprint_box,
    project_to_depth,
    resolve_view,
    trace,
)
from plaidc.options import option
from plaidc.passes.registry import PassOptionError, location_option, register
from plaidc.passes.selection import EXCLUDE_HELP, map_sub_blocks, matches
from plaidc.stripe.ir import (
    Affine,
    Block,
    Constraint,
    Index,
    Load,
    Location,
    LocUnit,
    RefDir,
    Refinement,
    Special,
    Statement,
    Store,
    Tags,
    TensorShape,
)
from plaidc.stripe.uses import statement_ref_names, used_index_names

__all__ = [
    "CacheOptions",
    "cache",
    "copy_block",
    "fresh_name",
    "padded",
    "shift_deps",
]

_DIRS: tuple[Literal["in", "out", "inout"], ...] = ("in", "out", "inout")


@dataclass(frozen=True)
class CacheOptions:
    reqs: tuple[str, ...] = option(
        ("all",),
        'cache in the outermost blocks below the program that carry all these tags ("all")',
    )
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    ref: tuple[str, ...] = option(
        (),
        'refinements to cache: by name, by a tag of theirs or of a view of them below ("all": '
        "every view; empty: none)",
    )
    dirs: tuple[Literal["in", "out", "inout"], ...] = option(
        _DIRS, "cache only refinements of these directions"
    )
    mem_loc: str = option(
        "LOCAL",
        "location of the local copies, e.g. UB or UB[1] (required; units take constants only)",
    )
    xfer_loc: str = option("", "location of the transfer blocks, e.g. a DMA engine (empty: none)")
    store_loc: str = option("", "location of the store transfers when it differs (empty: xfer_loc)")
    load_set: tuple[str, ...] = option(("xfer", "xfer_load"), "tags of the load transfer blocks")
    store_set: tuple[str, ...] = option(("xfer", "xfer_store"), "tags of the store transfer blocks")
    pad: tuple[int, ...] = option(
        (),
        "round the copy's last len(pad) dimensions up to multiples of these (e.g. [16, 16] for "
        "16x16 fractals)",
        min=1,
    )

    def __post_init__(self) -> None:
        if location_option(self.mem_loc, "cache", "mem_loc") is None:
            raise PassOptionError("pass 'cache': option 'mem_loc': a memory location is required")
        location_option(self.xfer_loc, "cache", "xfer_loc")
        location_option(self.store_loc, "cache", "store_loc")
        for key in ("mem_loc", "xfer_loc", "store_loc"):
            loc = location_option(getattr(self, key), "cache", key)
            if loc is not None and any(a.names() for u in loc.units for a in u.idxs):
                raise PassOptionError(
                    f"pass 'cache': option '{key}': {getattr(self, key)}: a location of cache's "
                    "copies cannot name indices (units take constants, e.g. UB[1])"
                )


@register("cache", CacheOptions, "give a block a local copy of a refinement in a faster memory")
def cache(program: Block, opts: CacheOptions) -> Block:
    if not opts.ref:
        return program
    mem_loc = location_option(opts.mem_loc, "cache", "mem_loc")
    assert mem_loc is not None  # checked with the options
    load_loc = location_option(opts.xfer_loc, "cache", "xfer_loc")
    store_loc = location_option(opts.store_loc, "cache", "store_loc") or load_loc
    where = _Where(mem_loc, load_loc, store_loc)
    return _rewrite((program,), opts, lambda chain: _cache_block(chain, opts, where))


# --------------------------------------------------------------------------------------------
# Helpers shared with `schedule`


def fresh_name(base: str, taken: set[str]) -> str:
    """`base`, or `base_1`, `base_2`, ... whichever is not in `taken`."""
    if base not in taken:
        return base
    k = 1
    while f"{base}_{k}" in taken:
        k += 1
    return f"{base}_{k}"


def shift_deps(stmt: Statement, mapping: Callable[[int], int]) -> Statement:
    """`stmt` with its dependencies renumbered through `mapping`."""
    if not stmt.deps:
        return stmt
    return dataclasses.replace(stmt, deps=tuple(sorted({mapping(d) for d in stmt.deps})))


def copy_block(
    name: str,
    src: Refinement,
    dst: Refinement,
    origin_src: Sequence[int],
    origin_dst: Sequence[int],
    sizes: Sequence[int],
    location: Location | None,
    tags: Tags,
    taken: set[str],
) -> Block:
    """A transfer block copying the box `sizes` from view `src` (starting at `origin_src`) to
    view `dst` (at `origin_dst`), element by element; `dst` keeps its agg_op. `taken`: names
    the transfer's indices must avoid (the enclosing block's, for passthrough indices)."""
    names: list[str] = []
    for d in range(len(sizes)):
        names.append(fresh_name(f"i{d}", taken | set(names)))
    idxs = tuple(Index(n, s) for n, s in zip(names, sizes, strict=True))

    def view(ref: Refinement, into: str, origin: Sequence[int], dir_: RefDir) -> Refinement:
        access = tuple(Affine.var(n) + o for n, o in zip(names, origin, strict=True))
        unit = TensorShape(ref.shape.dtype, (1,) * len(sizes), ref.shape.strides)
        agg = (ref.agg_op or "assign") if dir_ == RefDir.OUT else None
        return Refinement(dir_, ref.into, into, access, unit, agg, _static(ref.location))

    return Block(
        name=name,
        idxs=idxs,
        refs=(view(src, "src", origin_src, RefDir.IN), view(dst, "dst", origin_dst, RefDir.OUT)),
        stmts=(Load(from_="src", into="$X"), Store(from_="$X", into="dst")),
        location=location,
        tags=tags,
    )


def padded(sizes: Sequence[int], pad: Sequence[int]) -> list[int]:
    """`sizes` with the last `len(pad)` of them rounded up to multiples of `pad`'s (aligned
    at the end: `padded([3, 7, 20], [16, 16]) == [3, 16, 32]`)."""
    out = list(sizes)
    for d, multiple in zip(range(len(out) - 1, -1, -1), reversed(pad), strict=False):
        out[d] = -(-out[d] // multiple) * multiple
    return out


def _static(loc: Location | None) -> Location | None:
    """`loc` without unit indices that name indices (the transfer block has other ones)."""
    if loc is None or not any(a.names() for u in loc.units for a in u.idxs):
        return loc
    return Location(tuple(LocUnit(u.name) for u in loc.units))


# --------------------------------------------------------------------------------------------
# The walk


def _rewrite(
    chain: tuple[Block, ...], opts: CacheOptions, fn: Callable[[tuple[Block, ...]], Block]
) -> Block:
    """Pre-order, outermost match, no descent into a match (like `rewrite_matching`), giving
    `fn` the root-to-block chain. The program itself has no views to cache (its refinements
    are the caller's buffers) and is searched through, so `reqs=[all]` reaches `#main`."""
    block = chain[-1]
    if len(chain) > 1 and matches(block, opts.reqs, opts.exclude):
        return fn(chain)
    return map_sub_blocks(block, lambda child: _rewrite((*chain, child), opts, fn))


def _selected(block: Block, ref: Refinement, opts: CacheOptions) -> bool:
    """Whether `opts.ref` names `ref` or one of its tags, or a tag of a view refining it in a
    block below (`stencil` tags the inner views `#A #B #C`; their tile, or a frame around it,
    is cached outside)."""
    if ref.from_ is None or ref.dir.value not in opts.dirs:
        return False
    if "all" in opts.ref or ref.into in opts.ref or ref.tags.has_any(opts.ref):
        return True
    return _tagged_below(block, ref.into, opts.ref)


def _tagged_below(block: Block, name: str, tags: Sequence[str]) -> bool:
    """Whether a view of `name` in a block below `block`, or a view of that view further
    down, carries one of `tags`."""
    return any(
        child.from_ == name and (child.tags.has_any(tags) or _tagged_below(stmt, child.into, tags))
        for stmt in block.stmts
        if isinstance(stmt, Block)
        for child in stmt.refs
    )


@dataclass(frozen=True)
class _Where:
    """Locations: the local buffer's, and the load and store transfers'."""

    mem: Location
    load: Location | None
    store: Location | None


def _cache_block(chain: tuple[Block, ...], opts: CacheOptions, where: _Where) -> Block:
    block = chain[-1]
    for name in [r.into for r in block.refs if _selected(block, r, opts)]:
        new = _cache_ref((*chain[:-1], block), name, opts, where)
        if new is not None:
            block = new
    return block


# --------------------------------------------------------------------------------------------
# Caching one refinement


def _uses(block: Block, name: str, ref: Refinement) -> bool | None:
    """Whether `block` itself loads or stores through `name`; None when restriding the views
    below would change their meaning (a Special, or a view with another layout)."""
    direct = False
    for stmt in block.stmts:
        if isinstance(stmt, Load):
            direct |= stmt.from_ == name
        elif isinstance(stmt, Store):
            direct |= stmt.into == name
        elif isinstance(stmt, Special):
            if name in stmt.inputs or name in stmt.outputs:
                return None
        elif isinstance(stmt, Block):
            for child in stmt.refs:
                if child.from_ != name:
                    continue
                if child.shape.strides != ref.shape.strides or len(child.access) != len(ref.access):
                    return None
                if _uses(stmt, child.into, child) is None:
                    return None
    return direct


def _rebase(
    block: Block,
    name: str,
    shift: Sequence[int],
    strides: tuple[int, ...],
    location: Location,
) -> Block:
    """Child views of `name` move by `-shift` and, with every view below them, take `strides`
    and `location` (they now view the local buffer)."""
    zero = (0,) * len(shift)

    def child(stmt: Block) -> Block:
        inner = [r.into for r in stmt.refs if r.from_ == name]
        if not inner:
            return stmt
        refs = tuple(
            dataclasses.replace(
                r,
                access=tuple(a - s for a, s in zip(r.access, shift, strict=True)),
                shape=dataclasses.replace(r.shape, strides=strides),
                location=location,
            )
            if r.from_ == name
            else r
            for r in stmt.refs
        )
        out = dataclasses.replace(stmt, refs=refs)
        for n in inner:
            out = _rebase(out, n, zero, strides, location)
        return out

    return map_sub_blocks(block, child)


def _owner(chain: Sequence[Block], name: str) -> tuple[int, str]:
    depth, ref = resolve_view(chain, name)[-1]
    return depth, ref.into


def _aliased(chain: tuple[Block, ...], name: str) -> bool:
    """Whether another refinement of `chain[-1]` views the same buffer as `name` while one of
    the two may write: a copy would then miss what the other view does within one point."""
    block = chain[-1]
    ref = block.ref(name)
    assert ref is not None
    owner = _owner(chain, name)
    for other in block.refs:
        if other.into == name or not (other.dir.writes or ref.dir.writes):
            continue
        if other.from_ is not None and _owner(chain, other.into) == owner:
            return True
    return False


def _written_below(block: Block, names: set[str]) -> bool:
    """Whether anything in `block` may write through refinements `names` of it."""
    for stmt in block.stmts:
        if isinstance(stmt, Store) and stmt.into in names:
            return True
        if isinstance(stmt, Special) and names.intersection(stmt.outputs):
            return True
        if isinstance(stmt, Block):
            views = {r.into for r in stmt.refs if r.from_ in names}
            if any(r.dir.writes for r in stmt.refs if r.into in views):
                return True
            if views and _written_below(stmt, views):
                return True
    return False


def _cache_ref(
    chain: tuple[Block, ...],
    name: str,
    opts: CacheOptions,
    where: _Where,
) -> Block | None:
    """`chain[-1]` with refinement `name` cached, or None when that is not known to be exact."""
    block = chain[-1]
    ref = block.ref(name)
    assert ref is not None and ref.from_ is not None
    direct = _uses(block, name, ref)
    if direct is None:
        return None
    domains = DomainCache()
    try:
        if _aliased(chain, name):
            return None
        reads = _exposed_reads(chain, name, domains)
        writes = footprint(chain, name, reads=False, writes=True, domains=domains)
        box = footprint_box(footprint(chain, name, domains=domains))
    except AnalysisError:
        return None
    if box is None:
        return None
    origin = [lo for lo, _ in box]
    sizes = [hi - lo + 1 for lo, hi in box]
    if direct and any(origin):
        return None  # a load/store in the block itself reads element 0 of the view
    local_shape = TensorShape.dense(ref.shape.dtype, padded(sizes, opts.pad))
    raw_name = fresh_name(f"{name}_raw", {r.into for r in block.refs})
    raw = dataclasses.replace(ref, into=raw_name, tags=Tags())
    local = Refinement(
        RefDir.NONE,
        None,
        name,
        (Affine(),) * len(sizes),
        local_shape,
        location=where.mem,
        tags=ref.tags,
    )
    body = _rebase(block, name, origin, local_shape.strides, where.mem)
    refs = (*(r for r in block.refs if r.into != name), raw, local)
    frame = dataclasses.replace(body, refs=refs)
    parent = chain[-2].ref(ref.from_)
    zero = [0] * len(sizes)
    taken = {i.name for i in block.idxs}

    def transfer(kind: str, tags: tuple[str, ...]) -> Block:
        if kind == "load":
            xfer = copy_block(
                f"load_{name}", raw, local, origin, zero, sizes, where.load, Tags.of(*tags), taken
            )
        else:
            xfer = copy_block(
                f"store_{name}", local, raw, zero, origin, sizes, where.store, Tags.of(*tags), taken
            )
        return _bound(chain[:-1], frame, xfer, raw, parent, "src" if kind == "load" else "dst")

    depth = len(chain) - 1
    try:
        load = transfer("load", opts.load_set) if not reads.is_empty() else None
        store = transfer("store", opts.store_set) if not writes.is_empty() else None
        new = dataclasses.replace(frame, stmts=_assemble(frame, name, load, store))
        new_chain = (*chain[:-1], new)
        if load is not None:
            copied = _copied(new_chain, load, "src", depth, domains)
            if copied is None or not reads.is_subset(copied):
                return None
            if not copied.is_equal(reads):
                depth_o, owner = _owner(chain, name)
                if _written_below(chain[depth_o], {owner}):
                    return None
        if store is not None:
            copied = _copied(new_chain, store, "dst", depth, domains)
            if copied is None or not copied.is_equal(writes):
                return None
    except (AnalysisError, isl.Error):
        return None
    return new


def _exposed_reads(chain: tuple[Block, ...], name: str, domains: DomainCache) -> isl.Map:
    """Per point of `chain[-1]`, the elements of view `name` a statement reads that no earlier
    statement of the point wrote: what the copy-in must provide. Stripe has no control flow,
    so a write footprint is written at every point of its domain."""
    block = chain[-1]
    exposed: isl.Map | None = None
    written: isl.Map | None = None
    for stmt in block.stmts:
        if not _mentions(stmt, name):
            continue
        alone = (*chain[:-1], dataclasses.replace(block, stmts=(stmt,)))
        reads = footprint(alone, name, reads=True, writes=False, domains=domains)
        writes = footprint(alone, name, reads=False, writes=True, domains=domains)
        if written is not None:
            reads = reads.subtract(written)
        exposed = reads if exposed is None else exposed.union(reads)
        written = writes if written is None else written.union(writes)
    if exposed is None:
        return footprint(chain, name, reads=True, writes=False, domains=domains)
    return exposed.coalesce()


def _bound(
    outer: tuple[Block, ...],
    frame: Block,
    xfer: Block,
    raw: Refinement,
    parent: Refinement | None,
    side: str,
) -> Block:
    """Cut the transfer's box to the elements inside the raw view and its parent's view, as
    constraints over the transfer's indices and passthrough copies of the block's indices;
    constraints the domain already implies are dropped."""
    view = xfer.ref(side)
    assert view is not None
    coords = view.access  # coordinates in the raw view
    cons: list[Affine] = []
    for d, c in enumerate(coords):
        cons += [c, Affine.const_(raw.shape.sizes[d] - 1) - c]
    layered = parent is not None and (
        parent.shape.strides == raw.shape.strides and len(parent.access) == len(raw.access)
    )
    if layered:
        assert parent is not None
        for d, c in enumerate(coords):
            at = raw.access[d] + c
            cons += [at, Affine.const_(parent.shape.sizes[d] - 1) - at]
    through = sorted({n for a in raw.access for n in a.names()})
    idxs = xfer.idxs + tuple(Index(n, 1, Affine.var(n)) for n in through)
    xfer = dataclasses.replace(
        xfer, idxs=idxs, constraints=tuple(Constraint(a) for a in cons if not _true(a))
    )
    xfer = _drop_implied((*outer, frame), xfer)
    used = used_index_names(xfer)
    keep = tuple(i for i in xfer.idxs if i.name in used or i.range != 1 or i.affine.is_zero)
    return dataclasses.replace(xfer, idxs=keep)


def _drop_implied(chain: tuple[Block, ...], xfer: Block) -> Block:
    """`xfer` without the constraints that the others and the chain's domain imply."""
    parent = DomainCache().domain(chain)
    depth = len(chain)
    base = extend_domain(parent, dataclasses.replace(xfer, constraints=()), depth)
    halves = [
        extend_domain(parent, dataclasses.replace(xfer, constraints=(c,)), depth)
        for c in xfer.constraints
    ]
    kept = [k for k, half in enumerate(halves) if not base.is_subset(half)]
    for k in list(kept):
        rest = base
        for j in kept:
            if j != k:
                rest = rest.intersect(halves[j])
        if rest.is_subset(halves[k]):
            kept.remove(k)
    return dataclasses.replace(xfer, constraints=tuple(xfer.constraints[k] for k in kept))


def _true(aff: Affine) -> bool:
    return aff.is_constant and aff.const >= 0


def _copied(
    chain: tuple[Block, ...], xfer: Block, side: str, depth: int, domains: DomainCache
) -> isl.Map | None:
    """The elements of the raw view the transfer copies, per point of the block at `depth`
    (None when a copied element falls outside some view up to the buffer)."""
    levels = trace((*chain, xfer), side, whole_view=False, domains=domains)
    if any(not level.outside.is_empty() for level in levels):
        return None
    reached = project_to_depth(levels[1].elements, depth)
    assert isinstance(reached, isl.Map)
    return reached.coalesce()


def _assemble(frame: Block, name: str, load: Block | None, store: Block | None) -> tuple:
    """The block's statements with the load just before the first statement using the copy and
    the store just after the last one, dependencies renumbered (and, where the block lists
    dependencies at all, the transfers wired to the statements using the copy)."""
    users = [k for k, stmt in enumerate(frame.stmts) if _mentions(stmt, name)]
    with_deps = any(s.deps for s in frame.stmts)
    new_pos: dict[int, int] = {}
    out: list[Statement] = []
    load_pos = 0
    for pos, stmt in enumerate(frame.stmts):
        if load is not None and pos == users[0]:
            load_pos = len(out)
            out.append(load)
        new_pos[pos] = len(out)
        stmt = shift_deps(stmt, lambda d: new_pos[d])
        if with_deps and load is not None and pos in users:
            stmt = dataclasses.replace(stmt, deps=tuple(sorted({load_pos, *stmt.deps})))
        out.append(stmt)
        if store is not None and pos == users[-1]:
            if with_deps:
                store = dataclasses.replace(store, deps=tuple(new_pos[u] for u in users))
            out.append(store)
    return tuple(out)


def _mentions(stmt: Statement, name: str) -> bool:
    return name in statement_ref_names(stmt)
