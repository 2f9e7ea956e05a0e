"""The loop-nest plan: a small, backend-neutral imperative IR that both CPU backends print.

A plan is what is left of a Stripe program once every polyhedral and semantic question has been
answered: loops with exact bounds (from isl), integer address arithmetic over absolute strides,
typed scalar operations whose types follow the interpreter's numpy promotion, explicit
initialisation of aggregated footprints, and functions (one per kernel, one per micro-kernel).
The C backend prints it through its syntax tree, the LLVM backend through llvmlite's builder; a
backend makes no semantic decision of its own.

Integers (indices, bounds, offsets) are 64-bit and signed. Scalars have a `ScalarType`: a
Stripe `DType` (never bf16, whose values live in float32) optionally widened to a vector of
`lanes` elements (used by micro-kernels).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Union

from plaidc.stripe.ir import Affine, DType

# --------------------------------------------------------------------------------------------
# Integer expressions


@dataclass(frozen=True)
class IVar:
    """An integer variable (loop iterator, index binding or function parameter)."""

    name: str


@dataclass(frozen=True)
class IConst:
    value: int


# Binary integer operators: `+ - *`, `min max`, `fdiv` (floor division by a positive constant),
# `pdiv` (division of a non-negative value by a positive one), `rem` (C remainder).
INT_BINARY = ("+", "-", "*", "min", "max", "fdiv", "pdiv", "rem")
INT_COMPARE = ("<", "<=", ">", ">=", "==", "!=")


@dataclass(frozen=True)
class IBin:
    op: str
    a: IntExpr
    b: IntExpr


@dataclass(frozen=True)
class ICmp:
    """A comparison (a boolean in conditions and selects)."""

    op: str
    a: IntExpr
    b: IntExpr


@dataclass(frozen=True)
class ILogic:
    """`and` / `or` of conditions."""

    op: str
    a: IntExpr
    b: IntExpr


@dataclass(frozen=True)
class ISelect:
    cond: IntExpr
    a: IntExpr
    b: IntExpr


@dataclass(frozen=True)
class IScalar:
    """The value of an i64 scalar variable (a data-dependent index, e.g. in a gather)."""

    name: str


@dataclass(frozen=True)
class IAlignGap:
    """The elements from `buffer[offset]` up to the next address that is a multiple of `align`
    bytes (a power of two), 0 at one: `(-address mod align) / element size`, known at run time
    only (`plaidc.backends.loopnest.align` peels a vector loop's first iterations by it)."""

    buffer: str
    offset: IntExpr
    align: int


IntExpr = Union[IVar, IConst, IBin, ICmp, ILogic, ISelect, IScalar, IAlignGap]


def iconst(value: int) -> IConst:
    return IConst(int(value))


def iadd(a: IntExpr, b: IntExpr) -> IntExpr:
    """`a + b`, folding constants."""
    if isinstance(a, IConst) and isinstance(b, IConst):
        return IConst(a.value + b.value)
    if isinstance(b, IConst) and b.value == 0:
        return a
    if isinstance(a, IConst) and a.value == 0:
        return b
    return IBin("+", a, b)


def imul(a: IntExpr, k: int) -> IntExpr:
    """`a * k` for a constant `k`, folding constants."""
    if isinstance(a, IConst):
        return IConst(a.value * k)
    if k == 1:
        return a
    if k == 0:
        return IConst(0)
    return IBin("*", a, IConst(k))


def affine_expr(affine: Affine) -> IntExpr:
    """An `Affine` whose names are plan variables, as an integer expression (terms in name
    order, the constant last, so the printed form is stable)."""
    out: IntExpr | None = None
    for name, coeff in affine.terms:
        term = imul(IVar(name), coeff)
        out = term if out is None else iadd(out, term)
    if out is None:
        return IConst(affine.const)
    return iadd(out, IConst(affine.const)) if affine.const else out


def int_children(expr: IntExpr) -> tuple[IntExpr, ...]:
    """The integer expressions directly inside `expr`."""
    if isinstance(expr, (IBin, ICmp, ILogic)):
        return (expr.a, expr.b)
    if isinstance(expr, ISelect):
        return (expr.cond, expr.a, expr.b)
    if isinstance(expr, IAlignGap):
        return (expr.offset,)
    return ()


def int_vars(expr: IntExpr) -> Iterator[str]:
    """The variable names an integer expression reads."""
    if isinstance(expr, IVar):
        yield expr.name
    for child in int_children(expr):
        yield from int_vars(child)


def int_scalars(expr: IntExpr) -> Iterator[str]:
    """The scalar variables an integer expression reads (through `IScalar`)."""
    if isinstance(expr, IScalar):
        yield expr.name
    for child in int_children(expr):
        yield from int_scalars(child)


def int_buffers(expr: IntExpr) -> Iterator[str]:
    """The buffers whose addresses an integer expression reads (through `IAlignGap`)."""
    if isinstance(expr, IAlignGap):
        yield expr.buffer
    for child in int_children(expr):
        yield from int_buffers(child)


# --------------------------------------------------------------------------------------------
# Scalar types and expressions


@dataclass(frozen=True)
class ScalarType:
    """A scalar element type, or a vector of `lanes` of them (lanes 1 = scalar)."""

    dtype: DType
    lanes: int = 1

    @property
    def is_vector(self) -> bool:
        return self.lanes > 1

    def __str__(self) -> str:
        return str(self.dtype) if self.lanes == 1 else f"{self.dtype}x{self.lanes}"


def scalar(dtype: DType) -> ScalarType:
    return ScalarType(dtype)


BOOL = ScalarType(DType.BOOL)
I64 = ScalarType(DType.I64)
F64 = ScalarType(DType.FP64)


@dataclass(frozen=True)
class SVar:
    """A scalar variable (an SSA value from `LetScalar` or a mutable `DeclVar`)."""

    name: str
    type: ScalarType


@dataclass(frozen=True)
class SConst:
    """A literal; `value` is exactly representable in `type` (ints, floats incl. inf/nan)."""

    value: int | float | bool
    type: ScalarType


@dataclass(frozen=True)
class SLoad:
    """`buffer[offset]` (a vector load of `type.lanes` consecutive elements for vectors)."""

    buffer: str
    offset: IntExpr
    type: ScalarType


@dataclass(frozen=True)
class SIndex:
    """The value of an integer expression, as an i64 scalar (`load_index`)."""

    expr: IntExpr
    type: ScalarType = I64


@dataclass(frozen=True)
class SCast:
    """Conversion with C semantics (float to int truncates; to bool means `!= 0`; scalar to
    vector broadcasts)."""

    arg: SExpr
    type: ScalarType


# Unary operators: `neg bit_not abs`, math functions computed in the type (fp16 through
# float32 and rounded back), and `round_bf16` (float32 rounded to the nearest bfloat16).
UNARY_MATH = (
    "exp",
    "log",
    "sqrt",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "ceil",
    "floor",
    "round",
)
UNARY = ("neg", "bit_not", "abs", "round_bf16", *UNARY_MATH)

# Binary operators on operands of the result type: integer ops wrap; `div` is true division
# (floats) or C truncating division that yields 0 for a zero divisor (ints); `max`/`min`
# propagate NaN; `shl`/`shr` give numpy's results for out-of-range shift counts; `pow` on
# integers is exact wrapping exponentiation (negative exponents go through float64, as numpy's
# results do in the interpreter); `fma` is `a * b + c` (vectors only).
BINARY = ("add", "sub", "mul", "div", "max", "min", "bit_and", "bit_or", "bit_xor", "shl")
BINARY_ALL = (*BINARY, "shr", "pow")
COMPARE = ("eq", "ne", "lt", "gt", "le", "ge")


@dataclass(frozen=True)
class SUnary:
    op: str
    arg: SExpr
    type: ScalarType


@dataclass(frozen=True)
class SBinary:
    op: str
    a: SExpr
    b: SExpr
    type: ScalarType


@dataclass(frozen=True)
class SFma:
    """`a * b + c` on vectors (one rounding where the hardware has it)."""

    a: SExpr
    b: SExpr
    c: SExpr
    type: ScalarType


@dataclass(frozen=True)
class SCompare:
    """A comparison of two operands of one type; the result is a bool."""

    op: str
    a: SExpr
    b: SExpr
    type: ScalarType = BOOL


@dataclass(frozen=True)
class SSelect:
    """`cond ? a : b` with a bool `cond`."""

    cond: SExpr
    a: SExpr
    b: SExpr
    type: ScalarType


@dataclass(frozen=True)
class SShuffle:
    """Lanes of two vectors of `type`, picked by `mask`: lane `i` of the result is lane
    `mask[i]` of `a` followed by `b` (LLVM's shufflevector; a micro-kernel's transposing
    copies)."""

    a: SExpr
    b: SExpr
    mask: tuple[int, ...]
    type: ScalarType


SExpr = Union[
    SVar, SConst, SLoad, SIndex, SCast, SUnary, SBinary, SFma, SCompare, SSelect, SShuffle
]


# --------------------------------------------------------------------------------------------
# Statements


@dataclass(frozen=True)
class Comment:
    text: str


@dataclass(frozen=True)
class LetInt:
    """An immutable integer binding for the rest of the enclosing statement list."""

    name: str
    value: IntExpr


@dataclass(frozen=True)
class LetScalar:
    """An immutable scalar binding for the rest of the enclosing statement list."""

    name: str
    value: SExpr


@dataclass(frozen=True)
class Clock:
    """An immutable fp64 binding of `name` to the wall clock in seconds (OpenMP's
    `omp_get_wtime`), for the rest of the enclosing statement list (`profile.instrument`)."""

    name: str


@dataclass(frozen=True)
class DeclVar:
    """A mutable scalar (an accumulator), initialised, visible for the rest of the list."""

    name: str
    type: ScalarType
    init: SExpr


@dataclass(frozen=True)
class AssignVar:
    name: str
    value: SExpr


@dataclass(frozen=True)
class Store:
    """`buffer[offset] = value`, or with `agg` set `buffer[offset] = agg(buffer[offset],
    value)`; `value` has the buffer's storage type (vectors store `lanes` elements)."""

    buffer: str
    offset: IntExpr
    value: SExpr
    agg: str | None = None


@dataclass(frozen=True)
class Reduction:
    """A mutable scalar that a loop accumulates with an associative, commutative `op`, so its
    iterations may be reordered (vectorised) as far as that variable is concerned."""

    var: str
    op: str
    type: ScalarType


@dataclass(frozen=True)
class Loop:
    """`for (var = lo; var < hi; var += step)`.

    `parallel`: iterations are independent and should be spread over threads. `vector`:
    iterations are independent apart from `reductions`, so the loop may be vectorised."""

    var: str
    lo: IntExpr
    hi: IntExpr
    body: tuple[Stmt, ...]
    step: int = 1
    parallel: bool = False
    vector: bool = False
    reductions: tuple[Reduction, ...] = ()
    unroll: bool = False


@dataclass(frozen=True)
class If:
    cond: IntExpr
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...] = ()


