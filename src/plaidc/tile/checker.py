"""Check a Tile function statement by statement: names, shapes, types and contractions.

Every error is recorded in the compilation context and checking goes on, so one run reports
every problem (QUALITY.md "Errors"). A statement with errors defines its target as *poisoned*:
later uses of it are not reported again, so one mistake gives one diagnostic.
"""

from __future__ import annotations

from plaidc.diagnostics import Span
from plaidc.stripe.ir import DType
from plaidc.tile import ast
from plaidc.tile.bind import Context, PoisonSym, TensorSym, ValueSym, fmt_shape, shape_error
from plaidc.tile.contraction import ContractionProblem, ContractionSpec, compile_contraction
from plaidc.tile.exprs import ExprChecker
from plaidc.tile.poly import RatAffine
from plaidc.tile.typed import ContractionOp, EltwiseOp, Op, SpecialOp
from plaidc.tile.types import promote

AGG_OPS = {"+": "add", "*": "mul", ">": "max", "<": "min", "=": "assign"}


class StatementChecker:
    """Checks statements in order, appending the checked operations to `ops`."""

    def __init__(self, ctx: Context, outputs: set[str], assigned: set[str] | None = None) -> None:
        self.ctx = ctx
        self.outputs = outputs
        #: Every name a statement of the function assigns, also later ones: a builtin's
        #: temporaries must not take a name the user defines further down.
        self.assigned = assigned or set()
        self.exprs = ExprChecker(ctx)
        self.ops: list[Op] = []
        #: Names defined by statements, in order (temporaries and outputs).
        self.defined: list[str] = []

    # ---- helpers ---------------------------------------------------------------------------

    def _claim(self, name: str, span: Span | None) -> bool:
        """Report `Reassignment to NAME` if `name` exists (Tile is single-assignment)."""
        old = self.ctx.scope.get(name)
        if old is None:
            return True
        notes = (f"{name} was first defined at {old.span}",) if old.span else ()
        self.ctx.error(f"Reassignment to {name}", span, *notes)
        return False

    def _define(self, name: str, sym: TensorSym | ValueSym | PoisonSym) -> None:
        # A reassigned name keeps its first definition, so later uses check against it.
        problem = shape_error(name, sym.sizes) if isinstance(sym, TensorSym) else None
        if problem:
            self.ctx.error(problem, sym.span)
            sym = PoisonSym(name, sym.span)
        if name not in self.ctx.scope:
            self.ctx.scope[name] = sym
            if isinstance(sym, TensorSym):
                self.defined.append(name)

    def _poison(self, name: str, span: Span | None) -> None:
        self._define(name, PoisonSym(name, span))

    def _tensor(self, name: str, span: Span | None) -> TensorSym | bool | None:
        """The tensor `name`; False after reporting an error, None if poisoned."""
        sym = self.ctx.lookup(name, span)
        if sym is None:
            return False
        if isinstance(sym, PoisonSym):
            return None
        if isinstance(sym, ValueSym):
            self.ctx.error(f"{name} is a bind-time value, not a tensor", span)
            return False
        return sym

    # ---- statements ------------------------------------------------------------------------

    def check(self, stmt: ast.Statement) -> None:
        """Check one statement (and any statements a builtin expands to)."""
        kernel_name = None
        for attr in stmt.attributes:
            if attr.name == "pid" and attr.params:
                kernel_name = attr.params[0]
        if isinstance(stmt.body, ast.Contraction):
            self._contraction(stmt, stmt.body, kernel_name)
        else:
            self._assign(stmt, stmt.body, kernel_name)

    def _assign(self, stmt: ast.Statement, node: ast.Assign, kernel_name: str | None) -> None:
        fresh = self._claim(node.name, node.span)
        expr = node.expr
        if isinstance(expr, ast.Call) and expr.fn in ("reshape", "gather", "scatter", "shape"):
            self._special(stmt, node, expr, fresh)
            return
        if isinstance(expr, ast.Call) and expr.fn in ("builtin_softmax", "builtin_logsoftmax"):
            self._softmax(node, expr, fresh)
            return
        if node.name not in self.outputs and self.exprs.is_bind_time(expr):
            value = self.exprs.evaluate(expr, "value")
            if value is None:
                self._poison(node.name, node.span)
            else:
                self._define(node.name, ValueSym(node.name, value, node.span))
            return
        checked = self.exprs.check(expr)
        if checked is None or not fresh:
            self._poison(node.name, node.span)
            return
        self._define(node.name, TensorSym(node.name, checked.type.dtype, checked.shape, node.span))
        text = ast.format_statement(stmt)
        self.ops.append(EltwiseOp(node.name, checked.expr, text, kernel_name, node.span))

    def _special(self, stmt: ast.Statement, node: ast.Assign, call: ast.Call, fresh: bool) -> None:
        """`reshape gather scatter shape` as the whole right-hand side."""
        ctx = self.ctx
        args = call.args
        want = {"gather": 2, "scatter": 3, "shape": 1}.get(call.fn)
        if (want is not None and len(args) != want) or (call.fn == "reshape" and not args):
            count = want if want is not None else "at least 1"
            ctx.error(f"{call.fn} takes {count} arguments, not {len(args)}", call.span)
            self._poison(node.name, node.span)
            return
        tensors: list[TensorSym | bool | None] = []
        n_tensors = len(args) if call.fn != "reshape" else 1
        for arg in args[:n_tensors]:
            if isinstance(arg, ast.NameRef):
                tensors.append(self._tensor(arg.name, arg.span))
            else:
                ctx.error(f"the arguments of {call.fn} must be tensor names", _span_of(arg))
                tensors.append(False)
        if not all(isinstance(t, TensorSym) for t in tensors):
            self._poison(node.name, node.span)
            return
        ts = [t for t in tensors if isinstance(t, TensorSym)]
        params: tuple[tuple[str, int | tuple[int, ...]], ...] = ()
        if call.fn == "reshape":
            sizes = [self.exprs.evaluate_int(a, "size") for a in args[1:]]
            if any(s is None for s in sizes):
                self._poison(node.name, node.span)
                return
            shape = tuple(s for s in sizes if s is not None)
            dtype = ts[0].dtype
            if any(s < 0 for s in shape) or _count(shape) != _count(ts[0].sizes):
                ctx.error(
                    f"cannot reshape {ts[0].name} of shape {fmt_shape(ts[0].sizes)} "
                    f"({_count(ts[0].sizes)} elements) to {fmt_shape(shape)} "
                    f"({_count(shape)} elements)",
                    call.span,
                )
                self._poison(node.name, node.span)
                return
            params = (("sizes", shape),)
        elif call.fn == "gather":
            values, idx = ts
            if not values.sizes or idx.dtype.is_float:
                ctx.error(
                    "gather needs a tensor of rank >= 1 and integer indices, not "
                    f"{values.dtype}{fmt_shape(values.sizes)} and "
                    f"{idx.dtype}{fmt_shape(idx.sizes)}",
                    call.span,
                )
                self._poison(node.name, node.span)
                return
            shape, dtype = idx.sizes + values.sizes[1:], values.dtype
        elif call.fn == "scatter":
            upd, idx, like = ts
            expect = idx.sizes + like.sizes[1:]
            if not like.sizes or idx.dtype.is_float or upd.sizes != expect:
                ctx.error(
                    f"scatter({upd.name}, {idx.name}, {like.name}) needs {upd.name} of shape "
                    f"{fmt_shape(expect)} and integer indices, not {fmt_shape(upd.sizes)} and "
                    f"{idx.dtype}",
                    call.span,
                )
                self._poison(node.name, node.span)
                return
            shape, dtype = like.sizes, upd.dtype
        else:
            shape, dtype = (len(ts[0].sizes),), DType.I32
        if not fresh:
            self._poison(node.name, node.span)
            return
        self._define(node.name, TensorSym(node.name, dtype, shape, node.span))
        inputs = tuple(t.name for t in ts)
        text = ast.format_statement(stmt)
        self.ops.append(SpecialOp(node.name, call.fn, inputs, params, text, node.span))

    def _softmax(self, node: ast.Assign, call: ast.Call, fresh: bool) -> None:
        """Expand PlaidML's inline `builtin_softmax(X, R, C)` / `builtin_logsoftmax` into the
        Tile statements PlaidML defines them by (softmax over the last axis of a 2-D X)."""
        if len(call.args) != 3:
            self.ctx.error(f"{call.fn} takes 3 arguments, not {len(call.args)}", call.span)
            self._poison(node.name, node.span)
            return
        for arg in call.args[1:]:
            self.exprs.evaluate_int(arg, "size")
        src = call.args[0]
        checked = self.exprs.check(src)
        if checked is None:
            self._poison(node.name, node.span)
            return
        if len(checked.shape) != 2:
            self.ctx.error(
                f"{call.fn} needs a 2-D tensor, not one of shape {fmt_shape(checked.shape)}",
                call.span,
            )
            self._poison(node.name, node.span)
            return
        if not fresh:
            self._poison(node.name, node.span)
            return
        sp = call.span
        temps = self._fresh_names(node.name, ["in", "max", "exp", "sum"])
        if not isinstance(src, ast.NameRef):
            self.check(ast.Statement(ast.Assign(temps["in"], src, sp)))
        x = src.name if isinstance(src, ast.NameRef) else temps["in"]
        rows = ast.IntLit(checked.shape[0], sp)
        i, j, zero = ast.PolyName("i", sp), ast.PolyName("j", sp), ast.PolyInt(0, sp)

        def reduce(out: str, agg: str, inp: str) -> ast.Statement:
            spec = ast.OutputSpec(out, (i, zero), (rows, ast.IntLit(1, sp)), sp)
            ref = ast.TensorRef(inp, (i, j), sp)
            return ast.Statement(ast.Contraction(spec, agg, (ref,), None, agg_span=sp))

        def name(n: str) -> ast.NameRef:
            return ast.NameRef(n, sp)

        m, e, s = temps["max"], temps["exp"], temps["sum"]
        expansion = [
            reduce(m, ">", x),
            ast.Statement(
                ast.Assign(e, ast.Call("exp", (ast.Binary("-", name(x), name(m), sp),), sp), sp)
            ),
            reduce(s, "+", e),
        ]
        if call.fn == "builtin_softmax":
            result: ast.Expr = ast.Binary("/", name(e), name(s), sp)
        else:
            log_s = ast.Call("log", (name(s),), sp)
            result = ast.Binary("-", name(x), ast.Binary("+", name(m), log_s, sp), sp)
        expansion.append(ast.Statement(ast.Assign(node.name, result, node.span)))
        for stmt in expansion:
            self.check(stmt)

    def _fresh_names(self, base: str, suffixes: list[str]) -> dict[str, str]:
        out = {}
        for suffix in suffixes:
            name, k = f"{base}_{suffix}", 0
            while name in self.ctx.scope or name in self.outputs or name in self.assigned:
                k += 1
                name = f"{base}_{suffix}{k}"
            out[suffix] = name
        return out

    # ---- contractions ----------------------------------------------------------------------

    def _poly(self, poly: ast.Poly, seen: dict[str, Span | None]) -> RatAffine | None:
        """Convert an index polynomial; records each index variable's first span in `seen`."""
        ctx = self.ctx
        if isinstance(poly, ast.PolyInt):
            return RatAffine.constant(poly.value)
        if isinstance(poly, ast.PolyName):
            if poly.is_index:
                seen.setdefault(poly.name, poly.span)
                return RatAffine.var(poly.name)
            sym = ctx.lookup(poly.name, poly.span)
            if isinstance(sym, ValueSym) and isinstance(sym.value, int):
                return RatAffine.constant(sym.value)
            if isinstance(sym, (TensorSym, ValueSym)):
                ctx.error(
                    f"{poly.name} is not an integer size; only index variables, sizes and "
                    "integers may appear in an index",
                    poly.span,
                )
            return None
        if isinstance(poly, ast.PolyNeg):
            inner = self._poly(poly.operand, seen)
            return -inner if inner is not None else None
        lhs, rhs = self._poly(poly.lhs, seen), self._poly(poly.rhs, seen)
        if lhs is None or rhs is None:
            return None
        if poly.op == "+":
            return lhs + rhs
        if poly.op == "-":
            return lhs - rhs
        if poly.op == "*":
            if not lhs.is_constant and not rhs.is_constant:
                ctx.error(
                    "index polynomial is not affine: cannot multiply two index expressions",
                    poly.span,
                )
                return None
            return rhs.scale(lhs.const) if lhs.is_constant else lhs.scale(rhs.const)
        if not rhs.is_constant:
            ctx.error("cannot divide by an index expression", poly.span)
            return None
        if rhs.const == 0:
            ctx.error("division by zero in an index polynomial", poly.span)
            return None
        return lhs.scale(1 / rhs.const)

    def _contraction(
        self, stmt: ast.Statement, node: ast.Contraction, kernel_name: str | None
    ) -> None:
        ctx = self.ctx
        out = node.output
        errors_before = len(ctx.errors)
        self._claim(out.name, out.span)
        inputs: list[TensorSym | None] = []
        for ref in node.inputs:
            t = self._tensor(ref.name, ref.span)
            if isinstance(t, TensorSym) and len(ref.indices) != len(t.sizes):
                ctx.error(
                    f"{ref.name} has {len(t.sizes)} dimensions but is indexed with "
                    f"{len(ref.indices)} indices",
                    ref.span,
                )
                t = False
            inputs.append(t if isinstance(t, TensorSym) else None)
        if len(node.inputs) == 3 and node.comb != "==":
            ctx.error(
                f"the ternary contraction needs '==' (A == B ? C), not '{node.comb}'",
                node.comb_span,
            )

        seen: dict[str, Span | None] = {}
        out_polys = [self._poly(p, seen) for p in out.indices]
        in_polys = [[self._poly(p, seen) for p in ref.indices] for ref in node.inputs]
        cons: list[tuple[RatAffine | None, int | None]] = []
        for con in node.constraints:
            con_vars: dict[str, Span | None] = {}
            poly = self._poly(con.poly, con_vars)
            for var, span in con_vars.items():
                if var not in seen:
                    ctx.error(
                        f"index {var} appears only in constraints; every index must index a tensor",
                        span,
                    )
                    poly = None
            cons.append((poly, self.exprs.evaluate_int(con.bound, "constraint bound")))

        sizes = self._output_sizes(out)
        default = None
        if node.default is not None:
            d = self._tensor(node.default, node.default_span)
            if isinstance(d, TensorSym):
                if sizes is not None and d.sizes != sizes:
                    ctx.error(
                        f"default {d.name} has shape {fmt_shape(d.sizes)} but {out.name} has "
                        f"shape {fmt_shape(sizes)}",
                        node.default_span,
                    )
                default = d.name
        if len(ctx.errors) != errors_before or sizes is None or None in inputs:
            self._poison(out.name, out.span)
            return

        ins = [t for t in inputs if t is not None]
        dtype = ins[0].dtype
        if node.comb in ("*", "+"):
            dtype = promote(ins[0].dtype, ins[1].dtype)
        elif node.comb == "==":
            dtype = DType.BOOL if len(ins) == 2 else ins[2].dtype
        spec = ContractionSpec(
            output=tuple(p for p in out_polys if p is not None),
            out_sizes=sizes,
            inputs=tuple(
                (tuple(p for p in polys if p is not None), t.sizes)
                for polys, t in zip(in_polys, ins, strict=True)
            ),
            constraints=tuple((p, b) for p, b in cons if p is not None and b is not None),
            index_names=tuple(seen),
            agg=node.agg,
        )
        try:
            compiled = compile_contraction(spec, out.name)
        except ContractionProblem as err:
            span = seen.get(err.index) if err.index is not None else node.agg_span
            ctx.error(err.message, span or node.agg_span)
            self._poison(out.name, out.span)
            return
        if compiled.empty:
            ctx.warn(
                f"contraction has no valid index assignment; {out.name} is "
                + (f"a copy of {default}" if default else "all zeros"),
                node.agg_span,
            )
        self._define(out.name, TensorSym(out.name, dtype, sizes, out.span))
        comb = None
        if len(ins) == 3:
            comb = "cond"
        elif node.comb is not None:
            comb = {"*": "mul", "+": "add", "==": "cmp_eq"}[node.comb]
        self.ops.append(
            ContractionOp(
                target=out.name,
                agg=AGG_OPS[node.agg],
                comb=comb,
                inputs=tuple(t.name for t in ins),
                compiled=compiled,
                default=default,
                text=ast.format_statement(stmt),
                kernel_name=kernel_name,
                span=out.span,
            )
        )

    def _output_sizes(self, out: ast.OutputSpec) -> tuple[int, ...] | None:
        if out.sizes is None or (not out.sizes and out.indices):
            if not out.indices:
                return ()
            self.ctx.error(
                f"the sizes of {out.name} are missing: write {out.name}[i, ... : SIZE, ...]",
                out.span,
            )
            return None
        if len(out.sizes) != len(out.indices):
            self.ctx.error(
                f"{out.name} has {len(out.indices)} indices but {len(out.sizes)} sizes",
                out.span,
            )
            return None
        sizes = [self.exprs.evaluate_int(s, "size") for s in out.sizes]
        for s, expr in zip(sizes, out.sizes, strict=True):
            if s is not None and s < 0:
                self.ctx.error(f"size {s} of {out.name} is negative", _span_of(expr))
                return None
        if any(s is None for s in sizes):
            return None
        return tuple(s for s in sizes if s is not None)


def _count(sizes: tuple[int, ...]) -> int:
    n = 1
    for s in sizes:
        n *= s
    return n


def _span_of(expr: ast.Expr) -> Span | None:
    return expr.span
