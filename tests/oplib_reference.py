"""Independent numpy references for the op library in ``examples/*.tile``, and its manifest.

Each reference function takes the program's inputs (a mapping from Tile input name to array) and
returns a dict from Tile output name to the expected array. They are written from the math of the
operation (numpy's own ``cumsum``, ``pad``, ``tile``, sliding windows, per-group loops, ...),
never transcribed from the Tile text, so that a Tile program and its reference can only agree by
both being right. Floating-point work is done in float64 and cast to the output type at the end.

``examples/examples.toml`` (the manifest) names, for each program entry, the ``.tile`` file, its
dimension bindings (``defines``), the shape, dtype and value range of every input, and the shape
and dtype of every output. :func:`load_manifest` parses and validates it; :func:`make_inputs`
draws deterministic inputs for an entry.
"""

from __future__ import annotations

import tomllib
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples"
MANIFEST_PATH = EXAMPLES_DIR / "examples.toml"

Arrays = Mapping[str, np.ndarray]
Reference = Callable[[Arrays], dict[str, np.ndarray]]

#: Tile dtype names (TILE.md "Types") that the op library uses, and their numpy equivalents.
NUMPY_DTYPES: dict[str, np.dtype] = {
    "bool": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "u8": np.dtype(np.uint8),
    "u16": np.dtype(np.uint16),
    "u32": np.dtype(np.uint32),
    "u64": np.dtype(np.uint64),
    "fp16": np.dtype(np.float16),
    "fp32": np.dtype(np.float32),
    "fp64": np.dtype(np.float64),
}

_FILLS = ("uniform", "randint", "arange")
_ENTRY_KEYS = {"file", "defines", "inputs", "outputs", "rtol", "atol"}
_INPUT_KEYS = {"shape", "dtype", "fill", "low", "high"}
_OUTPUT_KEYS = {"shape", "dtype"}


# --------------------------------------------------------------------------------------------
# Manifest
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class InputSpec:
    """How to make one input: its shape, Tile dtype and value distribution.

    ``fill`` is ``uniform`` (floats in ``[low, high)``), ``randint`` (integers in
    ``[low, high)``) or ``arange`` (0, 1, 2, ... in C order).
    """

    shape: tuple[int, ...]
    dtype: str
    fill: str
    low: float
    high: float


@dataclass(frozen=True)
class OutputSpec:
    """The shape and Tile dtype an output must have."""

    shape: tuple[int, ...]
    dtype: str


@dataclass(frozen=True)
class ProgramSpec:
    """One manifest entry: a Tile file run with particular bindings and inputs."""

    name: str
    path: Path
    defines: dict[str, int]
    inputs: dict[str, InputSpec]
    outputs: dict[str, OutputSpec]
    rtol: float
    atol: float


class ManifestError(ValueError):
    """The manifest is malformed (unknown key, bad dtype, missing field...)."""


def _check_keys(where: str, table: Mapping[str, object], allowed: set[str]) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ManifestError(f"{where}: unknown key(s) {unknown}; allowed {sorted(allowed)}")


def _dtype_name(where: str, value: object) -> str:
    if not isinstance(value, str) or value not in NUMPY_DTYPES:
        raise ManifestError(f"{where}: dtype {value!r} is not one of {sorted(NUMPY_DTYPES)}")
    return value


def _shape(where: str, value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(d, int) and d > 0 for d in value):
        raise ManifestError(f"{where}: shape must be a list of positive integers, got {value!r}")
    return tuple(value)


def _tolerance(name: str, table: Mapping[str, object], key: str, default: float) -> float:
    value = table.get(key, default)
    if not isinstance(value, int | float) or value < 0:
        raise ManifestError(f"[{name}]: {key} must be a non-negative number, got {value!r}")
    return float(value)


def _parse_input(where: str, table: Mapping[str, object]) -> InputSpec:
    _check_keys(where, table, _INPUT_KEYS)
    dtype = _dtype_name(where, table.get("dtype", "fp32"))
    is_float = NUMPY_DTYPES[dtype].kind == "f"
    fill = table.get("fill", "uniform" if is_float else "randint")
    if fill not in _FILLS:
        raise ManifestError(f"{where}: fill {fill!r} is not one of {_FILLS}")
    low = table.get("low", -1.0 if is_float else -8)
    high = table.get("high", 1.0 if is_float else 8)
    if not isinstance(low, int | float) or not isinstance(high, int | float) or low >= high:
        raise ManifestError(f"{where}: need numeric low < high, got {low!r}, {high!r}")
    return InputSpec(_shape(where, table.get("shape")), dtype, str(fill), float(low), float(high))


