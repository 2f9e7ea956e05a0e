"""The tuning database: append-only JSON lines, one per trial, and the key records are found by.

The file is `--db FILE`, else `$PLAIDC_TUNE_DB`, else `$XDG_CACHE_HOME/plaidc/tune.jsonl`
(`~/.cache/plaidc/tune.jsonl`). Every append takes a lock file beside it (`FILE.lock`,
`filelock`), so several tuners may share one database; a line is written with one `write` on
a file opened for appending, and a line an earlier writer left unfinished is closed first, so
records never interleave. Reading skips a corrupt line with a warning naming `FILE:LINE`.

The key (docs/tune.md) is a hash of four parts, each itself a hash: the canonical Stripe of
the program after the frontend (shapes and dtypes bound), the target config's text, the
pipeline (the stage and its steps with their options, `${hardware}` resolved) and the host
fingerprint (`plaidc.targets.host.host_fingerprint`).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.stripe.ir import Block
from plaidc.targets import TargetConfig

Record = dict[str, Any]
DB_ENV = "PLAIDC_TUNE_DB"
FORMAT = 1  # the records' format version (docs/tune.md)
KEY_PARTS = ("program", "config", "pipeline", "host")


def default_db_path(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    if env.get(DB_ENV):
        return Path(env[DB_ENV])
    cache = env.get("XDG_CACHE_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".cache")
    return Path(cache) / "plaidc" / "tune.jsonl"


def _digest(data: Any) -> str:
    text = data if isinstance(data, str) else json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class TuneKey:
    """The key of a (program, config, pipeline, host), and the hashes it is made of."""

    parts: dict[str, str]

    @property
    def key(self) -> str:
        return _digest([self.parts[p] for p in KEY_PARTS])[:24]


def tuning_key(program: Block, cfg: TargetConfig, stage: str) -> TuneKey:
    from plaidc.stripe.printer import print_stripe
    from plaidc.targets.host import host_fingerprint

    steps = [{"name": s.name, "pass": s.pass_name, "options": s.options} for s in cfg.stage(stage)]
    pipeline = {"stage": stage, "backend": cfg.backend, "steps": steps, "hardware": cfg.hardware}
    parts = {
        "program": _digest(print_stripe(program)),
        "config": _digest(cfg.source),
        "pipeline": _digest(pipeline),
        "host": _digest(host_fingerprint()),
    }
    return TuneKey(parts)


def plaidc_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("plaidc")
    except PackageNotFoundError:
        return "unknown"


def now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


class TuneDb:
    """One database file. `warn` receives the warnings of reading (a corrupt line)."""

    def __init__(self, path: Path, warn: Callable[[str], None] | None = None) -> None:
        self.path = path
        self.warn = warn or (lambda _message: None)

    def records(self, key: str | None = None) -> list[Record]:
        """Every well-formed record, in file order (a missing file has none); with `key`, only
        the lines that name it are parsed (a compile's lookup: a database grown to many keys
        costs a byte search per line, not a JSON parse)."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return []
        except OSError as err:
            raise CompileError(
                [Diagnostic(f"cannot read tuning database '{self.path}': {err.strerror}")]
            ) from None
        found = []
        wanted = key.encode() if key is not None else b""
        for number, line in enumerate(data.split(b"\n"), 1):
            if not line.strip() or wanted not in line:
                continue
            problem = None
            try:
                record = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError) as err:
                problem = f"not a JSON record ({err})"
            else:
                problem = _record_problem(record)
            if problem is not None:
                self.warn(f"{self.path}:{number}: warning: line skipped: {problem}")
                continue
            if key is None or record["key"] == key:
                found.append(record)
        return found

    def append(self, record: Record) -> None:
        """Add one record, whole, under the database's lock."""
        from filelock import FileLock

        line = json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with FileLock(str(self.path) + ".lock", timeout=60):
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                try:
                    size = os.fstat(fd).st_size
                    if size and not _ends_with_newline(self.path, size):
                        line = "\n" + line  # close a line a killed writer left unfinished
                    os.write(fd, line.encode())
                    os.fsync(fd)
                finally:
                    os.close(fd)
        except OSError as err:
            raise CompileError(
                [Diagnostic(f"cannot write tuning database '{self.path}': {err.strerror}")]
            ) from None


def _ends_with_newline(path: Path, size: int) -> bool:
    with open(path, "rb") as fp:
        fp.seek(size - 1)
        return fp.read(1) == b"\n"


def _record_problem(record: Any) -> str | None:
    if not isinstance(record, dict):
        return "not a JSON object"
    kind = record.get("kind")
    if kind not in ("trial", "end", "confirm"):
        return f"unknown record kind {kind!r}"
    for name in ("key", "session"):
        if not isinstance(record.get(name), str):
            return f"no '{name}'"
    if kind == "confirm":
        candidates = record.get("candidates")
        if not isinstance(candidates, list) or not all(
            isinstance(c, dict)
            and isinstance(c.get("params"), dict)
            and isinstance(c.get("value"), (int, float))
            for c in candidates
        ):
            return "a 'confirm' record without 'candidates' (each with 'params' and a 'value')"
        chosen = record.get("chosen")
        if not isinstance(chosen, int) or not 0 <= chosen < len(candidates):
            return "a 'confirm' record whose 'chosen' is not one of its candidates"
    if kind == "trial":
        if not isinstance(record.get("params"), dict):
            return "no 'params' object"
        result = record.get("result")
        if not isinstance(result, dict) or not isinstance(result.get("status"), str):
            return "no 'result' with a 'status'"
        if result["status"] == "ok" and not isinstance(result.get("value"), (int, float)):
            return "an 'ok' result without a numeric 'value'"
    return None


def trials_of(records: Iterable[Record], key: str) -> list[Record]:
    return [r for r in records if r.get("kind") == "trial" and r["key"] == key]


def best_valid(
    records: Iterable[Record], key: str, valid: Callable[[Mapping[str, Any]], bool]
) -> tuple[Record | None, int]:
    """The record to apply for `key`, and the number of correct trials rejected because
    `valid` does not accept their parameters (options that no longer exist, values out of
    range). The choice of the key's latest `confirm` record (the fastest few re-measured side
    by side) when its parameters are valid, as a trial-like record whose value is the
    confirmed median; else the fastest correct trial."""
    records = list(records)
    best, stale = None, 0
    confirms = [r for r in records if r.get("kind") == "confirm" and r["key"] == key]
    if confirms:
        latest = confirms[-1]
        chosen = latest["candidates"][latest["chosen"]]
        if valid(chosen["params"]):
            result = {"status": "ok", "metric": "seconds", "value": chosen["value"]}
            best = {"kind": "trial", "key": key, "session": latest["session"], "trial": None,
                    "params": chosen["params"], "result": result, "confirmed": True}  # fmt: skip
    confirmed = best is not None
    for record in trials_of(records, key):
        if record["result"]["status"] != "ok":
            continue
        if not valid(record["params"]):
            stale += 1
            continue
        if not confirmed and (best is None or record["result"]["value"] < best["result"]["value"]):
            best = record
    return best, stale
