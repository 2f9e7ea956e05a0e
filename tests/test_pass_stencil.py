"""`stencil`: spec parsing, matching by strides (PlaidML's rules), the tiled result, and meaning
kept on every example program."""

from __future__ import annotations

import pytest

from plaidc import driver
from plaidc.passes import PassOptionError, get_pass, make_options
from plaidc.passes.stencil import StencilRule, find_best_stencil, parse_stencil, stencil
from plaidc.stripe.ir import Block
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe
from plaidc.targets import parse_config

from .support import REFERENCE
from .support.passes_differential import PROGRAMS, assert_same_meaning, load

CUBE = "m:16:*:*/0 n:16:1:0/1 k:16:0:1/*"

MATMUL = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0, 0] fp32:I(32, 64):(64, 1):8 KiB
    #user none new@0x00000000 B[0, 0] fp32:I(64, 48):(48, 1):12 KiB
    #user none new@0x00000000 C[0, 0] fp32:I(32, 48):(48, 1):6 KiB
) {
  0: #main
  block []:1 (
      in A[0, 0] fp32:I(32, 64):(64, 1):8 KiB
      in B[0, 0] fp32:I(64, 48):(48, 1):12 KiB
      out C[0, 0] fp32:I(32, 48):(48, 1):6 KiB
  ) {
    0: #agg_op_add #comb_op_mul #contraction #kernel
    block [i:32, j:48, k:64]:98304 ( // matmul
        in A[i, k] fp32:I(1, 1):(64, 1):4 B
        in B[k, j] fp32:I(1, 1):(48, 1):4 B
        out C[i, j]:add fp32:I(1, 1):(48, 1):4 B
    ) {
      0: $a = load(A)
      1: $b = load(B)
      2: $c = mul($a, $b)
      3: C = store($c)
    }
  }
}
"""

# The printer ends tag lists with a space, as PlaidML did.
MATMUL_CUBE = (
    "    0: #agg_op_add #comb_op_mul #contraction #kernel #mac \n"
    "    block [i:2, j:3, k:4]:24 ( // matmul\n"
    "        in A[16*i, 16*k] fp32:I(16, 16):(64, 1):1 KiB, E(32, 64):8 KiB\n"
    "        in B[16*k, 16*j] fp32:I(16, 16):(48, 1):1 KiB, E(64, 48):12 KiB\n"
    "        out C[16*i, 16*j]:add fp32:I(16, 16):(48, 1):1 KiB, E(32, 48):6 KiB\n"
    "    ) {\n"
    "      0: #mac_inner \n"
    "      block [(#stencil #stencil_m i:16), "
    "(#stencil #stencil_n j:16), (#stencil #stencil_k k:16)]:4096 ( // matmul\n"
    "          #A in A[i, k] fp32:I(1, 1):(64, 1):4 B, E(16, 16):1 KiB\n"
    "          #B in B[k, j] fp32:I(1, 1):(48, 1):4 B, E(16, 16):1 KiB\n"
    "          #C out C[i, j]:add fp32:I(1, 1):(48, 1):4 B, E(16, 16):1 KiB\n"
    "      ) {\n"
)


def run(program: Block, **options: object) -> Block:
    info = get_pass("stencil")
    return stencil(program, make_options(info, options))


def kernel(program: Block) -> Block:
    main = program.stmts[0]
    assert isinstance(main, Block)
    found = main.stmts[0]
    assert isinstance(found, Block)
    return found


# --------------------------------------------------------------------------------------------
# Specs


def test_parse_stencil_rules() -> None:
    rules = parse_stencil(CUBE)
    assert rules == (
        StencilRule("m", 16, (None,), (None, 0)),
        StencilRule("n", 16, (1,), (0, 1)),
        StencilRule("k", 16, (0,), (1, None)),
    )
    assert parse_stencil("x:*:-1:")[0] == StencilRule("x", None, (-1,), ())


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("m:16", "rule 'm:16' is not name:size:outs:ins"),
        ("m:0:1:1", "the size must be positive"),
        ("m:4:1:x", "stride 'x' is not an integer or '*'"),
        ("m:4:1:1 m:2:1:1", "names an index twice"),
        ("m:4:1:1 n:4:1:1/0", "disagree on the number of refinements"),
    ],
)
def test_bad_stencils_are_option_errors(spec: str, message: str) -> None:
    with pytest.raises(PassOptionError) as err:
        make_options(get_pass("stencil"), {"stencils": [spec]})
    assert str(err.value).startswith("pass 'stencil': option 'stencils': ")
    assert message in str(err.value)


def test_stencils_come_from_a_target_config() -> None:
    config = parse_config(
        """
