"""The Stripe verifier: every check has a failing case with its exact message and position, and
every real PlaidML dump and the paper's Figure 5 verify clean."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from plaidc.diagnostics import CompileError, Diagnostic, Span
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
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.verify import verify, verify_or_raise

from .support import EXAMPLES, REFERENCE, REFERENCE_DUMPS

# --------------------------------------------------------------------------------------------
# Valid programs


@pytest.mark.parametrize("path", REFERENCE_DUMPS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_plaidml_dump_verifies_clean(path: Path) -> None:
    program = parse_stripe(path.read_text(), str(path))
    assert verify(program) == []


def test_all_reference_dumps_are_found() -> None:
    assert len(REFERENCE_DUMPS) == 9 * 14


@pytest.mark.parametrize("name", ["fig5a.stripe", "fig5b.stripe"])
def test_paper_figure_5_verifies_clean(name: str) -> None:
    program = parse_stripe((EXAMPLES / name).read_text(), name)
    assert verify(program) == []
    verify_or_raise(program)


# --------------------------------------------------------------------------------------------
# Parsed malformed programs: message and position

COPY = """\
block [] ( // prog
    in A[0, 0] fp32(4, 8):(8, 1)
    out B[0, 0] fp32(4, 8):(8, 1)
) {
  0: block [i:4, j:8] ( // copy
      in A[i, j] fp32(1, 1):(8, 1)
      out B[i, j] fp32(1, 1):(8, 1)
  ) {
    0: $a = load(A)
    1: B = store($a)
  }
}
"""


def check(text: str) -> list[Diagnostic]:
    return verify(parse_stripe(text, "t.stripe"))


def only(text: str) -> Diagnostic:
    diagnostics = check(text)
    assert len(diagnostics) == 1, [d.message for d in diagnostics]
    return diagnostics[0]


def test_copy_template_is_valid() -> None:
    assert check(COPY) == []


@pytest.mark.parametrize(
    ("old", "new", "message", "line", "col"),
    [
        # 1. names
        (
            "1: B = store($a)",
            "1: B = store($b)",
            "block 'copy': scalar '$b' is used before it is defined",
            10,
            8,
        ),
        (
            "1: B = store($a)",
            "1: $a = load(A)\n    2: B = store($a)",
            "block 'copy': scalar '$a' is assigned more than once",
            10,
            8,
        ),
        (
            "0: $a = load(A)",
            "0: $a = load(Z)",
            "block 'copy': load names 'Z', which is not a refinement of this block",
            9,
            8,
        ),
        (
            "1: B = store($a)",
            "1: Z = store($a)",
            "block 'copy': store names 'Z', which is not a refinement of this block",
            10,
            8,
        ),
        (
            "in A[i, j] fp32(1, 1)",
            "in A = Q[i, j] fp32(1, 1)",
            "block 'copy': refinement 'A' refines 'Q', which is not a refinement of the parent "
            "block 'prog'",
            6,
            7,
        ),
        # 2. scopes
        (
            "in A[i, j] fp32(1, 1)",
            "in A[i, q] fp32(1, 1)",
            "block 'copy': refinement 'A': access 'q' uses 'q', which is not an index of this "
            "block",
            6,
            7,
        ),
        (
            "  ) {\n    0: $a",
            "      -2 + q >= 0\n  ) {\n    0: $a",
            "block 'copy': constraint '-2 + q >= 0' uses 'q', which is not an index of this block",
            8,
            7,
        ),
        (
            "1: B = store($a)",
            "1: $k = load_index(i + 2*z)\n    2: B = store($a)",
            "block 'copy': load_index 'i + 2*z' uses 'z', which is not an index of this block",
            10,
            8,
        ),
        (
            "block [i:4, j:8]",
            "block [i:4, j:8 = i]",
            "block 'copy': index 'j' starts at 'i', but 'i' is not an index of the parent block "
            "'prog'",
            5,
            18,
        ),
        # 3. shapes
        (
            "in A[i, j] fp32(1, 1):(8, 1)",
            "in A[i] fp32(1):(8)",
            "block 'copy': refinement 'A' has rank 1 but 'A' in block 'prog' has rank 2",
            6,
            7,
        ),
        (
            "in A[i, j] fp32(1, 1)",
            "in A[i, j] fp16(1, 1)",
            "block 'copy': refinement 'A' has type fp16 but 'A' in block 'prog' has type fp32",
            6,
            7,
        ),
        (
            "in A[i, j] fp32(1, 1)",
            "out A[i, j] fp32(1, 1)",
            "block 'copy': refinement 'A' is 'out' but refines 'A' in block 'prog', which is 'in'",
            6,
            7,
        ),
        (
            "out B[i, j] fp32(1, 1)",
            "in B[i, j] fp32(1, 1)",
            "block 'copy': store writes to refinement 'B', which is 'in'",
            10,
            8,
        ),
        # 4. bounds
        (
            "out B[i, j] fp32(1, 1)",
            "out B[i, j + 1] fp32(1, 1)",
            "block 'copy': refinement 'B' reaches outside its parent 'B' (4, 8) of block 'prog': "
            "element [0, 8] at point {i=0, j=7}, by the store of 'B' in block 'copy'",
            7,
            7,
        ),
        (
            "in A[i, j] fp32(1, 1)",
            "in A[i - 1, j] fp32(1, 1)",
            "block 'copy': refinement 'A' reaches outside its parent 'A' (4, 8) of block 'prog': "
            "element [-1, 0] at point {i=0, j=0}, by the load of 'A' in block 'copy'",
            6,
            7,
        ),
        # 5. assign outputs
        (
            "out B[i, j] fp32(1, 1)",
            "out B[i, 0] fp32(1, 1)",
            "block 'copy': refinement 'B' has aggregation 'assign' but points {i=0, j=0} and "
            "{i=0, j=1} both store element [0, 0] of 'B'",
            7,
            7,
        ),
    ],
)
def test_malformed_program_is_reported(
    old: str, new: str, message: str, line: int, col: int
) -> None:
    assert old in COPY
    diagnostic = only(COPY.replace(old, new))
    assert diagnostic.message == message
    assert diagnostic.span == Span("t.stripe", line, col)


def test_an_intrinsic_with_several_outputs_is_reported() -> None:
    diagnostic = only(COPY.replace("0: $a = load(A)", "0: $x = load(A)\n    1: ($a, $b) = neg($x)"))
    assert (
        diagnostic.message == "block 'copy': intrinsic 'neg' has 2 outputs; every intrinsic has one"
    )
    assert diagnostic.span == Span("t.stripe", 10, 8)


ALIASED = """\
block [] ( // prog
    in A[0] fp32(3):(1)
    out O[0]:assign fp32(3):(1)
) {
  0: block [i:2] ( // two
      in A[i] fp32(1):(1)
      out a = O[i] fp32(1):(1)
      out b = O[i + 1] fp32(1):(1)
  ) {
    0: $x = load(A)
    1: a = store($x)
    2: b = store($x)
  }
}
"""


def test_assign_views_aliasing_one_buffer_are_checked_together() -> None:
    """`a = O[i]` and `b = O[i + 1]`: point 0 stores O[1] through b, point 1 through a."""
    diagnostic = only(ALIASED)
    assert diagnostic.message == (
        "block 'two': refinement 'a' has aggregation 'assign' but points {i=0} and {i=1} both "
        "store element [1] of 'O'"
    )
    assert not check(ALIASED.replace("O[i + 1]", "O[i + 2]").replace("fp32(3)", "fp32(4)"))


def test_two_aggregations_onto_one_element_are_reported() -> None:
    text = ALIASED.replace("O[i] fp32(1)", "O[i]:add fp32(1)").replace(
        "O[i + 1] fp32(1)", "O[i + 1]:max fp32(1)"
    )
    diagnostic = only(text)
    assert diagnostic.message == (
        "block 'two': refinements 'a' (add) and 'b' (max) store into the same elements of 'O'; "
        "an element takes one aggregation"
    )
    assert diagnostic.span == Span("t.stripe", 8, 7)
    both_add = text.replace(":max", ":add")
    assert not check(both_add)  # one aggregation: points may share elements


def test_the_program_block_has_one_point() -> None:
    diagnostic = only(COPY.replace("block [] ( // prog", "block [r:2] ( // prog"))
    assert diagnostic.message == (
        "block 'prog': the program block must have exactly one point; its indices have 2"
    )
    assert diagnostic.span == Span("t.stripe", 1, 1)


def test_aggregating_output_may_store_one_element_from_many_points() -> None:
    assert check(COPY.replace("out B[i, j] fp32(1, 1)", "out B[i, 0]:add fp32(1, 1)")) == []


def test_assign_is_checked_per_execution_of_the_block() -> None:
    """Each point of the outer block runs the inner block once; the inner `assign` view only
    needs to be injective over the inner points (the outer view moves with the outer index)."""
    text = """\
