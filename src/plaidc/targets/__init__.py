"""Target configs: TOML files naming a backend, hardware facts and pass pipelines (stages).

A new accelerator is a new config, not new code: passes read every hardware number from the
config's `[hardware]` table through `${hardware.key}` references in their options.
"""

from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from plaidc.diagnostics import CompileError, Diagnostic, Span, decode_source

TARGET_ALIASES = {"cpu": "c"}
_REF = re.compile(r"\$\{([^}]*)\}")
_NAME = re.compile(r"\s*hardware\.([A-Za-z0-9_]+)\s*")


@dataclass(frozen=True)
class PassStep:
    """One entry of a stage: a display name, the registered pass and its raw options."""

    name: str
    pass_name: str
    options: dict[str, Any]
    span: Span | None = None


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
    source: str = ""
    path: str = ""

    def stage(self, name: str = "default") -> list[PassStep]:
        if name not in self.stages:
            known = ", ".join(sorted(self.stages)) or "none"
            raise CompileError(
                [Diagnostic(f"target '{self.name}' has no stage '{name}' (stages: {known})")]
            )
        return self.stages[name]


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


def parse_config(text: str, filename: str) -> TargetConfig:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise CompileError([_toml_diagnostic(err, filename)]) from None
    target = data.get("target")
    if not isinstance(target, dict) or "name" not in target or "backend" not in target:
        raise CompileError.at(
            "config needs a [target] table with `name` and `backend`", Span(filename, 1, 1)
        )
    hardware = data.get("hardware", {})
    stages: dict[str, list[PassStep]] = {}
    for stage_name, stage in data.get("stage", {}).items():
        steps = []
        for entry in stage.get("passes", []):
            steps.append(_pass_step(entry, hardware, text, filename))
        stages[stage_name] = steps
    codegen_span = _locate(text, filename, "[codegen]")
    codegen = {
        key: _resolve(value, hardware, key, codegen_span)
        for key, value in data.get("codegen", {}).items()
    }
    return TargetConfig(
        name=str(target["name"]),
        backend=str(target["backend"]),
        description=str(target.get("description", "")),
        hardware=dict(hardware),
        stages=stages,
        codegen=codegen,
        source=text,
        path=filename,
    )


def _pass_step(
    entry: dict[str, Any], hardware: dict[str, Any], text: str, filename: str
) -> PassStep:
    if "pass" not in entry:
        raise CompileError.at(
            'every [[stage.*.passes]] entry needs `pass = "..."`',
            _locate(text, filename, "[[stage"),
        )
    pass_name = str(entry["pass"])
    span = _locate(text, filename, f'"{pass_name}"')
    options = {}
    for key, value in entry.items():
        if key in ("pass", "name"):
            continue
        options[key] = _resolve(value, hardware, key, span)
    return PassStep(str(entry.get("name", pass_name)), pass_name, options, span)


def _resolve(value: Any, hardware: dict[str, Any], key: str, span: Span | None) -> Any:
    """Replace `${...}` references by their value: `${hardware.key}` (keeping the hardware
    value's type when the whole string is one reference) or integer arithmetic on them,
    `${hardware.ub_bytes // 8}` (+, -, *, //, parentheses)."""
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
        raise bad("expected hardware.NAME or integer arithmetic on them (+, -, *, //)")

    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise bad("expected hardware.NAME or integer arithmetic on them (+, -, *, //)") from None
    return value(tree.body)


def _locate(text: str, filename: str, needle: str) -> Span:
    for lineno, line in enumerate(text.splitlines(), 1):
        col = line.find(needle)
        if col >= 0:
            return Span(filename, lineno, col + 1)
    return Span(filename, 1, 1)


def _toml_diagnostic(err: tomllib.TOMLDecodeError, filename: str) -> Diagnostic:
    msg = str(err)
    m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
    span = Span(filename, int(m.group(1)), int(m.group(2))) if m else Span(filename, 1, 1)
    return Diagnostic("invalid TOML: " + re.sub(r"\s*\(at line.*\)", "", msg), span)
