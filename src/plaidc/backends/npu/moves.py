"""Moving elements between UB buffers along affine maps, on the vector pipe.

A *move* copies, for every point of a tile's iteration `Space`, one element from position
`src(x)` of a source buffer to position `dst(x)` of a destination buffer (positions in
elements, affine in the tile's local indices). Points are grouped into *runs* along one index
(the innermost of the destination's layout); the runs are enumerated by C loops whose bounds
clip each run to the points that satisfy the tile's constraints, so no instruction touches an
element of a point that does not exist.

How a run is moved depends only on affine coefficients (decided here, at compile time):
* `copy`   contiguous on both sides at the same offset within a 32-B block -> masked vector
           copies, several elements per instruction;
* `lanes`  contiguous destination runs starting on a block, source stride a multiple of a block
           (0 for a broadcast) -> one single-lane vcmax per run;
* `spread` anything else (shifts, transposes, strided windows) -> the destination is rebuilt
           through a scratch S of one block per element: stage A spreads each run into S, stage
           B collects S back contiguously. A destination that holds data to keep (an output
           window) first spreads its own old contents, so stage B rewrites them unchanged.
See `clib` for the helpers. Ops carry their exact footprints for sync insertion.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import islpy as isl

from plaidc.analysis.domain import affine_bounds, block_domain, sample
from plaidc.analysis.space import split_dim_name
from plaidc.backends.c import ast as c
from plaidc.backends.npu.clib import helper_name
from plaidc.backends.npu.ops import BLOCK, Buf, Op, call, elems_per_block, lit, scalar_literal
from plaidc.stripe.ir import Affine, Block, Constraint, DType, Index


@dataclass
class Space:
    """The points of one tile: local indices `[0, size)` (in layout order) and constraints."""

    sizes: dict[str, int]
    constraints: tuple[Affine, ...] = ()
    _domain: isl.Set | None = field(default=None, repr=False)

    def cvar(self, name: str) -> str:
        return "i_" + re.sub(r"[^A-Za-z0-9_]", "_", name)

    def fold(self, aff: Affine) -> Affine:
        """`aff` with the indices of size 1 (always 0 here) dropped."""
        return aff.substitute({v: Affine() for v, s in self.sizes.items() if s == 1})

    @property
    def live_constraints(self) -> list[Affine]:
        """Constraints that are not trivially true on this tile's box."""
        kept = []
        for con in self.constraints:
            folded = self.fold(con)
            low = folded.const + sum(min(0, k * (self.sizes[v] - 1)) for v, k in folded.terms)
            if low < 0:
                kept.append(folded)
        return kept

    def domain(self) -> isl.Set:
        if self._domain is None:
            block = Block(
                name="tile",
                idxs=tuple(Index(v, s) for v, s in self.sizes.items()),
                constraints=tuple(Constraint(a) for a in self.constraints),
            )
            self._domain = block_domain([Block(), block])
        return self._domain

    def bounds(self, aff: Affine) -> tuple[int, int] | None:
        """(min, max) of `aff` over the tile's points; None when the tile has none."""
        return affine_bounds(self.domain(), aff, 1)

    def is_empty(self) -> bool:
        return bool(self.domain().is_empty())

    def point(self) -> dict[str, int] | None:
        """One point of the tile (its indices' values), None when it has none."""
        found = sample(self.domain())
        if found is None:
            return None
        values = {split_dim_name(dim)[1]: value for dim, value in found.items()}
        return {v: values.get(v, 0) for v in self.sizes}

    def point_count(self) -> int:
        return int(self.domain().count_val().to_python())


def affine_expr(aff: Affine, space: Space, subst: dict[str, c.Expr] | None = None) -> c.Expr:
    """A C expression for `aff` over the tile's loop variables (`subst` replaces some of them;
    integer literals among the replacements are folded into the constant)."""
    subst = subst or {}
    const = aff.const
    expr: c.Expr | None = None
    for name, coeff in aff.terms:
        var = subst.get(name, c.Ident(space.cvar(name)))
        if isinstance(var, c.Literal) and var.text.lstrip("-").isdigit():
            const += coeff * int(var.text)
            continue
        term = var if abs(coeff) == 1 else c.Binary("*", lit(abs(coeff)), var)
        if expr is None:
            expr = term if coeff > 0 else c.Unary("-", term)
        else:
            expr = c.Binary("+" if coeff > 0 else "-", expr, term)
    if expr is None:
        return lit(const)
    if const:
        return c.Binary("+" if const > 0 else "-", expr, lit(abs(const)))
    return expr


def _minmax(fn: str, a: c.Expr, b: c.Expr) -> c.Expr:
    return c.CallExpr(fn, (a, b))


RunBody = Callable[[c.Expr, c.Expr], list[c.Stmt]]


