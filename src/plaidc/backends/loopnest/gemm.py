"""GEMM-like blocks as register-blocked micro-kernels (plaidc's own; no BLAS).

A block the config's `gemm_tags` select (PlaidML's stencil pass tags them `#mac_inner`) is
run as a micro-kernel (`gemm_kernel`) when its shape allows: a leaf block whose body is
`load A, load B, mul, store C` in one float type, C accumulating with `add`, and whose indices
play three roles, read off the flat strides of the accesses:

* `j` moves C with unit stride, and one input (called B) but not the other (A): vector lanes
  (B is packed into contiguous panels when its `j` stride is not 1);
* `i` moves A and C but not B: register-block rows, each row an A element broadcast; rows of
  C must not overlap (its `i` stride at least the `j` extent);
* `k` moves A and B but not C: the reduction.

Constraints are allowed when each bounds one role index alone, `c + outer - idx >= 0` or
`idx + c + outer >= 0` with `outer` affine in the enclosing indices (autotile's overflow
tiles: `998 - k - ko >= 0`), or mentions none (the whole tile runs or not). They make the
tile's extents run-time values, `lo = max(0, lower bounds)` to `hi = min(range - 1, upper
bounds)` per index, passed to a ragged kernel (`gemm_kernel`); an empty tile calls nothing.
Constraints that no point of the tile's box violates (a bound the tile size divides) are
dropped first (isl), so they cost nothing.

Per execution the kernel computes `C[i*c_row + j] (+)= sum_k A[i*a_row + k*a_k] *
B[k*b_k + j*b_j]`: the same sum as the generic loops (up to rounding order), which is what
Definition 2 asks of an `add` aggregation. When the block is the top reducing level of C and
has no constraints, the kernel writes C instead of accumulating and the footprint
initialisation is skipped: it writes every element of the `I x J` box.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from plaidc.analysis import aff_from_affine, distinct_offsets, extend_domain
from plaidc.backends.loopnest.aggregation import WrittenRef
from plaidc.backends.loopnest.gemm_epilogue import Epilogue
from plaidc.backends.loopnest.gemm_ints import all_of
from plaidc.backends.loopnest.gemm_kernel import Kernel
from plaidc.backends.loopnest.gemm_shape import GemmShape, layout, needs_b_bound, scratch_size
from plaidc.backends.loopnest.optimise import work
from plaidc.backends.loopnest.plan import (
    STATUS,
    Alloc,
    BufferArg,
    BufferParam,
    Call,
    IBin,
    ICmp,
    IConst,
    If,
    IntExpr,
    IVar,
    LetInt,
    Loop,
    Stmt,
    affine_expr,
    iadd,
    imul,
)
from plaidc.backends.loopnest.scope import Scope
from plaidc.stripe.ir import Affine, Block, Constraint, DType, Intrinsic, Load
from plaidc.stripe.ir import Store as StripeStore

if TYPE_CHECKING:
    from plaidc.backends.loopnest.lower import Lowering

_FLOATS = (DType.FP32, DType.FP64)
# Names standing for a role index's offset within the tile while constraints are read; plan
# variables never contain '%'.
_OFFSET = "%"


@dataclass(frozen=True)
class Bound:
    """`value / div` (`div > 0`), rounded up as a lower bound and down as an upper one: a
    strided access bounds its index by a fraction (`2*x + kx - 1 >= 0`: `x >= (1 - kx) / 2`)."""

    value: Affine
    div: int = 1

    def bind(self, values: dict[str, Affine]) -> Bound:
        return Bound(self.value.substitute(values), self.div)


@dataclass(frozen=True)
class TileBounds:
    """A role index's run-time bounds within its tile (offsets from the tile's first point,
    affine over plan variables): it runs over `max(0, lows) .. min(range - 1, highs)`."""

    lows: tuple[Bound, ...] = ()
    highs: tuple[Bound, ...] = ()


@dataclass(frozen=True)
class GemmCall:
    """A GEMM-like block: its kernel shape and where A, B and C start."""

    shape: GemmShape
    a: tuple[str, Affine]
    b: tuple[str, Affine]
    c: tuple[str, Affine]
    c_ref: str
    # per role ("m", "n", "k") with constraints: its bounds, and how far one step of it moves
    # A, B and C; `guards`: constraints on no role index (the whole tile runs or not)
    bounds: tuple[tuple[str, TileBounds, tuple[int, int, int]], ...] = ()
    guards: tuple[Affine, ...] = ()
    # indices run as loops around the kernel call, outermost first
    outer: tuple[OuterLoop, ...] = ()
    # the outermost of them runs on threads (each thread its own calls, one parallel region)
    # instead of each call's kernel
    outer_threads: bool = False
    # the calls write their boxes of C (cut to their bounds), disjoint from each other's,
    # and no guard skips one: together they write every element of the footprint once
    whole: bool = False


@dataclass(frozen=True)
class OuterLoop:
    """An index that moves C but is neither the kernel's rows, columns nor reduction (a
    batch index moving A, B and C; a second column index moving B and C): the call site
    loops over its `range` values (cut to `bounds`), each step moving A, B and C by `steps`."""

    range: int
    steps: tuple[int, int, int]
    bounds: TileBounds
    # the name standing for its value in other roles' bounds (`TileBounds`)
    offset: str = ""


def _flat(scope: Scope, name: str) -> dict[str, int]:
    view = scope.views[name]
    coeffs: dict[str, int] = {}
    for access, stride in zip(view.ref.access, view.ref.shape.strides, strict=True):
        for idx, c in access.terms:
            coeffs[idx] = coeffs.get(idx, 0) + c * stride
    return coeffs


def _body_pattern(block: Block) -> tuple[str, str, str] | None:
    """(A ref, B ref, C ref) if the body is `load, load, mul, store` of the product."""
    loads: dict[str, str] = {}
    product = None
    store = None
    for stmt in block.stmts:
        if isinstance(stmt, Load):
            loads[stmt.into] = stmt.from_
        elif isinstance(stmt, Intrinsic) and stmt.name == "mul" and product is None:
            if len(stmt.inputs) != 2 or not all(i in loads for i in stmt.inputs):
                return None
            product = (stmt.outputs[0], loads[stmt.inputs[0]], loads[stmt.inputs[1]])
        elif isinstance(stmt, StripeStore) and store is None:
            store = stmt
        else:
            return None
    if product is None or store is None or store.from_ != product[0] or len(loads) != 2:
        return None
    return product[1], product[2], store.into


def detect(lowering: Lowering, scope: Scope, written: dict[str, WrittenRef]) -> GemmCall | None:
    """The micro-kernel form of `scope`'s block, or None when it is not GEMM-like."""
    block = scope.chain[-1]
    tags = lowering.options.gemm_tags
    if not tags or not block.tags.has_any(tags):
        return None
    constraints = _needed_constraints(lowering, scope.chain)
    if constraints and not lowering.options.ragged_gemm:
        return None
    if any(r.from_ is None for r in block.refs):
        return None
    pattern = _body_pattern(block)
    if pattern is None:
        return None
    a_name, b_name, c_name = pattern
    if len({a_name, b_name, c_name}) != 3 or c_name not in written:
        return None
    a_view, b_view, c_view = (scope.views[n] for n in pattern)
    dtype = c_view.ref.shape.dtype
    if dtype not in _FLOATS or {a_view.ref.shape.dtype, b_view.ref.shape.dtype} != {dtype}:
        return None
    if c_view.mode != "add" or a_view.mode is not None or b_view.mode is not None:
        return None
    fa, fb, fc = _flat(scope, a_name), _flat(scope, b_name), _flat(scope, c_name)
    moving = [idx.name for idx in block.idxs if idx.range > 1]
    # j: unit stride in C, moving exactly one input, which is B from here on.
    js = [n for n in moving if fc.get(n, 0) == 1 and (fa.get(n, 0) == 0) != (fb.get(n, 0) == 0)]
    if len(js) != 1:
        return None
    j = js[0]
    if fa.get(j, 0) != 0:
        a_name, b_name = b_name, a_name
        fa, fb = fb, fa
    rows: list[str] = []
    sums: list[str] = []
    outer: list[str] = []
    coupled = _coupled(constraints, set(moving))
    if all(fc.get(n, 0) != 0 or n in coupled for n in moving):
        # no reduction would be left to the kernel (`m - k >= 0`, a triangle): rank-one
        # updates per call are no faster than the generic loops
        coupled = set()
    for name in moving:
        if name == j:
            continue
        ca, cb, cc = fa.get(name, 0), fb.get(name, 0), fc.get(name, 0)
        if cb == 0 and ca != 0 and cc != 0:
            rows.append(name)
        elif cc == 0 and ca != 0 and cb != 0 and name not in coupled:
            sums.append(name)
        elif cc == 0 and ca != 0 and cb != 0:
            # a padded convolution's window index, bounded together with an output index
            # (`x + k - 1 >= 0`): a loop around the call, whose value then bounds the other
            outer.append(name)
        elif cc != 0:
            # moves C, and B or both inputs: each value is a separate GEMM (tbmm's batch,
            # a grouped convolution's output rows next to the vector columns)
            outer.append(name)
        else:
            return None
    if len(rows) > 1 and coupled & set(rows):
        # a padded channels-last convolution bounds each of its row indices (`x0 + k0 - 1
        # >= 0`, `x1 + k1 - 1 >= 0`): bounds name one index each, so the innermost row
        # (least C stride) stays the kernel's rows and the others become loops around it
        keep = min(rows, key=lambda n: abs(fc[n]))
        outer.extend(n for n in rows if n != keep)
        rows = [keep]
    ranges = {idx.name: idx.range for idx in block.idxs}
    row_dims = _merge([(ranges[n], fa[n], fc[n], n) for n in rows])
    if len(row_dims) > 1 and _bounds_any(constraints, row_dims[:-1]):
        # an edge tile of a convolution's output rows (`x` cut short, its pixels `(x, y)`
        # not one run of A): a bound can only name a row dimension alone, so the innermost
        # (the pixels of one output row) stays the kernel's rows and the outer ones become
        # loops around the call, bounded per value
        outer.extend(n for dim in row_dims[:-1] for n in dim.names)
        rows = list(row_dims[-1].names)
        row_dims = row_dims[-1:]
    k_dims = _merge([(ranges[n], fa[n], fb[n], n) for n in sums])
    if not _rows_apart(lowering, row_dims, _widest(lowering, scope.chain, j, bool(constraints))):
        # rows of C overlap (`C[2*i + j]` with 3 columns): a row's register tile would
        # overwrite or lose another row's sums, so the generic loops aggregate them
        return None
    # Where the first point (every index at its start) places each view's element 0.
    local = scope.var_affine(scope.depth)
    starts = {
        idx.name: idx.affine.substitute(scope.var_affine(scope.depth - 1)) for idx in block.idxs
    }
    origin = {local_name: starts[local_name] for local_name in local}
    # Constraints may bound a role that is one index of the block (not several, merged or not).
    single = {"m": row_dims, "k": k_dims}
    roles = {"n": j}
    # A merged role may be bounded through its outermost index alone (a ragged tile of
    # `y` in rows `(y, x)`): one step of it is `scale` steps of the merged offset.
    scales: dict[str, int] = {}
    for role, dims in single.items():
        if len(dims) == 1:
            roles[role] = dims[0].names[-1]
            if len(dims[0].names) > 1:
                scales[dims[0].names[0]] = math.prod(ranges[n] for n in dims[0].names[1:])
    by_name: dict[str, str] = {name: "" for name in rows + sums}
    by_name.update({name: role for role, name in roles.items() if name in (j, *rows, *sums)})
    for dims in single.values():  # a merged role's inner indices bound nothing alone
        if len(dims) == 1 and len(dims[0].names) > 1:
            by_name[dims[0].names[-1]] = ""
    for name in scales:
        by_name[name] = "m" if name in rows else "k"
    by_name.update({name: _OFFSET + name for name in outer})
    loop_order = sorted(outer, key=lambda n: -abs(fc.get(n, 0)))
    read = _read_constraints(block, constraints, starts, by_name, loop_order, scales)
    if read is None:
        return None
    bounds, guards = read

    def at_origin(name: str) -> Affine:
        return scope.views[name].base.substitute(
            {var.terms[0][0]: origin[idx] for idx, var in local.items()}
        )

    w = written[c_name]
    opts = lowering.options
    threads = bool(opts.parallel_tags) and not lowering.in_parallel and opts.threads > 1
    parallel = threads and work(block) >= opts.parallel_min_work
    apart = _calls_apart(lowering, row_dims, outer, fa, fc, ranges, j)
    # A batch loop of at least 2 calls per thread whose calls write disjoint boxes of C runs
    # on threads, the kernel on one: a threaded kernel per call (a batch of 40 small GEMMs
    # in one tile) opened a parallel region per call.
    outer_threads = (
        parallel and apart and bool(loop_order) and ranges[loop_order[0]] >= 2 * opts.threads
    )
    whole = apart and not guards
    m_dim = row_dims[0] if len(row_dims) == 1 else None
    k_dim = k_dims[0] if len(k_dims) == 1 else None
    shape = GemmShape(
        dtype=dtype,
        m=math.prod(d.range for d in row_dims),
        n=ranges[j],
        k=math.prod(d.range for d in k_dims),
        a_row=m_dim.a if m_dim else 0,
        a_k=k_dim.a if k_dim else 0,
        b_k=k_dim.other if k_dim else 0,
        b_j=fb[j],
        c_row=m_dim.other if m_dim else 0,
        # calls whose boxes of C overlap add to each other's sums, and a guard may skip a
        # call: then the generic initialisation runs. Bounds of single indices (an edge
        # tile's `998 - n - no >= 0`, tbmm's last batch tile `499 - b - bo >= 0`) cut each
        # call to a box, which the ragged kernel writes whole, and which is exactly the
        # block's footprint there (its initialisation covers no more): the calls overwrite.
        overwrite=w.init and whole,
        parallel=parallel and not outer_threads,
        row_dims=tuple((d.range, d.a, d.other) for d in row_dims) if len(row_dims) > 1 else (),
        k_dims=tuple((d.range, d.a, d.other) for d in k_dims) if len(k_dims) > 1 else (),
    )
    steps = {
        role: (fa.get(name, 0), fb.get(name, 0), fc.get(name, 0)) for role, name in roles.items()
    }
    return GemmCall(
        shape,
        (scope.views[a_name].buffer, at_origin(a_name)),
        (scope.views[b_name].buffer, at_origin(b_name)),
        (scope.views[c_name].buffer, at_origin(c_name)),
        c_name,
        tuple((role, bounds[role], steps[role]) for role in ("m", "n", "k") if role in bounds),
        guards,
        tuple(
            OuterLoop(
                ranges[name],
                (fa.get(name, 0), fb.get(name, 0), fc.get(name, 0)),
                bounds.get(_OFFSET + name, TileBounds()),
                _OFFSET + name,
            )
            for name in loop_order
        ),
        outer_threads,
        whole,
    )


