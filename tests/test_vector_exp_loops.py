"""Loops computing fp32 exp written with vector types (`plaidc.backends.loopnest.vector_loops`,
the c backend's `vector_exp_loops`): where the form applies and where it must not, and the
results against the interpreter (the oracle of `--check`) on odd shapes and special values."""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.c.emit import emit_c
from plaidc.backends.loopnest import lower_program
from plaidc.backends.loopnest.plan import (
    Alloc,
    AssignVar,
    DeclVar,
    IBin,
    IConst,
    IVar,
    LetScalar,
    Loop,
    Reduction,
    SBinary,
    ScalarType,
    SConst,
    SLoad,
    Store,
    SUnary,
    SVar,
    walk_stmts,
)
from plaidc.backends.loopnest.scope import LoweringOptions
from plaidc.backends.loopnest.vector_loops import explicit_vector_loop
from plaidc.interp import run_program
from plaidc.stripe.ir import Block, DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile

F32 = ScalarType(DType.FP32)
V16 = ScalarType(DType.FP32, 16)

SOFTMAX = """function (X[B, N]) -> (Y) {
  M[b, 0 : B, 1] = >(X[b, n]);
  E = exp(X - M);
  S[b, 0 : B, 1] = +(E[b, n]);
  Y = E / S;
}"""

# softmax over the last axis of a 3-D tensor
SOFTMAX_3D = """function (X[A, B, N]) -> (Y) {
  M[a, b, 0 : A, B, 1] = >(X[a, b, n]);
  E = exp(X - M);
  S[a, b, 0 : A, B, 1] = +(E[a, b, n]);
  Y = E / S;
}"""


def tile(source: str, x: np.ndarray) -> Block:
    return compile_tile(source, "rows.tile", shapes={"X": (DType.FP32, x.shape)}).program


def pipelined(source: str, target: str, x: np.ndarray) -> Block:
    config = load_target(target)
    return driver.run_pipeline(tile(source, x), driver.resolve_steps(config.stage("default")))


def fresh_names() -> object:
    count = iter(range(1000))
    return lambda base: f"{base}_{next(count)}"


def exp_loop(hi: int, offset_step: int = 1, reduction: str = "add") -> Loop:
    """`for i in [0, hi): E = exp(X[step * i] - m); Y[i] = E; s = s (op) E`."""
    load = SLoad("X", IBin("*", IVar("i"), IConst(offset_step)), F32)
    body = (
        LetScalar("E", SUnary("exp", SBinary("sub", load, SVar("m", F32), F32), F32)),
        Store("Y", IVar("i"), SVar("E", F32)),
        AssignVar("s", SBinary(reduction, SVar("s", F32), SVar("E", F32), F32)),
    )
    return Loop(
        "i", IConst(0), IConst(hi), body, vector=True, reductions=(Reduction("s", reduction, F32),)
    )


def test_a_loop_computing_exp_becomes_a_vector_loop_a_lane_sum_and_its_remainder() -> None:
    out = explicit_vector_loop(exp_loop(37), 16, fresh_names())
    decl, main, combine, rest = out
    assert isinstance(decl, DeclVar) and decl.type == V16
    assert isinstance(main, Loop) and (main.lo, main.hi, main.step) == (IConst(0), IConst(32), 16)
    exps = [
        s for s in walk_stmts(main.body) if isinstance(s, LetScalar) and isinstance(s.value, SUnary)
    ]
    assert [s.value.type for s in exps] == [V16]
    stores = [s for s in main.body if isinstance(s, Store)]
    assert [s.value.type for s in stores] == [V16]
    assert isinstance(combine, Alloc) and combine.size == 16
    assert isinstance(rest, Loop) and rest.lo == IConst(32) and rest.hi == IConst(37)
    assert rest.body == exp_loop(37).body  # the remainder is the scalar loop
    # a multiple of the lanes: no remainder
    assert len(explicit_vector_loop(exp_loop(64), 16, fresh_names())) == 3


@pytest.mark.parametrize(
    "loop",
    [
        exp_loop(15),  # fewer iterations than lanes
        exp_loop(64, offset_step=2),  # a strided load: no vector load
        exp_loop(64, reduction="max"),  # a max: NaN semantics are not a vector's
    ],
)
def test_loops_the_vector_form_cannot_express_are_left_alone(loop: Loop) -> None:
    assert explicit_vector_loop(loop, 16, fresh_names()) == [loop]


