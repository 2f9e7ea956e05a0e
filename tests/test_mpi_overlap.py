"""The mpi target's overlap of messages and computation: transfers straight from and into the
ranks' buffers, sends completed only before the sender changes the elements, and kernels run in
chunks that wait only for their own inputs and send their results at once."""

from __future__ import annotations

import islpy as isl
import numpy as np
import pytest

from plaidc import driver
from plaidc.analysis.exchange import (
    ExchangePlan,
    PartAccess,
    Transfer,
    check_plan,
    send_done_points,
    send_points,
    untouched_before,
)
from plaidc.backends import get_backend
from plaidc.backends.mpi import MpiArtifact
from plaidc.diagnostics import CompileError
from plaidc.interp import run_program as interpret
from plaidc.stripe.ir import Block, DType, RefDir, Refinement, TensorShape
from plaidc.targets import load_target, parse_config

from .test_mpi import _tile, needs_mpi


def _config(ranks: int, chunks: int = 1, overlap: bool = True) -> object:
    cfg = load_target("mpi")
    text = cfg.source.replace("chunks = 1", f"chunks = {chunks}")
    if not overlap:
        text = text.replace("overlap = true", "overlap = false")
    return parse_config(text, cfg.path, {"ranks": ranks})


def _build(program: Block, ranks: int, chunks: int = 1, overlap: bool = True) -> MpiArtifact:
    cfg = _config(ranks, chunks, overlap)
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))  # type: ignore[attr-defined]
    artifact = get_backend("mpi").compile(compiled, cfg)  # type: ignore[arg-type]
    assert isinstance(artifact, MpiArtifact)
    return artifact


def _matmul(m: int, k: int, n: int) -> Block:
    return _tile("matmul", {"M": m, "K": k, "N": n}, {})


def test_chunks_wait_for_their_own_rows_and_send_theirs_at_once() -> None:
    """3 ranks x 3 chunks of a matmul: each chunk receives only its rows of A (B once, before
    the first), the root's inputs go at the start, each chunk's rows of C leave right after
    that chunk; the bytes are those of the unchunked plan, the isl minimum."""
    import plaidc.backends.mpi as backend
    from plaidc.analysis.exchange import main_of, plan_exchange

    program = _matmul(150, 70, 90)
    cfg = _config(3)
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))  # type: ignore[attr-defined]
    kernels = [s for s in main_of(compiled).stmts if isinstance(s, Block)]
    plans = []
    for chunks in (1, 3):
        steps, names = backend._steps(compiled, kernels, 3, 0, chunks)
        plans.append(plan_exchange(compiled, steps, 0, by_step=chunks > 1, names=names))
    whole, plan = plans
    assert len(plan.kernels) == 3 and all("chunk" in name for name in plan.kernels)
    assert plan.minimum == whole.minimum
    for r in range(3):
        assert plan.received(r) == whole.received(r) == plan.minimum[r]
    points = send_points(plan)
    messages = [t for phase in plan.phases for t in phase]
    before = [t for phase in whole.phases for t in phase]
    for r in (1, 2):
        b = [t for t in messages if t.dst == r and t.buffer == "B"]
        assert len(b) == 1 and b[0].phase == 0 and b[0].count == 70 * 90
        a = [t for t in messages if t.dst == r and t.buffer == "A"]
        assert sorted(t.phase for t in a) == [0, 1, 2]
        assert all(points[t.tag] == 0 for t in a + b)
        c = [t for t in messages if t.src == r and t.buffer == "C"]
        assert sorted(points[t.tag] for t in c) == [1, 2, 3]  # after chunk 1, 2, 3
        assert sum(t.count for t in c) == sum(t.count for t in before if t.src == r)
    assert check_plan(plan, compiled) == []


