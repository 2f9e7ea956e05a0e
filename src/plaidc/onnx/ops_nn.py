"""Neural-network ONNX ops: Conv, ConvTranspose, pools, BatchNormalization, LayerNormalization,
InstanceNormalization (Resize is `ops_resize`).

A convolution is one Tile contraction over NCHW (any number of spatial axes): padding needs
no statement, since positions outside the input take no part in a contraction. Groups split
the channel index as `g * C_group + c`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from plaidc.onnx.emitter import Emitter, Unsupported, Value, known, literal
from plaidc.onnx.importer import Node, converter
from plaidc.onnx.layout import (
    as_stored,
    channels_last,
    laid_out,
    order,
    per_channel_shape,
    stored,
)
from plaidc.onnx.ops_linalg import reduce


def text_attr(value: object) -> str:
    """A string attribute's value (onnx gives bytes)."""
    return value.decode() if isinstance(value, bytes) else str(value)


def _window(
    node: Node, spatial: Sequence[int], kernel: Sequence[int], ceil_mode: bool = False
) -> tuple[list[int], list[int], list[int], list[int]]:
    """(output sizes, pads before, strides, dilations) of a sliding window."""
    rank = len(spatial)
    strides = list(node.attr("strides", [1] * rank))
    dilations = list(node.attr("dilations", [1] * rank))
    pads = list(node.attr("pads", [0] * (2 * rank)))
    auto_pad = text_attr(node.attr("auto_pad", "NOTSET"))
    extents = [(k - 1) * d + 1 for k, d in zip(kernel, dilations, strict=True)]
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        sizes = [-(-n // s) for n, s in zip(spatial, strides, strict=True)]
        before = []
        for n, o, s, e in zip(spatial, sizes, strides, extents, strict=True):
            total = max(0, (o - 1) * s + e - n)
            before.append(total // 2 if auto_pad == "SAME_UPPER" else total - total // 2)
        return sizes, before, strides, dilations
    if auto_pad == "VALID":
        pads = [0] * (2 * rank)
    elif auto_pad != "NOTSET":
        raise Unsupported(f"auto_pad '{auto_pad}' is not supported")
    sizes = []
    for axis, (n, s, e) in enumerate(zip(spatial, strides, extents, strict=True)):
        span = n + pads[axis] + pads[axis + rank] - e
        if span < 0:
            raise Unsupported(f"the window is larger than the padded input on axis {axis}")
        size = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (size - 1) * s >= n + pads[axis]:
            size -= 1  # the last window would start in the end padding
        sizes.append(size)
    return sizes, pads[:rank], strides, dilations


def _position(x: str, k: str, stride: int, dilation: int, pad: int) -> str:
    text = x if stride == 1 else f"{stride} * {x}"
    text += f" + {k}" if dilation == 1 else f" + {dilation} * {k}"
    return f"{text} - {pad}" if pad else text


def _bias(out: Emitter, result: Value, bias: Value | None) -> Value:
    if bias is None:
        return result
    shaped = out.reshape(bias, per_channel_shape(bias.size, result.rank, result.layout), "Bias")
    return _assign_like(out, "Conv", f"{result.tile} + {out.tensor(shaped, 'Bias')}", result)


def _assign_like(out: Emitter, hint: str, text: str, like: Value) -> Value:
    """`Name = text;` of `like`'s shape, dtype and layout (`text` reads stored tensors)."""
    layout = order(like)
    return laid_out(out.assign(hint, text, stored(like.shape, layout), like.dtype), layout)


def _weights(out: Emitter, w: Value, m: str, ks: list[str]) -> tuple[str, list[str]]:
    """The Tile weights of a convolution and their indices: known weights are transposed at
    import to (spatial..., input channel, output channel), so that output channels are the
    contiguous axis of a channels-last result's GEMM."""
    if w.const is None or not out.channels_last:
        return out.tensor(w, "W"), [m, "c", *ks]
    moved = np.ascontiguousarray(np.asarray(w.const).transpose(*range(2, w.rank), 1, 0))
    kept = Value(tuple(int(d) for d in moved.shape), w.dtype, None, moved, w.origin)
    return out.tensor(kept, "W"), [*ks, "c", m]


@converter("Conv")
def conv(node: Node, out: Emitter) -> list[Value]:
    x, w, bias = node.required(0), node.required(1), node.input(2)
    if x.rank < 3 or w.rank != x.rank:
        raise Unsupported(f"input rank {x.rank} and weight rank {w.rank}")
    groups = int(node.attr("group", 1))
    channels, spatial = x.shape[1], x.shape[2:]
    features, per_group = w.shape[0], w.shape[1]
    if channels != per_group * groups or features % groups:
        raise Unsupported(f"{channels} channels, {groups} groups and weight {list(w.shape)}")
    kernel = w.shape[2:]
    sizes, before, strides, dilations = _window(node, spatial, kernel)
    if out.channels_last:
        x, before = _padded(out, x, sizes, before, strides, dilations, kernel), [0] * len(before)
    xs, ks = out.indices(len(spatial), "x"), out.indices(len(spatial), "k")
    positions = [_position(*a) for a in zip(xs, ks, strides, dilations, before, strict=True)]
    out_group = features // groups
    m = f"g * {out_group} + m" if groups > 1 else "m"
    c = f"g * {per_group} + c" if groups > 1 else "c"
    constraints = [("g", groups), ("m", out_group)] if groups > 1 else []
    layout = channels_last(x.rank) if out.channels_last else tuple(range(x.rank))
    weights = _weights(out, w, m, ks)
    result = out.contract(
        "Conv",
        stored(["n", m, *xs], layout),
        stored([x.shape[0], features, *sizes], layout),
        "+",
        [(out.tensor(x), stored(["n", c, *positions], order(x))), weights],
        x.dtype,
        comb="*",
        constraints=constraints,
    )
    return [_bias(out, laid_out(result, layout), bias)]


def _padded(
    out: Emitter,
    x: Value,
    sizes: Sequence[int],
    before: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
    kernel: Sequence[int],
) -> Value:
    """The convolution's input with its zero padding written out, channels-last (the input
    as it is when no window reaches outside it). Padding constraints bound an output index
    together with a window index, so the GEMM micro-kernel would loop over the window
    outside each call and get rows of one image row and reductions of one pixel's channels
    (`loopnest/gemm.py`); on a padded copy the window's columns and channels are one
    reduction (3x3 pad 1 on 14x14x256: 4.9 -> 1.7 ms, the 7x7/2 stem on 3 NCHW channels:
    23.7 -> 1.4 ms, c, loaded machine)."""
    spatial = x.shape[2:]
    extents = [
        s * (o - 1) + d * (k - 1) + 1
        for o, s, d, k in zip(sizes, strides, dilations, kernel, strict=True)
    ]
    if not any(before) and all(e <= n for e, n in zip(extents, spatial, strict=True)):
        return x
    ys = out.indices(len(spatial), "y")
    shifted = [f"{y} - {b}" if b else y for y, b in zip(ys, before, strict=True)]
    layout = channels_last(x.rank)
    result = out.contract(
        "Padded",
        stored(["n", "c", *ys], layout),
        stored([x.shape[0], x.shape[1], *extents], layout),
        "=",
        [(out.tensor(x), stored(["n", "c", *shifted], order(x)))],
        x.dtype,
    )
    return laid_out(result, layout)


@converter("ConvTranspose")
def conv_transpose(node: Node, out: Emitter) -> list[Value]:
    x, w, bias = node.required(0), node.required(1), node.input(2)
    if x.rank < 3 or w.rank != x.rank:
        raise Unsupported(f"input rank {x.rank} and weight rank {w.rank}")
    groups = int(node.attr("group", 1))
    channels, spatial = x.shape[1], x.shape[2:]
    rank = len(spatial)
    per_group, kernel = w.shape[1], w.shape[2:]
    if w.shape[0] != channels or channels % groups:
        raise Unsupported(f"{channels} channels, {groups} groups and weight {list(w.shape)}")
    strides = list(node.attr("strides", [1] * rank))
    dilations = list(node.attr("dilations", [1] * rank))
    extra = list(node.attr("output_padding", [0] * rank))
    pads = list(node.attr("pads", [0] * (2 * rank)))
    auto_pad = text_attr(node.attr("auto_pad", "NOTSET"))
    full = [
        s * (n - 1) + e + (k - 1) * d + 1
        for n, s, e, k, d in zip(spatial, strides, extra, kernel, dilations, strict=True)
    ]
    wanted = node.attr("output_shape")
    if wanted is not None or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        target = [n * s for n, s in zip(spatial, strides, strict=True)]
        if wanted is not None:
            target = list(wanted)[-rank:]
        totals = [f - t for f, t in zip(full, target, strict=True)]
        upper = auto_pad == "SAME_UPPER"
        before = [t // 2 if upper else t - t // 2 for t in totals]
        pads = before + [t - b for t, b in zip(totals, before, strict=True)]
    elif auto_pad == "VALID":
        pads = [0] * (2 * rank)
    elif auto_pad != "NOTSET":
        raise Unsupported(f"auto_pad '{auto_pad}' is not supported")
    sizes = [f - pads[a] - pads[a + rank] for a, f in enumerate(full)]
    xs, ks = out.indices(rank, "x"), out.indices(rank, "k")
    positions = [_position(*a) for a in zip(xs, ks, strides, dilations, pads[:rank], strict=True)]
    in_group = channels // groups
    m = f"g * {per_group} + m" if groups > 1 else "m"
    c = f"g * {in_group} + c" if groups > 1 else "c"
    constraints = [("g", groups), ("c", in_group)] if groups > 1 else []
    result = out.contract(
        "ConvTranspose",
        ["n", m, *positions],
        [x.shape[0], per_group * groups, *sizes],
        "+",
        [(out.tensor(x), ["n", c, *xs]), (out.tensor(w, "W"), [c, "m", *ks])],
        x.dtype,
        comb="*",
        constraints=constraints,
    )
    return [_bias(out, result, bias)]


@converter("MaxPool", "AveragePool")
def pool(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    indices = node.op_type == "MaxPool" and node.output_count > 1
    column_major = bool(int(node.attr("storage_order", 0)))
    kernel = list(node.attr("kernel_shape"))
    spatial = x.shape[2:]
    ceil_mode = bool(node.attr("ceil_mode", 0))
    sizes, before, strides, dilations = _window(node, spatial, kernel, ceil_mode)
    xs, ks = out.indices(len(spatial), "x"), out.indices(len(spatial), "k")
    positions = [_position(*a) for a in zip(xs, ks, strides, dilations, before, strict=True)]
    agg = ">" if node.op_type == "MaxPool" else "+"
    layout = order(x)  # the result keeps the input's layout
    stored_result = out.contract(
        node.op_type,
        stored(["n", "c", *xs], layout),
        stored([x.shape[0], x.shape[1], *sizes], layout),
        agg,
        [(out.tensor(x), stored(["n", "c", *positions], layout))],
        x.dtype,
        constraints=list(zip(ks, kernel, strict=True)),
    )
    result = laid_out(stored_result, layout)
    if node.op_type == "MaxPool":
        if not indices:
            return [result]
        return [result, _max_indices(out, x, result, positions, kernel, ks, column_major)]
    # the divisor: positions inside the input (or inside the padded input) per window
    include_pad = bool(node.attr("count_include_pad", 0))
    pads = list(node.attr("pads", [0] * (2 * len(spatial))))
    counts = np.ones((), dtype=np.int64)
    for axis, n in enumerate(spatial):
        lo, hi = 0, n
        if include_pad and text_attr(node.attr("auto_pad", "NOTSET")) == "NOTSET":
            lo, hi = -pads[axis], n + pads[axis + len(spatial)]
        start = np.arange(sizes[axis]) * strides[axis] - before[axis]
        taps = start[:, None] + np.arange(kernel[axis])[None, :] * dilations[axis]
        inside = ((taps >= lo) & (taps < hi)).sum(axis=1)
        counts = np.multiply.outer(counts, inside)
    if (counts == counts.flat[0]).all():
        divisor = literal(int(counts.flat[0]), x.dtype)
    else:  # per output position: (1, 1, sizes...) in the result's layout
        full = counts.astype(x.dtype).reshape((1, 1, *counts.shape)).transpose(layout)
        divisor = out.tensor(known(np.ascontiguousarray(full)), "Count")
    return [_assign_like(out, "AveragePool", f"{result.tile} / {divisor}", result)]


def _max_indices(
    out: Emitter,
    x: Value,
    peak: Value,
    positions: list[str],
    kernel: list[int],
    ks: list[str],
    column_major: bool,
) -> Value:
    """MaxPool's Indices: the flat index in `x` of each window's maximum, the first in
    row-major order where several equal it (as onnxruntime): the largest of `size - flat
    index` over the window's positions holding the maximum (a ternary contraction),
    subtracted from `size`; with `storage_order=1` that index then maps to the column-major
    one (the spatial axes reversed)."""
    flat = np.arange(x.size, dtype=np.int64).reshape(x.shape)
    rank = known(x.size - flat)
    name = out.fresh("FirstMax")
    sizes = ", ".join(str(d) for d in peak.shape)
    spatial = [f"x{k}" for k in range(len(positions))]
    where = ", ".join(["n", "c", *positions])
    body = (
        f"{out.tensor(x)}[{where}] == {peak.tile}[{', '.join(['n', 'c', *spatial])}] "
        f"? {out.tensor(rank, 'Rank')}[{where}]"
    )
    bounds = "".join(f", {k} < {n}" for k, n in zip(ks, kernel, strict=True))
    out.lines.append(f"  {name}[{', '.join(['n', 'c', *spatial])} : {sizes}] = >({body}){bounds};")
    row_major = out.assign("Indices", f"{x.size} - {name}", peak.shape, np.dtype(np.int64))
    if not column_major:
        return row_major
    order = [0, 1, *reversed(range(2, x.rank))]
    column = np.arange(x.size, dtype=np.int64).reshape([x.shape[a] for a in order])
    table = out.tensor(known(column.transpose(np.argsort(order)).reshape(-1)), "ColumnMajor")
    return out.assign("Indices", f"gather({table}, {row_major.tile})", peak.shape, row_major.dtype)


@converter("GlobalAveragePool", "GlobalMaxPool")
def global_pool(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    layout = order(x)  # the result keeps the input's layout
    axes = [layout.index(axis) for axis in range(2, x.rank)]
    agg = ">" if node.op_type == "GlobalMaxPool" else "+"
    result = laid_out(reduce(out, as_stored(x), axes, agg, True, node.op_type), layout)
    if agg == ">":
        return [result]
    count = literal(math.prod(x.shape[2:]), x.dtype)
    return [_assign_like(out, node.op_type, f"{result.tile} / {count}", result)]


@converter("LRN")
def lrn(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    size = int(node.attr("size"))
    alpha, beta = float(node.attr("alpha", 1e-4)), float(node.attr("beta", 0.75))
    bias = float(node.attr("bias", 1.0))
    v = out.tensor(x)
    square = out.assign("Square", f"{v} * {v}", x.shape, x.dtype)
    idx = out.indices(x.rank)
    window = list(idx)
    window[1] = f"{idx[1]} + j - {(size - 1) // 2}"
    total = out.contract(
        "Window", idx, x.shape, "+", [(out.tensor(square), window)], x.dtype,
        constraints=[("j", size)],
    )  # fmt: skip
    scale = literal(alpha / size, x.dtype)
    text = f"{v} / pow({literal(bias, x.dtype)} + {scale} * {total.tile}, {literal(beta, x.dtype)})"
    return [out.assign("LRN", text, x.shape, x.dtype)]


def _per_channel(
    out: Emitter, value: Value, rank: int, hint: str, layout: tuple[int, ...] | None = None
) -> str:
    return out.tensor(out.reshape(value, per_channel_shape(value.size, rank, layout)), hint)


@converter("BatchNormalization")
def batch_norm(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    scale, bias, mean, var = (node.required(k) for k in range(1, 5))
    if not int(node.attr("spatial", 1)):
        raise Unsupported("spatial=0 is not supported")
    eps = float(node.attr("epsilon", 1e-5))
    if int(node.attr("training_mode", 0)):
        return _batch_norm_training(node, out, x, eps)
    if node.output_count > 1:
        raise Unsupported("outputs beyond Y need training_mode=1 (opset 14)")
    params = (scale, bias, mean, var)
    if all(p.const is not None for p in params):  # fold into one multiply and one add
        s, b, m, v = (p.const.astype(np.float64) for p in params)  # type: ignore[union-attr]
        factor = s / np.sqrt(v + eps)
        shift = b - m * factor
        f = _per_channel(out, known(factor.astype(x.dtype)), x.rank, "Scale", x.layout)
        h = _per_channel(out, known(shift.astype(x.dtype)), x.rank, "Shift", x.layout)
        return [_assign_like(out, "BatchNorm", f"{out.tensor(x)} * {f} + {h}", x)]
    s, b, m, v = (
        _per_channel(out, p, x.rank, n, x.layout) for p, n in zip(params, "SBMV", strict=True)
    )
    text = f"({out.tensor(x)} - {m}) / sqrt({v} + {literal(eps, x.dtype)}) * {s} + {b}"
    return [_assign_like(out, "BatchNorm", text, x)]


def _batch_norm_training(node: Node, out: Emitter, x: Value, eps: float) -> list[Value]:
    """Training-mode BatchNormalization (opset 14+): normalise with the batch's own mean and
    (population) variance per channel; the running statistics move towards them by
    1 - momentum."""
    scale, bias, mean, var = (node.required(k) for k in range(1, 5))
    axes = [0, *range(2, x.rank)]
    count = literal(math.prod(x.shape[a] for a in axes), x.dtype)
    total = reduce(out, x, axes, "+", True, "Sum")
    batch_mean = out.assign("BatchMean", f"{total.tile} / {count}", total.shape, x.dtype)
    centred = out.assign("Centred", f"{out.tensor(x)} - {batch_mean.tile}", x.shape, x.dtype)
    square = out.assign("Square", f"{centred.tile} * {centred.tile}", x.shape, x.dtype)
    spread = reduce(out, square, axes, "+", True, "SumSq")
    batch_var = out.assign("BatchVar", f"{spread.tile} / {count}", spread.shape, x.dtype)
    s, b = _per_channel(out, scale, x.rank, "Scale"), _per_channel(out, bias, x.rank, "Bias")
    text = f"{centred.tile} / sqrt({batch_var.tile} + {literal(eps, x.dtype)}) * {s} + {b}"
    results = [out.assign("BatchNorm", text, x.shape, x.dtype)]
    momentum = literal(float(node.attr("momentum", 0.9)), x.dtype)
    channels = (x.shape[1],)
    for running, batch, hint in ((mean, batch_mean, "RunningMean"), (var, batch_var, "RunningVar")):
        flat = out.reshape(batch, channels)
        old = out.tensor(out.reshape(running, channels))
        text = f"{old} * {momentum} + {flat.tile} * (1.0 - {momentum})"
        results.append(out.assign(hint, text, channels, x.dtype))
    return results[: max(1, node.output_count)]


def _normalize(out: Emitter, x: Value, axes: list[int], eps: float) -> tuple[Value, Value, Value]:
    """(x - mean) / sqrt(var + eps) over `axes`, the mean, and 1 / sqrt(var + eps)."""
    count = literal(math.prod(x.shape[a] for a in axes), x.dtype)
    total = reduce(out, x, axes, "+", True, "Sum")
    mean = out.assign("Mean", f"{total.tile} / {count}", total.shape, x.dtype)
    centred = out.assign("Centred", f"{out.tensor(x)} - {mean.tile}", x.shape, x.dtype)
    square = out.assign("Square", f"{centred.tile} * {centred.tile}", x.shape, x.dtype)
    spread = reduce(out, square, axes, "+", True, "SumSq")
    inv = out.assign(
        "InvStd",
        f"1.0 / sqrt({spread.tile} / {count} + {literal(eps, x.dtype)})",
        spread.shape,
        x.dtype,
    )
    normal = out.assign("Normal", f"{centred.tile} * {inv.tile}", x.shape, x.dtype)
    return normal, mean, inv


@converter("LayerNormalization")
def layer_norm(node: Node, out: Emitter) -> list[Value]:
    x, scale, bias = node.required(0), node.required(1), node.input(2)
    axis = int(node.attr("axis", -1)) % x.rank
    normal, mean, inv = _normalize(out, x, list(range(axis, x.rank)), node.attr("epsilon", 1e-5))
    text = f"{normal.tile} * {out.operand(scale, x.rank)}"
    if bias is not None:
        text += f" + {out.operand(bias, x.rank)}"
    return [out.assign("LayerNorm", text, x.shape, x.dtype), mean, inv]


@converter("InstanceNormalization")
def instance_norm(node: Node, out: Emitter) -> list[Value]:
    x, scale, bias = node.required(0), node.required(1), node.required(2)
    normal, _, _ = _normalize(out, x, list(range(2, x.rank)), node.attr("epsilon", 1e-5))
    s, b = _per_channel(out, scale, x.rank, "Scale"), _per_channel(out, bias, x.rank, "Bias")
    return [out.assign("InstanceNorm", f"{normal.tile} * {s} + {b}", x.shape, x.dtype)]
