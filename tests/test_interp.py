"""The reference interpreter on hand-built Stripe IR: one test per rule of STRIPE.md's semantics.

Programs here use the paper's Figure 5 convention (the root's refinements with a direction are
the program's parameters) unless a test is about PlaidML's `#user` convention.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from plaidc.diagnostics import CompileError
from plaidc.interp import InterpError, numpy_dtype, program_io, run_program
from plaidc.interp import machine as interp_machine
from plaidc.stripe.ir import (
    Affine,
    Block,
    Constant,
    DType,
    LoadIndex,
    Statement,
    Tags,
    TensorShape,
)

from .support.interp import (
    F32,
    aff,
    block,
    call,
    contraction,
    copy_kernel,
    idx,
    load,
    param,
    program,
    rand,
    ref,
    store,
)

# --------------------------------------------------------------------------------------------
# Domains, views and statements


def test_elementwise_add_matches_numpy() -> None:
    kernel = block(
        "add",
        [idx("i", 4), idx("j", 3)],
        [
            ref("in", "A", ["i", "j"], [1, 1], strides=[3, 1]),
            ref("in", "B", ["j"], [1]),
            ref("out", "O", ["i", "j"], [1, 1], strides=[3, 1]),
        ],
        [load("$a", "A"), load("$b", "B"), call("add", "$o", "$a", "$b"), store("O", "$o")],
    )
    prog = program(
        [param("in", "A", [4, 3]), param("in", "B", [3]), param("out", "O", [4, 3])], [kernel]
    )
    a, b = rand([4, 3]), rand([3], 1)
    out = run_program(prog, {"A": a, "B": b})
    assert out["O"].dtype == np.float32
    np.testing.assert_allclose(out["O"], a + b, rtol=1e-6)


def test_matmul_64_aggregates_with_add() -> None:
    a, b = rand([64, 64]), rand([64, 64], 1)
    out = run_program(contraction(64, 64, 64), {"A": a, "B": b})
    np.testing.assert_allclose(out["C"], a @ b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    ("agg", "reference"),
    [("add", np.sum), ("mul", np.prod), ("max", np.max), ("min", np.min)],
)
def test_aggregation_ops(agg: str, reference: np.ufunc) -> None:
    # O[i] = agg over j of I[i, j]: the body stores the loaded value through O's agg_op.
    kernel = copy_kernel(
        "reduce",
        [idx("i", 3), idx("j", 5)],
        ref("in", "I", ["i", "j"], [1, 1], strides=[5, 1]),
        ref("out", "O", ["i"], [1], agg=agg),
    )
    prog = program([param("in", "I", [3, 5]), param("out", "O", [3])], [kernel])
    data = rand([3, 5], 2)
    out = run_program(prog, {"I": data})
    np.testing.assert_allclose(out["O"], reference(data, axis=1), rtol=1e-5, atol=1e-6)


def test_aggregation_ignores_prior_contents_and_keeps_unstored_elements() -> None:
    # O is inout with initial contents; points store only O[0] and O[1] (sum over j). The prior
    # contents of those elements must not enter; O[2] and O[3] keep theirs.
    kernel = copy_kernel(
        "partial",
        [idx("i", 2), idx("j", 3)],
        ref("in", "I", ["i", "j"], [1, 1], strides=[3, 1]),
        ref("out", "O", ["i"], [1], agg="add"),
    )
    prog = program([param("in", "I", [2, 3]), param("inout", "O", [4])], [kernel])
    data = rand([2, 3], 3)
    initial = np.array([100.0, 200.0, 300.0, 400.0], dtype=np.float32)
    out = run_program(prog, {"I": data, "O": initial})
    np.testing.assert_allclose(out["O"], [*data.sum(axis=1), 300.0, 400.0], rtol=1e-6)


def nested_fresh_accumulation() -> Block:
    """PlaidML's final-stage pattern: accumulate through nested `:add` refs into a fresh buffer.

    For each output row y: T (fresh, NaN-filled) gets sum over i (middle block, 3 points) of
    sum over k (inner block, 4 points) of A[y, i, k, x]; then T is copied to O[y, :].
    """
    inner = copy_kernel(
        "inner",
        [idx("k", 4), idx("x", 5)],
        ref("in", "A", [0, 0, "k", "x"], [1, 1, 1, 1], strides=[60, 20, 5, 1]),
        ref("out", "T", ["x"], [1], agg="add"),
    )
    middle = block(
        "middle",
        [idx("i", 3)],
        [
            ref("in", "A", [0, "i", 0, 0], [1, 1, 4, 5], strides=[60, 20, 5, 1]),
            ref("out", "T", [0], [5], agg="add"),
        ],
        [inner],
    )
    outer = block(
        "outer",
        [idx("y", 2)],
        [
            ref("in", "A", ["y", 0, 0, 0], [1, 3, 4, 5], strides=[60, 20, 5, 1]),
            ref("none", "T", [0], [5], from_=None, agg="add"),
            ref("out", "O", ["y", 0], [1, 5], strides=[5, 1]),
        ],
        [
            middle,
            copy_kernel(
                "copy",
                [idx("x", 5)],
                ref("in", "T", ["x"], [1]),
                ref("out", "O", [0, "x"], [1, 1], strides=[5, 1]),
            ),
        ],
    )
    return program([param("in", "A", [2, 3, 4, 5]), param("out", "O", [2, 5])], [outer])


def test_nested_aggregation_into_fresh_allocation() -> None:
    data = rand([2, 3, 4, 5], 4)
    out = run_program(nested_fresh_accumulation(), {"A": data})
    np.testing.assert_allclose(out["O"], data.sum(axis=(1, 2)), rtol=1e-5)


def test_batching_over_parent_points_gives_the_same_result(monkeypatch: pytest.MonkeyPatch) -> None:
    data = rand([2, 3, 4, 5], 5)
    whole = run_program(nested_fresh_accumulation(), {"A": data})
    monkeypatch.setattr(interp_machine, "MAX_BATCH_POINTS", 1)
    batched = run_program(nested_fresh_accumulation(), {"A": data})
    np.testing.assert_allclose(whole["O"], batched["O"], rtol=1e-6)


def test_constraints_filter_points() -> None:
    # Cumulative sum: O[i] = sum over k with i - k >= 0 of I[k].
    kernel = copy_kernel(
        "cumsum",
        [idx("i", 6), idx("k", 6)],
        ref("in", "I", ["k"], [1]),
        ref("out", "O", ["i"], [1], agg="add"),
    )
    kernel = block("cumsum", kernel.idxs, kernel.refs, kernel.stmts, [aff(i=1, k=-1)])
    prog = program([param("in", "I", [6]), param("out", "O", [6])], [kernel])
    data = rand([6], 6)
    out = run_program(prog, {"I": data})
    np.testing.assert_allclose(out["O"], np.cumsum(data), rtol=1e-5)


@pytest.mark.parametrize("agg", [None, "add"])
def test_block_with_no_points_stores_nothing(agg: str | None) -> None:
    # The constraint -1 >= 0 holds nowhere, and j has range 0 in the second kernel.
    never = copy_kernel(
        "never", [idx("i", 3)], ref("in", "I", ["i"], [1]), ref("out", "O", ["i"], [1], agg=agg)
    )
    never = block("never", never.idxs, never.refs, never.stmts, [aff(-1)])
    empty = copy_kernel(
        "empty",
        [idx("i", 3), idx("j", 0)],
        ref("in", "I", ["i"], [1]),
        ref("out", "O", ["i"], [1], agg=agg),
    )
    prog = program([param("in", "I", [3]), param("inout", "O", [3])], [never, empty])
    initial = np.array([5.0, 6.0, 7.0], np.float32)
    out = run_program(prog, {"I": np.zeros(3, np.float32), "O": initial})
    np.testing.assert_array_equal(out["O"], initial)


def test_index_start_and_passthrough() -> None:
    # The outer block tiles 6 elements by 3; the inner index `x` starts at 3*xo (a range with a
    # start) and `t` passes the tile number through (range 1). O[x] = I[x] * 10 + t, addressed
    # on the root's buffers via the outer refs' offsets of zero.
    inner = block(
        "inner",
        [idx("x", 3, aff(xo=3)), idx("t", 1, aff(xo=1))],
        [ref("in", "I", ["x"], [1]), ref("out", "O", ["x"], [1])],
        [
            load("$i", "I"),
            Constant(name="$ten", value=10, type="int"),
            call("mul", "$m", "$i", "$ten"),
            LoadIndex(affine=Affine.var("t"), into="$t"),
            call("add", "$o", "$m", "$t"),
            store("O", "$o"),
        ],
    )
    outer = block(
        "outer", [idx("xo", 2)], [ref("in", "I", [0], [6]), ref("out", "O", [0], [6])], [inner]
    )
    prog = program([param("in", "I", [6]), param("out", "O", [6])], [outer])
    data = np.arange(6, dtype=np.float32)
    out = run_program(prog, {"I": data})
    np.testing.assert_array_equal(out["O"], data * 10 + np.array([0, 0, 0, 1, 1, 1]))


def test_nested_views_add_offsets() -> None:
    # O = I[2:4, 1:3], through a view at [2, 1] and a child view relative to it.
    inner = copy_kernel(
        "inner",
        [idx("i", 2), idx("j", 2)],
        ref("in", "W", ["i", "j"], [1, 1], strides=[4, 1]),
        ref("out", "O", ["i", "j"], [1, 1], strides=[2, 1]),
    )
    outer = block(
        "outer",
        [],
        [
            ref("in", "W", [2, 1], [2, 2], strides=[4, 1], from_="I"),
            ref("out", "O", [0, 0], [2, 2], strides=[2, 1]),
        ],
        [inner],
    )
    prog = program([param("in", "I", [5, 4]), param("out", "O", [2, 2])], [outer])
    data = rand([5, 4], 7)
    out = run_program(prog, {"I": data})
    np.testing.assert_array_equal(out["O"], data[2:4, 1:3])


def test_refinement_strides_are_its_own() -> None:
    # The outer view of the dense (3, 4) buffer I keeps its strides (4, 1); the inner view
    # declares strides (1, 4), so its access [i, j] addresses I[j, i]: a transpose.
    inner = copy_kernel(
        "inner",
        [idx("i", 4), idx("j", 3)],
        ref("in", "T", ["i", "j"], [1, 1], strides=[1, 4]),
        ref("out", "O", ["i", "j"], [1, 1], strides=[3, 1]),
    )
    outer = block(
        "outer",
        [],
        [
            ref("in", "T", [0, 0], [3, 4], strides=[4, 1], from_="I"),
            ref("out", "O", [0, 0], [4, 3], strides=[3, 1]),
        ],
        [inner],
    )
    prog = program([param("in", "I", [3, 4]), param("out", "O", [4, 3])], [outer])
    data = rand([3, 4], 8)
    out = run_program(prog, {"I": data})
    np.testing.assert_array_equal(out["O"], data.T)


def test_later_load_sees_same_points_store() -> None:
    # Each point stores 2*I into T (its own element), loads it back and stores T + 1 into O.
    kernel = block(
        "k",
        [idx("i", 4)],
        [ref("in", "I", ["i"], [1]), ref("inout", "T", ["i"], [1]), ref("out", "O", ["i"], [1])],
        [
            load("$i", "I"),
            call("add", "$d", "$i", "$i"),
            store("T", "$d"),
            load("$t", "T"),
            Constant(name="$one", value=1.0, type="float"),
            call("add", "$o", "$t", "$one"),
            store("O", "$o"),
        ],
    )
    prog = program(
        [param("in", "I", [4]), param("inout", "T", [4]), param("out", "O", [4])], [kernel]
    )
    data = rand([4], 9)
    out = run_program(prog, {"I": data, "T": np.zeros(4, np.float32)})
    np.testing.assert_allclose(out["O"], 2 * data + 1, rtol=1e-6)
    np.testing.assert_allclose(out["T"], 2 * data, rtol=1e-6)


def test_point_value_is_its_last_write() -> None:
    # Every point of j stores twice through O:add; only the second store counts.
    kernel = block(
        "twice",
        [idx("j", 3)],
        [ref("in", "I", ["j"], [1]), ref("out", "O", [0], [1], agg="add")],
        [
            load("$i", "I"),
            store("O", "$i"),
            call("mul", "$d", "$i", "$i"),
            store("O", "$d"),
        ],
    )
    prog = program([param("in", "I", [3]), param("out", "O", [1])], [kernel])
    data = np.array([1.0, 2.0, 3.0], np.float32)
    out = run_program(prog, {"I": data})
    np.testing.assert_allclose(out["O"], [14.0])


def test_fresh_allocation_reads_poison() -> None:
    kernel = block(
        "poison",
        [idx("i", 2)],
        [
            ref("none", "Tf", [0], [1], from_=None),
            ref("none", "Ti", [0], [1], from_=None, dtype=DType.I32),
            ref("out", "Of", ["i"], [1]),
            ref("out", "Oi", ["i"], [1], dtype=DType.I32),
        ],
        [load("$f", "Tf"), store("Of", "$f"), load("$n", "Ti"), store("Oi", "$n")],
    )
    prog = program([param("out", "Of", [2]), param("out", "Oi", [2], DType.I32)], [kernel])
    out = run_program(prog, {})
    assert np.isnan(out["Of"]).all()
    np.testing.assert_array_equal(out["Oi"], [np.iinfo(np.int32).min] * 2)


def test_output_never_written_is_poison() -> None:
    kernel = copy_kernel(
        "half", [idx("i", 2)], ref("in", "I", ["i"], [1]), ref("out", "O", ["i"], [1])
    )
    prog = program([param("in", "I", [4]), param("out", "O", [4])], [kernel])
    out = run_program(prog, {"I": np.ones(4, np.float32)})
    np.testing.assert_array_equal(out["O"][:2], [1.0, 1.0])
    assert np.isnan(out["O"][2:]).all()


def test_fp16_sum_split_into_batches_rounds_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A block too large for one batch: the batches' partial fp16 sums stay in fp32 and the
    total rounds once (rounding each batch's partial sum gives 14 here instead of 0)."""
    from plaidc.tile import compile_tile

    monkeypatch.setattr(interp_machine, "MAX_BATCH_POINTS", 64)
    v = np.abs(np.random.default_rng(0).standard_normal(1500) * 300).astype(np.float16)
    a = np.concatenate([v, -v[::-1]]).reshape(1, -1)
    source = "function (A[M, K]) -> (C) { C[m : M] = +(A[m, k]); }"
    prog = compile_tile(source, "sum.tile", shapes={"A": (DType.FP16, a.shape)}).program
    out = run_program(prog, {"A": a})["C"].astype(np.float32)
    # the exact sum is 0; fp32 accumulation in another order leaves a few 1e-3
    np.testing.assert_allclose(out, [0.0], atol=0.01)


