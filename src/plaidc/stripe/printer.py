"""Print Stripe IR as canonical `.stripe` text.

The layout is PlaidML 0.7's printer (so `print(parse(dump))` reproduces a PlaidML dump byte for
byte), made lossless: index starts with ranges, constant types, Special parameters, allocation
offsets and locations always print. `print(parse(t))` is a fixed point.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from plaidc.stripe.ir import (
    Affine,
    Block,
    Constant,
    Constraint,
    Index,
    Intrinsic,
    Load,
    LoadIndex,
    Location,
    RefDir,
    Refinement,
    Special,
    SpecialParam,
    Statement,
    Store,
    Tags,
    TagValue,
)

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\Z")


def print_stripe(program: Block) -> str:
    """The whole program; the root block gets the statement prefix `0:` like PlaidML's dumps."""
    lines: list[str] = []
    _print_stmt(lines, program, 0, 0, {})
    return "\n".join(lines) + "\n"


def format_affine(aff: Affine) -> str:
    """`-1 + i + x`, `3*xo`, `19 - x1 - 8*x1_0`: constant first, then terms by name."""
    parts: list[tuple[int, str]] = []
    if aff.const != 0:
        parts.append((aff.const, str(abs(aff.const))))
    for name, coeff in aff.terms:
        parts.append((coeff, name if abs(coeff) == 1 else f"{abs(coeff)}*{name}"))
    if not parts:
        return "0"
    out = ("-" if parts[0][0] < 0 else "") + parts[0][1]
    for coeff, text in parts[1:]:
        out += (" - " if coeff < 0 else " + ") + text
    return out


def format_tags(tags: Tags) -> str:
    return " ".join(_format_tag(n, v) for n, v in tags.items)


def _format_tag(name: str, value: TagValue) -> str:
    return f"#{name}" if value is None else f"#{name}={_format_value(value)}"


def _format_value(value: TagValue | SpecialParam) -> str:
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(str(v) for v in value) + ")"
    if isinstance(value, str) and _IDENT.match(value) and value not in ("inf", "nan"):
        return value  # `inf` and `nan` alone are the floats; those strings are quoted
    return json.dumps(value)


def format_location(loc: Location) -> str:
    units = []
    for unit in loc.units:
        idxs = f"[{', '.join(format_affine(a) for a in unit.idxs)}]" if unit.idxs else ""
        units.append(unit.name + idxs)
    return "/".join(units)


def format_bytes(n: int) -> str:
    """PlaidML's human byte sizes: `4 B`, `1.5 KiB`, `12.25 KiB`."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:g} {unit}"
    return f"{n} B"


def format_index(idx: Index) -> str:
    if idx.affine.is_zero:
        body = f"{idx.name}:{idx.range}"
    elif idx.range == 1:
        body = f"{idx.name} = {format_affine(idx.affine)}"
    else:
        body = f"{idx.name}:{idx.range} = {format_affine(idx.affine)}"
    if idx.tags:
        return f"({format_tags(idx.tags)} {body})"
    return body


# Words that start a refinement line among a block's constraints: an affine that would start
# with one (an index named `in`) gets an explicit `0 + ` so that it parses back.
_REFINEMENT_WORDS = ("in", "out", "inout", "none")


def format_constraint(con: Constraint) -> str:
    text = format_affine(con.affine)
    if text.split(" ", 1)[0].split("*", 1)[0] in _REFINEMENT_WORDS:
        text = "0 + " + text
    return f"{text} >= 0"


def format_refinement(ref: Refinement, parent_refs: Mapping[str, Refinement]) -> str:
    out = f"{format_tags(ref.tags)} " if ref.tags else ""
    out += ref.dir.value
    if ref.is_const:
        out += " const"
    show_new = ref.from_ is None or ref.offset != 0
    if show_new:
        out += f" new@0x{ref.offset:08x}"
    out += f" {ref.into}"
    # a `none` view (from = into) spells its source: `none T[...]` alone is an allocation
    spelled = show_new or ref.dir is RefDir.NONE
    if ref.from_ is not None and (ref.from_ != ref.into or spelled):
        out += f" = {ref.from_}"
    if ref.location is not None:
        out += f"<{format_location(ref.location)}>"
    out += "[" + ", ".join(format_affine(a) for a in ref.access) + "]"
    if ref.agg_op is not None:
        out += f":{ref.agg_op}"
    shape = ref.shape
    out += (
        f" {shape.dtype.value}:I({_ints(shape.sizes)}):({_ints(shape.strides)})"
        f":{format_bytes(shape.byte_size)}"
    )
    parent = parent_refs.get(ref.from_) if ref.from_ is not None else None
    if parent is not None:
        out += f", E({_ints(parent.shape.sizes)}):{format_bytes(parent.shape.byte_size)}"
    return out


def _ints(values: tuple[int, ...]) -> str:
    return ", ".join(str(v) for v in values)


def format_statement(stmt: Statement) -> str:
    """One non-block statement, without its prefix."""
    if isinstance(stmt, Load):
        return f"{stmt.into} = load({stmt.from_})"
    if isinstance(stmt, Store):
        return f"{stmt.into} = store({stmt.from_})"
    if isinstance(stmt, LoadIndex):
        return f"{stmt.into} = load_index({format_affine(stmt.affine)})"
    if isinstance(stmt, Constant):
        return f"{stmt.name} = ({stmt.type}){_format_number(stmt.value)}"
    if isinstance(stmt, Intrinsic):
        return f"{_outs(stmt.outputs)} = {stmt.name}({', '.join(stmt.inputs)})"
    if isinstance(stmt, Special):
        text = f"{_outs(stmt.outputs)} = {stmt.name}({', '.join(stmt.inputs)})"
        if stmt.params:
            text += " {" + ", ".join(f"{k}={_format_value(v)}" for k, v in stmt.params) + "}"
        return text
    raise TypeError(f"not a statement: {stmt!r}")


def _format_number(value: int | float) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def _outs(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"


def _print_stmt(
    lines: list[str], stmt: Statement, pos: int, depth: int, parent_refs: Mapping[str, Refinement]
) -> None:
    tab = "  " * depth
    prefix = f"{tab}{pos}"
    if stmt.deps:
        prefix += "[" + ", ".join(str(d) for d in stmt.deps) + "]"
    prefix += ": "
    if stmt.tags:
        # PlaidML puts the tags on their own line (with a trailing space) before the statement.
        lines.append(prefix + format_tags(stmt.tags) + " ")
        prefix = tab
    if isinstance(stmt, Block):
        _print_block(lines, stmt, prefix, depth, parent_refs)
    else:
        lines.append(prefix + format_statement(stmt))


def _print_block(
    lines: list[str], block: Block, prefix: str, depth: int, parent_refs: Mapping[str, Refinement]
) -> None:
    tab = "  " * depth
    inner = tab + "    "
    loc = f"<{format_location(block.location)}>" if block.location is not None else ""
    idxs = ", ".join(format_index(i) for i in block.idxs)
    head = f"{prefix}block{loc} [{idxs}]:{block.count} ("
    if block.name:
        head += f" // {block.name}"
    lines.append(head)
    lines.extend(f"{inner}// {c}" for c in block.comments)
    lines.extend(inner + format_constraint(c) for c in block.constraints)
    lines.extend(inner + format_refinement(r, parent_refs) for r in block.refs)
    lines.append(f"{tab}) {{")
    my_refs = {r.into: r for r in block.refs}
    for pos, stmt in enumerate(block.stmts):
        _print_stmt(lines, stmt, pos, depth + 1, my_refs)
    lines.append(f"{tab}}}")
