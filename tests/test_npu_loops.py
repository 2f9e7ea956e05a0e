"""Loop code generation of the NPU backend (`backends/npu/loops.py`): sampling, rolling with
guarded ends, the C growing with the program and not with its tiles, and `compile` not
building the simulator."""

from __future__ import annotations

import gc
import itertools
from typing import Any

import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.c import ast as c
from plaidc.backends.npu import NpuArtifact, _generate
from plaidc.backends.npu.loops import (
    LoopMark,
    NotRollable,
    build,
    fit,
    roll_runs,
    sample,
    steady,
)
from plaidc.backends.npu.ops import call
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import Affine
from plaidc.targets import load_target

from .support import EXAMPLES

# -- a small evaluator: loops and guards expanded back into the straight statements ----------


def _eval(expr: Any, env: dict[str, int]) -> int:
    if isinstance(expr, c.Literal):
        return int(expr.text, 0)
    if isinstance(expr, c.Ident):
        if expr.name.startswith("EVENT_ID"):
            return int(expr.name[8:])
        return env[expr.name]
    if isinstance(expr, c.Unary):
        assert expr.op == "-"
        return -_eval(expr.operand, env)
    if isinstance(expr, c.Ternary):
        return _eval(expr.then if _eval(expr.cond, env) else expr.orelse, env)
    assert isinstance(expr, c.Binary), expr
    a, b = _eval(expr.left, env), _eval(expr.right, env)
    ops = {
        "+": a + b,
        "*": a * b,
        "&": a & b,
        "==": int(a == b),
        "!=": int(a != b),
        "<": int(a < b),
        ">=": int(a >= b),
        "&&": int(bool(a) and bool(b)),
    }
    return ops[expr.op]


def _expand(stmts: tuple[c.Stmt, ...] | list[c.Stmt], env: dict[str, int]) -> list[tuple]:
    """Each call statement executed, as (function, argument values)."""
    out: list[tuple] = []
    for stmt in stmts:
        if isinstance(stmt, c.For):
            for i in range(_eval(stmt.init, env), _eval(stmt.limit, env)):
                out.extend(_expand(stmt.body, {**env, stmt.var: i}))
        elif isinstance(stmt, c.If):
            if _eval(stmt.cond, env):
                out.extend(_expand(stmt.then, env))
        elif isinstance(stmt, c.ExprStmt):
            assert isinstance(stmt.expr, c.CallExpr)
            out.append((stmt.expr.func, tuple(_eval(a, env) for a in stmt.expr.args)))
    return out


def _flag(kind: str, event: int) -> c.Stmt:
    return call(kind, c.Literal("0"), c.Literal("1"), c.Ident(f"EVENT_ID{event}"))


def _iteration(i: int, count: int) -> list[c.Stmt]:
    """A double-buffered step: no wait in the first iteration, no set in the last, event
    ids that settle after a transient, an address with parity, a GM offset."""
    out: list[c.Stmt] = []
    if i > 0:
        out.append(_flag("wait_flag", 3 if i == 1 else i & 1))
    out.append(call("copy", c.Literal(hex(0x100 + 0x8000 * (i & 1))), 64 * i + 7, 4))
    out.append(call("vadd", 3 * i, 2 * i + 1, 5))
    if i < count - 1:
        out.append(_flag("set_flag", 3 if i == 0 else (i + 1) & 1))
    return out


def _items(indices: list[int], count: int) -> list[c.Stmt | LoopMark]:
    items: list[c.Stmt | LoopMark] = [call("before", 1)]
    for i in indices:
        items.append(LoopMark(1, i, count))
        items.extend(_iteration(i, count))
    items.append(LoopMark(1, -1, count))
    items.append(call("after", 2))
    return items


