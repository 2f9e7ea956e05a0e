"""`cache`: golden rewrites, Definition-2 aggregation through a cached `out ...:add` tile, halos
cut by constraints, the cases the pass must refuse, and translation validation on real
programs with several configurations."""

from __future__ import annotations

from pathlib import Path

import pytest

from plaidc import driver
from plaidc.passes import PassOptionError, get_pass, make_options
from plaidc.passes.cache import CacheOptions, cache
from plaidc.stripe.ir import Block, RefDir, Refinement
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe
from plaidc.stripe.verify import verify

from .support import EXAMPLES, REFERENCE


def parse(text: str) -> Block:
    return parse_stripe(text, "<test>")


def run(program: Block, **options: object) -> Block:
    info = get_pass("cache")
    return info.run(program, make_options(info, options))


def assert_same_meaning(before: Block, after: Block) -> None:
    problems = verify(after)
    assert not problems, problems[0].render() + "\n" + print_stripe(after)
    mismatches = driver.check_equivalent(before, after, seed=5)
    assert not mismatches, mismatches[0].message


def blocks(block: Block) -> list[Block]:
    out = [block]
    for stmt in block.stmts:
        if isinstance(stmt, Block):
            out.extend(blocks(stmt))
    return out


def find(block: Block, name: str) -> Block:
    return next(b for b in blocks(block) if b.name == name)


def tagged(block: Block, tag: str) -> Block:
    return next(b for b in blocks(block) if tag in b.tags)


def refs_named(block: Block, name: str) -> list[Refinement]:
    return [r for b in blocks(block) for r in b.refs if r.into == name]


# The module docstring's example.
DOC = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0] fp32(32):(1)
    #user none new@0x00000000 B[0] fp32(32):(1)
) {
  0: #main
  block []:1 (
      in A[0] fp32(32):(1)
      out B[0] fp32(32):(1)
  ) {
    0: #tile
    block [x:4]:4 (
        in A[8*x] fp32(8):(1)
        out B[8*x] fp32(8):(1)
    ) {
      0: block [i:8]:8 (
          in A[i] fp32(1):(1)
          out B[i] fp32(1):(1)
      ) {
        0: $a = load(A)
        1: $b = exp($a)
        2: B = store($b)
      }
    }
  }
}
"""

DOC_AFTER = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0] fp32:I(32):(1):128 B
    #user none new@0x00000000 B[0] fp32:I(32):(1):128 B
) {
  0: #main
  block []:1 (
      in A[0] fp32:I(32):(1):128 B, E(32):128 B
      out B[0] fp32:I(32):(1):128 B, E(32):128 B
  ) {
    0: #tile
    block [x:4]:4 (
        none new@0x00000000 A<UB>[0] fp32:I(8):(1):32 B
        in A_raw = A[8*x] fp32:I(8):(1):32 B, E(32):128 B
        out B[8*x] fp32:I(8):(1):32 B, E(32):128 B
    ) {
      0: #xfer #xfer_load
      block<DMA> [i0:8]:8 ( // load_A
          out dst = A<UB>[i0]:assign fp32:I(1):(1):4 B, E(8):32 B
          in src = A_raw[i0] fp32:I(1):(1):4 B, E(8):32 B
      ) {
        0: $X = load(src)
        1: dst = store($X)
      }
      1: block [i:8]:8 (
          in A<UB>[i] fp32:I(1):(1):4 B, E(8):32 B
          out B[i] fp32:I(1):(1):4 B, E(8):32 B
      ) {
        0: $a = load(A)
        1: $b = exp($a)
        2: B = store($b)
      }
    }
  }
}"""


def text_of(block: Block) -> str:
    """Printed Stripe without PlaidML's trailing blanks after tag lines."""
    return "\n".join(line.rstrip() for line in print_stripe(block).splitlines())


def test_docstring_example_golden() -> None:
    before = parse(DOC)
    after = run(before, reqs="[tile]", ref="[A]", mem_loc="UB", xfer_loc="DMA")
    assert text_of(after) == DOC_AFTER
    assert_same_meaning(before, after)


