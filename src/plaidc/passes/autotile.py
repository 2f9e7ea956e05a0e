"""`autotile`: split each matching block into outer x inner so that the inner block's working
set fits a byte budget at the best modelled cost (the Stripe paper §3.3, Figures 4 and 5).

The search and the cost models are in `autotile_cost` (`search_tiles`, `autotile_candidates`),
the rewrite in `tiling.tile_block`. The outer block keeps the original's tags and gains
`outer_set`; the inner block gets `inner_set`. A block whose every candidate is over budget is
left as it is; a matching block without indices is searched through. The chosen tile is
visible in the IR (the inner block's index ranges); with `verbose=true` the pass also reports
the candidates' costs or exclusions and its choice on stderr (and prints nothing otherwise).

Figure 5a -> 5b (`autotile{reqs=[all],idxs=[x,y],cost_model=lines_per_output,
ignore_refs=[F],cache_width=8,max_total_size=512}` picks 3x4 at 4.5 lines per output):

    block [x:12, y:16, i:3, j:3, c:8, k:16] (       block [x:4, y:4, i:1, j:1, c:1, k:1] (
        -1 + x + i >= 0    ...                          in I[3*x - 1, 4*y - 1, 0] i8(5, 6, 8)
        in I[x + i - 1, y + j - 1, c] i8(1, 1, 1)       out O[3*x, 4*y, 0]:add i8(3, 4, 16)
        out O[x, y, k]:add i8(1, 1, 1)              ) {
    ) { ... }                                         block [x:3, y:4, ..., xo = 3*x, yo = 4*y] (
                                                          -1 + xo + x + i >= 0    ...
                                                          in I[x + i, y + j, c] i8(1, 1, 1)
                                                          out O[x, y, k]:add i8(1, 1, 1)
                                                      ) { ... }
                                                    }
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Sequence

from plaidc.analysis import AnalysisError
from plaidc.passes.autotile_cost import (
    AutotileOptions,
    Candidate,
    SearchResult,
    autotile_candidates,
    input_bytes,
    search_tiles,
)
from plaidc.passes.registry import register
from plaidc.passes.selection import map_sub_blocks, matches
from plaidc.passes.tiling import TilingError, tile_block
from plaidc.stripe.ir import Block

__all__ = ["AutotileOptions", "autotile", "autotile_block", "autotile_candidates"]

# Verbose output lists at most this many candidates of each kind (valid, excluded).
_VERBOSE_LIMIT = 200


@register("autotile", AutotileOptions, "tile blocks so the inner working set fits a budget")
def autotile(program: Block, opts: AutotileOptions) -> Block:
    return _walk(program, (), opts, {})


def _walk(
    block: Block, ancestors: tuple[Block, ...], opts: AutotileOptions, searches: Searches | None
) -> Block:
    """Pre-order, outermost match, keeping the chain of ancestors for the analysis. A matching
    block without indices has nothing to tile and is searched through (so `reqs=[all]` reaches
    the kernels under the program and `#main` blocks)."""
    if block.idxs and matches(block, opts.reqs, opts.exclude):
        if not opts.windows and slides_window(block):
            return block
        if not opts.batches and has_batch(block):
            return block
        if (opts.min_each_input_size > 0 or opts.max_whole_input_size > 0) and not _input_sizes_fit(
            block, opts
        ):
            return block
        return autotile_block(block, opts, ancestors, searches)
    chain = (*ancestors, block)
    return map_sub_blocks(block, lambda child: _walk(child, chain, opts, searches))


def has_batch(block: Block) -> bool:
    """Whether an index of `block` that takes several values is used by every refinement's
    access (`b` of `Z[b, i, j] = +(X[b, i, k] * Y[b, k, j])`)."""
    used = [{name for a in ref.access for name, _ in a.terms} for ref in block.refs if ref.from_]
    return bool(used) and any(
        idx.range > 1 and all(idx.name in names for names in used) for idx in block.idxs
    )


def _input_sizes_fit(block: Block, opts: AutotileOptions) -> bool:
    """Whether every input of `block` spans at least `min_each_input_size` and at most
    `max_whole_input_size` bytes over the whole block (0: no bound). One that cannot be measured
    does not fit (the block is left as it is), nor does a block without inputs."""
    try:
        sizes = input_bytes(block, opts)
    except AnalysisError:
        return False
    if not sizes or min(sizes) < opts.min_each_input_size:
        return False
    return opts.max_whole_input_size == 0 or max(sizes) <= opts.max_whole_input_size


def slides_window(block: Block) -> bool:
    """Whether an input access dimension combines an output index with an accumulation index
    (`I[2*x + k - 1]`: a pooling or convolution window), so neighbouring outputs read
    overlapping inputs; a row reduction (`X[i, j]` summed over `j`) reads each once. An index
    of range 1 takes one value and slides nothing: a 1x1 convolution's `I[n, x0 + k0, ...]`
    (`k0 : 1`) is a GEMM's operand."""
    single = {idx.name for idx in block.idxs if idx.range == 1}
    written = {
        name for ref in block.refs if ref.dir.writes for a in ref.access for name, _ in a.terms
    }
    written -= single
    for ref in block.refs:
        if ref.dir.writes:
            continue
        for dim in ref.access:
            names = {name for name, _ in dim.terms} - single
            if names & written and names - written:
                return True
    return False


