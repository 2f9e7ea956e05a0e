"""Running `plaidc` and `plaidc-opt` in-process (`run_cli`) and the Stripe they read."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from .paths import REFERENCE

MATMUL_STRIPE = REFERENCE / "matmul" / "stripe" / "00_initial.stripe"


def run_cli(main: object, args: list[str], cwd: Path) -> tuple[int, str, str]:
    runner = CliRunner()
    import os

    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = runner.invoke(main, args, catch_exceptions=False)  # type: ignore[arg-type]
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr
