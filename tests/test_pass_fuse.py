"""`fuse`: golden fused forms (contraction + epilogue, tiled producers, reductions, chains),
the cases that must stay apart, the options, and a CPU-like pipeline on the op library."""

from __future__ import annotations

from typing import Any

import pytest

from plaidc import driver
from plaidc.analysis import DomainCache
from plaidc.analysis.fusion import IndexLink, fusion_violations
from plaidc.passes import PassOptionError, get_pass, make_options
from plaidc.stripe.ir import Block, Intrinsic, Load, Store
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.verify import verify

from .oplib_reference import load_manifest
from .support import REFERENCE

CPU: dict[str, Any] = {"a_reqs": ["contraction"], "b_reqs": ["eltwise"], "fused_set": ["fused"]}


def run(program: Block, name: str, **opts: Any) -> Block:
    info = get_pass(name)
    return info.run(program, make_options(info, opts))


def assert_same_meaning(before: Block, after: Block) -> None:
    problems = verify(after)
    assert not problems, problems[0].render()
    mismatches = driver.check_equivalent(before, after, seed=5)
    assert not mismatches, mismatches[0].message


def main_of(program: Block) -> Block:
    main = program.stmts[0]
    assert isinstance(main, Block)
    return main


def blocks(block: Block) -> list[Block]:
    return [s for s in block.stmts if isinstance(s, Block)]


def program(buffers: str, main_refs: str, body: str) -> Block:
    text = f"""\
0: #program
block []:1 (
{buffers}
) {{
  0: #main
  block [] ( // main
{main_refs}
  ) {{
{body}
  }}
}}
"""
    return parse_stripe(text, "<test>")


MM_BIAS = program(
    """\
    #user none new@0x00000000 A[0, 0] fp32(4, 6):(6, 1)
    #user none new@0x00000000 B[0, 0] fp32(6, 5):(5, 1)
    #user none new@0x00000000 C[0] fp32(5):(1)
    #user none new@0x00000000 Y[0, 0] fp32(4, 5):(5, 1)""",
    """\
      in A[0, 0] fp32(4, 6):(6, 1)
      in B[0, 0] fp32(6, 5):(5, 1)
      in C[0] fp32(5):(1)
      none new@0x00000000 T[0, 0] fp32(4, 5):(5, 1)
      out Y[0, 0] fp32(4, 5):(5, 1)""",
    """\
    0: #contraction #kernel
    block [k:6, m:4, n:5] ( // mm
        in A[m, k] fp32(1, 1):(6, 1)
        in B[k, n] fp32(1, 1):(5, 1)
        out T[m, n]:add fp32(1, 1):(5, 1)
    ) {
      0: $a = load(A)
      1: $b = load(B)
      2: $t = mul($a, $b)
      3: T = store($t)
    }
    1: #eltwise #kernel
    block [i:4, j:5] ( // bias
        in C[j] fp32(1):(1)
        in T[i, j] fp32(1, 1):(5, 1)
        out Y[i, j] fp32(1, 1):(5, 1)
    ) {
      0: $t = load(T)
      1: $c = load(C)
      2: $y = add($t, $c)
      3: Y = store($y)
    }""",
)


def test_matmul_bias_fuses_into_one_block_with_the_epilogue_inlined() -> None:
    after = run(MM_BIAS, "fuse", **CPU)
    assert_same_meaning(MM_BIAS, after)
    (fused,) = blocks(main_of(after))
    assert fused.name == "mm+bias"
    assert [i.name for i in fused.idxs] == ["m", "n"]
    assert {"contraction", "kernel", "fused"} <= set(fused.tags)
    inner = fused.stmts[0]
    assert isinstance(inner, Block) and [i.name for i in inner.idxs] == ["k"]
    assert [type(s) for s in fused.stmts[1:]] == [Load, Load, Intrinsic, Store]
    # The fused views are the tiles one output point needs.
    views = {r.into: (r.access, r.shape.sizes) for r in fused.refs}
    assert str(views["A"][0][0]) == "m" and views["A"][1] == (1, 6)
    t_view = fused.ref("T")
    assert views["T"][1] == (1, 1) and t_view is not None and t_view.agg_op == "add"


