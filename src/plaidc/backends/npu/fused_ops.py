"""Kernel operations one ISA instruction does together: `relu(add(a, b))` is `vaddrelu`.

`fuse_add_relu` rewrites a kernel's body so that an `add` of two vectors whose only reader is a
`relu` becomes one `add_relu` operation where the `relu` was (`IntrinsicLowering` lowers it to
`vaddrelu`): one pass over the layout instead of two. `vaddrelu` rounds the sum to the lanes'
type before the relu, so the value is the two operations' exactly.
"""

from __future__ import annotations

from plaidc.backends.npu.kernels import KOp, KStore
from plaidc.backends.npu.vtypes import VType
from plaidc.stripe.ir import DType

ADD_RELU = "add_relu"
ADD_RELU_INSTR = "vaddrelu"
FLOAT_LANES = (DType.FP16, DType.FP32)


def fuse_add_relu(body: list, types: dict[str, VType]) -> list:
    """`body` with each `relu(add(a, b))` whose sum nothing else reads, on float vectors of
    one lane type (no scalar operand: `vadds` has no relu form), as one `add_relu` at the
    relu's place (the sum's operands are defined before the add, so before it too)."""
    readers: dict[str, list[object]] = {}
    for stmt in body:
        for name in _uses(stmt):
            readers.setdefault(name, []).append(stmt)
    adds = {
        st.dst: st
        for st in body
        if isinstance(st, KOp) and st.op == "add" and _float_vec(types[st.dst])
        if all(_float_vec(types[a], types[st.dst].dtype) for a in st.args)
    }
    fused: dict[str, KOp] = {}  # the add's dst -> the add
    out = []
    for stmt in body:
        if isinstance(stmt, KOp) and stmt.op == "relu" and len(stmt.args) == 1:
            add = adds.get(stmt.args[0])
            if (
                add is not None
                and readers.get(add.dst) == [stmt]
                and types[stmt.dst] == types[add.dst]
            ):
                fused[add.dst] = add
                out.append(KOp(stmt.dst, ADD_RELU, add.args, stmt.span))
                continue
        out.append(stmt)
    return [st for st in out if not (isinstance(st, KOp) and fused.get(st.dst) is st)]


def _float_vec(t: VType, dtype: DType | None = None) -> bool:
    return (
        t.kind == "vec"
        and t.dtype in FLOAT_LANES
        and not t.boolean
        and t.narrow is None
        and (dtype is None or t.dtype is dtype)
    )


def _uses(stmt: object) -> list[str]:
    if isinstance(stmt, KOp):
        return list(stmt.args)
    if isinstance(stmt, KStore):
        return [stmt.src]
    return []