block [] ( // prog
    out B[0] fp32(8):(1)
) {
  0: block [t:2] ( // tiles
      out B[4*t] fp32(4):(1)
  ) {
    0: block [i:4] ( // inner
        out B[i] fp32(1):(1)
    ) {
      0: $z = load_index(i)
      1: B = store($z)
    }
  }
}
"""
    assert check(text) == []
    clash = text.replace("out B[i] fp32(1):(1)", "out B[0] fp32(1):(1)")
    assert [d.message for d in check(clash)] == [
        "block 'tiles/inner': refinement 'B' has aggregation 'assign' but points {i=0} and "
        "{i=1} both store element [0] of 'B'"
    ]
    overlap = text.replace("out B[4*t] fp32(4):(1)", "out B[2*t] fp32(4):(1)")
    assert [d.message for d in check(overlap)] == [
        "block 'tiles': refinement 'B' has aggregation 'assign' but points {t=0} and {t=1} both "
        "store element [2] of 'B'"
    ]


SAME_VALUE = """\
block [] ( // prog
    in A[0] fp32(2):(1)
    out B[0] fp32(3):(1)
) {
  0: block [t:2] ( // tiles
      in A[t] fp32(1):(1)
      out B[t] fp32(2):(1)
  ) {
    0: block [i:2, k:2] ( // inner
        in A[0] fp32(1):(1)
        out B[i] fp32(1):(1)
    ) {
      0: $z = (float)0
      1: B = store($z)
    }
  }
}
"""


def test_points_storing_one_point_independent_value_do_not_conflict_under_assign() -> None:
    """PlaidML's `#zero` blocks: points store the same constant into one element (here the
    inner points differing in k, and the overlapping tiles). STRIPE.md semantics rule 3."""
    assert check(SAME_VALUE) == []
    # A value every inner point loads alike is the same within one tile, not across tiles.
    loaded = SAME_VALUE.replace("0: $z = (float)0", "0: $z = load(A)")
    assert [d.message for d in check(loaded)] == [
        "block 'tiles': refinement 'B' has aggregation 'assign' but points {t=0} and {t=1} both "
        "store element [1] of 'B'"
    ]
    apart = loaded.replace("out B[t] fp32(2)", "out B[2*t] fp32(2)").replace("fp32(3)", "fp32(4)")
    assert check(apart) == []
    # Two statements storing constants are two values; an index-dependent value differs.
    two = SAME_VALUE.replace(
        "      1: B = store($z)\n",
        "      1: B = store($z)\n      2: $w = (float)1\n      3: B = store($w)\n",
    )
    assert [d.message for d in check(two)] == [
        "block 'tiles': refinement 'B' has aggregation 'assign' but points {t=0} and {t=1} both "
        "store element [1] of 'B'",
        "block 'tiles/inner': refinement 'B' has aggregation 'assign' but points {i=0, k=0} "
        "and {i=0, k=1} both store element [0] of 'B'",
    ]
    varying = SAME_VALUE.replace("0: $z = (float)0", "0: $z = load_index(k)")
    assert len(check(varying)) == 2


def test_figure_5b_halo_view_is_fine_but_a_missing_inner_constraint_is_not() -> None:
    """The outer view `I[3*x - 1, ...]` starts at row -1 for x = 0; only the inner constraints
    keep the loaded elements in bounds, so dropping one is caught at the outer refinement."""
    text = (EXAMPLES / "fig5b.stripe").read_text()
    broken = text.replace("        -1 + xo + x + i >= 0\n", "")
    diagnostic = only(broken)
    assert diagnostic.message == (
        "block '[0]': refinement 'I' reaches outside its parent 'I' (12, 16, 8) of block "
        "'<program>': element [-1, 0, 0] at point {x=0, y=0, i=0, j=0, c=0, k=0 | x=0, y=0, "
        "i=0, j=1, c=0, k=0, xo=0, yo=0}, by the load of 'I' in block '[0]/[0]'"
    )
    assert diagnostic.span == Span("t.stripe", 10, 7)


def test_figure_5a_with_the_papers_typo_fixed_the_wrong_way_reads_past_the_image() -> None:
    text = (EXAMPLES / "fig5a.stripe").read_text()
    diagnostic = only(text.replace("16 - y - j >= 0", "17 - y - j >= 0"))
    assert "element [0, 16, 0] at point {x=0, y=15, i=1, j=2, c=0, k=0}" in diagnostic.message
    assert diagnostic.span is not None and (diagnostic.span.line, diagnostic.span.col) == (16, 7)


def test_a_real_dump_with_a_shrunk_tile_view_is_caught() -> None:
    """conv_bias_relu after PlaidML's tiling: the y tile of X holds 3 rows for the 3x3 filter;
    with 2 rows the kernel's reads at j = 2 leave it, three levels below."""
    path = REFERENCE / "conv_bias_relu" / "stripe" / "15_prune_refs.stripe"
    text = path.read_text()
    old = "in X<DRAM>[0, 0, y, 0] fp32:I(1, 16, 3, 8):(2048, 128, 8, 1):1.5 KiB, E(1, 16, 16, 8)"
    new = "in X<DRAM>[0, 0, y, 0] fp32:I(1, 16, 2, 8):(2048, 128, 8, 1):1 KiB, E(1, 16, 16, 8)"
    assert text.count(old) == 1
    diagnostics = check(text.replace(old, new))
    assert len(diagnostics) == 1
    message = diagnostics[0].message
    assert message.startswith("block 'main/kernel_0(X_I_1,X_I_2)+")
    assert "refinement 'X' reaches outside its parent 'X' (1, 16, 2, 8)" in message
    assert "element [0, 0, 2, 0]" in message
    assert "by the load of 'X_I_1' in block" in message