@dataclass(frozen=True)
class Alloc:
    """A buffer of `size` elements of `dtype` (storage type) that exists while `body` runs.
    `heap` asks for heap memory (large buffers); its contents start undefined. A `scratch`
    buffer holds nothing between uses, so it may be hoisted out of loops and reused."""

    buffer: str
    dtype: DType
    size: int
    body: tuple[Stmt, ...]
    heap: bool = False
    align: int = 64
    scratch: bool = False


@dataclass(frozen=True)
class Prefetch:
    """A hint to bring `buffer[offset]`'s cache line into the nearest cache for a read
    (`prefetch.prefetch_next_rows`); it changes no value. `offset` lies within the buffer."""

    buffer: str
    offset: IntExpr


@dataclass(frozen=True)
class BufferArg:
    """A pointer argument: `buffer + offset`; `writes` if the callee stores through it."""

    buffer: str
    offset: IntExpr = field(default_factory=lambda: IConst(0))
    writes: bool = True


@dataclass(frozen=True)
class Call:
    """Call plan function `function`; arguments match its parameters in order."""

    function: str
    args: tuple[BufferArg | IntExpr, ...]


Stmt = Union[
    Comment,
    LetInt,
    LetScalar,
    Clock,
    DeclVar,
    AssignVar,
    Store,
    Loop,
    If,
    Alloc,
    Call,
    Prefetch,
]


