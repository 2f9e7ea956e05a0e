"""The programs a pass is checked on, and checking that it keeps their meaning."""

from __future__ import annotations

from functools import cache

from plaidc import driver
from plaidc.stripe.ir import Block, DType
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.verify import verify

from ..oplib_reference import load_manifest
from .paths import EXAMPLES, REFERENCE_DUMPS

STRIPE_PROGRAMS = {
    f"{p.parent.parent.name}/{p.stem}": p for p in [*REFERENCE_DUMPS, *EXAMPLES.glob("*.stripe")]
}


TILE_PROGRAMS = sorted(load_manifest())


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
