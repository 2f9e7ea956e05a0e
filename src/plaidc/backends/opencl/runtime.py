"""The OpenCL host runtime (pyopencl): device choice, program builds, buffers and launches.

Before pyopencl is first imported the runtimes the virtual environment ships are made visible to
the ICD loader (`platforms.expose_venv_runtimes`). The platform is `$PLAIDC_OPENCL_PLATFORM` (a
case-insensitive part of the platform's name, or its index in `pyopencl.get_platforms()`), else
the first candidate whose device builds a trivial kernel (`platforms.choose_platform`); the
device is that platform's first. One context and in-order queue per platform serves the whole
process (`open_device` is memoised): programs and buffers belong to a context, and creating one
costs more than a small kernel run.

A run lays the program's buffers out as the CPU backends do (`plaidc.backends.loopnest.runtime.
run_plan`: interpreter layout, poison in outputs), wraps that host memory in OpenCL buffers
(`USE_HOST_PTR`: no copies on CPU devices), launches the kernels in order, and maps the written
buffers back so the host sees every result before they are read.
"""

from __future__ import annotations

import ctypes
import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from plaidc.backends import BackendUnavailable
from plaidc.backends.loopnest.plan import STATUS, BufferParam
from plaidc.backends.loopnest.runtime import run_plan
from plaidc.backends.loopnest.scalars import storage
from plaidc.backends.opencl.emit import CONTRACT_OPTION, REASSOCIATE_OPTION
from plaidc.backends.opencl.kernels import AllocStep, KernelProgram, LaunchStep
from plaidc.backends.opencl.platforms import (
    PROBE_KERNEL,
    choose_platform,
    compiler_message,
    expose_venv_runtimes,
)
from plaidc.backends.toolchain import cache_dir
from plaidc.diagnostics import CompileError, Diagnostic, InternalError
from plaidc.interp import numpy_dtype
from plaidc.stripe.ir import DType

INSTALL = (
    "install pyopencl and an OpenCL runtime, e.g. `pip install pyopencl "
    "pocl-binary-distribution intel-opencl-rt intel-cmplr-lib-rt` (the `opencl` extra: "
    "`pip install -e '.[opencl]'`, which `make install` does)"
)


def _pyopencl() -> Any:
    _expose_venv_runtimes_once()
    try:
        import pyopencl
    except ImportError as err:
        raise BackendUnavailable(f"the OpenCL backend needs pyopencl ({err}): {INSTALL}") from None
    return pyopencl


@cache
def _expose_venv_runtimes_once() -> None:
    """Before the loader first lists platforms (it reads its variables then, once)."""
    expose_venv_runtimes(os.environ, Path(sys.prefix), cache_dir())


@dataclass(frozen=True)
class Device:
    """An OpenCL device with its context and in-order command queue."""

    context: Any
    queue: Any
    device: Any
    platform: str

    @property
    def description(self) -> str:
        return f"{self.platform}: {self.device.name.strip()}"


@cache
def open_device(choice: str | None) -> Device:
    """The device of the chosen platform (module docstring), with its context and queue."""
    cl = _pyopencl()
    try:
        platforms = cl.get_platforms()
    except Exception as err:  # pyopencl raises its own LogicError when no ICD is installed
        raise BackendUnavailable(f"no OpenCL platform is available ({err}): {INSTALL}") from None
    contexts: dict[int, Any] = {}

    def probe(platform: Any) -> str | None:
        """None when the platform's first device builds a trivial kernel, else why not."""
        with _captured_stderr() as printed:
            try:
                context = cl.Context([platform.get_devices()[0]])
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", cl.CompilerWarning)
                    cl.Program(context, PROBE_KERNEL).build()
            except Exception as err:  # any failure means this platform cannot be used
                error: Exception | None = err
            else:
                error = None
        if error is not None:
            return "\n".join(part for part in (compiler_message(str(error)), printed()) if part)
        contexts[id(platform)] = context
        return None

    platform = choose_platform(platforms, choice, probe)
    context = contexts[id(platform)]
    device = context.devices[0]
    return Device(context, cl.CommandQueue(context), device, platform.name)


