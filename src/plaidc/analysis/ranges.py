"""Polyhedral questions the Tile frontend asks about a contraction's iteration space.

A contraction's valid index assignments are the integer points of a polyhedron
`{x in Z^n : c(x) >= 0 for every constraint c}` (after the frontend has made every index
polynomial integral). This module answers, exactly and with isl:

* the bounding box of that set (range inference, TILE.md "Binding shapes");
* which constraints the box does not already imply (the Stripe block's constraints);
* whether an access covers every element of a tensor (does the output need zeroing?);
* whether two distinct points reach one element (an `=` contraction assigning twice).

Index names are mapped to isl-safe names (`v0`, `v1`, ...) so that a user's index called
`min` or `and` cannot collide with isl's syntax.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import islpy as isl

from plaidc.stripe.ir import Affine


class UnboundedIndex(Exception):
    """Raised when an index has no finite lower or upper bound."""

    def __init__(self, name: str) -> None:
        super().__init__(f"index {name} is unbounded")
        self.name = name


@dataclass(frozen=True)
class IndexSpace:
    """`{names : every constraint >= 0}` over the integers."""

    names: tuple[str, ...]
    constraints: tuple[Affine, ...]

    def _vars(self, prefix: str = "v") -> dict[str, str]:
        return {n: f"{prefix}{k}" for k, n in enumerate(self.names)}

    def _cond(self, constraints: Sequence[Affine], rename: Mapping[str, str]) -> str:
        parts = [f"{_affine_text(c, rename)} >= 0" for c in constraints]
        return " and ".join(parts) if parts else "true"

    def to_isl(self) -> isl.Set:
        """The space as an isl set over tuple `[v0, v1, ...]`."""
        rename = self._vars()
        tup = ", ".join(rename[n] for n in self.names)
        return isl.Set(f"{{ [{tup}] : {self._cond(self.constraints, rename)} }}")


def _affine_text(aff: Affine, rename: Mapping[str, str]) -> str:
    terms = [f"{c}*{rename[n]}" for n, c in aff.terms]
    terms.append(str(aff.const))
    return " + ".join(terms)


def bounding_box(space: IndexSpace) -> dict[str, tuple[int, int]] | None:
    """The exact integer bounding box `{name: (min, max)}`; None when the set is empty.

    Raises UnboundedIndex naming the first index without a finite bound.
    """
    s = space.to_isl()
    if s.is_empty():
        return None
    box: dict[str, tuple[int, int]] = {}
    for k, name in enumerate(space.names):
        lo, hi = s.dim_min_val(k), s.dim_max_val(k)
        if not (lo.is_int() and hi.is_int()):
            raise UnboundedIndex(name)
        box[name] = (int(lo.to_python()), int(hi.to_python()))
    return box


def _box_constraints(box: Mapping[str, tuple[int, int]]) -> list[Affine]:
    out = []
    for name, (lo, hi) in box.items():
        out.append(Affine.var(name) - lo)
        out.append(Affine.const_(hi) - Affine.var(name))
    return out


def _box_minimum(aff: Affine, box: Mapping[str, tuple[int, int]]) -> int:
    """The least value of `aff` over the integer points of `box` (exact: a corner's)."""
    low = aff.const
    for name, coeff in aff.terms:
        lo, hi = box[name]
        low += coeff * (lo if coeff > 0 else hi)
    return low


def implied(space: IndexSpace, candidate: Affine) -> bool:
    """Whether `candidate >= 0` holds at every integer point of the space."""
    rename = space._vars()
    s = space.to_isl()
    tup = ", ".join(rename[n] for n in space.names)
    half = isl.Set(f"{{ [{tup}] : {_affine_text(candidate, rename)} >= 0 }}")
    return bool(s.is_subset(half))


def minimal_constraints(
    names: Sequence[str], box: Mapping[str, tuple[int, int]], constraints: Sequence[Affine]
) -> list[Affine]:
    """The constraints (in their given order, duplicates removed) that the box and the other
    kept constraints do not imply; together with the box they define the same integer set."""
    box_cons = _box_constraints(box)
    kept: list[Affine] = []
    for con in constraints:
        # One the box alone implies is redundant whatever else is kept (and the rest's
        # verdicts do not change without it): decided by interval arithmetic, with no isl
        # set built. Most of a contraction's candidates (every access's `0 <= a < size`)
        # are such.
        if con not in kept and _box_minimum(con, box) < 0:
            kept.append(con)
    # Drop one redundant constraint at a time, first ones first, re-checking against what is
    # left, so that two constraints implying each other do not both disappear.
    k = 0
    while k < len(kept):
        others = IndexSpace(tuple(names), tuple(box_cons + kept[:k] + kept[k + 1 :]))
        if implied(others, kept[k]):
            del kept[k]
        else:
            k += 1
    return kept


def covers(space: IndexSpace, access: Sequence[Affine], sizes: Sequence[int]) -> bool:
    """Whether every element of a tensor of `sizes` is reached by `access` from some point."""
    rename = space._vars()
    tup = ", ".join(rename[n] for n in space.names)
    outs = ", ".join(_affine_text(a, rename) for a in access)
    image = isl.Map(f"{{ [{tup}] -> [{outs}] : {space._cond(space.constraints, rename)} }}").range()
    out_vars = ", ".join(f"o{d}" for d in range(len(sizes)))
    bounds = " and ".join(f"0 <= o{d} < {s}" for d, s in enumerate(sizes)) or "true"
    full = isl.Set(f"{{ [{out_vars}] : {bounds} }}")
    return bool(full.is_subset(image))


def injective_on_projection(
    space: IndexSpace, keep: Sequence[str], access: Sequence[Affine]
) -> bool:
    """Whether `access` (an affine of the `keep` indices only) maps distinct points of the
    space's projection onto `keep` to distinct values (exact: isl decides it over the
    integers). The other indices are existential: e.g. reduction indices, whose constraints
    decide which output points exist."""
    rename = space._vars()
    tup = ", ".join(rename[n] for n in space.names)
    kept = ", ".join(rename[n] for n in keep)
    cond = space._cond(space.constraints, rename)
    points = isl.Map(f"{{ [{tup}] -> [{kept}] : {cond} }}").range()
    outs = ", ".join(_affine_text(a, rename) for a in access)
    store = isl.Map(f"{{ [{kept}] -> [{outs}] }}").intersect_domain(points)
    return bool(store.is_injective())


def collision(
    space: IndexSpace, access: Sequence[Affine]
) -> tuple[dict[str, int], dict[str, int]] | None:
    """Two distinct points of the space with the same access, or None if the access is
    injective on the space (exact: isl decides it over the integers)."""
    a_names, b_names = space._vars("a"), space._vars("b")
    a_tup = ", ".join(a_names[n] for n in space.names)
    b_tup = ", ".join(b_names[n] for n in space.names)
    conds = [space._cond(space.constraints, a_names), space._cond(space.constraints, b_names)]
    conds += [f"{_affine_text(x, a_names)} = {_affine_text(x, b_names)}" for x in access]
    # Lexicographic a < b: each (a, b) pair is found once and a != b.
    lex = []
    for k, n in enumerate(space.names):
        eqs = [f"{a_names[m]} = {b_names[m]}" for m in space.names[:k]]
        lex.append("(" + " and ".join([*eqs, f"{a_names[n]} < {b_names[n]}"]) + ")")
    if not lex:
        return None
    conds.append("(" + " or ".join(lex) + ")")
    pairs = isl.Set(f"{{ [{a_tup}, {b_tup}] : {' and '.join(conds)} }}")
    if pairs.is_empty():
        return None
    point = pairs.sample_point()
    coords = [
        int(point.get_coordinate_val(isl.dim_type.set, k).to_python())
        for k in range(2 * len(space.names))
    ]
    half = len(space.names)
    first = dict(zip(space.names, coords[:half], strict=True))
    second = dict(zip(space.names, coords[half:], strict=True))
    return first, second


def projection_constraints(space: IndexSpace, keep: Sequence[str]) -> list[Affine] | None:
    """Constraints `c >= 0` over the `keep` indices whose integer points are exactly the
    space's projection onto `keep` (the other indices existential), or None when the
    projection is not one convex polyhedron without existential variables (e.g. the points
    of a strided projection `{x : exists y : x = 2y}`)."""
    rename = space._vars()
    tup = ", ".join(rename[n] for n in space.names)
    kept = ", ".join(rename[n] for n in keep)
    cond = space._cond(space.constraints, rename)
    points = isl.Map(f"{{ [{tup}] -> [{kept}] : {cond} }}").range().coalesce()
    if points.is_empty() or points.n_basic_set() != 1:
        return None
    (basic,) = points.get_basic_sets()
    if basic.dim(isl.dim_type.div):
        return None
    out: list[Affine] = []
    for con in basic.get_constraints():
        terms = {}
        for pos, name in enumerate(keep):
            coeff = con.get_coefficient_val(isl.dim_type.set, pos)
            if not coeff.is_zero():
                terms[name] = int(coeff.to_python())
        aff = Affine.of(terms, int(con.get_constant_val().to_python()))
        out.append(aff)
        if con.is_equality():
            out.append(Affine.of({n: -c for n, c in aff.terms}, -aff.const))
    return out


def reexpressed(
    source: IndexSpace,
    written: Affine,
    target: IndexSpace,
    read: Affine,
    accesses: Sequence[Affine],
) -> list[Affine] | None:
    """`accesses` (affine forms of the `target` indices) as affine forms of the `source`
    indices, when point `t` of the target reading element `read(t)` corresponds one-to-one to
    the point `s` of the source writing it (`written(s) = read(t)`: every source point to one
    target point, every target point from one source point); None when it does not, or when a
    form is not affine in the source indices. Exact: isl decides the correspondence, and each
    candidate form (from its values at the origin and one step along each index) is checked
    against the whole correspondence.

    E.g. a consumer that tiled `x` as `8*x0 + x1` reads `O[8*x0 + x1, y]` where the producer
    writes `O[x, y]`: its store `R[8*x0 + x1, y]` is `R[x, y]` in the producer's indices."""
    src, dst = source._vars("s"), target._vars("t")
    s_tup = ", ".join(src[n] for n in source.names)
    t_tup = ", ".join(dst[n] for n in target.names)
    cond = " and ".join(
        [
            source._cond(source.constraints, src),
            target._cond(target.constraints, dst),
            f"{_affine_text(written, src)} = {_affine_text(read, dst)}",
        ]
    )
    pairs = isl.Map(f"{{ [{s_tup}] -> [{t_tup}] : {cond} }}")
    sources = isl.Set(f"{{ [{s_tup}] : {source._cond(source.constraints, src)} }}")
    targets = isl.Set(f"{{ [{t_tup}] : {target._cond(target.constraints, dst)} }}")
    if not (
        pairs.is_single_valued()
        and pairs.is_injective()
        and pairs.domain().is_equal(sources)
        and pairs.range().is_equal(targets)
    ):
        return None
    origin = {n: 0 for n in source.names}
    out: list[Affine] = []
    for access in accesses:
        value = pairs.apply_range(isl.Map(f"{{ [{t_tup}] -> [{_affine_text(access, dst)}] }}"))

        def at(point: Mapping[str, int], value: isl.Map = value) -> int | None:
            fixed = " and ".join(f"{src[n]} = {point[n]}" for n in source.names) or "true"
            image = value.intersect_domain(isl.Set(f"{{ [{s_tup}] : {fixed} }}")).range()
            if image.is_empty():
                return None
            return int(image.dim_min_val(0).to_python())

        base = at(origin)
        if base is None:
            return None
        terms: dict[str, int] = {}
        for name in source.names:
            step = at({**origin, name: 1})
            if step is not None and step != base:
                terms[name] = step - base
        form = Affine.of(terms, base)
        graph = isl.Map(f"{{ [{s_tup}] -> [{_affine_text(form, src)}] }}")
        if not value.is_subset(graph):
            return None
        out.append(form)
    return out