[target]
name = "t"
backend = "interp"
[hardware]
lanes = 16
[[stage.default.passes]]
name = "cube"
pass = "stencil"
reqs = ["contraction"]
stencils = ["m:${hardware.lanes}:*:*/0 n:${hardware.lanes}:1:0/1 k:${hardware.lanes}:0:1/*"]
outer_set = ["mac"]
inner_set = ["mac_inner"]
""",
        "t.toml",
    )
    (step,) = driver.resolve_steps(config.stage())
    assert step.options.stencils == (CUBE,)
    result = driver.run_pipeline(parse_stripe(MATMUL), [step], verify_each=True)
    assert MATMUL_CUBE in print_stripe(result)


# --------------------------------------------------------------------------------------------
# Matching and tiling


def test_cube_tiles_matmul() -> None:
    program = parse_stripe(MATMUL)
    result = run(
        program, reqs=["contraction"], stencils=[CUBE], outer_set=["mac"], inner_set=["mac_inner"]
    )
    assert MATMUL_CUBE in print_stripe(result)
    assert_same_meaning(program, result, "stencil on matmul")


def test_matches_plaidml_xsmm_stencil_on_its_own_matmul() -> None:
    """PlaidML's CPU pipeline stencilled its matmul dump (`06_fuse_mac_eltwise`) so: the same
    rules here give the same inner block (indices, tags, refinements)."""
    before = parse_stripe((REFERENCE / "matmul/stripe/04_pad.stripe").read_text())
    plaidml = parse_stripe((REFERENCE / "matmul/stripe/06_fuse_mac_eltwise.stripe").read_text())
    result = run(
        before,
        reqs=["agg_op_add", "comb_op_mul"],
        stencils=["m:*:1:0/1 n:32:*:*/0 k:*:0:1/*"],
        startup_cost=32,
        is_strict_dims=True,
        outer_set=["mac"],
        inner_set=["mac_inner", "xsmm"],
    )
    ours, theirs = kernel(result), kernel(plaidml)
    assert [(i.name, i.range) for i in ours.idxs] == [("k", 1), ("m", 2), ("n", 1)]
    assert ours.tags == theirs.tags
    inner, expected = ours.stmts[0], theirs.stmts[0]
    assert isinstance(inner, Block) and isinstance(expected, Block)
    assert inner.idxs == expected.idxs
    # PlaidML named the outer views after the parent's buffers; plaidc keeps the inner names.
    assert [(r.dir, r.into, r.access, r.shape, r.agg_op, r.tags) for r in inner.refs] == [
        (r.dir, r.into, r.access, r.shape, r.agg_op, r.tags) for r in expected.refs
    ]
    assert inner.tags == expected.tags
    assert inner.stmts == expected.stmts


def test_inputs_are_matched_in_any_order() -> None:
    # Refinements are sorted by name: the stencil's first input (k with stride 1) is `Y` here,
    # which comes after `X`, so matching has to permute the inputs.
    text = MATMUL.replace("in A[i, k]", "in Y[i, k]").replace("in B[k, j]", "in X[k, j]")
    text = text.replace("load(A)", "load(Y)").replace("load(B)", "load(X)")
    text = text.replace("in A[0, 0]", "in Y = A[0, 0]").replace("in B[0, 0]", "in X = B[0, 0]")
    program = parse_stripe(text)
    result = run(program, stencils=[CUBE], reqs=["contraction"])
    inner = kernel(result).stmts[0]
    assert isinstance(inner, Block)
    assert {r.into: set(r.tags) for r in inner.refs} == {"Y": {"A"}, "X": {"B"}, "C": {"C"}}
    assert_same_meaning(program, result, "stencil with permuted inputs")


def test_cheapest_stencil_wins() -> None:
    program = parse_stripe(MATMUL)
    small = "m:8:*:*/0 n:8:1:0/1 k:8:0:1/*"
    match = find_best_stencil(
        kernel(program), [parse_stencil(small), parse_stencil(CUBE)], 1, False
    )
    assert match is not None
    # Same padded work (32*48*64) either way; the cube needs 24 tiles, the small one 192.
    assert match.cost == 32 * 48 * 64 + 24
    assert [t for _, _, t in match.tiles] == [16, 16, 16]


def test_strict_dims_refuses_uneven_tiles() -> None:
    program = parse_stripe(MATMUL)
    uneven = "m:*:*:*/0 n:*:1:0/1 k:24:0:1/*"  # 64 % 24 != 0
    assert run(program, stencils=[uneven], is_strict_dims=True) is program
    result = run(program, stencils=[uneven], reqs=["contraction"])
    outer = kernel(result)
    assert [(i.name, i.range) for i in outer.idxs] == [("i", 1), ("j", 1), ("k", 3)]
    inner = outer.stmts[0]
    assert isinstance(inner, Block)
    assert [str(c.affine) for c in inner.constraints] == ["63 - k - ko"]
    assert_same_meaning(program, result, "uneven stencil")


def test_virtual_index_matches_a_missing_dimension() -> None:
    # A matrix-vector product has no `n`: the stencil's n maps to a virtual index of range 1.
    text = """\
