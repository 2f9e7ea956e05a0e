"""isl ASTs to plan loops, and AST scans of element sets (aggregation initialisation).

`plaidc.analysis.loops.loop_ast` gives a block's loop nest with exact bounds; `convert` turns such
an AST into plan statements, resolving isl identifiers (loop iterators and `x@d` parameters) to
plan variables and calling back for each leaf. `scan` builds the AST that visits every point of
an arbitrary bounded set once (e.g. the elements an aggregating block writes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import islpy as isl

from plaidc.analysis import ast_children
from plaidc.backends.loopnest.plan import (
    IBin,
    ICmp,
    IConst,
    If,
    ILogic,
    IntExpr,
    ISelect,
    LetInt,
    Loop,
    Stmt,
    iadd,
)
from plaidc.diagnostics import InternalError

Resolve = Callable[[str], IntExpr]
Leaf = Callable[[list[IntExpr]], list[Stmt]]

_OP = isl.ast_expr_op_type
# islpy names the members that are Python keywords `and_`, `or_`, `if_`, `for_`; its type
# stubs omit them.
_AND = _OP.__members__["and_"]
_OR = _OP.__members__["or_"]
_IF = isl.ast_node_type.__members__["if_"]
_FOR = isl.ast_node_type.__members__["for_"]
_BINARY = {
    _OP.add: "+",
    _OP.sub: "-",
    _OP.mul: "*",
    _OP.min: "min",
    _OP.max: "max",
    _OP.fdiv_q: "fdiv",
    _OP.pdiv_q: "pdiv",
    _OP.div: "pdiv",
    _OP.pdiv_r: "rem",
    _OP.zdiv_r: "rem",
}
_COMPARE = {_OP.eq: "==", _OP.le: "<=", _OP.lt: "<", _OP.ge: ">=", _OP.gt: ">"}
_LOGIC = {_AND: "and", _OP.and_then: "and", _OR: "or", _OP.or_else: "or"}


def int_expr(expr: isl.AstExpr, resolve: Resolve) -> IntExpr:
    """An isl AST expression as a plan integer expression."""
    kind = expr.get_type()
    if kind == isl.ast_expr_type.int:
        return IConst(int(expr.get_val().to_python()))
    if kind == isl.ast_expr_type.id:
        return resolve(expr.get_id().get_name())
    op = _OP(expr.get_op_type())
    args = [int_expr(expr.get_op_arg(i), resolve) for i in range(expr.get_op_n_arg())]
    if op == _OP.minus:
        return IBin("-", IConst(0), args[0])
    if op in _BINARY:
        out = IBin(_BINARY[op], args[0], args[1])
        for extra in args[2:]:  # min/max may take more than two arguments
            out = IBin(_BINARY[op], out, extra)
        return out
    if op in _COMPARE:
        return ICmp(_COMPARE[op], args[0], args[1])
    if op in _LOGIC:
        return ILogic(_LOGIC[op], args[0], args[1])
    if op in (_OP.select, _OP.cond):
        return ISelect(args[0], args[1], args[2])
    raise InternalError(f"unexpected isl AST operation {op}")


def _upper_bounds(cond: isl.AstExpr, iterator: str, resolve: Resolve) -> list[IntExpr]:
    """Exclusive upper bounds of `iterator` from a loop condition (a conjunction of
    comparisons with the iterator)."""
    op = _OP(cond.get_op_type())
    if op in (_AND, _OP.and_then):
        return [b for i in range(2) for b in _upper_bounds(cond.get_op_arg(i), iterator, resolve)]
    lhs, rhs = cond.get_op_arg(0), cond.get_op_arg(1)

    def is_iter(e: isl.AstExpr) -> bool:
        return e.get_type() == isl.ast_expr_type.id and e.get_id().get_name() == iterator

    if op in (_OP.le, _OP.lt) and is_iter(lhs):
        bound = int_expr(rhs, resolve)
        return [iadd(bound, IConst(1)) if op == _OP.le else bound]
    if op in (_OP.ge, _OP.gt) and is_iter(rhs):
        bound = int_expr(lhs, resolve)
        return [iadd(bound, IConst(1)) if op == _OP.ge else bound]
    raise InternalError(f"unexpected isl loop condition {cond.to_C_str()}")


def convert(node: isl.AstNode, resolve: Resolve, leaf: Leaf) -> list[Stmt]:
    """Plan statements executing `node`; `leaf` receives the call arguments of each leaf."""
    kind = isl.ast_node_type(node.get_type())
    if kind == isl.ast_node_type.block:
        return [s for child in ast_children(node) for s in convert(child, resolve, leaf)]
    if kind == isl.ast_node_type.mark:
        return convert(node.mark_get_node(), resolve, leaf)
    if kind == isl.ast_node_type.user:
        call = node.user_get_expr()
        args = [int_expr(call.get_op_arg(i), resolve) for i in range(1, call.get_op_n_arg())]
        return leaf(args)
    if kind == _IF:
        cond = int_expr(node.if_get_cond(), resolve)
        then = tuple(convert(node.if_get_then_node(), resolve, leaf))
        orelse = (
            tuple(convert(node.if_get_else_node(), resolve, leaf))
            if node.if_has_else_node()
            else ()
        )
        return [If(cond, then, orelse)]
    if kind == _FOR:
        iterator = node.for_get_iterator().get_id().get_name()
        var = resolve(iterator)
        name = getattr(var, "name", iterator)
        lo = int_expr(node.for_get_init(), resolve)
        body = convert(node.for_get_body(), resolve, leaf)
        if node.for_is_degenerate():
            return [LetInt(name, lo), *body]
        inc = node.for_get_inc()
        if inc.get_type() != isl.ast_expr_type.int:
            raise InternalError("isl generated a loop with a non-constant step")
        bounds = _upper_bounds(node.for_get_cond(), iterator, resolve)
        hi = bounds[0]
        for extra in bounds[1:]:
            hi = IBin("min", hi, extra)
        step = int(inc.get_val().to_python())
        return [Loop(name, lo, hi, tuple(body), step=step)]
    raise InternalError(f"unexpected isl AST node {kind}")


def scan(elements: isl.Set, context: isl.Set, iterators: Sequence[str]) -> isl.AstNode:
    """An AST visiting every point of `elements` once, in lexicographic order; loop iterators
    are named `iterators` (one per set dimension), parameters keep their names. `context`
    (a parameter set) tells isl what holds for the parameters."""
    ctx = elements.get_ctx()
    space = elements.get_space()
    ndims = space.dim(isl.dim_type.set)
    nparams = space.dim(isl.dim_type.param)
    target = isl.Space.set_alloc(ctx, nparams, ndims)
    for pos in range(nparams):
        target = target.set_dim_name(
            isl.dim_type.param, pos, space.get_dim_name(isl.dim_type.param, pos) or ""
        )
    ls = isl.LocalSpace.from_space(space)
    affs = isl.AffList.alloc(ctx, ndims)
    for pos in range(ndims):
        affs = affs.add(isl.Aff.var_on_domain(ls, isl.dim_type.set, pos))
    mspace = isl.Space.map_from_domain_and_range(space, target)
    schedule = isl.Map.from_multi_aff(isl.MultiAff.from_aff_list(mspace, affs))
    schedule = schedule.intersect_domain(elements)
    build = isl.AstBuild.from_context(context)
    ids = isl.IdList.alloc(ctx, ndims)
    for name in iterators:
        ids = ids.add(isl.Id(name, None, context=ctx))
    build = build.set_iterators(ids)
    return build.node_from_schedule_map(isl.UnionMap.from_map(schedule))
