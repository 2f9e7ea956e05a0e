"""The search space of `plaidc tune`: the tunable options a target config's `[tune]` table
names, each with the values it may take.

An option is tunable where it is declared (its dataclass field's metadata `tune`:
`plaidc.options.tunable_values`): the pass option dataclasses for the steps of a stage, and
the backend's `[codegen]` dataclasses. The config chooses which are tuned and over what:

    [tune.tile_contract]        # a step of the stage, by its `name`
    max_total_size = ["${hardware.l1_bytes // 2}", "${hardware.l1_bytes}"]
    cost_model = true           # every value the option declares
    [tune.codegen]              # the config's [codegen] keys
    gemm_rows = [4, 8]

A parameter is named `STEP.OPTION` (`codegen.KEY`); a point gives each parameter a value. The
configured value (the analytic cost model's choice) is always one of the values, and the
default point is the one the config itself describes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import itertools
import math
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from plaidc.diagnostics import CompileError
from plaidc.options import OptionError, convert, format_value, tunable_values
from plaidc.targets import PassStep, TargetConfig
from plaidc.targets.spans import span_of

Point = dict[str, Any]
CODEGEN = "codegen"


@dataclass(frozen=True)
class Param:
    """One tunable option: `owner` is a step name or `codegen`; `values` in declared order."""

    owner: str
    option: str
    values: tuple[Any, ...]
    default: Any

    @property
    def name(self) -> str:
        return f"{self.owner}.{self.option}"


@dataclass(frozen=True)
class Space:
    params: tuple[Param, ...]

    @property
    def size(self) -> int:
        return math.prod(len(p.values) for p in self.params) if self.params else 0

    def default_point(self) -> Point:
        return {p.name: p.default for p in self.params}

    def contains(self, point: Mapping[str, Any]) -> bool:
        """Whether `point` names exactly this space's parameters, each with one of its values."""
        by_name = {p.name: p for p in self.params}
        return set(point) == set(by_name) and all(
            _among(value, by_name[name].values) for name, value in point.items()
        )

    def points(self) -> typing.Iterator[Point]:
        """Every point, in declared order (the exhaustive sweep)."""
        names = [p.name for p in self.params]
        for values in itertools.product(*(p.values for p in self.params)):
            yield dict(zip(names, values, strict=True))


def point_key(point: Mapping[str, Any]) -> str:
    """A point's identity (records, visited sets): its values as TOML writes them, sorted."""
    return ", ".join(f"{name}={format_value(point[name])}" for name in sorted(point))


def _among(value: Any, values: Sequence[Any]) -> bool:
    return any(value == v and type(value) is type(v) for v in values)


def build_space(cfg: TargetConfig, stage: str) -> Space:
    """The parameters the config's `[tune]` table names for `stage` (steps of other stages
    are left out); an unknown step or option, an option that is not tunable or a value it
    does not accept is a CompileError at the config's key."""
    steps = {step.name: step for step in cfg.stage(stage)}
    everywhere = {step.name for steps_ in cfg.stages.values() for step in steps_}
    params = []
    for owner, table in cfg.tune.items():
        if owner == CODEGEN:
            classes = codegen_classes(cfg)
            configured = cfg.codegen
        elif owner in steps:
            classes = [_pass_options(steps[owner])]
            configured = steps[owner].options
        elif owner in everywhere:
            continue  # a step of another stage
        else:
            known = ", ".join(sorted(everywhere)) or "none"
            raise _error(
                cfg,
                ("tune", owner),
                f"[tune.{owner}]: no step of the config is named '{owner}' (steps: {known}; "
                f"or [tune.{CODEGEN}])",
            )
        for option, wanted in table.items():
            params.extend(_param(cfg, owner, option, wanted, classes, configured))
    return Space(tuple(params))


