"""`transpose`: golden before/after checks of the layout chosen for temporaries, that every
view of a restrided buffer follows, and that the caller's buffers never move."""

from __future__ import annotations

import pytest

from plaidc import driver
from plaidc.passes import PassOptionError, get_pass, make_options
from plaidc.passes.transpose import TransposeOptions, hot_index, transpose
from plaidc.stripe.ir import Block, Refinement
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.verify import verify

DEFAULT = TransposeOptions()
LARGEST = TransposeOptions(hot="largest")

# T is produced row-major as T[k, n]; its consumer reduces over k (range 32) into B[n].
REDUCE = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0, 0] fp32(4, 32):(32, 1)
    #user none new@0x00000000 B[0] fp32(4):(1)
) {
  0: #main
  block []:1 (
      in A[0, 0] fp32(4, 32):(32, 1)
      out B[0] fp32(4):(1)
      none new@0x00000000 T[0, 0] fp32(32, 4):(4, 1)
  ) {
    0: #kernel
    block [k:32, n:4]:128 ( // produce
        in A[n, k] fp32(1, 1):(32, 1)
        out T[k, n] fp32(1, 1):(4, 1)
    ) {
      0: $a = load(A)
      1: $e = exp($a)
      2: T = store($e)
    }
    1: #kernel
    block [k:32, n:4]:128 ( // consume
        out B[n]:add fp32(1):(1)
        in T[k, n] fp32(1, 1):(4, 1)
    ) {
      0: $t = load(T)
      1: B = store($t)
    }
  }
}
"""


def parse(text: str) -> Block:
    return parse_stripe(text, "<test>")


def views_of(block: Block, name: str) -> list[Refinement]:
    """Every refinement in the program that is called `name` (allocation and views)."""
    found = [r for r in block.refs if r.into == name]
    for stmt in block.stmts:
        if isinstance(stmt, Block):
            found.extend(views_of(stmt, name))
    return found


def assert_same_meaning(before: Block, after: Block) -> None:
    assert not verify(after)
    assert not driver.check_equivalent(before, after, seed=4)


def test_largest_rule_makes_the_reduction_index_stride_one() -> None:
    before = parse(REDUCE)
    after = transpose(before, LARGEST)
    # k (range 32) is the consumer's hot index; it walks dimension 0 of T.
    assert {r.shape.strides for r in views_of(after, "T")} == {(1, 32)}
    assert {r.shape.strides for r in views_of(after, "A")} == {(32, 1)}
    assert_same_meaning(before, after)


def test_output_rule_follows_the_consumer_output() -> None:
    before = parse(REDUCE)
    # n walks the consumer's output B with stride 1, and T[k, n] already has n innermost.
    assert transpose(before, DEFAULT) is before
    flipped = parse(REDUCE.replace("out B[n]:add fp32(1):(1)", "out B[0]:add fp32(1):(1)"))
    # With nothing walking the output, the rule falls back to the largest index (k).
    after = transpose(flipped, DEFAULT)
    assert {r.shape.strides for r in views_of(after, "T")} == {(1, 32)}
    assert_same_meaning(flipped, after)


def test_program_buffers_keep_their_layout() -> None:
    # The same consumer reading the program input A column-wise does not move A.
    text = REDUCE.replace("in T[k, n] fp32(1, 1):(4, 1)", "in A[n, k] fp32(1, 1):(32, 1)")
    text = text.replace("$t = load(T)", "$t = load(A)")
    before = parse(text)
    after = transpose(before, LARGEST)
    assert {r.shape.strides for r in views_of(after, "A")} == {(32, 1)}


NESTED = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0, 0] fp32(8, 6):(6, 1)
    #user none new@0x00000000 B[0] fp32(6):(1)
    #tmp none new@0x00000000 T[0, 0] fp32(8, 6):(6, 1)
) {
  0: #main
  block []:1 (
      in A[0, 0] fp32(8, 6):(6, 1)
      out B[0] fp32(6):(1)
      #tmp inout T[0, 0] fp32(8, 6):(6, 1)
  ) {
    0: block [r:8, c:6]:48 ( // copy
        in A[r, c] fp32(1, 1):(6, 1)
        out T[r, c] fp32(1, 1):(6, 1)
    ) {
      0: $a = load(A)
      1: T = store($a)
    }
    1: block [c:2]:2 ( // tiles
        out B[3*c] fp32(3):(1)
        in T[0, 3*c] fp32(8, 3):(6, 1)
    ) {
      0: block [c:3, r:8]:24 (
          out B[c]:add fp32(1):(1)
          in T[r, c] fp32(1, 1):(6, 1)
      ) {
        0: $t = load(T)
        1: B = store($t)
      }
    }
  }
}
"""


def test_every_view_down_the_nest_is_restrided() -> None:
    before = parse(NESTED)
    after = transpose(before, LARGEST)
    # r (range 8) is the leaf's hot index and walks dimension 0: column-major T everywhere,
    # the root allocation, main's view, the tile view and the leaf view.
    strides = [r.shape.strides for r in views_of(after, "T")]
    assert strides == [(1, 8)] * 5
    assert_same_meaning(before, after)


def test_reshaping_view_blocks_the_restride() -> None:
    # A view with other strides than the allocation's cannot follow a dimension-wise restride.
    text = NESTED.replace("in T[0, 3*c] fp32(8, 3):(6, 1)", "in T[0, 3*c] fp32(8, 3):(6, 2)")
    text = text.replace(
        "in T[r, c] fp32(1, 1):(6, 1)\n      ) {", "in T[r, c] fp32(1, 1):(6, 2)\n      ) {"
    )
    before = parse(text)
    assert transpose(before, LARGEST) is before


def test_hot_index_rules() -> None:
    consumer = parse(REDUCE).stmts[0]
    assert isinstance(consumer, Block)
    block = consumer.stmts[1]
    assert isinstance(block, Block)
    assert hot_index(block, "largest") == "k"
    assert hot_index(block, "output") == "n"


def test_bad_rule_is_one_clear_message() -> None:
    info = get_pass("transpose")
    with pytest.raises(PassOptionError, match='option \'hot\': expected "output" or "largest"'):
        info.run(parse(REDUCE), make_options(info, {"hot": "fastest"}))


def test_registered_with_reqs() -> None:
    info = get_pass("transpose")
    before = parse(REDUCE)
    assert info.run(before, make_options(info, {"hot": "largest", "reqs": "[nothing]"})) is before
    assert info.run(before, make_options(info, {"hot": "largest"})) == transpose(before, LARGEST)
