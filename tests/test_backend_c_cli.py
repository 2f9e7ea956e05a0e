"""The CPU backends through the command line (`plaidc run -t c|llvm --check --bench`,
`plaidc compile --emit c|llvm|lib`) and their error handling: a missing compiler, constructs
the backends refuse, bad `[codegen]` tables."""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from plaidc.backends import BackendUnavailable, get_backend
from plaidc.cli import plaidc_main
from plaidc.diagnostics import CompileError
from plaidc.stripe.parser import parse_stripe
from plaidc.targets import load_target, parse_config

from .support import EXAMPLES, REFERENCE
from .support.backend_c_cli import (
    MIXED_AGGREGATION,
    PRNG,
    SCATTER,
)


def run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(plaidc_main, args, catch_exceptions=False)
    return result.exit_code, result.output


@pytest.mark.parametrize("target", ["c", "cpu", "llvm"])
def test_run_check_and_bench(target: str, tmp_path: Path) -> None:
    code, output = run(
        [
            "run",
            str(EXAMPLES / "matmul.tile"),
            "-t",
            target,
            "-D",
            "M=9",
            "-D",
            "K=7",
            "-D",
            "N=20",
            "--random-inputs",
            "3",
            "--check",
            "--bench",
            "3",
            "--output-dir",
            str(tmp_path),
        ]
    )
    assert code == 0, output
    assert "outputs match the interpreter" in output
    assert "bench: 3 runs" in output
    assert np.load(tmp_path / "C.npy").shape == (9, 20)


@pytest.mark.parametrize("emit", ["c", "llvm"])
def test_compile_emits_source(emit: str, tmp_path: Path) -> None:
    out = tmp_path / f"softmax.{emit}"
    stripe = REFERENCE / "softmax" / "stripe" / "15_prune_refs.stripe"
    code, output = run(["compile", str(stripe), "--emit", emit, "-o", str(out)])
    assert code == 0, output
    text = out.read_text()
    assert ("void plaidc_entry" in text) if emit == "c" else ('@"plaidc_entry"' in text)


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_compile_emits_a_loadable_library(target: str, tmp_path: Path) -> None:
    out = tmp_path / "lib.so"
    tile = str(EXAMPLES / "softmax.tile")
    code, output = run(
        ["compile", tile, "-t", target, "-D", "B=2", "-D", "N=5", "--emit", "lib", "-o", str(out)]
    )
    assert code == 0, output
    lib = ctypes.CDLL(str(out))
    assert lib.plaidc_entry is not None


@pytest.mark.parametrize("backend", ["c", "llvm"])
def test_mixed_nested_aggregation_is_refused(backend: str) -> None:
    program = parse_stripe(MIXED_AGGREGATION, "mixed.stripe")
    with pytest.raises(CompileError, match="different agg_ops"):
        get_backend(backend).compile(program, load_target(backend))


@pytest.mark.parametrize("backend", ["c", "llvm"])
def test_prng_special_is_refused_by_name(backend: str) -> None:
    program = parse_stripe(PRNG, "prng.stripe")
    with pytest.raises(CompileError, match="prng_step"):
        get_backend(backend).compile(program, load_target(backend))


def test_missing_compiler_says_how_to_install() -> None:
    cfg = load_target("c")
    cfg.codegen["cc"] = "no-such-compiler-plaidc"
    program = parse_stripe(PRNG.replace("O = prng_step(X)", "O = copy(X)"), "copy.stripe")
    with pytest.raises(BackendUnavailable, match="install"):
        get_backend("c").compile(program, cfg)


def test_unknown_codegen_key_is_an_error() -> None:
    text = load_target("c").source.replace("\n[codegen]\n", "\n[codegen]\nvectorize = true\n", 1)
    cfg = parse_config(text, "bad.toml")
    program = parse_stripe(PRNG.replace("O = prng_step(X)", "O = copy(X)"), "copy.stripe")
    with pytest.raises(CompileError, match="unknown key 'vectorize'"):
        get_backend("c").compile(program, cfg)


@pytest.mark.parametrize("backend", ["c", "llvm"])
def test_scatter_and_its_index_check(backend: str) -> None:
    program = parse_stripe(SCATTER, "scatter.stripe")
    artifact = get_backend(backend).compile(program, load_target(backend))
    updates = np.arange(6, dtype=np.float32).reshape(3, 2)
    base = {"E": updates, "V": np.zeros((4, 2), np.float32)}
    got = artifact.run({**base, "I": np.array([3, 0, 3], np.int32)})["O"]
    want = np.zeros((4, 2), np.float32)
    np.add.at(want, np.array([3, 0, 3]), updates)
    np.testing.assert_array_equal(got, want)
    with pytest.raises(CompileError, match="scatter index"):
        artifact.run({**base, "I": np.array([1, 4, 0], np.int32)})
