"""Printing the kernel: CCE-like C through the shared C syntax tree.

The kernel is one function taking every program buffer as a `__gm__` pointer (sorted by name),
whose body is the synced op list: for each op its waits, its instructions and the flags it
sets, with the marked loops rolled into `for` loops (`loops`), ending with
`pipe_barrier(PIPE_ALL)`; with `[codegen] serialise` (the naive schedule
benchmarks compare against) a barrier follows every op instead. The helpers it calls (`clib`)
come first.
"""

from __future__ import annotations

from plaidc.backends.c import ast as c
from plaidc.backends.npu.clib import library
from plaidc.backends.npu.context import Context
from plaidc.backends.npu.loops import LoopMark, build, roll_runs, simplify
from plaidc.backends.npu.ops import C_TYPES, call
from plaidc.backends.npu.sync import Flag, Synced

ENTRY = "plaidc_kernel"


def _flag(kind: str, flag: Flag) -> c.Stmt:
    return call(kind, flag.src, flag.dst, f"EVENT_ID{flag.event}")


def emit_kernel(ctx: Context, synced: Synced, title: str) -> str:
    """The C source of the whole program."""
    items: list[c.Stmt | LoopMark] = []
    for op, waits, sets in zip(synced.ops, synced.waits_before, synced.sets_after, strict=True):
        if op.mark is not None:
            items.append(op.mark)
        if ctx.options.serialise:  # the naive schedule: each op after everything before it
            items.extend(op.stmts)
            if op.pipe:
                items.append(call("pipe_barrier", "PIPE_ALL"))
            continue
        items.extend(_flag("wait_flag", f) for f in waits)
        items.extend(op.stmts)
        items.extend(_flag("set_flag", f) for f in sets)
    if ctx.options.loops:
        body = list(simplify(roll_runs(tuple(build(items)))))
    else:
        body = [item for item in items if not isinstance(item, LoopMark)]
    body.append(call("pipe_barrier", "PIPE_ALL"))
    params = tuple(
        c.Param(f"__gm__ {C_TYPES[ctx.gm_type[name]]} *", ctx.gm_names[name])
        for name in sorted(ctx.buffers)
    )
    func = c.FunctionDef("void", ENTRY, params, tuple(body), static=False, comment=title)
    head = '#include "plaidc_npu.h"\n#include <math.h>\n\n'
    return head + library(ctx.used, ctx.repeat_bytes) + "\n" + c.print_c(c.TranslationUnit((func,)))
