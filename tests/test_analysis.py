"""The polyhedral analysis package on hand-built IR: the Stripe paper's Figure 5 and small views.

Expected answers are computed independently (brute-force enumeration in Python) wherever the
question is a count or a bound, so a wrong isl formulation cannot agree with itself.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import replace

import islpy as isl
import pytest

from plaidc.analysis import (
    AnalysisError,
    DomainCache,
    ScopeError,
    access_map,
    accesses_through,
    aff_from_affine,
    affine_bounds,
    affine_from_aff,
    affine_from_constraint,
    ast_children,
    block_domain,
    chain_dims,
    dim_bounds,
    dim_name,
    disjoint,
    footprint,
    footprint_box,
    footprint_extent,
    format_point,
    implied_constraints,
    index_bounds,
    leaf_elements,
    loop_ast,
    map_from_affines,
    outer_as_params,
    overlapping_points,
    point_count,
    project_to_depth,
    resolve_view,
    sample,
    sample_pair,
    sharing_points,
    simplify_constraints,
    split_dim_name,
    trace,
    view_box,
)
from plaidc.stripe.ir import (
    Affine,
    Block,
    Constraint,
    DType,
    Index,
    Intrinsic,
    Load,
    RefDir,
    Refinement,
    Special,
    Store,
    TensorShape,
)

# --------------------------------------------------------------------------------------------
# Builders: the paper's Figure 5 (with `16 - y - j >= 0`, the typo corrected)

v = Affine.var
C = Affine.const_


def ref(
    direction: str,
    name: str,
    access: Sequence[Affine],
    sizes: Sequence[int],
    strides: Sequence[int],
    agg: str | None = None,
    from_: str | None = "",
    dtype: DType = DType.I8,
) -> Refinement:
    return Refinement(
        RefDir(direction),
        name if from_ == "" else from_,
        name,
        tuple(access),
        TensorShape(dtype, tuple(sizes), tuple(strides)),
        agg_op=agg,
    )


def conv_body() -> tuple[Load, Load, Intrinsic, Store]:
    return (
        Load(from_="I", into="$I"),
        Load(from_="F", into="$F"),
        Intrinsic(name="mul", inputs=("$I", "$F"), outputs=("$O",)),
        Store(from_="$O", into="O"),
    )


def idxs(*pairs: tuple[str, int]) -> tuple[Index, ...]:
    return tuple(Index(n, r) for n, r in pairs)


ROOT_REFS = (
    ref("in", "I", [C(0)] * 3, (12, 16, 8), (128, 8, 1)),
    ref("in", "F", [C(0)] * 4, (3, 3, 16, 8), (384, 128, 8, 1)),
    ref("out", "O", [C(0)] * 3, (12, 16, 16), (256, 16, 1), agg="assign"),
)
FIG5A_CONSTRAINTS = (
    v("x") + v("i") - 1,
    C(12) - v("x") - v("i"),
    v("y") + v("j") - 1,
    C(16) - v("y") - v("j"),
)


def fig5a() -> Block:
    kernel = Block(
        idxs=idxs(("x", 12), ("y", 16), ("i", 3), ("j", 3), ("c", 8), ("k", 16)),
        constraints=tuple(Constraint(a) for a in FIG5A_CONSTRAINTS),
        refs=(
            ref(
                "in",
                "I",
                [v("x") + v("i") - 1, v("y") + v("j") - 1, v("c")],
                (1, 1, 1),
                (128, 8, 1),
            ),
            ref("in", "F", [v("i"), v("j"), v("k"), v("c")], (1, 1, 1, 1), (384, 128, 8, 1)),
            ref("out", "O", [v("x"), v("y"), v("k")], (1, 1, 1), (256, 16, 1), agg="add"),
        ),
        stmts=conv_body(),
    )
    return Block(refs=ROOT_REFS, stmts=(kernel,))


def fig5b(inner_constraints: Sequence[Affine] | None = None) -> Block:
    if inner_constraints is None:
        inner_constraints = (
            v("xo") + v("x") + v("i") - 1,
            C(12) - v("xo") - v("x") - v("i"),
            v("yo") + v("y") + v("j") - 1,
            C(16) - v("yo") - v("y") - v("j"),
        )
    inner = Block(
        idxs=(
            *idxs(("x", 3), ("y", 4), ("i", 3), ("j", 3), ("c", 8), ("k", 16)),
            Index("xo", 1, 3 * v("x")),
            Index("yo", 1, 4 * v("y")),
        ),
        constraints=tuple(Constraint(a) for a in inner_constraints),
        refs=(
            ref("in", "I", [v("x") + v("i"), v("y") + v("j"), v("c")], (1, 1, 1), (128, 8, 1)),
            ref("in", "F", [v("i"), v("j"), v("k"), v("c")], (1, 1, 1, 1), (384, 128, 8, 1)),
            ref("out", "O", [v("x"), v("y"), v("k")], (1, 1, 1), (256, 16, 1), agg="add"),
        ),
        stmts=conv_body(),
    )
    outer = Block(
        idxs=idxs(("x", 4), ("y", 4), ("i", 1), ("j", 1), ("c", 1), ("k", 1)),
        refs=(
            ref("in", "I", [3 * v("x") - 1, 4 * v("y") - 1, C(0)], (5, 6, 8), (128, 8, 1)),
            ref("in", "F", [C(0)] * 4, (3, 3, 16, 8), (384, 128, 8, 1)),
            ref("out", "O", [3 * v("x"), 4 * v("y"), C(0)], (3, 4, 16), (256, 16, 1), agg="add"),
        ),
        stmts=(inner,),
    )
    return Block(refs=ROOT_REFS, stmts=(outer,))


def chain_of(program: Block, depth: int) -> tuple[Block, ...]:
    chain = [program]
    for _ in range(depth):
        chain.append(next(s for s in chain[-1].stmts if isinstance(s, Block)))
    return tuple(chain)


def fig5a_points() -> list[tuple[int, int, int, int]]:
    """The (x, y, i, j) of Figure 5a's executing points, by enumeration."""
    return [
        (x, y, i, j)
        for x, y, i, j in itertools.product(range(12), range(16), range(3), range(3))
        if 0 <= x + i - 1 <= 11 and 0 <= y + j - 1 <= 15
    ]