def default_device() -> Device:
    return open_device(os.environ.get("PLAIDC_OPENCL_PLATFORM") or None)


def build_options(device: Device, extra: tuple[str, ...]) -> list[str]:
    """Compiler options: correctly rounded `/` and `sqrt` where the device offers them (numpy's
    results), the reassociation pragma where its compiler accepts it, then the config's."""
    cl = _pyopencl()
    options = []
    if device.device.single_fp_config & cl.device_fp_config.CORRECTLY_ROUNDED_DIVIDE_SQRT:
        options.append("-cl-fp32-correctly-rounded-divide-sqrt")
    if accepts_reassociate_pragma(device):
        options.append(REASSOCIATE_OPTION)
    if accepts_contract_pragmas(device):
        options.append(CONTRACT_OPTION)
    return [*options, *extra]


_REASSOCIATE_PROBE = """
__kernel void plaidc_probe(__global float *x) {
  float s = 0.0f;
  {
    #pragma clang fp reassociate(on)
    for (int i = 0; i < 8; ++i) s += x[i];
  }
  x[0] = s;
}
"""


_CONTRACT_PROBE = """
#pragma OPENCL FP_CONTRACT OFF
__kernel void plaidc_probe(__global float *x) {
  _Pragma("OPENCL FP_CONTRACT ON")
  x[0] = x[1] * x[2] + x[3];
}
"""


@cache
def accepts_reassociate_pragma(device: Device) -> bool:
    """Whether the device's compiler builds clang's `fp reassociate` pragma (pocl's clang
    does; NVIDIA's compiler rejects it as an error): found by building a probe, once."""
    return _builds(device, _REASSOCIATE_PROBE)


@cache
def accepts_contract_pragmas(device: Device) -> bool:
    """Whether the device's compiler builds the `OPENCL FP_CONTRACT` pragmas as plaidc emits
    them (standard OpenCL C, but a rejection would fail every program): a probe, once."""
    return _builds(device, _CONTRACT_PROBE)


def _builds(device: Device, probe: str) -> bool:
    cl = _pyopencl()
    try:
        with warnings.catch_warnings(), _quiet_stderr():
            warnings.simplefilter("ignore", cl.CompilerWarning)
            cl.Program(device.context, probe).build()
    except cl.RuntimeError:
        return False
    return True


@contextmanager
def _captured_stderr() -> Iterator[Callable[[], str]]:
    """What is written to file descriptor 2 meanwhile (compilers print their errors there, not
    only in the build log), kept from the terminal and readable through the yielded function
    once the block ends."""
    captured: list[str] = []
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with tempfile.TemporaryFile() as sink:
            os.dup2(sink.fileno(), 2)
            try:
                yield lambda: "".join(captured).strip()
            finally:
                sys.stderr.flush()
                os.dup2(saved, 2)
                sink.seek(0)
                captured.append(sink.read().decode(errors="replace"))
    finally:
        os.close(saved)


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Compilers print a rejected probe's errors straight to file descriptor 2 ("1 error
    generated."): hide them, since the probe's failure is an answer, not the user's error."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def build_program(device: Device, source: str, options: list[str]) -> Any:
    """Compile OpenCL C for `device`; binaries are cached on disk by source and options (by
    pyopencl under plaidc's cache directory, or by the runtime itself, as pocl does).
    A program that does not compile is an internal error carrying the compiler's log."""
    cl = _pyopencl()
    folder = cache_dir() / "opencl"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with warnings.catch_warnings():
            # pyopencl warns about any non-empty build log (pocl's remarks included); a
            # failed build is reported below with its log.
            warnings.simplefilter("ignore", cl.CompilerWarning)
            return cl.Program(device.context, source).build(options=options, cache_dir=str(folder))
    except cl.RuntimeError as err:
        log = "\n".join(str(err).strip().splitlines()[:30])
        raise InternalError(f"the generated OpenCL C does not compile:\n{log}") from None


