"""ONNX import: an ONNX model as one Tile function and its weights (docs/onnx.md)."""

from plaidc.onnx.importer import ImportedModel, import_model, supported_ops

__all__ = ["ImportedModel", "import_model", "supported_ops"]
