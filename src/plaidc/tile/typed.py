"""The checked program: what the binder hands to the lowering.

Every tensor has a concrete dtype and shape, every elementwise statement a typed scalar
expression tree, every contraction a compiled iteration space. Lowering to Stripe only builds
IR from this; it makes no decisions that could fail on user input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from plaidc.diagnostics import Span
from plaidc.stripe.ir import Affine, DType, SpecialParam, TensorShape


@dataclass(frozen=True)
class TensorInfo:
    """A tensor of the program; `role` is `input`, `output` or `temp`."""

    name: str
    dtype: DType
    sizes: tuple[int, ...]
    role: str

    @property
    def shape(self) -> TensorShape:
        return TensorShape.dense(self.dtype, self.sizes)


# --------------------------------------------------------------------------------------------
# Scalar expressions of elementwise statements


@dataclass(frozen=True)
class SLoad:
    """The element of `tensor` at the current point (numpy-broadcast to the output)."""

    tensor: str


@dataclass(frozen=True)
class SConst:
    """A literal or bind-time constant; `kind` is the Stripe constant type `int` or `float`."""

    value: int | float
    kind: str


@dataclass(frozen=True)
class SIndex:
    """The current point's coordinate along an output axis counted from the end (1 is the
    last axis), as `index(X, axis)` gives it; counting from the end follows broadcasting."""

    from_end: int
    tensor: str


@dataclass(frozen=True)
class SOp:
    """An intrinsic applied to scalar operands."""

    fn: str
    args: tuple[SExpr, ...]


SExpr = Union[SLoad, SConst, SIndex, SOp]


# --------------------------------------------------------------------------------------------
# Operations


@dataclass(frozen=True)
class CompiledContraction:
    """A contraction's iteration space: indices (sorted by name) with ranges starting at 0,
    integer accesses, and the constraints the box does not imply."""

    idxs: tuple[tuple[str, int], ...]
    output_access: tuple[Affine, ...]
    input_access: tuple[tuple[Affine, ...], ...]
    constraints: tuple[Affine, ...]
    needs_init: bool
    empty: bool

    @property
    def count(self) -> int:
        n = 1
        for _, r in self.idxs:
            n *= r
        return n


@dataclass(frozen=True)
class ContractionOp:
    """`target[...] = agg(inputs comb ...)`, compiled."""

    target: str
    agg: str
    comb: str | None
    inputs: tuple[str, ...]
    compiled: CompiledContraction
    default: str | None
    text: str
    kernel_name: str | None = None
    # The statement's output name: diagnostics about the kernel it becomes point there.
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class EltwiseOp:
    """`target = expr` over the target's shape."""

    target: str
    expr: SExpr
    text: str
    kernel_name: str | None = None
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class SpecialOp:
    """A whole-buffer operation (`reshape gather scatter shape`)."""

    target: str
    name: str
    inputs: tuple[str, ...]
    params: tuple[tuple[str, SpecialParam], ...]
    text: str
    span: Span | None = field(default=None, compare=False)


Op = Union[ContractionOp, EltwiseOp, SpecialOp]


@dataclass(frozen=True)
class CheckedProgram:
    """A bound, type- and shape-checked Tile function."""

    tensors: tuple[TensorInfo, ...]
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    ops: tuple[Op, ...]

    def tensor(self, name: str) -> TensorInfo:
        for t in self.tensors:
            if t.name == name:
                return t
        raise KeyError(name)
