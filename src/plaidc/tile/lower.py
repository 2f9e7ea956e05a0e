"""Lower a checked Tile program to Stripe, following PlaidML 0.7's conventions (STRIPE.md
"Tile -> Stripe lowering"), except that buffers keep the user's Tile names.

```
#program block (stripe_program): #user / #tmp allocations
  #main block (main): in / out / #tmp inout refinements
    one #kernel block per Tile statement, in program order; a #zero or #copy kernel before a
    contraction whose output is not provably covered; Specials (reshape, gather, scatter,
    shape) as statements of main
```

Kernel bodies: a contraction loads its inputs and combines them with `mul`/`add`, with
`cmp_eq` for `A == B` (a bool result), with `cmp_eq` then `cond(eq, C, 0)` for the ternary
`A == B ? C`, or with `assign` for a single input (tagged `#agg_op_<agg>_no_comb_op`, as
PlaidML does); then stores through the output's aggregation. An elementwise statement is one
kernel however deep its expression: loads, constants and intrinsics in evaluation order, the
final value named after the output. `#zero`/`#copy` kernels hold a `zero`/`copy` Special.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from plaidc.stripe.ir import (
    Affine,
    Block,
    Constant,
    Constraint,
    DType,
    Index,
    Intrinsic,
    Load,
    LoadIndex,
    RefDir,
    Refinement,
    Special,
    Statement,
    Store,
    Tags,
    TensorShape,
)
from plaidc.tile.typed import (
    CheckedProgram,
    ContractionOp,
    EltwiseOp,
    Op,
    SConst,
    SExpr,
    SIndex,
    SLoad,
    SOp,
    SpecialOp,
    TensorInfo,
)


def _zeros(rank: int) -> tuple[Affine, ...]:
    return tuple(Affine() for _ in range(rank))


def _scalar_shape(info: TensorInfo) -> TensorShape:
    """The interior shape of a one-element view: size 1 per dim, the buffer's strides."""
    full = info.shape
    return TensorShape(full.dtype, tuple(1 for _ in full.sizes), full.strides)