# --------------------------------------------------------------------------------------------
# Names and conversions


def test_dim_names_round_trip_and_keep_dots() -> None:
    assert dim_name(2, "x") == "x@2"
    assert split_dim_name(dim_name(3, "a.b_1")) == (3, "a.b_1")
    with pytest.raises(ValueError):
        split_dim_name("@c0")


def test_chain_dims_are_root_first_and_unique_per_level() -> None:
    assert chain_dims(chain_of(fig5b(), 2)) == [
        *(f"{n}@1" for n in "xyijck"),
        *(f"{n}@2" for n in ["x", "y", "i", "j", "c", "k", "xo", "yo"]),
    ]


def test_affine_to_isl_and_back() -> None:
    space = block_domain(chain_of(fig5a(), 1)).get_space()
    affine = v("x") * 3 - v("i") + 7
    aff = aff_from_affine(space, affine, 1)
    assert affine_from_aff(aff, 1) == affine
    assert affine_from_aff(aff) == Affine.of({"x@1": 3, "i@1": -1}, 7)
    with pytest.raises(ScopeError, match="'q'"):
        aff_from_affine(space, v("q"), 1)
    with pytest.raises(AnalysisError):
        affine_from_aff(aff, 2)  # the names are depth-1 indices


def test_affine_from_constraint_scales_rationals() -> None:
    s = isl.Set("{ [a, b] : 2a - 3b + 1 >= 0 }")
    (con,) = s.get_basic_sets()[0].get_constraints()
    assert affine_from_constraint(con) == Affine.of({"a": 2, "b": -3}, 1)
    half = isl.Aff("{ [a] -> [(a/2)] }")
    with pytest.raises(AnalysisError):
        affine_from_aff(half)


def test_map_from_affines_evaluates_the_affines() -> None:
    dom = block_domain(chain_of(fig5a(), 1))
    amap = map_from_affines(dom.get_space(), [v("x") + v("i") - 1, C(5)], 1)
    point = {"x@1": 4, "i@1": 2}
    image = amap.intersect_domain(_fix(dom.get_space(), point)).range()
    assert sample(image) == {"@c0": 5, "@c1": 5}


