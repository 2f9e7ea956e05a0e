"""`plaidc tune -t npu`: the backend's fingerprint of the C it emits (points that build the
same C are measured once) and the `cube_own_tiles` knob of the npu config's search space."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from plaidc import driver
from plaidc.backends import build_fingerprint, get_backend
from plaidc.diagnostics import CompileError
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import DType
from plaidc.stripe.printer import print_stripe
from plaidc.targets import TargetConfig, load_target, parse_config
from plaidc.tune.space import apply_point, build_space
from tests.support import EXAMPLES, REPO


def _matmul(m: int, k: int, n: int, dtype: str) -> Any:
    shapes = {"A": (DType(dtype), (m, k)), "B": (DType(dtype), (k, n))}
    return driver.load_program(
        driver.Session(), str(EXAMPLES / "matmul.tile"), driver.Bindings(shapes=shapes)
    )


def _point(cfg: TargetConfig, **values: Any) -> tuple[TargetConfig, Any]:
    """The config and pipeline steps of the default point with `values` (`STEP__OPTION`)."""
    point = build_space(cfg, "default").default_point()
    point.update({name.replace("__", "."): value for name, value in values.items()})
    return apply_point(cfg, "default", point)


def _final(program: Any, steps: Any) -> Any:
    return driver.run_pipeline(program, driver.resolve_steps(steps))


def test_the_npu_space_tunes_whose_tiles_a_matrix_product_takes():
    space = build_space(load_target("npu"), "default")
    param = next(p for p in space.params if p.name == "codegen.cube_own_tiles")
    assert set(param.values) == {True, False} and param.default is True


def test_a_bad_cube_own_tiles_value_in_the_tune_table_is_an_error_at_its_line():
    text = (REPO / "src/plaidc/targets/npu.toml").read_text()
    assert "\ncube_own_tiles = true\n" in text
    cfg = parse_config(text.replace("\ncube_own_tiles = true\n", '\ncube_own_tiles = ["yes"]\n'),
                       "my.toml")  # fmt: skip
    with pytest.raises(CompileError) as info:
        build_space(cfg, "default")
    diag = info.value.diagnostics[0]
    assert "'cube_own_tiles'" in diag.message and diag.span is not None
    assert cfg.source.splitlines()[diag.span.line - 1] == 'cube_own_tiles = ["yes"]'


def test_cube_own_tiles_changes_the_code_and_both_match_the_interpreter():
    """An fp16 256 x 512 x 512 matmul: the backend's estimate takes its own tiles, false keeps
    the pass pipeline's; each program computes the interpreter's result. (An fp32 64 x 128 x
    96 one no longer shows it: `cube_cost`'s estimate keeps the pipeline's tiles there, which
    simulate faster, 4,552 against 5,048 cycles.)"""
    program = _matmul(256, 512, 512, "fp16")
    inputs = driver.random_inputs(program_io(program).inputs, 0)
    expected = run_program(program, inputs)
    sources = {}
    for own in (True, False):
        cfg, steps = _point(load_target("npu"), codegen__cube_own_tiles=own)
        artifact = get_backend("npu").compile(_final(program, steps), cfg)
        got = artifact.run(inputs)
        assert not driver.compare_outputs(expected, got, artifact.reduced_precision, 128)
        sources[own] = artifact.source
    assert "tiles chosen by the backend" in sources[True]
    assert "tiles chosen by the pass pipeline" in sources[False]


def test_points_that_build_the_same_c_share_a_fingerprint():
    """fp16 256 x 256 x 512: with the backend's own tiles, the pipeline's budget for the
    accumulators changes the Stripe but not the C (one program to measure); on the
    pipeline's tiles it changes both. A `[codegen]` value the C depends on changes it."""
    program, cfg = _matmul(256, 256, 512, "fp16"), load_target("npu")
    quarter, eighth = cfg.hardware["l0c_bytes"] // 4, cfg.hardware["l0c_bytes"] // 8

    def built(**values: Any) -> tuple[str, str | None]:
        point_cfg, steps = _point(cfg, **values)
        final = _final(program, steps)
        return print_stripe(final), build_fingerprint(final, point_cfg)

    own_a, own_b = (built(tile_cube__max_output_size=size) for size in (quarter, eighth))
    assert own_a[0] != own_b[0] and own_a[1] == own_b[1] is not None
    off = [built(tile_cube__max_output_size=s, codegen__cube_own_tiles=False)
           for s in (quarter, eighth)]  # fmt: skip
    assert off[0][1] != off[1][1] and own_a[1] not in {off[0][1], off[1][1]}
    assert built(codegen__buffering=1)[1] != own_a[1]
    # the simulated machine is part of what is measured, whatever the C
    small = dataclasses.replace(cfg, hardware={**cfg.hardware, "gm_latency": 100})
    assert build_fingerprint(_final(program, _point(small)[1]), small) != own_a[1]
