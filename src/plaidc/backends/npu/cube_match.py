"""Which kernels go to the Cube (`cube` says how they run there).

* `recognise`: a kernel whose one store sums products of two loads, as a `Contraction`: its
  indices sorted by role (M, N, K, batch) and its constraints by the matrices they bound;
* `epilogue_for`: an elementwise kernel that can run on a contraction's result while it is
  still in UB (an `Epilogue`);
* `converted_on_the_way_out`: a contraction whose fp32 result a second kernel only rounds to
  fp16, as one kernel that rounds it as it leaves L0C.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from plaidc.analysis.domain import point_count
from plaidc.analysis.ranges import IndexSpace, reexpressed
from plaidc.backends.npu.context import Context
from plaidc.backends.npu.kernels import Access, KConst, Kernel, KLoad, KOp, KStmt, KStore
from plaidc.backends.npu.vector import Plan, analyse
from plaidc.backends.npu.vtypes import infer
from plaidc.stripe.ir import Affine, DType


@dataclass(frozen=True)
class Contraction:
    """A kernel as a matrix product: its operands `a` (rows M, columns K) and `b` (K by N),
    its store, its indices by role (batch: one product each), the constraints bounding each
    matrix, the operands' type, whether they are split into fp16 parts, the output's type."""

    a: Access
    b: Access
    store: KStore
    m: tuple[str, ...]
    n: tuple[str, ...]
    k: tuple[str, ...]
    batch: tuple[str, ...]
    a_cons: tuple[Affine, ...]
    b_cons: tuple[Affine, ...]
    out_cons: tuple[Affine, ...]
    dtype: DType  # of both operands
    split: bool
    out: DType  # of the output: the operands' type, or fp32 for fp16 operands (L0C's type)

    @property
    def forms(self) -> tuple[Affine, ...]:
        """Every affine form a tile's code depends on: the accesses and the constraints."""
        accesses = (self.a.offset, self.b.offset, self.store.access.offset)
        return accesses + self.a_cons + self.b_cons + self.out_cons


def recognise(ctx: Context, kernel: Kernel) -> Contraction | None:
    """The kernel as a Cube contraction, or None when it is not one (or the options say no)."""
    stores = kernel.stores()
    if len(stores) != 1 or stores[0].agg != "add" or not ctx.machine.maps_contractions:
        return None
    store = stores[0]
    defs = {s.dst: s for s in kernel.body if isinstance(s, (KLoad, KOp))}
    types = infer(kernel, ctx.buffers)

    def widening(stmt: KOp) -> bool:  # fp16 -> fp32: the Cube's exact fp16 products
        return (
            stmt.op == "as_float"
            and types[stmt.dst].dtype is DType.FP32
            and types[stmt.args[0]].dtype is DType.FP16
        )

    def through(name: str) -> KLoad | KOp | None:
        stmt = defs.get(name)
        while isinstance(stmt, KOp) and (stmt.op in ("assign", "ident") or widening(stmt)):
            stmt = defs.get(stmt.args[0])
        return stmt

    product = through(store.src)
    if not isinstance(product, KOp) or product.op != "mul" or len(product.args) != 2:
        return None
    a, b = through(product.args[0]), through(product.args[1])
    if not isinstance(a, KLoad) or not isinstance(b, KLoad):
        return None
    # The left operand (rows M) is the one the pass pipeline gave an L0A copy (`stencil`
    # chose the roles), else the first factor.
    left = kernel.placed_in("L0A")
    if b.access.buffer in left and a.access.buffer not in left:
        a, b = b, a
    dtype = types[product.dst].dtype
    stored = ctx.storage[store.access.buffer]
    operands = {ctx.storage[a.access.buffer], ctx.storage[b.access.buffer]}
    exact = operands == {DType.FP16} and dtype is DType.FP32
    if exact:
        dtype = DType.FP16  # products of fp16 operands made exact in fp32: fp16 on the Cube
    # an fp16 product (rounded, as Stripe computes it) may only be stored as fp16
    if operands != {dtype} or stored not in ((dtype, DType.FP32) if exact else (dtype,)):
        return None
    if dtype is DType.FP32 and ctx.options.fp32_contraction != "split":
        return None
    if dtype is DType.FP16 and ctx.options.fp16_contraction != "cube":
        return None
    if dtype not in (DType.FP16, DType.FP32):
        return None
    out = set(store.access.offset.names())
    used_a, used_b = set(a.access.offset.names()), set(b.access.offset.names())
    red = [v for v, _ in kernel.idxs if v not in out]
    order = {v: k for k, (v, _) in enumerate(kernel.idxs)}

    def by(aff: Affine, names: set[str]) -> tuple[str, ...]:
        return tuple(sorted(names, key=lambda v: (-abs(aff.coeff(v)), order[v])))

    m_vars = by(store.access.offset, out - used_b)
    n_vars = by(store.access.offset, (out & used_b) - used_a)
    batch = by(store.access.offset, out & used_a & used_b)
    k_vars = by(a.access.offset, set(red))
    if not m_vars and not n_vars:
        return None  # dot products (one per batch point): 1 x 1 GEMMs, the vector unit's
    if not red and (batch or not m_vars or not n_vars):
        # no reduced index: an outer product (K = 1, padded to a fractal) is one GEMM; a
        # product of one matrix by one vector's elements is elementwise, the vector unit's
        return None
    a_side, b_side = set(m_vars) | set(k_vars), set(n_vars) | set(k_vars)
    a_cons: list[Affine] = []
    b_cons: list[Affine] = []
    out_cons: list[Affine] = []
    for con in kernel.constraints:
        # a constraint bounds every matrix whose indices it names: one on M alone (a ragged
        # last tile) bounds A's rows as well as C's, one on K alone both operands
        names = set(con.names()) - set(batch)
        bounded = False
        for side, found in ((out, out_cons), (a_side, a_cons), (b_side, b_cons)):
            if names <= side:
                found.append(con)
                bounded = True
        if not bounded:
            return None  # couples M, N and K: not a product of two matrices
    return Contraction(
        a.access,
        b.access,
        store,
        m_vars,
        n_vars,
        k_vars,
        batch,
        tuple(a_cons),
        tuple(b_cons),
        tuple(out_cons),
        dtype,
        dtype is DType.FP32,
        stored,
    )


