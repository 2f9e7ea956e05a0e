"""Identical kernels share one plan function (`plaidc.backends.loopnest.dedupe`): merged only
when one is the other renamed, and the program still computes what the interpreter does."""

from __future__ import annotations

import re

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.loopnest.dedupe import merge_identical_functions
from plaidc.backends.loopnest.plan import (
    BufferArg,
    BufferParam,
    Call,
    Comment,
    Function,
    IBin,
    IConst,
    IVar,
    LetScalar,
    Loop,
    Plan,
    ProgramBuffer,
    SBinary,
    ScalarType,
    SConst,
    SLoad,
    Store,
    SVar,
)
from plaidc.interp import program_io
from plaidc.stripe.ir import DType
from plaidc.targets import load_target

F32 = ScalarType(DType.FP32)


def kernel(name: str, out: str, src: str, i: str = "i", op: str = "max", const: float = 0.0):
    """out[i] = op(src[i], const) over 8 elements, in a function with params (out, src)."""
    at = IVar(i)
    value = SBinary(op, SLoad(src, at, F32), SConst(const, F32), F32)
    body = (
        Comment(f"{name}: {out} = {op}({src}, {const})"),
        Loop(i, IConst(0), IConst(8), (LetScalar("t", value), Store(out, at, SVar("t", F32)))),
    )
    params = (BufferParam(out, DType.FP32), BufferParam(src, DType.FP32, False))
    return Function(name, params, body, comment=name)


def program(*kernels: Function) -> Plan:
    buffers = tuple(
        ProgramBuffer(n, n, DType.FP32, (8,), (1,), 8, 0, n == "A", n != "A") for n in "ABCD"
    )
    calls = tuple(
        Call(k.name, (BufferArg(dst), BufferArg(src, writes=False)))
        for k, (dst, src) in zip(kernels, [("B", "A"), ("C", "B"), ("D", "C")], strict=False)
    )
    params = tuple(BufferParam(b.name, DType.FP32) for b in buffers)
    main = Function("main", params, calls)
    return Plan(buffers, (*kernels, main), "main")


def names(plan: Plan) -> list[str]:
    return [f.name for f in plan.functions]


def calls(plan: Plan) -> list[str]:
    (main,) = [f for f in plan.functions if f.name == plan.entry]
    return [c.function for c in main.body if isinstance(c, Call)]


def test_kernels_equal_up_to_renaming_become_one() -> None:
    plan = program(kernel("k0", "B", "A"), kernel("k1", "C", "B", i="j"), kernel("k2", "D", "C"))
    merged = merge_identical_functions(plan)
    assert names(merged) == ["k0", "main"]
    assert calls(merged) == ["k0", "k0", "k0"]


@pytest.mark.parametrize(
    "other",
    [
        kernel("k1", "C", "B", op="min"),  # another operation
        kernel("k1", "C", "B", const=-0.0),  # -0.0 == 0.0 as Python floats
        kernel("k1", "C", "B", const=1.0),
    ],
)
def test_kernels_that_differ_stay_apart(other: Function) -> None:
    plan = program(kernel("k0", "B", "A"), other)
    merged = merge_identical_functions(plan)
    assert names(merged) == ["k0", "k1", "main"] and calls(merged) == ["k0", "k1"]


def test_a_renaming_must_be_one_to_one() -> None:
    """k1 reads its output where k0 reads its input: not a renaming of k0."""
    k0 = kernel("k0", "B", "A")
    k1 = kernel("k1", "C", "C")
    k1 = Function("k1", (*k1.params[:1], BufferParam("B", DType.FP32, False)), k1.body)
    assert names(merge_identical_functions(program(k0, k1))) == ["k0", "k1", "main"]


def test_free_names_must_be_the_same() -> None:
    """A name a function does not bind (here a load of the program buffer D) is compared as
    it is: renaming applies to parameters and locals only."""
    k0 = kernel("k0", "B", "A")
    k1 = kernel("k1", "C", "B")
    loop = k1.body[1]
    assert isinstance(loop, Loop)
    let = LetScalar("u", SLoad("D", IBin("+", IVar("i"), IConst(0)), F32))
    twisted = Function("k1", k1.params, (loop.__class__(**{**loop.__dict__, "body": (let,)}),))
    k0_same = Function("k0", k0.params, twisted.body)
    assert names(merge_identical_functions(program(k0_same, twisted))) == ["k0", "main"]
    other = LetScalar("u", SLoad("C", IBin("+", IVar("i"), IConst(0)), F32))
    k1_other = Function("k1", k1.params, (loop.__class__(**{**loop.__dict__, "body": (other,)}),))
    # "C" is k1's parameter but "D" is free in k0: not the same code
    assert names(merge_identical_functions(program(k0_same, k1_other))) == [
        "k0",
        "k1",
        "main",
    ]


