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
  meaning; it needs no `cl_khr_fp16`). Temporaries are private arrays, `__local` arrays at
  kernel scope for the buffers a work-group shares, or slices of a global buffer (one per
  work-item, at its linear global id) when too large for private memory.
* Math: OpenCL's overloaded built-ins (`exp`, `pow`, `fabs`, ...), not libm's `expf`.
* Literals: `long` constants carry an `L` suffix (no `INT64_C` macro in OpenCL C).
* Signed 32/64-bit `+ - *`, negation and `abs` compute on the bits as unsigned (`as_int(as_uint
  (a) + as_uint(b))`): OpenCL C has no `-fwrapv`, and compilers fold on signed overflow.
* `#pragma OPENCL FP_CONTRACT OFF`: OpenCL C may fuse `a * b + c` into one rounding by
  default, and NVIDIA's compiler does; the GEMM micro-kernel's device function turns it back on
  (`PLAIDC_CONTRACT_ON`, as the C backend's does with `-ffp-contract`). Both are seen only when
  the build defines `PLAIDC_FP_CONTRACT`, as the runtime does where a probe with them builds.
* `Call(BARRIER)` is a work-group barrier; kernels start by binding their NDRange ids.
* Loops with floating-point reductions (which the plan allows in any order) start with
  `PLAIDC_REASSOCIATE`, a macro that is clang's `fp reassociate` pragma when the build defines
  `PLAIDC_FP_REASSOCIATE` (the runtime does so where the device's compiler accepts the pragma,
  as pocl's does, so it vectorises them) and nothing otherwise: NVIDIA's OpenCL compiler
  rejects the pragma as an error.
* Vectors (the GEMM micro-kernels of `gemm_tags` blocks) are OpenCL's `floatN`/`doubleN`, read
  and written element by element (see `_vector_helper`); a cast of a scalar to a vector type
  replicates it.
* Plan functions called from kernels (micro-kernels) are device functions whose pointer
  parameters carry the address spaces of the buffers they are called with.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from plaidc.backends.c import ast as c
from plaidc.backends.c.emit import CEmitter
from plaidc.backends.c.helpers import Helpers, c_type, suffix
from plaidc.backends.loopnest import plan as p
from plaidc.backends.loopnest.scalars import aggregate
from plaidc.backends.opencl.kernels import BARRIER, Kernel, KernelProgram, Scratch
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
_ODD_FLOAT = "plaidc_odd_float"
_WORK_ITEM = "plaidc_work_item"
_ID_FUNCTIONS = {"global": "get_global_id", "group": "get_group_id", "local": "get_local_id"}


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


_VECTOR_LANES = (2, 3, 4, 8, 16)
_GLOBAL, _LOCAL, _PRIVATE = "__global", "__local", ""
_SHUFFLE_MASK = {DType.FP32: "uint", DType.FP64: "ulong", DType.I32: "uint", DType.I64: "ulong"}


@dataclass
class OpenCLEmitter(CEmitter):
    """Emits the kernels of one kernel program, and the plan functions they call (as device
    functions, one per combination of address spaces of their buffer arguments), as one
    OpenCL C source."""

    kernels: dict[str, Kernel] = field(default_factory=dict)
    # The function being emitted: its buffers' address spaces and those stored as `half`.
    spaces: dict[str, str] = field(default_factory=dict)
    half_buffers: set[str] = field(default_factory=set)
    local_buffers: set[str] = field(default_factory=set)
    # Device functions by (plan function, address spaces of its buffer parameters).
    devices: dict[tuple[str, tuple[str, ...]], str] = field(default_factory=dict)
    # The kernel's temporaries in global memory (slices of a parameter, one per work-item).
    scratch: dict[str, Scratch] = field(default_factory=dict)
    # Vector load/store helpers by (load or store, vector type, address space).
    vector_access: dict[tuple[str, p.ScalarType, str], str] = field(default_factory=dict)

    def prefetch(self, s: p.Prefetch) -> list[c.Stmt]:
        """Nothing: a cache hint, and OpenCL C has no `__builtin_prefetch` (NVIDIA's compiler
        rejects it on a `__generic` pointer: every kernel with the GEMM's C prefetch failed to
        build on an H100); OpenCL's own `prefetch` takes `__global` pointers only and is a
        no-op on GPUs."""
        return []

    # ---- types and literals -----------------------------------------------------------------

    def type_name(self, t: p.ScalarType) -> str:
        if t.is_vector:
            if t.lanes not in _VECTOR_LANES or not t.dtype.is_float or t.dtype is DType.FP16:
                raise CompileError([Diagnostic(f"OpenCL has no vector type for {t}")])
            return f"{c_type(t.dtype)}{t.lanes}"
        return "float" if t.dtype is DType.FP16 else c_type(t.dtype)

    def literal(self, const: p.SConst) -> c.Expr:
        t = const.type
        if t.is_vector:
            # A cast of a scalar to a vector type replicates it.
            return c.Cast(self.type_name(t), self.literal(p.SConst(const.value, p.scalar(t.dtype))))
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
        if isinstance(e, p.SLoad) and e.type.is_vector:
            ptr = self._pointer(e.buffer, e.offset)
            return c.CallExpr(self._vector_helper("load", e.type, e.buffer), (ptr,))
        if isinstance(e, p.SLoad) and e.buffer in self.half_buffers:
            return c.CallExpr("vload_half", (self.int_expr(e.offset), c.Ident(e.buffer)))
        if isinstance(e, p.SCast) and e.type.is_vector:
            return c.Cast(self.type_name(e.type), self.scalar(e.arg))
        if isinstance(e, p.SShuffle):
            # OpenCL C's own shuffle2 (not clang's __builtin_shufflevector, which vendors'
            # compilers need not accept): the mask is an unsigned vector of the lanes' width.
            mask_type = f"{_SHUFFLE_MASK[e.type.dtype]}{len(e.mask)}"
            mask = c.Cast(mask_type, c.Literal("(" + ", ".join(str(i) for i in e.mask) + ")"))
            return c.CallExpr("shuffle2", (self.scalar(e.a), self.scalar(e.b), mask))
        if isinstance(e, p.SCast) and e.type.dtype is DType.FP16:
            arg = self.scalar(e.arg)
            if e.arg.type.dtype is DType.FP64:  # one rounding, not double -> float -> half
                return self._round_f16(c.CallExpr(self.helpers.need(_ODD_FLOAT), (arg,)))
            return self._round_f16(c.Cast("float", arg))
        return super().scalar(e)

    def _narrow(self, t: p.ScalarType, expr: c.Expr) -> c.Expr:
        if t.dtype is DType.FP16 and not t.is_vector:
            return self._round_f16(expr)
        return super()._narrow(t, expr)

    def _unary(self, e: p.SUnary) -> c.Expr:
        t = e.type
        wrapped = _WRAPPING.get(t.dtype) if not t.is_vector else None
        if wrapped is not None and e.op in ("neg", "abs"):
            # -INT_MIN overflows: negate the bits as unsigned (numpy's abs(INT_MIN) is INT_MIN)
            arg = self.scalar(e.arg)
            negated = _from_bits(wrapped, c.Unary("-", _bits(wrapped, arg)))
            if e.op == "neg":
                return negated
            return c.Ternary(c.Binary("<", arg, c.Literal("0")), negated, arg)
        if e.op in ("neg", "bit_not") or (e.op == "abs" and not t.dtype.is_float):
            return super()._unary(e)
        arg = self.scalar(e.arg)
        if e.op == "round_bf16":
            return c.CallExpr(self.helpers.need(_ROUND_BF16), (arg,))
        call = c.CallExpr("fabs" if e.op == "abs" else e.op, (arg,))
        return self._round_f16(call) if t.dtype is DType.FP16 else call

    def _binary(self, e: p.SBinary) -> c.Expr:
        t = e.type
        wrapped = _WRAPPING.get(t.dtype) if not t.is_vector else None
        if wrapped is not None and e.op in ("add", "sub", "mul"):
            # Signed overflow is undefined in OpenCL C (there is no -fwrapv), and compilers
            # fold on it (`a + b > a` became true): compute on the bits as unsigned, which
            # wraps as numpy and the other targets do.
            op = {"add": "+", "sub": "-", "mul": "*"}[e.op]
            a, b = (_bits(wrapped, self.scalar(x)) for x in (e.a, e.b))
            return _from_bits(wrapped, c.Binary(op, a, b))
        if e.op == "pow" and t.dtype.is_float:
            call = c.CallExpr("pow", (self.scalar(e.a), self.scalar(e.b)))
            return self._round_f16(call) if t.dtype is DType.FP16 else call
        if e.op in ("max", "min") and t.dtype is DType.FP16:
            # fp16 values are floats here, and the larger of two halves is exactly a half.
            a, b = self.scalar(e.a), self.scalar(e.b)
            return c.CallExpr(self.helpers.need(f"plaidc_{e.op}_f32"), (a, b))
        return super()._binary(e)

    # ---- statements -------------------------------------------------------------------------

    def _assign(self, target: c.Expr, value: p.SExpr) -> c.Stmt:
        if not value.type.is_vector and value.type.dtype in _WRAPPING:
            return c.Assign(target, self.scalar(value))  # no `+=`: it would not wrap
        return super()._assign(target, value)

    def _store(self, s: p.Store) -> c.Stmt:
        t = s.value.type
        if not t.is_vector and s.buffer not in self.half_buffers:
            return super()._store(s)
        value = s.value
        if s.agg is not None:
            current = p.SLoad(s.buffer, s.offset, t)
            value = aggregate(s.agg, current, value, t)
        args: tuple[c.Expr, ...]
        if t.is_vector:
            args = (self._pointer(s.buffer, s.offset), self.scalar(value))
            return c.ExprStmt(c.CallExpr(self._vector_helper("store", t, s.buffer), args))
        args = (self.scalar(value), self.int_expr(s.offset), c.Ident(s.buffer))
        return c.ExprStmt(c.CallExpr("vstore_half_rte", args))

    def _vector_helper(self, kind: str, t: p.ScalarType, buffer: str) -> str:
        """A helper moving a vector from/to `buffer`'s address space element by element:
        compilers combine the element accesses into one vector access, whereas pocl calls
        its `vloadN`/`vstoreN` out of line, which spills every vector register around it."""
        space = self.spaces.get(buffer, _PRIVATE)
        where = space.lstrip("_") or "private"
        name = f"plaidc_{kind}_{suffix(t.dtype)}x{t.lanes}_{where}"
        self.vector_access.setdefault((kind, t, space), name)
        return name

    def _vector_access(self, kind: str, t: p.ScalarType, space: str, name: str) -> c.FunctionDef:
        vtype, elem = self.type_name(t), c_type(t.dtype)
        qualifier = f"{space} " if space else ""
        ptr = c.Ident("p")
        lanes = [c.Subscript(ptr, c.Literal(str(k))) for k in range(t.lanes)]
        if kind == "load":
            # `(floatN)(a, b, ...)`: OpenCL's vector literal, printed as a call of its type.
            body: list[c.Stmt] = [c.Return(c.CallExpr(f"({vtype})", tuple(lanes)))]
            load = (c.Param(f"{qualifier}const {elem} *", "p"),)
            return c.FunctionDef(vtype, name, load, tuple(body), inline=True)
        body = [c.Assign(lane, c.Ident(f"v.s{k:x}")) for k, lane in enumerate(lanes)]
        params = (c.Param(f"{qualifier}{elem} *", "p"), c.Param(vtype, "v"))
        return c.FunctionDef("void", name, params, tuple(body), inline=True)

    def _loop(self, s: p.Loop) -> list[c.Stmt]:
        pre: list[c.Stmt] = []
        limit = self.int_expr(s.hi)
        if not isinstance(s.hi, (p.IConst, p.IVar)):
            bound = f"{s.var}_end"
            pre.append(c.Decl("int64_t", bound, limit, const=True))
            limit = c.Ident(bound)
        body = self.stmts(s.body)
        loop = c.For(s.var, self.int_expr(s.lo), limit, body, s.step, "int64_t")
        if s.vector and any(r.type.dtype.is_float for r in s.reductions):
            # The plan allows these accumulations in any order (`Reduction`); compilers that
            # accept clang's pragma (pocl's) then vectorise them (module docstring).
            return [*pre, c.Compound((c.Macro(REASSOCIATE_MACRO), loop))]
        return [*pre, loop]

    def _alloc(self, s: p.Alloc) -> list[c.Stmt]:
        if s.buffer in self.local_buffers:
            return list(self.stmts(s.body))  # declared at kernel scope (`kernel`)
        if s.buffer in self.scratch:
            self.spaces[s.buffer] = _GLOBAL
            if s.dtype is DType.FP16:
                self.half_buffers.add(s.buffer)
            slices = self.scratch[s.buffer]
            elem = storage_type(s.dtype, global_memory=True)
            start = c.Binary("*", c.Ident(_WORK_ITEM), _long_literal(slices.size))
            slice_ = c.Binary("+", c.Ident(slices.param), start)
            decl = c.Decl(f"__global {elem} *restrict", s.buffer, slice_, const=False)
            return [c.Compound((decl, *self.stmts(s.body)))]
        self.spaces[s.buffer] = _PRIVATE
        decl = c.Decl(
            storage_type(s.dtype, global_memory=False),
            s.buffer,
            array=max(s.size, 1),
            attributes=f"__attribute__((aligned({s.align})))",
        )
        return [c.Compound((decl, *self.stmts(s.body)))]

    def stmt(self, s: p.Stmt) -> list[c.Stmt]:
        if not isinstance(s, p.Call):
            return super().stmt(s)
        if s.function == BARRIER:
            fence = c.Literal("CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE")
            return [c.ExprStmt(c.CallExpr("barrier", (fence,)))]
        args: list[c.Expr] = []
        spaces: list[str] = []
        for arg in s.args:
            if isinstance(arg, p.BufferArg):
                args.append(self._pointer(arg.buffer, arg.offset))
                spaces.append(self.spaces.get(arg.buffer, _PRIVATE))
            else:
                args.append(self.int_expr(arg))
        name = self.devices.setdefault((s.function, tuple(spaces)), self._device_name(s.function))
        return [c.ExprStmt(c.CallExpr(name, tuple(args)))]

    def _device_name(self, function: str) -> str:
        taken = {n for n in self.devices.values()}
        name, n = function, 0
        while name in taken:
            n += 1
            name = f"{function}_as{n}"
        return name

    # ---- functions --------------------------------------------------------------------------

    def _params(self, f: p.Function, spaces: tuple[str, ...] | None) -> list[c.Param]:
        """Buffer parameters (global for kernels, else the given spaces) and, for device
        functions, integer ones (a micro-kernel's run-time extents and operand bounds), noting
        the function's address spaces and half buffers."""
        self.spaces, self.half_buffers = {}, set()
        out = []
        buffers = [q for q in f.params if isinstance(q, p.BufferParam)]
        if spaces is None and len(buffers) != len(f.params):  # kernels take buffers only
            raise CompileError([Diagnostic(f"'{f.name}' has integer parameters")])
        k = 0
        for param in f.params:
            if not isinstance(param, p.BufferParam):  # a device function's run-time extent
                out.append(c.Param("int64_t", param.name))
                continue
            space = _GLOBAL if spaces is None else spaces[k]
            k += 1
            self.spaces[param.name] = space
            if param.dtype is DType.FP16 and space == _GLOBAL:
                self.half_buffers.add(param.name)
            const = "" if param.writes else "const "
            elem = storage_type(param.dtype, global_memory=space == _GLOBAL)
            qualifier = f"{space} " if space else ""
            out.append(c.Param(f"{qualifier}{const}{elem} *restrict", param.name))
        return out

    def kernel(self, f: p.Function) -> c.FunctionDef:
        kernel = self.kernels[f.name]
        params = self._params(f, None)
        head: list[c.Stmt] = []
        for var in kernel.ids:
            call = c.CallExpr(_ID_FUNCTIONS[var.kind], (c.Literal(str(var.dim)),))
            head.append(c.Decl("int64_t", var.name, call, const=True))
        self.scratch = {s.buffer: s for s in kernel.scratch}
        for slices in kernel.scratch:
            elem = storage_type(slices.dtype, global_memory=True)
            params.append(c.Param(f"__global {elem} *restrict", slices.param))
        if kernel.scratch:
            head.append(c.Decl("int64_t", _WORK_ITEM, _linear_id(len(kernel.global_size)), True))
        self.local_buffers = set(kernel.local_buffers)
        for alloc in p.walk_stmts(f.body):
            if isinstance(alloc, p.Alloc) and alloc.buffer in self.local_buffers:
                elem = storage_type(alloc.dtype, global_memory=False)
                head.append(c.Decl(f"__local {elem}", alloc.buffer, array=max(alloc.size, 1)))
                self.spaces[alloc.buffer] = _LOCAL
        body = (*head, *self.stmts(f.body))
        return c.FunctionDef(
            "__kernel void", f.name, tuple(params), body, static=False, comment=f.comment
        )

    def device(self, f: p.Function, spaces: tuple[str, ...], name: str) -> c.FunctionDef:
        params = self._params(f, spaces)
        self.local_buffers = set()
        body = self.stmts(f.body)
        if f.contract:  # the micro-kernel's a * b + c may fuse (the program's may not)
            body = (c.Macro(CONTRACT_ON_MACRO), *body)
        return c.FunctionDef("void", name, tuple(params), body, comment=f.comment)

    def source(self) -> str:
        functions = {f.name: f for f in self.plan.functions}
        kernels = [self.kernel(f) for f in self.plan.functions if f.name in self.kernels]
        devices: list[c.TopLevel] = []
        done: set[tuple[str, tuple[str, ...]]] = set()
        while len(done) < len(self.devices):  # device functions may call others
            key = next(k for k in self.devices if k not in done)
            done.add(key)
            devices.insert(0, self.device(functions[key[0]], key[1], self.devices[key]))
        helpers = Helpers()
        own: list[c.TopLevel] = []
        for name in self.helpers.needed:
            if name == _ROUND_F16:
                own.append(_round_f16())
            elif name == _ROUND_BF16:
                own.append(_round_bf16())
            elif name == _ODD_FLOAT:
                own.append(_odd_float())
            else:
                helpers.need(name)
        items: list[c.TopLevel] = [
            c.Comment("generated by plaidc (OpenCL backend)"),
            *(c.Typedef(cl, name) for cl, name in _TYPEDEFS),
            *helpers.definitions(),
            *own,
            *(self._vector_access(*key, name) for key, name in self.vector_access.items()),
            *devices,
            *kernels,
        ]
        text = c.print_c(c.TranslationUnit(tuple(items)))
        first, rest = text.split("\n", 1)
        text = f"{first}\n{_CONTRACT_DEFINITION}{rest}"
        if REASSOCIATE_MACRO in text:
            first, rest = text.split("\n", 1)
            text = f"{first}\n{_REASSOCIATE_DEFINITION}{rest}"
        if "double" in text:
            # fp64 is an extension in OpenCL C 1.2: enable it where the code uses it.
            first, rest = text.split("\n", 1)
            text = f"{first}\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n{rest}"
        return text


# Signed integer types whose arithmetic must wrap, with the unsigned type of the same width.
_WRAPPING = {DType.I32: ("int", "uint"), DType.I64: ("long", "ulong")}


def _bits(types: tuple[str, str], value: c.Expr) -> c.Expr:
    """A signed value's bits as the unsigned type of its width (`as_uint((int)(x))`)."""
    signed, unsigned = types
    return c.CallExpr(f"as_{unsigned}", (c.Cast(signed, value),))


def _from_bits(types: tuple[str, str], bits: c.Expr) -> c.Expr:
    """Unsigned bits back as the signed type (`as_int(...)`): arithmetic on them wraps."""
    return c.CallExpr(f"as_{types[0]}", (bits,))


# OpenCL C lets a compiler fuse `a * b + c` into one rounding by default (FP_CONTRACT is ON);
# numpy, the interpreter and the other backends round twice (`X * Y - Z` with Z = X * Y is 0).
# The pragmas are seen only when the build defines PLAIDC_FP_CONTRACT (the runtime does where a
# probe with them builds): a compiler that rejected them would reject every program.
CONTRACT_ON_MACRO = "PLAIDC_CONTRACT_ON"
CONTRACT_OPTION = "-D PLAIDC_FP_CONTRACT"
_CONTRACT_DEFINITION = f"""#ifdef PLAIDC_FP_CONTRACT
#pragma OPENCL FP_CONTRACT OFF
#define {CONTRACT_ON_MACRO} _Pragma("OPENCL FP_CONTRACT ON")
#else
#define {CONTRACT_ON_MACRO}
#endif
"""

REASSOCIATE_MACRO = "PLAIDC_REASSOCIATE"
REASSOCIATE_OPTION = "-D PLAIDC_FP_REASSOCIATE"
_REASSOCIATE_DEFINITION = f"""#ifdef PLAIDC_FP_REASSOCIATE
#define {REASSOCIATE_MACRO} _Pragma("clang fp reassociate(on)")
#else
#define {REASSOCIATE_MACRO}
#endif
"""


def _linear_id(dims: int) -> c.Expr:
    """The work-item's row-major position in the NDRange (dimension 0 fastest)."""

    def call(fn: str, dim: int) -> c.Expr:
        return c.CallExpr(fn, (c.Literal(str(dim)),))

    out = call("get_global_id", dims - 1)
    for dim in range(dims - 2, -1, -1):
        out = c.Binary(
            "+", c.Binary("*", out, call("get_global_size", dim)), call("get_global_id", dim)
        )
    return out


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
        c.Return(
            c.CallExpr("vload_half", (c.Literal("0"), c.Cast("const half *", c.Unary("&", bits))))
        ),
    ]
    return _fn("float", _ROUND_F16, "x", body)


def _odd_float() -> c.FunctionDef:
    """double -> float rounded to odd (toward zero, then the last bit set when inexact): a
    later rounding to half is then the correct rounding of the double (24 bits > 11 + 2)."""
    x, f = c.Ident("x"), c.Ident("f")
    inexact = c.Binary("&&", c.Binary("!=", c.Cast("double", f), x), c.Binary("==", f, f))
    odd = c.CallExpr("as_float", (c.Binary("|", c.CallExpr("as_uint", (f,)), c.Literal("1u")),))
    body: list[c.Stmt] = [
        c.Decl("float", "f", c.CallExpr("convert_float_rtz", (x,))),
        c.If(inexact, (c.Assign(f, odd),)),
        c.Return(f),
    ]
    return c.FunctionDef("float", _ODD_FLOAT, (c.Param("double", "x"),), tuple(body), inline=True)


def _round_bf16() -> c.FunctionDef:
    """Round a float to the nearest bfloat16 (ties to even, NaN stays NaN), as a float."""
    x, bits = c.Ident("x"), c.Ident("bits")
    keep = c.Binary("&", c.Binary(">>", bits, c.Literal("16")), c.Literal("1u"))
    rounded = c.Binary(
        "&",
        c.Binary("+", c.Binary("+", bits, c.Literal("0x7FFFu")), keep),
        c.Literal("0xFFFF0000u"),
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