def _parse_entry(name: str, table: Mapping[str, object]) -> ProgramSpec:
    _check_keys(f"[{name}]", table, _ENTRY_KEYS)
    file_name = table.get("file", f"{name}.tile")
    defines = table.get("defines", {})
    inputs = table.get("inputs")
    outputs = table.get("outputs")
    if not isinstance(file_name, str):
        raise ManifestError(f"[{name}]: file must be a string")
    if not isinstance(defines, dict) or not all(isinstance(v, int) for v in defines.values()):
        raise ManifestError(f"[{name}]: defines must map dimension names to integers")
    if not isinstance(inputs, dict) or not inputs:
        raise ManifestError(f"[{name}]: needs an [{name}.inputs] table")
    if not isinstance(outputs, dict) or not outputs:
        raise ManifestError(f"[{name}]: needs an [{name}.outputs] table")
    parsed_outputs = {}
    for out_name, out in outputs.items():
        where = f"[{name}.outputs.{out_name}]"
        _check_keys(where, out, _OUTPUT_KEYS)
        parsed_outputs[out_name] = OutputSpec(
            _shape(where, out.get("shape")), _dtype_name(where, out.get("dtype", "fp32"))
        )
    return ProgramSpec(
        name=name,
        path=EXAMPLES_DIR / file_name,
        defines=dict(defines),
        inputs={k: _parse_input(f"[{name}.inputs.{k}]", v) for k, v in inputs.items()},
        outputs=parsed_outputs,
        rtol=_tolerance(name, table, "rtol", 1e-4),
        atol=_tolerance(name, table, "atol", 1e-5),
    )


def parse_manifest(text: str) -> dict[str, ProgramSpec]:
    """Parse manifest TOML text into program specs, keyed by entry name."""
    data = tomllib.loads(text)
    return {name: _parse_entry(name, table) for name, table in data.items()}


def load_manifest(path: Path = MANIFEST_PATH) -> dict[str, ProgramSpec]:
    """Load and validate ``examples/examples.toml``."""
    return parse_manifest(path.read_text())


def seed_for(name: str) -> int:
    """A stable per-entry seed, so each program sees its own fixed inputs."""
    return zlib.crc32(name.encode())


def make_inputs(spec: ProgramSpec, seed: int | None = None) -> dict[str, np.ndarray]:
    """Draw deterministic inputs for ``spec`` as described by its manifest entry."""
    rng = np.random.default_rng(seed_for(spec.name) if seed is None else seed)
    arrays: dict[str, np.ndarray] = {}
    for name, inp in spec.inputs.items():
        dtype = NUMPY_DTYPES[inp.dtype]
        values: np.ndarray
        if inp.fill == "arange":
            values = np.arange(int(np.prod(inp.shape))).reshape(inp.shape)
        elif inp.fill == "randint":
            values = rng.integers(int(inp.low), int(inp.high), size=inp.shape)
        else:
            values = rng.uniform(inp.low, inp.high, size=inp.shape)
        arrays[name] = np.ascontiguousarray(values.astype(dtype))
    return arrays


# --------------------------------------------------------------------------------------------
# Shared numpy building blocks (each checked against a naive loop in tests/test_oplib.py)
# --------------------------------------------------------------------------------------------


def _f64(inputs: Arrays, *names: str) -> list[np.ndarray]:
    return [np.asarray(inputs[name], dtype=np.float64) for name in names]


def _fp32(value: np.ndarray) -> np.ndarray:
    return np.asarray(value, dtype=np.float32)


