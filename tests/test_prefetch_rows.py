"""Vector exp loops prefetch their next row (`[codegen] prefetch_next_row`,
`plaidc.backends.loopnest.prefetch`): where the prefetches go, that every address lies in its
buffer, and that they change no result."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.c import _emit
from plaidc.backends.loopnest.plan import (
    IBin,
    IConst,
    IntExpr,
    IVar,
    Loop,
    Plan,
    Prefetch,
    SUnary,
    scalar_children,
    walk_stmts,
)
from plaidc.interp import run_program
from plaidc.stripe.ir import Block, DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile

SOFTMAX_3D = """function (X[A, B, N]) -> (Y) {
  M[a, b, 0 : A, B, 1] = >(X[a, b, n]);
  E = exp(X - M);
  S[a, b, 0 : A, B, 1] = +(E[a, b, n]);
  Y = E / S;
}"""


def _program(name: str, shapes: dict[str, tuple[DType, tuple[int, ...]]]) -> Block:
    source = SOFTMAX_3D if name == "softmax3d" else Path(f"examples/{name}.tile").read_text()
    program = compile_tile(source, f"{name}.tile", shapes=shapes).program
    config = load_target("c")
    return driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))


def _c_plan(program: Block, prefetch: bool = True) -> Plan:
    config = load_target("c")
    config = dataclasses.replace(config, codegen={**config.codegen, "prefetch_next_row": prefetch})
    return _emit(program, config)[0]


def _evaluate(e: IntExpr, values: dict[str, int]) -> int:
    if isinstance(e, IConst):
        return e.value
    if isinstance(e, IVar):
        return values[e.name]
    assert isinstance(e, IBin), e
    a, b = _evaluate(e.a, values), _evaluate(e.b, values)
    return {"+": a + b, "-": a - b, "*": a * b, "min": min(a, b), "max": max(a, b)}[e.op]


def _prefetching_loops(plan: Plan) -> list[tuple[list[Loop], Loop]]:
    """Each loop with prefetches, with the loops around it (outermost first)."""
    found: list[tuple[list[Loop], Loop]] = []

    def visit(stmts: tuple, outer: list[Loop]) -> None:
        for s in stmts:
            if isinstance(s, Loop):
                if any(isinstance(x, Prefetch) for x in s.body):
                    found.append((outer, s))
                visit(s.body, [*outer, s])
            elif hasattr(s, "body"):
                visit(s.body, outer)
            elif hasattr(s, "then"):
                visit(s.then, outer)
                visit(s.orelse, outer)

    for f in plan.functions:
        visit(f.body, [])
    return found


def _computes_vector_exp(loop: Loop) -> bool:
    def exp(e: object) -> bool:
        if isinstance(e, SUnary) and e.op == "exp" and e.type.is_vector:
            return True
        return any(exp(c) for c in scalar_children(e))  # type: ignore[arg-type]

    return any(exp(getattr(s, "value", None)) for s in loop.body if hasattr(s, "value"))


@pytest.mark.parametrize(
    ("name", "shape"), [("softmax", (7, 100)), ("softmax", (2, 4096)), ("softmax3d", (3, 5, 48))]
)
def test_exp_loops_prefetch_the_next_row_within_the_buffer(
    name: str, shape: tuple[int, ...]
) -> None:
    plan = _c_plan(_program(name, {"X": (DType.FP32, shape)}))
    loops = _prefetching_loops(plan)
    assert loops, "no loop prefetches"
    size = int(np.prod(shape))
    row = shape[-1]
    for outer, loop in loops:
        assert _computes_vector_exp(loop)
        assert all(o.step == 1 and isinstance(o.lo, IConst) for o in outer)
        for prefetch in (s for s in loop.body if isinstance(s, Prefetch)):
            assert prefetch.buffer == "X"
            addresses = set()
            for point in np.ndindex(*(o.hi.value for o in outer)):  # type: ignore[union-attr]
                values = {o.var: v for o, v in zip(outer, point, strict=True)}
                for i in range(loop.lo.value, loop.hi.value, loop.step):  # type: ignore[union-attr]
                    offset = _evaluate(prefetch.offset, {**values, loop.var: i})
                    assert 0 <= offset < size
                    addresses.add(offset)
                    # the same column of the next row of the innermost loop around it (its
                    # last row: itself)
                    flat = sum(v * s for v, s in zip(point, _strides(shape), strict=True))
                    last = point[-1] + 1 == outer[-1].hi.value  # type: ignore[union-attr]
                    following = flat if last else flat + row
                    assert offset == following + i
            assert addresses


def _strides(shape: tuple[int, ...]) -> list[int]:
    """Row-major strides of the leading dimensions (the loops around the row)."""
    out = []
    for k in range(len(shape) - 1):
        out.append(int(np.prod(shape[k + 1 :])))
    return out


def test_memory_bound_loops_one_row_and_the_switch_off_do_not_prefetch() -> None:
    shapes = {"X": (DType.FP32, (8, 256)), "Gamma": (DType.FP32, (256,))}
    shapes["Beta"] = shapes["Gamma"]
    assert not _prefetching_loops(_c_plan(_program("layernorm", shapes)))
    assert not _prefetching_loops(_c_plan(_program("softmax", {"X": (DType.FP32, (1, 4096))})))
    softmax = _program("softmax", {"X": (DType.FP32, (8, 256))})
    assert not _prefetching_loops(_c_plan(softmax, prefetch=False))
    assert _prefetching_loops(_c_plan(softmax))
    source = _emit(softmax, load_target("c"))[1]
    pattern = r"__builtin_prefetch\(X \+ \(plaidc_min_i64\(\w+ \+ 1, 7\) \* 256 \+ \w+\), 0, 3\);"
    assert re.search(pattern, source)


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        ("softmax", (7, 37)),
        ("softmax", (1, 4096)),
        ("softmax", (33, 100)),
        ("softmax3d", (3, 5, 48)),
    ],
)
def test_prefetching_changes_no_result(name: str, shape: tuple[int, ...]) -> None:
    program = _program(name, {"X": (DType.FP32, shape)})
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(shape) * 30).astype(np.float32)
    x.reshape(-1, shape[-1])[0, 3] = -np.inf
    outputs = []
    for prefetch in (False, True):
        config = load_target("c")
        config = dataclasses.replace(
            config, codegen={**config.codegen, "prefetch_next_row": prefetch}
        )
        outputs.append(get_backend("c").compile(program, config).run({"X": x})["Y"])
    np.testing.assert_array_equal(outputs[0], outputs[1])
    want = run_program(program, {"X": x})["Y"]
    np.testing.assert_allclose(outputs[1], want, rtol=1e-5, atol=1e-7)


def test_llvm_runs_a_plan_with_prefetches() -> None:
    # the C backend's plan, prefetches and all, through the LLVM emitter (llvm.prefetch)
    from plaidc.backends.llvm.emit import emit_llvm
    from plaidc.backends.llvm.jit import jit
    from plaidc.backends.loopnest.runtime import run_plan

    program = _program("softmax", {"X": (DType.FP32, (6, 80))})
    plan = _c_plan(program)
    assert any(isinstance(s, Prefetch) for f in plan.functions for s in walk_stmts(f.body))
    module, threads = emit_llvm(plan, False, True, None)
    assert "llvm.prefetch" in str(module)
    x = np.random.default_rng(2).standard_normal((6, 80)).astype(np.float32)
    jitted = jit(str(module), threads, 3, False)  # (its engine holds the code)
    got = run_plan(plan, jitted.entry, {"X": x})["Y"]
    np.testing.assert_allclose(got, run_program(program, {"X": x})["Y"], rtol=1e-5, atol=1e-7)