block []:1 (
    #user none new@0x00000000 A[0, 0] fp32:I(8, 16):(16, 1):512 B
    #user none new@0x00000000 x[0] fp32:I(16):(1):64 B
    #user none new@0x00000000 y[0] fp32:I(8):(1):32 B
) {
  0: #contraction
  block [i:8, k:16]:128 (
      in A[i, k] fp32:I(1, 1):(16, 1):4 B
      in x[k] fp32:I(1):(1):4 B
      out y[i]:add fp32:I(1):(1):4 B
  ) {
    0: $a = load(A)
    1: $x = load(x)
    2: $p = mul($a, $x)
    3: y = store($p)
  }
}
"""
    program = parse_stripe(text)
    block = program.stmts[0]
    assert isinstance(block, Block)
    match = find_best_stencil(block, [parse_stencil("m:4:*:*/0 n:4:0:0/0 k:8:0:1/*")], 0, True)
    assert match is not None
    assert match.tiles == (("i", "m", 4), ("k", "k", 8))
    result = run(program, stencils=["m:4:*:*/0 n:4:0:0/0 k:8:0:1/*"], reqs=["contraction"])
    assert_same_meaning(program, result, "stencil with a virtual index")


def test_no_match_and_defaults_leave_the_program_alone() -> None:
    program = parse_stripe(MATMUL)
    assert run(program) is program
    # One input only: a two-input stencil cannot match an elementwise block.
    assert run(program, stencils=["m:4:1:1"], reqs=["contraction"]) is program


# --------------------------------------------------------------------------------------------
# Every example program keeps its meaning

OPTIONS = {
    "reqs": ["kernel"],
    "stencils": [CUBE, "m:32:1:0/1 n:*:*:*/0 k:*:0:1/*", "x:8:1:1 y:4:*:*", "x:4:1:"],
    "startup_cost": 16,
    "outer_set": ["mac"],
    "inner_set": ["mac_inner"],
}


@pytest.mark.parametrize("program_id", PROGRAMS)
def test_stencil_keeps_meaning(program_id: str) -> None:
    program = load(program_id)
    result = run(program, **OPTIONS)
    if result is not program:
        assert_same_meaning(program, result, f"stencil on {program_id}")


def test_whole_frames_the_block_and_only_tags_it() -> None:
    """With `whole` the match chooses the roles but tiles nothing: a one-point frame (the
    level where `cache` can copy the block's whole views) around the tagged block."""
    program = parse_stripe(MATMUL)
    result = run(
        program,
        reqs=["contraction"],
        stencils=[CUBE],
        whole=True,
        outer_set=["frame"],
        inner_set=["mac"],
        input_tags=["cube_a", "cube_b"],
    )
    frame = kernel(result)
    assert "frame" in frame.tags and "contraction" in frame.tags
    assert all(i.range == 1 for i in frame.idxs)
    sizes = {r.into: r.shape.sizes for r in frame.refs}
    assert sizes == {"A": (32, 64), "B": (64, 48), "C": (32, 48)}  # the whole views
    (inner,) = frame.stmts
    assert isinstance(inner, Block) and "mac" in inner.tags
    assert [
        (i.name, i.range, "stencil_" + "mnk"["ijk".index(i.name)] in i.tags) for i in inner.idxs
    ] == [
        ("i", 32, True),
        ("j", 48, True),
        ("k", 64, True),
    ]
    assert {r.into: set(r.tags) for r in inner.refs} == {
        "A": {"cube_a"},
        "B": {"cube_b"},
        "C": {"C"},
    }
    assert_same_meaning(program, result, "stencil whole on matmul")
