"""`autotile` and its parts: the tiling mechanics (`tile_block`), the isl tile extents, the cost
models and the search, and the Stripe paper's Figures 4 and 5 as the acceptance example."""

from __future__ import annotations

import dataclasses
import itertools
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from plaidc import driver
from plaidc.analysis.tiles import tile_extent
from plaidc.passes import PassOptionError, get_pass, make_options
from plaidc.passes.autotile import AutotileOptions, autotile, autotile_candidates
from plaidc.passes.autotile_cost import Candidate, _Model, memory_io, search_tiles
from plaidc.passes.tiling import TilingError, tile_block
from plaidc.stripe.ir import Affine, Block, Constraint, Index, LoadIndex
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe
from plaidc.stripe.verify import verify
from plaidc.targets import load_target
from plaidc.tile import compile_tile

from .support import EXAMPLES, REFERENCE
from .support import passes_differential as differential

BIN = Path(sys.executable).parent
FIG5A = EXAMPLES / "fig5a.stripe"
FIG5B = EXAMPLES / "fig5b.stripe"
# The paper's hypothetical model (PASSES.md "Acceptance example").
PAPER = (
    "autotile{reqs=[all],idxs=[x,y],cost_model=lines_per_output,ignore_refs=[F],"
    "cache_width=8,max_total_size=512}"
)
PAPER_OPTS = AutotileOptions(
    reqs=("all",),
    idxs=("x", "y"),
    cost_model="lines_per_output",
    ignore_refs=("F",),
    cache_width=8,
    max_total_size=512,
)
CPU_OPTS = AutotileOptions(
    outer_set=("contract_outer", "kernel", "cpu_thread"),
    inner_set=("contract_inner",),
    only_po2=True,
    max_total_size=32768,
    cache_width=64,
)


def load(path: Path) -> Block:
    return parse_stripe(path.read_text(), str(path))


def kernel(program: Block) -> Block:
    """The first block with indices, depth first."""
    for stmt in program.stmts:
        if isinstance(stmt, Block):
            if stmt.idxs:
                return stmt
            return kernel(stmt)
    raise AssertionError("no kernel")


def with_kernel(program: Block, new: Block) -> Block:
    """`program` (root -> ... -> first kernel, one child per level) with the kernel replaced."""
    stmts = list(program.stmts)
    for k, stmt in enumerate(stmts):
        if isinstance(stmt, Block):
            stmts[k] = new if stmt.idxs else with_kernel(stmt, new)
            return dataclasses.replace(program, stmts=tuple(stmts))
    raise AssertionError("no kernel")


def assert_same_meaning(before: Block, after: Block) -> None:
    problems = verify(after)
    assert not problems, problems[0].render()
    mismatches = driver.check_equivalent(before, after, seed=7)
    assert not mismatches, mismatches[0].message


def candidates_by_xy(cands: list[Candidate]) -> dict[tuple[int, int], Candidate]:
    return {(c.tile["x"], c.tile["y"]): c for c in cands}


# --------------------------------------------------------------------------------------------
# The paper's Figures 4 and 5


def test_figure4_costs_and_exclusions() -> None:
    cands = candidates_by_xy(autotile_candidates(kernel(load(FIG5A)), PAPER_OPTS))
    assert len(cands) == 12 * 16
    assert cands[3, 4].cost == pytest.approx(4.5)  # Figure 4b
    assert (cands[3, 4].in_lines, cands[3, 4].out_lines) == (30, 24)
    assert cands[6, 2].cost == pytest.approx(14 / 3)  # Figure 4a: 4.666...
    # 4x3: ceil(16/3) = 6 column tiles, the overflow row counts: 18 * 54 / 192.
    assert cands[4, 3].cost == pytest.approx(5.0625)
    assert cands[4, 3].tiles == 18
    for xy, total in (((4, 4), 544), ((3, 8), 784)):  # Figure 4c: over the 512-element cap
        assert cands[xy].cost is None
        assert cands[xy].excluded == f"total {total} B > max_total_size 512 B"
    costs = {xy: c.cost for xy, c in cands.items() if c.cost is not None}
    assert [xy for xy, cost in costs.items() if cost <= 4.5 + 1e-9] == [(3, 4)]  # unique min


def test_figure5a_becomes_figure5b() -> None:
    source = load(FIG5A)
    result = autotile(source, PAPER_OPTS)
    expected = load(FIG5B)
    # Identical IR below the root (the roots differ only in their transcription comments).
    assert result.stmts == expected.stmts
    assert print_stripe(kernel(result)) == print_stripe(kernel(expected))
    assert_same_meaning(source, result)


def test_figure5_through_the_cli() -> None:
    cmd = [str(BIN / "plaidc-opt"), str(FIG5A), "--pass", PAPER, "--check"]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "check: outputs match the interpreter"  # no pass chatter
    tiled = parse_stripe(done.stdout, "<stdout>")
    assert tiled.stmts == load(FIG5B).stmts


