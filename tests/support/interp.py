"""Builders of hand-made Stripe IR for the interpreter's tests (this module holds no tests).

Programs use the paper's Figure 5 convention: the root's refinements with a direction are the
program's parameters, and kernels are the root's child blocks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from plaidc.stripe.ir import (
    Affine,
    Block,
    Constraint,
    DType,
    Index,
    Intrinsic,
    Load,
    RefDir,
    Refinement,
    Statement,
    Store,
    Tags,
    TensorShape,
)

F32 = DType.FP32


AccessLike = Affine | int | str


def aff(const: int = 0, **terms: int) -> Affine:
    """`aff(-1, i=1, x=2)` is `-1 + i + 2*x`."""
    return Affine.of(terms, const)


def _access(a: AccessLike) -> Affine:
    if isinstance(a, Affine):
        return a
    if isinstance(a, int):
        return Affine.const_(a)
    return Affine.var(a)


def ref(
    direction: str,
    into: str,
    access: Sequence[AccessLike],
    sizes: Sequence[int],
    *,
    from_: str | None = "",
    strides: Sequence[int] | None = None,
    dtype: DType = F32,
    agg: str | None = None,
    tags: Tags | None = None,
) -> Refinement:
    """A refinement; `from_` defaults to `into` (PlaidML's `in X[...]`), None allocates."""
    shape = (
        TensorShape(dtype, tuple(sizes), tuple(strides))
        if strides is not None
        else TensorShape.dense(dtype, sizes)
    )
    return Refinement(
        dir=RefDir(direction),
        from_=into if from_ == "" else from_,
        into=into,
        access=tuple(_access(a) for a in access),
        shape=shape,
        agg_op=agg,
        tags=tags or Tags(),
    )


def param(direction: str, name: str, sizes: Sequence[int], dtype: DType = F32) -> Refinement:
    """A program parameter of the root, dense."""
    return ref(direction, name, [0] * len(sizes), sizes, dtype=dtype)


def idx(name: str, rng: int, start: Affine | None = None) -> Index:
    return Index(name, rng, start or Affine())


def block(
    name: str,
    idxs: Sequence[Index],
    refs: Sequence[Refinement],
    stmts: Sequence[Statement],
    constraints: Sequence[Affine] = (),
) -> Block:
    return Block(
        name=name,
        idxs=tuple(idxs),
        refs=tuple(refs),
        stmts=tuple(stmts),
        constraints=tuple(Constraint(c) for c in constraints),
    )


def program(params: Sequence[Refinement], stmts: Sequence[Statement]) -> Block:
    return block("program", [], params, stmts)


def load(into: str, src: str) -> Load:
    return Load(from_=src, into=into)


def store(dst: str, src: str) -> Store:
    return Store(from_=src, into=dst)


def call(name: str, out: str, *ins: str) -> Intrinsic:
    return Intrinsic(name=name, inputs=tuple(ins), outputs=(out,))


def copy_kernel(name: str, idxs: Sequence[Index], src: Refinement, dst: Refinement) -> Block:
    """`dst = store(load(src))` at every point."""
    return block(name, idxs, [src, dst], [load("$v", src.into), store(dst.into, "$v")])


def rand(shape: Sequence[int], seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def contraction(m: int, n: int, k: int, agg: str = "add") -> Block:
    """`C[m, n] = agg(A[m, k] * B[k, n])` as one PlaidML-style kernel."""
    kernel = block(
        "matmul",
        [idx("m", m), idx("n", n), idx("k", k)],
        [
            ref("in", "A", ["m", "k"], [1, 1], strides=[k, 1]),
            ref("in", "B", ["k", "n"], [1, 1], strides=[n, 1]),
            ref("out", "C", ["m", "n"], [1, 1], strides=[n, 1], agg=agg),
        ],
        [load("$a", "A"), load("$b", "B"), call("mul", "$c", "$a", "$b"), store("C", "$c")],
    )
    return program(
        [param("in", "A", [m, k]), param("in", "B", [k, n]), param("out", "C", [m, n])], [kernel]
    )
