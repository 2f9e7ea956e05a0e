"""`widen-accumulators`: narrow float sums get a wide buffer and one conversion back, exactly
where that is legal, and the CPU targets then match numpy's fp32-accumulated fp16 sums.

The Tile lowering already gives fp16 contractions an fp32 temporary (`tile/lower.py`), so the
pass is tested on Stripe that narrows a lowered fp32 program to fp16 (what a Stripe file from
elsewhere, e.g. PlaidML, looks like)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import run_program
from plaidc.passes import get_pass, make_options
from plaidc.passes.registry import PassOptionError
from plaidc.stripe.ir import Affine, Block, DType, Intrinsic, Load, RefDir, Store
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe
from plaidc.stripe.verify import verify
from plaidc.targets import load_target
from plaidc.tile import compile_tile

MATMUL = "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }"
ROW_SUM = "function (A[M, K]) -> (C) { C[m : M] = +(A[m, k]); }"
ROW_MAX = "function (A[M, K]) -> (C) { C[m : M] = >(A[m, k]); }"


def run(program: Block, **opts: Any) -> Block:
    info = get_pass("widen-accumulators")
    return info.run(program, make_options(info, opts))


def tile(source: str, dtype: DType, **shapes: tuple[int, ...]) -> Block:
    """The program as Stripe with every tensor of type `dtype` (lowered as fp32, then retyped:
    no fp32 accumulator from the lowering)."""
    typed = {name: (DType.FP32, shape) for name, shape in shapes.items()}
    text = print_stripe(compile_tile(source, "widen.tile", shapes=typed).program)
    return parse_stripe(text.replace(" fp32:", f" {dtype}:"), "widen.stripe")


def main_block(program: Block) -> Block:
    (main,) = [s for s in program.stmts if isinstance(s, Block)]
    return main


def assert_same_meaning(before: Block, after: Block) -> None:
    problems = verify(after)
    assert not problems, problems[0].render()
    mismatches = driver.check_equivalent(before, after, seed=3)
    assert not mismatches, mismatches[0].message


def test_fp16_matmul_accumulates_in_fp32_and_converts_once() -> None:
    before = tile(MATMUL, DType.FP16, A=(5, 7), B=(7, 3))
    after = run(before, reqs=["kernel"])
    main = main_block(after)
    wide = main.ref("C_acc")
    assert wide is not None and wide.dir is RefDir.NONE and wide.from_ is None
    assert wide.shape.dtype is DType.FP32 and wide.shape.sizes == (5, 3)
    kernel, store_back = main.stmts
    assert isinstance(kernel, Block) and isinstance(store_back, Block)
    (out,) = [r for r in kernel.refs if r.dir is RefDir.OUT]
    assert (out.from_, out.shape.dtype, out.agg_op) == ("C_acc", DType.FP32, "add")
    assert [i.range for i in store_back.idxs] == [5, 3]
    assert store_back.tags.has_all(["eltwise", "kernel"])
    load, store = store_back.stmts
    assert isinstance(load, Load) and load.from_ == "C_acc"
    assert isinstance(store, Store) and store.into == "C"
    assert_same_meaning(before, after)
    # the printed form parses back to the same program
    assert parse_stripe(print_stripe(after), "<widened>") == after


@pytest.mark.parametrize(
    ("source", "dtype"),
    [(MATMUL, DType.FP32), (ROW_MAX, DType.FP16), (MATMUL, DType.I32)],
    ids=["fp32_sum", "fp16_max", "i32_sum"],
)
def test_leaves_wide_types_and_exact_aggregations_alone(source: str, dtype: DType) -> None:
    shapes = {"A": (4, 6), "B": (6, 3)} if "B[" in source else {"A": (4, 6)}
    before = tile(source, dtype, **shapes)
    assert run(before, reqs=["kernel"]) == before


def test_narrow_types_are_an_option() -> None:
    before = tile(ROW_SUM, DType.FP16, A=(3, 9))
    assert run(before, narrow=[]) == before
    assert run(before, narrow=["fp16"]) != before


SHIFTED = """\
block []:1 (
    in A[0, 0] fp16(5, 4):(4, 1)
    out C[0] fp16(10):(1)
) {
  0:
  block [i:5, k:4] (
      in A[i, k] fp16(1, 1):(4, 1)
      out C[i + 2]:add fp16(1):(1)
  ) {
    0: $a = load(A)
    1: C = store($a)
  }
}
"""

STRIDED = SHIFTED.replace("out C[i + 2]:add", "out C[2*i]:add")


def test_store_back_covers_exactly_the_written_box() -> None:
    before = parse_stripe(SHIFTED, "shifted.stripe")
    after = run(before)
    _, store_back = after.stmts
    assert isinstance(store_back, Block)
    assert [i.range for i in store_back.idxs] == [5]
    (view,) = [r for r in store_back.refs if r.into == "C"]
    assert view.access == (Affine.var("i0") + Affine.const_(2),)
    wide = after.ref("C_acc")
    assert wide is not None and "tmp" in wide.tags  # a temporary, not a program buffer
    assert_same_meaning(before, after)


NESTED_STRIDED = """\
block []:1 (
    in A[0, 0] fp16(5, 4):(4, 1)
    out C[0] fp16(10):(1)
) {
  0:
  block [i:5]:5 (
      in A[i, 0] fp16(1, 4):(4, 1)
      out C[2*i]:add fp16(1):(1)
  ) {
    0:
    block [k:4]:4 (
        in A[0, k] fp16(1, 1):(4, 1)
        out C[0]:add fp16(1):(1)
    ) {
      0: $a = load(A)
      1: C = store($a)
    }
  }
}
"""


def test_wider_stored_values_are_rounded_as_the_narrow_store_did() -> None:
    """fp32 values summed into fp16: Stripe rounds each to fp16 at its store, so the widened
    store rounds them first too (`as_float(v, 16)`) and the pass changes nothing the program
    computes; only the aggregation is wider."""
    text = SHIFTED.replace("in A[0, 0] fp16(5, 4)", "in A[0, 0] fp32(5, 4)").replace(
        "in A[i, k] fp16(1, 1)", "in A[i, k] fp32(1, 1)"
    )
    before = parse_stripe(text, "mixed.stripe")
    after = run(before)
    child, _ = after.stmts
    assert isinstance(child, Block)
    casts = [s for s in child.stmts if isinstance(s, Intrinsic) and s.name == "as_float"]
    assert len(casts) == 1
    assert_same_meaning(before, after)
    # values fp16 cannot hold: summing them unrounded gives 0.9644 instead of 0.964 here
    a = np.random.default_rng(0).uniform(0, 1, (5, 4)).astype(np.float32)
    np.testing.assert_array_equal(
        run_program(before, {"A": a})["C"], run_program(after, {"A": a})["C"]
    )


def test_strided_writes_store_back_the_points_written() -> None:
    before = parse_stripe(STRIDED, "strided.stripe")
    after = run(before)
    _, store_back = after.stmts
    assert isinstance(store_back, Block)
    assert [(i.name, i.range) for i in store_back.idxs] == [("i", 5)]
    (view,) = [r for r in store_back.refs if r.into == "C"]
    assert view.access == (Affine.var("i", 2),)
    assert_same_meaning(before, after)


def test_nested_writes_that_are_not_a_box_are_left_alone() -> None:
    before = parse_stripe(NESTED_STRIDED, "nested.stripe")
    assert run(before) == before


# Sums of 3001 ones into outputs that are not boxes: an fp16 running sum stops at 2048.
NOT_BOXES = {
    "strided": ("function (A[M, K]) -> (O) { O[2 * i : 2 * M] = +(A[i, k]); }", (4,)),
    "diagonal": ("function (A[M, K]) -> (O) { O[i, i : M, M] = +(A[i, k]); }", (2, 2)),
    "triangle": ("function (A[N, K]) -> (O) { O[i, j : N, N] = +(A[i, k]), j - i < N; }", (2, 2)),
}


@pytest.mark.parametrize("target", ["c", "llvm", "opencl"])
@pytest.mark.parametrize("name", sorted(NOT_BOXES))
def test_sums_into_outputs_that_are_not_boxes(name: str, target: str) -> None:
    source, shape = NOT_BOXES[name]
    a = np.ones((2, 3001), np.float16)
    before = tile(source, DType.FP16, A=a.shape)
    after = run(before, reqs=["kernel"])
    assert after != before
    assert_same_meaning(before, after)
    config = load_target(target)
    lowered = compile_tile(source, "sum.tile", shapes={"A": (DType.FP16, a.shape)}).program
    for program in (before, lowered):  # widened by the pipeline's pass / by the lowering
        optimised = driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))
        got = get_backend(target).compile(optimised, config).run({"A": a})["O"]
        assert got.shape == shape
        want = run_program(program, {"A": a})["O"]
        assert float(want.max()) == 3000.0  # 3001 rounded once, not a running sum's 2048
        np.testing.assert_array_equal(got, want)


def test_bad_types_are_option_errors() -> None:
    info = get_pass("widen-accumulators")
    with pytest.raises(
        PassOptionError, match='option \'accumulator\': expected "fp16", "fp32", "fp64" or "bf16"'
    ):
        make_options(info, {"accumulator": "i32"})
    with pytest.raises(
        PassOptionError, match='option \'narrow\': expected a list of "fp16" or "fp32"'
    ):
        make_options(info, {"narrow": ["fp17"]})


@pytest.mark.parametrize("target", ["c", "llvm", "opencl"])
def test_cpu_targets_sum_fp16_like_numpy(target: str) -> None:
    """2000 fp16 terms near 1000: rounding after every term is off by several units; fp32
    accumulation rounded once matches numpy to one fp16 ulp."""
    rng = np.random.default_rng(0)
    a = rng.random((4, 2000)).astype(np.float16)
    program = tile(ROW_SUM, DType.FP16, A=a.shape)  # the pass widens it
    config = load_target(target)
    optimised = driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))
    outputs = get_backend(target).compile(optimised, config).run({"A": a})
    expected = a.astype(np.float32).sum(axis=1).astype(np.float16)
    np.testing.assert_allclose(outputs["C"].astype(np.float32), expected, rtol=0, atol=0.5)


WIDEN_IR = Path(__file__).parent / "ir" / "fp16"


def test_a_restrided_child_view_is_not_stored_back_through_the_parent_layout() -> None:
    """`out C[i]:add fp16(1):(2)` writes C[2i]: its access is in the child's own layout, so
    the store-back cannot reuse it over the parent's strides; the pass leaves it alone."""
    before = parse_stripe((WIDEN_IR / "strided_view.stripe").read_text(), "strided_view.stripe")
    after = run(before)
    assert after == before


