"""Small C functions generated code relies on, emitted only when used.

They give C the interpreter's (numpy's) meaning where C differs or leaves things undefined:
NaN-propagating max/min, integer division by zero and `MIN / -1`, shifts by out-of-range
counts, integer powers, bfloat16 rounding; and vector loads/stores for micro-kernels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from plaidc.backends.c import ast as c
from plaidc.backends.c import exp_avx512
from plaidc.backends.loopnest import exp_poly
from plaidc.backends.loopnest.plan import ScalarType
from plaidc.stripe.ir import DType

C_TYPES = {
    DType.BOOL: "bool",
    DType.I8: "int8_t",
    DType.I16: "int16_t",
    DType.I32: "int32_t",
    DType.I64: "int64_t",
    DType.U8: "uint8_t",
    DType.U16: "uint16_t",
    DType.U32: "uint32_t",
    DType.U64: "uint64_t",
    DType.FP16: "_Float16",
    DType.FP32: "float",
    DType.FP64: "double",
    DType.BF16: "float",  # bfloat16 values live in float32 (see plaidc.interp.dtypes)
}
_SUFFIX = {
    DType.BOOL: "bool",
    DType.I8: "i8",
    DType.I16: "i16",
    DType.I32: "i32",
    DType.I64: "i64",
    DType.U8: "u8",
    DType.U16: "u16",
    DType.U32: "u32",
    DType.U64: "u64",
    DType.FP16: "f16",
    DType.FP32: "f32",
    DType.FP64: "f64",
}
_BY_SUFFIX = {v: k for k, v in _SUFFIX.items()}
_UNSIGNED = {
    DType.I8: "uint8_t",
    DType.I16: "uint16_t",
    DType.I32: "uint32_t",
    DType.I64: "uint64_t",
}


def c_type(dtype: DType) -> str:
    return C_TYPES[dtype]


def suffix(dtype: DType) -> str:
    return _SUFFIX[dtype]


def _id(name: str) -> c.Ident:
    return c.Ident(name)


def _lit(text: str) -> c.Literal:
    return c.Literal(text)


def _fn(ret: str, name: str, params: list[tuple[str, str]], body: list[c.Stmt]) -> c.FunctionDef:
    return c.FunctionDef(
        ret, name, tuple(c.Param(t, n) for t, n in params), tuple(body), static=True, inline=True
    )


def _ret(expr: c.Expr) -> c.Return:
    return c.Return(expr)


A, B = _id("a"), _id("b")


def _minmax(dtype: DType, op: str) -> c.FunctionDef:
    t = c_type(dtype)
    cmp = ">" if op == "max" else "<"
    pick: c.Expr = c.Binary(cmp, A, B)
    if dtype.is_float:
        # NaN wins, as numpy's maximum/minimum: compare, or `a` is NaN.
        pick = c.Binary("||", pick, c.Binary("!=", A, A))
    return _fn(
        t, f"plaidc_{op}_{suffix(dtype)}", [(t, "a"), (t, "b")], [_ret(c.Ternary(pick, A, B))]
    )


def _vector_minmax(vname: str, op: str) -> c.Verbatim:
    """numpy's maximum/minimum of two float vectors, lane by lane (a GNU C vector comparison
    is a mask of the lanes' integer type): `a` where it is greater (less) or NaN, else `b`."""
    cmp = ">" if op == "max" else "<"
    return c.Verbatim(
        f"static inline {vname} {vname}_{op}({vname} a, {vname} b) {{\n"
        f"  __typeof__(a {cmp} b) pick = (a {cmp} b) | (a != a);\n"
        f"  return ({vname})(((__typeof__(pick))a & pick) | ((__typeof__(pick))b & ~pick));\n"
        "}"
    )


