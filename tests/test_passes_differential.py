"""Translation validation (PASSES.md): every pass and every target pipeline, on every example
program and PlaidML dump, verifies and interprets to the same outputs as its input."""

from __future__ import annotations

from functools import cache

import pytest

from plaidc import driver
from plaidc.passes import all_passes, get_pass, make_options
from plaidc.stripe.ir import Block, DType
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.verify import verify
from plaidc.targets import builtin_target_names, load_target

from .oplib_reference import load_manifest
from .support import EXAMPLES, REFERENCE_DUMPS

STRIPE_PROGRAMS = {
    f"{p.parent.parent.name}/{p.stem}": p for p in [*REFERENCE_DUMPS, *EXAMPLES.glob("*.stripe")]
}
TILE_PROGRAMS = sorted(load_manifest())
# Clean-up passes reach a fixed point in one run; tiling-like passes may legitimately re-apply.
IDEMPOTENT = {"prune-idxs", "prune-refs", "dead-code", "reorder-blocks", "reduce-constraints"}
PROGRAMS = sorted(STRIPE_PROGRAMS) + [f"tile/{name}" for name in TILE_PROGRAMS]


@cache
def load(program_id: str) -> Block:
    if program_id.startswith("tile/"):
        from plaidc.tile import compile_tile

        spec = load_manifest()[program_id[len("tile/") :]]
        shapes = {name: (_dtype(i.dtype), i.shape) for name, i in spec.inputs.items()}
        return compile_tile(
            spec.path.read_text(), str(spec.path), dims=spec.defines, shapes=shapes
        ).program
    path = STRIPE_PROGRAMS[program_id]
    return parse_stripe(path.read_text(), str(path))


def _dtype(name: str) -> DType:
    return DType(name)


def assert_same_meaning(before: Block, after: Block, what: str) -> None:
    problems = verify(after)
    assert not problems, f"{what}: {problems[0].render()}"
    mismatches = driver.check_equivalent(before, after, seed=11)
    assert not mismatches, f"{what}: {mismatches[0].message}"


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
