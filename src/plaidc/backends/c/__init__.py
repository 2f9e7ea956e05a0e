"""The C backend (`-t c`, alias `cpu`): Stripe -> loop-nest plan -> C with OpenMP.

The shared plan (`plaidc.backends.loopnest`) is printed as C through a syntax tree
(`plaidc.backends.c.ast`), compiled by the system compiler (`-O3 -march=native -fopenmp`),
cached by content hash and loaded with ctypes. `[codegen]` keys besides the shared ones
(`plaidc.backends.loopnest.options`): `cc` (compiler), `cflags` (a list of flags added to the
defaults, e.g. `["-O2"]`), `vector_math` (`"libmvec"`: vectorised loops call glibc's vector
math library for exp, log, sin, ...; absent: libm's scalar functions), `exp` (`"polynomial"`:
fp32 exp is plaidc's inline polynomial, `plaidc.backends.loopnest.exp_poly`), `omp_wait_policy`
and `omp_spin_us` (libgomp's OMP_WAIT_POLICY and GOMP_SPINCOUNT for the process unless the
environment sets either; see `plaidc.backends.loopnest.spin`), `prefetch_next_row` (loops
computing the polynomial exp prefetch the next row: `plaidc.backends.loopnest.prefetch`).
Parallel loops fall back to one thread while their threads share a CPU (`shared_cpu_backoff`,
`plaidc.backends.c.threads`).
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from plaidc.backends import content_digest
from plaidc.backends.c.build import DEFAULT_FLAGS, build_library, load_entry
from plaidc.backends.c.emit import emit_c
from plaidc.backends.loopnest import lower_program
from plaidc.backends.loopnest.dedupe import merge_identical_functions
from plaidc.backends.loopnest.options import (
    CpuRuntimeCodegen,
    LoopnestCodegen,
    lowering_options,
    pinned_threads,
)
from plaidc.backends.loopnest.plan import Plan
from plaidc.backends.loopnest.prefetch import prefetch_next_rows
from plaidc.backends.loopnest.profile import Recorder, instrument
from plaidc.backends.loopnest.runtime import run_plan
from plaidc.backends.loopnest.spin import openmp_bind, openmp_wait
from plaidc.backends.toolchain import find_compiler
from plaidc.stripe.ir import Block
from plaidc.targets import TargetConfig


@dataclass(frozen=True)
class CCodegen(CpuRuntimeCodegen):
    """The C backend's own `[codegen]` keys."""

    cc: str | None = field(
        default=None,
        metadata={"help": "the C compiler (else $CC, cc, gcc, clang)", "expects": "a program name"},
    )
    cflags: tuple[str, ...] = field(
        default=(), metadata={"help": 'flags added to the defaults, e.g. ["-O2"]'}
    )
    prefetch_next_row: bool = field(
        default=False,
        metadata={
            "help": 'vector loops computing exp (with exp = "polynomial") prefetch the next '
            "row of what they read (plaidc.backends.loopnest.prefetch)"
        },
    )


@dataclass
class CArtifact:
    """A compiled C program: its source and its loaded library."""

    plan: Plan
    source: str
    library: Path
    entry: Any
    # with `compile(..., profile=True)`: times each kernel call (`loopnest.profile`)
    profiler: Recorder | None = None

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        if self.profiler is not None:
            return self.profiler.run(self.entry, inputs)
        return run_plan(self.plan, self.entry, inputs)

    def report(self) -> str | None:
        return None

    def report_json(self) -> dict[str, Any] | None:
        return None

    def save_library(self, path: Path) -> None:
        shutil.copyfile(self.library, path)


class CBackend:
    name = "c"

    def compile(self, program: Block, target: TargetConfig, profile: bool = False) -> CArtifact:
        plan, source, own, profiler = _emit(program, target, profile)
        compiler = find_compiler(own.cc)
        openmp_wait(own.omp_wait_policy, own.omp_spin_us)
        openmp_bind(own.omp_proc_bind)
        library = build_library(source, compiler, [*DEFAULT_FLAGS, *own.cflags], _libs(own))
        return CArtifact(plan, source, library, load_entry(library), profiler)

    def fingerprint(self, program: Block, target: TargetConfig) -> str:
        """What the built library depends on: the C source and the backend's own keys (flags,
        compiler, libraries, wait policy). Configs that differ only in keys the program does not
        use (a GEMM shape for a program without a GEMM) get the same fingerprint."""
        _, source, own, _ = _emit(program, target)
        return content_digest(source, own, DEFAULT_FLAGS, _libs(own))


def _emit(
    program: Block, target: TargetConfig, profile: bool = False
) -> tuple[Plan, str, CCodegen, Recorder | None]:
    """The program's plan and C source under `target`, the backend's own `[codegen]`, and with
    `profile` the recorder of the instrumented plan the source is then of."""
    where = target.path or target.name
    options, own = lowering_options(target.codegen, where, CCodegen, pinned_threads(target))
    # gcc vectorises float max/min reductions only as OpenMP's NaN-ignoring ones: NaNs
    # are tracked apart (LLVM reduces its NaN-propagating llvm.maximum directly).
    # ... and its vectorised loops call plaidc's polynomial exp through the SIMD clone, out of
    # line: loops computing it are written with vector types, so the vector exp inlines.
    polynomial = own.exp == "polynomial"
    lowering = replace(
        options, nan_flagged_minmax=True, ragged_gemm=True, vector_exp_loops=polynomial
    )
    plan = lower_program(program, lowering)
    if polynomial and own.prefetch_next_row:
        plan = prefetch_next_rows(plan)
    profiler = Recorder(instrument(plan)) if profile else None
    # after instrument: the profile's slots keep the kernels' own names
    source = emit_c(
        merge_identical_functions(profiler.profiled.plan if profiler else plan),
        vector_math=own.vector_math == "libmvec",
        polynomial_exp=polynomial,
    )
    return plan, source, own, profiler


def _libs(own: CCodegen) -> list[str]:
    return ["-lmvec"] if own.vector_math == "libmvec" else []


BACKEND = CBackend()
# The [codegen] keys this backend reads (`plaidc targets c` lists them).
CODEGEN_OPTIONS = (LoopnestCodegen, CCodegen)
