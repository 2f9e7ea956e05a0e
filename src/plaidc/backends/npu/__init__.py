"""The NPU backend (`-t npu`): Stripe -> CCE-like C -> the plaidc NPU simulator.

    placement read back the pipeline's UB copies of each tile and their offsets (`placement`)
    kernels   flatten the program into affine kernels over GM buffers (`kernels`)
    reindex   aggregating stores several points share (`C[i + j]`) made one-to-one (`reindex`)
    lower     each kernel to pipe operations with exact footprints: the Cube for contractions
              (`cube`), the vector unit for everything else (`vector`, `valops`, `moves`)
              the scalar unit for `gather`'s data-dependent rows (`gather`); a Cube
              contraction's tiles and K steps as loops, lowered from a sample of their
              iterations (`loops`)
    sync      a set_flag/wait_flag on every cross-pipe dependence (`sync`)
    emit      CCE-like C against plaidc_npu.h, the loops rolled (`emit`, `loops`, `clib`)
    run       compile with the system C compiler against the simulator (on first run, not
              at compile), run, report

Correctness never depends on the pass pipeline: the backend tiles, places and synchronises
whatever Stripe it is given, choosing every on-chip address within the capacities of the target
config's `[hardware]` table. Where the pipeline chose (the tiles of `npu_tile` blocks, the UB
offsets of a vector tile's copies) the backend follows it when the choice fits. What the NPU
cannot do (an intrinsic outside the vector ISA, a type without lanes, a data-dependent access)
is a CompileError naming it. `[codegen]` keys: see
`context.Options`.
"""

from __future__ import annotations

import gc
import hashlib
import re
import shutil
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from plaidc.backends import content_digest
from plaidc.backends.npu.context import Context, Options
from plaidc.backends.npu.cores import CorePlan
from plaidc.backends.npu.cube import lower_contraction
from plaidc.backends.npu.cube_match import converted_on_the_way_out, epilogue_for
from plaidc.backends.npu.cube_tiling import CUBE_TILE_KEYS, CubeTileOptions
from plaidc.backends.npu.emit import ENTRY, emit_kernel
from plaidc.backends.npu.gather import lower_gather
from plaidc.backends.npu.kernels import Buffer, GatherKernel, Kernel, lower_program
from plaidc.backends.npu.loops import NotRollable
from plaidc.backends.npu.ops import Op, comment
from plaidc.backends.npu.placement import uncache
from plaidc.backends.npu.reindex import reindex_stores
from plaidc.backends.npu.sync import insert_sync
from plaidc.backends.npu.vector import lower_kernel
from plaidc.backends.npu_sim import NpuKernel, NpuMachine, NpuReport, NpuTrace, compile_kernel
from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.interp import cast_to, element_offsets, numpy_dtype, poison_value
from plaidc.stripe.ir import Block
from plaidc.targets import TargetConfig


@dataclass
class NpuArtifact:
    """A compiled program: the CCE-like C, its simulator library (built by the C compiler on
    first use: `compile -t npu` wants only the C), the report of the last run."""

    source: str
    params: list[str]  # the kernel's GM parameters, in order
    machine: NpuMachine
    buffers: dict[str, Buffer]
    storage: dict[str, np.dtype]
    c_names: dict[str, str]
    constants: dict[str, np.ndarray] = field(default_factory=dict)
    # Outputs computed from the Cube's fp16 operands (directly or downstream): `--check`
    # compares them at fp16 tolerance, as NPU.md allows.
    reduced_precision: frozenset[str] = frozenset()
    last_report: NpuReport | None = field(default=None)
    built: NpuKernel | None = field(default=None)
    # `--trace`: record the timeline of the next runs, keeping at most this many events.
    trace_cap: int | None = field(default=None)
    last_trace: NpuTrace | None = field(default=None)

    @property
    def kernel(self) -> NpuKernel:
        if self.built is None:
            self.built = build(self.source, self.params)
        return self.built

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        arrays = {}
        for name, buf in self.buffers.items():
            flat = np.full(max(buf.extent, 1), _poison(buf), dtype=self.storage[name])
            if buf.is_input:
                values = cast_to(np.asarray(inputs[name]), buf.dtype).reshape(-1)
                flat[buf.origin + element_offsets(buf.shape)] = values
            elif name in self.constants:  # tables the compiler made (index values)
                flat[: len(self.constants[name])] = self.constants[name]
            arrays[self.c_names[name]] = flat
        result = self.kernel.run(arrays, self.machine, self.trace_cap)
        self.last_report = result.report
        self.last_trace = result.trace
        outputs = {}
        for name, buf in self.buffers.items():
            if buf.is_output:
                flat = result.buffers[self.c_names[name]][buf.origin + element_offsets(buf.shape)]
                outputs[name] = flat.reshape(buf.shape.sizes).astype(numpy_dtype(buf.dtype))
        return outputs

    def report(self) -> str | None:
        return self.last_report.render() if self.last_report is not None else None

    def report_json(self) -> dict[str, Any] | None:
        return self.last_report.to_json() if self.last_report is not None else None

    def save_library(self, path: Path) -> None:
        shutil.copyfile(self.kernel.library, path)


