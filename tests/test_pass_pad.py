"""`pad`: golden before/after checks for both ways of padding (a copy of a program input, a
temporary padded in place), and the cases where dropping a constraint would change a sum."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from plaidc import driver
from plaidc.passes import get_pass, make_options
from plaidc.passes.pad import PadOptions, mac_zero_factors, pad
from plaidc.stripe.ir import Block, DType, Special
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe
from plaidc.stripe.verify import verify
from plaidc.tile import compile_tile

from .oplib_reference import load_manifest
from .support import REFERENCE

DEFAULT = PadOptions()


def parse(text: str) -> Block:
    return parse_stripe(text, "<test>")


def oplib(name: str) -> Block:
    spec = load_manifest()[name]
    shapes = {n: (DType(i.dtype), i.shape) for n, i in spec.inputs.items()}
    return compile_tile(
        spec.path.read_text(), str(spec.path), dims=spec.defines, shapes=shapes
    ).program


def main_of(program: Block) -> Block:
    main = program.stmts[0]
    assert isinstance(main, Block)
    return main


def assert_same_meaning(before: Block, after: Block) -> None:
    assert not verify(after), verify(after)[0].render()
    assert not driver.check_equivalent(before, after, seed=7)


def test_conv2d_padded_golden() -> None:
    before = oplib("conv2d_padded")  # 1x6x7x2 image, 3x5 kernel, "same" padding
    after = pad(before, DEFAULT)
    main = main_of(after)
    text = print_stripe(main)
    assert "none new@0x00000000 I_pad[0, 0, 0, 0] fp32:I(1, 8, 11, 2):(176, 22, 2, 1)" in text
    zero, copy, conv = main.stmts
    assert isinstance(zero, Special) and zero.name == "zero" and zero.outputs == ("I_pad",)
    assert isinstance(copy, Block) and copy.name == "pad_I"
    assert set(copy.tags) == {"eltwise", "eltwise_padding", "kernel"}
    assert [(i.name, i.range) for i in copy.idxs] == [("i0", 1), ("i1", 6), ("i2", 7), ("i3", 2)]
    assert "out I_pad[i0, 1 + i1, 2 + i2, i3]" in text
    assert isinstance(conv, Block) and conv.constraints == ()
    assert "#contraction in I = I_pad[n, i + x, j + y, ci] fp32:I(1, 1, 1, 1):(176, 22, 2, 1)" in (
        text
    )
    assert_same_meaning(before, after)


def test_padding_must_be_zero() -> None:
    # Without the zero fill the padding is poison and the sums show it: the check can fail.
    before = oplib("conv2d_padded")
    after = pad(before, DEFAULT)
    main = main_of(after)
    unzeroed = dataclasses.replace(after, stmts=(dataclasses.replace(main, stmts=main.stmts[1:]),))
    assert driver.check_equivalent(before, unzeroed, seed=7)


def test_single_input_sum_is_padded() -> None:
    before = oplib("avgpool2d_padded")
    after = pad(before, DEFAULT)
    kernel = next(
        s for s in main_of(after).stmts if isinstance(s, Block) and "contraction" in s.tags
    )
    assert kernel.constraints == ()
    assert_same_meaning(before, after)


LOCAL_TEMP = """\
0: #program
block []:1 (
    #user none new@0x00000000 K[0] fp32(3):(1)
    #user none new@0x00000000 O[0, 0] fp32(6, 5):(5, 1)
    #user none new@0x00000000 X[0, 0] fp32(6, 5):(5, 1)
) {
  0: #main
  block []:1 (
      in K[0] fp32(3):(1)
      out O[0, 0] fp32(6, 5):(5, 1)
      none new@0x00000000 T[0, 0] fp32(6, 5):(5, 1)
      in X[0, 0] fp32(6, 5):(5, 1)
  ) {
    0: #eltwise #kernel
    block [a:6, b:5]:30 ( // relu
        out T[a, b] fp32(1, 1):(5, 1)
        in X[a, b] fp32(1, 1):(5, 1)
    ) {
      0: $x = load(X)
      1: $r = relu($x)
      2: T = store($r)
    }
    1[0]: #agg_op_add #comb_op_mul #contraction #kernel
    block [i:3, x:6, y:5]:90 ( // conv
        -1 + i + x >= 0
        6 - i - x >= 0
        in K[i] fp32(1):(1)
        out O[x, y]:add fp32(1, 1):(5, 1)
        in T[-1 + i + x, y] fp32(1, 1):(5, 1)
    ) {
      0: $t = load(T)
      1: $k = load(K)
      2: $o = mul($t, $k)
      3: O = store($o)
    }
  }
}
"""


def test_local_temporary_padded_in_place() -> None:
    before = parse(LOCAL_TEMP)
    after = pad(before, DEFAULT)
    main = main_of(after)
    text = print_stripe(main)
    assert "none new@0x00000000 T[0, 0] fp32:I(8, 5):(5, 1)" in text
    zero, relu, conv = main.stmts
    assert isinstance(zero, Special) and zero.outputs == ("T",)
    assert isinstance(relu, Block) and isinstance(conv, Block)
    assert "out T[1 + a, b] fp32:I(1, 1):(5, 1)" in text
    assert "in T[i + x, y] fp32:I(1, 1):(5, 1)" in text
    assert conv.constraints == ()
    # Dependencies follow the statements they named.
    assert conv.deps == (1,)
    assert_same_meaning(before, after)


def test_output_that_would_gain_elements_keeps_its_constraint() -> None:
    # At x = 0 the kernel would read padding, but it would also store into O[0], which only
    # the copy writes: the sum would replace D[0] by 0.
    text = """\
