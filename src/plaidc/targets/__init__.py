"""Target configs: TOML files naming a backend, hardware facts and pass pipelines (stages).

A new accelerator is a new config, not new code: passes read every hardware number from the
config's `[hardware]` table through `${hardware.key}` references in their options. The CPU
targets' host facts (`threads`, caches, vector width) are detected on the machine when the config
leaves them out or says `"detect"` (`plaidc.targets.host`); a value the config sets wins.

This package reads configs only: it imports no backend (the backends import it).
"""

from __future__ import annotations

import ast
import dataclasses
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from plaidc.diagnostics import CompileError, Diagnostic, Span, decode_source
from plaidc.targets.host import DETECT, HOST_KEYS, host_facts
from plaidc.targets.spans import KeyPath, key_spans, span_of

TARGET_ALIASES = {"cpu": "c"}
BACKEND_NAMES = ("c", "llvm", "opencl", "npu", "mpi")
# Backends whose code runs on this machine's CPU: the host facts they leave out are detected.
HOST_BACKENDS = ("c", "llvm", "mpi")
_REF = re.compile(r"\$\{([^}]*)\}")
_NAME = re.compile(r"\s*hardware\.([A-Za-z0-9_]+)\s*")


@dataclass(frozen=True)
class PassStep:
    """One entry of a stage: a display name, the registered pass and its raw options."""

    name: str
    pass_name: str
    options: dict[str, Any]
    span: Span | None = None  # of `pass = ...`
    option_spans: dict[str, Span] = field(default_factory=dict)
    # `enabled = false` in the entry: the step is kept in the config (documented, ready to
    # switch on) but not run (`TargetConfig.stage` leaves it out)
    enabled: bool = True

    def option_span(self, message: str) -> Span | None:
        """The span of the option an error message names (`option 'key'`), else the pass's."""
        found = re.search(r"option '([^']+)'", message)
        return self.option_spans.get(found.group(1), self.span) if found else self.span


@dataclass(frozen=True)
class TargetConfig:
    name: str
    backend: str
    description: str
    hardware: dict[str, Any]
    stages: dict[str, list[PassStep]] = field(default_factory=dict)
    # Backend settings (`[codegen]`, with `${hardware.x}` resolved): which tags mean "parallel",
    # "micro-kernel", which memory a location names... read by the backend, never by passes.
    codegen: dict[str, Any] = field(default_factory=dict)
    # What `plaidc tune` searches (`[tune.STEP]` or `[tune.codegen]`: option -> `true` for the
    # option's declared range, or a list of values), `${hardware.x}` resolved; checked against
    # the options' declarations by `plaidc.tune.space`.
    tune: dict[str, dict[str, Any]] = field(default_factory=dict)
    source: str = ""
    path: str = ""
    spans: dict[KeyPath, Span] = field(default_factory=dict)  # of the keys of `source`
    detected: frozenset[str] = frozenset()  # [hardware] keys detected on this machine
    warnings: tuple[Diagnostic, ...] = ()  # about the detection (a bad OMP_NUM_THREADS)

    def locate(self, diag: Diagnostic) -> Diagnostic:
        """`diag` located at the `[hardware]`/`[codegen]` key it names, if it has no span."""
        return locate_key(diag, lambda *path: span_of(self.spans, path, self.path))

    def stage(self, name: str = "default") -> list[PassStep]:
        if name not in self.stages:
            known = ", ".join(sorted(self.stages)) or "none"
            message = f"target '{self.name}' has no stage '{name}' (stages: {known})"
            # at the config's first stage table, else at its [target] table
            stages = [key for key in self.spans if key[0] == "stage"]
            table = min(stages, key=lambda k: self.spans[k].line) if stages else ("target",)
            span = span_of(self.spans, table, self.path) if self.path else None
            raise CompileError([Diagnostic(message, span)])
        return [step for step in self.stages[name] if step.enabled]


def builtin_target_names() -> list[str]:
    folder = resources.files("plaidc") / "targets"
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


def load_target(name: str) -> TargetConfig:
    """A built-in target by name (`cpu` is an alias of `c`)."""
    canon = TARGET_ALIASES.get(name, name)
    if canon not in builtin_target_names():
        known = ", ".join(builtin_target_names() + list(TARGET_ALIASES))
        raise CompileError([Diagnostic(f"unknown target '{name}' (targets: {known})")])
    path = resources.files("plaidc") / "targets" / f"{canon}.toml"
    return parse_config(path.read_text(), f"<target {canon}>")


def load_config_file(path: str) -> TargetConfig:
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise CompileError([Diagnostic(f"cannot read config '{path}': {err.strerror}")]) from None
    return parse_config(decode_source(data, path), path)


