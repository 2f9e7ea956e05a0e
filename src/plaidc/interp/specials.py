"""Special statements: whole-view operations on refinements (STRIPE.md's Special).

A special runs at every point of its block; it reads and writes whole views (elements in
row-major order of the view's sizes), vectorised over points. Its writes count as the point's
writes for aggregation, like stores.

* `O = zero()` (or `zero(O)`): every element of O becomes 0.
* `O = copy(I)`, `O = reshape(I)`: O's elements, row-major, become I's (equal element counts).
* `O = shape(I)`: the 1-D O holds I's sizes.
* `O = gather(V, I)`: `O[i..., j...] = V[I[i...], j...]`, the index clamped to `[0, len(V) - 1]`
  (as PlaidML's CPU backend does).
* `O = scatter(E, I, V)`: O is shaped like V, starts at zero, and gets
  `O[I[i...], j...] += E[i..., j...]`; an index outside `[0, len(V) - 1]` is an InterpError.
* `prng_*`: not supported (raises InterpError), since PlaidML's generator state has no defined
  bit-exact meaning here.
"""

from __future__ import annotations

import numpy as np

from plaidc.interp.errors import InterpError
from plaidc.interp.frames import Frame, View, check_bounds, element_offsets, write_elements
from plaidc.stripe.ir import Special


def _elements(frame: Frame, name: str, special: Special) -> tuple[View, np.ndarray]:
    """A view and the addresses of its elements at every point, shaped (points, elements)."""
    view = frame.view(name, f"special '{special.name}'")
    offs = element_offsets(view.ref.shape)
    addrs = view.base[:, None] + offs[None, :]
    pid = np.repeat(np.arange(frame.n, dtype=np.int64), offs.size)
    check_bounds(frame, view, addrs.reshape(-1), f"special '{special.name}'", pid)
    return view, addrs


def _read(frame: Frame, name: str, special: Special) -> tuple[View, np.ndarray]:
    view, addrs = _elements(frame, name, special)
    return view, view.buffer.data[addrs]


def _write(frame: Frame, name: str, special: Special, values: np.ndarray) -> None:
    """Write `values` (shaped (points, ...)) row-major into view `name` at every point."""
    view, addrs = _elements(frame, name, special)
    flat = values.reshape(frame.n, -1)
    if flat.shape[1] != addrs.shape[1]:
        raise InterpError(
            f"{frame.path}: special '{special.name}' produces {flat.shape[1]} elements but its"
            f" output '{name}' has {addrs.shape[1]}"
        )
    pid = np.repeat(np.arange(frame.n, dtype=np.int64), addrs.shape[1])
    write_elements(frame, view, pid, addrs.reshape(-1), flat.reshape(-1))


def _arity(frame: Frame, special: Special, inputs: int) -> None:
    if len(special.inputs) != inputs or len(special.outputs) != 1:
        raise InterpError(
            f"{frame.path}: special '{special.name}' takes {inputs} inputs and 1 output, got"
            f" {len(special.inputs)} and {len(special.outputs)}"
        )


def run_special(frame: Frame, special: Special) -> None:
    """Run `special` at every point of `frame`."""
    name = special.name
    if name == "zero":
        # PlaidML writes `O = zero()`; accept the operand as an input too.
        for out in special.outputs or special.inputs:
            view, addrs = _elements(frame, out, special)
            _write(frame, out, special, np.zeros(addrs.shape, dtype=view.buffer.data.dtype))
    elif name in ("copy", "reshape"):
        _arity(frame, special, 1)
        _, values = _read(frame, special.inputs[0], special)
        _write(frame, special.outputs[0], special, values)
    elif name == "shape":
        _arity(frame, special, 1)
        source = frame.view(special.inputs[0], f"special '{name}'")
        sizes = np.array(source.ref.shape.sizes, dtype=np.int64)
        _write(frame, special.outputs[0], special, np.tile(sizes, (frame.n, 1)))
    elif name == "gather":
        _arity(frame, special, 2)
        _gather(frame, special)
    elif name == "scatter":
        _arity(frame, special, 3)
        _scatter(frame, special)
    elif name.startswith("prng"):
        raise InterpError(f"{frame.path}: special '{name}' is not supported by the interpreter")
    else:
        raise InterpError(f"{frame.path}: unknown special '{name}'")


def _gather(frame: Frame, special: Special) -> None:
    source, values = _read(frame, special.inputs[0], special)
    _, index = _read(frame, special.inputs[1], special)
    sizes = source.ref.shape.sizes
    if not sizes:
        raise InterpError(f"{frame.path}: gather needs a source with at least one dimension")
    rows = values.reshape(frame.n, sizes[0], -1)
    with np.errstate(invalid="ignore"):
        picks = np.clip(index.astype(np.int64), 0, sizes[0] - 1)
    points = np.arange(frame.n, dtype=np.int64)[:, None]
    _write(frame, special.outputs[0], special, rows[points, picks])


def _scatter(frame: Frame, special: Special) -> None:
    _, updates = _read(frame, special.inputs[0], special)
    _, index = _read(frame, special.inputs[1], special)
    like = frame.view(special.inputs[2], f"special '{special.name}'")
    sizes = like.ref.shape.sizes
    if not sizes:
        raise InterpError(f"{frame.path}: scatter needs a target with at least one dimension")
    rest = int(np.prod(sizes[1:], dtype=np.int64))
    count = index.shape[1]
    if updates.shape[1] != count * rest:
        raise InterpError(
            f"{frame.path}: scatter updates '{special.inputs[0]}' have {updates.shape[1]}"
            f" elements, expected {count} indices x {rest}"
        )
    picks = index.astype(np.int64)
    bad = np.flatnonzero((picks < 0) | (picks >= sizes[0]))
    if bad.size:
        raise InterpError(
            f"{frame.path}: scatter index {int(picks.reshape(-1)[bad[0]])} is outside"
            f" [0, {sizes[0] - 1}]"
        )
    out_dtype = frame.view(special.outputs[0], f"special '{special.name}'").buffer.data.dtype
    result = np.zeros((frame.n, sizes[0], rest), dtype=out_dtype)
    points = np.broadcast_to(np.arange(frame.n, dtype=np.int64)[:, None], picks.shape)
    np.add.at(result, (points, picks), updates.reshape(frame.n, count, rest).astype(out_dtype))
    _write(frame, special.outputs[0], special, result)
