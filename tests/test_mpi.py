"""The mpi target: the distribute pass, the exchange plan and its verifier, and multi-rank runs.

The multi-rank runs need MPI (the `mpi` extra that `make install` installs); they are skipped
with the reason where `mpicc`/`mpiexec` are missing. They are few and small (a multi-rank run
compiles one C unit per rank and kernel and starts `mpiexec`).
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import numpy as np
import pytest

from plaidc import driver
from plaidc.analysis.exchange import (
    Storage,
    boxes,
    check_plan,
    main_of,
    plan_exchange,
    rank_storage,
    send_points,
)
from plaidc.backends import BackendUnavailable, get_backend
from plaidc.backends.mpi import MpiArtifact
from plaidc.backends.mpi.launch import find_tool, launch_env, run_program, shared_memory_btl
from plaidc.cli import plaidc_main, plaidc_opt_main
from plaidc.diagnostics import CompileError
from plaidc.interp import run_program as interpret
from plaidc.passes.distribute import rank_part
from plaidc.stripe.ir import Block, DType
from plaidc.targets import load_target, parse_config
from plaidc.tile import compile_tile

from .support.cli import run_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _mpi_missing() -> str | None:
    try:
        find_tool("mpicc")
        find_tool("mpiexec")
    except BackendUnavailable as err:
        return str(err)
    return None


needs_mpi = pytest.mark.skipif(_mpi_missing() is not None, reason=str(_mpi_missing()))


def _tile(name: str, dims: dict[str, int], shapes: dict[str, tuple[str, tuple[int, ...]]]) -> Block:
    path = EXAMPLES / f"{name}.tile"
    typed = {k: (DType(d), s) for k, (d, s) in shapes.items()}
    return compile_tile(path.read_text(), str(path), dims=dims, shapes=typed).program


def _target(ranks: int) -> object:
    cfg = load_target("mpi")
    return parse_config(cfg.source, cfg.path, {"ranks": ranks})


def _pipelined(program: Block, ranks: int) -> Block:
    cfg = _target(ranks)
    return driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))  # type: ignore[attr-defined]


def _plan(program: Block, ranks: int) -> tuple[Block, object]:
    compiled = _pipelined(program, ranks)
    kernels = [s for s in main_of(compiled).stmts if isinstance(s, Block)]
    parts = [[rank_part(k, r, 0) for r in range(ranks)] for k in kernels]
    return compiled, plan_exchange(compiled, parts, 0)


CONV = (
    "conv2d_bias_relu",
    {"N": 1, "H": 11, "W": 9, "CI": 3, "KH": 3, "KW": 3, "CO": 5},
    {},
)


def test_distribute_rejects_a_reduction_index(tmp_path: Path) -> None:
    code, out, _ = run_cli(
        plaidc_main,
        [
            "compile",
            str(EXAMPLES / "matmul.tile"),
            "-D",
            "M=8",
            "-D",
            "K=4",
            "-D",
            "N=6",
            "--emit",
            "stripe",
            "-o",
            "mm.stripe",
        ],
        tmp_path,
    )
    assert code == 0
    code, _, err = run_cli(
        plaidc_opt_main, ["mm.stripe", "--pass", "distribute{ranks=2,idxs=[k]}"], tmp_path
    )
    assert code == 1
    assert "mm.stripe:" in err and "^" in err
    assert "index 'k' cannot be distributed: ranks 0 and 1 would both write" in err
    code, out, _ = run_cli(
        plaidc_opt_main, ["mm.stripe", "--pass", "distribute{ranks=2}"], tmp_path
    )
    assert code == 0 and "#distribute=2" in out and "(#rank m:8)" in out


def test_halo_exchange_is_the_exact_minimum() -> None:
    """A 3x3 convolution split by output rows over 3 ranks: each rank other than the root
    receives exactly its input rows plus a halo of KH - 1 rows (counted by hand here), and the
    plan's bytes are isl's analytic minimum."""
    from plaidc.passes.distribute import DistributeOptions, distribute

    name, dims, _ = CONV
    program = _tile(name, dims, {})
    split = distribute(program, DistributeOptions(ranks=3, idxs=("x",)))
    kernels = [s for s in main_of(split).stmts if isinstance(s, Block)]
    parts = [[rank_part(k, r, 0) for r in range(3)] for k in kernels]
    plan = plan_exchange(split, parts, 0)
    assert not check_plan(plan, split)
    for r in range(3):
        assert plan.received(r) == plan.minimum[r]
    out_rows = dims["H"] - dims["KH"] + 1
    for r in (1, 2):
        lo, hi = out_rows * r // 3, out_rows * (r + 1) // 3
        want = (hi - lo + dims["KH"] - 1) * dims["W"] * dims["CI"]
        (got,) = [t for t in plan.phases[0] if t.dst == r and t.buffer == "I"]
        assert got.count == want, (r, got.count, want)


def test_verifier_catches_a_removed_transfer() -> None:
    program = _tile("matmul", {"M": 12, "K": 5, "N": 7}, {})
    compiled, plan = _plan(program, 3)
    assert not check_plan(plan, compiled)  # type: ignore[arg-type]
    phases = list(plan.phases)  # type: ignore[attr-defined]
    first = next(k for k, p in enumerate(phases) if p)
    dropped = phases[first][0]
    phases[first] = phases[first][1:]
    broken = dataclasses.replace(plan, phases=tuple(phases))  # type: ignore[type-var]
    problems = check_plan(broken, compiled)
    assert problems
    assert any(f"rank {dropped.dst} reads elements of '{dropped.buffer}'" in p for p in problems)
    # a transfer to itself and a wrong byte count are caught too
    bad = dataclasses.replace(dropped, src=dropped.dst, nbytes=dropped.nbytes + 1)
    phases[first] = (bad, *phases[first])
    problems = check_plan(dataclasses.replace(plan, phases=tuple(phases)), compiled)  # type: ignore[type-var]
    assert any("waits on itself" in p for p in problems)
    assert any("differ in bytes" in p for p in problems)


CHAIN = """function (A[M, K], B[K, N], D[N, P]) -> (E) {
  C[m, n : M, N] = +(A[m, k] * B[k, n]);
  E[m, p : M, P] = +(C[m, n] * D[n, p]);
}"""


def test_collectives_replace_exact_groups_of_transfers() -> None:
    """Two matmuls split by output columns over 4 ranks: B and D go out by columns, A (read
    whole by every rank) as one MPI_Bcast, and C (each rank's columns, read whole by the next
    matmul on every rank) as one MPI_Allgatherv. The verifier accepts the plan."""
    from plaidc.analysis.exchange import collectives
    from plaidc.passes.distribute import DistributeOptions, distribute

    dims = {"M": 2, "K": 3, "N": 12, "P": 8}
    program = compile_tile(CHAIN, "chain.tile", dims=dims, shapes={}).program
    split = distribute(program, DistributeOptions(ranks=4, idxs=("n", "p")))
    kernels = [s for s in main_of(split).stmts if isinstance(s, Block)]
    plan = plan_exchange(split, [[rank_part(k, r, 0) for r in range(4)] for k in kernels], 0)
    assert not check_plan(plan, split)
    found = {(c.kind, c.buffer) for phase in plan.phases for c in collectives(phase, 4)}
    assert ("bcast", "A") in found and ("allgather", "C") in found
    for phase in plan.phases:
        for c in collectives(phase, 4):
            senders = {t.src for t in c.transfers}
            assert len(senders) == (4 if c.kind == "allgather" else 1)
            assert len(c.transfers) == (12 if c.kind == "allgather" else 3)


@needs_mpi
def test_collectives_run_bit_equal(tmp_path: Path) -> None:
    (tmp_path / "chain.tile").write_text(CHAIN)
    args = ["run", "chain.tile", "-t", "mpi", "--ranks", "4", "--shape", "A=i32[3,5]"]
    args += ["--shape", "B=i32[5,13]", "--shape", "D=i32[13,9]", "--random-inputs", "2", "--check"]
    code, out, err = run_cli(plaidc_main, args, tmp_path)
    assert code == 0, err
    assert "outputs match the interpreter" in out + err


def test_ranks_are_checked(tmp_path: Path) -> None:
    base = [
        "run",
        str(EXAMPLES / "matmul.tile"),
        "-D",
        "M=4",
        "-D",
        "K=4",
        "-D",
        "N=4",
        "--random-inputs",
        "0",
    ]
    code, _, err = run_cli(plaidc_main, [*base, "-t", "mpi", "--ranks", "0"], tmp_path)
    assert code == 2 and "--ranks" in err
    code, _, err = run_cli(plaidc_main, [*base, "-t", "c", "--ranks", "2"], tmp_path)
    assert code == 2 and "needs the mpi target" in err


def test_missing_mpi_says_how_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr("sys.executable", str(tmp_path / "python"))
    with pytest.raises(BackendUnavailable, match=r"pip install -e '\.\[mpi\]'"):
        find_tool("mpiexec")


def test_launcher_keeps_the_users_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OMPI_MCA_btl", "tcp,self")
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.delenv("MPIEXEC_TIMEOUT", raising=False)
    env = launch_env(ranks=2, threads=4, timeout=60)
    assert env["OMPI_MCA_btl"] == "tcp,self"
    assert env["OMP_NUM_THREADS"] == "2" and env["MPIEXEC_TIMEOUT"] == "60"


@pytest.mark.parametrize(
    ("printed", "btl"),
    [
        (
            "mpiexec (Open MPI) 5.0.8\n\nReport bugs to https://www.open-mpi.org/community/help/",
            "sm",
        ),
        ("mpiexec (OpenRTE) 4.1.2\n", "vader"),  # Open MPI 4's mpiexec names its runtime
        (
            "mpiexec (Open MPI) 4.1.6\n\nReport bugs to http://www.open-mpi.org/community/help/",
            "vader",
        ),
        ("mpirun (Open MPI) 3.1.3\n", "vader"),
        ("HYDRA build details:\n    Version: 4.1.2\n", "sm"),  # MPICH ignores OMPI_ variables
        ("", "sm"),
    ],
)
def test_shared_memory_transport_follows_open_mpis_release(printed: str, btl: str) -> None:
    # Open MPI 4.1.6 (a GPU machine's system MPI) refused "sm": every run failed.
    assert shared_memory_btl(printed) == btl


def test_launcher_names_the_installed_mpis_shared_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OMPI_MCA_btl", raising=False)
    env = launch_env(ranks=2, threads=2, timeout=60)
    assert env["OMPI_MCA_btl"] in ("self,sm,tcp", "self,vader,tcp")


# --------------------------------------------------------------------------------------------
# Runs (need MPI)


def _run(
    program: Block, ranks: int, inputs: dict[str, np.ndarray]
) -> tuple[dict[str, np.ndarray], MpiArtifact]:
    compiled = _pipelined(program, ranks)
    artifact = get_backend("mpi").compile(compiled, _target(ranks))  # type: ignore[arg-type]
    assert isinstance(artifact, MpiArtifact)
    return artifact.run(inputs), artifact


@needs_mpi
@pytest.mark.parametrize("ranks", [1, 2, 3, 4])
def test_integer_matmul_is_bit_equal_on_every_rank_count(ranks: int) -> None:
    program = _tile(
        "matmul", {"M": 13, "K": 6, "N": 5}, {"A": ("i32", (13, 6)), "B": ("i32", (6, 5))}
    )
    rng = np.random.default_rng(ranks)
    inputs = {
        "A": rng.integers(-8, 8, (13, 6), dtype=np.int32),
        "B": rng.integers(-8, 8, (6, 5), dtype=np.int32),
    }
    got, artifact = _run(program, ranks, inputs)
    np.testing.assert_array_equal(got["C"], interpret(program, inputs)["C"])
    report = artifact.report_json()
    assert report is not None
    for row in report["per_rank"]:
        # counted from the messages at run time == isl's analytic minimum
        assert row["bytes_received"] == row["bytes_received_minimum"]
    assert sum(r["bytes_sent"] for r in report["per_rank"]) == sum(
        r["bytes_received"] for r in report["per_rank"]
    )


@needs_mpi
def test_row_kernels_are_bit_equal_to_one_rank() -> None:
    """softmax's fused row kernel: each row is computed by the same code on any rank, so 3
    ranks give exactly the bits of 1 rank."""
    program = _tile("softmax", {"B": 10, "N": 37}, {})
    inputs = {"X": np.random.default_rng(5).standard_normal((10, 37)).astype(np.float32)}
    one, _ = _run(program, 1, inputs)
    three, artifact = _run(program, 3, inputs)
    np.testing.assert_array_equal(three["Y"], one["Y"])
    report = artifact.report_json()
    assert report is not None and all(r["compute_s"] > 0 for r in report["per_rank"])


@needs_mpi
def test_conv_softmax_mlp_match_the_interpreter(tmp_path: Path) -> None:
    cases = [
        [
            "examples/conv2d_bias_relu.tile",
            "-D",
            "N=1",
            "-D",
            "H=11",
            "-D",
            "W=9",
            "-D",
            "CI=3",
            "-D",
            "KH=3",
            "-D",
            "KW=3",
            "-D",
            "CO=5",
            "--ranks",
            "3",
        ],
        ["examples/softmax.tile", "-D", "B=7", "-D", "N=33", "--ranks", "2"],
        # a Special of main runs on the root rank; its consumers get what they read
        [
            "examples/reshape.tile",
            "-D",
            "N=2",
            "-D",
            "H=3",
            "-D",
            "W=4",
            "-D",
            "C=5",
            "--ranks",
            "2",
        ],
        [
            "examples/mlp_3layer.tile",
            "-D",
            "B=5",
            "-D",
            "D0=12",
            "-D",
            "D1=9",
            "-D",
            "D2=7",
            "-D",
            "D3=4",
            "--ranks",
            "4",
        ],
    ]
    for case in cases:
        case[0] = str(ROOT / case[0])
        code, out, err = run_cli(
            plaidc_main, ["run", *case, "-t", "mpi", "--random-inputs", "1", "--check"], tmp_path
        )
        assert code == 0, err
        assert "outputs match the interpreter" in out + err
        assert "minimum received" in out


@needs_mpi
def test_a_failing_rank_ends_the_run_with_its_message(tmp_path: Path) -> None:
    program = _tile("matmul", {"M": 8, "K": 4, "N": 6}, {})
    compiled = _pipelined(program, 2)
    artifact = get_backend("mpi").compile(compiled, _target(2))
    assert isinstance(artifact, MpiArtifact)
    env = launch_env(2, 2, 60)
    with pytest.raises(CompileError, match=r"rank 0: cannot read .*A\.in"):
        run_program(artifact.program, 2, tmp_path, 1, env)  # no inputs written
    assert not list(tmp_path.glob("*.out"))
    # a run past MPIEXEC_TIMEOUT is ended, with every rank
    (tmp_path / "A.in").write_bytes(np.zeros(32, np.float32).tobytes())
    (tmp_path / "B.in").write_bytes(np.zeros(24, np.float32).tobytes())
    with pytest.raises(CompileError, match=r"MPIEXEC_TIMEOUT|did not"):
        run_program(artifact.program, 2, tmp_path, 10**9, {**env, "MPIEXEC_TIMEOUT": "2"})
    assert not _processes_of(artifact.program)


def _processes_of(program: Path) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.readlink(f"/proc/{pid}/exe") == str(program):
                    found.append(int(pid))
            except OSError:
                continue
    return found


def test_a_config_builds_on_its_base_target() -> None:
    text = """[target]