def test_plaidml_conv_epilogue_chain_fuses_localizes_and_scalarizes() -> None:
    """PlaidML's conv + bias + relu (add, cmp_lt, cond as separate kernels) becomes one block
    over the output, like PlaidML's own 10_scalarize_main dump without the tiling."""
    path = REFERENCE / "conv_bias_relu" / "stripe" / "04_pad.stripe"
    before = parse_stripe(path.read_text(), str(path))
    after = run(run(run(before, "fuse"), "localize"), "scalarize")
    assert_same_meaning(before, after)
    (fused,) = blocks(main_of(after))
    assert [i.name for i in fused.idxs] == ["x", "y", "co"]
    kinds = [type(s).__name__ for s in fused.stmts]
    assert kinds == [
        "Block",
        "Load",
        "Load",
        "Intrinsic",
        "Constant",
        "Intrinsic",
        "Constant",
        "Intrinsic",
        "Store",
    ]
    # The bias, compare and select temporaries are gone; the accumulator is one local element.
    main_refs = {r.into for r in main_of(after).refs}
    assert not main_refs & {"X_01", "X_03", "X_04"}
    acc = fused.ref("X_01")
    assert acc is not None and acc.from_ is None and acc.shape.sizes == (1, 1, 1, 1)


TILED = """\
    0: #contract_outer #contraction #kernel
    block [m:3] ( // mm
        in A[3*m, 0] fp32(3, 6):(6, 1)
        in B[0, 0] fp32(6, 5):(5, 1)
        out T[3*m, 0]:add fp32(3, 5):(5, 1)
    ) {
      0: #contract_inner
      block [k:6, m:3, n:5, mo = m] ( // mm
          7 - 3*mo - m >= 0
          in A[m, k] fp32(1, 1):(6, 1)
          in B[k, n] fp32(1, 1):(5, 1)
          out T[m, n]:add fp32(1, 1):(5, 1)
      ) {
        0: $a = load(A)
        1: $b = load(B)
        2: $t = mul($a, $b)
        3: T = store($t)
      }
    }
    1: #eltwise #kernel
    block [i:8, j:5] ( // relu
        in T[i, j] fp32(1, 1):(5, 1)
        out Y[i, j] fp32(1, 1):(5, 1)
    ) {
      0: $t = load(T)
      1: $y = relu($t)
      2: Y = store($y)
    }"""

TILED_PROGRAM = program(
    """\
    #user none new@0x00000000 A[0, 0] fp32(8, 6):(6, 1)
    #user none new@0x00000000 B[0, 0] fp32(6, 5):(5, 1)
    #user none new@0x00000000 Y[0, 0] fp32(8, 5):(5, 1)""",
    """\
      in A[0, 0] fp32(8, 6):(6, 1)
      in B[0, 0] fp32(6, 5):(5, 1)
      none new@0x00000000 T[0, 0] fp32(8, 5):(5, 1)
      out Y[0, 0] fp32(8, 5):(5, 1)""",
    TILED,
)


def test_tiled_producer_gets_the_epilogue_per_tile_with_an_edge_constraint() -> None:
    after = run(TILED_PROGRAM, "fuse", **CPU)
    assert_same_meaning(TILED_PROGRAM, after)
    (fused,) = blocks(main_of(after))
    assert [(i.name, i.range) for i in fused.idxs] == [("m", 3)]
    contraction, epilogue = blocks(fused)
    assert "contract_inner" in contraction.tags  # the tile's inner block, moved up
    assert [(i.name, i.range) for i in epilogue.idxs][:2] == [("i", 3), ("j", 5)]
    # Rows 8 of 9 exist: the last tile's epilogue is cut by a constraint.
    assert [str(c.affine) for c in epilogue.constraints] == ["7 - i - 3*m"]
    t = fused.ref("T")
    assert t is not None and str(t.access[0]) == "3*m" and t.shape.sizes == (3, 5)


