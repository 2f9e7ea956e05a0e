"""Unit tests of the OpenCL backend's rewritings, on small plans: loops onto NDRange
coordinates (`ndrange`) and work-group code (`groups`). No OpenCL runtime is needed."""

from __future__ import annotations

import itertools

from plaidc.backends.loopnest.plan import (
    Alloc,
    Call,
    Comment,
    IBin,
    ICmp,
    IConst,
    If,
    ILogic,
    IntExpr,
    IVar,
    LetInt,
    LetScalar,
    Loop,
    ScalarType,
    SConst,
    SLoad,
    Stmt,
    Store,
)
from plaidc.backends.opencl.groups import Cooperation
from plaidc.backends.opencl.kernels import BARRIER
from plaidc.backends.opencl.ndrange import (
    Mapped,
    bindings,
    constant_nest,
    map_nest,
    replace_loops,
    split_dims,
    trip_count,
)
from plaidc.stripe.ir import DType

F32 = ScalarType(DType.FP32)


def evaluate(expr: IntExpr, env: dict[str, int]) -> int:
    if isinstance(expr, IConst):
        return expr.value
    if isinstance(expr, IVar):
        return env[expr.name]
    assert isinstance(expr, IBin)
    a, b = evaluate(expr.a, env), evaluate(expr.b, env)
    ops = {"+": a + b, "-": a - b, "*": a * b, "pdiv": a // b if b else 0, "rem": a % b if b else 0}
    return ops[expr.op]


def store(buffer: str, var: str) -> Store:
    return Store(buffer, IVar(var), SConst(1.0, F32))


# ---- ndrange ---------------------------------------------------------------------------------


def test_innermost_variable_gets_dimension_zero_and_extras_share_the_last() -> None:
    mapped = [Mapped(v, IConst(0), 2) for v in "abcd"]
    dims = split_dims(mapped)
    assert [[m.var for m in dim] for dim in dims] == [["d"], ["c"], ["a", "b"]]
    assert [[m.var for m in dim] for dim in split_dims(mapped, 1)] == [["a", "b", "c", "d"]]


def test_bindings_decompose_a_shared_dimension_row_major() -> None:
    a, b, c = Mapped("a", IConst(10), 2), Mapped("b", IVar("s"), 3), Mapped("c", IConst(0), 4)
    binds = bindings([[a, b, c]], [IVar("g")])
    seen = set()
    for g in range(24):
        env = {"g": g, "s": 5}
        values = []
        for s in binds:
            assert isinstance(s, LetInt)
            env[s.name] = evaluate(s.value, env)
            values.append(env[s.name])
        seen.add(tuple(values))
    assert seen == set(itertools.product(range(10, 12), range(5, 8), range(4)))


def test_a_loop_over_the_whole_range_becomes_its_body() -> None:
    loop = Loop("i", IConst(0), IConst(8), (store("O", "i"),))
    assert replace_loops([loop], {"i": Mapped("i", IConst(0), 8)}) == (store("O", "i"),)


def test_a_loop_over_part_of_the_range_becomes_a_guard() -> None:
    loop = Loop("i", IConst(1), IVar("n"), (store("O", "i"),))
    (guard,) = replace_loops([Comment("x"), loop], {"i": Mapped("i", IConst(0), 8)})[1:]
    assert guard == If(
        ILogic("and", ICmp(">=", IVar("i"), IConst(1)), ICmp("<", IVar("i"), IVar("n"))),
        (store("O", "i"),),
    )


def test_a_value_isl_fixed_guards_the_rest_of_the_list() -> None:
    stmts = [LetInt("i", IConst(3)), store("O", "i")]
    assert replace_loops(stmts, {"i": Mapped("i", IConst(0), 8)}) == (
        If(ICmp("==", IVar("i"), IConst(3)), (store("O", "i"),)),
    )


def test_a_mapped_loop_inside_another_loop_cannot_be_mapped() -> None:
    inner = Loop("i", IConst(0), IConst(8), (store("O", "i"),))
    outer = Loop("k", IConst(0), IConst(4), (inner,))
    assert replace_loops([outer], {"i": Mapped("i", IConst(0), 8)}) is None


def test_constant_nests_map_innermost_loop_to_dimension_zero() -> None:
    body: tuple[Stmt, ...] = (store("O", "e1"),)
    inner = Loop("e1", IConst(0), IConst(5), body)
    outer = Loop("e0", IConst(2), IConst(9), (LetInt("t", IConst(1)), inner), step=3)
    chain = constant_nest([Comment("init"), outer])
    assert chain == [outer, inner] and [trip_count(loop) for loop in chain] == [3, 5]
    mapped = map_nest([Comment("init"), outer], chain, [IVar("g0"), IVar("g1")])
    assert mapped == (
        Comment("init"),
        LetInt("e0", IBin("+", IConst(2), IBin("*", IVar("g1"), IConst(3)))),
        LetInt("t", IConst(1)),
        LetInt("e1", IVar("g0")),
        *body,
    )


# ---- work-group code -------------------------------------------------------------------------

BAR = Call(BARRIER, ())
LEADER = ICmp("==", IVar("lid"), IConst(0))


def test_group_stores_run_on_the_leader_between_barriers() -> None:
    load = LetScalar("x", SLoad("A", IConst(0), F32))
    out = Cooperation("lid", 8).rewrite([load, store("O", "z"), store("P", "z")])
    assert out == (
        load,
        BAR,
        If(LEADER, (store("O", "z"),)),
        BAR,
        If(LEADER, (store("P", "z"),)),
        BAR,
    )


def test_independent_loops_are_spread_over_the_work_items() -> None:
    loop = Loop("i", IConst(2), IConst(50), (store("O", "i"),), vector=True)
    (_, spread, _) = Cooperation("lid", 8).rewrite([loop])
    assert isinstance(spread, Loop)
    assert spread.lo == IBin("+", IConst(2), IVar("lid")) and spread.step == 8


def test_thread_regions_stay_and_group_allocations_become_local() -> None:
    region = If(ICmp("<", IVar("lid"), IConst(4)), (store("T", "lid"),))
    alloc = Alloc("T", DType.FP32, 4, (region,))
    group = Cooperation("lid", 8)
    assert group.rewrite([alloc]) == (Alloc("T", DType.FP32, 4, (BAR, region, BAR)),)
    assert group.local_allocs == [alloc]


def test_uniform_loops_around_thread_regions_keep_barriers_inside() -> None:
    region = If(ICmp("<", IVar("lid"), IConst(4)), (store("T", "lid"),))
    loop = Loop("k", IConst(0), IConst(3), (region,))
    assert Cooperation("lid", 8).rewrite([loop]) == (
        Loop("k", IConst(0), IConst(3), (BAR, region, BAR)),
    )
