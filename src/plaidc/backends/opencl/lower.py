"""Stripe -> OpenCL kernels: the shared loop-nest lowering, with kernel blocks on NDRanges.

`KernelLowering` is the CPU backends' `Lowering` (`plaidc.backends.loopnest.lower`) with three
decisions of its own; everything else (exact isl bounds, Definition-2 aggregation, scalar
typing, specials) is the shared code's:

* **One kernel per kernel block.** The blocks at the kernel depth (PlaidML's `#kernel` blocks,
  children of `main`; the root's children in programs without `main`) become kernels. When
  the block is the top reducing level of a buffer, the identity initialisation of what it
  aggregates is a kernel of its own launched just before (every work-item must see it done).
* **NDRange from the block's indices.** The block's indices whose different values never
  write a common element (isl, `loop_is_independent`) are run by different work-items: their
  loops are scanned first and replaced by NDRange coordinates (`plaidc.backends.opencl.
  ndrange`). Since all points aggregating into one element then run on one work-item, in
  order, aggregation needs neither atomics nor barriers. The other indices stay loops.
* **Work-groups from thread blocks** (`thread_tags`, e.g. the `thread-inner` pass's inner set):
  in a kernel with such blocks, one work-group runs the points of the kernel block (its
  independent indices are group ids), the independent indices of each thread block are local
  ids, and the rest of the body is group code made safe by `plaidc.backends.opencl.groups`
  (leader-only stores, barriers, `__local` allocations). A kernel whose work-group would
  exceed `max_work_group` work-items or `local_mem_bytes` of local memory falls back to the
  first form.

Statements of the program outside kernel blocks (e.g. specials of `main`) become one-work-item
kernels; the plan's entry function becomes the host's steps (`KernelProgram.steps`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import islpy as isl

from plaidc.analysis import outer_as_params
from plaidc.backends.loopnest import isl_ast
from plaidc.backends.loopnest.aggregation import WrittenRef, loop_is_independent, written_refs
from plaidc.backends.loopnest.lower import Lowering
from plaidc.backends.loopnest.plan import (
    Alloc,
    BufferArg,
    BufferParam,
    Call,
    Comment,
    Function,
    ICmp,
    IConst,
    If,
    IntExpr,
    IntParam,
    IVar,
    Stmt,
    affine_expr,
    free_names,
    walk_stmts,
)
from plaidc.backends.loopnest.scope import LoweringOptions, Scope
from plaidc.backends.loopnest.simplify import simplify
from plaidc.backends.opencl.groups import Cooperation
from plaidc.backends.opencl.kernels import (
    OPENCL_RESERVED,
    AllocStep,
    IdVar,
    Kernel,
    KernelProgram,
    LaunchStep,
    Scratch,
    Step,
)
from plaidc.backends.opencl.ndrange import (
    Mapped,
    bindings,
    constant_nest,
    dim_size,
    map_nest,
    replace_loops,
    split_dims,
    trip_count,
)
from plaidc.diagnostics import CompileError, Diagnostic, InternalError
from plaidc.interp import numpy_dtype
from plaidc.stripe.ir import Block, DType


@dataclass(frozen=True)
class KernelOptions:
    """What the OpenCL backend's `[codegen]` table decides about kernels."""

    thread_tags: tuple[str, ...] = ()
    max_work_group: int = 256
    local_mem_bytes: int = 32768
    private_bytes: int = 32768


class _Fallback(Exception):
    """The cooperative form of a kernel does not fit the device: lower it again without."""


@dataclass
class _KernelState:
    """The kernel being lowered: whether work-groups cooperate, its id variables by (kind,
    dimension), the sizes of its outer NDRange dimensions and its work-group size."""

    cooperative: bool
    ids: dict[tuple[str, int], str] = field(default_factory=dict)
    dims: list[int] = field(default_factory=list)
    group_size: int = 1
    distributing: bool = False


def kernel_depth(program: Block) -> int:
    """2 when the root's blocks are containers without indices (PlaidML's `main`), whose
    children are the kernels; 1 when the root's blocks are the kernels themselves."""
    children = [s for s in program.stmts if isinstance(s, Block)]
    if children and all(
        all(i.range == 1 for i in b.idxs) and any(isinstance(s, Block) for s in b.stmts)
        for b in children
    ):
        return 2
    return 1


