"""Plan -> LLVM IR module (llvmlite's IR builder).

The structure is the plan's: one LLVM function per plan function (buffer parameters are
`noalias` pointers), loops as header/body/latch blocks over an `alloca` counter (promoted to
registers by the optimiser), and `plaidc_entry(ptr args)` exported. A parallel loop is
outlined into a function of a context record and run on threads with libgomp's
`GOMP_parallel`, each thread taking one contiguous chunk of iterations. Accumulators of
reduction loops combine with `reassoc` fast-math flags, which lets LLVM vectorise them, and
their float max/min with `nsz` (the sign of a zero maximum is order-dependent in numpy too: see
`Ops._minmax`); no other fast-math flag is used. Loops the plan marks `vector` carry
`llvm.loop` metadata that asks for vectorisation and forbids unrolling them first (see
`ModuleEmitter.vector_loop_id`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from llvmlite import ir

from plaidc.backends.llvm import scratch, threads
from plaidc.backends.llvm.ops import I1, I8, I32, I64, PTR, Ops, memory_type, value_type
from plaidc.backends.loopnest import plan as p
from plaidc.backends.loopnest.scalars import aggregate
from plaidc.stripe.ir import DType

_REASSOC = ("reassoc",)


def _named(value: ir.Value, name: str) -> ir.Value:
    """Give an unnamed instruction the plan's name, so the IR reads like the plan."""
    # llvmlite numbers unnamed values `.N`.
    if isinstance(value, ir.Instruction) and (not value.name or value.name.startswith(".")):
        value.name = name
    return value


class _LoopID(ir.MDValue):
    """A `distinct` loop-ID node whose first operand is itself, as LLVM requires (llvmlite's
    `add_metadata` makes only uniqued nodes, which cannot refer to themselves)."""

    def __init__(self, module: ir.Module, properties: list[ir.MDValue]) -> None:
        super().__init__(module, [], name=str(len(module.metadata)))
        self.operands = (self, *properties)

    def descr(self, buf: list[str]) -> None:
        buf.append("distinct ")
        super().descr(buf)

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)