def parse_config(
    text: str, filename: str, hardware_overrides: dict[str, Any] | None = None
) -> TargetConfig:
    """A config from TOML text; every error is located at the key it is about.

    `[target] base = "NAME"` builds on built-in target NAME: its [hardware], [codegen] and
    stages lie under this config's (a key given here wins; this config's passes of a stage
    follow the base stage's). `hardware_overrides` replace [hardware] values (the command
    line's `--ranks`) before any `${hardware.x}` is resolved."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise CompileError([_toml_diagnostic(err, filename)]) from None
    spans = key_spans(text, filename)
    base_name = data.get("target", {}).get("base") if isinstance(data.get("target"), dict) else None
    if base_name is not None:
        data = _on_base(data, str(base_name), lambda: span_of(spans, ("target", "base"), filename))
    if hardware_overrides:
        data["hardware"] = {**data.get("hardware", {}), **hardware_overrides}

    def where(*path: str | int) -> Span:
        return span_of(spans, path, filename)

    target = data.get("target")
    if not isinstance(target, dict) or "name" not in target or "backend" not in target:
        raise CompileError.at(
            "config needs a [target] table with `name` and `backend`", where("target")
        )
    backend = str(target["backend"])
    _check_backend(backend, where)
    hardware, detected = _with_host_facts(_table(data, "hardware", where), backend, where)
    stages: dict[str, list[PassStep]] = {}
    for stage_name, stage in _table(data, "stage", where).items():
        entries = stage.get("passes", []) if isinstance(stage, dict) else None
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise CompileError.at(
                f"stage '{stage_name}' must be a list of [[stage.{stage_name}.passes]] tables",
                where("stage", stage_name),
            )
        stages[stage_name] = [
            _pass_step(entry, hardware, ("stage", stage_name, "passes", number), where)
            for number, entry in enumerate(entries)
        ]
    codegen = {
        key: _resolve(value, hardware, key, where("codegen", key))
        for key, value in _table(data, "codegen", where).items()
    }
    tune: dict[str, dict[str, Any]] = {}
    for owner, table in _table(data, "tune", where).items():
        if not isinstance(table, dict):
            raise CompileError.at(
                f"[tune] '{owner}' must be a table [tune.{owner}] of option = true or [values]",
                where("tune", owner),
            )
        tune[owner] = {
            key: _resolve(value, hardware, key, where("tune", owner, key))
            for key, value in table.items()
        }
    return TargetConfig(
        name=str(target["name"]),
        backend=backend,
        description=str(target.get("description", "")),
        hardware=dict(hardware),
        stages=stages,
        codegen=codegen,
        tune=tune,
        source=text,
        path=filename,
        spans=spans,
        detected=detected,
        warnings=host_facts().warnings if "threads" in detected else (),
    )


def _on_base(data: dict[str, Any], base: str, where: Any) -> dict[str, Any]:
    """`data` laid over built-in target `base`'s tables (see `parse_config`)."""
    if base not in builtin_target_names():
        known = ", ".join(builtin_target_names())
        raise CompileError.at(f"unknown base target '{base}' (targets: {known})", where())
    path = resources.files("plaidc") / "targets" / f"{base}.toml"
    under = tomllib.loads(path.read_text())
    below = under.get("target", {}).get("base")
    if below is not None and below != base:  # the base builds on its own base (mpi on c)
        under = _on_base(under, str(below), where)
    merged = dict(data)
    for table in ("hardware", "codegen"):
        merged[table] = {**under.get(table, {}), **data.get(table, {})}
    stages = {name: dict(stage) for name, stage in under.get("stage", {}).items()}
    for name, stage in data.get("stage", {}).items():
        own = stage.get("passes", []) if isinstance(stage, dict) else stage
        below = stages.get(name, {}).get("passes", [])
        stages[name] = {"passes": [*below, *own] if isinstance(own, list) else own}
    merged["stage"] = stages
    return merged


def _table(data: dict[str, Any], name: str, where: Any) -> dict[str, Any]:
    table = data.get(name, {})
    if not isinstance(table, dict):
        raise CompileError.at(f"`{name}` must be a [{name}] table", where(name))
    return table


def _check_backend(backend: str, where: Any) -> None:
    """The backend exists (what it needs of [hardware] it checks itself: `check_target` in
    `plaidc.backends`)."""
    known = ("interp", *BACKEND_NAMES)
    if backend not in known:
        raise CompileError.at(
            f"unknown backend '{backend}' (backends: {', '.join(known)})",
            where("target", "backend"),
        )