def _fix(space: isl.Space, values: dict[str, int]) -> isl.Set:
    s = isl.Set.universe(space)
    for name, value in values.items():
        pos = space.find_dim_by_name(isl.dim_type.set, name)
        s = s.fix_val(isl.dim_type.set, pos, isl.Val.int_from_si(space.get_ctx(), value))
    return s


# --------------------------------------------------------------------------------------------
# Domains


def test_fig5a_point_count_matches_enumeration() -> None:
    dom = block_domain(chain_of(fig5a(), 1))
    assert point_count(dom) == len(fig5a_points()) * 8 * 16


def test_tiling_preserves_the_points_fig5b_equals_fig5a() -> None:
    """Figure 5b's two-level domain has exactly Figure 5a's points: (3*xo + x, 4*yo + y)."""
    dom_a = block_domain(chain_of(fig5a(), 1))
    dom_b = block_domain(chain_of(fig5b(), 2))
    assert point_count(dom_b) == point_count(dom_a)
    # Map b's points onto a's index space and compare the sets exactly.
    to_a = isl.Map(
        "{ [x1, y1, i1, j1, c1, k1, x, y, i, j, c, k, xo, yo] -> [3x1 + x, 4y1 + y, i, j, c, k] }"
    )
    image = to_a.intersect_domain(dom_b.reset_space(to_a.get_space().domain())).range()
    assert image.is_equal(dom_a.reset_space(image.get_space()))


def test_passthrough_index_takes_its_start() -> None:
    dom = block_domain(chain_of(fig5b(), 2))
    assert affine_bounds(dom, v("xo"), 2) == (0, 9)
    assert affine_bounds(dom, v("xo") + v("x") + v("i") - 1, 2) == (0, 11)


def test_affine_and_dim_bounds() -> None:
    dom = block_domain(chain_of(fig5a(), 1))
    pts = fig5a_points()
    assert affine_bounds(dom, v("x") - v("j"), 1) == (
        min(x - j for x, _, _, j in pts),
        max(x - j for x, _, _, j in pts),
    )
    assert dim_bounds(dom, "y@1") == (0, 15)
    assert dim_bounds(dom, 2) == (0, 2)
    empty = dom.intersect(isl.Set("{ [x, y, i, j, c, k] : x > 20 }").reset_space(dom.get_space()))
    assert affine_bounds(empty, v("x"), 1) is None
    assert dim_bounds(empty, 0) is None


def test_point_count_refuses_parametric_sets() -> None:
    dom = block_domain(chain_of(fig5b(), 2))
    inner = outer_as_params(dom, 2)
    assert isinstance(inner, isl.Set)
    assert inner.dim(isl.dim_type.param) == 6
    with pytest.raises(AnalysisError, match="parametric"):
        point_count(inner)


def test_project_to_depth_keeps_outer_points() -> None:
    dom = block_domain(chain_of(fig5b(), 2))
    outer = project_to_depth(dom, 1)
    assert isinstance(outer, isl.Set)
    assert point_count(outer) == 16  # 4 x 4 tiles, all executing


def test_sample_and_format_point() -> None:
    dom = block_domain(chain_of(fig5b(), 2))
    point = sample(dom)
    assert point is not None and point["x@1"] == 0 and point["xo@2"] == 0
    text = format_point({"y@1": 0, "x@2": 1, "i@2": 2, "@c0": -1})
    assert text == "{y=0 | x=1, i=2} @c0=-1"
    assert sample(dom.intersect(dom.complement())) is None


def test_domain_cache_reuses_and_extends() -> None:
    program = fig5b()
    cache = DomainCache()
    chain = chain_of(program, 2)
    assert cache.domain(chain) is cache.domain(chain)
    assert cache.domain(chain).is_equal(block_domain(chain))


def test_implied_and_simplified_constraints() -> None:
    program = fig5a()
    kernel = program.stmts[0]
    assert isinstance(kernel, Block)
    redundant = Constraint(v("x") + 5)  # x >= -5: implied by the index box
    tighter = replace(kernel, constraints=(*kernel.constraints, redundant))
    chain = (program, tighter)
    assert implied_constraints(chain) == [False, False, False, False, True]
    simplified = simplify_constraints(chain)
    assert v("x") + 5 not in simplified
    rebuilt = replace(kernel, constraints=tuple(Constraint(a) for a in simplified))
    assert block_domain((program, rebuilt)).is_equal(block_domain(chain))
    # With nothing to say beyond the box, the answer is empty.
    loose = replace(kernel, constraints=(redundant,))
    assert simplify_constraints((program, loose)) == []


