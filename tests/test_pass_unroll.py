"""`unroll`: straight-line copies with constants substituted, aggregation made explicit, the
cases it refuses, and meaning kept on every example program."""

from __future__ import annotations

import pytest

from plaidc.passes import get_pass, make_options
from plaidc.stripe.ir import Block, Constant, LoadIndex
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe
from plaidc.stripe.uses import scalar_outputs
from plaidc.stripe.verify import verify

from .support.passes_differential import PROGRAMS, assert_same_meaning, load


def run(program: Block, **options: object) -> Block:
    info = get_pass("unroll")
    return info.run(program, make_options(info, options))


def kernel(program: Block) -> Block:
    found = program.stmts[0]
    assert isinstance(found, Block)
    return found


def body(block: Block) -> list[str]:
    """The statement lines of `block`'s printed body (not nested blocks' lines)."""
    lines = print_stripe(block).splitlines()
    start = next(n for n, line in enumerate(lines) if line.strip() == ") {")
    return [line.strip() for line in lines[start + 1 : -1]]


SUM = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0] fp32:I(3):(1):12 B
    #user none new@0x00000000 S[0] fp32:I(1):(1):4 B
) {
  0: #kernel
  block [i:3]:3 ( // sum_of_squares
      -1 + i >= 0
      in A[i] fp32:I(1):(1):4 B
      out S[0]:add fp32:I(1):(1):4 B
      none new@0x00000000 T[0] fp32:I(1):(1):4 B
  ) {
    0: $a = load(A)
    1: $i = load_index(2*i)
    2: T = store($a)
    3: $t = load(T)
    4: $b = mul($t, $t)
    5[4]: S = store($b)
  }
}
"""


def test_unroll_substitutes_and_aggregates() -> None:
    program = parse_stripe(SUM)
    result = run(program, reqs=["kernel"])
    block = kernel(result)
    assert block.idxs == () and block.constraints == ()
    # i = 0 fails the constraint; i = 1 and i = 2 remain, each with its own view and scratch.
    assert [(r.into, r.from_, [str(a) for a in r.access]) for r in block.refs] == [
        ("A_0", "A", ["1"]),
        ("A_1", "A", ["2"]),
        ("S", "S", ["0"]),
        ("T_0", None, ["0"]),
        ("T_1", None, ["0"]),
    ]
    assert body(block) == [
        "0: $a_0 = load(A_0)",
        "1: $i_0 = load_index(2)",
        "2: T_0 = store($a_0)",
        "3: $t_0 = load(T_0)",
        "4: $b_0 = mul($t_0, $t_0)",
        "5[4]: S = store($b_0)",
        "6: $a_1 = load(A_1)",
        "7: $i_1 = load_index(4)",
        "8: T_1 = store($a_1)",
        "9: $t_1 = load(T_1)",
        "10: $b_1 = mul($t_1, $t_1)",
        "11[10]: $S_1 = add($b_0, $b_1)",
        "12[10]: S = store($S_1)",
    ]
    assert_same_meaning(program, result, "unroll of a reduction")


def test_unused_refinement_stays_in_scope() -> None:
    line = "      in A[i] fp32:I(1):(1):4 B\n"
    program = parse_stripe(SUM.replace(line, line + line.replace("in A[i]", "in U = A[i]")))
    block = kernel(run(program, reqs=["kernel"]))
    unused = block.ref("U")
    assert unused is not None and [str(a) for a in unused.access] == ["0"]
    assert verify(program) == [] and verify(run(program, reqs=["kernel"])) == []


def test_load_index_keeps_its_statement_and_type() -> None:
    block = kernel(run(parse_stripe(SUM), reqs=["kernel"]))
    assert any(isinstance(s, LoadIndex) and s.affine.is_constant for s in block.stmts)
    assert not any(isinstance(s, Constant) for s in block.stmts)


def test_scalars_stay_ssa() -> None:
    block = kernel(run(parse_stripe(SUM), reqs=["kernel"]))
    names = [n for s in block.stmts for n in scalar_outputs(s)]
    assert len(names) == len(set(names))


ROWMAX = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0, 0] fp32:I(2, 3):(3, 1):24 B
    #user none new@0x00000000 B[0] fp32:I(2):(1):8 B
) {
  0: #kernel
  block [i:2, (#u j:3)]:6 ( // rowmax
      2 - j >= 0
      in A[i, j] fp32:I(1, 1):(3, 1):4 B
      out B[i]:max fp32:I(1):(1):4 B
  ) {
    0: $a = load(A)
    1: B = store($a)
  }
}
"""


def test_expand_idx_unrolls_only_tagged_indices() -> None:
    program = parse_stripe(ROWMAX)
    result = run(program, reqs=["kernel"], expand_idx="u")
    block = kernel(result)
    assert [(i.name, i.range) for i in block.idxs] == [("i", 2)]
    assert [str(r.access[1]) for r in block.refs if r.from_ == "A"] == ["0", "1", "2"]
    assert body(block)[3:] == [
        "3: $B_1 = max($a_0, $a_1)",
        "4: B = store($B_1)",
        "5: $a_2 = load(A_2)",
        "6: $B_2 = max($B_1, $a_2)",
        "7: B = store($B_2)",
    ]
    assert_same_meaning(program, result, "unroll of j")


