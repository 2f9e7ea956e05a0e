"""UB placement by the npu pipeline (`cache` + `place`), honoured by the backend (the vector
unit's tiles and the Cube's K steps).

* `placement.uncache` turns the pipeline's UB copies back into the views they copy: on every
  op-library program and final PlaidML dump, the pipeline with the copies, uncached, is the
  pipeline without them, exactly.
* The generated C puts a tile's windows at the offsets `place` chose, in the tile's half of UB
  (tiles alternate halves), and says which windows it placed elsewhere (tiles the backend
  chose itself: `test_backend_npu_units.py`).
* A block whose copies are not in the form `cache` makes is left as it is.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from plaidc import driver
from plaidc.analysis.liveness import allocation_bytes
from plaidc.backends.npu.ops import Arena, Buf
from plaidc.backends.npu.placement import uncache
from plaidc.stripe.ir import Block, Refinement
from plaidc.targets import load_target

from .support.backend_c import PROGRAMS, load_program
from .support.backend_npu_units import run_checked, tile_program, unrolled

# names in targets/npu.toml: the UB copies, the Cube's frames and copies, their placement
PLACEMENT_STEPS = (
    "ub_windows",
    "place_ub",
    "cube_l1_frame",
    "cube_l0_frame",
    "l1_copy_a",
    "l1_copy_b",
    "l0a_copy",
    "l0b_copy",
    "l0c_accumulator",
    "place_l1",
    "place_l0a",
    "place_l0b",
    "place_l0c",
)
# what the frames (`stencil` with `whole`) add besides copies, which the backend ignores
FRAME_TAGS = ("npu_cube_l1", "npu_cube_step", "npu_cube_l0", "npu_mad", "cube_a", "cube_b")
FRAME_TAGS += ("cube_c", "stencil", "stencil_m", "stencil_n", "stencil_k")
CHECKED = [p for p in PROGRAMS if p.startswith("tile/") or p.endswith("15_prune_refs")]


def pipeline(program: Block, with_copies: bool = True) -> Block:
    steps = driver.resolve_steps(load_target("npu").stage())
    assert {s.name for s in steps} >= set(PLACEMENT_STEPS)
    if not with_copies:
        steps = [s for s in steps if s.name not in PLACEMENT_STEPS]
    return driver.run_pipeline(program, steps)


@pytest.mark.parametrize("program_id", CHECKED)
def test_uncache_inverts_the_pipelines_copies(program_id: str) -> None:
    program = load_program(program_id)
    back, placements = uncache(pipeline(program), "UB", "npu_tile")
    assert _untagged(back) == _untagged(pipeline(program, with_copies=False))
    for placed in placements.values():
        assert all(p.offset % 32 == 0 for p in placed.values())


def _untagged(block: Block) -> Block:
    """`block` without the frames' tags."""
    return dataclasses.replace(
        block,
        tags=block.tags.remove(*FRAME_TAGS),
        idxs=tuple(dataclasses.replace(i, tags=i.tags.remove(*FRAME_TAGS)) for i in block.idxs),
        refs=tuple(dataclasses.replace(r, tags=r.tags.remove(*FRAME_TAGS)) for r in block.refs),
        stmts=tuple(_untagged(s) if isinstance(s, Block) else s for s in block.stmts),
    )


def _copies(block: Block) -> list[Refinement]:
    found = [
        r
        for r in block.refs
        if r.from_ is None and r.location is not None and r.location.units[0].name == "UB"
    ]
    for stmt in block.stmts:
        if isinstance(stmt, Block):
            found += _copies(stmt)
    return found


