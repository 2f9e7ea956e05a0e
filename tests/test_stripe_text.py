"""The .stripe text format: PlaidML dumps round-trip byte for byte, the printer is canonical and
lossless (also on hypothesis-generated IR), and malformed text gets located diagnostics."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plaidc.diagnostics import CompileError
from plaidc.stripe import ir
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import format_affine, format_bytes, print_stripe

from .support import EXAMPLES, REFERENCE_DUMPS

# The printer derives a view's extent `E(...)` from its parent; PlaidML prints its own
# bookkeeping, which differs where a view covers part of a padded or larger buffer (these two
# programs). Such dumps still print back identically after a reparse
# (test_interp_reference.py); strict, so a printer that learns PlaidML's extents shows here.
EXTENTS_DIFFER = {"padconv", "padassign"}
BYTE_FOR_BYTE = [
    pytest.param(
        p,
        marks=pytest.mark.xfail(p.parents[1].name in EXTENTS_DIFFER, reason="E(...)", strict=True),
    )
    for p in REFERENCE_DUMPS
]


@pytest.mark.parametrize("path", BYTE_FOR_BYTE, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_plaidml_dump_prints_back_byte_for_byte(path: Path) -> None:
    text = path.read_text()
    program = parse_stripe(text, str(path))
    assert print_stripe(program) == text.rstrip("\n") + "\n"


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.stripe")), ids=lambda p: p.name)
def test_examples_print_to_a_fixed_point(path: Path) -> None:
    program = parse_stripe(path.read_text(), str(path))
    text = print_stripe(program)
    assert parse_stripe(text) == program
    assert print_stripe(parse_stripe(text)) == text


def test_compact_figure5_form_equals_plaidml_form() -> None:
    compact = """block []:1 (
        in I[0, 0] i8(4, 4):(4, 1)
    ) {
      block [x:2, y:2, xo = 3*x] (
          in I[x, y] i8(1, 1):(4, 1)
      ) {
        $I = load(I)
      }
    }"""
    plaidml = """0: block []:1 (
        in I[0, 0] i8:I(4, 4):(4, 1):16 B
    ) {
      0: block [x:2, y:2, xo = 3*x]:4 (
          in I[x, y] i8:I(1, 1):(4, 1):1 B, E(4, 4):16 B
      ) {
        0: $I = load(I)
      }
    }"""
    assert parse_stripe(compact) == parse_stripe(plaidml)


def test_lossless_fields_plaidml_dropped() -> None:
    text = """0: #program
