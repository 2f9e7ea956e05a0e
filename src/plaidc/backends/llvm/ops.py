"""Plan types and scalar operations as LLVM IR (through llvmlite's IR builder).

Bools are `i1` values and `i8` in memory; fp16 math goes through float32 and is rounded back,
as numpy does. Where LLVM leaves a result undefined and numpy does not (division by zero,
`MIN / -1`, shifts by the element width or more), the divisor or shift count is replaced by a
harmless one and the numpy answer selected, so no undefined operation is ever executed.
"""

from __future__ import annotations

from llvmlite import ir

from plaidc.backends.llvm.exp import exp_f32_function
from plaidc.backends.loopnest.plan import ScalarType
from plaidc.stripe.ir import DType

I1 = ir.IntType(1)
I8 = ir.IntType(8)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
F32 = ir.FloatType()
PTR = ir.PointerType()

_BASE: dict[DType, ir.Type] = {
    DType.BOOL: I1,
    DType.I8: I8,
    DType.I16: ir.IntType(16),
    DType.I32: I32,
    DType.I64: I64,
    DType.U8: I8,
    DType.U16: ir.IntType(16),
    DType.U32: I32,
    DType.U64: I64,
    DType.FP16: ir.HalfType(),
    DType.FP32: F32,
    DType.FP64: ir.DoubleType(),
    DType.BF16: F32,
}
_MATH = {
    "exp": "llvm.exp",
    "log": "llvm.log",
    "sqrt": "llvm.sqrt",
    "sin": "llvm.sin",
    "cos": "llvm.cos",
    "tan": "llvm.tan",
    "asin": "llvm.asin",
    "acos": "llvm.acos",
    "atan": "llvm.atan",
    "sinh": "llvm.sinh",
    "cosh": "llvm.cosh",
    "tanh": "llvm.tanh",
    "ceil": "llvm.ceil",
    "floor": "llvm.floor",
    "round": "llvm.round",
    "abs": "llvm.fabs",
}


def value_type(t: ScalarType) -> ir.Type:
    """The LLVM type of a plan value of type `t`."""
    base = _BASE[t.dtype]
    return ir.VectorType(base, t.lanes) if t.is_vector else base


def memory_type(dtype: DType) -> ir.Type:
    """The LLVM type of an element in memory (bools are bytes)."""
    return I8 if dtype is DType.BOOL else _BASE[dtype]


def _suffix(ty: ir.Type) -> str:
    if isinstance(ty, ir.VectorType):
        return f"v{ty.count}{_suffix(ty.element)}"
    if isinstance(ty, ir.HalfType):
        return "f16"
    if isinstance(ty, ir.FloatType):
        return "f32"
    if isinstance(ty, ir.DoubleType):
        return "f64"
    assert isinstance(ty, ir.IntType)
    return f"i{ty.width}"