def test_callers_made_alike_by_a_merge_merge_next() -> None:
    """w0 calls k0 and w1 calls k1, the same kernel renamed: once k1 is k0, w1 is w0 (a later
    round sees w1's redirected call, not the canonical form it had before), while w2, calling
    k2 (another operation), stays apart."""

    def wrapper(name: str, callee: str) -> Function:
        params = (BufferParam("P", DType.FP32), BufferParam("Q", DType.FP32, False))
        call = Call(callee, (BufferArg("P"), BufferArg("Q", writes=False)))
        return Function(name, params, (call,))

    k0, k1 = kernel("k0", "B", "A"), kernel("k1", "C", "B", i="j")
    k2 = kernel("k2", "D", "C", op="min")
    wrappers = (wrapper("w0", "k0"), wrapper("w1", "k1"), wrapper("w2", "k2"))
    buffers = tuple(
        ProgramBuffer(n, n, DType.FP32, (8,), (1,), 8, 0, n == "A", n != "A") for n in "ABCD"
    )
    pairs = [("B", "A"), ("C", "B"), ("D", "C")]
    main_calls = tuple(
        Call(w.name, (BufferArg(dst), BufferArg(src, writes=False)))
        for w, (dst, src) in zip(wrappers, pairs, strict=True)
    )
    main = Function("main", tuple(BufferParam(b.name, DType.FP32) for b in buffers), main_calls)
    merged = merge_identical_functions(Plan(buffers, (k0, k1, k2, *wrappers, main), "main"))
    assert names(merged) == ["k0", "k2", "w0", "w2", "main"]
    assert calls(merged) == ["w0", "w0", "w2"]


MLP = """function (X[B, D0], W1[D0, D1], B1[D1], W2[D1, D2], B2[D2], W3[D2, D3], B3[D3]) -> (Y) {
  Z1[b, j : B, D1] = +(X[b, i] * W1[i, j]);
  H1 = relu(Z1 + B1);
  Z2[b, j : B, D2] = +(H1[b, i] * W2[i, j]);
  H2 = relu(Z2 + B2);
  Z3[b, j : B, D3] = +(H2[b, i] * W3[i, j]);
  Y = relu(Z3 + B3);
}"""


@pytest.mark.parametrize("backend", ["c", "llvm"])
@pytest.mark.parametrize(("batch", "width", "last"), [(128, 512, 512), (100, 520, 264)])
def test_repeated_layers_run_one_kernel_with_the_same_results(
    monkeypatch: pytest.MonkeyPatch, backend: str, batch: int, width: int, last: int
) -> None:
    """Layers of one shape: one kernel function, called once per layer with that layer's
    buffers; the results are the bits of the unmerged program's, and numpy's to fp32 sums'
    rounding. Ragged sizes and a last layer of another width too."""
    dims = {"B": batch, "D0": width, "D1": width, "D2": width, "D3": last}
    text = driver.ProgramText("mlp.tile", MLP, "tile")
    program = driver.build_program(driver.Session(), text, driver.Bindings(dims=dims))
    cfg = load_target(backend)
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    inputs = driver.random_inputs(program_io(compiled).inputs, seed=3)
    artifact = get_backend(backend).compile(compiled, cfg)
    got = artifact.run(inputs)["Y"]
    monkeypatch.setattr(f"plaidc.backends.{backend}.merge_identical_functions", lambda p: p)
    unmerged = get_backend(backend).compile(compiled, cfg)
    assert len(unmerged.source) > len(artifact.source)
    np.testing.assert_array_equal(got, unmerged.run(inputs)["Y"])
    x = {k: v.astype(np.float64) for k, v in inputs.items()}
    want = x["X"]
    for layer in "123":
        want = np.maximum(want @ x[f"W{layer}"] + x[f"B{layer}"], 0)
    assert np.max(np.abs(got - want)) <= 1e-4 * np.max(np.abs(want))
    source = artifact.source
    if backend == "c":
        defined = re.findall(r"^static void (kernel_\d+)\(", source, re.MULTILINE)
        called = re.findall(r"^\s+(kernel_\d+)\(", source, re.MULTILINE)
    else:
        defined = re.findall(r'^define internal void @"(kernel_\d+)"\(', source, re.MULTILINE)
        called = re.findall(r'call void @"(kernel_\d+)"\(', source)
    assert sorted(set(called)) == sorted(defined) and len(called) > len(defined), (defined, called)
    if width == last:
        assert len(defined) == 1 and len(called) == 3, (defined, called)


def test_merged_kernels_keep_a_profile_slot_per_call() -> None:
    """`--profile` instruments the call sites before the merge: each keeps its own slot."""
    dims = {"B": 128, "D0": 512, "D1": 512, "D2": 512, "D3": 512}
    text = driver.ProgramText("mlp.tile", MLP, "tile")
    program = driver.build_program(driver.Session(), text, driver.Bindings(dims=dims))
    cfg = load_target("c")
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    artifact = get_backend("c").compile(compiled, cfg, profile=True)
    assert artifact.profiler is not None
    kernels = artifact.profiler.profiled.kernels
    assert len(kernels) == 3 and len(set(kernels)) == 3, kernels
    assert artifact.source.count("static void kernel_") == 1
    inputs = driver.random_inputs(program_io(compiled).inputs, seed=1)
    artifact.run(inputs)
    assert np.all(np.asarray(artifact.profiler.seconds)[:3] > 0)