def _coupled(constraints: tuple[Constraint, ...], moving: set[str]) -> set[str]:
    """The indices that some constraint bounds together with another index of the block."""
    out: set[str] = set()
    for constraint in constraints:
        named = {name for name, _ in constraint.affine.terms if name in moving}
        if len(named) > 1:
            out |= named
    return out


def _bounds_any(constraints: tuple[Constraint, ...], dims: list[_Dim]) -> bool:
    """Whether some constraint names an index of `dims`."""
    names = {n for dim in dims for n in dim.names}
    return any(name in names for c in constraints for name, _ in c.affine.terms)


def _calls_apart(
    lowering: Lowering,
    row_dims: list[_Dim],
    outer: list[str],
    fa: dict[str, int],
    fc: dict[str, int],
    ranges: dict[str, int],
    j: str,
) -> bool:
    """Whether the kernel calls of the outer loops write disjoint boxes of C (so each call
    may overwrite its box): no two points of (outer loops, rows, columns) reach one element."""
    if not outer:
        return True
    dims = row_dims + [_Dim(ranges[n], fa.get(n, 0), fc.get(n, 0), (n,)) for n in outer]
    return _rows_apart(lowering, dims, ranges[j])


@dataclass(frozen=True)
class _Dim:
    """Indices playing one role, merged into one dimension: `range` values, moving A by `a`
    and the other operand (C for rows, B for the reduction) by `other` per step."""

    range: int
    a: int
    other: int
    names: tuple[str, ...]


