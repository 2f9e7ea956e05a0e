"""Binding a function's signature to concrete shapes, and the per-compilation scope.

TILE.md "Binding shapes": a dimension takes its size from, in order of precedence, the shape
of an input given by `--shape` or an `.npy` file, `-D NAME=INT`, or an integer literal in the
signature. Two shapes binding one dimension differently is an error naming both places; a
lower-precedence binding that disagrees is overridden with a warning.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches

from plaidc.diagnostics import Diagnostic, Span
from plaidc.stripe.ir import DType, extent_error
from plaidc.tile import ast
from plaidc.tile.types import DTYPE_NAMES, parse_dtype


@dataclass
class TensorSym:
    """A tensor in scope."""

    name: str
    dtype: DType
    sizes: tuple[int, ...]
    span: Span | None


@dataclass
class ValueSym:
    """A bind-time value in scope: a dimension size or a constant statement."""

    name: str
    value: int | float
    span: Span | None


@dataclass
class PoisonSym:
    """A name whose definition had errors; uses of it report nothing more."""

    name: str
    span: Span | None


Symbol = TensorSym | ValueSym | PoisonSym


def fmt_shape(sizes: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(s) for s in sizes) + "]"


@dataclass
class Context:
    """Everything one compilation accumulates: diagnostics, warnings and the scope."""

    filename: str
    dims: Mapping[str, int]
    errors: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    scope: dict[str, Symbol] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    #: `-D` names the program reads (a dimension of the signature, or a bind-time value).
    dims_used: set[str] = field(default_factory=set)

    def error(self, message: str, span: Span | None, *notes: str) -> None:
        self.errors.append(Diagnostic(message, span, "error", tuple(notes)))

    def warn(self, message: str, span: Span | None, *notes: str) -> None:
        self.warnings.append(Diagnostic(message, span, "warning", tuple(notes)))

    def lookup(self, name: str, span: Span | None) -> Symbol | None:
        """The symbol `name` refers to; reports `undefined name` (with a suggestion) if none.

        `-D` names that the signature does not mention are bind-time values of last resort.
        """
        sym = self.scope.get(name)
        if sym is not None:
            self.used.add(name)
            return sym
        if name in self.dims:
            self.dims_used.add(name)
            return ValueSym(name, self.dims[name], None)
        close = get_close_matches(name, list(self.scope), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        self.error(f"undefined name {name}{hint}", span)
        return None


@dataclass
class _DimBinding:
    size: int
    source: str
    span: Span | None


def _resolve_dtype(ctx: Context, decl: ast.InputDecl, given: DType | None) -> DType:
    declared = None
    if decl.dtype is not None:
        declared = parse_dtype(decl.dtype)
        if declared is None:
            ctx.error(
                f"unknown type {decl.dtype}; expected one of {' '.join(DTYPE_NAMES)}",
                decl.dtype_span,
            )
    if given is not None:
        if declared is not None and declared != given:
            ctx.warn(
                f"input {decl.name} is declared {declared} but its data is {given}; using {given}",
                decl.dtype_span,
            )
        return given
    return declared or DType.FP32


def bind_inputs(
    ctx: Context,
    func: ast.Function,
    shapes: Mapping[str, tuple[DType, tuple[int, ...]]],
) -> list[TensorSym]:
    """Bind every input's shape and dtype and put inputs and dimension sizes in scope."""
    seen: dict[str, ast.InputDecl] = {}
    for decl in func.inputs:
        if decl.name in seen:
            ctx.error(f"duplicate input {decl.name}", decl.span)
        seen[decl.name] = decl

    # Pass 1: dimensions bound by shapes (highest precedence) must agree with each other.
    bound: dict[str, _DimBinding] = {}
    for decl in seen.values():
        if decl.name not in shapes or decl.dims is None:
            continue
        given_sizes = tuple(shapes[decl.name][1])
        if len(given_sizes) != len(decl.dims):
            ctx.error(
                f"input {decl.name} is declared with {len(decl.dims)} dimensions but its shape "
                f"{fmt_shape(given_sizes)} has {len(given_sizes)}",
                decl.span,
            )
            continue
        for dim, size in zip(decl.dims, given_sizes, strict=True):
            source = f"the shape of {decl.name}"
            if dim.name is None:
                if dim.value != size:
                    ctx.warn(
                        f"dimension declared as {dim.value} is {size} in {source}; using {size}",
                        dim.span,
                    )
                continue
            prev = bound.get(dim.name)
            if prev is None:
                bound[dim.name] = _DimBinding(size, source, dim.span)
            elif prev.size != size:
                ctx.error(
                    f"dimension {dim.name} is bound to {prev.size} by {prev.source} and to "
                    f"{size} by {source}",
                    dim.span,
                    f"{dim.name} = {prev.size} comes from {prev.source} at {prev.span}",
                )

    # Pass 2: -D, then integer literals, for dimensions no shape bound.
    unbound_reported: set[str] = set()
    overridden: set[str] = set()
    for decl in seen.values():
        for dim in decl.dims or ():
            if dim.name is None:
                continue
            prev = bound.get(dim.name)
            if dim.name in ctx.dims:
                ctx.dims_used.add(dim.name)
                value = ctx.dims[dim.name]
                if prev is None:
                    bound[dim.name] = _DimBinding(value, f"-D {dim.name}={value}", dim.span)
                elif prev.size != value and dim.name not in overridden:
                    overridden.add(dim.name)
                    ctx.warn(
                        f"-D {dim.name}={value} is ignored: {prev.source} binds {dim.name} to "
                        f"{prev.size}",
                        dim.span,
                    )
            elif prev is None and decl.name not in shapes and dim.name not in unbound_reported:
                unbound_reported.add(dim.name)
                ctx.error(
                    f"cannot bind dimension {dim.name} of input {decl.name}; bind it with "
                    f"-D {dim.name}=<size>, --shape {decl.name}=fp32[..] or "
                    f"--input {decl.name}=file.npy",
                    dim.span,
                )

    for name, binding in bound.items():
        if name in seen:
            ctx.error(f"{name} is both an input and a dimension name", binding.span)
            continue
        ctx.scope[name] = ValueSym(name, binding.size, binding.span)
    for name in unbound_reported:
        ctx.scope.setdefault(name, PoisonSym(name, None))

    tensors: list[TensorSym] = []
    for decl in seen.values():
        given = shapes.get(decl.name)
        dtype = _resolve_dtype(ctx, decl, given[0] if given else None)
        sizes: tuple[int, ...] | None = None
        if given is not None:
            sizes = tuple(given[1])
        elif decl.dims is None:
            ctx.error(
                f"input {decl.name} has no declared shape; bind it with "
                f"--shape {decl.name}=fp32[..] or --input {decl.name}=file.npy",
                decl.span,
            )
        else:
            dims = [_dim_size(ctx, d) for d in decl.dims]
            if all(d is not None for d in dims):
                sizes = tuple(d for d in dims if d is not None)
        if sizes is None or (decl.dims is not None and len(sizes) != len(decl.dims)):
            ctx.scope.setdefault(decl.name, PoisonSym(decl.name, decl.span))
            continue
        names = [d.name for d in decl.dims or ()]
        problem = shape_error(decl.name, sizes, names)
        if problem:
            big = [d for d, n in zip(decl.dims or (), sizes, strict=False) if _bad_size(n)]
            ctx.error(problem, big[0].span if big else decl.span)
            ctx.scope.setdefault(decl.name, PoisonSym(decl.name, decl.span))
            continue
        sym = TensorSym(decl.name, dtype, sizes, decl.span)
        if decl.name not in ctx.scope:
            ctx.scope[decl.name] = sym
            tensors.append(sym)
    return tensors


def shape_error(name: str, sizes: tuple[int, ...], dims: Sequence[str | None] = ()) -> str | None:
    """Why a tensor of `sizes` cannot be compiled (a negative size, or too large: see
    MAX_EXTENT), or None; `dims` names the dimensions where the declaration does."""
    elements = 1
    for axis, size in enumerate(sizes):
        dim = dims[axis] if axis < len(dims) else None
        what = f"size {axis} of {name}" + (f" ({dim})" if dim else "")
        problem = f"{what} is negative: {size}" if size < 0 else extent_error(what, size)
        if problem:
            return problem
        elements *= size
    return extent_error(f"the element count of {name} {fmt_shape(sizes)}", elements)


def _bad_size(size: int) -> bool:
    return size < 0 or extent_error("", size) is not None


def _dim_size(ctx: Context, dim: ast.DimDecl) -> int | None:
    if dim.name is None:
        return dim.value
    sym = ctx.scope.get(dim.name)
    return sym.value if isinstance(sym, ValueSym) and isinstance(sym.value, int) else None
