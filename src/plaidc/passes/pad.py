"""`pad`: pad the inputs of multiply-accumulate kernels so their edge constraints can go.

PlaidML's `pad` pass, with every step proved by isl. A convolution with "same" padding is a
contraction whose constraints (`-1 + i + x >= 0`, ...) keep its input accesses inside the
image. Reading zeros outside the image instead computes the same sums, since a zero factor
contributes nothing to a sum of products, and the kernel loses its constraints (a rectilinear
block tiles, stencils and vectorises better).

For each block matched by `reqs` (default `#main`), each child block `C` of the MAC form:

* a leaf block whose single store goes through an `add`-aggregated view, storing a scalar
  built from loads by `mul` (and `assign`/`ident`): the *zero factors* are the views whose
  loaded value is a factor of the stored product (for `S = +(I[...])` the one input);

loses every constraint (tried one at a time, in order) whose removal is legal:

1. each point the removal adds reads, through some zero factor, an element outside that
   factor's parent view (which padding will make a zero);
2. every other view stays inside its parent view at the added points;
3. the added points store only into elements the old points store into (so no element that
   was not aggregated before gets a sum, STRIPE.md rule 3).

Each parent buffer read out of bounds is then padded to cover the reads. A fresh allocation
of the block (not placed yet, its views all dimension-wise, no Special but `zero` on it) is
padded in place: its views are restrided, the children's accesses shifted, and `B = zero()`
goes first. Any other buffer (a program input, a temporary owned above) is copied into a new
padded allocation `<B>_pad`, zero-filled by `<B>_pad = zero()` and filled by a copy block
tagged `copy_set`, both placed just before the first kernel that reads it (refused, and those
kernels keep their constraints, when something between there and the last such kernel writes
the buffer).

Exactness: the sums gain terms `0 * v`, which are zero for finite `v`; an infinite or NaN `v`
at a padded point would give NaN where the original skipped the point (PlaidML's behaviour).

Before / after (`conv2d_padded`, 1x6x7x2 image, 3x5 kernel):

    in I[0, 0, 0, 0] fp32(1, 6, 7, 2)       in I[0, 0, 0, 0] fp32(1, 6, 7, 2)
                                            none I_pad[0, 0, 0, 0] fp32(1, 8, 11, 2)
    block [ci:2, ..., x:6, y:7] (           0: I_pad = zero()
        -1 + i + x >= 0                     1: block [i0:1, i1:6, i2:7, i3:2] ( // pad_I
        6 - i - x >= 0                          in I[i0, i1, i2, i3] ...
        -2 + j + y >= 0                         out I_pad[i0, 1 + i1, 2 + i2, i3] ...
        8 - j - y >= 0                      2: block [ci:2, ..., x:6, y:7] (     (no constraints)
        in I[n, -1 + i + x, -2 + j + y, ci]     in I_pad[n, i + x, j + y, ci] ...
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import islpy as isl

from plaidc.analysis import (
    AnalysisError,
    DomainCache,
    aff_from_affine,
    affine_bounds,
    extend_domain,
    map_from_affines,
    project_to_depth,
    trace,
)
from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.passes.reorder_blocks import overlap, resolve_buffer, statement_effects
from plaidc.passes.selection import EXCLUDE_HELP, matches
from plaidc.passes.transpose import (
    dense_strides,
    layout_order,
    only_zeroed_whole,
    restride_views,
    views_consistent,
)
from plaidc.stripe.ir import (
    Affine,
    Block,
    Constraint,
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

__all__ = ["PadOptions", "mac_zero_factors"]


@dataclass(frozen=True)
class PadOptions:
    reqs: tuple[str, ...] = option(
        ("main",), "pad the MAC children of the outermost blocks that carry all these tags"
    )
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    copy_set: tuple[str, ...] = option(
        ("eltwise", "eltwise_padding", "kernel"),
        "tags of the blocks copying a buffer into its zero-padded copy",
    )


@register("pad", PadOptions, "zero-pad MAC inputs so edge constraints can be dropped")
def pad(program: Block, opts: PadOptions) -> Block:
    return _walk((), program, opts)


def _walk(ancestors: tuple[Block, ...], block: Block, opts: PadOptions) -> Block:
    if matches(block, opts.reqs, opts.exclude):
        return _pad_block((*ancestors, block), opts)
    chain = (*ancestors, block)
    stmts: list[Statement] = []
    changed = False
    for stmt in block.stmts:
        new = _walk(chain, stmt, opts) if isinstance(stmt, Block) else stmt
        changed |= new is not stmt
        stmts.append(new)
    return dataclasses.replace(block, stmts=tuple(stmts)) if changed else block


# --------------------------------------------------------------------------------------------
# The MAC form


def mac_zero_factors(block: Block) -> tuple[str, frozenset[str]] | None:
    """For a leaf block of the MAC form (see the module docstring): its output view and its
    zero factors (views whose zero makes the stored value zero); None otherwise."""
    stores = [s for s in block.stmts if isinstance(s, Store)]
    if len(stores) != 1 or any(isinstance(s, (Block, Special)) for s in block.stmts):
        return None
    out = block.ref(stores[0].into)
    if out is None or out.agg_op != "add" or not out.dir.writes:
        return None
    defs: dict[str, Statement] = {}
    for stmt in block.stmts:
        if isinstance(stmt, Load):
            if stmt.from_ == out.into:
                return None  # reads its own output: not a plain sum of products
            defs[stmt.into] = stmt
        elif isinstance(stmt, Intrinsic) and len(stmt.outputs) == 1:
            defs[stmt.outputs[0]] = stmt

    def factors(scalar: str) -> frozenset[str]:
        stmt = defs.get(scalar)
        if isinstance(stmt, Load):
            return frozenset([stmt.from_])
        if isinstance(stmt, Intrinsic) and stmt.name == "mul" and len(stmt.inputs) == 2:
            return factors(stmt.inputs[0]) | factors(stmt.inputs[1])
        if isinstance(stmt, Intrinsic) and stmt.name in ("assign", "ident"):
            return factors(stmt.inputs[0]) if len(stmt.inputs) == 1 else frozenset()
        return frozenset()

    zero = factors(stores[0].from_)
    return (out.into, zero) if zero else None


# --------------------------------------------------------------------------------------------
# Which constraints can go


@dataclass(frozen=True)
class _Kernel:
    """A MAC child of the padded block: position, the block with constraints dropped, and the
    per-dimension (min, max) coordinates each of its views reaches in its parent view."""

    position: int
    block: Block
    reach: dict[str, list[tuple[int, int]]]


def _simple_view(parent: Block, ref: Refinement) -> Refinement | None:
    """The parent view `ref` refines when both index elements dimension-wise the same way."""
    source = parent.ref(ref.from_) if ref.from_ is not None else None
    if source is None or source.shape.strides != ref.shape.strides:
        return None
    return source if len(ref.access) == source.shape.ndims else None


def _outside(
    domain: isl.Set, access: Sequence[Affine], sizes: Sequence[int], depth: int
) -> isl.Set:
    """The points of `domain` where `access` falls outside the box `0 <= c < sizes`."""
    space = domain.get_space()
    result = domain.subtract(domain)
    for aff, size in zip(access, sizes, strict=True):
        for bound in (-aff - 1, aff - size):  # aff < 0, aff > size - 1
            half = isl.BasicSet.universe(space).add_constraint(
                isl.Constraint.inequality_from_aff(aff_from_affine(space, bound, depth))
            )
            result = result.union(domain.intersect(isl.Set.from_basic_set(half)))
    return result


def _written(domain: isl.Set, out: Refinement, depth: int) -> isl.Map:
    """`ancestor point -> element` of the elements `out` stores into at the points of
    `domain` (the block's own indices projected away)."""
    relation = map_from_affines(domain.get_space(), out.access, depth).intersect_domain(domain)
    projected = project_to_depth(relation, depth - 1)
    assert isinstance(projected, isl.Map)
    return projected


def _legal(
    cache: DomainCache,
    chain: tuple[Block, ...],
    kernel: Block,
    kept: tuple[Constraint, ...],
    out: str,
    zero: frozenset[str],
) -> bool:
    parent = chain[-1]
    depth = len(chain)
    outer = cache.domain(chain)
    old = extend_domain(outer, kernel, depth)
    new = extend_domain(outer, dataclasses.replace(kernel, constraints=kept), depth)
    added = new.subtract(old)
    if added.is_empty():
        return True
    zeroed = added.subtract(added)
    for ref in kernel.refs:
        view = _simple_view(parent, ref)
        assert view is not None  # checked by the caller
        outside = _outside(added, ref.access, view.shape.sizes, depth)
        if ref.into in zero:
            zeroed = zeroed.union(outside)
        elif not outside.is_empty():
            return False
    if not added.is_subset(zeroed):
        return False
    out_ref = kernel.ref(out)
    assert out_ref is not None
    return _written(added, out_ref, depth).is_subset(_written(old, out_ref, depth))


def _drop_constraints(
    cache: DomainCache, chain: tuple[Block, ...], position: int, kernel: Block
) -> _Kernel | None:
    form = mac_zero_factors(kernel)
    if form is None or not kernel.constraints:
        return None
    if any(_simple_view(chain[-1], ref) is None for ref in kernel.refs):
        return None  # a reshaping view: coordinates do not move dimension-wise
    out, zero = form
    kept = list(kernel.constraints)
    for con in kernel.constraints:
        trial = tuple(c for c in kept if c is not con)
        if _legal(cache, chain, kernel, trial, out, zero):
            kept = list(trial)
    if len(kept) == len(kernel.constraints):
        return None
    dropped = dataclasses.replace(kernel, constraints=tuple(kept))
    domain = extend_domain(cache.domain(chain), dropped, len(chain))
    reach: dict[str, list[tuple[int, int]]] = {}
    for ref in dropped.refs:
        bounds = [affine_bounds(domain, aff, len(chain)) for aff in ref.access]
        if any(b is None for b in bounds):
            return None
        reach[ref.into] = [b for b in bounds if b is not None]
    return _Kernel(position, dropped, reach)


# --------------------------------------------------------------------------------------------
# Padding


def _pad_block(chain: tuple[Block, ...], opts: PadOptions) -> Block:
    block = chain[-1]
    cache = DomainCache()
    kernels: dict[int, _Kernel] = {}
    for pos, stmt in enumerate(block.stmts):
        if isinstance(stmt, Block):
            try:
                kernel = _drop_constraints(cache, chain, pos, stmt)
            except AnalysisError:
                kernel = None
            if kernel is not None:
                kernels[pos] = kernel
    # A kernel whose reads cannot all be padded keeps its constraints; dropping it may shrink
    # what the others need, so decide again until nothing changes.
    while True:
        padding = _padding(block, kernels.values())
        blocked = {name for name in padding if _method(chain, name, kernels) is None}
        stuck = [p for p, k in kernels.items() if any(r.from_ in blocked for r in k.block.refs)]
        if not stuck:
            break
        for pos in stuck:
            del kernels[pos]
    if not kernels:
        return block
    return _apply(chain, kernels, padding, opts)


def _padding(block: Block, kernels: Iterable[_Kernel]) -> dict[str, list[tuple[int, int]]]:
    """Per parent buffer read out of its bounds: (below, above) padding per dimension."""
    padding: dict[str, list[tuple[int, int]]] = {}
    for kernel in kernels:
        for ref in kernel.block.refs:
            view = block.ref(ref.from_) if ref.from_ is not None else None
            assert view is not None
            need = [
                (max(0, -lo), max(0, hi - (size - 1)))
                for (lo, hi), size in zip(kernel.reach[ref.into], view.shape.sizes, strict=True)
            ]
            if any(n != (0, 0) for n in need):
                have = padding.get(view.into, [(0, 0)] * len(need))
                padding[view.into] = [
                    (max(a, c), max(b, d)) for (a, b), (c, d) in zip(have, need, strict=True)
                ]
    return padding


def _readers(kernels: dict[int, _Kernel], name: str) -> list[int]:
    return sorted(p for p, k in kernels.items() if any(r.from_ == name for r in k.block.refs))


def _method(chain: tuple[Block, ...], name: str, kernels: dict[int, _Kernel]) -> str | None:
    """How buffer `name` of `chain[-1]` gets padded: `in-place`, `copy`, or None (it cannot)."""
    block = chain[-1]
    ref = block.ref(name)
    assert ref is not None
    if (
        _own_allocation(chain, ref)
        and _touched_only_by_views(block, name)
        and views_consistent(block, name, ref.shape.strides)
    ):
        return "in-place"
    if not _view_inside(chain, name):
        # The copy reads the whole view, but a tile view may stick out of its buffer (a halo
        # or overflow that only constraints keep the kernel from reaching).
        return None
    readers = _readers(kernels, name)
    target = frozenset([resolve_buffer(chain, name)])
    for pos in range(readers[0], readers[-1] + 1):
        # A copy made before the first reader would be stale for a later one.
        if overlap(statement_effects(chain, block.stmts[pos]).writes, target):
            return None
    return "copy"


def _view_inside(chain: tuple[Block, ...], name: str) -> bool:
    """Whether every element of view `name` of `chain[-1]` lies inside the views it refines,
    for every point of the chain."""
    if chain[-1].ref(name) is None or len(chain) < 2:
        return True
    try:
        levels = trace(chain, name, whole_view=True)
    except AnalysisError:
        return False
    return all(level.outside.is_empty() for level in levels[1:])


def _own_allocation(chain: tuple[Block, ...], ref: Refinement) -> bool:
    """A fresh allocation of the block (not the program's interface), not yet placed."""
    if ref.from_ is not None or ref.offset != 0:
        return False
    return len(chain) > 1 or "user" not in ref.tags


def _touched_only_by_views(block: Block, name: str) -> bool:
    """Whether the block's own loads and stores leave `name` alone (padding moves its element
    0) and no Special but `zero` touches it or a view of it (see `only_zeroed_whole`)."""
    for stmt in block.stmts:
        if isinstance(stmt, (Load, Store)) and name in (stmt.from_, stmt.into):
            return False
    return only_zeroed_whole(block, name)


def _apply(
    chain: tuple[Block, ...],
    kernels: dict[int, _Kernel],
    padding: dict[str, list[tuple[int, int]]],
    opts: PadOptions,
) -> Block:
    block = chain[-1]
    stmts: list[Statement] = list(block.stmts)
    for pos, kernel in kernels.items():
        stmts[pos] = kernel.block
    refs = list(block.refs)
    front: list[Statement] = []
    before: dict[int, list[Statement]] = {}
    taken = {r.into for r in refs}
    for name, amounts in sorted(padding.items()):
        view = block.ref(name)
        assert view is not None
        sizes = tuple(s + lo + hi for s, (lo, hi) in zip(view.shape.sizes, amounts, strict=True))
        strides = dense_strides(sizes, layout_order(view.shape))
        shape = TensorShape(view.shape.dtype, sizes, strides)
        shift = [lo for lo, _ in amounts]
        if _method(chain, name, kernels) == "in-place":
            refs = [dataclasses.replace(r, shape=shape) if r.into == name else r for r in refs]
            for pos, stmt in enumerate(stmts):
                if isinstance(stmt, Block):
                    stmts[pos] = _redirect(stmt, name, name, shift, strides)
            front.append(Special(name="zero", inputs=(), outputs=(name,)))
            continue
        padded = _fresh_name(taken, f"{name}_pad")
        taken.add(padded)
        refs.append(Refinement(RefDir.NONE, None, padded, tuple(Affine() for _ in sizes), shape))
        readers = _readers(kernels, name)
        before.setdefault(readers[0], []).extend(
            [
                Special(name="zero", inputs=(), outputs=(padded,)),
                _copy_block(view, padded, shape, shift, opts),
            ]
        )
        for pos in readers:
            reader = stmts[pos]
            assert isinstance(reader, Block)
            stmts[pos] = _redirect(reader, name, padded, shift, strides)
    return _assemble(dataclasses.replace(block, refs=tuple(refs)), stmts, front, before)


def _assemble(
    block: Block,
    stmts: list[Statement],
    front: list[Statement],
    before: dict[int, list[Statement]],
) -> Block:
    """`block` with statements `stmts` (one per old position) and the fills inserted: `front`
    first, `before[p]` just before old statement `p`. Dependencies are renumbered; when the
    block tracks them at all, a fill depends on the fills before it at the same place and on
    what the statement it precedes depends on, and that statement depends on its fills (so a
    scheduler keeps zero, copy and reader in order)."""
    tracked = any(s.deps for s in block.stmts)
    positions: dict[int, int] = {}
    placed: list[tuple[Statement, tuple[int, ...]]] = []
    for pos, stmt in enumerate(stmts):
        fills = [*front, *before.get(pos, [])] if pos == 0 else before.get(pos, [])
        first_fill = len(placed)
        for fill in fills:
            deps = tuple(range(first_fill, len(placed))) if tracked else ()
            inherited = tuple(positions[d] for d in stmt.deps if d in positions)
            placed.append((fill, tuple(sorted({*deps, *inherited}))))
        positions[pos] = len(placed)
        own = tuple(positions[d] for d in stmt.deps)
        if tracked:
            own = (*own, *range(first_fill, len(placed)))
        placed.append((stmt, tuple(sorted(set(own)))))
    new = [s if s.deps == deps else dataclasses.replace(s, deps=deps) for s, deps in placed]
    return dataclasses.replace(block, stmts=tuple(new))


def _redirect(
    child: Block, name: str, target: str, shift: Sequence[int], strides: tuple[int, ...]
) -> Block:
    """`child` with its views of the parent's `name` moved to `target`: coordinates shifted by
    `shift` and every view below restrided to `strides`."""
    if not any(r.from_ == name for r in child.refs):
        return child
    refs = []
    for ref in child.refs:
        if ref.from_ == name:
            access = tuple(a + lo for a, lo in zip(ref.access, shift, strict=True))
            ref = dataclasses.replace(
                ref,
                from_=target,
                access=access,
                shape=dataclasses.replace(ref.shape, strides=strides),
            )
        refs.append(ref)
    child = dataclasses.replace(child, refs=tuple(refs))
    for ref in refs:
        if ref.from_ == target:
            child = restride_views(child, ref.into, strides)
    return child


def _fresh_name(taken: set[str], base: str) -> str:
    name, n = base, 0
    while name in taken:
        n += 1
        name = f"{base}{n}"
    return name


def _copy_block(
    view: Refinement, padded: str, shape: TensorShape, shift: Sequence[int], opts: PadOptions
) -> Block:
    """`padded[shift + i] = view[i]` for every element `i` of `view`."""
    names = [f"i{d}" for d in range(view.shape.ndims)]
    ones = tuple(1 for _ in names)
    src = Refinement(
        RefDir.IN,
        view.into,
        view.into,
        tuple(Affine.var(n) for n in names),
        TensorShape(view.shape.dtype, ones, view.shape.strides),
    )
    dst = Refinement(
        RefDir.OUT,
        padded,
        padded,
        tuple(Affine.var(n) + lo for n, lo in zip(names, shift, strict=True)),
        TensorShape(shape.dtype, ones, shape.strides),
    )
    value = f"${view.into}"
    return Block(
        name=f"pad_{view.into}",
        idxs=tuple(Index(n, s) for n, s in zip(names, view.shape.sizes, strict=True)),
        refs=(src, dst),
        stmts=(Load(from_=view.into, into=value), Store(from_=value, into=padded)),
        tags=Tags.of(*opts.copy_set),
    )
