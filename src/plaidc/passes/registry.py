"""The pass registry: named passes with typed option dataclasses (MLIR/LLVM `opt` style).

A pass is a pure function `(Block, Options) -> Block` registered under a kebab-case name. Its
options are a frozen dataclass whose field types drive parsing from the command line
(`--pass name{key=value,...}`) and from target configs; a bad option is one clear message.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from plaidc.diagnostics import CompileError
from plaidc.stripe.ir import Block, Location
from plaidc.stripe.parser import parse_location

OptionsT = TypeVar("OptionsT")


class PassOptionError(ValueError):
    """A pass name or option the user gave is wrong (exit code 1 or 2 in the CLI)."""


@dataclass(frozen=True)
class PassInfo(Generic[OptionsT]):
    name: str
    summary: str
    options_type: type[OptionsT]
    run: Callable[[Block, OptionsT], Block]

    def option_docs(self) -> list[tuple[str, str, str]]:
        """(name, type, default) for every option, for `plaidc passes`."""
        hints = typing.get_type_hints(self.options_type)
        docs = []
        for f in dataclasses.fields(self.options_type):  # type: ignore[arg-type]
            default = f.default if f.default is not dataclasses.MISSING else None
            if f.default_factory is not dataclasses.MISSING:
                default = f.default_factory()
            docs.append((f.name, _type_name(hints[f.name]), repr(default)))
        return docs


_REGISTRY: dict[str, PassInfo[Any]] = {}


def register(
    name: str, options: type[OptionsT], summary: str
) -> Callable[[Callable[[Block, OptionsT], Block]], Callable[[Block, OptionsT], Block]]:
    """Decorator registering a pass function under `name`."""

    def wrap(fn: Callable[[Block, OptionsT], Block]) -> Callable[[Block, OptionsT], Block]:
        if name in _REGISTRY:
            raise RuntimeError(f"pass '{name}' registered twice")
        _REGISTRY[name] = PassInfo(name, summary, options, fn)
        return fn

    return wrap


def all_passes() -> list[PassInfo[Any]]:
    _load_builtin_passes()
    return [_REGISTRY[n] for n in sorted(_REGISTRY)]


def get_pass(name: str) -> PassInfo[Any]:
    _load_builtin_passes()
    canon = name.replace("_", "-")
    if canon not in _REGISTRY:
        close = difflib.get_close_matches(canon, list(_REGISTRY), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise PassOptionError(f"unknown pass '{name}'{hint} (see `plaidc passes`)")
    return _REGISTRY[canon]


def _load_builtin_passes() -> None:
    """Import every pass module of this package (importing registers it); lazily, so that the
    registry has no import cycle with the passes."""
    import importlib
    import pkgutil

    import plaidc.passes as package

    for module in pkgutil.iter_modules(package.__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f"plaidc.passes.{module.name}")


def make_options(info: PassInfo[OptionsT], raw: Mapping[str, Any]) -> OptionsT:
    """Build `info`'s options from raw values (strings from the CLI or TOML values)."""
    hints = typing.get_type_hints(info.options_type)
    fields = {f.name: f for f in dataclasses.fields(info.options_type)}  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in fields:
            close = difflib.get_close_matches(key, list(fields), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            known = ", ".join(sorted(fields)) or "none"
            raise PassOptionError(
                f"pass '{info.name}': unknown option '{key}'{hint} (options: {known})"
            )
        try:
            values[key] = _convert(value, hints[key])
            _check_names(key, values[key])
        except ValueError as err:
            raise PassOptionError(f"pass '{info.name}': option '{key}': {err}") from None
    return info.options_type(**values)


# Options whose values become tags (`#name` or `#name=value`) or names in the printed Stripe:
# they must be names the parser reads back.
_TAG_OPTION = re.compile(r"(.*_set|.*_tags|idx_tag)")
_NAME_OPTIONS = ("bank_unit",)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


def _check_names(key: str, value: Any) -> None:
    if _TAG_OPTION.fullmatch(key):
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            name = str(item).split("=", 1)[0]
            if item != "" and not _NAME.fullmatch(name):
                raise ValueError(f"{_show(item)} is not a tag name (letters, digits, _ and .)")
    elif key in _NAME_OPTIONS and not _NAME.fullmatch(str(value)):
        raise ValueError(f"{_show(value)} is not a name (letters, digits, _ and .)")


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin in (list, tuple):
        args = typing.get_args(tp)
        return f"list[{_type_name(args[0])}]" if args else "list"
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_type_name(a) for a in typing.get_args(tp))
    return getattr(tp, "__name__", str(tp))


