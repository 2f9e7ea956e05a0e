"""Loops in the CCE-like C: tiles and K steps as `for` loops, not one copy per iteration.

The code generators lower one iteration of a loop (a tile, a K step) at a time into pipe
operations with concrete addresses, between `LoopMark`s that say which iteration of which loop
the operations belong to, the buffer halves of an iteration chosen from its index (double
buffering). A long loop is *sampled*: only its first `HEAD` iterations and a tail of `TAIL` or
`TAIL + 1` are lowered (`sample`), the tail starting on the parity the head ends with, so the
sampled program is itself a program of the same shape (every buffer half, flag and hazard
alternates as in the whole loop). Sync insertion runs on that program, unchanged.

`roll` then prints each loop as one `for` over the iteration index `i`. Its body is fitted on
the middle iterations (from `HEAD - 2` on, once the flags' event ids have settled, to the last
two): they must be the same statements up to their integer literals (addresses, event ids,
burst counts), and each literal must be `a + b*i + c*(i & 1)` (`i & 1`: the buffer parity),
checked on every middle iteration lowered. The first and last iterations join the loop when
their statements are the body's with some left out (no predecessor to wait for, no successor
to signal): those statements are guarded (`if (i_0 >= 1)`), and literals that differ there
become exceptions (`i_0 == 0 ? 3 : ...`); any that cannot join are printed before or after the
loop (peeled). Where the middle iterations are not alike, they are printed one after another
when all were lowered, and otherwise `NotRollable` asks the caller to lower the program with
every iteration. Loops nest: an inner loop is rolled first, and its bounds and coefficients
are literals of the outer loop's iterations. Finally `roll_runs` makes runs of alike
statements inside an operation (fractal loads, strip copies) loops as well.

The loops only repeat the statements the generators produced for each iteration, so the
simulator executes exactly the instructions of the unrolled program: it still checks every
access, flag and hazard of every iteration, and the cycles are the same.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from plaidc.backends.c import ast as c
from plaidc.stripe.ir import Affine

HEAD = 6  # iterations lowered at the start of a sampled loop
TAIL = 4  # ... and at its end (one more when needed to keep the parity)
PEEL = 2  # iterations printed after the `for` (and at least as many before it)


@dataclass(frozen=True)
class LoopMark:
    """Begins iteration `index` of loop `loop` (of `count` iterations), or ends the loop
    (`index` == -1)."""

    loop: int
    index: int
    count: int
    cores: bool = False  # iteration k runs on core k (block_idx) only


class NotRollable(Exception):
    """A sampled loop's iterations are not alike: it must be lowered in full."""


def sample(count: int, sampled: bool) -> list[int]:
    """The iterations of a loop of `count` to lower: all, or (`sampled`, a long loop) the
    first HEAD and a tail that starts on the parity after the head's last."""
    if not sampled or count <= HEAD + TAIL + 2:
        return list(range(count))
    start = count - TAIL if (count - TAIL) % 2 == HEAD % 2 else count - TAIL - 1
    return list(range(HEAD)) + list(range(start, count))


def steady(boxes: Sequence[dict[str, tuple[int, int]]], forms: Sequence[Affine] = ()) -> bool:
    """Whether a loop over these tiles (index -> (start, extent)) may be sampled: its middle
    tiles (all but `PEEL` at each end) have one shape, and `forms` (the kernel's accesses and
    constraints; none: the starts themselves) at their starts are affine in the loop index, so
    that their addresses are. (A loop over the K steps of a conv's kernel rows and channels is
    not: lowered in full, it rolls only where alike.)"""
    middle = boxes[PEEL : len(boxes) - PEEL]
    if len(middle) < 2:
        return True
    first = middle[0]
    if any(box.keys() != first.keys() for box in middle):
        return False
    if any(box[v][1] != first[v][1] for box in middle for v in first):
        return False

    def values(box: dict[str, tuple[int, int]]) -> list[int]:
        if not forms:
            return [start for start, _ in box.values()]
        return [
            form.const + sum(k * box[v][0] for v, k in form.terms if v in box) for form in forms
        ]

    rows = [values(box) for box in middle]
    steps = [b - a for a, b in zip(rows[0], rows[1], strict=True)]
    return all(
        row == [a + t * d for a, d in zip(rows[0], steps, strict=True)]
        for t, row in enumerate(rows)
    )


