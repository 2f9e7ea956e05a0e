"""Target configs: `${...}` references to [hardware] in pass options and [codegen]."""

from __future__ import annotations

from pathlib import Path

import pytest

from plaidc.backends import check_target
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
        ("${min(hardware.ub_bytes // 4, 1000, max(7, 9)) // 2}", 4),
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
        ("${min()}", "expected hardware.NAME"),
        ("${abs(-1)}", "(+, -, *, //, min, max)"),
        ("${min(1, key=2)}", "expected hardware.NAME"),
    ],
)
def test_bad_references_are_located_errors(text: str, message: str) -> None:
    with pytest.raises(CompileError) as info:
        option(text)
    diag = info.value.diagnostics[0]
    assert message in diag.message
    # at the option, line 9 (was the `pass = ...` line, 8)
    assert diag.span is not None and diag.span.file == "chip.toml" and diag.span.line == 9


def config_error(text: str) -> tuple[int, int, str]:
    with pytest.raises(CompileError) as info:
        check_target(parse_config(text, "chip.toml"))
    diag = info.value.diagnostics[0]
    assert diag.span is not None and diag.span.file == "chip.toml"
    return diag.span.line, diag.span.col, diag.message


TWO_PASSES = """[target]
name = "chip"
backend = "c"
[hardware]
line = 64
[[stage.default.passes]]
pass = "autotile"
only_po2 = true
[[stage.default.passes]]
name = "second"
pass = "autotile"
# a comment
only_po2 = "{value}"
cache_width = "${{hardware.line}}"
"""


def test_errors_point_at_the_option_of_the_right_entry() -> None:
    """Not at the first `pass = "autotile"` (both entries run the same pass)."""
    from plaidc.driver import resolve_steps

    config = parse_config(TWO_PASSES.format(value="maybe"), "chip.toml")
    with pytest.raises(CompileError) as info:
        resolve_steps(config.stage("default"))
    span = info.value.diagnostics[0].span
    assert span is not None and (span.line, span.col) == (13, 1)
    bad_ref = TWO_PASSES.format(value="true").replace("hardware.line", "hardware.nope")
    assert config_error(bad_ref)[:2] == (14, 1)
    no_pass = TWO_PASSES.format(value="true").replace('pass = "autotile"\n#', "#")
    assert config_error(no_pass) == (9, 1, 'every [[stage.*.passes]] entry needs `pass = "..."`')


def test_an_unknown_backend_is_located_when_the_config_is_loaded() -> None:
    text = TWO_PASSES.format(value="true").replace('backend = "c"', 'backend = "tpu"')
    line, col, message = config_error(text)
    assert (line, col) == (3, 1)
    assert message == "unknown backend 'tpu' (backends: interp, c, llvm, opencl, npu, mpi)"


def test_a_missing_stage_is_located_at_the_stages_or_the_target() -> None:
    text = TWO_PASSES.format(value="true")
    for config_text, line in ((text, 6), (text[: text.index("[[stage")], 1)):
        config = parse_config(config_text, "chip.toml")
        with pytest.raises(CompileError) as info:
            config.stage("fast")
        diag = info.value.diagnostics[0]
        assert diag.span is not None and (diag.span.file, diag.span.line) == ("chip.toml", line)
        assert diag.message.startswith("target 'chip' has no stage 'fast' (stages: ")


NPU = (Path(__file__).parents[1] / "src" / "plaidc" / "targets" / "npu.toml").read_text()


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("ub_bytes", "0", "[hardware] ub_bytes = 0 must be a positive integer"),
        ("ub_align", "24", "[hardware] ub_align = 24 must be a power of two"),
        ("l0ab_align", "500", "[hardware] l0ab_align = 500 must be a power of two"),
    ],
)
def test_npu_hardware_is_checked_and_located_at_load(key: str, value: str, message: str) -> None:
    lines = NPU.splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith(f"{key} ="))
    lines[number] = f"{key} = {value}"
    assert config_error("\n".join(lines)) == (number + 1, 1, message)
    with pytest.raises(CompileError) as info:  # once, though L0A and L0B share l0ab_align
        check_target(parse_config("\n".join(lines), "chip.toml"))
    assert len(info.value.diagnostics) == 1


def test_key_spans_skip_multiline_values() -> None:
    from plaidc.targets.spans import key_spans

    text = 'a = """\nb = 1\n"""\n[t]\nc = [\n  1,\n]\n"d.e" . f = 2\n[[u.v]]\n[[u.v]]\n  g = 3\n'
    spans = {k: (s.line, s.col) for k, s in key_spans(text, "x.toml").items()}
    assert spans == {
        ("a",): (1, 1),
        ("t",): (4, 1),
        ("t", "c"): (5, 1),
        ("t", "d.e", "f"): (8, 1),
        ("u", "v", 0): (9, 1),
        ("u", "v", 1): (10, 1),
        ("u", "v", 1, "g"): (11, 3),
    }
