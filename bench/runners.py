"""The runners `make bench` times: numpy, each plaidc target, onnxruntime and PyTorch.

`prepare(runner, workload, inputs, threads)` does the untimed work (compiling, building the
ONNX graph, converting layouts) and returns a `Prepared`: the call to time and its output as
the reference's layout, to be checked before timing. A missing optional library raises
`NotInstalled`, which the report lists as "not installed", not as an error.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from workloads import Arrays, Workload

THIRD_PARTY = ("onnxruntime", "torch")


class NotInstalled(Exception):
    """An optional runner's library is not importable."""


@dataclass
class Prepared:
    call: Callable[[], object]
    output: Callable[[], np.ndarray]  # one run's result, in the reference's layout
    compile_s: float | None = None
    info: dict[str, Any] = field(default_factory=dict)


# A plaidc runner with this suffix (`c+tuned`) applies the tuning database's best record
# (`bench/run.py --tune-db FILE` sets $PLAIDC_TUNE_DB); the plain runner never reads it.
TUNED = "+tuned"


def prepare(runner: str, workload: Workload, inputs: Arrays, threads: int) -> Prepared:
    if runner == "numpy":
        return _numpy(workload, inputs)
    if runner == "onnxruntime":
        return _onnxruntime(workload, inputs, threads)
    if runner == "torch":
        return _torch(workload, inputs, threads)
    return _plaidc(runner, workload, inputs)


def _numpy(workload: Workload, inputs: Arrays) -> Prepared:
    reference = workload.reference
    return Prepared(
        lambda: reference(inputs), lambda: reference(inputs), info={"blas": blas_info()}
    )


