"""Compile a bound contraction to an iteration space (TILE.md "Semantics", "Binding shapes").

The valid index assignments of a contraction are the integer points at which every index
polynomial of every tensor lies in `[0, size)`, every user constraint `0 <= poly < N` holds and
every polynomial is an integer. Compilation:

1. `integer_lattice` substitutes integer variables so every polynomial is integral (defract);
2. isl gives the exact bounding box of the valid points; each index is shifted to start at 0;
3. the bounds that box does not imply become the Stripe block's constraints;
4. isl decides whether every output element is reached (else the output is zeroed first) and,
   for `=`, whether two points reach one element (a compile-time error).

Because every step is exact over the integers, `no_defract` changes nothing here: in PlaidML it
only skipped a heuristic rewrite of the output polynomials (fractions were defracted anyway),
which plaidc does not need.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from plaidc.analysis.ranges import (
    IndexSpace,
    UnboundedIndex,
    bounding_box,
    collision,
    covers,
    minimal_constraints,
)
from plaidc.stripe.ir import Affine
from plaidc.tile.poly import RatAffine, integer_lattice
from plaidc.tile.typed import CompiledContraction


@dataclass(frozen=True)
class ContractionSpec:
    """A contraction with every size bound: polynomials in the user's index variables."""

    output: tuple[RatAffine, ...]
    out_sizes: tuple[int, ...]
    inputs: tuple[tuple[tuple[RatAffine, ...], tuple[int, ...]], ...]
    constraints: tuple[tuple[RatAffine, int], ...]
    index_names: tuple[str, ...]
    agg: str


class ContractionProblem(Exception):
    """A user error found while compiling; `index` names the index to point at, if any."""

    def __init__(self, message: str, index: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.index = index


def _bounds(poly: Affine, size: int) -> list[Affine]:
    """`0 <= poly < size` as two `>= 0` constraints."""
    return [poly, Affine.const_(size - 1) - poly]


def _format_point(point: dict[str, int]) -> str:
    return ", ".join(f"{n}={v}" for n, v in point.items())


def compile_contraction(spec: ContractionSpec, output_name: str) -> CompiledContraction:
    """Compile `spec`; raises ContractionProblem for unbounded indices and for `=`
    contractions that provably assign an output element twice."""
    all_polys = [*spec.output, *(p for polys, _ in spec.inputs for p in polys)]
    all_polys += [p for p, _ in spec.constraints]
    out_vars = {n for p in spec.output for n in p.names()}
    lattice = integer_lattice(spec.index_names, all_polys, keep=out_vars)
    if lattice is None:
        return _empty(spec)

    def integral(poly: RatAffine) -> Affine:
        return poly.substitute(lattice.substitution).to_affine()

    out_access = [integral(p) for p in spec.output]
    in_access = [[integral(p) for p in polys] for polys, _ in spec.inputs]
    candidates: list[Affine] = []
    for aff, size in zip(out_access, spec.out_sizes, strict=True):
        candidates += _bounds(aff, size)
    for accesses, (_, sizes) in zip(in_access, spec.inputs, strict=True):
        for aff, size in zip(accesses, sizes, strict=True):
            candidates += _bounds(aff, size)
    for poly, bound in spec.constraints:
        candidates += _bounds(integral(poly), bound)

    names = lattice.names
    try:
        box = bounding_box(IndexSpace(names, tuple(candidates)))
    except UnboundedIndex as err:
        raise ContractionProblem(
            f"cannot infer a finite range for index {err.name}; bound it with a constraint "
            f"such as `{err.name} < N`",
            index=err.name if err.name in spec.index_names else None,
        ) from None
    if box is None:
        return _empty(spec)

    # Shift every index to start at 0, as PlaidML does.
    shift = {n: Affine.var(n) + box[n][0] for n in names}
    out_access = [a.substitute(shift) for a in out_access]
    in_access = [[a.substitute(shift) for a in accs] for accs in in_access]
    candidates = [c.substitute(shift) for c in candidates]
    zero_box = {n: (0, hi - lo) for n, (lo, hi) in box.items()}
    constraints = minimal_constraints(names, zero_box, candidates)
    box_cons = [Affine.var(n) for n in names] + [
        Affine.const_(hi) - Affine.var(n) for n, (_, hi) in zero_box.items()
    ]
    space = IndexSpace(names, tuple(box_cons + constraints))

    if spec.agg == "=":
        pair = collision(space, out_access)
        if pair is not None:
            first, second = (_original_point(p, lattice.substitution, box) for p in pair)
            element = ", ".join(str(a.evaluate(pair[0])) for a in out_access)
            raise ContractionProblem(
                f"'=' contraction assigns an element of {output_name} more than once: "
                f"{_format_point(first)} and {_format_point(second)} both write "
                f"{output_name}[{element}]"
            )
    needs_init = not covers(space, out_access, spec.out_sizes)
    return CompiledContraction(
        idxs=tuple(sorted((n, hi + 1) for n, (_, hi) in zero_box.items())),
        output_access=tuple(out_access),
        input_access=tuple(tuple(a) for a in in_access),
        constraints=tuple(constraints),
        needs_init=needs_init,
        empty=False,
    )


def _original_point(
    point: dict[str, int], substitution: Mapping[str, Affine], box: dict[str, tuple[int, int]]
) -> dict[str, int]:
    """Map a point of the shifted lattice back to the user's index variables."""
    unshifted = {n: v + box[n][0] for n, v in point.items()}
    return {n: aff.evaluate(unshifted) for n, aff in substitution.items()}


def _empty(spec: ContractionSpec) -> CompiledContraction:
    """No valid index assignment: the contraction contributes nothing."""
    return CompiledContraction(
        idxs=(),
        output_access=tuple(Affine.const_(0) for _ in spec.output),
        input_access=tuple(tuple(Affine.const_(0) for _ in polys) for polys, _ in spec.inputs),
        constraints=(),
        needs_init=True,
        empty=True,
    )
