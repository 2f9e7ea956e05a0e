"""JIT compilation of generated LLVM IR for the host CPU (llvmlite's MCJIT).

The module is optimised with LLVM's new pass manager at `OPT_LEVEL` (-O2; loop and SLP
vectorisation on) for the host's CPU and features, then compiled in memory. Machine code is
cached by content hash (the IR, the CPU, its features and the LLVM version) under the cache
directory, so a program compiled before loads without running the optimiser again. libgomp is
loaded into the process when the code runs loops on threads.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import os
import re
import tempfile
import weakref
from dataclasses import dataclass
from typing import Any, Literal

import llvmlite
import llvmlite.binding as llvm

from plaidc.backends import BackendUnavailable
from plaidc.backends.llvm.scratch import FREE
from plaidc.backends.toolchain import cache_dir
from plaidc.diagnostics import InternalError

# LLVM's optimisation level unless the config says otherwise (`[codegen] opt_level`). -O2, not
# -O3: the code is as fast (the GEMM micro-kernels are unrolled in the IR; O3's extra unrolling
# copied cold loops, such as a conv's bias+relu epilogue 14 times) and half the size, and the
# optimiser and code generator take half the time: conv 3x3 56x56x64 +bias+relu 0.49 -> 0.18 s
# CPU (loop strength reduction alone took 0.27 s on O3's unrolled copies), gconv 0.30 -> 0.15 s.
# Run time, O3 vs O2, CPU time, interleaved, best of 30-200 (loaded host): every benchmark row
# and the odd shapes within 2%, none slower beyond the noise (README, "Compile time").
OPT_LEVEL: Literal[0, 1, 2, 3] = 2


@dataclass
class Jitted:
    """A compiled module: the engine must stay alive while `entry` is used."""

    engine: Any
    module: Any
    entry: Any
    target_machine: Any


def _target_machine(opt: int) -> Any:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    target = llvm.Target.from_triple(llvm.get_process_triple())
    return target.create_target_machine(
        cpu=llvm.get_host_cpu_name(),
        features=llvm.get_host_cpu_features().flatten(),
        opt=opt,
        codemodel="jitdefault",
    )


def _load_gomp() -> None:
    name = ctypes.util.find_library("gomp")
    if name is None:
        raise BackendUnavailable(
            "the LLVM backend runs parallel loops with libgomp, which is missing: install it "
            "(e.g. `apt-get install libgomp1`), or remove parallel_tags from [codegen]"
        )
    llvm.load_library_permanently(name)


def _load_runtime(vector_math: bool) -> None:
    """Make the compiler runtime's helpers visible to the JIT (LLVM calls e.g.
    `__truncdfhf2` for double-to-half conversions, which x86 has no instruction for), and
    glibc's vector math library when the code calls it."""
    name = ctypes.util.find_library("gcc_s")
    if name is not None:
        llvm.load_library_permanently(name)
    if vector_math:
        mvec = ctypes.util.find_library("mvec")
        if mvec is None:
            raise BackendUnavailable(
                '[codegen] vector_math = "libmvec" needs glibc\'s libmvec, which is missing'
            )
        llvm.load_library_permanently(mvec)


def _optimise(module: Any, tm: Any, opt: int) -> None:
    pto = llvm.create_pipeline_tuning_options(speed_level=opt)
    pto.loop_vectorization = opt >= 2
    pto.slp_vectorization = opt >= 2
    pto.loop_unrolling = opt >= 2
    builder = llvm.create_pass_builder(tm, pto)
    builder.getModulePassManager().run(module, builder)


def cache_key(ir_text: str, tm: Any, opt: int) -> str:
    parts = [
        ir_text,
        llvm.get_host_cpu_name(),
        llvm.get_host_cpu_features().flatten(),
        llvmlite.__version__,
        str(opt),
        str(tm.triple),
    ]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]


def _free_scratch(free: Any, _engine: Any) -> None:
    free()


