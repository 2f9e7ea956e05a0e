"""Translation validation (PASSES.md): every pass and every target pipeline, on every example
program and PlaidML dump, verifies and interprets to the same outputs as its input."""

from __future__ import annotations

import pytest

from plaidc import driver
from plaidc.passes import all_passes, get_pass, make_options
from plaidc.targets import builtin_target_names, load_target

from .support.passes_differential import (
    PROGRAMS,
    assert_same_meaning,
    load,
)

# Clean-up passes reach a fixed point in one run; tiling-like passes may legitimately re-apply.
IDEMPOTENT = {"prune-idxs", "prune-refs", "dead-code", "reorder-blocks", "reduce-constraints"}


@pytest.mark.parametrize("pass_name", [p.name for p in all_passes()])
@pytest.mark.parametrize("program_id", PROGRAMS)
def test_pass_preserves_meaning(program_id: str, pass_name: str) -> None:
    program = load(program_id)
    info = get_pass(pass_name)
    result = info.run(program, make_options(info, {}))
    assert_same_meaning(program, result, f"{pass_name} on {program_id}")
    if pass_name in IDEMPOTENT:
        again = info.run(result, make_options(info, {}))
        assert again == result, f"{pass_name} is not idempotent on {program_id}"


@pytest.mark.parametrize("target", builtin_target_names())
@pytest.mark.parametrize("program_id", PROGRAMS)
def test_target_pipeline_preserves_meaning(program_id: str, target: str) -> None:
    program = load(program_id)
    steps = driver.resolve_steps(load_target(target).stage("default"))
    result = driver.run_pipeline(program, steps, verify_each=True)
    assert_same_meaning(program, result, f"target {target} on {program_id}")
