"""The Tile text an ONNX import writes: tensor values, fresh names, literals, contractions.

Every ONNX tensor the importer meets is a `Value`: its static shape and element type (the
importer knows both for every tensor once the graph's input shapes are bound), the Tile name
holding it, and, for a tensor known at import time (an initializer, a `Constant`, a folded
shape computation), its value. A known value reaches the Tile program only where an operation
reads it as a tensor: a one-element value as a literal, any other as a weight input.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: ONNX element types (numpy's) -> Tile's; others are an error naming the type.
TILE_DTYPES = {
    np.dtype(np.bool_): "bool",
    np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.uint8): "u8",
    np.dtype(np.uint16): "u16",
    np.dtype(np.uint32): "u32",
    np.dtype(np.uint64): "u64",
    np.dtype(np.float16): "fp16",
    np.dtype(np.float32): "fp32",
    np.dtype(np.float64): "fp64",
}


class Unsupported(Exception):
    """What a node lacks (an op, an attribute value, a constant input): the importer adds
    which node it is."""


@dataclass
class Value:
    """One ONNX tensor: its shape, element type, Tile name and (when known) its value."""

    shape: tuple[int, ...]
    dtype: np.dtype[Any]
    tile: str | None = None
    const: np.ndarray | None = None
    origin: str | None = None  # the ONNX name of an initializer, which names its weight
    #: the order of the Tile tensor's axes (ONNX axis numbers), when not the ONNX order: a
    #: channels-last activation (`plaidc.onnx.layout`); only run-time values have one
    layout: tuple[int, ...] | None = None

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)


def known(array: np.ndarray) -> Value:
    array = np.asarray(array)
    return Value(tuple(int(d) for d in array.shape), array.dtype, None, array)


def tile_dtype(dtype: np.dtype[Any]) -> str:
    """The Tile type of an ONNX element type: bfloat16 is bf16, the narrower types are carried
    in a wider type (`plaidc.onnx.narrow_types`)."""
    dtype = np.dtype(dtype)
    found = TILE_DTYPES.get(dtype)
    if found is not None:
        return found
    if dtype.name == "bfloat16":
        return "bf16"
    from plaidc.onnx.narrow_types import carrier

    wide = carrier(dtype)
    if wide is None:
        raise Unsupported(f"element type {dtype} has no Tile type")
    return TILE_DTYPES[wide]


def kind(dtype: np.dtype[Any]) -> str:
    """numpy's kind letter, with ml_dtypes' types (kind 'V') as the floats or integers they
    are."""
    dtype = np.dtype(dtype)
    if dtype.kind != "V":
        return dtype.kind
    tile = tile_dtype(dtype)  # fp32 / bf16, i8 or u8
    return "f" if tile.startswith(("fp", "bf")) else tile[0]


def literal(value: Any, dtype: np.dtype[Any]) -> str:
    """A Tile literal of one element of `dtype` (weakly typed: it takes the other operand's
    type, as ONNX's same-typed operands need)."""
    if kind(dtype) == "f":
        number = float(value)
        if math.isnan(number):
            raise Unsupported("a NaN constant has no Tile literal")
        if math.isinf(number):
            number = math.copysign(float(_finfo(dtype).max), number)
        text = repr(number)
        if "e" not in text and "." not in text:
            text += ".0"
        text = text.replace("e+", "e")
    else:
        text = str(int(value))
    return f"({text})" if text.startswith("-") else text


def _finfo(dtype: np.dtype[Any]) -> Any:
    import ml_dtypes

    return np.finfo(dtype) if np.dtype(dtype) in TILE_DTYPES else ml_dtypes.finfo(dtype)


_NAME_CHARS = re.compile(r"[^A-Za-z0-9_]")


class Emitter:
    """Collects the Tile function: its inputs, weights, statements and outputs."""

    def __init__(self) -> None:
        self.used: set[str] = set()
        self.lines: list[str] = []
        self.signature: list[str] = []
        self.weights: dict[str, np.ndarray] = {}
        self._index = 0
        #: convolutions write channels-last results (`plaidc.onnx.layout`)
        self.channels_last = True

    # ---- names ----------------------------------------------------------------------------

    def fresh(self, hint: str) -> str:
        """A new upper-case Tile name based on `hint` (an ONNX name), unique in the function."""
        base = _NAME_CHARS.sub("_", hint).strip("_") or "T"
        if not base[0].isalpha():
            base = "T" + base
        base = base[0].upper() + base[1:]
        name, n = base, 1
        while name in self.used:
            n += 1
            name = f"{base}_{n}"
        self.used.add(name)
        return name

    @staticmethod
    def indices(count: int, prefix: str = "i") -> list[str]:
        return [f"{prefix}{k}" for k in range(count)]

    # ---- values ---------------------------------------------------------------------------

    def add_input(self, hint: str, shape: Sequence[int | str], dtype: np.dtype[Any]) -> str:
        name = self.fresh(hint)
        dims = ", ".join(str(d) for d in shape)
        self.signature.append(f"{name}[{dims}]: {tile_dtype(dtype)}")
        return name

    def tensor(self, value: Value, hint: str = "W") -> str:
        """The Tile name of `value`, making a known value a weight input on first use."""
        if value.tile is None:
            assert value.const is not None
            value.tile = self.add_input(value.origin or hint, value.shape, value.dtype)
            from plaidc.onnx.narrow_types import to_carrier

            weight = to_carrier(np.asarray(value.const, order="C"))  # 0-d stays 0-d
            if weight.dtype.name == "bfloat16":
                weight = weight.astype(np.float32)  # Tile's bf16 lives in float32 arrays
            self.weights[value.tile] = weight
        return value.tile

    def operand(self, value: Value, result_rank: int, hint: str = "W") -> str:
        """`value` in an elementwise expression whose result has `result_rank` dimensions: a
        literal for a known one-element value that broadcasts away, else its tensor."""
        small = value.const is not None and value.size == 1 and value.rank <= result_rank
        if small and kind(value.dtype) in "fiu":
            assert value.const is not None
            return literal(value.const.reshape(-1)[0], value.dtype)
        return self.tensor(value, hint)

    # ---- statements -----------------------------------------------------------------------

    def comment(self, text: str) -> None:
        self.lines.append(f"  // {text}")

    def assign(self, hint: str, expr: str, shape: Sequence[int], dtype: np.dtype[Any]) -> Value:
        """`Name = expr;` (elementwise, or a whole-tensor function)."""
        name = self.fresh(hint)
        self.lines.append(f"  {name} = {expr};")
        return Value(tuple(shape), np.dtype(dtype), name)

    def contract(
        self,
        hint: str,
        out_index: Sequence[str],
        out_shape: Sequence[int],
        agg: str,
        terms: Sequence[tuple[str, Sequence[str]]],
        dtype: np.dtype[Any],
        *,
        comb: str = "",
        constraints: Sequence[tuple[str, int]] = (),
        default: str | None = None,
    ) -> Value:
        """`Name[out_index : out_shape] = agg(A[..] comb B[..]), constraints default D;`."""
        name = self.fresh(hint)
        sizes = ", ".join(str(s) for s in out_shape)
        head = f"{name}[{', '.join(out_index)} : {sizes}]" if out_shape else f"{name}[]"
        parts = [f"{t}[{', '.join(str(i) for i in idx)}]" for t, idx in terms]
        body = f" {comb} ".join(parts)
        tail = "".join(f", {poly} < {bound}" for poly, bound in constraints)
        if default is not None:
            tail += f" default {default}"
        self.lines.append(f"  {head} = {agg}({body}){tail};")
        return Value(tuple(out_shape), np.dtype(dtype), name)

    def reshape(self, value: Value, shape: Sequence[int], hint: str = "R") -> Value:
        """`value` with another shape of the same size (a known value stays known)."""
        shape = tuple(int(d) for d in shape)
        if value.const is not None:
            return known(value.const.reshape(shape))
        if shape == value.shape:
            return value
        source = self.tensor(value)
        if not shape:  # a one-element tensor to a scalar
            zeros = ["0"] * value.rank
            return self.contract(hint, [], [], "=", [(source, zeros)], value.dtype)
        dims = ", ".join(str(d) for d in shape)
        return self.assign(hint, f"reshape({source}, {dims})", shape, value.dtype)

    def text(self, outputs: Sequence[str], header: Sequence[str]) -> str:
        head = "".join(f"// {line}\n" for line in header)
        signature = ", ".join(self.signature)
        body = "\n".join(self.lines)
        return f"{head}function ({signature}) -> ({', '.join(outputs)}) {{\n{body}\n}}\n"
