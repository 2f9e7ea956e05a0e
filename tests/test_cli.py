"""The command-line contract of ARCHITECTURE.md: exit codes, diagnostics, dumps, checking."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from plaidc.cli import plaidc_main, plaidc_opt_main
from plaidc.targets import load_target

from .support import EXAMPLES, REFERENCE
from .support.cli import (
    MATMUL_STRIPE,
    run_cli,
)

BIN = Path(sys.executable).parent

BAD_STRIPE = "block []:1 (\n  in A[0, 0] fp32:I(2, 2):(2, 1):16 B\n) {\n  0: $A = lod(A)\n}\n"
UNGIVEN_REF = """block []:1 (
    in A[0] fp32:I(4):(1):16 B
    out B[0] fp32:I(4):(1):16 B
) {
  0: block [i:4]:4 (
      out B[i] fp32:I(1):(1):4 B
  ) {
    0: $a = load(A)
    1: B = store($a)
  }
}
"""


def test_console_scripts_report_malformed_stripe_without_traceback(tmp_path: Path) -> None:
    (tmp_path / "bad.stripe").write_text(BAD_STRIPE)
    result = subprocess.run(
        [str(BIN / "plaidc-opt"), "bad.stripe"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert (
        lines[0]
        == "bad.stripe:4:11: error: unknown statement or intrinsic 'lod'; did you mean 'load'?"
    )
    assert lines[1] == "  0: $A = lod(A)"
    assert lines[2] == "          ^"


def test_ref_not_given_to_child_is_a_located_error(tmp_path: Path) -> None:
    (tmp_path / "ungiven.stripe").write_text(UNGIVEN_REF)
    code, _, err = run_cli(plaidc_opt_main, ["ungiven.stripe"], tmp_path)
    assert code == 1
    assert err.startswith("ungiven.stripe:8:8: error:")
    assert "'A'" in err.splitlines()[0]


def test_opt_pipeline_dump_dir_is_deterministic(tmp_path: Path) -> None:
    args = [str(MATMUL_STRIPE), "-t", "cpu", "--verify-each", "--check"]
    for out in ("d1", "d2"):
        code, _, err = run_cli(plaidc_opt_main, [*args, "--dump-dir", out], tmp_path)
        assert code == 0, err
    first = sorted(p.name for p in (tmp_path / "d1").glob("*.stripe"))
    assert first[0] == "00_initial.stripe" and first[1].startswith("01_")
    assert len(first) == len(load_target("c").stage("default")) + 1
    for name in first:
        assert (tmp_path / "d1" / name).read_bytes() == (tmp_path / "d2" / name).read_bytes()
    assert (
        tmp_path / "d1" / "00_initial.stripe"
    ).read_text() == MATMUL_STRIPE.read_text().rstrip() + "\n"
    # a shorter pipeline into the same folder replaces the dumps; other files stay
    (tmp_path / "d1" / "notes.txt").write_text("mine")
    code, _, err = run_cli(
        plaidc_opt_main, [*args[:1], "--pass", "dead-code", "--dump-dir", "d1"], tmp_path
    )
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "d1").iterdir()) == [
        "00_initial.stripe",
        "01_dead-code.stripe",
        "notes.txt",
    ]  # the first run's tuning.txt is gone with its dumps


def test_opt_reads_stdin_and_writes_file(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "out.stripe"
    result = runner.invoke(
        plaidc_opt_main,
        ["-", "--pass", "prune-idxs", "-o", str(out)],
        input=MATMUL_STRIPE.read_text(),
    )
    assert result.exit_code == 0, result.stderr
    assert out.read_text().startswith("0: #program #total_macs=245760 \n")


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--pass", "prune-idx"], 2, "unknown pass 'prune-idx'; did you mean 'prune-idxs'?"),
        (
            ["--pass", "prune-idxs{reqz=[all]}"],
            2,
            "pass 'prune-idxs': unknown option 'reqz'; did you mean 'reqs'?",
        ),
        (["--pass", "prune-idxs{reqs}"], 2, "option 'reqs' must be key=value"),
        (
            ["--pass", "autotile{split_factor=nan}"],
            2,
            "option 'split_factor': expected a finite number, got \"nan\"",
        ),
        # values that would print Stripe the parser cannot read back
        (
            ["--pass", "autotile{max_total_size=16,inner_set=[#]}"],
            2,
            "pass 'autotile': option 'inner_set': \"#\" is not a tag name",
        ),
        (
            ["--pass", "partition-compute{reqs=[kernel],num_parts=3,idx_tag=a b}"],
            2,
            "option 'idx_tag': \"a b\" is not a tag name",
        ),
        (
            ["--pass", "partition-memory{reqs=[kernel],num_parts=3,bank_unit=A[0]}"],
            2,
            "option 'bank_unit': \"A[0]\" is not a name",
        ),
        (
            ["--pass", "cache{ref=[all],mem_loc=UB[x]}"],
            2,
            "option 'mem_loc': UB[x]: a location of cache's copies cannot name indices",
        ),
        (["-t", "nosuch"], 2, "unknown target 'nosuch'"),
        (["-t", "cpu", "--stage", "fast"], 2, "target 'c' has no stage 'fast'"),
        (["--frobnicate"], 2, "No such option"),
    ],
)
def test_opt_bad_options(args: list[str], code: int, message: str, tmp_path: Path) -> None:
    """Every misuse of an option is a usage error (exit 2), with click's usage message."""
    got, _, err = run_cli(plaidc_opt_main, [str(MATMUL_STRIPE), *args], tmp_path)
    assert got == code
    assert message in err
    assert err.startswith("Usage: plaidc-opt ")
    assert "Traceback" not in err


