"""Naming conventions and conversions between Stripe affines and isl objects.

Every polyhedral object in this package lives in a space whose dimensions are the indices of a
chain of nested blocks, root first. Index `x` of the block at depth `d` (the root has depth 0) is
the isl dimension `x@d` (see `dim_name`), so a dimension keeps its name in the domain of every
deeper block and objects built for different chains of one program compose by name. Element
coordinates of a view are the dimensions `@c0, @c1, ...` and flat buffer offsets the dimension
`@o`; `@` cannot occur in a Stripe name, so no name clashes with an index.

isl objects are built programmatically (never by printing and parsing strings), so Stripe names
containing `.` need no quoting.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

import islpy as isl

from plaidc.stripe.ir import Affine

__all__ = [
    "AnalysisError",
    "ScopeError",
    "aff_from_affine",
    "affine_from_aff",
    "affine_from_constraint",
    "coord_names",
    "coord_space",
    "dim_name",
    "dim_names",
    "map_from_affines",
    "set_space",
    "split_dim_name",
]

SEP = "@"
COORD_PREFIX = "@c"
OFFSET_NAME = "@o"


class AnalysisError(Exception):
    """A polyhedral question cannot be posed for this IR (e.g. mismatched ranks)."""


class AnalysisTooComplex(AnalysisError):
    """isl gave up on a question after its operation budget (`MAX_OPERATIONS`)."""


# Operations isl may spend on one question that can blow up (views restrided irregularly):
# about a second. isl checks the count only between steps, so a larger budget can still mean
# minutes (a million: over 100 s on one such view); the test suite's programs need far fewer.
MAX_OPERATIONS = 500_000


class ScopeError(AnalysisError):
    """An affine names an index that is not in the scope it is evaluated in."""

    def __init__(self, name: str, depth: int) -> None:
        super().__init__(f"index '{name}' is not defined at depth {depth}")
        self.name = name
        self.depth = depth


def dim_name(depth: int, index: str) -> str:
    """The isl dimension name of index `index` of the block at `depth` in a chain."""
    return f"{index}{SEP}{depth}"


def split_dim_name(dim: str) -> tuple[int, str]:
    """Inverse of `dim_name`: `(depth, index)`; raises ValueError for coordinate dimensions."""
    index, sep, depth = dim.rpartition(SEP)
    if not sep or not index or not depth.isdigit():
        raise ValueError(f"not an index dimension: {dim!r}")
    return int(depth), index


def coord_names(ndims: int) -> list[str]:
    """Names of the element coordinate dimensions of an `ndims`-dimensional view."""
    return [f"{COORD_PREFIX}{d}" for d in range(ndims)]


def set_space(ctx: isl.Context, names: Sequence[str]) -> isl.Space:
    """A parameter-free set space with the given dimension names."""
    space = isl.Space.set_alloc(ctx, 0, len(names))
    for pos, name in enumerate(names):
        space = space.set_dim_name(isl.dim_type.set, pos, name)
    return space


def coord_space(ctx: isl.Context, ndims: int) -> isl.Space:
    """The set space of element coordinates of an `ndims`-dimensional view."""
    return set_space(ctx, coord_names(ndims))


def dim_names(space: isl.Space, kind: isl.dim_type = isl.dim_type.set) -> list[str]:
    """The names of the dimensions of one kind of `space` (`set`, `in_`, `out`, `param`)."""
    return [space.get_dim_name(kind, pos) or "" for pos in range(space.dim(kind))]


def _positions(space: isl.Space) -> dict[str, int]:
    return {name: pos for pos, name in enumerate(dim_names(space))}


def aff_from_affine(
    space: isl.Space,
    affine: Affine,
    depth: int,
    positions: Mapping[str, int] | None = None,
) -> isl.Aff:
    """The isl affine function on set space `space` equal to `affine`, whose names are the
    indices of the block at `depth` (resolved with `dim_name`). `positions` (dimension name ->
    position in `space`) may be passed to avoid recomputing it. Raises ScopeError."""
    pos = _positions(space) if positions is None else positions
    aff = isl.Aff.zero_on_domain(isl.LocalSpace.from_space(space))
    for name, coeff in affine.terms:
        where = pos.get(dim_name(depth, name))
        if where is None:
            raise ScopeError(name, depth)
        aff = aff.set_coefficient_val(isl.dim_type.in_, where, coeff)
    return aff.set_constant_val(affine.const)


def map_from_affines(
    domain: isl.Space,
    affines: Sequence[Affine],
    depth: int,
    range_names: Sequence[str] | None = None,
) -> isl.Map:
    """The function `domain -> [affines...]` as an isl map (range dims `@c0...` by default)."""
    ctx = domain.get_ctx()
    names = coord_names(len(affines)) if range_names is None else list(range_names)
    space = isl.Space.map_from_domain_and_range(domain, set_space(ctx, names))
    if not affines:
        return isl.Map.universe(space)
    pos = _positions(domain)
    affs = isl.AffList.alloc(ctx, len(affines))
    for affine in affines:
        affs = affs.add(aff_from_affine(domain, affine, depth, pos))
    return isl.Map.from_multi_aff(isl.MultiAff.from_aff_list(space, affs))


def _strip(name: str, depth: int | None) -> str:
    if depth is None:
        return name
    try:
        d, index = split_dim_name(name)
    except ValueError:
        return name
    if d != depth:
        raise AnalysisError(f"dimension {name!r} is not an index of depth {depth}")
    return index


def _terms(
    coeffs: Iterable[tuple[str, Fraction]], const: Fraction, depth: int | None, scale: bool
) -> Affine:
    items = list(coeffs)
    denom = 1
    for _, c in [*items, ("", const)]:
        denom = denom * c.denominator // _gcd(denom, c.denominator)
    if denom != 1 and not scale:
        raise AnalysisError("affine expression has rational coefficients")
    return Affine.of(
        [(_strip(n, depth), int(c * denom)) for n, c in items if c != 0], int(const * denom)
    )


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


def _val(v: isl.Val) -> Fraction:
    return Fraction(str(v))


def affine_from_aff(aff: isl.Aff, depth: int | None = None) -> Affine:
    """The Stripe affine equal to an isl affine function without divisions. With `depth`, the
    dimension names must be indices of that depth and are turned back into Stripe names.
    Raises AnalysisError for rational coefficients or integer divisions."""
    if aff.dim(isl.dim_type.div) and any(
        not aff.get_coefficient_val(isl.dim_type.div, i).is_zero()
        for i in range(aff.dim(isl.dim_type.div))
    ):
        raise AnalysisError(f"affine expression with integer division: {aff}")
    space = aff.get_domain_space()
    coeffs: list[tuple[str, Fraction]] = []
    for kind in (isl.dim_type.param, isl.dim_type.set):
        for pos, name in enumerate(dim_names(space, kind)):
            kind_in = isl.dim_type.in_ if kind == isl.dim_type.set else kind
            coeffs.append((name, _val(aff.get_coefficient_val(kind_in, pos))))
    const = _val(aff.get_constant_val())
    return _terms(coeffs, const, depth, scale=False)


def affine_from_constraint(constraint: isl.Constraint, depth: int | None = None) -> Affine:
    """The Stripe affine `a` such that the isl inequality `constraint` reads `a >= 0` (an
    equality gives its left-hand side). Rational coefficients are scaled to integers."""
    if constraint.dim(isl.dim_type.div) and any(
        not constraint.get_coefficient_val(isl.dim_type.div, i).is_zero()
        for i in range(constraint.dim(isl.dim_type.div))
    ):
        raise AnalysisError("constraint involves an existentially quantified variable")
    space = constraint.get_space()
    coeffs: list[tuple[str, Fraction]] = []
    for kind in (isl.dim_type.param, isl.dim_type.set):
        for pos, name in enumerate(dim_names(space, kind)):
            coeffs.append((name, _val(constraint.get_coefficient_val(kind, pos))))
    const = _val(constraint.get_constant_val())
    return _terms(coeffs, const, depth, scale=True)
