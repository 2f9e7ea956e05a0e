"""Compile CCE-like C against the simulator, run it on numpy arrays, return outputs and a report.

    kernel = compile_kernel(source, "matmul", ("A", "B", "C"), filename="matmul.cce")
    run = kernel.run({"A": a, "B": b, "C": c}, NpuMachine.from_hardware(config.hardware))
    run.buffers["C"], run.report.total_cycles

The generated C and an entry stub are compiled by the system C compiler and linked with the
simulator (sim.c, sim_vector.c: compiled once per compiler into cached objects) into a shared
library, cached by the hash of everything that goes into it under `$PLAIDC_CACHE_DIR/npu_sim`
(default `~/.cache/plaidc/npu_sim`), and loaded with ctypes.
Every kernel parameter is a `__gm__` pointer; each array is copied into a simulated GM arena at
an aligned slot padded to the GM alignment, and every slot is read back after the run.
An illegal use of the hardware raises `NpuSimError`; a missing C compiler `BackendUnavailable`.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from plaidc.backends import BackendUnavailable
from plaidc.backends.npu_sim.isa import OPTIONAL_OPS
from plaidc.backends.npu_sim.machine import MAX_CORES, MEMORIES, PATHS, PIPES, NpuMachine
from plaidc.backends.npu_sim.report import NpuReport
from plaidc.backends.npu_sim.trace import TRACE_RECORD, NpuTrace
from plaidc.diagnostics import CompileError, Diagnostic, Span

SIM_DIR = Path(__file__).resolve().parent
HEADER = SIM_DIR / "plaidc_npu.h"
SIM_SOURCES = ("sim.c", "sim_vector.c", "sim_trace.c")
SIM_HEADERS = ("plaidc_npu.h", "sim_internal.h")
# C11 for _Generic; no FMA contraction, so fp32 arithmetic is exactly what the C says.
DEFAULT_CFLAGS = ("-std=c11", "-O1", "-ffp-contract=off", "-Wall", "-Werror")
SIM_CFLAGS = ("-std=c11", "-O2", "-ffp-contract=off", "-Wall", "-Werror")
ENTRY = "plaidc_npu_entry"
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

_U64 = ctypes.c_uint64
NMEM, NPIPES, NPATHS = len(MEMORIES), len(PIPES), len(PATHS)
INTRINSIC_SLOTS = 64  # PLAIDC_INTRINSIC_SLOTS: distinct intrinsics the report counts


class _Machine(ctypes.Structure):
    _fields_ = [
        ("capacity", _U64 * NMEM),
        ("align", _U64 * NMEM),
        ("latency", _U64 * NPATHS),
        ("bytes_per_cycle", _U64 * NPATHS),
        ("cube_m", _U64),
        ("cube_k", _U64),
        ("cube_n", _U64),
        ("img2col_latency", _U64),
        ("img2col_bytes_per_cycle", _U64),
        ("vector_repeat_bytes", _U64),
        ("vector_latency", _U64),
        ("cores", _U64),
        ("core_barrier_latency", _U64),
        ("lacks", _U64),
    ]


class _Report(ctypes.Structure):
    _fields_ = [
        ("total_cycles", _U64),
        ("busy", _U64 * NPIPES),
        ("instructions", _U64 * NPIPES),
        ("bytes", _U64 * NPATHS),
        ("peak", _U64 * NMEM),
        ("touched", _U64 * NMEM),
        ("macs", _U64),
        ("unwaited_flags", _U64),
        ("intrinsics", _U64),
        ("intrinsic_count", _U64 * INTRINSIC_SLOTS),
        ("intrinsic_name", (ctypes.c_char * 32) * INTRINSIC_SLOTS),
        ("core_cycles", _U64 * MAX_CORES),
        ("core_busy", (_U64 * NPIPES) * MAX_CORES),
        ("core_barriers", _U64),
    ]


class _Error(ctypes.Structure):
    _fields_ = [
        ("instruction", ctypes.c_char * 32),
        ("file", ctypes.c_char * 256),
        ("line", _U64),
        ("message", ctypes.c_char * 1024),
        ("note", ctypes.c_char * 1024),
    ]


class _Trace(ctypes.Structure):
    _fields_ = [
        ("records", ctypes.c_void_p),
        ("capacity", _U64),
        ("count", _U64),
        ("dropped", _U64),
    ]


class NpuSimError(CompileError):
    """The kernel used the hardware illegally: names the instruction, its C line, the bytes."""

    def __init__(self, instruction: str, file: str, line: int, message: str, note: str) -> None:
        notes = (note,) if note else ()
        super().__init__(
            [Diagnostic(f"{instruction}: {message}", Span(file, line, 1), notes=notes)]
        )
        self.instruction = instruction
        self.file = file
        self.line = line


@dataclass(frozen=True)
class NpuRun:
    """The GM arguments after a run (by parameter name) and what the run cost."""

    buffers: dict[str, np.ndarray]
    report: NpuReport
    trace: NpuTrace | None = None  # the timeline, when the run was asked to record it


def find_c_compiler(environ: Mapping[str, str] | None = None) -> list[str]:
    """The compiler command: `$CC`, else cc, gcc or clang on PATH."""
    env = os.environ if environ is None else environ
    path = env.get("PATH", "")
    if env.get("CC"):
        command = shlex.split(env["CC"])
        if command and shutil.which(command[0], path=path):
            return command
        raise BackendUnavailable(
            f"the C compiler CC={env['CC']!r} was not found; the npu target compiles its "
            "simulator with the system C compiler: install gcc or clang, or fix CC"
        )
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name, path=path)
        if found:
            return [found]
    raise BackendUnavailable(
        "no C compiler found (looked for $CC, cc, gcc, clang): the npu target compiles its "
        "simulator with the system C compiler; install one, e.g. `apt-get install gcc`"
    )


def cache_root(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    base = env.get("PLAIDC_CACHE_DIR") or str(Path.home() / ".cache" / "plaidc")
    return Path(base) / "npu_sim"


def translation_unit(source: str, kernel: str, n_params: int, filename: str) -> str:
    """The kernel, its lines numbered as in `filename`, then the entry stub the runner calls."""
    quoted = filename.replace("\\", "\\\\").replace('"', '\\"')
    args = ", ".join(f"args[{i}]" for i in range(n_params))
    body = f"{kernel}({args});" if n_params else f"(void)args;\n  {kernel}();"
    return (
        f'#line 1 "{quoted}"\n{source}\n'
        f'#line 1 "<plaidc npu entry>"\n'
        f"void {ENTRY}(void *const *args);\n"
        f"void {ENTRY}(void *const *args) {{\n  {body}\n}}\n"
    )


def compile_kernel(
    source: str,
    kernel: str,
    params: Sequence[str],
    *,
    filename: str = "kernel.c",
    cflags: Sequence[str] = DEFAULT_CFLAGS,
    environ: Mapping[str, str] | None = None,
) -> NpuKernel:
    """Build (or find in the cache) the library running `kernel(params...)` of `source`.

    `cflags` apply to the kernel; the simulator is compiled once per compiler with
    SIM_CFLAGS into cached objects that every kernel links.
    """
    if not _IDENT.fullmatch(kernel):
        raise CompileError([Diagnostic(f"'{kernel}' is not a C function name")])
    compiler = find_c_compiler(environ)
    root = cache_root(environ)
    objects = _simulator_objects(compiler, root)
    unit = translation_unit(source, kernel, len(params), filename)
    folder = root / _digest(*compiler, *cflags, unit, str(objects[0].parent))
    library = folder / "kernel.so"
    if not library.exists():
        folder.mkdir(parents=True, exist_ok=True)
        unit_path = folder / "kernel_unit.c"
        _write_atomically(unit_path, unit)  # kept beside the library, for debugging
        _compile(compiler, [*cflags, "-shared", str(unit_path), *map(str, objects), "-lm"], library)
    return NpuKernel(library, kernel, tuple(params), filename)


def _digest(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()[:32]


def _write_atomically(path: Path, text: str) -> None:
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False) as out:
        out.write(text)
    os.replace(out.name, path)


def _simulator_objects(compiler: list[str], root: Path) -> list[Path]:
    """sim.o and sim_vector.o for this compiler, cached by the hash of the simulator's text."""
    texts = [(SIM_DIR / name).read_text() for name in SIM_HEADERS + SIM_SOURCES]
    folder = root / f"sim-{_digest(*compiler, *SIM_CFLAGS, *texts)}"
    objects = [folder / name.replace(".c", ".o") for name in SIM_SOURCES]
    for name, obj in zip(SIM_SOURCES, objects, strict=True):
        if not obj.exists():
            folder.mkdir(parents=True, exist_ok=True)
            _compile(compiler, [*SIM_CFLAGS, "-c", str(SIM_DIR / name)], obj)
    return objects