def count_points(names: tuple[str, ...], sizes: dict[str, int]) -> int:
    total = 1
    for v in names:
        total *= sizes[v]
    return total


@dataclass(frozen=True)
class Epilogue:
    """An elementwise kernel fused after a contraction: it reads the contraction's result
    (`buffer`, a temporary nothing else reads) from UB, index `v` of the contraction being its
    index `names[v]`, so the result never goes through GM."""

    kernel: Kernel
    plan: Plan
    names: dict[str, str]
    buffer: str


def epilogue_for(ctx: Context, producer: Kernel, consumer: Kernel, readers: int) -> Epilogue | None:
    """`consumer` as an epilogue of the contraction `producer`, when it is one: it has no
    reduction, and reads the result (a temporary no other kernel reads) at the very elements
    the contraction writes, one point each: through a renaming of the indices, or through any
    one-to-one correspondence of the points (the pipeline tiled the two differently), the
    consumer then moved into the contraction's indices."""
    con = recognise(ctx, producer)
    if con is None or readers != 1:
        return None
    name = con.store.access.buffer
    buf = ctx.buffers[name]
    if buf.is_input or buf.is_output:
        return None
    reads = {load.access.offset for load in consumer.loads() if load.access.buffer == name}
    if len(reads) != 1 or any(s.access.buffer == name for s in consumer.stores()):
        return None
    outs = (*con.batch, *con.m, *con.n)
    renamed = _renamed(producer, consumer, next(iter(reads)), con.store.access.offset, outs)
    if renamed is not None and not con.out_cons:
        plan = analyse(ctx, consumer)
        if plan is None or plan.red or consumer.constraints:
            return None
        return Epilogue(consumer, plan, renamed, name)
    # the pipeline tiled the two differently: the consumer in the contraction's indices
    moved = _in_indices_of(producer, con, consumer, next(iter(reads)))
    plan = analyse(ctx, moved) if moved is not None else None
    if moved is None or plan is None or plan.red:
        return None
    return Epilogue(moved, plan, {v: v for v in outs}, name)


def _renamed(
    producer: Kernel, consumer: Kernel, read: Affine, written: Affine, outs: tuple[str, ...]
) -> dict[str, str] | None:
    """The contraction's output indices `outs` to the consumer's, when the consumer reads the
    result through a renaming of the indices the contraction writes it with."""
    ranges, producer_ranges = consumer.ranges, producer.ranges
    if read.const != written.const or len(read.terms) != len(consumer.idxs):
        return None
    names: dict[str, str] = {}
    for var, coeff in written.terms:
        match = [u for u, k in read.terms if k == coeff and ranges[u] == producer_ranges[var]]
        if len(match) != 1:
            return None
        names[var] = match[0]
    if set(names) != set(outs) or len(set(names.values())) != len(names):
        return None
    return names


