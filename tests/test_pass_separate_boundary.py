"""`separate-boundary`: the Stripe paper's Figure 5b split into interior and boundary tiles,
with isl checking that the pieces run exactly the points of the original (no point lost, none
run twice), and the cases where the split would change the meaning and must not happen."""

from __future__ import annotations

from collections.abc import Iterator

import islpy as isl
import pytest

from plaidc import driver
from plaidc.analysis import block_domain, dim_name
from plaidc.passes import get_pass, make_options
from plaidc.passes.separate_boundary import SeparateBoundaryOptions, separate_boundary
from plaidc.stripe.ir import Affine, Block, Load, Store
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.verify import verify

from .support import EXAMPLES

DEFAULT = SeparateBoundaryOptions()


def parse(text: str) -> Block:
    return parse_stripe(text, "<test>")


def fig5b() -> Block:
    path = EXAMPLES / "fig5b.stripe"
    return parse_stripe(path.read_text(), str(path))


def blocks(block: Block) -> list[Block]:
    return [s for s in block.stmts if isinstance(s, Block)]


def _qualified(affine: Affine, depth: int) -> Affine:
    return Affine.of([(dim_name(depth, n), c) for n, c in affine.terms], affine.const)


def _leaf_chains(chain: tuple[Block, ...]) -> Iterator[tuple[Block, ...]]:
    children = blocks(chain[-1])
    if not children:
        yield chain
    for child in children:
        yield from _leaf_chains((*chain, child))


def executed(program: Block) -> list[isl.Set]:
    """For each leaf block: the set of its points as (element of the root buffer each of its
    loads and stores touches, concatenated in statement order) tuples. For these programs the
    tuple names the original iteration point, whatever tiling or shifting wrote it."""
    out = []
    for chain in _leaf_chains((program,)):
        leaf = chain[-1]
        coords: list[Affine] = []
        for stmt in leaf.stmts:
            if not isinstance(stmt, (Load, Store)):
                continue
            name = stmt.from_ if isinstance(stmt, Load) else stmt.into
            depth = len(chain) - 1
            total: list[Affine] | None = None
            while depth > 0:
                ref = chain[depth].ref(name)
                assert ref is not None and ref.from_ is not None
                part = [_qualified(a, depth) for a in ref.access]
                total = part if total is None else [t + p for t, p in zip(total, part, strict=True)]
                name, depth = ref.from_, depth - 1
            assert total is not None
            coords.extend(total)
        dom = block_domain(chain)
        # The affines name isl dimensions (`x@1`) already: build the map position by position.
        names = [
            dom.get_space().get_dim_name(isl.dim_type.set, k)
            for k in range(dom.dim(isl.dim_type.set))
        ]
        ctx = dom.get_ctx()
        space = isl.Space.map_from_domain_and_range(
            dom.get_space(), isl.Space.set_alloc(ctx, 0, len(coords))
        )
        affs = isl.AffList.alloc(ctx, len(coords))
        for coord in coords:
            aff = isl.Aff.zero_on_domain(isl.LocalSpace.from_space(dom.get_space()))
            for term, coeff in coord.terms:
                aff = aff.set_coefficient_val(isl.dim_type.in_, names.index(term), coeff)
            affs = affs.add(aff.set_constant_val(coord.const))
        relation = isl.Map.from_multi_aff(isl.MultiAff.from_aff_list(space, affs))
        out.append(relation.intersect_domain(dom).range())
    return out


def assert_same_points(before: Block, after: Block) -> None:
    """The pieces partition the original points: their union is the original set and no two
    pieces share a point."""
    (original,) = executed(before)
    pieces = executed(after)
    union = pieces[0]
    for piece in pieces[1:]:
        union = union.union(piece)
    assert union.is_equal(original)
    for k, first in enumerate(pieces):
        for second in pieces[k + 1 :]:
            assert first.intersect(second).is_empty()