MATMUL_DEFINES = ["-D", "M=5", "-D", "K=3", "-D", "N=4"]


def test_compile_and_run_take_a_stage_of_the_target(tmp_path: Path) -> None:
    """`--stage gpu` runs the opencl config's gpu pipeline (work-groups: `#gpu_thread`), the
    default stage does not; `run --stage` checks against the interpreter like any run."""
    matmul = str(EXAMPLES / "matmul.tile")
    emitted = {}
    for stage in ("default", "gpu"):
        args = ["compile", matmul, "-t", "opencl", "--stage", stage, "--emit", "stripe-opt"]
        code, out, err = run_cli(plaidc_main, [*args, *MATMUL_DEFINES], tmp_path)
        assert code == 0, err
        emitted[stage] = out
    assert "#gpu_thread" in emitted["gpu"]
    assert "#gpu_thread" not in emitted["default"]
    args = ["run", matmul, "--stage", "default", "--random-inputs", "0", "--check"]
    code, _, err = run_cli(plaidc_main, [*args, *MATMUL_DEFINES], tmp_path)
    assert code == 0, err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--emit", "npu", "-t", "c"], "--emit npu needs a target with the npu backend"),
        (["--emit", "c", "-t", "npu"], "target 'npu' uses backend 'npu'"),
        (["--emit", "lib"], "--emit lib needs a compiled target"),
    ],
)
def test_emitting_another_backends_code_is_a_usage_error(
    args: list[str], message: str, tmp_path: Path
) -> None:
    """A backend reads its own target's [hardware] and [codegen] (the NPU's under -t c said
    'the NPU simulator needs [hardware] keys'; --emit lib on interp 'unknown backend')."""
    cmd = ["compile", str(EXAMPLES / "matmul.tile"), *MATMUL_DEFINES, *args, "-o", "x"]
    code, _, err = run_cli(plaidc_main, cmd, tmp_path)
    assert code == 2
    assert message in err


@pytest.mark.parametrize("command", ["compile", "run"])
def test_an_unknown_stage_is_an_error_naming_the_stages(command: str, tmp_path: Path) -> None:
    args = [command, str(EXAMPLES / "matmul.tile"), "-t", "opencl", "--stage", "gpx"]
    code, _, err = run_cli(plaidc_main, [*args, *MATMUL_DEFINES], tmp_path)
    assert code == 2
    assert (
        "Invalid value for '--stage': target 'opencl' has no stage 'gpx' (stages: default, gpu)"
        in err
    )
    assert "Traceback" not in err


def test_bad_config_file_is_located(tmp_path: Path) -> None:
    (tmp_path / "chip.toml").write_text(
        '[target]\nname = "chip"\nbackend = "interp"\n[hardware]\nl1 = 64\n'
        '[[stage.default.passes]]\npass = "prune-idxs"\nreqs = "${hardware.l2}"\n'
    )
    code, _, err = run_cli(plaidc_opt_main, [str(MATMUL_STRIPE), "--config", "chip.toml"], tmp_path)
    assert code == 1
    assert err.startswith("chip.toml:8:1: error: option 'reqs' refers to hardware.l2")