def test_two_outputs_stored_from_one_scalar_get_distinct_rounded_names() -> None:
    before = parse_stripe((WIDEN_IR / "two_outputs.stripe").read_text(), "two_outputs.stripe")
    after = run(before)
    assert after != before
    assert_same_meaning(before, after)  # verify() rejects a scalar assigned twice


def test_nested_aggregations_keep_their_inner_rounding() -> None:
    """An inner block summing into the fp16 view rounds each inner sum to fp16 before the
    child adds them: widening would drop that rounding, so the pass leaves it alone."""
    before = parse_stripe((WIDEN_IR / "nested_sum.stripe").read_text(), "nested_sum.stripe")
    assert run(before) == before


def test_bf16_is_not_widened_without_a_rounding_intrinsic() -> None:
    info = get_pass("widen-accumulators")
    with pytest.raises(PassOptionError, match="the types a rounding intrinsic exists for"):
        make_options(info, {"narrow": ["bf16"]})


def test_min_terms_widens_only_long_sums() -> None:
    """fp32 -> fp64 for sums of at least `min_terms` terms per element (9 here); shorter
    sums and other kinds are left alone."""
    before = tile(ROW_SUM, DType.FP32, A=(3, 9))
    widened = run(before, narrow=["fp32"], accumulator="fp64", min_terms=9)
    assert widened != before
    assert "fp64" in print_stripe(widened)
    assert_same_meaning(before, widened)
    assert run(before, narrow=["fp32"], accumulator="fp64", min_terms=10) == before


