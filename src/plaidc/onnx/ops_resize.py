"""ONNX Resize and Upsample: each resized axis is one contraction with an [out, in] weight
matrix computed at import time from the source coordinate of every output point (nearest:
a gather of the picked points; linear, cubic and their antialiased forms: the kernel's
weights; tf_crop_and_resize: rows outside the input weigh nothing and take
extrapolation_value).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from plaidc.onnx.emitter import Emitter, Unsupported, Value, known
from plaidc.onnx.importer import Node, converter
from plaidc.onnx.ops_nn import text_attr
from plaidc.onnx.ops_shape import gather_axis


def _source_coordinates(mode: str, size_in: int, size_out: int, scale: float) -> np.ndarray:
    o = np.arange(size_out, dtype=np.float64)
    if mode == "half_pixel":
        return (o + 0.5) / scale - 0.5
    if mode == "half_pixel_symmetric":
        adjust = size_out / (scale * size_in)
        offset = size_in / 2 * (1 - adjust)
        return offset + (o + 0.5) / scale - 0.5
    if mode == "pytorch_half_pixel":
        return (o + 0.5) / scale - 0.5 if size_out > 1 else np.zeros_like(o)
    if mode == "align_corners":
        resized = size_in * scale  # the scale's length, not the rounded one (as ONNX says)
        return o * (size_in - 1) / (resized - 1) if size_out > 1 else np.zeros_like(o)
    if mode == "asymmetric":
        return o / scale
    raise Unsupported(f"coordinate_transformation_mode '{mode}' is not supported")


def _nearest(coords: np.ndarray, rounding: str, size_in: int) -> np.ndarray:
    picks: dict[str, Callable[[np.ndarray], np.ndarray]] = {
        "round_prefer_floor": lambda c: np.ceil(c - 0.5),
        "round_prefer_ceil": lambda c: np.floor(c + 0.5),
        "floor": np.floor,
        "ceil": np.ceil,
    }
    if rounding not in picks:
        raise Unsupported(f"nearest_mode '{rounding}' is not supported")
    return np.clip(picks[rounding](coords), 0, size_in - 1).astype(np.int64)


def _linear_weights(coords: np.ndarray, n: int, size: int) -> np.ndarray:
    coords = np.clip(coords, 0, n - 1)
    low = np.floor(coords).astype(np.int64)
    high = np.minimum(low + 1, n - 1)
    frac = coords - low
    weights = np.zeros((size, n))
    np.add.at(weights, (np.arange(size), low), 1 - frac)
    np.add.at(weights, (np.arange(size), high), frac)
    return weights


def _keys(t: np.ndarray, a: float) -> np.ndarray:
    """The cubic convolution kernel (Keys) with coefficient `a`."""
    t = np.abs(t)
    near = ((a + 2) * t - (a + 3)) * t * t + 1
    far = ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return np.where(t <= 1, near, np.where(t < 2, far, 0.0))


def _kernel_weights(
    coords: np.ndarray,
    n: int,
    mode: str,
    stretch: float,
    cubic_a: float,
    exclude: bool,
    normalize: bool,
) -> np.ndarray:
    """Resize along one axis as a [out, in] matrix: each output point weighs the input
    points within the kernel's support around its source coordinate (cubic: Keys' kernel;
    linear: the triangle), the kernel widened by 1/stretch when antialiasing a downscale.
    Points beyond the edges read the edge (or, with `exclude`, weigh 0 and the rest are
    renormalised)."""
    radius = 2 if mode == "cubic" else 1
    first = math.floor(-radius / stretch) + 1
    offsets = np.arange(first, 2 - first)  # the input points around floor(coordinate)
    base = np.floor(coords)
    ratio = coords - base
    distance = stretch * (offsets[None, :] - ratio[:, None])
    if mode == "cubic":
        coeffs = _keys(distance, cubic_a)
    else:
        coeffs = np.maximum(0.0, 1.0 - np.abs(distance))
    if normalize:
        coeffs = coeffs / coeffs.sum(axis=1, keepdims=True)
    points = base[:, None].astype(np.int64) + offsets[None, :]
    if exclude:
        coeffs = np.where((points >= 0) & (points < n), coeffs, 0.0)
        coeffs = coeffs / coeffs.sum(axis=1, keepdims=True)
    weights = np.zeros((coords.size, n))
    rows = np.repeat(np.arange(coords.size), offsets.size)
    np.add.at(weights, (rows, np.clip(points, 0, n - 1).reshape(-1)), coeffs.reshape(-1))
    return weights


@converter("Resize", "Upsample")
def resize(node: Node, out: Emitter) -> list[Value]:
    x = node.required(0)
    mode = text_attr(node.attr("mode", "nearest"))
    roi = [(0.0, 1.0)] * x.rank  # the crop per axis (tf_crop_and_resize), as fractions
    if node.op_type == "Upsample" or node.opset < 11:
        scales_in = node.attr("scales") if node.opset < 9 else node.constant(1, "scales")
        scales = [float(s) for s in np.asarray(scales_in).reshape(-1)]
        sizes = [math.floor(n * s) for n, s in zip(x.shape, scales, strict=True)]
        transform, rounding = "asymmetric", "floor"
        mode = "linear" if mode in ("linear", "bilinear") else mode
    else:
        antialias = bool(node.attr("antialias", 0))
        policy = text_attr(node.attr("keep_aspect_ratio_policy", "stretch"))
        if policy not in ("stretch", "not_larger", "not_smaller"):
            raise Unsupported(f"keep_aspect_ratio_policy '{policy}' is not supported")
        transform = text_attr(node.attr("coordinate_transformation_mode", "half_pixel"))
        rounding = text_attr(node.attr("nearest_mode", "round_prefer_floor"))
        given_axes = node.attr("axes")
        axes = list(range(x.rank)) if given_axes is None else [a % x.rank for a in given_axes]
        if transform == "tf_crop_and_resize":
            roi_given = node.constant(1, "roi")
            if roi_given is None or roi_given.size != 2 * len(axes):
                raise Unsupported("tf_crop_and_resize needs an roi of 2 values per axis")
            ends = roi_given.reshape(2, len(axes)).astype(np.float64)
            for k, a in enumerate(axes):
                roi[a] = (float(ends[0, k]), float(ends[1, k]))
        scales_given = node.constant(2, "scales")
        sizes_given = node.constant(3, "sizes")
        scales, sizes = [1.0] * x.rank, list(x.shape)
        if sizes_given is not None and sizes_given.size:
            for a, n in zip(axes, sizes_given.reshape(-1), strict=True):
                sizes[a], scales[a] = int(n), int(n) / x.shape[a]
            if policy != "stretch":  # one scale for all axes, the sizes rounded half up
                pick = min if policy == "not_larger" else max
                common = pick(scales[a] for a in axes)
                for a in axes:
                    scales[a], sizes[a] = common, int(common * x.shape[a] + 0.5)
        elif scales_given is not None and scales_given.size:
            for a, s in zip(axes, scales_given.reshape(-1), strict=True):
                scales[a], sizes[a] = float(s), math.floor(x.shape[a] * float(s))
        else:
            raise Unsupported("neither scales nor sizes is given")
    if mode not in ("nearest", "linear", "cubic"):
        raise Unsupported(f"mode '{mode}' is not supported")
    if node.op_type == "Upsample" or node.opset < 11:
        antialias, cubic_a, exclude = False, -0.75, False
    else:
        cubic_a = float(node.attr("cubic_coeff_a", -0.75))
        exclude = bool(node.attr("exclude_outside", 0))
        if antialias and mode == "nearest":
            antialias = False  # ONNX: antialias applies to linear and cubic only
    result = x
    extrapolation = float(node.attr("extrapolation_value", 0.0))
    for axis, (n, size, scale) in enumerate(zip(x.shape, sizes, scales, strict=True)):
        if size == n and scale == 1.0 and roi[axis] == (0.0, 1.0):
            continue
        if transform == "tf_crop_and_resize":
            coords = _crop_coordinates(n, size, scale, roi[axis])
        else:
            coords = _source_coordinates(transform, n, size, scale)
        outside = (coords < 0) | (coords > n - 1)  # only tf_crop_and_resize's extrapolate
        if mode == "nearest" and not outside.any():
            picks = known(_nearest(coords, rounding, n))
            result = gather_axis(out, result, picks, axis)
            continue
        if mode == "nearest":
            weights = np.zeros((size, n))
            weights[np.arange(size), _nearest(coords, rounding, n)] = 1.0
        elif mode == "linear" and not antialias and not exclude:
            weights = _linear_weights(coords, n, size)
        else:
            stretch = min(scale, 1.0) if antialias else 1.0
            weights = _kernel_weights(coords, n, mode, stretch, cubic_a, exclude, antialias)
        if transform == "tf_crop_and_resize":
            weights[outside] = 0.0
        matrix = out.tensor(known(weights.astype(x.dtype)), "Interp")
        idx = out.indices(result.rank)
        source = list(idx)
        source[axis] = "s"
        shape = list(result.shape)
        shape[axis] = size
        result = out.contract(
            "Resize",
            idx,
            shape,
            "+",
            [(out.tensor(result), source), (matrix, [idx[axis], "s"])],
            x.dtype,
            comb="*",
        )
        if transform == "tf_crop_and_resize" and outside.any() and extrapolation != 0.0:
            filler = (outside * extrapolation).reshape((size,) + (1,) * (x.rank - axis - 1))
            fill = out.tensor(known(filler.astype(x.dtype)), "Extrapolated")
            result = out.assign("Resize", f"{result.tile} + {fill}", result.shape, x.dtype)
    return [result]


def _crop_coordinates(n: int, size: int, scale: float, roi: tuple[float, float]) -> np.ndarray:
    """tf_crop_and_resize: output points spread evenly over the crop [roi) of the input (its
    length taken from the scale, not the rounded size, as the onnx reference does)."""
    start, end = roi
    length = n * scale
    if length == 1:
        return np.full(size, (end - start) * (n - 1) / 2 + start * (n - 1))
    return np.arange(size) * (end - start) * (n - 1) / (length - 1) + start * (n - 1)
