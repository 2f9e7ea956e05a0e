"""`thread-inner`: split a block so that its inner block has at most `threads` points.

The inner block is one group of work-items (a GPU work-group, the lanes of a vector unit): the
outer block (tags kept, plus `outer_set`) walks the groups, the inner block (`inner_set`) holds
at most `threads` points. As in PlaidML, only indices that address an output are spread over
threads (reductions stay serial, in the outer block): those whose range is closest to a power
of two first, then the larger ones, each taking `min(threads left, the power of two at or
above its range)` threads (capped by its range) until the threads are used up. Everything else
(reductions, indices with a start over the parent's) stays in the outer block. `threads = 0`
(the default) does nothing; so do blocks without indices or with whole-buffer Specials.

Before / after `--pass thread-inner{threads=64,inner_set=[gpu_thread]}`:

    block [i:100, j:6, k:8] (              block [i:2, j:6, k:8] (
        in A[i, k] :(8, 1)                     in A[64*i, k] fp32:I(64, 1):(8, 1)
        out B[i, j]:add :(6, 1)                out B[64*i, j]:add fp32:I(64, 1):(6, 1)
    ) { ... }                              ) {
                                             #gpu_thread block [i:64, j:1, k:1, io = 64*i] (
                                                 99 - i - io >= 0
                                                 in A[i, k] ...  out B[i, j]:add ...
                                             ) { ... }
                                           }
"""

from __future__ import annotations

from dataclasses import dataclass

from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.passes.selection import EXCLUDE_HELP, REQS_OUTERMOST_HELP, map_sub_blocks, matches
from plaidc.passes.tiling import TilingError, tile_block, tileable_range
from plaidc.stripe.ir import Block, RefDir, Refinement, Special


@dataclass(frozen=True)
class ThreadInnerOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_OUTERMOST_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)
    threads: int = option(
        0, "points of the inner block at most: one work-group (0: the pass does nothing)", min=0
    )
    outer_set: tuple[str, ...] = option(
        (), "tags added to the outer block (over the groups), which keeps the original's tags"
    )
    inner_set: tuple[str, ...] = option((), "tags of the inner block (one group of work-items)")


@register("thread-inner", ThreadInnerOptions, "split so the inner block has <= N work-items")
def thread_inner(program: Block, opts: ThreadInnerOptions) -> Block:
    if opts.threads <= 0:
        return program
    return _walk(program, (), opts)


def _walk(block: Block, ancestors: tuple[Block, ...], opts: ThreadInnerOptions) -> Block:
    if matches(block, opts.reqs, opts.exclude):
        return _thread(block, ancestors, opts)
    chain = (*ancestors, block)
    return map_sub_blocks(block, lambda child: _walk(child, chain, opts))


def _thread(block: Block, ancestors: tuple[Block, ...], opts: ThreadInnerOptions) -> Block:
    if not block.idxs or any(isinstance(s, Special) for s in block.stmts):
        return block
    sizes = thread_split(block, opts.threads)
    try:
        return tile_block(
            block,
            sizes,
            outer_tags=opts.outer_set,
            inner_tags=opts.inner_set,
            ancestors=ancestors,
        )
    except TilingError:
        return block


def _po2_at_least(n: int) -> int:
    return 1 << max(n - 1, 0).bit_length()


def thread_split(block: Block, threads: int) -> dict[str, int]:
    """Inner tile sizes (index name -> size, 1 for indices left to the outer block) whose
    product is at most `threads`."""
    outs = [r for r in block.refs if r.dir in (RefDir.OUT, RefDir.INOUT)]

    def is_out(name: str) -> bool:
        return any(_flat_stride(r, name) for r in outs)

    order = sorted(
        (i for i in block.idxs if is_out(i.name) and tileable_range(i) and i.range > 0),
        key=lambda i: (-i.range / _po2_at_least(i.range), -i.range),
    )
    sizes = {i.name: 1 for i in block.idxs}
    left = threads
    for idx in order:
        if left <= 1:
            break
        split = min(left, _po2_at_least(idx.range))
        sizes[idx.name] = min(split, idx.range)
        left //= split
    return sizes


def _flat_stride(ref: Refinement, index: str) -> int:
    return sum(a.coeff(index) * s for a, s in zip(ref.access, ref.shape.strides, strict=False))