def _conjunction(conds: list[c.Expr]) -> c.Expr:
    cond = conds[0]
    for more in conds[1:]:
        cond = c.Binary("&&", cond, more)
    return cond


def run_bounds(space: Space, run: str | None) -> tuple[c.Expr, c.Expr, list[c.Expr]]:
    """`(lo, hi, conds)`: the valid range of a run along `run` as C expressions over the other
    loop variables, and the conditions (on those variables only) for the run to exist."""
    lo: c.Expr = lit(0)
    hi: c.Expr = lit(space.sizes[run] if run is not None else 1)
    conds: list[c.Expr] = []
    for con in space.live_constraints:
        coeff = con.coeff(run) if run is not None else 0
        rest = con - Affine.var(run, coeff) if run is not None and coeff else con
        if coeff == 0:
            conds.append(c.Binary(">=", affine_expr(rest, space), lit(0)))
        elif coeff > 0:
            floor = c.CallExpr("plaidc_floordiv", (affine_expr(rest, space), lit(coeff)))
            lo = _minmax("plaidc_max", lo, c.Unary("-", floor))
        else:
            floor = c.CallExpr("plaidc_floordiv", (affine_expr(rest, space), lit(-coeff)))
            hi = _minmax("plaidc_min", hi, c.Binary("+", floor, lit(1)))
    return lo, hi, conds


def _nest(space: Space, run: str | None, body: list[c.Stmt]) -> list[c.Stmt]:
    """`body` inside loops over every index of the tile but `run` (in a scope of its own when
    there is no loop, so its declarations never meet another op's)."""
    loops = [v for v, s in space.sizes.items() if s > 1 and v != run]
    if not loops and any(isinstance(stmt, c.Decl) for stmt in body):
        return [c.Compound(tuple(body))]
    for var in reversed(loops):
        body = [c.For(space.cvar(var), lit(0), lit(space.sizes[var]), tuple(body))]
    return body


def run_loops(space: Space, run: str | None, body: RunBody) -> list[c.Stmt]:
    """Loops over the tile's indices except `run`, calling `body(lo, hi)` for each run's valid
    range `[lo, hi)` along `run` (clipped by the constraints); `run` None: single points."""
    lo, hi, conds = run_bounds(space, run)
    inner: list[c.Stmt]
    if isinstance(lo, c.Literal) and isinstance(hi, c.Literal):
        inner = body(lo, hi)
    else:
        test = c.Binary("<", c.Ident("lo"), c.Ident("hi"))
        inner = [
            c.Decl("int64_t", "lo", lo),
            c.Decl("int64_t", "hi", hi),
            c.If(test, tuple(body(c.Ident("lo"), c.Ident("hi")))),
        ]
    if conds:
        inner = [c.If(_conjunction(conds), tuple(inner))]
    return _nest(space, run, inner)


def _at(aff: Affine, run: str | None, value: c.Expr, space: Space) -> c.Expr:
    """`aff` with the run index replaced by `value`."""
    if run is None:
        return affine_expr(aff, space)
    return affine_expr(aff, space, {run: value})


def _minus(a: c.Expr, b: c.Expr) -> c.Expr:
    if isinstance(b, c.Literal) and b.text == "0":
        return a
    return c.Binary("-", a, b)


@dataclass(frozen=True)
class Placement:
    """Elements of type `dtype` in `buf`, at element position `pos` (affine over the tile)."""

    buf: Buf
    dtype: DType
    pos: Affine


def choose_path(space: Space, run: str | None, dst: Affine, src: Affine, dtype: DType) -> str:
    """`copy`, `lanes` or `spread` for moving src -> dst positions (see the module docstring)."""
    g = elems_per_block(dtype)
    ds = dst.coeff(run) if run else 1
    es = src.coeff(run) if run else 0
    others = [v for v, s in space.sizes.items() if s > 1 and v != run]
    clipped = run is not None and any(con.coeff(run) for con in space.live_constraints)
    if run is None or (ds == 1 and es == 1):
        same = all((dst.coeff(v) - src.coeff(v)) % g == 0 for v in others)
        if (same and (dst.const - src.const) % g == 0) and run is not None:
            return "copy"
    if (
        ds == 1
        and es >= 0
        and es % g == 0
        and es // g <= 65535
        and not clipped
        and all(dst.coeff(v) % g == 0 for v in others)
        and dst.const % g == 0
    ):
        return "lanes"
    return "spread"