def blas_info() -> list[dict[str, Any]]:
    """Which BLAS numpy runs, with OpenBLAS's kernel choice: threadpoolctl's view if installed,
    else OpenBLAS's own `openblas_get_corename`/`openblas_get_config` through ctypes."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return _openblas_by_ctypes()
    keys = ("internal_api", "version", "architecture", "num_threads", "threading_layer")
    return [
        {key: pool.get(key) for key in keys}
        for pool in threadpool_info()
        if pool.get("user_api") == "blas"
    ]


def _openblas_by_ctypes() -> list[dict[str, Any]]:
    import ctypes

    with open("/proc/self/maps") as maps:
        paths = sorted({line.split()[-1] for line in maps if "openblas" in line.lower()})
    found = []
    for path in paths:
        lib = ctypes.CDLL(path)
        entry: dict[str, Any] = {"internal_api": "openblas", "library": path}
        for prefix in ("", "scipy_"):
            for what in ("corename", "config"):
                for suffix in ("", "64_"):
                    fn = getattr(lib, f"{prefix}openblas_get_{what}{suffix}", None)
                    if fn is not None:
                        fn.restype = ctypes.c_char_p
                        entry["architecture" if what == "corename" else what] = fn().decode()
        found.append(entry)
    return found


def _plaidc(runner: str, workload: Workload, inputs: Arrays) -> Prepared:
    from workloads import load_program

    from plaidc import driver
    from plaidc.backends import get_backend
    from plaidc.targets import load_target

    start = time.perf_counter()
    program = load_program(workload)
    if workload.kind == "onnx":  # the import is part of compiling; the weights are inputs
        from workloads import ONNX_MODEL, imported

        model = imported(workload.source)
        feed = {model.inputs[k]: v for k, v in inputs.items() if k != ONNX_MODEL}
        inputs = {**feed, **model.weights}
    else:
        start = time.perf_counter()
    base, tuned_row, _ = runner.partition(TUNED)
    name, _, stage = base.partition(":")
    cfg = load_target(name)
    info: dict[str, Any] = {}
    if tuned_row:  # the best record of $PLAIDC_TUNE_DB, as `plaidc compile` applies it
        notes: list[str] = []
        tuned = driver.apply_tuning(program, cfg, stage or "default", None, notes.append)
        info["tuned"] = dict(tuned.record["params"]) if tuned.record else None
        info["tuning_key"] = tuned.key
        if tuned.record is not None:  # the config's own point chosen: the same program
            from plaidc.tune.space import build_space

            own = build_space(cfg, stage or "default").default_point()
            info["untuned_point"] = tuned.record["params"] == own
        cfg, steps = tuned.cfg, tuned.steps
    else:
        steps = driver.resolve_steps(cfg.stage(stage or "default"))
    compiled = driver.run_pipeline(program, steps)
    artifact = get_backend(cfg.backend).compile(compiled, cfg)
    compile_s = time.perf_counter() - start

    def output() -> np.ndarray:
        (got,) = artifact.run(inputs).values()
        return np.asarray(got)

    return Prepared(lambda: artifact.run(inputs), output, compile_s, info)


# -- onnxruntime ------------------------------------------------------------------------------


def _onnx_graph(workload: Workload, x: Arrays) -> tuple[Any, Arrays, Callable[[Any], Any]]:
    """The ONNX model of `workload`, its feeds (layouts converted here, untimed) and the map
    from its output back to the reference's layout."""
    from onnx import TensorProto, helper

    feeds: Arrays = {}
    nodes: list[Any] = []
    same = lambda y: y  # noqa: E731

    def feed(name: str, value: np.ndarray) -> str:
        feeds[name] = np.ascontiguousarray(value)
        return name

    kind = workload.kind
    back: Callable[[Any], Any] = same
    if kind in ("matmul", "tmm", "tbmm"):
        spec = {"matmul": "mk,kn->mn", "tmm": "mk,nk->mn", "tbmm": "bnm,bkm->bnk"}[kind]
        names = ("A", "B") if kind != "tbmm" else ("X", "Y")
        args = [feed(n, x[n]) for n in names]
        if kind == "matmul":
            nodes.append(helper.make_node("MatMul", args, ["out"]))
        else:
            nodes.append(helper.make_node("Einsum", args, ["out"], equation=spec))
    elif kind == "mlp":
        prev = feed("X", x["X"])
        for layer in (1, 2, 3):
            w, b = feed(f"W{layer}", x[f"W{layer}"]), feed(f"B{layer}", x[f"B{layer}"])
            out = "out" if layer == 3 else f"h{layer}"
            nodes.append(helper.make_node("Gemm", [prev, w, b], [f"z{layer}"]))
            nodes.append(helper.make_node("Relu", [f"z{layer}"], [out]))
            prev = out
    elif kind == "conv":
        img = feed("I", x["I"].transpose(0, 3, 1, 2))  # NHWC -> NCHW
        ker = feed("K", x["K"].transpose(3, 2, 0, 1))  # HWIO -> OIHW
        nodes.append(helper.make_node("Conv", [img, ker, feed("B", x["B"])], ["z"]))
        nodes.append(helper.make_node("Relu", ["z"], ["out"]))
        back = lambda y: y.transpose(0, 2, 3, 1)  # noqa: E731
    elif kind == "gconv":
        n, g, c, h, w = x["I"].shape
        f = x["W1"].shape[1]
        img = feed("I", x["I"].reshape(n, g * c, h, w))  # the grouped-conv layout, no copy
        ker = feed("W1", x["W1"].reshape(g * f, c, *x["W1"].shape[3:]))
        bias = feed("B", x["B"].reshape(g * f))
        nodes.append(helper.make_node("Conv", [img, ker, bias], ["out"], group=g))
        back = lambda y: y.reshape(n, g, f, *y.shape[2:])  # noqa: E731
    elif kind == "softmax":
        nodes.append(helper.make_node("Softmax", [feed("X", x["X"])], ["out"], axis=1))
    elif kind == "layernorm":
        args = [feed("X", x["X"]), feed("Gamma", x["Gamma"]), feed("Beta", x["Beta"])]
        nodes.append(helper.make_node("LayerNormalization", args, ["out"], axis=-1, epsilon=1e-5))
    else:
        raise ValueError(f"no ONNX graph for {kind!r}")
    graph = helper.make_graph(
        nodes,
        workload.kind,
        [helper.make_tensor_value_info(k, TensorProto.FLOAT, v.shape) for k, v in feeds.items()],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)],
    )
    opsets = [helper.make_opsetid("", 17)]
    # the lowest IR version opset 17 needs: older onnxruntimes refuse onnx's newest
    model = helper.make_model(
        graph, opset_imports=opsets, ir_version=helper.find_min_ir_version_for(opsets)
    )
    return model, feeds, back