@pytest.mark.parametrize("count", [1, 2, 5, 8, 13, 40, 41])
def test_rolled_loop_executes_every_iteration_as_lowered(count: int) -> None:
    straight = [s for i in range(count) for s in _iteration(i, count)]
    want = _expand([call("before", 1), *straight, call("after", 2)], {})
    rolled = build(_items(list(range(count)), count))
    assert _expand(rolled, {}) == want
    # from a sample of the iterations: the same program, extrapolated
    sampled = build(_items(sample(count, True), count))
    assert _expand(sampled, {}) == want
    if count >= 8:
        assert len(sampled) <= 4, "one loop with guarded ends"
        assert any(isinstance(s, c.For) for s in sampled)


def test_sample_keeps_the_parity_of_the_skipped_iterations() -> None:
    for count in range(1, 60):
        picked = sample(count, True)
        assert picked[0] == 0 and picked[-1] == count - 1
        gaps = [b - a for a, b in itertools.pairwise(picked) if b - a > 1]
        assert all(gap % 2 == 1 for gap in gaps), (count, picked)
    assert sample(100, True) == [0, 1, 2, 3, 4, 5, 96, 97, 98, 99]
    assert sample(100, False) == list(range(100))


def test_fit_needs_an_affine_pattern_with_parity() -> None:
    assert fit([(2, 7), (3, 100), (4, 11), (5, 104)]) == (3, 2, 91)
    assert fit([(2, 4), (3, 9), (4, 16), (5, 25)]) is None  # i * i
    assert fit([(2, 1), (3, 2)]) is None  # one point of each parity cannot tell


def test_sampled_iterations_that_differ_are_not_rolled() -> None:
    count = 30
    items: list[c.Stmt | LoopMark] = []
    for i in sample(count, True):
        items.append(LoopMark(1, i, count))
        items.append(call("vadd", i * i, 1))  # not affine: the whole loop must be lowered
    items.append(LoopMark(1, -1, count))
    with pytest.raises(NotRollable):
        build(items)
    # lowered in full, the same iterations are printed one by one
    full: list[c.Stmt | LoopMark] = []
    for i in range(count):
        full.append(LoopMark(1, i, count))
        full.append(call("vadd", i * i, 1))
    full.append(LoopMark(1, -1, count))
    assert _expand(build(full), {}) == [("vadd", (i * i, 1)) for i in range(count)]


def test_statements_shared_between_iterations_roll_like_fresh_ones() -> None:
    """Skeletons are kept per statement object and interned (`loops._Memo`): one object met
    in every iteration, and alike statements built apart, roll to the same program."""
    count = 20
    shared = call("barrier", 7)
    items: list[c.Stmt | LoopMark] = []
    for i in sample(count, True):
        items.append(LoopMark(1, i, count))
        items.extend((shared, call("vadd", c.Literal(hex(0x100 * i)), 3 * i + 1), shared))
    items.append(LoopMark(1, -1, count))
    want = [
        stmt
        for i in range(count)
        for stmt in (("barrier", (7,)), ("vadd", (0x100 * i, 3 * i + 1)), ("barrier", (7,)))
    ]
    rolled = build(items)
    assert any(isinstance(s, c.For) for s in rolled)
    assert _expand(rolled, {}) == want


def test_compile_leaves_the_cycle_collector_as_it_found_it() -> None:
    _, compiled, target = _matmul(48, 256, 40)
    assert gc.isenabled()
    get_backend("npu").compile(compiled, target)
    assert gc.isenabled()
    gc.disable()
    try:
        get_backend("npu").compile(compiled, target)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_runs_of_alike_statements_become_loops() -> None:
    stmts = tuple(call("load", c.Literal(hex(0x200 * r)), r, 8) for r in range(8))
    rolled = roll_runs((call("first", 0), *stmts, call("last", 1)))
    assert len(rolled) == 3 and isinstance(rolled[1], c.For)
    assert _expand(rolled, {}) == _expand((call("first", 0), *stmts, call("last", 1)), {})


# -- the backend --------------------------------------------------------------------------


