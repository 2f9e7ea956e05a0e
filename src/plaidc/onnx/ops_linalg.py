"""Contracting ONNX ops: MatMul, Gemm, the Reduce family, ArgMax/ArgMin, Softmax/LogSoftmax.

Each is one or more Tile contractions; a reduced axis keeps index 0 and size 1 under
`keepdims` and disappears otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from plaidc.onnx.emitter import Emitter, Unsupported, Value, kind, known, literal
from plaidc.onnx.importer import Node, converter


def normalize_axes(axes: Sequence[int], rank: int) -> list[int]:
    result = []
    for axis in axes:
        axis = int(axis)
        if not -rank <= axis < max(rank, 1):
            raise Unsupported(f"axis {axis} is out of range for rank {rank}")
        result.append(axis % rank if rank else 0)
    return sorted(set(result))


def reduce(
    out: Emitter, x: Value, axes: Sequence[int], agg: str, keepdims: bool, hint: str
) -> Value:
    """`agg` over `axes` of `x` as one contraction."""
    idx = out.indices(x.rank)
    out_index, out_shape = [], []
    for axis, size in enumerate(x.shape):
        if axis in axes:
            if keepdims:
                out_index.append("0")
                out_shape.append(1)
        else:
            out_index.append(idx[axis])
            out_shape.append(size)
    return out.contract(hint, out_index, out_shape, agg, [(out.tensor(x), idx)], x.dtype)


def _reduce_axes(node: Node, x: Value) -> list[int] | None:
    """The axes a Reduce node reduces (None: none at all, `noop_with_empty_axes`)."""
    moved = (node.op_type == "ReduceSum" and node.opset >= 13) or node.opset >= 18
    if moved:
        axes = node.constant(1, "axes")
        axes_list = [] if axes is None else [int(a) for a in np.asarray(axes).reshape(-1)]
    else:
        axes_list = list(node.attr("axes", []))
    if not axes_list:
        if node.attr("noop_with_empty_axes", 0):
            return None
        return list(range(x.rank))
    return normalize_axes(axes_list, x.rank)


REDUCTIONS = {
    "ReduceSum": "+",
    "ReduceMean": "+",
    "ReduceMax": ">",
    "ReduceMin": "<",
    "ReduceProd": "*",
    "ReduceSumSquare": "+",
    "ReduceL1": "+",
    "ReduceL2": "+",
    "ReduceLogSum": "+",
    "ReduceLogSumExp": "+",
}


@converter(*REDUCTIONS)
def reduction(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    axes = _reduce_axes(node, x)
    keepdims = bool(node.attr("keepdims", 1))
    op = node.op_type
    if axes is None:
        return [x]
    if not x.rank:
        axes = []
    before = {
        "ReduceSumSquare": "{x} * {x}",
        "ReduceL1": "abs({x})",
        "ReduceL2": "{x} * {x}",
        "ReduceLogSumExp": "exp({x} - {m})",
    }.get(op)
    source = x
    peak = None
    if op == "ReduceLogSumExp":
        peak = reduce(out, x, axes, ">", True, f"{op}_max")
    if before is not None:
        text = before.format(x=out.tensor(x), m=peak.tile if peak else "")
        source = out.assign(f"{op}_in", text, x.shape, x.dtype)
    result = reduce(out, source, axes, REDUCTIONS[op], keepdims, op)
    count = int(np.prod([x.shape[a] for a in axes])) if axes else 1
    after = {
        "ReduceMean": f"{{r}} / {literal(count, x.dtype)}",
        "ReduceL2": "sqrt({r})",
        "ReduceLogSum": "log({r})",
    }.get(op)
    if op == "ReduceLogSumExp":
        assert peak is not None
        kept = peak if keepdims else out.reshape(peak, result.shape)
        after = f"log({{r}}) + {out.tensor(kept)}"
    if after is not None:
        result = out.assign(op, after.format(r=result.tile), result.shape, x.dtype)
    return [result]


@converter("ArgMax", "ArgMin")
def arg_extreme(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    (axis,) = normalize_axes([node.attr("axis", 0)], x.rank)
    keepdims = bool(node.attr("keepdims", 1))
    last = bool(node.attr("select_last_index", 0))
    peak = reduce(out, x, [axis], ">" if node.op_type == "ArgMax" else "<", True, "Peak")
    position = out.assign("Pos", f"index({out.tensor(x)}, {axis})", x.shape, np.dtype(np.int32))
    # where x is the extreme, its position; elsewhere a position that loses the reduction
    miss = "(-1)" if last else str(x.shape[axis])
    cand = out.assign(
        "Cand",
        f"{out.tensor(x)} == {peak.tile} ? {position.tile} : {miss}",
        x.shape,
        np.dtype(np.int32),
    )
    chosen = reduce(out, cand, [axis], ">" if last else "<", keepdims, "Chosen")
    return [
        out.assign(node.op_type, f"as_int({chosen.tile}, 64)", chosen.shape, np.dtype(np.int64))
    ]


def _batch_index(shape: Sequence[int], out_batch: Sequence[int], idx: Sequence[str]) -> list[str]:
    """Index of an operand's batch dimensions (right-aligned; broadcast ones are 0)."""
    offset = len(out_batch) - len(shape)
    return ["0" if size == 1 and out_batch[offset + k] != 1 else idx[offset + k]
            for k, size in enumerate(shape)]  # fmt: skip