def _merge(dims: list[tuple[int, int, int, str]]) -> list[_Dim]:
    """A role's indices, outermost (largest stride in the other operand) first, with an index
    merged into the next inner one when both operands step over it as one (`C[8*x + y]` with
    `y:8`): a conv's `(j, ci)` window becomes one contiguous reduction."""
    order = sorted(dims, key=lambda d: (-abs(d[2]), -abs(d[1])))
    out: list[_Dim] = []
    for size, a, other, name in reversed(order):  # innermost first
        if out and a == out[-1].a * out[-1].range and other == out[-1].other * out[-1].range:
            last = out.pop()
            out.append(_Dim(last.range * size, last.a, last.other, (name, *last.names)))
        else:
            out.append(_Dim(size, a, other, (name,)))
    return out[::-1]


def _rows_apart(lowering: Lowering, rows: list[_Dim], width: int) -> bool:
    """Whether the rows' runs of `width` columns of C are disjoint: the flat offsets of
    (rows..., column) are distinct over the box (isl; any strides, sign or nesting)."""
    dims = [(d.range, d.other) for d in rows] + [(width, 1)]
    return distinct_offsets(dims, lowering.cache.ctx)


def _widest(lowering: Lowering, chain: tuple[Block, ...], name: str, cut: bool) -> int:
    """How many values index `name` of `chain[-1]` takes at most in one execution of the block:
    its range, or fewer where the constraints (`cut`) cut every tile short (isl)."""
    block = chain[-1]
    idx = next(idx for idx in block.idxs if idx.name == name)
    if not cut:
        return idx.range
    domain = lowering.cache.domain(chain)
    if domain.is_empty():
        return 0
    depth = len(chain) - 1
    offset = aff_from_affine(domain.get_space(), Affine.var(name), depth).sub(
        aff_from_affine(domain.get_space(), idx.affine, depth - 1)
    )
    return int(domain.max_val(offset).to_python()) + 1


