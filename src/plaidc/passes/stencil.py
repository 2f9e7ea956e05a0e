"""`stencil`: tile a block to a fixed hardware stencil (a GEMM micro-kernel, a matrix cube).

A stencil is a list of index rules, each `name:size:outs:ins`. A rule matches a block index
when the index's flat stride (`sum(coeff * stride)` over the dimensions of a refinement's
access) in each output refinement and each input refinement is the one the rule asks for:
`outs` and `ins` are `/`-separated lists with one entry per output (`out`/`inout`) and per
input (`in`) refinement, each an integer stride or `*` for any. `size` is the number of
iterations of that index the hardware takes at once (`*`: the whole range). Rules are separated
by spaces; the option `stencils` lists the stencils (no commas inside one), e.g. a 16x16x16
matrix unit reading A[m, k] and B[k, n] with unit-stride rows and writing C[m, n]:

    stencils = ["m:16:*:*/0 n:16:1:0/1 k:16:0:1/*"]

As PlaidML's stencil pass does, every assignment of rules to distinct indices and of the
stencil's input and output positions to the block's refinements is tried (an index the block
lacks may be matched by a virtual index of range 1 that no access uses); each match costs
`prod(ceil(range/tile) * tile) + startup_cost * prod(ceil(range/tile))` over the block's
indices (unmatched ones tile by 1), the cheapest wins (ties: index-wise names and sizes), and
with `is_strict_dims` a match whose tile does not divide its index's range is refused.

The block is then split (`tiling.tile_block`) into an outer block over tiles (tags kept, plus
`outer_set`) and an inner block over one stencil application (`inner_set`): its matched indices
carry `#stencil #stencil_<rule>`, its matched inputs the `input_tags` in stencil order (`#A`,
`#B`) and its outputs the `output_tags` (`#C`). A stencil larger than the index's range is cut
to the range. Blocks with whole-buffer Specials, without indices, or whose matched index cannot
be split (a start over the parent's indices) are left alone. No stencils (the default): no-op.

With `whole`, the match only chooses the roles: every index stays whole, so the outer block is
a one-point frame around the tagged inner block, a level at which `cache` can give the block
copies of its whole views (the npu pipeline frames a Cube K step twice, for its L1 copies and
for its L0A/L0B/L0C ones, and `cache` picks the operands by the `#A #B #C` tags).

Before / after (`stencils=["m:16:*:*/0 n:16:1:0/1 k:16:0:1/*"]`, A 32x64, B 64x48):

    block [i:32, j:48, k:64] (                 #mac block [i:2, j:3, k:4] (
        in A[i, k] :(64, 1)                        in A[16*i, 16*k] fp32:I(16, 16):(64, 1)
        in B[k, j] :(48, 1)                        in B[16*k, 16*j] fp32:I(16, 16):(48, 1)
        out C[i, j]:add :(48, 1)                   out C[16*i, 16*j]:add fp32:I(16, 16):(48, 1)
    ) { ... }                                  ) {
                                                 #mac_inner block [(#stencil #stencil_m i:16),
                                                   (#stencil #stencil_n j:16),
                                                   (#stencil #stencil_k k:16)] (
                                                     #A in A[i, k] ...  #B in B[k, j] ...
                                                     #C out C[i, j]:add ...
                                                 ) { ... }
                                               }
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from plaidc.options import option
from plaidc.passes.registry import PassOptionError, register
from plaidc.passes.selection import EXCLUDE_HELP, REQS_OUTERMOST_HELP, map_sub_blocks, matches
from plaidc.passes.tiling import TilingError, tile_block, tileable_range
from plaidc.stripe.ir import Block, Index, RefDir, Refinement, Special

# --------------------------------------------------------------------------------------------
# Stencil specs


@dataclass(frozen=True)
class StencilRule:
    """One index of a stencil: its name (`m`, `n`, `k`), the tile size (None: the whole
    range) and the flat stride required in each output and each input (None: any)."""

    name: str
    size: int | None
    outs: tuple[int | None, ...]
    ins: tuple[int | None, ...]


_RULE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*):(\*|\d+):([^:]*):([^:]*)$")


def parse_stencil(text: str) -> tuple[StencilRule, ...]:
    """Parse one stencil (`name:size:outs:ins` rules separated by spaces). Raises ValueError
    with a message saying what is wrong."""
    rules = []
    for word in text.split():
        m = _RULE.match(word)
        if m is None:
            raise ValueError(f"rule '{word}' is not name:size:outs:ins (e.g. n:16:1:0/1)")
        size = None if m.group(2) == "*" else int(m.group(2))
        if size == 0:
            raise ValueError(f"rule '{word}': the size must be positive")
        rules.append(StencilRule(m.group(1), size, _strides(m.group(3)), _strides(m.group(4))))
    if not rules:
        raise ValueError("a stencil needs at least one rule")
    if len({r.name for r in rules}) != len(rules):
        raise ValueError(f"stencil '{text}' names an index twice")
    if len({(len(r.outs), len(r.ins)) for r in rules}) != 1:
        raise ValueError(f"the rules of stencil '{text}' disagree on the number of refinements")
    return tuple(rules)


def _strides(text: str) -> tuple[int | None, ...]:
    if not text:
        return ()
    out: list[int | None] = []
    for item in text.split("/"):
        if item == "*":
            out.append(None)
        elif re.fullmatch(r"-?\d+", item):
            out.append(int(item))
        else:
            raise ValueError(f"stride '{item}' is not an integer or '*'")
    return tuple(out)


def _parse_all(texts: Sequence[str]) -> list[tuple[StencilRule, ...]]:
    try:
        return [parse_stencil(t) for t in texts]
    except ValueError as err:
        raise PassOptionError(f"pass 'stencil': option 'stencils': {err}") from None


# --------------------------------------------------------------------------------------------
# Options and the pass


@dataclass(frozen=True)
class StencilOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_OUTERMOST_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    stencils: tuple[str, ...] = option(
        (),
        'stencils of space-separated rules name:size:outs:ins, e.g. "m:16:*:*/0 n:16:1:0/1" '
        "(none: the pass does nothing)",
    )
    startup_cost: int = option(
        0, "cost of one stencil application, added per tile to the padded points", min=0
    )
    outer_set: tuple[str, ...] = option(
        (), "tags added to the outer block (over the tiles), which keeps the original's tags"
    )
    inner_set: tuple[str, ...] = option((), "tags of the inner block (one stencil application)")
    input_tags: tuple[str, ...] = option(
        ("A", "B"), "tags of the matched inputs of the inner block, in the stencil's order"
    )
    output_tags: tuple[str, ...] = option(
        ("C",), "tags of the matched outputs of the inner block, in the stencil's order"
    )
    is_strict_dims: bool = option(
        False, "refuse a match whose tile size does not divide its index's range"
    )
    whole: bool = option(
        False, "keep every index whole: the outer block is a one-point frame (a level to cache)"
    )

    def __post_init__(self) -> None:
        _parse_all(self.stencils)


@register("stencil", StencilOptions, "tile blocks to fixed hardware stencils")
def stencil(program: Block, opts: StencilOptions) -> Block:
    specs = _parse_all(opts.stencils)
    if not specs:
        return program
    return _walk(program, (), specs, opts)


def _walk(
    block: Block,
    ancestors: tuple[Block, ...],
    specs: Sequence[tuple[StencilRule, ...]],
    opts: StencilOptions,
) -> Block:
    if matches(block, opts.reqs, opts.exclude):
        return _apply(block, ancestors, specs, opts)
    chain = (*ancestors, block)
    return map_sub_blocks(block, lambda child: _walk(child, chain, specs, opts))


@dataclass(frozen=True)
class StencilMatch:
    """The chosen stencil: per block index the rule it matched (None) and its tile size; the
    inputs and outputs in the stencil's order."""

    cost: int
    tiles: tuple[tuple[str, str | None, int], ...]
    ins: tuple[str, ...]
    outs: tuple[str, ...]

    def key(self) -> tuple[int, tuple[tuple[str, str, int], ...]]:
        # PlaidML orders equal costs by (index, rule, size) with unmatched rules as "*".
        return self.cost, tuple((i, r or "*", t) for i, r, t in self.tiles)