def test_a_loop_without_exp_is_left_to_the_compiler() -> None:
    body = (
        Store("Y", IVar("i"), SBinary("mul", SLoad("X", IVar("i"), F32), SConst(2.0, F32), F32)),
    )
    loop = Loop("i", IConst(0), IConst(64), body, vector=True)
    assert explicit_vector_loop(loop, 16, fresh_names()) == [loop]


def test_only_the_option_writes_vector_exp() -> None:
    x = np.zeros((4, 100), np.float32)
    program = pipelined(SOFTMAX, "c", x)
    on = LoweringOptions(vector_bytes=64, vector_exp_loops=True)
    source = emit_c(lower_program(program, on), polynomial_exp=True)
    assert "plaidc_f32x16_exp(" in source
    off = emit_c(lower_program(program, LoweringOptions(vector_bytes=64)), polynomial_exp=True)
    assert "plaidc_f32x16_exp(" not in off
    # the c backend asks for it with its polynomial exp
    assert "plaidc_f32x16_exp(" in get_backend("c").compile(program, load_target("c")).source


def special_rows(cols: int) -> np.ndarray:
    """Rows of special values: -inf among numbers, all -inf (0/0: NaN), +inf (inf - inf:
    NaN), a NaN, huge and tiny magnitudes, constant rows."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((9, cols)).astype(np.float32) * 5
    x[0, :: max(cols // 3, 1)] = -np.inf
    x[1, :] = -np.inf
    x[2, cols // 2] = np.inf
    x[3, cols - 1] = np.nan  # in the remainder loop when cols is no multiple of 16
    x[4, :] = rng.standard_normal(cols).astype(np.float32) * 1e30
    x[5, :] = 3.0e38
    x[6, :] = rng.standard_normal(cols).astype(np.float32) * 1e-30
    x[7, :] = 88.0  # exp(0) everywhere
    x[8, : cols // 2] = -200.0  # exp underflows to 0 and subnormals there
    return x


@pytest.mark.parametrize(
    ("source", "x"),
    [
        (SOFTMAX, np.float32(np.random.default_rng(0).standard_normal((1, 1)))),
        (SOFTMAX, special_rows(1)),
        (SOFTMAX, special_rows(17)),
        (SOFTMAX, special_rows(37)),
        (SOFTMAX, special_rows(4096)),
        (SOFTMAX, np.random.default_rng(1).standard_normal((7, 50000)).astype(np.float32)),
        (SOFTMAX, np.random.default_rng(2).standard_normal((4096, 128)).astype(np.float32)),
        (SOFTMAX, np.random.default_rng(4).standard_normal((33, 1000)).astype(np.float32) * 40),
        (SOFTMAX_3D, np.random.default_rng(5).standard_normal((8, 64, 768)).astype(np.float32)),
    ],
    ids=[
        "1x1",
        "specials1",
        "specials17",
        "specials37",
        "specials4096",
        "7x50000",
        "4096x128",
        "33x1000",
        "8x64x768",
    ],
)
def test_softmax_matches_the_interpreter(source: str, x: np.ndarray) -> None:
    x = np.asarray(x, np.float32).reshape(x.shape if x.ndim > 1 else (1, -1))
    program = pipelined(source, "c", x)
    artifact = get_backend("c").compile(program, load_target("c"))
    assert "plaidc_f32x16_exp(" in artifact.source or x.shape[-1] < 16
    got = artifact.run({"X": x})
    with np.errstate(all="ignore"):
        want = run_program(tile(source, x), {"X": x})
    terms = driver.longest_reduction(program)
    assert not driver.compare_outputs(want, got, reduction_terms=terms)
    # NaN exactly where the interpreter has NaN
    np.testing.assert_array_equal(np.isnan(got["Y"]), np.isnan(want["Y"]))


SIGMOID = "function (X[N]) -> (Y) { Y = 1.0 / (1.0 + exp(-X)); }"


def test_sigmoid_negation_and_division_match_the_interpreter() -> None:
    rng = np.random.default_rng(6)
    x = (rng.standard_normal(1007) * 30).astype(np.float32)  # 62 vectors and 15 left over
    x[:8] = [np.inf, -np.inf, np.nan, 0.0, -0.0, 88.8, -104.0, 3.0e38]
    program = pipelined(SIGMOID, "c", x)
    artifact = get_backend("c").compile(program, load_target("c"))
    assert "plaidc_f32x16_exp(" in artifact.source and "= -" in artifact.source
    got = artifact.run({"X": x})
    with np.errstate(all="ignore"):
        want = run_program(tile(SIGMOID, x), {"X": x})
    assert not driver.compare_outputs(want, got)
    np.testing.assert_array_equal(np.isnan(got["Y"]), np.isnan(want["Y"]))