def test_constraint_mixing_kept_and_unrolled_indices_is_refused() -> None:
    program = parse_stripe(ROWMAX.replace("2 - j >= 0", "2 - i - j >= 0"))
    assert run(program, reqs=["kernel"], expand_idx="u") is program
    # Unrolling both indices makes the constraint constant again.
    result = run(program, reqs=["kernel"])
    assert kernel(result).idxs == ()
    assert_same_meaning(program, result, "unroll with a constraint")


def test_max_copies() -> None:
    program = parse_stripe(ROWMAX)
    assert run(program, reqs=["kernel"], max_copies=5) is program
    assert run(program, reqs=["kernel"], max_copies=6) is not program


NESTED = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0, 0] fp32:I(2, 4):(4, 1):32 B
    #user none new@0x00000000 B[0] fp32:I(8):(1):32 B
    #user none new@0x00000000 S[0] fp32:I(2):(1):8 B
) {
  0: #outer
  block [i:2]:2 (
      in A[i, 0] fp32:I(1, 4):(4, 1):16 B
      out B[4*i] fp32:I(4):(1):16 B
      out S[i]:add fp32:I(1):(1):4 B
  ) {
    0: block [j:4]:4 ( // copy
        in A[0, j] fp32:I(1, 1):(4, 1):4 B
        out B[j] fp32:I(1):(1):4 B
    ) {
      0: $a = load(A)
      1: B = store($a)
    }
    1: block [j:4]:4 ( // total
        in A[0, j] fp32:I(1, 1):(4, 1):4 B
        out S[0]:add fp32:I(1):(1):4 B
    ) {
      0: $a = load(A)
      1: S = store($a)
    }
  }
}
"""


def test_nested_blocks_are_copied_onto_their_views() -> None:
    program = parse_stripe(NESTED)
    result = run(program, reqs=["outer"])
    block = kernel(result)
    children = [s for s in block.stmts if isinstance(s, Block)]
    assert [c.name for c in children] == ["copy", "total", "copy", "total"]
    assert [sorted(r.from_ or "" for r in c.refs) for c in children] == [
        ["A_0", "B_0"],
        ["A_0", "S_0"],
        ["A_1", "B_1"],
        ["A_1", "S_1"],
    ]
    assert_same_meaning(program, result, "unroll around nested blocks")


def test_nested_writes_to_one_element_are_refused() -> None:
    # Both points of `outer` aggregate into S[0] through a nested block: copies would
    # overwrite each other instead of adding up.
    program = parse_stripe(NESTED.replace("out S[i]:add fp32:I(1)", "out S[0]:add fp32:I(2)"))
    assert verify(program) == []
    assert run(program, reqs=["outer"]) is program


PASSTHROUGH = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0] fp32:I(6):(1):24 B
    #user none new@0x00000000 B[0] fp32:I(6):(1):24 B
) {
  0: block [o:3]:3 (
      in A[0] fp32:I(6):(1):24 B
      out B[0] fp32:I(6):(1):24 B
  ) {
    0: #kernel
    block [x:2 = 2*o]:2 (
        in A[x] fp32:I(1):(1):4 B
        out B[x] fp32:I(1):(1):4 B
    ) {
      0: $a = load(A)
      1: $x = load_index(x)
      2: $s = add($a, $x)
      3: B = store($s)
    }
  }
}
"""


def test_index_with_a_start_stays_as_passthrough() -> None:
    program = parse_stripe(PASSTHROUGH)
    result = run(program, reqs=["kernel"])
    inner = kernel(result).stmts[0]
    assert isinstance(inner, Block)
    assert [(i.name, i.range, str(i.affine)) for i in inner.idxs] == [("x", 1, "2*o")]
    assert [str(r.access[0]) for r in inner.refs] == ["x", "1 + x", "x", "1 + x"]
    assert_same_meaning(program, result, "unroll of an index with a start")


def test_default_and_blocks_without_indices_are_left_alone() -> None:
    program = parse_stripe(SUM)
    assert run(program) is program  # reqs=all: the root, which has no index
    special = """\
block []:1 (
    #user none new@0x00000000 A[0] fp32:I(4):(1):16 B
    #user none new@0x00000000 B[0] fp32:I(4):(1):16 B
) {
  0: #kernel
  block [i:1]:1 (
      in A[0] fp32:I(4):(1):16 B
      out B[0] fp32:I(4):(1):16 B
  ) {
    0: B = copy(A)
  }
}
"""
    program = parse_stripe(special)
    assert run(program, reqs=["kernel"]) is program


@pytest.mark.parametrize("program_id", PROGRAMS)
def test_unroll_keeps_meaning(program_id: str) -> None:
    program = load(program_id)
    result = run(program, reqs=["kernel"], max_copies=16)
    if result is not program:
        assert_same_meaning(program, result, f"unroll on {program_id}")
