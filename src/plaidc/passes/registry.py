"""The pass registry: named passes with typed option dataclasses (MLIR/LLVM `opt` style).

A pass is a pure function `(Block, Options) -> Block` registered under a kebab-case name. Its
options are a frozen dataclass whose field types drive parsing from the command line
(`--pass name{key=value,...}`) and from target configs; a bad option is one clear message.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from plaidc.diagnostics import CompileError
from plaidc.options import OptionDoc, OptionError, option_docs, read_options, show
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

    def option_docs(self) -> list[OptionDoc]:
        """Every option's name, type, default, help and allowed values, for `plaidc passes`."""
        return option_docs(self.options_type)


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
    canon = name.replace("_", "-")
    if canon not in _REGISTRY:
        _load_pass_module(canon)
    if canon not in _REGISTRY:
        close = difflib.get_close_matches(canon, list(_REGISTRY), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise PassOptionError(f"unknown pass '{name}'{hint} (see `plaidc passes`)")
    return _REGISTRY[canon]


def _load_pass_module(name: str) -> None:
    """Import the module defining pass `name`: by convention `plaidc.passes.<name>` with `_`
    for `-` (`fuse`, `dead-code`); a pass without a module of its name (`locate-memory`) or an
    unknown name loads every pass module. A pipeline imports only its passes' modules (half of
    them for c and llvm: ~40 ms of each compile went to importing the others)."""
    import importlib
    import importlib.util

    module = f"plaidc.passes.{name.replace('-', '_')}"
    if re.fullmatch(r"[a-z][a-z0-9-]*", name) and importlib.util.find_spec(module) is not None:
        importlib.import_module(module)
    if name not in _REGISTRY:
        _load_builtin_passes()


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
    try:
        options = read_options(info.options_type, raw, text=True)
    except OptionError as err:
        if err.unknown:
            names = [f.name for f in dataclasses.fields(info.options_type)]  # type: ignore[arg-type]
            close = difflib.get_close_matches(err.key, names, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            known = ", ".join(sorted(names)) or "none"
            raise PassOptionError(
                f"pass '{info.name}': unknown option '{err.key}'{hint} (options: {known})"
            ) from None
        raise PassOptionError(f"pass '{info.name}': {err}") from None
    for key in raw:
        try:
            _check_names(key, getattr(options, key))
        except ValueError as err:
            raise PassOptionError(f"pass '{info.name}': option '{key}': {err}") from None
    return options


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
                raise ValueError(f"{show(item)} is not a tag name (letters, digits, _ and .)")
    elif key in _NAME_OPTIONS and not _NAME.fullmatch(str(value)):
        raise ValueError(f"{show(value)} is not a name (letters, digits, _ and .)")


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
