"""Stripe -> Stripe passes, one module each, registered by kebab-case name (see registry)."""

from plaidc.passes.registry import (
    PassInfo,
    PassOptionError,
    all_passes,
    get_pass,
    make_options,
    parse_pass_spec,
)

__all__ = [
    "PassInfo",
    "PassOptionError",
    "all_passes",
    "get_pass",
    "make_options",
    "parse_pass_spec",
]
