"""`schedule`: reordering that lowers the peak of local memory without breaking dependences,
swapping out and back in when a working set exceeds the budget (golden), the budget error, and
`cache` -> `schedule` -> `place` on real programs."""

from __future__ import annotations

from pathlib import Path

import pytest

from plaidc import driver
from plaidc.diagnostics import CompileError
from plaidc.passes import PassOptionError, get_pass, make_options
from plaidc.passes.schedule import ScheduleOptions, schedule
from plaidc.stripe.ir import Block
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe
from plaidc.stripe.verify import verify

from .support import REFERENCE


def parse(text: str) -> Block:
    return parse_stripe(text, "<test>")


def run(pass_name: str, program: Block, **options: object) -> Block:
    info = get_pass(pass_name)
    return info.run(program, make_options(info, options))


def assert_same_meaning(before: Block, after: Block) -> None:
    problems = verify(after)
    assert not problems, problems[0].render() + "\n" + print_stripe(after)
    mismatches = driver.check_equivalent(before, after, seed=7)
    assert not mismatches, mismatches[0].message


def main_of(program: Block) -> Block:
    main = program.stmts[0]
    assert isinstance(main, Block)
    return main


def names(block: Block) -> list[str]:
    return [s.name for s in block.stmts if isinstance(s, Block)]


def text_of(block: Block) -> str:
    return "\n".join(line.rstrip() for line in print_stripe(block).splitlines())


def kernel(name: str, src: str, dst: str, op: str, deps: str = "") -> str:
    return f"""\
    {{pos}}{deps}: block [i:8]:8 ( // {name}
        in {src}[i] fp32(1):(1)
        out {dst}[i] fp32(1):(1)
    ) {{
      0: $a = load({src})
      1: $b = {op}($a)
      2: {dst} = store($b)
    }}
"""


def program(buffers: list[str], outputs: list[str], locals_: list[str], body: list[str]) -> str:
    user = "".join(f"    #user none new@0x00000000 {b}[0] fp32(8):(1)\n" for b in buffers)
    views = "".join(
        f"      {'out' if b in outputs else 'in'} {b}[0] fp32(8):(1)\n" for b in buffers
    )
    local = "".join(f"      none new@0x00000000 {t}<UB>[0] fp32(8):(1)\n" for t in locals_)
    stmts = "".join(s.replace("{pos}", str(k)) for k, s in enumerate(body))
    return (
        f"0: #program\nblock []:1 (\n{user}) {{\n  0: #main\n  block []:1 ( // main\n"
        f"{views}{local}  ) {{\n{stmts}  }}\n}}\n"
    )


# Two producer/consumer pairs, interleaved: 64 B of UB at once; paired: 32 B.
REORDER = program(
    ["A", "B", "C", "D"],
    ["C", "D"],
    ["T1", "T2"],
    [
        kernel("produce_T1", "A", "T1", "exp"),
        kernel("produce_T2", "B", "T2", "exp"),
        kernel("consume_T1", "T1", "C", "neg"),
        kernel("consume_T2", "T2", "D", "neg"),
    ],
)


def test_reorder_pairs_producers_with_consumers() -> None:
    before = parse(REORDER)
    with pytest.raises(CompileError):
        run("place", before, mem_loc="UB", mem_size=32)
    after = run("schedule", before, mem_loc="UB")
    assert names(main_of(after)) == ["produce_T1", "consume_T1", "produce_T2", "consume_T2"]
    assert_same_meaning(before, after)
    placed = run("place", after, mem_loc="UB", mem_size=32)
    assert "none new@0x00000000 T2<UB>" in str(placed)


def kernel2(name: str, src1: str, src2: str, dst: str) -> str:
    return f"""\
    {{pos}}: block [i:8]:8 ( // {name}
        in {src1}[i] fp32(1):(1)
        in {src2}[i] fp32(1):(1)
        out {dst}[i] fp32(1):(1)
    ) {{
      0: $a = load({src1})
      1: $b = load({src2})
      2: $c = add($a, $b)
      3: {dst} = store($c)
    }}
"""


