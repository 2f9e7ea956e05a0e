"""Polyhedral analysis of Stripe over islpy: the one place polyhedral questions are answered.

Bounds, footprints, disjointness, dependences, point counts and loop bounds for code generation
all go through this package, so passes and backends share one model of the IR:

* `space`   — naming (`x@d` for index `x` at depth `d`, `@c0...` for element coordinates) and
  conversions between Stripe `Affine`s and isl objects.
* `domain`  — iteration domains of root-to-block chains (`block_domain`, `DomainCache`), point
  counts, min/max of affines, sample points, constraint simplification.
* `access`  — access relations of refinements, `trace` of a statement's accesses up to the owning
  buffer, footprints, injectivity (`sharing_points`) and overlap of accesses.
* `loops`   — isl loop ASTs scanning a block's domain.
* `layout`  — whether a box of indices lands on distinct flat offsets (`distinct_offsets`).
* `inplace` — whether a block may write its output over a temporary it reads.

A *chain* is a sequence of nested blocks, root first; its last block is the one asked about.
Create one `DomainCache` per traversal (never a global one) and pass it to the functions taking
`domains=` to share isl objects between questions about one program.
"""

from plaidc.analysis.access import (
    LeafAccess,
    LevelAccess,
    Lifted,
    access_map,
    accesses_through,
    disjoint,
    footprint,
    footprint_box,
    footprint_extent,
    leaf_elements,
    lift,
    overlapping_points,
    resolve_view,
    sharing_points,
    statement_accesses,
    trace,
    view_box,
)
from plaidc.analysis.domain import (
    DomainCache,
    affine_bounds,
    block_domain,
    chain_dims,
    dim_bounds,
    extend_domain,
    format_point,
    implied_constraints,
    index_bounds,
    outer_as_params,
    point_count,
    project_to_depth,
    sample,
    sample_pair,
    simplify_constraints,
)
from plaidc.analysis.layout import distinct_offsets
from plaidc.analysis.loops import ast_children, loop_ast
from plaidc.analysis.space import (
    AnalysisError,
    AnalysisTooComplex,
    ScopeError,
    aff_from_affine,
    affine_from_aff,
    affine_from_constraint,
    coord_names,
    dim_name,
    map_from_affines,
    split_dim_name,
)

__all__ = [
    "AnalysisError",
    "AnalysisTooComplex",
    "DomainCache",
    "LeafAccess",
    "LevelAccess",
    "Lifted",
    "ScopeError",
    "access_map",
    "accesses_through",
    "aff_from_affine",
    "affine_bounds",
    "affine_from_aff",
    "affine_from_constraint",
    "ast_children",
    "block_domain",
    "chain_dims",
    "coord_names",
    "dim_bounds",
    "dim_name",
    "disjoint",
    "distinct_offsets",
    "extend_domain",
    "footprint",
    "footprint_box",
    "footprint_extent",
    "format_point",
    "implied_constraints",
    "index_bounds",
    "leaf_elements",
    "lift",
    "loop_ast",
    "map_from_affines",
    "outer_as_params",
    "overlapping_points",
    "point_count",
    "project_to_depth",
    "resolve_view",
    "sample",
    "sample_pair",
    "sharing_points",
    "simplify_constraints",
    "split_dim_name",
    "statement_accesses",
    "trace",
    "view_box",
]