def _apply(
    block: Block,
    ancestors: tuple[Block, ...],
    specs: Sequence[tuple[StencilRule, ...]],
    opts: StencilOptions,
) -> Block:
    if not block.idxs or any(isinstance(s, Special) for s in block.stmts):
        return block
    match = find_best_stencil(block, specs, opts.startup_cost, opts.is_strict_dims)
    if match is None:
        return block
    ranges = {i.name: i.range for i in block.idxs}
    sizes = {} if opts.whole else {name: min(tile, ranges[name]) for name, _, tile in match.tiles}
    try:
        outer = tile_block(
            block,
            sizes,
            outer_tags=opts.outer_set,
            inner_tags=opts.inner_set,
            ancestors=ancestors,
        )
    except TilingError:
        return block
    (inner,) = outer.stmts
    assert isinstance(inner, Block)
    rules = {name: rule for name, rule, _ in match.tiles if rule is not None}
    idxs = tuple(_tag_index(i, rules.get(i.name)) for i in inner.idxs)
    ref_tags = dict(zip(match.ins, opts.input_tags, strict=False))
    ref_tags.update(zip(match.outs, opts.output_tags, strict=False))
    refs = tuple(
        dataclasses.replace(r, tags=r.tags.add(ref_tags[r.into])) if r.into in ref_tags else r
        for r in inner.refs
    )
    inner = dataclasses.replace(inner, idxs=idxs, refs=refs)
    return dataclasses.replace(outer, stmts=(inner,))