def _in_indices_of(
    producer: Kernel, con: Contraction, consumer: Kernel, read: Affine
) -> Kernel | None:
    """`consumer` over the contraction's output indices (their ranges and the constraints
    on them: a ragged last tile's), each of its accesses re-expressed in them, when its points
    and the contraction's output points correspond one-to-one through the element of the
    result each reads and writes (isl decides it); None when they do not."""
    outs, sizes = (*con.batch, *con.m, *con.n), producer.ranges
    bounds = [
        b for v, n in consumer.idxs for b in (Affine.var(v), Affine.const_(n - 1) - Affine.var(v))
    ]
    accesses = [s for s in consumer.body if isinstance(s, (KLoad, KStore))]
    forms = reexpressed(
        _output_space(outs, sizes, con.out_cons),
        con.store.access.offset,
        IndexSpace(tuple(v for v, _ in consumer.idxs), (*bounds, *consumer.constraints)),
        read,
        [s.access.offset for s in accesses],
    )
    if forms is None:
        return None
    moved = {id(s): f for s, f in zip(accesses, forms, strict=True)}

    def at(stmt: KStmt) -> KStmt:
        if isinstance(stmt, (KLoad, KStore)):
            access = Access(stmt.access.buffer, moved[id(stmt)])
            return dataclasses.replace(stmt, access=access)
        return stmt

    return dataclasses.replace(
        consumer,
        idxs=tuple((v, sizes[v]) for v, _ in producer.idxs if v in outs),
        constraints=con.out_cons,
        body=tuple(at(s) for s in consumer.body),
        pinned=(),
        placed=(),
    )


def _output_space(
    outs: tuple[str, ...], sizes: dict[str, int], constraints: tuple[Affine, ...]
) -> IndexSpace:
    """The contraction's output points: indices `outs` in [0, size), under `constraints`."""
    box = [b for v in outs for b in (Affine.var(v), Affine.const_(sizes[v] - 1) - Affine.var(v))]
    return IndexSpace(outs, (*box, *constraints))


def converted_on_the_way_out(
    ctx: Context, producer: Kernel, consumer: Kernel, readers: int
) -> Kernel | None:
    """The contraction `producer` writing `consumer`'s output directly, when `consumer` only
    converts the contraction's fp32 result to fp16 element by element (the Tile lowering's
    `C = as_float(C_acc, 16)` after an fp16 matmul): the Cube's fp32 accumulator is rounded
    to fp16 once on its way out, exactly what the two kernels compute, without the fp32
    temporary going through GM. None when that is not the shape of the pair."""
    con = recognise(ctx, producer)
    if con is None or con.out is not DType.FP32 or readers != 1:
        return None
    if len(consumer.body) != 4:
        return None
    load, const, cast, store = consumer.body
    if not (
        isinstance(load, KLoad)
        and isinstance(const, KConst)
        and isinstance(cast, KOp)
        and isinstance(store, KStore)
    ):
        return None
    temp, out = ctx.buffers[con.store.access.buffer], ctx.buffers[store.access.buffer]
    if (
        load.access.buffer != temp.name
        or temp.is_input
        or temp.is_output
        or (cast.op, cast.args) != ("as_float", (load.dst, const.dst))
        or const.value != 16
        or store.src != cast.dst
        or store.agg != "assign"
        or load.access.offset != store.access.offset
        or out.dtype is not DType.FP16
        or (out.extent, out.origin) != (temp.extent, temp.origin)
    ):
        return None
    # every element of the temporary is written by the contraction and read by the consumer:
    # the contraction writes as many points as the temporary has elements, and they correspond
    # one-to-one to the consumer's points through the element each writes and reads (isl
    # decides it, whatever tiles and ragged-edge constraints the pipeline gave the consumer)
    outs = (*con.batch, *con.m, *con.n)
    written = point_count(_output_space(outs, producer.ranges, con.out_cons).to_isl())
    if written != temp.shape.elem_count:
        return None
    if _in_indices_of(producer, con, consumer, load.access.offset) is None:
        return None
    redirected = KStore(Access(out.name, con.store.access.offset), con.store.agg, con.store.src)
    body = tuple(redirected if s is con.store else s for s in producer.body)
    # the fp32 accumulator the pipeline placed in L0C for the temporary now feeds the output
    placed = tuple(
        (out.name if name == temp.name and at.mem == "L0C" else name, at)
        for name, at in producer.placed
    )
    return dataclasses.replace(producer, body=body, placed=placed)
