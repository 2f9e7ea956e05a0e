"""Reading a target config's `[codegen]` table into lowering options.

The keys the CPU backends share are the fields of `LoopnestCodegen` (with their help texts:
`plaidc targets NAME` lists them); each backend reads its own keys as a dataclass too, through
`plaidc.options`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from plaidc.backends.loopnest.scope import LoweringOptions
from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.options import OptionError, PowersOfTwo, read_options
from plaidc.targets import TargetConfig
from plaidc.targets.host import host_facts

BackendT = TypeVar("BackendT")

# The SIMD register file of x86-64 by whether vectors are 64 bytes wide: zmm0-31 with AVX-512,
# ymm/xmm0-15 without.
X86_VECTOR_REGISTERS = {True: 32, False: 16}


@dataclass(frozen=True)
class CpuRuntimeCodegen:
    """The `[codegen]` keys of the backends whose code runs on this CPU with libgomp and glibc
    (c, llvm); each backend's own keys extend them."""

    vector_math: Literal["libmvec"] | None = field(
        default=None,
        metadata={"help": "vectorised loops call glibc's vector math library (else libm's)"},
    )
    omp_wait_policy: Literal["active", "passive"] | None = field(
        default=None,
        metadata={"help": "libgomp's OMP_WAIT_POLICY unless the environment sets it"},
    )
    omp_spin_us: float | None = field(
        default=None,
        metadata={
            "help": "microseconds a waiting libgomp thread spins before it sleeps "
            "(GOMP_SPINCOUNT, from the spin loop's measured cost on this host), unless the "
            "environment sets OMP_WAIT_POLICY or GOMP_SPINCOUNT; left out: the policy's",
            "min": 0,
        },
    )
    omp_proc_bind: bool | None = field(
        default=None,
        metadata={
            "help": "libgomp binds each thread of a parallel region to its own CPU "
            "(OMP_PROC_BIND), unless the environment sets OMP_PROC_BIND, OMP_PLACES or "
            "GOMP_CPU_AFFINITY; left out: libgomp's default (unbound)"
        },
    )
    exp: Literal["polynomial", "library"] = field(
        default="library",
        metadata={
            "help": "fp32 exp: plaidc's inline polynomial (at most 1.09 ulp, vectorised in the "
            "loop) or the math library's (libmvec with vector_math, else libm)"
        },
    )


@dataclass(frozen=True)
class LoopnestCodegen:
    """The `[codegen]` keys the CPU backends share (each backend adds its own)."""

    parallel_tags: tuple[str, ...] = field(
        default=(),
        metadata={"help": "blocks with any of these tags run their outer loop on threads"},
    )
    parallel_min_work: int = field(
        default=1,
        metadata={
            "help": "... unless they execute fewer points than this",
            "min": 1,
            "tune": PowersOfTwo(1, 1 << 24),
        },
    )
    shared_cpu_backoff: int = field(
        default=0,
        metadata={
            "help": "a parallel loop whose threads ran on one CPU (the OS placed them "
            "together: each waited for the other) runs on one thread for its next 1, 2, 4, ... "
            "calls, at most this many, then tries threads again; 0: always on threads",
            "min": 0,
        },
    )
    gemm_tags: tuple[str, ...] = field(
        default=(),
        metadata={"help": "blocks with any of these tags are tried as GEMM micro-kernels"},
    )
    threads: int | None = field(
        default=None,
        metadata={
            "help": "threads of every parallel loop, fixed in the code; left out: the OpenMP "
            "runtime's at run time (OMP_NUM_THREADS, else the CPUs of the affinity mask)",
            "min": 1,
        },
    )
    vector_bytes: int = field(
        default=16, metadata={"help": "SIMD register width in bytes (a power of two)", "min": 1}
    )
    gemm_rows: int = field(
        default=8,
        metadata={"help": "micro-kernel rows", "min": 1, "tune": (1, 2, 3, 4, 6, 8, 12, 16)},
    )
    gemm_vectors: int = field(
        default=2,
        metadata={"help": "micro-kernel width in vectors", "min": 1, "tune": (1, 2, 3, 4)},
    )
    gemm_block_bytes: int = field(
        default=0,
        metadata={
            "help": "bytes of cache a micro-kernel's packed block of B may fill (BLIS's kc "
            "rows of its columns): longer reductions run in blocks of kc, each packed once per "
            "thread's chunk and reused by all its row blocks; 0: no limit",
            "min": 0,
        },
    )
    gemm_epilogue: bool = field(
        default=True,
        metadata={
            "help": "an elementwise block after a GEMM-like one over the same elements (a "
            "bias and relu) runs on the micro-kernel's registers before they are stored, "
            "instead of as a second pass over C"
        },
    )
    gemm_split_flags: bool = field(
        default=True,
        metadata={
            "help": "a GEMM-like block whose enclosing block only steps its reduction (a "
            "tile's k blocks) passes the micro-kernel run-time flags: the first call writes C "
            "instead of adding to an initialised C, the last applies the epilogue (a bias and "
            "relu) on the registers, where C was zeroed first and the epilogue ran as a "
            "second pass"
        },
    )
    gemm_a_in_place: bool = field(
        default=True,
        metadata={
            "help": "a plain GEMM whose reduction is contiguous in A (a row-major A) reads "
            "A's rows in place, one start per row, instead of packing each row block (as "
            "convolutions' image rows are read)"
        },
    )
    keep_scratch: bool = field(
        default=True,
        metadata={
            "help": "heap packing scratch and the program's heap temporaries are kept "
            "between calls (one buffer per thread and allocation, taken and given back "
            "atomically) instead of allocated and freed on every call, where large buffers "
            "page-fault on each first touch"
        },
    )
    vector_registers: int | None = field(
        default=None,
        metadata={
            "help": "SIMD registers a micro-kernel may hold (rows x vectors accumulators, the B "
            "vectors and a broadcast A element); left out: as on x86-64, 32 with 64-byte "
            "vectors (AVX-512), else 16",
            "min": 3,
        },
    )
    stack_bytes: int = field(
        default=65536,
        metadata={"help": "largest per-point temporary on the stack (larger: heap)", "min": 1},
    )
    minmax_accumulators: int = field(
        default=1,
        metadata={
            "help": "vector max/min reduction loops run as this many interleaved parts with "
            "their own accumulators (independent dependence chains)",
            "min": 1,
            "tune": (1, 2, 4, 8),
        },
    )
    sum_accumulators: int = field(
        default=1,
        metadata={
            "help": "vector sum reduction loops run as this many interleaved parts with their "
            "own accumulators (the additions happen in another order)",
            "min": 1,
            "tune": (1, 2, 4, 8),
        },
    )
    align_vector_loops: int = field(
        default=0,
        metadata={
            "help": "a vectorised loop of at least this many iterations first runs those before "
            "its store's (else its first load's) address reaches a vector_bytes boundary, so "
            "its vectors do not straddle cache lines (rows whose length is no multiple of the "
            "lanes); 0: never",
            "min": 0,
        },
    )
    divide_by_reciprocal: bool = field(
        default=False,
        metadata={
            "help": "vector loops divide by a loop-invariant float as a multiply by its "
            "reciprocal (within ~1 ulp; a versioned loop keeps the division where 1/x is not "
            "normal)"
        },
    )