@dataclass
class FunctionEmitter:
    """Emits statements into one LLVM function."""

    module: ModuleEmitter
    fn: ir.Function
    ints: dict[str, ir.Value] = field(default_factory=dict)
    scalars: dict[str, ir.Value] = field(default_factory=dict)
    mutables: dict[str, tuple[ir.Value, p.ScalarType]] = field(default_factory=dict)
    buffers: dict[str, tuple[ir.Value, DType]] = field(default_factory=dict)
    reduction_vars: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        entry = self.fn.append_basic_block("entry")
        self.allocas = ir.IRBuilder(entry)
        self.b = ir.IRBuilder(self.fn.append_basic_block("start"))
        self.ops = Ops(
            self.module.module,
            self.b,
            self.module.vector_math,
            self.module.kept,
            self.module.polynomial_exp,
        )

    def finish(self) -> None:
        self.b.ret_void()
        self.allocas.branch(self.fn.blocks[1])

    def alloca(self, ty: ir.Type, name: str, align: int | None = None) -> ir.Value:
        slot = self.allocas.alloca(ty, name=name)
        if align:
            slot.align = align
        # llvmlite types an alloca as a typed pointer; the module uses opaque pointers only.
        slot.type = PTR
        return slot

    # ---- expressions ----------------------------------------------------------------------

    def int_expr(self, e: p.IntExpr) -> ir.Value:
        b = self.b
        if isinstance(e, p.IConst):
            return ir.Constant(I64, e.value)
        if isinstance(e, p.IVar):
            return self.ints[e.name]
        if isinstance(e, p.IScalar):
            return self.scalars[e.name]
        if isinstance(e, p.IBin):
            x, y = self.int_expr(e.a), self.int_expr(e.b)
            if e.op == "+":
                return b.add(x, y)
            if e.op == "-":
                return b.sub(x, y)
            if e.op == "*":
                return b.mul(x, y)
            if e.op == "pdiv":
                return b.sdiv(x, y)
            if e.op == "rem":
                return b.srem(x, y)
            if e.op == "min":
                return b.select(b.icmp_signed("<", x, y), x, y)
            if e.op == "max":
                return b.select(b.icmp_signed(">", x, y), x, y)
            if e.op == "fdiv":
                # Floor division by a positive divisor: truncation rounds negatives up.
                quotient = b.sdiv(x, y)
                inexact = b.icmp_signed("!=", b.srem(x, y), ir.Constant(I64, 0))
                negative = b.icmp_signed("<", x, ir.Constant(I64, 0))
                adjust = b.zext(b.and_(inexact, negative), I64)
                return b.sub(quotient, adjust)
        if isinstance(e, p.ICmp):
            return b.icmp_signed(e.op, self.int_expr(e.a), self.int_expr(e.b))
        if isinstance(e, p.ILogic):
            x, y = self.int_expr(e.a), self.int_expr(e.b)
            return b.and_(x, y) if e.op == "and" else b.or_(x, y)
        if isinstance(e, p.ISelect):
            return b.select(self.int_expr(e.cond), self.int_expr(e.a), self.int_expr(e.b))
        if isinstance(e, p.IAlignGap):
            # (-address mod align) / element size, on the unsigned address
            ptr, dtype = self.address(e.buffer, e.offset)
            address = b.ptrtoint(ptr, I64)
            gap = b.and_(b.neg(address), ir.Constant(I64, e.align - 1))
            return b.udiv(gap, ir.Constant(I64, max(dtype.byte_size, 1)))
        raise TypeError(f"not an integer expression: {e!r}")

    def address(self, buffer: str, offset: p.IntExpr) -> tuple[ir.Value, DType]:
        base, dtype = self.buffers[buffer]
        ptr = self.b.gep(
            base, [self.int_expr(offset)], inbounds=True, source_etype=memory_type(dtype)
        )
        return ptr, dtype

    def scalar(self, e: p.SExpr, flags: tuple[str, ...] = ()) -> ir.Value:
        b, ops = self.b, self.ops
        if isinstance(e, p.SVar):
            if e.name in self.mutables:
                slot, t = self.mutables[e.name]
                return b.load(slot, typ=value_type(t))
            return self.scalars[e.name]
        if isinstance(e, p.SConst):
            return ops.const(e.value, e.type)
        if isinstance(e, p.SLoad):
            ptr, dtype = self.address(e.buffer, e.offset)
            if e.type.is_vector:
                return b.load(ptr, typ=value_type(e.type), align=dtype.byte_size)
            value = b.load(ptr, typ=memory_type(dtype), align=max(dtype.byte_size, 1))
            return b.trunc(value, I1) if dtype is DType.BOOL else value
        if isinstance(e, p.SIndex):
            return self.int_expr(e.expr)
        if isinstance(e, p.SCast):
            arg = self.scalar(e.arg)
            if e.type.is_vector and not e.arg.type.is_vector:
                element = ops.convert(arg, e.arg.type.dtype, e.type.dtype)
                return ops.splat(element, e.type)
            return ops.convert(arg, e.arg.type.dtype, e.type.dtype)
        if isinstance(e, p.SUnary):
            return ops.unary(e.op, self.scalar(e.arg), e.type)
        if isinstance(e, p.SBinary):
            return ops.binary(e.op, self.scalar(e.a), self.scalar(e.b), e.type, flags)
        if isinstance(e, p.SFma):
            x, y, z = self.scalar(e.a), self.scalar(e.b), self.scalar(e.c)
            return b.call(ops.intrinsic("llvm.fmuladd", x.type, 3), [x, y, z])
        if isinstance(e, p.SCompare):
            return ops.compare(e.op, self.scalar(e.a), self.scalar(e.b), e.a.type.dtype)
        if isinstance(e, p.SSelect):
            return b.select(self.scalar(e.cond), self.scalar(e.a), self.scalar(e.b))
        if isinstance(e, p.SShuffle):
            mask = ir.Constant(ir.VectorType(I32, len(e.mask)), list(e.mask))
            return b.shuffle_vector(self.scalar(e.a), self.scalar(e.b), mask)
        raise TypeError(f"not a scalar expression: {e!r}")

    # ---- statements -----------------------------------------------------------------------

    def stmts(self, body: tuple[p.Stmt, ...]) -> None:
        for stmt in body:
            self.stmt(stmt)

    def stmt(self, s: p.Stmt) -> None:
        if isinstance(s, p.Comment):
            self.b.comment(s.text.replace("\n", " "))
        elif isinstance(s, p.LetInt):
            self.ints[s.name] = _named(self.int_expr(s.value), s.name)
        elif isinstance(s, p.LetScalar):
            self.scalars[s.name] = _named(self.scalar(s.value), s.name)
        elif isinstance(s, p.Clock):
            clock = self.ops.function("omp_get_wtime", ir.DoubleType(), [])
            self.scalars[s.name] = _named(self.b.call(clock, []), s.name)
            self.module.uses_threads = True  # libgomp's clock: the library is loaded
        elif isinstance(s, p.DeclVar):
            slot = self.alloca(value_type(s.type), s.name)
            self.b.store(self.scalar(s.init), slot)
            self.mutables[s.name] = (slot, s.type)
        elif isinstance(s, p.AssignVar):
            slot, _ = self.mutables[s.name]
            flags = _REASSOC if s.name in self.reduction_vars else ()
            self.b.store(self.scalar(s.value, flags), slot)
        elif isinstance(s, p.Store):
            self.store(s)
        elif isinstance(s, p.Loop):
            if s.parallel:
                self.parallel_loop(s)
            else:
                self.loop(s)
        elif isinstance(s, p.If):
            self.branch(s)
        elif isinstance(s, p.Alloc):
            self.allocate(s)
        elif isinstance(s, p.Call):
            self.call(s)
        elif isinstance(s, p.Prefetch):
            ptr, _ = self.address(s.buffer, s.offset)
            prefetch = self.ops.function(
                "llvm.prefetch.p0", ir.VoidType(), [ptr.type, I32, I32, I32]
            )
            # a read, kept in all cache levels (locality 3), of data (cache type 1)
            kind = (0, 3, 1)
            self.b.call(prefetch, [ptr, *(ir.Constant(I32, v) for v in kind)])
        else:
            raise TypeError(f"not a plan statement: {s!r}")

    def store(self, s: p.Store) -> None:
        t = s.value.type
        value = s.value
        if s.agg is not None:
            value = aggregate(s.agg, p.SLoad(s.buffer, s.offset, t), s.value, t)
        result = self.scalar(value)
        ptr, dtype = self.address(s.buffer, s.offset)
        if dtype is DType.BOOL and not t.is_vector:
            result = self.b.zext(result, I8)
        self.b.store(result, ptr, align=max(dtype.byte_size, 1))

    def loop(self, s: p.Loop) -> None:
        b = self.b
        lo, hi = self.int_expr(s.lo), self.int_expr(s.hi)
        counter = self.alloca(I64, f"{s.var}.slot")
        b.store(lo, counter)
        head = self.fn.append_basic_block(f"{s.var}.head")
        body = self.fn.append_basic_block(f"{s.var}.body")
        exit_ = self.fn.append_basic_block(f"{s.var}.exit")
        b.branch(head)
        b.position_at_end(head)
        value = b.load(counter, typ=I64, name=s.var)
        b.cbranch(b.icmp_signed("<", value, hi), body, exit_)
        b.position_at_end(body)
        self.ints[s.var] = value
        saved = set(self.reduction_vars)
        self.reduction_vars.update(r.var for r in s.reductions)
        self.stmts(s.body)
        self.reduction_vars = saved
        b.store(b.add(value, ir.Constant(I64, s.step)), counter)
        latch = b.branch(head)
        if s.vector:
            latch.set_metadata("llvm.loop", self.module.vector_loop_id())
        b.position_at_end(exit_)

    def branch(self, s: p.If) -> None:
        cond = self.int_expr(s.cond)
        if s.orelse:
            with self.b.if_else(cond) as (then, orelse):
                with then:
                    self.stmts(s.then)
                with orelse:
                    self.stmts(s.orelse)
        else:
            with self.b.if_then(cond):
                self.stmts(s.then)

    def allocate(self, s: p.Alloc) -> None:
        ty = memory_type(s.dtype)
        size = max(s.size, 1)
        if not s.heap:
            slot = self.alloca(ir.ArrayType(ty, size), s.buffer, s.align)
            self.buffers[s.buffer] = (slot, s.dtype)
            self.stmts(s.body)
            return
        nbytes = size * max(s.dtype.byte_size, 1)
        rounded = (nbytes + s.align - 1) // s.align * s.align
        extent = [ir.Constant(I64, s.align), ir.Constant(I64, rounded)]
        slots = self.module.plan.scratch_slots
        if s.scratch and slots > 0:
            # kept between calls: taken from this allocation's slots, given back at the end
            module = self.module.module
            kept = scratch.slots_global(module, slots)
            self.module.kept_scratch.append((kept, slots))
            count = ir.Constant(I64, slots)
            ptr = self.b.call(scratch.take_function(module), [kept, count, *extent])
            give = scratch.give_function(module)

            def release() -> None:
                self.b.call(give, [kept, count, ptr])
        else:
            alloc = self.ops.function("aligned_alloc", PTR, [I64, I64])
            free = self.ops.function("free", ir.VoidType(), [PTR])
            ptr = self.b.call(alloc, extent)

            def release() -> None:
                self.b.call(free, [ptr])

        self.buffers[s.buffer] = (ptr, s.dtype)
        failed = self.b.icmp_unsigned("==", ptr, ir.Constant(PTR, None))
        with self.b.if_else(failed) as (then, orelse):
            with then:
                status, _ = self.address(p.STATUS, p.IConst(0))
                self.b.store(ir.Constant(I32, p.FAIL_OUT_OF_MEMORY), status)
            with orelse:
                self.stmts(s.body)
                release()

    def call(self, s: p.Call) -> None:
        callee = self.module.functions[s.function]
        args = []
        for arg in s.args:
            if isinstance(arg, p.BufferArg):
                base, _ = self.buffers[arg.buffer]
                if arg.offset == p.IConst(0):
                    args.append(base)
                else:
                    args.append(self.address(arg.buffer, arg.offset)[0])
            else:
                args.append(self.int_expr(arg))
        self.b.call(callee, args)

    # ---- threads ----------------------------------------------------------------------------

    def parallel_loop(self, s: p.Loop) -> None:
        """Outline the loop into `<fn>.parallel.<n>(ctx)` and run it with GOMP_parallel."""
        free = p.free_names((s,))
        captured: list[tuple[str, str, ir.Value]] = []
        for name in free.ints:
            captured.append(("int", name, self.ints[name]))
        for name in free.scalars:
            if name in self.mutables:
                raise TypeError(f"parallel loop over {s.var} updates outer variable {name}")
            captured.append(("scalar", name, self.scalars[name]))
        for name in free.buffers:
            captured.append(("buffer", name, self.buffers[name][0]))
        bounds = [
            ("int", f"{s.var}.lo", self.int_expr(s.lo)),
            ("int", f"{s.var}.hi", self.int_expr(s.hi)),
        ]
        backoff = self.module.plan.shared_cpu_backoff
        if backoff > 0:  # the team's CPUs are recorded (`threads`)
            captured.append(("team", "team", self.alloca(threads.TEAM_TYPE, f"{s.var}.team")))
        fields = bounds + captured
        record = ir.LiteralStructType([v.type for _, _, v in fields])
        ctx = self.alloca(record, f"{s.var}.ctx")
        for k, (_, _, value) in enumerate(fields):
            slot = self.b.gep(
                ctx, [ir.Constant(I32, 0), ir.Constant(I32, k)], inbounds=True, source_etype=record
            )
            self.b.store(value, slot)
        outlined = self.module.new_function(f"{self.fn.name}.parallel", [PTR])
        child = FunctionEmitter(self.module, outlined)
        arg = outlined.args[0]
        for k, (kind, name, value) in enumerate(fields):
            slot = child.b.gep(
                arg, [ir.Constant(I32, 0), ir.Constant(I32, k)], inbounds=True, source_etype=record
            )
            loaded = child.b.load(slot, typ=value.type)
            if kind == "int":
                child.ints[name] = loaded
            elif kind == "scalar":
                child.scalars[name] = loaded
            elif kind == "team":
                child.b.call(threads.mark_function(self.module.module), [loaded])
            else:
                child.buffers[name] = (loaded, self.buffers[name][1])
        child.thread_chunk(s)
        child.finish()
        gomp = self.ops.function("GOMP_parallel", ir.VoidType(), [PTR, PTR, I32, I32])
        # 0: libgomp's count at run time (OMP_NUM_THREADS, else the affinity mask's CPUs)
        count: ir.Value = ir.Constant(I32, max(self.module.plan.threads, 0))
        if backoff > 0:
            # one thread while the team's threads were found sharing a CPU
            state = threads.state_global(self.module.module)
            wanted = self.b.call(threads.wanted_function(self.module.module), [state])
            on_threads = self.b.icmp_signed("!=", wanted, ir.Constant(I32, 0))
            count = self.b.select(on_threads, count, ir.Constant(I32, 1))
        self.b.call(gomp, [outlined, ctx, count, ir.Constant(I32, 0)])
        if backoff > 0:
            with self.b.if_then(on_threads):
                check = threads.check_function(self.module.module)
                self.b.call(check, [state, captured[-1][2], ir.Constant(I32, backoff)])
        self.module.uses_threads = True

    def thread_chunk(self, s: p.Loop) -> None:
        """This thread's contiguous share of the iterations of `s` (static schedule)."""
        b = self.b
        lo, hi = self.ints[f"{s.var}.lo"], self.ints[f"{s.var}.hi"]
        tid = b.sext(b.call(self.ops.function("omp_get_thread_num", I32, []), []), I64)
        nth = b.sext(b.call(self.ops.function("omp_get_num_threads", I32, []), []), I64)
        step = ir.Constant(I64, s.step)
        span = b.sub(hi, lo)
        count = b.sdiv(b.add(span, ir.Constant(I64, s.step - 1)), step)
        count = b.select(b.icmp_signed("<", count, ir.Constant(I64, 0)), ir.Constant(I64, 0), count)
        chunk = b.sdiv(b.add(count, b.sub(nth, ir.Constant(I64, 1))), nth)
        first = b.mul(tid, chunk)
        last = b.add(first, chunk)
        last = b.select(b.icmp_signed("<", last, count), last, count)
        iteration = p.Loop(
            f"{s.var}.it",
            p.IVar(f"{s.var}.first"),
            p.IVar(f"{s.var}.last"),
            (
                p.LetInt(
                    s.var,
                    p.IBin(
                        "+",
                        p.IVar(f"{s.var}.lo"),
                        p.IBin("*", p.IVar(f"{s.var}.it"), p.IConst(s.step)),
                    ),
                ),
                *s.body,
            ),
            vector=s.vector,
            reductions=s.reductions,
        )
        self.ints[f"{s.var}.first"] = first
        self.ints[f"{s.var}.last"] = last
        self.loop(iteration)