def _needed_constraints(lowering: Lowering, chain: tuple[Block, ...]) -> tuple[Constraint, ...]:
    """The constraints of `chain[-1]` that some point of its index box (within the enclosing
    blocks' domain) violates: a tiling's bound that the tile size divides never cuts a tile
    short, and costs the kernel nothing (isl)."""
    block = chain[-1]
    if not block.constraints:
        return ()
    parent = lowering.cache.domain(chain[:-1])
    depth = len(chain) - 1
    box = extend_domain(parent, replace(block, constraints=()), depth)
    return tuple(
        c
        for c in block.constraints
        if not box.is_subset(extend_domain(parent, replace(block, constraints=(c,)), depth))
    )


def _read_constraints(
    block: Block,
    constraints: tuple[Constraint, ...],
    starts: dict[str, Affine],
    roles: dict[str, str],
    loops: list[str],
    scales: dict[str, int],
) -> tuple[dict[str, TileBounds], tuple[Affine, ...]] | None:
    """The block's constraints as bounds of single role indices (by role) and guards (no
    role index), or None when one has another form (two indices, a coefficient not +-1).

    An index's value is its start (affine in the enclosing indices) plus its offset in the
    tile, so `998 - k - ko >= 0` with `ko = 64*k'` reads `offset(k) <= 998 - 64*k'`.

    A constraint may also name indices run as loops around the call (`loops`, outermost
    first): their offsets are the loops' variables, so it bounds its one other index, or
    else its innermost loop, by the outer values (`x + k - 1 >= 0` with loop `k`: `x >= 1 -
    k`). The bounded index may have any coefficient: a strided convolution's `2*x + k - 1 >=
    0` reads `x >= ceil((1 - k) / 2)`."""
    ranges = {idx.name: idx.range for idx in block.idxs}
    values = {
        name: start + Affine.var(_OFFSET + name) if ranges[name] > 1 else start
        for name, start in starts.items()
    }
    lows: dict[str, list[Bound]] = {}
    highs: dict[str, list[Bound]] = {}
    guards: list[Affine] = []
    for constraint in constraints:
        if any(name not in values for name, _ in constraint.affine.terms):
            return None
        expr = constraint.affine.substitute(values)
        offsets = [(name, c) for name, c in expr.terms if name.startswith(_OFFSET)]
        rest = Affine(tuple(t for t in expr.terms if not t[0].startswith(_OFFSET)), expr.const)
        if not offsets:
            guards.append(rest)
            continue
        depth = {_OFFSET + name: at for at, name in enumerate(loops)}
        inner = [t for t in offsets if t[0] not in depth]
        if len(inner) > 1:
            return None
        bounded = inner[0] if inner else max(offsets, key=lambda t: depth[t[0]])
        name, coeff = bounded
        rest = rest + Affine(tuple(t for t in offsets if t != bounded), 0)
        role = roles[name[len(_OFFSET) :]]
        if not role:  # an inner index of a role that several indices play
            return None
        scale = scales.get(name[len(_OFFSET) :], 1)
        if scale > 1:  # the outermost index of a merged role, `scale` merged steps apart
            if abs(coeff) != 1:
                return None
            if coeff < 0:  # offset <= rest: merged offset <= scale * rest + scale - 1
                highs.setdefault(role, []).append(Bound(_times(rest, scale) + (scale - 1)))
            else:  # offset >= -rest: merged offset >= -scale * rest
                lows.setdefault(role, []).append(Bound(_times(-rest, scale)))
            continue
        if coeff < 0:  # rest - |coeff| * offset >= 0: offset <= floor(rest / |coeff|)
            highs.setdefault(role, []).append(Bound(rest, -coeff))
        else:  # coeff * offset + rest >= 0: offset >= ceil(-rest / coeff)
            lows.setdefault(role, []).append(Bound(Affine.const_(0) - rest, coeff))
    bounds = {
        role: TileBounds(tuple(lows.get(role, ())), tuple(highs.get(role, ())))
        for role in set(lows) | set(highs)
    }
    return bounds, tuple(guards)