@pytest.mark.parametrize("agg", [None, "assign"])
@pytest.mark.parametrize("batch", [None, 1])
def test_two_points_assigning_one_element_raise(
    agg: str | None, batch: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With batches of one point the clash is between batches, found when they are combined.
    if batch is not None:
        monkeypatch.setattr(interp_machine, "MAX_BATCH_POINTS", batch)
    kernel = copy_kernel(
        "clash", [idx("i", 3)], ref("in", "I", ["i"], [1]), ref("out", "O", [0], [1], agg=agg)
    )
    prog = program([param("in", "I", [3]), param("out", "O", [1])], [kernel])
    # distinct values: points storing one value into one element do not clash (the assign rule)
    with pytest.raises(InterpError, match=r"program/clash: refinement 'O' .*more than one point"):
        run_program(prog, {"I": np.arange(3, dtype=np.float32)})
    assert run_program(prog, {"I": np.ones(3, np.float32)})["O"].tolist() == [1.0]


def test_assign_to_distinct_elements_is_fine() -> None:
    kernel = copy_kernel(
        "perm",
        [idx("i", 3)],
        ref("in", "I", ["i"], [1]),
        ref("out", "O", [aff(2, i=-1)], [1], agg="assign"),
    )
    prog = program([param("in", "I", [3]), param("out", "O", [3])], [kernel])
    out = run_program(prog, {"I": np.array([1, 2, 3], np.float32)})
    np.testing.assert_array_equal(out["O"], [3, 2, 1])


def test_load_index() -> None:
    kernel = block(
        "iota",
        [idx("i", 3), idx("j", 4)],
        [ref("out", "O", ["i", "j"], [1, 1], strides=[4, 1], dtype=DType.I32)],
        [LoadIndex(affine=aff(1, i=4, j=-1), into="$v"), store("O", "$v")],
    )
    prog = program([param("out", "O", [3, 4], DType.I32)], [kernel])
    out = run_program(prog, {})
    i, j = np.indices((3, 4))
    np.testing.assert_array_equal(out["O"], 1 + 4 * i - j)
    assert out["O"].dtype == np.int32


def unary_kernel(body: Sequence[Statement], in_dtype: DType, out_dtype: DType) -> Block:
    kernel = block(
        "k",
        [idx("i", 4)],
        [ref("in", "I", ["i"], [1], dtype=in_dtype), ref("out", "O", ["i"], [1], dtype=out_dtype)],
        [load("$x", "I"), *body, store("O", "$y")],
    )
    return program([param("in", "I", [4], in_dtype), param("out", "O", [4], out_dtype)], [kernel])


def test_int_literal_adopts_the_other_operand_type() -> None:
    # i8 + (int)3 is computed in i8 (127 + 3 wraps) even though O is i32.
    prog = unary_kernel(
        [Constant(name="$c", value=3, type="int"), call("add", "$y", "$x", "$c")],
        DType.I8,
        DType.I32,
    )
    out = run_program(prog, {"I": np.array([127, 1, -128, 0], np.int8)})
    np.testing.assert_array_equal(out["O"], [-126, 4, -125, 3])


def test_typed_constant_is_strongly_typed() -> None:
    # (i32)3 makes the sum i32: no wrap-around.
    prog = unary_kernel(
        [Constant(name="$c", value=3, type="i32"), call("add", "$y", "$x", "$c")],
        DType.I8,
        DType.I32,
    )
    out = run_program(prog, {"I": np.array([127, 1, -128, 0], np.int8)})
    np.testing.assert_array_equal(out["O"], [130, 4, -125, 3])


def test_values_are_cast_to_the_ref_type_on_store() -> None:
    prog = unary_kernel([call("ident", "$y", "$x")], F32, DType.I32)
    out = run_program(prog, {"I": np.array([2.7, -2.7, 0.5, -0.5], np.float32)})
    np.testing.assert_array_equal(out["O"], [2, -2, 0, 0])
    assert out["O"].dtype == np.int32


def test_bf16_stores_round_to_nearest_even() -> None:
    prog = unary_kernel([call("ident", "$y", "$x")], F32, DType.BF16)
    values = np.array([1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-7 + 2**-9, np.nan], np.float32)
    out = run_program(prog, {"I": values})
    assert out["O"].dtype == np.float32
    np.testing.assert_array_equal(out["O"][:3], [1.0, 1 + 2**-6, 1 + 2**-7 + 0.0])
    assert np.isnan(out["O"][3])


def test_numpy_dtype_mapping() -> None:
    expected = {
        DType.BOOL: np.bool_,
        DType.I8: np.int8,
        DType.I16: np.int16,
        DType.I32: np.int32,
        DType.I64: np.int64,
        DType.U8: np.uint8,
        DType.U16: np.uint16,
        DType.U32: np.uint32,
        DType.U64: np.uint64,
        DType.FP16: np.float16,
        DType.FP32: np.float32,
        DType.FP64: np.float64,
        DType.BF16: np.float32,
    }
    assert set(expected) == set(DType)
    for dtype, np_type in expected.items():
        assert numpy_dtype(dtype) == np.dtype(np_type)


def test_unknown_intrinsic_is_named() -> None:
    prog = unary_kernel([call("frobnicate", "$y", "$x")], F32, F32)
    with pytest.raises(InterpError, match="unknown intrinsic 'frobnicate'"):
        run_program(prog, {"I": np.zeros(4, np.float32)})


def test_access_outside_the_buffer_raises() -> None:
    kernel = copy_kernel(
        "over", [idx("i", 4)], ref("in", "I", [aff(1, i=1)], [1]), ref("out", "O", ["i"], [1])
    )
    prog = program([param("in", "I", [4]), param("out", "O", [4])], [kernel])
    with pytest.raises(InterpError, match=r"program/over: load through refinement 'I'.*i=3"):
        run_program(prog, {"I": np.zeros(4, np.float32)})


def test_scalar_used_before_definition_raises() -> None:
    prog = unary_kernel([call("neg", "$y", "$nothing")], F32, F32)
    with pytest.raises(InterpError, match=r"scalar '\$nothing'"):
        run_program(prog, {"I": np.zeros(4, np.float32)})


def test_inputs_are_not_modified_and_runs_are_independent() -> None:
    a, b = rand([3, 2]), rand([2, 4], 1)
    a_copy = a.copy()
    prog = contraction(3, 4, 2)
    first = run_program(prog, {"A": a, "B": b})
    second = run_program(prog, {"A": a, "B": b})
    np.testing.assert_array_equal(a, a_copy)
    np.testing.assert_array_equal(first["C"], second["C"])


# --------------------------------------------------------------------------------------------
# Program inputs and outputs


def plaidml_style() -> Block:
    """`#user` allocations bound through a `main` block, plus an internal `#tmp`."""
    user, tmp = Tags.of("user"), Tags.of("tmp")
    main = block(
        "main",
        [],
        [
            ref("in", "X", [0], [3], from_="X_I_0"),
            ref("inout", "T", [0], [3], from_="X_T1"),
            ref("out", "Y", [0], [3], from_="X_T2"),
        ],
        [
            copy_kernel(
                "k0", [idx("i", 3)], ref("in", "X", ["i"], [1]), ref("out", "T", ["i"], [1])
            ),
            copy_kernel(
                "k1", [idx("i", 3)], ref("in", "T", ["i"], [1]), ref("out", "Y", ["i"], [1])
            ),
        ],
    )
    return program(
        [
            ref("none", "X_I_0", [0], [3], from_=None, tags=user),
            ref("none", "X_T1", [0], [3], from_=None, tags=tmp),
            ref("none", "X_T2", [0], [3], from_=None, tags=user),
            ref("none", "X_unused", [0], [3], from_=None, tags=user),
        ],
        [main],
    )


def test_program_io_plaidml_style() -> None:
    """A `#user` buffer nothing uses is an input the program ignores (a Tile function's unused
    parameter, or one whose uses a pass pruned), so a pass never changes the interface."""
    io = program_io(plaidml_style())
    assert list(io.inputs) == ["X_I_0", "X_unused"]
    assert list(io.outputs) == ["X_T2"]
    assert io.inputs["X_I_0"] == TensorShape.dense(F32, [3])
    data = rand([3])
    feed = {"X_I_0": data, "X_unused": rand([3])}
    np.testing.assert_array_equal(run_program(plaidml_style(), feed)["X_T2"], data)


def test_program_io_figure5_style_sorted_with_inout_in_both() -> None:
    prog = program(
        [param("out", "Z", [1]), param("in", "B", [2], DType.I8), param("inout", "A", [3])], []
    )
    io = program_io(prog)
    assert list(io.inputs) == ["A", "B"]
    assert list(io.outputs) == ["A", "Z"]
    assert io.inputs["B"].dtype is DType.I8


def test_missing_input_is_a_compile_error() -> None:
    with pytest.raises(CompileError, match=r"missing input 'B' of shape fp32\(2, 4\)"):
        run_program(contraction(3, 4, 2), {"A": rand([3, 2])})


def test_misshapen_input_names_both_shapes() -> None:
    with pytest.raises(CompileError, match=r"input 'A' has shape \(2, 3\).*fp32\(3, 2\)"):
        run_program(contraction(3, 4, 2), {"A": rand([2, 3]), "B": rand([2, 4])})


def test_unknown_input_is_a_compile_error() -> None:
    with pytest.raises(CompileError, match=r"unknown input 'Q'"):
        run_program(contraction(1, 1, 1), {"A": rand([1, 1]), "B": rand([1, 1]), "Q": rand([1])})


def test_inputs_are_converted_to_the_ref_type() -> None:
    prog = unary_kernel([call("ident", "$y", "$x")], DType.I16, DType.I16)
    out = run_program(prog, {"I": np.array([1.9, -1.9, 3.0, 40000.0])})
    assert out["O"].dtype == np.int16
    np.testing.assert_array_equal(out["O"][:3], [1, -1, 3])