def test_user_config_replaces_target(tmp_path: Path) -> None:
    (tmp_path / "chip.toml").write_text(
        '[target]\nname = "chip"\nbackend = "interp"\n[hardware]\n'
        '[[stage.default.passes]]\nname = "tidy"\npass = "prune-idxs"\n'
    )
    code, _, err = run_cli(
        plaidc_opt_main,
        [str(MATMUL_STRIPE), "--config", "chip.toml", "--dump-dir", "d"],
        tmp_path,
    )
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "d").glob("*.stripe")) == [
        "00_initial.stripe",
        "01_tidy.stripe",
    ]


def test_check_mismatch_exits_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pass that changes the meaning must be caught by --check, naming the tensor."""
    import dataclasses

    from plaidc.passes import get_pass
    from plaidc.passes.registry import PassInfo
    from plaidc.stripe.ir import Block, Intrinsic

    def break_mul(block: Block, _opts: object) -> Block:
        stmts = tuple(
            dataclasses.replace(s, name="add")
            if isinstance(s, Intrinsic) and s.name == "mul"
            else s
            for s in block.stmts
        )
        children = tuple(break_mul(s, _opts) if isinstance(s, Block) else s for s in stmts)
        return dataclasses.replace(block, stmts=children)

    info = get_pass("prune-idxs")
    monkeypatch.setattr(
        "plaidc.passes.registry._REGISTRY",
        {
            **__import__("plaidc.passes.registry", fromlist=["_REGISTRY"])._REGISTRY,
            "prune-idxs": PassInfo(info.name, info.summary, info.options_type, break_mul),
        },
    )
    code, _, err = run_cli(
        plaidc_opt_main, [str(MATMUL_STRIPE), "--pass", "prune-idxs", "--check"], tmp_path
    )
    assert code == 3
    assert "check: MISMATCH: output 'X_T2' differs" in err
    assert "worst at" in err


MIXED = """function (I[N, H, W, C]: fp16, K[KH, KW, C, CO]: fp16, B[CO], Y[N]) -> (R, S) {
  O[n, x, y, co : N, H - KH + 1, W - KW + 1, CO] = +(I[n, x + i, y + j, c] * K[i, j, c, co]);
  R = relu(O + B);
  S = Y * 2.0;
}
"""


def test_outputs_computed_through_fp16_are_checked_at_fp16_tolerance(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R (fp32) is an fp16 convolution plus an fp32 bias: a target summing in another order
    can round the fp16 sum to the other side of a tie, one fp16 ulp off (seen on c at 1 of
    2016 elements); S never meets an fp16 value and keeps fp32 tolerance."""
    from plaidc import driver
    from plaidc.tile import compile_tile

    dims = {"N": 1, "H": 5, "W": 5, "C": 3, "KH": 3, "KW": 3, "CO": 2}
    program = compile_tile(MIXED, "mixed.tile", dims=dims).program
    loose = driver.through_half_precision(program)
    assert {"R", "I", "K"} <= loose and not {"S", "B", "Y"} & loose
    seen: list[frozenset[str]] = []
    compare = driver.compare_outputs

    def spy(
        want: object, got: object, reduced: frozenset[str] = frozenset(), terms: int = 1
    ) -> object:
        seen.append(frozenset(reduced))
        return compare(want, got, reduced, terms)  # type: ignore[arg-type]

    monkeypatch.setattr(driver, "compare_outputs", spy)
    (tmp_path / "mixed.tile").write_text(MIXED)
    defines = [f"-D{k}={v}" for k, v in dims.items()]
    args = ["run", "mixed.tile", *defines, "-t", "c", "--random-inputs", "1", "--check"]
    code, _, err = run_cli(plaidc_main, args, tmp_path)
    assert code == 0, err
    assert seen and "R" in seen[0] and "S" not in seen[0]