def test_windows_sit_at_the_pipelines_offsets_in_alternating_halves() -> None:
    program = tile_program(
        "function (X[M, N]) -> (Y) { Y = exp(X) + 1; }", {"X": ("fp32", (64, 3000))}
    )
    tiled = pipeline(program)
    offsets = {r.into: r.offset for r in _copies(tiled)}
    assert set(offsets) == {"X", "Y"}
    artifact = run_checked(tiled, load_target("npu"))
    half = load_target("npu").hardware["ub_bytes"] // 2
    loads = re.findall(
        r"copy_gm_to_ubuf\(\(__ubuf__ float \*\)\(UB_BASE \+ (0x[0-9a-f]+)\), X", artifact.source
    )
    assert len(loads) > 2
    assert [int(a, 16) for a in loads[:2]] == [offsets["X"], half + offsets["X"]]
    note = "UB windows at the pass pipeline's offsets (in each tile's half of UB)"
    assert f"{note}: X @ {offsets['X']:#x}, Y @ {offsets['Y']:#x} */" in artifact.source
    stores = re.findall(
        r"copy_ubuf_to_gm\(Y[^,]*, \(__ubuf__ float \*\)\(UB_BASE \+ (0x[0-9a-f]+)\)",
        artifact.source,
    )
    assert [int(a, 16) for a in stores[:2]] == [offsets["Y"], half + offsets["Y"]]


def test_a_reductions_result_goes_to_its_outputs_placement() -> None:
    """Row maxima and sums (softmax): the reduced rows are made where `place` put the output,
    which stays reserved while the tile's temporaries come and go."""
    tiled = pipeline(load_program("tile/softmax"))
    artifact = run_checked(tiled, load_target("npu"))
    notes = re.findall(r"UB windows at the pass pipeline's offsets[^*]*\*/", artifact.source)
    assert len(notes) == 4  # max, exp, sum, divide
    assert not any("chosen here instead" in n for n in notes), notes


def test_the_cubes_windows_sit_at_the_pipelines_offsets() -> None:
    """matmul 256 x 512 x 512 on the Cube: each K step's A and B windows, and the result's rows
    that the store sends, at the offsets `place` gave the tile's copies (the two fp32
    accumulators' fractals kept off C's place)."""
    program = tile_program(
        "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }",
        {"A": ("fp32", (256, 512)), "B": ("fp32", (512, 512))},
    )
    tiled = pipeline(program)
    offsets = {r.into: r.offset for r in _copies(tiled)}
    assert set(offsets) == {"A", "B", "C"}
    artifact = run_checked(tiled, load_target("npu"))
    note = "UB windows at the pass pipeline's offsets (in each tile's half of UB)"
    placed = ", ".join(f"{n} @ {offsets[n]:#x}" for n in "ABC")
    assert f"{note}: {placed}. The Cube's buffers" in artifact.source
    half = load_target("npu").hardware["ub_bytes"] // 2
    loads = re.findall(
        r"copy_gm_to_ubuf\(\(__ubuf__ float \*\)\(UB_BASE \+ (0x[0-9a-f]+)\), A", artifact.source
    )
    assert {int(a, 16) for a in loads} == {offsets["A"], half + offsets["A"]}


def _cube_copies(block: Block) -> dict[str, dict[str, Refinement]]:
    """The Cube's copies in a pipeline's result, by memory and name."""
    found: dict[str, dict[str, Refinement]] = {}
    for ref in block.refs:
        mem = ref.location.units[0].name if ref.location is not None else ""
        if ref.from_ is None and mem in ("L1", "L0A", "L0B", "L0C"):
            found.setdefault(mem, {})[ref.into] = ref
    for stmt in block.stmts:
        if isinstance(stmt, Block):
            for mem, refs in _cube_copies(stmt).items():
                found.setdefault(mem, {}).update(refs)
    return found


