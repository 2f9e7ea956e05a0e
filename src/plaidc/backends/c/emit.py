"""Plan -> C syntax tree.

One C function per plan function (`static`), plus `plaidc_entry(void *const *args)`, the
exported entry taking one pointer per program buffer and the status word. Loops keep the
OpenMP canonical form (bounds computed before the loop) so that `#pragma omp parallel for` and
`#pragma omp simd` apply; helpers for the operations C lacks (NaN-propagating max, C-defined
integer division and shifts, bfloat16 rounding, vector loads) are emitted on demand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from plaidc.backends.c import ast as c
from plaidc.backends.c import threads
from plaidc.backends.c.helpers import Helpers, c_type, suffix
from plaidc.backends.loopnest import plan as p
from plaidc.interp import numpy_dtype
from plaidc.stripe.ir import DType

# Element types whose arithmetic C performs in a wider type: results are cast back.
_NARROW = (DType.BOOL, DType.I8, DType.I16, DType.U8, DType.U16, DType.FP16)
_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


# libm functions glibc's libmvec has vector versions of (used when `vector_math` is on).
VECTOR_MATH = frozenset(
    ["exp", "log", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh"]
)


@dataclass
class CEmitter:
    """Emits one plan as one translation unit. With `vector_math`, the libm functions the code
    calls are declared `omp declare simd`, so vectorised loops call glibc's libmvec. With
    `polynomial_exp`, fp32 (and fp16) exp is plaidc's inline polynomial (`exp_poly`)."""

    plan: p.Plan
    vector_math: bool = False
    polynomial_exp: bool = False
    helpers: Helpers = field(default_factory=Helpers)
    math_calls: dict[tuple[str, str], None] = field(default_factory=dict)
    clock: bool = False  # a `Clock` reads omp_get_wtime (declared then)
    kept_scratch: list[str] = field(default_factory=list)  # slot arrays (`Plan.scratch_slots`)
    parallel_loops: int = 0  # loops emitted by `threads.parallel_loop` (their states' numbers)

    # ---- literals and types -----------------------------------------------------------------

    def type_name(self, t: p.ScalarType) -> str:
        if t.is_vector:
            return self.helpers.vector_type(t)
        return c_type(t.dtype)

    def literal(self, const: p.SConst) -> c.Expr:
        t = const.type
        if t.is_vector:
            scalar = c.Literal(_scalar_literal(const.value, t.dtype))
            return c.CallExpr(self.helpers.splat(t), (scalar,))
        return c.Literal(_scalar_literal(const.value, t.dtype))

    # ---- integer expressions ----------------------------------------------------------------

    def int_expr(self, e: p.IntExpr) -> c.Expr:
        if isinstance(e, p.IVar):
            return c.Ident(e.name)
        if isinstance(e, p.IScalar):
            return c.Ident(e.name)
        if isinstance(e, p.IConst):
            return _int_literal(e.value)
        if isinstance(e, p.IBin):
            if e.op in ("+", "-"):
                return self._sum(e)
            a, b = self.int_expr(e.a), self.int_expr(e.b)
            if e.op == "*":
                return c.Binary("*", a, b)
            if e.op == "pdiv":
                return c.Binary("/", a, b)
            if e.op == "rem":
                return c.Binary("%", a, b)
            if e.op == "fdiv":
                return c.CallExpr(self.helpers.need("plaidc_floord"), (a, b))
            if e.op in ("min", "max"):
                return c.CallExpr(self.helpers.need(f"plaidc_{e.op}_i64"), (a, b))
        if isinstance(e, p.ICmp):
            return c.Binary(e.op, self.int_expr(e.a), self.int_expr(e.b))
        if isinstance(e, p.ILogic):
            op = "&&" if e.op == "and" else "||"
            return c.Binary(op, self.int_expr(e.a), self.int_expr(e.b))
        if isinstance(e, p.ISelect):
            return c.Ternary(self.int_expr(e.cond), self.int_expr(e.a), self.int_expr(e.b))
        if isinstance(e, p.IAlignGap):
            # (-address mod align) / element size, on the unsigned address
            address = c.Cast("uintptr_t", self._pointer(e.buffer, e.offset))
            gap = c.Binary("&", c.Unary("-", address), c.Literal(str(e.align - 1)))
            size = c.CallExpr("sizeof", (c.Unary("*", c.Ident(e.buffer)),))
            return c.Cast("int64_t", c.Binary("/", gap, size))
        raise TypeError(f"not an integer expression: {e!r}")

    def _sum(self, e: p.IBin) -> c.Expr:
        """`a + b` / `a - b`, writing `a + x * -3` as `a - x * 3` and `a + -3` as `a - 3`."""
        left = self.int_expr(e.a)
        op, right = e.op, e.b
        if isinstance(right, p.IConst) and right.value < 0:
            op, right = ("-" if op == "+" else "+"), p.IConst(-right.value)
        elif (
            isinstance(right, p.IBin)
            and right.op == "*"
            and isinstance(right.b, p.IConst)
            and right.b.value < 0
        ):
            op = "-" if op == "+" else "+"
            right = p.IBin("*", right.a, p.IConst(-right.b.value))
        if isinstance(e.a, p.IConst) and e.a.value == 0 and op == "-":
            return c.Unary("-", self.int_expr(right))
        return c.Binary(op, left, self.int_expr(right))

    # ---- scalar expressions -----------------------------------------------------------------

    def scalar(self, e: p.SExpr) -> c.Expr:
        if isinstance(e, p.SVar):
            return c.Ident(e.name)
        if isinstance(e, p.SConst):
            return self.literal(e)
        if isinstance(e, p.SLoad):
            if e.type.is_vector:
                ptr = self._pointer(e.buffer, e.offset)
                return c.CallExpr(self.helpers.vector_load(e.type), (ptr,))
            return c.Subscript(c.Ident(e.buffer), self.int_expr(e.offset))
        if isinstance(e, p.SIndex):
            return self.int_expr(e.expr)
        if isinstance(e, p.SCast):
            if e.type.is_vector and not e.arg.type.is_vector:
                return c.CallExpr(self.helpers.splat(e.type), (self.scalar(e.arg),))
            return c.Cast(self.type_name(e.type), self.scalar(e.arg))
        if isinstance(e, p.SUnary):
            return self._unary(e)
        if isinstance(e, p.SBinary):
            return self._binary(e)
        if isinstance(e, p.SFma):
            product = c.Binary("*", self.scalar(e.a), self.scalar(e.b))
            return c.Binary("+", product, self.scalar(e.c))
        if isinstance(e, p.SCompare):
            ops = {"eq": "==", "ne": "!=", "lt": "<", "gt": ">", "le": "<=", "ge": ">="}
            return c.Binary(ops[e.op], self.scalar(e.a), self.scalar(e.b))
        if isinstance(e, p.SSelect):
            return c.Ternary(self.scalar(e.cond), self.scalar(e.a), self.scalar(e.b))
        if isinstance(e, p.SShuffle):
            lanes = tuple(c.Literal(str(i)) for i in e.mask)
            args = (self.scalar(e.a), self.scalar(e.b), *lanes)
            return c.CallExpr("__builtin_shufflevector", args)
        raise TypeError(f"not a scalar expression: {e!r}")

    def _narrow(self, t: p.ScalarType, expr: c.Expr) -> c.Expr:
        """Cast an arithmetic result back to `t` when C computed it in a wider type."""
        if not t.is_vector and t.dtype in _NARROW:
            return c.Cast(self.type_name(t), expr)
        return expr

    def _unary(self, e: p.SUnary) -> c.Expr:
        t = e.type
        arg = self.scalar(e.arg)
        if e.op == "neg":
            return self._narrow(t, c.Unary("-", arg))
        if e.op == "bit_not":
            return (
                c.Unary("!", arg) if t.dtype is DType.BOOL else self._narrow(t, c.Unary("~", arg))
            )
        if e.op == "round_bf16":
            return c.CallExpr(self.helpers.need("plaidc_round_bf16"), (arg,))
        if e.op == "abs" and not t.dtype.is_float:
            if t.dtype is DType.BOOL or t.dtype.is_unsigned_int:
                return arg
            negated = self._narrow(t, c.Unary("-", arg))
            return c.Ternary(c.Binary("<", arg, c.Literal("0")), negated, arg)
        name = "fabs" if e.op == "abs" else e.op
        exp_types = (DType.FP32, DType.FP16)
        if name == "exp" and self.polynomial_exp and t.is_vector and t.dtype is DType.FP32:
            return c.CallExpr(self.helpers.vector_exp(t), (arg,))
        if name == "exp" and self.polynomial_exp and t.dtype in exp_types and not t.is_vector:
            helper = self.helpers.need("plaidc_exp_f32")
            result = c.CallExpr(helper, (c.Cast("float", arg) if t.dtype is DType.FP16 else arg,))
            return c.Cast("_Float16", result) if t.dtype is DType.FP16 else result
        if t.dtype is DType.FP64:
            self.math_calls.setdefault((name, "double"))
            return c.CallExpr(name, (arg,))
        self.math_calls.setdefault((name + "f", "float"))
        result = c.CallExpr(name + "f", (c.Cast("float", arg) if t.dtype is DType.FP16 else arg,))
        return c.Cast("_Float16", result) if t.dtype is DType.FP16 else result

    def _binary(self, e: p.SBinary) -> c.Expr:
        t = e.type
        a, b = self.scalar(e.a), self.scalar(e.b)
        simple = {"add": "+", "sub": "-", "mul": "*", "bit_and": "&", "bit_or": "|", "bit_xor": "^"}
        if e.op in simple:
            if t.dtype is DType.BOOL and e.op in ("bit_and", "bit_or"):
                return c.Binary("&&" if e.op == "bit_and" else "||", a, b)
            return self._narrow(t, c.Binary(simple[e.op], a, b))
        if e.op == "div":
            if t.dtype.is_float or t.is_vector:
                return self._narrow(t, c.Binary("/", a, b))
            return c.CallExpr(self.helpers.need(f"plaidc_div_{suffix(t.dtype)}"), (a, b))
        if e.op in ("max_num", "min_num"):  # NaN-ignoring: the value, unless it is NaN
            greater = c.Binary(">" if e.op == "max_num" else "<", b, a)
            return c.Ternary(greater, b, a)
        if e.op in ("max", "min") and t.is_vector and t.dtype.is_float:
            return c.CallExpr(self.helpers.need(f"{self.helpers.vector_type(t)}_{e.op}"), (a, b))
        if e.op in ("max", "min", "shl", "shr"):
            return c.CallExpr(self.helpers.need(f"plaidc_{e.op}_{suffix(t.dtype)}"), (a, b))
        if e.op == "pow":
            if t.dtype is DType.FP64:
                return c.CallExpr("pow", (a, b))
            if t.dtype is DType.FP32:
                return c.CallExpr("powf", (a, b))
            if t.dtype is DType.FP16:
                call = c.CallExpr("powf", (c.Cast("float", a), c.Cast("float", b)))
                return c.Cast("_Float16", call)
            return c.CallExpr(self.helpers.need(f"plaidc_pow_{suffix(t.dtype)}"), (a, b))
        raise TypeError(f"unknown binary operation {e.op}")

    # ---- statements -------------------------------------------------------------------------

    def stmts(self, body: tuple[p.Stmt, ...]) -> tuple[c.Stmt, ...]:
        out: list[c.Stmt] = []
        for stmt in body:
            out.extend(self.stmt(stmt))
        return tuple(out)

    def stmt(self, s: p.Stmt) -> list[c.Stmt]:
        if isinstance(s, p.Comment):
            return [c.Comment(s.text)]
        if isinstance(s, p.LetInt):
            return [c.Decl("int64_t", s.name, self.int_expr(s.value), const=True)]
        if isinstance(s, p.LetScalar):
            return [c.Decl(self.type_name(s.value.type), s.name, self.scalar(s.value), const=True)]
        if isinstance(s, p.Clock):
            self.clock = True
            return [c.Decl("double", s.name, c.CallExpr("omp_get_wtime", ()), const=True)]
        if isinstance(s, p.DeclVar):
            return [c.Decl(self.type_name(s.type), s.name, self.scalar(s.init))]
        if isinstance(s, p.AssignVar):
            return [self._assign(c.Ident(s.name), s.value)]
        if isinstance(s, p.Store):
            return [self._store(s)]
        if isinstance(s, p.Loop):
            return self._loop(s)
        if isinstance(s, p.If):
            return [c.If(self.int_expr(s.cond), self.stmts(s.then), self.stmts(s.orelse))]
        if isinstance(s, p.Alloc):
            return self._alloc(s)
        if isinstance(s, p.Prefetch):
            return self.prefetch(s)
        if isinstance(s, p.Call):
            args: list[c.Expr] = []
            for arg in s.args:
                if isinstance(arg, p.BufferArg):
                    args.append(self._pointer(arg.buffer, arg.offset))
                else:
                    args.append(self.int_expr(arg))
            return [c.ExprStmt(c.CallExpr(s.function, tuple(args)))]
        raise TypeError(f"not a plan statement: {s!r}")

    def prefetch(self, s: p.Prefetch) -> list[c.Stmt]:
        """A read hint: GCC's and clang's `__builtin_prefetch(address, 0 (read), locality 3)`."""
        pointer = self._pointer(s.buffer, s.offset)
        args = (pointer, c.Literal("0"), c.Literal("3"))
        return [c.ExprStmt(c.CallExpr("__builtin_prefetch", args))]

    def _pointer(self, buffer: str, offset: p.IntExpr) -> c.Expr:
        """`buffer + offset` (just `buffer` at offset 0)."""
        if offset == p.IConst(0):
            return c.Ident(buffer)
        return c.Binary("+", c.Ident(buffer), self.int_expr(offset))

    def _assign(self, target: c.Expr, value: p.SExpr) -> c.Stmt:
        """`target = value`, as a compound assignment where `value` is `target op x`."""
        if isinstance(value, p.SBinary) and value.op in ("add", "mul", "sub"):
            t = value.type
            if self.scalar(value.a) == target and (t.is_vector or t.dtype not in _NARROW):
                op = {"add": "+=", "mul": "*=", "sub": "-="}[value.op]
                return c.Assign(target, self.scalar(value.b), op)
        return c.Assign(target, self.scalar(value))

    def _store(self, s: p.Store) -> c.Stmt:
        t = s.value.type
        if t.is_vector:
            ptr = self._pointer(s.buffer, s.offset)
            value = s.value
            if s.agg is not None:
                current = p.SLoad(s.buffer, s.offset, t)
                value = p.SBinary(s.agg, current, s.value, t)
            call = c.CallExpr(self.helpers.vector_store(t), (ptr, self.scalar(value)))
            return c.ExprStmt(call)
        target = c.Subscript(c.Ident(s.buffer), self.int_expr(s.offset))
        if s.agg is None:
            return c.Assign(target, self.scalar(s.value))
        from plaidc.backends.loopnest.scalars import aggregate

        current = p.SLoad(s.buffer, s.offset, t)
        return self._assign(target, aggregate(s.agg, current, s.value, t))

    def _loop(self, s: p.Loop) -> list[c.Stmt]:
        pre: list[c.Stmt] = []
        limit = self.int_expr(s.hi)
        if not isinstance(s.hi, (p.IConst, p.IVar)):
            bound = f"{s.var}_end"
            pre.append(c.Decl("int64_t", bound, limit, const=True))
            limit = c.Ident(bound)
        pragmas = []
        if s.parallel:
            # no num_threads clause: OMP_NUM_THREADS or the affinity mask decide at run time
            clause = f" num_threads({self.plan.threads})" if self.plan.threads > 0 else ""
            if self.plan.shared_cpu_backoff > 0:
                body = c.For(s.var, self.int_expr(s.lo), limit, self.stmts(s.body), s.step)
                self.parallel_loops += 1
                backoff = self.plan.shared_cpu_backoff
                return [*pre, threads.parallel_loop(body, clause, self.parallel_loops, backoff)]
            pragmas.append(f"omp parallel for schedule(static){clause}")
        elif s.vector:
            clauses = [
                f"reduction({_REDUCTION_OPS[r.op]}:{r.var})"
                for r in s.reductions
                if _reduction_clause_ok(r)
            ]
            if len(clauses) == len(s.reductions):
                pragmas.append(" ".join(["omp simd", *clauses]))
        loop = c.For(
            s.var, self.int_expr(s.lo), limit, self.stmts(s.body), s.step, "int64_t", tuple(pragmas)
        )
        return [*pre, loop]

    def _alloc(self, s: p.Alloc) -> list[c.Stmt]:
        ctype = c_type(s.dtype)
        if not s.heap:
            decl = c.Decl(
                ctype,
                s.buffer,
                array=max(s.size, 1),
                attributes=f"__attribute__((aligned({s.align})))",
            )
            return [c.Compound((decl, *self.stmts(s.body)))]
        nbytes = max(s.size, 1) * numpy_dtype(s.dtype).itemsize
        rounded = (nbytes + s.align - 1) // s.align * s.align
        size = (c.Literal(str(s.align)), c.Literal(str(rounded)))
        release: c.Expr = c.CallExpr("free", (c.Ident(s.buffer),))
        if s.scratch and self.plan.scratch_slots > 0:
            # kept between calls: taken from this allocation's slots, given back at the end
            slots = f"plaidc_kept_{len(self.kept_scratch)}"
            self.kept_scratch.append(slots)
            count = c.Literal(str(self.plan.scratch_slots))
            alloc: c.Expr = c.CallExpr("plaidc_scratch_take", (c.Ident(slots), count, *size))
            release = c.CallExpr("plaidc_scratch_give", (c.Ident(slots), count, c.Ident(s.buffer)))
        else:
            alloc = c.CallExpr("aligned_alloc", size)
        decl = c.Decl(f"{ctype} *", s.buffer, c.Cast(f"{ctype} *", alloc))
        fail = c.Assign(
            c.Subscript(c.Ident(p.STATUS), c.Literal("0")), c.Literal(str(p.FAIL_OUT_OF_MEMORY))
        )
        body = (*self.stmts(s.body), c.ExprStmt(release))
        return [c.Compound((decl, c.If(c.Unary("!", c.Ident(s.buffer)), (fail,), body)))]

    # ---- functions --------------------------------------------------------------------------

    def function(self, f: p.Function) -> c.FunctionDef:
        params = []
        for param in f.params:
            if isinstance(param, p.BufferParam):
                const = "" if param.writes else "const "
                params.append(c.Param(f"{const}{c_type(param.dtype)} *restrict", param.name))
            else:
                params.append(c.Param("int64_t", param.name))
        return c.FunctionDef(
            "void",
            f.name,
            tuple(params),
            self.stmts(f.body),
            static=True,
            inline=f.inline,
            comment=f.comment,
            # The build turns contraction off (-ffp-contract=off); the micro-kernel's a * b + c
            # may fuse, as LLVM's fmuladd does.
            attributes='__attribute__((optimize("fp-contract=fast")))' if f.contract else "",
        )

    def unit(self) -> c.TranslationUnit:
        functions = [self.function(f) for f in self.plan.functions]
        entry = next(f for f in self.plan.functions if f.name == self.plan.entry)
        args: list[c.Expr] = []
        for k, param in enumerate(entry.params):
            assert isinstance(param, p.BufferParam)
            arg = c.Subscript(c.Ident("args"), c.Literal(str(k)))
            args.append(c.Cast(f"{c_type(param.dtype)} *", arg))
        exported = c.FunctionDef(
            "void",
            "plaidc_entry",
            (c.Param("void *const *", "args"),),
            (c.ExprStmt(c.CallExpr(self.plan.entry, tuple(args))),),
            static=False,
            comment="exported: one pointer per program buffer, then the status word",
        )
        items: list[c.TopLevel] = [
            c.Comment("generated by plaidc (C backend)"),
            *(c.Include(h) for h in ("math.h", "stdbool.h", "stdint.h", "stdlib.h", "string.h")),
        ]
        if self.vector_math:
            for name, ctype in self.math_calls:
                if name.removesuffix("f") in VECTOR_MATH or name in VECTOR_MATH:
                    simd = ("omp declare simd notinbranch",)
                    items.append(c.FunctionDecl(ctype, name, (c.Param(ctype, "x"),), simd))
        if self.clock:
            items.append(c.FunctionDecl("double", "omp_get_wtime", ()))
        items.extend(self.helpers.definitions())
        if self.kept_scratch:
            items.append(c.Verbatim(_kept_scratch(self.kept_scratch, self.plan.scratch_slots)))
        if self.parallel_loops:
            items.append(c.Verbatim(threads.RUNTIME))
        items.extend(functions)
        items.append(exported)
        return c.TranslationUnit(tuple(items))