def test_run_stripe_with_inputs_and_outputs(tmp_path: Path) -> None:
    data = np.load(REFERENCE / "matmul" / "inputs.npz")
    np.save(tmp_path / "a.npy", data["A"])
    np.save(tmp_path / "b.npy", data["B"])
    code, _, err = run_cli(
        plaidc_main,
        [
            "run",
            str(MATMUL_STRIPE),
            "-t",
            "interp",
            "--input",
            "X_I_0=a.npy",
            "--input",
            "X_I_1=b.npy",
            "--output-dir",
            "outs",
            "--check",
        ],
        tmp_path,
    )
    assert code == 0, err
    assert "outputs match the interpreter" in err
    got = np.load(tmp_path / "outs" / "X_T2.npy")
    np.testing.assert_allclose(got, data["A"] @ data["B"], rtol=1e-4, atol=1e-5)


def test_run_reports_missing_and_wrong_inputs(tmp_path: Path) -> None:
    np.save(tmp_path / "a.npy", np.zeros((3, 3), np.float32))
    code, _, err = run_cli(
        plaidc_main,
        ["run", str(MATMUL_STRIPE), "--input", "X_I_0=a.npy", "--random-inputs", "1"],
        tmp_path,
    )
    assert code == 1
    assert "X_I_0" in err and "(3, 3)" in err and "Traceback" not in err
    code, _, err = run_cli(plaidc_main, ["run", str(MATMUL_STRIPE)], tmp_path)
    assert code == 1
    assert "input 'X_I_0' has no value: pass --input X_I_0=FILE.npy or --random-inputs SEED" in err
    code, _, err = run_cli(plaidc_main, ["run", str(MATMUL_STRIPE), "--input", "Q=a.npy"], tmp_path)
    assert code == 1 and "the program has no input of that name" in err


def test_run_takes_an_input_by_its_tile_name_with_a_prime(tmp_path: Path) -> None:
    # Stripe spells `A'` as `A_p`; `--input A'=...` binds the shape by the Tile name and must
    # feed the same input (it was bound, then refused as "no input of that name").
    (tmp_path / "p.tile").write_text("function (A'[N]) -> (O') { O' = A' * 2.0; }")
    np.save(tmp_path / "a.npy", np.arange(3, dtype=np.float32))
    args = ["run", "p.tile", "--input", "A'=a.npy", "--output-dir", "outs", "--check"]
    code, _, err = run_cli(plaidc_main, args, tmp_path)
    assert code == 0, err
    np.testing.assert_array_equal(np.load(tmp_path / "outs" / "O_p.npy"), [0.0, 2.0, 4.0])


def test_run_random_inputs_are_deterministic(tmp_path: Path) -> None:
    for out in ("o1", "o2"):
        code, _, err = run_cli(
            plaidc_main,
            [
                "run",
                str(EXAMPLES / "fig5b.stripe"),
                "--random-inputs",
                "7",
                "--output-dir",
                out,
                "--bench",
                "2",
            ],
            tmp_path,
        )
        assert code == 0, err
    assert np.array_equal(np.load(tmp_path / "o1" / "O.npy"), np.load(tmp_path / "o2" / "O.npy"))


def test_unavailable_backend_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plaidc.backends import BackendUnavailable

    def unavailable(name: str) -> None:
        raise BackendUnavailable(f"the '{name}' backend needs a C compiler: apt-get install gcc")

    monkeypatch.setattr("plaidc.cli.get_backend", unavailable)
    code, _, err = run_cli(
        plaidc_main, ["run", str(MATMUL_STRIPE), "-t", "c", "--random-inputs", "0"], tmp_path
    )
    assert code == 1
    assert err.strip() == "error: the 'c' backend needs a C compiler: apt-get install gcc"


def test_targets_and_passes_list(tmp_path: Path) -> None:
    code, out, _ = run_cli(plaidc_main, ["targets"], tmp_path)
    assert code == 0
    listing = out.split("\n\n")[0]
    assert {line.split()[0] for line in listing.splitlines()} == {
        "c",
        "interp",
        "llvm",
        "mpi",
        "npu",
        "npu-strict",
        "opencl",
        "opencl-gpu",
    }
    assert "(alias cpu)" in out
    code, out, _ = run_cli(plaidc_main, ["passes"], tmp_path)
    assert code == 0
    for name in ("dead-code", "prune-idxs", "prune-refs"):
        assert name in out
    assert 'reqs: list[str] = ["all"]' in out