def test_simplify_constraints_speaks_in_the_blocks_own_indices() -> None:
    chain = chain_of(fig5b(), 2)
    simplified = simplify_constraints(chain)
    assert all(n in {"x", "y", "i", "j", "xo", "yo"} for a in simplified for n in a.names())
    rebuilt = replace(chain[2], constraints=tuple(Constraint(a) for a in simplified))
    assert block_domain((*chain[:2], rebuilt)).is_equal(block_domain(chain))


def test_index_bounds_shrink_under_constraints() -> None:
    program = fig5a()
    kernel = program.stmts[0]
    assert isinstance(kernel, Block)
    assert index_bounds((program, kernel)) == [(0, 11), (0, 15), (0, 2), (0, 2), (0, 7), (0, 15)]
    cut = replace(kernel, constraints=(Constraint(C(5) - v("x")), Constraint(v("k") - 3)))
    bounds = index_bounds((program, cut))
    assert bounds[0] == (0, 5) and bounds[5] == (3, 15)
    empty = replace(kernel, constraints=(Constraint(C(-1)),))
    assert index_bounds((program, empty)) == [None] * 6


# --------------------------------------------------------------------------------------------
# Accesses


def test_view_box_and_leaf_elements() -> None:
    ctx = isl.DEFAULT_CONTEXT
    box = view_box(ref("in", "A", [C(0)] * 2, (3, 4), (4, 1)), ctx)
    assert point_count(box) == 12
    chain = chain_of(fig5a(), 1)
    dom = block_domain(chain)
    kernel = chain[1]
    loaded = leaf_elements(dom, kernel.ref("I") or _missing(), whole_view=False)
    assert loaded.range().is_equal(isl.Set("{ [0, 0, 0] }").reset_space(loaded.range().get_space()))
    whole = leaf_elements(dom, ROOT_REFS[0], whole_view=True)
    assert point_count(whole.range()) == 12 * 16 * 8


def _missing() -> Refinement:
    raise AssertionError("refinement not found")


def test_access_map_is_the_refinement_access() -> None:
    chain = chain_of(fig5a(), 1)
    dom = block_domain(chain)
    amap = access_map(dom, chain[1].ref("I") or _missing(), 1)
    assert footprint_box(amap) == [(0, 11), (0, 15), (0, 7)]


def test_resolve_view_walks_up_to_the_root() -> None:
    chain = chain_of(fig5b(), 2)
    levels = resolve_view(chain, "I")
    assert [(d, r.shape.sizes) for d, r in levels] == [
        (2, (1, 1, 1)),
        (1, (5, 6, 8)),
        (0, (12, 16, 8)),
    ]
    assert [d for d, _ in resolve_view(chain, "I", stop_depth=1)] == [2, 1]
    with pytest.raises(AnalysisError, match="no refinement"):
        resolve_view(chain, "nope")
    broken = replace(chain[2], refs=(replace(chain[2].refs[0], from_="Z"),))
    with pytest.raises(AnalysisError, match="unknown 'Z'"):
        resolve_view((*chain[:2], broken), broken.refs[0].into)


def test_trace_fig5b_stays_inside_every_view() -> None:
    chain = chain_of(fig5b(), 2)
    for name in "IFO":
        levels = trace(chain, name, whole_view=False)
        assert len(levels) == 3
        assert all(level.outside.is_empty() for level in levels)


def test_trace_reaches_the_elements_of_the_root_buffer() -> None:
    """Figure 5b's loads of I reach exactly the image rows/cols Figure 5a reads."""
    levels = trace(chain_of(fig5b(), 2), "I", whole_view=False)
    root = levels[-1].elements.range()
    assert footprint_box(root) == [(0, 11), (0, 15), (0, 7)]
    assert point_count(root) == 12 * 16 * 8