def two_kernels(producer_out: str, consumer_refs: str, consumer_body: str, n: int = 6) -> Block:
    return program(
        f"""\
    #user none new@0x00000000 X[0] fp32({n}):(1)
    #user none new@0x00000000 Y[0] fp32({n}):(1)""",
        f"""\
      in X[0] fp32({n}):(1)
      none new@0x00000000 T[0] fp32({n}):(1)
      out Y[0] fp32({n}):(1)""",
        f"""\
    0: #eltwise #kernel
    block [i:{n}] ( // exp
        in X[i] fp32(1):(1)
        {producer_out}
    ) {{
      0: $x = load(X)
      1: $e = exp($x)
      2: T = store($e)
    }}
    1: #eltwise #kernel
    block [{consumer_refs.split("|")[0]}] ( // use
{consumer_refs.split("|")[1]}
    ) {{
{consumer_body}
    }}""",
    )


def test_consumer_reading_a_neighbour_the_producer_writes_elsewhere_stays_apart() -> None:
    before = two_kernels(
        "out T[i] fp32(1):(1)",
        "j:5|        in T[j] fp32(1):(1)\n        in U = T[j + 1] fp32(1):(1)\n"
        "        out Y[j] fp32(1):(1)",
        "      0: $a = load(T)\n      1: $b = load(U)\n      2: $s = add($a, $b)\n"
        "      3: Y = store($s)",
    )
    assert not verify(before)
    assert run(before, "fuse") is before


def test_shifted_consumer_is_fused_along_the_shift() -> None:
    before = two_kernels(
        "out T[i] fp32(1):(1)",
        "j:5|        in T[j + 1] fp32(1):(1)\n        out Y[j] fp32(1):(1)",
        "      0: $a = load(T)\n      1: $r = neg($a)\n      2: Y = store($r)",
    )
    after = run(before, "fuse")
    assert_same_meaning(before, after)
    (fused,) = blocks(main_of(after))
    assert [(i.name, i.range) for i in fused.idxs] == [("i", 6)]
    # B's point j runs in fused point i = j + 1; point 0 has no consumer point.
    (consumer,) = blocks(fused)
    assert [str(c.affine) for c in consumer.constraints] == ["-1 + i"]


def test_blocks_writing_one_buffer_stay_apart() -> None:
    before = two_kernels(
        "out T[i] fp32(1):(1)",
        "j:6|        inout T[j] fp32(1):(1)\n        out Y[j] fp32(1):(1)",
        "      0: $a = load(T)\n      1: $r = neg($a)\n      2: T = store($r)\n"
        "      3: Y = store($r)",
    )
    assert run(before, "fuse") is before


REDUCE = program(
    """\
    #user none new@0x00000000 X[0, 0] fp32(3, 7):(7, 1)
    #user none new@0x00000000 Y[0, 0] fp32(3, 7):(7, 1)""",
    """\
      in X[0, 0] fp32(3, 7):(7, 1)
      none new@0x00000000 M[0, 0] fp32(3, 1):(1, 1)
      out Y[0, 0] fp32(3, 7):(7, 1)""",
    """\
    0: #contraction #kernel
    block [b:3, n:7] ( // max
        in X[b, n] fp32(1, 1):(7, 1)
        out M[b, 0]:max fp32(1, 1):(1, 1)
    ) {
      0: $x = load(X)
      1: M = store($x)
    }
    1: #eltwise #kernel
    block [i:3, j:7] ( // sub
        in X[i, j] fp32(1, 1):(7, 1)
        in M[i, 0] fp32(1, 1):(1, 1)
        out Y[i, j] fp32(1, 1):(7, 1)
    ) {
      0: $x = load(X)
      1: $m = load(M)
      2: $d = sub($x, $m)
      3: Y = store($d)
    }""",
)


