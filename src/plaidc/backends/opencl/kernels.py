"""The OpenCL backend's program form: a loop-nest plan whose functions are kernels, each with
its NDRange, and the host's sequence of allocations and launches.

A kernel is a plan function (`plaidc.backends.loopnest.plan`) whose body reads *id variables*:
integer variables bound, at the top of the kernel, to `get_global_id(d)`, `get_group_id(d)` or
`get_local_id(d)` (`IdVar`). The host never runs plan code itself: the plan's entry function has
been turned into `steps` (allocate a device buffer, launch a kernel on named buffers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Union

from plaidc.backends.loopnest.plan import Plan
from plaidc.stripe.ir import DType

# A work-group barrier (local and global memory fences), as a plan `Call` of this function.
BARRIER = "plaidc_barrier"

ID_KINDS = ("global", "group", "local")

# Words generated identifiers must avoid in OpenCL C, beyond C's (plaidc.backends.loopnest.
# names.RESERVED): address spaces, OpenCL types and the built-ins the emitted code calls.
_CL_WORDS = (
    "__kernel kernel __global global __local local __constant constant __private private"
    " __read_only read_only __write_only write_only __read_write read_write half uchar ushort"
    " uint ulong size_t ptrdiff_t intptr_t uintptr_t sampler_t event_t image1d_t image2d_t"
    " image3d_t get_global_id get_local_id get_group_id get_global_size get_local_size"
    " barrier CLK_LOCAL_MEM_FENCE CLK_GLOBAL_MEM_FENCE vload_half vstore_half_rte as_uint"
    " as_float fabs pow round rint min max fmin fmax mad fma select clamp isnan"
)
_CL_VECTOR_ELEMENTS = ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong")
OPENCL_RESERVED = frozenset(
    [
        *_CL_WORDS.split(" "),
        *(
            f"{t}{n}"
            for t in (*_CL_VECTOR_ELEMENTS, "float", "double", "half")
            for n in (2, 3, 4, 8, 16)
        ),
    ]
)


@dataclass(frozen=True)
class IdVar:
    """An integer variable holding one NDRange coordinate of the running work-item:
    `get_<kind>_id(dim)`."""

    name: str
    kind: str
    dim: int


@dataclass(frozen=True)
class Scratch:
    """A temporary of the kernel too large for private memory: `size` elements per
    work-item, in slices of a global buffer passed as parameter `param` (after the plan
    function's parameters) and indexed by the work-item's linear global id."""

    buffer: str
    param: str
    dtype: DType
    size: int


@dataclass(frozen=True)
class Kernel:
    """A plan function launched as an OpenCL kernel.

    `global_size` is the NDRange (1 to 3 dimensions); `local_size` the work-group shape, or
    None to let the OpenCL runtime choose; `local_buffers` the allocations of the body that a
    work-group shares (`__local`); `role` says what the kernel does (`kernel`: a Stripe kernel
    block, `init`: the identity initialisation of what a kernel aggregates, `serial`: program
    statements outside kernels, on one work-item); `scratch` its allocations in global
    memory."""

    function: str
    global_size: tuple[int, ...]
    local_size: tuple[int, ...] | None
    ids: tuple[IdVar, ...]
    local_buffers: tuple[str, ...] = ()
    role: str = "kernel"
    scratch: tuple[Scratch, ...] = ()

    @property
    def work_items(self) -> int:
        return math.prod(self.global_size)


@dataclass(frozen=True)
class AllocStep:
    """A device buffer for a temporary of the program (contents undefined)."""

    buffer: str
    dtype: DType
    size: int


@dataclass(frozen=True)
class LaunchStep:
    """Launch `kernel` with `args` (buffer names, in the kernel's parameter order)."""

    kernel: str
    args: tuple[str, ...]


Step = Union[AllocStep, LaunchStep]


@dataclass(frozen=True)
class KernelProgram:
    """A whole program for OpenCL: the plan (its entry function is not emitted), its kernels
    and the host steps that run them in order."""

    plan: Plan
    kernels: tuple[Kernel, ...]
    steps: tuple[Step, ...]
