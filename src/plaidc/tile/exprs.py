"""Type and shape checking of elementwise expressions, and bind-time evaluation.

An elementwise expression becomes a typed scalar tree (plaidc.tile.typed.SExpr) with the
numpy-broadcast shape of its operands. Expressions without tensors (`Pad = (K - 1) / 2`,
output sizes, constraint bounds) are evaluated at bind time with C's truncating division.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import get_close_matches

from plaidc.diagnostics import Span
from plaidc.stripe.ir import DType
from plaidc.tile import ast
from plaidc.tile.bind import Context, PoisonSym, TensorSym, ValueSym, fmt_shape
from plaidc.tile.typed import SConst, SExpr, SIndex, SLoad, SOp
from plaidc.tile.types import (
    BINARY_INTRINSICS,
    BITWISE,
    CASTS,
    FLOAT_FUNCS,
    FLOAT_LITERAL,
    INT_LITERAL,
    KNOWN_FUNCTIONS,
    SPECIALS,
    UNARY_INTRINSICS,
    ScalarType,
    function_arity,
    function_result,
    unify,
    unify_all,
)


@dataclass(frozen=True)
class Checked:
    """A checked expression: its scalar tree, type and broadcast shape."""

    expr: SExpr
    type: ScalarType
    shape: tuple[int, ...]


def broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    """numpy broadcasting (right-aligned, size-1 dims stretch); None if incompatible."""
    out = []
    for k in range(1, max(len(a), len(b)) + 1):
        x = a[-k] if k <= len(a) else 1
        y = b[-k] if k <= len(b) else 1
        if x != y and x != 1 and y != 1:
            return None
        out.append(y if x == 1 else x)
    return tuple(reversed(out))


def _trunc_div(a: int, b: int) -> int:
    """C's integer division (truncates toward zero), which Tile sizes use."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