def test_views_too_irregular_for_isl_are_an_error_not_a_hang() -> None:
    """A parent view restrided so that its rows overlap irregularly (last stride 3 under a
    stride of 16): isl's subtraction of its elements ran for over ten minutes; now it has a
    budget, and running out of it is a located error."""
    path = REFERENCE / "conv_bias_relu" / "stripe" / "11_prune_idxs.stripe"
    text = path.read_text()
    old = "in X_00 = X_I_2[0, 0, 0, 0] fp32:I(3, 3, 8, 16):(384, 128, 16, 1):4.5 KiB"
    assert text.count(old) == 1
    diagnostics = check(text.replace(old, old.replace("16, 1)", "16, 3)")))
    assert diagnostics
    assert all(d.message.startswith("cannot verify: refinement 'X_00'") for d in diagnostics)
    assert "too irregular" in diagnostics[0].message
    assert diagnostics[0].span is not None


def test_special_touches_its_whole_view() -> None:
    text = """\
block [] ( // prog
    in A[0] fp32(8):(1)
    out B[0] fp32(8):(1)
) {
  0: block [t:2] ( // halves
      in A[4*t] fp32(4):(1)
      out B[4*t] fp32(4):(1)
  ) {
    0: B = copy(A)
  }
}
"""
    assert check(text) == []
    diagnostic = only(text.replace("in A[4*t] fp32(4)", "in A[4*t] fp32(5)"))
    assert diagnostic.message == (
        "block 'halves': refinement 'A' reaches outside its parent 'A' (8) of block 'prog': "
        "element [8] at point {t=1}, by the special 'copy' of 'A' in block 'halves'"
    )
    assert diagnostic.span == Span("t.stripe", 6, 7)


