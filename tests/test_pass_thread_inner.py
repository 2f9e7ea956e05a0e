"""`thread-inner`: the split of the work-items, the inner size bound, and meaning kept on every
example program."""

from __future__ import annotations

import pytest

from plaidc.passes import get_pass, make_options
from plaidc.passes.thread_inner import thread_split
from plaidc.stripe.ir import Block
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe

from .support.passes_differential import PROGRAMS, assert_same_meaning, load

ROWS = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0, 0] fp32:I(100, 8):(8, 1):3.125 KiB
    #user none new@0x00000000 B[0, 0] fp32:I(100, 6):(6, 1):2.34375 KiB
) {
  0: #kernel
  block [i:100, j:6, k:8]:4800 ( // k
      in A[i, k] fp32:I(1, 1):(8, 1):4 B
      out B[i, j]:add fp32:I(1, 1):(6, 1):4 B
  ) {
    0: $a = load(A)
    1: B = store($a)
  }
}
"""

ROWS_64 = """\
  0: #grid #kernel 
  block [i:2, j:6, k:8]:96 ( // k
      in A[64*i, k] fp32:I(64, 1):(8, 1):256 B, E(100, 8):3.125 KiB
      out B[64*i, j]:add fp32:I(64, 1):(6, 1):256 B, E(100, 6):2.34375 KiB
  ) {
    0: #gpu_thread 
    block [i:64, j:1, k:1, io = 64*i]:64 ( // k
        99 - i - io >= 0
        in A[i, k] fp32:I(1, 1):(8, 1):4 B, E(64, 1):256 B
        out B[i, j]:add fp32:I(1, 1):(6, 1):4 B, E(64, 1):256 B
    ) {
"""  # noqa: W291 (the printer ends tag lists with a space, as PlaidML did)


def run(program: Block, **options: object) -> Block:
    info = get_pass("thread-inner")
    return info.run(program, make_options(info, options))


def kernel(program: Block) -> Block:
    found = program.stmts[0]
    assert isinstance(found, Block)
    return found


def test_inner_block_holds_the_threads() -> None:
    program = parse_stripe(ROWS)
    result = run(program, reqs=["kernel"], threads=64, outer_set=["grid"], inner_set=["gpu_thread"])
    assert ROWS_64 in print_stripe(result)
    assert_same_meaning(program, result, "thread-inner on rows")


def test_threads_spread_over_output_indices() -> None:
    block = kernel(parse_stripe(ROWS))
    # i (100, 78% of 128) before j (6, 75% of 8); k is a reduction and stays outside.
    assert thread_split(block, 64) == {"i": 64, "j": 1, "k": 1}
    # 256 threads: i takes 128 (capped at its 100 values), then j gets the 2 left.
    assert thread_split(block, 256) == {"i": 100, "j": 2, "k": 1}
    assert thread_split(block, 2048) == {"i": 100, "j": 6, "k": 1}
    assert thread_split(block, 1) == {"i": 1, "j": 1, "k": 1}


def test_power_of_two_ranges_go_first() -> None:
    text = ROWS.replace("block [i:100, j:6, k:8]:4800", "block [i:100, j:8, k:8]:6400")
    text = text.replace("I(100, 6):(6, 1)", "I(100, 8):(8, 1)").replace(
        ":(6, 1):4 B", ":(8, 1):4 B"
    )
    block = kernel(parse_stripe(text))
    assert thread_split(block, 16) == {"i": 2, "j": 8, "k": 1}


def test_default_does_nothing() -> None:
    program = parse_stripe(ROWS)
    assert run(program) is program
    assert run(program, threads=8) is program  # reqs=all: the root, which has no index


@pytest.mark.parametrize("program_id", PROGRAMS)
def test_thread_inner_keeps_meaning_and_bounds_the_group(program_id: str) -> None:
    program = load(program_id)
    result = run(program, reqs=["kernel"], threads=32, inner_set=["gpu_thread"])
    if result is program:
        return
    assert_same_meaning(program, result, f"thread-inner on {program_id}")

    def groups(block: Block) -> list[Block]:
        found = [block] if "gpu_thread" in block.tags else []
        for stmt in block.stmts:
            if isinstance(stmt, Block):
                found.extend(groups(stmt))
        return found

    inner = groups(result)
    assert inner
    assert all(g.count <= 32 for g in inner)