def _with_host_facts(
    hardware: dict[str, Any], backend: str, where: Any
) -> tuple[dict[str, Any], frozenset[str]]:
    """[hardware] with the host facts it asks for (`"detect"`), or leaves out on a CPU
    backend, filled in from this machine; the ones it sets must be positive integers."""
    filled = dict(hardware)
    detected = set()
    for key in HOST_KEYS:
        value = hardware.get(key)
        if value == DETECT or (value is None and backend in HOST_BACKENDS):
            filled[key] = host_facts().values[key]
            detected.add(key)
        elif value is not None and (type(value) is not int or value < 1):
            raise CompileError.at(
                f'[hardware] {key} = {_toml(value)} must be a positive integer or "{DETECT}"',
                where("hardware", key),
            )
    return filled, frozenset(detected)


def _toml(value: Any) -> str:
    """A value as TOML writes it (`true`, `"big"`, `2.5`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else repr(value)


_TABLE_KEY = re.compile(r"\[(hardware|codegen)\] '?([A-Za-z0-9_]+)")


def locate_key(diag: Diagnostic, where: Any) -> Diagnostic:
    """A diagnostic about `[hardware] key` or `[codegen] 'key'` without a span gets the key's
    (the NPU machine and the backends' codegen options name the key they reject)."""
    found = _TABLE_KEY.search(diag.message)
    if diag.span is not None or not found:
        return diag
    return dataclasses.replace(diag, span=where(found.group(1), found.group(2)))


def _pass_step(
    entry: dict[str, Any], hardware: dict[str, Any], path: tuple[str | int, ...], where: Any
) -> PassStep:
    if "pass" not in entry:
        raise CompileError.at('every [[stage.*.passes]] entry needs `pass = "..."`', where(*path))
    pass_name = str(entry["pass"])
    options = {}
    option_spans = {}
    enabled = entry.get("enabled", True)
    if not isinstance(enabled, bool):
        raise CompileError.at("`enabled` must be true or false", where(*path, "enabled"))
    for key, value in entry.items():
        if key in ("pass", "name", "enabled"):
            continue
        option_spans[key] = where(*path, key)
        options[key] = _resolve(value, hardware, key, option_spans[key])
    return PassStep(
        str(entry.get("name", pass_name)),
        pass_name,
        options,
        where(*path, "pass"),
        option_spans,
        enabled,
    )


def _resolve(value: Any, hardware: dict[str, Any], key: str, span: Span | None) -> Any:
    """Replace `${...}` references by their value: `${hardware.key}` (keeping the hardware
    value's type when the whole string is one reference) or integer arithmetic on them,
    `${hardware.ub_bytes // 8}` (+, -, *, //, parentheses, min and max)."""
    if isinstance(value, list):
        return [_resolve(v, hardware, key, span) for v in value]
    if not isinstance(value, str):
        return value

    def lookup(name: str) -> Any:
        if name not in hardware:
            raise CompileError.at(
                f"option '{key}' refers to hardware.{name}, which [hardware] does not define", span
            )
        return hardware[name]

    def evaluate(text: str) -> Any:
        name = _NAME.fullmatch(text)
        return lookup(name.group(1)) if name else _arithmetic(text, lookup, key, span)

    whole = _REF.fullmatch(value)
    if whole:
        return evaluate(whole.group(1))
    return _REF.sub(lambda m: str(evaluate(m.group(1))), value)


_OPERATORS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b,
}


_FUNCTIONS = {"min": min, "max": max}
_EXPECTED = "expected hardware.NAME or integer arithmetic on them (+, -, *, //, min, max)"


def _arithmetic(text: str, lookup: Any, key: str, span: Span | None) -> int:
    """An integer expression over `hardware.x` names."""

    def bad(why: str) -> CompileError:
        return CompileError.at(f"option '{key}': ${{{text}}}: {why}", span)

    def value(node: ast.expr) -> int:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "hardware"
        ):
            got = lookup(node.attr)
            if type(got) is not int:
                raise bad(f"hardware.{node.attr} = {got!r} is not an integer")
            return int(got)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            left, right = value(node.left), value(node.right)
            if isinstance(node.op, ast.FloorDiv) and right == 0:
                raise bad("division by zero")
            return int(_OPERATORS[type(node.op)](left, right))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in _FUNCTIONS
            and node.args
            and not node.keywords
        ):
            return _FUNCTIONS[node.func.id](value(arg) for arg in node.args)
        raise bad(_EXPECTED)

    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise bad(_EXPECTED) from None
    return value(tree.body)


def _toml_diagnostic(err: tomllib.TOMLDecodeError, filename: str) -> Diagnostic:
    msg = str(err)
    m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
    span = Span(filename, int(m.group(1)), int(m.group(2))) if m else Span(filename, 1, 1)
    return Diagnostic("invalid TOML: " + re.sub(r"\s*\(at line.*\)", "", msg), span)