# libm functions with vector versions in glibc's libmvec: (lanes, ISA letter) per element type.
VECTOR_MATH = frozenset(
    ["exp", "log", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh"]
)
_LIBMVEC_VARIANTS = {
    DType.FP32: ((4, "b"), (8, "d"), (16, "e")),
    DType.FP64: ((2, "b"), (4, "d"), (8, "e")),
}


class Ops:
    """Scalar operations on one builder (whose position the emitter moves). With
    `vector_math`, math functions are libm calls that name their libmvec vector versions (the
    `vector-function-abi-variant` attribute), so the loop vectoriser can use them. With
    `polynomial_exp`, fp32 (and fp16) exp is plaidc's inline polynomial (`exp_poly`)."""

    def __init__(
        self,
        module: ir.Module,
        builder: ir.IRBuilder,
        vector_math: bool = False,
        kept: list[ir.Function] | None = None,
        polynomial_exp: bool = False,
    ) -> None:
        self.module = module
        self.b = builder
        self.vector_math = vector_math
        self.polynomial_exp = polynomial_exp
        # Declarations to list in `llvm.compiler.used` (shared by every function's Ops).
        self.kept = kept if kept is not None else []

    # ---- declarations ---------------------------------------------------------------------

    def function(self, name: str, ret: ir.Type, args: list[ir.Type]) -> ir.Function:
        """A function of the module by name, declared on first use."""
        existing = self.module.globals.get(name)
        if isinstance(existing, ir.Function):
            return existing
        return ir.Function(self.module, ir.FunctionType(ret, args), name=name)

    def intrinsic(self, base: str, ty: ir.Type, arity: int = 1) -> ir.Function:
        return self.function(f"{base}.{_suffix(ty)}", ty, [ty] * arity)

    # ---- constants and conversions --------------------------------------------------------

    def const(self, value: int | float | bool, t: ScalarType) -> ir.Constant:
        ty = value_type(ScalarType(t.dtype))
        if t.dtype is DType.BOOL:
            scalar = ir.Constant(ty, int(bool(value)))
        elif t.dtype.is_float:
            scalar = ir.Constant(ty, float(value))
        else:
            bits = t.dtype.byte_size * 8
            scalar = ir.Constant(ty, int(value) & ((1 << bits) - 1))
        if t.is_vector:
            return ir.Constant(value_type(t), [scalar] * t.lanes)
        return scalar

    def splat(self, value: ir.Value, t: ScalarType) -> ir.Value:
        vty = value_type(t)
        undef = ir.Constant(vty, ir.Undefined)
        first = self.b.insert_element(undef, value, ir.Constant(I32, 0))
        mask = ir.Constant(ir.VectorType(I32, t.lanes), [0] * t.lanes)
        return self.b.shuffle_vector(first, undef, mask)

    def convert(self, value: ir.Value, src: DType, dst: DType) -> ir.Value:
        """C conversion of a scalar (or vector) between element types."""
        if dst is DType.BOOL:
            return self.truth(value, src)
        dty = _BASE[dst]
        if isinstance(value.type, ir.VectorType):
            dty = ir.VectorType(dty, value.type.count)
        sw, dw = _width(_BASE[src]), _width(_BASE[dst])
        if src.is_float and dst.is_float:
            if sw == dw:
                return value
            return self.b.fpext(value, dty) if sw < dw else self.b.fptrunc(value, dty)
        if src.is_float:
            return self.b.fptosi(value, dty) if dst.is_signed_int else self.b.fptoui(value, dty)
        if dst.is_float:
            return self.b.sitofp(value, dty) if src.is_signed_int else self.b.uitofp(value, dty)
        if sw == dw:
            return value
        if sw > dw:
            return self.b.trunc(value, dty)
        return self.b.sext(value, dty) if src.is_signed_int else self.b.zext(value, dty)

    def truth(self, value: ir.Value, src: DType) -> ir.Value:
        """`value != 0` as an i1."""
        zero = ir.Constant(value.type, None)
        if src.is_float:
            return self.b.fcmp_unordered("!=", value, zero)
        return self.b.icmp_unsigned("!=", value, zero)

    # ---- arithmetic -----------------------------------------------------------------------

    def unary(self, op: str, x: ir.Value, t: ScalarType) -> ir.Value:
        d = t.dtype
        if op == "neg":
            return self.b.fneg(x) if d.is_float else self.b.neg(x)
        if op == "bit_not":
            return self.b.not_(x)
        if op == "round_bf16":
            return self._round_bf16(x)
        if op == "abs" and not d.is_float:
            if d.is_unsigned_int or d is DType.BOOL:
                return x
            negative = self.b.icmp_signed("<", x, ir.Constant(x.type, 0))
            return self.b.select(negative, self.b.neg(x), x)
        if op == "exp" and self.polynomial_exp and not t.is_vector:
            if d is DType.FP32:
                return self.b.call(exp_f32_function(self.module), [x])
            if d is DType.FP16:
                wide = self.b.call(exp_f32_function(self.module), [self.b.fpext(x, F32)])
                return self.b.fptrunc(wide, x.type)
        if d is DType.FP16:
            wide = self.b.fpext(x, F32)
            return self.b.fptrunc(self.b.call(self.intrinsic(_MATH[op], F32), [wide]), x.type)
        if self.vector_math and op in VECTOR_MATH and d in _LIBMVEC_VARIANTS and not t.is_vector:
            return self.b.call(self._vector_math_function(op, d), [x])
        return self.b.call(self.intrinsic(_MATH[op], x.type), [x])

    def _vector_math_function(self, op: str, d: DType) -> ir.Function:
        """libm's `op` (e.g. `expf`), declared with its libmvec vector variants."""
        name = op + ("f" if d is DType.FP32 else "")
        existing = self.module.globals.get(name)
        if isinstance(existing, ir.Function):
            return existing
        ty = _BASE[d]
        fn = ir.Function(self.module, ir.FunctionType(ty, [ty]), name=name)
        variants = []
        used = []
        for lanes, isa in _LIBMVEC_VARIANTS[d]:
            vname = f"_ZGV{isa}N{lanes}v_{name}"
            vty = ir.VectorType(ty, lanes)
            used.append(ir.Function(self.module, ir.FunctionType(vty, [vty]), name=vname))
            variants.append(f"_ZGV_LLVM_N{lanes}v_{name}({vname})")
        # llvmlite only knows enumerated attributes; a string attribute is added as is.
        set.add(fn.attributes, f'"vector-function-abi-variant"="{",".join(variants)}"')
        set.add(fn.attributes, "nounwind")
        set.add(fn.attributes, "memory(none)")
        self.kept.extend(used)
        return fn

    def binary(
        self, op: str, a: ir.Value, b: ir.Value, t: ScalarType, flags: tuple[str, ...] = ()
    ) -> ir.Value:
        d = t.dtype
        if op in ("add", "sub", "mul"):
            if d.is_float:
                fn = {"add": self.b.fadd, "sub": self.b.fsub, "mul": self.b.fmul}[op]
                return fn(a, b, flags=flags)
            fn = {"add": self.b.add, "sub": self.b.sub, "mul": self.b.mul}[op]
            return fn(a, b)
        if op in ("bit_and", "bit_or", "bit_xor"):
            fn = {"bit_and": self.b.and_, "bit_or": self.b.or_, "bit_xor": self.b.xor}[op]
            return fn(a, b)
        if op == "div":
            return self._div(a, b, d)
        if op in ("max", "min"):
            return self._minmax(op, a, b, d, flags)
        if op in ("max_num", "min_num") and d.is_float:  # IEEE maxNum: NaN-ignoring
            return self.b.call(self.intrinsic(f"llvm.{op[:3]}num", a.type, 2), [a, b])
        if op in ("shl", "shr"):
            return self._shift(op, a, b, d)
        if op == "pow":
            if d.is_float:
                if d is DType.FP16:
                    call = self.b.call(
                        self.intrinsic("llvm.pow", F32, 2),
                        [self.b.fpext(a, F32), self.b.fpext(b, F32)],
                    )
                    return self.b.fptrunc(call, a.type)
                return self.b.call(self.intrinsic("llvm.pow", a.type, 2), [a, b])
            return self.b.call(self._int_pow(d), [a, b])
        raise ValueError(f"unknown binary operation {op}")

    def compare(self, op: str, a: ir.Value, b: ir.Value, d: DType) -> ir.Value:
        sym = {"eq": "==", "ne": "!=", "lt": "<", "gt": ">", "le": "<=", "ge": ">="}[op]
        if d.is_float:
            # C semantics: every comparison with NaN is false except `!=`.
            if op == "ne":
                return self.b.fcmp_unordered(sym, a, b)
            return self.b.fcmp_ordered(sym, a, b)
        if d.is_signed_int:
            return self.b.icmp_signed(sym, a, b)
        return self.b.icmp_unsigned(sym, a, b)

    def _div(self, a: ir.Value, b: ir.Value, d: DType) -> ir.Value:
        if d.is_float:
            return self.b.fdiv(a, b)
        zero, one = ir.Constant(a.type, 0), ir.Constant(a.type, 1)
        is_zero = self.b.icmp_unsigned("==", b, zero)
        if not d.is_signed_int:
            safe = self.b.select(is_zero, one, b)
            return self.b.select(is_zero, zero, self.b.udiv(a, safe))
        minus_one = ir.Constant(a.type, -1)
        is_minus_one = self.b.icmp_signed("==", b, minus_one)
        safe = self.b.select(self.b.or_(is_zero, is_minus_one), one, b)
        quotient = self.b.sdiv(a, safe)
        quotient = self.b.select(is_minus_one, self.b.neg(a), quotient)
        return self.b.select(is_zero, zero, quotient)

    def _minmax(
        self, op: str, a: ir.Value, b: ir.Value, d: DType, flags: tuple[str, ...] = ()
    ) -> ir.Value:
        sym = ">" if op == "max" else "<"
        if d.is_float:
            # numpy's maximum/minimum propagate NaN, as LLVM's maximum/minimum do (which the
            # loop vectoriser can reduce). In a reduction (`flags` given) the sign of a zero
            # result is left open (`nsz`): numpy's own reductions return whichever zero comes
            # last in their order (max of [-0, 0] is 0, of [0, -0] is -0), and LLVM then drops
            # the ordering of -0 below +0 from each vector step (softmax's row max: 6 -> 3
            # instructions a vector).
            fastmath = ("nsz",) if flags else ()
            call = self.intrinsic(f"llvm.{op}imum", a.type, 2)
            return self.b.call(call, [a, b], fastmath=fastmath)
        compare = self.b.icmp_signed if d.is_signed_int else self.b.icmp_unsigned
        return self.b.select(compare(sym, a, b), a, b)

    def _shift(self, op: str, a: ir.Value, b: ir.Value, d: DType) -> ir.Value:
        width = ir.Constant(a.type, a.type.width if isinstance(a.type, ir.IntType) else 0)
        in_range = self.b.icmp_unsigned("<", b, width)
        safe = self.b.select(in_range, b, ir.Constant(a.type, 0))
        if op == "shl":
            return self.b.select(in_range, self.b.shl(a, safe), ir.Constant(a.type, 0))
        if d.is_signed_int:
            negative = self.b.icmp_signed("<", a, ir.Constant(a.type, 0))
            overflow = self.b.select(negative, ir.Constant(a.type, -1), ir.Constant(a.type, 0))
            return self.b.select(in_range, self.b.ashr(a, safe), overflow)
        return self.b.select(in_range, self.b.lshr(a, safe), ir.Constant(a.type, 0))

    def _round_bf16(self, x: ir.Value) -> ir.Value:
        bits = self.b.bitcast(x, I32)
        keep = self.b.and_(self.b.lshr(bits, ir.Constant(I32, 16)), ir.Constant(I32, 1))
        rounded = self.b.add(self.b.add(bits, ir.Constant(I32, 0x7FFF)), keep)
        masked = self.b.and_(rounded, ir.Constant(I32, 0xFFFF0000))
        is_nan = self.b.fcmp_unordered("uno", x, x)
        return self.b.select(is_nan, x, self.b.bitcast(masked, F32))

    def _int_pow(self, d: DType) -> ir.Function:
        """`plaidc_pow_<type>`: exact wrapping power by squaring (negative exponents of signed
        types through float64 pow, as the interpreter does)."""
        ty = _BASE[d]
        name = f"plaidc_pow_{_suffix(ty)}{'s' if d.is_signed_int else 'u'}"
        existing = self.module.globals.get(name)
        if isinstance(existing, ir.Function):
            return existing
        fn = ir.Function(self.module, ir.FunctionType(ty, [ty, ty]), name=name)
        fn.linkage = "internal"
        a, e = fn.args
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        loop = fn.append_basic_block("loop")
        done = fn.append_basic_block("done")
        if d.is_signed_int:
            negative = fn.append_basic_block("negative")
            b.cbranch(b.icmp_signed("<", e, ir.Constant(ty, 0)), negative, loop)
            nb = ir.IRBuilder(negative)
            dbl = ir.DoubleType()
            pw = nb.call(self.intrinsic("llvm.pow", dbl, 2), [nb.sitofp(a, dbl), nb.sitofp(e, dbl)])
            nb.ret(nb.fptosi(pw, ty))
        else:
            b.branch(loop)
        lb = ir.IRBuilder(loop)
        result = lb.phi(ty)
        base = lb.phi(ty)
        exp = lb.phi(ty)
        entry_block = fn.blocks[0]
        result.add_incoming(ir.Constant(ty, 1), entry_block)
        base.add_incoming(a, entry_block)
        exp.add_incoming(e, entry_block)
        odd = lb.trunc(exp, I1)
        new_result = lb.select(odd, lb.mul(result, base), result)
        new_base = lb.mul(base, base)
        new_exp = lb.lshr(exp, ir.Constant(ty, 1))
        result.add_incoming(new_result, loop)
        base.add_incoming(new_base, loop)
        exp.add_incoming(new_exp, loop)
        lb.cbranch(lb.icmp_unsigned("==", new_exp, ir.Constant(ty, 0)), done, loop)
        db = ir.IRBuilder(done)
        final = db.phi(ty)
        final.add_incoming(new_result, loop)
        db.ret(final)
        return fn


def _width(ty: ir.Type) -> int:
    if isinstance(ty, ir.IntType):
        return ty.width
    if isinstance(ty, ir.HalfType):
        return 16
    if isinstance(ty, ir.FloatType):
        return 32
    if isinstance(ty, ir.DoubleType):
        return 64
    raise TypeError(f"no width for {ty}")