def test_verbose_reports_candidates_on_stderr() -> None:
    spec = PAPER[:-1] + ",verbose=true}"
    cmd = [str(BIN / "plaidc-opt"), str(FIG5A), "--pass", spec]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert any(line.split()[:4] == ["x=3", "y=4", "cost", "4.5"] for line in lines)
    assert any(line.split()[:4] == ["x=6", "y=2", "cost", "4.66667"] for line in lines)
    assert "  x=4 y=4                  excluded: total 544 B > max_total_size 512 B" in lines
    assert lines[-1] == "autotile: chose x=3 y=4 (cost 4.5, 16 tiles, 432 B)"
    assert load(FIG5B).stmts == parse_stripe(done.stdout, "<stdout>").stmts


# --------------------------------------------------------------------------------------------
# Tiling mechanics


def test_uneven_split_bounds_the_last_tile() -> None:
    source = load(FIG5A)
    conv = kernel(source)
    outer = tile_block(conv, {"x": 5, "k": 6}, ancestors=(source,))
    inner = outer.stmts[0]
    assert isinstance(inner, Block)
    assert [(i.name, i.range) for i in outer.idxs if i.range > 1] == [("x", 3), ("k", 3)]
    assert Index("xo", 1, Affine.var("x", 5)) in inner.idxs
    assert Index("ko", 1, Affine.var("k", 6)) in inner.idxs
    assert Constraint(Affine.of({"x": -1, "xo": -1}, 11)) in inner.constraints
    assert Constraint(Affine.of({"k": -1, "ko": -1}, 15)) in inner.constraints
    # The original constraints read the full index through the passthrough.
    assert Constraint(Affine.of({"x": 1, "xo": 1, "i": 1}, -1)) in inner.constraints
    assert_same_meaning(source, with_kernel(source, outer))


def test_halo_views_and_relative_inner_accesses() -> None:
    source = load(FIG5A)
    outer = tile_block(kernel(source), {"x": 4, "y": 8, "c": 2}, ancestors=(source,))
    views = {r.into: r for r in outer.refs}
    assert [str(a) for a in views["I"].access] == ["-1 + 4*x", "-1 + 8*y", "2*c"]
    assert views["I"].shape.sizes == (6, 10, 2)  # halo of the 3x3 window
    assert views["O"].shape.sizes == (4, 8, 16)
    assert views["O"].agg_op == "add"
    inner = outer.stmts[0]
    assert isinstance(inner, Block)
    inner_i = inner.ref("I")
    assert inner_i is not None and inner_i.from_ == "I"
    assert [str(a) for a in inner_i.access] == ["i + x", "j + y", "c"]
    assert_same_meaning(source, with_kernel(source, outer))


FLIP = """block []:1 (
    in A[0, 0] fp32:I(6, 7):(7, 1):168 B
    out O[0, 0] fp32:I(6, 4):(4, 1):96 B
) {
  0: block [i:6, j:4]:24 (
      in A[5 - i, 6 - 2*j] fp32:I(1, 1):(7, 1):4 B
      out O[i, j]:assign fp32:I(1, 1):(4, 1):4 B
  ) {
    0: $a = load(A)
    1: $i = load_index(i + 2*j)
    2: $b = add($a, $i)
    3: O = store($b)
  }
}
"""


def test_negative_and_strided_accesses_and_load_index() -> None:
    source = parse_stripe(FLIP.replace("6 - 2*j", "3 - j"), "flip")
    outer = tile_block(kernel(source), {"i": 4, "j": 3}, ancestors=(source,))
    view = outer.ref("A")
    assert view is not None
    # The tile view starts at the lowest element the tile reaches: 5 - (4*i + 3).
    assert [str(a) for a in view.access] == ["2 - 4*i", "1 - 3*j"]
    inner = outer.stmts[0]
    assert isinstance(inner, Block)
    inner_a = inner.ref("A")
    assert inner_a is not None and [str(a) for a in inner_a.access] == ["3 - i", "2 - j"]
    load_index = inner.stmts[1]
    assert isinstance(load_index, LoadIndex)
    assert load_index.affine == Affine.of({"i": 1, "io": 1, "j": 2, "jo": 2})
    assert_same_meaning(source, with_kernel(source, outer))


@pytest.mark.parametrize("sizes", [{"i": 4, "j": 3}, {"i": 1}, {"j": 2}, {"i": 6, "j": 4}])
def test_tilings_keep_meaning(sizes: dict[str, int]) -> None:
    source = parse_stripe(FLIP, "flip")
    outer = tile_block(kernel(source), sizes, ancestors=(source,))
    assert_same_meaning(source, with_kernel(source, outer))


