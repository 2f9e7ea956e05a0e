"""The command line's ONNX side: `plaidc import`, and MODEL.onnx given to compile and run.

An ONNX model is imported to Tile on the fly: `--shape` and `--input` name the graph's
inputs by their ONNX names, `-D` binds its symbolic dimensions, and the weights come from
the model.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import numpy as np

from plaidc import driver
from plaidc.cli_inputs import ShapeOption

ONNX_SUFFIX = ".onnx"


def is_onnx(program: str) -> bool:
    return program.lower().endswith(ONNX_SUFFIX)


def import_onnx(
    program: str,
    dims: dict[str, int],
    shapes: Sequence[ShapeOption],
    arrays: dict[str, np.ndarray] | None = None,
) -> Any:
    """The model as an ImportedModel, its inputs bound by `--shape`, `--input` and `-D`."""
    from plaidc.onnx import import_model

    bound: dict[str, tuple[str | None, tuple[int, ...]]] = {}
    for name, array in (arrays or {}).items():
        bound[name] = (driver.dtype_of_array(name, array).value, tuple(array.shape))
    for shape in shapes:
        bound[shape.name] = (shape.dtype.value, shape.sizes)
    model = import_model(program, shapes=bound, dims=dims)
    if not model.outputs:
        from plaidc.onnx.importer import model_error

        empty = ", ".join(f"'{name}'" for name in model.constant_outputs)
        raise model_error(
            program, f"every output has no elements ({empty}): there is nothing to compile"
        )
    return model


def as_program(program: str, model: Any) -> tuple[driver.ProgramText, driver.Bindings]:
    """The imported Tile program and the bindings it needs (its symbolic dimensions)."""
    return driver.ProgramText(program, model.tile, "tile"), driver.Bindings(dims=model.dims)


def feed_arrays(model: Any, arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """`--input` arrays by Tile name, and the weights."""
    unknown = sorted(set(arrays) - set(model.inputs))
    if unknown:
        from plaidc.diagnostics import CompileError

        raise CompileError.at(
            f"--input {unknown[0]}: the model has no input of that name "
            f"(inputs: {', '.join(sorted(model.inputs)) or 'none'})",
            None,
        )
    feed = {model.inputs[name]: array for name, array in arrays.items()}
    feed.update(model.weights)
    return feed


def onnx_outputs(model: Any, outputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The outputs by their ONNX names."""
    named = {name: outputs[tile] for name, tile in model.outputs.items()}
    return {**named, **model.constant_outputs}  # outputs with no elements: known at import


def write_outputs(output_dir: str, outputs: dict[str, np.ndarray]) -> None:
    """DIR/<ONNX output name>.npy, characters outside [A-Za-z0-9_.-] replaced by `_`."""
    from plaidc.onnx.runner import output_file_name

    with driver.writing(output_dir):
        Path(output_dir).mkdir(parents=True, exist_ok=True)
    for name, value in outputs.items():
        path = Path(output_dir) / output_file_name(name)
        with driver.writing(path):
            np.save(path, value)


def write_import(program: str, model: Any, output: str | None) -> None:
    """`plaidc import`: MODEL.tile and, when the model has weights, MODEL.weights.npz."""
    target = Path(output) if output else Path(program).with_suffix(".tile")
    driver.write_text(target, model.tile)
    click.echo(f"plaidc: wrote {target}", err=True)
    if model.weights:
        weights = target.with_name(target.stem + ".weights.npz")
        with driver.writing(weights):
            np.savez(weights, **model.weights)
        click.echo(f"plaidc: wrote {weights}", err=True)
    click.echo(f"plaidc: imported in {model.seconds:.2f} s", err=True)