0: #program
block []:1 (
    #user none new@0x00000000 D[0] fp32(4):(1)
    #user none new@0x00000000 I[0] fp32(4):(1)
    #user none new@0x00000000 O[0] fp32(4):(1)
) {
  0: #main
  block []:1 (
      in D[0] fp32(4):(1)
      in I[0] fp32(4):(1)
      out O[0] fp32(4):(1)
  ) {
    0: block [x:4]:4 ( // copy
        in D[x] fp32(1):(1)
        out O[x] fp32(1):(1)
    ) {
      0: $d = load(D)
      1: O = store($d)
    }
    1: block [x:4]:4 ( // shift
        -1 + x >= 0
        in I[-1 + x] fp32(1):(1)
        out O[x]:add fp32(1):(1)
    ) {
      0: $i = load(I)
      1: O = store($i)
    }
  }
}
"""
    before = parse(text)
    assert pad(before, DEFAULT) is before


def test_max_pooling_is_not_padded() -> None:
    before = oplib("maxpool2d_padded")
    assert pad(before, DEFAULT) is before


def test_constraint_that_is_not_an_edge_stays() -> None:
    before = oplib("cumsum")  # `i - k >= 0` never reads outside the input
    assert pad(before, DEFAULT) is before


def test_buffer_rewritten_between_readers_is_not_copied() -> None:
    text = """\