def _times(value: Affine, factor: int) -> Affine:
    return Affine.of({name: c * factor for name, c in value.terms}, value.const * factor)


def _kernel(lowering: Lowering, shape: GemmShape, epilogue: Epilogue | None = None) -> str:
    """The plan function of `shape`'s kernel (built once per shape, layout and epilogue)."""
    lay = layout(lowering, shape)
    key = (shape, lay, epilogue.key if epilogue is not None else None)
    fname = lowering.gemm_kernels.get(key)
    if fname is None:
        fname = lowering.names.fresh("gemm")
        lowering.functions.append(Kernel(lowering, shape, lay, epilogue).build(fname))
        lowering.gemm_kernels[key] = fname
    return fname


def _reports_status(lowering: Lowering, fname: str) -> bool:
    """Whether the kernel `fname` takes the status word (a pack of it on the heap)."""
    function = next(f for f in lowering.functions if f.name == fname)
    return any(isinstance(p, BufferParam) and p.name == STATUS for p in function.params)


def _floor(bound: Bound) -> IntExpr:
    """`floor(value / div)`."""
    value = affine_expr(bound.value)
    return value if bound.div == 1 else IBin("fdiv", value, IConst(bound.div))


def _ceil(bound: Bound) -> IntExpr:
    """`ceil(value / div)`, as `floor((value + div - 1) / div)`."""
    if bound.div == 1:
        return affine_expr(bound.value)
    return _floor(Bound(bound.value + Affine.const_(bound.div - 1), bound.div))


