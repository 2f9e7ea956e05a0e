"""`store-in-window`: store a temporary in the window of the buffer that one copy moves it into.

A zero-padded convolution input is a copy: the ONNX import writes `Padded[n, y + 1, x + 1, c]
= =(Relu[n, y, x, c])` after zeroing `Padded`, so the convolution's window needs no bounds.
Each call then zeroes all of `Padded` and copies every element of `Relu` once more (ResNet-50:
17 such copies of up to 1.6 MB). Instead, the kernels that write `Relu` can write the window of
`Padded` directly, and only the border around it needs zeros.

In a block (`reqs`: the programs' `#main`), a local allocation `X` (never `#user`) and the
copy `K` are rewritten when:

* `K` is a leaf block without constraints whose only views are one input of `X` and one plain
  (`assign`) output of a local allocation `Y` of `X`'s element type, and whose statements load
  `X`, optionally `assign` it, and store it into `Y`;
* `K` reads every element of `X` once at the access of its own index (each dimension of `X` one
  index of `K`'s, coefficient 1, over `X`'s whole size), and writes it at `Y`'s access of the
  same indices plus a constant offset per dimension (the window: `X`'s sizes at that offset,
  inside `Y`);
* the statements using `Y` are, in order, one zeroing of all of `Y` (a `#zero` block), `K`, and
  then blocks that only read `Y`; no statement using `X` lies between the zeroing and `K`;
* every statement using `X` is a block whose views of `X` keep `X`'s strides (none reshapes it)
  and which runs no special but `zero`; those after `K` only read `X`; no statement carries
  explicit dependencies.

Then `K` and `X` are removed, every view of `X` refines `Y` at the window's offset with `Y`'s
strides, and the zeroing becomes blocks zeroing only `Y`'s elements outside the window (at most
two slabs per dimension), placed first in the block (where they keep no producers apart). Each
element of `Y` ends as before: the window holds `X`'s values, the rest zeros. Programs whose
copies match nothing are returned unchanged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from plaidc.options import option
from plaidc.passes.localize import restride_below, same_strides_below
from plaidc.passes.registry import register
from plaidc.passes.selection import EXCLUDE_HELP, REQS_SUBTREE_HELP, matches
from plaidc.stripe.ir import (
    Affine,
    Block,
    Intrinsic,
    Load,
    RefDir,
    Refinement,
    Special,
    Statement,
    Store,
    TensorShape,
)
from plaidc.stripe.uses import statement_ref_names


@dataclass(frozen=True)
class StoreInWindowOptions:
    reqs: tuple[str, ...] = option(("main",), REQS_SUBTREE_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)


@register(
    "store-in-window",
    StoreInWindowOptions,
    "write a temporary in the window of the buffer one copy moves it into; zero only the rest",
)
def store_in_window(program: Block, opts: StoreInWindowOptions) -> Block:
    return _walk(program, (), opts)


def _walk(block: Block, temporaries: tuple[str, ...], opts: StoreInWindowOptions) -> Block:
    """Rewrite the outermost matching blocks below `block`; `temporaries`: `block`'s views of
    its parent's temporaries that only `block` uses (the lowering allocates a program's
    temporaries at its root, `#tmp`, and `#main` takes whole views of them)."""
    if matches(block, opts.reqs, opts.exclude):
        return _rewrite_block(block, temporaries)
    own = _own_temporaries(block)
    stmts = tuple(
        _walk(s, tuple(r.into for r in s.refs if r.from_ in own and _only_user(block, s, r)), opts)
        if isinstance(s, Block)
        else s
        for s in block.stmts
    )
    if stmts == block.stmts:
        return block
    used = {name for s in stmts for name in statement_ref_names(s)}
    refs = tuple(r for r in block.refs if r.into not in own or r.into in used)
    return dataclasses.replace(block, refs=refs, stmts=stmts)


def _own_temporaries(block: Block) -> set[str]:
    """`block`'s allocations that hold no program input or output."""
    return {
        r.into
        for r in block.refs
        if r.from_ is None and r.dir is RefDir.NONE and "user" not in r.tags
    }


def _only_user(parent: Block, child: Block, view: Refinement) -> bool:
    """Whether `view` is all of its (parent) buffer and `child` the parent's only user of it."""
    whole = next(r for r in parent.refs if r.into == view.from_)
    if view.shape != whole.shape or not all(a.is_zero for a in view.access):
        return False
    return sum(view.from_ in statement_ref_names(s) for s in parent.stmts) == 1


@dataclass(frozen=True)
class _Copy:
    """A copy `K` (at `position`) of all of `source` into `target` at `offset`."""

    position: int
    source: Refinement  # the block's allocation X
    target: Refinement  # the block's allocation Y
    offset: tuple[int, ...]


def _rewrite_block(block: Block, temporaries: tuple[str, ...]) -> Block:
    if any(s.deps for s in block.stmts):
        return block
    while True:
        allocations = _locals(block, temporaries)
        found = (_window_copy(block, i, s, allocations) for i, s in enumerate(block.stmts))
        copy = next((c for c in found if c is not None), None)
        if copy is None:
            return _zero_around_copies(block, temporaries)
        block = _store_in_window(block, copy)


