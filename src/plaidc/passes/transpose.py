"""`transpose`: restride temporary buffers so that their consumers' hot index walks stride 1.

Only fresh allocations are restrided (`none` refinements below the root, and the root's
allocations that are not `#user`): a program's inputs and outputs keep the caller's layout.

*Hot index.* A consumer is a block that loads through a view of the buffer. Its hot index is
the index of its innermost loop, chosen by option `hot` among its indices of range > 1:

* `output` (default): the index that walks the consumer's written views with the smallest
  stride (the loop a backend vectorises, so producer and consumer layouts agree); ties, and
  consumers whose writes no index walks, fall back to the `largest` rule;
* `largest`: the index with the largest range; ties go to the later one in the block's index
  list (the innermost loop of a nest emitted in index order).

The access
of such a load, composed down the views from the allocation, names the hot index in one
dimension of the buffer (a load naming it in several, or in none, expresses no preference);
that dimension gets the load's vote, weighted by the consumer's iteration count (the product of
the index ranges of it and its ancestors). The dimension with the most votes becomes stride 1;
the other dimensions keep their relative order, and the strides are packed densely.

Every view of the buffer (the refinements that refine it, transitively) gets the new strides;
the coordinates a point reaches stay the same, so the program computes the same values. A
buffer with a view whose rank or strides differ from the allocation's (a reshaping view), whose
layout overlaps itself, or that a Special other than `zero` touches is left alone.

Before / after (`T` is read as `T[k, n]` by a consumer whose largest index is `k`):

    none T[0, 0] fp32:I(32, 4):(4, 1)          none T[0, 0] fp32:I(32, 4):(1, 32)
    ...                                        ...
    block [k:32, n:4] (                        block [k:32, n:4] (
        in T[k, n] fp32:I(1, 1):(4, 1)             in T[k, n] fp32:I(1, 1):(1, 32)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from plaidc.analysis import dim_name
from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.passes.selection import EXCLUDE_HELP, map_sub_blocks, matches
from plaidc.stripe.ir import Affine, Block, Load, Refinement, Special, TensorShape

__all__ = [
    "Path",
    "TransposeOptions",
    "allocations",
    "block_at",
    "dense_strides",
    "hot_index",
    "layout_order",
    "only_zeroed_whole",
    "replace_block_at",
    "restride_views",
    "views_consistent",
]

# A block's position in the program: the statement positions leading to it from the root.
Path = tuple[int, ...]


@dataclass(frozen=True)
class TransposeOptions:
    reqs: tuple[str, ...] = option(
        ("all",), 'restride allocations owned in or below blocks carrying all these tags ("all")'
    )
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    hot: Literal["output", "largest"] = option(
        "output",
        "a consumer's hot index: the one its written views use with the smallest stride, or its "
        "largest",
    )


@register("transpose", TransposeOptions, "restride temporaries so the hot index is stride 1")
def transpose(program: Block, opts: TransposeOptions) -> Block:
    result = program
    for path, ref in allocations(program):
        owner = block_at(program, path)
        active = any(matches(b, opts.reqs, opts.exclude) for b in _blocks_on(program, path))
        strides = _choose_strides(owner, ref, opts, active)
        if strides is not None:
            result = replace_block_at(result, path, functools.partial(_restride, ref, strides))
    return result


def _blocks_on(program: Block, path: Path) -> Iterator[Block]:
    """The blocks from the root to the block at `path`, inclusive."""
    for length in range(len(path) + 1):
        yield block_at(program, path[:length])


# --------------------------------------------------------------------------------------------
# Buffers and their views (shared with `pad`)


def allocations(program: Block) -> Iterator[tuple[Path, Refinement]]:
    """Every fresh allocation of the program (not the caller's buffers), with its owner's path,
    outer blocks first."""

    def walk(block: Block, path: Path) -> Iterator[tuple[Path, Refinement]]:
        for ref in block.refs:
            if ref.from_ is None and (path or "user" not in ref.tags):
                yield path, ref
        for pos, stmt in enumerate(block.stmts):
            if isinstance(stmt, Block):
                yield from walk(stmt, (*path, pos))

    yield from walk(program, ())


def block_at(program: Block, path: Path) -> Block:
    block = program
    for pos in path:
        stmt = block.stmts[pos]
        assert isinstance(stmt, Block)
        block = stmt
    return block


def replace_block_at(program: Block, path: Path, fn: Callable[[Block], Block]) -> Block:
    """`program` with the block at `path` replaced by `fn(block)`."""
    if not path:
        return fn(program)
    stmts = list(program.stmts)
    child = stmts[path[0]]
    assert isinstance(child, Block)
    stmts[path[0]] = replace_block_at(child, path[1:], fn)
    return dataclasses.replace(program, stmts=tuple(stmts))


def views_consistent(block: Block, name: str, strides: Sequence[int]) -> bool:
    """Whether every refinement below `block` that refines its ref `name` (transitively) has
    the rank and the strides `strides`, so a restride of `name` carries over dimension-wise."""
    for child in _children_refining(block, name):
        for ref in child.refs:
            if ref.from_ != name:
                continue
            if ref.shape.strides != tuple(strides) or len(ref.access) != len(strides):
                return False
            if not views_consistent(child, ref.into, strides):
                return False
    return True


def only_zeroed_whole(block: Block, name: str) -> bool:
    """Whether no Special but `zero` touches ref `name` of `block` or a view refining it. The
    others (`reshape`, `copy`, `gather`, ...) see a view whole, and a backend may implement them
    on the packed layout, so a buffer they touch keeps its shape and strides."""
    for stmt in block.stmts:
        if (
            isinstance(stmt, Special)
            and stmt.name != "zero"
            and name in (*stmt.inputs, *stmt.outputs)
        ):
            return False
    for child in _children_refining(block, name):
        for ref in child.refs:
            if ref.from_ == name and not only_zeroed_whole(child, ref.into):
                return False
    return True


def restride_views(block: Block, name: str, strides: tuple[int, ...]) -> Block:
    """`block` with every refinement below it that refines its ref `name` (transitively) given
    `strides` (the caller checked `views_consistent`)."""

    def child_fn(child: Block) -> Block:
        if not any(r.from_ == name for r in child.refs):
            return child
        refs = tuple(
            dataclasses.replace(r, shape=dataclasses.replace(r.shape, strides=strides))
            if r.from_ == name
            else r
            for r in child.refs
        )
        child = dataclasses.replace(child, refs=refs)
        for ref in refs:
            if ref.from_ == name:
                child = restride_views(child, ref.into, strides)
        return child

    return map_sub_blocks(block, child_fn)


def dense_strides(sizes: Sequence[int], order: Sequence[int]) -> tuple[int, ...]:
    """Packed strides for `sizes` with the dimensions laid out in `order` (outermost first)."""
    strides = [0] * len(sizes)
    step = 1
    for dim in reversed(order):
        strides[dim] = step
        step *= max(sizes[dim], 1)
    return tuple(strides)


def layout_order(shape: TensorShape) -> list[int]:
    """The dimensions of `shape`, outermost (largest stride) first; ties keep dimension order."""
    return sorted(range(shape.ndims), key=lambda d: -shape.strides[d])


def _children_refining(block: Block, name: str) -> Iterator[Block]:
    for stmt in block.stmts:
        if isinstance(stmt, Block) and any(r.from_ == name for r in stmt.refs):
            yield stmt


# --------------------------------------------------------------------------------------------
# Choosing the layout


def _overlaps(shape: TensorShape) -> bool:
    """Whether two elements of `shape` can share an address (e.g. a broadcast stride 0)."""
    order = layout_order(shape)
    span = 1
    for dim in reversed(order):
        size = shape.sizes[dim]
        if size > 1 and abs(shape.strides[dim]) < span:
            return True
        if size > 1:
            span = abs(shape.strides[dim]) * size
    return False


def _choose_strides(
    owner: Block, ref: Refinement, opts: TransposeOptions, owner_matched: bool
) -> tuple[int, ...] | None:
    shape = ref.shape
    if sum(1 for s in shape.sizes if s > 1) < 2 or _overlaps(shape):
        return None
    if not views_consistent(owner, ref.into, shape.strides):
        return None
    if not only_zeroed_whole(owner, ref.into):
        return None
    votes = [0] * shape.ndims
    origin = tuple(Affine() for _ in shape.sizes)
    depth = 0  # depths are relative to the owner; names only need to be distinct per level
    _vote(owner, ref.into, origin, depth, 1, opts, owner_matched, votes)
    if not any(votes):
        return None
    order = layout_order(shape)
    # The stride of a dimension of size 1 never matters: it is neither innermost nor changed.
    innermost = [d for d in order if shape.sizes[d] > 1][-1]
    # Ties go to the dimension already innermost, then to the lowest dimension.
    hot = max(range(shape.ndims), key=lambda d: (votes[d], d == innermost, -d))
    if shape.sizes[hot] <= 1 or votes[hot] == votes[innermost]:
        return None
    order.remove(hot)
    strides = dense_strides(shape.sizes, [*order, hot])
    moved = any(
        new != old and size > 1
        for new, old, size in zip(strides, shape.strides, shape.sizes, strict=True)
    )
    return strides if moved else None


def _vote(
    block: Block,
    name: str,
    composed: tuple[Affine, ...],
    depth: int,
    count: int,
    opts: TransposeOptions,
    active: bool,
    votes: list[int],
) -> None:
    """Add the votes of the loads through view `name` of `block` (whose element 0 lies at
    `composed` in buffer coordinates) and of everything below it."""
    hot = hot_index(block, opts.hot)
    if active and hot is not None:
        qualified = dim_name(depth, hot)
        dims = [d for d, aff in enumerate(composed) if aff.coeff(qualified) != 0]
        loads = sum(1 for s in block.stmts if isinstance(s, Load) and s.from_ == name)
        if len(dims) == 1 and loads:
            votes[dims[0]] += count * loads
    for stmt in block.stmts:
        if not isinstance(stmt, Block):
            continue
        child_active = active or matches(stmt, opts.reqs, opts.exclude)
        child_count = count * stmt.count
        for ref in stmt.refs:
            if ref.from_ != name:
                continue
            inner = tuple(
                outer + _qualify(acc, depth + 1)
                for outer, acc in zip(composed, ref.access, strict=True)
            )
            _vote(stmt, ref.into, inner, depth + 1, child_count, opts, child_active, votes)


def _qualify(affine: Affine, depth: int) -> Affine:
    return Affine.of([(dim_name(depth, n), c) for n, c in affine.terms], affine.const)


def hot_index(block: Block, rule: str = "output") -> str | None:
    """The index of `block`'s innermost loop under `rule` (see the module docstring), or None
    when no index has a range above 1."""
    ranked: list[tuple[int, int, int, str]] = []
    for pos, idx in enumerate(block.idxs):
        if idx.range <= 1:
            continue
        # Sort key: smallest written stride first (output rule), then largest range, then last.
        stride = _written_stride(block, idx.name) if rule == "output" else None
        ranked.append((-(stride or 0) if stride else _NO_STRIDE, idx.range, pos, idx.name))
    return max(ranked)[3] if ranked else None


# Ranks below every real stride in `hot_index`'s key (negated strides are <= -1).
_NO_STRIDE = -(1 << 62)


def _written_stride(block: Block, name: str) -> int | None:
    """The smallest address step index `name` makes in a view `block` writes, if any."""
    steps = []
    for ref in block.refs:
        if ref.dir.writes:
            step = abs(
                sum(a.coeff(name) * s for a, s in zip(ref.access, ref.shape.strides, strict=False))
            )
            if step:
                steps.append(step)
    return min(steps) if steps else None


def _restride(ref: Refinement, strides: tuple[int, ...], owner: Block) -> Block:
    refs = tuple(
        dataclasses.replace(r, shape=dataclasses.replace(r.shape, strides=strides))
        if r.into == ref.into
        else r
        for r in owner.refs
    )
    return restride_views(dataclasses.replace(owner, refs=refs), ref.into, strides)
