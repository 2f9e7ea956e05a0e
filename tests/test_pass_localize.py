"""`localize`: PlaidML's own localisation steps reproduced exactly, shrinking with a shifted
box and restrided views below, and the allocations that must stay where they are."""

from __future__ import annotations

from typing import Any

import pytest

from plaidc import driver
from plaidc.analysis import DomainCache
from plaidc.analysis.fusion import cross_point_flow, private_copy_check, relative_box
from plaidc.passes import get_pass, make_options
from plaidc.stripe.ir import Block
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe
from plaidc.stripe.verify import verify

from .support import REFERENCE

PLAIDML = ["conv_bias_relu", "cumsum", "matmul", "maxpool1d", "softmax"]


def run(program: Block, **opts: Any) -> Block:
    info = get_pass("localize")
    return info.run(program, make_options(info, opts))


def dump(name: str, stage: str) -> Block:
    (path,) = (REFERENCE / name / "stripe").glob(f"{stage}_*.stripe")
    return parse_stripe(path.read_text(), str(path))


def assert_same_meaning(before: Block, after: Block) -> None:
    problems = verify(after)
    assert not problems, problems[0].render()
    mismatches = driver.check_equivalent(before, after, seed=7)
    assert not mismatches, mismatches[0].message


@pytest.mark.parametrize("name", PLAIDML)
@pytest.mark.parametrize(
    ("before", "after", "reqs"),
    [("00", "01", "program"), ("08", "09", "main")],
    ids=["localize_tmps", "localize_main"],
)
def test_reproduces_plaidml_localize_steps(name: str, before: str, after: str, reqs: str) -> None:
    source = dump(name, before)
    result = run(source, reqs=[reqs])
    assert print_stripe(result) == print_stripe(dump(name, after))
    assert_same_meaning(source, result)


def parse(text: str) -> Block:
    return parse_stripe(text, "<test>")


SHRINK = parse("""\
0: #program
block []:1 (
    #user none new@0x00000000 X[0] fp32(8):(1)
    #user none new@0x00000000 Y[0] fp32(8):(1)
) {
  0: #main
  block [] ( // main
      in X[0] fp32(8):(1)
      #tmp none new@0x00000000 T[0] fp32(10):(1)
      out Y[0] fp32(8):(1)
  ) {
    0: block [i:4] ( // pair
        in X[2*i] fp32(2):(1)
        #keep inout T[2*i] fp32(3):(1)
        out Y[2*i] fp32(2):(1)
    ) {
      0: block [j:2] ( // put
          in X[j] fp32(1):(1)
          out T[j + 1] fp32(1):(1)
      ) {
        0: $x = load(X)
        1: $e = exp($x)
        2: T = store($e)
      }
      1: block [j:2] ( // get
          in T[j + 1] fp32(1):(1)
          out Y[j] fp32(1):(1)
      ) {
        0: $t = load(T)
        1: $r = neg($t)
        2: Y = store($r)
      }
    }
  }
}
""")


def main_of(program: Block) -> Block:
    main = program.stmts[0]
    assert isinstance(main, Block)
    return main


def test_moves_into_the_only_user_shrunk_to_the_box_it_touches() -> None:
    after = run(SHRINK)
    assert_same_meaning(SHRINK, after)
    main = main_of(after)
    assert main.ref("T") is None
    pair = main.stmts[0]
    assert isinstance(pair, Block)
    local = pair.ref("T")
    assert local is not None and local.from_ is None
    # Elements 1 and 2 of the 3-element view are touched: 2 elements, accesses shifted by -1.
    assert local.shape.sizes == (2,) and local.shape.strides == (1,)
    assert local.tags.has_all(["keep"]) and "tmp" not in local.tags
    for child in pair.stmts:
        assert isinstance(child, Block)
        ref = child.ref("T")
        assert ref is not None and str(ref.access[0]) == "j"
    # Used by two children of `pair`, it sinks no further.
    assert run(after) == after


def test_ref_reqs_restrict_the_moved_views() -> None:
    assert run(SHRINK, ref_reqs=["other"]) is SHRINK
    assert run(SHRINK, ref_reqs=["keep"]) is not SHRINK


def program_with(main_refs: str, body: str, roots: str = "") -> Block:
    return parse(f"""\
0: #program
block []:1 (
    #user none new@0x00000000 X[0] fp32(4):(1)
    #user none new@0x00000000 Y[0] fp32(4):(1)
{roots}) {{
  0: #main
  block [] ( // main
      in X[0] fp32(4):(1)
      out Y[0] fp32(4):(1)
{main_refs}
  ) {{
{body}
  }}
}}
""")


KERNEL = """\
    {pos}: block [i:4] ( // k{pos}
        in X[i] fp32(1):(1)
        {dir} T[i] fp32(1):(1)
        out Y[i] fp32(1):(1)
    ) {{
      0: $x = load(X)
      1: T = store($x)
      2: $t = load(T)
      3: Y = store($t)
    }}"""