def test_trace_finds_the_halo_row_without_inner_constraints() -> None:
    """Figure 5b's outer view starts at row -1; only the inner constraints keep the elements in
    bounds. Without the first one, row -1 is read."""
    program = fig5b(
        inner_constraints=(
            C(12) - v("xo") - v("x") - v("i"),
            v("yo") + v("y") + v("j") - 1,
            C(16) - v("yo") - v("y") - v("j"),
        )
    )
    levels = trace(chain_of(program, 2), "I", whole_view=False)
    assert levels[0].outside.is_empty() and levels[1].outside.is_empty()
    found = sample_pair(levels[2].outside)
    assert found is not None
    point, element = found
    assert element["@c0"] == -1
    assert 3 * point["x@1"] - 1 + point["x@2"] + point["i@2"] == -1


def test_trace_leaf_view_of_size_zero_is_outside() -> None:
    leaf = ref("in", "A", [C(0)], (0,), (1,))
    program = Block(refs=(ref("in", "A", [C(0)], (4,), (1,)),), stmts=())
    block = Block(refs=(leaf,), stmts=(Load(from_="A", into="$a"),))
    levels = trace((replace(program, stmts=(block,)), block), "A", whole_view=False)
    assert not levels[0].outside.is_empty()


def test_flat_lift_for_a_reshaping_view() -> None:
    """A 3x4 view of a 12-element vector is matched through flat offsets; 4x4 overflows."""
    vec = ref("in", "V", [C(0)], (12,), (1,))
    for rows, outside in ((3, False), (4, True)):
        view = ref("in", "M", [C(0), C(0)], (rows, 4), (4, 1), from_="V")
        block = Block(refs=(view,), stmts=(Special(name="copy", inputs=("M",), outputs=()),))
        program = Block(refs=(vec,), stmts=(block,))
        levels = trace((program, block), "M", whole_view=True)
        assert levels[1].flat
        assert levels[1].outside.is_empty() != outside
        if outside:
            found = sample_pair(levels[1].outside)
            assert found is not None and found[1] == {"@o": 12}
        else:
            assert footprint_box(levels[1].elements) == [(0, 11)]


def test_lift_rejects_mismatched_access_rank() -> None:
    vec = ref("in", "V", [C(0)], (12,), (1,))
    view = ref("in", "M", [C(0)], (3, 4), (4, 1), from_="V")
    block = Block(refs=(view,), stmts=(Load(from_="M", into="$m"),))
    with pytest.raises(AnalysisError, match="rank"):
        trace((Block(refs=(vec,), stmts=(block,)), block), "M", whole_view=False)


def test_accesses_through_finds_nested_statements() -> None:
    program = fig5b()
    accesses = accesses_through((program,), "O")
    assert len(accesses) == 1
    (acc,) = accesses
    assert acc.writes and not acc.whole_view and acc.ref == "O" and len(acc.chain) == 3


def test_footprint_of_a_tile_includes_the_halo() -> None:
    chain = chain_of(fig5b(), 1)
    fp = footprint(chain, "I")
    assert footprint_extent(fp) == [5, 6, 8]
    assert footprint_box(fp) == [(0, 4), (0, 5), (0, 7)]
    out = footprint(chain, "O", reads=False)
    assert footprint_extent(out) == [3, 4, 16]
    assert footprint(chain, "O", writes=False).is_empty()
    assert footprint_extent(footprint(chain, "O", writes=False)) is None
    assert footprint_box(footprint(chain, "O", writes=False)) is None


def test_footprint_builds_no_outside_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    """`outside` (a subtraction per level of every traced access) is computed only when asked
    for: footprints, which localize and fuse take per candidate, never ask."""
    import plaidc.analysis.access as access

    boxes: list[str] = []
    real_view_box = access.view_box

    def counting(view: Refinement, ctx: isl.Context) -> isl.Set:
        boxes.append(view.into)
        return real_view_box(view, ctx)

    monkeypatch.setattr(access, "view_box", counting)
    assert footprint_box(footprint(chain_of(fig5b(), 1), "I")) == [(0, 4), (0, 5), (0, 7)]
    assert boxes == []
    levels = trace(chain_of(fig5b(), 2), "I", whole_view=False)
    assert all(level.outside.is_empty() for level in levels)
    assert boxes == ["I", "I", "I"]


