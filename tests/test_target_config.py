"""Target configs: `${...}` references to [hardware] in pass options and [codegen]."""

from __future__ import annotations

import pytest

from plaidc.diagnostics import CompileError
from plaidc.targets import parse_config

CONFIG = """[target]
name = "chip"
backend = "c"
[hardware]
ub_bytes = 262144
ratio = 1.5
[[stage.default.passes]]
pass = "autotile"
max_total_size = "{value}"
"""


def option(value: str) -> object:
    config = parse_config(CONFIG.format(value=value), "chip.toml")
    return config.stages["default"][0].options["max_total_size"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("${hardware.ub_bytes}", 262144),
        ("${hardware.ratio}", 1.5),  # a whole reference keeps the value's type
        ("${hardware.ub_bytes // 8}", 32768),
        ("${(hardware.ub_bytes + 6) // 2 * 3 - -1}", 393226),
        ("at ${hardware.ub_bytes - 1}!", "at 262143!"),
    ],
)
def test_references_and_integer_arithmetic(text: str, value: object) -> None:
    assert option(text) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("${hardware.nope + 1}", "refers to hardware.nope, which [hardware] does not define"),
        ("${hardware.ub_bytes / 8}", "integer arithmetic on them"),
        ("${hardware.ratio * 2}", "hardware.ratio = 1.5 is not an integer"),
        ("${hardware.ub_bytes // 0}", "division by zero"),
        ("${__import__('os')}", "expected hardware.NAME"),
        ("${hardware.ub_bytes +}", "expected hardware.NAME"),
    ],
)
def test_bad_references_are_located_errors(text: str, message: str) -> None:
    with pytest.raises(CompileError) as info:
        option(text)
    diag = info.value.diagnostics[0]
    assert message in diag.message
    assert diag.span is not None and diag.span.file == "chip.toml" and diag.span.line == 8
