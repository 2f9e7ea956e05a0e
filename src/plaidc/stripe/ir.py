"""The Stripe IR: the data model of STRIPE.md as frozen dataclasses.

Every node is immutable by convention (frozen dataclasses with tuple fields); edit with
`dataclasses.replace`. Source spans never take part in equality, so `parse(print(ir)) == ir`.
Canonical order is enforced at construction: refinements sorted by `into`, tags by name,
affine terms by name, so two equal programs are equal values.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Union

from plaidc.diagnostics import Span

# --------------------------------------------------------------------------------------------
# Limits

# Sizes, strides, index ranges, the integers of affine expressions and every tensor's element
# count stay below 2**40 (about 10**12 elements, terabytes): beyond any real program, and small
# enough that the offsets the analyses and the generated code compute fit 64-bit integers
# (isl and C take no bigger ones).
MAX_EXTENT = 2**40


def extent_error(what: str, value: int) -> str | None:
    """Why `value` (a size, range, stride, element count...) is out of range, or None."""
    if abs(value) < MAX_EXTENT:
        return None
    return (
        f"{what} is out of range: {value} (sizes, ranges, strides and element counts must be "
        "below 2^40)"
    )


# --------------------------------------------------------------------------------------------
# Data types


class DType(StrEnum):
    """Element types (TILE.md "Types")."""

    BOOL = "bool"
    I8 = "i8"
    I16 = "i16"
    I32 = "i32"
    I64 = "i64"
    U8 = "u8"
    U16 = "u16"
    U32 = "u32"
    U64 = "u64"
    FP16 = "fp16"
    FP32 = "fp32"
    FP64 = "fp64"
    BF16 = "bf16"

    @property
    def byte_size(self) -> int:
        return _BYTE_SIZES[self]

    @property
    def is_float(self) -> bool:
        return self in (DType.FP16, DType.FP32, DType.FP64, DType.BF16)

    @property
    def is_signed_int(self) -> bool:
        return self in (DType.I8, DType.I16, DType.I32, DType.I64)

    @property
    def is_unsigned_int(self) -> bool:
        return self in (DType.U8, DType.U16, DType.U32, DType.U64)

    def __str__(self) -> str:
        return self.value


_BYTE_SIZES = {
    DType.BOOL: 1,
    DType.I8: 1,
    DType.I16: 2,
    DType.I32: 4,
    DType.I64: 8,
    DType.U8: 1,
    DType.U16: 2,
    DType.U32: 4,
    DType.U64: 8,
    DType.FP16: 2,
    DType.FP32: 4,
    DType.FP64: 8,
    DType.BF16: 2,
}

# --------------------------------------------------------------------------------------------
# Affine expressions


@dataclass(frozen=True)
class Affine:
    """An integer affine expression `const + sum(coeff * name)`.

    `terms` is sorted by name and holds no zero coefficients, so equal expressions are equal
    values. Build with `Affine.of`, `Affine.var`, `Affine.const_` and the arithmetic operators.
    """

    terms: tuple[tuple[str, int], ...] = ()
    const: int = 0

    def __post_init__(self) -> None:
        merged: dict[str, int] = {}
        for name, coeff in self.terms:
            merged[name] = merged.get(name, 0) + coeff
        canon = tuple(sorted((n, c) for n, c in merged.items() if c != 0))
        if canon != self.terms:
            object.__setattr__(self, "terms", canon)

    @staticmethod
    def of(terms: Mapping[str, int] | Iterable[tuple[str, int]] = (), const: int = 0) -> Affine:
        items = terms.items() if isinstance(terms, Mapping) else terms
        return Affine(tuple(items), const)

    @staticmethod
    def var(name: str, coeff: int = 1) -> Affine:
        return Affine(((name, coeff),), 0)

    @staticmethod
    def const_(value: int) -> Affine:
        return Affine((), value)

    @property
    def is_constant(self) -> bool:
        return not self.terms

    @property
    def is_zero(self) -> bool:
        return not self.terms and self.const == 0

    def coeff(self, name: str) -> int:
        for n, c in self.terms:
            if n == name:
                return c
        return 0

    def names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.terms)

    def __add__(self, other: Affine | int) -> Affine:
        if isinstance(other, int):
            return Affine(self.terms, self.const + other)
        return Affine(self.terms + other.terms, self.const + other.const)

    def __radd__(self, other: int) -> Affine:
        return self + other

    def __neg__(self) -> Affine:
        return self * -1

    def __sub__(self, other: Affine | int) -> Affine:
        return self + (-other)

    def __mul__(self, k: int) -> Affine:
        return Affine(tuple((n, c * k) for n, c in self.terms), self.const * k)

    __rmul__ = __mul__

    def substitute(self, values: Mapping[str, Affine]) -> Affine:
        """Replace each name found in `values` by its affine expression."""
        out = Affine.const_(self.const)
        for n, c in self.terms:
            out = out + (values[n] * c if n in values else Affine.var(n, c))
        return out

    def evaluate(self, env: Mapping[str, int]) -> int:
        return self.const + sum(c * env[n] for n, c in self.terms)

    def __str__(self) -> str:
        from plaidc.stripe.printer import format_affine

        return format_affine(self)


# --------------------------------------------------------------------------------------------
# Tags and locations

TagValue = Union[int, float, str, None]


@dataclass(frozen=True)
class Tags:
    """A set of tags, each optionally with a value (`#name` or `#name=value`), sorted by name."""

    items: tuple[tuple[str, TagValue], ...] = ()

    def __post_init__(self) -> None:
        merged = dict(self.items)
        canon = tuple(sorted(merged.items()))
        if canon != self.items:
            object.__setattr__(self, "items", canon)

    @staticmethod
    def of(*names: str, **values: TagValue) -> Tags:
        return Tags(tuple((n, None) for n in names) + tuple(values.items()))

    def __contains__(self, name: object) -> bool:
        return any(n == name for n, _ in self.items)

    def __iter__(self) -> Iterator[str]:
        return iter(n for n, _ in self.items)

    def __len__(self) -> int:
        return len(self.items)

    def get(self, name: str, default: TagValue = None) -> TagValue:
        for n, v in self.items:
            if n == name:
                return v
        return default

    def has_all(self, reqs: Iterable[str]) -> bool:
        """PlaidML tag matching: `all` matches anything, otherwise every req must be present."""
        names = {n for n, _ in self.items}
        return all(r == "all" or r in names for r in reqs)

    def has_any(self, names: Iterable[str]) -> bool:
        mine = {n for n, _ in self.items}
        return any(n in mine for n in names)

    def add(self, *names: str, **values: TagValue) -> Tags:
        return Tags(self.items + Tags.of(*names, **values).items)

    def remove(self, *names: str) -> Tags:
        return Tags(tuple((n, v) for n, v in self.items if n not in names))


NO_TAGS = Tags()


@dataclass(frozen=True)
class LocUnit:
    """One level of a location path, e.g. `DRAM` or `BANK[i]`."""

    name: str
    idxs: tuple[Affine, ...] = ()


@dataclass(frozen=True)
class Location:
    """A memory or compute location: `DRAM`, `SRAM[0]`, `A[0]/B[i]`."""

    units: tuple[LocUnit, ...]

    @staticmethod
    def named(name: str) -> Location:
        return Location((LocUnit(name),))


# --------------------------------------------------------------------------------------------
# Blocks and their parts


@dataclass(frozen=True)
class Index:
    """A block index iterating `affine + i`, `i` in `[0, range)`; `affine` is over the parent's
    indices (a passthrough index has range 1 and a non-zero affine)."""

    name: str
    range: int
    affine: Affine = field(default_factory=Affine)
    tags: Tags = NO_TAGS
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Constraint:
    """`affine >= 0` must hold for a point of the block to execute."""

    affine: Affine
    span: Span | None = field(default=None, compare=False, repr=False)


class RefDir(StrEnum):
    NONE = "none"
    IN = "in"
    OUT = "out"
    INOUT = "inout"

    @property
    def reads(self) -> bool:
        return self in (RefDir.IN, RefDir.INOUT)

    @property
    def writes(self) -> bool:
        return self in (RefDir.OUT, RefDir.INOUT)

    def __str__(self) -> str:
        return self.value


AGG_OPS = ("add", "mul", "max", "min", "assign")

# The scalar operations a Stripe Intrinsic may name (TILE.md's operators and functions, after
# desugaring, plus `assign`), and the whole-buffer Specials.
INTRINSICS = frozenset(
    [
        "add",
        "sub",
        "mul",
        "div",
        "neg",
        "cmp_eq",
        "cmp_ne",
        "cmp_lt",
        "cmp_gt",
        "cmp_le",
        "cmp_ge",
        "cond",
        "bit_and",
        "bit_or",
        "bit_xor",
        "bit_not",
        "bit_left",
        "bit_right",
        "abs",
        "acos",
        "asin",
        "atan",
        "ceil",
        "cos",
        "cosh",
        "exp",
        "floor",
        "log",
        "max",
        "min",
        "pow",
        "recip",
        "relu",
        "round",
        "sigmoid",
        "sin",
        "sinh",
        "sqrt",
        "tan",
        "tanh",
        "ident",
        "assign",
        "as_float",
        "as_int",
        "as_uint",
        "as_bool",
    ]
)

# How many inputs each intrinsic takes, (least, most); every other intrinsic takes one.
INTRINSIC_ARITY: dict[str, tuple[int, int]] = {
    **{n: (2, 2) for n in ("add", "sub", "mul", "div", "max", "min", "pow")},
    **{n: (2, 2) for n in ("cmp_eq", "cmp_ne", "cmp_lt", "cmp_gt", "cmp_le", "cmp_ge")},
    **{n: (2, 2) for n in ("bit_and", "bit_or", "bit_xor", "bit_left", "bit_right")},
    "cond": (3, 3),
    "as_float": (1, 2),
    "as_int": (1, 2),
    "as_uint": (1, 2),
    "as_bool": (1, 2),
}


def arity_error(name: str, inputs: int) -> str | None:
    """Why intrinsic `name` cannot take `inputs` inputs, or None."""
    low, high = INTRINSIC_ARITY.get(name, (1, 1))
    if low <= inputs <= high:
        return None
    want = str(low) if low == high else f"{low} or {high}"
    return f"intrinsic '{name}' takes {want} inputs, got {inputs}"


SPECIALS = frozenset(["reshape", "gather", "scatter", "zero", "copy", "shape", "prng_step"])


@dataclass(frozen=True)
class TensorShape:
    """An interior shape: element type, sizes and absolute strides (in elements)."""

    dtype: DType
    sizes: tuple[int, ...]
    strides: tuple[int, ...]

    @property
    def ndims(self) -> int:
        return len(self.sizes)

    @property
    def elem_count(self) -> int:
        n = 1
        for s in self.sizes:
            n *= s
        return n

    @property
    def byte_size(self) -> int:
        """PlaidML's byte size: number of elements times the element size."""
        return self.elem_count * self.dtype.byte_size

    @property
    def extent(self) -> int:
        """Elements spanned in the underlying buffer (1 + the largest offset reached)."""
        if any(s == 0 for s in self.sizes):
            return 0
        return 1 + sum((s - 1) * abs(st) for s, st in zip(self.sizes, self.strides, strict=True))

    @staticmethod
    def dense(dtype: DType, sizes: Iterable[int]) -> TensorShape:
        """Row-major packed shape."""
        sizes = tuple(sizes)
        strides = []
        acc = 1
        for s in reversed(sizes):
            strides.append(acc)
            acc *= max(s, 1)
        return TensorShape(dtype, sizes, tuple(reversed(strides)))


