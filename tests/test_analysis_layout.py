"""`plaidc.analysis.distinct_offsets` against brute-force enumeration of the box."""

from __future__ import annotations

import itertools
import random

import pytest

from plaidc.analysis import distinct_offsets


def brute(dims: list[tuple[int, int]]) -> bool:
    points = list(itertools.product(*(range(extent) for extent, _ in dims)))
    offsets = {sum(x * stride for x, (_, stride) in zip(p, dims, strict=True)) for p in points}
    return len(offsets) == len(points)


CASES = [
    ([], True),
    ([(5, 1)], True),
    ([(5, 0)], False),
    ([(1, 0)], True),
    ([(3, 16), (16, 1)], True),  # rows of 16 columns, 16 apart
    ([(3, 15), (16, 1)], False),  # a row overlaps the next
    ([(2, 4), (2, 6), (2, 1)], True),  # interleaved rows: 0,4,6,10 with 2 columns each
    ([(3, 2), (2, 3), (2, 1)], False),  # rows 2 and 3 share element 3
    ([(4, -8), (8, 1)], True),  # rows walking backwards
    ([(0, 1), (7, 0)], True),  # an empty box
]


@pytest.mark.parametrize(("dims", "want"), CASES)
def test_distinct_offsets_known_cases(dims: list[tuple[int, int]], want: bool) -> None:
    assert brute(dims) == want  # the table itself is right
    assert distinct_offsets(dims) == want


def test_distinct_offsets_matches_enumeration() -> None:
    rng = random.Random(7)
    for _ in range(300):
        dims = [(rng.randint(1, 5), rng.randint(-9, 9)) for _ in range(rng.randint(1, 3))]
        assert distinct_offsets(dims) == brute(dims), dims
