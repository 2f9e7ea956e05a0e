"""The reference interpreter: runs any Stripe program with numpy, by STRIPE.md's semantics.

`run_program(program, inputs)` executes a program (its root block) and returns its outputs;
`program_io(program)` says which buffers are inputs and outputs. Execution is vectorised over
iteration domains (see `plaidc.interp.machine`); a semantic violation at run time raises
`InterpError`. The scalar semantics (`apply_intrinsic`, `cast_to`, `constant_value`, ...) and
buffer layout helpers are exported too: backends and passes use them as the oracle for types
and values, so there is one definition of what an intrinsic computes.
"""

from plaidc.interp.dtypes import (
    FLOAT_CONVERTS_THROUGH,
    Value,
    cast_to,
    constant_value,
    numpy_dtype,
    poison_value,
)
from plaidc.interp.errors import InterpError
from plaidc.interp.frames import alloc_layout, element_offsets
from plaidc.interp.intrinsics import apply_intrinsic
from plaidc.interp.program import ProgramIO, program_io, run_program

__all__ = [
    "FLOAT_CONVERTS_THROUGH",
    "InterpError",
    "ProgramIO",
    "Value",
    "alloc_layout",
    "apply_intrinsic",
    "cast_to",
    "constant_value",
    "element_offsets",
    "numpy_dtype",
    "poison_value",
    "program_io",
    "run_program",
]