def _matmul(m: int, k: int, n: int) -> Any:
    dims = {"M": m, "K": k, "N": n}
    program = driver.load_program(
        driver.Session(), str(EXAMPLES / "matmul.tile"), driver.Bindings(dims=dims)
    )
    target = load_target("npu")
    compiled = driver.run_pipeline(program, driver.resolve_steps(target.stage("default")))
    return program, compiled, target


def test_the_c_grows_with_the_program_not_with_its_tiles() -> None:
    sizes = {}
    for k in (512, 1024):
        _, compiled, target = _matmul(64, k, 64)
        artifact = get_backend("npu").compile(compiled, target)
        assert isinstance(artifact, NpuArtifact)
        assert artifact.built is None, "compile builds no simulator library"
        sizes[k] = len(artifact.source.splitlines())
        assert "for (int64_t i_" in artifact.source
    assert sizes[512] == sizes[1024]


def test_looped_kernel_from_a_sample_is_the_kernel_lowered_in_full() -> None:
    """Lowering a sample of each loop's iterations gives the C that lowering every iteration
    and rolling them gives, and it computes the program."""
    program, compiled, target = _matmul(48, 1024, 40)
    artifact = get_backend("npu").compile(compiled, target)
    assert isinstance(artifact, NpuArtifact)
    assert "for (int64_t i_" in artifact.source
    assert _generate(compiled, target, sampling=False).source == artifact.source
    inputs = driver.random_inputs(program_io(program).inputs, seed=3)
    got = artifact.run(inputs)
    loose = artifact.reduced_precision
    assert not driver.compare_outputs(run_program(program, inputs), got, loose)


def test_report_counts_the_instructions_of_each_intrinsic() -> None:
    program, compiled, target = _matmul(48, 1024, 40)
    artifact = get_backend("npu").compile(compiled, target)
    assert isinstance(artifact, NpuArtifact)
    artifact.run(driver.random_inputs(program_io(program).inputs, seed=3))
    report = artifact.report_json()
    assert report is not None
    counts = report["instructions_by_intrinsic"]
    assert counts["mad"] == report["instructions"]["PIPE_M"] > 0
    assert (
        counts["load_cbuf_to_ca"] + counts["load_cbuf_to_cb"] == report["instructions"]["PIPE_MTE1"]
    )
    assert sum(counts.values()) == sum(report["instructions"].values())
    assert "mad" in (artifact.report() or "")


def test_loops_whose_addresses_are_not_affine_are_lowered_in_full() -> None:
    """A conv's K steps run over kernel rows and channel blocks: the input's address jumps a
    row every 8 steps, which a sample of the steps cannot see (4, 5, 20 and 21 fit a line).
    `steady` keeps such a loop from being sampled: the C is the one lowered in full."""
    dims = {"N": 1, "H": 30, "W": 30, "CI": 64, "KH": 3, "KW": 3, "CO": 64}
    program = driver.load_program(
        driver.Session(), str(EXAMPLES / "conv2d_bias_relu.tile"), driver.Bindings(dims=dims)
    )
    target = load_target("npu")
    compiled = driver.run_pipeline(program, driver.resolve_steps(target.stage("default")))
    assert _generate(compiled, target, sampling=True).source == (
        _generate(compiled, target, sampling=False).source
    )


def test_steady_needs_affine_forms_at_the_middle_starts() -> None:
    k, k_1 = Affine.var("k", 512), Affine.var("k_1")
    boxes = [{"k": (t // 16, 1), "k_1": (32 * (t % 16), 32)} for t in range(32)]
    assert steady(boxes, [k + k_1])  # 512 * k + k_1 = 32 * t
    assert not steady(boxes, [Affine.var("k", 3712) + k_1])  # a row every 16 steps
    assert not steady(boxes)  # the starts themselves are not affine
    ragged = [{"m": (16 * t, 16)} for t in range(9)] + [{"m": (144, 5)}]
    assert steady(ragged)  # the last (ragged) tile is an end, not the middle