def _tag_index(idx: Index, rule: str | None) -> Index:
    if rule is None:
        return idx
    return dataclasses.replace(idx, tags=idx.tags.add("stencil", f"stencil_{rule}"))


def flat_stride(ref: Refinement, index: str) -> int:
    """How far one step of `index` moves `ref`'s element 0 in the underlying buffer."""
    return sum(a.coeff(index) * s for a, s in zip(ref.access, ref.shape.strides, strict=False))


def find_best_stencil(
    block: Block,
    specs: Sequence[tuple[StencilRule, ...]],
    startup_cost: int,
    is_strict_dims: bool,
) -> StencilMatch | None:
    """The cheapest way to tile `block` to one of `specs` (see the module docstring), or
    None when no stencil matches."""
    ins = [r for r in block.refs if r.dir == RefDir.IN]
    outs = [r for r in block.refs if r.dir in (RefDir.OUT, RefDir.INOUT)]
    best: StencilMatch | None = None
    for spec in specs:
        if any(len(rule.ins) != len(ins) or len(rule.outs) != len(outs) for rule in spec):
            continue
        # Indices the block lacks are virtual: range 1, unused by every access.
        virtual = max(0, len(spec) - len(block.idxs))
        names = [i.name for i in block.idxs] + [None] * virtual
        for in_order in itertools.permutations(ins):
            for out_order in itertools.permutations(outs):
                for assignment in _assignments(spec, names, in_order, out_order):
                    match = _build(block, spec, assignment, in_order, out_order, startup_cost)
                    if match is None or (is_strict_dims and not _divides(block, match)):
                        continue
                    if best is None or match.key() < best.key():
                        best = match
    return best


def _assignments(
    spec: Sequence[StencilRule],
    names: Sequence[str | None],
    ins: Sequence[Refinement],
    outs: Sequence[Refinement],
) -> Iterator[tuple[str | None, ...]]:
    """Every assignment of the rules (in order) to distinct indices whose strides fit."""

    def fits(rule: StencilRule, name: str | None) -> bool:
        wanted = (*rule.ins, *rule.outs)
        for want, ref in zip(wanted, (*ins, *outs), strict=True):
            have = 0 if name is None else flat_stride(ref, name)
            if want is not None and want != have:
                return False
        return True

    candidates = [[k for k, n in enumerate(names) if fits(rule, n)] for rule in spec]

    def extend(pos: int, used: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if pos == len(spec):
            yield used
            return
        for k in candidates[pos]:
            if k not in used:
                yield from extend(pos + 1, (*used, k))

    for chosen in extend(0, ()):
        yield tuple(names[k] for k in chosen)


def _build(
    block: Block,
    spec: Sequence[StencilRule],
    assignment: Sequence[str | None],
    ins: Sequence[Refinement],
    outs: Sequence[Refinement],
    startup_cost: int,
) -> StencilMatch | None:
    by_index = {name: rule for rule, name in zip(spec, assignment, strict=True) if name}
    cost, count = 1, 1
    tiles = []
    for idx in block.idxs:
        rule = by_index.get(idx.name)
        tile = 1 if rule is None else (rule.size if rule.size is not None else idx.range)
        if tile <= 0 or (tile < idx.range and not tileable_range(idx)):
            return None  # an index with a start over the parent's cannot be split
        num = -(-idx.range // tile)
        cost *= num * tile
        count *= num
        tiles.append((idx.name, None if rule is None else rule.name, tile))
    return StencilMatch(
        cost + startup_cost * count,
        tuple(tiles),
        tuple(r.into for r in ins),
        tuple(r.into for r in outs),
    )


def _divides(block: Block, match: StencilMatch) -> bool:
    ranges = {i.name: i.range for i in block.idxs}
    return all(ranges[name] % tile == 0 for name, _, tile in match.tiles)