name = "mine"
backend = "mpi"
base = "c"
[hardware]
ranks = 3
[codegen]
gemm_rows = 4
[[stage.default.passes]]
pass = "distribute"
ranks = "${hardware.ranks}"
"""
    cfg = parse_config(text, "mine.toml")
    base = load_target("c")
    assert (
        cfg.codegen["gemm_rows"] == 4
        and cfg.codegen["gemm_vectors"] == base.codegen["gemm_vectors"]
    )
    steps = cfg.stage("default")
    assert [s.pass_name for s in steps[:-1]] == [s.pass_name for s in base.stage("default")]
    assert steps[-1].pass_name == "distribute" and steps[-1].options["ranks"] == 3
    again = parse_config(text, "mine.toml", {"ranks": 5})
    assert again.stage("default")[-1].options["ranks"] == 5
    with pytest.raises(CompileError, match="unknown base target 'cc'") as err:
        parse_config(text.replace('base = "c"', 'base = "cc"'), "mine.toml")
    assert err.value.diagnostics[0].span is not None and err.value.diagnostics[0].span.line == 4


@needs_mpi
def test_another_root_rank_holds_the_inputs_and_gathers() -> None:
    program = _tile(
        "matmul", {"M": 10, "K": 4, "N": 6}, {"A": ("i32", (10, 4)), "B": ("i32", (4, 6))}
    )
    cfg = load_target("mpi")
    target = parse_config(cfg.source.replace("root = 0", "root = 2"), cfg.path, {"ranks": 3})
    compiled = driver.run_pipeline(program, driver.resolve_steps(target.stage("default")))
    artifact = get_backend("mpi").compile(compiled, target)
    assert isinstance(artifact, MpiArtifact) and artifact.exchange.root == 2
    rng = np.random.default_rng(0)
    inputs = {
        "A": rng.integers(-8, 8, (10, 4), dtype=np.int32),
        "B": rng.integers(-8, 8, (4, 6), dtype=np.int32),
    }
    np.testing.assert_array_equal(artifact.run(inputs)["C"], interpret(program, inputs)["C"])
    assert all(t.src == 2 for t in artifact.exchange.phases[0])  # inputs come from the root
    assert all(t.dst == 2 for t in artifact.exchange.phases[-1])  # outputs go to it


@needs_mpi
def test_each_rank_allocates_only_its_part() -> None:
    """matmul on 4 ranks, split by the rows of C: a rank other than the root allocates a quarter
    of C and of A (the rows it computes and reads) and B whole (every part reads all of it);
    the root holds the inputs and outputs whole. `storage = "whole"` gives every rank all."""
    m, k, n = 64, 24, 40
    program = _tile(
        "matmul", {"M": m, "K": k, "N": n}, {"A": ("i32", (m, k)), "B": ("i32", (k, n))}
    )
    rng = np.random.default_rng(3)
    inputs = {
        "A": rng.integers(-8, 8, (m, k), dtype=np.int32),
        "B": rng.integers(-8, 8, (k, n), dtype=np.int32),
    }
    got, artifact = _run(program, 4, inputs)
    np.testing.assert_array_equal(got["C"], interpret(program, inputs)["C"])
    full = (m * k + k * n + m * n) * 4
    assert artifact.full_size() == full
    assert artifact.allocated(0) == full
    # what the rank reads of A extends by the GEMM's reach (a register row of vectors) where
    # the buffer goes on: ranks 1 and 2, not 3 (its rows end A)
    cfg = load_target("mpi")
    reach = cfg.codegen["gemm_vectors"] * cfg.hardware["vector_bytes"] // 4
    for r in (1, 2, 3):
        assert artifact.storage[r]["C"].elements == m // 4 * n
        assert artifact.storage[r]["C"].start == r * (m // 4) * n
        assert artifact.storage[r]["A"].start == r * (m // 4) * k
        extra = reach if r < 3 else 0
        assert artifact.allocated(r) == (m // 4 * k + extra + k * n + m // 4 * n) * 4
    report = artifact.report_json()
    assert report is not None
    assert [row["bytes_allocated"] for row in report["per_rank"]] == [
        artifact.allocated(r) for r in range(4)
    ]
    cfg = load_target("mpi")
    whole = parse_config(cfg.source.replace('storage = "part"', 'storage = "whole"'), cfg.path)
    compiled = driver.run_pipeline(program, driver.resolve_steps(whole.stage("default")))
    again = get_backend("mpi").compile(compiled, whole)
    assert isinstance(again, MpiArtifact)
    assert all(again.allocated(r) == full for r in range(2))
    np.testing.assert_array_equal(again.run(inputs)["C"], got["C"])
    bad = parse_config(cfg.source.replace('storage = "part"', 'storage = "some"'), cfg.path)
    with pytest.raises(CompileError, match="'storage'"):
        get_backend("mpi").compile(compiled, bad)


def test_a_halo_rank_allocates_its_rows_and_the_halo() -> None:
    """conv (H=11, KH=3: 9 output rows) over 2 ranks split by output rows: rank 1 computes rows
    4..8 and allocates of the input only rows 4..10 (its rows and the halo below them), of the
    output its 5 rows; the root holds the inputs and the output whole."""
    name, dims, _ = CONV
    _, plan = _plan(_tile(name, dims, {}), 2)
    storage = rank_storage(plan)  # type: ignore[arg-type]
    image_row, out_row = 9 * 3, 7 * 5  # W * CI, (W - KW + 1) * CO
    assert storage[1]["I"] == Storage(4 * image_row, 7 * image_row)
    assert storage[1]["R"] == Storage(4 * out_row, 5 * out_row)
    assert storage[1]["K"] == Storage(0, 3 * 3 * 3 * 5)
    assert storage[0]["I"] == Storage(0, 11 * image_row)


def test_boxes_cover_a_set_exactly_once() -> None:
    """The packing's boxes: disjoint, their union the set; None for a set that is not a union
    of boxes (the packing then visits element by element)."""
    import islpy as isl

    for text in (
        "{ [a, b] : 0 <= a < 3 and 2 <= b < 5 or 1 <= a < 7 and 0 <= b < 4 }",
        "{ [a, b, c] : 0 <= a < 4 and 0 <= b < 3 and 0 <= c < 5 and (a < 2 or b > 0) }",
        "{ [a] : 0 <= a < 3 or 5 <= a < 9 }",
    ):
        s = isl.Set(text)
        found = boxes(s)
        assert found is not None
        union = isl.Set.empty(s.get_space())
        total = 0
        for box in found:
            piece = isl.Set.universe(s.get_space())
            size = 1
            for d, (low, high) in enumerate(box):
                piece = piece.lower_bound_val(isl.dim_type.set, d, isl.Val(str(low)))
                piece = piece.upper_bound_val(isl.dim_type.set, d, isl.Val(str(high)))
                size *= high - low + 1
            union, total = union.union(piece), total + size
        assert union.is_equal(s) and total == s.count_val().to_python()
    assert boxes(isl.Set("{ [a, b] : 0 <= a < 6 and 0 <= b < 5 and a mod 2 = 0 }")) is None
    assert boxes(isl.Set("{ [a, b] : 0 <= b <= a < 6 }")) is None


@needs_mpi
def test_strided_and_box_transfers_run_bit_equal() -> None:
    """A strided convolution's halo (boxes, copied by rows) and integer results on 3 ranks are
    the interpreter's bits."""
    program = _tile(
        "conv2d_strided",
        {"N": 1, "H": 13, "W": 11, "CI": 3, "KH": 3, "KW": 3, "CO": 4},
        {"I": ("i32", (1, 13, 11, 3)), "K": ("i32", (3, 3, 3, 4))},
    )
    rng = np.random.default_rng(7)
    inputs = {
        "I": rng.integers(-8, 8, (1, 13, 11, 3), dtype=np.int32),
        "K": rng.integers(-8, 8, (3, 3, 3, 4), dtype=np.int32),
    }
    got, _ = _run(program, 3, inputs)
    want = interpret(program, inputs)
    for name, value in want.items():
        np.testing.assert_array_equal(got[name], value)


