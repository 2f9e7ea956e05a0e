"""The npu pipeline's UB placement, read back by the backend.

The npu pipeline gives each tile of a vector kernel UB copies of its views (`cache` on the
blocks whose points are tiles: a `none` allocation located in UB per view, MTE2 load and MTE3
store transfer blocks around the tile's block) and gives those allocations offsets (`place`).
The Stripe then says where a tile's data lives; this module turns it back into what the kernel
flattener reads and keeps the pass's decisions beside it:

    block [b:16] #npu_tiles (                      block [b:16] #npu_tiles (
        none new@0x5dc0 X<UB>[0, 0] ...                in X = X[4*b, 0] ...
        in X_raw = X[4*b, 0] ...              ->    ) {
    ) {                                              0: block [b:4, n:3000] #npu_tile (
      0: block<MTE2> (load_X) ...                        in X[b, n] ... ) { ... }
      1: block [b:4, n:3000] #npu_tile (            }
          in X<UB>[b, n] ... ) { ... }              placed: {X: Placed(0x5dc0, 48000)}
    }

Each local copy becomes its original view again (the `_raw` refinement, under the local
copy's name), its transfer blocks go, and the views below it get the original's strides and
the box origin the transfers name. The backend then runs the tile's block as before and puts
the tile's UB window of each placed view at the pass's offset (`vector.TileLowering`). A block
whose copies do not have this exact form (anything `cache` would not produce) is left as it is.

A Cube K step comes framed: the pipeline wraps its block in two one-point frames (`stencil`
with `whole`) and `cache` gives the outer one L1 copies of the operands and the inner one their
L0A/L0B copies and the L0C accumulator. Those copies are turned back into views the same way
(`CUBE_MEMS`), each frame is merged into the block it holds, and the placements go with the
step's UB ones, keyed by memory (`gemm.Gemm` puts the fractals and accumulators there).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from plaidc.analysis.liveness import allocation_bytes
from plaidc.stripe.ir import Affine, Block, Load, Refinement, Statement, Store, Tags


@dataclass(frozen=True)
class Placed:
    """A view's UB copy as the pass pipeline placed it: `offset` bytes into a tile's share
    of UB, `size` bytes long."""

    offset: int
    size: int
    mem: str = "UB"


# Blocks (by identity, in the program `uncache` returns) -> (memory, view) -> placement.
Placements = dict[int, dict[tuple[str, str], Placed]]

# The Cube's buffers, which the npu pipeline gives each K step copies in (one-point frames
# around the step's block, `stencil` with `whole`).
CUBE_MEMS = ("L1", "L0A", "L0B", "L0C")


def uncache(program: Block, mem: str, tile_tag: str) -> tuple[Block, Placements]:
    """`program` with the `mem` copies of the blocks over tiles (the parents of blocks tagged
    `tile_tag`) turned back into their views (module docstring), and where the pipeline
    placed them."""
    placements: Placements = {}
    return _walk(program, mem, tile_tag, placements), placements


def _walk(block: Block, mem: str, tile_tag: str, placements: Placements) -> Block:
    if tile_tag and any(isinstance(s, Block) and tile_tag in s.tags for s in block.stmts):
        framed: dict[tuple[str, str], Placed] = {}
        stmts = tuple(_unframe(s, framed) if isinstance(s, Block) else s for s in block.stmts)
        if stmts != block.stmts:
            block = dataclasses.replace(block, stmts=stmts)
        found = _uncache_block(block, (mem,))
        if found is not None:
            new, placed = found
            placements[id(new)] = {**placed, **framed}
            return new
    stmts = tuple(
        _walk(s, mem, tile_tag, placements) if isinstance(s, Block) else s for s in block.stmts
    )
    return dataclasses.replace(block, stmts=stmts) if stmts != block.stmts else block


def _unframe(block: Block, placed: dict[tuple[str, str], Placed]) -> Block:
    """`block` (a child of a block over tiles) with the Cube's copies below it turned back
    into views, and the one-point frames that held them merged into the block they frame;
    their placements go to `placed`, under the names of `block`'s parent."""
    below: dict[tuple[str, str], Placed] = {}
    stmts = tuple(_unframe(s, below) if isinstance(s, Block) else s for s in block.stmts)
    if stmts != block.stmts:
        block = dataclasses.replace(block, stmts=stmts)
    found = _uncache_block(block, CUBE_MEMS)
    if found is None:
        return block
    block, copies = found
    below.update(copies)
    frame = _merge_frame(block)
    if frame is None:
        return block
    for (mem, name), where in below.items():
        ref = block.ref(name)
        if ref is not None and ref.from_ is not None:
            placed[mem, ref.from_] = where
    return frame


def _merge_frame(frame: Block) -> Block | None:
    """The block a one-point frame holds (`stencil` with `whole`), its views made views of
    the frame's parent, its passthrough indices over the frame's made passthroughs over the
    parent's, and its tags the frame's too; None when `frame` is no such frame."""
    if len(frame.stmts) != 1 or not isinstance(frame.stmts[0], Block) or frame.constraints:
        return None
    inner = frame.stmts[0]
    if any(i.range != 1 for i in frame.idxs) or any(r.from_ is None for r in frame.refs):
        return None
    value = {i.name: i.affine for i in frame.idxs}  # over the parent's indices
    refs = []
    for ref in inner.refs:
        outer = frame.ref(ref.from_) if ref.from_ is not None else None
        if ref.from_ is not None and outer is None:
            return None
        if outer is not None:
            origin = [a.substitute(value) for a in outer.access]
            access = tuple(o + a for o, a in zip(origin, ref.access, strict=True))
            ref = dataclasses.replace(ref, from_=outer.from_, access=access)
        refs.append(ref)
    idxs = tuple(dataclasses.replace(i, affine=i.affine.substitute(value)) for i in inner.idxs)
    tags = Tags(frame.tags.items + tuple(t for t in inner.tags.items if t[0] not in frame.tags))
    return dataclasses.replace(inner, idxs=idxs, refs=tuple(refs), tags=tags, deps=frame.deps)