def _compile(compiler: list[str], arguments: list[str], output: Path) -> None:
    """Run the compiler into a private file, then rename it into place: concurrent builders
    (pytest -n) never see half a file, and the last identical rename wins."""
    with tempfile.TemporaryDirectory(dir=output.parent) as scratch:
        built = Path(scratch) / output.name
        command = [*compiler, "-fPIC", f"-I{SIM_DIR}", *arguments, "-o", str(built)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, check=False)
        except OSError as err:
            raise BackendUnavailable(f"cannot run the C compiler {compiler[0]}: {err}") from None
        if done.returncode != 0:
            raise CompileError(
                [Diagnostic(f"the NPU kernel does not compile:\n{done.stderr.strip()}")]
            )
        os.replace(built, output)


class NpuKernel:
    """A compiled kernel, loaded and ready to run on any machine description."""

    def __init__(self, library: Path, kernel: str, params: tuple[str, ...], filename: str) -> None:
        self.library = library
        self.kernel = kernel
        self.params = params
        self.filename = filename
        self._dll = ctypes.CDLL(str(library))
        self._check_abi()
        run = self._dll.plaidc_npu_run
        run.restype = ctypes.c_int
        run.argtypes = [
            ctypes.POINTER(_Machine),
            ctypes.c_void_p,
            ctypes.c_void_p,
            _U64,
            _U64,
            ctypes.POINTER(_U64),
            ctypes.POINTER(_U64),
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.POINTER(_Report),
            ctypes.POINTER(_Error),
            ctypes.POINTER(_Trace),
        ]
        self._run = run
        self._entry = ctypes.cast(getattr(self._dll, ENTRY), ctypes.c_void_p)

    def _check_abi(self) -> None:
        abi = (_U64 * 8)()
        self._dll.plaidc_npu_abi(abi)
        expected = (
            ctypes.sizeof(_Machine),
            ctypes.sizeof(_Report),
            ctypes.sizeof(_Error),
            NMEM,
            NPIPES,
            NPATHS,
            len(OPTIONAL_OPS),
            TRACE_RECORD.itemsize,
        )
        if tuple(abi) != expected:
            raise CompileError(
                [Diagnostic(f"plaidc_npu.h and runner.py disagree: C {tuple(abi)}, {expected}")]
            )

    def run(
        self,
        buffers: Mapping[str, np.ndarray],
        machine: NpuMachine,
        trace_cap: int | None = None,
    ) -> NpuRun:
        """Run on one array per parameter; returns every argument's contents afterwards and,
        with `trace_cap` (the most records to keep), the timeline."""
        if set(buffers) != set(self.params):
            raise ValueError(f"{self.kernel} takes {self.params}, got {tuple(buffers)}")
        arrays = [np.ascontiguousarray(buffers[name]) for name in self.params]
        offsets, sizes, total = _gm_layout([a.nbytes for a in arrays], machine.gm_align)
        arena = np.zeros(max(total, 1), dtype=np.uint8)
        for array, offset in zip(arrays, offsets, strict=True):
            arena[offset : offset + array.nbytes] = array.reshape(-1).view(np.uint8)

        n = len(arrays)
        c_offsets = (_U64 * max(n, 1))(*offsets)
        c_sizes = (_U64 * max(n, 1))(*sizes)
        c_names = (ctypes.c_char_p * max(n, 1))(*(name.encode() for name in self.params))
        c_machine = _machine_struct(machine)
        report, error = _Report(), _Error()
        # Zeroed pages cost nothing until the simulator writes them.
        records = np.zeros(trace_cap or 0, dtype=TRACE_RECORD)
        trace = None if trace_cap is None else _Trace(records.ctypes.data, trace_cap, 0, 0)
        status = _on_a_large_stack(
            lambda: self._run(
                ctypes.byref(c_machine),
                self._entry,
                arena.ctypes.data,
                total,
                n,
                c_offsets,
                c_sizes,
                c_names,
                ctypes.byref(report),
                ctypes.byref(error),
                ctypes.byref(trace) if trace is not None else None,
            )
        )
        if status == 1:
            raise NpuSimError(
                error.instruction.decode(),
                error.file.decode(),
                int(error.line),
                error.message.decode(),
                error.note.decode(),
            )
        if status != 0:
            raise CompileError([Diagnostic(f"NPU simulator: {error.message.decode()}")])
        outputs = {
            name: arena[offset : offset + array.nbytes].view(array.dtype).reshape(array.shape)
            for name, array, offset in zip(self.params, arrays, offsets, strict=True)
        }
        timeline = None
        if trace is not None:
            timeline = NpuTrace.from_records(
                records[: int(trace.count)], int(trace.dropped), trace_cap or 0, machine.cores
            )
        return NpuRun({k: v.copy() for k, v in outputs.items()}, _report(report, machine), timeline)


