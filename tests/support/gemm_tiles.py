"""The GEMM tiles a CPU pipeline chose, read from the optimised Stripe."""

from __future__ import annotations

from plaidc.stripe.ir import Block


def inner_tiles(program: Block) -> list[dict[str, int]]:
    """The index ranges of every `contract_inner` block under a `gemm_tiles` block."""
    found: list[dict[str, int]] = []

    def walk(block: Block, under: bool) -> None:
        under = under or "gemm_tiles" in block.tags
        if under and "contract_inner" in block.tags:
            found.append({i.name: i.range for i in block.idxs})
        for stmt in block.stmts:
            if isinstance(stmt, Block):
                walk(stmt, under)

    walk(program, False)
    return found