def _range(size: int, bounds: TileBounds) -> tuple[IntExpr, IntExpr]:
    """`[lo, hi)` of a role index within its tile: `0 .. size` cut to its bounds."""
    hi: IntExpr = IConst(size)
    for high in bounds.highs:
        hi = IBin("min", hi, iadd(_floor(high), IConst(1)))
    lo: IntExpr = IConst(0)
    for low in bounds.lows:
        lo = IBin("max", lo, _ceil(low))
    return lo, hi


def _bind(bounds: TileBounds, values: dict[str, Affine]) -> TileBounds:
    """`bounds` with the outer loops' offsets replaced by their variables."""
    if not values:
        return bounds
    return TileBounds(
        tuple(b.bind(values) for b in bounds.lows),
        tuple(b.bind(values) for b in bounds.highs),
    )


def lower_gemm(
    lowering: Lowering,
    call: GemmCall,
    epilogue: Epilogue | None = None,
    flags: tuple[IntExpr, IntExpr] | None = None,
) -> list[Stmt]:
    """A call of the micro-kernel for `call`, with its scratch; with bounds, of the ragged
    kernel with the tile's run-time extents (nothing when the tile is empty). An `epilogue`
    (`gemm_epilogue`) is applied by the kernel to each element before it is stored; its
    inputs follow the scratch among the arguments. `flags`: a split reduction's call
    (`GemmShape.split`) passes whether it is the first and the last (nonzero: yes)."""
    shape = call.shape
    assert (flags is not None) == shape.split
    scratch = lowering.names.fresh("gemm_scratch")
    lowering.buffer_types[scratch] = shape.dtype
    views = [
        (call.a[0], affine_expr(call.a[1]), False),
        (call.b[0], affine_expr(call.b[1]), False),
        (call.c[0], affine_expr(call.c[1]), True),
    ]

    def args(shift: list[IntExpr]) -> tuple[BufferArg, ...]:
        return (
            *(
                BufferArg(buf, iadd(at, by), writes=w)
                for (buf, at, w), by in zip(views, shift, strict=True)
            ),
            BufferArg(scratch),
        )

    # the outer indices loop around the call, each moving where A, B and C start; their
    # variables stand for their offsets in the bounds of inner loops and roles
    shift: list[IntExpr] = [IConst(0)] * 3
    values: dict[str, Affine] = {}
    loops = []
    outer_vars: list[IntExpr] = []
    for loop in call.outer:
        var = IVar(lowering.names.fresh("batch"))
        outer_vars.append(var)
        shift = [iadd(s, imul(var, step)) for s, step in zip(shift, loop.steps, strict=True)]
        loops.append((var.name, *_range(loop.range, _bind(loop.bounds, values))))
        values[loop.offset] = Affine.var(var.name)
    pre: list[Stmt] = []
    extents: list[IntExpr] = []
    sizes = {"m": shape.m, "n": shape.n, "k": shape.k}
    for role, role_bounds, steps in call.bounds:
        bounds = _bind(role_bounds, values)
        lo, hi = _range(sizes[role], bounds)
        if bounds.lows:
            start = IVar(lowering.names.fresh(f"{role}_start"))
            pre.append(LetInt(start.name, lo))
            shift = [iadd(s, imul(start, step)) for s, step in zip(shift, steps, strict=True)]
            hi = IBin("-", hi, start)
        ext = IVar(lowering.names.fresh(f"{role}_ext"))
        if flags is not None:
            # a split reduction's call runs with an empty reduction too: the first writes
            # C (zeros), the last applies the epilogue; an empty box of C writes nothing
            hi = IBin("max", hi, IConst(0))
        pre.append(LetInt(ext.name, hi))
        extents.append(ext)
    # A tile with bounds runs on the ragged kernel, full or not: measured as fast as the
    # constant-size kernel on full tiles (999^3: 20.2 vs 20.7 ms on c, 18.2 vs 18.1 on llvm,
    # one thread), and one kernel instead of two halves the LLVM compile time.
    kernel = replace(shape, runtime=tuple(role for role, _, _ in call.bounds))
    b_region = lowering.buffer_sizes.get(call.b[0])
    readable: list[IntExpr] = []
    if b_region is not None and needs_b_bound(kernel, layout(lowering, kernel)):
        # B's elements from the call's B on: the kernel reads B in place when its padded
        # vectors stay within them
        kernel = replace(kernel, b_bound=True)
        readable.append(IBin("-", IConst(b_region), iadd(affine_expr(call.b[1]), shift[1])))
    fname = _kernel(lowering, kernel, epilogue)
    status = [BufferArg(STATUS)] if _reports_status(lowering, fname) else []
    # an input laid out as C (a residual) moves with C around the calls, one per row of C
    # (a bias per row) by its own strides
    inputs = []
    for i in epilogue.inputs if epilogue else ():
        moved: IntExpr = shift[2] if i.element else IConst(0)
        for loop_var, stride in zip(outer_vars, i.outer, strict=i.per_row):
            moved = iadd(moved, imul(loop_var, stride))
        inputs.append(BufferArg(i.buffer, iadd(affine_expr(i.origin), moved), writes=False))
    call_args = (*args(shift), *inputs, *status, *extents, *(flags or ()), *readable)
    body: list[Stmt] = [Call(fname, call_args)]
    if extents and flags is None:
        body = [If(all_of([ICmp(">", ext, IConst(0)) for ext in extents]), tuple(body))]
    if loops:
        # the roles' extents may depend on the loops' values: computed per call
        body = [*pre, *body]
        pre = []
    threaded = loops[0] if call.outer_threads else None
    for var_name, lo, hi in reversed(loops[1:] if threaded else loops):
        body = [Loop(var_name, lo, hi, tuple(body))]
    size = scratch_size(lowering, kernel, layout(lowering, kernel))
    nbytes = max(size, 1) * shape.dtype.byte_size
    heap = nbytes > lowering.options.stack_bytes
    if threaded is not None:
        # each thread's calls use its own scratch
        body = [Alloc(scratch, shape.dtype, max(size, 1), tuple(body), heap=heap, scratch=True)]
        body = [Loop(*threaded, tuple(body), parallel=True)]
    if call.guards:
        body = [
            If(all_of([ICmp(">=", affine_expr(g), IConst(0)) for g in call.guards]), tuple(body))
        ]
    if threaded is not None:
        return [*pre, *body]
    alloc = Alloc(scratch, shape.dtype, max(size, 1), tuple(body), heap=heap, scratch=True)
    return [*pre, alloc]
