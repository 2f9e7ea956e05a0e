"""How deep a plan nests, and a Python recursion limit that lets the plan's walks reach it.

The plan's walks (simplification, dedupe, the C / LLVM / OpenCL emitters, the C printer)
recurse once or a few frames per nesting level. Loops nest as deep as the Stripe program
(a handful), but a block's fresh allocations nest one `Alloc` per allocation around its body
(`Lowering.with_allocs`): a whole model's main block has one per intermediate tensor, 425
in the light DenseNet-121, past Python's default limit of 1000 frames. The limit is raised
(never lowered) to what the deepest plan needs.
"""

from __future__ import annotations

import sys

from plaidc.backends.loopnest.plan import Alloc, If, Loop, Stmt

# Python frames a walk may spend per nesting level (the C emitter's stmts/stmt and the
# printer's compound statements take several), and what the rest of the compiler needs.
FRAMES_PER_LEVEL = 8
FRAMES_MARGIN = 1000


def nesting_depth(stmts: tuple[Stmt, ...]) -> int:
    """The most statements nested in one another in `stmts` (loops, ifs and allocations);
    iterative, so that it works at any depth."""
    deepest = 0
    stack: list[tuple[tuple[Stmt, ...], int]] = [(stmts, 1)]
    while stack:
        body, depth = stack.pop()
        for s in body:
            deepest = max(deepest, depth)
            if isinstance(s, (Loop, Alloc)):
                stack.append((s.body, depth + 1))
            elif isinstance(s, If):
                stack.append((s.then, depth + 1))
                stack.append((s.orelse, depth + 1))
    return deepest


def allow_nesting(depth: int) -> None:
    """Raise Python's recursion limit so that walks of a plan nesting `depth` deep fit."""
    needed = FRAMES_MARGIN + FRAMES_PER_LEVEL * depth
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)


__all__ = ["allow_nesting", "nesting_depth"]