def test_footprint_per_point_matches_enumeration() -> None:
    """The image elements Figure 5a reads at one (x, y): the 3x3 window clipped to the image
    (a footprint in the root buffer's coordinates, through `trace`)."""
    chain = chain_of(fig5a(), 1)
    fp = trace(chain, "I", whole_view=False)[1].elements
    for x, y in ((0, 5), (11, 15), (4, 4)):
        window = fp.intersect_domain(_fix(fp.get_space().domain(), {"x@1": x, "y@1": y}))
        expect = {(x + i - 1, y + j - 1) for (px, py, i, j) in fig5a_points() if (px, py) == (x, y)}
        assert point_count(window.range()) == len(expect) * 8


def test_sharing_points_and_overlap() -> None:
    chain = chain_of(fig5b(), 2)
    o_levels = trace(chain, "O", whole_view=False)
    # The outer O view (depth 1) is stored injectively per execution: tiles are disjoint.
    outer_writes = project_to_depth(o_levels[2].elements, 1)
    assert isinstance(outer_writes, isl.Map)
    assert sharing_points(outer_writes, 1).is_empty()
    # Inner points differing only in i share an output element (it is reduced over).
    inner_writes = o_levels[1].elements
    pairs = sharing_points(inner_writes, 2)
    found = sample_pair(pairs)
    assert found is not None
    p, q = found
    assert p != q and all(p[n] == q[n] for n in p if n.endswith("@1"))
    assert p["x@2"] == q["x@2"] and p["k@2"] == q["k@2"]
    # Reads of I by different tiles overlap (the halo), writes of O do not.
    i_reads = project_to_depth(trace(chain, "I", whole_view=False)[2].elements, 1)
    assert isinstance(i_reads, isl.Map)
    assert (
        not overlapping_points(i_reads, i_reads)
        .subtract(isl.Map.identity(i_reads.get_space().domain().map_from_set()))
        .is_empty()
    )
    assert not disjoint(i_reads, outer_writes.range())
    assert disjoint(isl.Set("{ [a] : 0 <= a < 4 }"), isl.Set("{ [a] : 4 <= a < 8 }"))


# --------------------------------------------------------------------------------------------
# Loops


def test_loop_ast_folds_constraints_into_bounds() -> None:
    chain = chain_of(fig5b(), 2)
    code = loop_ast(chain).to_C_str()
    assert "for (int x = 0; x <= 2; x += 1)" in code
    assert "i <= min(2, -3 * x@1 - x + 12)" in code
    assert "if" not in code  # ancestors' ranges are in the AST build's context
    reordered = loop_ast(chain, order=["k", "c", "x", "y", "i", "j", "xo", "yo"]).to_C_str()
    assert reordered.index("int k") < reordered.index("int x")
    with pytest.raises(ValueError):
        loop_ast(chain, order=["x"])


def test_loop_ast_kept_per_domain_order_and_context() -> None:
    """A DomainCache keeps loop nests by what isl prints of the domain, the loop order and the
    context: a kernel under another name (a repeated layer) gets the same nest; another range,
    constraint or order its own, as a fresh cache builds it."""
    root = fig5a()
    kernel = chain_of(root, 1)[-1]
    cache = DomainCache()
    first = loop_ast((root, kernel), None, cache)
    twin = dataclasses.replace(kernel, name="twin", comments=("another layer",))
    assert loop_ast((root, twin), None, cache) is first
    narrower = dataclasses.replace(
        kernel, idxs=(dataclasses.replace(kernel.idxs[0], range=10), *kernel.idxs[1:])
    )
    looser = dataclasses.replace(kernel, constraints=kernel.constraints[1:])
    order = ["k", "c", "j", "i", "y", "x"]
    for chain, loops in [((root, narrower), None), ((root, looser), None), ((root, kernel), order)]:
        got = loop_ast(chain, loops, cache).to_C_str()
        assert got == loop_ast(chain, loops).to_C_str() != first.to_C_str()


def test_ast_children_lists_block_nodes() -> None:
    schedule = isl.UnionMap("{ A[i] -> [0, i] : 0 <= i < 4; B[i] -> [1, i] : 0 <= i < 3 }")
    node = isl.AstBuild.from_context(isl.Set("{ : }")).node_from_schedule_map(schedule)
    children = ast_children(node)
    assert [c.for_get_iterator().to_C_str() for c in children] == ["c1", "c1"]
    assert [c.for_get_cond().to_C_str() for c in children] == ["c1 <= 3", "c1 <= 2"]
