"""An ONNX model's time per layer: plaidc's kernels against onnxruntime's nodes.

plaidc compiles the model into one program of kernels (fused: a convolution with its batch
norm, residual add and relu is one kernel, sometimes two convolutions); onnxruntime runs its own
fused nodes. Neither side's names map to the other's, so both are grouped by what they compute:
a convolution by (kernel size, stride, input channels, output channels, output height), the
rest by kind (pooling, the padding copies, the final GEMM, ...). A plaidc kernel holding two
convolutions has its time split between them by FLOPs. Times are each kernel's (node's) fastest
of `--runs` runs, summed over the layers of a group, with GFLOP/s from those sums.

Usage: `python bench/onnx_layers.py [MODEL.onnx] [--runs N] [--target c|llvm] [--threads T]`
(default: the onnx package's light ResNet-50, batch 1; onnxruntime needs the `bench` extra).
Time it under the shared lock: `flock /tmp/plaidc-timing.lock python bench/onnx_layers.py`.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

Key = tuple[Any, ...]
# `Out[n, x0, x1, m : N, OH, OW, CO] = +(In[n, S * x0 + k0, ...] * W[k0, k1, c, m])`: the
# importer's channels-last 2-D convolution (`plaidc.onnx.layout`)
CONV = re.compile(
    r"\w+\[n, x0, x1, m : \d+, (\d+), \d+, (\d+)\] = \+\(\w+\[n, (?:(\d+) \* )?x0 \+ k0, "
    r"[^\]]*\] \* (\w+)\["
)


def conv_flops(key: Key) -> int:
    _, k, _, ci, co, hw = key
    return 2 * k * k * ci * co * hw * hw


def _kind(text: str) -> str:
    """A group for what a statement (or onnxruntime op) writes first."""
    first = text.split("[")[0].split(" ")[0]
    for word in ("MaxPool", "AveragePool"):
        if first.startswith(word):
            return word
    if first in ("Gemm", "Gemm_ab"):
        return "Gemm"
    if first.startswith("Padded") or text.lower().startswith("zero padded"):
        return "pad copy, zeroing"
    return "other"


def plaidc_layers(path: str, image: np.ndarray, runs: int, target: str) -> tuple[dict, float]:
    """Per layer group: [us summed over the group's layers, layers]; and the whole run's s."""
    from plaidc import driver
    from plaidc.backends import get_backend
    from plaidc.onnx import import_model
    from plaidc.stripe.ir import Block
    from plaidc.targets import load_config_file, load_target

    model = import_model(path)
    text = driver.ProgramText(path, model.tile, "tile")
    program = driver.build_program(driver.Session(), text, driver.Bindings(dims=model.dims))
    cfg = load_config_file(target) if target.endswith(".toml") else load_target(target)
    compiled = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    backend: Any = get_backend(cfg.backend)
    inputs = {**{tile: image for tile in model.inputs.values()}, **model.weights}
    plain = backend.compile(compiled, cfg)
    plain.run(inputs)
    whole = min(_seconds(lambda: plain.run(inputs)) for _ in range(runs))
    profiled = backend.compile(compiled, cfg, profile=True)
    profiled.run(inputs)
    recorder = profiled.profiler
    recorder.reset()
    for _ in range(runs):
        profiled.run(inputs)

    statements: dict[str, list[str]] = {}  # kernel name -> every Tile statement it computes

    def gather(block: Block, into: list[str]) -> None:
        into.extend(block.comments)
        for child in block.stmts:
            if isinstance(child, Block):
                gather(child, into)

    for main in (b for b in compiled.stmts if isinstance(b, Block)):
        for kernel in (b for b in main.stmts if isinstance(b, Block)):
            word = re.match(r"[A-Za-z_]\w*", kernel.name)
            if word:
                gather(kernel, statements.setdefault(word.group(0), []))
    layers: dict[Key, list[float]] = collections.defaultdict(lambda: [0.0, 0])
    for slot, name in enumerate(recorder.profiled.comments):
        spent = float(recorder.best[slot]) * 1e6
        said = " ".join(statements.get(name, [name]))
        convs = []
        for hw, co, stride, weight in CONV.findall(said):
            k, _, ci, _ = model.weights[weight].shape
            convs.append(("conv", k, int(stride or 1), ci, int(co), int(hw)))
        keys = list(dict.fromkeys(convs)) if convs else [(_kind(said),)]
        work = [conv_flops(k) if k[0] == "conv" else 1 for k in convs or keys]
        for key, share in zip(convs or keys, work, strict=True):
            layers[key][0] += spent * share / sum(work)
            layers[key][1] += 1
    return dict(layers), whole


def onnxruntime_layers(path: str, image: np.ndarray, runs: int, threads: int) -> tuple[dict, float]:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.enable_profiling = True
    options.profile_file_prefix = str(Path(tempfile.mkdtemp()) / "ort")
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    feed = {session.get_inputs()[0].name: image}
    session.run(None, feed)
    whole = min(_seconds(lambda: session.run(None, feed)) for _ in range(runs))
    trace = session.end_profiling()
    events = json.loads(Path(trace).read_text())
    os.remove(trace)
    durations: dict[str, list[float]] = collections.defaultdict(list)
    keys: dict[str, Key] = {}
    for event in events:
        if event.get("cat") != "Node" or not event["name"].endswith("_kernel_time"):
            continue
        args, name = event["args"], event["name"]
        durations[name].append(float(event["dur"]))
        if args["op_name"] == "Conv":
            x, w = args["input_type_shape"][0]["float"], args["input_type_shape"][1]["float"]
            y = args["output_type_shape"][0]["float"]
            keys[name] = ("conv", w[2], x[2] // y[2], w[1], w[0], y[2])
        else:
            keys[name] = (_kind(args["op_name"]) if args["op_name"] != "Gemm" else "Gemm",)
    layers: dict[Key, list[float]] = collections.defaultdict(lambda: [0.0, 0])
    for name, spent in durations.items():
        layers[keys[name]][0] += min(spent[1:] or spent)  # the first is the warm-up run
        layers[keys[name]][1] += 1
    return dict(layers), whole


def _seconds(call: Any) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def table(ours: dict, theirs: dict, whole: tuple[float, float], target: str) -> str:
    def label(key: Key) -> str:
        if key[0] != "conv":
            return key[0]
        _, k, stride, ci, co, hw = key
        return f"conv {k}x{k}/{stride} {ci}->{co} @{hw}x{hw}"

    keys = sorted(set(ours) | set(theirs), key=lambda k: -ours.get(k, (0, 0))[0])
    lines = [
        f"{'layer':32} {'n':>5} {f'plaidc {target} us':>14} {'ORT us':>8} "
        f"{'plaidc GF/s':>11} {'ORT GF/s':>9} {'ORT/plaidc':>10}"
    ]
    for key in keys:
        (us, n), (them, m) = ours.get(key, (0.0, 0)), theirs.get(key, (0.0, 0))
        rates = f"{'':>11} {'':>9}"
        if key[0] == "conv":
            flops = conv_flops(key)
            ours_rate = flops * n / us / 1e3 if us else 0.0
            their_rate = flops * m / them / 1e3 if them else 0.0
            rates = f"{ours_rate:11.0f} {their_rate:9.0f}"
        ratio = f"{them / us:10.2f}" if us and them else f"{'':>10}"
        lines.append(f"{label(key):32} {f'{n}/{m}':>5} {us:14.0f} {them:8.0f} {rates} {ratio}")
    total_ours = sum(v[0] for v in ours.values())
    total_theirs = sum(v[0] for v in theirs.values())
    lines.append(
        f"{'sum of layers':32} {'':>5} {total_ours:14.0f} {total_theirs:8.0f} {'':>21} "
        f"{total_theirs / total_ours:10.2f}"
    )
    lines.append(
        f"whole run, best: plaidc {whole[0] * 1e3:.2f} ms, onnxruntime {whole[1] * 1e3:.2f} ms "
        "(n: layers of the group, plaidc/onnxruntime)"
    )
    return "\n".join(lines)


def main() -> None:
    from workloads import light_model

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model", nargs="?", default=str(light_model("resnet50")))
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--target", default="c", help="c, llvm or a config file (.toml)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    import onnx

    first = onnx.load(args.model).graph.input[0]
    shape = [d.dim_value or 1 for d in first.type.tensor_type.shape.dim]
    image = np.random.default_rng(0).uniform(-1, 1, shape).astype(np.float32)
    ours, ours_whole = plaidc_layers(args.model, image, args.runs, args.target)
    theirs, theirs_whole = onnxruntime_layers(args.model, image, args.runs, args.threads)
    print(table(ours, theirs, (ours_whole, theirs_whole), args.target))


if __name__ == "__main__":
    main()