def test_nested_tiling_of_a_tiled_block() -> None:
    source = load(FIG5A)
    once = with_kernel(source, tile_block(kernel(source), {"x": 5, "y": 7}, ancestors=(source,)))
    inner = kernel(once).stmts[0]
    assert isinstance(inner, Block)
    again = tile_block(inner, {"x": 2, "k": 5}, ancestors=(once, kernel(once)))
    twice = with_kernel(once, dataclasses.replace(kernel(once), stmts=(again,)))
    assert_same_meaning(source, twice)


def test_tags_and_names() -> None:
    source = load(FIG5A)
    conv = dataclasses.replace(kernel(source), name="conv", tags=kernel(source).tags.add("k"))
    outer = tile_block(conv, {"x": 3}, outer_tags=("o",), inner_tags=("in",))
    inner = outer.stmts[0]
    assert isinstance(inner, Block)
    assert (list(outer.tags), list(inner.tags)) == (["k", "o"], ["in"])
    assert inner.name == outer.name == "conv"
    copied = tile_block(conv, {"x": 3}, copy_tags=True, clear_outer=True, outer_tags=("o",))
    assert list(copied.tags) == ["o"]
    assert isinstance(copied.stmts[0], Block) and list(copied.stmts[0].tags) == ["k"]


def test_tiling_errors() -> None:
    conv = kernel(load(FIG5A))
    with pytest.raises(TilingError, match="no index 'z'"):
        tile_block(conv, {"z": 2})
    with pytest.raises(TilingError, match=r"not in \[1, 12\]"):
        tile_block(conv, {"x": 13})


def test_tile_extent_is_affine_in_the_tile_sizes() -> None:
    source = parse_stripe(FLIP, "flip")
    ref = kernel(source).ref("A")
    assert ref is not None
    extent = tile_extent(ref, ["i", "j"])
    assert [str(d) for d in extent.dims] == ["i", "-1 + 2*j"]
    assert [str(o) for o in extent.origin] == ["6 - i", "8 - 2*j"]
    assert extent.sizes({"i": 3, "j": 2}) == (3, 3)


# --------------------------------------------------------------------------------------------
# Cost model and search


def test_memory_io_counts_contiguous_runs() -> None:
    assert memory_io((5, 6, 8), (128, 8, 1), 1, 8) == 30  # Figure 4b's input tile
    assert memory_io((3, 4, 16), (256, 16, 1), 1, 8) == 24
    assert memory_io((5, 6, 8), (128, 8, 1), 1, 0) == 240  # no cache width: elements
    assert memory_io((4, 3), (1, 100), 4, 64) == 3  # a 16-byte run per column
    assert memory_io((4,), (2,), 4, 64) == 1  # gaps inside one line
    assert memory_io((2, 1), (1000, 1), 4, 16) == 2


def test_acc_idxs_false_keeps_accumulation_whole() -> None:
    conv = kernel(load(FIG5A))
    opts = dataclasses.replace(PAPER_OPTS, idxs=(), acc_idxs=False)
    result = search_tiles(conv, opts)
    assert result.searched == ("x", "y", "k")
    assert result.best is not None
    assert {n: result.best.tile[n] for n in "ijc"} == {"i": 3, "j": 3, "c": 8}
    with_acc = search_tiles(conv, dataclasses.replace(opts, acc_idxs=True))
    assert with_acc.searched == ("x", "y", "i", "j", "c", "k")


def test_out_idxs_false_splits_only_the_accumulation() -> None:
    """The complement of acc_idxs: K steps of a GEMM tile (the output indices stay whole)."""
    conv = kernel(load(FIG5A))
    opts = dataclasses.replace(PAPER_OPTS, idxs=(), out_idxs=False, max_total_size=0)
    result = search_tiles(conv, dataclasses.replace(opts, max_input_size=400))
    assert result.searched == ("i", "j", "c")
    assert result.best is not None
    assert {n: result.best.tile[n] for n in ("x", "y", "k")} == {"x": 12, "y": 16, "k": 16}
    assert result.best.input_bytes <= 400 < result.best.input_bytes * 3
    neither = dataclasses.replace(opts, acc_idxs=False)
    assert search_tiles(conv, neither).searched == ()


def test_iterations_footprint_counts_the_points_each_input_is_read_at() -> None:
    """`footprint = "iterations"`: an input's bytes are the points of the indices its access
    uses (x, y, i, j, c for I: the img2col matrix a GEMM unit reads), not its window (x + 2
    by y + 2 by c with the halo). The cost model's cache lines stay the views'."""
    conv = kernel(load(FIG5A))
    opts = dataclasses.replace(PAPER_OPTS, idxs=(), ignore_refs=(), max_total_size=0)
    tile = {"x": 3, "y": 4, "i": 3, "j": 3, "c": 8, "k": 2}
    sizes = tuple(tile[i.name] for i in conv.idxs)
    view = _Model(conv, opts).evaluate(sizes)
    points = _Model(conv, dataclasses.replace(opts, footprint="iterations")).evaluate(sizes)
    window, filters = 5 * 6 * 8, 3 * 3 * 2 * 8  # i8: a byte an element
    assert view.input_bytes == window + filters
    assert points.input_bytes == 3 * 4 * 3 * 3 * 8 + filters
    assert points.output_bytes == view.output_bytes == 3 * 4 * 2
    assert (points.in_lines, points.out_lines) == (view.in_lines, view.out_lines)


