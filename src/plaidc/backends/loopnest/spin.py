"""How long libgomp's idle threads spin before they sleep, as a time rather than a count.

libgomp takes the spin of a waiting thread (a worker between parallel regions, the master at a
region's end) as a number of iterations (`GOMP_SPINCOUNT`), each an atomic load and a
`cpu_relax()` (x86's `pause`). What one iteration costs varies several-fold between CPUs
(`pause` takes ~140 cycles on recent Intel cores, a handful on older ones), so the configs give
the spin as microseconds (`[codegen] omp_spin_us`) and `spin_count` converts them with the cost
of that loop measured on this host (the same loop, JIT-compiled by LLVM, timed by the wall clock
over a spin of about the wanted length, the median of a few runs), once per CPU model: the count
is kept in the cache directory (`spin/`).

`openmp_wait` sets the two variables libgomp reads when it is first loaded, unless the user set
either: `OMP_WAIT_POLICY` (the config's `omp_wait_policy`) and `GOMP_SPINCOUNT` (from
`omp_spin_us`). With `passive` and a spin count, a waiting thread spins for that long and then
sleeps; when there are more threads than CPUs in the affinity mask libgomp does not spin at all.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import platform
import statistics
import tempfile
import time
from collections.abc import Callable

from plaidc.diagnostics import CompileError, Diagnostic

# timed runs of a calibration (the median counts)
_CALIBRATION_RUNS = 5
_FIRST_GUESS_SPINS = 1000

_SPIN_IR = """
define void @plaidc_spin(ptr %flag, i64 %count) {{
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %done = icmp uge i64 %i, %count
  br i1 %done, label %exit, label %body
body:
  %value = load atomic i32, ptr %flag monotonic, align 4
  {relax}
  %next = add i64 %i, 1
  %set = icmp ne i32 %value, 0
  br i1 %set, label %exit, label %loop
exit:
  ret void
}}
{declare}
"""

Spinner = Callable[[int], float]


@functools.cache
def _spinner() -> Spinner:
    """A function running `count` iterations of libgomp's spin loop, returning its seconds."""
    import llvmlite.binding as llvm

    x86 = platform.machine().lower() in ("x86_64", "amd64", "i386", "i686")
    ir = _SPIN_IR.format(
        relax="call void @llvm.x86.sse2.pause()" if x86 else "",
        declare="declare void @llvm.x86.sse2.pause()" if x86 else "",
    )
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    target = llvm.Target.from_triple(llvm.get_process_triple())
    module = llvm.parse_assembly(ir)
    module.verify()
    engine = llvm.create_mcjit_compiler(module, target.create_target_machine(opt=2))
    engine.finalize_object()
    spin = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_int32), ctypes.c_int64)(
        engine.get_function_address("plaidc_spin")
    )
    flag = ctypes.c_int32(0)

    def run(count: int) -> float:
        _ = engine  # the machine code lives as long as this function
        start = time.perf_counter()
        spin(ctypes.byref(flag), count)
        return time.perf_counter() - start

    return run


def _median_ns(run: Spinner, count: int) -> float:
    seconds = statistics.median(run(count) for _ in range(_CALIBRATION_RUNS))
    return max(seconds * 1e9 / count, 0.01)


@functools.cache
def spin_count(microseconds: float) -> int:
    """`GOMP_SPINCOUNT` for a spin of about `microseconds` on this host: measured once per CPU
    model and kept in the cache directory (`measure_spin_count`; the JIT and the runs cost
    ~0.1-0.2 s, which every process's first compile would pay)."""
    if microseconds <= 0:
        return 0
    from plaidc.backends.toolchain import cache_dir
    from plaidc.targets.host import host_fingerprint

    key = f"{platform.machine()}\0{host_fingerprint()['cpu']}\0{microseconds!r}"
    path = cache_dir() / "spin" / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.txt"
    try:
        kept = int(path.read_text())
        if kept > 0:
            return kept
    except (OSError, ValueError):
        pass
    count = measure_spin_count(microseconds)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False) as tmp:
            tmp.write(str(count))
        os.replace(tmp.name, path)
    except OSError:  # an unwritable cache: measured again next time
        pass
    return count


def measure_spin_count(microseconds: float) -> int:
    """The count for `microseconds`, measured: the median time of a short spin gives a first
    count, the median time of a spin of that count the final one (an iteration's cost depends
    on the spin's length: under a hypervisor, long `pause` loops exit to it)."""
    run = _spinner()
    guess = max(1, round(microseconds * 1000 / _median_ns(run, _FIRST_GUESS_SPINS)))
    return max(1, round(microseconds * 1000 / _median_ns(run, guess)))


def openmp_wait(policy: object, spin_us: object) -> None:
    """Set libgomp's wait policy and spin for this process, unless the user chose either
    (`OMP_WAIT_POLICY`, `GOMP_SPINCOUNT`). `policy` is the config's `[codegen]
    omp_wait_policy` (`active` or `passive`), `spin_us` its `omp_spin_us` (None: libgomp's
    spin for the policy). libgomp reads them when it is first loaded into the process."""
    if policy is not None and (
        not isinstance(policy, str) or policy.lower() not in ("active", "passive")
    ):
        raise CompileError(
            [
                Diagnostic(
                    f'[codegen] \'omp_wait_policy\' must be "active" or "passive", not {policy!r}'
                )
            ]
        )
    if spin_us is not None and (
        isinstance(spin_us, bool) or not isinstance(spin_us, (int, float)) or spin_us < 0
    ):
        raise CompileError(
            [Diagnostic(f"[codegen] 'omp_spin_us' must be a number >= 0, not {spin_us!r}")]
        )
    if "OMP_WAIT_POLICY" in os.environ or "GOMP_SPINCOUNT" in os.environ:
        return  # the user's choice
    if policy is not None:
        os.environ["OMP_WAIT_POLICY"] = policy
    if spin_us is not None:
        os.environ["GOMP_SPINCOUNT"] = str(spin_count(float(spin_us)))


# Variables through which a user places libgomp's threads; any of them set wins over the config.
_PLACEMENT = ("OMP_PROC_BIND", "OMP_PLACES", "GOMP_CPU_AFFINITY")


def openmp_bind(bind: object) -> None:
    """Set libgomp's thread binding for this process (`OMP_PROC_BIND`) from the config's
    `[codegen] omp_proc_bind` (None: leave libgomp's default), unless the user placed the
    threads (`OMP_PROC_BIND`, `OMP_PLACES`, `GOMP_CPU_AFFINITY`). Bound, the worker a region
    wakes runs on its own CPU instead of where the scheduler first puts it (often the CPU of
    the thread that woke it, on a busy machine), so a loop split over the threads runs on as
    many CPUs. libgomp reads it when it is first loaded into the process."""
    if bind is not None and not isinstance(bind, bool):
        raise CompileError(
            [Diagnostic(f"[codegen] 'omp_proc_bind' must be true or false, not {bind!r}")]
        )
    if bind is None or any(name in os.environ for name in _PLACEMENT):
        return
    value = "true" if bind else "false"
    os.environ["OMP_PROC_BIND"] = value
    _SET_HERE.add(value)


# OMP_PROC_BIND values this process set (not the user's), for `placement_set_here`
_SET_HERE: set[str] = set()


def placement_set_here() -> bool:
    """Whether `OMP_PROC_BIND` is plaidc's choice for this process (`openmp_bind`) rather than
    the user's: processes that share the CPUs (MPI ranks) do not inherit it, as each rank's
    threads would be bound to the same first CPUs."""
    return os.environ.get("OMP_PROC_BIND") in _SET_HERE
