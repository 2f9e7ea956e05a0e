"""Run an imported ONNX model on a target in-process: the Tile program through the target's
pipeline and backend, fed with the weights and the inputs by their ONNX names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from plaidc.onnx.importer import ImportedModel, import_model
from plaidc.onnx.narrow_types import from_carrier, to_carrier

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def output_file_name(onnx_name: str) -> str:
    """`DIR/<name>.npy` of an ONNX output: characters outside [A-Za-z0-9_.-] become `_`."""
    return _UNSAFE.sub("_", onnx_name) + ".npy"


def model_feed(model: ImportedModel, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The Tile program's inputs: the weights, and `inputs` (by ONNX name) renamed."""
    feed = dict(model.weights)
    for name, array in inputs.items():
        if name not in model.inputs and np.size(array) == 0:
            continue  # an empty input: known at import (its shape is all there is)
        array = to_carrier(np.asarray(array))
        if array.dtype.name == "bfloat16":
            array = array.astype(np.float32)  # Tile's bf16 lives in float32 arrays
        feed[model.inputs.get(name, name)] = array
    return feed


def model_results(model: ImportedModel, results: Mapping[str, np.ndarray]) -> dict[str, Any]:
    """The Tile program's results by ONNX output name, each of its ONNX element type."""
    named = {
        name: from_carrier(results[tile], model.output_dtypes[name])
        if name in model.output_dtypes
        else results[tile]
        for name, tile in model.outputs.items()
    }
    return {**named, **model.constant_outputs}


def compile_model(model: ImportedModel, target: str = "interp") -> Any:
    """A callable feed -> outputs by Tile name, for `target`."""
    from plaidc import driver
    from plaidc.backends import check_target, get_backend
    from plaidc.interp import run_program
    from plaidc.targets import load_target

    session = driver.Session()
    source = driver.ProgramText("<onnx>", model.tile, "tile")
    block = driver.build_program(session, source, driver.Bindings(dims=model.dims))
    cfg = check_target(load_target(target))
    compiled = driver.run_pipeline(block, driver.resolve_steps(cfg.stage("default")))
    if cfg.backend == "interp":
        return lambda feed: run_program(compiled, feed)
    return get_backend(cfg.backend).compile(compiled, cfg).run


def run_onnx(
    path: str,
    inputs: Mapping[str, np.ndarray],
    target: str = "interp",
    model: Any = None,
    constants: Mapping[str, np.ndarray] | None = None,
    channels_last: bool = True,
) -> dict[str, np.ndarray]:
    """Import, compile and run; the outputs by their ONNX names. `constants` are graph
    inputs fixed at import time (shape operands a test feeds as inputs); `channels_last` as
    `import_model`'s."""
    fixed = dict(constants or {})
    inputs = {name: a for name, a in inputs.items() if name not in fixed}
    shapes = {name: (None, tuple(np.shape(a))) for name, a in inputs.items()}
    imported = import_model(
        path, shapes=shapes, model=model, constants=fixed, channels_last=channels_last
    )
    if not imported.outputs:  # every output is empty: nothing to run
        return dict(imported.constant_outputs)
    run = compile_model(imported, target)
    return model_results(imported, run(model_feed(imported, inputs)))