# The searches of one run of the pass, by what they depend on (`_search_key`).
Searches = dict[Hashable, SearchResult]


def _search_key(block: Block, opts: AutotileOptions) -> Hashable:
    """What `search_tiles` reads of `block`: its indices and, per refinement in order, the
    direction, access and shape (not the buffer names, bar `ignore_refs`). A repeated layer
    (ResNet-50's 74 contraction blocks are 35 distinct searches) is searched once."""
    refs = tuple(
        (r.dir, r.access, r.shape, r.from_ is None, r.into in opts.ignore_refs) for r in block.refs
    )
    return block.idxs, refs, opts


def autotile_block(
    block: Block,
    opts: AutotileOptions,
    ancestors: Sequence[Block] | None = None,
    searches: Searches | None = None,
) -> Block:
    """Tile one block with the best candidate under `opts` (the block itself when it has no
    index, no candidate fits, or the best is trivial and `elide_trivial` is set). `searches`
    keeps the search results of blocks alike (one pass over one program)."""
    if not block.idxs or any(i.range < 1 for i in block.idxs):
        return block
    try:
        key = _search_key(block, opts) if searches is not None else None
        if searches is not None and key in searches:
            result = searches[key]
        else:
            result = search_tiles(block, opts, detail=opts.verbose)
            if searches is not None:
                searches[key] = result
        best = result.best
        if opts.verbose:
            print(_report(block, result, opts), file=sys.stderr)
        if best is None or (opts.elide_trivial and _trivial(block, best)):
            return block
        return tile_block(
            block,
            best.tile,
            outer_tags=opts.outer_set,
            inner_tags=opts.inner_set,
            copy_tags=opts.copy_tags,
            clear_outer=opts.clear_outer,
            ancestors=ancestors,
        )
    except (AnalysisError, TilingError) as err:
        # Only IR the verifier rejects (e.g. an access rank unlike its shape's) gets here.
        if opts.verbose:
            print(f"autotile: block '{block.name}' left as it is: {err}", file=sys.stderr)
        return block


def _trivial(block: Block, cand: Candidate) -> bool:
    sizes = cand.tile
    return all(sizes[i.name] == 1 for i in block.idxs) or all(
        sizes[i.name] == i.range for i in block.idxs
    )


def _label(cand: Candidate, searched: Sequence[str]) -> str:
    tile = cand.tile
    names = searched or [n for n, _ in cand.sizes]
    return " ".join(f"{n}={tile[n]}" for n in names) or "(no index)"


def _report(block: Block, result: SearchResult, opts: AutotileOptions) -> str:
    """The candidates' costs (best first) and exclusions, and the choice."""
    name = block.name or (block.comments[0] if block.comments else "<unnamed>")
    ranges = " ".join(f"{i.name}:{i.range}" for i in block.idxs)
    how = "exhaustive" if result.exhaustive else "best-first"
    lines = [
        f"autotile: block '{name}' [{ranges}]: {result.space} candidates ({how}, "
        f"{len(result.candidates)} listed), cost model {opts.cost_model}, "
        f"searching {', '.join(result.searched) or 'no index'}"
    ]
    valid = sorted((c for c in result.candidates if c.excluded is None), key=Candidate.key)
    excluded = [c for c in result.candidates if c.excluded is not None]
    for cand in valid[:_VERBOSE_LIMIT]:
        lines.append(
            f"  {_label(cand, result.searched):24} cost {cand.cost:.6g}  {cand.tiles} tiles  "
            f"{cand.total_bytes} B  lines in {cand.in_lines} out {cand.out_lines}"
        )
    for cand in excluded[:_VERBOSE_LIMIT]:
        lines.append(f"  {_label(cand, result.searched):24} excluded: {cand.excluded}")
    hidden = max(len(valid) - _VERBOSE_LIMIT, 0) + max(len(excluded) - _VERBOSE_LIMIT, 0)
    if hidden:
        lines.append(f"  ... {hidden} more")
    if result.best is None:
        lines.append("autotile: no candidate fits the budget; block left as it is")
    else:
        best = result.best
        lines.append(
            f"autotile: chose {_label(best, result.searched)} (cost {best.cost:.6g}, "
            f"{best.tiles} tiles, {best.total_bytes} B)"
        )
    return "\n".join(lines)