def test_an_allocation_two_children_use_stays() -> None:
    body = KERNEL.format(pos=0, dir="inout") + "\n" + KERNEL.format(pos=1, dir="inout")
    before = program_with("      none new@0x00000000 T[0] fp32(4):(1)", body)
    assert run(before) is before


def test_an_allocation_the_block_itself_uses_stays() -> None:
    body = KERNEL.format(pos=0, dir="inout") + "\n    1: $z = load(T)"
    before = program_with("      none new@0x00000000 T[0] fp32(4):(1)", body)
    assert run(before) is before


def test_program_buffers_never_move() -> None:
    # A `#user` buffer only main uses, and a root parameter, stay at the root.
    before = parse("""\
0: #program
block []:1 (
    in X[0] fp32(4):(1)
    #user none new@0x00000000 Y[0] fp32(4):(1)
) {
  0: #main
  block [] ( // main
      in X[0] fp32(4):(1)
      out Y[0] fp32(4):(1)
  ) {
    0: $x = load(X)
    1: Y = store($x)
  }
}
""")
    assert run(before) is before


def test_the_moved_buffer_keeps_a_transposed_layout() -> None:
    before = program_with(
        "      none new@0x00000000 T[0, 0] fp32(4, 3):(1, 4)",
        """\
    0: block [i:2] ( // rows
        in X[2*i] fp32(2):(1)
        inout T[2*i, 0] fp32(2, 3):(1, 4)
        out Y[2*i] fp32(2):(1)
    ) {
      0: block [r:2, j:3] ( // put
          in X[r] fp32(1):(1)
          out T[r, j] fp32(1, 1):(1, 4)
      ) {
        0: $x = load(X)
        1: T = store($x)
      }
      1: block [r:2] ( // get
          in T[r, 2] fp32(1, 1):(1, 4)
          out Y[r] fp32(1):(1)
      ) {
        0: $t = load(T)
        1: Y = store($t)
      }
    }""",
    )
    after = run(before)
    assert_same_meaning(before, after)
    rows = main_of(after).stmts[0]
    assert isinstance(rows, Block)
    local = rows.ref("T")
    # Column-major before, column-major after: packed (2, 3) with the first index fastest.
    assert local is not None and local.shape.sizes == (2, 3) and local.shape.strides == (1, 2)
    for child in rows.stmts:
        assert isinstance(child, Block)
        view = child.ref("T")
        assert view is not None and view.shape.strides == (1, 2)


def test_analysis_sees_points_reading_what_others_write() -> None:
    # Point i reads T[i + 1], which point i + 1 writes: not private per point.
    racy = program_with(
        "      none new@0x00000000 T[0] fp32(5):(1)",
        """\
    0: block [i:4] ( // race
        in X[i] fp32(1):(1)
        out T[i] fp32(1):(1)
        in U = T[i + 1] fp32(1):(1)
        out Y[i] fp32(1):(1)
    ) {
      0: $x = load(X)
      1: T = store($x)
      2: $u = load(U)
      3: Y = store($u)
    }""",
    )
    main = main_of(racy)
    race = main.stmts[0]
    assert isinstance(race, Block)
    chain = (racy, main, race)
    assert cross_point_flow(chain, "T", DomainCache())
    assert relative_box(chain, "U", DomainCache()) == [(0, 0)]
    # Two views of one allocation: left alone in any case.
    assert run(racy) is racy
    private = program_with(
        "      none new@0x00000000 T[0] fp32(4):(1)", KERNEL.format(pos=0, dir="inout")
    )
    kernel = main_of(private).stmts[0]
    assert isinstance(kernel, Block)
    assert not cross_point_flow((private, main_of(private), kernel), "T", DomainCache())


def test_a_second_run_finds_nothing_more_to_move() -> None:
    once = run(dump("conv_bias_relu", "08"))
    assert run(once) == once


def test_private_copy_check_traces_each_access_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """localize's two questions of one view (does one point read what another writes, what box
    does the view touch) come from one footprint of the writes and one of the reads, as the
    two questions asked apart answer them."""
    import plaidc.analysis.access as access

    traced: list[str] = []
    real_trace = access.trace

    def counting(chain: Any, ref: str, *args: Any, **kwargs: Any) -> Any:
        traced.append(ref)
        return real_trace(chain, ref, *args, **kwargs)

    monkeypatch.setattr(access, "trace", counting)
    shared = KERNEL.format(pos=0, dir="inout").replace("T[i] fp32(1)", "T[0] fp32(1)")
    for body, flows in ((KERNEL.format(pos=0, dir="inout"), False), (shared, True)):
        program = program_with("      none new@0x00000000 T[0] fp32(4):(1)", body)
        kernel = main_of(program).stmts[0]
        assert isinstance(kernel, Block)
        chain = (program, main_of(program), kernel)
        traced.clear()
        got = private_copy_check(chain, "T", DomainCache())
        assert traced == ["T", "T"]  # the store and the load, once each
        assert got == (flows, [(0, 0)])
        assert got == (
            cross_point_flow(chain, "T", DomainCache()),
            relative_box(chain, "T", DomainCache()),
        )
