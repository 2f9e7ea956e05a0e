"""The interpreter's runtime error type."""

from __future__ import annotations


class InterpError(Exception):
    """A Stripe program violated the semantics of STRIPE.md while it ran.

    Raised for what only execution can reveal: two points storing one element through an
    `assign` refinement, an access outside its buffer, an unknown intrinsic or special, a name
    that is not in scope. The message names the block (by its path from the root) and the
    refinement or statement involved. Errors in the program's *inputs* (a missing input, a wrong
    shape) are `plaidc.diagnostics.CompileError` instead.
    """
