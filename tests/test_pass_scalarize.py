"""`scalarize`: PlaidML's scalarisation reproduced exactly, type-exact forwarding (the
conversions a store performs), and the buffers and loads that must stay."""

from __future__ import annotations

from typing import Any

import pytest

from plaidc import driver
from plaidc.passes import get_pass, make_options
from plaidc.stripe.ir import Block, Constant, Intrinsic, Load, Store
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe
from plaidc.stripe.verify import verify

from .support import REFERENCE

PLAIDML = ["conv_bias_relu", "cumsum", "matmul", "maxpool1d", "softmax"]


def run(program: Block, **opts: Any) -> Block:
    info = get_pass("scalarize")
    return info.run(program, make_options(info, opts))


def dump(name: str, stage: str) -> Block:
    (path,) = (REFERENCE / name / "stripe").glob(f"{stage}_*.stripe")
    return parse_stripe(path.read_text(), str(path))


def assert_same_meaning(before: Block, after: Block) -> None:
    problems = verify(after)
    assert not problems, problems[0].render()
    mismatches = driver.check_equivalent(before, after, seed=9)
    assert not mismatches, mismatches[0].message


@pytest.mark.parametrize("name", PLAIDML)
def test_reproduces_plaidml_scalarize_main(name: str) -> None:
    source = dump(name, "09")
    result = run(source, reqs=["main"])
    assert print_stripe(result) == print_stripe(dump(name, "10"))
    assert_same_meaning(source, result)


def kernel(refs: str, body: str) -> Block:
    return parse_stripe(
        f"""\
0: #program
block []:1 (
    #user none new@0x00000000 X[0] fp32(4):(1)
    #user none new@0x00000000 Y[0] fp32(4):(1)
    #user none new@0x00000000 W[0] fp32(4):(1)
) {{
  0: #main
  block [] ( // main
      in X[0] fp32(4):(1)
      out Y[0] fp32(4):(1)
      out W[0] fp32(4):(1)
  ) {{
    0: block [i:4] ( // k
        in X[i] fp32(1):(1)
        out Y[i] fp32(1):(1)
        out W[i] fp32(1):(1)
{refs}
    ) {{
{body}
    }}
  }}
}}
""",
        "<test>",
    )


def body_of(program: Block) -> Block:
    main = program.stmts[0]
    assert isinstance(main, Block)
    block = main.stmts[0]
    assert isinstance(block, Block)
    return block


CONVERTING = kernel(
    """\
        none new@0x00000000 U[0] fp32(1):(1)
        none new@0x00000000 Flag[0] bool(1):(1)
        none new@0x00000000 Z[0] i32(1):(1)""",
    """\
      0: $x = load(X)
      1: $e = exp($x)
      2: U = store($e)
      3: $u = load(U)
      4: Flag = store($u)
      5: $f = load(Flag)
      6: $c = (float)2.75
      7: Z = store($c)
      8: $z = load(Z)
      9: $s = cond($f, $u, $z)
      10: Y = store($s)
      11: $y = load(Y)
      12: $w = add($y, $x)
      13: W = store($w)""",
)


def test_buffers_become_scalars_and_stores_keep_their_conversions() -> None:
    after = run(CONVERTING)
    assert_same_meaning(CONVERTING, after)
    block = body_of(after)
    assert {r.into for r in block.refs} == {"X", "Y", "W"}
    loads = [s.from_ for s in block.stmts if isinstance(s, Load)]
    assert loads == ["X"]  # U, Flag, Z and the reload of Y are gone
    casts = {s.name: s.inputs for s in block.stmts if isinstance(s, Intrinsic)}
    assert casts["as_bool"] == ("$e",)  # fp32 stored into a bool buffer
    assert casts["as_int"][0] == "$c"  # a float literal stored into i32 truncates
    assert casts["as_float"][0] == "$s"  # cond(bool, fp32, i32) is fp64; Y holds fp32
    widths = {s.name: s.value for s in block.stmts if isinstance(s, Constant)}
    assert sorted(widths.values()) == [2.75, 32, 32]
    # The exactly typed value is forwarded as it is.
    exp_uses = [s for s in block.stmts if isinstance(s, Intrinsic) and "$e" in s.inputs]
    assert {s.name for s in exp_uses} == {"as_bool", "cond"}
    stores = [s.into for s in block.stmts if isinstance(s, Store)]
    assert stores == ["Y", "W"]


def test_a_buffer_read_before_it_is_written_stays() -> None:
    before = kernel(
        "        none new@0x00000000 U[0] fp32(1):(1)",
        """\
      0: $u = load(U)
      1: $x = load(X)
      2: U = store($x)
      3: Y = store($x)
      4: W = store($u)""",
    )
    assert run(before) is before


def test_a_buffer_a_child_block_uses_stays() -> None:
    before = kernel(
        "        none new@0x00000000 U[0] fp32(1):(1)",
        """\
      0: $x = load(X)
      1: U = store($x)
      2: block [] (
          in U[0] fp32(1):(1)
          out Y[0] fp32(1):(1)
      ) {
        0: $u = load(U)
        1: Y = store($u)
      }
      3: W = store($x)""",
    )
    assert run(before) is before


def test_bf16_and_multi_element_buffers_stay() -> None:
    before = kernel(
        """\
        none new@0x00000000 H[0] bf16(1):(1)
        none new@0x00000000 V[0] fp32(2):(1)""",
        """\
      0: $x = load(X)
      1: H = store($x)
      2: $h = load(H)
      3: Y = store($h)
      4: V = store($x)
      5: $v = load(V)
      6: W = store($v)""",
    )
    after = run(before)
    assert_same_meaning(before, after)
    block = body_of(after)
    assert {r.into for r in block.refs} >= {"H", "V"}
    # V's element 0 was just stored: the reload is forwarded, the store stays.
    assert [s.from_ for s in block.stmts if isinstance(s, Load)] == ["X", "H"]


def test_a_store_through_an_aliasing_view_blocks_forwarding() -> None:
    before = kernel(
        "        out Y2 = Y[i] fp32(1):(1)",
        """\
      0: $x = load(X)
      1: Y = store($x)
      2: $e = exp($x)
      3: Y2 = store($e)
      4: $y = load(Y)
      5: W = store($y)""",
    )
    assert run(before) is before


def test_dependencies_follow_the_removed_statements() -> None:
    before = kernel(
        "        none new@0x00000000 U[0] fp32(1):(1)",
        """\
      0: $x = load(X)
      1[0]: $e = exp($x)
      2[1]: U = store($e)
      3[2]: $u = load(U)
      4[3]: $r = neg($u)
      5[4]: Y = store($r)
      6[0]: W = store($x)""",
    )
    after = run(before)
    assert_same_meaning(before, after)
    deps = [(type(s).__name__, s.deps) for s in body_of(after).stmts]
    assert deps == [
        ("Load", ()),
        ("Intrinsic", (0,)),
        ("Intrinsic", (1,)),
        ("Store", (2,)),
        ("Store", (0,)),
    ]
    assert run(after) == after
