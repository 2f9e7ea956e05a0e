"""Odd-channel convolutions and tiny contractions on the NPU (issue 21): simulated cycles,
Cube busy and the cores' split of

* `conv:HxW:CIxCO[:KHxKW]`: a valid NHWC convolution of an HxW map, CI -> CO channels,
  a KHxKW kernel (3x3 unless given);
* `mm:MxKxN`: a matrix product,

each as `SPEC[:dtype[:chip[:cores]]]` (dtype fp16 or fp32; chip `default`, `small` or
`strict`: the npu-strict target), checked against numpy.

    python bench/npu_channels.py conv:30x30:3x64 conv:30x30:24x24:fp32:default:4 mm:256x1x256

Cycles are the simulator's (exact), not wall-clock; one JSON line per spec.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any

import numpy as np

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.diagnostics import CompileError
from plaidc.stripe.ir import DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile

MATMUL = "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }"
CONV = (
    "function (I[N, H, W, CI], K[KH, KW, CI, CO]) -> (O) {"
    " O[n, x, y, co : N, H - KH + 1, W - KW + 1, CO] = +(I[n, x + i, y + j, ci] * K[i, j, ci, co]);"
    " }"
)
SMALL = {"ub_bytes": 64 * 1024, "l1_bytes": 256 * 1024}
TYPES = {"fp16": (DType.FP16, np.float16, 1e-2), "fp32": (DType.FP32, np.float32, 1e-4)}


def _operands(kind: str, dims: list[str]) -> tuple[str, dict[str, tuple[int, ...]]]:
    if kind == "mm":
        m, k, n = (int(x) for x in dims[0].split("x"))
        return MATMUL, {"A": (m, k), "B": (k, n)}
    h, w = (int(x) for x in dims[0].split("x"))
    ci, co = (int(x) for x in dims[1].split("x"))
    kh, kw = (int(x) for x in dims[2].split("x")) if len(dims) > 2 else (3, 3)
    return CONV, {"I": (1, h, w, ci), "K": (kh, kw, ci, co)}


def _reference(kind: str, arrays: dict[str, np.ndarray]) -> np.ndarray:
    if kind == "mm":
        return arrays["A"].astype(np.float64) @ arrays["B"].astype(np.float64)
    image, kernel = (arrays[n].astype(np.float64) for n in ("I", "K"))
    kh, kw = kernel.shape[:2]
    windows = np.lib.stride_tricks.sliding_window_view(image, (kh, kw), axis=(1, 2))
    return np.einsum("nxycij,ijcd->nxyd", windows, kernel)


def measure(spec: str) -> dict[str, Any]:
    kind, *rest = spec.split(":")
    n_dims = 1 if kind == "mm" else 3 if rest[2:3] and "x" in rest[2] else 2
    dims, options = rest[:n_dims], rest[n_dims:]
    dtype, chip, cores = (options + ["fp16", "default", "1"][len(options) :])[:3]
    if chip not in ("default", "small", "strict"):
        sys.exit(f"npu_channels.py: unknown chip {chip!r} (default, small or strict)")
    source, shapes = _operands(kind, dims)
    base = load_target("npu-strict" if chip == "strict" else "npu")
    hardware = {**dict(base.hardware), **(SMALL if chip == "small" else {}), "cores": int(cores)}
    cfg = dataclasses.replace(base, hardware=hardware)
    ir_type, np_type, tol = TYPES[dtype]
    typed = {name: (ir_type, shape) for name, shape in shapes.items()}
    program = compile_tile(source, "channels.tile", shapes=typed).program
    row: dict[str, Any] = {"spec": ":".join([kind, *dims]), "dtype": dtype, "chip": chip}
    row["cores"] = int(cores)
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    try:
        artifact = get_backend("npu").compile(compiled, cfg)
    except CompileError as err:
        return {**row, "refused": str(err).splitlines()[0]}
    rng = np.random.default_rng(0)
    arrays = {name: rng.uniform(-1, 1, shape).astype(np_type) for name, shape in shapes.items()}
    (got,) = artifact.run(arrays).values()
    want = _reference(kind, arrays)
    error = float(np.max(np.abs(np.asarray(got, np.float64) - want), initial=0.0))
    report = artifact.report_json()
    assert report is not None
    return {
        **row,
        "cycles": report["total_cycles"],
        "cube_busy_percent": round(100 * report["cube_utilisation"], 1),  # of all cores
        "busy_cores": sum(1 for core in report["per_core"] if core["cycles"]),
        "vector_busy": report["busy_cycles"]["PIPE_V"],
        "correct": error <= tol * max(1.0, float(np.max(np.abs(want), initial=0.0))),
    }


def main(specs: list[str]) -> None:
    for spec in specs:
        print(json.dumps(measure(spec)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["conv:30x30:24x24", "mm:256x1x256"])