def test_narrow_must_be_narrower_than_the_accumulator() -> None:
    info = get_pass("widen-accumulators")
    with pytest.raises(PassOptionError, match="not narrower than the accumulator"):
        make_options(info, {"narrow": ["fp32"], "accumulator": "fp32"})
    with pytest.raises(PassOptionError, match="option 'min_terms'"):
        make_options(info, {"min_terms": -1})


# A fuzzed program whose C1 sums 118,272 fp32 products that cancel: summed in place in fp32
# the c and llvm results were 5.2e-3 off in relative terms (the interpreter 1.4e-4).
LONG_SUM = """
function (I0[FX, JD, K0, K0]) -> (C3) {
  C1[i1, i0 : JD, FX] = +(I0[i0, i1, i2, i3] * I0[k0, k1, k2, i3]);
  C3[i1, i0 : FX, JD] = +(C1[i0, i1] * C1[i0, i1]);
}
"""


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_cpu_targets_sum_long_reductions_as_accurately_as_numpy(target: str) -> None:
    rng = np.random.default_rng(1)
    i0 = rng.standard_normal((7, 33, 8, 8)).astype(np.float32)
    shapes = {"I0": (DType.FP32, i0.shape)}
    program = compile_tile(LONG_SUM, "long.tile", shapes=shapes).program
    config = load_target(target)
    optimised = driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))
    got = get_backend(target).compile(optimised, config).run({"I0": i0})["C3"]
    wide = i0.astype(np.float64)
    c1 = np.einsum("abcd,efgd->ba", wide, wide)
    exact = (c1 * c1).T
    interp = run_program(program, {"I0": i0})["C3"]
    target_error = np.max(np.abs(got - exact) / np.abs(exact))
    interp_error = np.max(np.abs(interp - exact) / np.abs(exact))
    assert target_error <= max(interp_error, 1e-5)
