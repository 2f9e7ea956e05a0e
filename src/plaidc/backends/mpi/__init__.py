"""The MPI backend (`-t mpi`, `--ranks N`): the kernels split by `distribute`, each rank's part
compiled by the C backend, the communication derived with isl, run under `mpiexec`.

`compile` takes the program after the target's pipeline (the base CPU target's passes, then
`distribute`), gives each rank its part of every kernel (`passes.distribute.rank_part`), plans
and verifies the exchange (`analysis.exchange`), lowers every part with the shared loop-nest
plan and prints it with the C backend into its own unit (`plaidc_rR_kK`), emits the ranks'
`main` (`backends.mpi.emit`) and builds them with `mpicc`. `run` writes the inputs for the root
rank, runs `mpiexec -n N` (`backends.mpi.launch`) and reads the outputs back; its report gives,
per rank, the compute time, the bytes sent and received and the analytic minimum of bytes the
partition needs, and the bytes it allocates against the buffers' full size. `[codegen]` keys
besides the C backend's: `root` (the rank holding the inputs and gathering the outputs),
`timeout` (seconds; `MPIEXEC_TIMEOUT` wins), `overlap` (true: each message is posted as soon as
its sender has computed it, `analysis.exchange.send_points`, and waited for just before the
kernel reading it) and `storage` (`"part"`: each rank allocates only
the span of each buffer it touches, `analysis.exchange.rank_storage`; `"whole"`: every buffer
whole on every rank).
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from plaidc.analysis import AnalysisError
from plaidc.analysis.exchange import (
    ExchangePlan,
    Storage,
    check_plan,
    inner_conflict,
    main_of,
    plan_exchange,
    rank_storage,
)
from plaidc.backends.c import CCodegen
from plaidc.backends.c.build import DEFAULT_FLAGS
from plaidc.backends.c.emit import emit_c
from plaidc.backends.loopnest import lower_program
from plaidc.backends.loopnest.options import LoopnestCodegen, lowering_options, pinned_threads
from plaidc.backends.loopnest.plan import Plan, ProgramBuffer
from plaidc.backends.loopnest.runtime import check_inputs
from plaidc.backends.mpi.emit import MAX_MESSAGE, KernelCall, emit_main
from plaidc.backends.mpi.launch import build_program, find_tool, launch_env, run_program
from plaidc.backends.toolchain import find_compiler
from plaidc.diagnostics import CompileError, Diagnostic, InternalError
from plaidc.interp import cast_to, element_offsets, numpy_dtype, poison_value
from plaidc.passes.distribute import kernel_ranks, rank_part
from plaidc.stripe.ir import Affine, Block, RefDir, Refinement, Special, Tags
from plaidc.targets import TargetConfig


@dataclass(frozen=True)
class MpiCodegen(CCodegen):
    """The MPI backend's own `[codegen]` keys (with the C backend's)."""

    root: int = field(
        default=0, metadata={"help": "the rank holding the inputs and gathering the outputs"}
    )
    timeout: int = field(
        default=600,
        metadata={"help": "seconds a run may take (MPIEXEC_TIMEOUT wins)", "expects": "seconds"},
    )
    storage: str = field(
        default="part",
        metadata={
            "help": '"part": a rank allocates only the span of each buffer it touches;'
            ' "whole": every buffer whole on every rank',
            "expects": '"part" or "whole"',
        },
    )
    chunks: int = field(
        default=1,
        metadata={
            "help": "pieces each rank's part of a kernel runs in, one after the other: a piece"
            " waits only for its own inputs and sends its results as soon as it ran",
            "expects": "a positive integer",
        },
    )
    overlap: bool = field(
        default=True,
        metadata={
            "help": "post the receives when a run starts and each send once its elements are"
            " computed, waiting just before the consuming kernel (false: all at the kernel)"
        },
    )


def kernel_program(program: Block, part: Block) -> Block:
    """A program running only `part` (a kernel of `main`, or a rank's part of one) on `main`'s
    buffers, main's temporaries made program buffers (the ranks keep them between kernels)."""
    main = main_of(program)
    dirs: dict[str, set[RefDir]] = {}
    for ref in part.refs:
        if ref.from_ is not None:
            dirs.setdefault(ref.from_, set()).add(ref.dir)
    root_refs = {ref.into: ref for ref in program.refs}
    new_root: list[Refinement] = []
    new_main: list[Refinement] = []
    for ref in main.refs:
        if ref.into not in dirs:
            continue
        used = dirs[ref.into]
        reads = bool(used & {RefDir.IN, RefDir.INOUT})
        writes = bool(used & {RefDir.OUT, RefDir.INOUT})
        direction = RefDir.INOUT if reads and writes else RefDir.OUT if writes else RefDir.IN
        if ref.is_allocation:
            top = dataclasses.replace(
                ref, dir=RefDir.NONE, tags=Tags.of("user"), agg_op=None, location=None
            )
            new_root.append(top)
            ref = dataclasses.replace(ref, from_=ref.into, dir=direction, agg_op=None)
        else:
            assert ref.from_ is not None
            new_root.append(root_refs[ref.from_])
            ref = dataclasses.replace(ref, dir=direction)
        new_main.append(ref)
    alone = dataclasses.replace(
        main, refs=tuple(new_main), stmts=(dataclasses.replace(part, deps=()),)
    )
    stmts = tuple(
        alone if s is main else s for s in program.stmts if not isinstance(s, Block) or s is main
    )
    return dataclasses.replace(program, refs=tuple(dict.fromkeys(new_root)), stmts=stmts)


def _special_kernel(special: Special, main: Block) -> Block:
    """A Special of `main` (a reshape, a gather...) as a block of its own: it runs whole on the
    root rank, its views the whole of main's buffers."""
    refs = []
    for names, direction in ((special.inputs, RefDir.IN), (special.outputs, RefDir.OUT)):
        for name in names:
            ref = main.ref(name)
            if ref is None:
                raise InternalError(f"Special '{special.name}' names no buffer '{name}' of main")
            refs.append(
                dataclasses.replace(
                    ref,
                    dir=direction,
                    from_=name,
                    access=tuple(Affine() for _ in ref.access),
                    agg_op=None,
                    tags=Tags(),
                    location=None,
                    offset=0,
                )
            )
    return Block(
        name=special.name,
        refs=tuple(dict((r.into, r) for r in refs).values()),
        stmts=(dataclasses.replace(special, deps=()),),
        span=special.span,
    )


def _steps(
    program: Block, kernels: list[Block], ranks: int, root: int, chunks: int
) -> tuple[list[list[Block | None]], list[str]]:
    """The program as steps every rank runs in order: per kernel, each rank's part, or with
    `chunks` > 1 the pieces of the parts (`rank_part`'s chunks; a kernel not split is one
    step), and the steps' names. A kernel whose pieces would read what another piece writes
    (`inner_conflict`: a fused kernel's blocks split unevenly; its temporaries live in one call)
    runs as whole parts."""
    parts: list[list[Block | None]] = []
    names: list[str] = []
    for k, kernel in enumerate(kernels):
        count = chunks if kernel_ranks(kernel) is not None else 1
        if count > 1:
            pieces = [
                rank_part(kernel, r, root, c, count) for r in range(ranks) for c in range(count)
            ]
            if inner_conflict(program, pieces) is not None:
                count = 1
        for c in range(count):
            step = [rank_part(kernel, r, root, c, count) for r in range(ranks)]
            if all(p is None for p in step):
                continue
            name = kernel.name or f"kernel_{k}"
            parts.append(step)
            names.append(name if count == 1 else f"{name} (chunk {c + 1} of {count})")
    return parts, names


def _layout_matches(ref: Refinement, plan: Plan, stripe_name: str) -> bool:
    buf = next((b for b in plan.buffers if b.stripe_name == stripe_name), None)
    return buf is not None and buf.start == 0 and buf.strides == ref.shape.strides


@dataclass
class MpiArtifact:
    """A built MPI program."""

    exchange: ExchangePlan
    storage: tuple[dict[str, Storage], ...]  # per rank, what it allocates of each buffer
    source: str
    program: Path
    threads: int
    timeout: int
    repeat: int = 1
    last: dict[str, Any] | None = None
    best_wall: float | None = None

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        plan = self.exchange
        fake = Plan(buffers=_program_buffers(plan), functions=(), entry="")
        check_inputs(fake, inputs)
        env = launch_env(plan.ranks, self.threads, self.timeout)
        with tempfile.TemporaryDirectory(prefix="plaidc-mpi-") as tmp:
            work = Path(tmp)
            for ref in plan.buffers:
                if ref.dir in (RefDir.IN, RefDir.INOUT):
                    _layout(ref, inputs[ref.from_ or ref.into]).tofile(work / f"{ref.into}.in")
            run_program(self.program, plan.ranks, work, self.repeat, env)
            outputs = {}
            for ref in plan.buffers:
                if ref.dir in (RefDir.OUT, RefDir.INOUT):
                    data = np.fromfile(work / f"{ref.into}.out", dtype=numpy_dtype(ref.shape.dtype))
                    flat = data[element_offsets(ref.shape)]
                    outputs[ref.from_ or ref.into] = flat.reshape(ref.shape.sizes).copy()
            self._read_report(work / "report.txt")
        return dict(sorted(outputs.items()))

    def _read_report(self, path: Path) -> None:
        lines = path.read_text().split("\n")
        wall = float(lines[0])
        ranks = []
        for rank, line in enumerate(lines[1 : 1 + self.exchange.ranks]):
            compute, sent, received, communicate, compute_cpu = line.split()
            ranks.append(
                {
                    "rank": rank,
                    "compute_s": float(compute),
                    "compute_cpu_s": float(compute_cpu),
                    "communicate_s": float(communicate),
                    "bytes_sent": int(float(sent)),
                    "bytes_received": int(float(received)),
                    "bytes_received_minimum": self.exchange.minimum[rank],
                    "bytes_sent_planned": self.exchange.sent(rank),
                    "bytes_allocated": self.allocated(rank),
                    "bytes_full": self.full_size(),
                }
            )
        self.best_wall = wall if self.best_wall is None else min(self.best_wall, wall)
        self.last = {"ranks": self.exchange.ranks, "wall_s": wall, "per_rank": ranks}

    def allocated(self, rank: int) -> int:
        """The bytes rank `rank` allocates for `main`'s buffers."""
        return sum(
            self.storage[rank][ref.into].elements * ref.shape.dtype.byte_size
            for ref in self.exchange.buffers
        )

    def full_size(self) -> int:
        """The bytes of `main`'s buffers at full size (what each rank held before)."""
        return sum(
            max(ref.shape.extent, 1) * ref.shape.dtype.byte_size for ref in self.exchange.buffers
        )

    def report(self) -> str | None:
        if self.last is None:
            return None
        rows = [
            f"mpi: {self.exchange.ranks} ranks, wall {self.last['wall_s'] * 1e3:.3f} ms"
            + (f" (best {self.best_wall * 1e3:.3f} ms)" if self.best_wall is not None else ""),
            "rank  compute ms  compute cpu ms  exchange ms  bytes sent  bytes received"
            "  minimum received  bytes allocated  full size",
        ]
        for r in self.last["per_rank"]:
            rows.append(
                f"{r['rank']:>4}  {r['compute_s'] * 1e3:>10.3f}  {r['compute_cpu_s'] * 1e3:>14.3f}"
                f"  {r['communicate_s'] * 1e3:>11.3f}"
                f"  {r['bytes_sent']:>10}"
                f"  {r['bytes_received']:>14}  {r['bytes_received_minimum']:>16}"
                f"  {r['bytes_allocated']:>15}  {r['bytes_full']:>9}"
            )
        return "\n".join(rows)

    def report_json(self) -> dict[str, Any] | None:
        return self.last

    def save_library(self, path: Path) -> None:
        raise CompileError(
            [Diagnostic("--emit lib: the mpi target builds a program, not a library")]
        )


def _program_buffers(plan: ExchangePlan) -> tuple[ProgramBuffer, ...]:
    """main's buffers as a plan's, to check the inputs as every CPU target does."""
    out = []
    for ref in plan.buffers:
        if ref.dir == RefDir.NONE:
            continue
        out.append(
            ProgramBuffer(
                name=ref.into,
                stripe_name=ref.from_ or ref.into,
                dtype=ref.shape.dtype,
                sizes=ref.shape.sizes,
                strides=ref.shape.strides,
                region=max(ref.shape.extent, 1),
                start=0,
                is_input=ref.dir in (RefDir.IN, RefDir.INOUT),
                is_output=ref.dir in (RefDir.OUT, RefDir.INOUT),
            )
        )
    return tuple(out)


def _layout(ref: Refinement, value: np.ndarray) -> np.ndarray:
    data = np.full(
        max(ref.shape.extent, 1), poison_value(ref.shape.dtype), dtype=numpy_dtype(ref.shape.dtype)
    )
    data[element_offsets(ref.shape)] = cast_to(np.asarray(value), ref.shape.dtype).reshape(-1)
    return data


class MpiBackend:
    name = "mpi"

    def compile(self, program: Block, target: TargetConfig) -> MpiArtifact:
        where = target.path or target.name
        ranks = target.hardware.get("ranks", 1)
        if type(ranks) is not int or ranks < 1:
            raise CompileError(
                [Diagnostic(f"[hardware] ranks = {ranks!r} must be a positive integer")]
            )
        options, own = lowering_options(target.codegen, where, MpiCodegen, pinned_threads(target))
        if not 0 <= own.root < ranks:
            raise CompileError(
                [Diagnostic(f"[codegen] 'root' = {own.root} is not a rank of {ranks}")]
            )
        if type(own.chunks) is not int or own.chunks < 1:
            raise CompileError(
                [Diagnostic(f"[codegen] 'chunks' = {own.chunks!r} must be a positive integer")]
            )
        if own.storage not in ("part", "whole"):
            raise CompileError(
                [Diagnostic(f'[codegen] \'storage\' = {own.storage!r} must be "part" or "whole"')]
            )
        find_tool("mpicc")  # missing MPI: say how to install it before any work
        try:
            main = main_of(program)
        except AnalysisError as err:
            raise CompileError([Diagnostic(f"the mpi target: {err}", program.span)]) from None
        kernels = []
        for stmt in main.stmts:
            if isinstance(stmt, Special):
                stmt = _special_kernel(stmt, main)
            if not isinstance(stmt, Block):
                raise CompileError(
                    [
                        Diagnostic(
                            f"the mpi target runs blocks only; main holds a {type(stmt).__name__}",
                            stmt.span,
                        )
                    ]
                )
            split = kernel_ranks(stmt)
            if split is not None and split != ranks:
                raise CompileError(
                    [
                        Diagnostic(
                            f"block '{stmt.name}' is distributed over {split} ranks, the target"
                            f" runs {ranks}",
                            stmt.span,
                        )
                    ]
                )
            kernels.append(stmt)
        for ref in main.refs:
            if any(s < 0 for s in ref.shape.strides):
                raise CompileError(
                    [Diagnostic(f"the mpi target needs non-negative strides ('{ref.into}')")]
                )
        parts, names = _steps(program, kernels, ranks, own.root, own.chunks)
        exchange = plan_exchange(program, parts, own.root, by_step=own.chunks > 1, names=names)
        problems = check_plan(exchange, program)
        if problems:
            raise InternalError("the exchange plan is unsound: " + "; ".join(problems[:5]))
        for phase in exchange.phases:
            for t in phase:
                if t.nbytes > MAX_MESSAGE:
                    raise CompileError(
                        [
                            Diagnostic(
                                f"a transfer of {t.nbytes} bytes of '{t.buffer}' exceeds one MPI"
                                " message (2^31 - 1 bytes)"
                            )
                        ]
                    )
        lowering = dataclasses.replace(options, nan_flagged_minmax=True, ragged_gemm=True)
        vector_math = own.vector_math == "libmvec"
        units: list[str] = []
        calls: list[KernelCall] = []
        by_name = {ref.into: ref for ref in main.refs}
        for k, kernel_parts in enumerate(parts):
            for r, part in enumerate(kernel_parts):
                if part is None:
                    continue
                plan = lower_program(kernel_program(program, part), lowering)
                args = []
                for buf in plan.buffers:
                    found = next(
                        (m for m in main.refs if (m.from_ or m.into) == buf.stripe_name), None
                    )
                    match = found or by_name.get(buf.stripe_name)
                    if match is None or not _layout_matches(match, plan, buf.stripe_name):
                        raise InternalError(
                            f"buffer '{buf.stripe_name}' of a part has another layout"
                        )
                    args.append(match.into)
                function = f"plaidc_r{r}_k{k}"
                units.append(f"#define plaidc_entry {function}\n" + emit_c(plan, vector_math))
                calls.append(KernelCall(k, r, function, tuple(args)))
        if own.storage == "part":
            # a register row of vectors: what the GEMM may load past a B it reads in place
            storage = rank_storage(exchange, options.gemm_vectors * options.vector_bytes)
        else:
            storage = tuple(
                {ref.into: Storage(0, max(ref.shape.extent, 1)) for ref in exchange.buffers}
                for _ in range(ranks)
            )
        main_source = emit_main(exchange, calls, storage, own.overlap)
        flags = [f for f in (*DEFAULT_FLAGS, *own.cflags) if f != "-shared"]
        libs = ["-lmvec"] if vector_math else []
        built = build_program(main_source, units, find_compiler(own.cc), flags, libs, own.cflags)
        source = "\n".join([main_source, *units])
        threads = options.threads or 1
        return MpiArtifact(exchange, storage, source, built, threads, own.timeout)


BACKEND = MpiBackend()
# The [codegen] keys this backend reads (`plaidc targets mpi` lists them).
CODEGEN_OPTIONS = (LoopnestCodegen, MpiCodegen)