@needs_mpi
@pytest.mark.parametrize("ranks,chunks", [(2, 2), (3, 3), (2, 5)])
def test_chunked_runs_are_bit_equal_to_unchunked(ranks: int, chunks: int) -> None:
    """A float matmul of odd sizes: the chunks run the same code on the same tiles, so the
    bits are those of the unchunked run (and close to numpy); bytes = the isl minimum."""
    m, k, n = 301, 77, 129
    rng = np.random.default_rng(chunks)
    inputs = {
        "A": rng.standard_normal((m, k)).astype(np.float32),
        "B": rng.standard_normal((k, n)).astype(np.float32),
    }
    program = _matmul(m, k, n)
    plain = _build(program, ranks).run(inputs)["C"]
    artifact = _build(program, ranks, chunks)
    got = artifact.run(inputs)["C"]
    np.testing.assert_array_equal(got, plain)
    np.testing.assert_allclose(got, inputs["A"] @ inputs["B"], rtol=1e-4, atol=1e-4)
    report = artifact.report_json()
    assert report is not None
    for row in report["per_rank"]:
        assert row["bytes_received"] == row["bytes_received_minimum"]
        assert row["compute_cpu_s"] >= 0


@needs_mpi
def test_chunked_conv_halo_is_bit_equal() -> None:
    """An integer convolution split by output rows on 2 ranks in 3 chunks: each chunk receives
    its input rows and halo; bits equal the interpreter's, bytes the minimum."""
    shapes = {"I": ("i32", (1, 14, 9, 3)), "K": ("i32", (3, 3, 3, 4)), "B": ("i32", (4,))}
    program = _tile(
        "conv2d_bias_relu",
        {"N": 1, "H": 14, "W": 9, "CI": 3, "KH": 3, "KW": 3, "CO": 4},
        shapes,
    )
    rng = np.random.default_rng(3)
    inputs = {k: rng.integers(-8, 8, s, dtype=np.int32) for k, (_, s) in shapes.items()}
    artifact = _build(program, 2, chunks=3)
    got = artifact.run(inputs)
    for name, value in interpret(program, inputs).items():
        np.testing.assert_array_equal(got[name], value)
    report = artifact.report_json()
    assert report is not None
    assert all(r["bytes_received"] == r["bytes_received_minimum"] for r in report["per_rank"])


@needs_mpi
@pytest.mark.parametrize("overlap", [True, False])
def test_contiguous_transfers_skip_the_copies(overlap: bool) -> None:
    """Rows of a row-major matrix are one run of its layout: sent from the sender's buffer and
    received into the receiver's (no message buffer, no packing), with and without overlap."""
    program = _tile(
        "matmul", {"M": 9, "K": 4, "N": 6}, {"A": ("i32", (9, 4)), "B": ("i32", (4, 6))}
    )
    artifact = _build(program, 2, overlap=overlap)
    assert "MPI_Isend((b" in artifact.source and "MPI_Irecv((b" in artifact.source
    assert "MPI_Isend(sg" not in artifact.source and "MPI_Irecv(mg" not in artifact.source
    assert "#define COPY" not in artifact.source
    rng = np.random.default_rng(2)
    inputs = {
        "A": rng.integers(-8, 8, (9, 4), dtype=np.int32),
        "B": rng.integers(-8, 8, (4, 6), dtype=np.int32),
    }
    np.testing.assert_array_equal(artifact.run(inputs)["C"], interpret(program, inputs)["C"])


def test_chunks_must_be_a_positive_integer() -> None:
    cfg = load_target("mpi")
    bad = parse_config(cfg.source.replace("chunks = 1", "chunks = 0"), cfg.path, {"ranks": 2})
    program = _matmul(8, 4, 6)
    compiled = driver.run_pipeline(program, driver.resolve_steps(bad.stage("default")))
    with pytest.raises(CompileError, match="'chunks' = 0 must be a positive integer"):
        get_backend("mpi").compile(compiled, bad)


# --------------------------------------------------------------------------------------------
# When a buffer's bytes may be the message: a hand-made plan of one buffer X[8] on 2 ranks