def test_max_each_input_size_bounds_every_input_on_its_own() -> None:
    """Operands that go to separate buffers (the Cube's L0A and L0B): each within the budget,
    whatever their sum; the vectorised search and the scalar model agree."""
    conv = kernel(load(FIG5A))
    opts = dataclasses.replace(
        PAPER_OPTS,
        idxs=(),
        ignore_refs=(),
        max_total_size=0,
        footprint="iterations",
        max_each_input_size=400,
    )
    model = _Model(conv, opts)
    rows = [(3, 4, 3, 3, 8, 2), (2, 2, 3, 3, 8, 2), (1, 1, 3, 3, 8, 16)]
    cands = [model.evaluate(row) for row in rows]
    assert cands[0].excluded == "each_input 864 B > max_each_input_size 400 B"  # I
    assert cands[1].excluded is None and cands[1].input_bytes == 288 + 144 > 400
    assert cands[2].excluded == "each_input 1152 B > max_each_input_size 400 B"  # F
    costs = model.costs(np.array(rows))
    assert [bool(np.isfinite(c)) for c in costs] == [False, True, False]


def test_only_po2_and_only_even_candidates() -> None:
    conv = kernel(load(FIG5A))
    po2 = autotile_candidates(conv, dataclasses.replace(PAPER_OPTS, only_po2=True))
    assert sorted({c.tile["x"] for c in po2}) == [1, 2, 4, 8, 12]
    assert sorted({c.tile["y"] for c in po2}) == [1, 2, 4, 8, 16]
    even = autotile_candidates(conv, dataclasses.replace(PAPER_OPTS, only_even=True))
    assert sorted({c.tile["x"] for c in even}) == [1, 2, 3, 4, 6, 12]


def test_budget_exclusions_and_no_fit() -> None:
    conv = kernel(load(FIG5A))
    tight = dataclasses.replace(PAPER_OPTS, max_total_size=0, max_input_size=100)
    cands = candidates_by_xy(autotile_candidates(conv, tight))
    assert cands[3, 4].excluded == "input 240 B > max_input_size 100 B"
    outs = dataclasses.replace(PAPER_OPTS, max_total_size=0, max_output_size=64)
    assert candidates_by_xy(autotile_candidates(conv, outs))[2, 2].excluded is None
    assert candidates_by_xy(autotile_candidates(conv, outs))[2, 3].excluded == (
        "output 96 B > max_output_size 64 B"
    )
    source = load(FIG5A)
    nothing_fits = dataclasses.replace(PAPER_OPTS, ignore_refs=())  # F alone is 1152 B
    assert autotile(source, nothing_fits) is source


def test_ties_prefer_fewer_tiles_then_smaller_sizes() -> None:
    cands = autotile_candidates(kernel(load(FIG5A)), PAPER_OPTS)
    ranked = sorted((c for c in cands if c.cost is not None), key=Candidate.key)
    fives = [(c.tile["x"], c.tile["y"], c.tiles) for c in ranked if c.cost == pytest.approx(5)]
    assert fives[:2] == [(2, 4, 24), (4, 2, 24)]


def test_density_model_formula() -> None:
    conv = kernel(load(FIG5A))
    opts = AutotileOptions(reqs=("all",), cache_width=8, max_total_size=4096, min_out_count=4)
    model = _Model(conv, opts)
    cand = model.evaluate((3, 4, 3, 3, 8, 16))
    # 16 tiles (all output tiles, >= min_out_count): no inefficiency penalty.
    ins, outs = cand.in_lines, cand.out_lines
    expected = (1 + ins + outs) / (3 * 4 * 3 * 3 * 8 * 16) + 0.001 * math.log2(16)
    assert cand.cost == pytest.approx(expected)
    few = model.evaluate((6, 16, 3, 3, 8, 16))  # 2 tiles: penalised by min_out_count / 2
    expected = 2 * (1 + few.in_lines + few.out_lines) / (6 * 16 * 1152) + 0.001 * math.log2(2)
    assert few.cost == pytest.approx(expected)