def test_reorder_keeps_read_after_write() -> None:
    """`read_D` frees T1, so a greedy order blind to D would run it right after `produce_T1`
    (peak 32 B instead of 64 B), before `write_D` produced what it reads."""
    before = parse(
        program(
            ["A", "B", "D", "E"],
            ["D", "E"],
            ["T1", "T2"],
            [
                kernel("produce_T1", "A", "T1", "exp"),
                kernel("produce_T2", "B", "T2", "exp"),
                kernel("write_D", "T2", "D", "neg"),
                kernel2("read_D", "D", "T1", "E"),
            ],
        )
    )
    after = run("schedule", before, mem_loc="UB")
    assert after is before
    assert_same_meaning(before, after)


def test_reorder_keeps_write_after_write() -> None:
    """`T1_to_D` frees T1 early, but D must end up holding its values, not `T2_to_D`'s."""
    before = parse(
        program(
            ["A", "B", "D"],
            ["D"],
            ["T1", "T2"],
            [
                kernel("produce_T1", "A", "T1", "exp"),
                kernel("produce_T2", "B", "T2", "exp"),
                kernel("T2_to_D", "T2", "D", "neg"),
                kernel("T1_to_D", "T1", "D", "neg"),
            ],
        )
    )
    after = run("schedule", before, mem_loc="UB")
    assert after is before
    assert_same_meaning(before, after)


def test_reorder_remaps_explicit_dependencies() -> None:
    body = [
        kernel("produce_T1", "A", "T1", "exp"),
        kernel("produce_T2", "B", "T2", "exp"),
        kernel("consume_T1", "T1", "C", "neg", deps="[0]"),
        kernel("consume_T2", "T2", "D", "neg", deps="[1]"),
    ]
    before = parse(program(["A", "B", "C", "D"], ["C", "D"], ["T1", "T2"], body))
    after = run("schedule", before, mem_loc="UB")
    main = main_of(after)
    assert names(main) == ["produce_T1", "consume_T1", "produce_T2", "consume_T2"]
    assert [s.deps for s in main.stmts] == [(), (0,), (), (2,)]
    assert_same_meaning(before, after)


# T1 is needed again after T2 and T3 were made: with room for two buffers it must wait in GM.
SWAP = program(
    ["A", "C"],
    ["C"],
    ["T1", "T2", "T3"],
    [
        kernel("square", "A", "T1", "exp"),
        kernel("exp", "T1", "T2", "exp"),
        kernel("neg", "T2", "T3", "neg"),
    ],
).replace(
    "  }\n}\n",
    """\
    3: block [i:8]:8 ( // sum
        in T1[i] fp32(1):(1)
        in T3[i] fp32(1):(1)
        out C[i] fp32(1):(1)
    ) {
      0: $a = load(T1)
      1: $b = load(T3)
      2: $c = add($a, $b)
      3: C = store($c)
    }
  }
}
""",
)

SWAP_AFTER = """\
  block []:1 ( // main
      in A[0] fp32:I(8):(1):32 B, E(8):32 B
      out C[0] fp32:I(8):(1):32 B, E(8):32 B
      none new@0x00000000 T1<UB>[0] fp32:I(8):(1):32 B
      none new@0x00000000 T1_1<UB>[0] fp32:I(8):(1):32 B
      none new@0x00000000 T1_swap<GM>[0] fp32:I(8):(1):32 B
      none new@0x00000000 T2<UB>[0] fp32:I(8):(1):32 B
      none new@0x00000000 T3<UB>[0] fp32:I(8):(1):32 B
  ) {
    0: block [i:8]:8 ( // square
        in A[i] fp32:I(1):(1):4 B, E(8):32 B
        out T1[i] fp32:I(1):(1):4 B, E(8):32 B
    ) {
      0: $a = load(A)
      1: $b = exp($a)
      2: T1 = store($b)
    }
    1: block [i:8]:8 ( // exp
        in T1[i] fp32:I(1):(1):4 B, E(8):32 B
        out T2[i] fp32:I(1):(1):4 B, E(8):32 B
    ) {
      0: $a = load(T1)
      1: $b = exp($a)
      2: T2 = store($b)
    }
    2: #swap_out #xfer
    block<DMA> [i0:8]:8 ( // swap_out_T1
        out dst = T1_swap<GM>[i0]:assign fp32:I(1):(1):4 B, E(8):32 B
        in src = T1<UB>[i0] fp32:I(1):(1):4 B, E(8):32 B
    ) {
      0: $X = load(src)
      1: dst = store($X)
    }
    3: block [i:8]:8 ( // neg
        in T2[i] fp32:I(1):(1):4 B, E(8):32 B
        out T3[i] fp32:I(1):(1):4 B, E(8):32 B
    ) {
      0: $a = load(T2)
      1: $b = neg($a)
      2: T3 = store($b)
    }
    4: #swap_in #xfer
    block<DMA> [i0:8]:8 ( // swap_in_T1
        out dst = T1_1<UB>[i0]:assign fp32:I(1):(1):4 B, E(8):32 B
        in src = T1_swap<GM>[i0] fp32:I(1):(1):4 B, E(8):32 B
    ) {
      0: $X = load(src)
      1: dst = store($X)
    }
    5: block [i:8]:8 ( // sum
        out C[i] fp32:I(1):(1):4 B, E(8):32 B
        in T1 = T1_1[i] fp32:I(1):(1):4 B, E(8):32 B
        in T3[i] fp32:I(1):(1):4 B, E(8):32 B
    ) {
      0: $a = load(T1)
      1: $b = load(T3)
      2: $c = add($a, $b)
      3: C = store($c)
    }
  }
"""