def _set(text: str) -> isl.Set:
    return isl.Set(text)


def _plan(phases: list[list[Transfer]], accesses: list[list[PartAccess | None]]) -> ExchangePlan:
    ref = Refinement(
        dir=RefDir.INOUT,
        from_="X",
        into="X",
        access=(),
        shape=TensorShape(DType("i32"), (8,), (1,)),
    )
    return ExchangePlan(
        ranks=2,
        root=0,
        buffers=(ref,),
        kernels=tuple(f"k{k}" for k in range(len(accesses))),
        runs=tuple(tuple(a is not None for a in acc) for acc in accesses),
        phases=tuple(tuple(p) for p in phases),
        accesses=tuple(tuple(a) for a in accesses),
        minimum=(0, 0),
    )


def _t(phase: int, src: int, dst: int, text: str, tag: int) -> Transfer:
    s = _set(text)
    n = s.count_val().to_python()
    return Transfer(phase, src, dst, "X", s, n, 4 * n, tag)


def test_a_receive_goes_into_the_buffer_only_where_the_rank_left_the_elements_alone() -> None:
    """Rank 1 reads X[0..3] in kernel 0; a later receive of X[2..5] must not land in its buffer
    while kernel 0 may still read them (it goes through a message), one of X[6..7] may."""
    reads = PartAccess({"X": _set("{ [i] : 0 <= i <= 3 }")}, {})
    early = _t(0, 0, 1, "{ [i] : 0 <= i <= 3 }", 1)
    overlapping = _t(1, 0, 1, "{ [i] : 2 <= i <= 5 }", 2)
    apart = _t(1, 0, 1, "{ [i] : 6 <= i <= 7 }", 3)
    plan = _plan([[early], [overlapping, apart], []], [[None, reads], [None, None]])
    assert untouched_before(plan, early) and untouched_before(plan, apart)
    assert not untouched_before(plan, overlapping)
    sent_before = _plan(
        [[_t(0, 1, 0, "{ [i] : 6 <= i <= 7 }", 4)], [apart], []], [[None, None]] * 2
    )
    assert not untouched_before(sent_before, apart)  # rank 1 sent them: a pending send


def test_a_send_from_the_buffer_completes_before_the_sender_changes_it() -> None:
    """Rank 0 sends X[0..3] at the start (its input); its kernel 1 rewrites X[2]: the send must
    be complete before kernel 1 (position 1); X[4..7], never changed, at the end of the run."""
    first = _t(0, 0, 1, "{ [i] : 0 <= i <= 3 }", 1)
    second = _t(0, 0, 1, "{ [i] : 4 <= i <= 7 }", 2)
    rewrite = PartAccess({}, {"X": _set("{ [i] : i = 2 }")})
    plan = _plan([[first, second], [], []], [[None, None], [rewrite, None]])
    done = send_done_points(plan, send_points(plan))
    assert done[first.tag] == 1 and done[second.tag] == len(plan.kernels) + 1
    brought = _t(1, 1, 0, "{ [i] : i = 3 }", 3)
    again = _plan([[first], [brought], []], [[None, None], [None, None]])
    assert send_done_points(again, send_points(again))[first.tag] == 1


def test_a_config_on_the_mpi_target_gets_the_c_targets_passes_too() -> None:
    """`base = "mpi"`: mpi builds on c, so the stage is c's passes then distribute (one level
    of bases dropped c's passes: an fp16 matmul lost its fp32 accumulator's pass and asked for
    it as an input)."""
    text = '[target]\nname = "mine"\nbackend = "mpi"\nbase = "mpi"\n[codegen]\nchunks = 2\n'
    cfg = parse_config(text, "mine.toml", {"ranks": 3})
    mpi = _config(3)
    assert [s.pass_name for s in cfg.stage("default")] == [
        s.pass_name
        for s in mpi.stage("default")  # type: ignore[attr-defined]
    ]
    assert (
        cfg.codegen["chunks"] == 2
        and cfg.codegen["gemm_vectors"] == load_target("c").codegen["gemm_vectors"]
    )


