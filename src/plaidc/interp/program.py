"""Running a whole Stripe program: its inputs and outputs, and the entry point."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.interp.dtypes import cast_to, numpy_dtype
from plaidc.interp.frames import Buffer, alloc_layout, element_offsets
from plaidc.interp.machine import root_frame, run_body
from plaidc.interp.memory import check_fits
from plaidc.stripe.ir import Block, RefDir, Refinement, Special, TensorShape, sub_blocks


@dataclass(frozen=True)
class ProgramIO:
    """A program's parameters: input and output buffers by name (sorted), with their shapes.

    A buffer that is read and written (`inout`) is in both.
    """

    inputs: dict[str, TensorShape]
    outputs: dict[str, TensorShape]


def _usage(program: Block, name: str) -> tuple[bool, bool]:
    """(read, written) for root buffer `name`, from the refinements and specials that use it."""
    reads = writes = False
    for child in sub_blocks(program):
        for ref in child.refs:
            if ref.from_ == name:
                reads |= ref.dir.reads
                writes |= ref.dir.writes
    for stmt in program.stmts:
        if isinstance(stmt, Special):
            reads |= name in stmt.inputs
            writes |= name in stmt.outputs
    return reads, writes


def _parameters(program: Block) -> list[tuple[Refinement, bool, bool]]:
    """Each program buffer of the root with whether it is an input and whether an output.

    Two conventions (see STRIPE.md): a root refinement with a direction (the paper's Figure 5
    style, `in I[0, 0, 0] i8(...)`) is a parameter, input if its direction reads, output if it
    writes; a `#user` allocation (PlaidML's style) is input if a child refinement reads it and
    output if one writes it. Other root allocations (`#tmp`) are internal. A `#user` buffer
    nothing uses is an input the program ignores (an unused function parameter, or one whose
    uses a pass removed): outputs are always written, so it cannot be one.
    """
    params = []
    for ref in program.refs:
        if ref.dir is not RefDir.NONE:
            params.append((ref, ref.dir.reads, ref.dir.writes))
        elif "user" in ref.tags:
            reads, writes = _usage(program, ref.into)
            params.append((ref, reads or not writes, writes))
    return params


def program_io(program: Block) -> ProgramIO:
    """The inputs and outputs of `program` (its root block), sorted by name."""
    params = sorted(_parameters(program), key=lambda p: p[0].into)
    return ProgramIO(
        inputs={ref.into: ref.shape for ref, reads, _ in params if reads},
        outputs={ref.into: ref.shape for ref, _, writes in params if writes},
    )


def _describe(shape: TensorShape) -> str:
    return f"{shape.dtype}({', '.join(str(s) for s in shape.sizes)})"


def _check_inputs(program: Block, io: ProgramIO, inputs: Mapping[str, np.ndarray]) -> None:
    """Report every missing, unknown or wrongly shaped input at once."""
    problems = []
    for name, shape in io.inputs.items():
        ref = program.ref(name)
        span = ref.span if ref is not None else None
        if name not in inputs:
            problems.append(Diagnostic(f"missing input '{name}' of shape {_describe(shape)}", span))
            continue
        got = np.shape(inputs[name])
        if tuple(got) != shape.sizes:
            problems.append(
                Diagnostic(
                    f"input '{name}' has shape {tuple(got)}, but the program expects"
                    f" {_describe(shape)}",
                    span,
                )
            )
    for name in inputs:
        if name not in io.inputs:
            known = ", ".join(io.inputs) or "none"
            problems.append(Diagnostic(f"unknown input '{name}' (the program's inputs: {known})"))
    if problems:
        raise CompileError(problems)


def run_program(program: Block, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Run `program` on `inputs` (by name) and return every output, by name.

    Inputs are converted to their buffer's element type; outputs are arrays shaped by their
    refinement's sizes with its element type (float32 for bf16, see `plaidc.interp.dtypes`).
    Raises CompileError for missing, unknown or misshapen inputs, InterpError when the program
    breaks the semantics while it runs or, up front, when its buffers cannot fit in the memory
    available (see `plaidc.interp.memory`). Nothing is shared between calls.
    """
    io = program_io(program)
    _check_inputs(program, io, inputs)
    check_fits(program)
    buffers: dict[str, Buffer] = {}
    for ref in program.refs:
        region, start = alloc_layout(ref.shape)
        buffer = Buffer.fresh(ref.into, ref.shape.dtype, region)
        if ref.into in io.inputs:
            values = cast_to(np.asarray(inputs[ref.into]), ref.shape.dtype)
            buffer.data[start + element_offsets(ref.shape)] = values.reshape(-1)
        buffers[ref.into] = buffer
    run_body(root_frame(program, buffers))
    outputs = {}
    for name, shape in io.outputs.items():
        _, start = alloc_layout(shape)
        flat = buffers[name].data[start + element_offsets(shape)]
        outputs[name] = flat.reshape(shape.sizes).astype(numpy_dtype(shape.dtype), copy=True)
    return outputs