class _Lowering:
    """Builds the #main block's statements for one program."""

    def __init__(self, program: CheckedProgram) -> None:
        self.program = program
        self.names = {t.name for t in program.tensors}
        self.stmts: list[Statement] = []
        self.macs = 0

    def info(self, name: str) -> TensorInfo:
        return self.program.tensor(name)

    def kernel_name(self, given: str | None, inputs: list[str]) -> str:
        return given or f"kernel_{len(self.stmts)}({','.join(inputs)})"

    # ---- initialisation kernels ------------------------------------------------------------

    def init_kernel(self, op: ContractionOp) -> None:
        """Zero the output (or copy the `default` tensor into it) before a contraction that
        does not provably write every element."""
        out = self.info(op.target)
        rank = len(out.sizes)
        dst = Refinement(RefDir.OUT, out.name, out.name, _zeros(rank), out.shape)
        if op.default is None:
            body: Statement = Special(name="zero", inputs=(), outputs=(out.name,))
            refs: tuple[Refinement, ...] = (dst,)
            tags = Tags.of("kernel", "zero")
            name, comment = f"zero({out.name})", f"Zero {out.name}"
        else:
            src_info = self.info(op.default)
            src = Refinement(RefDir.IN, src_info.name, src_info.name, _zeros(rank), src_info.shape)
            body = Special(name="copy", inputs=(src_info.name,), outputs=(out.name,))
            refs = (dst, src)
            tags = Tags.of("kernel", "copy")
            name = f"copy({out.name},{src_info.name})"
            comment = f"Pre-initialize {out.name} from {src_info.name}"
        self.stmts.append(
            Block(name=name, comments=(comment,), refs=refs, stmts=(body,), tags=tags, span=op.span)
        )

    # ---- contractions ----------------------------------------------------------------------

    def contraction(self, op: ContractionOp) -> None:
        compiled = op.compiled
        if compiled.needs_init:
            self.init_kernel(op)
        if compiled.empty:
            return
        out = self.info(op.target)
        refs = [
            Refinement(
                RefDir.OUT,
                out.name,
                out.name,
                compiled.output_access,
                _scalar_shape(out),
                agg_op=op.agg,
            )
        ]
        stmts: list[Statement] = []
        scalars = []
        used = {out.name}
        for k, (name, access) in enumerate(zip(op.inputs, compiled.input_access, strict=True)):
            # A tensor used twice (A[i, k] * A[k, j]) gets a second, distinct view name.
            into, n = name, k
            while into in used or (into != name and into in self.names):
                into, n = f"{name}_{n}", n + 1
            used.add(into)
            refs.append(
                Refinement(
                    RefDir.IN,
                    name,
                    into,
                    access,
                    _scalar_shape(self.info(name)),
                    tags=Tags.of("contraction"),
                )
            )
            stmts.append(Load(from_=into, into=f"${into}"))
            scalars.append(f"${into}")
        result = f"${out.name}"
        tags = Tags.of("contraction", "kernel", f"agg_op_{op.agg}")
        if op.comb is None:
            stmts.append(Intrinsic(name="assign", inputs=tuple(scalars), outputs=(result,)))
            tags = tags.add(f"agg_op_{op.agg}_no_comb_op")
        elif op.comb == "cond":
            # A == B ? C : C where the first two are equal, else 0.
            stmts.append(Intrinsic(name="cmp_eq", inputs=tuple(scalars[:2]), outputs=("$_eq",)))
            stmts.append(Constant(name="$_zero", value=0, type="int"))
            stmts.append(
                Intrinsic(name="cond", inputs=("$_eq", scalars[2], "$_zero"), outputs=(result,))
            )
            tags = tags.add("comb_op_cond")
        else:
            if op.comb == "mul" and op.agg == "add":
                scalars = self.exact_fp16_products(op, scalars, stmts)
            stmts.append(Intrinsic(name=op.comb, inputs=tuple(scalars), outputs=(result,)))
            tags = tags.add(f"comb_op_{op.comb}")
        stmts.append(Store(from_=result, into=out.name))
        if op.comb == "mul":
            self.macs += compiled.count
        self.stmts.append(
            Block(
                name=self.kernel_name(op.kernel_name, list(op.inputs)),
                comments=(op.text,),
                idxs=tuple(Index(n, r) for n, r in compiled.idxs),
                constraints=tuple(Constraint(c) for c in compiled.constraints),
                refs=tuple(refs),
                stmts=tuple(stmts),
                tags=tags,
                span=op.span,
            )
        )

    def exact_fp16_products(
        self, op: ContractionOp, scalars: list[str], stmts: list[Statement]
    ) -> list[str]:
        """A sum of products of fp16 operands multiplies them as fp32 (exact: 11 + 11
        significant bits), as numpy's fp16 matmul and einsum do and as the NPU's Cube does;
        the sum then accumulates in fp32 and rounds once (Definition 2, the interpreter)."""
        if {self.info(name).dtype for name in op.inputs} != {DType.FP16}:
            return scalars
        stmts.append(Constant(name="$_fp32", value=32, type="int"))
        wide = []
        for scalar in scalars:
            stmts.append(
                Intrinsic(name="as_float", inputs=(scalar, "$_fp32"), outputs=(f"{scalar}_fp32",))
            )
            wide.append(f"{scalar}_fp32")
        return wide

    # ---- elementwise -----------------------------------------------------------------------

    def eltwise(self, op: EltwiseOp) -> None:
        out = self.info(op.target)
        rank = len(out.sizes)
        names = [f"i{d + 1}" for d in range(rank)]
        # Size-1 output dims get no index (PlaidML drops range-1 indices) and access 0.
        idxs = tuple(Index(names[d], s) for d, s in enumerate(out.sizes) if s != 1)

        def axis(d: int, size: int) -> Affine:
            return Affine.var(names[d]) if size != 1 else Affine()

        builder = _ScalarBuilder(self, out, axis)
        value = builder.emit(op.expr, result=f"${out.name}")
        fns = sorted(builder.fns) or ["ident"]
        out_ref = Refinement(
            RefDir.OUT,
            out.name,
            out.name,
            tuple(axis(d, s) for d, s in enumerate(out.sizes)),
            _scalar_shape(out),
        )
        builder.stmts.append(Store(from_=value, into=out.name))
        in_refs = [
            Refinement(
                RefDir.IN,
                name,
                name,
                access,
                _scalar_shape(self.info(name)),
                tags=Tags.of(f"eltwise_{fns[0]}"),
            )
            for name, access in builder.loads.items()
        ]
        self.stmts.append(
            Block(
                name=self.kernel_name(op.kernel_name, list(builder.named)),
                comments=(op.text,),
                idxs=idxs,
                refs=(out_ref, *in_refs),
                stmts=tuple(builder.stmts),
                tags=Tags.of("eltwise", "kernel", *(f"eltwise_{f}" for f in fns)),
                span=op.span,
            )
        )

    def special(self, op: SpecialOp) -> None:
        self.stmts.append(
            Special(
                name=op.name,
                inputs=op.inputs,
                outputs=(op.target,),
                params=op.params,
                span=op.span,
            )
        )