def onnxruntime_session(inputs: Arrays, threads: int | None) -> tuple[Any, Arrays]:
    """A session of the ONNX model that `inputs` names (workloads.ONNX_MODEL) and its feeds."""
    try:
        import onnxruntime as ort
    except ImportError as err:
        raise NotInstalled("onnxruntime") from err
    from workloads import ONNX_MODEL

    options = ort.SessionOptions()
    if threads is not None:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
    options.log_severity_level = 3  # no warnings about the model's unused initializers
    path = str(inputs[ONNX_MODEL])
    session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    return session, {k: v for k, v in inputs.items() if k != ONNX_MODEL}


def _onnxruntime(workload: Workload, inputs: Arrays, threads: int) -> Prepared:
    try:
        import onnxruntime as ort
    except ImportError as err:
        raise NotInstalled("onnxruntime") from err
    start = time.perf_counter()
    if workload.kind == "onnx":
        session, feeds = onnxruntime_session(inputs, threads)
        compile_s = time.perf_counter() - start
        info = {"version": ort.__version__, "threads": threads}
        output = lambda: np.asarray(session.run(None, feeds)[0])  # noqa: E731
        return Prepared(lambda: session.run(None, feeds), output, compile_s, info)
    model, feeds, back = _onnx_graph(workload, inputs)
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    compile_s = time.perf_counter() - start

    def call() -> object:
        return session.run(None, feeds)

    def output() -> np.ndarray:
        return np.asarray(back(session.run(None, feeds)[0]))

    info = {"version": ort.__version__, "threads": threads}
    return Prepared(call, output, compile_s, info)


# -- PyTorch ----------------------------------------------------------------------------------


def _torch(workload: Workload, x: Arrays, threads: int) -> Prepared:
    try:
        import torch
        import torch.nn.functional as F
    except ImportError as err:
        raise NotInstalled("torch") from err
    torch.set_num_threads(threads)
    t = {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in x.items()}
    kind = workload.kind
    back: Callable[[Any], Any] = lambda y: y  # noqa: E731
    if kind == "matmul":
        fn = lambda: torch.matmul(t["A"], t["B"])  # noqa: E731
    elif kind == "tmm":
        fn = lambda: torch.einsum("mk,nk->mn", t["A"], t["B"])  # noqa: E731
    elif kind == "tbmm":
        fn = lambda: torch.einsum("bnm,bkm->bnk", t["X"], t["Y"])  # noqa: E731
    elif kind == "mlp":

        def fn() -> Any:
            h = t["X"]
            for layer in (1, 2, 3):
                h = torch.relu(torch.addmm(t[f"B{layer}"], h, t[f"W{layer}"]))
            return h

    elif kind == "conv":
        img = t["I"].permute(0, 3, 1, 2)  # NHWC is PyTorch's channels_last: a view, no copy
        ker = t["K"].permute(3, 2, 0, 1).contiguous(memory_format=torch.channels_last)
        fn = lambda: torch.relu(F.conv2d(img, ker, t["B"]))  # noqa: E731
        back = lambda y: y.permute(0, 2, 3, 1)  # noqa: E731
    elif kind == "gconv":
        n, g, c, h, w = t["I"].shape
        f = t["W1"].shape[1]
        img = t["I"].reshape(n, g * c, h, w)
        ker = t["W1"].reshape(g * f, c, *t["W1"].shape[3:])
        bias = t["B"].reshape(g * f)
        fn = lambda: F.conv2d(img, ker, bias, groups=g)  # noqa: E731
        back = lambda y: y.reshape(n, g, f, *y.shape[2:])  # noqa: E731
    elif kind == "softmax":
        fn = lambda: torch.softmax(t["X"], dim=1)  # noqa: E731
    elif kind == "layernorm":
        size = (t["X"].shape[1],)
        fn = lambda: F.layer_norm(t["X"], size, t["Gamma"], t["Beta"], 1e-5)  # noqa: E731
    else:
        raise ValueError(f"no PyTorch program for {kind!r}")

    def call() -> object:
        with torch.inference_mode():
            return fn()

    def output() -> np.ndarray:
        return back(call()).numpy()

    return Prepared(call, output, None, {"version": torch.__version__, "threads": threads})