def _div(dtype: DType) -> c.FunctionDef:
    t = c_type(dtype)
    name = f"plaidc_div_{suffix(dtype)}"
    quotient = c.Cast(t, c.Binary("/", A, B))
    if dtype.is_unsigned_int or dtype is DType.BOOL:
        body = c.Ternary(c.Binary("==", B, _lit("0")), _lit("0"), quotient)
    else:
        # x86 traps on MIN / -1 and on / 0; numpy answers -MIN (wrapped) and 0.
        neg = c.Cast(t, c.Unary("-", A))
        body = c.Ternary(
            c.Binary("==", B, _lit("0")),
            _lit("0"),
            c.Ternary(c.Binary("==", B, _lit("-1")), neg, quotient),
        )
    return _fn(t, name, [(t, "a"), (t, "b")], [_ret(body)])


def _bits(dtype: DType) -> int:
    return dtype.byte_size * 8


def _shift(dtype: DType, op: str) -> c.FunctionDef:
    t = c_type(dtype)
    name = f"plaidc_{op}_{suffix(dtype)}"
    in_range = c.Binary("<", c.Cast("uint64_t", B), _lit(str(_bits(dtype))))
    if op == "shl":
        unsigned = _UNSIGNED.get(dtype, t)
        shifted = c.Cast(t, c.Binary("<<", c.Cast(unsigned, A), B))
        body: c.Expr = c.Ternary(in_range, shifted, _lit("0"))
    else:
        overflow: c.Expr = _lit("0")
        if dtype.is_signed_int:
            overflow = c.Ternary(c.Binary("<", A, _lit("0")), _lit("-1"), _lit("0"))
        body = c.Ternary(in_range, c.Cast(t, c.Binary(">>", A, B)), overflow)
    return _fn(t, name, [(t, "a"), (t, "b")], [_ret(body)])


def _pow(dtype: DType) -> c.FunctionDef:
    """Exact integer power by squaring, wrapping like numpy; a negative exponent goes through
    float64 (as the interpreter does)."""
    t = c_type(dtype)
    unsigned = _UNSIGNED.get(dtype, t)
    body: list[c.Stmt] = []
    if dtype.is_signed_int:
        via_double = c.Cast(t, c.CallExpr("pow", (c.Cast("double", A), c.Cast("double", B))))
        body.append(c.If(c.Binary("<", B, _lit("0")), (_ret(via_double),)))
    result, base, exp = _id("result"), _id("base"), _id("exp")
    body += [
        c.Decl(unsigned, "result", _lit("1")),
        c.Decl(unsigned, "base", c.Cast(unsigned, A)),
        c.Decl("uint64_t", "exp", c.Cast("uint64_t", B)),
        c.For(
            "step",
            _lit("0"),
            _lit("64"),
            (
                c.If(
                    c.Binary("&", exp, _lit("1")),
                    (c.Assign(result, c.Cast(unsigned, c.Binary("*", result, base))),),
                ),
                c.Assign(base, c.Cast(unsigned, c.Binary("*", base, base))),
                c.Assign(exp, _lit("1"), ">>="),
            ),
            type="int",
        ),
        _ret(c.Cast(t, result)),
    ]
    return _fn(t, f"plaidc_pow_{suffix(dtype)}", [(t, "a"), (t, "b")], body)


def _round_bf16() -> c.FunctionDef:
    """Round a float to the nearest bfloat16 (ties to even, NaN stays NaN), as a float."""
    x, bits = _id("x"), _id("bits")
    keep = c.Binary("&", c.Binary(">>", bits, _lit("16")), _lit("1u"))
    rounded = c.Binary(
        "&", c.Binary("+", c.Binary("+", bits, _lit("0x7FFFu")), keep), _lit("0xFFFF0000u")
    )
    body: list[c.Stmt] = [
        c.If(c.Binary("!=", x, x), (_ret(x),)),
        c.Decl("uint32_t", "bits"),
        c.ExprStmt(c.CallExpr("memcpy", (c.Unary("&", bits), c.Unary("&", x), _lit("4")))),
        c.Assign(bits, rounded),
        c.ExprStmt(c.CallExpr("memcpy", (c.Unary("&", x), c.Unary("&", bits), _lit("4")))),
        _ret(x),
    ]
    return _fn("float", "plaidc_round_bf16", [("float", "x")], body)


