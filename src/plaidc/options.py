"""One reader of typed options: a frozen dataclass's fields, read from a mapping.

Pass options (`--pass name{k=v}` and `[[stage.*.passes]]`) and every backend's `[codegen]`
table are dataclasses read here. A field's type says what it accepts (`bool`, `int`, `float`,
`str`, a `Literal[...]` of allowed values, an `Enum`, `tuple[T, ...]` lists, `X | None`), and
its metadata carries the help text, a lower bound (`min`) and optionally what an error says it
expects (`expects`), as MLIR's pass options carry descriptions:

    max_tiles: int = field(default=4096, metadata={"help": "tiles of one kernel", "min": 1})
    max_tiles: int = option(4096, "tiles of one kernel", min=1)  # the same, via `option`

A `min` bounds every item of a list option too.

A field the autotuner (`plaidc tune`) may search also says over what, in its metadata's `tune`:
`True` (every value a `Literal`, `Enum` or `bool` field allows), a tuple of values, or a
`PowersOfTwo(low, high)` range. A target config's `[tune]` table picks which of them are tuned
(and may narrow them); `tunable_values` reads the declaration.

`text=True` also accepts the string spellings a command line gives (`"64"`, `"true"`,
`"[a,b]"`); a config's TOML values are typed, and `text=False` takes them as they are (a
`2.0` for an integer or `"false"` for a boolean is an error, not converted). Every error is an
`OptionError` naming the key, what it expects and what it got; callers phrase it for their
table.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import enum
import math
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")


class OptionError(ValueError):
    """An option value (or name) that the dataclass does not accept."""

    def __init__(self, key: str, expected: str, value: Any = None, *, unknown: bool = False):
        self.key = key
        self.expected = expected
        self.value = value
        self.unknown = unknown
        super().__init__(f"option '{key}': expected {expected}, got {show(value)}")


def show(value: Any) -> str:
    """A value as a message shows it: strings in double quotes, the rest as Python writes it."""
    return f'"{value}"' if isinstance(value, str) else repr(value)


@dataclass(frozen=True)
class OptionDoc:
    """One option, for help listings: `name: type = default  help [allowed]`."""

    name: str
    type: str
    default: str
    help: str
    allowed: tuple[str, ...]


@dataclass(frozen=True)
class PowersOfTwo:
    """A tunable integer range: the powers of two from `low` to `high`, both included."""

    low: int
    high: int

    def values(self) -> tuple[int, ...]:
        out, value = [], 1
        while value <= self.high:
            if value >= self.low:
                out.append(value)
            value *= 2
        return tuple(out)


def tunable_values(cls: type[Any], name: str) -> tuple[Any, ...] | None:
    """The values the field `name` of `cls` declares for tuning (metadata `tune`), or None when
    it is not tunable (or `cls` has no such field)."""
    found = _fields(cls).get(name)
    declared = found.metadata.get("tune") if found is not None else None
    if declared is None or declared is False:
        return None
    if isinstance(declared, PowersOfTwo):
        return declared.values()
    if isinstance(declared, tuple):
        return declared
    tp = typing.get_type_hints(cls)[name]
    if tp is bool:
        return (False, True)
    if typing.get_origin(tp) is typing.Literal:
        return typing.get_args(tp)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tuple(m.value for m in tp)
    raise TypeError(f"{cls.__name__}.{name}: `tune = True` needs a bool, Literal or Enum field")


def tunable_fields(cls: type[Any]) -> dict[str, tuple[Any, ...]]:
    """Every tunable field of `cls` and its declared values."""
    found = {f.name: tunable_values(cls, f.name) for f in dataclasses.fields(cls)}
    return {name: values for name, values in found.items() if values is not None}


def option(
    default: Any,
    help: str,
    *,
    min: float | None = None,
    expects: str | None = None,
    tune: Any = None,
) -> Any:
    """A dataclass field with its default, one-line help, lower bound (`min`, for a number or
    every item of a list), what an error says it expects (`expects`) and what `plaidc tune` may
    search (`tune`: True, a tuple of values or a `PowersOfTwo`)."""
    metadata: dict[str, Any] = {"help": help}
    if tune is not None:
        metadata["tune"] = tune
    if min is not None:
        metadata["min"] = min
    if expects is not None:
        metadata["expects"] = expects
    return field(default=default, metadata=metadata)


def read_options(cls: type[T], raw: Mapping[str, Any], *, text: bool = False) -> T:
    """An instance of the dataclass `cls` from `raw` (defaults for what it leaves out)."""
    fields = _fields(cls)
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in fields:
            close = difflib.get_close_matches(key, list(fields), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            known = ", ".join(sorted(fields)) or "none"
            raise OptionError(key, f"one of the options{hint} ({known})", value, unknown=True)
        try:
            values[key] = convert(value, hints[key], text)
        except OptionError as err:
            expected = fields[key].metadata.get("expects", err.expected)
            raise OptionError(key, expected, value) from None
        low = fields[key].metadata.get("min")
        if low is not None:
            _check_min(key, values[key], low, value)
    return cls(**values)


def _check_min(key: str, converted: Any, low: float, value: Any) -> None:
    """An OptionError unless `converted` (a number, or each number of a list) is >= `low`; it
    shows the number (`-3`, not the command line's `"-3"`), or the list as given."""
    items = converted if isinstance(converted, tuple) else (converted,)
    for item in items:
        if isinstance(item, (int, float)) and not isinstance(item, bool) and item < low:
            kind = "an integer" if isinstance(item, int) else "a number"
            if isinstance(converted, tuple):
                raise OptionError(key, f"a list of {kind.split()[1]}s >= {low}", value)
            raise OptionError(key, f"{kind} >= {low}", converted)


def option_docs(cls: type[Any]) -> list[OptionDoc]:
    """Every option of `cls`: type, default, help and allowed values."""
    hints = typing.get_type_hints(cls)
    docs = []
    for f in dataclasses.fields(cls):
        default: Any = f.default
        if f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        shown = "(required)" if default is dataclasses.MISSING else format_value(default)
        help_text = str(f.metadata.get("help", ""))
        low = f.metadata.get("min")
        allowed = allowed_values(hints[f.name])
        if low is not None:
            allowed = (f">= {low}",)
        docs.append(OptionDoc(f.name, _type_name(hints[f.name]), shown, help_text, allowed))
    return docs


def allowed_values(tp: Any) -> tuple[str, ...]:
    """The values a Literal or Enum type (or a list or optional of one) allows; () for any."""
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return tuple(format_value(a) for a in typing.get_args(tp))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tuple(str(m.value) for m in tp)
    if origin in (list, tuple, typing.Union, types.UnionType):
        for arg in typing.get_args(tp):
            if arg is not type(None) and arg is not Ellipsis and allowed_values(arg):
                return allowed_values(arg)
    return ()


def convert(value: Any, tp: Any, text: bool) -> Any:
    """`value` as type `tp`; an OptionError (key left empty) if it is not one."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None or (text and isinstance(value, str) and value.lower() in ("none", "null")):
            return None
        return convert(value, args[0], text)
    if origin in (list, tuple):
        (elem,) = typing.get_args(tp)[:1]
        if text:
            items = _split_list(value)
        elif isinstance(value, (list, tuple)):
            items = list(value)
        else:
            raise OptionError("", f"a list of {_plural(elem)}", value)
        try:
            return tuple(convert(v, elem, text) for v in items)
        except OptionError:
            raise OptionError("", f"a list of {_plural(elem)}", value) from None
    if origin is typing.Literal:
        choices = typing.get_args(tp)
        for choice in choices:
            if value == choice and type(value) is type(choice):
                return choice
        raise OptionError("", _alternatives([format_value(c) for c in choices]), value)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        for member in tp:
            if value == member.value or value is member:
                return member
        raise OptionError("", _alternatives([str(m.value) for m in tp]), value)
    return _scalar(value, tp, text)


def _scalar(value: Any, tp: Any, text: bool) -> Any:
    if tp is bool:
        if isinstance(value, bool):
            return value
        if text and isinstance(value, str) and value.lower() in ("true", "1", "yes", "on"):
            return True
        if text and isinstance(value, str) and value.lower() in ("false", "0", "no", "off"):
            return False
        raise OptionError("", "true or false", value)
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if text and isinstance(value, str):
            try:
                return int(value, 0)
            except ValueError:
                pass
        raise OptionError("", "an integer", value)
    if tp is float:
        number: float | None = None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        elif text and isinstance(value, str):
            with contextlib.suppress(ValueError):
                number = float(value)
        if number is None:
            raise OptionError("", "a number", value)
        if not math.isfinite(number):  # nan or inf would poison a cost model's comparisons
            raise OptionError("", "a finite number", value)
        return number
    if tp is str:
        if not isinstance(value, str):
            raise OptionError("", "a string", value)
        return value
    raise TypeError(f"unsupported option type {tp!r}")


def _plural(tp: Any) -> str:
    if allowed_values(tp):
        return _alternatives(list(allowed_values(tp)))
    names = {str: "strings", int: "integers", float: "numbers", bool: "booleans"}
    return names.get(tp, f"{_type_name(tp)} values")


def _alternatives(choices: list[str]) -> str:
    """`"a" or "b"`, `0, 1, 2 or 3`."""
    return choices[0] if len(choices) == 1 else f"{', '.join(choices[:-1])} or {choices[-1]}"


def _split_list(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, str):
        body = value.strip()
        if body.startswith("[") and body.endswith("]"):
            body = body[1:-1]
        return [v.strip().strip("\"'") for v in body.split(",") if v.strip()]
    return [value]


def _fields(cls: type[Any]) -> dict[str, dataclasses.Field[Any]]:
    return {f.name: f for f in dataclasses.fields(cls)}


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin in (list, tuple):
        args = typing.get_args(tp)
        return f"list[{_type_name(args[0])}]" if args else "list"
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_type_name(a) for a in typing.get_args(tp))
    if origin is typing.Literal:
        kinds = {type(a).__name__ for a in typing.get_args(tp)}
        return kinds.pop() if len(kinds) == 1 else "literal"
    if tp is type(None):
        return "none"
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return "str"
    return getattr(tp, "__name__", str(tp))


def format_value(value: Any) -> str:
    """A value as TOML and `--pass` options write it: `[a, b]`, `true`, `none`, `"text"`."""
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return show(value) if isinstance(value, str) else str(value)
