"""Shape and layout ONNX ops: Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat, Split,
Slice, Gather, Expand, Tile, Pad.

Their shape operands (`shape`, `axes`, `starts`, `pads`, ...) must be known at import time,
which they are once the graph's input shapes are bound and shape computations folded.
Layout changes are `=` contractions (or `reshape`); Gather is Tile's `gather`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from plaidc.onnx.emitter import Emitter, Unsupported, Value, known
from plaidc.onnx.importer import Node, converter
from plaidc.onnx.ops_linalg import normalize_axes


def _ints(array: np.ndarray | None) -> list[int]:
    return [] if array is None else [int(v) for v in np.asarray(array).reshape(-1)]


def _axes(node: Node, rank: int, input_index: int, opset_moved: int) -> list[int] | None:
    if node.opset >= opset_moved:
        axes = node.constant(input_index, "axes")
        return None if axes is None else normalize_axes(_ints(axes), rank)
    attr = node.attr("axes")
    return None if attr is None else normalize_axes(list(attr), rank)


@converter("Reshape")
def reshape(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    wanted = _ints(node.constant(1, "shape"))
    allow_zero = node.attr("allowzero", 0)
    shape = []
    for k, size in enumerate(wanted):
        if size == 0 and not allow_zero:
            if k >= x.rank:
                raise Unsupported(f"shape entry {k} copies a dimension the input lacks")
            size = x.shape[k]
        shape.append(size)
    if shape.count(-1) > 1:
        raise Unsupported("more than one -1 in the shape")
    if -1 in shape:
        rest = int(np.prod([s for s in shape if s != -1]))
        if rest == 0 or x.size % rest:
            raise Unsupported(f"cannot reshape {list(x.shape)} to {wanted}")
        shape[shape.index(-1)] = x.size // rest
    if int(np.prod(shape)) != x.size:
        raise Unsupported(f"cannot reshape {list(x.shape)} to {wanted}")
    return [out.reshape(x, shape)]


@converter("Flatten")
def flatten(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    axis = int(node.attr("axis", 1))
    if not -x.rank <= axis <= x.rank:
        raise Unsupported(f"axis {axis} is out of range for rank {x.rank}")
    axis += x.rank if axis < 0 else 0
    rows = int(np.prod(x.shape[:axis]))
    return [out.reshape(x, (rows, int(np.prod(x.shape[axis:]))))]


@converter("Squeeze")
def squeeze(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    axes = _axes(node, x.rank, 1, 13)
    if axes is None:
        axes = [k for k, size in enumerate(x.shape) if size == 1]
    for axis in axes:
        if x.shape[axis] != 1:
            raise Unsupported(f"axis {axis} has size {x.shape[axis]}, not 1")
    return [out.reshape(x, [s for k, s in enumerate(x.shape) if k not in axes])]


@converter("Unsqueeze")
def unsqueeze(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    count = len(_ints(node.constant(1, "axes"))) if node.opset >= 13 else len(node.attr("axes"))
    axes = _axes(node, x.rank + count, 1, 13) or []
    shape = list(x.shape)
    for axis in axes:
        shape.insert(axis, 1)
    return [out.reshape(x, shape)]


def transpose_value(out: Emitter, x: Value, perm: Sequence[int]) -> Value:
    if list(perm) == list(range(x.rank)):
        return x
    if x.const is not None:
        return known(np.transpose(x.const, perm))
    idx = out.indices(x.rank)
    return out.contract(
        "Transpose",
        [idx[p] for p in perm],
        [x.shape[p] for p in perm],
        "=",
        [(out.tensor(x), idx)],
        x.dtype,
    )


@converter("Transpose")
def transpose(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    perm = list(node.attr("perm", range(x.rank - 1, -1, -1)))
    if sorted(perm) != list(range(x.rank)):
        raise Unsupported(f"perm {perm} is not a permutation of {x.rank} axes")
    return [transpose_value(out, x, perm)]


@converter("Concat")
def concat(node: Node, out: Emitter) -> list[Value]:
    values = [v for v in node.inputs if v is not None]
    (axis,) = normalize_axes([node.attr("axis")], values[0].rank)
    total = sum(v.shape[axis] for v in values)
    shape = list(values[0].shape)
    shape[axis] = total
    idx = out.indices(len(shape))
    result: Value | None = None
    offset = 0
    for value in values:
        if value.size:
            index = list(idx)
            index[axis] = f"{idx[axis]} + {offset}" if offset else idx[axis]
            result = out.contract(
                "Concat",
                index,
                shape,
                "=",
                [(out.tensor(value), idx)],
                values[0].dtype,
                default=None if result is None else result.tile,
            )
        offset += value.shape[axis]
    if result is None:
        raise Unsupported("every input is empty")
    return [result]


def slice_value(
    out: Emitter, x: Value, starts: dict[int, tuple[int, int, int]], hint: str = "Slice"
) -> Value:
    """`x` sliced: axis -> (start, count, step)."""
    idx = out.indices(x.rank)
    shape = list(x.shape)
    index = list(idx)
    for axis, (start, count, step) in starts.items():
        shape[axis] = count
        term = idx[axis] if step == 1 else f"{step} * {idx[axis]}"
        index[axis] = f"{term} + {start}" if start else term
    if 0 in shape:  # no elements: known as they are
        return known(np.empty(tuple(shape), x.dtype))
    if x.const is not None:
        array = x.const
        for axis, (start, count, step) in starts.items():
            array = np.take(array, start + step * np.arange(count), axis=axis)
        return known(array)
    return out.contract(hint, idx, shape, "=", [(out.tensor(x), index)], x.dtype)


@converter("Slice")
def slice_op(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    if node.opset < 10:
        starts, ends = list(node.attr("starts")), list(node.attr("ends"))
        axes = list(node.attr("axes", range(len(starts))))
        steps = [1] * len(starts)
    else:
        starts, ends = _ints(node.constant(1, "starts")), _ints(node.constant(2, "ends"))
        given = node.constant(3, "axes")
        axes = _ints(given) if given is not None else list(range(len(starts)))
        step_values = node.constant(4, "steps")
        steps = _ints(step_values) if step_values is not None else [1] * len(starts)
    spec = {}
    for axis, start, end, step in zip(axes, starts, ends, steps, strict=True):
        (axis,) = normalize_axes([axis], x.rank)
        if step == 0:
            raise Unsupported("a step of 0")
        first, stop, stride = slice(start, end, step).indices(x.shape[axis])
        count = len(range(first, stop, stride))
        spec[axis] = (first, count, stride)
    return [slice_value(out, x, spec)]


@converter("Split")
def split(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    (axis,) = normalize_axes([node.attr("axis", 0)], x.rank)
    given = _ints(node.constant(1, "split")) if node.opset >= 13 else list(node.attr("split", []))
    size = x.shape[axis]
    if not given:
        parts = node.attr("num_outputs", node.output_count)
        chunk = -(-size // parts)
        given = [min(chunk, size - k * chunk) for k in range(parts)]
    if sum(given) != size:
        raise Unsupported(f"split sizes {given} do not add up to {size}")
    results, start = [], 0
    for count in given:
        results.append(slice_value(out, x, {axis: (start, count, 1)}, "Split"))
        start += count
    return results


def gather_axis(out: Emitter, data: Value, indices: Value, axis: int) -> Value:
    """ONNX Gather: `data` indexed along `axis` by `indices` (any shape), through Tile's
    `gather`, which indexes the first axis."""
    rest = [d for k, d in enumerate(data.shape) if k != axis]
    front = transpose_value(out, data, [axis, *[k for k in range(data.rank) if k != axis]])
    if indices.const is not None:
        fixed = np.where(indices.const < 0, indices.const + data.shape[axis], indices.const)
        if ((fixed < 0) | (fixed >= data.shape[axis])).any():
            raise Unsupported(f"an index is out of range for size {data.shape[axis]}")
        index_name = out.tensor(known(fixed.astype(np.int64)), "Indices")
    else:
        raw = out.tensor(indices)
        size = data.shape[axis]
        wrapped = out.assign(
            "Indices", f"{raw} < 0 ? {raw} + {size} : {raw}", indices.shape, indices.dtype
        )
        index_name = out.tensor(wrapped)
    shape = [*indices.shape, *rest]
    gathered = out.assign("Gather", f"gather({out.tensor(front)}, {index_name})", shape, data.dtype)
    q = indices.rank
    perm = [*range(q, q + axis), *range(q), *range(q + axis, q + len(rest))]
    return transpose_value(out, gathered, perm)


@converter("Gather")
def gather(node: Node, out: Emitter) -> list[Value]:
    data, indices = node.required(0), node.required(1)
    (axis,) = normalize_axes([node.attr("axis", 0)], data.rank)
    if indices.const is not None and indices.rank == 0:  # one position: a slice, axis dropped
        position = int(indices.const)
        position += data.shape[axis] if position < 0 else 0
        if not 0 <= position < data.shape[axis]:
            raise Unsupported(f"index {int(indices.const)} is out of range")
        picked = slice_value(out, data, {axis: (position, 1, 1)}, "Gather")
        return [out.reshape(picked, [d for k, d in enumerate(data.shape) if k != axis])]
    return [gather_axis(out, data, indices, axis)]


@converter("Expand")
def expand(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    wanted = _ints(node.constant(1, "shape"))
    try:
        shape = [int(d) for d in np.broadcast_shapes(x.shape, tuple(wanted))]
    except ValueError:
        raise Unsupported(f"{list(x.shape)} does not broadcast to {wanted}") from None
    return [broadcast_to(out, x, shape)]


def broadcast_to(out: Emitter, x: Value, shape: Sequence[int]) -> Value:
    if tuple(shape) == x.shape:
        return x
    idx = out.indices(len(shape))
    offset = len(shape) - x.rank
    index = ["0" if size == 1 and shape[offset + k] != 1 else idx[offset + k]
             for k, size in enumerate(x.shape)]  # fmt: skip
    return out.contract("Expand", idx, shape, "=", [(out.tensor(x), index)], x.dtype)


@converter("Tile")
def tile(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    repeats = _ints(node.constant(1, "repeats"))
    if len(repeats) != x.rank:
        raise Unsupported(f"{len(repeats)} repeats for rank {x.rank}")
    idx = out.indices(x.rank)
    index, constraints = [], []
    for k, (size, times) in enumerate(zip(x.shape, repeats, strict=True)):
        if times == 1:
            index.append(idx[k])
        else:
            index.append(f"{idx[k]} + {size} * r{k}")
            constraints.append((f"r{k}", times))
    shape = [s * r for s, r in zip(x.shape, repeats, strict=True)]
    return [
        out.contract(
            "Tile", index, shape, "=", [(out.tensor(x), idx)], x.dtype, constraints=constraints
        )
    ]


@converter("Pad")
def pad(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    mode = node.attr("mode", b"constant")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    if node.opset < 11:
        pads, value = list(node.attr("pads")), float(node.attr("value", 0.0))
        axes = list(range(x.rank))
    else:
        pads = _ints(node.constant(1, "pads"))
        fill = node.constant(2, "constant_value")
        value = 0.0 if fill is None or fill.size == 0 else fill.reshape(-1)[0].item()
        given = node.constant(3, "axes")
        axes = normalize_axes(_ints(given), x.rank) if given is not None else list(range(x.rank))
    if len(pads) != 2 * len(axes):
        raise Unsupported(f"{len(pads)} pads for {len(axes)} axes")
    before = dict(zip(axes, pads[: len(axes)], strict=True))
    after = dict(zip(axes, pads[len(axes) :], strict=True))
    shape = [s + before.get(k, 0) + after.get(k, 0) for k, s in enumerate(x.shape)]
    if mode in ("edge", "reflect", "wrap"):
        result = x
        for axis in axes:
            if before[axis] or after[axis]:
                widths = (max(before[axis], 0), max(after[axis], 0))
                source = np.pad(np.arange(x.shape[axis]), widths, mode=mode)  # type: ignore[arg-type]
                crop = source[max(-before[axis], 0) : len(source) - max(-after[axis], 0)]
                result = gather_axis(out, result, known(crop.astype(np.int64)), axis)
        return [result]
    if mode != "constant":
        raise Unsupported(f"mode '{mode}' is not supported")
    idx = out.indices(x.rank)
    index = [f"{i} + {before.get(k, 0)}" if before.get(k, 0) else i for k, i in enumerate(idx)]
    padded = out.contract("Pad", index, shape, "=", [(out.tensor(x), idx)], x.dtype)
    if value == 0:
        return [padded]
    from plaidc.onnx.emitter import literal

    inside = []
    for k in range(x.rank):
        lo, hi = before.get(k, 0), before.get(k, 0) + x.shape[k]
        position = f"index({padded.tile}, {k})"
        if lo > 0:
            inside.append(f"({position} >= {lo})")
        if hi < shape[k]:
            inside.append(f"({position} < {hi})")
    if not inside:
        return [padded]
    mask = out.assign("Inside", " & ".join(inside), shape, np.dtype(np.bool_))
    fill_text = literal(value, x.dtype)
    return [out.assign("Pad", f"{mask.tile} ? {padded.tile} : {fill_text}", shape, x.dtype)]