@dataclass
class _Copy:
    local: Refinement
    raw: Refinement | None = None
    origin: tuple[Affine, ...] | None = None


def _located_in(ref: Refinement, mems: tuple[str, ...]) -> bool:
    return ref.from_ is None and ref.location is not None and ref.location.units[0].name in mems


def _uncache_block(
    block: Block, mems: tuple[str, ...]
) -> tuple[Block, dict[tuple[str, str], Placed]] | None:
    copies = {r.into: _Copy(r) for r in block.refs if _located_in(r, mems)}
    if not copies:
        return None
    refs = {r.into: r for r in block.refs}
    transfers: set[int] = set()
    for k, stmt in enumerate(block.stmts):
        if isinstance(stmt, Block) and _is_transfer(stmt, copies, refs):
            transfers.add(k)
            if not _record(stmt, copies, refs):
                return None
    if any(c.raw is None or c.origin is None for c in copies.values()):
        return None
    # The copies' names now name the original views again; only the transfers used those.
    raw_names = {c.raw.into for c in copies.values() if c.raw is not None}
    for k, stmt in enumerate(block.stmts):
        if k in transfers:
            continue
        if not isinstance(stmt, Block) or any(r.from_ in raw_names for r in stmt.refs):
            return None
    new_refs = [r for r in block.refs if r.into not in copies and r.into not in raw_names]
    for name, copy in copies.items():
        assert copy.raw is not None
        new_refs.append(dataclasses.replace(copy.raw, into=name, tags=copy.local.tags))
    kept = [k for k in range(len(block.stmts)) if k not in transfers]
    renumber = {old: new for new, old in enumerate(kept)}
    stmts: list[Statement] = []
    for k in kept:
        stmt = block.stmts[k]
        deps = tuple(renumber[d] for d in stmt.deps if d in renumber)
        if isinstance(stmt, Block):
            stmt = _restride_children(stmt, copies, shift=True)
        stmts.append(dataclasses.replace(stmt, deps=deps))
    new = dataclasses.replace(block, refs=tuple(new_refs), stmts=tuple(stmts))
    placed = {}
    for name, c in copies.items():
        assert c.local.location is not None
        mem = c.local.location.units[0].name
        placed[mem, name] = Placed(c.local.offset, allocation_bytes(c.local), mem)
    return new, placed


def _is_transfer(stmt: Block, copies: dict[str, _Copy], refs: dict[str, Refinement]) -> bool:
    """A load or store transfer of one copy: two views, one of a copy and one of another
    refinement of the block, and one element loaded from one and stored into the other."""
    if len(stmt.refs) != 2 or len(stmt.stmts) != 2:
        return False
    load, store = stmt.stmts
    if not (isinstance(load, Load) and isinstance(store, Store) and store.from_ == load.into):
        return False
    sources = [r.from_ for r in stmt.refs]
    return sum(s in copies for s in sources) == 1 and all(s in refs for s in sources)


def _record(stmt: Block, copies: dict[str, _Copy], refs: dict[str, Refinement]) -> bool:
    """Note the original view and the box origin a transfer names; False when they disagree
    with another transfer's or are not constant offsets."""
    local = next(r for r in stmt.refs if r.from_ in copies)
    other = next(r for r in stmt.refs if r is not local)
    assert local.from_ is not None and other.from_ is not None
    if other.from_ in copies or len(local.access) != len(other.access):
        return False
    origin = tuple(o - loc for o, loc in zip(other.access, local.access, strict=True))
    if any(a.terms for a in origin):
        return False
    raw = refs[other.from_]
    copy = copies[local.from_]
    if raw.shape.ndims != copy.local.shape.ndims:
        return False
    if copy.raw is not None and (copy.raw != raw or copy.origin != origin):
        return False
    copy.raw, copy.origin = raw, origin
    return True


def _restride_children(block: Block, copies: dict[str, _Copy], shift: bool) -> Block:
    """`block` with its views of the copies (named in `copies`) turned into views of the
    originals: the originals' strides and location, and (`shift`: directly below the tile
    block) the box origin added to the access; views below them likewise, unshifted."""
    below: dict[str, _Copy] = {}
    refs = []
    for ref in block.refs:
        copy = copies.get(ref.from_) if ref.from_ is not None else None
        if copy is None or copy.raw is None or copy.origin is None:
            refs.append(ref)
            continue
        access = ref.access
        if shift:
            access = tuple(a + o for a, o in zip(ref.access, copy.origin, strict=True))
        shape = dataclasses.replace(ref.shape, strides=copy.raw.shape.strides)
        location = copy.raw.location
        refs.append(dataclasses.replace(ref, access=access, shape=shape, location=location))
        below[ref.into] = copy
    if not below:
        return block
    stmts = tuple(
        _restride_children(s, below, shift=False) if isinstance(s, Block) else s
        for s in block.stmts
    )
    return dataclasses.replace(block, refs=tuple(refs), stmts=stmts)