def test_figure5b_golden() -> None:
    before = fig5b()
    after = separate_boundary(before, DEFAULT)
    pieces = blocks(after)
    assert len(pieces) == 5
    interior, *boundary = pieces
    assert "interior" in interior.tags
    assert all("boundary" in p.tags and "interior" not in p.tags for p in boundary)
    # Tile rows 1-2 and columns 1-2 (x, y now count from 1) need no halo checks.
    assert [(i.name, i.range) for i in interior.idxs[:2]] == [("x", 2), ("y", 2)]
    inner = blocks(interior)[0]
    assert inner.constraints == ()
    assert str(inner.idxs[-2].affine) == "3 + 3*x"
    assert str(inner.idxs[-1].affine) == "4 + 4*y"
    assert [str(r.access[0]) for r in interior.refs if r.into == "I"] == ["2 + 3*x"]
    # Boundary: tile rows 0 and 3 (all columns), then columns 0 and 3 of rows 1-2; each keeps
    # only the halo constraints that still cut it.
    shapes = [[(i.name, i.range) for i in p.idxs[:2]] for p in boundary]
    assert shapes == [[("x", 1), ("y", 4)]] * 2 + [[("x", 2), ("y", 1)]] * 2
    kept = [[str(c.affine) for c in blocks(p)[0].constraints] for p in boundary]
    assert kept == [
        ["-1 + i + x + xo", "-1 + j + y + yo", "16 - j - y - yo"],
        ["12 - i - x - xo", "-1 + j + y + yo", "16 - j - y - yo"],
        ["-1 + j + y + yo"],
        ["16 - j - y - yo"],
    ]
    assert_same_points(before, after)
    assert not verify(after)
    assert not driver.check_equivalent(before, after, seed=5)


def test_figure5b_without_reduce_keeps_all_boundary_constraints() -> None:
    before = fig5b()
    after = separate_boundary(before, SeparateBoundaryOptions(reduce=False, boundary_set=()))
    _, *boundary = blocks(after)
    assert all(len(blocks(p)[0].constraints) == 4 for p in boundary)
    assert all(not p.tags for p in boundary)
    assert_same_points(before, after)


UNEVEN = """\
block []:1 (
    in A[0, 0] fp32(7, 5):(5, 1)
    in B[0, 0] fp32(5, 6):(6, 1)
    out C[0, 0]:assign fp32(7, 6):(6, 1)
) {
  0: block [m:2]:2 ( // matmul
      in A[4*m, 0] fp32(4, 5):(5, 1)
      in B[0, 0] fp32(5, 6):(6, 1)
      out C[4*m, 0] fp32(4, 6):(6, 1)
  ) {
    0: block [k:5, m:4, n:6, mo = 4*m]:120 (
        6 - m - mo >= 0
        in A[m, k] fp32(1, 1):(5, 1)
        in B[k, n] fp32(1, 1):(6, 1)
        out C[m, n]:add fp32(1, 1):(6, 1)
    ) {
      0: $a = load(A)
      1: $b = load(B)
      2: $c = mul($a, $b)
      3: C = store($c)
    }
  }
}
"""


def test_uneven_split_overflow_tile_gets_a_smaller_range() -> None:
    before = parse(UNEVEN)
    after = separate_boundary(before, DEFAULT)
    interior, overflow = blocks(after)
    assert [(i.name, i.range) for i in interior.idxs] == [("m", 1)]
    assert blocks(interior)[0].constraints == ()
    # The last tile holds rows 4-6 only: reduce-constraints turns the overflow constraint
    # into a range of 3.
    tail = blocks(overflow)[0]
    assert tail.constraints == ()
    assert [(i.name, i.range) for i in tail.idxs] == [("k", 5), ("m", 3), ("n", 6), ("mo", 1)]
    assert_same_points(before, after)
    assert not driver.check_equivalent(before, after, seed=2)


