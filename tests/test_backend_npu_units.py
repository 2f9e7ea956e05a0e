"""Parts of the NPU backend one at a time: sync insertion, data-movement paths, what the vector
ISA lacks, options, other machines, tiling, the CLI, and that every inserted flag is needed."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact, build
from plaidc.backends.npu.moves import Space, choose_path
from plaidc.backends.npu.ops import Op, Region
from plaidc.backends.npu.sync import EVENTS, insert_sync
from plaidc.backends.npu_sim import NpuSimError
from plaidc.diagnostics import CompileError
from plaidc.interp import numpy_dtype, run_program
from plaidc.stripe.ir import Affine, Block, DType
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import print_stripe
from plaidc.targets import TargetConfig, load_target

from .support import EXAMPLES, REPO
from .support.backend_c import load_program, program_inputs
from .support.backend_npu_units import (
    run_checked,
    tile_program,
    unrolled,
    with_changes,
)

# --------------------------------------------------------------------------------------------
# Sync insertion


def op(pipe: str, reads: tuple[Region, ...] = (), writes: tuple[Region, ...] = ()) -> Op:
    return Op(pipe, (), reads, writes)


UB = Region("UB", 0, 256)
UB2 = Region("UB", 256, 512)
GM = Region("GM:A", 0, 256)


def flags(ops: list[Op]) -> list[tuple[int, int, str, str]]:
    """(set after op, wait before op, src, dst) of every flag."""
    synced = insert_sync(ops)
    found = []
    for j, waits in enumerate(synced.waits_before):
        for flag in waits:
            after = next(i for i, sets in enumerate(synced.sets_after) if flag in sets)
            found.append((after, j, flag.src, flag.dst))
    return found


def test_sync_orders_each_cross_pipe_conflict() -> None:
    ops = [
        op("PIPE_MTE2", (GM,), (UB,)),  # load
        op("PIPE_V", (UB,), (UB2,)),  # compute: RAW on UB
        op("PIPE_MTE3", (UB2,), (GM,)),  # store: RAW on UB2
    ]
    assert flags(ops) == [(0, 1, "PIPE_MTE2", "PIPE_V"), (1, 2, "PIPE_V", "PIPE_MTE3")]


def test_sync_leaves_one_pipe_and_disjoint_bytes_alone() -> None:
    ops = [op("PIPE_V", (), (UB,)), op("PIPE_V", (UB,), (UB2,)), op("PIPE_MTE2", (GM,), (UB2,))]
    # V -> V is in order; the load into UB2 is a WAW/WAR with op 1 only.
    assert flags(ops) == [(1, 2, "PIPE_V", "PIPE_MTE2")]
    assert flags([op("PIPE_MTE2", (), (UB,)), op("PIPE_V", (UB2,), ())]) == []
    assert flags([op("PIPE_V", (UB,), ()), op("PIPE_MTE3", (UB,), ())]) == []  # two reads


def test_sync_adds_no_flag_for_a_dependence_already_ordered() -> None:
    ops = [
        op("PIPE_MTE2", (), (UB,)),
        op("PIPE_V", (UB,), (UB2,)),  # waits for MTE2
        op("PIPE_MTE3", (UB2, UB), ()),  # waits for V, which already waited for MTE2
    ]
    assert flags(ops) == [(0, 1, "PIPE_MTE2", "PIPE_V"), (1, 2, "PIPE_V", "PIPE_MTE3")]


def test_sync_reuses_events_and_never_raises_one_twice() -> None:
    ops: list[Op] = []
    for k in range(3 * EVENTS):  # many outstanding MTE2 -> V dependences
        ops.append(op("PIPE_MTE2", (), (Region("UB", 512 * k, 512 * k + 32),)))
    for k in range(3 * EVENTS):
        ops.append(op("PIPE_V", (Region("UB", 512 * k, 512 * k + 32),), ()))
    synced = insert_sync(ops)
    raised: set[tuple[str, str, int]] = set()
    for k in range(len(ops)):
        for flag in synced.waits_before[k]:
            assert (flag.src, flag.dst, flag.event) in raised
            raised.discard((flag.src, flag.dst, flag.event))
        for flag in synced.sets_after[k]:
            key = (flag.src, flag.dst, flag.event)
            assert key not in raised
            raised.add(key)
    # Each of the first EVENTS compute ops waits for its own load (set right after it); then
    # all events are in flight, so the next flag is set once one is free, late enough to cover
    # every load: the rest need no flag.
    assert synced.flag_count == EVENTS + 1


# --------------------------------------------------------------------------------------------
# Data movement paths


@pytest.mark.parametrize(
    ("dst", "src", "path"),
    [
        (Affine.of({"i": 8, "j": 1}), Affine.of({"i": 16, "j": 1}, 8), "copy"),  # same offsets
        (Affine.of({"i": 8, "j": 1}), Affine.of({"i": 5, "j": 1}), "spread"),  # a shift
        (Affine.of({"i": 8, "j": 1}), Affine.of({"i": 1}), "lanes"),  # a broadcast
        (Affine.of({"i": 8, "j": 1}), Affine.of({"i": 1, "j": 16}), "lanes"),  # a transpose
        (Affine.of({"i": 8, "j": 1}), Affine.of({"i": 1, "j": 5}), "spread"),
        (Affine.of({"i": 5, "j": 1}), Affine.of({"i": 1}), "spread"),  # unaligned rows
    ],
)
def test_move_paths(dst: Affine, src: Affine, path: str) -> None:
    space = Space({"i": 4, "j": 8})
    assert choose_path(space, "j", dst, src, DType.FP32) == path


# --------------------------------------------------------------------------------------------
# What has no NPU mapping


@pytest.mark.parametrize(
    ("text", "dtype", "message"),
    [
        ("function (X[N]) -> (Y) { Y = tanh(X); }", "fp32", "'tanh' is not in the NPU vector ISA"),
        ("function (X[N]) -> (Y) { Y = pow(X, X); }", "i32", "expand-math left this one"),
        ("function (X[N]) -> (Y) { Y = X << 1; }", "i32", "'bit_left' is not in the NPU"),
        ("function (X[N]) -> (Y) { Y = as_int(X, 64); }", "fp32", "has type i64"),
        ("function (X[N]) -> (Y) { Y = X * 2; }", "u32", "type u32"),
    ],
)
def test_unmapped_constructs_are_named(text: str, dtype: str, message: str) -> None:
    program = tile_program(text, {"X": (dtype, (10,))})
    with pytest.raises(CompileError, match=message):
        get_backend("npu").compile(program, load_target("npu"))


@pytest.mark.parametrize("op", ["+", ">"])
def test_reductions_longer_than_ub_are_cut(op: str) -> None:
    """Rows of 70001 fp32 (280 KB) exceed UB: the reduction runs in parts whose partial
    results are combined through the output."""
    program = tile_program(
        f"function (X[M, N]) -> (S) {{ S[m : M] = {op}(X[m, n]); }}", {"X": ("fp32", (2, 70001))}
    )
    artifact = run_checked(program, load_target("npu"))
    assert artifact.source.count("/* tile ") > 2


@pytest.mark.parametrize("dtype", ["fp32", "i32", "fp16"])
@pytest.mark.parametrize("shape", [(5, 7), (3, 300), (200, 3), (2, 70001)])
def test_product_reductions_match_numpy(dtype: str, shape: tuple[int, int]) -> None:
    """`*` aggregations over rows and columns (the ISA has no vcmul: vmul folds, then lane by
    lane), also cut into parts (rows of 70001 fp32 exceed UB) and in int32 (wrapping)."""
    rng = np.random.default_rng(5)
    if dtype == "i32":
        x = rng.integers(-3, 4, shape).astype(np.int32)
    else:
        x = rng.uniform(0.97, 1.03, shape).astype(numpy_dtype(DType(dtype)))
    text = "function (X[N, M]) -> (P, Q) { P[n : N] = *(X[n, m]); Q[m : M] = *(X[n, m]); }"
    program = tile_program(text, {"X": (dtype, shape)})
    config = load_target("npu")
    compiled = driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))
    got = get_backend("npu").compile(compiled, config).run({"X": x})
    for name, axis in (("P", 1), ("Q", 0)):
        if dtype == "i32":
            np.testing.assert_array_equal(got[name], np.prod(x, axis=axis, dtype=np.int32))
        else:
            want = np.prod(x.astype(np.float64), axis=axis)
            rtol = 2e-3 if dtype == "fp16" else 1e-4
            np.testing.assert_allclose(got[name].astype(np.float64), want, rtol=rtol)


def test_dot_products_per_row_stay_on_the_vector_unit() -> None:
    """`+(X[i, j] * X[i, j])` has no M or N: on the Cube it was 64 unrolled 1 x 1 GEMMs (a
    3 MB kernel, minutes of compiling); the vector unit reduces the rows."""
    rng = np.random.default_rng(9)
    x = rng.uniform(-1, 1, (64, 4096)).astype(np.float32)
    program = tile_program(
        "function (X[M, N]) -> (V) { V[i : M] = +(X[i, j] * X[i, j]); }", {"X": ("fp32", x.shape)}
    )
    artifact = get_backend("npu").compile(program, load_target("npu"))
    assert isinstance(artifact, NpuArtifact) and "mad(" not in artifact.source
    got = artifact.run({"X": x})["V"]
    np.testing.assert_allclose(got, (x.astype(np.float64) ** 2).sum(axis=1), rtol=1e-5)


def test_fp16_division_is_rounded_once() -> None:
    """fp16 quotients (by a tensor and by a constant) equal numpy's: computed in fp32 lanes,
    not as an fp16 reciprocal times the dividend (1 ulp off for a third of them)."""
    rng = np.random.default_rng(4)
    a = rng.uniform(-40, 40, 1000).astype(np.float16)
    b = rng.uniform(0.5, 9, 1000).astype(np.float16)
    text = "function (A[N], B[N]) -> (Y, Z) { Y = A / B; Z = A / 3; }"
    program = tile_program(text, {"A": ("fp16", (1000,)), "B": ("fp16", (1000,))})
    got = get_backend("npu").compile(program, load_target("npu")).run({"A": a, "B": b})
    np.testing.assert_array_equal(got["Y"], a / b)
    np.testing.assert_array_equal(got["Z"], a / np.float16(3))


def test_long_fp16_sums_accumulate_in_fp32() -> None:
    """Rows of 30000 fp16 terms whose running sums reach 45000 (cut into parts): the result
    is the fp32 sum rounded once, not an fp16 running sum (off by tens)."""
    rng = np.random.default_rng(2)
    x = np.concatenate([rng.uniform(2, 4, (2, 15000)), -rng.uniform(2, 4, (2, 15000))], 1)
    x = x.astype(np.float16)
    program = tile_program(
        "function (X[M, N]) -> (S) { S[m : M] = +(X[m, n]); }", {"X": ("fp16", x.shape)}
    )
    config = load_target("npu")
    compiled = driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))
    got = get_backend("npu").compile(compiled, config).run({"X": x})["S"]
    want = x.astype(np.float64).sum(axis=1)
    np.testing.assert_allclose(got.astype(np.float64), want, atol=0.1)


def test_fp16_row_sums_of_the_vector_unit_fold_in_fp32() -> None:
    """Stripe that sums fp16 into fp16 (no fp32 accumulator from the Tile lowering): the
    vector unit's row reduction still adds in fp32 lanes and rounds once."""
    rng = np.random.default_rng(6)
    x = np.concatenate([rng.uniform(2, 4, (3, 1500)), -rng.uniform(2, 4, (3, 1500))], 1)
    x = x.astype(np.float16)
    lowered = tile_program(
        "function (X[M, N]) -> (S) { S[m : M] = +(X[m, n]); }", {"X": ("fp32", x.shape)}
    )
    program = parse_stripe(print_stripe(lowered).replace(" fp32:", " fp16:"), "sum.stripe")
    got = get_backend("npu").compile(program, load_target("npu")).run({"X": x})["S"]
    want = x.astype(np.float64).sum(axis=1)
    np.testing.assert_allclose(got.astype(np.float64), want, atol=0.02)


