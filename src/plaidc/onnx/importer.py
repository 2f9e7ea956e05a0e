"""ONNX model -> one Tile function (and its weights), for `plaidc import` and `plaidc
compile|run MODEL.onnx`.

The graph's input shapes are bound first (`--shape`, `-D` for symbolic dimensions, the
model's own sizes), so every tensor's shape is static: shape computations (Shape, Gather,
Concat, ...) are folded at import time, by `onnx.reference` for any node whose inputs are all
known. Each other node becomes one group of Tile statements, commented with the node's name
and op type, written by the converter of its op type (`plaidc.onnx.ops_*`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from plaidc.diagnostics import CompileError, Diagnostic, Span
from plaidc.onnx.emitter import Emitter, Unsupported, Value, known, tile_dtype
from plaidc.onnx.layout import ELEMENTWISE, canonical, physical, takes_layout, unstored
from plaidc.onnx.narrow_types import from_carrier, is_carried

#: The opsets whose semantics the converters know (MAX_OPSET), and the newest the importer
#: accepts: 22 to 25 changed no converted op's meaning, only added element types.
MIN_OPSET, MAX_OPSET = 7, 21


@dataclass(frozen=True)
class ModelSpan(Span):
    """A place in a model file: the file alone (an ONNX file has no lines)."""

    def __str__(self) -> str:
        return self.file


def model_error(path: str, message: str) -> CompileError:
    return CompileError([Diagnostic(message, ModelSpan(path, 0, 0))])


@dataclass
class Node:
    """One ONNX node as a converter sees it: its inputs as Values (None for an omitted
    optional input), attributes as Python values, and the opset of its domain."""

    name: str
    op_type: str
    inputs: list[Value | None]
    attrs: dict[str, Any]
    opset: int
    output_count: int

    def attr(self, name: str, default: Any = None) -> Any:
        return self.attrs.get(name, default)

    def input(self, index: int) -> Value | None:
        return self.inputs[index] if index < len(self.inputs) else None

    def required(self, index: int) -> Value:
        value = self.input(index)
        if value is None:
            raise Unsupported(f"input {index} is missing")
        return value

    def constant(self, index: int, what: str) -> np.ndarray | None:
        """The value of optional input `index`, which must be known at import time."""
        value = self.input(index)
        if value is None:
            return None
        if value.const is None:
            raise Unsupported(
                f"input {index} ({what}) is computed at run time; plaidc needs it constant "
                "once the input shapes are bound"
            )
        return value.const

    def reject(self, *names: str) -> None:
        """Attributes this converter does not implement are an error when present."""
        for name in names:
            if name in self.attrs:
                raise Unsupported(f"attribute '{name}' is not supported")


Converter = Callable[[Node, Emitter], list[Value]]
CONVERTERS: dict[str, Converter] = {}


def converter(*op_types: str) -> Callable[[Converter], Converter]:
    def register(fn: Converter) -> Converter:
        for op in op_types:
            CONVERTERS[op] = fn
        return fn

    return register


#: The ops that take the element types carried in wider Tile types (`narrow_types`).
CARRIED_OPS = {"Cast", "Identity"}

#: Ops evaluated at import time only (their inputs must be known there).
FOLDED_ONLY = {"Constant", "ConstantOfShape", "Range", "Shape", "Size"}


def supported_ops() -> list[str]:
    _load_converters()
    return sorted(set(CONVERTERS) | FOLDED_ONLY)


def _load_converters() -> None:
    from plaidc.onnx import ops_linalg, ops_math, ops_nn, ops_resize, ops_shape  # noqa: F401


@dataclass
class ImportedModel:
    """A model as Tile: the program text, the weights it takes as inputs (by Tile name), and
    how the model's input and output names map to Tile names."""

    tile: str
    weights: dict[str, np.ndarray]
    inputs: dict[str, str]  # ONNX input name -> Tile name
    outputs: dict[str, str]  # ONNX output name -> Tile name
    dims: dict[str, int] = field(default_factory=dict)  # Tile dimension name -> size
    seconds: float = 0.0
    #: ONNX output name -> its element type, where Tile carries it in another (bfloat16 in
    #: float32 arrays, the narrow types in wider ones: `narrow_types`)
    output_dtypes: dict[str, np.dtype[Any]] = field(default_factory=dict)
    #: ONNX output name -> its value, for outputs with no elements (no Tile tensor has a
    #: zero-size dimension: an empty tensor is known at import time, it has only a shape)
    constant_outputs: dict[str, np.ndarray] = field(default_factory=dict)


