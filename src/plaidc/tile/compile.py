"""The Tile frontend's entry point: source text to a Stripe program, in four steps."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.stripe.ir import Block, DType
from plaidc.tile import ast
from plaidc.tile.bind import Context, TensorSym, bind_inputs
from plaidc.tile.checker import StatementChecker
from plaidc.tile.lower import lower_program, stripe_names
from plaidc.tile.parser import parse_tile
from plaidc.tile.typed import CheckedProgram, TensorInfo
from plaidc.tile.types import parse_dtype


@dataclass(frozen=True)
class TileCompilation:
    """The result of compiling a Tile program."""

    program: Block
    warnings: list[Diagnostic] = field(default_factory=list)
    #: The Stripe names of tensors Stripe cannot spell as Tile does (`X'` -> `X_p`).
    renamed: dict[str, str] = field(default_factory=dict)


def _select(module: ast.Module, entry: str | None, filename: str) -> ast.Function:
    seen: dict[str, ast.Function] = {}
    for func in module.functions:
        first = seen.setdefault(func.name, func) if func.name else func
        if first is not func:
            where = f" (the first at {first.span})" if first.span else ""
            raise CompileError.at(
                f"two functions are named '{func.name}'{where}; rename one", func.span
            )
    if entry is None:
        return module.functions[0]
    for func in module.functions:
        if func.name == entry:
            return func
    names = ", ".join(f.name for f in module.functions if f.name) or "none are named"
    raise CompileError([Diagnostic(f"no function named '{entry}' in {filename} ({names})")])


def _sort_key(d: Diagnostic) -> tuple[int, int]:
    return (d.span.line, d.span.col) if d.span else (0, 0)


def check_tile(
    source: str,
    filename: str,
    *,
    dims: Mapping[str, int] | None = None,
    shapes: Mapping[str, tuple[DType, tuple[int, ...]]] | None = None,
    entry: str | None = None,
) -> tuple[CheckedProgram, list[Diagnostic]]:
    """Parse, bind and check; returns the checked program and the warnings."""
    module = parse_tile(source, filename)
    func = _select(module, entry, filename)
    ctx = Context(filename, dict(dims or {}))
    shapes = dict(shapes or {})
    inputs = bind_inputs(ctx, func, shapes)
    input_names = {d.name for d in func.inputs}
    for name in shapes:
        if name not in input_names:
            ctx.warn(f"{name} is not an input of the function; its shape is ignored", None)

    outputs: dict[str, ast.OutputDecl] = {}
    for out in func.outputs:
        if out.name in outputs:
            ctx.error(f"duplicate output {out.name}", out.span)
        elif out.name in input_names:
            ctx.error(f"{out.name} is both an input and an output", out.span)
        outputs.setdefault(out.name, out)

    assigned = {
        s.body.name if isinstance(s.body, ast.Assign) else s.body.output.name for s in func.body
    }
    checker = StatementChecker(ctx, set(outputs), assigned)
    for stmt in func.body:
        checker.check(stmt)

    for out in outputs.values():
        sym = ctx.scope.get(out.name)
        if sym is None and out.name not in input_names:
            ctx.error(f"output {out.name} is never assigned", out.span)
        if isinstance(sym, TensorSym) and out.dtype is not None:
            declared = parse_dtype(out.dtype)
            if declared is None:
                ctx.error(f"unknown type {out.dtype}", out.dtype_span)
            elif declared != sym.dtype and out.name not in input_names:
                ctx.error(
                    f"output {out.name} is {sym.dtype} but is declared {declared}",
                    out.dtype_span,
                )
    for decl in func.inputs:
        if decl.name not in ctx.used:
            ctx.warn(f"unused input {decl.name}", decl.span)
    for name in sorted(set(ctx.dims) - ctx.dims_used):
        ctx.warn(f"-D {name}={ctx.dims[name]} is ignored: the function has no {name}", None)

    if ctx.errors:
        raise CompileError(sorted(ctx.errors, key=_sort_key))

    tensors = [TensorInfo(t.name, t.dtype, t.sizes, "input") for t in inputs]
    for name in checker.defined:
        sym = ctx.scope[name]
        assert isinstance(sym, TensorSym)
        role = "output" if name in outputs else "temp"
        tensors.append(TensorInfo(name, sym.dtype, sym.sizes, role))
    program = CheckedProgram(
        tensors=tuple(tensors),
        inputs=tuple(t.name for t in inputs),
        outputs=tuple(outputs),
        ops=tuple(checker.ops),
    )
    return program, sorted(ctx.warnings, key=_sort_key)


def compile_tile(
    source: str,
    filename: str,
    *,
    dims: Mapping[str, int] | None = None,
    shapes: Mapping[str, tuple[DType, tuple[int, ...]]] | None = None,
    entry: str | None = None,
) -> TileCompilation:
    """Compile Tile source to a Stripe program.

    `shapes` gives inputs' (dtype, sizes) from `--shape` or `.npy` files, `dims` the `-D`
    sizes; `entry` picks a function by name (default: the first). Raises CompileError with
    every diagnostic found.
    """
    program, warnings = check_tile(source, filename, dims=dims, shapes=shapes, entry=entry)
    return TileCompilation(lower_program(program), warnings, stripe_names(program))