def test_a_view_reshaping_its_parent_is_checked_through_flat_offsets() -> None:
    text = """\
block [] ( // prog
    in A[0] fp32(12):(1)
    out B[0] fp32(12):(1)
) {
  0: block [] ( // reshape
      in M = A[0, 0] fp32(3, 4):(4, 1)
      out B[0] fp32(12):(1)
  ) {
    0: B = copy(M)
  }
}
"""
    # The rank mismatch is reported (check 3); the bounds check still runs on flat offsets.
    assert [d.message for d in check(text)] == [
        "block 'reshape': refinement 'M' has rank 2 but 'A' in block 'prog' has rank 1"
    ]
    messages = [d.message for d in check(text.replace("fp32(3, 4)", "fp32(4, 4)"))]
    assert messages[1] == (
        "block 'reshape': refinement 'M' reaches outside its parent 'A' (12) of block 'prog': "
        "flat offset 12 at point {}, by the special 'copy' of 'M' in block 'reshape'"
    )


def test_a_view_of_size_zero_has_no_element_to_load() -> None:
    text = COPY.replace("in A[i, j] fp32(1, 1)", "in A[i, j] fp32(1, 0)")
    diagnostic = only(text)
    assert diagnostic.message == (
        "block 'copy': the load of 'A' in block 'copy' reaches outside refinement 'A' (1, 0): "
        "element [0, 0] at point {i=0, j=0}"
    )
    assert diagnostic.span == Span("t.stripe", 9, 8)


