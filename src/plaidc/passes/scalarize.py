"""`scalarize`: one-element local buffers become SSA scalars; redundant reloads go.

Within one block body (statements run in order for each point):

* A *scalar buffer* is a one-element allocation of the block (never a `#user` buffer) that only
  the block's own loads and stores touch (no child block or Special), and that is stored before
  it is first loaded. Its stores and loads are removed and so is the allocation: each load is
  replaced by the scalar last stored.
* A load of any other refinement that the same body stored (or loaded) earlier, with no store,
  Special or child block writing that buffer (or a view of the same parent buffer) in between,
  is replaced by the stored (or loaded) scalar; the store stays.

A store converts the value to the buffer's element type, so a forwarded value is used as it is
only when its type is exactly that type (types are derived with the interpreter's own intrinsic
rules); otherwise the load becomes the matching conversion (`as_float`, `as_int`, `as_uint`,
`as_bool` with the bit width), and bf16 buffers (no conversion intrinsic) are left alone.

Before / after:

    none T[0] fp32:I(1):(1)          (T gone)
    0: $a = load(A)                  0: $a = load(A)
    1: $t = exp($a)                  1: $t = exp($a)
    2: T = store($t)                 2: $r = relu($t)
    3: $u = load(T)                  3: R = store($r)
    4: $r = relu($u)
    5: R = store($r)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Union

import numpy as np

from plaidc.interp import Value, apply_intrinsic, numpy_dtype
from plaidc.options import option
from plaidc.passes.registry import register
from plaidc.passes.selection import (
    EXCLUDE_HELP,
    REQS_SUBTREE_HELP,
    map_all_blocks,
    rewrite_matching,
)
from plaidc.stripe.ir import (
    Block,
    Constant,
    DType,
    Intrinsic,
    Load,
    LoadIndex,
    Refinement,
    Special,
    Statement,
    Store,
)
from plaidc.stripe.uses import scalar_outputs


@dataclass(frozen=True)
class ScalarizeOptions:
    reqs: tuple[str, ...] = option(("all",), REQS_SUBTREE_HELP)
    exclude: tuple[str, ...] = option((), EXCLUDE_HELP)


@register("scalarize", ScalarizeOptions, "turn one-element local buffers into scalars")
def scalarize(program: Block, opts: ScalarizeOptions) -> Block:
    return rewrite_matching(
        program, opts.reqs, lambda b: map_all_blocks(b, _scalarize_block), opts.exclude
    )


# A scalar's type: a numpy dtype, or for weakly typed literals (and expressions of them) the
# Python value itself, which numpy's promotion treats by value kind (NEP 50).
ScalarType = Union[np.dtype, int, float, bool]

_CASTS = {"f": "as_float", "i": "as_int", "u": "as_uint"}


def _scalar_buffers(block: Block) -> set[str]:
    """One-element allocations that only this body's loads and stores touch, stored first."""
    names = {
        r.into
        for r in block.refs
        if r.from_ is None
        and "user" not in r.tags
        and r.shape.elem_count == 1
        and r.shape.dtype is not DType.BF16
    }
    stored: set[str] = set()
    for stmt in block.stmts:
        if isinstance(stmt, Block):
            names -= {r.from_ for r in stmt.refs if r.from_ is not None}
        elif isinstance(stmt, Special):
            names -= {*stmt.inputs, *stmt.outputs}
        elif isinstance(stmt, Store):
            stored.add(stmt.into)
        elif isinstance(stmt, Load) and stmt.from_ not in stored:
            names.discard(stmt.from_)  # read before written: it would read poison
    return names


def _alias_key(ref: Refinement) -> str:
    return ref.into if ref.from_ is None else f"^{ref.from_}"


@dataclass
class _State:
    """What the rewrite knows at one statement of the body."""

    refs: Mapping[str, Refinement]
    sbufs: set[str]
    types: dict[str, ScalarType | None]
    taken: set[str]
    alias: dict[str, str]  # scalar -> scalar it equals
    held: dict[str, str]  # refinement -> scalar its element 0 holds (stored or loaded here)

    def kill(self, ref_name: str) -> None:
        key = _alias_key(self.refs[ref_name])
        for name in [n for n in self.held if _alias_key(self.refs[n]) == key]:
            del self.held[name]

    def fresh(self, base: str) -> str:
        k = 0
        while f"{base}_{k}" in self.taken:
            k += 1
        self.taken.add(f"{base}_{k}")
        return f"{base}_{k}"


def _scalarize_block(block: Block) -> Block:
    sbufs = _scalar_buffers(block)
    while True:
        try:
            return _rewrite_block(block, sbufs)
        except _Unscalarizable as err:
            sbufs.discard(err.args[0])


def _rewrite_block(block: Block, sbufs: set[str]) -> Block:
    state = _State(
        refs={r.into: r for r in block.refs},
        sbufs=sbufs,
        types={},
        taken={n for s in block.stmts for n in scalar_outputs(s)},
        alias={},
        held={},
    )
    rewritten = [_rewrite(stmt, state) for stmt in block.stmts]
    changed = any(
        len(new) != 1 or new[0] is not old for old, new in zip(block.stmts, rewritten, strict=True)
    )
    if not changed and not sbufs:
        return block
    refs = tuple(r for r in block.refs if r.into not in sbufs)
    return dataclasses.replace(block, refs=refs, stmts=_renumber(block.stmts, rewritten))