def jit(
    ir_text: str, uses_threads: bool, opt: int = OPT_LEVEL, vector_math: bool = False
) -> Jitted:
    """Compile `ir_text` (a module exporting `plaidc_entry(ptr)`) and return its entry."""
    if uses_threads:
        _load_gomp()
    _load_runtime(vector_math)
    tm = _target_machine(opt)
    module = llvm.parse_assembly(ir_text)
    module.triple = tm.triple
    module.data_layout = str(tm.target_data)
    module.verify()
    folder = cache_dir() / "llvm"
    cached = folder / f"{cache_key(ir_text, tm, opt)}.o"
    hit = cached.exists()
    if not hit:
        _optimise(module, tm, opt)
    engine = llvm.create_mcjit_compiler(module, tm)

    def notify(_module: Any, buffer: bytes) -> None:
        if hit:
            return
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, delete=False, suffix=".tmp") as tmp:
            tmp.write(buffer)
        os.replace(tmp.name, cached)

    def getbuffer(_module: Any) -> bytes | None:
        return cached.read_bytes() if hit else None

    engine.set_object_cache(notify, getbuffer)
    engine.finalize_object()
    address = engine.get_function_address("plaidc_entry")
    entry = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(address)
    jitted = Jitted(engine, module, entry, tm)
    release = engine.get_function_address(FREE)
    if release:
        # the kept scratch buffers (`scratch.FREE`) go with the compiled program; the
        # finalizer holds the engine, so the code outlives the call
        free = ctypes.CFUNCTYPE(None)(release)
        weakref.finalize(jitted, _free_scratch, free, engine).atexit = False
    return jitted


def object_code(ir_text: str, opt: int = OPT_LEVEL) -> bytes:
    """Optimised machine code of a module as an object file (for `--emit lib`)."""
    tm = _target_machine(opt)
    module = llvm.parse_assembly(ir_text)
    module.triple = tm.triple
    module.data_layout = str(tm.target_data)
    module.verify()
    _optimise(module, tm, opt)
    tm.set_asm_verbosity(False)
    return tm.emit_object(module)


def llvm_version() -> str:
    """The version of the LLVM that llvmlite links (e.g. `14.0.6`)."""
    return ".".join(str(part) for part in llvm.llvm_version_info)


_TARGET_LINES = re.compile(r'^target triple = ".*"\ntarget datalayout = ".*"$', re.MULTILINE)


def host_ir(ir_text: str) -> str:
    """`ir_text` (a module as `emit_llvm` prints it, for no target) made this host's: its
    target triple and data layout, so that llc or clang of the same LLVM version compile it
    as the JIT does, under a comment naming that version (`--emit llvm` writes this)."""
    tm = _target_machine(3)
    targets = f'target triple = "{tm.triple}"\ntarget datalayout = "{tm.target_data}"'
    text, found = _TARGET_LINES.subn(lambda _: targets, ir_text, count=1)
    if found != 1:
        raise InternalError("the emitted LLVM module has no target triple and data layout lines")
    version = llvm_version()
    header = (
        f"; LLVM IR from plaidc for LLVM {version} (llvmlite {llvmlite.__version__}), "
        f"target {tm.triple}\n"
        f"; compile it with llc or clang of LLVM {version.split('.')[0]}: the textual IR of "
        "other LLVM versions differs\n"
    )
    return header + text


def optimised_ir(ir_text: str, opt: int = OPT_LEVEL) -> str:
    """The module after optimisation (for inspecting what LLVM made of it)."""
    tm = _target_machine(opt)
    module = llvm.parse_assembly(ir_text)
    module.triple = tm.triple
    module.data_layout = str(tm.target_data)
    _optimise(module, tm, opt)
    return str(module)


__all__ = ["OPT_LEVEL", "Jitted", "host_ir", "jit", "llvm_version", "object_code", "optimised_ir"]