# --------------------------------------------------------------------------------------------
# Functions and the program


@dataclass(frozen=True)
class BufferParam:
    """A pointer parameter to elements of `dtype` (storage type); `writes` if stored through."""

    name: str
    dtype: DType
    writes: bool = True


@dataclass(frozen=True)
class IntParam:
    name: str


@dataclass(frozen=True)
class Function:
    """A plan function (returning nothing); `inline` suggests inlining it; `contract` lets
    the compiler fuse a multiply and an add of its body into one rounding (the GEMM
    micro-kernel's `SFma`; elsewhere every operation rounds, as numpy's do)."""

    name: str
    params: tuple[BufferParam | IntParam, ...]
    body: tuple[Stmt, ...]
    comment: str = ""
    inline: bool = False
    contract: bool = False


# Run-time failures: the entry's last parameter is a one-element i32 buffer, STATUS, zero on
# entry; code that detects a failure stores its code there and goes on.
STATUS = "plaidc_status"
FAIL_SCATTER_INDEX = 1
FAIL_OUT_OF_MEMORY = 2
FAILURES = {
    FAIL_SCATTER_INDEX: "a scatter index is outside its target's first dimension",
    FAIL_OUT_OF_MEMORY: "a heap allocation for a temporary buffer failed",
}


@dataclass(frozen=True)
class ProgramBuffer:
    """A buffer of the program's root block, passed by the caller.

    `region` elements are allocated; element 0 of the Stripe view lies at `start` (non-zero
    only for negative strides); `sizes`/`strides` give the view's elements. `fully_written`:
    the program writes every element, so the buffer needs no initial contents."""

    name: str
    stripe_name: str
    dtype: DType
    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    region: int
    start: int
    is_input: bool
    is_output: bool
    fully_written: bool = False