def _renumber(
    old: tuple[Statement, ...], rewritten: list[list[Statement]]
) -> tuple[Statement, ...]:
    """Flatten the rewritten statements, translating dependencies to the new positions: a
    removed statement's dependents inherit its dependencies; a statement replaced by several
    makes each depend on what the original did and on the earlier ones of the group."""
    positions: list[tuple[int, ...]] = []
    out: list[Statement] = []
    for stmt, group in zip(old, rewritten, strict=True):
        deps: set[int] = set()
        for d in stmt.deps:
            deps.update(positions[d])
        first = len(out)
        for k, new in enumerate(group):
            want = tuple(sorted(deps | set(range(first, first + k)))) if stmt.deps else ()
            out.append(new if new.deps == want else dataclasses.replace(new, deps=want))
        positions.append(tuple(range(first, len(out))) if group else tuple(sorted(deps)))
    return tuple(out)


def _rewrite(stmt: Statement, st: _State) -> list[Statement]:
    """The statements replacing `stmt` (none, itself, or a rewritten form)."""
    if isinstance(stmt, Store):
        value = st.alias.get(stmt.from_, stmt.from_)
        new = stmt if value == stmt.from_ else dataclasses.replace(stmt, from_=value)
        st.kill(stmt.into)
        st.held[stmt.into] = value
        return [] if stmt.into in st.sbufs else [new]
    if isinstance(stmt, Load):
        st.types[stmt.into] = _load_type(st.refs[stmt.from_])
        source = st.held.get(stmt.from_)
        if source is None:
            st.held[stmt.from_] = stmt.into  # a second load reads the same value
            return [stmt]
        return _forward(stmt, source, st)
    if isinstance(stmt, Intrinsic):
        inputs = tuple(st.alias.get(n, n) for n in stmt.inputs)
        for name in stmt.outputs:
            st.types[name] = _intrinsic_type(stmt.name, [st.types.get(n) for n in inputs])
        return [stmt if inputs == stmt.inputs else dataclasses.replace(stmt, inputs=inputs)]
    if isinstance(stmt, Constant):
        st.types[stmt.name] = _constant_type(stmt)
    elif isinstance(stmt, LoadIndex):
        st.types[stmt.into] = np.dtype(np.int64)
    elif isinstance(stmt, Special):
        for name in stmt.outputs:
            st.kill(name)
    elif isinstance(stmt, Block):
        for ref in stmt.refs:
            if ref.from_ is not None and ref.dir.writes:
                st.kill(ref.from_)
    return [stmt]


def _forward(load: Load, source: str, st: _State) -> list[Statement]:
    """Replace `load` of a refinement holding scalar `source`: by `source` itself when the
    store kept its value exactly, otherwise by the conversion the store performed."""
    ref = st.refs[load.from_]
    want = _load_type(ref)
    have = st.types.get(source)
    if want is not None and isinstance(have, np.dtype) and have == want:
        st.alias[load.into] = source
        return []
    if want is None or have is None:
        if load.from_ in st.sbufs:
            raise _Unscalarizable(load.from_)  # its stores are gone: retry keeping it
        return [load]
    if want.kind == "b":
        return [Intrinsic(name="as_bool", inputs=(source,), outputs=(load.into,))]
    width = st.fresh(f"{load.into}_bits")
    st.types[width] = want.itemsize * 8
    return [
        Constant(name=width, value=want.itemsize * 8, type="int"),
        Intrinsic(name=_CASTS[want.kind], inputs=(source, width), outputs=(load.into,)),
    ]


class _Unscalarizable(Exception):
    """A scalar buffer whose loads cannot be replaced (a value of unknown type)."""


def _load_type(ref: Refinement) -> np.dtype | None:
    if ref.shape.dtype is DType.BF16:
        return None
    return numpy_dtype(ref.shape.dtype)


def _constant_type(stmt: Constant) -> ScalarType | None:
    if stmt.type == "int":
        return int(stmt.value)
    if stmt.type == "float":
        return float(stmt.value)
    try:
        dtype = DType(stmt.type)
    except ValueError:
        return None
    return None if dtype is DType.BF16 else numpy_dtype(dtype)


def _intrinsic_type(name: str, inputs: list[ScalarType | None]) -> ScalarType | None:
    """The type the interpreter gives `name` applied to values of these types (evaluated on
    one-element samples, so the promotion rules are the interpreter's own)."""
    args: list[Value] = []
    for t in inputs:
        if t is None:
            return None
        args.append(np.zeros(1, dtype=t) if isinstance(t, np.dtype) else t)
    try:
        result = apply_intrinsic(name, args, "scalarize")
    except Exception:  # any failure just means "type unknown"
        return None
    if isinstance(result, (bool, int, float)) and not isinstance(result, np.generic):
        return result
    return np.asarray(result).dtype
