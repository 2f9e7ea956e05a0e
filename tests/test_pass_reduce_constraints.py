"""`reduce-constraints`: golden before/after checks, and isl checks that every reduced block
runs exactly the points it ran before."""

from __future__ import annotations

import islpy as isl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plaidc import driver
from plaidc.analysis import block_domain, map_from_affines
from plaidc.passes import get_pass, make_options
from plaidc.passes.reduce_constraints import ReduceConstraintsOptions, reduce_constraints
from plaidc.stripe.ir import Affine, Block
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe
from plaidc.stripe.verify import verify

from .support import EXAMPLES

DEFAULT = ReduceConstraintsOptions()

PINNED = """\
0: #program
block []:1 (
    #user none new@0x00000000 I[0] fp32(16):(1)
    #user none new@0x00000000 O[0] fp32(16):(1)
) {
  0: #main
  block []:1 (
      in I[0] fp32(16):(1)
      out O[0] fp32(16):(1)
  ) {
    0: block [i:3, x:12]:36 ( // pinned
        -1 + i + x >= 0
        12 - i - x >= 0
        3 - x >= 0
        -2 + x >= 0
        in I[i + x] fp32(1):(1)
        out O[x]:add fp32(1):(1)
    ) {
      0: $a = load(I)
      1: $i = load_index(x)
      2: O = store($a)
    }
    1: block [k:4]:4 ( // never
        -5 + k >= 0
        out O[k] fp32(1):(1)
    ) {
      0: $z = (int)0
      1: O = store($z)
    }
    2[0, 1]: block [j:2, k:2]:4 ( // after
        1 - j - k >= 0
        1 - j - k >= 0
        out O[14 + j + k]:add fp32(1):(1)
    ) {
      0: $z = (int)0
      1: O = store($z)
    }
  }
}
"""


def parse(text: str) -> Block:
    return parse_stripe(text, "<test>")


def main_of(program: Block) -> Block:
    main = program.stmts[0]
    assert isinstance(main, Block)
    return main


def child(block: Block, pos: int) -> Block:
    stmt = block.stmts[pos]
    assert isinstance(stmt, Block)
    return stmt


def test_golden_shrink_drop_and_delete() -> None:
    before = parse(PINNED)
    after = reduce_constraints(before, DEFAULT)
    main = main_of(after)
    text = print_stripe(main)
    # x in [2, 3]: the range shrinks to 2 and every use of x sees x + 2; all four constraints
    # are then implied by the box.
    pinned = child(main, 0)
    assert [(i.name, i.range) for i in pinned.idxs] == [("i", 3), ("x", 2)]
    assert pinned.constraints == ()
    assert "in I[2 + i + x] fp32:I(1):(1)" in text
    assert "out O[2 + x]:add" in text
    assert "$i = load_index(2 + x)" in text
    # The block that never runs is gone and the dependencies are renumbered.
    assert [b.name for b in main.stmts if isinstance(b, Block)] == ["pinned", "after"]
    after_block = child(main, 1)
    assert after_block.deps == (0,)
    # Each copy of a duplicated constraint is implied by the other: exactly one goes.
    assert [str(c.affine) for c in after_block.constraints] == ["1 - j - k"]
    assert not verify(after)
    assert not driver.check_equivalent(before, after, seed=3)


def test_unchanged_program_is_the_same_object() -> None:
    fig5b = parse((EXAMPLES / "fig5b.stripe").read_text())
    # Every halo constraint of Figure 5b cuts some tile: nothing to reduce.
    assert reduce_constraints(fig5b, DEFAULT) is fig5b


def test_constraint_implied_by_an_ancestor_goes() -> None:
    text = """\
block []:1 (
    out O[0] fp32(12):(1)
) {
  0: block [x:2]:2 (
      out O[6*x] fp32(6):(1)
  ) {
    0: block [i:6, xo = 6*x]:6 (
        11 - i - xo >= 0
        -1 + i >= 0
        out O[i] fp32(1):(1)
    ) {
      0: $z = (int)1
      1: O = store($z)
    }
  }
}
"""
    before = parse(text)
    after = reduce_constraints(before, DEFAULT)
    inner = child(child(after, 0), 0)
    # `11 - i - xo >= 0` always holds for xo in {0, 6}; `i >= 1` becomes the range start.
    assert inner.constraints == ()
    assert [(i.name, i.range) for i in inner.idxs] == [("i", 5), ("xo", 1)]
    assert inner.refs[0].access == (Affine.var("i") + 1,)
    assert not driver.check_equivalent(before, after, seed=1)


