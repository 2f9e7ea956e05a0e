"""Division by a loop-invariant value as a multiplication by its reciprocal (c, llvm:
`[codegen] divide_by_reciprocal`, `plaidc.backends.loopnest.reciprocal`): within a few ulps
where the reciprocal is normal, and the exact quotient (the dividing copy of the loop) where it
is not: subnormal and huge divisors, zeros, infinities and NaN."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.c.emit import emit_c
from plaidc.backends.loopnest import lower_program
from plaidc.backends.loopnest.plan import If, Loop, SBinary, scalar_children, walk_stmts
from plaidc.backends.loopnest.scope import LoweringOptions
from plaidc.stripe.ir import Block, DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile

ROW_DIVIDE = "function (X[B, N], D[B, 1]) -> (Y) { Y = X / D; }"


def optimised(source: str, target: str, **shapes: tuple[DType, tuple[int, ...]]) -> Block:
    program = compile_tile(source, "div.tile", shapes=shapes).program
    config = load_target(target)
    return driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))


def run(source: str, target: str, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    shapes = {k: (DType(v.dtype.name.replace("float", "fp")), v.shape) for k, v in inputs.items()}
    config = load_target(target)
    return get_backend(target).compile(optimised(source, target, **shapes), config).run(inputs)


def divisors(dtype: type) -> np.ndarray:
    info = np.finfo(dtype)
    tiny, huge = float(info.smallest_normal), float(info.max)
    return np.array(
        [
            1.7,
            -3.25,
            1e-3,
            tiny,  # the smallest normal divisor: 1/tiny is normal
            tiny / 3,  # subnormal: 1/s overflows
            -tiny / 1000,
            huge / 3,  # 1/s is subnormal
            2.0 ** (info.maxexp - 1),  # the largest divisor whose reciprocal is normal
            0.0,
            -0.0,
            np.inf,
            -np.inf,
            np.nan,
        ],
        dtype=dtype,
    ).reshape(-1, 1)


@pytest.mark.parametrize("target", ["c", "llvm"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_division_matches_numpy_for_every_kind_of_divisor(target: str, dtype: type) -> None:
    d = divisors(dtype)
    rng = np.random.default_rng(1)
    cols = 37  # a vector loop and its remainder
    x = rng.standard_normal((len(d), cols)) * 10.0 ** rng.integers(-30, 30, (len(d), cols))
    x = x.astype(dtype)
    tiny = np.finfo(dtype).smallest_normal
    x[:, :4] = [0.0, np.inf, -tiny, tiny / 7]  # quotients at and past both ends of the range
    with np.errstate(all="ignore"):
        want = x / d
    got = run(ROW_DIVIDE, target, {"X": x, "D": d})["Y"]
    size = np.abs(d[:, 0])
    exact = (size < tiny) | (size > 2.0 ** (np.finfo(dtype).maxexp - 1)) | np.isnan(size)
    # divisors whose reciprocal is not normal, zeros, infinities, NaN: the exact quotient
    np.testing.assert_array_equal(got[exact], want[exact])
    # the others: a multiplication by the rounded reciprocal, within two rounding errors
    eps = float(np.finfo(dtype).eps)
    normal = got[~exact]
    finite = np.isfinite(want[~exact]) & (np.abs(want[~exact]) >= tiny)
    np.testing.assert_allclose(normal[finite], want[~exact][finite], rtol=2 * eps, atol=0)
    np.testing.assert_array_equal(np.isnan(normal), np.isnan(want[~exact]))
    np.testing.assert_array_equal(np.isinf(normal), np.isinf(want[~exact]))


def _divides(plan_stmts: tuple) -> list[str]:
    """The float ops of every vector loop of a plan: 'div' / 'mul' per binary expression."""
    ops: list[str] = []

    def visit(expr: object) -> None:
        if isinstance(expr, SBinary) and expr.op in ("div", "mul"):
            ops.append(expr.op)
        for child in scalar_children(expr):  # type: ignore[arg-type]
            visit(child)

    for stmt in walk_stmts(plan_stmts):
        if isinstance(stmt, Loop) and stmt.vector:
            for inner in stmt.body:
                value = getattr(inner, "value", None)
                if value is not None:
                    visit(value)
    return ops


def test_softmax_multiplies_by_the_reciprocal_in_a_versioned_loop() -> None:
    program = optimised(
        "function (X[B, N]) -> (Y) { M[b, 0 : B, 1] = >(X[b, n]); E = exp(X - M);"
        " S[b, 0 : B, 1] = +(E[b, n]); Y = E / S; }",
        "c",
        X=(DType.FP32, (8, 100)),
    )
    on = lower_program(program, LoweringOptions(divide_by_reciprocal=True))
    off = lower_program(program, LoweringOptions())
    body_on = tuple(s for f in on.functions for s in f.body)
    body_off = tuple(s for f in off.functions for s in f.body)
    assert _divides(body_off) == ["div"]
    # the multiplying loop, and the dividing one kept for divisors without a normal reciprocal
    assert sorted(_divides(body_on)) == ["div", "mul"]
    assert any(isinstance(s, If) for s in walk_stmts(body_on))
    assert "* recip" in emit_c(on)


def test_integer_and_varying_divisors_are_left_alone() -> None:
    source = "function (X[B, N], D[B, N], K[B, 1]) -> (Y, Z) { Y = X / D; Z = K / X; }"
    program = optimised(
        source,
        "c",
        X=(DType.FP32, (4, 40)),
        D=(DType.FP32, (4, 40)),
        K=(DType.FP32, (4, 1)),
    )
    plan = lower_program(program, LoweringOptions(divide_by_reciprocal=True))
    body = tuple(s for f in plan.functions for s in f.body)
    assert "mul" not in _divides(body)
    ints = optimised(ROW_DIVIDE, "c", X=(DType.I32, (4, 40)), D=(DType.I32, (4, 1)))
    plan = lower_program(ints, LoweringOptions(divide_by_reciprocal=True))
    body = tuple(s for f in plan.functions for s in f.body)
    assert not any(isinstance(s, If) for s in walk_stmts(body))


def test_the_option_is_read_from_the_config() -> None:
    config = load_target("c")
    assert config.codegen.get("divide_by_reciprocal") is True
    off = dataclasses.replace(config, codegen={**config.codegen, "divide_by_reciprocal": False})
    program = optimised(ROW_DIVIDE, "c", X=(DType.FP32, (4, 40)), D=(DType.FP32, (4, 1)))
    assert "recip" in get_backend("c").compile(program, config).source
    assert "recip" not in get_backend("c").compile(program, off).source
