"""Channels-last activations: the layout assignment of an ONNX import.

ONNX convolutions are NCHW; a channels-last tensor (NHWC) gives the GEMM micro-kernel rows of
whole image rows and vectors of output channels, as onnxruntime's NhwcTransformer and TVM's
ConvertLayout arrange it. The importer keeps each tensor's logical (ONNX) shape and records in
`Value.layout` the order in which its Tile tensor stores the axes: Tile axis `j` is ONNX axis
`layout[j]` (None: the ONNX order). Then

* Conv writes its result channels-last (whatever its input's layout) and reads its weights
  from a copy transposed at import time (spatial axes, input channel, output channel);
* pooling, inference BatchNormalization and every elementwise op (`ELEMENTWISE`) keep their
  input's layout: an elementwise op runs on the stored tensors, with its known operands
  transposed at import time (`physical`), when all its run-time operands share one layout;
* any other op, and every graph output, reads the ONNX order: the importer writes one
  transposing copy of a channels-last tensor (`canonical`), shared by all its readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

import numpy as np

from plaidc.onnx.emitter import Emitter, Value, known

Layout = tuple[int, ...]
T = TypeVar("T")

#: Ops whose result is elementwise in their operands (numpy broadcasting; no axis attribute):
#: they run on stored tensors of any one layout.
ELEMENTWISE = frozenset(
    {
        *("Relu", "Sigmoid", "Tanh", "Exp", "Log", "Sqrt", "Abs", "Neg", "Reciprocal"),
        *("Floor", "Ceil", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh"),
        *("Softsign", "Softplus", "Sign", "Add", "Sub", "Mul", "Div", "Equal", "Less"),
        *("Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Not", "Pow"),
        *("Max", "Min", "Sum", "Mean", "Where", "Cast", "Clip", "LeakyRelu", "Elu", "Selu"),
        *("Celu", "ThresholdedRelu", "HardSigmoid", "HardSwish", "PRelu", "Erf", "Gelu"),
        *("Identity", "Dropout"),
    }
)

#: Ops whose converters read `Value.layout` themselves (`ops_nn`).
LAYOUT_AWARE = frozenset(
    {"Conv", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "BatchNormalization"}
)


def channels_last(rank: int) -> Layout:
    """(N, spatial..., C) of an (N, C, spatial...) tensor."""
    return (0, *range(2, rank), 1)


def order(value: Value) -> Layout:
    """The value's stored axis order (the ONNX order when it has no layout)."""
    return value.layout if value.layout is not None else tuple(range(value.rank))


def stored(items: Sequence[T], layout: Layout) -> list[T]:
    """Per-axis items (indices, sizes) of the ONNX order, in the stored order."""
    return [items[axis] for axis in layout]


def as_stored(value: Value) -> Value:
    """`value` as the plain tensor it is stored as (its stored shape, no layout)."""
    if value.layout is None:
        return value
    return replace(value, shape=tuple(stored(value.shape, value.layout)), layout=None)


def takes_layout(node_op: str, output_count: int, attrs: dict[str, object]) -> bool:
    """Whether a LAYOUT_AWARE op's converter takes this node's input in its stored layout
    (MaxPool's Indices and training-mode BatchNormalization use the ONNX order)."""
    if node_op == "MaxPool":
        return output_count < 2
    if node_op == "BatchNormalization":
        return not attrs.get("training_mode", 0)
    return node_op in LAYOUT_AWARE


def logical(shape: Sequence[int], layout: Layout) -> tuple[int, ...]:
    """The ONNX shape of a tensor stored as `shape` in `layout`."""
    result = [0] * len(shape)
    for position, axis in enumerate(layout):
        result[axis] = int(shape[position])
    return tuple(result)


def is_plain(layout: Layout | None) -> bool:
    return layout is None or tuple(layout) == tuple(range(len(layout)))


def laid_out(value: Value, layout: Layout) -> Value:
    """The stored result `value` (its shape the stored one) as the ONNX-shaped value it is."""
    if is_plain(layout):
        return value
    return replace(value, shape=logical(value.shape, layout), layout=layout)


def per_channel_shape(channels: int, rank: int, layout: Layout | None) -> tuple[int, ...]:
    """The shape that broadcasts a per-channel vector (ONNX axis 1) against a rank-`rank`
    tensor stored in `layout`: the channels, then ones for the stored axes after axis 1."""
    position = (layout or tuple(range(rank))).index(1)
    return (channels,) + (1,) * (rank - 1 - position)


def canonical(out: Emitter, value: Value, cache: dict[str, Value]) -> Value:
    """`value` in the ONNX order: a transposing copy of a channels-last tensor, written once
    (cached by the stored tensor's name)."""
    if is_plain(value.layout):
        return value
    assert value.layout is not None
    assert value.tile is not None
    found = cache.get(value.tile)
    if found is not None:
        return found
    idx = out.indices(value.rank)
    source = out.tensor(value)
    result = out.contract(
        "Ordered", idx, value.shape, "=", [(source, stored(idx, value.layout))], value.dtype
    )
    cache[value.tile] = result
    return result


def physical(values: Sequence[Value | None], rank: int) -> tuple[list[Value | None], Layout] | None:
    """The operands of an elementwise op whose result has `rank` axes, as stored tensors of
    one layout, with that layout; None when there is nothing to gain (no operand has a
    layout) or the operands cannot share one (two layouts, or a run-time operand of another
    rank or without the layout). Known operands are transposed here, after numpy's leading
    ones are added."""
    layouts = {v.layout for v in values if v is not None and v.const is None}
    layouts.discard(None)
    if len(layouts) != 1:
        return None
    (layout,) = layouts
    assert layout is not None
    result: list[Value | None] = []
    for v in values:
        if v is None:
            result.append(None)
        elif v.const is None:
            if v.layout != layout or v.rank != rank:
                return None
            result.append(as_stored(v))
        elif v.size == 1 and v.rank <= rank:
            result.append(v)  # a literal: broadcasts in any order
        elif v.rank <= rank:
            full = np.asarray(v.const).reshape((1,) * (rank - v.rank) + v.shape)
            moved = np.ascontiguousarray(full.transpose(layout))
            result.append(Value(tuple(int(d) for d in moved.shape), v.dtype, None, moved))
        else:
            return None
    return result, layout


def unstored(results: Sequence[Value], layout: Layout, rank: int) -> list[Value]:
    """An elementwise converter's results on stored operands, as ONNX-shaped values."""
    back: list[Value] = []
    for value in results:
        if value.const is not None:  # (Dropout's mask): known, so held in the ONNX order
            moved = np.asarray(value.const).transpose(np.argsort(layout))
            back.append(known(np.ascontiguousarray(moved)))
        elif value.rank == rank:
            back.append(laid_out(value, layout))
        else:
            raise AssertionError(f"an elementwise result of rank {value.rank}, not {rank}")
    return back
