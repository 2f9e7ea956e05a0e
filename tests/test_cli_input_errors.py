"""Malformed user input through the CLI: exit 1 (2 for usage) with a located message, never
an internal error (found by fuzzing the command line)."""

from __future__ import annotations

from pathlib import Path

from plaidc.cli import plaidc_main, plaidc_opt_main

from .test_cli import MATMUL_STRIPE, run_cli

MM_TILE = "function (A[M, K], B[K, N]) -> (C) {\n  C[m, n : M, N] = +(A[m, k] * B[k, n]);\n}\n"
DIMS = ["-D", "M=3", "-D", "K=4", "-D", "N=5"]


def test_invalid_utf8_is_located_at_the_bad_byte(tmp_path: Path) -> None:
    (tmp_path / "bad.tile").write_bytes(MM_TILE.encode().replace(b"+(A", b"+(\xc3\xa9\xff"))
    code, _, err = run_cli(plaidc_main, ["compile", "bad.tile", *DIMS], tmp_path)
    assert code == 1, err
    lines = err.splitlines()
    assert (
        lines[0] == "bad.tile:2:23: error: not valid UTF-8 (byte 0xff); source files must be UTF-8"
    )
    assert lines[2] == " " * 22 + "^"


def test_invalid_utf8_in_stripe_and_config(tmp_path: Path) -> None:
    (tmp_path / "bad.stripe").write_bytes(b"\xfe" + MATMUL_STRIPE.read_bytes())
    code, _, err = run_cli(plaidc_opt_main, ["bad.stripe"], tmp_path)
    assert code == 1 and err.startswith("bad.stripe:1:1: error: not valid UTF-8 (byte 0xfe)")
    (tmp_path / "chip.toml").write_bytes(b'[target]\nname = "c\x80"\nbackend = "interp"\n')
    code, _, err = run_cli(plaidc_opt_main, [str(MATMUL_STRIPE), "--config", "chip.toml"], tmp_path)
    assert code == 1 and err.startswith("chip.toml:2:10: error: not valid UTF-8 (byte 0x80)")


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "bom.tile").write_bytes(b"\xef\xbb\xbf" + MM_TILE.encode())
    code, out, err = run_cli(
        plaidc_main, ["compile", "bom.tile", *DIMS, "--emit", "stripe"], tmp_path
    )
    assert code == 0, err
    assert "block" in out