@dataclass
class ModuleEmitter:
    """Emits a whole plan as one module."""

    plan: p.Plan
    vector_math: bool = False
    polynomial_exp: bool = False
    # The vector width LLVM's vectorisers should prefer (the target's `vector_bytes` in bits):
    # without it LLVM picks 256 bits on AVX-512 cores whose 512-bit registers the config names.
    vector_bits: int | None = None
    module: ir.Module = field(default_factory=lambda: ir.Module(name="plaidc"))
    functions: dict[str, ir.Function] = field(default_factory=dict)
    kept: list[ir.Function] = field(default_factory=list)
    uses_threads: bool = False
    kept_scratch: list[tuple[ir.GlobalVariable, int]] = field(default_factory=list)
    _outlined: int = 0

    def vector_loop_id(self) -> ir.MDValue:
        """A fresh loop ID asking LLVM to vectorise the loop.

        Without it, LLVM fully unrolls short constant-trip inner loops (e.g. the 16 lanes of a
        tile's innermost dimension) before the loop vectoriser runs, and then vectorises the
        next loop out with gathers and scatters."""
        md = self.module
        enable = md.add_metadata(
            [ir.MetaDataString(md, "llvm.loop.vectorize.enable"), ir.Constant(I1, 1)]
        )
        no_unroll = md.add_metadata([ir.MetaDataString(md, "llvm.loop.unroll.disable")])
        return _LoopID(md, [enable, no_unroll])

    def new_function(self, hint: str, params: list[ir.Type]) -> ir.Function:
        self._outlined += 1
        fn = ir.Function(
            self.module, ir.FunctionType(ir.VoidType(), params), name=f"{hint}.{self._outlined}"
        )
        fn.linkage = "internal"
        self._prefer_width(fn)
        return fn

    def emit(self) -> ir.Module:
        for f in self.plan.functions:
            types = [PTR if isinstance(q, p.BufferParam) else I64 for q in f.params]
            fn = ir.Function(self.module, ir.FunctionType(ir.VoidType(), types), name=f.name)
            fn.linkage = "internal"
            self._prefer_width(fn)
            for arg, param in zip(fn.args, f.params, strict=True):
                arg.name = param.name
                if isinstance(param, p.BufferParam):
                    arg.add_attribute("noalias")
            self.functions[f.name] = fn
        for f in self.plan.functions:
            fn = self.functions[f.name]
            emitter = FunctionEmitter(self, fn)
            for arg, param in zip(fn.args, f.params, strict=True):
                if isinstance(param, p.BufferParam):
                    emitter.buffers[param.name] = (arg, param.dtype)
                else:
                    emitter.ints[param.name] = arg
            if f.comment:
                emitter.b.comment(f.comment.replace("\n", " "))
            emitter.stmts(f.body)
            emitter.finish()
        self._export()
        if self.kept_scratch:
            scratch.free_function(self.module, self.kept_scratch)
        kept = self.kept
        if kept:
            array = ir.ArrayType(PTR, len(kept))
            used = ir.GlobalVariable(self.module, array, "llvm.compiler.used")
            used.linkage = "appending"
            used.section = "llvm.metadata"
            for fn in kept:
                fn.type = PTR  # referenced as opaque pointers (llvmlite types them otherwise)
            used.initializer = ir.Constant(array, kept)
        return self.module

    def _prefer_width(self, fn: ir.Function) -> None:
        if self.vector_bits is not None:
            set.add(fn.attributes, f'"prefer-vector-width"="{self.vector_bits}"')

    def _export(self) -> None:
        entry_plan = next(f for f in self.plan.functions if f.name == self.plan.entry)
        fn = ir.Function(self.module, ir.FunctionType(ir.VoidType(), [PTR]), name="plaidc_entry")
        self._prefer_width(fn)  # the functions it calls are inlined into it
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        args = []
        for k in range(len(entry_plan.params)):
            slot = b.gep(fn.args[0], [ir.Constant(I64, k)], inbounds=True, source_etype=PTR)
            args.append(b.load(slot, typ=PTR))
        b.call(self.functions[self.plan.entry], args)
        b.ret_void()


def emit_llvm(
    plan: p.Plan,
    vector_math: bool = False,
    polynomial_exp: bool = False,
    vector_bits: int | None = None,
) -> tuple[ir.Module, bool]:
    """The LLVM module of `plan` and whether it calls libgomp (`vector_math`,
    `polynomial_exp`: see `Ops`; `vector_bits`: the vector width to prefer)."""
    emitter = ModuleEmitter(plan, vector_math, polynomial_exp, vector_bits)
    module = emitter.emit()
    return module, emitter.uses_threads