def _flit(value: float) -> c.Literal:
    """A float32 constant, exactly (hexadecimal)."""
    return _lit(f"{float(value).hex()}f")


def _fma(a: c.Expr, b: c.Expr, acc: c.Expr) -> c.Expr:
    return c.CallExpr("fmaf", (a, b, acc))


def _exp_f32() -> c.FunctionDef:
    """plaidc's float32 exp (`plaidc.backends.loopnest.exp_poly`): branch-free, so that gcc
    inlines it into `omp simd` loops and vectorises it."""
    x, xc, kf, ki, r, p, y = (_id(n) for n in ("x", "xc", "kf", "ki", "r", "p", "y"))
    k1, b1, b2, s1, s2 = (_id(n) for n in ("k1", "b1", "b2", "s1", "s2"))
    lo, hi = _flit(exp_poly.CLAMP_LO), _flit(exp_poly.CLAMP_HI)
    shift = _flit(exp_poly.SHIFT)

    def bits(dst: c.Ident, src: c.Ident) -> c.Stmt:
        return c.ExprStmt(c.CallExpr("memcpy", (c.Unary("&", dst), c.Unary("&", src), _lit("4"))))

    def scale(k: c.Expr) -> c.Expr:
        biased = c.Binary("+", k, _lit(str(exp_poly.EXPONENT_BIAS)))
        return c.Binary("<<", biased, _lit(str(exp_poly.MANTISSA_BITS)))

    *low, top = exp_poly.POLY
    body: list[c.Stmt] = [
        c.Decl("float", "xc", c.Ternary(c.Binary("<", x, lo), lo, x)),
        c.Assign(xc, c.Ternary(c.Binary(">", xc, hi), hi, xc)),
        c.Decl("float", "kf", _fma(xc, _flit(exp_poly.LOG2E), shift)),
        c.Decl("int32_t", "ki"),
        bits(ki, kf),
        c.Assign(ki, _lit(f"0x{exp_poly.SHIFT_BITS:X}"), "-="),
        c.Assign(kf, shift, "-="),
        c.Decl("float", "r", _fma(kf, _flit(-exp_poly.LN2_HI), xc)),
        c.Assign(r, _fma(kf, _flit(-exp_poly.LN2_LO), r)),
        c.Decl("float", "p", _flit(top)),
        *(c.Assign(p, _fma(p, r, _flit(coef))) for coef in reversed(low)),
        c.Decl("float", "y", c.Binary("+", _fma(c.Binary("*", p, r), r, r), _flit(1.0))),
        c.Decl("int32_t", "k1", c.Binary(">>", ki, _lit("1"))),
        c.Decl("int32_t", "b1", scale(k1)),
        c.Decl("int32_t", "b2", scale(c.Binary("-", ki, k1))),
        c.Decl("float", "s1"),
        c.Decl("float", "s2"),
        bits(s1, b1),
        bits(s2, b2),
        c.Assign(y, c.Binary("*", c.Binary("*", y, s1), s2)),
        _ret(c.Ternary(c.Binary("!=", x, x), x, y)),
    ]
    return _fn("float", "plaidc_exp_f32", [("float", "x")], body)


def _floord() -> c.FunctionDef:
    """Floor division by a positive divisor."""
    neg = c.Unary(
        "-", c.Binary("/", c.Binary("-", c.Binary("+", c.Unary("-", A), B), _lit("1")), B)
    )
    body = c.Ternary(c.Binary(">=", A, _lit("0")), c.Binary("/", A, B), neg)
    return _fn("int64_t", "plaidc_floord", [("int64_t", "a"), ("int64_t", "b")], [_ret(body)])


