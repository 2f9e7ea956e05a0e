"""`reorder-blocks`: golden before/after orders, stability, and the dependences that must hold
(read-after-write, write-after-read, aliasing views, explicit `deps`)."""

from __future__ import annotations

from plaidc import driver
from plaidc.passes import get_pass, make_options
from plaidc.passes.reorder_blocks import ReorderBlocksOptions, reorder_blocks
from plaidc.stripe.ir import Block
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.verify import verify
from plaidc.targets import load_target
from plaidc.tile import compile_tile

DEFAULT = ReorderBlocksOptions()


def kernel(name: str, reads: list[str], writes: str, deps: str = "") -> str:
    refs = "\n".join(f"        in {r}[i] fp32(1):(1)" for r in reads)
    loads = "\n".join(f"      {k}: $v{k} = load({r})" for k, r in enumerate(reads))
    value = f"$v{len(reads) - 1}" if reads else "$c"
    const = "" if reads else "      0: $c = (float)1.0\n"
    return f"""\
    {deps}: #kernel
    block [i:4]:4 ( // {name}
{refs}
        out {writes}[i] fp32(1):(1)
    ) {{
{loads}{const}
      {max(len(reads), 1)}: {writes} = store({value})
    }}
"""


def program(*kernels: str, extra: str = "") -> str:
    names = ["A", "B", "C", "D", "X", "Y"]
    roots = "\n".join(f"    #user none new@0x00000000 {n}[0] fp32(4):(1)" for n in names)
    mains = "\n".join(f"      inout {n}[0] fp32(4):(1)" for n in names)
    body = "".join(kernels)
    return f"""\
0: #program
block []:1 (
{roots}
) {{
  0: #main
  block []:1 (
{mains}{extra}
  ) {{
{body}  }}
}}
"""


def parse(text: str) -> Block:
    return parse_stripe(text, "<test>")


def order(program_block: Block) -> list[str]:
    main = program_block.stmts[0]
    assert isinstance(main, Block)
    return [s.name for s in main.stmts if isinstance(s, Block)]


def assert_same_meaning(before: Block, after: Block) -> None:
    assert not verify(after)
    assert not driver.check_equivalent(before, after, seed=9)


def test_consumers_move_next_to_their_producers() -> None:
    before = parse(
        program(
            kernel("make_a", ["X"], "A", "0"),
            kernel("make_b", ["Y"], "B", "1"),
            kernel("use_a", ["A"], "C", "2[0]"),
            kernel("use_b", ["B"], "D", "3[1]"),
        )
    )
    after = reorder_blocks(before, DEFAULT)
    assert order(after) == ["make_a", "use_a", "make_b", "use_b"]
    main = after.stmts[0]
    assert isinstance(main, Block)
    # Dependencies are renumbered: use_a (now 1) on make_a (0), use_b (3) on make_b (2).
    assert [s.deps for s in main.stmts] == [(), (0,), (), (2,)]
    assert_same_meaning(before, after)


def test_adjacent_program_is_the_same_object() -> None:
    before = parse(
        program(
            kernel("make_a", ["X"], "A", "0"),
            kernel("use_a", ["A"], "C", "1"),
            kernel("make_b", ["Y"], "B", "2"),
            kernel("use_b", ["B"], "D", "3"),
        )
    )
    assert reorder_blocks(before, DEFAULT) is before


def test_write_after_read_is_kept() -> None:
    # `clobber_x` overwrites X, which `make_b` reads: `use_a` may move up, `clobber_x` may not
    # pass `make_b`.
    before = parse(
        program(
            kernel("make_a", ["Y"], "A", "0"),
            kernel("make_b", ["X"], "B", "1"),
            kernel("clobber_x", ["D"], "X", "2"),
            kernel("use_a", ["A"], "C", "3"),
        )
    )
    after = reorder_blocks(before, DEFAULT)
    assert order(after) == ["make_a", "use_a", "make_b", "clobber_x"]
    assert_same_meaning(before, after)