def _poison(buf: Buffer) -> object:
    value = poison_value(buf.dtype)
    return int(value) if isinstance(value, bool) else value


# The kernel only drives the simulator (which is built with -O2): optimising its long,
# straight-line body costs seconds of compile time and gains nothing.
KERNEL_CFLAGS = ("-std=c11", "-O0", "-Wall", "-Werror")


def build(source: str, params: list[str]) -> NpuKernel:
    """Compile CCE-like C (the backend's `source`) against the simulator."""
    return compile_kernel(source, ENTRY, params, filename="kernel.cce.c", cflags=KERNEL_CFLAGS)


def _title(kernel: Kernel | GatherKernel) -> str:
    return f"{kernel.name}: {kernel.comment}" if kernel.comment else kernel.name


@dataclass(frozen=True)
class Generated:
    """A program translated to CCE-like C, before the C compiler runs."""

    source: str
    ctx: Context
    buffers: dict[str, Buffer]
    constants: dict[str, np.ndarray]
    reduced_precision: frozenset[str]  # buffers computed from fp16 Cube operands


def _has_no_points(kernel: Kernel | GatherKernel) -> bool:
    """A kernel over an empty index range (a tensor with a zero-sized dimension) does nothing."""
    if isinstance(kernel, GatherKernel):
        return kernel.out.shape.elem_count == 0
    return any(size == 0 for _, size in kernel.idxs)


def generate(program: Block, target: TargetConfig) -> Generated:
    """Stripe -> CCE-like C (a CompileError for what the NPU cannot do); nothing is built.
    Long loops are lowered from a sample of their iterations (`loops`); when one's
    iterations are not alike, the program is lowered again with every iteration."""
    with _no_cycle_collection():
        if not target.codegen.get("loops", True):
            return _generate(program, target, sampling=False)
        try:
            return _generate(program, target, sampling=True)
        except NotRollable:
            return _generate(program, target, sampling=False)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Lowering makes millions of small acyclic objects (C trees, ops, skeletons), most of
    them alive to the end: Python's cycle collector would scan them over and over (a fifth
    of the fp32 1024^3 matmul's compile time). Reference counting still frees them; the
    collector runs again afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _generate(program: Block, target: TargetConfig, sampling: bool) -> Generated:
    machine = NpuMachine.from_hardware(target.hardware)
    options = Options.from_codegen(dict(target.codegen), CUBE_TILE_KEYS)
    options.check_machine(machine)
    cube_tiles = CubeTileOptions.from_codegen(target.codegen)
    program, placements = uncache(program, "UB", options.tile_tag)
    kernels = lower_program(program, options.tile_tag, placements)
    ctx = Context(machine, kernels.buffers, options, cube_tiles, sampling=sampling)
    ops: list[Op] = []
    readers = Counter(name for k in kernels.kernels for name in k.read_buffers())
    todo = [
        reindex_stores(k) if isinstance(k, Kernel) else k
        for k in kernels.kernels
        if not _has_no_points(k)
    ]
    approximate: set[str] = set()  # buffers computed from fp16 Cube operands
    plan = CorePlan(ctx)
    while todo:
        kernel = todo.pop(0)
        reads, writes = set(kernel.read_buffers()), set(kernel.written_buffers())
        kops = _lower_next(ctx, kernel, todo, readers, approximate, reads, writes)
        ops.extend(plan.place(kops, reads, writes))
    source = emit_kernel(ctx, insert_sync(ops), f"{program.name or 'program'} on the NPU")
    _check_isa(ctx.machine, source)
    return Generated(source, ctx, kernels.buffers, kernels.constants, frozenset(approximate))