def test_internal_error_is_one_line_without_debug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setattr("plaidc.driver.run_pipeline", boom)
    code, _, err = run_cli(plaidc_opt_main, [str(MATMUL_STRIPE)], tmp_path)
    assert code == 4
    assert err.startswith("plaidc: internal compiler error: RuntimeError: kaboom -- a bug")
    assert len(err.strip().splitlines()) == 1 and "report it" in err
    assert "Traceback" not in err
    code, _, err = run_cli(plaidc_opt_main, [str(MATMUL_STRIPE), "--debug"], tmp_path)
    assert code == 4 and "Traceback" in err


@pytest.mark.parametrize(
    ("name", "where", "message"),
    [
        ("bad_access_outside_parent", "6:7", "refinement 'A' reaches outside its parent"),
        (
            "bad_index_out_of_scope",
            "6:7",
            "access 'j' uses 'j', which is not an index of this block",
        ),
        ("bad_assign_conflict", "7:7", "points {i=0, j=0} and {i=0, j=1} both store element [0]"),
    ],
)
def test_verifier_errors_through_the_cli(name: str, where: str, message: str) -> None:
    path = Path(__file__).parent / "ir" / f"{name}.stripe"
    code, _, err = run_cli(plaidc_opt_main, [path.name], path.parent)
    assert code == 1
    first = err.splitlines()[0]
    assert first.startswith(f"{path.name}:{where}: error: ")
    assert message in first
    assert err.splitlines()[2].endswith("^")


@pytest.mark.parametrize("target", ["interp", "c", "npu"])
def test_an_unused_input_is_accepted_and_ignored(tmp_path: Path, target: str) -> None:
    """The interp pipeline prunes the unused input's uses; the program still takes it."""
    src = tmp_path / "unused.tile"
    src.write_text("function (A[M, N], V[L]) -> (C) { C = A + 1.0; }\n")
    args = ["run", str(src), "-t", target, "--random-inputs", "1", "--check"]
    args += ["--shape", "A=fp32[4,5]", "--shape", "V=fp32[40]"]
    result = CliRunner().invoke(plaidc_main, args)
    assert result.exit_code == 0, result.output
    assert "unused input V" in result.output


def test_a_backend_error_points_at_the_tile_statement(tmp_path: Path) -> None:
    """Stripe lowered from Tile carries each statement's span on its block (through the
    passes' tiling), so what a backend cannot map is reported at the Tile line."""
    (tmp_path / "band.tile").write_text(
        "function (A[N], B[N]) -> (C) {\n  D = A + 1;\n  C = D & B;\n}\n"
    )
    args = ["run", "band.tile", "-t", "npu", "--shape", "A=i32[8]", "--shape", "B=i32[8]"]
    code, _, err = run_cli(plaidc_main, [*args, "--random-inputs", "1"], tmp_path)
    assert code == 1, err
    lines = err.splitlines()
    assert lines[0].startswith("band.tile:3:3: error: ") and "'bit_and'" in lines[0]
    assert lines[1:3] == ["  C = D & B;", "  ^"]


def test_the_npu_report_goes_to_the_table_or_to_the_json_file(tmp_path: Path) -> None:
    """NPU.md: the run report is JSON with `--report FILE`, a table otherwise."""
    import json

    args = ["run", str(EXAMPLES / "matmul.tile"), *MATMUL_DEFINES, "-t", "npu"]
    code, out, err = run_cli(plaidc_main, [*args, "--random-inputs", "1"], tmp_path)
    assert code == 0, err
    assert "NPU simulation:" in out and "Cube:" in out
    code, out, err = run_cli(
        plaidc_main, [*args, "--random-inputs", "1", "--report", "r.json"], tmp_path
    )
    assert code == 0, err
    assert "NPU simulation:" not in out and "C: float32[5, 4]" in out
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["total_cycles"] > 0 and "PIPE_M" in data["busy_cycles"]


def test_a_shape_converting_input_data_says_so(tmp_path: Path) -> None:
    """`--shape` wins over an `--input` file's dtype (TILE.md); the conversion is a warning."""
    (tmp_path / "id.tile").write_text("function (A[N]) -> (O) { O = A; }\n")
    np.save(tmp_path / "a.npy", np.array([0.5, 1.5, -2.5], np.float32))
    args = ["run", "id.tile", "--input", "A=a.npy", "--shape", "A=i32[3]"]
    code, out, err = run_cli(plaidc_main, args, tmp_path)
    assert code == 0, err
    assert "warning: --shape A=i32[3]: the values of --input A are fp32; they are converted" in err
    assert "O: int32[3] [0, 1, -2]" in out