@needs_mpi
def test_every_other_row_is_packed_element_by_element() -> None:
    """A part reading every other row of its input gets a strided set (not boxes): its packing
    visits it element by element, its own output rows (one contiguous run) go back straight
    from its buffer into the root's; bits equal."""
    text = "function (I[N, C]) -> (O) {\n  O[i, c : N / 2, C] = =(I[2 * i, c]);\n}\n"
    program = compile_tile(
        text, "every2.tile", dims={"N": 20, "C": 3}, shapes={"I": (DType("i32"), (20, 3))}
    ).program
    inputs = {"I": np.arange(60, dtype=np.int32).reshape(20, 3)}
    got, artifact = _run(program, 3, inputs)
    np.testing.assert_array_equal(got["O"], inputs["I"][::2])
    assert "#define S(" in artifact.source and "MPI_Isend((b" in artifact.source
    assert "MPI_Irecv((b" in artifact.source
    assert artifact.allocated(2) < artifact.full_size()


TWO_KERNELS = (
    "function (A[M, K], B[K, N], W[M, L]) -> (E) {\n"
    "  C[i, j : M, N] = +(A[i, k] * B[k, j]);\n"
    "  E[j, l : N, L] = +(C[i, j] * W[i, l]);\n"
    "}\n"
)
TWO_DIMS = {"M": 12, "K": 5, "N": 9, "L": 7}