@dataclass(frozen=True)
class Refinement:
    """A view `into` of the parent's buffer `from_`; `from_` None is a fresh allocation (at the
    root, a program buffer bound by `into`). `offset` is the byte offset of an allocation in its
    memory (PlaidML's `new@0x...`, set by placement passes)."""

    dir: RefDir
    from_: str | None
    into: str
    access: tuple[Affine, ...]
    shape: TensorShape
    agg_op: str | None = None
    location: Location | None = None
    offset: int = 0
    is_const: bool = False
    tags: Tags = NO_TAGS
    span: Span | None = field(default=None, compare=False, repr=False)

    @property
    def is_allocation(self) -> bool:
        return self.from_ is None


# --------------------------------------------------------------------------------------------
# Statements


@dataclass(frozen=True, kw_only=True)
class StmtBase:
    """Fields every statement has: dependencies on earlier statements (by position) and tags."""

    deps: tuple[int, ...] = ()
    tags: Tags = NO_TAGS
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, kw_only=True)
class Load(StmtBase):
    """`$into = load(from_)`: read element 0 of view `from_`."""

    from_: str
    into: str


@dataclass(frozen=True, kw_only=True)
class Store(StmtBase):
    """`into = store($from_)`: write through view `into`'s agg_op."""

    from_: str
    into: str


