"""Stripe -> loop-nest plan, shared by the C and LLVM backends (see `plan` for the IR)."""

from plaidc.backends.loopnest.lower import lower_program
from plaidc.backends.loopnest.plan import Plan
from plaidc.backends.loopnest.scope import LoweringOptions

__all__ = ["LoweringOptions", "Plan", "lower_program"]
