"""The OpenCL backend (`-t opencl`): Stripe -> loop-nest plan -> OpenCL C kernels -> pyopencl.

Each kernel block becomes an OpenCL kernel over an NDRange (`lower`: independent indices on
work-items, thread blocks on work-groups with `__local` memory and barriers), printed as OpenCL
C through the C backend's syntax tree (`emit`), built for the chosen OpenCL device and run on
numpy arrays (`runtime`; pocl's CPU device here, any OpenCL platform elsewhere). `--emit
opencl` needs no OpenCL runtime; running does, and says how to install one when it is missing.

`[codegen]` keys (all optional):

| key | type | meaning |
|---|---|---|
| `thread_tags` | list of tags | blocks spread over the work-items of a work-group |
| `max_work_group` | int | largest work-group (e.g. `"${hardware.max_work_group}"`) |
| `local_mem_bytes` | int | local memory a work-group may use |
| `private_bytes` | int | a work-item's private temporaries, together; the rest use global slices |
| `build_options` | list of strings | added to the OpenCL compiler's options |

and the shared lowering's micro-kernel keys (`gemm_tags`: GEMM-like blocks below kernel blocks
run as register-blocked micro-kernels on `vector_bytes`-wide vectors, `gemm_rows`,
`gemm_vectors`; `plaidc.backends.loopnest.options`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from plaidc.backends import BackendUnavailable
from plaidc.backends.loopnest.options import LoopnestCodegen, lowering_options
from plaidc.backends.loopnest.scope import LoweringOptions
from plaidc.backends.opencl.emit import emit_opencl
from plaidc.backends.opencl.kernels import KernelProgram
from plaidc.backends.opencl.lower import KernelOptions, lower_kernels
from plaidc.backends.opencl.runtime import (
    Executable,
    build_options,
    build_program,
    default_device,
)
from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.stripe.ir import Block
from plaidc.targets import TargetConfig

# Shared lowering keys that mean CPU threads, which an NDRange replaces.
_CPU_ONLY = ("parallel_tags", "parallel_min_work", "threads")


def _error(where: str, message: str) -> CompileError:
    return CompileError([Diagnostic(f"{where}: [codegen] {message}")])


@dataclass(frozen=True)
class OpenCLCodegen:
    """The OpenCL backend's own `[codegen]` keys."""

    thread_tags: tuple[str, ...] = field(
        default=(), metadata={"help": "blocks with these tags spread over a work-group's items"}
    )
    max_work_group: int = field(
        default=256, metadata={"help": "work-items of one work-group at most", "min": 1}
    )
    local_mem_bytes: int = field(
        default=32768, metadata={"help": "local memory of one work-group", "min": 1}
    )
    private_bytes: int = field(
        default=8192,
        metadata={
            "help": "a work-item's private temporaries, together; the rest live in slices of a"
            " global buffer",
            "min": 1,
        },
    )
    build_options: tuple[str, ...] = field(
        default=(), metadata={"help": "options for the OpenCL C compiler (clBuildProgram)"}
    )


@dataclass(frozen=True)
class CodegenOptions:
    kernels: KernelOptions
    lowering: LoweringOptions
    build_options: tuple[str, ...]


def codegen_options(codegen: Mapping[str, Any], where: str) -> CodegenOptions:
    """The options of an OpenCL target's `[codegen]` table: the backend's keys (module
    docstring) and the shared lowering's micro-kernel keys (`gemm_tags`, `vector_bytes`,
    `gemm_rows`, `gemm_vectors`; see `plaidc.backends.loopnest.options`)."""
    for key in _CPU_ONLY:
        if key in codegen:
            raise _error(where, f"'{key}' is for CPU threads; OpenCL work-items need no setting")
    lowering, own = lowering_options(codegen, where, OpenCLCodegen)
    kernels = KernelOptions(
        thread_tags=tuple(tag.lstrip("#") for tag in own.thread_tags),
        max_work_group=own.max_work_group,
        local_mem_bytes=own.local_mem_bytes,
        private_bytes=own.private_bytes,
    )
    return CodegenOptions(kernels, lowering, own.build_options)


@dataclass
class OpenCLArtifact:
    """Generated OpenCL C, built when an OpenCL runtime is present."""

    program: KernelProgram
    source: str
    executable: Executable | None
    unavailable: BackendUnavailable | None = None

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        if self.executable is None:
            assert self.unavailable is not None
            raise self.unavailable
        return self.executable.run(inputs)

    def report(self) -> str | None:
        if self.executable is None:
            return None
        kernels = len(self.program.kernels)
        return f"opencl: {kernels} kernels on {self.executable.device.description}"

    def save_library(self, path: Path) -> None:
        raise CompileError(
            [Diagnostic("the OpenCL backend has no library form: use --emit opencl")]
        )


class OpenCLBackend:
    name = "opencl"

    def compile(self, program: Block, target: TargetConfig) -> OpenCLArtifact:
        options = codegen_options(target.codegen, target.path or target.name)
        kernels = lower_kernels(program, options.kernels, options.lowering)
        source = emit_opencl(kernels)
        try:
            device = default_device()
        except BackendUnavailable as err:
            return OpenCLArtifact(kernels, source, None, err)
        binary = build_program(device, source, build_options(device, options.build_options))
        return OpenCLArtifact(kernels, source, Executable(kernels, device, binary))


BACKEND = OpenCLBackend()
# The [codegen] keys this backend reads (`plaidc targets opencl` lists them), but _CPU_ONLY.
CODEGEN_OPTIONS = (LoopnestCodegen, OpenCLCodegen)
CODEGEN_EXCLUDED = _CPU_ONLY