# A matmul whose outer block splits the reduction: each point of `matmul_ktiles` adds a partial
# product into all of C, so the cached C must still aggregate with `add` into the parent.
KSPLIT = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0, 0] fp32(4, 8):(8, 1)
    #user none new@0x00000000 B[0, 0] fp32(8, 4):(4, 1)
    #user none new@0x00000000 C[0, 0] fp32(4, 4):(4, 1)
) {
  0: #main
  block []:1 (
      in A[0, 0] fp32(4, 8):(8, 1)
      in B[0, 0] fp32(8, 4):(4, 1)
      out C[0, 0]:assign fp32(4, 4):(4, 1)
  ) {
    0: #tile
    block [k:2]:2 ( // matmul_ktiles
        in A[0, 4*k] fp32(4, 4):(8, 1)
        in B[4*k, 0] fp32(4, 4):(4, 1)
        out C[0, 0]:add fp32(4, 4):(4, 1)
    ) {
      0: block [i:4, j:4, kk:4]:64 (
          in A[i, kk] fp32(1, 1):(8, 1)
          in B[kk, j] fp32(1, 1):(4, 1)
          out C[i, j]:add fp32(1, 1):(4, 1)
      ) {
        0: $a = load(A)
        1: $b = load(B)
        2: $c = mul($a, $b)
        3: C = store($c)
      }
    }
  }
}
"""

KSPLIT_STORE = """\
      3: #xfer #xfer_store
      block<DMA> [i0:4, i1:4]:16 ( // store_C
          out dst = C_raw[i0, i1]:add fp32:I(1, 1):(4, 1):4 B, E(4, 4):64 B
          in src = C<UB>[i0, i1] fp32:I(1, 1):(4, 1):4 B, E(4, 4):64 B
      ) {
        0: $X = load(src)
        1: dst = store($X)
      }
"""


def test_split_reduction_output_aggregates_into_parent() -> None:
    before = parse(KSPLIT)
    after = run(before, reqs="[tile]", ref="[all]", mem_loc="UB", xfer_loc="DMA")
    tile = find(after, "matmul_ktiles")
    assert [type(s).__name__ for s in tile.stmts] == ["Block"] * 4
    assert [s.name for s in tile.stmts if isinstance(s, Block)] == [
        "load_A",
        "load_B",
        "",
        "store_C",
    ]
    local = tile.ref("C")
    assert local is not None and local.dir == RefDir.NONE and local.from_ is None
    assert local.shape.sizes == (4, 4) and local.shape.strides == (4, 1)
    raw = tile.ref("C_raw")
    assert raw is not None and raw.agg_op == "add" and raw.from_ == "C"
    # A's tile is 4x4 of an 8-wide matrix: the local copy is dense.
    a_local = tile.ref("A")
    assert a_local is not None and a_local.shape.strides == (4, 1)
    assert KSPLIT_STORE in text_of(after)
    assert_same_meaning(before, after)


def test_refinements_are_selected_by_the_tags_of_their_inner_views() -> None:
    text = (
        KSPLIT.replace("in A[0, 4*k]", "in TA = A[0, 4*k]")
        .replace("in B[4*k, 0]", "in TB = B[4*k, 0]")
        .replace("out C[0, 0]:add", "out TC = C[0, 0]:add")
        .replace("in A[i, kk]", "#A in A = TA[i, kk]")
        .replace("in B[kk, j]", "#B in B = TB[kk, j]")
        .replace("out C[i, j]:add", "#C out C = TC[i, j]:add")
    )
    before = parse(text)
    after = run(before, reqs="[tile]", ref="[A, C]", mem_loc="L0", xfer_loc="MTE1", store_loc="FIX")
    tile = find(after, "matmul_ktiles")
    assert {r.into for r in tile.refs} == {"TA", "TA_raw", "TB", "TC", "TC_raw"}
    load, store = find(tile, "load_TA"), find(tile, "store_TC")
    assert str(load.location.units[0].name if load.location else None) == "MTE1"
    assert str(store.location.units[0].name if store.location else None) == "FIX"
    assert_same_meaning(before, after)


def test_halo_is_cut_at_the_edges() -> None:
    text = (
        (EXAMPLES / "fig5b.stripe")
        .read_text()
        .replace("  0:\n  block [x:4", "  0: #tile\n  block [x:4")
    )
    before = parse(text)
    after = run(before, reqs="[tile]", ref="[I, O]", mem_loc="UB")
    load = find(after, "load_I")
    # Rows and columns of the halo that fall outside the image are not copied.
    cons = {str(c.affine) for c in load.constraints}
    assert cons == {"-1 + i0 + 3*x", "12 - i0 - 3*x", "-1 + i1 + 4*y", "16 - i1 - 4*y"}
    assert [i.name for i in load.idxs if i.range == 1 and not i.affine.is_zero] == ["x", "y"]
    store = find(after, "store_O")
    assert not store.constraints
    local = tagged(after, "tile").ref("I")
    assert local is not None and local.shape.sizes == (5, 6, 8)
    assert_same_meaning(before, after)


STRIDED = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0] fp32(16):(1)
    #user none new@0x00000000 B[0] fp32(16):(1)
) {
  0: #main
  block []:1 (
      in A[0] fp32(16):(1)
      out B[0] fp32(16):(1)
  ) {
    0: #tile
    block [x:2]:2 (
        in A[8*x] fp32(8):(1)
        out B[8*x] fp32(8):(1)
    ) {
      0: block [i:4]:4 (
          in A[2*i] fp32(1):(1)
          out B[2*i] fp32(1):(1)
      ) {
        0: $a = load(A)
        1: B = store($a)
      }
    }
  }
}
"""