class ExprChecker:
    """Checks expressions against the compilation's scope, reporting into its context."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    # ---- bind-time values ------------------------------------------------------------------

    def is_bind_time(self, expr: ast.Expr) -> bool:
        """Whether `expr` uses no tensor and no function, so it is evaluated at bind time."""
        if isinstance(expr, (ast.IntLit, ast.FloatLit)):
            return True
        if isinstance(expr, ast.NameRef):
            sym = self.ctx.scope.get(expr.name)
            return not isinstance(sym, TensorSym)
        if isinstance(expr, ast.Unary):
            return expr.op == "-" and self.is_bind_time(expr.operand)
        if isinstance(expr, ast.Binary):
            return expr.op in "+-*/" and self.is_bind_time(expr.lhs) and self.is_bind_time(expr.rhs)
        return False

    def evaluate(self, expr: ast.Expr, what: str) -> int | float | None:
        """Evaluate a bind-time expression; None after reporting why it is not one."""
        ctx = self.ctx
        if isinstance(expr, ast.IntLit):
            return expr.value
        if isinstance(expr, ast.FloatLit):
            return expr.value
        if isinstance(expr, ast.NameRef):
            sym = ctx.lookup(expr.name, expr.span)
            if isinstance(sym, ValueSym):
                return sym.value
            if isinstance(sym, TensorSym):
                ctx.error(
                    f"{expr.name} is a tensor, but the {what} must be known when binding", expr.span
                )
            return None
        if isinstance(expr, ast.Unary) and expr.op == "-":
            inner = self.evaluate(expr.operand, what)
            return -inner if inner is not None else None
        if isinstance(expr, ast.Binary) and expr.op in ("+", "-", "*", "/"):
            lhs, rhs = self.evaluate(expr.lhs, what), self.evaluate(expr.rhs, what)
            if lhs is None or rhs is None:
                return None
            if expr.op == "+":
                return lhs + rhs
            if expr.op == "-":
                return lhs - rhs
            if expr.op == "*":
                return lhs * rhs
            if rhs == 0:
                ctx.error(f"division by zero in a {what}", expr.span)
                return None
            if isinstance(lhs, int) and isinstance(rhs, int):
                return _trunc_div(lhs, rhs)
            return lhs / rhs
        ctx.error(f"the {what} must be a bind-time expression of sizes and literals", expr.span)
        return None

    def evaluate_int(self, expr: ast.Expr, what: str) -> int | None:
        value = self.evaluate(expr, what)
        if value is not None and not isinstance(value, int):
            self.ctx.error(f"the {what} must be an integer, not {value}", expr.span)
            return None
        return value

    # ---- elementwise expressions -------------------------------------------------------------

    def check(self, expr: ast.Expr) -> Checked | None:
        """Type- and shape-check an elementwise expression; None if it had errors (reported)."""
        if isinstance(expr, ast.IntLit):
            return Checked(SConst(expr.value, "int"), INT_LITERAL, ())
        if isinstance(expr, ast.FloatLit):
            return Checked(SConst(expr.value, "float"), FLOAT_LITERAL, ())
        if isinstance(expr, ast.NameRef):
            return self._name(expr)
        if isinstance(expr, ast.Unary):
            return self._apply(UNARY_INTRINSICS[expr.op], [expr.operand], expr.span)
        if isinstance(expr, ast.Binary):
            return self._apply(BINARY_INTRINSICS[expr.op], [expr.lhs, expr.rhs], expr.span)
        if isinstance(expr, ast.Cond):
            return self._apply("cond", [expr.cond, expr.then, expr.else_], expr.span)
        return self._call(expr)

    def _name(self, expr: ast.NameRef) -> Checked | None:
        sym = self.ctx.lookup(expr.name, expr.span)
        if isinstance(sym, TensorSym):
            return Checked(SLoad(sym.name), ScalarType(sym.dtype), sym.sizes)
        if isinstance(sym, ValueSym):
            if isinstance(sym.value, int):
                return Checked(SConst(sym.value, "int"), INT_LITERAL, ())
            return Checked(SConst(sym.value, "float"), FLOAT_LITERAL, ())
        return None

    def _operands(self, args: list[ast.Expr]) -> list[Checked] | None:
        # Check every operand even after a failure, so all errors in a statement show.
        checked = [self.check(a) for a in args]
        if any(c is None for c in checked):
            return None
        return [c for c in checked if c is not None]

    def _shape(
        self, operands: list[Checked], args: list[ast.Expr], span: Span | None
    ) -> tuple[int, ...] | None:
        shape: tuple[int, ...] = ()
        for k, (op, arg) in enumerate(zip(operands, args, strict=True)):
            merged = broadcast(shape, op.shape)
            if merged is None:
                # Name the operands when they are plain tensor names, as the user wrote them.
                left = ast.format_expr(args[0]) if k == 1 else "the operands before it"
                self.ctx.error(
                    f"shape mismatch: {left} has shape {fmt_shape(shape)} and "
                    f"{ast.format_expr(arg)} has shape {fmt_shape(op.shape)}; they cannot be "
                    "broadcast together",
                    span,
                )
                return None
            shape = merged
        return shape

    def _apply(self, fn: str, args: list[ast.Expr], span: Span | None) -> Checked | None:
        operands = self._operands(args)
        if operands is None:
            return None
        shape = self._shape(operands, args, span)
        if shape is None:
            return None
        types = [o.type for o in operands]
        if fn == "neg" and types[0].dtype is DType.BOOL and not types[0].weak:
            self.ctx.error(
                "unary minus needs a number, not bool (use ~ for logical not, or as_int first)",
                span,
            )
            return None
        if fn == "sub" and all(t.dtype is DType.BOOL and not t.weak for t in types):
            # numpy refuses it too ("numpy boolean subtract ... is not supported")
            self.ctx.error(
                "subtraction needs numbers, not two bools (use != for exclusive or, or as_int "
                "first)",
                span,
            )
            return None
        if fn in BITWISE and any(t.dtype.is_float for t in types):
            self.ctx.error(f"{fn} needs integer operands, not {unify_all(types).dtype}", span)
            return None
        if fn.startswith("cmp_"):
            # compared as numbers, as numpy and C's integer promotions do (`u8 > -1` holds)
            result = ScalarType(DType.BOOL)
        elif fn == "cond":
            result = unify(types[1], types[2])
            if not self._literals_fit(operands[1:], args[1:], result):
                return None
        else:
            result = function_result(fn, types)
            if not self._literals_fit(operands, args, result):
                return None
            if fn in FLOAT_FUNCS and result.dtype is DType.FP32:
                # an integer or bool tensor computes in fp32, the result's type (numpy would
                # pick fp16 for 8-bit integers and fp64 for 32-bit ones)
                exprs = tuple(
                    SOp("as_float", (o.expr, SConst(32, "int")))
                    if not o.type.dtype.is_float and not o.type.weak
                    else o.expr
                    for o in operands
                )
                return Checked(SOp(fn, exprs), result, shape)
        return Checked(SOp(fn, tuple(o.expr for o in operands)), result, shape)

    def _literals_fit(
        self, operands: list[Checked], args: list[ast.Expr], result: ScalarType
    ) -> bool:
        """An integer literal takes the integer type of the other operand (TILE.md "Types");
        one outside that type's range is an error (at the literal) rather than a wrap-around."""
        dtype = result.dtype
        if result.weak or not (dtype.is_signed_int or dtype.is_unsigned_int):
            return True
        bits = dtype.byte_size * 8
        low, high = (
            (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if dtype.is_signed_int else (0, 2**bits - 1)
        )
        for op, arg in zip(operands, args, strict=True):
            value = _literal_value(op.expr)
            if isinstance(value, int) and not isinstance(value, bool) and not low <= value <= high:
                self.ctx.error(
                    f"integer literal {value} does not fit {dtype} (range {low}..{high}), the type"
                    f" it takes from the other operand; convert that operand first, e.g. with"
                    f" as_int(X, 32)",
                    arg.span,
                )
                return False
        return True

    def _call(self, call: ast.Call) -> Checked | None:
        ctx, fn = self.ctx, call.fn
        if fn not in KNOWN_FUNCTIONS:
            close = get_close_matches(fn, KNOWN_FUNCTIONS, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            ctx.error(f"unknown function '{fn}'{hint}", call.span)
            self._operands(list(call.args))
            return None
        arity = function_arity(fn)
        if arity is not None and len(call.args) != arity:
            ctx.error(f"{fn} takes {arity} arguments, not {len(call.args)}", call.span)
            return None
        if fn in SPECIALS and fn != "index":
            ctx.error(f"{fn}(...) must be the whole right-hand side of a statement", call.span)
            return None
        if fn == "index":
            return self._index(call)
        if fn in CASTS:
            return self._cast(call)
        return self._apply(fn, list(call.args), call.span)

    def _cast(self, call: ast.Call) -> Checked | None:
        operand = self.check(call.args[0])
        widths = CASTS[call.fn]
        if call.fn == "as_bool":
            if operand is None:
                return None
            expr = SOp("as_bool", (operand.expr,))
            return Checked(expr, ScalarType(DType.BOOL), operand.shape)
        bits = self.evaluate_int(call.args[1], "bit width")
        if bits is not None and bits not in widths:
            allowed = "|".join(str(w) for w in widths)
            self.ctx.error(
                f"{call.fn} takes a bit width of {allowed}, not {bits}", call.args[1].span
            )
            return None
        if operand is None or bits is None:
            return None
        expr = SOp(call.fn, (operand.expr, SConst(bits, "int")))
        return Checked(expr, ScalarType(widths[bits]), operand.shape)

    def _index(self, call: ast.Call) -> Checked | None:
        """`index(X, axis)`: each element's coordinate along `axis` of X, as i32."""
        target, axis_expr = call.args
        axis = self.evaluate_int(axis_expr, "axis")
        if not isinstance(target, ast.NameRef):
            self.ctx.error("the first argument of index must be a tensor name", target.span)
            return None
        sym = self.ctx.lookup(target.name, target.span)
        if isinstance(sym, (PoisonSym, type(None))) or axis is None:
            return None
        if not isinstance(sym, TensorSym):
            self.ctx.error(f"{target.name} is a bind-time value, not a tensor", target.span)
            return None
        rank = len(sym.sizes)
        if not 0 <= axis < rank:
            self.ctx.error(
                f"axis {axis} is out of range for {target.name} of shape {fmt_shape(sym.sizes)}",
                axis_expr.span,
            )
            return None
        # A size-1 axis broadcasts, so its coordinate is always 0.
        expr: SExpr = SConst(0, "int") if sym.sizes[axis] == 1 else SIndex(rank - axis, sym.name)
        return Checked(expr, ScalarType(DType.I32), sym.sizes)


def _literal_value(expr: SExpr) -> int | float | None:
    """The value of a literal, negated ones (`-1`) included; None for anything else."""
    if isinstance(expr, SConst):
        return expr.value
    if isinstance(expr, SOp) and expr.fn == "neg" and isinstance(expr.args[0], SConst):
        return -expr.args[0].value
    return None
