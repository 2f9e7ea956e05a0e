"""The benchmark workloads (QUALITY.md's table, plus a set of ragged shapes) and their references.

A workload is a Tile program (or a hand-written `.stripe`) with its dimension bindings, the
numpy reference that defines its result, and its work: FLOPs for the contraction rows (% of the
probed peak), bytes read and written for the row-reduction rows (GB/s). Every runner gets the
same inputs, `plaidc.driver.random_inputs` of the program with seed 0, so each child process
builds them itself and checks its output against the reference before it is timed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
Arrays = dict[str, np.ndarray]


def conv_ref(x: Arrays) -> np.ndarray:
    """relu(conv2d(I, K) + B): NHWC input, HWIO kernel, valid padding, via im2col + matmul."""
    img, ker, bias = x["I"], x["K"], x["B"]
    n, h, w, ci = img.shape
    kh, kw, _, co = ker.shape
    oh, ow = h - kh + 1, w - kw + 1
    cols = np.lib.stride_tricks.sliding_window_view(img, (kh, kw), axis=(1, 2))
    cols = cols.transpose(0, 1, 2, 4, 5, 3).reshape(n * oh * ow, kh * kw * ci)
    out = np.maximum(cols @ ker.reshape(-1, co) + bias, 0)
    return out.reshape(n, oh, ow, co)


def mlp_ref(x: Arrays) -> np.ndarray:
    h = np.maximum(x["X"] @ x["W1"] + x["B1"], 0)
    h = np.maximum(h @ x["W2"] + x["B2"], 0)
    return np.maximum(h @ x["W3"] + x["B3"], 0)


def softmax_ref(x: Arrays) -> np.ndarray:
    e = np.exp(x["X"] - x["X"].max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def layernorm_ref(x: Arrays) -> np.ndarray:
    v = x["X"]
    mu = v.mean(axis=1, keepdims=True)
    return (v - mu) / np.sqrt(v.var(axis=1, keepdims=True) + 1e-5) * x["Gamma"] + x["Beta"]


def gconv_ref(x: Arrays) -> np.ndarray:
    img, ker = x["I"], x["W1"]
    kh, kw = ker.shape[3:]
    win = np.lib.stride_tricks.sliding_window_view(img, (kh, kw), axis=(3, 4))
    out = np.einsum("ngihwyx,goiyx->ngohw", win, ker, optimize=True)
    return out + x["B"][None, :, :, None, None]


def matmul_ref(x: Arrays) -> np.ndarray:
    return x["A"] @ x["B"]


def tmm_ref(x: Arrays) -> np.ndarray:
    return x["A"] @ x["B"].T


def tbmm_ref(x: Arrays) -> np.ndarray:
    return np.einsum("bnm,bkm->bnk", x["X"], x["Y"])


@dataclass(frozen=True)
class Workload:
    label: str
    kind: str  # matmul, conv, mlp, softmax, layernorm, tmm, tbmm, gconv: selects the builders
    source: str  # relative to the repository: examples/<name>.tile or a .stripe file
    dims: dict[str, int]
    flops: float = 0.0  # FLOP-bound rows: % of the probed peak
    bytes_moved: float = 0.0  # row-reduction rows: GB/s (inputs read + outputs written once)
    note: str = ""
    third_party: bool = True  # also timed on onnxruntime / PyTorch
    # Only these runners (plaidc targets, onnxruntime) where numpy has no program of it: an
    # ONNX model's reference is onnxruntime's result.
    runners: tuple[str, ...] = ()

    @property
    def reference(self) -> Callable[[Arrays], np.ndarray]:
        return REFERENCES[self.kind]


REFERENCES: dict[str, Callable[[Arrays], np.ndarray]] = {
    "matmul": matmul_ref,
    "conv": conv_ref,
    "mlp": mlp_ref,
    "softmax": softmax_ref,
    "layernorm": layernorm_ref,
    "tmm": tmm_ref,
    "tbmm": tbmm_ref,
    "gconv": gconv_ref,
    "onnx": lambda x: onnx_ref(x),
}


def light_model(name: str) -> Path:
    """A light model the onnx package ships (the real architecture, light weights)."""
    import onnx.backend.test as backend_test

    return Path(backend_test.__file__).parent / "data" / "light" / f"light_{name}.onnx"


def onnx_ref(x: Arrays) -> np.ndarray:
    """onnxruntime's output of the model named by the feed's `onnx_model` marker."""
    from runners import onnxruntime_session

    session, feeds = onnxruntime_session(x, threads=None)
    return np.asarray(session.run(None, feeds)[0])


def resnet50() -> Workload:
    # 4.1 GMACs per 224x224 image (the ResNet-50 paper's 3.8 GFLOPs counts multiply-adds)
    return Workload(
        "ResNet-50 (ONNX, light weights) batch 1",
        "onnx",
        str(light_model("resnet50")),
        {},
        2 * 4.1e9,
        note="the onnx package's light_resnet50.onnx, imported by plaidc; reference: "
        "onnxruntime (numpy has no program of it, so no ratio)",
        third_party=False,
        runners=("c", "onnxruntime"),
    )


def matmul(m: int, k: int, n: int) -> Workload:
    label = f"matmul {m}^3" if m == k == n else f"matmul {m}x{k}x{n}"
    return Workload(
        label, "matmul", "examples/matmul.tile", {"M": m, "K": k, "N": n}, 2 * m * k * n
    )


def conv(hw: int, ci: int, co: int) -> Workload:
    dims = {"N": 1, "H": hw + 2, "W": hw + 2, "CI": ci, "KH": 3, "KW": 3, "CO": co}
    label = f"conv3x3 {hw}x{hw}x{ci}->{co} +bias+relu"
    flops = 2 * hw * hw * ci * co * 9
    return Workload(label, "conv", "examples/conv2d_bias_relu.tile", dims, flops)


def mlp(batch: int, width: int) -> Workload:
    dims = {"B": batch, "D0": width, "D1": width, "D2": width, "D3": width}
    label = f"MLP 3x{width} batch {batch}"
    return Workload(label, "mlp", "examples/mlp_3layer.tile", dims, 3 * 2 * batch * width**2)


def softmax(rows: int, cols: int) -> Workload:
    moved = 2 * rows * cols * 4
    dims = {"B": rows, "N": cols}
    return Workload(f"softmax {rows}x{cols}", "softmax", "examples/softmax.tile", dims, 0, moved)


def layernorm(rows: int, cols: int) -> Workload:
    moved = (2 * rows * cols + 2 * cols) * 4
    dims = {"B": rows, "N": cols}
    label = f"layernorm {rows}x{cols}"
    return Workload(label, "layernorm", "examples/layernorm.tile", dims, 0, moved)


def tmm(m: int, n: int, k: int) -> Workload:
    # TC's tmm sizes are (M, N, K): C[M, N] = A[M, K] @ B[N, K]^T.
    dims = {"M": m, "K": k, "N": n}
    return Workload(f"tc tmm {m},{n},{k}", "tmm", "examples/tc_tmm.tile", dims, 2 * m * n * k)


def tbmm(b: int, n: int, m: int, k: int) -> Workload:
    dims = {"B": b, "N": n, "M": m, "K": k}
    label = f"tc tbmm {b},{n},{m},{k}"
    return Workload(label, "tbmm", "examples/tc_tbmm.tile", dims, 2 * b * n * m * k)


def gconv(n: int, g: int, c: int, f: int, out_hw: int) -> Workload:
    # TC's gconv sizes are (N, G, C, F, H, W) with H, W the output size of a 3x3 valid conv.
    dims = {"N": n, "G": g, "C": c, "F": f, "H": out_hw + 2, "W": out_hw + 2, "KH": 3, "KW": 3}
    label = f"tc gconv {n},{g},{c},{f},{out_hw},{out_hw}"
    flops = 2 * n * g * f * c * out_hw * out_hw * 9
    return Workload(label, "gconv", "examples/tc_gconv.tile", dims, flops)


STANDARD = [
    matmul(1024, 1024, 1024),
    Workload(
        "matmul 1024^3 (tiled)",
        "matmul",
        "bench/matmul_1024_tiled.stripe",
        {},
        2 * 1024**3,
        note="hand-tiled Stripe in PlaidML's final form (numpy and plaidc only)",
        third_party=False,
    ),
    conv(56, 64, 64),
    mlp(128, 1024),
    softmax(128, 4096),
    layernorm(128, 4096),
    tmm(128, 1024, 1024),
    tbmm(500, 26, 72, 26),
    gconv(32, 32, 16, 16, 14),
    resnet50(),
]

# Ragged sizes: a speed-up must hold off the powers of two too (QUALITY.md).
ODD = [
    matmul(999, 999, 999),
    matmul(1001, 1023, 1000),
    conv(56, 128, 128),
    softmax(127, 4099),
    layernorm(127, 4099),
]

# Tiny shapes of every kind: a check that each runner builds and matches the reference (seconds).
SMOKE = [
    matmul(33, 17, 29),
    conv(6, 5, 7),
    mlp(4, 24),
    softmax(3, 37),
    layernorm(3, 37),
    tmm(9, 11, 13),
    tbmm(3, 5, 7, 4),
    gconv(2, 3, 4, 5, 4),
]

SHAPE_SETS = {"standard": STANDARD, "odd": ODD, "all": STANDARD + ODD, "smoke": SMOKE}


def find(label: str) -> Workload:
    for workload in STANDARD + ODD + SMOKE:
        if workload.label == label:
            return workload
    raise KeyError(label)


ONNX_MODEL = "onnx_model"  # the feed's marker: the model's path (bytes of a 0-d array)


def make_inputs(workload: Workload) -> Arrays:
    """The program's inputs, as every runner sees them (seed 0). An ONNX model's are its graph
    inputs by ONNX name (the weights are its own), with the model's path under ONNX_MODEL."""
    from plaidc import driver
    from plaidc.interp import program_io

    program = load_program(workload)
    shapes = program_io(program).inputs
    if workload.kind != "onnx":
        return driver.random_inputs(shapes, seed=0)
    model = imported(workload.source)
    by_tile = {tile: name for name, tile in model.inputs.items()}
    drawn = driver.random_inputs({t: s for t, s in shapes.items() if t in by_tile}, seed=0)
    return {by_tile[t]: a for t, a in drawn.items()} | {ONNX_MODEL: np.array(workload.source)}


@functools.cache
def imported(path: str) -> Any:
    from plaidc.onnx import import_model

    return import_model(path)


def load_program(workload: Workload) -> Any:
    from plaidc import driver

    if workload.kind == "onnx":
        model = imported(workload.source)
        text = driver.ProgramText(workload.source, model.tile, "tile")
        return driver.build_program(driver.Session(), text, driver.Bindings(dims=model.dims))
    bindings = driver.Bindings(dims=workload.dims)
    return driver.load_program(driver.Session(), str(ROOT / workload.source), bindings)


def matches(got: np.ndarray, expected: np.ndarray) -> bool:
    """Equal to the output's scale: long fp32 sums differ in the last bits, which near-zero
    elements (relu outputs) magnify under an element-wise rtol."""
    got = np.asarray(got, dtype=np.float64).reshape(expected.shape)
    error = float(np.max(np.abs(got - expected), initial=0.0))
    return error <= 1e-4 * float(np.max(np.abs(expected), initial=0.0)) + 1e-5