def codegen_error(where: str, err: OptionError) -> CompileError:
    """A `[codegen]` option error, phrased for the config (`'key' must be ..., not ...`)."""
    return _error(where, f"'{err.key}' must be {err.expected}, not {err.value!r}")


def read_codegen(cls: type[BackendT], codegen: Mapping[str, Any], where: str) -> BackendT:
    """A backend's own `[codegen]` keys (a dataclass read by `plaidc.options`)."""
    try:
        return read_options(cls, codegen)
    except OptionError as err:
        if err.unknown:
            known = ", ".join(sorted(f.name for f in dataclasses.fields(cls)))  # type: ignore[arg-type]
            raise _error(where, f"unknown key '{err.key}' (known: {known})") from None
        raise CompileError(
            [Diagnostic(f"[codegen] '{err.key}' must be {err.expected}, not {err.value!r}")]
        ) from None


def _error(where: str, message: str) -> CompileError:
    return CompileError([Diagnostic(f"{where}: [codegen] {message}")])


def pinned_threads(target: TargetConfig) -> int | None:
    """The thread count a CPU config's [hardware] sets (a described chip), None if detected."""
    value = target.hardware.get("threads")
    return value if "threads" not in target.detected and isinstance(value, int) else None


def lowering_options(
    codegen: Mapping[str, Any],
    where: str,
    backend: type[BackendT],
    hardware_threads: int | None = None,
) -> tuple[LoweringOptions, BackendT]:
    """The lowering options of a `[codegen]` table and the backend's own keys (`backend`).

    Threads: `[codegen] threads`, else `hardware_threads` (a count the config's [hardware]
    sets), is fixed in the generated code; with neither, the code leaves the count to the
    OpenMP runtime at run time and the lowering plans for this machine's (`host_facts`)."""
    shared_keys = {f.name for f in dataclasses.fields(LoopnestCodegen)}
    own_keys = {f.name for f in dataclasses.fields(backend)}  # type: ignore[arg-type]
    unknown = [key for key in codegen if key not in shared_keys | own_keys]
    if unknown:
        known = ", ".join(sorted(shared_keys | own_keys))
        raise _error(where, f"unknown key '{unknown[0]}' (known: {known})")
    try:
        shared = read_options(
            LoopnestCodegen, {k: v for k, v in codegen.items() if k in shared_keys}
        )
    except OptionError as err:
        raise codegen_error(where, err) from None
    if shared.vector_bytes & (shared.vector_bytes - 1):
        # C's and OpenCL's vector types have power-of-two lane counts
        raise _error(where, f"'vector_bytes' must be a power of two, not {shared.vector_bytes}")
    own = read_codegen(backend, {k: v for k, v in codegen.items() if k in own_keys}, where)
    values = dataclasses.asdict(shared)
    for key in ("parallel_tags", "gemm_tags"):
        values[key] = tuple(tag.lstrip("#") for tag in values[key])
    pinned = shared.threads if shared.threads is not None else hardware_threads
    values["threads"] = pinned if pinned is not None else host_facts().values["threads"]
    values["pin_threads"] = pinned is not None
    if shared.vector_registers is None:
        values["vector_registers"] = X86_VECTOR_REGISTERS[shared.vector_bytes >= 64]
    return LoweringOptions(**values), own