def test_errors_are_all_reported_and_raised_together() -> None:
    text = COPY.replace("1: B = store($a)", "1: B = store($b)")
    text = text.replace("in A[i, j] fp32(1, 1)", "in A[i, q] fp32(1, 1)")
    diagnostics = check(text)
    assert len(diagnostics) == 2
    with pytest.raises(CompileError) as info:
        verify_or_raise(parse_stripe(text, "t.stripe"))
    assert info.value.diagnostics == diagnostics
    assert str(info.value).startswith("t.stripe:6:7: error: block 'copy': refinement 'A'")


# --------------------------------------------------------------------------------------------
# Hand-built IR for what the parser already rejects (passes can still produce it)

v = Affine.var
SPAN = Span("hand.stripe", 3, 4)


def vec_ref(
    name: str,
    access: Affine,
    size: int = 1,
    from_: str | None = "",
    direction: RefDir = RefDir.IN,
) -> Refinement:
    return Refinement(
        direction,
        name if from_ == "" else from_,
        name,
        (access,),
        TensorShape(DType.FP32, (size,), (1,)),
        span=SPAN,
    )


def program_with(kernel: Block) -> Block:
    root_refs = (
        vec_ref("A", Affine.const_(0), 8, from_=None),
        vec_ref("B", Affine.const_(0), 8, from_=None, direction=RefDir.OUT),
    )
    return Block(name="prog", refs=root_refs, stmts=(kernel,))


def good_kernel() -> Block:
    return Block(
        name="k",
        idxs=(Index("i", 8, span=SPAN),),
        refs=(vec_ref("A", v("i")), vec_ref("B", v("i"), direction=RefDir.OUT)),
        stmts=(Load(from_="A", into="$a"), Store(from_="$a", into="B", span=SPAN)),
    )


def messages(kernel: Block) -> list[str]:
    diagnostics = verify(program_with(kernel))
    assert all(d.span == SPAN for d in diagnostics)
    return [d.message for d in diagnostics]


def test_hand_built_kernel_is_valid() -> None:
    assert messages(good_kernel()) == []


def test_duplicate_index() -> None:
    kernel = good_kernel()
    kernel = replace(kernel, idxs=(*kernel.idxs, Index("i", 2, span=SPAN)))
    assert messages(kernel) == ["block 'k': duplicate index 'i'"]


def test_duplicate_refinement() -> None:
    kernel = good_kernel()
    kernel = replace(kernel, refs=(*kernel.refs, vec_ref("A", v("i"))))
    assert messages(kernel) == ["block 'k': duplicate refinement 'A'"]


def test_forward_dependency() -> None:
    kernel = good_kernel()
    load = replace(kernel.stmts[0], deps=(1,), span=SPAN)
    kernel = replace(kernel, stmts=(load, kernel.stmts[1]))
    assert messages(kernel) == [
        "block 'k': statement 0 depends on statement 1, which does not precede it"
    ]


def test_unknown_aggregation() -> None:
    kernel = good_kernel()
    kernel = replace(kernel, refs=(kernel.refs[0], replace(kernel.refs[1], agg_op="sum")))
    assert messages(kernel) == [
        "block 'k': refinement 'B' has unknown aggregation 'sum' (expected one of add, mul, "
        "max, min, assign)"
    ]


def test_access_rank_differs_from_shape_and_strides_from_sizes() -> None:
    kernel = good_kernel()
    bad = replace(kernel.refs[0], access=(v("i"), v("i")))
    odd = replace(kernel.refs[1], shape=TensorShape(DType.FP32, (1,), (1, 1)))
    kernel = replace(kernel, refs=(bad, odd))
    assert messages(kernel) == [
        "block 'k': refinement 'A' has 2 access dimensions but its shape has 1",
        "block 'k': refinement 'B' has 1 sizes but 2 strides",
    ]