0: #program
block []:1 (
    #user none new@0x00000000 O[0] fp32(4):(1)
    #tmp none new@0x00000000 T[0] fp32(4):(1)
    #user none new@0x00000000 X[0] fp32(4):(1)
) {
  0: #main
  block []:1 (
      out O[0] fp32(4):(1)
      #tmp inout T[0] fp32(4):(1)
      in X[0] fp32(4):(1)
  ) {
    0: block [a:4]:4 ( // fill
        out T[a] fp32(1):(1)
        in X[a] fp32(1):(1)
    ) {
      0: $x = load(X)
      1: T = store($x)
    }
    1: block [i:2, x:4]:8 ( // first
        -1 + i + x >= 0
        out O[x]:add fp32(1):(1)
        in T[-1 + i + x] fp32(1):(1)
    ) {
      0: $t = load(T)
      1: O = store($t)
    }
    2: block [a:4]:4 ( // refill
        out T[a] fp32(1):(1)
        in X[a] fp32(1):(1)
    ) {
      0: $x = load(X)
      1: $y = neg($x)
      2: T = store($y)
    }
    3: block [i:2, x:4]:8 ( // second
        -1 + i + x >= 0
        out O[x]:add fp32(1):(1)
        in T[-1 + i + x] fp32(1):(1)
    ) {
      0: $t = load(T)
      1: O = store($t)
    }
  }
}
"""
    before = parse(text)
    # A copy made before `first` would be stale for `second`; `T` is owned by the root, so it
    # cannot be padded in place either.
    assert pad(before, DEFAULT) is before
    # Without the refill, one copy placed before the first reader serves both.
    refill = text[text.index("    2: block [a:4]:4 ( // refill") : text.index("    3: block")]
    plain = parse(text.replace(refill, ""))
    after = pad(plain, DEFAULT)
    names = [s.name if isinstance(s, (Block, Special)) else "" for s in main_of(after).stmts]
    assert names == ["fill", "zero", "pad_T", "first", "second"]
    assert_same_meaning(plain, after)


def test_zero_factors() -> None:
    conv = next(s for s in main_of(parse(LOCAL_TEMP)).stmts if isinstance(s, Block))
    assert mac_zero_factors(conv) is None  # the relu: no add aggregation
    kernel = main_of(parse(LOCAL_TEMP)).stmts[1]
    assert isinstance(kernel, Block)
    assert mac_zero_factors(kernel) == ("O", frozenset({"K", "T"}))


def test_registered_and_reqs() -> None:
    info = get_pass("pad")
    before = oplib("conv2d_padded")
    assert info.run(before, make_options(info, {})) == pad(before, DEFAULT)
    assert info.run(before, make_options(info, {"reqs": "[nothing]"})) is before


@pytest.mark.parametrize(
    "dump", sorted(REFERENCE.glob("*/stripe/02_prune_refs.stripe")), ids=lambda p: p.parts[-3]
)
def test_plaidml_dumps_are_padded_where_plaidml_padded_them(dump: Path) -> None:
    # Where PlaidML's own pad (04_pad) found no input edge constraint (a valid convolution, a
    # cumulative sum's `i - k >= 0`) neither does this one; where it padded (a "same"
    # convolution: `zero()` into a padded copy), this one pads too, keeping the meaning.
    before = parse_stripe(dump.read_text(), str(dump))
    after_plaidml = dump.with_name("04_pad.stripe").read_text()
    plaidml_padded = after_plaidml.count("zero") > dump.read_text().count("zero")
    after = pad(before, DEFAULT)
    assert (after is not before) == plaidml_padded
    if plaidml_padded:
        assert not driver.check_equivalent(before, after, seed=0)


def test_tile_view_sticking_out_is_not_copied() -> None:
    # The padded block is a tile loop: its view V of I (8 elements) holds I[4t .. 4t + 4], so
    # the second tile's view sticks out of I by one element that the kernel never reads. The
    # kernel's edge constraint at V's start could go (K's factor is then read against V's
    # padding), but copying the whole view into a padded buffer would read I[8].
    text = """\
0: #program
block []:1 (
    #user none new@0x00000000 I[0] fp32(8):(1)
    #user none new@0x00000000 K[0] fp32(3):(1)
    #user none new@0x00000000 O[0] fp32(8):(1)
) {
  0: #main
  block []:1 (
      in I[0] fp32(8):(1)
      in K[0] fp32(3):(1)
      out O[0] fp32(8):(1)
  ) {
    0: #tile
    block [t:2]:2 (
        in K[0] fp32(3):(1)
        out O[4*t] fp32(4):(1)
        in V = I[4*t] fp32(5):(1)
    ) {
      0: #agg_op_add #comb_op_mul
      block [i:3, x:4, to = 4*t]:12 (
          -1 + i + x >= 0
          8 - i - to - x >= 0
          in K[i] fp32(1):(1)
          out O[x]:add fp32(1):(1)
          in V[-1 + i + x] fp32(1):(1)
      ) {
        0: $v = load(V)
        1: $k = load(K)
        2: $o = mul($v, $k)
        3: O = store($o)
      }
    }
  }
}
"""
    before = parse(text)
    assert not verify(before)
    assert pad(before, PadOptions(reqs=("tile",))) is before
