"""A Cube tile's store issued a tile later (`cube.defer_store`), and kept off the bytes where
the next tile's windows go (`Gemm._store`): MTE3 runs in order, so a store issued as soon as
its tile ends would hold up the next tile's copies into L1 until the result is out of L0C."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact, _generate
from plaidc.backends.npu.cube import defer_store
from plaidc.backends.npu.ops import Op, Region
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


def test_each_tiles_store_follows_the_next_tiles_mads() -> None:
    """fp16 256 x 512 x 512: several output tiles per row, each of several K steps. In the
    program order (every iteration lowered and printed), the first store to C comes after
    the second tile's last `mad`; the result is the interpreter's."""
    program, compiled, target = _fp16_matmul(256, 512, 512)
    one_copy_each = dataclasses.replace(target, codegen={**dict(target.codegen), "loops": False})
    unrolled = _generate(compiled, one_copy_each, sampling=False)
    text = unrolled.source
    mads = [m.start() for m in re.finditer(r"\bmad\(", text)]
    stores = [m.start() for m in re.finditer(r"copy_ubuf_to_gm\(C\b", text)]
    tiles = [m.start() for m in re.finditer(r"/\* tile \d+ of", text)]
    assert len(tiles) >= 3 and len(stores) >= len(tiles)
    second_tile_end = max(p for p in mads if p < tiles[2])
    assert stores[0] > second_tile_end
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
