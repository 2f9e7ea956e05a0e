"""The LLVM backend (`-t llvm`): Stripe -> loop-nest plan -> LLVM IR (llvmlite) -> JIT.

The same plan as the C backend (`plaidc.backends.loopnest`), built with llvmlite's IR builder
(`emit`), optimised at -O2 for the host CPU and JIT-compiled in memory (`jit`). `--emit llvm`
writes the generated (unoptimised) IR; `--emit lib` links the optimised object code into a
shared library with the system C compiler. `[codegen]` keys besides the shared ones
(`plaidc.backends.loopnest.options`): `opt_level` (0-3, default 2: `jit.OPT_LEVEL`),
`vector_math` (`"libmvec"`: vectorised loops call glibc's vector math library), `exp`,
`omp_wait_policy` and `omp_spin_us` (as for the C backend; `shared_cpu_backoff`:
`plaidc.backends.llvm.threads`).
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np

from plaidc.backends import content_digest
from plaidc.backends.llvm.emit import emit_llvm
from plaidc.backends.llvm.jit import OPT_LEVEL, Jitted, jit, object_code
from plaidc.backends.loopnest import lower_program
from plaidc.backends.loopnest.dedupe import merge_identical_functions
from plaidc.backends.loopnest.options import (
    CpuRuntimeCodegen,
    LoopnestCodegen,
    lowering_options,
    pinned_threads,
)
from plaidc.backends.loopnest.plan import Plan
from plaidc.backends.loopnest.profile import Recorder, instrument
from plaidc.backends.loopnest.runtime import run_plan
from plaidc.backends.loopnest.spin import openmp_bind, openmp_wait
from plaidc.backends.toolchain import find_compiler
from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.stripe.ir import Block
from plaidc.targets import TargetConfig


@dataclass(frozen=True)
class LLVMCodegen(CpuRuntimeCodegen):
    """The LLVM backend's own `[codegen]` keys."""

    opt_level: Literal[0, 1, 2, 3] = field(
        default=OPT_LEVEL, metadata={"help": "LLVM's optimisation level (-O0 .. -O3)"}
    )
    prefer_vector_width: bool = field(
        default=False,
        metadata={
            "help": "LLVM's vectorisers use vector_bytes-wide vectors (else LLVM's choice for "
            "the CPU: 256 bits on many AVX-512 cores)"
        },
    )


@dataclass
class LLVMArtifact:
    """A JIT-compiled program and its IR."""

    plan: Plan
    source: str
    jitted: Jitted
    uses_threads: bool
    opt_level: int
    vector_math: bool = False
    # with `compile(..., profile=True)`: times each kernel call (`loopnest.profile`)
    profiler: Recorder | None = None

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        if self.profiler is not None:
            return self.profiler.run(self.jitted.entry, inputs)
        return run_plan(self.plan, self.jitted.entry, inputs)

    def report(self) -> str | None:
        return None

    def report_json(self) -> dict[str, Any] | None:
        return None

    def save_library(self, path: Path) -> None:
        compiler = find_compiler(None)
        with tempfile.TemporaryDirectory() as tmp:
            obj = Path(tmp) / "plaidc.o"
            obj.write_bytes(object_code(self.source, self.opt_level))
            libs = ["-lgomp"] if self.uses_threads else []
            libs += ["-lmvec"] if self.vector_math else []
            result = subprocess.run(
                [compiler, "-shared", str(obj), "-o", str(path), *libs, "-lm"],
                capture_output=True,
                text=True,
                check=False,
            )
        if result.returncode != 0:
            raise CompileError([Diagnostic(f"linking the library failed: {result.stderr.strip()}")])


class LLVMBackend:
    name = "llvm"

    def compile(self, program: Block, target: TargetConfig, profile: bool = False) -> LLVMArtifact:
        plan, source, uses_threads, own, profiler = _emit(program, target, profile)
        mvec = own.vector_math == "libmvec"
        openmp_wait(own.omp_wait_policy, own.omp_spin_us)
        openmp_bind(own.omp_proc_bind)
        jitted = jit(source, uses_threads, own.opt_level, mvec)
        return LLVMArtifact(plan, source, jitted, uses_threads, own.opt_level, mvec, profiler)

    def fingerprint(self, program: Block, target: TargetConfig) -> str:
        """What the JIT-compiled code depends on: the IR and the backend's own keys."""
        _, source, _, own, _ = _emit(program, target)
        return content_digest(source, own)


def _emit(
    program: Block, target: TargetConfig, profile: bool = False
) -> tuple[Plan, str, bool, LLVMCodegen, Recorder | None]:
    """The program's plan and LLVM IR under `target`, whether it uses OpenMP, the backend's
    own `[codegen]`, and with `profile` the recorder of the instrumented plan the IR is of."""
    where = target.path or target.name
    options, own = lowering_options(target.codegen, where, LLVMCodegen, pinned_threads(target))
    plan = lower_program(program, replace(options, ragged_gemm=True))
    bits = options.vector_bytes * 8 if own.prefer_vector_width else None
    profiler = Recorder(instrument(plan)) if profile else None
    # after instrument: the profile's slots keep the kernels' own names
    module, uses_threads = emit_llvm(
        merge_identical_functions(profiler.profiled.plan if profiler else plan),
        own.vector_math == "libmvec",
        own.exp == "polynomial",
        bits,
    )
    return plan, str(module), uses_threads, own, profiler


BACKEND = LLVMBackend()
# The [codegen] keys this backend reads (`plaidc targets llvm` lists them).
CODEGEN_OPTIONS = (LoopnestCodegen, LLVMCodegen)
