"""One plan function for kernels that are the same code under other names.

A program that repeats a layer (an MLP's three `relu(X @ W + B)` of one shape, a ResNet's
blocks) lowers to one kernel function per layer, identical but for the names of their buffers
and locals (`H1`/`W1`/`B1`, `H2`/`W2`/`B2`) and their comments. The C compiler and LLVM then
optimise and generate each copy: for the MLP 3x1024, 60% of LLVM's time went to the two
copies. `merge_identical_functions` keeps the first of each set of functions equal up to a
consistent renaming of their parameters and locals (comments aside) and calls it instead of
the others; the arguments of each call are those of the function it replaces, in the same
order, so the calls compute what they did.

Two functions are merged only when one is the other with every name it binds (parameters,
loop variables, lets, declared variables, allocations, clocks) renamed one-to-one, in every
field that names one, with the same operations, constants, types, flags and free names: they
are the same code. The entry function is never merged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from dataclasses import replace
from typing import Any

from plaidc.backends.loopnest.plan import (
    Alloc,
    AssignVar,
    BufferArg,
    BufferParam,
    Call,
    Clock,
    Comment,
    DeclVar,
    Function,
    IAlignGap,
    If,
    IntParam,
    IScalar,
    IVar,
    LetInt,
    LetScalar,
    Loop,
    Plan,
    Prefetch,
    Reduction,
    SLoad,
    Stmt,
    Store,
    SVar,
    walk_stmts,
)

# The fields of plan nodes that hold a name of the function's (a buffer, variable or clock);
# every other string field is an operation or a callee.
_NAME_FIELDS: dict[type, frozenset[str]] = {
    IVar: frozenset({"name"}),
    IScalar: frozenset({"name"}),
    IAlignGap: frozenset({"buffer"}),
    SVar: frozenset({"name"}),
    SLoad: frozenset({"buffer"}),
    Store: frozenset({"buffer"}),
    Prefetch: frozenset({"buffer"}),
    LetInt: frozenset({"name"}),
    LetScalar: frozenset({"name"}),
    DeclVar: frozenset({"name"}),
    AssignVar: frozenset({"name"}),
    Clock: frozenset({"name"}),
    Loop: frozenset({"var"}),
    Reduction: frozenset({"var"}),
    Alloc: frozenset({"buffer"}),
    BufferArg: frozenset({"buffer"}),
    BufferParam: frozenset({"name"}),
    IntParam: frozenset({"name"}),
}
_KINDS: dict[type, tuple[str, tuple[tuple[str, bool], ...]]] = {}


def merge_identical_functions(plan: Plan) -> Plan:
    """`plan` with each set of identical functions (up to renaming) made one: calls of the
    others call the first. Repeated while merging makes callers identical."""
    # each function's canonical form, by identity (the function kept alive with it): a
    # function no call of which was redirected is the same object in the next round
    known: dict[int, tuple[Function, Hashable]] = {}
    while True:
        first: dict[Hashable, str] = {}
        alias: dict[str, str] = {}
        for function in plan.functions:
            if function.name == plan.entry:
                continue
            if id(function) not in known:
                known[id(function)] = (function, canonical(function))
            alias_of = first.setdefault(known[id(function)][1], function.name)
            if alias_of != function.name:
                alias[function.name] = alias_of
        if not alias:
            return plan
        functions = tuple(_redirected(f, alias) for f in plan.functions if f.name not in alias)
        plan = replace(plan, functions=functions)


def _redirected(function: Function, alias: dict[str, str]) -> Function:
    body = _redirect(function.body, alias)
    return function if body is function.body else replace(function, body=body)


def canonical(function: Function) -> Hashable:
    """The function with the names it binds numbered in order of appearance and comments
    dropped: equal for two functions iff one is the other renamed (its name aside)."""
    bound = {p.name for p in function.params}
    for stmt in walk_stmts(function.body):
        if isinstance(stmt, (LetInt, LetScalar, DeclVar, Clock)):
            bound.add(stmt.name)
        elif isinstance(stmt, Loop):
            bound.add(stmt.var)
            bound.update(r.var for r in stmt.reductions)
        elif isinstance(stmt, Alloc):
            bound.add(stmt.buffer)
    numbers: dict[str, int] = {}

    def name(text: str) -> Hashable:
        # a tuple never equals a string: a bound name never matches a free one
        return ("bound", numbers.setdefault(text, len(numbers))) if text in bound else text

    def canon(value: Any) -> Hashable:
        kind, fields = _kind(type(value))
        if kind is _TUPLE:
            return tuple(canon(v) for v in value)
        if kind is _COMMENT:
            return ("Comment",)
        if kind is _NUMBER:  # 0 == False == -0.0 as Python values
            return (type(value).__name__, repr(value))
        if kind is _OTHER:
            return value
        parts: list[Hashable] = [type(value).__name__]
        for f, is_name in fields:
            v = getattr(value, f)
            parts.append(name(v) if is_name else canon(v))
        return tuple(parts)

    return (canon(function.params), canon(function.body), function.inline, function.contract)


# How `canonical` treats a value of a class (decided once per class: `canon` runs on every node
# of every function, ResNet-50's 115 of them ~140,000 nodes): a tuple, a comment, a number, a
# plan node (a dataclass: its fields, each with whether it holds a bound name) or anything else.
_TUPLE, _COMMENT, _NUMBER, _NODE, _OTHER = "tuple", "comment", "number", "node", "other"


def _kind(cls: type) -> tuple[str, tuple[tuple[str, bool], ...]]:
    if cls not in _KINDS:
        fields: tuple[tuple[str, bool], ...] = ()
        if issubclass(cls, tuple):
            kind = _TUPLE
        elif issubclass(cls, Comment):
            kind = _COMMENT
        elif issubclass(cls, (bool, int, float)):
            kind = _NUMBER
        elif dataclasses.is_dataclass(cls):
            kind = _NODE
            names = _NAME_FIELDS.get(cls, frozenset())
            fields = tuple((f.name, f.name in names) for f in dataclasses.fields(cls))
        else:
            kind = _OTHER
        _KINDS[cls] = (kind, fields)
    return _KINDS[cls]


def _redirect(body: tuple[Stmt, ...], alias: dict[str, str]) -> tuple[Stmt, ...]:
    """`body` with the calls of `alias`'s functions redirected (`body` itself if none)."""
    out: list[Stmt] = []
    for stmt in body:
        if isinstance(stmt, Call) and stmt.function in alias:
            stmt = replace(stmt, function=alias[stmt.function])
        elif isinstance(stmt, (Loop, Alloc)):
            inner = _redirect(stmt.body, alias)
            stmt = stmt if inner is stmt.body else replace(stmt, body=inner)
        elif isinstance(stmt, If):
            then, orelse = _redirect(stmt.then, alias), _redirect(stmt.orelse, alias)
            if then is not stmt.then or orelse is not stmt.orelse:
                stmt = replace(stmt, then=then, orelse=orelse)
        out.append(stmt)
    return body if all(a is b for a, b in zip(out, body, strict=True)) else tuple(out)