def _param(
    cfg: TargetConfig,
    owner: str,
    option: str,
    wanted: Any,
    classes: Sequence[type[Any]],
    configured: Mapping[str, Any],
) -> list[Param]:
    where = ("tune", owner, option)
    cls = next((c for c in classes if option in {f.name for f in dataclasses.fields(c)}), None)
    if owner == CODEGEN and option in codegen_excluded(cfg):
        cls = None
    declared = tunable_values(cls, option) if cls is not None else None
    if cls is None or declared is None:
        tunable = sorted({name for c in classes for name in _tunable_names(c)})
        what = "no such option" if cls is None else "not tunable"
        raise _error(
            cfg,
            where,
            f"[tune.{owner}] '{option}': {what} (tunable: {', '.join(tunable) or 'none'})",
        )
    if wanted is False:
        return []
    hint = typing.get_type_hints(cls)[option]
    field_ = next(f for f in dataclasses.fields(cls) if f.name == option)
    if wanted is True:
        values = list(declared)
    elif isinstance(wanted, list) and wanted:
        values = []
        for value in wanted:
            try:
                values.append(convert(value, hint, False))
            except OptionError as err:
                raise _error(
                    cfg,
                    where,
                    f"[tune.{owner}] '{option}': {format_value(value)} is not {err.expected}",
                ) from None
    else:
        raise _error(
            cfg,
            where,
            f"[tune.{owner}] '{option}' must be true (the declared values) or a non-empty "
            f"list of values, not {format_value(wanted)}",
        )
    default = configured.get(option, field_.default)
    if isinstance(default, list):
        default = tuple(default)
    with contextlib.suppress(OptionError):  # the pipeline reports a bad configured value
        default = convert(default, hint, True)
    ordered: list[Any] = []
    for value in values:
        if not _among(value, ordered):
            ordered.append(value)
    if not _among(default, ordered):
        ordered.insert(0, default)  # a configured value outside the list: still a candidate
    return [Param(owner, option, tuple(ordered), default)]


def _tunable_names(cls: type[Any]) -> list[str]:
    return [f.name for f in dataclasses.fields(cls) if tunable_values(cls, f.name) is not None]


def _pass_options(step: PassStep) -> type[Any]:
    from plaidc.passes import get_pass

    return get_pass(step.pass_name).options_type


def codegen_classes(cfg: TargetConfig) -> list[type[Any]]:
    """The dataclasses that read the backend's `[codegen]` keys (none for `interp`)."""
    from plaidc.targets import BACKEND_NAMES

    if cfg.backend not in BACKEND_NAMES:
        return []
    module = importlib.import_module(f"plaidc.backends.{cfg.backend}")
    return list(module.CODEGEN_OPTIONS)


def codegen_excluded(cfg: TargetConfig) -> frozenset[str]:
    """The shared `[codegen]` keys this backend does not read (OpenCL's CPU-only ones)."""
    from plaidc.targets import BACKEND_NAMES

    if cfg.backend not in BACKEND_NAMES:
        return frozenset()
    module = importlib.import_module(f"plaidc.backends.{cfg.backend}")
    return frozenset(getattr(module, "CODEGEN_EXCLUDED", ()))


def _error(cfg: TargetConfig, path: tuple[str, ...], message: str) -> CompileError:
    span = span_of(cfg.spans, path, cfg.path) if cfg.path else None
    return CompileError.at(message, span)


def apply_point(
    cfg: TargetConfig, stage: str, point: Mapping[str, Any]
) -> tuple[TargetConfig, list[PassStep]]:
    """The config with `point`'s codegen values, and the stage's steps with its pass options."""
    by_owner: dict[str, dict[str, Any]] = {}
    for name, value in point.items():
        owner, _, option = name.rpartition(".")
        by_owner.setdefault(owner, {})[option] = _toml_value(value)
    codegen = {**cfg.codegen, **by_owner.get(CODEGEN, {})}
    steps = [
        dataclasses.replace(step, options={**step.options, **by_owner[step.name]})
        if step.name in by_owner
        else step
        for step in cfg.stage(stage)
    ]
    return dataclasses.replace(cfg, codegen=codegen), steps


def _toml_value(value: Any) -> Any:
    """A value as a config holds it (lists, not tuples)."""
    return list(value) if isinstance(value, tuple) else value
