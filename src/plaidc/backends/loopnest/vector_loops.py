"""Loops computing fp32 `exp`, written with the plan's vector types so the vector exp inlines.

gcc vectorises a loop that calls plaidc's polynomial exp through the function's SIMD clone
(the x86-64 vector function ABI, `_ZGVeN16v_plaidc_exp_f32`): one out-of-line call per vector,
around which the loop's live vector registers (softmax's sum accumulator, the broadcast row
max) go to the stack, since that ABI preserves no vector register. Compilers never inline a
SIMD clone. Written with vector types instead, the loop calls the backend's vector exp by name
and the compiler inlines it. A backend that inlines its exp in its own vectoriser (LLVM) does
not ask for this.

A vectorisable loop (`Loop.vector`, step 1, constant bounds, a body of bindings, stores and
reductions) with `L` lanes and at least `L` iterations becomes:

* the main loop over `[lo, lo + (hi - lo) // L * L)` with step `L`, its body on vectors of `L`
  lanes: a load whose offset moves with the loop variable by 1 is a vector load, by 0 (a
  loop-invariant value, like a variable from outside) a broadcast; a store moving by 1 is a
  vector store; an `add`/`mul` reduction accumulates in a vector of `L` partial results;
* the lanes of each vector accumulator combined into the scalar accumulator, in lane order,
  through an `L`-element buffer;
* the original loop over the remaining iterations (fewer than `L`).

It applies only where every operation has the same meaning on vectors as on scalars, lane by
lane: fp32 `add`, `sub`, `mul`, `div`, `neg`, `exp` and loads, stores and broadcasts; anything else
(a comparison, a select, a max, a gather, an offset that steps by more than one element, a
store that does not move with the loop, a reduction other than a sum or product) leaves the
loop to the compiler's vectoriser. The values computed per element are the same operations on
the same operands; only a sum's or product's order of accumulation changes (L partial results
instead of the compiler's own split), as the reduction's declared associativity allows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from plaidc.backends.loopnest.plan import (
    Alloc,
    AssignVar,
    DeclVar,
    IBin,
    IConst,
    If,
    IntExpr,
    IVar,
    LetInt,
    LetScalar,
    Loop,
    Reduction,
    SBinary,
    ScalarType,
    SCast,
    SConst,
    SExpr,
    SLoad,
    Stmt,
    Store,
    SUnary,
    SVar,
    int_scalars,
    int_vars,
    walk_stmts,
)
from plaidc.backends.loopnest.scalars import identity
from plaidc.backends.loopnest.simplify import affine_form
from plaidc.stripe.ir import DType

_DTYPE = DType.FP32
_UNARY = ("exp", "neg")
_BINARY = ("add", "sub", "mul", "div")
_REDUCTIONS = ("add", "mul")


class _NotVectorisable(Exception):
    """The loop has something the vector form does not express."""


def vectorise_exp_loops(stmts: list[Stmt], lanes: int, fresh: Callable[[str], str]) -> list[Stmt]:
    """`stmts` with each vector loop that computes an fp32 exp (at the top or in the branches
    of an `If`, as `divide_by_reciprocal` versions them) in its explicit vector form."""
    out: list[Stmt] = []
    for stmt in stmts:
        if isinstance(stmt, Loop):
            out += explicit_vector_loop(stmt, lanes, fresh)
        elif isinstance(stmt, If):
            then = tuple(vectorise_exp_loops(list(stmt.then), lanes, fresh))
            orelse = tuple(vectorise_exp_loops(list(stmt.orelse), lanes, fresh))
            out.append(If(stmt.cond, then, orelse))
        else:
            out.append(stmt)
    return out


def explicit_vector_loop(loop: Loop, lanes: int, fresh: Callable[[str], str]) -> list[Stmt]:
    """`loop` as a main loop on `lanes`-lane vectors, the combination of its vector
    accumulators and the remainder loop (module docstring); `[loop]` where that does not
    apply."""
    if lanes < 2 or not loop.vector or loop.parallel or loop.step != 1:
        return [loop]
    if not (isinstance(loop.lo, IConst) and isinstance(loop.hi, IConst)):
        return [loop]
    if not _computes_exp(loop):
        return [loop]
    lo, trip = loop.lo.value, loop.hi.value - loop.lo.value
    end = lo + trip // lanes * lanes
    if end == lo:
        return [loop]
    try:
        vector = _Vectoriser(loop, lanes, fresh)
        body = vector.body()
    except _NotVectorisable:
        return [loop]
    main = Loop(loop.var, IConst(lo), IConst(end), tuple(body), step=lanes)
    rest = [replace(loop, lo=IConst(end))] if end < loop.hi.value else []
    return [*vector.decls, main, *vector.combines(), *rest]


def _computes_exp(loop: Loop) -> bool:
    def has_exp(e: SExpr) -> bool:
        if isinstance(e, SUnary):
            return (e.op == "exp" and e.type.dtype is _DTYPE) or has_exp(e.arg)
        if isinstance(e, (SBinary,)):
            return has_exp(e.a) or has_exp(e.b)
        if isinstance(e, SCast):
            return has_exp(e.arg)
        return False

    for s in walk_stmts(loop.body):
        if isinstance(s, (LetScalar, AssignVar, Store)) and has_exp(s.value):
            return True
    return False


class _Vectoriser:
    """The vector form of one loop's body; raises `_NotVectorisable` where there is none."""

    def __init__(self, loop: Loop, lanes: int, fresh: Callable[[str], str]) -> None:
        self.loop = loop
        self.lanes = lanes
        self.fresh = fresh
        self.vtype = ScalarType(_DTYPE, lanes)
        self.ints: dict[str, IntExpr] = {}  # the body's integer bindings, substituted
        self.vectors: dict[str, str] = {}  # a varying scalar binding -> its vector's name
        self.accumulators: dict[str, tuple[str, Reduction]] = {}
        self.decls: list[Stmt] = []
        for r in loop.reductions:
            if r.op not in _REDUCTIONS or r.type != ScalarType(_DTYPE):
                raise _NotVectorisable
            acc = fresh(f"{r.var}_v")
            self.accumulators[r.var] = (acc, r)
            init = SCast(identity(r.op, _DTYPE), self.vtype)
            self.decls.append(DeclVar(acc, self.vtype, init))

    # ---- statements ---------------------------------------------------------------------

    def body(self) -> list[Stmt]:
        out: list[Stmt] = []
        for s in self.loop.body:
            if isinstance(s, LetInt):
                self.ints[s.name] = self._substitute(s.value)
            elif isinstance(s, LetScalar):
                if self._varies(s.value):
                    name = self.fresh(f"{s.name}_v")
                    self.vectors[s.name] = name
                    out.append(LetScalar(name, self._vector(s.value)))
                else:
                    out.append(LetScalar(s.name, self._invariant(s.value)))
            elif isinstance(s, Store):
                offset = self._substitute(s.offset)
                if s.agg is not None or self._step(offset) != 1:
                    raise _NotVectorisable
                if s.value.type != ScalarType(_DTYPE):
                    raise _NotVectorisable
                out.append(Store(s.buffer, offset, self._vector(s.value)))
            elif isinstance(s, AssignVar):
                out.append(self._accumulate(s))
            else:
                raise _NotVectorisable
        return out

    def _accumulate(self, s: AssignVar) -> Stmt:
        if s.name not in self.accumulators:
            raise _NotVectorisable
        acc, r = self.accumulators[s.name]
        value = s.value
        if not isinstance(value, SBinary) or value.op != r.op or value.a != SVar(s.name, r.type):
            raise _NotVectorisable
        if s.name in _scalar_names(value.b):
            raise _NotVectorisable
        term = self._vector(value.b)
        return AssignVar(acc, SBinary(r.op, SVar(acc, self.vtype), term, self.vtype))

    def combines(self) -> list[Stmt]:
        """Each vector accumulator's lanes added (multiplied) into its scalar accumulator."""
        out: list[Stmt] = []
        for name, (acc, r) in self.accumulators.items():
            lanes = self.fresh(f"{name}_lanes")
            lane = self.fresh("lane")
            fold = AssignVar(
                name,
                SBinary(r.op, SVar(name, r.type), SLoad(lanes, IVar(lane), r.type), r.type),
            )
            body = (
                Store(lanes, IConst(0), SVar(acc, self.vtype)),
                Loop(lane, IConst(0), IConst(self.lanes), (fold,)),
            )
            out.append(Alloc(lanes, _DTYPE, self.lanes, body))
        return out

    # ---- expressions --------------------------------------------------------------------

    def _substitute(self, e: IntExpr) -> IntExpr:
        """`e` with the body's integer bindings replaced by their values."""
        if isinstance(e, IVar) and e.name in self.ints:
            return self.ints[e.name]
        if isinstance(e, IBin):
            return IBin(e.op, self._substitute(e.a), self._substitute(e.b))
        if any(name in self.ints for name in int_vars(e)):
            raise _NotVectorisable
        return e

    def _step(self, offset: IntExpr) -> int:
        """How far `offset` moves when the loop variable grows by one."""
        if self.loop.var not in set(int_vars(offset)):
            return 0
        if list(int_scalars(offset)):
            raise _NotVectorisable
        form = affine_form(offset)
        if form is None:
            raise _NotVectorisable
        return dict(form.terms).get(self.loop.var, 0)

    def _varies(self, e: SExpr) -> bool:
        if isinstance(e, SVar):
            return e.name in self.vectors
        if isinstance(e, SLoad):
            return self._step(self._substitute(e.offset)) != 0
        if isinstance(e, (SUnary, SCast)):
            return self._varies(e.arg)
        if isinstance(e, SBinary):
            return self._varies(e.a) or self._varies(e.b)
        if isinstance(e, SConst):
            return False
        raise _NotVectorisable

    def _invariant(self, e: SExpr) -> SExpr:
        """A loop-invariant scalar expression, its loads' offsets substituted."""
        if isinstance(e, SLoad):
            return SLoad(e.buffer, self._substitute(e.offset), e.type)
        if isinstance(e, SVar) and e.name in self.accumulators:
            raise _NotVectorisable
        if isinstance(e, (SUnary, SCast)):
            return replace(e, arg=self._invariant(e.arg))
        if isinstance(e, SBinary):
            return SBinary(e.op, self._invariant(e.a), self._invariant(e.b), e.type)
        if isinstance(e, (SVar, SConst)):
            return e
        raise _NotVectorisable

    def _vector(self, e: SExpr) -> SExpr:
        """`e` on `lanes` consecutive iterations at once."""
        if e.type != ScalarType(_DTYPE):
            raise _NotVectorisable
        if not self._varies(e):
            return SCast(self._invariant(e), self.vtype)
        if isinstance(e, SVar):
            return SVar(self.vectors[e.name], self.vtype)
        if isinstance(e, SLoad):
            offset = self._substitute(e.offset)
            if self._step(offset) != 1:
                raise _NotVectorisable
            return SLoad(e.buffer, offset, self.vtype)
        if isinstance(e, SUnary) and e.op in _UNARY:
            return SUnary(e.op, self._vector(e.arg), self.vtype)
        if isinstance(e, SBinary) and e.op in _BINARY:
            return SBinary(e.op, self._vector(e.a), self._vector(e.b), self.vtype)
        raise _NotVectorisable


def _scalar_names(e: SExpr) -> set[str]:
    if isinstance(e, SVar):
        return {e.name}
    if isinstance(e, (SUnary, SCast)):
        return _scalar_names(e.arg)
    if isinstance(e, SBinary):
        return _scalar_names(e.a) | _scalar_names(e.b)
    return set()


__all__ = ["explicit_vector_loop", "vectorise_exp_loops"]