@dataclass
class KernelLowering(Lowering):
    """One compilation for OpenCL (module docstring)."""

    kernel_options: KernelOptions = field(default_factory=KernelOptions)
    gemm_tags: tuple[str, ...] = ()
    kernels: list[Kernel] = field(default_factory=list)
    state: _KernelState | None = None
    init_groups: list[list[Stmt]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for word in sorted(OPENCL_RESERVED):
            self.names.reserve(word)

    # ---- the program --------------------------------------------------------------------

    def lower(self) -> KernelProgram:
        plan = self.run()
        entry = next(f for f in plan.functions if f.name == plan.entry)
        steps: list[Step] = []
        self._host_steps(entry.body, steps)
        known = {f.name for f in plan.functions}
        serial = [f for f in self.functions if f.name not in known]  # made by _host_steps
        kernels = [f for f in plan.functions if f.name != plan.entry]
        plan = replace(plan, functions=(*kernels, *serial, entry))
        return KernelProgram(plan, tuple(self.kernels), tuple(steps))

    def _host_steps(self, stmts: Sequence[Stmt], steps: list[Step]) -> None:
        """The entry function's statements as host steps: allocations, kernel launches, and
        one-work-item kernels for runs of other statements."""
        pending: list[Stmt] = []

        def flush() -> None:
            if any(not isinstance(s, Comment) for s in pending):
                call = self._serial_kernel(pending)
                steps.append(LaunchStep(call.function, _buffer_args(call)))
            pending.clear()

        for s in stmts:
            if isinstance(s, Call):
                flush()
                steps.append(LaunchStep(s.function, _buffer_args(s)))
            elif isinstance(s, Alloc):
                flush()
                steps.append(AllocStep(s.buffer, s.dtype, max(s.size, 1)))
                self._host_steps(s.body, steps)
            else:
                pending.append(s)
        flush()

    def _serial_kernel(self, stmts: list[Stmt]) -> Call:
        for s in stmts:
            if any(isinstance(x, Call) for x in walk_stmts((s,))):
                raise CompileError(
                    [
                        Diagnostic(
                            "the OpenCL backend needs kernel blocks to be children of an"
                            " index-free block (kernels launched from loops are not supported)"
                        )
                    ]
                )
        kernel = Kernel("", (1,), None, (), role="serial")
        return self._make_kernel("program", simplify(tuple(stmts)), kernel)

    # ---- kernel blocks ------------------------------------------------------------------

    def block(
        self,
        parent: Scope,
        block: Block,
        pos: int,
        after: Block | None = None,
        fused: set[int] | None = None,
    ) -> list[Stmt]:
        # no epilogue runs on a micro-kernel's registers here (`after` is lowered on its own)
        depth = len(parent.chain)
        if depth != self.options.kernel_depth or self.state is not None:
            return self._block(parent, block, pos, micro_kernels=depth > self.options.kernel_depth)
        cooperative = self._has_thread_blocks(block)
        while True:
            self.state = _KernelState(cooperative)
            self.init_groups = []
            try:
                return self._block(parent, block, pos, micro_kernels=False)
            except _Fallback:
                if not cooperative:
                    raise InternalError("a kernel without work-groups cannot fall back") from None
                cooperative = False
            finally:
                self.state = None

    def _block(self, parent: Scope, block: Block, pos: int, micro_kernels: bool) -> list[Stmt]:
        """The shared lowering of a block statement; GEMM micro-kernels (one work-item's
        serial code) only below kernel blocks, whose own points go to the NDRange."""
        saved = self.options
        self.options = replace(saved, gemm_tags=self.gemm_tags if micro_kernels else ())
        try:
            return super().block(parent, block, pos)
        finally:
            self.options = saved

    def _has_thread_blocks(self, block: Block) -> bool:
        tags = self.kernel_options.thread_tags
        if not tags:
            return False
        stack = [s for s in block.stmts if isinstance(s, Block)]
        while stack:
            child = stack.pop()
            if child.tags.has_any(tags):
                return True
            stack.extend(s for s in child.stmts if isinstance(s, Block))
        return False

    def init_footprint(self, parent: Scope, chain: tuple[Block, ...], w: WrittenRef) -> list[Stmt]:
        stmts = super().init_footprint(parent, chain, w)
        if self.state is not None and len(chain) - 1 == self.options.kernel_depth:
            self.init_groups.append(stmts)
        return stmts

    def points(
        self,
        scope: Scope,
        body: Callable[[], list[Stmt]],
        order: list[str] | None = None,
    ) -> list[Stmt]:
        stmts = self._points(scope, body, order)
        guard = self._nonempty(scope)
        return stmts if guard is None else [If(guard, tuple(stmts))]

    def _points(
        self,
        scope: Scope,
        body: Callable[[], list[Stmt]],
        order: list[str] | None,
    ) -> list[Stmt]:
        state = self.state
        if state is None:
            return super().points(scope, body, order)
        if scope.depth == self.options.kernel_depth:
            return self._mapped(scope, body, order, "group" if state.cooperative else "global")
        block = scope.chain[-1]
        if (
            state.cooperative
            and not state.distributing
            and block.tags.has_any(self.kernel_options.thread_tags)
        ):
            state.distributing = True
            try:
                return self._mapped(scope, body, order, "local")
            finally:
                state.distributing = False
        return super().points(scope, body, order)

    def _nonempty(self, scope: Scope) -> IntExpr | None:
        """The condition on the ancestors' indices under which the block has points, where
        the parent's domain does not imply it. (The shared loop scan takes the block's own
        domain's parameter set as its context, so it assumes this condition instead of
        testing it: an edge tile's transfer block with no points would still run.)"""
        depth = scope.depth
        if depth == 0:
            return None
        own = outer_as_params(self.cache.domain(scope.chain), depth)
        parent = outer_as_params(self.cache.domain(scope.chain[:-1]), depth)
        assert isinstance(own, isl.Set) and isinstance(parent, isl.Set)
        needed, context = own.params(), parent.params()
        if context.is_subset(needed):
            return None
        build = isl.AstBuild.from_context(context)
        expr = build.expr_from_set(needed.gist(context))
        return isl_ast.int_expr(expr, scope.resolver())

    def _id(self, kind: str, dim: int) -> IVar:
        assert self.state is not None
        key = (kind, dim)
        if key not in self.state.ids:
            self.state.ids[key] = self.names.fresh(f"{kind}_id{dim}")
        return IVar(self.state.ids[key])

    def _mapped(
        self,
        scope: Scope,
        body: Callable[[], list[Stmt]],
        order: list[str] | None,
        kind: str,
    ) -> list[Stmt]:
        """The points of `scope`'s block with its independent indices on NDRange coordinates
        of `kind` (global, group or local ids)."""
        assert self.state is not None
        block = scope.chain[-1]
        depth = scope.depth
        names = list(order) if order is not None else [i.name for i in block.idxs]
        ranges = {i.name: i.range for i in block.idxs}
        written = written_refs(scope.chain, {}, self.cache, scope.path)
        chosen = [n for n in names if ranges[n] > 1 and loop_is_independent(written, depth, n)]
        if kind == "local" and math.prod(ranges[n] for n in chosen) > self.max_group:
            chosen = []
        stmts = super().points(scope, body, [*chosen, *(n for n in names if n not in chosen)])
        if not chosen:
            return stmts
        parent = scope.var_affine(depth - 1)
        mapped = []
        for name in chosen:
            idx = block.idx(name)
            assert idx is not None
            start = affine_expr(idx.affine.substitute(parent))
            mapped.append(Mapped(scope.vars[(depth, name)], start, idx.range))
        replaced = replace_loops(stmts, {m.var: m for m in mapped})
        if replaced is None:
            return stmts
        if kind == "local":
            size = dim_size(mapped)
            self.state.group_size = max(self.state.group_size, size)
            lid = self._id("local", 0)
            binds = bindings([mapped], [lid])
            return [If(ICmp("<", lid, IConst(size)), (*binds, *replaced))]
        dims = split_dims(mapped)
        self.state.dims = [dim_size(group) for group in dims]
        coords = [self._id(kind, d) for d in range(len(dims))]
        return [*bindings(dims, coords), *replaced]

    @property
    def max_group(self) -> int:
        return self.kernel_options.max_work_group

    def outline(self, name: str, stmts: list[Stmt]) -> list[Stmt]:
        state = self.state
        assert state is not None
        init_ids = {id(s) for group in self.init_groups for s in group}
        calls = [self._init_kernel(name, group) for group in self.init_groups]
        self.init_groups = []
        main = [s for s in stmts if id(s) not in init_ids]
        return [*calls, self._main_kernel(name, main, state)]

    def _init_kernel(self, name: str, stmts: list[Stmt]) -> Call:
        """A kernel setting the elements a kernel block aggregates to the identity: the outer
        loops of the scan (constant bounds) on global ids, one element per work-item."""
        chain = constant_nest(stmts)
        ids = [self.names.fresh(f"global_id{d}") for d in range(len(chain))]
        body = map_nest(stmts, chain, [IVar(v) for v in ids])
        sizes = tuple(trip_count(loop) for loop in reversed(chain))
        kernel = Kernel(
            "",
            sizes or (1,),
            None,
            tuple(IdVar(v, "global", d) for d, v in enumerate(ids)),
            role="init",
        )
        return self._make_kernel(f"{name}_init", body, kernel)

    def _main_kernel(self, name: str, stmts: list[Stmt], state: _KernelState) -> Call:
        body = tuple(stmts)
        outer = list(state.dims) or [1]
        local_size = None
        local_buffers: tuple[str, ...] = ()
        lid = state.ids.get(("local", 0))
        if state.cooperative and lid is None:
            raise _Fallback()  # no thread block was spread over work-items
        if lid is not None:
            size = state.group_size
            group = Cooperation(lid, size)
            body = group.rewrite(body)
            local_buffers = tuple(a.buffer for a in group.local_allocs)
            local_bytes = sum(_bytes(a) for a in group.local_allocs)
            if size > self.max_group or local_bytes > self.kernel_options.local_mem_bytes:
                raise _Fallback()
            local_size = (size,) + (1,) * (len(outer) - 1)
            outer[0] *= size
        ids = tuple(IdVar(var, kind, dim) for (kind, dim), var in state.ids.items())
        kernel = Kernel("", tuple(outer), local_size, ids, local_buffers, role="kernel")
        return self._make_kernel(name, body, kernel)

    def _make_kernel(self, hint: str, stmts: Sequence[Stmt], kernel: Kernel) -> Call:
        """A plan function for `stmts` (parameters: the buffers it uses), registered as a
        kernel; returns its launch as a plan call."""
        ids = {v.name for v in kernel.ids}
        free = free_names(tuple(stmts))
        if free.scalars:
            raise CompileError([Diagnostic(f"kernel '{hint}' uses outer scalars {free.scalars}")])
        outer = [v for v in free.ints if v not in ids]
        if outer:
            raise CompileError(
                [
                    Diagnostic(
                        f"kernel '{hint}' depends on indices of enclosing blocks ({outer[0]});"
                        " the OpenCL backend needs kernel blocks under index-free blocks"
                    )
                ]
            )
        word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", hint)
        fname = self.names.fresh(word.group(0) if word else "kernel")
        # A work-item's private arrays share one budget (`private_bytes`); the rest live in
        # global scratch, a slice per work-item. pocl's CPU device runs a work-group's items
        # on one thread's stack: a grouped conv whose items kept 17 KB private (a 12.5 KB
        # result and a 4.6 KB packing buffer, each under a per-array limit) crashed it.
        scratch, private = [], 0
        for alloc in walk_stmts(tuple(stmts)):
            if not isinstance(alloc, Alloc) or alloc.buffer in kernel.local_buffers:
                continue
            private += _bytes(alloc)
            if private > self.kernel_options.private_bytes:
                private -= _bytes(alloc)
                param = self.names.fresh(f"{alloc.buffer}_slices")
                scratch.append(Scratch(alloc.buffer, param, alloc.dtype, max(alloc.size, 1)))
        params: list[BufferParam | IntParam] = []
        args: list[BufferArg | IntExpr] = []
        for buf in free.buffers:
            writes = buf in free.written_buffers
            params.append(BufferParam(buf, self.buffer_types[buf], writes))
            args.append(BufferArg(buf, writes=writes))
        self.functions.append(Function(fname, tuple(params), tuple(stmts), hint))
        self.kernels.append(replace(kernel, function=fname, scratch=tuple(scratch)))
        return Call(fname, tuple(args))


def _bytes(alloc: Alloc) -> int:
    """Bytes of an allocation in private or local memory (fp16 elements are floats there)."""
    dtype = DType.FP32 if alloc.dtype is DType.FP16 else alloc.dtype
    return max(alloc.size, 1) * numpy_dtype(dtype).itemsize


def _buffer_args(call: Call) -> tuple[str, ...]:
    names = []
    for arg in call.args:
        if not isinstance(arg, BufferArg) or arg.offset != IConst(0):
            raise InternalError(f"kernel launch '{call.function}' has a non-buffer argument")
        names.append(arg.buffer)
    return tuple(names)


def lower_kernels(
    program: Block, options: KernelOptions, lowering: LoweringOptions | None = None
) -> KernelProgram:
    """The OpenCL kernels and host steps of a whole (verified) program. `lowering` gives the
    shared lowering's options (micro-kernels); loops never go to threads here."""
    base = lowering if lowering is not None else LoweringOptions()
    shared = replace(
        base,
        kernel_depth=kernel_depth(program),
        parallel_tags=(),
        threads=1,
        gemm_tags=(),
        gemm_epilogue=False,
        gemm_split_flags=False,
        gemm_a_in_place=False,
        align_vector_loops=0,
    )
    return KernelLowering(program, shared, kernel_options=options, gemm_tags=base.gemm_tags).lower()
