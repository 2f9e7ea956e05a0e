"""The reference interpreter: runs any Stripe program with numpy, by STRIPE.md's semantics.

`run_program(program, inputs)` executes a program (its root block) and returns its outputs;
`program_io(program)` says which buffers are inputs and outputs. Execution is vectorised over
iteration domains (see `plaidc.interp.machine`); a semantic violation at run time raises
`InterpError`.
"""

from plaidc.interp.dtypes import numpy_dtype
from plaidc.interp.errors import InterpError
from plaidc.interp.program import ProgramIO, program_io, run_program

__all__ = ["InterpError", "ProgramIO", "numpy_dtype", "program_io", "run_program"]
