"""The NPU simulator: `plaidc_npu.h` (the CCE-like dialect), its C runtime and a Python driver.

The `npu` backend emits C against `plaidc_npu.h`; `compile_kernel` builds it with the simulator
into a shared library and `NpuKernel.run` executes it on numpy arrays for an `NpuMachine` read
from the target config's `[hardware]` table, returning the arguments afterwards and an
`NpuReport` (cycles, pipe occupancy, Cube utilisation, bytes per path, buffer peaks) and, when
asked, an `NpuTrace` (the timeline, as Chrome trace-event JSON). The
semantics, checks and timing model are those of docs/NPU.md; sim.c's header comment is the
executable summary.
"""

from plaidc.backends.npu_sim import isa
from plaidc.backends.npu_sim.machine import MEMORIES, PATHS, PIPES, NpuMachine
from plaidc.backends.npu_sim.report import NpuReport
from plaidc.backends.npu_sim.runner import (
    HEADER,
    SIM_DIR,
    NpuKernel,
    NpuRun,
    NpuSimError,
    compile_kernel,
    find_c_compiler,
)
from plaidc.backends.npu_sim.trace import NpuTrace

__all__ = [
    "HEADER",
    "MEMORIES",
    "PATHS",
    "PIPES",
    "SIM_DIR",
    "NpuKernel",
    "NpuMachine",
    "NpuReport",
    "NpuRun",
    "NpuSimError",
    "NpuTrace",
    "compile_kernel",
    "find_c_compiler",
    "isa",
]
