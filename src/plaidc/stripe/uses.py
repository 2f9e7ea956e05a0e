"""Def/use facts about one block: which indices, refinements and scalars its parts mention.

Pure bookkeeping over the IR (no polyhedral reasoning; that lives in `plaidc.analysis`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from plaidc.stripe.ir import (
    Affine,
    Block,
    Constant,
    Constraint,
    Intrinsic,
    Load,
    LoadIndex,
    Location,
    LocUnit,
    Refinement,
    Special,
    Statement,
    Store,
)


def location_affines(loc: Location | None) -> Iterable[Affine]:
    if loc is None:
        return ()
    return (a for unit in loc.units for a in unit.idxs)


def used_index_names(block: Block) -> set[str]:
    """Index names of `block` that something in it (or its children's index starts) mentions."""
    affines: list[Affine] = [c.affine for c in block.constraints]
    for ref in block.refs:
        affines.extend(ref.access)
        affines.extend(location_affines(ref.location))
    affines.extend(location_affines(block.location))
    for stmt in block.stmts:
        if isinstance(stmt, LoadIndex):
            affines.append(stmt.affine)
        elif isinstance(stmt, Block):
            affines.extend(i.affine for i in stmt.idxs)
    return {name for aff in affines for name in aff.names()}


def statement_ref_names(stmt: Statement) -> set[str]:
    """Refinements of the enclosing block that one statement uses (for a nested block: the
    parent refinements its own refinements refine)."""
    if isinstance(stmt, Load):
        return {stmt.from_}
    if isinstance(stmt, Store):
        return {stmt.into}
    if isinstance(stmt, Special):
        return {*stmt.inputs, *stmt.outputs}
    if isinstance(stmt, Block):
        return {r.from_ for r in stmt.refs if r.from_ is not None}
    return set()


def used_ref_names(block: Block) -> set[str]:
    """Refinements of `block` that its statements or its children's refinements use."""
    used: set[str] = set()
    for stmt in block.stmts:
        used |= statement_ref_names(stmt)
    return used


def read_ref_names(block: Block) -> set[str]:
    """Refinements of `block` whose contents something in it reads."""
    read: set[str] = set()
    for stmt in block.stmts:
        if isinstance(stmt, Load):
            read.add(stmt.from_)
        elif isinstance(stmt, Special):
            read.update(stmt.inputs)
        elif isinstance(stmt, Block):
            read.update(r.from_ for r in stmt.refs if r.from_ is not None and r.dir.reads)
    return read


def scalar_outputs(stmt: Statement) -> tuple[str, ...]:
    if isinstance(stmt, (Load, LoadIndex)):
        return (stmt.into,)
    if isinstance(stmt, Constant):
        return (stmt.name,)
    if isinstance(stmt, Intrinsic):
        return stmt.outputs
    return ()


def scalar_inputs(stmt: Statement) -> tuple[str, ...]:
    if isinstance(stmt, Store):
        return (stmt.from_,)
    if isinstance(stmt, Intrinsic):
        return stmt.inputs
    return ()


def substitute_indices(block: Block, values: Mapping[str, Affine]) -> Block:
    """Replace uses of this block's indices (not their definitions) by affine expressions."""
    if not values:
        return block

    def sub(aff: Affine) -> Affine:
        return aff.substitute(values)

    def sub_loc(loc: Location | None) -> Location | None:
        if loc is None:
            return None
        return Location(tuple(LocUnit(u.name, tuple(sub(a) for a in u.idxs)) for u in loc.units))

    refs = tuple(
        dataclasses.replace(r, access=tuple(sub(a) for a in r.access), location=sub_loc(r.location))
        for r in block.refs
    )
    constraints = tuple(dataclasses.replace(c, affine=sub(c.affine)) for c in block.constraints)
    stmts: list[Statement] = []
    for stmt in block.stmts:
        if isinstance(stmt, LoadIndex):
            stmts.append(dataclasses.replace(stmt, affine=sub(stmt.affine)))
        elif isinstance(stmt, Block):
            idxs = tuple(dataclasses.replace(i, affine=sub(i.affine)) for i in stmt.idxs)
            stmts.append(dataclasses.replace(stmt, idxs=idxs))
        else:
            stmts.append(stmt)
    return dataclasses.replace(
        block,
        refs=refs,
        constraints=constraints,
        stmts=tuple(stmts),
        location=sub_loc(block.location),
    )


def keep_statements(block: Block, keep: Sequence[bool]) -> Block:
    """Drop the statements whose `keep` flag is False; a kept statement that depended on a
    dropped one inherits that one's dependencies, and positions are renumbered."""
    new_pos: dict[int, int] = {}
    inherited: dict[int, tuple[int, ...]] = {}
    stmts: list[Statement] = []
    for pos, stmt in enumerate(block.stmts):
        deps: list[int] = []
        for d in stmt.deps:
            deps.extend(inherited[d] if d in inherited else (new_pos[d],))
        deps_t = tuple(sorted(set(deps)))
        if keep[pos]:
            new_pos[pos] = len(stmts)
            stmts.append(stmt if deps_t == stmt.deps else dataclasses.replace(stmt, deps=deps_t))
        else:
            inherited[pos] = deps_t
    return dataclasses.replace(block, stmts=tuple(stmts))


def terms_per_element(block: Block, ref: Refinement) -> int:
    """How many terms `block` combines into one element of its view `ref` at most: the product
    of the ranges of its iterated indices that the access does not use (constraints only
    lower it; passthrough indices do not iterate)."""
    used = {name for a in ref.access for name, _ in a.terms}
    terms = 1
    for idx in block.idxs:
        if idx.name not in used and not (idx.affine.terms or idx.affine.const):
            terms *= idx.range
    return terms


def trivially_true(con: Constraint) -> bool:
    return con.affine.is_constant and con.affine.const >= 0


def is_program_buffer(ref: Refinement) -> bool:
    """At the root: a buffer the program exchanges with its caller."""
    return ref.from_ is not None or "user" in ref.tags


def point_independent_stores(block: Block) -> dict[int, bool]:
    """The statements of `block` (by position) that store the same value at every point of one
    execution of the block, mapped to whether that value is a constant (then it is the same in
    every execution too, so also at every enclosing block's points).

    STRIPE.md semantics rule 3: points that store the same value into an element do not
    conflict under `assign`. A stored value is point-independent when it is computed, within
    the block's own statements, only from constants, intrinsics of point-independent values
    and loads through refinements that the block does not write and whose access uses none of
    the block's indices (so every point reads the same element). A `load_index` depends on the
    point; a scalar defined outside these rules is not point-independent."""
    constant: dict[str, bool] = {}  # point-independent scalar -> whether it is a constant
    out: dict[int, bool] = {}
    for position, stmt in enumerate(block.stmts):
        if isinstance(stmt, Constant):
            constant[stmt.name] = True
        elif isinstance(stmt, Intrinsic):
            if all(name in constant for name in stmt.inputs):
                for name in stmt.outputs:
                    constant[name] = all(constant[i] for i in stmt.inputs)
        elif isinstance(stmt, Load):
            ref = block.ref(stmt.from_)
            if ref is not None and not ref.dir.writes and all(not a.terms for a in ref.access):
                constant[stmt.into] = False
        elif isinstance(stmt, Store) and stmt.from_ in constant:
            out[position] = constant[stmt.from_]
    return out