_REDUCTION_OPS = {
    "add": "+",
    "mul": "*",
    "max": "max",
    "min": "min",
    "max_num": "max",
    "min_num": "min",
}


def _kept_scratch(arrays: list[str], slots: int) -> str:
    """The slot arrays of the kept scratch buffers, the functions that take and give back a
    buffer (lock-free: a thread takes a slot's buffer by exchanging it for NULL, gives it back
    into an empty slot, and allocates or frees only when none is there), and a destructor
    that frees what the slots hold when the library is unloaded."""
    lines = [f"static void *{name}[{slots}];" for name in arrays]
    lines.append(
        """static void *plaidc_scratch_take(void **slots, int n, size_t align, size_t bytes) {
  for (int i = 0; i < n; i++) {
    void *buf = __atomic_exchange_n(&slots[i], (void *)0, __ATOMIC_ACQUIRE);
    if (buf) return buf;
  }
  return aligned_alloc(align, bytes);
}

static void plaidc_scratch_give(void **slots, int n, void *buf) {
  for (int i = 0; i < n; i++) {
    void *empty = (void *)0;
    if (__atomic_compare_exchange_n(&slots[i], &empty, buf, 0, __ATOMIC_RELEASE,
                                    __ATOMIC_RELAXED))
      return;
  }
  free(buf);
}

__attribute__((destructor)) static void plaidc_scratch_free(void) {"""
    )
    for name in arrays:
        lines.append(f"  for (int i = 0; i < {slots}; i++) free({name}[i]);")
    lines.append("}")
    return "\n".join(lines)