def test_vectorised_model_matches_the_scalar_one() -> None:
    programs = [load(FIG5A), load(REFERENCE / "conv_bias_relu" / "stripe" / "00_initial.stripe")]
    optsets = [
        PAPER_OPTS,
        AutotileOptions(cache_width=64, max_total_size=300, min_out_count=4, min_size=8),
        AutotileOptions(cost_model="lines_per_output", cache_width=16, max_output_size=100),
        AutotileOptions(
            cost_model="lines_per_output",
            cache_width=16,
            max_output_size=100,
            resident_bytes=600,
            resident_cost=0.1,
            output_cost=2.0,
        ),
        AutotileOptions(cache_width=64, max_total_size=300, only_po2=True, threads=2),
        AutotileOptions(cost_model="lines_per_output", cache_width=16, threads=3),
    ]
    for program, opts in itertools.product(programs, optsets):
        model = _Model(kernel(program), opts)
        rows = list(itertools.islice(itertools.product(*model.choices), 2000))
        costs = model.costs(np.array(rows, dtype=np.int64))
        for row, vec in zip(rows, costs, strict=True):
            cost = model.evaluate(row).cost
            assert (vec == math.inf) if cost is None else vec == pytest.approx(cost, rel=1e-12)


def test_resident_operands_cost_less_per_line() -> None:
    """`resident_bytes`: a refinement whose view over the whole block fits (Figure 5a's
    3x3x8x16 filter F, 1152 B of i8) costs `resident_cost` per line; the image (14x18x8 with
    its halo) and the output (12x16x16) do not fit and cost full lines. With resident_cost 1
    the model is the plain one."""
    conv = kernel(load(FIG5A))
    base = dataclasses.replace(PAPER_OPTS, idxs=(), ignore_refs=(), max_total_size=0)
    sizes = (3, 4, 3, 3, 8, 2)
    plain = _Model(conv, base).evaluate(sizes)
    same = _Model(conv, dataclasses.replace(base, resident_bytes=1152)).evaluate(sizes)
    assert same.cost == pytest.approx(plain.cost)
    cheap = dataclasses.replace(base, resident_bytes=1152, resident_cost=0.25)
    model = _Model(conv, cheap)
    got = model.evaluate(sizes)
    f_lines = next(m for m in model.refs if m.ref.into == "F").lines(
        next(m for m in model.refs if m.ref.into == "F").sizes(sizes), cheap.cache_width
    )
    saved = 0.75 * f_lines * cheap.input_cost * plain.tiles / model.outputs
    assert plain.cost is not None and got.cost == pytest.approx(plain.cost - saved)
    assert _Model(conv, dataclasses.replace(cheap, resident_bytes=1151)).evaluate(
        sizes
    ).cost == pytest.approx(plain.cost)


def test_best_first_search_is_bounded_and_deterministic() -> None:
    source = load(FIG5A)
    opts = dataclasses.replace(PAPER_OPTS, max_exhaustive=1, max_evals=40)
    first = search_tiles(kernel(source), opts)
    assert not first.exhaustive and len(first.candidates) == 40
    assert first == search_tiles(kernel(source), opts)
    assert first.best is not None and first.best.total_bytes <= 512
    assert_same_meaning(source, autotile(source, opts))


def test_best_first_from_a_coarse_lattice_finds_figure4b() -> None:
    # 192 candidates > 50: the 5x5 powers-of-two lattice is searched, then refined locally.
    opts = dataclasses.replace(PAPER_OPTS, max_exhaustive=50, max_evals=30)
    result = search_tiles(kernel(load(FIG5A)), opts)
    assert not result.exhaustive and len(result.candidates) == 30
    assert result.best is not None and (result.best.tile["x"], result.best.tile["y"]) == (3, 4)


def test_option_errors_are_clear() -> None:
    info = get_pass("autotile")
    with pytest.raises(PassOptionError, match="option 'cost_model': expected \"density\" or"):
        make_options(info, {"cost_model": "fast"})
    with pytest.raises(PassOptionError, match="option 'max_total_size': expected an integer"):
        make_options(info, {"max_total_size": "x"})
    with pytest.raises(PassOptionError, match='option \'footprint\': expected "view" or "iter'):
        make_options(info, {"footprint": "img2col"})
    with pytest.raises(PassOptionError, match="'max_each_input_size': expected an integer >= 0"):
        make_options(info, {"max_each_input_size": -1})


def test_elide_trivial() -> None:
    source = load(FIG5A)
    roomy = dataclasses.replace(PAPER_OPTS, max_total_size=0)  # the whole image fits
    assert autotile(source, dataclasses.replace(roomy, elide_trivial=True)) is source
    whole = kernel(autotile(source, roomy))
    assert all(i.range == 1 for i in whole.idxs)


# --------------------------------------------------------------------------------------------
# PlaidML's CPU pipeline


def test_cpu_like_tiling_of_plaidml_matmul_matches_plaidml() -> None:
    source = load(REFERENCE / "matmul" / "stripe" / "00_initial.stripe")
    result = autotile(source, CPU_OPTS)
    outer = kernel(result)
    assert {"cpu_thread", "contract_outer", "kernel", "contraction"} <= set(outer.tags)
    inner = outer.stmts[0]
    assert isinstance(inner, Block) and list(inner.tags) == ["contract_inner"]
    # PlaidML 0.7 split m in two (12_tile_contract): 32x48, 48x80 and 32x80 fp32 views.
    assert [(i.name, i.range) for i in outer.idxs] == [("k", 1), ("m", 2), ("n", 1)]
    assert [r.shape.sizes for r in outer.refs] == [(32, 48), (48, 80), (32, 80)]
    assert sum(r.shape.byte_size for r in outer.refs) <= CPU_OPTS.max_total_size
    assert_same_meaning(source, result)


