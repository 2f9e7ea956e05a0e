"""A Cube tile's store issued a tile later (`cube.defer_store`), its transfers spread over the
next tile's K steps (`cube.spread_store`), and kept off the bytes where the next tile's windows
go (`Gemm._store`): MTE3 runs in order, so a store issued as soon as its tile ends would hold up
the next tile's copies into L1 until the result is out of L0C."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact, _generate
from plaidc.backends.npu.cube import defer_store, spread_store
from plaidc.backends.npu.ops import Op, Region, begin_iteration, call, end_loop
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import DType
from plaidc.targets import load_target

from .support import EXAMPLES


def _op(note: str, reads: tuple[Region, ...] = (), writes: tuple[Region, ...] = ()) -> Op:
    return Op("PIPE_V", (), reads, writes, note)


STORE = Op("PIPE_MTE3", (), (Region("UB", 0, 4096),), (Region("GM:C", 0, 4096),), "store C")


def test_a_store_goes_after_the_next_tile_when_it_touches_none_of_its_bytes() -> None:
    ops = [_op("a", (Region("UB", 4096, 8192),), (Region("UB", 8192, 9000),))]
    assert defer_store(STORE, ops) == [*ops, STORE]
    assert defer_store(None, ops) == ops


def test_a_store_goes_first_when_the_next_tile_reuses_its_bytes() -> None:
    overwrites = [_op("a"), _op("b", (), (Region("UB", 4000, 5000),))]
    assert defer_store(STORE, overwrites) == [STORE, *overwrites]
    reads_result = [_op("a", (Region("GM:C", 100, 200),))]
    assert defer_store(STORE, reads_result) == [STORE, *reads_result]
    writes_result = [_op("a", (), (Region("GM:C", 4064, 4100),))]
    assert defer_store(STORE, writes_result) == [STORE, *writes_result]
    # another memory's bytes at the same addresses do not count
    elsewhere = [_op("a", (Region("L1", 0, 4096),), (Region("GM:B", 0, 4096),))]
    assert defer_store(STORE, elsewhere) == [*elsewhere, STORE]


def _fp16_matmul(m: int, k: int, n: int) -> tuple[Any, Any, Any]:
    shapes = {"A": (DType.FP16, (m, k)), "B": (DType.FP16, (k, n))}
    program = driver.load_program(
        driver.Session(), str(EXAMPLES / "matmul.tile"), driver.Bindings(shapes=shapes)
    )
    target = load_target("npu")
    compiled = driver.run_pipeline(program, driver.resolve_steps(target.stage("default")))
    return program, compiled, target


def _check(program: Any, artifact: NpuArtifact) -> dict[str, Any]:
    inputs = driver.random_inputs(program_io(program).inputs, seed=5)
    got = artifact.run({k: v.copy() for k, v in inputs.items()})
    loose = artifact.reduced_precision
    assert not driver.compare_outputs(run_program(program, inputs), got, loose)
    report = artifact.report_json()
    assert report is not None and report["unwaited_flags"] == 0
    return report


def _k_steps(steps: int, indices: list[int] | None = None) -> list[Op]:
    """A tile's ops: a loop of `steps` K steps (the iterations `indices`, a sample), each a
    copy into L1 and a `mad`, then the result out of L0C."""
    ops = []
    for s in indices if indices is not None else range(steps):
        ops.append(begin_iteration(7, s, steps))
        ops.append(Op("PIPE_MTE3", (call("to_l1", s),), note=f"strips {s}"))
        ops.append(Op("PIPE_M", (call("mad", s),), note=f"mad {s}"))
    return [*ops, end_loop(7, steps), Op("PIPE_V", (call("l0c"),), note="L0C")]


def _columns(n: int) -> Op:
    stmts = tuple(call("copy_ubuf_to_gm", col) for col in range(n))
    return dataclasses.replace(STORE, stmts=stmts)


def _layout(ops: list[Op]) -> list[str]:
    """Each op's note, a store transfer as `col N`."""
    out = []
    for op in ops:
        if op.mark is not None:
            out.append(f"[{op.mark.index}]")
        elif op.note == "store C":
            (stmt,) = op.stmts
            out.append(f"col {stmt.expr.args[0].text}")  # type: ignore[attr-defined]
        else:
            out.append(op.note)
    return out


def test_a_stores_transfers_are_spread_over_the_next_tiles_k_steps_after_the_first() -> None:
    # 8 transfers over K steps 1..3 of 4: two each, the last K step the rest
    ops = _k_steps(4)
    spread = spread_store(_columns(8), ops)
    assert spread is not None
    assert _layout(spread) == [
        "[0]", "strips 0", "mad 0",
        "[1]", "strips 1", "mad 1", "col 0", "col 1",
        "[2]", "strips 2", "mad 2", "col 2", "col 3",
        "[3]", "strips 3", "mad 3", "col 4", "col 5", "col 6", "col 7",
        "[-1]", "L0C",
    ]  # fmt: skip
    # each transfer its own op, reading and writing what the store did
    pieces = [op for op in spread if op.note == "store C"]
    assert all(op.reads == STORE.reads and op.writes == STORE.writes for op in pieces)
    assert defer_store(_columns(8), ops) == spread
    # one each over 8 K steps' last 7, the last two
    layout = _layout(spread_store(_columns(8), _k_steps(8)) or [])
    assert [layout[layout.index(f"col {c}") - 1] for c in range(8)] == [
        *(f"mad {s}" for s in range(1, 8)),
        "col 6",
    ]