@dataclass(frozen=True)
class Plan:
    """A whole program: its buffers, its functions, and the name of the entry function, whose
    parameters are one pointer per buffer (in order) and then the STATUS buffer. `threads`:
    of every parallel loop; 0 leaves the count to the OpenMP runtime at run time
    (OMP_NUM_THREADS, else the CPUs of the affinity mask)."""

    buffers: tuple[ProgramBuffer, ...]
    functions: tuple[Function, ...]
    entry: str
    threads: int = 1
    # Heap scratch buffers (packing space) are kept between calls, up to this many per
    # allocation (one per thread that may run it at once): a call takes a kept buffer and
    # gives it back at its end, and only allocates (and frees) when none is free, so large
    # packing buffers do not page-fault on every call. 0: allocated and freed per use.
    scratch_slots: int = 0
    # A parallel loop records the CPU each of its threads starts on; when two shared one (the
    # OS scheduler placed them together on a busy machine, so each waited for the other) the
    # loop runs on one thread for its next 1, 2, 4, ... calls, at most this many, and then
    # tries threads again. 0: every call runs on threads.
    shared_cpu_backoff: int = 0


# --------------------------------------------------------------------------------------------
# Walking


def walk_stmts(stmts: tuple[Stmt, ...]) -> Iterator[Stmt]:
    """Every statement of a statement list, nested ones included (pre-order). Iterative: a
    model's plan nests one `Alloc` per intermediate tensor, hundreds deep."""
    stack: list[Iterator[Stmt]] = [iter(stmts)]
    while stack:
        stmt = next(stack[-1], None)
        if stmt is None:
            stack.pop()
            continue
        yield stmt
        if isinstance(stmt, (Loop, Alloc)):
            stack.append(iter(stmt.body))
        elif isinstance(stmt, If):
            stack.append(itertools.chain(stmt.then, stmt.orelse))


def scalar_children(expr: SExpr) -> tuple[SExpr, ...]:
    if isinstance(expr, (SCast, SUnary)):
        return (expr.arg,)
    if isinstance(expr, (SBinary, SCompare, SShuffle)):
        return (expr.a, expr.b)
    if isinstance(expr, SFma):
        return (expr.a, expr.b, expr.c)
    if isinstance(expr, SSelect):
        return (expr.cond, expr.a, expr.b)
    return ()


