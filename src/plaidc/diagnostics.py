"""Errors with source spans, rendered clang-style (`file:line:col: error: msg`, line, caret)."""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Span:
    """A position in a source file (1-based line and column)."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Diagnostic:
    """One error or warning about the user's input."""

    message: str
    span: Span | None = None
    severity: str = "error"
    notes: tuple[str, ...] = ()

    def render(self, source: str | None = None) -> str:
        """Render as `file:line:col: error: message`, then the source line and a caret."""
        where = f"{self.span}: " if self.span else ""
        lines = [f"{where}{self.severity}: {self.message}"]
        if self.span and source is not None:
            src_lines = source.splitlines()
            if 1 <= self.span.line <= len(src_lines):
                text = src_lines[self.span.line - 1].replace("\t", " ")
                lines.append(text)
                lines.append(" " * max(self.span.col - 1, 0) + "^")
        lines.extend(f"note: {n}" for n in self.notes)
        return "\n".join(lines)


@dataclass
class CompileError(Exception):
    """Raised for errors in the user's input; carries one or more diagnostics."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    @classmethod
    def at(cls, message: str, span: Span | None) -> CompileError:
        return cls([Diagnostic(message, span)])

    def __str__(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


class InternalError(Exception):
    """A bug in plaidc itself (exit code 4)."""


def decode_source(data: bytes, filename: str) -> str:
    """Source bytes as text: UTF-8, a leading byte-order mark skipped. Other bytes are the
    user's error, located at the first bad byte (line and column in characters)."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line_start = data.rfind(b"\n", 0, err.start) + 1
        line = data.count(b"\n", 0, err.start) + 1
        col = len(data[line_start : err.start].decode("utf-8")) + 1
        raise CompileError.at(
            f"not valid UTF-8 (byte 0x{data[err.start]:02x}); source files must be UTF-8",
            Span(filename, line, col),
        ) from None