def test_cpu_like_tiling_of_plaidml_conv_fits_the_budget() -> None:
    source = load(REFERENCE / "conv_bias_relu" / "stripe" / "00_initial.stripe")
    opts = dataclasses.replace(CPU_OPTS, max_total_size=8192)
    result = autotile(source, opts)
    outer = kernel(result)
    assert "cpu_thread" in outer.tags and outer.count > 1
    inner = outer.stmts[0]
    assert isinstance(inner, Block) and "contract_inner" in inner.tags
    assert sum(r.shape.byte_size for r in outer.refs) <= 8192
    assert_same_meaning(source, result)


# --------------------------------------------------------------------------------------------
# Every example program, with options that split hard (the differential suite runs defaults)

SMALL = AutotileOptions(reqs=("all",), max_total_size=160, cache_width=16, split_factor=0.0)


def _blocks(block: Block, path: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for k, stmt in enumerate(block.stmts):
        if isinstance(stmt, Block):
            if stmt.idxs:
                out.append((*path, k))
            out.extend(_blocks(stmt, (*path, k)))
    return out


def _retile(block: Block, path: tuple[int, ...], ancestors: tuple[Block, ...], seed: int) -> Block:
    if not path:
        rng = np.random.default_rng(seed)
        sizes = {
            i.name: int(rng.integers(1, i.range + 1))
            for i in block.idxs
            if i.affine.is_zero and i.range > 1 and rng.random() < 0.7
        }
        return tile_block(block, sizes, outer_tags=("o",), inner_tags=("i",), ancestors=ancestors)
    stmts = list(block.stmts)
    child = stmts[path[0]]
    assert isinstance(child, Block)
    stmts[path[0]] = _retile(child, path[1:], (*ancestors, block), seed)
    return dataclasses.replace(block, stmts=tuple(stmts))


@pytest.mark.parametrize("program_id", differential.PROGRAMS)
def test_hard_tilings_keep_meaning(program_id: str) -> None:
    program = differential.load(program_id)
    assert_same_meaning(program, autotile(program, SMALL))
    paths = _blocks(program)
    if paths:
        seed = sum(map(ord, program_id))
        path = paths[seed % len(paths)]
        assert_same_meaning(program, _retile(program, path, (), seed))


def test_windows_false_leaves_poolings_and_convolutions_untiled() -> None:
    """`windows=false` skips blocks whose input slides a window (Figure 5a's convolution, a
    max pool); a row reduction (`X[i, j]` over `j`) and a GEMM read no window and are tiled."""
    from plaidc.passes.autotile import slides_window
    from plaidc.tile import compile_tile

    pool = """function (I[1, 9, 9, 5]) -> (O) {
      O[n, y, x, c : 1, 4, 4, 5] = >(I[n, 2 * y + k0, 2 * x + k1, c]), k0 < 3, k1 < 3;
    }"""
    rows = "function (X[64, 300]) -> (M) { M[i : 64] = >(X[i, j]); }"
    matmul = "function (A[64, 32], B[32, 48]) -> (C) { C[i, j : 64, 48] = +(A[i, k] * B[k, j]); }"
    blocks = {
        name: kernel(compile_tile(text, f"{name}.tile").program)
        for name, text in (("pool", pool), ("rows", rows), ("matmul", matmul))
    }
    blocks["conv"] = kernel(load(FIG5A))
    assert {name: slides_window(b) for name, b in blocks.items()} == {
        "pool": True, "rows": False, "matmul": False, "conv": True,
    }  # fmt: skip
    opts = dataclasses.replace(CPU_OPTS, reqs=("contraction",), windows=False, max_total_size=256)
    pooled = compile_tile(pool, "pool.tile").program
    assert autotile(pooled, opts) == pooled
    assert autotile(pooled, dataclasses.replace(opts, windows=True)) != pooled
    reduced = compile_tile(rows, "rows.tile").program
    assert autotile(reduced, opts) != reduced


def test_threads_multiply_the_cost_by_the_busiest_threads_share() -> None:
    """Figure 5a's conv (x:12, y:16 and k:16 address the output): on 2 threads the output
    index with the most tiles is split over them in contiguous runs, and the cost is the
    single-thread cost times the busiest thread's work over an even share."""
    conv = kernel(load(FIG5A))
    opts = dataclasses.replace(PAPER_OPTS, idxs=(), max_total_size=0)
    plain = _Model(conv, opts)
    two = _Model(conv, dataclasses.replace(opts, threads=2))
    # (x, y, i, j, c, k): x in tiles 8 + 4 (one thread gets 8 rows of 12: 4/3); x in 4 + 4 +
    # 4 (8 of 12 on one: 4/3); x in 3 x 4 tiles (even); x whole and y in 4 tiles (even);
    # one tile (the code inside picks its threads: 1); x in 6 + 6 and y in 8 + 8 (even).
    for sizes, share in [
        ((8, 16, 3, 3, 8, 16), 4 / 3),
        ((4, 16, 3, 3, 8, 16), 4 / 3),
        ((3, 16, 3, 3, 8, 16), 1.0),
        ((12, 4, 3, 3, 8, 16), 1.0),
        ((12, 16, 3, 3, 8, 16), 1.0),
        ((6, 8, 3, 3, 8, 16), 1.0),
        ((12, 16, 3, 3, 8, 4), 1.0),
        ((12, 16, 3, 3, 8, 12), 2 * 12 / 16),
    ]:
        want, got = plain.evaluate(sizes).cost, two.evaluate(sizes).cost
        assert want is not None and got == pytest.approx(want * share), sizes
    # a share within thread_slack of even counts as even
    loose = _Model(conv, dataclasses.replace(opts, threads=2, thread_slack=0.4))
    assert loose.evaluate((8, 16, 3, 3, 8, 16)).cost == pytest.approx(
        plain.evaluate((8, 16, 3, 3, 8, 16)).cost
    )
    assert loose.evaluate((12, 16, 3, 3, 8, 12)).cost == pytest.approx(
        plain.evaluate((12, 16, 3, 3, 8, 12)).cost * 1.5
    )
    # the accumulation index c never runs on threads: its tiles do not count
    assert two.evaluate((12, 16, 3, 3, 2, 16)).cost == pytest.approx(
        plain.evaluate((12, 16, 3, 3, 2, 16)).cost
    )


def test_threads_add_even_splits_of_output_indices() -> None:
    conv = kernel(load(FIG5A))
    opts = dataclasses.replace(PAPER_OPTS, idxs=(), only_po2=True, threads=2)
    model = _Model(conv, opts)
    names = [i.name for i in conv.idxs]
    choices = dict(zip(names, model.choices, strict=True))
    assert list(choices["x"]) == [1, 2, 3, 4, 6, 8, 12]  # 12 / 2, 12 / 4, 12 / 8 added
    assert list(choices["c"]) == [1, 2, 4, 8]  # accumulation: powers of two only
    three = _Model(conv, dataclasses.replace(opts, threads=3))
    assert list(dict(zip(names, three.choices, strict=True))["y"]) == [1, 2, 3, 4, 6, 8, 16]


def test_min_run_bytes_keeps_contiguous_runs() -> None:
    """Figure 5a's conv (i8): `c` alone addresses the contiguous dimension of I and of F, `k`
    that of O; with runs of at least 4 bytes their sizes below 4 go (the whole range stays),
    and the other indices keep theirs."""
    conv = kernel(load(FIG5A))
    opts = dataclasses.replace(PAPER_OPTS, idxs=(), only_po2=True)
    names = [i.name for i in conv.idxs]
    every = dict(zip(names, _Model(conv, opts).choices, strict=True))
    runs = dict(
        zip(names, _Model(conv, dataclasses.replace(opts, min_run_bytes=4)).choices, strict=True)
    )
    assert list(runs["c"]) == [4, 8] and list(runs["k"]) == [4, 8, 16]
    assert all(list(runs[n]) == list(every[n]) for n in ("x", "y", "i", "j"))
    wide = dict(
        zip(names, _Model(conv, dataclasses.replace(opts, min_run_bytes=64)).choices, strict=True)
    )
    assert list(wide["c"]) == [8] and list(wide["k"]) == [16]  # the whole range
    # every size (a lazy range of 1..range): the sizes from the run's length up
    every_size = _Model(conv, dataclasses.replace(opts, only_po2=False, min_run_bytes=4))
    assert list(dict(zip(names, every_size.choices, strict=True))["c"]) == [4, 5, 6, 7, 8]


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_cpu_configs_tile_a_pooling_in_whole_pixels(target: str) -> None:
    """A channels-last 3x3/2 max pool of 64 channels: its tiles keep every pixel's 64 channels
    (256 bytes) together; by cache lines alone they had 16 (one line of each pixel)."""
    source = """function (I[1, 112, 112, 64]) -> (O) {
      O[n, x0, x1, c : 1, 56, 56, 64] = >(I[n, 2 * x0 + k0 - 1, 2 * x1 + k1 - 1, c]),
          k0 < 3, k1 < 3;
    }"""
    program = compile_tile(source, "pool.tile").program
    config = load_target(target)
    tiled = driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))
    inner = [b for b in _every_block(tiled) if b.tags.has_any(["contract_inner"])]
    assert inner and all({i.name: i.range for i in b.idxs}["c"] == 64 for b in inner)


