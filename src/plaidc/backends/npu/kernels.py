"""Stripe -> the NPU backend's kernel form: flat affine kernels over program buffers.

The backend compiles a program as a sequence of *kernels*. A kernel is one parallel block with
every level of nesting flattened away: its indices (each `[0, range)`), its constraints, and a
straight-line body of loads, constants, scalar operations and stores whose addresses are affine
element offsets into *program buffers* (the GM arrays). So the code generator never looks at
refinement chains again, whatever passes did to the program:

    block [i:3, j:5] ( in X[i, j] fp32:I(1, 1):(5, 1), out Y[i, j] ... ) { $x = load(X); ... }
      ->  Kernel(idxs=(("i", 3), ("j", 5)), body=(KLoad("$x", Access("X", 5*i + j)), ...))

Containers (blocks with one point, no constraints and only blocks or specials inside, such as
`main`) are walked through; a nest of blocks each holding exactly one child block (tiling) is
flattened into one kernel whose aggregation is the nest's (sum of sums is a sum); the specials
`zero`, `copy` and `reshape` become kernels of their own. Anything else that has no flat form
(blocks holding both blocks and other statements, per-point buffers that are read before they are
written, ...) is a CompileError naming it. `load_index` reads a constant GM table of index values
the compiler adds to the program's buffers; `gather` becomes a `GatherKernel`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Union

import numpy as np

from plaidc.backends.npu.placement import Placed, Placements
from plaidc.diagnostics import CompileError, Diagnostic, Span
from plaidc.stripe.ir import (
    Affine,
    Block,
    Constant,
    DType,
    Intrinsic,
    Load,
    LoadIndex,
    Refinement,
    Special,
    Store,
    TensorShape,
)


@dataclass(frozen=True)
class Buffer:
    """A program buffer as it lives in GM: a flat array of `extent` elements whose element 0
    (the element the refinement's index 0 names) is at `origin` (non-zero for negative strides,
    as in the interpreter's layout)."""

    name: str
    dtype: DType
    shape: TensorShape
    extent: int
    origin: int
    is_input: bool
    is_output: bool


@dataclass(frozen=True)
class Access:
    """Element `offset` (affine over the kernel's indices, origin included) of a buffer."""

    buffer: str
    offset: Affine


@dataclass(frozen=True)
class KLoad:
    dst: str
    access: Access


@dataclass(frozen=True)
class KConst:
    """A literal; `type` is `int`, `float` (weakly typed) or a DType name."""

    dst: str
    value: int | float
    type: str


@dataclass(frozen=True)
class KOp:
    dst: str
    op: str
    args: tuple[str, ...]
    span: Span | None = None


@dataclass(frozen=True)
class KStore:
    """Store `src` through `access` with aggregation `agg` (`assign`, `add`, `max`, ...)."""

    access: Access
    agg: str
    src: str


KStmt = Union[KLoad, KConst, KOp, KStore]


@dataclass(frozen=True)
class Operand:
    """A view of a buffer: element 0 at element `offset` of `buffer`, then `shape`'s strides."""

    buffer: str
    offset: int
    shape: TensorShape


@dataclass(frozen=True)
class Kernel:
    """One flat kernel: indices `[0, range)`, constraints `affine >= 0`, a straight-line body."""

    name: str
    idxs: tuple[tuple[str, int], ...]
    constraints: tuple[Affine, ...]
    body: tuple[KStmt, ...]
    span: Span | None = None
    comment: str = ""
    # Indices of the blocks around a tile the pass pipeline chose (an inner block tagged with
    # the target's `tile_tag`): the vector unit runs one point of them per tile.
    pinned: tuple[str, ...] = ()
    # Where the pass pipeline placed a tile's copies of each buffer (`placement`): in UB,
    # and for a Cube kernel's K step in L1, L0A, L0B and L0C.
    placed: tuple[tuple[str, Placed], ...] = ()

    def placed_in(self, mem: str) -> dict[str, Placed]:
        """The pipeline's placements in `mem`, by buffer."""
        return {name: at for name, at in self.placed if at.mem == mem}

    @property
    def ranges(self) -> dict[str, int]:
        return dict(self.idxs)

    def loads(self) -> list[KLoad]:
        return [s for s in self.body if isinstance(s, KLoad)]

    def stores(self) -> list[KStore]:
        return [s for s in self.body if isinstance(s, KStore)]

    def read_buffers(self) -> set[str]:
        return {load.access.buffer for load in self.loads()}

    def written_buffers(self) -> set[str]:
        return {store.access.buffer for store in self.stores()}


@dataclass(frozen=True)
class GatherKernel:
    """`out[p..., e...] = source[clamp(index[p...], 0, rows - 1), e...]`: the `gather`
    special, whose row address is data (lowered through the scalar unit, `gather`)."""

    name: str
    source: Operand
    index: Operand
    out: Operand
    span: Span | None = None
    comment: str = ""

    def read_buffers(self) -> set[str]:
        return {self.source.buffer, self.index.buffer}

    def written_buffers(self) -> set[str]:
        return {self.out.buffer}


@dataclass(frozen=True)
class KernelProgram:
    """A whole program: its GM buffers (parameters of the generated kernel, sorted by name) and
    its kernels in execution order. `constants` holds the contents of the GM buffers the
    compiler made (the index table of `load_index`), which the host fills before a run."""

    buffers: dict[str, Buffer]
    kernels: tuple[Kernel | GatherKernel, ...]
    constants: dict[str, np.ndarray] = field(default_factory=dict)


def error(message: str, span: Span | None = None) -> CompileError:
    return CompileError([Diagnostic(message, span)])


# --------------------------------------------------------------------------------------------
# Views while walking the tree


@dataclass(frozen=True)
class _View:
    """What a refinement name means at some level: element 0 of `buffer` at `offset`, the
    view's interior shape and the aggregations of the refinements down to it."""

    buffer: str
    offset: Affine
    shape: TensorShape
    aggs: tuple[str, ...] = ()


@dataclass
class _Flat:
    """The accumulated flat kernel while descending a nest."""

    idxs: list[tuple[str, int]] = field(default_factory=list)
    constraints: list[Affine] = field(default_factory=list)
    taken: set[str] = field(default_factory=set)
    pinned: tuple[str, ...] = ()  # see Kernel.pinned
    placed: tuple[tuple[str, Placed], ...] = ()  # see Kernel.placed

    def copy(self) -> _Flat:
        return _Flat(
            list(self.idxs), list(self.constraints), set(self.taken), self.pinned, self.placed
        )

    def fresh(self, name: str) -> str:
        candidate, n = name, 1
        while candidate in self.taken:
            candidate, n = f"{name}_{n}", n + 1
        self.taken.add(candidate)
        return candidate


def _block_label(block: Block) -> str:
    name = block.name or "block"
    comment = block.comments[0].strip() if block.comments else ""
    return f"{name} ({comment})" if comment else name


def _is_container(block: Block) -> bool:
    return (
        all(i.range == 1 for i in block.idxs)
        and not block.constraints
        and all(isinstance(s, (Block, Special)) for s in block.stmts)
    )


def _enter(
    block: Block,
    subst: dict[str, Affine],
    env: dict[str, _View],
    flat: _Flat,
    allocate: Callable[[Refinement, _Flat], _View] | None = None,
) -> tuple[dict[str, Affine], dict[str, _View]]:
    """Add `block`'s indices and constraints to `flat`; its refinements as views. Allocations
    become views of GM buffers through `allocate`, or are an error."""
    inner: dict[str, Affine] = {}
    for idx in block.idxs:
        start = idx.affine.substitute(subst)
        if idx.range == 1:
            inner[idx.name] = start
        else:
            var = flat.fresh(idx.name)
            flat.idxs.append((var, idx.range))
            inner[idx.name] = start + Affine.var(var)
    flat.constraints.extend(c.affine.substitute(inner) for c in block.constraints)
    views: dict[str, _View] = {}
    for ref in block.refs:
        if ref.from_ is None and allocate is not None:
            views[ref.into] = allocate(ref, flat)
            continue
        if ref.from_ is None:
            raise error(
                f"{_block_label(block)}: the local allocation '{ref.into}' (a per-point buffer) "
                "has no NPU mapping; run the scalarize pass or keep temporaries at program level",
                ref.span or block.span,
            )
        parent = env.get(ref.from_)
        if parent is None:
            raise error(f"{_block_label(block)}: '{ref.from_}' is not visible here", ref.span)
        offset = parent.offset
        for access, stride in zip(ref.access, ref.shape.strides, strict=True):
            offset = offset + access.substitute(inner) * stride
        aggs = parent.aggs + ((ref.agg_op or "assign",) if ref.dir.writes else ())
        views[ref.into] = _View(parent.buffer, offset, ref.shape, aggs)
    return inner, views


def _agg_of(view: _View, where: str, span: Span | None) -> str:
    ops = {a for a in view.aggs if a not in ("assign", "")}
    if len(ops) > 1:
        raise error(
            f"{where}: nested aggregations {sorted(ops)} of one store cannot be merged", span
        )
    return ops.pop() if ops else "assign"


class _Builder:
    """Walks a program and collects its kernels and the GM buffers they use."""

    def __init__(self, buffers: dict[str, Buffer], tile_tag: str, placements: Placements) -> None:
        self.kernels: list[Kernel | GatherKernel] = []
        self.buffers = buffers
        self.tile_tag = tile_tag
        self.placements = placements
        self.table: str | None = None  # the index table's buffer, once a kernel needs it
        self.table_size = 0

    def allocate(self, ref: Refinement, flat: _Flat) -> _View:
        """A GM temporary for an allocation: one instance per point of the indices around it
        (so a fused block's per-point buffers survive splitting it into kernels)."""
        name, n = ref.into, 1
        while name in self.buffers:
            name, n = f"{ref.into}_{n}", n + 1
        extent, points = max(ref.shape.extent, 1), 1
        offset = Affine.const_(_origin(ref.shape))
        for var, size in reversed(flat.idxs):
            offset = offset + Affine.var(var, points * extent)
            points *= size
        dense = TensorShape.dense(ref.shape.dtype, (points * extent,))
        self.buffers[name] = Buffer(name, ref.shape.dtype, dense, points * extent, 0, False, False)
        return _View(name, offset, ref.shape, (ref.agg_op or "assign",))

    def container(self, block: Block, env: dict[str, _View]) -> None:
        _, views = _enter(block, {}, env, _Flat(), self.allocate)
        placed = self.placements.get(id(block))  # a one-tile kernel's block over tiles
        for stmt in block.stmts:
            if isinstance(stmt, Special):
                self.special(stmt, views, _block_label(block))
            elif isinstance(stmt, Block):
                if _is_container(stmt):
                    self.container(stmt, views)
                else:
                    flat = _Flat(placed=_placed_buffers(placed, views) if placed else ())
                    self.kernel(stmt, views, flat, {}, _block_label(stmt))

    def kernel(
        self,
        top: Block,
        env: dict[str, _View],
        flat: _Flat,
        subst: dict[str, Affine],
        label: str,
    ) -> None:
        """The kernels of `top`, inside the indices `flat` of the blocks around it: a nest of
        single blocks is one kernel; a block holding several blocks (a fused kernel) is split
        into one kernel per child, in order. That is sound for well-formed Stripe, whose points
        never read what other points write (Definition 2); each point's local buffers become a
        GM array over the points."""
        chain = [top]
        while len(chain[-1].stmts) == 1 and isinstance(chain[-1].stmts[0], Block):
            chain.append(chain[-1].stmts[0])
        block, views = chain[-1], env
        fused = any(isinstance(s, Block) for s in block.stmts)
        local: set[str] = set()

        def slot(ref: Refinement, _flat: _Flat) -> _View:  # per-point scalar of a leaf
            local.add(ref.into)
            return _View("", Affine(), ref.shape)

        tag = self.tile_tag
        tiles = [k for k, level in enumerate(chain) if tag and tag in level.tags]
        for k, level in enumerate(chain):
            if tiles and k == tiles[-1]:  # the indices so far iterate over the chosen tiles
                flat.pinned = tuple(v for v, _ in flat.idxs)
            leaf_slot = slot if level is block and not fused else self.allocate
            subst, views = _enter(level, subst, views, flat, leaf_slot)
            if id(level) in self.placements:
                flat.placed = _placed_buffers(self.placements[id(level)], views)
        if fused:
            if not all(isinstance(s, Block) for s in block.stmts):
                raise error(
                    f"{label}: a block holding nested blocks and other statements has no NPU "
                    "mapping",
                    block.span or top.span,
                )
            for child in block.stmts:
                assert isinstance(child, Block)
                self.kernel(
                    child, views, flat.copy(), dict(subst), f"{label}/{_block_label(child)}"
                )
            return
        self.leaf(block, views, flat, local, label, top, subst)

    def leaf(
        self,
        block: Block,
        views: dict[str, _View],
        flat: _Flat,
        local: set[str],
        label: str,
        top: Block,
        subst: dict[str, Affine],
    ) -> None:
        """One kernel from the statements of an innermost block (`subst`: its indices as
        affines of the kernel's)."""
        body: list[KStmt] = []
        stored: dict[str, str] = {}  # refinement -> the scalar this point stored there
        for stmt in block.stmts:
            # Stripe lowered from Tile has spans on its blocks only (the Tile statement's)
            span = stmt.span or block.span or top.span
            if isinstance(stmt, Load):
                view = self._view(views, stmt.from_, label, span)
                if stmt.from_ in stored:  # a point reads back its own store
                    cast = f"cast_{view.shape.dtype}"
                    body.append(KOp(stmt.into, cast, (stored[stmt.from_],), span))
                elif stmt.from_ in local:
                    raise error(f"{label}: '{stmt.from_}' is read before it is written", span)
                else:
                    body.append(KLoad(stmt.into, Access(view.buffer, view.offset)))
            elif isinstance(stmt, Store):
                if stmt.into in stored:
                    raise error(f"{label}: '{stmt.into}' is stored twice", span)
                stored[stmt.into] = stmt.from_
                if stmt.into in local:
                    continue
                view = self._view(views, stmt.into, label, span)
                agg = _agg_of(view, label, span)
                body.append(KStore(Access(view.buffer, view.offset), agg, stmt.from_))
            elif isinstance(stmt, Constant):
                body.append(KConst(stmt.name, stmt.value, stmt.type))
            elif isinstance(stmt, Intrinsic):
                if len(stmt.outputs) != 1:
                    raise error(f"{label}: intrinsic '{stmt.name}' with several outputs", span)
                body.append(KOp(stmt.outputs[0], stmt.name, stmt.inputs, span))
            elif isinstance(stmt, LoadIndex):
                body.extend(self.index_values(stmt, stmt.affine.substitute(subst), flat))
            elif isinstance(stmt, Special):
                if flat.idxs:
                    raise error(f"{label}: special '{stmt.name}' inside an indexed block", span)
                self.special(stmt, views, label)
        if body:
            self.kernels.append(
                Kernel(
                    top.name or f"kernel_{len(self.kernels)}",
                    tuple(flat.idxs),
                    tuple(flat.constraints),
                    tuple(body),
                    top.span,
                    next((c.strip() for c in top.comments if c.strip()), ""),
                    flat.pinned,
                    flat.placed,
                )
            )

    def index_values(self, stmt: LoadIndex, value: Affine, flat: _Flat) -> list[KStmt]:
        """`load_index`: the vector unit has no lane-index instruction, so index values are
        data: a constant GM table `0, 1, ..., n-1` (int32) the kernel loads at `value - lo`,
        plus `lo` (the least value over the kernel's box)."""
        ranges = dict(flat.idxs)
        lo = value.const + sum(min(0, k * (ranges[v] - 1)) for v, k in value.terms)
        hi = value.const + sum(max(0, k * (ranges[v] - 1)) for v, k in value.terms)
        size = max(hi - lo + 1, self.table_size)
        if self.table is None:
            name = "index_table"
            while name in self.buffers:
                name += "_"
            self.table = name
        self.table_size = size
        self.buffers[self.table] = Buffer(
            self.table, DType.I32, TensorShape.dense(DType.I32, (size,)), size, 0, False, False
        )
        if lo == 0:
            return [KLoad(stmt.into, Access(self.table, value))]
        raw, base = f"{stmt.into}$table", f"{stmt.into}$lo"
        return [
            KLoad(raw, Access(self.table, value - lo)),
            KConst(base, lo, "int"),
            KOp(stmt.into, "add", (raw, base), stmt.span),
        ]

    @staticmethod
    def _view(views: dict[str, _View], name: str, label: str, span: Span | None) -> _View:
        view = views.get(name)
        if view is None:
            raise error(f"{label}: '{name}' is not a refinement of this block", span)
        return view

    def special(self, stmt: Special, views: dict[str, _View], label: str) -> None:
        where = f"{label}: special '{stmt.name}'"
        if stmt.name == "zero":
            for name in stmt.outputs or stmt.inputs:
                out = self._view(views, name, label, stmt.span)
                idxs, offset = _view_indices(out.shape, out.offset, "z")
                const = KConst("$zero", 0, out.shape.dtype.value)
                store = KStore(Access(out.buffer, offset), "assign", "$zero")
                self.kernels.append(Kernel(f"zero_{name}", idxs, (), (const, store), stmt.span))
        elif stmt.name in ("copy", "reshape"):
            if len(stmt.inputs) != 1 or len(stmt.outputs) != 1:
                raise error(f"{where} takes one input and one output", stmt.span)
            src = self._view(views, stmt.inputs[0], label, stmt.span)
            dst = self._view(views, stmt.outputs[0], label, stmt.span)
            if src.shape.elem_count != dst.shape.elem_count:
                raise error(f"{where}: element counts differ", stmt.span)
            if src.shape.sizes == dst.shape.sizes or _is_dense(src.shape):
                idxs, dst_off = _view_indices(dst.shape, dst.offset, "c")
                src_off = _row_major_offset(src, dst.shape, "c", where, stmt.span)
            elif _is_dense(dst.shape):
                idxs, src_off = _view_indices(src.shape, src.offset, "c")
                dst_off = _row_major_offset(dst, src.shape, "c", where, stmt.span)
            else:
                raise error(f"{where}: neither view is dense row-major", stmt.span)
            body = (
                KLoad("$v", Access(src.buffer, src_off)),
                KStore(Access(dst.buffer, dst_off), "assign", "$v"),
            )
            self.kernels.append(Kernel(f"{stmt.name}_{stmt.outputs[0]}", idxs, (), body, stmt.span))
        elif stmt.name == "gather":
            if len(stmt.inputs) != 2 or len(stmt.outputs) != 1:
                raise error(f"{where} takes two inputs and one output", stmt.span)
            source, index, result = (
                self._operand(views, name, label, stmt.span)
                for name in (*stmt.inputs, stmt.outputs[0])
            )
            if not source.shape.sizes or result.shape.sizes != (
                index.shape.sizes + source.shape.sizes[1:]
            ):
                raise error(f"{where}: the output must be shaped index + source[1:]", stmt.span)
            name = f"gather_{stmt.outputs[0]}"
            self.kernels.append(GatherKernel(name, source, index, result, stmt.span))
        elif stmt.name == "shape":  # the sizes are known: one constant store each
            if len(stmt.inputs) != 1 or len(stmt.outputs) != 1:
                raise error(f"{where} takes one input and one output", stmt.span)
            sizes = self._view(views, stmt.inputs[0], label, stmt.span).shape.sizes
            out = self._view(views, stmt.outputs[0], label, stmt.span)
            if out.shape.sizes != (len(sizes),):
                raise error(
                    f"{where}: the output must hold the input's {len(sizes)} sizes", stmt.span
                )
            for d, size in enumerate(sizes):
                at = out.offset + d * out.shape.strides[0]
                const = KConst("$size", size, out.shape.dtype.value)
                store = KStore(Access(out.buffer, at), "assign", "$size")
                name = f"shape_{stmt.outputs[0]}_{d}"
                self.kernels.append(Kernel(name, (), (), (const, store), stmt.span))
        else:
            raise error(f"{where} has no NPU mapping", stmt.span)

    def _operand(
        self, views: dict[str, _View], name: str, label: str, span: Span | None
    ) -> Operand:
        view = self._view(views, name, label, span)
        if view.offset.terms:
            raise error(f"{label}: '{name}' moves with an index around a special", span)
        return Operand(view.buffer, view.offset.const, view.shape)


def _is_dense(shape: TensorShape) -> bool:
    return shape.strides == TensorShape.dense(shape.dtype, shape.sizes).strides


def _view_indices(
    shape: TensorShape, base: Affine, prefix: str
) -> tuple[tuple[tuple[str, int], ...], Affine]:
    """Indices over a view's dimensions (size-1 dimensions dropped; a size-0 one stays, so the
    kernel has no points) and the element offset."""
    idxs: list[tuple[str, int]] = []
    offset = base
    for d, (size, stride) in enumerate(zip(shape.sizes, shape.strides, strict=True)):
        if size != 1:
            idxs.append((f"{prefix}{d}", size))
            offset = offset + Affine.var(f"{prefix}{d}", stride)
    return tuple(idxs), offset


def _row_major_offset(
    view: _View, by: TensorShape, prefix: str, where: str, span: Span | None
) -> Affine:
    """Offset in `view` of the element whose row-major position is that of the indices
    `_view_indices(by, ..., prefix)` name in `by`."""
    offset = view.offset
    if view.shape.sizes == by.sizes:
        for d, (size, stride) in enumerate(zip(by.sizes, view.shape.strides, strict=True)):
            if size > 1:
                offset = offset + Affine.var(f"{prefix}{d}", stride)
        return offset
    if not _is_dense(view.shape):
        raise error(f"{where}: '{view.buffer}' is not dense row-major", span)
    dense = TensorShape.dense(by.dtype, by.sizes).strides
    step = view.shape.strides[-1] if view.shape.strides else 1
    for d, size in enumerate(by.sizes):
        if size > 1:
            offset = offset + Affine.var(f"{prefix}{d}", dense[d] * step)
    return offset


# --------------------------------------------------------------------------------------------


def _origin(shape: TensorShape) -> int:
    """Element index of element 0 in a fresh allocation (non-zero for negative strides)."""
    from plaidc.interp import alloc_layout

    return alloc_layout(shape)[1]


def program_buffers(program: Block) -> dict[str, Buffer]:
    """The GM buffers of a program: every root refinement, with its role from program_io."""
    from plaidc.interp import alloc_layout, program_io

    io = program_io(program)
    buffers = {}
    for ref in program.refs:
        extent, origin = alloc_layout(ref.shape)
        buffers[ref.into] = Buffer(
            ref.into,
            ref.shape.dtype,
            ref.shape,
            extent,
            origin,
            ref.into in io.inputs,
            ref.into in io.outputs,
        )
    return buffers


def _placed_buffers(
    placed: dict[tuple[str, str], Placed], views: dict[str, _View]
) -> tuple[tuple[str, Placed], ...]:
    """The placements of a block's views, by the GM buffer each views (a buffer two placed
    views share in one memory has no single placement there and is left out)."""
    by_buffer: dict[tuple[str, str], list[Placed]] = {}
    for (mem, name), where in placed.items():
        by_buffer.setdefault((views[name].buffer, mem), []).append(where)
    return tuple(
        (buffer, found[0]) for (buffer, _), found in sorted(by_buffer.items()) if len(found) == 1
    )


def lower_program(
    program: Block, tile_tag: str = "", placements: Placements | None = None
) -> KernelProgram:
    """The kernels of `program` in execution order (CompileError for what has no flat form);
    inner blocks tagged `tile_tag` are tiles the pass pipeline chose (`Kernel.pinned`), and
    `placements` (from `placement.uncache`) where it put their UB copies (`Kernel.placed`)."""
    buffers = program_buffers(program)
    env = {name: _View(name, Affine.const_(buf.origin), buf.shape) for name, buf in buffers.items()}
    builder = _Builder(buffers, tile_tag, placements or {})
    for stmt in program.stmts:
        if isinstance(stmt, Special):
            builder.special(stmt, env, "program")
        elif isinstance(stmt, Block):
            if _is_container(stmt):
                builder.container(stmt, env)
            else:
                builder.kernel(stmt, env, _Flat(), {}, _block_label(stmt))
        elif not isinstance(stmt, Constant):
            raise error("the program's root holds a statement outside any block", stmt.span)
    constants = {}
    if builder.table is not None:
        constants[builder.table] = np.arange(builder.table_size, dtype=np.int32)
    return KernelProgram(builder.buffers, tuple(builder.kernels), constants)


__all__ = [
    "Access",
    "Buffer",
    "GatherKernel",
    "KConst",
    "KLoad",
    "KOp",
    "KStmt",
    "KStore",
    "Kernel",
    "KernelProgram",
    "Operand",
    "error",
    "lower_program",
    "program_buffers",
]