def test_strided_read_is_cached_but_strided_write_is_not() -> None:
    before = parse(STRIDED)
    after = run(before, reqs="[tile]", ref="[all]", mem_loc="UB")
    tile = tagged(after, "tile")
    assert tile.ref("A_raw") is not None  # reading the box's holes is harmless
    assert tile.ref("B_raw") is None  # copying the holes out would write poison
    local = tile.ref("A")
    assert local is not None and local.shape.sizes == (7,)
    assert_same_meaning(before, after)


SPECIAL_AND_ALIAS = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0] fp32(8):(1)
    #user none new@0x00000000 B[0] fp32(8):(1)
) {
  0: #main
  block []:1 (
      in A[0] fp32(8):(1)
      inout B[0] fp32(8):(1)
  ) {
    0: #tile
    block []:1 ( // special
        in A[0] fp32(8):(1)
        out B[0] fp32(8):(1)
    ) {
      0: B = copy(A)
    }
    1: #tile
    block [i:8]:8 ( // alias
        in X = B[i] fp32(1):(1)
        out Y = B[i] fp32(1):(1)
    ) {
      0: $x = load(X)
      1: $y = neg($x)
      2: Y = store($y)
    }
  }
}
"""


def test_specials_and_aliased_views_are_left_alone() -> None:
    before = parse(SPECIAL_AND_ALIAS)
    assert not verify(before)
    assert run(before, reqs="[tile]", ref="[all]", mem_loc="UB") is before


READ_BACK = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0] fp32(8):(1)
    #user none new@0x00000000 B[0] fp32(8):(1)
) {
  0: #main
  block []:1 (
      in A[0] fp32(8):(1)
      out B[0] fp32(8):(1)
      #tmp none new@0x00000000 T[0] fp32(8):(1)
  ) {
    0: #tile
    block []:1 ( // fused
        in A[0] fp32(8):(1)
        out B[0] fp32(8):(1)
        inout T[0] fp32(8):(1)
    ) {
      0: block [i:8]:8 ( // produce
          in A[i] fp32(1):(1)
          out T[i] fp32(1):(1)
      ) {
        0: $a = load(A)
        1: $e = exp($a)
        2: T = store($e)
      }
      1: block [i:8]:8 ( // consume
          in T[i] fp32(1):(1)
          out B[i] fp32(1):(1)
      ) {
        0: $t = load(T)
        1: $n = neg($t)
        2: B = store($n)
      }
    }
  }
}
"""


def test_elements_written_before_they_are_read_are_not_copied_in() -> None:
    before = parse(READ_BACK)
    after = run(before, reqs="[tile]", ref="[T]", mem_loc="UB")
    names = [s.name for s in find(after, "fused").stmts if isinstance(s, Block)]
    assert names == ["produce", "consume", "store_T"]
    assert_same_meaning(before, after)


def test_dependencies_are_renumbered() -> None:
    text = READ_BACK.replace(
        "      1: block [i:8]:8 ( // consume", "      1[0]: block [i:8]:8 ( // consume"
    )
    before = parse(text)
    after = run(before, reqs="[tile]", ref="[A, B]", mem_loc="UB")
    fused = find(after, "fused")
    names = [s.name for s in fused.stmts if isinstance(s, Block)]
    assert names == ["load_A", "produce", "consume", "store_B"]
    assert fused.stmts[1].deps == (0,)
    assert fused.stmts[2].deps == (1,)
    assert fused.stmts[3].deps == (2,)
    assert_same_meaning(before, after)


def test_cached_views_below_follow_the_local_buffer() -> None:
    after = run(parse(DOC), reqs="[tile]", ref="[A]", mem_loc="L1")
    inner = [r for r in refs_named(after, "A") if r.shape.sizes == (1,) and r.from_ == "A"]
    assert len(inner) == 1
    assert inner[0].location is not None and inner[0].location.units[0].name == "L1"
    assert inner[0].shape.strides == (1,) and [str(a) for a in inner[0].access] == ["i"]