def load_model(path: str) -> Any:
    try:
        import onnx
    except ImportError:
        raise model_error(
            path, "reading ONNX models needs the onnx package: pip install 'plaidc[onnx]'"
        ) from None
    try:
        return onnx.load(path)
    except FileNotFoundError:
        raise model_error(path, "no such file") from None
    except Exception as err:  # protobuf's DecodeError and friends: not a model
        raise model_error(path, f"not a readable ONNX model: {err}") from None


def import_model(
    path: str,
    shapes: Mapping[str, tuple[str | None, tuple[int, ...]]] | None = None,
    dims: Mapping[str, int] | None = None,
    model: Any = None,
    constants: Mapping[str, np.ndarray] | None = None,
    channels_last: bool = True,
) -> ImportedModel:
    """Import the model at `path` (or the given ModelProto). `shapes` binds graph inputs by
    ONNX name (a Tile dtype name or None, and sizes); `dims` binds symbolic dimensions;
    `constants` fixes graph inputs to known values (as initializers are); `channels_last`:
    convolutions write channels-last activations (`plaidc.onnx.layout`), else the ONNX
    order throughout."""
    start = time.perf_counter()
    _load_converters()
    if model is None:
        model = load_model(path)
    if _default_opset(path, model) < MIN_OPSET:
        model = _upgraded(path, model)
    importer = _Importer(path, model, dict(shapes or {}), dict(dims or {}), dict(constants or {}))
    importer.out.channels_last = channels_last
    result = importer.run()
    result.seconds = time.perf_counter() - start
    return result