def test_the_cubes_buffers_sit_at_the_pipelines_offsets() -> None:
    """matmul 256 x 512 x 512 on the Cube: the pipeline gives each K step L1 copies of A and B,
    L0A and L0B copies of those and an L0C accumulator, placed by `place`; the C loads the
    fractals and runs `mad` there (an fp32 operand's hi and lo parts fill its fp32 copy's
    bytes), in each K step's half, and its note says so. A stays in L1 across the output
    blocks that share it (`reuse`), away from its per-step placement: the note says that too."""
    program = tile_program(
        "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }",
        {"A": ("fp32", (256, 512)), "B": ("fp32", (512, 512))},
    )
    tiled = pipeline(program)
    copies = _cube_copies(tiled)
    assert {mem: set(refs) for mem, refs in copies.items()} == {
        "L1": {"A", "B"},
        "L0A": {"A"},
        "L0B": {"B"},
        "L0C": {"C"},
    }
    artifact = run_checked(tiled, unrolled())  # addresses as literals, one per iteration
    hw = load_target("npu").hardware
    offset = {mem: next(iter(refs.values())).offset for mem, refs in copies.items()}
    size = {mem: allocation_bytes(next(iter(refs.values()))) for mem, refs in copies.items()}
    note = (
        f"L1: B @ {copies['L1']['B'].offset:#x}; chosen here instead: A. "
        f"L0A: A @ {offset['L0A']:#x}. L0B: B @ {offset['L0B']:#x}. L0C: C @ {offset['L0C']:#x} */"
    )
    assert note in artifact.source
    for mem, qualifier, call in (
        ("L0A", "__ca__", "load_cbuf_to_ca"),
        ("L0B", "__cb__", "load_cbuf_to_cb"),
    ):
        used = re.findall(
            rf"{call}\(\({qualifier} half \*\)\({mem}_BASE \+ (0x[0-9a-f]+)\)", artifact.source
        )
        half = hw[f"{mem.lower()}_bytes"] // 2
        starts = {int(a, 16) % half for a in used}
        assert min(starts) == offset[mem] and max(starts) < offset[mem] + size[mem], mem
    # B's parts in the streaming half of L1 (A's residency has the lower half), halves alternating
    streaming = hw["l1_bytes"] // 2
    l1 = re.findall(
        r"copy_ubuf_to_cbuf\(\(__cbuf__ half \*\)\(L1_BASE \+ (0x[0-9a-f]+)\)", artifact.source
    )
    b_l1 = {(int(a, 16) - streaming) % (streaming // 2) for a in l1 if int(a, 16) >= streaming}
    b = copies["L1"]["B"]
    assert min(b_l1) == b.offset and max(b_l1) < b.offset + allocation_bytes(b)
    accumulators = re.findall(
        r"mad\(\(__cc__ float \*\)\(L0C_BASE \+ (0x[0-9a-f]+)\)", artifact.source
    )
    half = hw["l0c_bytes"] // 2
    first = {int(a, 16) % half for a in accumulators[::3]}  # split: hi.hi, then the cross terms
    assert first == {offset["L0C"]}


def _moved(block: Block, offsets: dict[tuple[str, str], int]) -> Block:
    """`block` with the Cube's copies `(memory, name)` at other offsets."""

    def offset(ref: Refinement) -> int:
        mem = ref.location.units[0].name if ref.location is not None else ""
        return offsets.get((mem, ref.into), ref.offset) if ref.from_ is None else ref.offset

    return dataclasses.replace(
        block,
        refs=tuple(dataclasses.replace(r, offset=offset(r)) for r in block.refs),
        stmts=tuple(_moved(s, offsets) if isinstance(s, Block) else s for s in block.stmts),
    )


def test_the_cube_follows_offsets_the_stripe_gives_it() -> None:
    """The offsets are the Stripe's, not a coincidence with the backend's own first fit (one
    buffer per L0 memory sits at 0 either way): a K step whose copies are moved, as an edited
    .stripe or another pass could, loads its fractals and accumulates at the new offsets."""
    program = tile_program(
        "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }",
        {"A": ("fp32", (64, 64)), "B": ("fp32", (64, 64))},
    )
    tiled = pipeline(program)
    assert {r.shape.sizes for refs in _cube_copies(tiled).values() for r in refs.values()} == {
        (64, 64)  # one K step: 16 KiB copies, room to move within each half
    }
    moves = {("L0A", "A"): 0x2000, ("L0B", "B"): 0x2000, ("L0C", "C"): 0x4000}
    moves |= {("L1", "A"): 0x10000, ("L1", "B"): 0x20000}
    # the pipeline's tiles (the backend's own keep no placements)
    target = unrolled()
    own_off = dataclasses.replace(target, codegen={**target.codegen, "cube_own_tiles": False})
    artifact = run_checked(_moved(tiled, moves), own_off)
    source = artifact.source
    note = "L1: A @ 0x10000, B @ 0x20000. L0A: A @ 0x2000. L0B: B @ 0x2000. L0C: C @ 0x4000 */"
    assert note in source
    assert (
        "load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x2000), (__cbuf__ half *)(L1_BASE + 0x10000)"
        in source
    )
    assert (
        "load_cbuf_to_cb((__cb__ half *)(L0B_BASE + 0x2000), (__cbuf__ half *)(L1_BASE + 0x20000)"
        in source
    )
    assert "mad((__cc__ float *)(L0C_BASE + 0x4000)" in source


def test_the_operand_in_l0a_is_the_cubes_left_one() -> None:
    """`C = B * A` written with the factors the other way round: `stencil` still gives A
    (rows M, the output's unit-stride index not among its indices) the L0A copy, and the
    backend takes the operand in L0A as the left one, so both copies are honoured."""
    program = tile_program(
        "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(B[k, n] * A[m, k]); }",
        {"A": ("fp32", (256, 512)), "B": ("fp32", (512, 512))},
    )
    tiled = pipeline(program)
    assert set(_cube_copies(tiled)["L0A"]) == {"A"}
    artifact = run_checked(tiled, load_target("npu"))
    assert "L0A: A @ 0x0. L0B: B @ 0x0. L0C: C @ 0x0 */" in artifact.source


def test_tiles_short_of_whole_fractals_have_padded_copies_where_the_cube_works() -> None:
    """matmul 20 x 40 x 24 (one K step, no dimension a multiple of 16): the Cube's copies are
    padded to whole 16 x 16 fractals (`cache`'s `pad`), which gives them the bytes of the
    fractals the C loads; every one of them is honoured, and the result is the interpreter's."""
    program = tile_program(
        "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }",
        {"A": ("fp32", (20, 40)), "B": ("fp32", (40, 24))},
    )
    tiled = pipeline(program)
    copies = _cube_copies(tiled)
    sizes = {(mem, n): r.shape.sizes for mem, refs in copies.items() for n, r in refs.items()}
    assert sizes == {
        ("L1", "A"): (32, 48),
        ("L1", "B"): (48, 32),
        ("L0A", "A"): (32, 48),
        ("L0B", "B"): (48, 32),
        ("L0C", "C"): (32, 32),
    }
    artifact = run_checked(tiled, load_target("npu"))
    at = {(mem, n): r.offset for mem, refs in copies.items() for n, r in refs.items()}
    note = (
        f"L1: A @ {at['L1', 'A']:#x}, B @ {at['L1', 'B']:#x}. L0A: A @ {at['L0A', 'A']:#x}. "
        f"L0B: B @ {at['L0B', 'B']:#x}. L0C: C @ {at['L0C', 'C']:#x} */"
    )
    assert note in artifact.source
    l0a = re.findall(
        r"load_cbuf_to_ca\(\(__ca__ half \*\)\(L0A_BASE \+ (0x[0-9a-f]+)\)", artifact.source
    )
    end = at["L0A", "A"] + allocation_bytes(copies["L0A"]["A"])
    assert l0a and all(at["L0A", "A"] <= int(a, 16) < end for a in l0a)


def test_a_fused_epilogue_keeps_the_cubes_placements() -> None:
    """dense (`Z = X @ W`, then `Y = Z + Bias` fused after the Cube): the epilogue plans UB
    its own way, so the UB windows the pipeline placed for the unfused kernels are named as
    moved, but the Cube's L1, L0A, L0B and L0C buffers stay at the pipeline's offsets."""
    program = tile_program(
        "function (X[B, K], W[K, N], Bias[N]) -> (Y) {"
        " Z[b, n : B, N] = +(X[b, k] * W[k, n]); Y = Z + Bias; }",
        {"X": ("fp32", (4, 6)), "W": ("fp32", (6, 5)), "Bias": ("fp32", (5,))},
    )
    tiled = pipeline(program)
    at = {(mem, n): r.offset for mem, refs in _cube_copies(tiled).items() for n, r in refs.items()}
    artifact = run_checked(tiled, load_target("npu"))
    assert "mad((" in artifact.source and "on the vector unit" not in artifact.source
    note = (
        f"L1: W @ {at['L1', 'W']:#x}, X @ {at['L1', 'X']:#x}. L0A: X @ {at['L0A', 'X']:#x}. "
        f"L0B: W @ {at['L0B', 'W']:#x}. L0C: Z @ {at['L0C', 'Z']:#x} */"
    )
    assert note in artifact.source


def test_a_contraction_on_the_vector_unit_says_its_cube_buffers_are_unused() -> None:
    """An i32 matmul runs on the vector unit (the Cube multiplies fp16): the pipeline still gave
    it Cube copies, and the note says they are unused rather than placed elsewhere."""
    program = tile_program(
        "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }",
        {"A": ("i32", (5, 6)), "B": ("i32", (6, 4))},
    )
    artifact = run_checked(pipeline(program), load_target("npu"))
    assert "mad((" not in artifact.source and "chosen here instead" not in artifact.source
    assert "Unused: the Cube's buffers the pipeline placed (L1: A, B. L0A: A. L0B: B. L0C: C)" in (
        artifact.source
    )


def test_an_fp16_results_accumulator_keeps_its_placement_when_converted_on_the_way_out() -> None:
    """fp16 matmul: the Tile lowering sums into an fp32 temporary (`C_acc`, whose L0C copy the
    pipeline placed) converted to fp16 by a second kernel; the Cube rounds its accumulator as it
    leaves L0C and stores C, and the accumulator stays at the temporary's placement."""
    program = tile_program(
        "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }",
        {"A": ("fp16", (256, 512)), "B": ("fp16", (512, 512))},
    )
    tiled = pipeline(program)
    (acc,) = _cube_copies(tiled)["L0C"].values()
    # the pipeline's tiles (the backend's own keep no placements)
    target = load_target("npu")
    own_off = dataclasses.replace(target, codegen={**target.codegen, "cube_own_tiles": False})
    artifact = run_checked(tiled, own_off)
    assert f"L0C: C @ {acc.offset:#x} */" in artifact.source


def test_reservations_keep_allocations_out_until_claimed() -> None:
    arena = Arena("UB", 0, 1024, 32)
    assert arena.reserve(256, 256)
    first = arena.alloc(256, "a")
    second = arena.alloc(256, "b")  # skips the reserved bytes
    assert (first.offset, second.offset) == (0, 512)
    assert arena.claim(256, 100) == Buf("UB", 256, 128)  # inside the reservation: it ends
    assert arena.alloc(128, "c").offset == 384  # the rest is free again
    assert arena.claim(0, 32) is None  # taken
    assert arena.claim(16, 32) is None  # misaligned


def test_copies_in_another_form_are_left_alone() -> None:
    """Without its store transfer the output's copy is not one `cache` makes: the block keeps
    its copies (the backend then runs them as kernels of their own)."""
    program = tile_program("function (X[N]) -> (Y) { Y = exp(X); }", {"X": ("fp32", (100,))})
    cached = pipeline(program)

    def drop_store_transfers(block: Block) -> Block:
        stmts = tuple(
            drop_store_transfers(s) if isinstance(s, Block) else s
            for s in block.stmts
            if not (isinstance(s, Block) and "xfer_store" in s.tags)
        )
        return dataclasses.replace(block, stmts=stmts)

    broken = drop_store_transfers(cached)
    back, placements = uncache(broken, "UB", "npu_tile")
    assert back == broken
    assert placements == {}