def _zero_around_copies(block: Block, temporaries: tuple[str, ...]) -> Block:
    """`block` with each zeroing of a whole temporary that the next statement using it
    overwrites in a window (a copy of a program input, or a transposing one) cut to the
    border around that window."""
    allocations = _locals(block, temporaries)
    stmts: list[Statement] = []
    for i, stmt in enumerate(block.stmts):
        names = statement_ref_names(stmt)
        target = allocations.get(next(iter(names))) if len(names) == 1 else None
        if target is None or not _zeroes_all(stmt, target):
            stmts.append(stmt)
            continue
        after = [u for u in _users(block, target.into) if u > i]
        later = block.stmts[after[0]] if after else None
        box = _written_box(later, target) if isinstance(later, Block) else None
        if box is None:
            stmts.append(stmt)
            continue
        assert isinstance(stmt, Block)
        stmts.extend(_border_zeros(stmt, target, box[1], box[0]))
    return dataclasses.replace(block, stmts=tuple(stmts))


def _written_box(copy: Block, target: Refinement) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Offset and sizes of the box of `target` that `copy` writes every element of once
    (its only view of `target`, a plain output, each dimension one of its indices plus a
    constant or a constant), or None."""
    views = [r for r in copy.refs if r.from_ == target.into]
    if copy.constraints or len(views) != 1 or views[0].dir is not RefDir.OUT:
        return None
    (write,) = views
    if write.agg_op not in (None, "assign") or len(write.access) != target.shape.ndims:
        return None
    ranges = {i.name: i.range for i in copy.idxs if i.affine.is_zero}
    if len(ranges) != len(copy.idxs):
        return None
    used: list[str] = []
    offset, sizes = [], []
    for put, full in zip(write.access, target.shape.sizes, strict=True):
        size = 1
        if put.terms:
            if len(put.terms) != 1 or put.terms[0][1] != 1 or put.terms[0][0] not in ranges:
                return None
            used.append(put.terms[0][0])
            size = ranges[put.terms[0][0]]
        if put.const < 0 or put.const + size > full:
            return None
        offset.append(put.const)
        sizes.append(size)
    if len(set(used)) != len(used) or any(r > 1 and n not in used for n, r in ranges.items()):
        return None  # a point of the box written twice
    return tuple(offset), tuple(sizes)


def _locals(block: Block, temporaries: tuple[str, ...]) -> dict[str, Refinement]:
    """`block`'s temporaries: its own and its whole views of its parent's (`temporaries`)."""
    own = _own_temporaries(block)
    return {r.into: r for r in block.refs if r.into in own or r.into in temporaries}


def _window_copy(
    block: Block, position: int, stmt: Statement, allocations: dict[str, Refinement]
) -> _Copy | None:
    """`stmt` as a copy this pass removes, or None."""
    if not isinstance(stmt, Block) or stmt.constraints or len(stmt.refs) != 2:
        return None
    ins = [r for r in stmt.refs if r.dir is RefDir.IN]
    outs = [r for r in stmt.refs if r.dir is RefDir.OUT and r.agg_op in (None, "assign")]
    if len(ins) != 1 or len(outs) != 1:
        return None
    read, write = ins[0], outs[0]
    source, target = allocations.get(read.from_ or ""), allocations.get(write.from_ or "")
    if source is None or target is None or source.into == target.into:
        return None
    if source.shape.dtype != target.shape.dtype or source.shape.ndims != target.shape.ndims:
        return None
    if not _moves_value(stmt, read.into, write.into):
        return None
    offset = _translation(stmt, read, target, source.shape)
    if offset is None:
        return None
    if not _zeroed_then_read(block, position, source.into, target.into, allocations):
        return None
    others = [(i, block.stmts[i]) for i in _users(block, source.into) if i != position]
    for i, user in others:
        if not isinstance(user, Block) or _has_special(user, lambda name: name != "zero"):
            return None  # (a reshape or gather reads its view's elements in a flat order)
        for view in (r for r in user.refs if r.from_ == source.into):
            if view.shape.strides != source.shape.strides:
                return None
            if not same_strides_below(user, view.into, source.shape.strides):
                return None
            if i > position and view.dir is not RefDir.IN:
                return None  # written after the copy: the window would change
    return _Copy(position, source, target, offset)


def _has_special(block: Block, wanted: Callable[[str], bool]) -> bool:
    """Whether `block` or a block below it has a special whose name `wanted` accepts."""
    return any(
        (isinstance(s, Special) and wanted(s.name))
        or (isinstance(s, Block) and _has_special(s, wanted))
        for s in block.stmts
    )


def _moves_value(copy: Block, source: str, target: str) -> bool:
    """Whether `copy`'s statements are `load(source)`, an optional `assign`, `store(target)`."""
    stmts = copy.stmts
    if len(stmts) not in (2, 3) or not isinstance(stmts[0], Load) or stmts[0].from_ != source:
        return False
    value = stmts[0].into
    if len(stmts) == 3:
        step = stmts[1]
        if not (isinstance(step, Intrinsic) and step.name == "assign" and step.inputs == (value,)):
            return False
        if len(step.outputs) != 1:
            return False
        value = step.outputs[0]
    last = stmts[-1]
    return isinstance(last, Store) and last.into == target and last.from_ == value