class _Importer:
    def __init__(
        self,
        path: str,
        model: Any,
        shapes: dict[str, tuple[str | None, tuple[int, ...]]],
        dims: dict[str, int],
        constants: dict[str, np.ndarray],
    ) -> None:
        self.constants = constants
        self.path = path
        self.model = model
        self.shapes = shapes
        self.dims = dims
        self.out = Emitter()
        self.values: dict[str, Value] = {}
        self.tile_dims: dict[str, int] = {}
        self.missing: dict[str, str] = {}
        self.opset = _default_opset(path, model)
        self.ordered: dict[str, Value] = {}  # channels-last tensor -> its ONNX-order copy

    def run(self) -> ImportedModel:
        from onnx import numpy_helper

        graph = self.model.graph
        for init in graph.initializer:
            self.values[init.name] = known(numpy_helper.to_array(init))
            self.values[init.name].origin = init.name
        for name, array in self.constants.items():
            self.values[name] = known(np.asarray(array))
        for init in graph.sparse_initializer:
            raise model_error(self.path, f"sparse initializer '{init.values.name}' is unsupported")
        inputs: dict[str, str] = {}
        unknown_shapes = set(self.shapes) - {i.name for i in graph.input}
        if unknown_shapes:
            names = ", ".join(i.name for i in graph.input if i.name not in self.values)
            raise model_error(
                self.path,
                f"--shape {sorted(unknown_shapes)[0]}: the model has no input of that name "
                f"(inputs: {names or 'none'})",
            )
        for proto in graph.input:
            if proto.name in self.constants or (
                proto.name in self.values and proto.name not in self.shapes
            ):
                continue  # an initializer listed as an input too (IR < 4): a weight
            value = self._graph_input(proto)
            self.values[proto.name] = value
            if value.tile is not None:  # not an empty tensor (known: it has no values)
                inputs[proto.name] = value.tile
        for index, proto in enumerate(graph.node):
            self._node(index, proto)
        outputs: dict[str, str] = {}
        output_dtypes: dict[str, np.dtype[Any]] = {}
        constant_outputs: dict[str, np.ndarray] = {}
        for proto in graph.output:
            result = self.values.get(proto.name)
            if result is None:
                why = self.missing.get(proto.name, "is never computed")
                raise model_error(self.path, f"graph output '{proto.name}' {why}")
            if result.size == 0:  # no values: known, handed out beside the program's
                assert result.const is not None
                constant_outputs[proto.name] = from_carrier(result.const, result.dtype)
                continue
            result = self._canonical(result)
            name = self.out.fresh(proto.name)
            source = self.out.tensor(result, proto.name)
            self.out.lines.append(f"  {name} = {source};")
            outputs[proto.name] = name
            if is_carried(result.dtype) or result.dtype.name == "bfloat16":
                output_dtypes[proto.name] = result.dtype
        header = [f"Imported by plaidc from {Path(self.path).name} (opset {self.opset})."]
        if self.out.weights:
            header.append("Weights: the inputs in MODEL.weights.npz (plaidc run --input).")
        for name, array in constant_outputs.items():
            header.append(f"Output '{name}' has no elements (shape {list(array.shape)}).")
        if self.tile_dims:
            bound = ", ".join(f"-D {k}={v}" for k, v in sorted(self.tile_dims.items()))
            header.append(f"Specialised to {bound}.")
        text = self.out.text(list(outputs.values()), header)
        return ImportedModel(
            text,
            self.out.weights,
            inputs,
            outputs,
            dict(self.tile_dims),
            0.0,
            output_dtypes,
            constant_outputs,
        )

    # ---- graph inputs ---------------------------------------------------------------------

    def _graph_input(self, proto: Any) -> Value:
        from onnx import helper

        ttype = proto.type.tensor_type
        if not proto.type.HasField("tensor_type"):
            raise model_error(self.path, f"input '{proto.name}' is not a tensor")
        bound = self.shapes.get(proto.name)
        dtype = np.dtype(helper.tensor_dtype_to_np_dtype(ttype.elem_type))
        if bound is not None and bound[0] is not None:
            from plaidc.interp import numpy_dtype
            from plaidc.stripe.ir import DType

            dtype = np.dtype(numpy_dtype(DType(bound[0])))
        try:
            tile_dtype(dtype)
        except Unsupported as err:
            raise model_error(self.path, f"input '{proto.name}': {err}") from None
        if bound is not None:
            sizes = bound[1]
            declared = list(ttype.shape.dim) if ttype.HasField("shape") else None
            if declared is not None and len(declared) != len(sizes):
                raise model_error(
                    self.path,
                    f"--shape {proto.name}: {len(sizes)} sizes, and the model's input has "
                    f"{len(declared)} dimensions",
                )
            if 0 in sizes:
                return known(np.empty(tuple(sizes), dtype))
            value = Value(tuple(sizes), dtype)
            value.tile = self.out.add_input(proto.name, sizes, dtype)
            return value
        if not ttype.HasField("shape"):
            raise model_error(
                self.path,
                f"input '{proto.name}' has no shape in the model: give it with --shape "
                f"{proto.name}=DTYPE[d0,...]",
            )
        dims: list[int] = []
        spelled: list[str] = []
        for axis, dim in enumerate(ttype.shape.dim):
            if dim.HasField("dim_value"):
                dims.append(int(dim.dim_value))
                spelled.append(str(dim.dim_value))
                continue
            param = dim.dim_param
            if not param or param not in self.dims:
                what = f"symbolic ('{param}')" if param else "unknown"
                hint = f"-D {param}=SIZE or " if param and param.isidentifier() else ""
                raise model_error(
                    self.path,
                    f"input '{proto.name}' dimension {axis} is {what}: bind it with {hint}"
                    f"--shape {proto.name}=DTYPE[d0,...]",
                )
            size = self.dims[param]
            tile_name = self._dim_name(param)
            self.tile_dims[tile_name] = size
            dims.append(size)
            spelled.append(tile_name)
        if 0 in dims:
            return known(np.empty(tuple(dims), dtype))
        value = Value(tuple(dims), dtype)
        value.tile = self.out.add_input(proto.name, spelled, dtype)
        return value

    def _dim_name(self, param: str) -> str:
        for name, _ in self.tile_dims.items():
            if name == param or name.lower() == param.lower():
                return name
        return self.out.fresh(param)

    # ---- nodes ----------------------------------------------------------------------------

    def _node(self, index: int, proto: Any) -> None:
        from onnx import helper

        label = (
            f"node {index} '{proto.name}' ({proto.op_type})"
            if proto.name
            else (f"node {index} ({proto.op_type})")
        )
        if proto.domain not in ("", "ai.onnx"):
            raise model_error(
                self.path, f"{label}: operator domain '{proto.domain}' is not supported"
            )
        inputs: list[Value | None] = []
        for name in proto.input:
            if not name:
                inputs.append(None)
                continue
            value = self.values.get(name)
            if value is None:
                why = self.missing.get(name, "is never computed")
                raise model_error(self.path, f"{label}: input '{name}' {why}")
            inputs.append(value)
        try:
            attrs = {a.name: helper.get_attribute_value(a) for a in proto.attribute}
        except Exception as err:
            raise model_error(self.path, f"{label}: unreadable attribute: {err}") from None
        node = Node(proto.name, proto.op_type, inputs, attrs, self.opset, len(proto.output))
        try:
            results = self._convert(node, proto)
        except Unsupported as err:
            raise model_error(self.path, f"{label}: {err}") from None
        for position, name in enumerate(proto.output):
            if position < len(results):
                self.values[name] = results[position]
            elif name:
                self.missing[name] = f"is output {position} of {label}, which is not supported"

    def _convert(self, node: Node, proto: Any) -> list[Value]:
        if node.op_type in ("Shape", "Size") and node.inputs and node.inputs[0] is not None:
            return [known(_shape_op(node))]
        foldable = all(v is None or v.const is not None for v in node.inputs)
        empty_input = any(v is not None and v.size == 0 for v in node.inputs)
        if foldable and (node.op_type in FOLDABLE or empty_input):
            return [known(v) for v in self._fold(proto)]
        for value in node.inputs:
            if value is not None and is_carried(value.dtype) and node.op_type not in CARRIED_OPS:
                raise Unsupported(
                    f"element type {value.dtype} is only supported by Cast and Identity"
                )
            if value is not None and value.const is None and value.size == 0:
                raise Unsupported(f"an empty input (shape {list(value.shape)})")
        convert = CONVERTERS.get(node.op_type)
        if node.op_type in FOLDED_ONLY:
            raise Unsupported(
                "its inputs are computed at run time; plaidc needs them known once the input "
                "shapes are bound"
            )
        if convert is None:
            raise Unsupported("this operator is not supported")
        mark = len(self.out.lines)
        results = self._arranged(node, convert)
        if len(self.out.lines) > mark:
            who = f"{node.name} " if node.name else ""
            self.out.lines.insert(mark, f"  // {who}({node.op_type})")
        return [self._empty_known(value, mark) for value in results]

    def _arranged(self, node: Node, convert: Converter) -> list[Value]:
        """Run `convert` on the node's inputs in the layout it takes (`plaidc.onnx.layout`):
        an elementwise op on its operands' stored tensors when they share one layout, a
        layout-aware op as they are, any other op in the ONNX order."""
        if node.op_type in ELEMENTWISE:
            rank = max((v.rank for v in node.inputs if v is not None), default=0)
            arranged = physical(node.inputs, rank)
            if arranged is not None:
                inputs, layout = arranged
                return unstored(convert(replace(node, inputs=inputs), self.out), layout, rank)
        elif takes_layout(node.op_type, node.output_count, node.attrs):
            return convert(node, self.out)
        node.inputs = [None if v is None else self._canonical(v) for v in node.inputs]
        return convert(node, self.out)

    def _canonical(self, value: Value) -> Value:
        return canonical(self.out, value, self.ordered)

    def _empty_known(self, value: Value, mark: int) -> Value:
        """A result with no elements as the known empty array it is, and the statements
        that wrote it (a zero-size Tile tensor) dropped."""
        if value.size != 0 or value.const is not None:
            return value
        if value.tile is not None:
            heads = (f"  {value.tile}[", f"  {value.tile} =")
            self.out.lines[mark:] = [
                line for line in self.out.lines[mark:] if not line.startswith(heads)
            ]
        return known(np.empty(value.shape, value.dtype))

    def _fold(self, proto: Any) -> list[np.ndarray]:
        """Evaluate a node whose inputs are all known, with onnx's reference evaluator."""
        if proto.op_type == "Constant":
            return [_constant(proto)]
        return fold_with_reference(
            proto, [self.values[n].const for n in proto.input if n], self.opset
        )