block []:1 ( // root
    #user none new@0x00000040 A<SRAM[0]/BANK[1]>[0] fp16:I(8):(1):16 B
    none new@0x00000100 B = A[0] fp16:I(8):(1):16 B
    none new@0x00000080 C = C[0] fp16:I(8):(1):16 B
) {
  0: block<CORE[0]> [x:4 = 3, (#vec y:2)]:8 (
      -1 + x >= 0
      inout const A[x + 2*y]:max fp16:I(1):(1):2 B, E(8):16 B
  ) {
    0: $c = (fp16)0.1
    1: $i = (int)-3
    2: $f = (float)-inf
    3: $j = load_index(2 + x - y)
    4: ($a, $b) = max($c, $i)
    5[0, 4]: #hot A = store($a)
  }
  1: (A, B) = scatter(A, B, C) {axis=1, mode="nearest fill", shape=(2, 4)}
}
"""
    program = parse_stripe(text)
    printed = print_stripe(program)
    assert parse_stripe(printed) == program
    # PlaidML's layout puts statement tags on their own line, with a trailing space.
    assert printed == text.replace("0: #program\n", "0: #program \n").replace(
        "5[0, 4]: #hot A", "5[0, 4]: #hot \n    A"
    )
    root_refs = {r.into: r for r in program.refs}
    assert root_refs["A"].offset == 0x40 and root_refs["A"].from_ is None
    assert root_refs["C"].from_ == "C" and root_refs["C"].offset == 0x80
    inner = program.stmts[0]
    assert isinstance(inner, ir.Block)
    assert inner.idxs[0] == ir.Index("x", 4, ir.Affine.const_(3))
    assert inner.stmts[5].deps == (0, 4)


def test_statement_numbers_are_positions_and_deps_follow_them() -> None:
    program = parse_stripe("block []:1 (\n) {\n  4: $a = (int)1\n  9[4]: $b = neg($a)\n}\n")
    assert program.stmts[1].deps == (0,)
    assert "  0: $a = (int)1\n  1[0]: $b = neg($a)" in print_stripe(program)


def nested_blocks(levels: int) -> str:
    text = "block [] (\n    out O[0]:assign fp32(1):(1)\n) {\n"
    for _ in range(levels):
        text += "0: block [] (\n    out O[0]:assign fp32(1):(1)\n) {\n"
    return text + "0: $x = (float)1.0\n1: O = store($x)\n" + "}\n" * (levels + 1)


def test_deep_nesting_is_a_located_error_not_a_crash() -> None:
    """Stripe nested past the limits (blocks, or a sum of hundreds of affine terms) is the
    user's error at the block or expression, not a recursion error in a later stage."""
    parse_stripe(nested_blocks(60))
    with pytest.raises(CompileError, match=r"blocks nested too deeply \(more than 64 levels\)"):
        parse_stripe(nested_blocks(300), "deep.stripe")
    terms = " + ".join(["i"] * 1000)
    long_sum = (
        "block [] (\n    out O[0]:assign fp32(4):(1)\n) {\n  0: block [i:4] (\n      "
        f"{terms} >= 0\n      out O[i] fp32(1):(1)\n  ) {{\n    0: $x = (float)1.0\n"
        "    1: O = store($x)\n  }\n}\n"
    )
    with pytest.raises(CompileError, match="an expression nested too deeply"):
        parse_stripe(long_sum)


def test_bad_dependency_is_reported() -> None:
    with pytest.raises(CompileError, match="depends on 7, which is not an earlier statement"):
        parse_stripe("block []:1 (\n) {\n  0[7]: $a = (int)1\n}\n")
    twice = "block []:1 (\n) {\n  0: $a = (int)1\n  0: $b = (int)2\n  1[0]: $c = neg($a)\n}\n"
    with pytest.raises(CompileError, match="depends on 0, a number that two earlier statements"):
        parse_stripe(twice)
    assert len(parse_stripe(twice.replace("1[0]:", "1:")).stmts) == 3  # no dependency: fine


@pytest.mark.parametrize(
    ("text", "line", "col", "message"),
    [
        (
            "block []:1 (\n) {\n  0: $A = lod($B)\n}\n",
            3,
            11,
            "unknown statement or intrinsic 'lod'; did you mean 'load'?",
        ),
        (
            "block []:1 (\n  in A[0] fp32:I(2):(1):8 B\n) {\n  0: $A = neg(A)\n}\n",
            4,
            15,
            "intrinsic 'neg' takes scalars ($name), not the refinement 'A'",
        ),
        (
            "block []:1 (\n) {\n  0: block [i:2] (\n  ) {\n  }\n",
            5,
            4,
            "unexpected end of input (unbalanced braces",
        ),
        (
            "block []:1 (\n) {\n  0: $a = (int)1\n}\n}\n",
            5,
            1,
            "unexpected '}'; expected end of input",
        ),
        (
            "block []:1 (\n  in A[0, 0] fp32:I(2):(1):8 B\n) {\n}\n",
            2,
            6,
            "refinement 'A': 2 access dimensions but the shape has 1",
        ),
        ("block [i:2, i:3]:6 (\n) {\n}\n", 1, 13, "duplicate index 'i' in block"),
        (
            "block []:1 (\n  in A[i*i] fp32:I(2):(1):8 B\n) {\n}\n",
            2,
            8,
            "affine expressions may multiply an index only by a constant",
        ),
        (
            "block []:1 (\n  out A[0]:sum fp32:I(2):(1):8 B\n) {\n}\n",
            2,
            12,
            "unknown aggregation 'sum'",
        ),
        (
            "block []:1 (\n) {\n  0: O = reshap(I)\n}\n",
            3,
            10,
            "unknown statement or special 'reshap'; did you mean 'reshape'?",
        ),
        ("block []:1 (\n) {\n  0: $x = (quad)1\n}\n", 3, 12, "unknown constant type 'quad'"),
        (
            "block []:1 (\n  in A[0] fp33:I(2):(1):8 B\n) {\n}\n",
            2,
            11,
            "unexpected 'fp33'; expected ':', a data type",
        ),
    ],
)
def test_malformed_stripe_diagnostics(text: str, line: int, col: int, message: str) -> None:
    with pytest.raises(CompileError) as info:
        parse_stripe(text, "bad.stripe")
    (diag,) = info.value.diagnostics
    assert message in diag.message
    assert diag.span is not None
    assert (diag.span.file, diag.span.line, diag.span.col) == ("bad.stripe", line, col)
    rendered = diag.render(text)
    assert rendered.startswith(f"bad.stripe:{line}:{col}: error: ")
    assert rendered.splitlines()[-1] == " " * (col - 1) + "^"


def test_affine_and_byte_formatting() -> None:
    assert format_affine(ir.Affine.of({"x1": -1, "x1_0": -8}, 19)) == "19 - x1 - 8*x1_0"
    assert format_affine(ir.Affine.of({"x": -1, "i": 1})) == "i - x"
    assert format_affine(ir.Affine.of({"x": -3})) == "-3*x"
    assert format_affine(ir.Affine()) == "0"
    assert format_bytes(4) == "4 B"
    assert format_bytes(1056) == "1.03125 KiB"
    assert format_bytes(3 << 20) == "3 MiB"


ROUND_TRIPS = {
    # an index named like a refinement direction: its constraint gets an explicit `0 +`
    "keyword_index": """0: block [in:3, out:2]:6 (
    0 + in >= 0
    -in + out >= 0
    out O[0]:assign fp32:I(3):(1):12 B
) {
}""",
    # infinite floats in tags and special parameters; the strings "inf" and "nan" are quoted
    "infinities": """0: #a=-inf #b=inf #c="inf" #d="nan" #e=info
block []:1 (
    in A[0] fp32:I(3):(1):12 B
    out O[0]:assign fp32:I(3):(1):12 B
) {
  0: O = zero(A) {hi=inf, lo=-inf, s="nan"}
}""",
}


def test_a_compact_none_refinement_is_an_allocation_in_any_block() -> None:
    """`none T[0] fp32(1):(1)` (the paper's compact form, no `new@`) in a child block is a
    fresh buffer, as at the root; a `none` view of the parent's T spells its source."""
    text = COMPACT_NONE
    child = parse_stripe(text, "none.stripe").stmts[0]
    assert isinstance(child, ir.Block)
    t = child.ref("T")
    assert t is not None and t.from_ is None
    view = ir.Refinement(ir.RefDir.NONE, "T", "T", (ir.Affine(),), t.shape)
    line = print_stripe(ir.Block(refs=(view,)))
    assert "none T = T[0]" in line
    assert parse_stripe(line).refs == (view,)


COMPACT_NONE = """block [] (
    in A[0] fp32(2):(1)
    out O[0]:assign fp32(2):(1)
) {
  0: block [i:2] (
      in A[i] fp32(1):(1)
      out O[i] fp32(1):(1)
      none T[0] fp32(1):(1)
  ) {
    0: $a = load(A)
    1: T = store($a)
    2: $t = load(T)
    3: O = store($t)
  }
}
"""


@pytest.mark.parametrize("name", sorted(ROUND_TRIPS))
def test_printed_text_parses_back_to_the_same_ir(name: str) -> None:
    text = ROUND_TRIPS[name]
    program = parse_stripe(text, f"{name}.stripe")
    printed = "\n".join(line.rstrip() for line in print_stripe(program).splitlines())
    assert printed == text
    assert parse_stripe(print_stripe(program)) == program
    tags = dict(program.stmts[0].tags.items) if name == "infinities" else {}  # type: ignore[union-attr]
    if tags:
        assert tags["a"] == -math.inf and tags["b"] == math.inf
        assert tags["c"] == "inf" and tags["d"] == "nan" and tags["e"] == "info"


# ---- hypothesis: random IR round-trips ------------------------------------------------------

_KEYWORDS = {"in", "out", "inout", "none", "const", "block", "load", "store", "load_index", "E"}
_KEYWORDS |= {d.value for d in ir.DType}
_names = st.from_regex(r"[a-z][a-z0-9_]{0,4}", fullmatch=True).filter(lambda n: n not in _KEYWORDS)
_ref_names = st.from_regex(r"[A-Z][A-Za-z0-9_]{0,4}", fullmatch=True).filter(
    lambda n: n not in _KEYWORDS
)
_tag_values = st.one_of(
    st.none(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(st.characters(codec="ascii", exclude_categories=("Cc",)), max_size=6),
)
_comments = st.from_regex(r"[a-z]([ a-z0-9=+*]{0,9}[a-z0-9])?", fullmatch=True)
_tags = st.dictionaries(_names, _tag_values, max_size=3).map(lambda d: ir.Tags(tuple(d.items())))


def _affines(names: list[str]) -> st.SearchStrategy[ir.Affine]:
    terms = (
        st.lists(st.tuples(st.sampled_from(names), st.integers(-9, 9)), max_size=3)
        if names
        else st.just([])
    )
    return st.builds(lambda t, c: ir.Affine.of(t, c), terms, st.integers(-20, 20))


@st.composite
def _blocks(draw: st.DrawFn, depth: int = 0, parent_idxs: tuple[str, ...] = ()) -> ir.Block:
    idx_names = draw(st.lists(_names, unique=True, max_size=3))
    idxs = tuple(
        ir.Index(n, draw(st.integers(1, 9)), draw(_affines(list(parent_idxs))), draw(_tags))
        for n in idx_names
    )
    constraints = tuple(
        ir.Constraint(draw(_affines(idx_names))) for _ in range(draw(st.integers(0, 2)))
    )
    ref_names = draw(st.lists(_ref_names, unique=True, max_size=3))
    refs = []
    for name in ref_names:
        ndims = draw(st.integers(0, 3))
        loc = draw(
            st.one_of(
                st.none(),
                st.builds(
                    lambda units: ir.Location(tuple(units)),
                    st.lists(
                        st.builds(
                            lambda n, a: ir.LocUnit(n, tuple(a)),
                            _ref_names,
                            st.lists(_affines(idx_names), max_size=2),
                        ),
                        min_size=1,
                        max_size=2,
                    ),
                ),
            )
        )
        refs.append(
            ir.Refinement(
                dir=draw(st.sampled_from(list(ir.RefDir))),
                from_=draw(st.one_of(st.none(), _ref_names)),
                into=name,
                access=tuple(draw(_affines(idx_names)) for _ in range(ndims)),
                shape=ir.TensorShape(
                    draw(st.sampled_from(list(ir.DType))),
                    tuple(draw(st.integers(0, 9)) for _ in range(ndims)),
                    tuple(draw(st.integers(-9, 99)) for _ in range(ndims)),
                ),
                agg_op=draw(st.one_of(st.none(), st.sampled_from(ir.AGG_OPS))),
                location=loc,
                offset=draw(st.integers(0, 2**20)),
                is_const=draw(st.booleans()),
                tags=draw(_tags),
            )
        )
    stmts: list[ir.Statement] = []
    scalar = st.from_regex(r"\$[a-z][a-z0-9_]{0,3}", fullmatch=True)
    for _ in range(draw(st.integers(0, 4))):
        pos = len(stmts)  # deps may name only statements already generated
        deps = tuple(sorted(draw(st.sets(st.integers(0, pos - 1), max_size=2)))) if pos else ()
        common = {"deps": deps, "tags": draw(_tags)}
        kind = draw(
            st.sampled_from(["load", "store", "index", "const", "intr", "special", "block"])
        )
        if kind == "load":
            stmts.append(ir.Load(from_=draw(_ref_names), into=draw(scalar), **common))
        elif kind == "store":
            stmts.append(ir.Store(from_=draw(scalar), into=draw(_ref_names), **common))
        elif kind == "index":
            stmts.append(
                ir.LoadIndex(affine=draw(_affines(idx_names)), into=draw(scalar), **common)
            )
        elif kind == "const":
            ctype = draw(st.sampled_from(["int", "float", "fp16", "i8"]))
            value: int | float = (
                draw(st.floats(allow_nan=False, width=32))
                if ctype in ("float", "fp16")
                else draw(st.integers(-1000, 1000))
            )
            stmts.append(ir.Constant(name=draw(scalar), value=value, type=ctype, **common))
        elif kind == "intr":
            stmts.append(
                ir.Intrinsic(
                    name=draw(st.sampled_from(sorted(ir.INTRINSICS))),
                    inputs=tuple(draw(st.lists(scalar, max_size=3))),
                    outputs=tuple(draw(st.lists(scalar, min_size=1, max_size=2))),
                    **common,
                )
            )
        elif kind == "special":
            stmts.append(
                ir.Special(
                    name=draw(st.sampled_from(sorted(ir.SPECIALS))),
                    inputs=tuple(draw(st.lists(_ref_names, max_size=2))),
                    outputs=tuple(draw(st.lists(_ref_names, min_size=1, max_size=2))),
                    params=tuple(
                        draw(
                            st.dictionaries(
                                _names,
                                st.one_of(
                                    st.integers(-99, 99),
                                    st.text(
                                        st.characters(codec="ascii", exclude_categories=("Cc",)),
                                        max_size=4,
                                    ),
                                    st.lists(st.integers(0, 9), max_size=3).map(tuple),
                                ),
                                max_size=2,
                            )
                        ).items()
                    ),
                    **common,
                )
            )
        elif depth < 2:
            child = draw(_blocks(depth + 1, tuple(idx_names)))
            stmts.append(ir.Block(**{**child.__dict__, **common}))
    return ir.Block(
        name=draw(st.one_of(st.just(""), _names)),
        comments=tuple(draw(st.lists(_comments, max_size=2))),
        idxs=idxs,
        constraints=constraints,
        refs=tuple(refs),
        stmts=tuple(stmts),
        location=None,
        tags=draw(_tags),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_blocks())
def test_random_ir_round_trips(program: ir.Block) -> None:
    text = print_stripe(program)
    parsed = parse_stripe(text)
    assert parsed == program
    assert print_stripe(parsed) == text