def test_a_store_of_fewer_transfers_than_k_steps_goes_after_the_tile() -> None:
    assert spread_store(_columns(2), _k_steps(4)) is None
    assert defer_store(_columns(2), _k_steps(4)) == [*_k_steps(4), _columns(2)]
    assert spread_store(_columns(8), _k_steps(1)) is None  # no K step after the first
    assert spread_store(_columns(8), [_op("a")]) is None  # no K steps at all


def test_a_store_is_spread_over_the_k_steps_before_one_that_touches_its_bytes() -> None:
    """The next row's first tile brings a K step of its left operand into UB where the
    result waits (its last K step): the transfers go at the ends of the K steps before it;
    a sampled K loop, or a conflict in the first two K steps, keeps the store first."""
    ops = _k_steps(4)
    at = next(i for i, op in enumerate(ops) if op.note == "strips 3")
    ops[at] = dataclasses.replace(ops[at], writes=(Region("UB", 0, 64),))
    layout = _layout(defer_store(_columns(8), ops))
    assert layout[: layout.index("[3]")] == [
        "[0]", "strips 0", "mad 0",
        "[1]", "strips 1", "mad 1", "col 0", "col 1", "col 2", "col 3",
        "[2]", "strips 2", "mad 2", "col 4", "col 5", "col 6", "col 7",
    ]  # fmt: skip
    sampled = _k_steps(16, [0, 1, 2, 3, 4, 5, 12, 13, 14, 15])
    at = next(i for i, op in enumerate(sampled) if op.note == "strips 13")
    sampled[at] = dataclasses.replace(sampled[at], reads=(Region("GM:C", 0, 64),))
    assert defer_store(_columns(16), sampled) == [_columns(16), *sampled]
    early = _k_steps(4)
    early[4] = dataclasses.replace(early[4], writes=(Region("UB", 0, 64),))  # K step 1's
    assert defer_store(_columns(8), early) == [_columns(8), *early]


def test_a_sampled_k_loop_places_the_transfers_by_the_k_steps_index() -> None:
    """A sample's K steps take the transfers of their index: the rolled loop's body has
    the others' (an affine function of the index)."""
    spread = spread_store(_columns(30), _k_steps(16, [0, 1, 2, 3, 4, 5, 12, 13, 14, 15]))
    layout = _layout(spread or [])
    assert [c for c in layout if c.startswith("col")] == [
        f"col {c}" for c in [*range(0, 10), *range(22, 30)]
    ]
    assert layout[layout.index("[15]") :] == [
        "[15]", "strips 15", "mad 15", "col 28", "col 29", "[-1]", "L0C",
    ]  # fmt: skip


def test_each_tiles_store_is_spread_over_the_next_tiles_k_steps() -> None:
    """fp16 256 x 512 x 512: several output tiles per row, each of several K steps, stored by
    fractal columns. In the program order (every iteration lowered and printed), the first
    tile's stores to C begin after the second tile's second K step, before its last one;
    the result is the interpreter's."""
    program, compiled, target = _fp16_matmul(256, 512, 512)
    one_copy_each = dataclasses.replace(target, codegen={**dict(target.codegen), "loops": False})
    unrolled = _generate(compiled, one_copy_each, sampling=False)
    text = unrolled.source
    mads = [m.start() for m in re.finditer(r"\bmad\(", text)]
    stores = [m.start() for m in re.finditer(r"copy_ubuf_to_gm\(C\b", text)]
    tiles = [m.start() for m in re.finditer(r"/\* tile \d+ of", text)]
    assert len(tiles) >= 3 and len(stores) >= len(tiles)
    second = [p for p in mads if tiles[1] < p < tiles[2]]
    first_stores = [p for p in stores if p < tiles[2]]
    steps = len(second) // 2  # two M parts: two mads a K step
    assert steps >= 2 and len(first_stores) >= steps - 1
    # after the second K step's mads, the first before the last K step's
    assert second[3] < first_stores[0] < second[-2]
    artifact = get_backend("npu").compile(compiled, target)
    assert isinstance(artifact, NpuArtifact)
    _check(program, artifact)


def test_a_sampled_row_of_tiles_stores_the_tile_it_skipped() -> None:
    """A row of more tiles than a sample lowers: the first tile lowered after the gap issues
    the store of the one before it, which the sample skipped. The C is the one lowering
    every tile gives, and it computes the program."""
    program, compiled, target = _fp16_matmul(32, 32, 8192)
    artifact = get_backend("npu").compile(compiled, target)
    assert isinstance(artifact, NpuArtifact)
    assert "for (int64_t i_" in artifact.source
    assert _generate(compiled, target, sampling=False).source == artifact.source
    _check(program, artifact)