def _lower_next(
    ctx: Context,
    kernel: Kernel | GatherKernel,
    todo: list[Kernel | GatherKernel],
    readers: Counter[str],
    approximate: set[str],
    reads: set[str],
    writes: set[str],
) -> list[Op]:
    """The ops of `kernel` (and of the next ones in `todo` when they fuse, popped: their GM
    buffers join `reads` and `writes`)."""
    kops: list[Op] = []
    title = _title(kernel)
    if kernel.read_buffers() & approximate:
        approximate |= kernel.written_buffers()
    if isinstance(kernel, GatherKernel):
        kops.append(comment(f"{title} -- on the scalar unit"))
        kops.extend(lower_gather(ctx, kernel))
        return kops
    # A contraction whose fp32 result the next kernel only rounds to fp16: one kernel that
    # rounds it as it leaves L0C.
    written = kernel.stores()[0].access.buffer if kernel.stores() else ""
    after = todo[0] if todo and isinstance(todo[0], Kernel) else None
    narrowed = converted_on_the_way_out(ctx, kernel, after, readers[written]) if after else None
    # Then (or else) an elementwise kernel on its result: both on one tile, the result
    # staying in UB (the epilogue runs on the vector unit).
    tries: list[tuple[Kernel, list[Kernel]]] = []
    if narrowed is not None and after is not None:
        tries.append((narrowed, [after]))
    tries.append((kernel, []))
    cube: list[Op] | None = None
    for producer, merged in tries:
        rest = todo[len(merged) :]
        out = producer.stores()[0].access.buffer
        then = rest[0] if rest and isinstance(rest[0], Kernel) else None
        fused = epilogue_for(ctx, producer, then, readers[out]) if then else None
        cube = lower_contraction(ctx, producer, fused) if fused is not None else None
        if cube is not None and fused is not None:
            merged = [*merged, fused.kernel]
        else:
            fused = None
            cube = lower_contraction(ctx, producer) if merged else None
        if cube is None:
            continue
        for done in merged:
            todo.pop(0)
            reads |= done.read_buffers() - writes
            writes |= done.written_buffers()
            approximate |= done.written_buffers()
        if producer is narrowed:
            title += f", then {_title(merged[0])} as the result leaves L0C"
        if fused is not None:
            title += f", then {_title(fused.kernel)} on its result in UB"
        kernel = producer
        break
    else:
        cube = lower_contraction(ctx, kernel)
    if cube is not None:
        approximate |= kernel.written_buffers()
    unit = "the Cube" if cube is not None else "the vector unit"
    kops.append(comment(f"{title} -- on {unit}"))
    kops.extend(cube if cube is not None else lower_kernel(ctx, kernel))
    return kops


def _check_isa(machine: NpuMachine, source: str) -> None:
    """A CompileError when the code needs an intrinsic the target's chip `lacks`."""
    lines = source.splitlines()
    for name in machine.lacks:
        use = re.compile(rf"\b{name}\(")
        for number, text in enumerate(lines, 1):
            if use.search(text) and not text.lstrip().startswith("#define"):
                titles = [t for t in lines[:number] if " -- on " in t]
                what = titles[-1].strip().strip("/* ").split(" -- on ")[0] if titles else ""
                raise CompileError(
                    [
                        Diagnostic(
                            f"the NPU of this target lacks {name} ([hardware] lacks), which "
                            f"the mapping of {what or 'the program'} needs"
                        )
                    ]
                )


class NpuBackend:
    name = "npu"

    def compile(self, program: Block, target: TargetConfig) -> NpuArtifact:
        gen = generate(program, target)
        ctx = gen.ctx
        names = sorted(gen.buffers)
        storage = {n: numpy_dtype(ctx.gm_type[n]) for n in names}
        return NpuArtifact(
            gen.source,
            [ctx.gm_names[n] for n in names],
            ctx.machine,
            gen.buffers,
            storage,
            ctx.gm_names,
            gen.constants,
            frozenset(n for n in gen.reduced_precision if gen.buffers[n].is_output),
        )

    def fingerprint(self, program: Block, target: TargetConfig) -> str:
        """What a run depends on: the emitted C, how it is built, the machine the simulator
        models, the GM layout and the tables the compiler made (index values). Points of
        `plaidc tune` that differ only in what yields the same C (a tile budget of the
        pipeline where the backend's own tiles are taken, a knob the program does not use)
        are measured once."""
        gen = generate(program, target)
        tables = {
            n: (str(a.dtype), hashlib.sha256(a.tobytes()).hexdigest())
            for n, a in gen.constants.items()
        }
        return content_digest(gen.source, KERNEL_CFLAGS, gen.ctx.machine, gen.buffers, tables)


BACKEND = NpuBackend()
# The [codegen] keys this backend reads (`plaidc targets npu` lists them).
CODEGEN_OPTIONS = (Options, CubeTileOptions)