def conv2d_nhwc(image: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """Valid, stride-1 cross-correlation: NHWC image, HWIO kernel -> NHWC output.

    Built from sliding windows: each output pixel is the dot product of the
    ``[KH, KW, CI]`` patch under it with each output filter.
    """
    kh, kw = kernel.shape[:2]
    # windows: [N, OH, OW, CI, KH, KW]
    windows = sliding_window_view(image, (kh, kw), axis=(1, 2))
    return np.einsum("nxycij,ijco->nxyo", windows, kernel)


def conv2d_nhwc_loops(image: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """The same convolution as :func:`conv2d_nhwc`, as plain scalar loops (tiny shapes only)."""
    n_, h_, w_, ci_ = image.shape
    kh_, kw_, _, co_ = kernel.shape
    out = np.zeros((n_, h_ - kh_ + 1, w_ - kw_ + 1, co_))
    for n in range(n_):
        for x in range(h_ - kh_ + 1):
            for y in range(w_ - kw_ + 1):
                for co in range(co_):
                    total = 0.0
                    for i in range(kh_):
                        for j in range(kw_):
                            for ci in range(ci_):
                                total += image[n, x + i, y + j, ci] * kernel[i, j, ci, co]
                    out[n, x, y, co] = total
    return out


def dilate_kernel(kernel: np.ndarray, rate: int) -> np.ndarray:
    """Insert ``rate - 1`` zero rows/columns between kernel taps (the atrous kernel)."""
    kh, kw, ci, co = kernel.shape
    dilated = np.zeros(((kh - 1) * rate + 1, (kw - 1) * rate + 1, ci, co), dtype=kernel.dtype)
    dilated[::rate, ::rate] = kernel
    return dilated


def pool2d_nhwc(image: np.ndarray, window: int, stride: int, pad: int, mode: str) -> np.ndarray:
    """Square pooling over H and W of an NHWC tensor.

    ``mode`` is ``max`` (padding is -inf, i.e. ignored) or ``avg`` (padding is zero and the
    divisor is always ``window ** 2``, PyTorch's ``count_include_pad=True``).
    """
    fill = -np.inf if mode == "max" else 0.0
    padded = np.pad(image, ((0, 0), (pad, pad), (pad, pad), (0, 0)), constant_values=fill)
    windows = sliding_window_view(padded, (window, window), axis=(1, 2))[:, ::stride, ::stride]
    if mode == "max":
        return windows.max(axis=(-2, -1))
    return windows.sum(axis=(-2, -1)) / window**2


def pool2d_nhwc_loops(
    image: np.ndarray, window: int, stride: int, pad: int, mode: str
) -> np.ndarray:
    """The same pooling as :func:`pool2d_nhwc`, as loops over output pixels (tiny shapes)."""
    n_, h_, w_, c_ = image.shape
    oh = (h_ + 2 * pad - window) // stride + 1
    ow = (w_ + 2 * pad - window) // stride + 1
    out = np.zeros((n_, oh, ow, c_))
    for x in range(oh):
        for y in range(ow):
            r0, c0 = x * stride - pad, y * stride - pad
            rows = slice(max(r0, 0), min(r0 + window, h_))
            cols = slice(max(c0, 0), min(c0 + window, w_))
            patch = image[:, rows, cols, :]
            if mode == "max":
                out[:, x, y, :] = patch.max(axis=(1, 2))
            else:
                out[:, x, y, :] = patch.sum(axis=(1, 2)) / window**2
    return out


def _relu(value: np.ndarray) -> np.ndarray:
    return np.maximum(value, 0.0)


def _softmax_rows(x: np.ndarray) -> np.ndarray:
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


# --------------------------------------------------------------------------------------------
# References, one per program
# --------------------------------------------------------------------------------------------


def matmul(inputs: Arrays) -> dict[str, np.ndarray]:
    """C = A @ B, in the inputs' dtype (fp32, fp16 or an integer type)."""
    a, b = inputs["A"], inputs["B"]
    if a.dtype.kind == "f":
        return {"C": (a.astype(np.float64) @ b.astype(np.float64)).astype(a.dtype)}
    return {"C": (a.astype(np.int64) @ b.astype(np.int64)).astype(a.dtype)}


def conv2d_bias_relu(inputs: Arrays) -> dict[str, np.ndarray]:
    """relu(valid NHWC convolution + per-channel bias)."""
    image, kernel, bias = _f64(inputs, "I", "K", "B")
    return {"R": _fp32(_relu(conv2d_nhwc(image, kernel) + bias))}


def maxpool1d(inputs: Arrays) -> dict[str, np.ndarray]:
    """Max over non-overlapping pairs; an odd trailing element is dropped."""
    (x,) = _f64(inputs, "I")
    pairs = x[: (x.shape[0] // 2) * 2].reshape(-1, 2)
    return {"O": _fp32(pairs.max(axis=1))}


def cumsum(inputs: Arrays) -> dict[str, np.ndarray]:
    """Inclusive prefix sum."""
    (x,) = _f64(inputs, "I")
    return {"O": _fp32(np.cumsum(x))}


def softmax(inputs: Arrays) -> dict[str, np.ndarray]:
    """Softmax over the last axis."""
    (x,) = _f64(inputs, "X")
    return {"Y": _fp32(_softmax_rows(x))}


def one_hot(inputs: Arrays) -> dict[str, np.ndarray]:
    """Bool one-hot of Idx against the class values in Count."""
    idx, classes = inputs["Idx"], inputs["Count"]
    return {"O": np.equal.outer(idx, classes)}


def tile_no_defract(inputs: Arrays) -> dict[str, np.ndarray]:
    """Copies of A at every (10 i, 20 j) offset of a 50 x 80 zero canvas, clipped to it."""
    (a,) = _f64(inputs, "A")
    out = np.zeros((50, 80))
    for row in range(0, 50, 10):
        for col in range(0, 80, 20):
            block = a[: 50 - row, : 80 - col]
            out[row : row + block.shape[0], col : col + block.shape[1]] = block
    return {"O": _fp32(out)}


def conv2d_valid(inputs: Arrays) -> dict[str, np.ndarray]:
    """Valid NHWC convolution."""
    image, kernel = _f64(inputs, "I", "K")
    return {"O": _fp32(conv2d_nhwc(image, kernel))}


def conv2d_padded(inputs: Arrays) -> dict[str, np.ndarray]:
    """ "Same" convolution: zero-pad by (K - 1) // 2 on each side, then a valid convolution."""
    image, kernel = _f64(inputs, "I", "K")
    ph, pw = (kernel.shape[0] - 1) // 2, (kernel.shape[1] - 1) // 2
    padded = np.pad(image, ((0, 0), (ph, ph), (pw, pw), (0, 0)))
    return {"O": _fp32(conv2d_nhwc(padded, kernel))}


def conv2d_strided(inputs: Arrays) -> dict[str, np.ndarray]:
    """Stride-2 convolution: every other row and column of the stride-1 result."""
    image, kernel = _f64(inputs, "I", "K")
    return {"O": _fp32(conv2d_nhwc(image, kernel)[:, ::2, ::2, :])}


def conv2d_dilated(inputs: Arrays) -> dict[str, np.ndarray]:
    """Dilation-2 convolution: a stride-1 convolution with the zero-dilated kernel."""
    image, kernel = _f64(inputs, "I", "K")
    return {"O": _fp32(conv2d_nhwc(image, dilate_kernel(kernel, 2)))}


def conv2d_grouped(inputs: Arrays) -> dict[str, np.ndarray]:
    """Grouped convolution: split channels into groups, convolve each, concatenate."""
    image, kernel = _f64(inputs, "I", "K")
    cig, co = kernel.shape[2], kernel.shape[3]
    groups = image.shape[3] // cig
    cog = co // groups
    parts = [
        conv2d_nhwc(image[..., g * cig : (g + 1) * cig], kernel[..., g * cog : (g + 1) * cog])
        for g in range(groups)
    ]
    return {"O": _fp32(np.concatenate(parts, axis=3))}


def conv2d_depthwise(inputs: Arrays) -> dict[str, np.ndarray]:
    """Depthwise convolution: channel c convolved with its CM filters -> channels c*CM + m."""
    image, kernel = _f64(inputs, "I", "K")
    channels = image.shape[3]
    parts = [
        conv2d_nhwc(image[..., c : c + 1], kernel[:, :, c : c + 1, :]) for c in range(channels)
    ]
    return {"O": _fp32(np.concatenate(parts, axis=3))}


def maxpool2d(inputs: Arrays) -> dict[str, np.ndarray]:
    """2 x 2 max pool, stride 2."""
    (x,) = _f64(inputs, "I")
    return {"O": _fp32(pool2d_nhwc(x, window=2, stride=2, pad=0, mode="max"))}


def avgpool2d(inputs: Arrays) -> dict[str, np.ndarray]:
    """3 x 3 average pool, stride 2."""
    (x,) = _f64(inputs, "I")
    return {"O": _fp32(pool2d_nhwc(x, window=3, stride=2, pad=0, mode="avg"))}


def maxpool2d_padded(inputs: Arrays) -> dict[str, np.ndarray]:
    """3 x 3 max pool, stride 2, padding 1."""
    (x,) = _f64(inputs, "I")
    return {"O": _fp32(pool2d_nhwc(x, window=3, stride=2, pad=1, mode="max"))}


def avgpool2d_padded(inputs: Arrays) -> dict[str, np.ndarray]:
    """3 x 3 average pool, stride 1, zero padding 1 counted in the divisor."""
    (x,) = _f64(inputs, "I")
    return {"O": _fp32(pool2d_nhwc(x, window=3, stride=1, pad=1, mode="avg"))}


def dense(inputs: Arrays) -> dict[str, np.ndarray]:
    """X @ W + Bias."""
    x, w, bias = _f64(inputs, "X", "W", "Bias")
    return {"Y": _fp32(x @ w + bias)}


def mlp_3layer(inputs: Arrays) -> dict[str, np.ndarray]:
    """Three (dense + bias + relu) layers."""
    h, *params = _f64(inputs, "X", "W1", "B1", "W2", "B2", "W3", "B3")
    for weight, bias in zip(params[0::2], params[1::2], strict=True):
        h = _relu(h @ weight + bias)
    return {"Y": _fp32(h)}


def log_softmax(inputs: Arrays) -> dict[str, np.ndarray]:
    """x - logsumexp(x) over the last axis."""
    (x,) = _f64(inputs, "X")
    peak = x.max(axis=-1, keepdims=True)
    logsumexp = peak + np.log(np.exp(x - peak).sum(axis=-1, keepdims=True))
    return {"Y": _fp32(x - logsumexp)}


def layernorm(inputs: Arrays) -> dict[str, np.ndarray]:
    """Normalise each row to zero mean, unit (biased) variance, then scale and shift."""
    x, gamma, beta = _f64(inputs, "X", "Gamma", "Beta")
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return {"Y": _fp32((x - mean) / np.sqrt(var + 1e-5) * gamma + beta)}


def batchnorm_inference(inputs: Arrays) -> dict[str, np.ndarray]:
    """Per-channel affine normalisation with given statistics, epsilon 1e-3."""
    x, mean, var, gamma, beta = _f64(inputs, "X", "Mean", "Var", "Gamma", "Beta")
    return {"Y": _fp32(gamma * (x - mean) / np.sqrt(var + 1e-3) + beta)}


def transpose(inputs: Arrays) -> dict[str, np.ndarray]:
    """NCHW -> NHWC."""
    return {"O": np.transpose(inputs["I"], (0, 2, 3, 1)).copy()}


def reshape(inputs: Arrays) -> dict[str, np.ndarray]:
    """Flatten everything but the batch axis, C order."""
    x = inputs["I"]
    return {"O": x.reshape(x.shape[0], -1).copy()}


def concat(inputs: Arrays) -> dict[str, np.ndarray]:
    """Concatenate along the channel axis."""
    return {"O": np.concatenate([inputs["A"], inputs["B"]], axis=3)}


def slice_(inputs: Arrays) -> dict[str, np.ndarray]:
    """A[1 : M - 1, ::2]."""
    a = inputs["A"]
    return {"O": a[1 : a.shape[0] - 1, ::2].copy()}


def pad(inputs: Arrays) -> dict[str, np.ndarray]:
    """Zero padding of 1 row and 2 columns on each side."""
    return {"O": np.pad(inputs["A"], ((1, 1), (2, 2)))}


def flip(inputs: Arrays) -> dict[str, np.ndarray]:
    """Reverse both axes."""
    return {"O": np.flip(inputs["A"]).copy()}


def repeat(inputs: Arrays) -> dict[str, np.ndarray]:
    """Each row three times."""
    return {"O": np.repeat(inputs["A"], 3, axis=0)}


def tile_2d(inputs: Arrays) -> dict[str, np.ndarray]:
    """Two copies down, three across."""
    return {"O": np.tile(inputs["A"], (2, 3))}


def argmax(inputs: Arrays) -> dict[str, np.ndarray]:
    """Index of the row maximum, the last one on ties, as int32."""
    x = inputs["X"]
    last_max = x.shape[1] - 1 - np.argmax(x[:, ::-1], axis=1)
    return {"O": last_max.astype(np.int32)}


def gather(inputs: Arrays) -> dict[str, np.ndarray]:
    """Rows of V picked by the index matrix I."""
    return {"O": np.take(inputs["V"], inputs["I"], axis=0)}


def mean_variance(inputs: Arrays) -> dict[str, np.ndarray]:
    """Column mean and population variance, in the input's float type."""
    (x,) = _f64(inputs, "X")
    dtype = inputs["X"].dtype
    return {"Mean": x.mean(axis=0).astype(dtype), "Var": x.var(axis=0).astype(dtype)}


def tc_tmm(inputs: Arrays) -> dict[str, np.ndarray]:
    """A @ B^T."""
    a, b = _f64(inputs, "A", "B")
    return {"C": _fp32(a @ b.T)}


def tc_tbmm(inputs: Arrays) -> dict[str, np.ndarray]:
    """Batched X[b] @ Y[b]^T."""
    x, y = _f64(inputs, "X", "Y")
    return {"Z": _fp32(np.matmul(x, np.swapaxes(y, 1, 2)))}


def tc_gconv(inputs: Arrays) -> dict[str, np.ndarray]:
    """5-D NCHW grouped convolution plus a (group, filter) bias, one group at a time."""
    image, weight, bias = _f64(inputs, "I", "W1", "B")
    outputs = []
    for g in range(image.shape[1]):
        nhwc = np.transpose(image[:, g], (0, 2, 3, 1))  # [N, H, W, C]
        hwio = np.transpose(weight[g], (2, 3, 1, 0))  # [KH, KW, C, F]
        conv = conv2d_nhwc(nhwc, hwio) + bias[g]
        outputs.append(np.transpose(conv, (0, 3, 1, 2)))  # [N, F, OH, OW]
    return {"O": _fp32(np.stack(outputs, axis=1))}


def tc_mlp3(inputs: Arrays) -> dict[str, np.ndarray]:
    """Three relu(x @ W^T + b) layers, every layer's activation returned."""
    o1, w2, b2, w3, b3, w4, b4 = _f64(inputs, "O1", "W2", "B2", "W3", "B3", "W4", "B4")
    o2 = _relu(o1 @ w2.T + b2)
    o3 = _relu(o2 @ w3.T + b3)
    o4 = _relu(o3 @ w4.T + b4)
    return {"O2": _fp32(o2), "O3": _fp32(o3), "O4": _fp32(o4)}


#: Reference per manifest entry name. Entries that reuse a file with other bindings or dtypes
#: (``matmul_i32``, ``tile_no_defract_gaps``) reuse that file's reference.
REFERENCES: dict[str, Reference] = {
    "matmul": matmul,
    "matmul_i32": matmul,
    "matmul_fp16": matmul,
    "conv2d_bias_relu": conv2d_bias_relu,
    "maxpool1d": maxpool1d,
    "cumsum": cumsum,
    "softmax": softmax,
    "one_hot": one_hot,
    "tile_no_defract": tile_no_defract,
    "tile_no_defract_gaps": tile_no_defract,
    "conv2d_valid": conv2d_valid,
    "conv2d_padded": conv2d_padded,
    "conv2d_strided": conv2d_strided,
    "conv2d_dilated": conv2d_dilated,
    "conv2d_grouped": conv2d_grouped,
    "conv2d_depthwise": conv2d_depthwise,
    "maxpool2d": maxpool2d,
    "avgpool2d": avgpool2d,
    "maxpool2d_padded": maxpool2d_padded,
    "avgpool2d_padded": avgpool2d_padded,
    "dense": dense,
    "mlp_3layer": mlp_3layer,
    "log_softmax": log_softmax,
    "layernorm": layernorm,
    "batchnorm_inference": batchnorm_inference,
    "transpose": transpose,
    "reshape": reshape,
    "concat": concat,
    "slice": slice_,
    "pad": pad,
    "flip": flip,
    "repeat": repeat,
    "tile_2d": tile_2d,
    "argmax": argmax,
    "gather": gather,
    "mean_variance": mean_variance,
    "mean_variance_fp16": mean_variance,
    "tc_tmm": tc_tmm,
    "tc_tbmm": tc_tbmm,
    "tc_gconv": tc_gconv,
    "tc_mlp3": tc_mlp3,
}
