"""Per-kernel timing of a CPU plan (`plaidc run --profile`, c and llvm).

`instrument` wraps every kernel call of the entry function in two `Clock` readings (OpenMP's
`omp_get_wtime`, a monotonic wall clock) and adds the difference to one element of an extra
fp64 program buffer, `plaidc_profile`, which the run passes in zeroed and reads back: one
slot per call site (a kernel is called once per run). `kernel_flops` counts each kernel's
floating-point operations from the compiled Stripe program (two per multiply-accumulate
point of a contraction, isl's exact count of its domain), and `table` prints the kernels by
time with their share and GFLOP/s.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from plaidc.analysis import DomainCache
from plaidc.analysis.domain import point_count
from plaidc.backends.loopnest.plan import (
    F64,
    Alloc,
    BufferParam,
    Call,
    Clock,
    Function,
    IConst,
    If,
    Plan,
    ProgramBuffer,
    SBinary,
    SLoad,
    Stmt,
    Store,
    SVar,
)
from plaidc.backends.loopnest.runtime import Entry, run_plan
from plaidc.stripe.ir import Block, DType, Intrinsic

PROFILE_BUFFER = "plaidc_profile"


@dataclass(frozen=True)
class Profiled:
    """An instrumented plan and, per timing slot, the kernel function it times."""

    plan: Plan
    kernels: tuple[str, ...]
    comments: tuple[str, ...]


@dataclass
class Recorder:
    """Runs an instrumented plan and sums its kernels' seconds over the runs."""

    profiled: Profiled
    seconds: np.ndarray = field(default_factory=lambda: np.zeros(0))
    best: np.ndarray = field(default_factory=lambda: np.zeros(0))  # per slot, fastest run
    runs: int = 0

    def run(self, entry: Entry, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        slots = max(len(self.profiled.kernels), 1)
        zeros = np.zeros(slots, dtype=np.float64)
        outputs = run_plan(self.profiled.plan, entry, {**inputs, PROFILE_BUFFER: zeros})
        spent = outputs.pop(PROFILE_BUFFER)
        first = self.runs == 0
        self.seconds = spent if first else self.seconds + spent
        self.best = spent if first else np.minimum(self.best, spent)
        self.runs += 1
        return outputs

    def reset(self) -> None:
        self.seconds, self.best, self.runs = np.zeros(0), np.zeros(0), 0


def instrument(plan: Plan) -> Profiled:
    """`plan` with each kernel call of its entry timed into `PROFILE_BUFFER` (an input and
    output, zeroed by the caller). Calls inside loops of the entry are timed as one."""
    if any(b.name == PROFILE_BUFFER for b in plan.buffers):
        raise ValueError(f"the program has a buffer named '{PROFILE_BUFFER}'")
    functions = {f.name: f for f in plan.functions}
    entry = functions[plan.entry]
    kernels: list[str] = []

    def timed(call: Call) -> list[Stmt]:
        slot = len(kernels)
        kernels.append(call.function)
        start, stop = f"plaidc_t{slot}_start", f"plaidc_t{slot}_stop"
        spent = SBinary("sub", SVar(stop, F64), SVar(start, F64), F64)
        total = SBinary("add", SLoad(PROFILE_BUFFER, IConst(slot), F64), spent, F64)
        return [Clock(start), call, Clock(stop), Store(PROFILE_BUFFER, IConst(slot), total)]

    def walk(body: tuple[Stmt, ...]) -> tuple[Stmt, ...]:
        out: list[Stmt] = []
        for s in body:
            if isinstance(s, Call) and s.function in functions:
                out.extend(timed(s))
            elif isinstance(s, Alloc):
                out.append(replace(s, body=walk(s.body)))
            elif isinstance(s, If):
                out.append(replace(s, then=walk(s.then), orelse=walk(s.orelse)))
            else:
                out.append(s)
        return tuple(out)

    body = walk(entry.body)
    buffer = ProgramBuffer(
        PROFILE_BUFFER,
        PROFILE_BUFFER,
        DType.FP64,
        (max(len(kernels), 1),),
        (1,),
        max(len(kernels), 1),
        0,
        is_input=True,
        is_output=True,
    )
    params = list(entry.params)
    params.insert(len(plan.buffers), BufferParam(PROFILE_BUFFER, DType.FP64, True))
    new_entry = Function(entry.name, tuple(params), body, entry.comment, entry.inline)
    rest = tuple(new_entry if f.name == entry.name else f for f in plan.functions)
    comments = tuple(functions[k].comment for k in kernels)
    return Profiled(
        replace(plan, buffers=(*plan.buffers, buffer), functions=rest), tuple(kernels), comments
    )


def kernel_flops(program: Block, kernel_depth: int = 2) -> dict[str, int]:
    """Floating-point operations per kernel (by the first word of its block's name, as the
    plan names its function): 2 per point of each block that multiplies into an `add`
    aggregate; other kernels count 0."""
    cache = DomainCache()
    counts: dict[str, int] = {}

    def macs(chain: tuple[Block, ...]) -> int:
        block = chain[-1]
        total = sum(macs((*chain, b)) for b in block.stmts if isinstance(b, Block))
        multiplies = any(isinstance(s, Intrinsic) and s.name in ("mul", "fma") for s in block.stmts)
        if multiplies and any(r.agg_op == "add" for r in block.refs):
            total += point_count(cache.domain(chain))
        return total

    def walk(chain: tuple[Block, ...]) -> None:
        block = chain[-1]
        if len(chain) - 1 == kernel_depth:
            word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", block.name)
            if word:
                counts[word.group(0)] = counts.get(word.group(0), 0) + 2 * macs(chain)
            return
        for child in block.stmts:
            if isinstance(child, Block):
                walk((*chain, child))

    walk((program,))
    return counts


def table(
    recorder: Recorder,
    flops: Mapping[str, int],
    descriptions: Mapping[str, str],
    limit: int = 0,
) -> str:
    """The kernels by mean time per run: ms, share of the kernels' total, the fastest run's
    ms and GFLOP/s (contractions), and what each computes."""
    profiled, runs = recorder.profiled, recorder.runs
    count = len(profiled.kernels)
    per_run = np.asarray(recorder.seconds, dtype=np.float64)[:count] / max(runs, 1)
    best = np.asarray(recorder.best, dtype=np.float64)[:count]
    total = float(per_run.sum())
    order = sorted(range(count), key=lambda k: -per_run[k])
    shown = order[:limit] if limit else order
    lines = [
        f"profile: {runs} run{'s' if runs != 1 else ''}, {count} kernel calls, "
        f"{total * 1e3:.3f} ms per run in kernels (mean), {float(best.sum()) * 1e3:.3f} ms "
        "summing each kernel's fastest run",
        f"{'ms/run':>9} {'share':>6} {'best ms':>9} {'GFLOP/s':>8}  kernel",
    ]
    for k in shown:
        name = profiled.comments[k] or profiled.kernels[k]
        work = flops.get(name, 0)
        rate = f"{work / best[k] / 1e9:8.1f}" if work and best[k] > 0 else f"{'-':>8}"
        share = per_run[k] / total * 100 if total > 0 else 0.0
        what = _short(descriptions.get(name, ""))
        label = f"{name}: {what}" if what else name
        lines.append(f"{per_run[k] * 1e3:9.3f} {share:5.1f}% {best[k] * 1e3:9.3f} {rate}  {label}")
    if len(shown) < len(order):
        rest = sum(per_run[k] for k in order[len(shown) :])
        share = rest / total * 100 if total else 0.0
        lines.append(f"{rest * 1e3:9.3f} {share:5.1f}%  ({len(order) - len(shown)} more)")
    return "\n".join(lines)


def _short(text: str, width: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def descriptions(program: Block, kernel_depth: int = 2) -> dict[str, str]:
    """The first Tile statement of each kernel (its block comment), by the plan's name."""
    found: dict[str, str] = {}

    def walk(block: Block, depth: int) -> None:
        for child in block.stmts:
            if not isinstance(child, Block):
                continue
            if depth + 1 == kernel_depth:
                word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", child.name)
                if word and word.group(0) not in found:
                    found[word.group(0)] = "; ".join(_comments(child))
            else:
                walk(child, depth + 1)

    walk(program, 0)
    return found


def _comments(block: Block) -> Sequence[str]:
    if block.comments:
        return block.comments
    for child in block.stmts:
        if isinstance(child, Block):
            return _comments(child)
    return ()