class _ScalarBuilder:
    """Emits the scalar statements of an elementwise kernel body in evaluation order."""

    def __init__(
        self, lowering: _Lowering, out: TensorInfo, axis: Callable[[int, int], Affine]
    ) -> None:
        self.lowering = lowering
        self.out = out
        self.axis = axis
        self.stmts: list[Statement] = []
        self.loads: dict[str, tuple[Affine, ...]] = {}
        self.fns: set[str] = set()
        #: Tensors the kernel reads or indexes, in order of first use (for the kernel's name).
        self.named: dict[str, None] = {}
        self.count = 0

    def fresh(self, prefix: str) -> str:
        """A new scalar name `$<prefix><n>` that no tensor's load (`$<tensor>`) can take."""
        while True:
            self.count += 1
            name = f"{prefix}{self.count - 1}"
            if name not in self.lowering.names:
                return f"${name}"

    def access(self, info: TensorInfo) -> tuple[Affine, ...]:
        # numpy broadcasting: right-aligned, size-1 dims read element 0.
        offset = len(self.out.sizes) - len(info.sizes)
        return tuple(self.axis(offset + d, s) for d, s in enumerate(info.sizes))

    def emit(self, expr: SExpr, result: str | None = None) -> str:
        """Emit `expr`'s statements; an operation's value is named `result` if given."""
        if isinstance(expr, SLoad):
            scalar = f"${expr.tensor}"
            if expr.tensor not in self.loads:
                self.named.setdefault(expr.tensor, None)
                self.loads[expr.tensor] = self.access(self.lowering.info(expr.tensor))
                self.stmts.append(Load(from_=expr.tensor, into=scalar))
            return scalar
        if isinstance(expr, SConst):
            name = self.fresh("c")
            self.stmts.append(Constant(name=name, value=expr.value, type=expr.kind))
            return name
        if isinstance(expr, SIndex):
            self.fns.add("index")
            self.named.setdefault(expr.tensor, None)
            name = self.fresh("x")
            d = len(self.out.sizes) - expr.from_end
            self.stmts.append(LoadIndex(affine=self.axis(d, self.out.sizes[d]), into=name))
            return name
        assert isinstance(expr, SOp)
        args = tuple(self.emit(a) for a in expr.args)
        self.fns.add(expr.fn)
        name = result or self.fresh("t")
        self.stmts.append(Intrinsic(name=expr.fn, inputs=args, outputs=(name,)))
        return name


def stripe_names(program: CheckedProgram) -> dict[str, str]:
    """The Stripe names of tensors whose Tile names Stripe cannot spell (a trailing prime:
    `X'` -> `X_p`, numbered past names already taken), by Tile name."""
    taken = {t.name for t in program.tensors}
    rename: dict[str, str] = {}
    for t in program.tensors:
        if "'" in t.name:
            base = new = t.name.replace("'", "_p")
            k = 0
            while new in taken:
                k += 1
                new = f"{base}{k}"
            taken.add(new)
            rename[t.name] = new
    return rename


def _stripe_names(program: CheckedProgram) -> CheckedProgram:
    """Rename tensors whose Tile names Stripe cannot spell (`stripe_names`)."""
    rename = stripe_names(program)
    if not rename:
        return program

    def name(n: str) -> str:
        return rename.get(n, n)

    def expr(e: SExpr) -> SExpr:
        if isinstance(e, SLoad):
            return SLoad(name(e.tensor))
        if isinstance(e, SIndex):
            return SIndex(e.from_end, name(e.tensor))
        if isinstance(e, SOp):
            return SOp(e.fn, tuple(expr(a) for a in e.args))
        return e

    ops: list[Op] = []
    for op in program.ops:
        if isinstance(op, ContractionOp):
            default = name(op.default) if op.default else None
            inputs = tuple(name(n) for n in op.inputs)
            ops.append(replace(op, target=name(op.target), inputs=inputs, default=default))
        elif isinstance(op, EltwiseOp):
            ops.append(replace(op, target=name(op.target), expr=expr(op.expr)))
        else:
            inputs = tuple(name(n) for n in op.inputs)
            ops.append(replace(op, target=name(op.target), inputs=inputs))
    return CheckedProgram(
        tensors=tuple(replace(t, name=name(t.name)) for t in program.tensors),
        inputs=tuple(name(n) for n in program.inputs),
        outputs=tuple(name(n) for n in program.outputs),
        ops=tuple(ops),
    )