def _convert(value: Any, tp: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None or (isinstance(value, str) and value.lower() in ("none", "null")):
            return None
        return _convert(value, args[0])
    if origin in (list, tuple):
        (elem,) = typing.get_args(tp)[:1]
        items = _split_list(value)
        return tuple(_convert(v, elem) for v in items)
    if tp is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "1", "yes", "on"):
            return True
        if isinstance(value, str) and value.lower() in ("false", "0", "no", "off"):
            return False
        raise ValueError(f"expected true or false, got {_show(value)}")
    if tp is int:
        if isinstance(value, bool):
            raise ValueError(f"expected an integer, got {_show(value)}")
        if isinstance(value, int):
            return value
        try:
            return int(str(value), 0)
        except ValueError:
            raise ValueError(f"expected an integer, got {_show(value)}") from None
    if tp is float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"expected a number, got {_show(value)}") from None
        if not math.isfinite(number):  # nan or inf would poison a cost model's comparisons
            raise ValueError(f"expected a finite number, got {_show(value)}")
        return number
    if tp is str:
        if not isinstance(value, str):
            raise ValueError(f"expected a string, got {_show(value)}")
        return value
    raise ValueError(f"unsupported option type {tp!r}")


def _show(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


def _split_list(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        return [v.strip().strip("\"'") for v in text.split(",") if v.strip()]
    return [value]


def parse_pass_spec(spec: str) -> tuple[str, dict[str, str]]:
    """`name{key=value,key=[a,b]}` -> (name, {key: raw value})."""
    spec = spec.strip()
    if "{" not in spec:
        return spec, {}
    if not spec.endswith("}"):
        raise PassOptionError(f"pass spec '{spec}': options must end with '}}'")
    name, body = spec[:-1].split("{", 1)
    options: dict[str, str] = {}
    try:
        items = _split_top_level(body)
    except ValueError as err:
        raise PassOptionError(f"pass spec '{spec}': {err}") from None
    for item in items:
        if "=" not in item:
            raise PassOptionError(f"pass '{name}': option '{item}' must be key=value")
        key, value = (part.strip() for part in item.split("=", 1))
        if key in options:
            raise PassOptionError(f"pass '{name}': option '{key}' is given twice")
        options[key] = value
    return name.strip(), options


def _split_top_level(body: str) -> list[str]:
    """Split on commas that are not inside brackets or quotes; ValueError if the brackets or
    quotes do not balance."""
    items, depth, quote, current = [], 0, "", ""
    for ch in body:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise ValueError("']' without a matching '['")
        elif ch == "," and depth == 0:
            items.append(current)
            current = ""
            continue
        current += ch
    if quote:
        raise ValueError(f"unterminated {quote} quote")
    if depth:
        raise ValueError("'[' without a matching ']'")
    if current.strip():
        items.append(current)
    return [i.strip() for i in items]


def location_option(text: str, pass_name: str, option: str = "loc") -> Location | None:
    """A location-valued option (`DRAM`, `SRAM[0]`, `L1/BANK[i]`; empty: none), parsed with the
    Stripe grammar; a malformed one is a PassOptionError naming the pass and the option."""
    text = text.strip()
    if not text:
        return None
    try:
        return parse_location(text)
    except CompileError:
        raise PassOptionError(
            f"pass '{pass_name}': option '{option}': expected a location such as DRAM, "
            f'SRAM[0] or A[0]/B[i], got "{text}"'
        ) from None
