"""IR text tests: each `tests/ir/*.test` holds a RUN line (a `plaidc-opt` command, `%s` standing
for the Stripe after the `---` line), FileCheck directives, then the input. The output must
satisfy the directives (checked by the `filecheck` tool) and the command must exit 0."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = sorted((Path(__file__).parent / "ir").glob("*.test"))
BIN = Path(sys.executable).parent


@pytest.mark.parametrize("test", TESTS, ids=lambda p: p.stem)
def test_ir_file(test: Path, tmp_path: Path) -> None:
    header, _, body = test.read_text().partition("\n---\n")
    run = next(line for line in header.splitlines() if line.startswith("RUN:"))
    source = tmp_path / f"{test.stem}.stripe"
    source.write_text(body)
    args = shlex.split(run[len("RUN:") :].replace("%s", str(source)))
    assert args[0] == "plaidc-opt"
    result = subprocess.run(
        [str(BIN / "plaidc-opt"), *args[1:]],
        capture_output=True,
        text=True,
        cwd=test.parent,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    filecheck = shutil.which("filecheck", path=str(BIN)) or "filecheck"
    checked = subprocess.run(
        [filecheck, str(test)], input=result.stdout, capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr + "\n" + result.stdout


def test_there_are_ir_tests() -> None:
    assert len(TESTS) >= 4
