"""Stripe -> loop-nest plan: blocks become isl loop nests, refinements become offsets.

Every refinement is resolved to a plan buffer and the offset of its element 0, an affine
function of loop variables (strides are absolute, so a view's offset is its parent's offset
plus `sum(access_d * stride_d)`). Fresh allocations become `Alloc`s around the body of the
owning block's points. Each block's points are scanned by the isl AST of its domain (exact
bounds, no guards where isl can fold constraints into bounds); stores accumulate where
`aggregation` says so, after the top reducing level initialised its footprint. The blocks at
`kernel_depth` (PlaidML's kernels, children of `main`) become plan functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import islpy as isl

from plaidc.analysis import AnalysisError, DomainCache, loop_ast, trace
from plaidc.backends.loopnest import isl_ast
from plaidc.backends.loopnest.aggregation import (
    WrittenRef,
    fully_written,
    init_elements,
    written_refs,
)
from plaidc.backends.loopnest.depth import allow_nesting, nesting_depth
from plaidc.backends.loopnest.gemm import detect as detect_gemm
from plaidc.backends.loopnest.gemm import lower_gemm
from plaidc.backends.loopnest.gemm_epilogue import detect as detect_epilogue
from plaidc.backends.loopnest.names import Namer
from plaidc.backends.loopnest.optimise import finish_block, hoist_scratch, mark_init_loops
from plaidc.backends.loopnest.plan import (
    STATUS,
    Alloc,
    BufferArg,
    BufferParam,
    Call,
    Comment,
    Function,
    IntExpr,
    IntParam,
    IVar,
    LetInt,
    LetScalar,
    Plan,
    ProgramBuffer,
    ScalarType,
    SConst,
    SIndex,
    SLoad,
    Stmt,
    Store,
    SVar,
    affine_expr,
    free_names,
)
from plaidc.backends.loopnest.scalars import (
    Known,
    Runtime,
    ScalarTyper,
    Value,
    identity,
    storage,
    store_value,
)
from plaidc.backends.loopnest.scope import LoweringOptions, Scope, View
from plaidc.backends.loopnest.simplify import simplify
from plaidc.backends.loopnest.specials import lower_special
from plaidc.backends.loopnest.split_reduction import detect as detect_split
from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.interp import alloc_layout, constant_value, numpy_dtype, program_io
from plaidc.stripe.ir import (
    Affine,
    Block,
    Constant,
    DType,
    Intrinsic,
    Load,
    LoadIndex,
    Refinement,
    Special,
    Statement,
)
from plaidc.stripe.ir import (
    Store as StripeStore,
)


@dataclass
class Lowering:
    """One compilation: names, the isl cache and the functions produced so far."""

    program: Block
    options: LoweringOptions
    names: Namer = field(default_factory=Namer)
    cache: DomainCache = field(default_factory=DomainCache)
    functions: list[Function] = field(default_factory=list)
    buffer_types: dict[str, DType] = field(default_factory=dict)
    # elements allocated per buffer of the program or of a block (not the backends' scratch)
    buffer_sizes: dict[str, int] = field(default_factory=dict)
    in_parallel: bool = False
    gemm_kernels: dict[object, str] = field(default_factory=dict)

    # ---- the program --------------------------------------------------------------------

    def run(self) -> Plan:
        root = self.program
        io = program_io(root)
        self.names.reserve(STATUS)
        self.buffer_types[STATUS] = DType.I32
        buffers = []
        views = {}
        written = fully_written(root, self.cache)
        for ref in root.refs:
            name = self.names.fresh(ref.into)
            region, start = alloc_layout(ref.shape)
            dtype = storage(ref.shape.dtype)
            self.buffer_types[name] = dtype
            self.buffer_sizes[name] = region
            buffers.append(
                ProgramBuffer(
                    name=name,
                    stripe_name=ref.into,
                    dtype=ref.shape.dtype,
                    sizes=ref.shape.sizes,
                    strides=ref.shape.strides,
                    region=region,
                    start=start,
                    is_input=ref.into in io.inputs,
                    is_output=ref.into in io.outputs,
                    fully_written=ref.into in written,
                )
            )
            views[ref.into] = View(name, Affine.const_(start), ref)
        scope = Scope((root,), {}, views, root.name or "program")
        for idx in root.idxs:
            scope.vars[(0, idx.name)] = self.names.fresh(idx.name)
        body = self.points(scope, lambda: self.body(scope))
        entry = self.names.reserve("plaidc_main")
        params: list[BufferParam | IntParam] = [
            BufferParam(b.name, self.buffer_types[b.name], b.is_output) for b in buffers
        ]
        params.append(BufferParam(STATUS, DType.I32, True))
        allow_nesting(nesting_depth(tuple(body)))  # hoist_scratch recurses as deep
        main = hoist_scratch(tuple(body))
        self.functions.append(Function(entry, tuple(params), main, "the whole program"))
        allow_nesting(max(nesting_depth(f.body) for f in self.functions))
        functions = tuple(replace(f, body=simplify(f.body)) for f in self.functions)
        threads = self.options.threads if self.options.pin_threads else 0
        slots = self.options.threads + 1 if self.options.keep_scratch else 0
        backoff = self.options.shared_cpu_backoff
        return Plan(tuple(buffers), functions, entry, threads, slots, backoff)

    def points(
        self,
        scope: Scope,
        body: Callable[[], list[Stmt]],
        order: list[str] | None = None,
    ) -> list[Stmt]:
        """Loops over the points of `scope`'s block, binding its indices, around `body`."""
        block = scope.chain[-1]
        ast = loop_ast(scope.chain, order, self.cache)
        depth = scope.depth

        def leaf(args: list[IntExpr]) -> list[Stmt]:
            out: list[Stmt] = []
            for idx, arg in zip(block.idxs, args, strict=True):
                var = scope.vars[(depth, idx.name)]
                if arg != IVar(var):
                    out.append(LetInt(var, arg))
            return out + body()

        return isl_ast.convert(ast, scope.resolver(), leaf)

    # ---- blocks -------------------------------------------------------------------------

    def child_scope(
        self, parent: Scope, block: Block, pos: int
    ) -> tuple[Scope, dict[str, WrittenRef], list[Refinement]]:
        """The scope of `block`, a block statement of `parent`'s body (its indices bound to
        fresh variables, its refinements to views of the parent's buffers), what it writes,
        and its fresh allocations (not yet given buffers)."""
        chain = (*parent.chain, block)
        depth = len(chain) - 1
        path = f"{parent.path}/{block.name or f'#{pos}'}"
        modes = {name: view.mode for name, view in parent.views.items()}
        written = written_refs(chain, modes, self.cache, path)
        scope = Scope(chain, dict(parent.vars), {}, path)
        for idx in block.idxs:
            scope.vars[(depth, idx.name)] = self.names.fresh(idx.name)
        local = scope.var_affine(depth)
        allocs: list[Refinement] = []
        for ref in block.refs:
            if ref.from_ is None:
                allocs.append(ref)
                continue
            outer = parent.views.get(ref.from_)
            if outer is None:
                raise CompileError(
                    [Diagnostic(f"{path}: refinement '{ref.into}' refines unknown '{ref.from_}'")]
                )
            base = outer.base
            for access, stride in zip(ref.access, ref.shape.strides, strict=True):
                base = base + access.substitute(local) * stride
            w = written.get(ref.into)
            scope.views[ref.into] = View(outer.buffer, base, ref, w.mode if w else outer.mode)
        return scope, written, allocs

    def block(
        self,
        parent: Scope,
        block: Block,
        pos: int,
        after: Block | None = None,
        fused: set[int] | None = None,
    ) -> list[Stmt]:
        """A block statement of `parent`'s body: initialisations, then its loop nest. `after`,
        the next statement when it is a block, may run as a GEMM-like block's epilogue on its
        registers (`gemm_epilogue`): then it is lowered here and its identity goes to `fused`."""
        chain = (*parent.chain, block)
        depth = len(chain) - 1
        scope, written, allocs = self.child_scope(parent, block, pos)
        gemm = None if allocs else detect_gemm(self, scope, written)
        # a block stepping the reduction around a GEMM-like leaf (`split_reduction`)
        split = None if allocs or gemm is not None else detect_split(self, scope, written)
        epilogue = None
        fusable = after is not None and fused is not None and self.options.gemm_epilogue
        producer = split.gemm if split is not None else gemm
        if producer is not None and fusable and depth != self.options.kernel_depth:
            assert after is not None and fused is not None
            epilogue = detect_epilogue(self, parent, producer, after, pos + 1)
            if epilogue is not None:
                fused.add(id(after))
        pre: list[Stmt] = []
        for w in written.values():
            overwritten = gemm is not None and gemm.shape.overwrite and gemm.c_ref == w.ref.into
            overwritten |= split is not None and split.c_ref == w.ref.into
            if w.init and not overwritten:
                pre.extend(self.init_footprint(parent, chain, w))
        title = block.name or f"#{pos}"
        comment = [Comment(f"{title}: {'; '.join(block.comments)}" if block.comments else title)]

        def body() -> list[Stmt]:
            return self.with_allocs(scope, allocs, lambda: self.body(scope))

        if gemm is not None:
            loops = lower_gemm(self, gemm, epilogue)
        elif split is not None:
            self._check_accumulated_writers(scope)
            run = split
            loops = finish_block(self, scope, written, lambda: run.lower(self, epilogue))
        else:
            loops = finish_block(self, scope, written, body)
        stmts = comment + pre + loops
        if depth == self.options.kernel_depth:
            # PlaidML names fused kernels `kernel_0(X,Y)+kernel_1(...)`: the first word will do.
            word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", block.name)
            return self.outline(word.group(0) if word else f"kernel_{pos}", stmts)
        return stmts

    def with_allocs(
        self, scope: Scope, refs: list[Refinement], body: Callable[[], list[Stmt]]
    ) -> list[Stmt]:
        """`body` inside an `Alloc` per fresh refinement of the block (one per point)."""
        buffers = []
        for ref in refs:
            name = self.names.fresh(ref.into)
            region, start = alloc_layout(ref.shape)
            dtype = storage(ref.shape.dtype)
            self.buffer_types[name] = dtype
            self.buffer_sizes[name] = region
            scope.views[ref.into] = View(name, Affine.const_(start), ref)
            buffers.append((name, dtype, region))
        stmts = body()
        for name, dtype, region in reversed(buffers):
            heap = region * numpy_dtype(dtype).itemsize > self.options.stack_bytes
            # a heap temporary (an MLP's hidden layer) is kept between calls as packing
            # scratch is: freed and allocated again, its pages faulted in on every call
            # (glibc hands large blocks back to the OS), 4% of MLP 3x1024 batch 128
            kept = heap and self.options.keep_scratch
            stmts = [Alloc(name, dtype, region, tuple(stmts), heap=heap, scratch=kept)]
        return stmts

    def init_footprint(self, parent: Scope, chain: tuple[Block, ...], w: WrittenRef) -> list[Stmt]:
        """Set the elements one execution of `chain[-1]` stores through `w.ref` to the identity
        of its agg_op (Definition 2: prior contents never enter an aggregate)."""
        assert w.ref.from_ is not None and w.mode is not None
        outer = parent.views[w.ref.from_]
        elements, context = init_elements(chain, w, self.cache)
        ndims = outer.ref.shape.ndims
        iters = [self.names.fresh(f"e{d}") for d in range(ndims)]
        offset = outer.base
        for var, stride in zip(iters, outer.ref.shape.strides, strict=True):
            offset = offset + Affine.var(var) * stride
        value = identity(w.mode, outer.ref.shape.dtype)
        store = Store(outer.buffer, affine_expr(offset), value)
        resolve = parent.resolver()

        def resolve_id(name: str) -> IntExpr:
            return IVar(name) if name in iters else resolve(name)

        def leaf(args: list[IntExpr]) -> list[Stmt]:
            binds: list[Stmt] = [
                LetInt(var, arg) for var, arg in zip(iters, args, strict=True) if arg != IVar(var)
            ]
            return [*binds, store]

        ast = isl_ast.scan(elements, context, iters)
        what = f"initialise what '{w.ref.into}' aggregates ({w.mode})"
        return [Comment(what), *mark_init_loops(isl_ast.convert(ast, resolve_id, leaf))]

    def outline(self, name: str, stmts: list[Stmt]) -> list[Stmt]:
        """Move `stmts` into a function of their free buffers and integers; call it."""
        free = free_names(tuple(stmts))
        if free.scalars:
            raise CompileError([Diagnostic(f"kernel '{name}' uses outer scalars {free.scalars}")])
        fname = self.names.fresh(name)
        params: list[BufferParam | IntParam] = []
        args: list[BufferArg | IntExpr] = []
        for buf in free.buffers:
            writes = buf in free.written_buffers
            params.append(BufferParam(buf, self.buffer_types[buf], writes))
            args.append(BufferArg(buf, writes=writes))
        for var in free.ints:
            params.append(IntParam(var))
            args.append(IVar(var))
        allow_nesting(nesting_depth(tuple(stmts)))
        body = hoist_scratch(tuple(stmts))
        self.functions.append(Function(fname, tuple(params), body, name))
        return [Call(fname, tuple(args))]

    # ---- statements ---------------------------------------------------------------------

    def body(self, scope: Scope) -> list[Stmt]:
        """The statements of one point of `scope`'s block."""
        block = scope.chain[-1]
        self._check_accumulated_writers(scope)
        typer = ScalarTyper(scope.path)
        env: dict[str, Value] = {}
        stored: dict[str, Runtime] = {}  # this point's last store through a ref, for loads
        fused: set[int] = set()  # blocks of this point lowered as a GEMM's epilogue
        out: list[Stmt] = []
        for pos, stmt in enumerate(block.stmts):
            if isinstance(stmt, Load):
                env[stmt.into] = self._load(scope, stmt, stored, out)
            elif isinstance(stmt, StripeStore):
                self._store(scope, stmt, env, stored, out)
            elif isinstance(stmt, LoadIndex):
                local = stmt.affine.substitute(scope.var_affine(scope.depth))
                index = SIndex(affine_expr(local))
                name = self.names.fresh(stmt.into.lstrip("$") or "idx")
                out.append(LetScalar(name, index))
                env[stmt.into] = Runtime(SVar(name, index.type), numpy_dtype(DType.I64))
            elif isinstance(stmt, Constant):
                try:
                    env[stmt.name] = Known(constant_value(stmt.value, stmt.type))
                except ValueError:
                    raise CompileError(
                        [Diagnostic(f"{scope.path}: constant type '{stmt.type}' is unknown")]
                    ) from None
            elif isinstance(stmt, Intrinsic):
                env.update(self._intrinsic(scope, typer, stmt, env, out))
            elif isinstance(stmt, Special):
                for name in stmt.outputs:
                    stored.pop(name, None)
                out.extend(lower_special(self, scope, stmt))
            elif isinstance(stmt, Block):
                for ref in stmt.refs:
                    if ref.from_ is not None:
                        stored.pop(ref.from_, None)
                if id(stmt) in fused:
                    continue  # lowered as the epilogue of the GEMM before it
                after = block.stmts[pos + 1] if pos + 1 < len(block.stmts) else None
                nxt = after if isinstance(after, Block) else None
                out.extend(self.block(scope, stmt, pos, nxt, fused))
        return out

    def _view(self, scope: Scope, name: str, what: str) -> View:
        view = scope.views.get(name)
        if view is None:
            raise CompileError(
                [Diagnostic(f"{scope.path}: {what} names '{name}', which is not a refinement here")]
            )
        return view

    def _load(self, scope: Scope, stmt: Load, stored: dict[str, Runtime], out: list[Stmt]) -> Value:
        if stmt.from_ in stored:
            return stored[stmt.from_]
        view = self._view(scope, stmt.from_, "load")
        if view.mode is not None:
            raise CompileError(
                [
                    Diagnostic(
                        f"{scope.path}: load of '{stmt.from_}', which this block aggregates"
                        f" into ({view.mode}); reading an element while it is being aggregated"
                        " is not supported by this backend"
                    )
                ]
            )
        dtype = storage(view.ref.shape.dtype)
        load = SLoad(view.buffer, affine_expr(view.base), ScalarType(dtype))
        name = self.names.fresh(stmt.into.lstrip("$") or "x")
        out.append(LetScalar(name, load))
        return Runtime(SVar(name, load.type), numpy_dtype(dtype))

    def _store(
        self,
        scope: Scope,
        stmt: StripeStore,
        env: dict[str, Value],
        stored: dict[str, Runtime],
        out: list[Stmt],
    ) -> None:
        view = self._view(scope, stmt.into, "store")
        if stmt.from_ not in env:
            raise CompileError(
                [Diagnostic(f"{scope.path}: scalar '{stmt.from_}' is used before it is defined")]
            )
        value = store_value(env[stmt.from_], view.ref.shape.dtype)
        dtype = storage(view.ref.shape.dtype)
        if not isinstance(value, (SVar, SConst)):
            name = self.names.fresh(stmt.from_.lstrip("$") or "s")
            out.append(LetScalar(name, value))
            value = SVar(name, value.type)
        out.append(Store(view.buffer, affine_expr(view.base), value, view.mode))
        stored[stmt.into] = Runtime(value, numpy_dtype(dtype))

    def _intrinsic(
        self,
        scope: Scope,
        typer: ScalarTyper,
        stmt: Intrinsic,
        env: dict[str, Value],
        out: list[Stmt],
    ) -> dict[str, Value]:
        if len(stmt.outputs) != 1:
            raise CompileError(
                [
                    Diagnostic(
                        f"{scope.path}: intrinsic '{stmt.name}' has {len(stmt.outputs)} outputs;"
                        " every known intrinsic has one"
                    )
                ]
            )
        args = []
        for name in stmt.inputs:
            if name not in env:
                raise CompileError(
                    [Diagnostic(f"{scope.path}: scalar '{name}' is used before it is defined")]
                )
            args.append(env[name])
        result = typer.apply(stmt.name, args)
        if isinstance(result, Runtime) and not isinstance(result.expr, SVar):
            name = self.names.fresh(stmt.outputs[0].lstrip("$") or "t")
            out.append(LetScalar(name, result.expr))
            result = Runtime(SVar(name, result.expr.type), result.dtype)
        return {stmt.outputs[0]: result}

    def _check_accumulated_writers(self, scope: Scope) -> None:
        """A point's value for an element is its *last* write; accumulating in place is only
        right when one statement of the body writes an accumulated refinement."""
        block = scope.chain[-1]
        counts: dict[str, int] = {}
        for stmt in block.stmts:
            for name in _written_by(stmt):
                counts[name] = counts.get(name, 0) + 1
        aggregated: dict[str, list[str]] = {}  # buffer -> its aggregated views written here
        for name, count in counts.items():
            view = scope.views.get(name)
            if view is None or view.mode is None:
                continue
            if count > 1:
                raise self._last_write_error(
                    scope, f"{count} statements of one point write '{name}'", view.mode
                )
            aggregated.setdefault(view.buffer, []).append(name)
        for names in aggregated.values():
            for k, first in enumerate(names):
                for second in names[k + 1 :]:
                    if self._may_share_elements(scope, first, second):
                        mode = scope.views[first].mode or ""
                        what = f"one point writes '{first}' and '{second}', views of one element"
                        raise self._last_write_error(scope, what, mode)

    @staticmethod
    def _last_write_error(scope: Scope, what: str, mode: str) -> CompileError:
        return CompileError(
            [
                Diagnostic(
                    f"{scope.path}: {what}, which is aggregated ({mode}); only the last write "
                    "of a point counts, which this backend does not support here"
                )
            ]
        )

    def _may_share_elements(self, scope: Scope, first: str, second: str) -> bool:
        """Whether one point of the block reaches an element through both views (isl, in the
        coordinates of the buffer both refine); True when that cannot be analysed."""
        try:
            a = trace(scope.chain, first, True, self.cache)[-1]
            b = trace(scope.chain, second, True, self.cache)[-1]
            if a.ref.into != b.ref.into or a.depth != b.depth:
                return True
            return not a.elements.intersect(b.elements).is_empty()
        except (AnalysisError, isl.Error):
            return True


def _written_by(stmt: Statement) -> list[str]:
    if isinstance(stmt, StripeStore):
        return [stmt.into]
    if isinstance(stmt, Special):
        return list(stmt.outputs)
    if isinstance(stmt, Block):
        return [r.from_ for r in stmt.refs if r.from_ is not None and r.dir.writes]
    return []


def lower_program(program: Block, options: LoweringOptions) -> Plan:
    """The plan of a whole (verified) program."""
    return Lowering(program, options).run()