def test_reduction_finishes_inside_the_fused_point_before_its_consumer() -> None:
    after = run(REDUCE, "fuse", **CPU)
    assert_same_meaning(REDUCE, after)
    (fused,) = blocks(main_of(after))
    assert [i.name for i in fused.idxs] == ["b"]
    reduce_part, consumer = blocks(fused)
    assert [i.name for i in reduce_part.idxs] == ["n"]
    assert [i.name for i in consumer.idxs] == ["j"]


def test_no_inner_fuses_only_flat_parts() -> None:
    assert run(MM_BIAS, "fuse", no_inner=True) is MM_BIAS
    chain = two_kernels(
        "out T[i] fp32(1):(1)",
        "j:6|        in T[j] fp32(1):(1)\n        out Y[j] fp32(1):(1)",
        "      0: $a = load(T)\n      1: $r = neg($a)\n      2: Y = store($r)",
    )
    after = run(chain, "fuse", no_inner=True)
    assert_same_meaning(chain, after)
    (fused,) = blocks(main_of(after))
    assert not blocks(fused) and fused.name == "exp+use"


def test_output_match_needs_outputs_shaped_like_the_shared_buffer() -> None:
    # The consumer's output (one row max) is smaller than the shared buffer.
    reduce_rows = program(
        """\
    #user none new@0x00000000 X[0, 0] fp32(3, 7):(7, 1)
    #user none new@0x00000000 Y[0, 0] fp32(3, 1):(1, 1)""",
        """\
      in X[0, 0] fp32(3, 7):(7, 1)
      none new@0x00000000 T[0, 0] fp32(3, 7):(7, 1)
      out Y[0, 0] fp32(3, 1):(1, 1)""",
        """\
    0: #eltwise #kernel
    block [i:3, j:7] ( // exp
        in X[i, j] fp32(1, 1):(7, 1)
        out T[i, j] fp32(1, 1):(7, 1)
    ) {
      0: $x = load(X)
      1: $e = exp($x)
      2: T = store($e)
    }
    1: #contraction #kernel
    block [b:3, n:7] ( // max
        in T[b, n] fp32(1, 1):(7, 1)
        out Y[b, 0]:max fp32(1, 1):(1, 1)
    ) {
      0: $t = load(T)
      1: Y = store($t)
    }""",
    )
    assert run(reduce_rows, "fuse", output_match=True) is reduce_rows
    fused = run(reduce_rows, "fuse")
    assert_same_meaning(reduce_rows, fused)
    assert len(blocks(main_of(fused))) == 1


def test_tag_requirements_select_the_pair_and_the_parent() -> None:
    assert run(MM_BIAS, "fuse", a_reqs=["eltwise"]) is MM_BIAS
    assert run(MM_BIAS, "fuse", b_reqs=["contraction"]) is MM_BIAS
    assert run(MM_BIAS, "fuse", exclude=["eltwise"]) is MM_BIAS
    assert run(MM_BIAS, "fuse", parent_reqs=["nothing"]) is MM_BIAS
    assert run(MM_BIAS, "fuse", parent_reqs=["main"]) is not MM_BIAS


def test_bad_option_is_one_clear_message() -> None:
    with pytest.raises(PassOptionError, match="option 'no_inner'"):
        make_options(get_pass("fuse"), {"no_inner": "perhaps"})


def test_fusion_violations_names_the_buffer_of_a_broken_dependence() -> None:
    before = two_kernels(
        "out T[i] fp32(1):(1)",
        "j:5|        in T[j] fp32(1):(1)\n        in U = T[j + 1] fp32(1):(1)\n"
        "        out Y[j] fp32(1):(1)",
        "      0: $a = load(T)\n      1: $b = load(U)\n      2: $s = add($a, $b)\n"
        "      3: Y = store($s)",
    )
    main = main_of(before)
    a, b = blocks(main)
    chain = (before, main)
    link = IndexLink("i", "j", 1, 0, 1)
    assert fusion_violations(chain, a, b, [link], ["T"], DomainCache()) == ["T"]
    # Along the shift j = i - 1 the read of T[j] breaks instead; X is only read by both.
    shifted = IndexLink("i", "j", 1, -1, 1)
    assert fusion_violations(chain, a, b, [shifted], ["T", "X"], DomainCache()) == ["T"]


