"""A block's iteration domain in chunks that fit the interpreter's working set.

The points of a child block, over all points of its parent frame, form a box: (parent point,
*index ranges). When the whole box fits in the points one chunk may hold (the working set over
`point_bytes`, see `plaidc.interp.memory`) it runs at once, in row-major order of (parent
point, indices as declared). Otherwise it is cut into sub-boxes, *chunks*: the axes are ordered
parent point first, then the indices that every aggregating refinement's access uses (parallel
indices: points differing in them write different elements), then the others (reduction
indices), each group in declared order; the innermost axes are kept whole, and the outermost
axis that does not fit is split into ranges. So a chunk holds whole reductions wherever one
reduction (the product of the reduction ranges) fits in a chunk, and its results are final;
only a reduction bigger than a chunk is split, into consecutive ranges of its outermost
reduction indices, whose partial results are combined in chunk order (see
`plaidc.interp.machine.run_block`). Points run in no defined order (STRIPE.md), so the order
of chunks changes no result but the rounding of such a split float reduction.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from plaidc.interp.errors import InterpError
from plaidc.interp.frames import eval_affine
from plaidc.stripe.ir import Block

_AGGREGATING = ("add", "mul", "max", "min")


@dataclass(frozen=True)
class Chunk:
    """A sub-box of the domain: `axes[0]` holds its parent points, `axes[1 + a]` the (local)
    values of index `block.idxs[order[a]]`; its points are their product, row-major."""

    order: tuple[int, ...]
    axes: tuple[np.ndarray, ...]

    @property
    def size(self) -> int:
        return int(np.prod([a.size for a in self.axes], dtype=np.int64))


def _parallel_first(block: Block) -> tuple[int, ...]:
    """Positions of `block.idxs`: the parallel indices, then the reduction indices."""
    accesses = [
        dict(term for access in ref.access for term in access.terms)
        for ref in block.refs
        if ref.from_ is not None and ref.agg_op in _AGGREGATING
    ]
    parallel = [all(idx.name in used for used in accesses) for idx in block.idxs]
    positions = range(len(block.idxs))
    return (*(k for k in positions if parallel[k]), *(k for k in positions if not parallel[k]))


def plan_chunks(block: Block, parents: int, max_points: int, path: str) -> Iterator[Chunk]:
    """Chunks covering the domain box of `block` for `parents` parent points, each of at most
    `max_points` points (at least one)."""
    ranges = [index.range for index in block.idxs]
    for index in block.idxs:
        if index.range < 0:
            raise InterpError(f"{path}: index {index.name} has a negative range {index.range}")
    total = parents * int(np.prod(ranges, dtype=np.int64))
    if total == 0:
        return
    if total <= max_points:
        order = tuple(range(len(ranges)))
        yield Chunk(order, tuple(np.arange(n, dtype=np.int64) for n in (parents, *ranges)))
        return
    order = _parallel_first(block)
    sizes = [parents, *(ranges[k] for k in order)]
    split, inner = len(sizes) - 1, 1
    while inner * sizes[split] <= max_points:  # stops at an axis: the whole box does not fit
        inner *= sizes[split]
        split -= 1
    step = max(1, max_points // inner)
    whole = tuple(np.arange(n, dtype=np.int64) for n in sizes[split + 1 :])
    for fixed in itertools.product(*(range(n) for n in sizes[:split])):
        prefix = tuple(np.array([v], dtype=np.int64) for v in fixed)
        for lo in range(0, sizes[split], step):
            part = np.arange(lo, min(lo + step, sizes[split]), dtype=np.int64)
            yield Chunk(order, (*prefix, part, *whole))


def chunk_domain(
    block: Block, parent_idx: dict[str, np.ndarray], chunk: Chunk, path: str
) -> tuple[int, np.ndarray, dict[str, np.ndarray]]:
    """The points of `chunk` that satisfy the block's constraints: (count, parent point of
    each, index values of each), given the parent points' index values `parent_idx`."""
    shape = tuple(a.size for a in chunk.axes)

    def along(values: np.ndarray, axis: int) -> np.ndarray:
        dims = [1] * len(shape)
        dims[axis] = values.size
        return values.reshape(dims)

    def flat(box: np.ndarray) -> np.ndarray:
        return np.broadcast_to(box, shape).reshape(-1)

    parents = chunk.axes[0]
    parent_id = flat(along(parents, 0))
    env = {name: vals[parents] for name, vals in parent_idx.items()}
    axis_of = {k: axis for axis, k in enumerate(chunk.order, start=1)}
    idx: dict[str, np.ndarray] = {}
    for k, index in enumerate(block.idxs):
        axis = axis_of[k]
        local = along(chunk.axes[axis], axis)
        if index.affine.is_zero:
            idx[index.name] = flat(local)
        else:
            where = f"{path}: start of index {index.name}"
            start = eval_affine(index.affine, env, parents.size, where)
            idx[index.name] = flat(along(start, 0) + local)
    if block.constraints:
        keep = np.ones(parent_id.size, dtype=bool)
        for constraint in block.constraints:
            keep &= eval_affine(constraint.affine, idx, parent_id.size, path) >= 0
        parent_id = parent_id[keep]
        idx = {name: vals[keep] for name, vals in idx.items()}
    return int(parent_id.size), parent_id, idx