def test_fp16_comparisons_selecting_i32_values_run_in_fp32_lanes() -> None:
    """argmax of fp16 rows: `X == M ? Idx` selects i32 indices by an fp16 comparison, whose
    mask would have half the lane width; the comparison runs in fp32 lanes instead."""
    x = np.random.default_rng(8).standard_normal((5, 37)).astype(np.float16)
    program = tile_program((EXAMPLES / "argmax.tile").read_text(), {"X": ("fp16", x.shape)})
    got = get_backend("npu").compile(program, load_target("npu")).run({"X": x})["O"]
    np.testing.assert_array_equal(got, np.argmax(x, axis=1))


def test_fp16_matmul_rounds_the_cube_accumulator_on_its_way_out() -> None:
    """The lowering's fp32 temporary and `C = as_float(C_acc, 16)` become one Cube kernel
    whose L0C result is rounded to fp16 once: no fp32 round trip through GM, and the result
    is numpy's (exact products, fp32 sums, one rounding)."""
    rng = np.random.default_rng(9)
    a = rng.uniform(-1, 1, (48, 200)).astype(np.float16)
    b = rng.uniform(-1, 1, (200, 40)).astype(np.float16)
    text = (EXAMPLES / "matmul.tile").read_text()
    program = tile_program(text, {"A": ("fp16", a.shape), "B": ("fp16", b.shape)})
    config = load_target("npu")
    compiled = driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))
    artifact = get_backend("npu").compile(compiled, config)
    assert isinstance(artifact, NpuArtifact)
    assert "as the result leaves L0C -- on the Cube" in artifact.source
    assert "on the vector unit" not in artifact.source
    got = artifact.run({"A": a, "B": b})["C"]
    want = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16)
    np.testing.assert_array_max_ulp(got, want, maxulp=1)  # fp32 sums in another order


