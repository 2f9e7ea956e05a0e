"""`separate-boundary`: split a tiled block into interior tiles and boundary tiles (§2.3).

A tiled block `T` (an outer block whose child blocks carry constraints: halos, overflow of an
uneven split) runs the same code for every tile, although the constraints only cut the tiles at
the edges. This pass splits the iteration space of `T` into

* the *interior*: the outer points for which every constraint of every constrained child holds
  at every point of the child's index box. It must be a box of `T`'s index offsets (isl checks
  that it is exactly one); its copy of `T` keeps only that box and its children lose their
  constraints, so they become rectilinear;
* the *boundary*: the rest of `T`'s box, cut into at most two boxes per index of `T` (below and
  above the interior range of that index, the earlier indices restricted to their interior
  range), each a copy of `T` with the children's constraints kept. With `reduce` (default)
  every piece then goes through `reduce-constraints`, so each boundary piece keeps only the
  constraints that still cut it, and pieces that never run vanish.

The pieces replace `T` in its parent, interior first, tagged `interior_set` / `boundary_set`.
Together they run exactly the points `T` ran (the pieces are disjoint boxes covering `T`'s box).
Running them one after another instead of as one parallel block is equivalent only when no
element is written by points of two different pieces (an aggregation would otherwise restart
in the second piece, STRIPE.md rule 3) and no point reads what a point of another piece writes;
isl checks both for every buffer `T` writes, and `T` is left alone when either fails. Blocks
inside a matched subtree are visited outer first, so the pieces' children are split in turn.

Before / after (Figure 5b; the tiles of rows 1-2 and columns 1-2 need no halo checks):

    block [x:4, y:4, ...] (            #interior block [x:2, y:2, ...] (     (x means x + 1)
        in I[-1 + 3*x, ...] ...            in I[2 + 3*x, 3 + 4*y, 0] ...
    ) {                                ) {
      block [x:3, y:4, ...,              block [x:3, ..., xo = 3 + 3*x, ...] (  (no constraints)
             xo = 3*x, yo = 4*y] (     }
          -1 + i + x + xo >= 0         #boundary block [x:1, y:4, ...] (      (tile row 0)
          12 - i - x - xo >= 0         ) {
          -1 + j + y + yo >= 0           block [...] (
          16 - j - y - yo >= 0               -1 + i + x + xo >= 0  (and the two y constraints)
          ...                          ...three more: tile row 3, columns 0 and 3 of rows 1-2
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import islpy as isl

from plaidc.analysis import (
    AnalysisError,
    DomainCache,
    aff_from_affine,
    extend_domain,
    footprint,
    lift,
    project_to_depth,
    sharing_points,
)
from plaidc.options import option
from plaidc.passes.reduce_constraints import reduce_subtree, shift_index_ranges
from plaidc.passes.registry import register
from plaidc.passes.selection import EXCLUDE_HELP, matches
from plaidc.stripe.ir import Affine, Block, Statement

__all__ = ["SeparateBoundaryOptions", "splice_statements"]


@dataclass(frozen=True)
class SeparateBoundaryOptions:
    reqs: tuple[str, ...] = option(
        ("all",), 'split the blocks in and below blocks carrying all these tags ("all": every one)'
    )
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    interior_set: tuple[str, ...] = option(("interior",), "tags of the interior piece")
    boundary_set: tuple[str, ...] = option(("boundary",), "tags of the boundary pieces")
    reduce: bool = option(
        True, "run reduce-constraints on every piece (drops constraints that no longer cut it)"
    )


@register(
    "separate-boundary",
    SeparateBoundaryOptions,
    "split tiled blocks into constraint-free interior tiles and boundary tiles",
)
def separate_boundary(program: Block, opts: SeparateBoundaryOptions) -> Block:
    return _walk_children((), program, opts, active=matches(program, opts.reqs, opts.exclude))


# A piece of T: for each index of T, the offsets [lo, hi] of its range that the piece keeps.
Piece = dict[str, tuple[int, int]]


def _walk_children(
    ancestors: tuple[Block, ...], block: Block, opts: SeparateBoundaryOptions, active: bool
) -> Block:
    """`block` with each child block replaced by its pieces, recursively."""
    chain = (*ancestors, block)
    replacements: list[list[Statement]] = []
    changed = False
    for stmt in block.stmts:
        if not isinstance(stmt, Block):
            replacements.append([stmt])
            continue
        child_active = active or matches(stmt, opts.reqs, opts.exclude)
        pieces = _separate(chain, stmt, opts) if child_active else [stmt]
        done: list[Statement] = []
        for piece in pieces:
            new = _walk_children(chain, piece, opts, child_active)
            done.append(new)
        changed |= len(done) != 1 or done[0] is not stmt
        replacements.append(done)
    if not changed:
        return block
    return splice_statements(block, replacements)


def splice_statements(block: Block, replacements: Sequence[Sequence[Statement]]) -> Block:
    """`block` with statement `i` replaced by the statements `replacements[i]` (possibly none);
    a dependency on a replaced statement becomes one on each of its replacements, and the
    replacements inherit the dependencies of the statement they replace."""
    positions: list[list[int]] = []
    count = 0
    for group in replacements:
        positions.append(list(range(count, count + len(group))))
        count += len(group)
    stmts: list[Statement] = []
    for old, group in enumerate(replacements):
        deps = tuple(sorted({p for d in block.stmts[old].deps for p in positions[d]}))
        for stmt in group:
            stmts.append(stmt if stmt.deps == deps else dataclasses.replace(stmt, deps=deps))
    return dataclasses.replace(block, stmts=tuple(stmts))


# --------------------------------------------------------------------------------------------
# Finding the interior


def _separate(
    ancestors: tuple[Block, ...], block: Block, opts: SeparateBoundaryOptions
) -> list[Block]:
    """The pieces `block` splits into (`[block]` itself when it does not split)."""
    constrained = [
        pos for pos, s in enumerate(block.stmts) if isinstance(s, Block) and s.constraints
    ]
    if not constrained or not any(i.range > 1 for i in block.idxs):
        return [block]
    cache = DomainCache()
    chain = (*ancestors, block)
    try:
        interior = _interior(cache, chain, constrained)
        if interior is None:
            return [block]
        pieces = _pieces(block, interior)
        if len(pieces) > 1 and not _independent(cache, chain, pieces):
            return [block]
    except AnalysisError:
        return [block]
    return _build(ancestors, block, constrained, pieces, opts)


def _interior(cache: DomainCache, chain: tuple[Block, ...], constrained: list[int]) -> Piece | None:
    """The interior of `chain[-1]` as a box of index offsets, or None when it is empty or not a
    box."""
    block = chain[-1]
    depth = len(chain) - 1
    outer = cache.domain(chain)
    bad = outer.subtract(outer)
    for pos in constrained:
        child = block.stmts[pos]
        assert isinstance(child, Block)
        box = extend_domain(outer, dataclasses.replace(child, constraints=()), depth + 1)
        space = box.get_space()
        for con in child.constraints:
            # The points of the child's box where this constraint fails: -affine - 1 >= 0.
            aff = aff_from_affine(space, -con.affine - 1, depth + 1)
            failing = box.intersect(isl.Set.from_basic_set(_half_space(aff)))
            projected = project_to_depth(failing, depth)
            assert isinstance(projected, isl.Set)
            bad = bad.union(projected)
    interior = outer.subtract(bad).coalesce()
    if interior.is_empty():
        return None
    piece: Piece = {}
    for idx in block.idxs:
        offset = aff_from_affine(interior.get_space(), Affine.var(idx.name), depth).sub(
            aff_from_affine(interior.get_space(), idx.affine, depth - 1)
        )
        lo, hi = interior.min_val(offset), interior.max_val(offset)
        if not (lo.is_int() and hi.is_int()):
            return None
        piece[idx.name] = (int(lo.to_python()), int(hi.to_python()))
    if not _piece_set(outer, block, piece, depth).is_equal(interior):
        return None
    return piece


def _half_space(aff: isl.Aff) -> isl.BasicSet:
    space = aff.get_domain_space()
    return isl.BasicSet.universe(space).add_constraint(isl.Constraint.inequality_from_aff(aff))


def _piece_set(outer: isl.Set, block: Block, piece: Piece, depth: int) -> isl.Set:
    """The points of `outer` (the chain domain of `block`) whose offsets lie in `piece`."""
    space = outer.get_space()
    result = isl.BasicSet.universe(space)
    for idx in block.idxs:
        lo, hi = piece[idx.name]
        offset = aff_from_affine(space, Affine.var(idx.name), depth).sub(
            aff_from_affine(space, idx.affine, depth - 1)
        )
        result = result.add_constraint(
            isl.Constraint.inequality_from_aff(offset.add_constant_val(-lo))
        )
        result = result.add_constraint(
            isl.Constraint.inequality_from_aff(offset.neg().add_constant_val(hi))
        )
    return outer.intersect(isl.Set.from_basic_set(result))


def _pieces(block: Block, interior: Piece) -> list[Piece]:
    """The interior followed by the boundary boxes: for each index in turn, the offsets below
    and above its interior range, earlier indices kept to their interior range."""
    full: Piece = {idx.name: (0, idx.range - 1) for idx in block.idxs}
    pieces = [dict(interior)]
    for k, idx in enumerate(block.idxs):
        lo, hi = interior[idx.name]
        earlier = {i.name: interior[i.name] for i in block.idxs[:k]}
        for part in ((0, lo - 1), (hi + 1, idx.range - 1)):
            if part[0] <= part[1]:
                pieces.append({**full, **earlier, idx.name: part})
    return pieces


def _independent(cache: DomainCache, chain: tuple[Block, ...], pieces: list[Piece]) -> bool:
    """Whether running the pieces one after another is equivalent to running `chain[-1]`: no
    element of a parent buffer is written by a point of one piece and read or written by a
    point of another."""
    block = chain[-1]
    depth = len(chain) - 1
    parent = chain[-2]
    outer = cache.domain(chain)
    writes: dict[str, isl.Map] = {}
    touches: dict[str, isl.Map] = {}
    for ref in block.refs:
        if ref.from_ is None:
            continue  # a fresh buffer per point: nothing to share
        source = parent.ref(ref.from_)
        if source is None:
            raise AnalysisError(f"refinement '{ref.into}' refines unknown '{ref.from_}'")
        for kind, reads, write in (("w", False, True), ("r", True, False)):
            fp = footprint(chain, ref.into, reads=reads, writes=write, domains=cache)
            if fp.is_empty():
                continue
            lifted = lift(fp, ref, depth, source).elements
            if kind == "w":
                writes[ref.from_] = (
                    writes[ref.from_].union(lifted) if ref.from_ in writes else lifted
                )
            touches[ref.from_] = (
                touches[ref.from_].union(lifted) if ref.from_ in touches else lifted
            )
    sets = [_piece_set(outer, block, piece, depth) for piece in pieces]
    for name, written in writes.items():
        pairs = sharing_points(written, depth, touches[name])
        for piece_set in sets:
            crossing = pairs.intersect_domain(piece_set).intersect_range(outer.subtract(piece_set))
            if not crossing.is_empty():
                return False
    return True


# --------------------------------------------------------------------------------------------
# Building the pieces


def _build(
    ancestors: tuple[Block, ...],
    block: Block,
    constrained: list[int],
    pieces: list[Piece],
    opts: SeparateBoundaryOptions,
) -> list[Block]:
    out: list[Block] = []
    for number, piece in enumerate(pieces):
        offsets = {
            idx.name: piece[idx.name] for idx in block.idxs if piece[idx.name] != (0, idx.range - 1)
        }
        built = shift_index_ranges(block, offsets)
        if number == 0:
            stmts = list(built.stmts)
            for pos in constrained:
                child = stmts[pos]
                assert isinstance(child, Block)
                stmts[pos] = dataclasses.replace(child, constraints=())
            built = dataclasses.replace(
                built, stmts=tuple(stmts), tags=built.tags.add(*opts.interior_set)
            )
        else:
            built = dataclasses.replace(built, tags=built.tags.add(*opts.boundary_set))
        if opts.reduce:
            reduced = reduce_subtree(ancestors, built)
            if reduced is None:
                continue
            built = reduced
        # Fresh node objects per piece: the verifier tells views apart by object identity, so
        # pieces sharing an unchanged child's refinements would be checked as one block.
        out.append(built if not out else copy.deepcopy(built))
    return out