@dataclass
class Executable:
    """A built kernel program, ready to run on numpy arrays."""

    program: KernelProgram
    device: Device
    binary: Any
    kernels: dict[str, Any] = field(default_factory=dict)
    temporaries: dict[str, Any] = field(default_factory=dict)
    scratch: dict[str, list[Any]] = field(default_factory=dict)
    written: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        cl = _pyopencl()
        for kernel in self.program.kernels:
            self.kernels[kernel.function] = cl.Kernel(self.binary, kernel.function)
            self.scratch[kernel.function] = [
                self._buffer(s.size * kernel.work_items, s.dtype, s.buffer) for s in kernel.scratch
            ]
        for function in self.program.plan.functions:
            if function.name in self.kernels:
                self.written.update(
                    p.name for p in function.params if isinstance(p, BufferParam) and p.writes
                )
        for step in self.program.steps:
            if isinstance(step, AllocStep):
                self.temporaries[step.buffer] = self._buffer(step.size, step.dtype, step.buffer)

    def _buffer(self, elements: int, dtype: DType, what: str) -> Any:
        """A device buffer of `elements` elements (contents undefined)."""
        cl = _pyopencl()
        nbytes = max(elements, 1) * numpy_dtype(storage(dtype)).itemsize
        try:
            return cl.Buffer(self.device.context, cl.mem_flags.READ_WRITE, nbytes)
        except cl.Error as err:
            raise CompileError(
                [Diagnostic(f"cannot allocate {nbytes} bytes for '{what}' on the device: {err}")]
            ) from None

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        return run_plan(self.program.plan, self._execute, inputs)

    def _execute(self, table: int) -> None:
        """Run every step on the host arrays at the pointers of the table at address `table`
        (one per program buffer, then the status word, as `run_plan` passes them)."""
        cl = _pyopencl()
        plan = self.program.plan
        pointers = (ctypes.c_size_t * (len(plan.buffers) + 1)).from_address(table)
        hosts: dict[str, np.ndarray] = {}
        for k, buf in enumerate(plan.buffers):
            dtype = numpy_dtype(storage(buf.dtype))
            hosts[buf.name] = _host_view(pointers[k], max(buf.region, 1) * dtype.itemsize)
        hosts[STATUS] = _host_view(pointers[len(plan.buffers)], 4)
        flags = cl.mem_flags.READ_WRITE | cl.mem_flags.USE_HOST_PTR
        buffers = {
            name: cl.Buffer(self.device.context, flags, hostbuf=host)
            for name, host in hosts.items()
        }
        buffers.update(self.temporaries)
        by_name = {k.function: k for k in self.program.kernels}
        queue = self.device.queue
        try:
            for step in self.program.steps:
                if not isinstance(step, LaunchStep):
                    continue
                spec = by_name[step.kernel]
                if 0 in spec.global_size:
                    continue
                kernel = self.kernels[step.kernel]
                kernel.set_args(*(buffers[name] for name in step.args), *self.scratch[step.kernel])
                cl.enqueue_nd_range_kernel(queue, kernel, spec.global_size, spec.local_size)
            for name in sorted(self.written & set(hosts)):
                # Mapping makes the device's writes visible in the host memory (a no-op
                # where they share it).
                mapped, _ = cl.enqueue_map_buffer(
                    queue, buffers[name], cl.map_flags.READ, 0, hosts[name].shape, np.uint8
                )
                mapped.base.release(queue)
            queue.finish()
        except cl.Error as err:
            raise CompileError([Diagnostic(f"the OpenCL run failed: {err}")]) from None


def _host_view(pointer: int, nbytes: int) -> np.ndarray:
    """The bytes at `pointer` as a writable numpy array (no copy)."""
    return np.ctypeslib.as_array((ctypes.c_ubyte * nbytes).from_address(pointer))
