"""Where each key of a TOML config is, for located config errors (tomllib keeps no positions).

A line scanner, not a TOML parser: it understands `[table]` and `[[array.of.tables]]` headers
and `key = value` lines (dotted and quoted keys too), and skips the inside of multi-line strings
and arrays. Keys it cannot see (inside inline tables) simply have no span; callers fall back to
an enclosing table's.
"""

from __future__ import annotations

import re

from plaidc.diagnostics import Span

KeyPath = tuple[str | int, ...]

_HEADER = re.compile(r"\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(
    r"\s*((?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*'))*)\s*="
)
_PART = re.compile(r"[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*'")


def key_spans(text: str, filename: str) -> dict[KeyPath, Span]:
    """(table, ..., key) -> the span of the key; a `[[table]]` entry is (table, ..., index),
    spanning its header, and so is a `[table]`."""
    spans: dict[KeyPath, Span] = {}
    counts: dict[KeyPath, int] = {}
    table: KeyPath = ()
    skip_until: str | None = None  # the closing quotes of a multi-line string
    depth = 0  # open brackets of a multi-line array
    for lineno, line in enumerate(text.splitlines(), 1):
        if skip_until is not None:
            if skip_until in line:
                skip_until = None
            continue
        if depth > 0:
            depth += _bracket_balance(line)
            continue
        header = _HEADER.match(line)
        if header and line.lstrip().startswith("["):
            path: KeyPath = _parts(header.group(2))
            if header.group(1) == "[[":
                counts[path] = counts.get(path, -1) + 1
                path = (*path, counts[path])
            table = path
            spans.setdefault(table, Span(filename, lineno, line.index("[") + 1))
            continue
        key = _KEY.match(line)
        if not key:
            continue
        spans.setdefault((*table, *_parts(key.group(1))), Span(filename, lineno, key.start(1) + 1))
        value = line[key.end() :]
        for quotes in ('"""', "'''"):
            if value.count(quotes) % 2 == 1:
                skip_until = quotes
        if skip_until is None:
            depth = max(_bracket_balance(value), 0)
    return spans


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(p.strip("\"'") for p in _PART.findall(dotted))


def _bracket_balance(text: str) -> int:
    """Open minus closed brackets outside strings and comments (roughly: no escapes)."""
    text = re.sub(r"\"(\\.|[^\"\\])*\"|'[^']*'", "", text).split("#", 1)[0]
    return text.count("[") - text.count("]")


def span_of(spans: dict[KeyPath, Span], path: KeyPath, filename: str) -> Span:
    """The span of `path`, else of its closest enclosing table that has one, else line 1."""
    for end in range(len(path), 0, -1):
        if path[:end] in spans:
            return spans[path[:end]]
    return Span(filename, 1, 1)