def _every_block(block: Block) -> list[Block]:
    out = [block]
    for stmt in block.stmts:
        if isinstance(stmt, Block):
            out += _every_block(stmt)
    return out


def test_threads_balance_the_benchmark_convolution() -> None:
    """conv 3x3 56x56x64->64 with the CPU configs' budget (512 KiB): alone its best tile has 8
    of the 56 output rows (7 tiles: 4 on one thread, 3 on the other); on 2 threads the chosen
    tiles spread evenly and cost less than that tile with its 8/7."""
    path = EXAMPLES / "conv2d_bias_relu.tile"
    dims = {"N": 1, "H": 58, "W": 58, "CI": 64, "KH": 3, "KW": 3, "CO": 64}
    from plaidc.tile import compile_tile

    conv = kernel(compile_tile(path.read_text(), str(path), dims=dims).program)
    opts = AutotileOptions(only_po2=True, max_total_size=524288, cache_width=64)
    alone = search_tiles(conv, opts).best
    assert alone is not None and alone.tiles == 7
    two = search_tiles(conv, dataclasses.replace(opts, threads=2)).best
    assert two is not None and two.cost is not None
    model = _Model(conv, dataclasses.replace(opts, threads=2))
    assert model.balance(np.array([[s for _, s in two.sizes]]))[0] == 1.0
    assert model.evaluate(tuple(s for _, s in alone.sizes)).cost > two.cost