def test_views_of_one_buffer_conflict() -> None:
    # A2 is a second view of A in main: a consumer reading A2 depends on the producer of A.
    text = program(
        kernel("make_a", ["X"], "A", "0"),
        kernel("make_b", ["Y"], "B", "1"),
        kernel("use_b", ["B"], "D", "2"),
        kernel("use_a2", ["A2"], "C", "3"),
        extra="\n      in A2 = A[0] fp32(4):(1)",
    )
    before = parse(text)
    after = reorder_blocks(before, DEFAULT)
    assert order(after) == ["make_a", "use_a2", "make_b", "use_b"]
    assert_same_meaning(before, after)


def test_explicit_dependencies_are_respected() -> None:
    # use_a declares a dependency on make_b although no buffer links them.
    before = parse(
        program(
            kernel("make_a", ["X"], "A", "0"),
            kernel("make_b", ["Y"], "B", "1"),
            kernel("use_a", ["A"], "C", "2[0, 1]"),
            kernel("use_b", ["B"], "D", "3"),
        )
    )
    after = reorder_blocks(before, DEFAULT)
    # use_a cannot follow make_a directly; make_b's consumer then goes next to make_b.
    assert order(after) == ["make_a", "make_b", "use_b", "use_a"]
    main = after.stmts[0]
    assert isinstance(main, Block)
    assert main.stmts[3].deps == (0, 1)


def test_registered_and_idempotent() -> None:
    info = get_pass("reorder-blocks")
    before = parse(
        program(
            kernel("make_a", ["X"], "A", "0"),
            kernel("make_b", ["Y"], "B", "1"),
            kernel("use_a", ["A"], "C", "2"),
            kernel("use_b", ["B"], "D", "3"),
        )
    )
    once = info.run(before, make_options(info, {}))
    assert once != before
    assert info.run(once, make_options(info, {})) is once
    assert info.run(before, make_options(info, {"reqs": "[nothing]"})) is before


BIASED_CONV = """function (I[N, C, H, W], K[M, C, KH, KW], B[M]) -> (O) {{
  {first}
  {second}
  O = T + Bias;
}}
"""
CONV = "T[n, m, y, x : N, M, H - KH + 1, W - KW + 1] = +(I[n, c, y + i, x + j] * K[m, c, i, j]);"
BIAS = "Bias[m, 0, 0 : M, 1, 1] = =(B[m]);"


def test_consumer_follows_the_producer_of_its_largest_operand() -> None:
    """`O = T + Bias`: the small bias broadcast goes first whichever Tile order, so the
    convolution sits next to the add (and `fuse` makes the add its epilogue)."""
    dims = {"N": 1, "C": 3, "H": 6, "W": 7, "M": 4, "KH": 3, "KW": 3}
    for first, second in ((CONV, BIAS), (BIAS, CONV)):
        source = BIASED_CONV.format(first=first, second=second)
        before = compile_tile(source, "biased.tile", dims=dims).program
        after = reorder_blocks(before, DEFAULT)
        main = after.stmts[0]
        assert isinstance(main, Block)
        blocks = [s for s in main.stmts if isinstance(s, Block)]
        written = [next(r.from_ for r in b.refs if r.dir.writes) for b in blocks]
        assert written == ["Bias", "T", "O"], source
        assert_same_meaning(before, after)
        assert reorder_blocks(after, DEFAULT) is after


def test_biased_conv_fuses_the_add_into_the_convolution() -> None:
    source = BIASED_CONV.format(first=CONV, second=BIAS)
    dims = {"N": 1, "C": 3, "H": 6, "W": 7, "M": 4, "KH": 3, "KW": 3}
    program = compile_tile(source, "biased.tile", dims=dims).program
    cfg = load_target("c")
    program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    main = program.stmts[0]
    assert isinstance(main, Block)
    fused = [b for b in main.stmts if isinstance(b, Block) and b.tags.has_any(("fused",))]
    assert len(fused) == 1
    assert fused[0].tags.has_any(("comb_op_mul",)), "the add is fused with the convolution"
