"""How much memory the interpreter may use: its working set, and what the machine has.

The interpreter holds the program's buffers whole and evaluates each block's iteration space in
chunks whose temporaries (index values, addresses, loaded values, contributions, the sorts of
aggregation) stay within a *working set*: `PLAIDC_INTERP_WORKING_SET` bytes (a number, or one
with a `K`, `M` or `G` suffix for KiB, MiB, GiB), by default 256 MiB. The peak is then about
the program's buffers, the aggregated results of the block being run (at most a few words per
element it writes) and this working set. `check_fits` refuses up front a program whose buffers
alone do not fit in the memory the machine has available.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from plaidc.interp.errors import InterpError
from plaidc.interp.frames import alloc_layout
from plaidc.stripe.ir import Block, Constant, Intrinsic, Load, LoadIndex, Special, Store, sub_blocks
from plaidc.stripe.printer import format_bytes

WORKING_SET_ENV = "PLAIDC_INTERP_WORKING_SET"
DEFAULT_WORKING_SET = 256 * 2**20

_SIZE = re.compile(r"\s*(\d+)\s*([KMG]?)(?:i?B)?\s*", re.IGNORECASE)
_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}

# Bytes one point of a block needs per word-sized temporary (an int64 index, address, value).
_WORD = 8


def working_set_bytes() -> int:
    """The working set from `PLAIDC_INTERP_WORKING_SET`, or the default; at least 1 byte."""
    text = os.environ.get(WORKING_SET_ENV)
    if text is None or not text.strip():
        return DEFAULT_WORKING_SET
    match = _SIZE.fullmatch(text)
    if match is None or int(match.group(1)) == 0:
        raise InterpError(
            f"{WORKING_SET_ENV}={text!r}: expected a positive size in bytes, such as 268435456"
            " or 256M (K, M, G: KiB, MiB, GiB)"
        )
    return int(match.group(1)) * _UNITS[match.group(2).upper()]


def point_bytes(block: Block) -> int:
    """An upper estimate of the temporary bytes one point of `block` needs while its chunk runs
    (not counting child blocks, which chunk their own points)."""
    words = 2 + len(block.idxs) + len(block.refs)  # parent point, index values, view bases
    total = 0
    for ref in block.refs:
        if ref.from_ is None:  # a fresh region per point
            region, _ = alloc_layout(ref.shape)
            total += region * ref.shape.dtype.byte_size
    for stmt in block.stmts:
        if isinstance(stmt, (Load, LoadIndex, Constant, Intrinsic)):
            words += 2  # the value and a temporary of computing it
        elif isinstance(stmt, Store):
            words += 10  # the contribution (point, address, value) and aggregation's sorts
        elif isinstance(stmt, Special):
            elements = 0
            for name in (*stmt.inputs, *stmt.outputs):
                operand = block.ref(name)
                if operand is not None:
                    elements += max(operand.shape.elem_count, 1)
            words += 12 * elements  # addresses, values and contributions per element
        elif isinstance(stmt, Block):
            words += 10  # what the child leaves: aggregated contributions of this point
    return total + words * _WORD


def available_memory() -> int | None:
    """Bytes of memory available to new allocations (Linux's MemAvailable), or None where the
    system does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _nested_blocks(block: Block) -> Iterator[Block]:
    for child in sub_blocks(block):
        yield child
        yield from _nested_blocks(child)


def check_fits(program: Block) -> None:
    """Raise InterpError, before anything is allocated, when the program's buffers (the root's,
    and one point's fresh allocation in each nested block) need more memory than the machine
    has available, naming the largest and its size. (The working set is not counted: chunks
    are what the interpreter can shrink.)"""
    have = available_memory()
    if have is None:
        return
    arrays: list[tuple[int, str]] = []
    for ref in program.refs:
        region, _ = alloc_layout(ref.shape)
        arrays.append((region * ref.shape.dtype.byte_size, f"buffer '{ref.into}'"))
    for block in _nested_blocks(program):
        for ref in block.refs:
            if ref.from_ is None:
                region, _ = alloc_layout(ref.shape)
                where = block.name or "a nested block"
                arrays.append((region * ref.shape.dtype.byte_size, f"'{ref.into}' of {where}"))
    need = sum(size for size, _ in arrays)
    if need <= have:
        return
    size, what = max(arrays)
    raise InterpError(
        f"the program's buffers need {format_bytes(need)} ({what} alone takes"
        f" {format_bytes(size)}) and this machine has {format_bytes(have)} of memory available"
    )