@converter("MatMul")
def matmul(node: Node, out: Emitter) -> list[Value]:
    a, b = node.required(0), node.required(1)
    if a.rank == 0 or b.rank == 0:
        raise Unsupported("MatMul of a scalar")
    a2 = a if a.rank > 1 else out.reshape(a, (1, a.shape[0]))
    b2 = b if b.rank > 1 else out.reshape(b, (b.shape[0], 1))
    (m, k), (k2, n) = a2.shape[-2:], b2.shape[-2:]
    if k != k2:
        raise Unsupported(f"shapes {list(a.shape)} and {list(b.shape)} do not multiply")
    try:
        batch = tuple(int(d) for d in np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2]))
    except ValueError:
        raise Unsupported(f"batch dimensions of {list(a.shape)} and {list(b.shape)}") from None
    bidx = out.indices(len(batch), "b")
    a_index = [*_batch_index(a2.shape[:-2], batch, bidx), "m", "k"]
    b_index = [*_batch_index(b2.shape[:-2], batch, bidx), "k", "n"]
    result = out.contract(
        "MatMul",
        [*bidx, "m", "n"],
        [*batch, m, n],
        "+",
        [(out.tensor(a2), a_index), (out.tensor(b2), b_index)],
        a.dtype,
        comb="*",
    )
    shape = list(batch) + ([m] if a.rank > 1 else []) + ([n] if b.rank > 1 else [])
    return [out.reshape(result, shape)]


@converter("Gemm")
def gemm(node: Node, out: Emitter) -> list[Value]:
    a, b, c = node.required(0), node.required(1), node.input(2)
    if a.rank != 2 or b.rank != 2:
        raise Unsupported("Gemm needs 2-D A and B")
    trans_a, trans_b = node.attr("transA", 0), node.attr("transB", 0)
    if trans_b and b.const is not None:
        # known weights (a classifier's [classes, features]) are transposed here: output
        # columns contiguous in B are the micro-kernel's vector lanes (ResNet-50's 2048 ->
        # 1000 layer: 1.9 -> 0.6 ms on c, one image), a strided B is packed per call
        weights = np.ascontiguousarray(np.asarray(b.const).T)
        b, trans_b = Value(weights.shape, b.dtype, None, weights, b.origin), 0
    m = a.shape[1] if trans_a else a.shape[0]
    n = b.shape[0] if trans_b else b.shape[1]
    a_index = ["k", "m"] if trans_a else ["m", "k"]
    b_index = ["n", "k"] if trans_b else ["k", "n"]
    product = out.contract(
        "Gemm_ab",
        ["m", "n"],
        [m, n],
        "+",
        [(out.tensor(a), a_index), (out.tensor(b), b_index)],
        a.dtype,
        comb="*",
    )
    alpha, beta = float(node.attr("alpha", 1.0)), float(node.attr("beta", 1.0))
    assert product.tile is not None
    text = product.tile if alpha == 1.0 else f"{literal(alpha, a.dtype)} * {product.tile}"
    if c is not None and beta != 0.0:
        term = out.operand(c, 2)
        text += f" + {term}" if beta == 1.0 else f" + {literal(beta, a.dtype)} * {term}"
    if text == product.tile:
        return [product]
    return [out.assign("Gemm", text, (m, n), a.dtype)]


@converter("Softmax", "LogSoftmax", "Hardmax")
def softmax(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    if node.op_type != "Hardmax" and kind(x.dtype) != "f":
        raise Unsupported(f"{node.op_type} of {x.dtype}")
    if node.opset < 13:  # the input as a 2-D matrix split at `axis`
        (axis,) = normalize_axes([node.attr("axis", 1)], x.rank)
        rows = int(np.prod(x.shape[:axis]))
        flat = out.reshape(x, (rows, x.size // max(rows, 1)))
        result = _softmax_axis(node.op_type, out, flat, 1)
        return [out.reshape(result, x.shape)]
    (axis,) = normalize_axes([node.attr("axis", -1)], x.rank)
    return [_softmax_axis(node.op_type, out, x, axis)]


def _softmax_axis(op: str, out: Emitter, x: Value, axis: int) -> Value:
    v = out.tensor(x)
    peak = reduce(out, x, [axis], ">", True, "Max")
    if op == "Hardmax":
        position = out.assign("Pos", f"index({v}, {axis})", x.shape, np.dtype(np.int32))
        cand = out.assign(
            "Cand",
            f"{v} == {peak.tile} ? {position.tile} : {x.shape[axis]}",
            x.shape,
            np.dtype(np.int32),
        )
        first = reduce(out, cand, [axis], "<", True, "First")
        text = f"{position.tile} == {first.tile} ? 1 : 0"
        return out.assign("Hardmax", f"as_float({text}, {x.dtype.itemsize * 8})", x.shape, x.dtype)
    shifted = out.assign("Shifted", f"{v} - {peak.tile}", x.shape, x.dtype)
    exps = out.assign("Exp", f"exp({shifted.tile})", x.shape, x.dtype)
    total = reduce(out, exps, [axis], "+", True, "Sum")
    if op == "LogSoftmax":
        return out.assign(op, f"{shifted.tile} - log({total.tile})", x.shape, x.dtype)
    return out.assign(op, f"{exps.tile} / {total.tile}", x.shape, x.dtype)


__all__ = ["known", "normalize_axes", "reduce"]