@dataclass(frozen=True, kw_only=True)
class LoadIndex(StmtBase):
    """`$into = load_index(affine)`: the value of an index expression."""

    affine: Affine
    into: str


@dataclass(frozen=True, kw_only=True)
class Constant(StmtBase):
    """`$name = (type)value` with type `int`, `float` or a DType name."""

    name: str
    value: int | float
    type: str = "int"


@dataclass(frozen=True, kw_only=True)
class Intrinsic(StmtBase):
    """`$o = name($a, $b)` (several outputs are parenthesised)."""

    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]


SpecialParam = Union[int, float, str, tuple[int, ...]]


@dataclass(frozen=True, kw_only=True)
class Special(StmtBase):
    """`O = name(I, ...) {key=value, ...}`: a whole-buffer operation on refinements."""

    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    params: tuple[tuple[str, SpecialParam], ...] = ()


@dataclass(frozen=True, kw_only=True)
class Block(StmtBase):
    """A parallel polyhedral block (paper Definition 2)."""

    name: str = ""
    comments: tuple[str, ...] = ()
    idxs: tuple[Index, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    refs: tuple[Refinement, ...] = ()
    stmts: tuple[Statement, ...] = ()
    location: Location | None = None

    def __post_init__(self) -> None:
        canon = tuple(sorted(self.refs, key=lambda r: r.into))
        if canon != self.refs:
            object.__setattr__(self, "refs", canon)

    def ref(self, into: str) -> Refinement | None:
        for r in self.refs:
            if r.into == into:
                return r
        return None

    def idx(self, name: str) -> Index | None:
        for i in self.idxs:
            if i.name == name:
                return i
        return None

    @property
    def count(self) -> int:
        """Product of index ranges (the `:INT` PlaidML prints after the index list)."""
        n = 1
        for i in self.idxs:
            n *= i.range
        return n

    def __str__(self) -> str:
        from plaidc.stripe.printer import print_stripe

        return print_stripe(self)


Statement = Union[Load, Store, LoadIndex, Constant, Intrinsic, Special, Block]


def sub_blocks(block: Block) -> Iterable[Block]:
    """The blocks directly nested in `block`, in statement order."""
    return (s for s in block.stmts if isinstance(s, Block))
