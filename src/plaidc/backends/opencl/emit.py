"""Kernel program -> OpenCL C, through the C backend's syntax tree and emitter.

The OpenCL emitter is the C emitter (`plaidc.backends.c.emit.CEmitter`) with OpenCL's
differences from C applied, so the operations keep exactly the meaning the C backend gives
them (numpy's, through the interpreter):

* Exact-width types: OpenCL's `char short int long` are 8/16/32/64 bits on every device, so the
  C99 names the shared helpers use (`int64_t`, `uint8_t`, ...) are typedefs of them.
* Buffers: kernel parameters are `__global` (`const` when only read) and `restrict` (plan
  buffers never alias); `bool` elements are stored as `uchar` (OpenCL forbids `bool` kernel
  arguments); `fp16` elements live in `half` buffers read with `vload_half` and written with
  `vstore_half_rte`, and are computed in `float` rounded to half after every operation (numpy's
  meaning; it needs no `cl_khr_fp16`). Temporaries are private arrays, or `__local` arrays at
  kernel scope for the buffers a work-group shares.
* Math: OpenCL's overloaded built-ins (`exp`, `pow`, `fabs`, ...), not libm's `expf`.
* Literals: `long` constants carry an `L` suffix (no `INT64_C` macro in OpenCL C).
* `Call(BARRIER)` is a work-group barrier; kernels start by binding their NDRange ids.

Vector types (micro-kernels) are not emitted: the OpenCL backend gets its data parallelism
from the NDRange, which the OpenCL compiler vectorises across work-items.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from plaidc.backends.c import ast as c
from plaidc.backends.c.emit import CEmitter
from plaidc.backends.c.helpers import Helpers, c_type
from plaidc.backends.loopnest import plan as p
from plaidc.backends.loopnest.scalars import aggregate
from plaidc.backends.opencl.kernels import BARRIER, Kernel, KernelProgram
from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.stripe.ir import DType

# C99 exact-width names -> OpenCL C types of the same width.
_TYPEDEFS = (
    ("char", "int8_t"),
    ("short", "int16_t"),
    ("int", "int32_t"),
    ("long", "int64_t"),
    ("uchar", "uint8_t"),
    ("ushort", "uint16_t"),
    ("uint", "uint32_t"),
    ("ulong", "uint64_t"),
)
_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1
_ROUND_F16 = "plaidc_round_f16"
_ROUND_BF16 = "plaidc_round_bf16"
_ID_FUNCTIONS = {"global": "get_global_id", "group": "get_group_id", "local": "get_local_id"}

# Words generated identifiers must avoid in OpenCL C, beyond C's (plaidc.backends.loopnest.
# names.RESERVED): address spaces, OpenCL types and the built-ins the emitted code calls.
_SCALARS = ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double")
OPENCL_RESERVED = frozenset(
    [
        *"""__kernel kernel __global global __local local __constant constant __private private
        __read_only read_only __write_only write_only __read_write read_write half uchar ushort
        uint ulong size_t ptrdiff_t intptr_t uintptr_t sampler_t event_t image1d_t image2d_t
        image3d_t get_global_id get_local_id get_group_id get_global_size get_local_size
        barrier CLK_LOCAL_MEM_FENCE CLK_GLOBAL_MEM_FENCE vload_half vstore_half_rte as_uint
        as_float fabs pow round rint min max fmin fmax mad fma select clamp isnan
        """.split(),
        *(f"{t}{n}" for t in (*_SCALARS, "half") for n in (2, 3, 4, 8, 16)),
    ]
)


def storage_type(dtype: DType, global_memory: bool) -> str:
    """The OpenCL element type of a buffer of `dtype` (plan storage dtypes)."""
    if dtype is DType.BOOL:
        return "uchar"
    if dtype is DType.FP16:
        return "half" if global_memory else "float"
    return c_type(dtype)


def _long_literal(value: int) -> c.Expr:
    if _INT32_MIN <= value <= _INT32_MAX:
        return c.Literal(str(value))
    if value == -(2**63):
        return c.Binary("-", c.Literal(f"-{2**63 - 1}L"), c.Literal("1"))
    return c.Literal(f"{value}L")


@dataclass
class OpenCLEmitter(CEmitter):
    """Emits the kernels of one kernel program as one OpenCL C source."""

    kernels: dict[str, Kernel] = field(default_factory=dict)
    half_buffers: set[str] = field(default_factory=set)
    local_buffers: set[str] = field(default_factory=set)

    # ---- types and literals -----------------------------------------------------------------

    def type_name(self, t: p.ScalarType) -> str:
        if t.is_vector:
            raise CompileError(
                [Diagnostic(f"the OpenCL backend emits no vector types (got {t})")]
            )
        return "float" if t.dtype is DType.FP16 else c_type(t.dtype)

    def literal(self, const: p.SConst) -> c.Expr:
        t = const.type
        if t.dtype is DType.FP16:
            return super().literal(p.SConst(const.value, p.ScalarType(DType.FP32)))
        if t.dtype in (DType.I64, DType.U64, DType.U32) and not isinstance(const.value, bool):
            value = int(const.value)
            if not _INT32_MIN <= value <= _INT32_MAX:
                return c.Literal(f"{value}UL") if t.dtype is not DType.I64 else _long_literal(value)
        return super().literal(const)

    def int_expr(self, e: p.IntExpr) -> c.Expr:
        if isinstance(e, p.IConst):
            return _long_literal(e.value)
        return super().int_expr(e)

    # ---- scalars ----------------------------------------------------------------------------

    def _round_f16(self, expr: c.Expr) -> c.Expr:
        return c.CallExpr(self.helpers.need(_ROUND_F16), (expr,))

    def scalar(self, e: p.SExpr) -> c.Expr:
        if isinstance(e, p.SLoad) and e.buffer in self.half_buffers:
            return c.CallExpr("vload_half", (self.int_expr(e.offset), c.Ident(e.buffer)))
        if isinstance(e, p.SCast) and e.type.dtype is DType.FP16 and not e.type.is_vector:
            return self._round_f16(c.Cast("float", self.scalar(e.arg)))
        return super().scalar(e)

    def _narrow(self, t: p.ScalarType, expr: c.Expr) -> c.Expr:
        if t.dtype is DType.FP16 and not t.is_vector:
            return self._round_f16(expr)
        return super()._narrow(t, expr)

    def _unary(self, e: p.SUnary) -> c.Expr:
        t = e.type
        if e.op in ("neg", "bit_not") or (e.op == "abs" and not t.dtype.is_float):
            return super()._unary(e)
        arg = self.scalar(e.arg)
        if e.op == "round_bf16":
            return c.CallExpr(self.helpers.need(_ROUND_BF16), (arg,))
        call = c.CallExpr("fabs" if e.op == "abs" else e.op, (arg,))
        return self._round_f16(call) if t.dtype is DType.FP16 else call

    def _binary(self, e: p.SBinary) -> c.Expr:
        t = e.type
        if e.op == "pow" and t.dtype.is_float:
            call = c.CallExpr("pow", (self.scalar(e.a), self.scalar(e.b)))
            return self._round_f16(call) if t.dtype is DType.FP16 else call
        if e.op in ("max", "min") and t.dtype is DType.FP16:
            # fp16 values are floats here, and the larger of two halves is exactly a half.
            a, b = self.scalar(e.a), self.scalar(e.b)
            return c.CallExpr(self.helpers.need(f"plaidc_{e.op}_f32"), (a, b))
        return super()._binary(e)

    # ---- statements -------------------------------------------------------------------------

    def _store(self, s: p.Store) -> c.Stmt:
        if s.buffer not in self.half_buffers:
            return super()._store(s)
        value = s.value
        if s.agg is not None:
            current = p.SLoad(s.buffer, s.offset, value.type)
            value = aggregate(s.agg, current, value, value.type)
        args = (self.scalar(value), self.int_expr(s.offset), c.Ident(s.buffer))
        return c.ExprStmt(c.CallExpr("vstore_half_rte", args))

    def _loop(self, s: p.Loop) -> list[c.Stmt]:
        pre: list[c.Stmt] = []
        limit = self.int_expr(s.hi)
        if not isinstance(s.hi, (p.IConst, p.IVar)):
            bound = f"{s.var}_end"
            pre.append(c.Decl("int64_t", bound, limit, const=True))
            limit = c.Ident(bound)
        body = self.stmts(s.body)
        return [*pre, c.For(s.var, self.int_expr(s.lo), limit, body, s.step, "int64_t")]

    def _alloc(self, s: p.Alloc) -> list[c.Stmt]:
        if s.buffer in self.local_buffers:
            return list(self.stmts(s.body))  # declared at kernel scope (`function`)
        decl = c.Decl(
            storage_type(s.dtype, global_memory=False),
            s.buffer,
            array=max(s.size, 1),
            attributes=f"__attribute__((aligned({s.align})))",
        )
        return [c.Compound((decl, *self.stmts(s.body)))]

    def stmt(self, s: p.Stmt) -> list[c.Stmt]:
        if isinstance(s, p.Call):
            if s.function == BARRIER:
                fence = c.Literal("CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE")
                return [c.ExprStmt(c.CallExpr("barrier", (fence,)))]
            raise CompileError(
                [Diagnostic(f"the OpenCL backend cannot call '{s.function}' from a kernel")]
            )
        return super().stmt(s)

    # ---- kernels ----------------------------------------------------------------------------

    def kernel(self, f: p.Function) -> c.FunctionDef:
        kernel = self.kernels[f.name]
        params = []
        self.half_buffers = set()
        for param in f.params:
            if not isinstance(param, p.BufferParam):
                raise CompileError(
                    [Diagnostic(f"kernel '{f.name}' has an integer parameter '{param.name}'")]
                )
            if param.dtype is DType.FP16:
                self.half_buffers.add(param.name)
            const = "" if param.writes else "const "
            elem = storage_type(param.dtype, global_memory=True)
            params.append(c.Param(f"__global {const}{elem} *restrict", param.name))
        head: list[c.Stmt] = []
        for var in kernel.ids:
            call = c.CallExpr(_ID_FUNCTIONS[var.kind], (c.Literal(str(var.dim)),))
            head.append(c.Decl("int64_t", var.name, call, const=True))
        self.local_buffers = set(kernel.local_buffers)
        for alloc in p.walk_stmts(f.body):
            if isinstance(alloc, p.Alloc) and alloc.buffer in self.local_buffers:
                elem = storage_type(alloc.dtype, global_memory=False)
                head.append(c.Decl(f"__local {elem}", alloc.buffer, array=max(alloc.size, 1)))
        body = (*head, *self.stmts(f.body))
        return c.FunctionDef(
            "__kernel void", f.name, tuple(params), body, static=False, comment=f.comment
        )

    def source(self) -> str:
        kernels = [self.kernel(f) for f in self.plan.functions if f.name in self.kernels]
        helpers = Helpers()
        own: list[c.TopLevel] = []
        for name in self.helpers.needed:
            if name == _ROUND_F16:
                own.append(_round_f16())
            elif name == _ROUND_BF16:
                own.append(_round_bf16())
            else:
                helpers.need(name)
        items: list[c.TopLevel] = [
            c.Comment("generated by plaidc (OpenCL backend)"),
            *(c.Typedef(cl, name) for cl, name in _TYPEDEFS),
            *helpers.definitions(),
            *own,
            *kernels,
        ]
        text = c.print_c(c.TranslationUnit(tuple(items)))
        if "double" in text:
            # fp64 is an extension in OpenCL C 1.2: enable it where the code uses it.
            first, rest = text.split("\n", 1)
            text = f"{first}\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n{rest}"
        return text


def _fn(ret: str, name: str, param: str, body: list[c.Stmt]) -> c.FunctionDef:
    return c.FunctionDef(ret, name, (c.Param("float", param),), tuple(body), inline=True)


def _round_f16() -> c.FunctionDef:
    """float -> nearest half (ties to even, overflow to infinity) -> float, as numpy rounds
    every fp16 operation; through a half in private memory, which needs no cl_khr_fp16."""
    bits = c.Ident("bits")
    as_half = c.Cast("half *", c.Unary("&", bits))
    body: list[c.Stmt] = [
        c.Decl("ushort", "bits"),
        c.ExprStmt(c.CallExpr("vstore_half_rte", (c.Ident("x"), c.Literal("0"), as_half))),
        c.Return(c.CallExpr("vload_half", (c.Literal("0"), c.Cast("const half *", c.Unary("&", bits))))),
    ]
    return _fn("float", _ROUND_F16, "x", body)


def _round_bf16() -> c.FunctionDef:
    """Round a float to the nearest bfloat16 (ties to even, NaN stays NaN), as a float."""
    x, bits = c.Ident("x"), c.Ident("bits")
    keep = c.Binary("&", c.Binary(">>", bits, c.Literal("16")), c.Literal("1u"))
    rounded = c.Binary(
        "&", c.Binary("+", c.Binary("+", bits, c.Literal("0x7FFFu")), keep), c.Literal("0xFFFF0000u")
    )
    body: list[c.Stmt] = [
        c.If(c.Binary("!=", x, x), (c.Return(x),)),
        c.Decl("uint", "bits", c.CallExpr("as_uint", (x,)), const=True),
        c.Return(c.CallExpr("as_float", (rounded,))),
    ]
    return _fn("float", _ROUND_BF16, "x", body)


def emit_opencl(program: KernelProgram) -> str:
    """The OpenCL C source of every kernel of `program`."""
    kernels = {k.function: k for k in program.kernels}
    return OpenCLEmitter(program.plan, kernels=kernels).source()
