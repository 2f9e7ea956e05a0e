"""The documentation runs: every command and program in README.md and docs/*.md works as printed.

Conventions the documents follow (docs/README-conventions are these, nothing else):

* Commands are the lines of fenced code blocks (```sh or an unlabelled fence; a synopsis goes in
  ```text) that start with
  `plaidc ` or `plaidc-opt ` (a trailing `\\` continues a line); a trailing `# exit N` comment
  says the command is expected to exit with status N (0 otherwise). Other lines of ```sh blocks
  (`cp`, `ls`, ...) run in bash. They run in order, per document, in a fresh directory holding
  the repository's `examples/` and `src/`, so a command may read a file an earlier one wrote.
* A fenced block whose first line is `// file: NAME` (tile) or `# file: NAME` (toml), or whose
  info string says `file=NAME` (```stripe file=x.stripe: Stripe has no line comments), is
  written to NAME in that directory before the commands run. Every ```tile block must be such
  a file, and some command of its document must name it: no program in the docs goes unrun.

Commands run in-process (click's runner), so the whole check stays fast; OpenCL commands are
skipped where no OpenCL platform is installed.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from plaidc.cli import plaidc_main, plaidc_opt_main

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(
    r"^```([A-Za-z-]*)((?:[ \t]+\S+)*)[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL
)
FILE_INFO = re.compile(r"\bfile=(\S+)")
FILE_HEADER = re.compile(r"^(?://|#) file: (\S+)[ \t]*$")
EXPECTED_EXIT = re.compile(r"#\s*exit\s+(\d+)(?::\s*(.*?))?\s*$")


@dataclass(frozen=True)
class Command:
    line: str  # as printed (continuations joined)
    argv: list[str]  # for plaidc / plaidc-opt: the words; else empty (a shell line)
    expected_exit: int
    expected_text: str = ""  # from `# exit N: TEXT`: the output must contain TEXT


def fenced_blocks(text: str) -> list[tuple[str, str, str | None]]:
    """(language, body, file name or None) of every fenced code block."""
    blocks = []
    for m in FENCE.finditer(text):
        language, info, body = m.group(1), m.group(2), m.group(3)
        named = FILE_INFO.search(info) or FILE_HEADER.match(body.split("\n", 1)[0])
        blocks.append((language, body, named.group(1) if named else None))
    return blocks


def _joined_lines(body: str) -> list[str]:
    lines: list[str] = []
    pending = ""
    for raw in body.splitlines():
        if raw.rstrip().endswith("\\"):
            pending += raw.rstrip()[:-1] + " "
            continue
        lines.append(pending + raw)
        pending = ""
    return [line.strip() for line in lines if line.strip()]


def commands(text: str) -> list[Command]:
    """The commands of a document, in order."""
    found = []
    for language, body, name in fenced_blocks(text):
        if language not in ("", "sh") or name is not None:
            continue
        for line in _joined_lines(body):
            exit_match = EXPECTED_EXIT.search(line)
            expected = int(exit_match.group(1)) if exit_match else 0
            want = (exit_match.group(2) or "") if exit_match else ""
            words = shlex.split(line, comments=True)
            if words and words[0] in ("plaidc", "plaidc-opt"):
                found.append(Command(line, words, expected, want))
            elif language == "sh" and words:
                found.append(Command(line, [], expected, want))
    return found


def files(text: str) -> dict[str, str]:
    """The blocks a document names as files, by name."""
    return {name: body for _language, body, name in fenced_blocks(text) if name is not None}


def _opencl_available() -> bool:
    try:
        import pyopencl

        return any(p.get_devices() for p in pyopencl.get_platforms())
    except Exception:
        return False


def _run(command: Command, workdir: Path) -> tuple[int, str]:
    if not command.argv:
        done = subprocess.run(
            ["bash", "-c", command.line], cwd=workdir, capture_output=True, text=True
        )
        return done.returncode, done.stdout + done.stderr
    main = plaidc_main if command.argv[0] == "plaidc" else plaidc_opt_main
    result = CliRunner().invoke(main, command.argv[1:], prog_name=command.argv[0])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_document_runs_as_printed(
    document: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = document.read_text(encoding="utf-8")
    for folder in ("examples", "src"):
        (tmp_path / folder).symlink_to(ROOT / folder)
    for name, body in files(text).items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    opencl = None
    for command in commands(text):
        if "opencl" in command.argv:
            opencl = _opencl_available() if opencl is None else opencl
            if not opencl:
                continue
        status, output = _run(command, tmp_path)
        assert status == command.expected_exit, (
            f"{document.name}: `{command.line}` exited {status}, expected "
            f"{command.expected_exit}:\n{output}"
        )
        if command.expected_exit == 1:
            assert "error:" in output, f"{document.name}: `{command.line}` gave no diagnostic"
        assert command.expected_text in output, (
            f"{document.name}: `{command.line}` did not say {command.expected_text!r}:\n{output}"
        )


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_tile_program_is_a_file_some_command_runs(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    named = files(text)
    words = {word for command in commands(text) for word in command.argv}
    for language, body, name in fenced_blocks(text):
        if language not in ("tile", "stripe"):
            continue
        assert name, f"{document.name}: a ```{language} program without a file name:\n{body}"
        assert name in named
        assert name in words, f"{document.name}: no command runs {name}"


def test_extraction_finds_commands_files_and_expected_failures() -> None:
    text = (
        "```tile\n// file: a.tile\nfunction (A[N]) -> (B) { B = A; }\n```\n"
        "```sh\nplaidc run a.tile -D N=2 \\\n  --random-inputs 0   # prints B\n"
        "plaidc run missing.tile   # exit 1: cannot read\ncp a.tile b.tile\n```\n"
        "```toml\n[target]\n```\n```stripe file=s.stripe\nblock [] () {}\n```\n"
    )
    found = commands(text)
    assert [c.argv for c in found] == [
        ["plaidc", "run", "a.tile", "-D", "N=2", "--random-inputs", "0"],
        ["plaidc", "run", "missing.tile"],
        [],
    ]
    assert [c.expected_exit for c in found] == [0, 1, 0]
    assert found[1].expected_text == "cannot read"
    assert files(text) == {
        "a.tile": "// file: a.tile\nfunction (A[N]) -> (B) { B = A; }\n",
        "s.stripe": "block [] () {}\n",
    }


def test_the_readme_and_docs_link_each_other() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("tile", "stripe", "cli", "passes", "npu", "onnx", "tune"):
        assert (ROOT / "docs" / f"{name}.md").is_file()
        assert f"docs/{name}.md" in readme
    # every relative link of the README and the docs names a file of this repository (a clone
    # has nothing beside it)
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            resolved = (doc.parent / target).resolve()
            assert resolved.is_relative_to(ROOT) and resolved.exists(), f"{doc.name}: {target}"


def test_the_pass_tables_are_plaidc_passes() -> None:
    from plaidc.passes import all_passes

    text = (ROOT / "docs" / "passes.md").read_text(encoding="utf-8")
    documented = re.findall(r"^### `([a-z-]+)`$", text, re.MULTILINE)
    assert documented == [info.name for info in all_passes()]
    for info in all_passes():
        section = text.split(f"### `{info.name}`", 1)[1].split("\n### ", 1)[0]
        pattern = r"^\| `(\w+)` \| `([^`]*)` \| `([^`]*)` \| (.*) \| (.*) \|$"
        rows = re.findall(pattern, section, re.MULTILINE)
        expected = [
            (d.name, d.type, d.default, ", ".join(d.allowed), d.help) for d in info.option_docs()
        ]
        assert [tuple(c.strip() for c in row) for row in rows] == expected, info.name