# --------------------------------------------------------------------------------------------
# A CPU-like pipeline on the op library's fused kernels


def compile_example(name: str) -> Block:
    from plaidc.stripe.ir import DType
    from plaidc.tile import compile_tile

    spec = load_manifest()[name]
    shapes = {n: (DType(i.dtype), i.shape) for n, i in spec.inputs.items()}
    return compile_tile(
        spec.path.read_text(), str(spec.path), dims=spec.defines, shapes=shapes
    ).program


def contraction_count(block: Block) -> int:
    return sum(1 for b in blocks(block) if "contraction" in b.tags)


@pytest.mark.parametrize("name", ["conv2d_bias_relu", "dense", "mlp_3layer"])
@pytest.mark.parametrize("tile_first", [False, True])
def test_cpu_pipeline_fuses_epilogues_and_localizes_temporaries(
    name: str, tile_first: bool
) -> None:
    before = compile_example(name)
    contractions = contraction_count(main_of(before))
    tile: dict[str, Any] = {
        "reqs": ["contraction"],
        "outer_set": ["contract_outer", "kernel", "cpu_thread"],
        "inner_set": ["contract_inner"],
        "max_total_size": 1024,
        "cache_width": 64,
    }
    after = before
    steps: list[tuple[str, dict[str, Any]]] = [("fuse", CPU), ("autotile", tile)]
    for pass_name, opts in reversed(steps) if tile_first else steps:
        after = run(after, pass_name, **opts)
    for pass_name in ("localize", "scalarize", "prune-idxs", "prune-refs"):
        after = run(after, pass_name)
    assert_same_meaning(before, after)
    main = main_of(after)
    # One block per contraction, each carrying its epilogue.
    kernels = blocks(main)
    assert len(kernels) == contractions
    assert all("fused" in k.tags and "+" in k.name for k in kernels)
    # No contraction result is a program-level temporary any more, unless a later layer reads
    # it (mlp: the next layer's input).
    leftover = {r.into for r in (*after.refs, *main.refs) if "tmp" in r.tags}
    assert all(not n.startswith("Z") and n != "O" for n in leftover), leftover
    if not tile_first:
        # Fused first, the epilogue is plain statements after the reduction, in every tile.
        for k in kernels:
            (tile_block,) = blocks(k)
            assert len(blocks(tile_block)) == 1 and isinstance(tile_block.stmts[-1], Store)


@pytest.mark.parametrize("target", ["c", "opencl"])
def test_one_point_pair_without_links_is_fused_once(target: str) -> None:
    """A one-tile contraction writing part of a buffer (`O[i + 1]`) and an elementwise kernel
    reading all of it fuse without linked indices into one block; the pass must not fuse the
    same pair again inside that block (it nested it until Python's recursion limit)."""
    from plaidc.stripe.ir import DType
    from plaidc.targets import load_target
    from plaidc.tile import compile_tile

    source = "function (A[M, K]) -> (P) { O[i + 1 : M + 2] = +(A[i, k]); P = O * 2; }"
    program = compile_tile(source, "o.tile", shapes={"A": (DType.FP32, (2, 3))}).program
    steps = driver.resolve_steps(load_target(target).stage("default"))
    optimised = driver.run_pipeline(program, steps, verify_each=True)
    fused = [b for b in optimised.stmts[0].stmts if isinstance(b, Block) and "fused" in b.tags]
    assert len(fused) == 1
    assert not any(isinstance(s, Block) and "fused" in s.tags for s in fused[0].stmts)
    assert not driver.check_equivalent(program, optimised, seed=2)
