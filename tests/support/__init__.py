"""Helpers that several test modules share, one small module per subject.

Test modules import these from here (never from one another), so that each test module can be
read, run and changed on its own. This package re-exports the repository's paths and the PlaidML
test data (`paths`); the other helpers are imported from their module, e.g.
`from .support.backend_c import load_program`:

* `backend_c`: the programs every backend runs (`PROGRAMS`, `load_program`, `program_inputs`)
  and comparing a backend with the interpreter;
* `backend_c_cli`, `backend_c_golden`, `backend_c_scalars`, `backend_opencl`,
  `backend_opencl_scalars`, `backend_npu_units`: the cases and checks several backends share;
* `cli`: running the command line in-process (`run_cli`);
* `gemm_tiles`: the GEMM tiles a CPU pipeline chose; `interp`: building Stripe programs by
  hand; `npu_sim`: running the NPU simulator;
* `oplib`: comparing outputs with numpy's; `passes_differential`: checking that a pass keeps
  a program's meaning.
"""

from .paths import EXAMPLES, REFERENCE, REFERENCE_DUMPS, REFERENCE_PROGRAMS, REPO

__all__ = ["EXAMPLES", "REFERENCE", "REFERENCE_DUMPS", "REFERENCE_PROGRAMS", "REPO"]