# A kernel is one straight-line C function; the compiler gives each of its many inlined helper
# calls stack slots of their own, so thousands of tiles need a frame larger than a default
# thread stack (a 4096-tile matmul: 9.4 MB, over the usual 8 MB: a segfault). Kernels run on a
# thread whose stack is reserved this large (address space only; pages are used as touched).
KERNEL_STACK_BYTES = 1 << 30


def _on_a_large_stack(call: Callable[[], int]) -> int:
    result: list[int] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(call())
        except BaseException as err:  # re-raised in the caller's thread
            failure.append(err)

    previous = threading.stack_size(KERNEL_STACK_BYTES)
    try:
        worker = threading.Thread(target=run, name="npu-kernel")
        worker.start()
    finally:
        threading.stack_size(previous)
    worker.join()
    if failure:
        raise failure[0]
    return result[0]


def _gm_layout(nbytes: Sequence[int], align: int) -> tuple[list[int], list[int], int]:
    """Slots for the GM arguments: aligned, padded to the alignment, one aligned gap apart.

    DMA moves whole 32-B blocks, so a slot is padded like a real GM allocation; the gap after it
    makes a transfer that runs past a slot land outside every argument, where it is reported.
    """
    offsets, sizes, cursor = [], [], 0
    for size in nbytes:
        padded = -(-size // align) * align
        offsets.append(cursor)
        sizes.append(padded)
        cursor += padded + align
    return offsets, sizes, cursor


def _machine_struct(machine: NpuMachine) -> _Machine:
    s = _Machine()
    s.capacity[:] = machine.capacities()
    s.align[:] = machine.alignments()
    s.latency[:] = machine.path_latencies()
    s.bytes_per_cycle[:] = machine.path_bandwidths()
    s.cube_m, s.cube_k, s.cube_n = machine.cube_m, machine.cube_k, machine.cube_n
    s.img2col_latency = machine.img2col_latency
    s.img2col_bytes_per_cycle = machine.img2col_bytes_per_cycle
    s.vector_repeat_bytes = machine.vector_repeat_bytes
    s.vector_latency = machine.vector_latency
    s.cores = machine.cores
    s.core_barrier_latency = machine.core_barrier_latency
    s.lacks = machine.lacks_mask()
    return s


def _report(r: _Report, machine: NpuMachine) -> NpuReport:
    on_chip = MEMORIES[1:]
    capacity = dict(zip(MEMORIES, machine.capacities(), strict=True))
    return NpuReport(
        total_cycles=int(r.total_cycles),
        cores=machine.cores,
        busy_cycles={p: int(v) for p, v in zip(PIPES, r.busy, strict=True)},
        instructions={p: int(v) for p, v in zip(PIPES, r.instructions, strict=True)},
        bytes_moved={p: int(v) for p, v in zip(PATHS, r.bytes, strict=True)},
        peak_bytes={m: int(r.peak[MEMORIES.index(m)]) for m in on_chip},
        touched_bytes={m: int(r.touched[MEMORIES.index(m)]) for m in on_chip},
        capacity={m: capacity[m] for m in on_chip},
        macs=int(r.macs),
        cube_macs_per_cycle=machine.cube_macs_per_cycle,
        unwaited_flags=int(r.unwaited_flags),
        core_cycles=[int(r.core_cycles[c]) for c in range(machine.cores)],
        core_busy=[
            {p: int(v) for p, v in zip(PIPES, r.core_busy[c], strict=True)}
            for c in range(machine.cores)
        ],
        core_barriers=int(r.core_barriers),
        by_intrinsic={
            r.intrinsic_name[k].value.decode(): int(r.intrinsic_count[k])
            for k in range(int(r.intrinsics))
        },
    )