def test_swap_out_and_back_in_golden() -> None:
    before = parse(SWAP)
    with pytest.raises(CompileError):
        run("place", before, mem_loc="UB", mem_size=64)
    after = run("schedule", before, mem_loc="UB", mem_size=64, swap_loc="GM", xfer_loc="DMA")
    assert SWAP_AFTER in text_of(after) + "\n"
    assert_same_meaning(before, after)
    placed = run("place", after, mem_loc="UB", mem_size=64)
    assert "new@0x00000020 T1_1<UB>" in str(placed)


def test_no_swap_when_it_fits() -> None:
    before = parse(SWAP)
    assert run("schedule", before, mem_loc="UB", mem_size=96) is before


def test_ancestors_buffers_are_reserved() -> None:
    # The program holds 32 B of UB for the whole run: only 64 B remain for main.
    text = SWAP.replace(
        "block []:1 (\n", "block []:1 (\n    none new@0x00000000 R<UB>[0] fp32(8):(1)\n", 1
    )
    before = parse(text)
    after = run("schedule", before, mem_loc="UB", mem_size=96, swap_loc="GM")
    assert "swap_in_T1" in names(main_of(after))
    assert_same_meaning(before, after)


def test_statement_that_cannot_fit_is_an_error() -> None:
    expected = r"statement 1 of block 'main' needs 64 B of UB \('T1' \(32 B\), 'T2' \(32 B\)"
    with pytest.raises(CompileError, match=expected):
        run("schedule", parse(SWAP), mem_loc="UB", mem_size=48)


def test_defaults_do_nothing_and_options_are_checked() -> None:
    before = parse(REORDER)
    assert schedule(before, ScheduleOptions()) is before
    assert run("schedule", before, mem_loc="UB", reorder="false") is before
    with pytest.raises(PassOptionError, match="alignment"):
        run("schedule", before, mem_loc="UB", alignment=0)


# ---- cache -> schedule -> place on real programs -------------------------------------------

DUMPS = [
    REFERENCE / "conv_bias_relu/stripe/08_eltwise_fuse.stripe",
    REFERENCE / "softmax/stripe/15_prune_refs.stripe",
    REFERENCE / "cumsum/stripe/15_prune_refs.stripe",
]


@pytest.mark.parametrize("path", DUMPS, ids=lambda p: p.parent.parent.name)
def test_memory_pipeline_on_reference_programs(path: Path) -> None:
    before = parse_stripe(path.read_text(), str(path))
    after = run("cache", before, reqs="[main]", ref="[all]", mem_loc="UB")
    after = run("schedule", after, mem_loc="UB", mem_size=65536, alignment=32, swap_loc="GM")
    after = run("place", after, mem_loc="UB", mem_size=65536, alignment=32)
    assert "UB>" in str(after)
    assert_same_meaning(before, after)