def test_reqs_limit_the_blocks() -> None:
    before = parse(PINNED)
    untouched = reduce_constraints(before, ReduceConstraintsOptions(reqs=("nothing",)))
    assert untouched is before
    excluded = reduce_constraints(before, ReduceConstraintsOptions(reqs=("main",)))
    assert excluded is not before


@pytest.mark.parametrize(
    "constraints",
    [
        ["x - 3 >= 0", "9 - x >= 0"],
        ["x + y - 4 >= 0", "x - y >= 0", "20 - x - y >= 0"],
        ["2*x - y - 1 >= 0", "x - 1 >= 0", "y >= 0"],
        ["x - 20 >= 0"],
    ],
)
def test_same_points_as_before(constraints: list[str]) -> None:
    lines = "\n".join(f"      {c}" for c in constraints)
    text = f"""\
block []:1 (
    out O[0, 0] fp32(12, 12):(12, 1)
) {{
  0: block [x:12, y:12]:144 (
{lines}
      out O[x, y] fp32(1, 1):(12, 1)
  ) {{
    0: $z = (int)1
    1: O = store($z)
  }}
}}
"""
    before = parse(text)
    after = reduce_constraints(before, DEFAULT)
    if not after.stmts:
        assert block_domain([before, child(before, 0)]).is_empty()
        return
    kernel = child(after, 0)
    # Absolute coordinates are the stored element: x + lo for the shifted index.
    absolute = [kernel.refs[0].access[0], kernel.refs[0].access[1]]
    dom_after = block_domain([after, kernel])
    dom_before = block_domain([before, child(before, 0)])
    got = map_from_affines(dom_after.get_space(), absolute, 1).intersect_domain(dom_after)
    want = map_from_affines(
        dom_before.get_space(), [Affine.var("x"), Affine.var("y")], 1
    ).intersect_domain(dom_before)
    assert got.range().is_equal(want.range())
    assert len(kernel.constraints) <= len(constraints)


def test_registered_with_default_options() -> None:
    info = get_pass("reduce-constraints")
    program = parse(PINNED)
    assert info.run(program, make_options(info, {})) == reduce_constraints(program, DEFAULT)


def test_idempotent_on_examples() -> None:
    for path in sorted(EXAMPLES.glob("*.stripe")):
        once = reduce_constraints(parse(path.read_text()), DEFAULT)
        assert reduce_constraints(once, DEFAULT) is once


_CONSTRAINT = st.tuples(
    st.integers(-2, 2), st.integers(-2, 2), st.integers(-2, 2), st.integers(-12, 12)
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_CONSTRAINT, max_size=4), st.integers(1, 3))
def test_random_constraints_keep_the_points(
    constraints: list[tuple[int, int, int, int]], tiles: int
) -> None:
    """Random constraints over `x`, `y` and a tile passthrough `t`: the reduced child stores
    exactly the elements it stored before, for every parent point."""
    affines = [Affine.of({"x": a, "y": b, "t": c}, k) for a, b, c, k in constraints]
    lines = "\n".join(f"        {aff} >= 0" for aff in affines)
    text = f"""\
block []:1 (
    out O[0, 0] fp32({4 * tiles}, 6):(6, 1)
) {{
  0: block [r:{tiles}]:{tiles} (
      out O[4*r, 0] fp32(4, 6):(6, 1)
  ) {{
    0: block [x:4, y:6, t = 4*r]:24 (
{lines}
        out O[x, y] fp32(1, 1):(6, 1)
    ) {{
      0: $z = (int)1
      1: O = store($z)
    }}
  }}
}}
"""
    before = parse(text)
    after = reduce_constraints(before, DEFAULT)
    want = _absolute_elements(before)
    got = _absolute_elements(after)
    if got is None:
        assert want is not None and want.is_empty()
        return
    assert want is not None and got.is_equal(want)
    assert len(child(child(after, 0), 0).constraints) <= len(constraints)


def _absolute_elements(root: Block) -> isl.Set | None:
    """The elements of O (row `t + x`) the leaf stores to, over all tiles; None when the leaf
    is gone."""
    outer = child(root, 0)
    if not outer.stmts:
        return None
    leaf = child(outer, 0)
    dom = block_domain([root, outer, leaf])
    row, col = leaf.refs[0].access
    absolute = [row + Affine.var("t"), col]
    return map_from_affines(dom.get_space(), absolute, 2).intersect_domain(dom).range()
