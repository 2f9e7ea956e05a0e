"""The lowering state shared by its parts: options, refinement views and block scopes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from plaidc.analysis import split_dim_name
from plaidc.backends.loopnest.plan import IntExpr, IVar
from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.stripe.ir import Affine, Block, Refinement


@dataclass(frozen=True)
class LoweringOptions:
    """What the backend's `[codegen]` table decides (see `plaidc.backends.loopnest.options`)."""

    parallel_tags: tuple[str, ...] = ()
    gemm_tags: tuple[str, ...] = ()
    vector_bytes: int = 16
    gemm_rows: int = 8
    gemm_vectors: int = 2
    # registers the micro-kernel's register block must fit in (see `gemm_shape.layout`)
    vector_registers: int = 32
    # bytes the micro-kernel's packed B block (kc rows of all its columns) may fill: the
    # reduction runs in blocks of kc (see `gemm_shape.Blocking`); 0: unblocked
    gemm_block_bytes: int = 0
    threads: int = 1
    # threads fixed in the generated code; False: the OpenMP runtime's count at run time
    # (`threads` is then this machine's count, which the lowering plans for)
    pin_threads: bool = True
    kernel_depth: int = 2
    stack_bytes: int = 65536
    parallel_min_work: int = 1
    # a parallel loop whose threads shared a CPU runs on one thread for up to this many calls
    # (`Plan.shared_cpu_backoff`); 0: always on threads
    shared_cpu_backoff: int = 0
    # Float max/min reductions as a NaN-ignoring reduction plus a NaN flag (what gcc's
    # vectoriser can reduce); the backend decides.
    nan_flagged_minmax: bool = False
    # GEMM tiles cut short by constraints (edge tiles) as micro-kernels with run-time extents
    # (integer parameters of a function other than a kernel, which the backend must support).
    ragged_gemm: bool = False
    # Vectorised loops divide by a loop-invariant fp32/fp64 value as a multiplication by its
    # reciprocal where that is accurate (`plaidc.backends.loopnest.reciprocal`).
    divide_by_reciprocal: bool = False
    # Vectorised max/min reduction loops run as this many interleaved parts, each with its own
    # accumulators (`plaidc.backends.loopnest.interleave`).
    minmax_accumulators: int = 1
    # ... and vectorised sum loops (the additions then happen in another order).
    sum_accumulators: int = 1
    # Vectorised loops of at least this many iterations first run up to an aligned address
    # of their store (else load) (`plaidc.backends.loopnest.align`); 0: never.
    align_vector_loops: int = 0
    # Vectorised loops computing fp32 exp are written with vector types, so that the backend's
    # vector exp is inlined (`plaidc.backends.loopnest.vector_loops`); the backend decides.
    vector_exp_loops: bool = False
    # An elementwise block after a GEMM-like block, over the elements of its C, runs on the
    # micro-kernel's accumulators before they are stored (`plaidc.backends.loopnest.gemm_epilogue`).
    gemm_epilogue: bool = False
    # A GEMM-like block whose parent only steps its reduction passes the micro-kernel run-time
    # `first`/`last` flags (`plaidc.backends.loopnest.split_reduction`).
    gemm_split_flags: bool = False
    # A plain GEMM whose reduction is contiguous in A reads A's rows in place
    # (`plaidc.backends.loopnest.gemm_pack.packing`).
    gemm_a_in_place: bool = False
    # Heap scratch (packing buffers) kept between calls, one per thread and allocation
    # (`Plan.scratch_slots`), instead of allocated and freed per use.
    keep_scratch: bool = True


@dataclass(frozen=True)
class View:
    """A refinement at one block: element 0 is `buffer[base]` (`base` over plan variables);
    stores through it accumulate with `mode` (None: plain stores)."""

    buffer: str
    base: Affine
    ref: Refinement
    mode: str | None = None


@dataclass
class Scope:
    """The state at one point of a block: its chain, plan variables of every index in scope
    (by depth and Stripe name) and its refinements."""

    chain: tuple[Block, ...]
    vars: dict[tuple[int, str], str]
    views: dict[str, View]
    path: str

    @property
    def depth(self) -> int:
        return len(self.chain) - 1

    def var_affine(self, depth: int) -> dict[str, Affine]:
        """Stripe index names of the block at `depth` -> their plan variables."""
        return {name: Affine.var(var) for (d, name), var in self.vars.items() if d == depth}

    def resolver(self) -> Callable[[str], IntExpr]:
        """Resolve isl identifiers: `x@d` parameters and this block's own iterators."""

        def resolve(name: str) -> IntExpr:
            if "@" in name:
                depth, index = split_dim_name(name)
            else:
                depth, index = self.depth, name
            var = self.vars.get((depth, index))
            if var is None:
                raise CompileError([Diagnostic(f"{self.path}: index '{index}' is not in scope")])
            return IVar(var)

        return resolve