#: Ops folded when their inputs are all known (the others would fold too, but only these
#: appear in shape computations and small constant expressions).
FOLDABLE = {
    "Constant", "ConstantOfShape", "Range", "Gather", "Concat", "Unsqueeze", "Squeeze",
    "Slice", "Cast", "Add", "Sub", "Mul", "Div", "Equal", "Less", "Greater", "Where", "Not",
    "Reshape", "Identity", "Expand", "ReduceProd", "ReduceSum", "ReduceMin", "ReduceMax",
    "Max", "Min", "Neg", "Abs", "Floor", "Ceil", "Sqrt", "Transpose", "Flatten", "Tile",
    "Split", "Pow", "Mod", "And", "Or", "CastLike", "Sign", "GreaterOrEqual", "LessOrEqual",
}  # fmt: skip


def _default_opset(path: str, model: Any) -> int:
    from onnx.defs import onnx_opset_version

    for entry in model.opset_import:
        if entry.domain in ("", "ai.onnx"):
            if not 1 <= entry.version <= onnx_opset_version():
                raise model_error(
                    path,
                    f"opset {entry.version} is outside the supported 1 to {onnx_opset_version()}",
                )
            return int(entry.version)
    raise model_error(path, "the model imports no default-domain opset")


def _upgraded(path: str, model: Any) -> Any:
    """A model below opset 7 converted to opset 7 by onnx's version converter."""
    from onnx import version_converter

    try:
        return version_converter.convert_version(model, MIN_OPSET)
    except Exception as err:
        raise model_error(
            path, f"converting opset < {MIN_OPSET} to {MIN_OPSET} failed: {err}"
        ) from None