def _repeated_run(space: Space, run: str | None, dst: Affine, src: Affine, g: int) -> int | None:
    """The length of the run when the move writes one source run over and over into a dense
    destination (a broadcast: the source depends on the run's index alone, the destination
    is the space's points in order, run innermost, with no constraint clipping them), so that
    it can be written by copying the run once and then doubling what is written; else None."""
    if run is None or space.live_constraints or dst.coeff(run) != 1 or src.coeff(run) != 1:
        return None
    live = [v for v, s in space.sizes.items() if s > 1]
    if any(src.coeff(v) for v in live if v != run):
        return None
    n, stride = space.sizes[run], 1
    for v in sorted(live, key=lambda v: dst.coeff(v)):
        if dst.coeff(v) != stride:
            return None
        stride *= space.sizes[v]
    if n % g or (dst.const - src.const) % g or stride <= n:
        return None
    return n


@dataclass
class Mover:
    """Emits moves for one kernel; records which C helpers they use."""

    repeat_bytes: int
    used: set[tuple[str, DType]]

    def helper(self, kind: str, dtype: DType) -> str:
        self.used.add((kind, dtype))
        return helper_name(kind, dtype)

    def move(
        self,
        space: Space,
        run: str | None,
        dst: Placement,
        src: Placement,
        *,
        window: tuple[int, int],
        keep: bool,
        scratch: Buf | None,
        note: str,
    ) -> Op:
        """Move src -> dst for every point; `window` is the destination range `[w0, w1)` that
        may be rewritten (positions outside it are never touched); `keep` says whether window
        positions no point writes hold data that must survive. `scratch` (S) is needed by the
        `spread` path: its size fixes how many window elements one pass rebuilds."""
        dtype = dst.dtype
        path = choose_path(space, run, dst.pos, src.pos, dtype)
        dptr, sptr = dst.buf.ptr(dtype), src.buf.ptr(dtype)
        reads = [src.buf.region()]
        writes = [dst.buf.region()]
        repeated = _repeated_run(space, run, dst.pos, src.pos, elems_per_block(dtype))
        if repeated is not None and window[0] <= dst.pos.const:
            # a broadcast: the run once, then the written part copied after itself
            total = space.point_count()
            if dst.pos.const + total <= window[1]:
                copy = self.helper("copy", dtype)
                d0 = dst.pos.const
                doubling = [call(copy, dptr, d0, sptr, src.pos.const, repeated)]
                done = repeated
                while done < total:
                    doubling.append(call(copy, dptr, d0 + done, dptr, d0, min(done, total - done)))
                    done *= 2
                reads.append(dst.buf.region())
                return Op("PIPE_V", tuple(doubling), tuple(reads), tuple(writes), note)
        if path in ("copy", "lanes"):
            kind = self.helper(path, dtype)

            def body(lo: c.Expr, hi: c.Expr) -> list[c.Stmt]:
                n = _minus(hi, lo)
                d0, s0 = _at(dst.pos, run, lo, space), _at(src.pos, run, lo, space)
                if path == "copy":
                    return [call(kind, dptr, d0, sptr, s0, n)]
                es = src.pos.coeff(run) if run else 0
                return [call(kind, c.Binary("+", dptr, d0), sptr, s0, es, n)]

            return Op(
                "PIPE_V", tuple(run_loops(space, run, body)), tuple(reads), tuple(writes), note
            )
        assert scratch is not None, "the spread path needs a scratch buffer"
        spread, collect = self.helper("spread", dtype), self.helper("collect", dtype)
        per_pass = scratch.size // BLOCK  # one element per block of the scratch
        w0, w1 = window
        single = w1 - w0 <= per_pass
        lo_w: c.Expr = lit(w0) if single else c.Ident("w")
        hi_w: c.Expr = lit(w1) if single else c.Ident("w1")
        count = lit(w1 - w0) if single else c.Binary("-", hi_w, lo_w)
        ds = dst.pos.coeff(run) if run else 1
        es = src.pos.coeff(run) if run else 0
        sp = scratch.ptr(dtype)

        def spread_body(lo: c.Expr, hi: c.Expr) -> list[c.Stmt]:
            # A run stored backwards (ds < 0) is spread from its last point.
            first = lo if ds > 0 else c.Binary("-", hi, lit(1))
            d0, s0 = _at(dst.pos, run, first, space), _at(src.pos, run, first, space)
            sign = 1 if ds > 0 else -1
            return [call(spread, sp, lo_w, hi_w, d0, abs(ds), sptr, s0, sign * es, _minus(hi, lo))]

        inner: list[c.Stmt] = []
        if not single:
            upper = c.CallExpr("plaidc_min", (c.Binary("+", lo_w, lit(per_pass)), lit(w1)))
            inner.append(c.Decl("int64_t", "w1", upper))
        if keep:  # the window's old contents first: positions no point writes keep them
            inner.append(call(spread, sp, lo_w, hi_w, lo_w, 1, dptr, lo_w, 1, count))
            reads.append(dst.buf.region())
        inner.extend(run_loops(space, run, spread_body))
        start = dptr if single and w0 == 0 else c.Binary("+", dptr, lo_w)
        inner.append(call(collect, start, sp, count))
        stmts: tuple[c.Stmt, ...] = (
            (c.Compound(tuple(inner)),)
            if single
            else (c.For("w", lit(w0), lit(w1), tuple(inner), step=per_pass),)
        )
        reads.append(scratch.region())
        writes.append(scratch.region())
        return Op("PIPE_V", stmts, tuple(reads), tuple(writes), note)

    def fill_invalid(
        self, space: Space, run: str, dst: Placement, value: float | int, note: str
    ) -> Op | None:
        """Set the positions of the points outside the constraints to `value` (each run is
        contiguous along `run`, which has coefficient 1 in `dst.pos`); None if there are none."""
        if not space.live_constraints:
            return None
        fill = self.helper("fill", dst.dtype)
        ptr, val = dst.buf.ptr(dst.dtype), scalar_literal(value, dst.dtype)
        size = space.sizes[run]
        lo, hi, conds = run_bounds(space, run)
        base = _at(dst.pos, run, lit(0), space)
        body: list[c.Stmt]
        if isinstance(lo, c.Literal) and isinstance(hi, c.Literal):  # whole runs only
            body = [c.If(c.Unary("!", _conjunction(conds)), (call(fill, ptr, base, val, size),))]
        else:
            ident_lo, ident_hi = c.Ident("lo"), c.Ident("hi")
            body = [
                c.Decl("int64_t", "lo", _minmax("plaidc_min", lo, lit(size))),
                c.Decl("int64_t", "hi", _minmax("plaidc_max", hi, ident_lo)),
            ]
            if conds:  # the whole run is invalid: fill [0, lo) and [lo, size)
                reset = (c.Assign(ident_hi, ident_lo),)
                body.append(c.If(c.Unary("!", _conjunction(conds)), reset))
            head = call(fill, ptr, base, val, ident_lo)
            body.append(c.If(c.Binary(">", ident_lo, lit(0)), (head,)))
            rest = c.Binary("-", lit(size), ident_hi)
            tail = call(fill, ptr, c.Binary("+", base, ident_hi), val, rest)
            body.append(c.If(c.Binary("<", ident_hi, lit(size)), (tail,)))
        region = dst.buf.region()
        return Op("PIPE_V", tuple(_nest(space, run, body)), (region,), (region,), note)

    def fill_all(self, buf: Buf, dtype: DType, n: int, value: float | int) -> Op:
        """Elements `[0, n)` of `buf` set to `value`."""
        fill = self.helper("fill", dtype)
        stmt = call(fill, buf.ptr(dtype), 0, scalar_literal(value, dtype), n)
        return Op("PIPE_V", (stmt,), (), (buf.region(),), "fill")

    def fill_columns(self, buf: Buf, dtype: DType, rows: int, stride: int, lo: int, hi: int) -> Op:
        """Columns `[lo, hi)` of the first `rows` rows (`stride` elements apart) set to 0: by
        whole bands of rows when the rows start on blocks, else row by row."""
        if stride % elems_per_block(dtype) == 0:
            fill = self.helper("fillcols", dtype)
            stmt = call(fill, buf.ptr(dtype), rows, stride, lo, hi, scalar_literal(0, dtype))
            return Op("PIPE_V", (stmt,), (buf.region(),), (buf.region(),), "zero padding")
        fill = self.helper("fill", dtype)
        row = c.Ident("r")
        start = c.Binary("+", c.Binary("*", row, lit(stride)), lit(lo))
        body = (call(fill, buf.ptr(dtype), start, scalar_literal(0, dtype), hi - lo),)
        loop = c.For("r", lit(0), lit(rows), body)
        return Op("PIPE_V", (loop,), (buf.region(),), (buf.region(),), "zero padding")


def as_one_run(space: Space, dst: Affine, src: Affine) -> tuple[Space, str, Affine, Affine] | None:
    """The move of every point of `space` from `src` to `dst` as one run over a single index,
    when both positions lay the tile's (unconstrained) box out alike and densely, row-major in
    some order of its indices: (that one-index space, its index, dst, src). None otherwise."""
    if space.live_constraints:
        return None
    dst, src = space.fold(dst), space.fold(src)
    live = [v for v, n in space.sizes.items() if n > 1]
    if any(dst.coeff(v) != src.coeff(v) for v in live) or {*dst.names(), *src.names()} - {*live}:
        return None
    stride = 1
    for v in sorted(live, key=lambda v: abs(dst.coeff(v))):
        if dst.coeff(v) != stride:
            return None
        stride *= space.sizes[v]
    flat = "flat"
    while flat in space.sizes:
        flat += "_"
    one = Space({flat: stride})
    return one, flat, Affine.var(flat) + dst.const, Affine.var(flat) + src.const