def _reduction_clause_ok(r: p.Reduction) -> bool:
    """OpenMP's max/min reductions drop NaNs, so they are only used for integers and for the
    NaN-ignoring `max_num`/`min_num` (whose loops track NaNs apart)."""
    if r.op in ("add", "mul", "max_num", "min_num"):
        return r.type.dtype is not DType.BOOL
    return not r.type.dtype.is_float and r.type.dtype is not DType.BOOL


def _int_literal(value: int) -> c.Expr:
    if _INT32_MIN <= value <= _INT32_MAX:
        return c.Literal(str(value))
    if value == -(2**63):
        return c.Literal("INT64_MIN")
    return c.CallExpr("INT64_C", (c.Literal(str(value)),))


def _scalar_literal(value: int | float | bool, dtype: DType) -> str:
    if dtype is DType.BOOL:
        return "true" if value else "false"
    if dtype.is_float:
        v = float(value)
        if math.isnan(v):
            text = "NAN"
        elif math.isinf(v):
            text = "INFINITY" if v > 0 else "-INFINITY"
        elif dtype is DType.FP64:
            text = repr(v)
        else:
            # Shortest text that reads back as the same float32 (fp16 values are exact in it).
            text = str(np.float32(v))
            if not any(ch in text for ch in ".en"):
                text += ".0"
            text += "f"
        if dtype is DType.FP16:
            return f"(_Float16){text}"
        return text
    v = int(value)
    if dtype in (DType.U64, DType.U32) and v > _INT32_MAX:
        return f"UINT64_C({v})"
    if dtype is DType.I64 and not _INT32_MIN <= v <= _INT32_MAX:
        return "INT64_MIN" if v == -(2**63) else f"INT64_C({v})"
    return str(v)


def emit_c(plan: p.Plan, vector_math: bool = False, polynomial_exp: bool = False) -> str:
    """The C source of `plan` (see `CEmitter` for `vector_math` and `polynomial_exp`)."""
    return c.print_c(CEmitter(plan, vector_math, polynomial_exp).unit())