@needs_mpi
def test_a_gemm_reading_a_narrow_b_in_place_stays_in_the_ranks_storage(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """tc_gconv's GEMM reads its 3-column B in place with whole vectors, past the elements it
    uses: a rank's span of a buffer it reads reaches that far (AddressSanitizer caught a 64-byte
    load past a rank's 720-byte span when the spans were exact)."""
    monkeypatch.setenv("ASAN_OPTIONS", "detect_leaks=0")  # Open MPI's own leaks at exit
    dims = {"N": 2, "G": 2, "C": 3, "H": 6, "W": 5, "F": 4, "KH": 3, "KW": 3}
    shapes = {"I": (2, 2, 3, 6, 5), "W1": (2, 4, 3, 3, 3), "B": (2, 4)}
    program = _tile("tc_gconv", dims, {})
    rng = np.random.default_rng(4)
    inputs = {k: rng.uniform(-1, 1, s).astype(np.float32) for k, s in shapes.items()}
    text = (
        '[target]\nname = "asan"\nbackend = "mpi"\nbase = "mpi"\n[codegen]\n'
        'cflags = ["-fsanitize=address", "-fno-omit-frame-pointer"]\n'
    )
    cfg = parse_config(text, "asan.toml", {"ranks": 3})
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    artifact = get_backend("mpi").compile(compiled, cfg)
    assert isinstance(artifact, MpiArtifact)
    got = artifact.run(inputs)
    for name, value in interpret(program, inputs).items():
        np.testing.assert_allclose(got[name], value, rtol=1e-5, atol=1e-5)


@needs_mpi
def test_a_broadcast_of_a_whole_matrix_goes_in_place() -> None:
    """4 ranks of a matmul: every rank reads all of B, one run of its layout: one MPI_Bcast
    from the root's B into the others' (no message buffer); bits and bytes as before."""
    program = _tile(
        "matmul", {"M": 11, "K": 7, "N": 5}, {"A": ("i32", (11, 7)), "B": ("i32", (7, 5))}
    )
    artifact = _build(program, 4)
    assert "MPI_Bcast((b" in artifact.source and "MPI_Bcast(m," not in artifact.source
    rng = np.random.default_rng(9)
    inputs = {
        "A": rng.integers(-8, 8, (11, 7), dtype=np.int32),
        "B": rng.integers(-8, 8, (7, 5), dtype=np.int32),
    }
    np.testing.assert_array_equal(artifact.run(inputs)["C"], interpret(program, inputs)["C"])
    report = artifact.report_json()
    assert report is not None
    assert all(r["bytes_received"] == r["bytes_received_minimum"] for r in report["per_rank"])


def test_a_kernel_whose_pieces_conflict_runs_as_whole_parts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pieces of a kernel are legal only where no piece reads what another writes (checked like
    the ranks' parts; a kernel's temporaries live in one call): else the kernel is one step."""
    import plaidc.backends.mpi as backend
    from plaidc.analysis.exchange import main_of

    program = _matmul(40, 8, 8)
    cfg = _config(2, chunks=2)
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))  # type: ignore[attr-defined]
    kernels = [s for s in main_of(compiled).stmts if isinstance(s, Block)]
    steps, names = backend._steps(compiled, kernels, 2, 0, 2)
    assert len(steps) == 2 and names[1].endswith("(chunk 2 of 2)")
    calls: list[int] = []

    def conflict(program: Block, parts: list[Block | None]) -> tuple[int, int, str, str]:
        calls.append(len(parts))
        return 0, 1, "T", "[0]"

    monkeypatch.setattr(backend, "inner_conflict", conflict)
    steps, names = backend._steps(compiled, kernels, 2, 0, 2)
    assert calls == [4] and len(steps) == 1 and "chunk" not in names[0]