# --------------------------------------------------------------------------------------------
# Integer leaves of a statement: holes in its skeleton


@dataclass(frozen=True, eq=False)  # one per kind (`_HOLES`): compared by identity
class _Hole:
    kind: str  # "int", "hex", "event" (an EVENT_IDn), "comment"


_INT = re.compile(r"\d+|0x[0-9a-fA-F]+")
_EVENT = re.compile(r"EVENT_ID(\d+)")


def _leaf(node: Any) -> tuple[str, Any] | None:
    kind = type(node)
    if kind is not c.Literal and kind is not c.Unary and kind is not c.Ident:
        return ("comment", node.text) if kind is c.Comment else None
    if isinstance(node, c.Literal) and _INT.fullmatch(node.text):
        return ("hex" if node.text.startswith("0x") else "int"), int(node.text, 0)
    if (
        isinstance(node, c.Unary)
        and node.op == "-"
        and isinstance(node.operand, c.Literal)
        and _INT.fullmatch(node.operand.text)
    ):
        return "int", -int(node.operand.text, 0)
    if isinstance(node, c.Ident) and (event := _EVENT.fullmatch(node.name)):
        return "event", int(event.group(1))
    return None


def _map(node: Any, fn: Callable[[Any], Any]) -> Any:
    """`node` with `fn` applied to every sub-node (children first, then the node)."""
    kind = type(node)
    if kind is tuple:
        return tuple(_map(n, fn) for n in node)
    if kind is c.ExprStmt:
        return fn(c.ExprStmt(_map(node.expr, fn)))
    if kind is c.CallExpr:
        return fn(c.CallExpr(node.func, tuple(_map(a, fn) for a in node.args)))
    if kind is c.Binary:
        return fn(c.Binary(node.op, _map(node.left, fn), _map(node.right, fn)))
    if kind is c.Cast:
        return fn(c.Cast(node.type, _map(node.operand, fn)))
    if kind is c.Unary:  # a negative literal is one leaf
        operand = node.operand if type(node.operand) is c.Literal else _map(node.operand, fn)
        return fn(c.Unary(node.op, operand))
    if kind in (c.Literal, c.Ident, c.Comment, _Hole, str, int) or node is None:
        return fn(node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {}
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            if isinstance(value, tuple) or dataclasses.is_dataclass(value):
                changes[f.name] = _map(value, fn)
        node = dataclasses.replace(node, **changes) if changes else node
    return fn(node)


_HOLES = {kind: _Hole(kind) for kind in ("int", "hex", "event", "comment")}


class _Memo:
    """Skeletons computed once per `build`: a statement lowered in an inner loop, and a
    rolled loop, are met again by each loop around them (a peeled iteration's statements,
    the `for` itself), and a body's statements are the same objects in every instance.
    Keyed by `id`, the node kept alongside so that a reused id is never mistaken."""

    def __init__(self) -> None:
        # id(statement or loop) -> (it, its skeleton, its values)
        self.shapes: dict[int, tuple[Any, Any, list[Any]]] = {}
        # id(skeleton) -> (it, the kinds of its holes)
        self.kinds: dict[int, tuple[Any, list[str]]] = {}
        # one object per distinct statement skeleton: alike statements compare (and find
        # their hole kinds) by identity
        self.interned: dict[Any, Any] = {}

    def shape(self, stmt: c.Stmt) -> tuple[Any, list[Any]]:
        """`stmt`'s skeleton and values (not to be modified: they are shared)."""
        known = self.shapes.get(id(stmt))
        if known is None or known[0] is not stmt:
            values: list[Any] = []
            skel = _skeleton(stmt, values, self)
            with contextlib.suppress(TypeError):  # an unhashable node: kept as it is
                skel = self.interned.setdefault(skel, skel)
            known = (stmt, skel, values)
            self.shapes[id(stmt)] = known
        return known[1], known[2]

    def kinds_of(self, skel: Any) -> list[str]:
        known = self.kinds.get(id(skel))
        if known is None or known[0] is not skel:
            known = (skel, _kinds(skel))
            self.kinds[id(skel)] = known
        return known[1]


def skeleton(
    stmts: tuple[c.Stmt, ...], memo: _Memo | None = None
) -> tuple[tuple[Any, ...], list[Any]]:
    """The statements' shape (nested tuples: what must be equal for two statements to be one
    statement of a loop) with holes for their integer literals and comments, and the values
    in the holes, in order (the order `_refill` puts values back in)."""
    values: list[Any] = []
    return tuple(_skeleton(s, values, memo) for s in stmts), values


def _skeleton(node: Any, values: list[Any], memo: _Memo | None = None) -> Any:
    """`_leaf` applied top-down, spelled out for the node types the backend prints (the
    rolling's hot path); `_map` for the others."""
    kind = type(node)
    if kind is c.Literal:
        text = node.text
        if text.isdigit():
            values.append(int(text))
            return _HOLES["int"]
        if _INT.fullmatch(text):
            values.append(int(text, 16))
            return _HOLES["hex"]
        return ("L", text)
    if kind is c.Ident:
        if node.name.startswith("EVENT_ID") and node.name[8:].isdigit():
            values.append(int(node.name[8:]))
            return _HOLES["event"]
        return ("I", node.name)
    if kind is c.Binary:
        return (
            "B",
            node.op,
            _skeleton(node.left, values, memo),
            _skeleton(node.right, values, memo),
        )
    if kind is c.CallExpr:
        return ("C", node.func, *(_skeleton(a, values, memo) for a in node.args))
    if kind is c.ExprStmt:
        return ("E", _skeleton(node.expr, values, memo))
    if kind is c.Cast:
        return ("T", node.type, _skeleton(node.operand, values, memo))
    if kind is c.Unary:
        leaf = _leaf(node)
        if leaf is not None:
            values.append(leaf[1])
            return _HOLES[leaf[0]]
        return ("U", node.op, _skeleton(node.operand, values, memo))
    if kind is c.Ternary:
        parts = (node.cond, node.then, node.orelse)
        return ("?", *(_skeleton(e, values, memo) for e in parts))
    if kind is c.For:
        known = memo.shapes.get(id(node)) if memo is not None else None
        if known is None or known[0] is not node:
            mine: list[Any] = []
            init, limit = _skeleton(node.init, mine, memo), _skeleton(node.limit, mine, memo)
            body = tuple(_skeleton(s, mine, memo) for s in node.body)
            shape = ("F", node.var, init, limit, body, node.step, node.type, node.pragmas)
            known = (node, shape, mine)
            if memo is not None:
                memo.shapes[id(node)] = known
        values.extend(known[2])
        return known[1]
    if kind is c.If:
        cond = _skeleton(node.cond, values, memo)
        then = tuple(_skeleton(s, values, memo) for s in node.then)
        orelse = tuple(_skeleton(s, values, memo) for s in node.orelse)
        return ("If", cond, then, orelse)
    if kind is c.Comment:
        values.append(node.text)
        return _HOLES["comment"]

    def hole(leaf_node: Any) -> Any:
        leaf = _leaf(leaf_node)
        if leaf is None:
            return leaf_node
        values.append(leaf[1])
        return _HOLES[leaf[0]]

    return ("X", _map(node, hole))


def _refill(node: Any, fill: Callable[[], Any]) -> Any:
    """`node` with the values of its holes (in `_skeleton`'s order) taken from `fill`: a C
    expression, or for a comment a Comment or None (dropped)."""
    kind = type(node)
    if kind is c.Literal:
        return fill() if _INT.fullmatch(node.text) else node
    if kind is c.Ident:
        is_event = node.name.startswith("EVENT_ID") and node.name[8:].isdigit()
        return fill() if is_event else node
    if kind is c.Binary:
        return c.Binary(node.op, _refill(node.left, fill), _refill(node.right, fill))
    if kind is c.CallExpr:
        return c.CallExpr(node.func, tuple(_refill(a, fill) for a in node.args))
    if kind is c.ExprStmt:
        return c.ExprStmt(_refill(node.expr, fill))
    if kind is c.Cast:
        return c.Cast(node.type, _refill(node.operand, fill))
    if kind is c.Unary:
        if _leaf(node) is not None:
            return fill()
        return c.Unary(node.op, _refill(node.operand, fill))
    if kind is c.Ternary:
        cond = _refill(node.cond, fill)
        return c.Ternary(cond, _refill(node.then, fill), _refill(node.orelse, fill))
    if kind is c.For:
        init, limit = _refill(node.init, fill), _refill(node.limit, fill)
        body = _kept(_refill(st, fill) for st in node.body)
        return dataclasses.replace(node, init=init, limit=limit, body=body)
    if kind is c.If:
        cond = _refill(node.cond, fill)
        then = _kept(_refill(st, fill) for st in node.then)
        return c.If(cond, then, _kept(_refill(st, fill) for st in node.orelse))
    if kind is c.Comment:
        return fill()
    return _map(node, lambda n: fill() if _leaf(n) is not None else n)


def _kept(stmts: Iterable[Any]) -> tuple[c.Stmt, ...]:
    return tuple(st for st in stmts if st is not None)


def fit(points: Sequence[tuple[int, int]]) -> tuple[int, int, int] | None:
    """`(a, b, c)` with `value == a + b*i + c*(i & 1)` at every `(i, value)`, or None (also
    when the points cannot tell: one of each parity)."""
    classes: dict[int, list[tuple[int, int]]] = {0: [], 1: []}
    for i, v in points:
        classes[i & 1].append((i, v))
    slope = None
    for cls in classes.values():
        if len(cls) >= 2:
            (i0, v0), (i1, v1) = cls[0], cls[-1]
            if (v1 - v0) % (i1 - i0):
                return None
            slope = (v1 - v0) // (i1 - i0)
            break
    if slope is None:
        return None
    b = slope
    bases: dict[int, int] = {}
    for parity, cls in classes.items():
        at = {v - b * i for i, v in cls}
        if len(at) > 1:
            return None
        if at:
            bases[parity] = at.pop()
    a = bases.get(0, bases.get(1, 0))
    return a, b, bases.get(1, a) - a


@functools.cache
def _affine(kind: str, a: int, b: int, cc: int, var: str) -> c.Expr:
    """`a + b*var + cc*(var & 1)`, in the canonical form the outer loops fit again (literals
    in fixed places); `simplify` tidies it once every loop is rolled. (The trees are
    immutable: one per formula is shared by every statement that has it.)"""
    i = c.Ident(var)
    base: c.Expr = c.Ident(f"EVENT_ID{a}") if kind == "event" else _literal(kind, a)
    terms = c.Binary("+", base, c.Binary("*", _literal("int", b), i))
    return c.Binary(
        "+", terms, c.Binary("*", _literal("int", cc), c.Binary("&", i, _literal("int", 1)))
    )


@functools.cache
def _literal(kind: str, value: int) -> c.Expr:
    if value < 0:
        return c.Unary("-", c.Literal(str(-value)))
    return c.Literal(hex(value) if kind == "hex" else str(value))


# --------------------------------------------------------------------------------------------
# Rolling


def roll(
    iterations: list[tuple[int, tuple[c.Stmt, ...]]], count: int, var: str, memo: _Memo
) -> list[c.Stmt]:
    """The statements of a loop of `count` whose lowered iterations are `(index, stmts)`:
    a `for` over `var` with guarded ends, or iterations printed one by one (see the module)."""
    complete = [i for i, _ in iterations] == list(range(count))
    by_index = dict(iterations)
    shapes = {i: _shapes(stmts, memo) for i, stmts in iterations}
    # The flags' event ids settle into their steady pattern after a few iterations: the `for`
    # is fitted from HEAD - 2 on where it can (the same for every instance of a nested loop,
    # whatever the parity it starts on), else from the first iteration the rest are alike.
    for first in range(HEAD - 2, PEEL - 1, -1):
        middle = [i for i, _ in iterations if first <= i < count - PEEL]
        if len(middle) < 3:
            continue
        body = _Body.fit(middle, [shapes[i] for i in middle], memo)
        if body is None:
            continue
        lo, hi = first, count - PEEL
        while lo > 0 and body.merge(lo - 1, shapes[lo - 1]):
            lo -= 1
        while hi < count and body.merge(hi, shapes[hi]):
            hi += 1
        out: list[c.Stmt] = [s for i in range(lo) for s in by_index[i]]
        out.append(c.Comment(f"iterations {lo}..{hi - 1} of {count}"))
        loop = c.For(var, c.Literal(str(lo)), c.Literal(str(hi)), body.statements(var, lo, hi))
        out.append(loop)
        out.extend(s for i in range(hi, count) for s in by_index[i])
        return out
    if not complete:
        raise NotRollable(f"{var}: the iterations are not alike")
    return [s for _, it in iterations for s in it]


# per statement (comments left out): its skeleton, its values, the statement
_Shape = list[tuple[Any, list[Any], c.Stmt]]


def _shapes(stmts: tuple[c.Stmt, ...], memo: _Memo) -> _Shape:
    return [(*memo.shape(stmt), stmt) for stmt in stmts if not isinstance(stmt, c.Comment)]


class _Body:
    """A loop body: the statements' skeletons, each integer leaf's `a + b*i + c*(i & 1)` and
    its exceptions (iteration -> value), and the iterations each statement is absent from."""

    def __init__(
        self,
        skels: list[Any],
        templates: list[c.Stmt],
        formulas: list[list[Any]],
        kinds: list[list[str]],
    ):
        self.skels, self.templates, self.formulas, self.kinds = skels, templates, formulas, kinds
        self.absent: list[set[int]] = [set() for _ in skels]
        self.exceptions: list[list[dict[int, Any]]] = [[{} for _ in f] for f in formulas]

    @staticmethod
    def fit(indices: list[int], shapes: list[_Shape], memo: _Memo | None = None) -> _Body | None:
        first = shapes[0]
        if any(len(s) != len(first) for s in shapes):
            return None
        formulas, kinds = [], []
        for k, (skel, _, _) in enumerate(first):
            if any(s[k][0] is not skel and s[k][0] != skel for s in shapes[1:]):
                return None
            stmt_kinds = memo.kinds_of(skel) if memo is not None else _kinds(skel)
            stmt_formulas: list[Any] = []
            for h, kind in enumerate(stmt_kinds):
                column = [s[k][1][h] for s in shapes]
                if kind == "comment":  # kept where every iteration says the same
                    stmt_formulas.append(column[0] if len(set(column)) == 1 else None)
                    continue
                coeffs = fit(list(zip(indices, column, strict=True)))
                if coeffs is None:
                    return None
                stmt_formulas.append(coeffs)
            formulas.append(stmt_formulas)
            kinds.append(stmt_kinds)
        return _Body([skel for skel, _, _ in first], [t for _, _, t in first], formulas, kinds)

    def merge(self, index: int, shape: _Shape) -> bool:
        """Make iteration `index` (lowered as `shape`) one of the loop's, when its statements
        are the body's with some left out: those are guarded off, its other values become
        exceptions. Any embedding is exact, the statements matched being alike."""
        matched: list[int] = []
        j = 0
        for skel, _, _ in shape:
            while j < len(self.skels) and self.skels[j] is not skel and self.skels[j] != skel:
                j += 1
            if j == len(self.skels):
                return False
            matched.append(j)
            j += 1
        for (_, values, _), k in zip(shape, matched, strict=True):
            for h, value in enumerate(values):
                formula = self.formulas[k][h]
                if self.kinds[k][h] == "comment":
                    if value != formula:
                        self.formulas[k][h] = None
                elif value != _value(formula, index):
                    self.exceptions[k][h][index] = value
        for k in set(range(len(self.skels))) - set(matched):
            self.absent[k].add(index)
        return True

    def statements(self, var: str, lo: int, hi: int) -> tuple[c.Stmt, ...]:
        out: list[c.Stmt] = []
        for k, template in enumerate(self.templates):
            exprs = iter(
                [
                    _leaf_expr(kind, formula, exceptions, var)
                    for kind, formula, exceptions in zip(
                        self.kinds[k], self.formulas[k], self.exceptions[k], strict=True
                    )
                ]
            )
            stmt = _refill(template, exprs.__next__)
            if stmt is None:
                continue
            guard = _guard(self.absent[k], var, lo, hi)
            if guard is None:
                out.append(stmt)
            elif out and isinstance(out[-1], c.If) and out[-1].cond == guard:
                out[-1] = c.If(guard, (*out[-1].then, stmt))
            else:
                out.append(c.If(guard, (stmt,)))
        return tuple(out)


def _value(coeffs: tuple[int, int, int], i: int) -> int:
    a, b, cc = coeffs
    return a + b * i + cc * (i & 1)


def _leaf_expr(kind: str, formula: Any, exceptions: dict[int, Any], var: str) -> Any:
    if kind == "comment":
        return None if formula is None else c.Comment(formula)
    a, b, cc = formula
    expr = _affine(kind, a, b, cc, var)
    for index, value in sorted(exceptions.items(), reverse=True):
        got = c.Ident(f"EVENT_ID{value}") if kind == "event" else _literal(kind, value)
        test = c.Binary("==", c.Ident(var), _literal("int", index))
        expr = c.Ternary(test, got, expr)
    return expr


def _guard(absent: set[int], var: str, lo: int, hi: int) -> c.Expr | None:
    """`var` outside `absent` (within [lo, hi)), as a condition; None when always."""
    if not absent:
        return None
    i = c.Ident(var)
    head = {k for k in absent if set(range(lo, k + 1)) <= absent}
    tail = {k for k in absent - head if set(range(k, hi)) <= absent}
    conds: list[c.Expr] = []
    if head:
        conds.append(c.Binary(">=", i, _literal("int", max(head) + 1)))
    if tail:
        conds.append(c.Binary("<", i, _literal("int", min(tail))))
    conds.extend(c.Binary("!=", i, _literal("int", k)) for k in sorted(absent - head - tail))
    cond = conds[0]
    for more in conds[1:]:
        cond = c.Binary("&&", cond, more)
    return cond


def _kinds(skel: Any) -> list[str]:
    """The kinds of the holes of a skeleton, in order."""
    kinds: list[str] = []

    def hole(node: Any) -> Any:
        if isinstance(node, _Hole):
            kinds.append(node.kind)
        return node

    def visit(node: Any) -> None:
        if isinstance(node, _Hole):
            kinds.append(node.kind)
        elif isinstance(node, tuple):
            for part in node:
                visit(part)
        elif dataclasses.is_dataclass(node) and not isinstance(node, type):
            _map(node, hole)

    visit(skel)
    return kinds


def build(items: Sequence[c.Stmt | LoopMark]) -> list[c.Stmt]:
    """Statements and loop marks -> statements with every marked loop rolled."""
    return _build(items, 0, _Memo())


def _build(items: Sequence[c.Stmt | LoopMark], depth: int, memo: _Memo) -> list[c.Stmt]:
    out: list[c.Stmt] = []
    pos = 0
    while pos < len(items):
        item = items[pos]
        if not isinstance(item, LoopMark):
            out.append(item)
            pos += 1
            continue
        iterations: list[tuple[int, tuple[c.Stmt, ...]]] = []
        mark = item
        pos += 1
        while mark.index >= 0:
            start = pos
            while not (isinstance(items[pos], LoopMark) and items[pos].loop == mark.loop):  # type: ignore[union-attr]
                pos += 1
            iterations.append((mark.index, tuple(_build(items[start:pos], depth + 1, memo))))
            mark = items[pos]  # type: ignore[assignment]
            pos += 1
        if item.cores:
            out.extend(roll_cores(iterations, mark.count, f"i_{depth}", memo))
        else:
            out.extend(roll(iterations, mark.count, f"i_{depth}", memo))
    return out


def roll_cores(
    iterations: list[tuple[int, tuple[c.Stmt, ...]]], count: int, var: str, memo: _Memo
) -> list[c.Stmt]:
    """A loop whose iteration k runs on core k: one body for `var = block_idx` when the
    iterations are alike (every one is lowered, so the fitted body is exact for each), else
    each iteration under `if (block_idx == k)`."""
    block = c.Ident("block_idx")
    shapes = [_shapes(stmts, memo) for _, stmts in iterations]
    body = _Body.fit([i for i, _ in iterations], shapes, memo) if count > 2 else None
    if body is None:
        return [
            c.If(c.Binary("==", block, _literal("int", i)), stmts)
            for i, stmts in iterations
            if stmts
        ]
    loop = c.For(var, block, c.Binary("+", block, c.Literal("1")), body.statements(var, 0, count))
    within = c.Binary("<", block, _literal("int", count))
    return [c.Comment(f"iteration block_idx of {count}, one per core"), c.If(within, (loop,))]


def roll_runs(stmts: tuple[c.Stmt, ...], depth: int = 0) -> tuple[c.Stmt, ...]:
    """Runs of three or more consecutive statements alike up to integer literals that are
    affine in their position (an op's fractal loads, strip copies, masked column copies)
    as `for` loops over `i_s<depth>`; inside `for` bodies too."""
    stmts = tuple(
        dataclasses.replace(s, body=roll_runs(s.body, depth + 1)) if isinstance(s, c.For) else s
        for s in stmts
    )
    out: list[c.Stmt] = []
    # Statements alike have the same kind (and call): only runs of three or more of one kind
    # are compared in full (a skeleton walks the whole statement, loops included).
    keys = [_kind_key(st) for st in stmts]
    k = 0
    while k < len(stmts):
        end = k + 1
        while end < len(stmts) and keys[end] == keys[k]:
            end += 1
        if end - k < 3:
            out.extend(stmts[k:end])
        else:
            out.extend(_roll_alike(stmts[k:end], depth))
        k = end
    return tuple(out)


def _kind_key(stmt: c.Stmt) -> tuple[type, str | None]:
    """What statements alike must share: their node type and, for a call, its function."""
    if isinstance(stmt, c.ExprStmt) and isinstance(stmt.expr, c.CallExpr):
        return type(stmt), stmt.expr.func
    return type(stmt), None


def _roll_alike(stmts: tuple[c.Stmt, ...], depth: int) -> list[c.Stmt]:
    """`roll_runs` on statements of one kind."""
    shapes = [(skel, values, st) for st in stmts for (skel,), values in [skeleton((st,))]]
    out: list[c.Stmt] = []
    k = 0
    while k < len(stmts):
        end = k + 1
        if not isinstance(stmts[k], c.Comment):
            while end < len(stmts) and shapes[end][0] == shapes[k][0]:
                end += 1
        body = None
        if end - k >= 3:
            body = _Body.fit(list(range(end - k)), [[shape] for shape in shapes[k:end]])
        if body is None:
            out.extend(stmts[k:end])
        else:
            var = f"i_s{depth}"
            rolled = body.statements(var, 0, end - k)
            out.append(c.For(var, c.Literal("0"), c.Literal(str(end - k)), rolled))
        k = end
    return out


def simplify(stmts: tuple[c.Stmt, ...]) -> tuple[c.Stmt, ...]:
    """The rolled loops' `x + 0*i + 0*(i & 1)` as `x`, `1*i` as `i` (the other literals are
    left as they were printed)."""
    zero = c.Literal("(0)")  # a product with 0, to drop from its sum

    def tidy(node: Any) -> Any:
        if not isinstance(node, c.Binary):
            return node
        left, right = node.left, node.right
        if node.op == "*" and isinstance(left, c.Literal):
            if left.text == "0":
                return zero
            if left.text == "1":
                return right
        if node.op == "+":
            if right is zero:
                return left
            if left is zero:
                return right
        return node

    def no_zero(node: Any) -> Any:
        return c.Literal("0") if node is zero else node

    return tuple(_map(_map(stmts, tidy), no_zero))