def test_split_reduction_is_refused() -> None:
    # The outer index k splits the reduction: both tiles accumulate into every element of C,
    # so running them as two blocks would restart the sum in the second (STRIPE.md rule 3).
    text = """\
block []:1 (
    in A[0] fp32(6):(1)
    out C[0]:assign fp32(1):(1)
) {
  0: block [k:2]:2 (
      in A[4*k] fp32(4):(1)
      out C[0]:add fp32(1):(1)
  ) {
    0: block [k:4, ko = 4*k]:4 (
        5 - k - ko >= 0
        in A[k] fp32(1):(1)
        out C[0]:add fp32(1):(1)
    ) {
      0: $a = load(A)
      1: C = store($a)
    }
  }
}
"""
    before = parse(text)
    assert separate_boundary(before, DEFAULT) is before


def test_interior_that_is_not_a_box_is_refused() -> None:
    # The constraint couples the two outer indices: the interior is a triangle.
    text = """\
block []:1 (
    out O[0, 0] fp32(4, 4):(4, 1)
) {
  0: block [x:4, y:4]:16 (
      out O[x, y] fp32(1, 1):(4, 1)
  ) {
    0: block [i:2, xo = x, yo = y]:2 (
        4 - i - xo - yo >= 0
        out O[0, 0]:add fp32(1, 1):(4, 1)
    ) {
      0: $z = (int)1
      1: O = store($z)
    }
  }
}
"""
    before = parse(text)
    assert separate_boundary(before, DEFAULT) is before


def test_reqs_select_the_tiled_blocks() -> None:
    before = fig5b()
    assert separate_boundary(before, SeparateBoundaryOptions(reqs=("tiled",))) is before


def test_second_run_changes_nothing() -> None:
    once = separate_boundary(fig5b(), DEFAULT)
    assert separate_boundary(once, DEFAULT) is once


@pytest.mark.parametrize("spec", ["separate-boundary", "separate-boundary{reduce=false}"])
def test_registered(spec: str) -> None:
    from plaidc.passes.registry import parse_pass_spec

    name, raw = parse_pass_spec(spec)
    info = get_pass(name)
    before = fig5b()
    after = info.run(before, make_options(info, raw))
    assert len(blocks(after)) == 5
    assert_same_points(before, after)


def tiled_conv1d(size: int, tile: int, taps: int, before: int) -> str:
    """`O[x] = +(I[x + i - before] * K[i])` over `size` outputs, tiled by `tile` (with an
    overflow constraint when `tile` does not divide `size`), input halos as constraints."""
    tiles = -(-size // tile)
    return f"""\
block []:1 (
    in I[0] fp32({size}):(1)
    in K[0] fp32({taps}):(1)
    out O[0]:assign fp32({size}):(1)
) {{
  0: block [x:{tiles}]:{tiles} (
      in I[{tile}*x - {before}] fp32({tile + taps - 1}):(1)
      in K[0] fp32({taps}):(1)
      out O[{tile}*x] fp32({tile}):(1)
  ) {{
    0: block [i:{taps}, x:{tile}, xo = {tile}*x]:{tile * taps} (
        {size - 1} - x - xo >= 0
        -{before} + i + x + xo >= 0
        {size - 1 + before} - i - x - xo >= 0
        in I[i + x] fp32(1):(1)
        in K[i] fp32(1):(1)
        out O[x]:add fp32(1):(1)
    ) {{
      0: $a = load(I)
      1: $b = load(K)
      2: $c = mul($a, $b)
      3: O = store($c)
    }}
  }}
}}
"""


@pytest.mark.parametrize("size", [7, 8, 13])
@pytest.mark.parametrize("tile", [2, 3, 4])
@pytest.mark.parametrize(("taps", "before"), [(3, 1), (3, 0), (3, 2), (5, 2), (1, 0)])
def test_tiled_conv1d_pieces_cover_exactly(size: int, tile: int, taps: int, before: int) -> None:
    original = parse(tiled_conv1d(size, tile, taps, before))
    after = separate_boundary(original, DEFAULT)
    assert_same_points(original, after)
    pieces = blocks(after)
    for piece in pieces[1:]:
        assert "boundary" in piece.tags
    if len(pieces) > 1 or "interior" in pieces[0].tags:
        assert "interior" in pieces[0].tags
        assert blocks(pieces[0])[0].constraints == ()
    assert not verify(after)
    assert not driver.check_equivalent(original, after, seed=size * tile)