def test_defaults_do_nothing_and_options_are_checked() -> None:
    program = parse(KSPLIT)
    assert cache(program, CacheOptions()) is program
    with pytest.raises(PassOptionError, match="dirs"):
        run(program, ref="[all]", dirs="[sideways]")
    with pytest.raises(PassOptionError, match="mem_loc"):
        run(program, ref="[all]", mem_loc="")
    with pytest.raises(PassOptionError, match="pad"):
        run(program, ref="[all]", mem_loc="UB", pad="[16, 0]")


def test_padded_copies_have_whole_multiples_and_copy_the_footprint_only() -> None:
    """`pad`: the halo tile of fig5b (5 x 6 x 8) with its last two dimensions rounded up to
    multiples of 4 and 16 (5 x 8 x 16, dense); the transfers still copy 5 x 6 x 8 elements,
    the views below take the padded strides, and the program means the same."""
    text = (
        (EXAMPLES / "fig5b.stripe")
        .read_text()
        .replace("  0:\n  block [x:4", "  0: #tile\n  block [x:4")
    )
    before = parse(text)
    after = run(before, reqs="[tile]", ref="[I, O]", mem_loc="UB", pad="[4, 16]")
    local = tagged(after, "tile").ref("I")
    assert local is not None
    assert (local.shape.sizes, local.shape.strides) == ((5, 8, 16), (128, 16, 1))
    assert [i.range for i in find(after, "load_I").idxs if i.affine.is_zero] == [5, 6, 8]
    below = [r for r in refs_named(after, "I") if r.from_ == "I" and r.location == local.location]
    assert below and all(r.shape.strides == (128, 16, 1) for r in below)
    assert_same_meaning(before, after)


# ---- translation validation on real programs ----------------------------------------------

DUMPS = [
    REFERENCE / "conv_bias_relu/stripe/15_prune_refs.stripe",
    REFERENCE / "conv_bias_relu/stripe/08_eltwise_fuse.stripe",
    REFERENCE / "matmul/stripe/15_prune_refs.stripe",
    REFERENCE / "softmax/stripe/15_prune_refs.stripe",
    REFERENCE / "maxpool1d/stripe/15_prune_refs.stripe",
    REFERENCE / "cumsum/stripe/15_prune_refs.stripe",
]
CONFIGS = {
    "kernel": [{"reqs": "[kernel]", "ref": "[all]", "mem_loc": "UB"}],
    "main": [{"reqs": "[main]", "ref": "[all]", "mem_loc": "UB"}],
    "inputs": [{"reqs": "[kernel]", "ref": "[all]", "dirs": "[in]", "mem_loc": "UB"}],
    "two_levels": [
        {"reqs": "[contract_outer]", "ref": "[all]", "mem_loc": "L1"},
        {"reqs": "[mac_inner]", "ref": "[A, B]", "mem_loc": "L0A"},
    ],
}


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("path", DUMPS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_reference_programs_keep_their_meaning(path: Path, config: str) -> None:
    before = parse_stripe(path.read_text(), str(path))
    after = before
    for options in CONFIGS[config]:
        after = run(after, **options)
    if config != "two_levels" or "contract_outer" in path.read_text():
        assert after != before, "the configuration should cache something here"
    assert_same_meaning(before, after)


def test_refinements_are_selected_by_tags_further_down() -> None:
    """A frame around a frame around the tagged block (the npu pipeline's Cube K step): the
    outer frame's copy of the view the innermost block tags `#cube_a` (not its name)."""
    from .test_pass_stencil import MATMUL

    stencil = get_pass("stencil")
    program = parse(MATMUL)
    for reqs, outer, inner in (("contraction", "l1", "step"), ("step", "l0", "mad")):
        options = {
            "reqs": [reqs],
            "stencils": ["m:16:*:*/0 n:16:1:0/* k:16:0:*/*"],
            "whole": True,
            "outer_set": [outer],
            "inner_set": [inner],
            "input_tags": ["cube_a", "cube_b"],
        }
        program = stencil.run(program, make_options(stencil, options))
    after = run(program, reqs="[l1]", ref="[cube_a]", mem_loc="L1", xfer_loc="MTE3")
    frame = tagged(after, "l1")
    local = frame.ref("A")
    assert local is not None and local.from_ is None and local.shape.sizes == (32, 64)
    assert {r.into for r in frame.refs} == {"A", "A_raw", "B", "C"}
    assert_same_meaning(program, after)
