"""`locate-memory`, `locate-block`, `locate-inner-block`: place buffers and blocks on hardware.

A location names a memory or compute unit, optionally banked by affine indices, in Stripe's
location syntax: `DRAM`, `SRAM[0]`, `BANK[i]`, `A[0]/B[i + 1]` (option `loc`, a string; the
empty default leaves the program unchanged). Locations carry no semantics (the interpreter
ignores them); passes further down (placement, caching) and the backends read them.

* `locate-memory`: every allocation (`none` refinement) of a matched block gets `loc`, and so
  does every refinement below that refines it (PlaidML's FixupRefs), so that each view of the
  buffer says where it lives. `ref_reqs` restricts it to allocations carrying all those tags
  (e.g. `tmp`). A location indexed by the block's own indices (`BANK[i]`) is set on the
  allocation only: those indices are out of scope in the children.
* `locate-block`: the matched block itself gets `loc`.
* `locate-inner-block`: every block nested (at any depth) in a matched block and carrying all
  of `inner_reqs` gets `loc`.

A location whose indices are not indices of the block it would be set on is skipped for that
block, so the output stays well formed.

Before / after `--pass locate-memory{reqs=[program],loc=DRAM}`:

    block []:1 (                                   block []:1 (
        #user none A[0] fp32:I(4):(1)                  #user none A<DRAM>[0] fp32:I(4):(1)
    ) {                                            ) {
      0: block [i:4]:4 (                             0: block [i:4]:4 (
          out A[i] fp32:I(1):(1)                         out A<DRAM>[i] fp32:I(1):(1)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from plaidc.options import option
from plaidc.passes.registry import location_option, register
from plaidc.passes.selection import (
    EXCLUDE_HELP,
    REQS_OUTERMOST_HELP,
    map_sub_blocks,
    matches,
    rewrite_matching,
)
from plaidc.stripe.ir import Block, Location, Refinement
from plaidc.stripe.uses import location_affines


def _in_scope(loc: Location, block: Block) -> bool:
    names = {i.name for i in block.idxs}
    return all(n in names for a in location_affines(loc) for n in a.names())


def _is_constant(loc: Location) -> bool:
    return all(a.is_constant for a in location_affines(loc))


# --------------------------------------------------------------------------------------------
# locate-memory


@dataclass(frozen=True)
class LocateMemoryOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_OUTERMOST_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    loc: str = option(
        "",
        "location of the matched blocks' allocations and their views below, e.g. DRAM or "
        "BANK[i] (empty: the pass does nothing)",
    )
    ref_reqs: tuple[str, ...] = option((), "locate only allocations carrying all these tags")

    def __post_init__(self) -> None:
        location_option(self.loc, "locate-memory")


@register("locate-memory", LocateMemoryOptions, "set the location of allocations (and views)")
def locate_memory(program: Block, opts: LocateMemoryOptions) -> Block:
    loc = location_option(opts.loc, "locate-memory")
    if loc is None:
        return program
    return rewrite_matching(
        program, opts.reqs, lambda b: _locate_allocs(b, loc, opts), opts.exclude
    )


def _locate_allocs(block: Block, loc: Location, opts: LocateMemoryOptions) -> Block:
    if not _in_scope(loc, block):
        return block
    located = {r.into for r in block.refs if r.is_allocation and r.tags.has_all(opts.ref_reqs)}
    if not located:
        return block
    refs = tuple(_with_location(r, loc) if r.into in located else r for r in block.refs)
    if refs != block.refs:
        block = dataclasses.replace(block, refs=refs)
    if not _is_constant(loc):
        return block
    return map_sub_blocks(block, lambda child: _propagate(child, located, loc))


def _propagate(block: Block, names: set[str], loc: Location) -> Block:
    """Give `loc` to the refinements of `block` that refine one of `names` (views of located
    buffers in its parent), and recursively to the views of those below."""
    views = {r.into for r in block.refs if r.from_ in names}
    if not views:
        return block
    refs = tuple(_with_location(r, loc) if r.into in views else r for r in block.refs)
    block = dataclasses.replace(block, refs=refs) if refs != block.refs else block
    return map_sub_blocks(block, lambda child: _propagate(child, views, loc))


def _with_location(ref: Refinement, loc: Location) -> Refinement:
    return ref if ref.location == loc else dataclasses.replace(ref, location=loc)


# --------------------------------------------------------------------------------------------
# locate-block, locate-inner-block


@dataclass(frozen=True)
class LocateBlockOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_OUTERMOST_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    loc: str = option(
        "", "location of the matched blocks, e.g. SRAM[0] (empty: the pass does nothing)"
    )

    def __post_init__(self) -> None:
        location_option(self.loc, "locate-block")


@register("locate-block", LocateBlockOptions, "set the location of matched blocks")
def locate_block(program: Block, opts: LocateBlockOptions) -> Block:
    loc = location_option(opts.loc, "locate-block")
    if loc is None:
        return program
    return rewrite_matching(program, opts.reqs, lambda b: _set_block_location(b, loc), opts.exclude)


def _set_block_location(block: Block, loc: Location) -> Block:
    if block.location == loc or not _in_scope(loc, block):
        return block
    return dataclasses.replace(block, location=loc)


@dataclass(frozen=True)
class LocateInnerBlockOptions:
    reqs: tuple[str, ...] = option(
        ("all",), 'search the outermost blocks that carry all these tags ("all": every block)'
    )
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    loc: str = option(
        "", "location of the blocks found inside them, e.g. A[0]/B[i] (empty: do nothing)"
    )
    inner_reqs: tuple[str, ...] = option(
        ("all",), "locate the blocks at any depth inside a match that carry all these tags"
    )

    def __post_init__(self) -> None:
        location_option(self.loc, "locate-inner-block")


@register(
    "locate-inner-block", LocateInnerBlockOptions, "set the location of blocks inside matched ones"
)
def locate_inner_block(program: Block, opts: LocateInnerBlockOptions) -> Block:
    loc = location_option(opts.loc, "locate-inner-block")
    if loc is None:
        return program

    def locate_below(block: Block) -> Block:
        def visit(child: Block) -> Block:
            child = map_sub_blocks(child, visit)
            if matches(child, opts.inner_reqs):
                return _set_block_location(child, loc)
            return child

        return map_sub_blocks(block, visit)

    return rewrite_matching(program, opts.reqs, locate_below, opts.exclude)