def _shape_op(node: Node) -> np.ndarray:
    value = node.inputs[0]
    assert value is not None
    if node.op_type == "Size":
        return np.array(value.size, dtype=np.int64)
    shape = np.array(value.shape, dtype=np.int64)
    start, end = node.attr("start", 0), node.attr("end", None)
    return shape[start:end]


def _constant(proto: Any) -> np.ndarray:
    from onnx import helper, numpy_helper

    attr = proto.attribute[0]
    if attr.name == "value":
        return numpy_helper.to_array(attr.t)
    value = helper.get_attribute_value(attr)
    if attr.name == "value_float":
        return np.array(value, dtype=np.float32)
    if attr.name == "value_floats":
        return np.array(value, dtype=np.float32)
    if attr.name in ("value_int", "value_ints"):
        return np.array(value, dtype=np.int64)
    raise Unsupported(f"Constant attribute '{attr.name}' is not supported")


def fold_with_reference(proto: Any, arrays: Sequence[np.ndarray | None], opset: int) -> list[Any]:
    from onnx import helper
    from onnx.reference import ReferenceEvaluator

    names = [n for n in proto.input if n]
    graph = helper.make_graph(
        [proto],
        "fold",
        [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
         for n, a in zip(names, arrays, strict=True) if a is not None],
        [helper.make_tensor_value_info(n, 0, None) for n in proto.output if n],
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    try:
        results = ReferenceEvaluator(model).run(None, dict(zip(names, arrays, strict=True)))
    except Exception as err:
        raise Unsupported(f"folding its constant inputs failed: {err}") from None
    return [np.asarray(r) for r in results]
