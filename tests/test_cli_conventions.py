"""The command-line conventions users rely on (ARCHITECTURE.md's contract): `--version`, LLVM IR
for the host, usage errors exit 2 with click's one-line message, and `-x tile|stripe` with
Tile recognised by its content."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import llvmlite
import llvmlite.binding as llvm
import pytest
from click.testing import CliRunner

from plaidc.cli import plaidc_main, plaidc_opt_main
from plaidc.driver import program_language

from .support import EXAMPLES
from .support.cli import run_cli

BIN = Path(sys.executable).parent
MATMUL_TILE = (EXAMPLES / "matmul.tile").read_text()  # starts with `//` comments
DIMS = ["-D", "M=3", "-D", "K=4", "-D", "N=5"]
FIG5B = EXAMPLES / "fig5b.stripe"
LITERAL_TILE = "/* sizes in the program */\nfunction (A[2, 3]) -> (B) {\n  B = A * A;\n}\n"
LLVM_VERSION = ".".join(str(part) for part in llvm.llvm_version_info)


# ---- --version ----------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["plaidc", "plaidc-opt"])
def test_version_names_plaidc_llvmlite_and_llvm(command: str) -> None:
    result = subprocess.run(
        [str(BIN / command), "--version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"{command} {version('plaidc')}",
        f"llvmlite {llvmlite.__version__} (LLVM {LLVM_VERSION})",
    ]


# ---- LLVM IR for the host -----------------------------------------------------------------


def _host_target_machine() -> llvm.TargetMachine:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    return llvm.Target.from_triple(llvm.get_process_triple()).create_target_machine()


@pytest.mark.parametrize("target", [["-t", "llvm"], ["--emit", "llvm"]])
def test_emitted_llvm_ir_names_the_host_and_the_llvm_version(
    target: list[str], tmp_path: Path
) -> None:
    (tmp_path / "mm.tile").write_text(MATMUL_TILE)
    code, _, err = run_cli(plaidc_main, ["compile", "mm.tile", *DIMS, *target], tmp_path)
    assert code == 0, err
    text = (tmp_path / "mm.ll").read_text()
    header = text.splitlines()[0]
    assert header.startswith(f"; LLVM IR from plaidc for LLVM {LLVM_VERSION} ")
    tm = _host_target_machine()
    assert f'\ntarget triple = "{llvm.get_process_triple()}"\n' in text
    assert f'\ntarget datalayout = "{tm.target_data}"\n' in text
    module = llvm.parse_assembly(text)  # the LLVM it names reads it, and compiles it as is
    module.verify()
    assert module.triple == llvm.get_process_triple()
    assert tm.emit_object(module)


def test_emitted_llvm_ir_compiles_with_llc_of_that_version(tmp_path: Path) -> None:
    """The .ll is for llc/clang of the LLVM llvmlite links: checked where that llc exists."""
    major = LLVM_VERSION.split(".")[0]
    llc = shutil.which(f"llc-{major}") or shutil.which("llc")
    if llc is None:
        pytest.skip("no llc installed")
    reported = subprocess.run([llc, "--version"], capture_output=True, text=True, check=False)
    found = re.search(r"LLVM version (\d+)", reported.stdout)
    if found is None or found.group(1) != major:
        pytest.skip(f"{llc} is not LLVM {major}")
    (tmp_path / "mm.tile").write_text(MATMUL_TILE)
    code, _, err = run_cli(plaidc_main, ["compile", "mm.tile", *DIMS, "-t", "llvm"], tmp_path)
    assert code == 0, err
    result = subprocess.run(
        [llc, "-filetype=obj", "mm.ll", "-o", "mm.o"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "mm.o").stat().st_size > 0


# ---- usage errors -------------------------------------------------------------------------

CHIP = '[target]\nname = "chip"\nbackend = "interp"\n[hardware]\n'


@pytest.mark.parametrize(
    ("main", "args", "message"),
    [
        (plaidc_main, ["compile", "mm.tile", *DIMS, "-t", "nosuch"], "unknown target 'nosuch'"),
        (plaidc_main, ["run", "mm.tile", *DIMS, "-t", "nosuch"], "unknown target 'nosuch'"),
        (plaidc_opt_main, ["x.stripe", "-t", "nosuch"], "unknown target 'nosuch' (targets: "),
        (
            plaidc_main,
            ["compile", "mm.tile", *DIMS, "--shape", "A=float[4,3]"],
            "Invalid value for '--shape': 'A=float[4,3]': unknown dtype 'float'",
        ),
        (
            plaidc_main,
            ["run", "mm.tile", *DIMS, "--shape", "A=fp32", "--random-inputs", "0"],
            "'A=fp32' should be NAME=DTYPE[d0,d1,...]",
        ),
        (plaidc_main, ["compile", "mm.tile", *DIMS, "-D", "N=two"], "'N=two' should be NAME=INT"),
        (plaidc_main, ["compile", "mm.tile", *DIMS, "--emit", "asm"], "'asm' is not one of"),
        (
            plaidc_main,
            ["compile", "mm.tile", *DIMS, "-t", "c", "--emit", "llvm"],
            "--emit llvm needs a target with the llvm backend",
        ),
        (plaidc_main, ["compile", "mm.tile", *DIMS, "-x", "c"], "'c' is not one of"),
        (
            plaidc_main,
            ["compile", "mm.tile", *DIMS, "-t", "c", "--config", "chip.toml"],
            "give either -t c or --config chip.toml, not both",
        ),
        (
            plaidc_main,
            ["run", "mm.tile", *DIMS, "-t", "c", "--config", "chip.toml"],
            "give either -t c or --config chip.toml, not both",
        ),
        (
            plaidc_opt_main,
            ["x.stripe", "-t", "c", "--config", "chip.toml"],
            "give either -t c or --config chip.toml, not both",
        ),
        (
            plaidc_opt_main,
            ["x.stripe", "--pass", "prune-idxs", "-t", "c"],
            "give either --pass or -t/--config/--stage",
        ),
        (plaidc_opt_main, ["x.stripe", "--seed", "3"], "--seed sets the random inputs of --check"),
        (
            plaidc_main,
            ["compile", "mm.tile", *DIMS, "--emit", "stripe", "--dump-dir", "d"],
            "--emit stripe runs no passes",
        ),
        (
            plaidc_main,
            ["compile", "mm.tile", *DIMS, "--emit", "stripe", "--verify-each"],
            "--emit stripe runs no passes",
        ),
        (
            plaidc_main,
            ["compile", "mm.tile", *DIMS, "-t", "c", "--emit", "lib", "-o", "-"],
            "--emit lib writes a shared library: it needs -o FILE",
        ),
        (
            plaidc_main,
            ["compile", "-", "-t", "c", "--emit", "lib"],
            "--emit lib writes a shared library: it needs -o FILE",
        ),
        (
            plaidc_main,
            ["compile", "x.stripe", "-D", "M=3"],
            "-D binds a Tile program, and x.stripe is read as Stripe",
        ),
        (
            plaidc_main,
            ["run", "x.stripe", "--shape", "I=i8[12,16,8]", "--random-inputs", "0"],
            "--shape binds a Tile program, and x.stripe is read as Stripe",
        ),
        (
            plaidc_main,
            ["compile", "x.stripe", "--entry", "main"],
            "--entry binds a Tile program, and x.stripe is read as Stripe",
        ),
        (
            plaidc_main,
            ["run", "mm.tile", *DIMS, "--input", "A=a.npy", "--input", "A=b.npy"],
            "Invalid value for '--input': A is given twice",
        ),
        (plaidc_main, ["run", "mm.tile", *DIMS, "--input", "=a.npy"], "should be NAME=FILE.npy"),
        (plaidc_main, ["compile", "mm.tile", *DIMS, "-o", ""], "'-o': must not be empty"),
        (plaidc_main, ["compile", "mm.tile", *DIMS, "--config", ""], "must not be empty"),
        (plaidc_opt_main, ["x.stripe", "-o", " "], "'-o': must not be empty"),
        (plaidc_opt_main, ["x.stripe", "-D", "N=3"], "-D binds a Tile program"),
        (plaidc_main, ["frobnicate"], "No such command 'frobnicate'"),
    ],
)
def test_every_misuse_of_an_option_is_a_usage_error(
    main: object, args: list[str], message: str, tmp_path: Path
) -> None:
    """Exit 2 with click's usage message (`Usage: ...`, `Error: ...`), before any work: no
    output file is written, no traceback."""
    (tmp_path / "mm.tile").write_text(MATMUL_TILE)
    (tmp_path / "x.stripe").write_text(FIG5B.read_text())
    (tmp_path / "chip.toml").write_text(CHIP)
    code, out, err = run_cli(main, args, tmp_path)
    assert code == 2, err
    assert err.startswith("Usage: plaidc"), err
    assert err.splitlines()[-1].startswith("Error: ") and message in err
    assert "Traceback" not in err and out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chip.toml", "mm.tile", "x.stripe"]


# ---- -x tile|stripe, Tile by content, standard input --------------------------------------


def _emit_stripe(args: list[str], stdin: str | None = None) -> str:
    result = CliRunner().invoke(plaidc_main, ["compile", *args, "--emit", "stripe"], input=stdin)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_a_tile_program_is_tile_whatever_its_file_is_called(tmp_path: Path) -> None:
    expected = _emit_stripe([str(EXAMPLES / "matmul.tile"), *DIMS])
    assert expected.startswith("0: #program")
    for name in ("prog.txt", "prog", "x.stripe"):  # recognised by its first word, `function`
        (tmp_path / name).write_text(MATMUL_TILE)
        assert _emit_stripe([str(tmp_path / name), *DIMS]) == expected
        assert _emit_stripe([str(tmp_path / name), "-x", "tile", *DIMS]) == expected
    assert _emit_stripe(["-", *DIMS], stdin=MATMUL_TILE) == expected


def test_x_stripe_reads_a_tile_named_file_as_stripe(tmp_path: Path) -> None:
    (tmp_path / "x.tile").write_text(FIG5B.read_text())
    code, _, err = run_cli(plaidc_main, ["compile", "x.tile", "--emit", "stripe"], tmp_path)
    assert code == 1 and err.startswith("x.tile:1:1: error: ")  # by its extension: Tile
    code, out, err = run_cli(
        plaidc_main, ["compile", "x.tile", "-x", "stripe", "--emit", "stripe"], tmp_path
    )
    assert code == 0, err
    assert out == _emit_stripe([str(FIG5B)])
    args = ["run", "x.tile", "-x", "stripe", "--random-inputs", "0", "--check"]
    code, out, err = run_cli(plaidc_main, args, tmp_path)
    assert code == 0, err
    assert out.startswith("O: ")


def test_x_tile_reads_a_stripe_named_file_as_tile(tmp_path: Path) -> None:
    """A Tile error in x.stripe is reported by the Tile parser, located in x.stripe."""
    (tmp_path / "x.stripe").write_text("// no function here\nC = A;\n")
    code, _, err = run_cli(plaidc_main, ["compile", "x.stripe", "-x", "tile"], tmp_path)
    assert code == 1
    assert err.startswith("x.stripe:2:1: error: ") and "function" in err.splitlines()[0]


def test_run_and_opt_read_tile_from_standard_input() -> None:
    runner = CliRunner()
    result = runner.invoke(
        plaidc_main, ["run", "-", "--random-inputs", "0", "--check"], input=LITERAL_TILE
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("B: float32[2, 3] [")
    result = runner.invoke(plaidc_opt_main, ["-t", "cpu", "--check"], input=LITERAL_TILE)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("0: #program")
    args = ["-t", "cpu", "--check", *DIMS, "--shape", "A=fp64[3,4]"]
    result = runner.invoke(plaidc_opt_main, args, input=MATMUL_TILE)
    assert result.exit_code == 0, result.stderr
    assert " A[0, 0] fp64:I(3, 4):(4, 1):96 B\n" in result.stdout
    result = runner.invoke(plaidc_main, ["compile", "-", "--emit", "stripe"], input="function (")
    assert result.exit_code == 1
    assert result.stderr.startswith("<stdin>:1:11: error: ")


def test_compiled_code_from_standard_input_goes_to_standard_output(tmp_path: Path) -> None:
    result = CliRunner().invoke(plaidc_main, ["compile", "-", "-t", "c"], input=LITERAL_TILE)
    assert result.exit_code == 0, result.stderr
    assert "plaidc_entry" in result.stdout


@pytest.mark.parametrize(
    ("text", "path", "language"),
    [
        ("function (A) -> (B) { B = A; }", "p.stripe", "tile"),
        ("  // a comment\n/* a\nblock comment */\n\tfunction f(A) -> (B) {}", "p", "tile"),
        ("functional", "p.txt", "stripe"),  # a word that starts with `function`
        ("function", "p.txt", "tile"),
        ("block []:1 () {}", "p.txt", "stripe"),
        ("block []:1 () {}", "p.tile", "tile"),  # not Tile by content: by its extension
        ("/* unterminated function", "p", "stripe"),
        ("", "p.tile", "tile"),
        ("", "-", "stripe"),
    ],
)
def test_program_language(text: str, path: str, language: str) -> None:
    assert program_language(text, path) == language


# ---- a reader that stops early ------------------------------------------------------------


def test_a_closed_pipe_ends_the_command_quietly() -> None:
    """`plaidc targets | head -1`: when the reader has closed the pipe, plaidc stops without an
    'internal compiler error' (writing to a closed pipe is not a bug)."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before plaidc writes: every write fails (EPIPE)
    try:
        writer = subprocess.run(
            [str(BIN / "plaidc"), "targets"], stdout=write_end, stderr=subprocess.PIPE, check=False
        )
    finally:
        os.close(write_end)
    assert "internal" not in writer.stderr.decode() and "Traceback" not in writer.stderr.decode()
    assert writer.returncode == 1