@pytest.mark.parametrize("threads", [2, 3, 4])
@pytest.mark.parametrize("slack", [0.0, 0.1])
def test_scalar_balance_is_the_grid_balance(threads: int, slack: float) -> None:
    """The scalar search's `balance_one` (plain Python) gives bit for bit `balance`'s value
    (numpy, the exhaustive search's) on every candidate of a conv's lattice, ragged sizes too."""
    conv = kernel(load(FIG5A))
    opts = dataclasses.replace(
        PAPER_OPTS, idxs=(), only_po2=False, threads=threads, thread_slack=slack
    )
    model = _Model(conv, opts)
    grid = np.array(list(itertools.product(*model.choices)), dtype=np.int64)
    assert len(grid) > 100
    expected = model.balance(grid)
    got = np.array([model.balance_one(tuple(int(v) for v in row)) for row in grid])
    assert np.array_equal(got, expected)
    assert (expected > 1.0).any() and (expected == 1.0).any()  # both cases are exercised


def test_tile_extent_kept_per_access_and_size() -> None:
    """The extents kept for the process (`_cached_dim_extent`) are those of the access and
    size asked for: another coefficient, constant or size gets its own (as a fresh isl context,
    which bypasses the cache, computes it); another buffer name the same."""
    import islpy as isl

    ref = kernel(parse_stripe(FLIP, "flip")).ref("A")
    assert ref is not None
    base = tile_extent(ref, ["i", "j"])
    renamed = tile_extent(dataclasses.replace(ref, into="Z"), ["i", "j"])
    assert renamed == base
    j = Affine.var("j")
    for access in [(ref.access[0], 3 * j + 1), (ref.access[0], Affine.var("j", 2) + 5)]:
        other = dataclasses.replace(ref, access=access)
        fresh = tile_extent(other, ["i", "j"], isl.Context())
        assert tile_extent(other, ["i", "j"]) == fresh
        assert fresh.dims[1] != base.dims[1] or fresh.origin[1] != base.origin[1]
    shape = dataclasses.replace(ref.shape, sizes=(ref.shape.sizes[0], 4))
    wider = dataclasses.replace(ref, shape=shape)
    assert tile_extent(wider, ["i", "j"]).dims[1] == base.dims[1] + 3


def test_autotile_searches_blocks_alike_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Of an MLP's three layers, the last two are one search (the same shapes under other
    names) and the first, of another width, its own; the tiles are those of searching each."""
    from plaidc.passes import autotile as autotile_module
    from plaidc.tile import compile_tile

    path = EXAMPLES / "mlp_3layer.tile"
    dims = {"B": 8, "D0": 96, "D1": 64, "D2": 64, "D3": 64}
    program = compile_tile(path.read_text(), str(path), dims=dims).program
    opts = AutotileOptions(reqs=("contraction",), only_po2=True, max_total_size=8192)
    searched: list[tuple[int, ...]] = []
    real = autotile_module.search_tiles

    def counting(block: Block, o: AutotileOptions, *, detail: bool = False) -> object:
        searched.append(tuple(i.range for i in block.idxs))
        return real(block, o, detail=detail)

    monkeypatch.setattr(autotile_module, "search_tiles", counting)
    cached = autotile(program, opts)
    assert len(searched) == 2 and 96 in searched[0] and 96 not in searched[1]
    searched.clear()
    alone = autotile_module._walk(program, (), opts, None)
    assert len(searched) == 3
    assert print_stripe(cached) == print_stripe(alone) != print_stripe(program)
