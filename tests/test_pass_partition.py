"""`partition-compute` and `partition-memory`: which indices split, the tags and banks, and
meaning kept on every example program."""

from __future__ import annotations

import pytest

from plaidc.passes import get_pass, make_options
from plaidc.passes.partition import bank_index, compute_split
from plaidc.stripe.ir import Block
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe

from .support import REFERENCE
from .support.passes_differential import PROGRAMS, assert_same_meaning, load

ROWSUM = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0, 0] fp32:I(8, 4):(4, 1):128 B
    #user none new@0x00000000 B[0] fp32:I(8):(1):32 B
) {
  0: #contraction #kernel
  block [i:8, k:4]:32 ( // rowsum
      in A[i, k] fp32:I(1, 1):(4, 1):4 B
      out B[i]:add fp32:I(1):(1):4 B
  ) {
    0: $a = load(A)
    1: B = store($a)
  }
}
"""

ROWSUM_IN_2 = """\
  0: #part 
  block [(#unit i:2), k:1]:2 ( // rowsum
      in A[4*i, 0] fp32:I(4, 4):(4, 1):64 B, E(8, 4):128 B
      out B[4*i]:add fp32:I(4):(1):16 B, E(8):32 B
  ) {
    0: #contraction #kernel 
    block [i:4, k:4]:16 ( // rowsum
        in A[i, k] fp32:I(1, 1):(4, 1):4 B, E(4, 4):64 B
        out B[i]:add fp32:I(1):(1):4 B, E(4):16 B
    ) {
"""  # noqa: W291 (the printer ends tag lists with a space, as PlaidML did)

ROWSUM_IN_3_BANKS = """\
  0: #part 
  block [(#bank i:3), k:1]:3 ( // rowsum
      in A<BANK[i]>[3*i, 0] fp32:I(3, 4):(4, 1):48 B, E(8, 4):128 B
      out B<BANK[i]>[3*i]:add fp32:I(3):(1):12 B, E(8):32 B
  ) {
    0: #contraction #kernel 
    block [i:3, k:4, io = 3*i]:12 ( // rowsum
        7 - i - io >= 0
"""  # noqa: W291


def run(name: str, program: Block, **options: object) -> Block:
    info = get_pass(name)
    return info.run(program, make_options(info, options))


def block_with(idxs: str, refs: str) -> Block:
    """A kernel block with the given indices and refinements and no statements: enough to ask
    which indices a partition would split."""
    return parse_stripe(f"0: #kernel\nblock [{idxs}] (\n{refs}\n) {{\n}}\n")


# --------------------------------------------------------------------------------------------
# partition-compute


def test_partition_compute_splits_the_output_index() -> None:
    program = parse_stripe(ROWSUM)
    result = run("partition-compute", program, num_parts=2, set_tags=["part"], idx_tag="unit")
    assert result is program  # reqs=all matches the root, which has no index
    result = run(
        "partition-compute",
        program,
        reqs=["kernel"],
        num_parts=2,
        set_tags=["part"],
        idx_tag="unit",
    )
    assert ROWSUM_IN_2 in print_stripe(result)
    assert_same_meaning(program, result, "partition-compute on rowsum")


def test_counts_get_as_close_to_num_parts_as_possible() -> None:
    block = block_with(
        "i:8, j:6, k:5",
        "in A[i, k] fp32(1, 1):(5, 1)\nout B[i, j]:add fp32(1, 1):(6, 1)",
    )
    # Four parts: 4x1 and 2x2 both pad nothing; the earlier index splits more.
    assert compute_split(block, 4) == {"i": 2}
    # Twelve parts: i:4 (tile 2) x j:3 (tile 2), or i:2 x j:6, or i:8 x ... (8*? > 12).
    assert compute_split(block, 12) == {"i": 2, "j": 2}
    # Five parts: no exact count; 4 (i:4) is the closest below, 6 would be an excess.
    assert compute_split(block, 5) == {"i": 2}
    # The reduction index k never splits, even when outputs cannot use every part.
    assert compute_split(block, 1000) == {"i": 1, "j": 1}


def test_achievable_counts_only() -> None:
    # 7 iterations in 4 parts needs tiles of 2, which give 4 parts (the last one short);
    # 7 in 6 parts is impossible (tiles of 2 give 4, of 1 give 7): 4 is the best under 6.
    block = block_with("i:7", "out B[i] fp32(1):(1)")
    assert compute_split(block, 4) == {"i": 2}
    assert compute_split(block, 6) == {"i": 2}
    assert compute_split(block, 7) == {"i": 1}


def test_nothing_to_split() -> None:
    program = parse_stripe(ROWSUM)
    assert run("partition-compute", program, reqs=["kernel"]) is program  # num_parts=1
    reduction_only = block_with("k:8", "in A[k] fp32(1):(1)\nout S[0]:add fp32(1):(1)")
    assert compute_split(reduction_only, 4) is None


# --------------------------------------------------------------------------------------------
# partition-memory


def test_partition_memory_banks_refinements() -> None:
    program = parse_stripe(ROWSUM)
    result = run(
        "partition-memory",
        program,
        reqs=["kernel"],
        num_parts=3,
        set_tags=["part"],
        idx_tag="bank",
    )
    assert ROWSUM_IN_3_BANKS in print_stripe(result)
    assert_same_meaning(program, result, "partition-memory on rowsum")


def test_bank_index_follows_the_largest_buffer() -> None:
    program = parse_stripe((REFERENCE / "matmul/stripe/04_pad.stripe").read_text())
    main = program.stmts[0]
    assert isinstance(main, Block)
    matmul = main.stmts[0]
    assert isinstance(matmul, Block)
    # X_I_1 (48x80) is larger than X_I_0 (64x48); n walks it and the output.
    assert bank_index(matmul, (program, main), 3) == "n"
    result = run("partition-memory", program, reqs=["kernel"], num_parts=3, bank_unit="SRAM")
    outer = result.stmts[0]
    assert isinstance(outer, Block)
    outer = outer.stmts[0]
    assert isinstance(outer, Block)
    located = {r.into: r.location for r in outer.refs}
    assert located["X_I_0"] is None
    assert str(print_stripe(outer)).count("<SRAM[n]>") == 2


def test_bank_needs_one_output_and_an_input() -> None:
    two_outputs = block_with(
        "i:8", "in A[i] fp32(1):(1)\nout B[i] fp32(1):(1)\nout C[i] fp32(1):(1)"
    )
    assert bank_index(two_outputs, (), 2) is None
    no_input = block_with("i:8", "out B[i] fp32(1):(1)")
    assert bank_index(no_input, (), 2) is None
    diagonal = block_with("i:8", "in A[i, i] fp32(1, 1):(8, 1)\nout B[i] fp32(1):(1)")
    assert bank_index(diagonal, (), 2) is None


# --------------------------------------------------------------------------------------------
# Every example program keeps its meaning


@pytest.mark.parametrize("program_id", PROGRAMS)
def test_partition_compute_keeps_meaning(program_id: str) -> None:
    program = load(program_id)
    result = run(
        "partition-compute",
        program,
        reqs=["kernel"],
        num_parts=3,
        set_tags=["part"],
        idx_tag="unit",
    )
    if result is not program:
        assert_same_meaning(program, result, f"partition-compute on {program_id}")


@pytest.mark.parametrize("program_id", PROGRAMS)
def test_partition_memory_keeps_meaning(program_id: str) -> None:
    program = load(program_id)
    result = run(
        "partition-memory",
        program,
        reqs=["kernel"],
        num_parts=4,
        set_tags=["part"],
        idx_tag="bank",
    )
    if result is not program:
        assert_same_meaning(program, result, f"partition-memory on {program_id}")