def test_negative_range_and_size() -> None:
    kernel = good_kernel()
    kernel = replace(
        kernel,
        idxs=(Index("i", -1, span=SPAN),),
        refs=(
            replace(kernel.refs[0], shape=TensorShape(DType.FP32, (-2,), (1,))),
            kernel.refs[1],
        ),
    )
    assert messages(kernel) == [
        "block 'k': index 'i' has negative range",
        "block 'k': refinement 'A' has a negative size (-2)",
    ]


def test_unknown_intrinsic_and_special_and_special_refs() -> None:
    kernel = good_kernel()
    kernel = replace(
        kernel,
        stmts=(
            *kernel.stmts,
            Intrinsic(name="frob", inputs=("$a",), outputs=("$b",), span=SPAN),
            Special(name="zap", inputs=("Q",), outputs=("A",), span=SPAN),
        ),
    )
    assert messages(kernel) == [
        "block 'k': unknown intrinsic 'frob'",
        "block 'k': unknown special 'zap'",
        "block 'k': special 'zap' names 'Q', which is not a refinement of this block",
        "block 'k': special 'zap' writes to refinement 'A', which is 'in'",
    ]


def test_root_index_start_must_be_constant() -> None:
    program = replace(program_with(good_kernel()), idxs=(Index("r", 1, v("outer"), span=SPAN),))
    assert [d.message for d in verify(program)] == [
        "block 'prog': index 'r' starts at 'outer', but 'outer' is not an index of an "
        "enclosing block"
    ]


def test_constraint_out_of_scope_in_hand_built_ir_skips_isl_below() -> None:
    kernel = replace(good_kernel(), constraints=(Constraint(v("zz"), span=SPAN),))
    assert messages(kernel) == [
        "block 'k': constraint 'zz >= 0' uses 'zz', which is not an index of this block"
    ]


# --------------------------------------------------------------------------------------------
# 6. Points may not read what other points of the same execution write

SHIFT = """\
block [] ( // prog
    inout A[0] fp32(8):(1)
) {
  0: block [i:7] ( // shift
      in X = A[i] fp32(1):(1)
      out Y = A[i] fp32(1):(1)
  ) {
    0: $x = load(X)
    1: Y = store($x)
  }
}
"""


def test_in_place_update_of_the_same_element_is_fine() -> None:
    assert check(SHIFT) == []


def test_reading_a_neighbour_that_another_point_writes_is_a_race() -> None:
    diagnostic = only(SHIFT.replace("in X = A[i]", "in X = A[i + 1]"))
    assert diagnostic.message == (
        "block 'shift': refinement 'X' reads element [1] of 'A' in block 'prog' at point {i=0}, "
        "which point {i=1} writes through refinement 'Y'"
    )
    assert diagnostic.span == Span("t.stripe", 5, 7)


def test_races_are_found_between_tiles_through_their_inner_accesses() -> None:
    """Tile t's view of A covers 5 elements but its points read only 4 of them. Shifting the
    inner read races between tiles (tile 0 reads element 4, which tile 1 writes) and, through
    the aliasing views X and Y of A, between the points of one tile."""
    text = """\
block [] ( // prog
    inout A[0] fp32(9):(1)
) {
  0: block [t:2] ( // tiles
      in X = A[4*t] fp32(5):(1)
      out Y = A[4*t] fp32(4):(1)
  ) {
    0: block [i:4] ( // inner
        in X[i] fp32(1):(1)
        out Y[i] fp32(1):(1)
    ) {
      0: $x = load(X)
      1: Y = store($x)
    }
  }
}
"""
    assert check(text) == []
    diagnostics = check(text.replace("in X[i] fp32(1)", "in X[i + 1] fp32(1)"))
    assert [(d.message, d.span) for d in diagnostics] == [
        (
            "block 'tiles': refinement 'X' reads element [4] of 'A' in block 'prog' at point "
            "{t=0}, which point {t=1} writes through refinement 'Y'",
            Span("t.stripe", 5, 7),
        ),
        (
            "block 'tiles/inner': refinement 'X' reads element [1] of 'A' in block 'prog' at "
            "point {i=0}, which point {i=1} writes through refinement 'Y'",
            Span("t.stripe", 9, 9),
        ),
    ]
