"""`locate-memory`, `locate-block`, `locate-inner-block`: where locations go, what is skipped, the
option's syntax, and well-formed output on every example program."""

from __future__ import annotations

import pytest

from plaidc.passes import PassOptionError, get_pass, make_options
from plaidc.passes.registry import location_option as parse_location
from plaidc.stripe.ir import Affine, Block, Location, LocUnit
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import format_location, print_stripe
from plaidc.stripe.verify import verify

from .support.passes_differential import PROGRAMS, load

PROGRAM = """\
0: #program
block []:1 (
    #user none new@0x00000000 A[0] fp32:I(8):(1):32 B
    #tmp none new@0x00000000 T[0] fp32:I(8):(1):32 B
    #user none new@0x00000000 B[0] fp32:I(8):(1):32 B
) {
  0: #main
  block []:1 ( // main
      in A[0] fp32:I(8):(1):32 B
      none new@0x00000000 L[0] fp32:I(8):(1):32 B
      out T[0] fp32:I(8):(1):32 B
      out B[0] fp32:I(8):(1):32 B
  ) {
    0: #kernel
    block [i:8]:8 ( // first
        in A[i] fp32:I(1):(1):4 B
        out T[i] fp32:I(1):(1):4 B
    ) {
      0: #inner
      block []:1 ( // inner
          in A[0] fp32:I(1):(1):4 B
          out T[0] fp32:I(1):(1):4 B
      ) {
        0: $a = load(A)
        1: T = store($a)
      }
    }
    1: #kernel
    block [i:8]:8 ( // second
        in T[i] fp32:I(1):(1):4 B
        out B[i] fp32:I(1):(1):4 B
    ) {
      0: $t = load(T)
      1: B = store($t)
    }
  }
}
"""


def run(name: str, program: Block, **options: object) -> Block:
    info = get_pass(name)
    return info.run(program, make_options(info, options))


def locations(block: Block) -> dict[str, str | None]:
    """`path/ref` -> printed location of every refinement, and `path` -> of every block."""
    out: dict[str, str | None] = {}

    def walk(b: Block, path: str) -> None:
        out[path] = format_location(b.location) if b.location else None
        for r in b.refs:
            out[f"{path}/{r.into}"] = format_location(r.location) if r.location else None
        for n, s in enumerate(b.stmts):
            if isinstance(s, Block):
                walk(s, f"{path}/{s.name or n}")

    walk(block, "")
    return {k: v for k, v in out.items() if v is not None}


def test_parse_location() -> None:
    assert parse_location("", "p") is None
    assert parse_location("DRAM", "p") == Location.named("DRAM")
    assert parse_location(" A[0]/B[i + 1] ", "p") == Location(
        (LocUnit("A", (Affine.const_(0),)), LocUnit("B", (Affine.var("i") + 1,)))
    )


@pytest.mark.parametrize("pass_name", ["locate-memory", "locate-block", "locate-inner-block"])
def test_bad_location_is_an_option_error(pass_name: str) -> None:
    with pytest.raises(PassOptionError) as err:
        make_options(get_pass(pass_name), {"loc": "SRAM["})
    assert str(err.value) == (
        f"pass '{pass_name}': option 'loc': expected a location such as DRAM, SRAM[0] or "
        'A[0]/B[i], got "SRAM["'
    )


def test_locate_memory_follows_every_view() -> None:
    program = parse_stripe(PROGRAM)
    result = run("locate-memory", program, reqs=["program"], loc="DRAM")
    assert locations(result) == {
        "/A": "DRAM",
        "/T": "DRAM",
        "/B": "DRAM",
        "/main/A": "DRAM",
        "/main/T": "DRAM",
        "/main/B": "DRAM",
        "/main/first/A": "DRAM",
        "/main/first/T": "DRAM",
        "/main/first/inner/A": "DRAM",
        "/main/first/inner/T": "DRAM",
        "/main/second/T": "DRAM",
        "/main/second/B": "DRAM",
    }
    assert verify(result) == []
    # Already there: nothing changes.
    assert run("locate-memory", result, reqs=["program"], loc="DRAM") is result


def test_locate_memory_ref_reqs_and_nested_allocations() -> None:
    program = parse_stripe(PROGRAM)
    result = run("locate-memory", program, reqs=["program"], loc="SRAM[1]", ref_reqs=["tmp"])
    assert {k for k in locations(result)} == {
        "/T",
        "/main/T",
        "/main/first/T",
        "/main/first/inner/T",
        "/main/second/T",
    }
    # Only the matched block's own allocations: main's L is not touched from the root.
    assert "/main/L" not in locations(result)
    result = run("locate-memory", program, reqs=["main"], loc="L1")
    assert locations(result) == {"/main/L": "L1"}


def test_indexed_location_stays_on_the_allocation() -> None:
    text = PROGRAM.replace("block []:1 ( // main", "block [u:1]:1 ( // main")
    program = parse_stripe(text)
    result = run("locate-memory", program, reqs=["main"], loc="BANK[u]")
    assert locations(result) == {"/main/L": "BANK[u]"}
    assert verify(result) == []
    # Out of scope for the root (it has no index u): skipped there.
    assert run("locate-memory", program, reqs=["program"], loc="BANK[u]") is program


def test_locate_block_and_inner_blocks() -> None:
    program = parse_stripe(PROGRAM)
    result = run("locate-block", program, reqs=["kernel"], loc="CORE[i]")
    assert locations(result) == {"/main/first": "CORE[i]", "/main/second": "CORE[i]"}
    assert verify(result) == []
    result = run("locate-inner-block", program, reqs=["main"], loc="PE")
    assert locations(result) == {
        "/main/first": "PE",
        "/main/first/inner": "PE",
        "/main/second": "PE",
    }
    result = run("locate-inner-block", program, reqs=["main"], loc="PE", inner_reqs=["inner"])
    assert locations(result) == {"/main/first/inner": "PE"}
    assert "block<PE> []:1 ( // inner" in print_stripe(result)


def test_defaults_do_nothing() -> None:
    program = parse_stripe(PROGRAM)
    for name in ("locate-memory", "locate-block", "locate-inner-block"):
        assert run(name, program) is program


@pytest.mark.parametrize("program_id", PROGRAMS)
def test_locations_keep_programs_well_formed(program_id: str) -> None:
    program = load(program_id)
    result = run("locate-memory", program, reqs=["all"], loc="DRAM")
    result = run("locate-memory", result, reqs=["kernel"], loc="SRAM[0]")
    result = run("locate-block", result, reqs=["kernel"], loc="CORE[0]")
    result = run("locate-inner-block", result, reqs=["kernel"], loc="PE")
    assert verify(result) == []