def _translation(
    copy: Block, read: Refinement, target: Refinement, source: TensorShape
) -> tuple[int, ...] | None:
    """Per dimension, where `copy` writes element 0 of the source in the target, when it reads
    each element of the source once and writes it at that constant offset; else None."""
    box = _written_box(copy, target)
    if box is None or box[1] != source.sizes or len(read.access) != source.ndims:
        return None
    (write,) = (r for r in copy.refs if r.from_ == target.into)
    for got, put in zip(read.access, write.access, strict=True):
        if got.const != 0 or got.terms != put.terms:
            return None
    return box[0]


def _users(block: Block, name: str) -> list[int]:
    return [i for i, s in enumerate(block.stmts) if name in statement_ref_names(s)]


def _zeroed_then_read(
    block: Block, position: int, source: str, target: str, allocations: dict[str, Refinement]
) -> bool:
    """Whether `target`'s users are a zeroing of all of it, the copy at `position` and then
    readers only, and no user of `source` lies between the zeroing and the copy."""
    users = _users(block, target)
    if len(users) < 2 or users[1] != position:
        return False
    if not _zeroes_all(block.stmts[users[0]], allocations[target]):
        return False
    for i in users[2:]:
        later = block.stmts[i]
        if not isinstance(later, Block):
            return False
        if any(r.from_ == target and r.dir is not RefDir.IN for r in later.refs):
            return False
    return not any(users[0] < i < position for i in _users(block, source))


def _zeroes_all(stmt: Statement, whole: Refinement) -> bool:
    """Whether `stmt` is a `#zero` block writing zeros to all of `whole`."""
    if not isinstance(stmt, Block) or "zero" not in stmt.tags or len(stmt.refs) != 1:
        return False
    (ref,) = stmt.refs
    if ref.from_ != whole.into or stmt.idxs or stmt.constraints:
        return False
    body = stmt.stmts
    return (
        ref.dir is RefDir.OUT
        and all(a.is_zero for a in ref.access)
        and ref.shape.sizes == whole.shape.sizes
        and len(body) == 1
        and isinstance(body[0], Special)
        and body[0].name == "zero"
        and body[0].outputs == (ref.into,)
        and not body[0].inputs
    )


def _store_in_window(block: Block, copy: _Copy) -> Block:
    source, target, offset = copy.source, copy.target, copy.offset
    zeroing = _users(block, target.into)[0]
    zero_block = block.stmts[zeroing]
    assert isinstance(zero_block, Block)
    shift = tuple(Affine.const_(o) for o in offset)
    # The border's zeros go first: nothing before the copy used `target` but the zeroing, and
    # between `source`'s producers they would keep them from fusing.
    stmts: list[Statement] = [*_border_zeros(zero_block, target, source.shape.sizes, offset)]
    for i, stmt in enumerate(block.stmts):
        if i in (zeroing, copy.position):
            continue
        if isinstance(stmt, Block) and source.into in statement_ref_names(stmt):
            refs = tuple(
                dataclasses.replace(r, from_=target.into) if r.from_ == source.into else r
                for r in stmt.refs
            )
            retargeted = dataclasses.replace(stmt, refs=refs)
            stmt = restride_below(retargeted, target.into, target.shape.strides, shift)
        stmts.append(stmt)
    refs = tuple(r for r in block.refs if r.into != source.into)
    return dataclasses.replace(block, refs=refs, stmts=tuple(stmts))


def _border_zeros(
    zeroing: Block, target: Refinement, sizes: tuple[int, ...], offset: tuple[int, ...]
) -> list[Block]:
    """Blocks zeroing the elements of `target` outside the window (`sizes` at `offset`): per
    dimension `d`, the slabs before and after the window along `d`, within the window along the
    dimensions before `d` and whole along those after it (disjoint, together the border)."""
    full = target.shape.sizes
    (view,) = zeroing.refs
    slabs: list[Block] = []
    for d in range(len(full)):
        for start, stop in ((0, offset[d]), (offset[d] + sizes[d], full[d])):
            if stop <= start:
                continue
            at = [*offset[:d], start, *([0] * (len(full) - d - 1))]
            extent = [*sizes[:d], stop - start, *full[d + 1 :]]
            shape = dataclasses.replace(view.shape, sizes=tuple(extent))
            ref = dataclasses.replace(view, access=tuple(Affine.const_(a) for a in at), shape=shape)
            slabs.append(
                dataclasses.replace(
                    zeroing,
                    name=f"zero({target.into} border)",
                    comments=(f"Zero {target.into} outside {list(sizes)} at {list(offset)}",),
                    refs=(ref,),
                )
            )
    return slabs
