"""ONNX models built by the tests, readable by any onnxruntime the `dev` extra allows."""

from __future__ import annotations

from typing import Any

from onnx import helper


def model_of(graph: Any, opset: int) -> Any:
    """`graph` as a model of the default domain's `opset`, with the lowest IR version that opset
    needs: onnx writes its own newest IR version otherwise (14 for onnx 1.23), which older
    onnxruntimes refuse ('Unsupported model IR version: 14, max supported IR version: 13')."""
    opsets = [helper.make_opsetid("", opset)]
    return helper.make_model(
        graph, opset_imports=opsets, ir_version=helper.find_min_ir_version_for(opsets)
    )
