"""Flat layouts: whether the points of an index box land on distinct buffer offsets.

A kernel that writes a box of a buffer (a GEMM micro-kernel's rows of C, each a run of
columns, and the boxes of several calls) may only overwrite or keep elements in registers when
no two points of the box reach one element: the flat offset `sum(stride_d * x_d)` over the box
`0 <= x_d < extent_d` must be injective. isl answers that exactly, for any strides (negative,
interleaved, or rows that step over part of another row), where stride arithmetic covers only
nested, positive layouts.
"""

from __future__ import annotations

from collections.abc import Sequence

import islpy as isl

from plaidc.analysis.space import aff_from_affine, dim_name, set_space
from plaidc.stripe.ir import Affine

__all__ = ["distinct_offsets"]


def distinct_offsets(dims: Sequence[tuple[int, int]], ctx: isl.Context | None = None) -> bool:
    """Whether distinct points of the box `0 <= x_d < extent_d` have distinct flat offsets
    `sum(stride_d * x_d)`, for `dims` = `(extent_d, stride_d)` pairs (an empty box: True)."""
    if any(extent <= 0 for extent, _ in dims):
        return True
    ctx = ctx if ctx is not None else isl.DEFAULT_CONTEXT
    names = [f"x{d}" for d in range(len(dims))]
    space = set_space(ctx, [dim_name(0, name) for name in names])
    box = isl.BasicSet.universe(space)
    ls = isl.LocalSpace.from_space(space)
    for pos, (extent, _) in enumerate(dims):
        low = isl.Constraint.inequality_alloc(ls).set_coefficient_val(isl.dim_type.set, pos, 1)
        high = isl.Constraint.inequality_alloc(ls).set_coefficient_val(isl.dim_type.set, pos, -1)
        box = box.add_constraint(low).add_constraint(high.set_constant_val(extent - 1))
    offset = Affine(tuple((name, stride) for name, (_, stride) in zip(names, dims, strict=True)), 0)
    flat = isl.Map.from_aff(aff_from_affine(space, offset, 0))
    return bool(flat.intersect_domain(isl.Set.from_basic_set(box)).is_injective())
