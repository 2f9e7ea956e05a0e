"""Long vector loops peeled to an aligned start (`[codegen] align_vector_loops`,
`plaidc.backends.loopnest.align`): the gap is the distance to the next boundary on c and
llvm, every element is computed once whatever the buffers' alignment, and only long
vectorised loops are peeled."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.c.build import DEFAULT_FLAGS, build_library, load_entry
from plaidc.backends.c.emit import emit_c
from plaidc.backends.llvm.emit import emit_llvm
from plaidc.backends.llvm.jit import jit
from plaidc.backends.loopnest import lower_program
from plaidc.backends.loopnest.align import peel_to_alignment
from plaidc.backends.loopnest.plan import (
    I64,
    AssignVar,
    BufferParam,
    Function,
    IAlignGap,
    IBin,
    IConst,
    IntExpr,
    IVar,
    LetInt,
    LetScalar,
    Loop,
    Plan,
    ProgramBuffer,
    Reduction,
    SBinary,
    ScalarType,
    SIndex,
    SLoad,
    Store,
    SUnary,
    SVar,
    int_buffers,
    int_vars,
    walk_stmts,
)
from plaidc.backends.loopnest.runtime import run_plan
from plaidc.backends.loopnest.scope import LoweringOptions
from plaidc.backends.toolchain import find_compiler
from plaidc.interp import numpy_dtype
from plaidc.stripe.ir import Block, DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile

F32 = ScalarType(DType.FP32)
LAYERNORM = """function (X[B, N], Gamma[N], Beta[N]) -> (Y) {
  S[b, 0 : B, 1] = +(X[b, n]);
  Mean = S / N;
  D = X - Mean;
  V[b, 0 : B, 1] = +(D[b, n] * D[b, n]);
  Y = D / sqrt(V / N + 1e-5) * Gamma + Beta;
}"""
AXPY = "function (X[B, N], Z[B, N]) -> (Y) { Y = X * 3 + Z; }"


def gap_plan(elem: DType) -> Plan:
    """G[k] = the elements from &X[k] to the next 64-byte boundary, for k < 16."""
    buffers = (
        ProgramBuffer("X", "X", elem, (32,), (1,), 32, 0, True, False),
        ProgramBuffer("G", "G", DType.I64, (16,), (1,), 16, 0, False, True, True),
    )
    gap = LetInt("g", IAlignGap("X", IVar("k"), 64))
    store = Store("G", IVar("k"), SIndex(IVar("g"), I64))
    body = (Loop("k", IConst(0), IConst(16), (gap, store)),)
    params = (BufferParam("X", elem, False), BufferParam("G", DType.I64))
    return Plan(buffers, (Function("main", params, body),), "main")


@pytest.mark.parametrize("target", ["c", "llvm"])
@pytest.mark.parametrize("elem", [DType.FP32, DType.FP64, DType.I8])
def test_the_gap_is_the_distance_to_the_next_boundary(target: str, elem: DType) -> None:
    plan = gap_plan(elem)
    if target == "c":
        entry = load_entry(build_library(emit_c(plan), find_compiler(None), DEFAULT_FLAGS))
    else:
        module, threads = emit_llvm(plan)
        jitted = jit(str(module), threads)  # kept alive while its entry runs
        entry = jitted.entry
    dtype = numpy_dtype(elem)
    pool = np.zeros(32 * dtype.itemsize + 128, np.uint8)
    for shift in range(0, 64, dtype.itemsize):
        start = -pool.ctypes.data % 64 + shift
        x = pool[start : start + 32 * dtype.itemsize].view(dtype)
        got = run_plan(plan, entry, {"X": x})["G"]
        want = [(-(x.ctypes.data + k * dtype.itemsize) % 64) // dtype.itemsize for k in range(16)]
        assert got.tolist() == want, shift


def pipelined(source: str, target: str, **shapes: tuple[int, ...]) -> Block:
    typed = {name: (DType.FP32, shape) for name, shape in shapes.items()}
    program = compile_tile(source, "p.tile", shapes=typed).program
    config = load_target(target)
    return driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))


def peeled_loops(program: Block, **options: int) -> list[Loop]:
    plan = lower_program(program, LoweringOptions(vector_bytes=64, **options))
    stmts = tuple(s for f in plan.functions for s in f.body)
    gaps = {s.name for s in walk_stmts(stmts) if isinstance(s, LetInt) and aligned(s.value)}
    return [s for s in walk_stmts(stmts) if isinstance(s, Loop) and gaps & set(int_vars(s.lo))]


def aligned(value: IntExpr) -> list[str]:
    """The buffers whose alignment an integer expression reads (a peel's length)."""
    return list(int_buffers(value))


def aligned_in(plan: Plan) -> list[str]:
    stmts = tuple(s for f in plan.functions for s in f.body)
    return [b for s in walk_stmts(stmts) if isinstance(s, LetInt) for b in aligned(s.value)]


def test_long_vector_loops_are_peeled_and_short_ones_are_not() -> None:
    program = pipelined(AXPY, "c", X=(4, 600), Z=(4, 600))
    (main,) = peeled_loops(program, align_vector_loops=512)
    assert main.vector and main.hi == IConst(600)
    assert peeled_loops(program, align_vector_loops=601) == []
    assert peeled_loops(program, align_vector_loops=0) == []
    short = pipelined(AXPY, "c", X=(4, 300), Z=(4, 300))
    assert peeled_loops(short, align_vector_loops=512) == []


def test_the_peel_aligns_the_store_and_runs_scalar() -> None:
    x, y = SLoad("X", IVar("i"), F32), IVar("i")
    loop = Loop("i", IConst(3), IConst(1000), (LetScalar("t", x), Store("Y", y, x)), vector=True)
    let, peel, main = peel_to_alignment(loop, 64, 512, str)
    assert isinstance(let, LetInt) and aligned(let.value) == ["Y"]
    assert isinstance(peel, Loop) and not peel.vector and peel.lo == IConst(3)
    assert isinstance(main, Loop) and main.vector and main.lo == peel.hi
    # a parallel loop, a strided store, a loop with symbolic bounds: left alone
    for other in (
        dataclasses.replace(loop, parallel=True),
        dataclasses.replace(loop, vector=False),
    ):
        assert peel_to_alignment(other, 64, 512, str) == [other]
    twice = IBin("*", IVar("i"), IConst(2))
    strided = dataclasses.replace(loop, body=(Store("Y", twice, SLoad("X", twice, F32)),))
    assert peel_to_alignment(strided, 64, 512, str) == [strided]
    # ... but a strided store beside a load of one element per iteration: the load aligned
    load_only = dataclasses.replace(loop, body=(Store("Y", twice, x),))
    let = peel_to_alignment(load_only, 64, 512, str)[0]
    assert isinstance(let, LetInt) and aligned(let.value) == ["X"]
    # a sum reading its element in the accumulation itself: that load aligned
    total = AssignVar("s", SBinary("add", SVar("s", F32), x, F32))
    sums = dataclasses.replace(loop, body=(total,), reductions=(Reduction("s", "add", F32),))
    let = peel_to_alignment(sums, 64, 512, str)[0]
    assert isinstance(let, LetInt) and aligned(let.value) == ["X"]
    symbolic = dataclasses.replace(loop, hi=IVar("n"))
    assert peel_to_alignment(symbolic, 64, 512, str) == [symbolic]
    # a loop calling exp: bound by it, and its peel would call it per element
    exp = dataclasses.replace(loop, body=(Store("Y", y, SUnary("exp", x, F32)),))
    assert peel_to_alignment(exp, 64, 512, str) == [exp]


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_every_element_once_at_every_alignment(target: str) -> None:
    """Rows of 1027 elements start at every residue modulo the 16 lanes; the inputs are views
    at every element offset of a 64-byte boundary. An element computed twice or never, or
    read from the wrong place, changes Y exactly; the layernorm's sums to within rounding."""
    rows, cols = 17, 1027
    config = load_target(target)
    config = dataclasses.replace(config, codegen={**config.codegen, "align_vector_loops": 512})
    axpy = get_backend(target).compile(
        pipelined(AXPY, target, X=(rows, cols), Z=(rows, cols)), config
    )
    norm = pipelined(LAYERNORM, target, X=(rows, cols), Gamma=(cols,), Beta=(cols,))
    layernorm = get_backend(target).compile(norm, config)
    assert aligned_in(axpy.plan) == ["Y"] and "Y" in aligned_in(layernorm.plan)
    rng = np.random.default_rng(0)
    pool = rng.standard_normal(2 * rows * cols + 64).astype(np.float32)
    base = -pool.ctypes.data % 64 // 4
    gamma, beta = rng.standard_normal(cols).astype(np.float32), np.float32(0.5)
    for shift in range(16):
        x = pool[base + shift :][: rows * cols].reshape(rows, cols)
        z = pool[base + shift + rows * cols :][: rows * cols].reshape(rows, cols)
        np.testing.assert_array_equal(axpy.run({"X": x, "Z": z})["Y"], x * np.float32(3) + z)
        b = np.full(cols, beta, np.float32)
        got = layernorm.run({"X": x, "Gamma": gamma, "Beta": b})["Y"]
        mean = x.astype(np.float64).mean(axis=1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
        want = (x - mean) / np.sqrt(var + 1e-5) * gamma + b
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_cpu_configs_peel_loops_of_512_iterations() -> None:
    for target in ("c", "llvm"):
        assert load_target(target).codegen.get("align_vector_loops") == 512
    assert "align_vector_loops" not in load_target("opencl").codegen