def test_cube_k_steps_from_the_pipeline_with_a_ragged_last_step() -> None:
    """The npu pipeline splits K (300 into steps of 64, the last one bounded by a constraint)
    and the backend cuts the tiles further (the rows' UB staging does not fit): the steps
    past K have no points, and neither operand's window reaches past the end of its buffer
    (it did: B's window went negative, a simulator error)."""
    config = load_target("npu")
    program = tile_program(
        "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }",
        {"A": ("fp32", (100, 300)), "B": ("fp32", (300, 70))},
    )
    compiled = driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))
    assert re.search(r"299 - k - ko+ >= 0", print_stripe(compiled))  # through the Cube's frames
    rng = np.random.default_rng(8)
    a, b = rng.uniform(-1, 1, (100, 300)), rng.uniform(-1, 1, (300, 70))
    inputs = {"A": a.astype(np.float32), "B": b.astype(np.float32)}
    artifact = get_backend("npu").compile(compiled, config)
    assert isinstance(artifact, NpuArtifact)
    assert "tiles chosen by the pass pipeline (tagged inner blocks), cut further" in artifact.source
    got = artifact.run(inputs)["C"]
    np.testing.assert_allclose(got, a @ b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", ["i32", "i8", "u8"])
def test_integer_division_truncates_as_c_does(dtype: str) -> None:
    """Integer `/` through fp32 on the vector unit (its only divide): toward zero, x / 0 is 0
    (the interpreter's value), INT_MIN / -1 wraps, exact over the whole int32 range where the
    fp32 operands are only 24-bit approximations (x / INT_MIN too, whose |y| wraps)."""
    np_type = {"i32": np.int32, "i8": np.int8, "u8": np.uint8}[dtype]
    info = np.iinfo(np_type)
    edge = np.array([info.min, info.max, -1, 0, 1, 2, 3, -3, 7, 2**24 + 1, 46341], np.int64)
    edge = edge[(edge >= info.min) & (edge <= info.max)]
    rng = np.random.default_rng(4)
    a = np.concatenate([np.repeat(edge, len(edge)), rng.integers(info.min, info.max, 1500)])
    b = np.concatenate([np.tile(edge, len(edge)), rng.integers(info.min, info.max, 1500)])
    b[-500:] = rng.integers(max(info.min, -40), 40, 500)  # small divisors too
    quotient = np.sign(a) * np.sign(b) * (np.abs(a) // np.where(b == 0, 1, np.abs(b)))
    want = np.where(b == 0, 0, quotient).astype(np_type)  # wraps INT_MIN / -1
    n = len(a)
    program = tile_program(
        "function (A[N], B[N]) -> (C, D, E) { C = A / B; D = A / 7; E = 100 / B; }",
        {"A": (dtype, (n,)), "B": (dtype, (n,))},
    )
    inputs = {"A": a.astype(np_type), "B": b.astype(np_type)}
    got = get_backend("npu").compile(program, load_target("npu")).run(inputs)
    np.testing.assert_array_equal(got["C"], want)
    # a constant operand is broadcast before its conversion (it was one repeat, read as many)
    np.testing.assert_array_equal(got["D"], (np.sign(a) * (np.abs(a) // 7)).astype(np_type))
    hundred = np.sign(b) * (100 // np.where(b == 0, 1, np.abs(b)))
    np.testing.assert_array_equal(got["E"], np.where(b == 0, 0, hundred).astype(np_type))


@pytest.mark.parametrize("dims", [(3, 5, 7), (4,), ()])
def test_shape_stores_the_sizes(dims: tuple[int, ...]) -> None:
    """`shape(X)` on the NPU: the sizes are compile-time constants, one store each (it was
    'special shape has no NPU mapping'); beside another kernel reading X."""
    program = tile_program(
        "function (X) -> (S, Y) { S = shape(X); Y = X * 2; }", {"X": ("fp32", dims)}
    )
    x = np.random.default_rng(2).standard_normal(dims).astype(np.float32)
    got = get_backend("npu").compile(program, load_target("npu")).run({"X": x})
    np.testing.assert_array_equal(got["S"], np.array(dims, np.int32))
    np.testing.assert_array_equal(got["Y"], x * 2)


def test_rounded_fp16_products_stored_as_fp32_stay_rounded() -> None:
    """Stripe whose fp16 products are not widened (`mul($A, $B)` of fp16 values) rounds them
    to fp16, even when the sum is an fp32 buffer: such a kernel is not the Cube's exact
    fp16 -> fp32 product. 256 * 256 overflows fp16, so the interpreter's sums are NaN."""
    path = Path(__file__).parent / "ir" / "fp16" / "rounded_products_into_fp32.stripe"
    program = parse_stripe(path.read_text(), str(path))
    a = np.tile(np.array([256.0, -256.0], np.float16), (32, 16))
    b = np.full((32, 32), 256.0, np.float16)
    got = get_backend("npu").compile(program, load_target("npu")).run({"A": a, "B": b})
    want = run_program(program, {"A": a, "B": b})
    assert np.isnan(want["C"]).all()
    assert not driver.compare_outputs(want, got)


# --------------------------------------------------------------------------------------------
# Options, machines, tiling


def test_unknown_codegen_key_is_an_error() -> None:
    with pytest.raises(CompileError, match="unknown key"):
        get_backend("npu").compile(load_program("tile/matmul"), with_changes(cube=True))


@pytest.mark.parametrize(
    ("hardware", "codegen", "message"),
    [
        ({}, {"buffering": 2.0}, r"\[codegen\] buffering = 2.0 must be an integer"),
        ({}, {"serialise": "false"}, r"\[codegen\] serialise = 'false' must be true or false"),
        ({}, {"reuse": 0}, r"\[codegen\] reuse = 0 must be true or false"),
        ({"ub_align": 64}, {}, r"\[hardware\] ub_align = 64: .* supports alignments up to 32"),
        ({"gm_align": 64}, {}, r"\[hardware\] gm_align = 64: .* supports alignments up to 32"),
        ({"cube_k": 8}, {}, r"cube_m/cube_n/cube_k = 16/16/8: .* sides are multiples of 16"),
    ],
)
def test_settings_the_code_generator_cannot_honour_are_named(
    hardware: dict[str, object], codegen: dict[str, object], message: str
) -> None:
    """A config the simulator would run but the code generator would silently ignore or break
    on (a float or string option, UB or GM alignment past its 32-byte blocks, a Cube it cannot
    map) is a CompileError naming the key."""
    with pytest.raises(CompileError, match=message):
        get_backend("npu").compile(load_program("tile/matmul"), with_changes(hardware, **codegen))


def test_a_non_square_cube_is_fine_when_contractions_stay_on_the_vector_unit() -> None:
    target = with_changes({"cube_k": 8}, fp32_contraction="vector", fp16_contraction="vector")
    run_checked(load_program("tile/matmul"), target)


def test_fp32_contractions_on_the_vector_unit_when_asked() -> None:
    artifact = run_checked(load_program("tile/matmul"), with_changes(fp32_contraction="vector"))
    assert artifact.last_report is not None and artifact.last_report.macs == 0


@pytest.mark.parametrize("program_id", ["tile/softmax", "tile/conv2d_padded", "tile/concat"])
def test_a_small_machine_with_short_vectors(program_id: str) -> None:
    """Every size comes from [hardware]: a machine with 16 KiB of UB, small L0 buffers and
    128-byte vector repeats still runs every kernel, within its capacities."""
    small = {
        "ub_bytes": 16384,
        "l1_bytes": 65536,
        "l0a_bytes": 8192,
        "l0b_bytes": 8192,
        "l0c_bytes": 16384,
        "vector_repeat_bytes": 128,
    }
    artifact = run_checked(load_program(program_id), with_changes(small))
    report = artifact.last_report
    assert report is not None and report.peak_bytes["UB"] <= small["ub_bytes"]


def test_large_kernels_are_tiled_and_double_buffered() -> None:
    program = tile_program((EXAMPLES / "softmax.tile").read_text(), {"X": ("fp32", (96, 700))})
    artifact = run_checked(program, load_target("npu"))
    assert "/* tile 2 of" in artifact.source
    report = artifact.last_report
    assert report is not None
    # Loads of the next tile overlap the current one: the pipes' busy time exceeds the total.
    assert sum(report.busy_cycles.values()) > report.total_cycles


def test_fp32_split_matches_fp32_and_fp16_uses_the_cube() -> None:
    text = (EXAMPLES / "matmul.tile").read_text()
    rng = np.random.default_rng(5)
    for dtype, rtol in (("fp32", 1e-6), ("fp16", 2e-3)):
        program = tile_program(text, {"A": (dtype, (40, 130)), "B": (dtype, (130, 24))})
        artifact = get_backend("npu").compile(program, load_target("npu"))
        assert isinstance(artifact, NpuArtifact)
        np_type = np.float32 if dtype == "fp32" else np.float16
        a = rng.uniform(-1, 1, (40, 130)).astype(np_type)
        b = rng.uniform(-1, 1, (130, 24)).astype(np_type)
        got = artifact.run({"A": a, "B": b})["C"].astype(np.float64)
        exact = a.astype(np.float64) @ b.astype(np.float64)
        assert np.max(np.abs(got - exact)) <= rtol * np.max(np.abs(exact))
        assert artifact.last_report is not None and artifact.last_report.macs > 0


# --------------------------------------------------------------------------------------------
# Sync: every flag is needed


@pytest.mark.parametrize("program_id", ["tile/softmax", "tile/matmul", "tile/concat"])
def test_every_flag_is_needed(program_id: str) -> None:
    """Removing any one set_flag/wait_flag pair makes the simulator report a hazard."""
    program = load_program(program_id)
    artifact = get_backend("npu").compile(program, load_target("npu"))
    assert isinstance(artifact, NpuArtifact)
    inputs = program_inputs(program_id, program)
    lines = artifact.source.splitlines()
    waits = [k for k, line in enumerate(lines) if line.strip().startswith("wait_flag(")]
    assert waits
    params = [artifact.c_names[n] for n in sorted(artifact.buffers)]
    for wait in waits:
        flag = lines[wait].strip().removeprefix("wait_").removesuffix(";")
        setter = max(k for k in range(wait) if lines[k].strip() == f"set_{flag};")
        source = "\n".join(line for k, line in enumerate(lines) if k not in (wait, setter))
        bare = dataclasses.replace(artifact, source=source, built=build(source + "\n", params))
        with pytest.raises(NpuSimError, match="hazard"):
            bare.run(inputs)


# --------------------------------------------------------------------------------------------
# The command line and the artifact


def test_plaidc_run_npu_check_prints_the_cycle_report() -> None:
    command = [
        str(Path(sys.executable).parent / "plaidc"),
        "run",
        str(EXAMPLES / "matmul.tile"),
        "-t",
        "npu",
        "-D",
        "M=32",
        "-D",
        "K=48",
        "-D",
        "N=16",
        "--random-inputs",
        "0",
        "--check",
    ]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, check=False)
    assert done.returncode == 0, done.stderr
    assert "NPU simulation:" in done.stdout
    assert "Cube: 73728 MACs" in done.stdout  # 3 GEMMs of 32x48x16: the fp32 split
    assert "check: outputs match the interpreter" in done.stderr


def test_emit_and_save_library(tmp_path: Path) -> None:
    program = load_program("tile/dense")
    artifact = get_backend("npu").compile(program, load_target("npu"))
    assert artifact.source.startswith('#include "plaidc_npu.h"')
    assert artifact.report() is None  # nothing ran yet
    artifact.save_library(tmp_path / "dense.so")
    assert (tmp_path / "dense.so").stat().st_size > 0


def test_index_values_come_from_a_constant_table() -> None:
    """`load_index` of an affine with a negative coefficient and an offset (values -7 .. 12)
    reads the table the compiler adds, shifted by the least value."""
    text = """block []:1 (
    in X[0, 0] i32(4, 6):(6, 1)
    out O[0, 0] i32(4, 6):(6, 1)
) {
  0:
  block [i:4, j:6] (
      in X[i, j] i32(1, 1):(6, 1)
      out O[i, j] i32(1, 1):(6, 1)
  ) {
    0: $x = load(X)
    1: $k = load_index(2 - 3*i + 2*j)
    2: $y = mul($x, $k)
    3: O = store($y)
  }
}
"""
    program = parse_stripe(text, "index.stripe")
    artifact = run_checked(program, load_target("npu"))
    assert "index_table" in artifact.source
    assert artifact.constants["index_table"].tolist() == list(range(20))


def test_cube_outputs_are_marked_reduced_precision() -> None:
    """`--check` compares what the Cube computed (from fp16 operands) at fp16 tolerance: the
    contraction's output and what is computed from it, not an independent output."""
    program = tile_program(
        "function (A[M, K], B[K, N], X[N]) -> (C, D, Y) {"
        " C[m, n : M, N] = +(A[m, k] * B[k, n]); D = relu(C); Y = exp(X); }",
        {"A": ("fp32", (16, 16)), "B": ("fp32", (16, 16)), "X": ("fp32", (16,))},
    )
    artifact = get_backend("npu").compile(program, load_target("npu"))
    assert isinstance(artifact, NpuArtifact)
    assert artifact.reduced_precision == {"C", "D"}
    exact = get_backend("npu").compile(program, with_changes(fp32_contraction="vector"))
    assert isinstance(exact, NpuArtifact) and exact.reduced_precision == frozenset()


def test_reduced_precision_outputs_compare_at_fp16_tolerance() -> None:
    want = {"C": np.array([1.0], np.float32)}
    got = {"C": np.array([1.004], np.float32)}
    assert driver.compare_outputs(want, got)
    assert not driver.compare_outputs(want, got, reduced_precision={"C"})


# --------------------------------------------------------------------------------------------
# A chip without some intrinsics (`[hardware] lacks`)


def test_a_program_needing_a_lacked_intrinsic_is_a_named_error() -> None:
    with pytest.raises(CompileError, match=r"lacks vexp \(\[hardware\] lacks\), .*exp\("):
        get_backend("npu").compile(load_program("tile/softmax"), with_changes({"lacks": ["vexp"]}))


def test_lacking_an_unused_intrinsic_changes_nothing() -> None:
    program = load_program("tile/softmax")
    full = get_backend("npu").compile(program, load_target("npu"))
    assert isinstance(full, NpuArtifact)
    lean = run_checked(program, with_changes({"lacks": ["vrsqrt", "vconv_s322s8"]}))
    assert lean.source == full.source
    assert lean.machine.lacks == ("vrsqrt", "vconv_s322s8")


@pytest.mark.parametrize("lacks", [["vfoo"], "vexp", [1]])
def test_lacks_must_name_vector_intrinsics(lacks: object) -> None:
    with pytest.raises(CompileError, match=r"\[hardware\] lacks"):
        get_backend("npu").compile(load_program("tile/softmax"), with_changes({"lacks": lacks}))


# --------------------------------------------------------------------------------------------
# Tiles chosen by the pass pipeline (autotile's inner blocks tagged `tile_tag`)


def npu_pipeline(program: Block, target: TargetConfig) -> Block:
    return driver.run_pipeline(program, driver.resolve_steps(target.stage()))


def tiled_kernel(program: Block, target: TargetConfig) -> tuple[Block, Block]:
    """The program after the pipeline, and its first kernel: the outer block of the tiles
    autotile chose (its one child tagged `npu_tile`)."""
    tiled = npu_pipeline(program, target)
    kernel = next(b for b in tiled.stmts[0].stmts if isinstance(b, Block))  # type: ignore[union-attr]
    inner = [s for s in kernel.stmts if isinstance(s, Block) and "npu_tile" in s.tags]
    assert len(inner) == 1
    return tiled, kernel


def test_the_pipelines_tiles_are_the_vector_units_tiles() -> None:
    """autotile cuts a 64 x 3000 fp32 elementwise block (768 KB) to a quarter of UB; the
    backend runs exactly one inner block per tile."""
    program = tile_program(
        "function (X[M, N]) -> (Y) { Y = exp(X) + 1; }", {"X": ("fp32", (64, 3000))}
    )
    target = load_target("npu")
    tiled, kernel = tiled_kernel(program, target)
    artifact = run_checked(tiled, target)
    assert "tiles chosen by the pass pipeline" in artifact.source
    assert artifact.source.count("/* tile ") == kernel.count  # one tile per outer point
    # without the tag the backend picks its own
    untagged = run_checked(tiled, with_changes(tile_tag=""))
    assert "tiles chosen" not in untagged.source


def test_more_pipeline_tiles_than_max_tiles_fall_back_to_the_backends() -> None:
    """A pipeline with an 8 KiB budget cuts the block into more tiles than the backend may
    unroll (`max_tiles = 64`): the backend picks its own (larger) tiles and says so."""
    program = tile_program(
        "function (X[M, N]) -> (Y) { Y = exp(X) + 1; }", {"X": ("fp32", (64, 3000))}
    )
    target = load_target("npu")
    steps = [
        dataclasses.replace(s, options={**s.options, "max_total_size": 8192})
        if s.pass_name == "autotile"
        else s
        for s in target.stage()
    ]
    tiled = npu_pipeline(program, dataclasses.replace(target, stages={"default": steps}))
    kernel = next(b for b in tiled.stmts[0].stmts if isinstance(b, Block))  # type: ignore[union-attr]
    assert kernel.count > 64
    artifact = run_checked(tiled, with_changes(max_tiles=64))
    assert "tiles chosen by the backend" in artifact.source
    assert 1 < artifact.source.count("/* tile ") <= 64
    # their windows differ from the pipeline's copies, so none sits at the copies' offsets
    assert "of UB): none; chosen here instead: X, Y */" in artifact.source


# --------------------------------------------------------------------------------------------
# Programs that once failed on the NPU (found by running unseen programs through the pipeline)

REGRESSIONS = {
    # one-to-one stores whose index box is not: the bound on a split index makes them injective
    "transpose": ("function (A[M, N]) -> (O) { O[n, m : N, M] = =(A[m, n]); }", {"A": (285, 500)}),
    "window_max": (
        "function (I[H, C]) -> (O) { O[x, c : H, C] = >(I[x + i - 1, c]), i < 3; }",
        {"I": (17, 1000)},
    ),
    "broadcast_add": (
        "function (A[M, N], B[N]) -> (O) { O = A + B; }",
        {"A": (300, 300), "B": (300,)},
    ),
    # a padded im2col matrix aliasing its window starts before the window's first element
    "padded_conv": (
        "function (I[N, H, W, CI], K[KH, KW, CI, CO]) -> (O) {"
        " O[n, x, y, co : N, H, W, CO] = +(I[n, x + i - 1, y + j - 1, ci] * K[i, j, ci, co]); }",
        {"I": (1, 9, 9, 32), "K": (3, 3, 32, 16)},
    ),
    # several points aggregating into one element: re-indexed (u = o - q*w), w reduced
    "diagonal_sum": (
        "function (A[M, N]) -> (C) { C[i + j : M + N - 1] = +(A[i, j]); }",
        {"A": (17, 15)},
    ),
    "polynomial_product": (
        "function (A[M], B[N]) -> (C, D) { C[i + j : M + N - 1] = +(A[i] * B[j]);"
        " D[2 * i + j : 2 * M + N] = >(A[i] + B[j]); }",
        {"A": (37,), "B": (300,)},
    ),
    # a tile whose only loop is its run: its declarations in a scope of their own
    "column_sum": ("function (A[M, N]) -> (C) { C[n : N] = +(A[m, n]); }", {"A": (260, 130)}),
}


@pytest.mark.parametrize("name", sorted(REGRESSIONS))
def test_regressions_through_the_npu_pipeline(name: str) -> None:
    text, shapes = REGRESSIONS[name]
    program = tile_program(text, {k: ("fp32", v) for k, v in shapes.items()})
    target = load_target("npu")
    run_checked(npu_pipeline(program, target), target)


@pytest.mark.parametrize(
    ("text", "dtypes"),
    [
        # fp64 in numpy (and the interpreter), stored to fp32: computed in fp32 lanes
        ("function (A[N], B[N]) -> (O) { O = A * B; }", ("fp32", "i32")),
        ("function (A[N], B[N]) -> (O) { O = A + B; }", ("fp16", "i32")),
        ("function (A[N], B[N]) -> (O) { O = exp(B) + A; }", ("fp32", "i32")),
        ("function (A[N], B[N]) -> (O) { O = B + 0.5; }", ("fp32", "i32")),
        # int64 / fp64 from weak constants only
        ("function (A[N], B[N]) -> (O) { O = A > 0.0 ? 1.0 : 0.0; }", ("fp32", "fp32")),
        ("function (A[N], B[N]) -> (O) { O = A > B ? 1 : 0; }", ("fp32", "i32")),
    ],
)
def test_64_bit_intermediates_of_32_bit_values_compute_in_32_bit_lanes(
    text: str, dtypes: tuple[str, str]
) -> None:
    program = tile_program(text, {"A": (dtypes[0], (300,)), "B": (dtypes[1], (300,))})
    run_checked(program, load_target("npu"))


def test_a_cut_reduction_whose_first_part_has_no_points_starts_the_output_later() -> None:
    """Rows of 110000 points (cut into parts to fit UB) whose first 40000 read before X's
    start, so have no points: the first parts store nothing, and the first part with points
    initialises the output instead of combining with it."""
    program = tile_program(
        "function (X[M, N]) -> (S) { S[m : M] = >(X[m, n - 40000]), n < 110000; }",
        {"X": ("fp32", (2, 70000))},
    )
    artifact = run_checked(program, load_target("npu"))
    assert "tile 1 of" in artifact.source and "n in [0, " in artifact.source  # cut


@pytest.mark.parametrize("dtype", ["fp32", "fp16"])
def test_floor_ceil_round_at_ties_edges_and_non_finite_values(dtype: str) -> None:
    program = tile_program(
        "function (A[N]) -> (F, C, R) { F = floor(A); C = ceil(A); R = round(A); }",
        {"A": (dtype, (64,))},
    )
    a = np.linspace(-6, 6, 64).astype(numpy_dtype(DType(dtype)))
    special = [0.5, -0.5, 1.5, 2.5, -2.5, np.nan, np.inf, -np.inf, -0.0, 65504.0, -1000.5]
    if dtype == "fp32":
        special += [1e10, -1e10, 8388609.0, 8388607.5, -8388607.5, 3e9, 0.49999997]
    a[: len(special)] = special
    artifact = get_backend("npu").compile(program, load_target("npu"))
    assert isinstance(artifact, NpuArtifact)
    got = artifact.run({"A": a})
    want = run_program(program, {"A": a})
    for name in ("F", "C", "R"):
        assert np.array_equal(got[name], want[name], equal_nan=True), name


def test_the_pipelines_output_tiles_are_the_cubes_tiles() -> None:
    """autotile (tile_cube) cuts a 512 x 512 x 512 fp32 matmul into 128 x 128 output blocks
    and K steps of 64 (each operand's two fp16 parts within half of L0A/L0B, the two
    accumulators within half of L0C), and the backend runs exactly those: one GEMM tile per
    output block, one K step per point of the blocks over tiles."""
    program = tile_program(
        "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }",
        {"A": ("fp32", (512, 512)), "B": ("fp32", (512, 512))},
    )
    target = load_target("npu")
    tiled, kernel = tiled_kernel(program, target)
    assert [(i.name, i.range) for i in kernel.idxs] == [("k", 8), ("m", 4), ("n", 4)]
    step = "(#stencil #stencil_k k:64), (#stencil #stencil_m m:128), (#stencil #stencil_n n:128)"
    assert f"block [{step}]" in print_stripe(kernel)
    artifact = run_checked(tiled, target)
    assert "tiles chosen by the pass pipeline (tagged inner blocks) */" in artifact.source
    report = artifact.report_json()
    assert report is not None and report["instructions"]["PIPE_M"] == 3 * kernel.count
    artifact = run_checked(tiled, unrolled())
    assert artifact.source.count("/* tile ") == 16
    assert artifact.source.count("mad(") == 3 * kernel.count
    # fp32 on the Cube: hi*hi, hi*lo and lo*hi products of the fp16 split
    assert artifact.last_report is not None and artifact.last_report.macs == 3 * 512**3


def test_comparison_results_compared_as_bool_values() -> None:
    """A comparison's mask used as a bool value by another comparison (bits -> 1 / 0)."""
    program = tile_program(
        "function (P[N], X[N]) -> (D, E, F) { D = P == (X > 0.0); E = (X > 0.0) == (X < 0.5);"
        " F = as_bool(X) != P; }",
        {"P": ("bool", (300,)), "X": ("fp32", (300,))},
    )
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, 300).astype(np.float32)
    x[:5] = 0
    inputs = {"P": rng.integers(0, 2, 300).astype(bool), "X": x}
    artifact = get_backend("npu").compile(program, load_target("npu"))
    assert isinstance(artifact, NpuArtifact)
    got, want = artifact.run(inputs), run_program(program, inputs)
    for name in ("D", "E", "F"):
        assert np.array_equal(got[name], want[name]), name


def test_comparison_results_and_bools_in_arithmetic() -> None:
    """Masks as 0/1 values: or/and of comparisons, bools promoted to int and float as numpy
    promotes them; i8 against u8 (int16 in numpy) compared in int32 lanes."""
    program = tile_program(
        "function (P[N], X[N], A[N], B[N]) -> (C, D, E, F, G) {"
        " C = (X >= 0.3) + (X > -0.2); D = (X < 0.5) * 2.5 + P; E = exp(X > 0.0);"
        " F = P * (X > 0.1) + abs(X < 0.2); G = (A < B) + (A == B) + (A >= 300); }",
        {"P": ("bool", (300,)), "X": ("fp32", (300,)), "A": ("i8", (300,)), "B": ("u8", (300,))},
    )
    rng = np.random.default_rng(2)
    inputs = {
        "P": rng.integers(0, 2, 300).astype(bool),
        "X": rng.uniform(-1, 1, 300).astype(np.float32),
        "A": rng.integers(-128, 128, 300).astype(np.int8),
        "B": rng.integers(0, 256, 300).astype(np.uint8),
    }
    inputs["B"][:50] = inputs["A"][:50].astype(np.uint8)  # some equal pairs
    artifact = get_backend("npu").compile(program, load_target("npu"))
    assert isinstance(artifact, NpuArtifact)
    got, want = artifact.run(inputs), run_program(program, inputs)
    for name in "CDFG":
        assert np.array_equal(got[name], want[name]), name
    # exp of a bool computes in fp32 (Tile's type), where the NPU's vexp is within an ulp
    np.testing.assert_allclose(got["E"], want["E"], rtol=3e-7)


_MATMUL = "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }"


@pytest.mark.parametrize(
    ("text", "shapes"),
    [
        ("function (X[N]) -> (Y) { Y = exp(X); }", {"X": (0,)}),
        (_MATMUL, {"A": (0, 3), "B": (3, 5)}),
        (_MATMUL, {"A": (3, 4), "B": (4, 0)}),
        (_MATMUL, {"A": (3, 0), "B": (0, 5)}),
        ("function (X[B, N]) -> (S) { S[b : B] = +(X[b, n]); }", {"X": (0, 7)}),
        ("function (X[B, N]) -> (S) { S[b : B] = +(X[b, n]); }", {"X": (3, 0)}),
    ],
)
def test_tensors_with_a_zero_sized_dimension(text: str, shapes: dict[str, tuple[int, ...]]) -> None:
    """Kernels without points do nothing (were a DMA of 0 blocks, or an internal error while
    tiling a zero range); a sum over nothing is 0."""
    program = tile_program(text, {name: ("fp32", dims) for name, dims in shapes.items()})
    run_checked(npu_pipeline(program, load_target("npu")), load_target("npu"))


@pytest.mark.parametrize("fn", ["sin", "exp", "sqrt", "tanh"])
@pytest.mark.parametrize("dtype", ["i8", "u8", "i32"])
def test_float_functions_of_integers_compute_in_fp32(fn: str, dtype: str) -> None:
    """Tile types `sin(i8)` fp32 and computes it so (numpy's own sin of int8 is fp16: the
    interpreter gave fp16-rounded values, the NPU fp32 ones)."""
    program = tile_program(f"function (A[N]) -> (O) {{ O = {fn}(A); }}", {"A": (dtype, (40,))})
    values = np.arange(40) * (7 if dtype == "i32" else 3) % 80
    inputs = {"A": values.astype(numpy_dtype(DType(dtype)))}
    want = getattr(np, fn)(inputs["A"].astype(np.float32))
    np.testing.assert_allclose(run_program(program, inputs)["O"], want, rtol=1e-6)
    run_checked(npu_pipeline(program, load_target("npu")), load_target("npu"))
