"""Pass options as `plaidc passes` documents them and as the option reader checks them."""

from __future__ import annotations

import pytest

from plaidc.passes import PassOptionError, all_passes, get_pass, make_options

OPTIONS = [(info.name, doc) for info in all_passes() for doc in info.option_docs()]


@pytest.mark.parametrize(("pass_name", "doc"), OPTIONS, ids=[f"{p}.{d.name}" for p, d in OPTIONS])
def test_every_pass_option_has_a_one_line_help(pass_name: str, doc: object) -> None:
    help_text = getattr(doc, "help", "")
    assert help_text.strip(), f"{pass_name}: option '{getattr(doc, 'name', '')}' has no help"
    assert "\n" not in help_text and "|" not in help_text  # one line, one table cell


@pytest.mark.parametrize(
    ("pass_name", "option", "allowed"),
    [
        ("autotile", "cost_model", ('"density"', '"lines_per_output"')),
        ("autotile", "footprint", ('"view"', '"iterations"')),
        ("cache", "dirs", ('"in"', '"out"', '"inout"')),
        ("transpose", "hot", ('"output"', '"largest"')),
        ("widen-accumulators", "narrow", ('"fp16"', '"fp32"')),
        ("place", "alignment", (">= 1",)),
        ("cache", "pad", (">= 1",)),
        ("partition-compute", "num_parts", (">= 1",)),
    ],
)
def test_enumerated_and_bounded_options_list_their_allowed_values(
    pass_name: str, option: str, allowed: tuple[str, ...]
) -> None:
    docs = {d.name: d for d in get_pass(pass_name).option_docs()}
    assert docs[option].allowed == allowed


@pytest.mark.parametrize(
    ("pass_name", "raw", "message"),
    [
        (
            "autotile",
            {"cost_model": "fast"},
            "pass 'autotile': option 'cost_model': expected \"density\" or "
            '"lines_per_output", got "fast"',
        ),
        (
            "cache",
            {"dirs": "[in,sideways]"},
            'pass \'cache\': option \'dirs\': expected a list of "in", "out" or "inout", '
            'got "[in,sideways]"',
        ),
        (
            "cache",
            {"pad": "[16,0]"},
            "pass 'cache': option 'pad': expected a list of integers >= 1, got \"[16,0]\"",
        ),
        (
            "place",
            {"alignment": "0"},
            "pass 'place': option 'alignment': expected an integer >= 1, got 0",
        ),
        (
            "expand-math",
            {"ops": "[erf]"},
            "pass 'expand-math': option 'ops': expected a list of \"tanh\", \"pow\", ",
        ),
        (
            "widen-accumulators",
            {"narrow": "[bf16]"},
            "pass 'widen-accumulators': option 'narrow': expected a list of \"fp16\" or "
            '"fp32" (the types a rounding intrinsic exists for), got "[bf16]"',
        ),
    ],
)
def test_bad_values_are_reported_by_the_option_reader(
    pass_name: str, raw: dict[str, str], message: str
) -> None:
    with pytest.raises(PassOptionError) as err:
        make_options(get_pass(pass_name), raw)
    assert str(err.value).startswith(message)


def test_a_pipeline_imports_only_its_passes_modules() -> None:
    """get_pass imports the module of the pass's name (`dead-code`: passes/dead_code.py), not
    every pass module; a pass in a module of another name, or an unknown name, loads them all
    (and the unknown one still gets its suggestion)."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from plaidc.passes.registry import PassOptionError, get_pass\n"
        "loaded = lambda: sorted(m.rsplit('.', 1)[1] for m in sys.modules\n"
        "                        if m.startswith('plaidc.passes.'))\n"
        "assert get_pass('dead_code').name == 'dead-code'\n"
        "assert 'distribute' not in loaded() and 'dead_code' in loaded(), loaded()\n"
        "assert get_pass('locate-memory').name == 'locate-memory'\n"
        "assert 'distribute' in loaded(), loaded()\n"
        "try:\n"
        "    get_pass('fuze')\n"
        "except PassOptionError as err:\n"
        "    print(err)\n"
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    assert "unknown pass 'fuze'; did you mean 'fuse'?" in ran.stdout
