"""Differential tests: the isl answers of `plaidc.analysis` (and the verifier's polyhedral checks)
against brute-force enumeration of every point, on randomly mutated small PlaidML dumps.

Mutations shift accesses, resize views, loosen constraints and switch aggregations, so both
in-bounds and out-of-bounds, injective and clashing programs occur (the tests assert both kinds
were generated, so they cannot pass vacuously).
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from dataclasses import replace

import pytest

from plaidc.analysis import DomainCache, statement_accesses, trace
from plaidc.stripe.ir import Affine, Block, Refinement
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.verify import verify

from .support import REFERENCE

SMALL = ["cumsum", "maxpool1d", "softmax"]

# In-place updates of one buffer: shifting the read access makes points read what others write.
IN_PLACE = [
    """\
block [] ( // prog
    inout A[0, 0] fp32(4, 6):(6, 1)
) {
  0: block [i:4, j:6] ( // step
      in X = A[i, j] fp32(1, 1):(6, 1)
      out Y = A[i, j] fp32(1, 1):(6, 1)
  ) {
    0: $x = load(X)
    1: $y = neg($x)
    2: Y = store($y)
  }
}
""",
    """\
block [] ( // prog
    inout A[0] fp32(8):(1)
) {
  0: block [t:2] ( // tiles
      in X = A[4*t] fp32(4):(1)
      out Y = A[4*t] fp32(4):(1)
  ) {
    0: block [i:4] ( // inner
        in X[i] fp32(1):(1)
        out Y[i] fp32(1):(1)
    ) {
      0: $x = load(X)
      1: Y = store($x)
    }
  }
}
""",
]


def small_programs() -> list[Block]:
    paths = [p for name in SMALL for p in sorted((REFERENCE / name / "stripe").glob("*.stripe"))]
    assert paths, "reference dumps not found"
    programs = [parse_stripe(p.read_text(), str(p)) for p in paths]
    in_place = [parse_stripe(text, f"in_place_{k}.stripe") for k, text in enumerate(IN_PLACE)]
    # Weight the in-place programs so that races are generated, not just possible.
    return programs + in_place * (len(programs) // 3)


# --------------------------------------------------------------------------------------------
# Brute force


Env = dict[str, int]


def points(block: Block, parent: Env) -> Iterator[Env]:
    ranges = []
    for idx in block.idxs:
        start = idx.affine.evaluate(parent)
        ranges.append(range(start, start + idx.range))
    names = [i.name for i in block.idxs]
    for values in itertools.product(*ranges):
        env = dict(zip(names, values, strict=True))
        if all(c.affine.evaluate(env) >= 0 for c in block.constraints):
            yield env


def inside(coords: tuple[int, ...], ref: Refinement) -> bool:
    return all(0 <= c < s for c, s in zip(coords, ref.shape.sizes, strict=True))


Ancestors = tuple[tuple[tuple[str, int], ...], ...]


def brute_force(program: Block) -> tuple[set[int], set[int], set[tuple[int, int]]]:
    """By running every point: (ids of views some reached element falls outside of, ids of
    assign views stored to twice by distinct points of one execution, (block id, owning view
    id) pairs where a point reads an element of a buffer owned above the block that another
    point of the same execution writes)."""
    outside: set[int] = set()
    touched: dict[tuple[int, int, Ancestors], dict[tuple[int, ...], tuple[set, set]]] = {}
    stores: dict[tuple[int, Ancestors], dict[tuple[int, ...], set]]
    stores = {}

    def walk(chain: list[Block], envs: list[Env]) -> None:
        block = chain[-1]
        for stmt in block.stmts:
            if isinstance(stmt, Block):
                for env in points(stmt, envs[-1]):
                    walk([*chain, stmt], [*envs, env])
                continue
            for name, writes, whole in statement_accesses(stmt):
                ref = block.ref(name)
                assert ref is not None
                sizes = ref.shape.sizes
                elems = (
                    list(itertools.product(*map(range, sizes))) if whole else [(0,) * len(sizes)]
                )
                for elem in elems:
                    depth, view, coords = len(chain) - 1, ref, elem
                    if not inside(coords, view):
                        outside.add(id(view))
                    passed = []
                    while view.from_ is not None and depth > 0:
                        passed.append(depth)
                        parent = chain[depth - 1].ref(view.from_)
                        assert parent is not None
                        coords = tuple(
                            a.evaluate(envs[depth]) + c
                            for a, c in zip(view.access, coords, strict=True)
                        )
                        key = (id(view), tuple(tuple(sorted(e.items())) for e in envs[:depth]))
                        point = tuple(sorted(envs[depth].items()))
                        if writes and view.agg_op in (None, "assign"):
                            stores.setdefault(key, {}).setdefault(coords, set()).add(point)
                        depth, view = depth - 1, parent
                        if not inside(coords, view):
                            outside.add(id(view))
                    for m in passed:  # blocks sharing the owner `view` among their points
                        ancestors = tuple(tuple(sorted(e.items())) for e in envs[:m])
                        by_elem = touched.setdefault((id(chain[m]), id(view), ancestors), {})
                        readers, writers = by_elem.setdefault(coords, (set(), set()))
                        (writers if writes else readers).add(tuple(sorted(envs[m].items())))

    for env in points(program, {}):
        walk([program], [env])
    clashes = {
        key[0] for key, by_elem in stores.items() if any(len(s) > 1 for s in by_elem.values())
    }
    races = {
        (block_id, view_id)
        for (block_id, view_id, _), by_elem in touched.items()
        if any(w and (r - w or len(w) > 1) for r, w in by_elem.values() if r)
    }
    return outside, clashes, races


# --------------------------------------------------------------------------------------------
# The analysis' answers


def analysed_outside(program: Block) -> set[int]:
    flagged: set[int] = set()
    cache = DomainCache()

    def walk(chain: list[Block]) -> None:
        for stmt in chain[-1].stmts:
            if isinstance(stmt, Block):
                walk([*chain, stmt])
                continue
            for name, _, whole in statement_accesses(stmt):
                for level in trace(chain, name, whole, cache):
                    if not level.outside.is_empty():
                        flagged.add(id(level.ref))

    walk([program])
    return flagged


RACE = re.compile(r"block '(.*)': refinement '.*' reads element .* of '(.*)' in block '(.*)' at ")


def verifier_findings(program: Block) -> tuple[set[int], set[tuple[int, int]]]:
    """From the verifier's messages: (ids of the refinements reported as clashing `assign`
    outputs, (block id, owning view id) pairs reported as read/write races)."""
    messages = [d.message for d in verify(program)]
    blocks: dict[str, Block] = {}

    def walk(block: Block, label: str, at_root: bool) -> None:
        blocks[label] = block
        for pos, stmt in enumerate(block.stmts):
            if isinstance(stmt, Block):
                own = stmt.name or f"[{pos}]"
                walk(stmt, own if at_root else f"{label}/{own}", False)

    walk(program, program.name or "<program>", True)
    clashes = {
        id(ref)
        for label, block in blocks.items()
        for ref in block.refs
        if any(
            m.startswith(f"block '{label}': refinement '{ref.into}' has aggregation")
            for m in messages
        )
    }
    races = set()
    for m in messages:
        match = RACE.match(m)
        if match:
            owner = blocks[match[3]].ref(match[2])
            assert owner is not None
            races.add((id(blocks[match[1]]), id(owner)))
    return clashes, races


# --------------------------------------------------------------------------------------------
# Mutations


def mutate(block: Block, rng: random.Random, p: float) -> Block:
    def shift(ref: Refinement) -> Refinement:
        if rng.random() >= p:
            return ref
        roll = rng.random()
        if roll < 0.3 and ref.access:
            access = list(ref.access)
            d = rng.randrange(len(access))
            access[d] = rng.choice([access[d] + 1, access[d] - 1, access[d] * 2, Affine.const_(0)])
            return replace(ref, access=tuple(access))
        if roll < 0.55 and ref.shape.sizes:
            sizes = list(ref.shape.sizes)
            d = rng.randrange(len(sizes))
            sizes[d] = max(0, sizes[d] + rng.choice([-1, 1]))
            return replace(ref, shape=replace(ref.shape, sizes=tuple(sizes)))
        return replace(ref, agg_op=rng.choice([None, "assign", "assign", "add"]))

    constraints = tuple(
        replace(c, affine=c.affine + rng.choice([-1, 1])) if rng.random() < p else c
        for c in block.constraints
    )
    return replace(
        block,
        refs=tuple(shift(r) for r in block.refs),
        constraints=constraints,
        stmts=tuple(mutate(s, rng, p) if isinstance(s, Block) else s for s in block.stmts),
    )


# Seeds whose 40 mutants include every kind of finding (asserted below), so no run is vacuous.
@pytest.mark.parametrize("seed", [0, 2, 3, 5])
def test_bounds_assign_and_race_checks_agree_with_enumeration(seed: int) -> None:
    rng = random.Random(seed)
    programs = small_programs()
    kinds = {"outside": 0, "clash": 0, "race": 0, "clean": 0}
    for _ in range(40):
        program = mutate(rng.choice(programs), rng, 0.25)
        outside, clashes, races = brute_force(program)
        assert analysed_outside(program) == outside
        assert verifier_findings(program) == (clashes, races)
        kinds["outside"] += bool(outside)
        kinds["clash"] += bool(clashes)
        kinds["race"] += bool(races)
        kinds["clean"] += not outside and not clashes and not races
    assert all(kinds.values()), kinds