def _two_kernels() -> Block:
    shapes = {"A": (12, 5), "B": (5, 9), "W": (12, 7)}
    typed = {k: (DType("i32"), s) for k, s in shapes.items()}
    return compile_tile(TWO_KERNELS, "two.tile", dims=TWO_DIMS, shapes=typed).program


def test_weights_are_sent_before_the_kernel_before_theirs_runs() -> None:
    """The second kernel's weight W is the root's input: its messages may go when the run
    starts (point 0), not at its kernel; C's elements go right after the kernel computing them
    (the second kernel splits C's columns, the first its rows)."""
    _, plan = _plan(_two_kernels(), 3)
    assert len(plan.kernels) == 2  # type: ignore[attr-defined]
    points = send_points(plan)  # type: ignore[arg-type]
    messages = [t for phase in plan.phases for t in phase]  # type: ignore[attr-defined]
    early = [t for t in messages if t.buffer == "W"]
    assert len(early) == 2 and all(points[t.tag] == 0 and t.phase == 1 for t in early)
    assert any(t.buffer == "C" for t in messages)
    for t in messages:
        assert points[t.tag] <= t.phase
        if t.buffer in ("C", "E"):  # computed elements: sent after the kernel writing them
            assert points[t.tag] == t.phase


@needs_mpi
def test_overlapped_messages_give_the_same_bits() -> None:
    program = _two_kernels()
    rng = np.random.default_rng(11)
    shapes = {"A": (12, 5), "B": (5, 9), "W": (12, 7)}
    inputs = {k: rng.integers(-8, 8, s, dtype=np.int32) for k, s in shapes.items()}
    want = interpret(program, inputs)["E"]
    got, artifact = _run(program, 3, inputs)
    np.testing.assert_array_equal(got["E"], want)
    cfg = load_target("mpi")
    late = parse_config(
        cfg.source.replace("overlap = true", "overlap = false"), cfg.path, {"ranks": 3}
    )
    compiled = driver.run_pipeline(program, driver.resolve_steps(late.stage("default")))
    again = get_backend("mpi").compile(compiled, late)
    assert isinstance(again, MpiArtifact) and again.source != artifact.source
    np.testing.assert_array_equal(again.run(inputs)["E"], want)
