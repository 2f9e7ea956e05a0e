"""Contraction range inference and coverage (plaidc.analysis.ranges) and the integer lattice of
rational index polynomials (plaidc.tile.poly), checked against brute-force enumeration."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plaidc.analysis.ranges import (
    IndexSpace,
    UnboundedIndex,
    bounding_box,
    collision,
    covers,
    implied,
    minimal_constraints,
)
from plaidc.stripe.ir import Affine
from plaidc.tile.poly import RatAffine, integer_lattice


def aff(const: int = 0, **terms: int) -> Affine:
    return Affine.of(terms, const)


def box_constraints(**ranges: tuple[int, int]) -> list[Affine]:
    out = []
    for name, (lo, hi) in ranges.items():
        out += [aff(-lo, **{name: 1}), aff(hi, **{name: -1})]
    return out


def test_bounding_box_is_exact_over_the_integers() -> None:
    # 0 <= x, 0 <= y, 2x + 2y <= 7: over the reals x <= 3.5, over the integers x <= 3.
    space = IndexSpace(("x", "y"), (aff(x=1), aff(y=1), aff(7, x=-2, y=-2)))
    assert bounding_box(space) == {"x": (0, 3), "y": (0, 3)}


def test_bounding_box_of_an_empty_space() -> None:
    assert bounding_box(IndexSpace(("x",), (aff(x=1), aff(-1, x=-1)))) is None


def test_unbounded_index_is_named() -> None:
    with pytest.raises(UnboundedIndex) as err:
        bounding_box(IndexSpace(("i", "j"), (aff(i=1, j=1), aff(5, i=-1, j=-1))))
    assert err.value.name == "i"


def test_names_that_are_isl_keywords_are_safe() -> None:
    space = IndexSpace(
        ("and", "min"), (aff(**{"and": 1}), aff(3, **{"and": -1, "min": -1}), aff(min=1))
    )
    assert bounding_box(space) == {"and": (0, 3), "min": (0, 3)}


def test_minimal_constraints_keeps_what_the_box_does_not_imply() -> None:
    box = {"i": (0, 16), "k": (0, 16)}
    cons = [aff(i=1), aff(i=1, k=-1), aff(16, i=-1, k=1), aff(i=1, k=-1)]
    assert minimal_constraints(("i", "k"), box, cons) == [aff(i=1, k=-1)]


def test_minimal_constraints_asks_isl_only_about_what_the_box_does_not_imply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A convolution's candidates are mostly `0 <= access < size` that its box implies: those
    go by interval arithmetic (ResNet-50's 58 contractions built ~1000 isl sets, 1.2 s)."""
    import plaidc.analysis.ranges as ranges

    asked: list[Affine] = []
    real_implied = ranges.implied

    def counting(space: IndexSpace, candidate: Affine) -> bool:
        asked.append(candidate)
        return real_implied(space, candidate)

    monkeypatch.setattr(ranges, "implied", counting)
    box = {"x": (0, 55), "i": (0, 2), "c": (0, 63)}
    padded = [aff(-1, x=1, i=1), aff(56, x=-1, i=-1)]  # 0 <= x + i - 1 < 56
    in_box = [aff(x=1), aff(55, x=-1), aff(c=1), aff(63, c=-1), aff(x=1, i=1), aff(57, x=-1, i=-1)]
    assert minimal_constraints(("x", "i", "c"), box, in_box + padded) == padded
    assert asked == padded


def test_minimal_constraints_keeps_one_of_two_equivalent_constraints() -> None:
    box = {"x": (0, 9)}
    cons = [aff(-2, x=1), aff(-4, x=2)]  # x >= 2 and 2x >= 4 imply each other
    assert minimal_constraints(("x",), box, cons) == [aff(-4, x=2)]


def test_implied() -> None:
    space = IndexSpace(("x",), tuple(box_constraints(x=(0, 4))))
    assert implied(space, aff(4, x=-1))
    assert not implied(space, aff(3, x=-1))


def test_covers_counts_integer_points_only() -> None:
    space = IndexSpace(("i", "j"), tuple(box_constraints(i=(0, 3), j=(0, 1))))
    assert covers(space, [aff(i=2, j=1)], [8])
    assert not covers(space, [aff(i=2)], [8])
    assert not covers(space, [aff(i=2, j=1)], [9])


def test_collision_finds_two_points_writing_one_element() -> None:
    space = IndexSpace(("i", "j"), tuple(box_constraints(i=(0, 2), j=(0, 2))))
    pair = collision(space, [aff(i=1, j=1)])
    assert pair is not None
    first, second = pair
    assert first != second and first["i"] + first["j"] == second["i"] + second["j"]
    assert collision(space, [aff(i=3, j=1)]) is None


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-6, 6)),
        min_size=1,
        max_size=3,
    )
)
def test_bounding_box_matches_brute_force(extra: list[tuple[int, int, int]]) -> None:
    cons = box_constraints(x=(-4, 4), y=(-4, 4)) + [aff(c, x=a, y=b) for a, b, c in extra]
    points = [
        (x, y)
        for x, y in itertools.product(range(-4, 5), repeat=2)
        if all(c.evaluate({"x": x, "y": y}) >= 0 for c in cons)
    ]
    box = bounding_box(IndexSpace(("x", "y"), tuple(cons)))
    if not points:
        assert box is None
        return
    assert box == {
        "x": (min(p[0] for p in points), max(p[0] for p in points)),
        "y": (min(p[1] for p in points), max(p[1] for p in points)),
    }
    reduced = minimal_constraints(("x", "y"), box, cons)
    kept = box_constraints(x=box["x"], y=box["y"]) + reduced
    again = [
        (x, y)
        for x, y in itertools.product(range(-4, 5), repeat=2)
        if all(c.evaluate({"x": x, "y": y}) >= 0 for c in kept)
    ]
    assert again == points


# ---- the integer lattice (defract) -----------------------------------------------------------


def _solve(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction]:
    """Gaussian elimination over the rationals (the matrix is square and invertible)."""
    n = len(rhs)
    rows = [[*row, b] for row, b in zip(matrix, rhs, strict=True)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[k][n] / rows[k][k] for k in range(n)]


fractions = st.builds(Fraction, st.integers(-3, 3), st.integers(1, 4))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(fractions, fractions, fractions), min_size=1, max_size=3))
def test_integer_lattice_is_an_exact_parametrisation(coeffs: list[tuple[Fraction, ...]]) -> None:
    names = ("i", "j")
    polys = [RatAffine.of({"i": a, "j": b}, c) for a, b, c in coeffs]
    lattice = integer_lattice(names, polys, keep=("i",))

    def integral(point: dict[str, int]) -> bool:
        return all(
            p.substitute({n: Affine.const_(v) for n, v in point.items()}).is_integral for p in polys
        )

    points = [
        {"i": i, "j": j}
        for i, j in itertools.product(range(-6, 7), repeat=2)
        if integral({"i": i, "j": j})
    ]
    if lattice is None:
        assert points == []
        return
    assert len(lattice.names) == len(names)
    sub = lattice.substitution
    # Every lattice point is a valid integer point...
    for values in itertools.product(range(-3, 4), repeat=len(lattice.names)):
        point = dict(zip(lattice.names, values, strict=True))
        assert integral({n: sub[n].evaluate(point) for n in names})
    # ...and every valid integer point has exactly one integer preimage.
    matrix = [[Fraction(sub[n].coeff(m)) for m in lattice.names] for n in names]
    for point in points:
        pre = _solve(matrix, [Fraction(point[n] - sub[n].const) for n in names])
        assert all(v.denominator == 1 for v in pre), (point, pre)