def map_scalar_children(expr: SExpr, fn: Callable[[SExpr], SExpr]) -> SExpr:
    """`expr` with `fn` applied to each of its scalar children (`scalar_children`); leaves
    (variables, constants, loads, indices) are returned as they are."""
    if isinstance(expr, (SCast, SUnary)):
        return replace(expr, arg=fn(expr.arg))
    if isinstance(expr, (SBinary, SCompare, SShuffle)):
        return replace(expr, a=fn(expr.a), b=fn(expr.b))
    if isinstance(expr, SFma):
        return replace(expr, a=fn(expr.a), b=fn(expr.b), c=fn(expr.c))
    if isinstance(expr, SSelect):
        return replace(expr, cond=fn(expr.cond), a=fn(expr.a), b=fn(expr.b))
    return expr


def scalar_int_exprs(expr: SExpr) -> Iterator[IntExpr]:
    """The integer expressions inside a scalar expression (load offsets, indices)."""
    if isinstance(expr, SLoad):
        yield expr.offset
    elif isinstance(expr, SIndex):
        yield expr.expr
    for child in scalar_children(expr):
        yield from scalar_int_exprs(child)


def scalar_loads(expr: SExpr) -> Iterator[SLoad]:
    if isinstance(expr, SLoad):
        yield expr
    for child in scalar_children(expr):
        yield from scalar_loads(child)


def scalar_vars(expr: SExpr) -> Iterator[str]:
    if isinstance(expr, SVar):
        yield expr.name
    for child in scalar_children(expr):
        yield from scalar_vars(child)


@dataclass(frozen=True)
class FreeNames:
    """Names a statement list uses without defining them."""

    ints: tuple[str, ...]
    scalars: tuple[str, ...]
    buffers: tuple[str, ...]
    written_buffers: tuple[str, ...]


def free_names(stmts: tuple[Stmt, ...]) -> FreeNames:
    """The free names of `stmts`, each kind sorted by first use (plan names are unique within
    a plan, so scoping needs no tracking)."""
    defined: set[str] = set()
    ints: dict[str, None] = {}
    scalars: dict[str, None] = {}
    buffers: dict[str, None] = {}
    written: dict[str, None] = {}

    def use_int(expr: IntExpr) -> None:
        for name in int_vars(expr):
            ints.setdefault(name)
        for name in int_scalars(expr):
            scalars.setdefault(name)
        for name in int_buffers(expr):
            buffers.setdefault(name)

    def use_scalar(expr: SExpr) -> None:
        for name in scalar_vars(expr):
            scalars.setdefault(name)
        for load in scalar_loads(expr):
            buffers.setdefault(load.buffer)
        for sub in scalar_int_exprs(expr):
            use_int(sub)

    for stmt in walk_stmts(stmts):
        if isinstance(stmt, LetInt):
            defined.add(stmt.name)
            use_int(stmt.value)
        elif isinstance(stmt, LetScalar):
            defined.add(stmt.name)
            use_scalar(stmt.value)
        elif isinstance(stmt, Clock):
            defined.add(stmt.name)
        elif isinstance(stmt, DeclVar):
            defined.add(stmt.name)
            use_scalar(stmt.init)
        elif isinstance(stmt, AssignVar):
            scalars.setdefault(stmt.name)
            use_scalar(stmt.value)
        elif isinstance(stmt, Store):
            buffers.setdefault(stmt.buffer)
            written.setdefault(stmt.buffer)
            use_int(stmt.offset)
            use_scalar(stmt.value)
        elif isinstance(stmt, Loop):
            defined.add(stmt.var)
            use_int(stmt.lo)
            use_int(stmt.hi)
            for red in stmt.reductions:
                scalars.setdefault(red.var)
        elif isinstance(stmt, If):
            use_int(stmt.cond)
        elif isinstance(stmt, Alloc):
            defined.add(stmt.buffer)
            if stmt.heap:  # a failed allocation is reported through the status word
                buffers.setdefault(STATUS)
                written.setdefault(STATUS)
        elif isinstance(stmt, Call):
            for arg in stmt.args:
                if isinstance(arg, BufferArg):
                    buffers.setdefault(arg.buffer)
                    if arg.writes:
                        written.setdefault(arg.buffer)
                    use_int(arg.offset)
                else:
                    use_int(arg)
    return FreeNames(
        tuple(n for n in ints if n not in defined),
        tuple(n for n in scalars if n not in defined),
        tuple(n for n in buffers if n not in defined),
        tuple(n for n in written if n not in defined),
    )