@dataclass
class Helpers:
    """The helpers one translation unit needs, in first-use order."""

    needed: dict[str, None] = field(default_factory=dict)
    vectors: dict[ScalarType, None] = field(default_factory=dict)

    def need(self, name: str) -> str:
        self.needed.setdefault(name)
        return name

    def vector_type(self, t: ScalarType) -> str:
        self.vectors.setdefault(t)
        return f"plaidc_{suffix(t.dtype)}x{t.lanes}"

    def vector_load(self, t: ScalarType) -> str:
        return self.need(f"{self.vector_type(t)}_load")

    def vector_store(self, t: ScalarType) -> str:
        return self.need(f"{self.vector_type(t)}_store")

    def splat(self, t: ScalarType) -> str:
        return self.need(f"{self.vector_type(t)}_splat")

    def vector_exp(self, t: ScalarType) -> str:
        """plaidc's fp32 exp of a vector (after the scalar one, which it may call)."""
        self.need(exp_avx512.NAME)
        return self.need(f"{self.vector_type(t)}_exp")

    def definitions(self) -> list[c.TopLevel]:
        out: list[c.TopLevel] = []
        for t in self.vectors:
            nbytes = t.lanes * t.dtype.byte_size
            out.append(
                c.Typedef(
                    c_type(t.dtype), self.vector_type(t), f"__attribute__((vector_size({nbytes})))"
                )
            )
        exps = {f"{self.vector_type(t)}_exp": t for t in self.vectors}
        for name in self.needed:
            if name == exp_avx512.NAME:
                # The AVX-512 code where the compiler targets AVX-512, else the portable one.
                out.append(c.Verbatim("#if defined(__AVX512F__)\n" + exp_avx512.definitions()))
                out.append(c.Verbatim("#else"))
                out.append(self._define(name))
                out.append(c.Verbatim("#endif"))
            elif name in exps:
                t = exps[name]
                out.append(c.Verbatim(exp_avx512.vector_exp(self.vector_type(t), t.lanes)))
            else:
                out.append(self._define(name))
        return out

    def _define(self, name: str) -> c.TopLevel:
        if name == "plaidc_floord":
            return _floord()
        if name == "plaidc_round_bf16":
            return _round_bf16()
        if name == "plaidc_exp_f32":
            return _exp_f32()
        if name.startswith("plaidc_") and name.count("_") == 2:
            _, op, sfx = name.split("_")
            if sfx in _BY_SUFFIX:
                dtype = _BY_SUFFIX[sfx]
                if op in ("max", "min"):
                    return _minmax(dtype, op)
                if op == "div":
                    return _div(dtype)
                if op in ("shl", "shr"):
                    return _shift(dtype, op)
                if op == "pow":
                    return _pow(dtype)
        for t in self.vectors:
            vname = self.vector_type(t)
            if name.startswith(vname + "_"):
                return self._vector_helper(t, vname, name[len(vname) + 1 :])
        raise KeyError(f"unknown helper {name}")

    def _vector_helper(self, t: ScalarType, vname: str, what: str) -> c.TopLevel:
        elem = c_type(t.dtype)
        nbytes = _lit(str(t.lanes * t.dtype.byte_size))
        v, ptr = _id("v"), _id("p")
        if what == "load":
            body: list[c.Stmt] = [
                c.Decl(vname, "v"),
                c.ExprStmt(c.CallExpr("memcpy", (c.Unary("&", v), ptr, nbytes))),
                _ret(v),
            ]
            return _fn(vname, f"{vname}_load", [(f"const {elem} *", "p")], body)
        if what == "store":
            body = [c.ExprStmt(c.CallExpr("memcpy", (ptr, c.Unary("&", v), nbytes)))]
            return _fn("void", f"{vname}_store", [(f"{elem} *", "p"), (vname, "v")], body)
        if what == "splat":
            # Every lane spelled out: `(vector){} + x` would add 0.0 (not an identity for -0.0).
            lanes = c.InitList(tuple(_id("x") for _ in range(t.lanes)), vname)
            return _fn(vname, f"{vname}_splat", [(elem, "x")], [_ret(lanes)])
        if what in ("max", "min") and t.dtype.is_float:
            return _vector_minmax(vname, what)
        raise KeyError(f"unknown vector helper {what}")