# Narrow float types whose sums and products accumulate in fp32 (`_wide_accumulators`).
_NARROW_FLOATS = {DType.FP16: 16, DType.BF16: None}


def _wide_accumulators(program: CheckedProgram) -> CheckedProgram:
    """An fp16 (bf16) contraction aggregating with `+` or `*` writes an fp32 temporary, and
    an elementwise statement converts it to the tensor's type: the sum accumulates in fp32
    and rounds once, as numpy's fp16 sums, matmuls and einsums do (with `exact_fp16_products`
    their products too). Stripe stores convert to the buffer's type, so without this every
    term would be rounded to fp16 before the sum. A `default` tensor initialises the
    temporary through an elementwise conversion (rounded to fp16 once, then held exactly in
    fp32) instead of a `copy`."""
    taken = {t.name for t in program.tensors}
    tensors = list(program.tensors)
    ops: list[Op] = []
    for op in program.ops:
        info = program.tensor(op.target)
        if not (
            isinstance(op, ContractionOp)
            and info.dtype in _NARROW_FLOATS
            and op.agg in ("add", "mul")
        ):
            ops.append(op)
            continue
        wide, k = f"{info.name}_acc", 0
        while wide in taken:
            k += 1
            wide = f"{info.name}_acc{k}"
        taken.add(wide)
        bits = _NARROW_FLOATS[info.dtype]
        default_type = program.tensor(op.default).dtype if op.default is not None else None
        if bits is None and default_type not in (None, info.dtype):
            ops.append(op)  # no intrinsic rounds the default to bf16 first: left narrow
            continue
        tensors.append(TensorInfo(wide, DType.FP32, info.sizes, "temp"))
        if op.default is not None:
            if op.compiled.needs_init:  # elements the contraction leaves keep the default's,
                # rounded to the tensor's type first (once), then held exactly in fp32
                init: SExpr = SLoad(op.default)
                if bits is not None:
                    init = SOp("as_float", (init, SConst(bits, "int")))
                default = SOp("as_float", (init, SConst(32, "int")))
                ops.append(
                    EltwiseOp(wide, default, f"{wide} = {op.default} as {info.dtype}", span=op.span)
                )
            op = replace(op, default=None, compiled=replace(op.compiled, needs_init=False))
        ops.append(replace(op, target=wide))
        load = SLoad(wide)
        if bits is None:
            expr: SExpr = SOp("ident", (load,))
            text = f"{info.name} = {wide} (rounded to {info.dtype})"
        else:
            expr = SOp("as_float", (load, SConst(bits, "int")))
            text = f"{info.name} = as_float({wide}, {bits})"
        ops.append(EltwiseOp(info.name, expr, text, span=op.span))
    if len(ops) == len(program.ops):
        return program
    return replace(program, tensors=tuple(tensors), ops=tuple(ops))


def lower_program(program: CheckedProgram) -> Block:
    """The Stripe program for a checked Tile function."""
    program = _wide_accumulators(_stripe_names(program))
    lowering = _Lowering(program)
    for op in program.ops:
        if isinstance(op, ContractionOp):
            lowering.contraction(op)
        elif isinstance(op, EltwiseOp):
            lowering.eltwise(op)
        else:
            lowering.special(op)

    root_refs, main_refs = [], []
    for t in program.tensors:
        rank = len(t.sizes)
        user = t.role in ("input", "output")
        root_refs.append(
            Refinement(
                RefDir.NONE,
                None,
                t.name,
                _zeros(rank),
                t.shape,
                offset=0,
                tags=Tags.of("user" if user else "tmp"),
            )
        )
        direction = {"input": RefDir.IN, "output": RefDir.OUT, "temp": RefDir.INOUT}[t.role]
        main_refs.append(
            Refinement(
                direction,
                t.name,
                t.name,
                _zeros(rank),
                t.shape,
                tags=Tags() if user else Tags.of("tmp"),
            )
        )
    main = Block(
        name="main", refs=tuple(main_refs), stmts=tuple(lowering.stmts), tags=Tags.of("main")
    )
    return Block(
        name="stripe_program",
        refs=tuple(root_refs),
        stmts=(main,),
        tags=Tags.of("program", total_macs=lowering.macs),
    )
