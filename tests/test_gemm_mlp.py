"""The MLP's layers on the shipped c and llvm pipelines at ragged sizes: tile_contract splits
their reductions, so the micro-kernel adds to C (`C += A B`: C prefetched before the k loop and
added after it) on zero-initialised tiles, and the fused bias and relu run after each layer's
tiles, writing hidden layers kept between calls. Compared with numpy in float64 (a misplaced
bias column, a missing relu or a k tile added twice would differ), to the outputs' scale: a few
outputs that cancel (7.04 from terms near 1000) differ from the interpreter's by more than its
element-wise rtol 1e-4, on main's code as well."""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io
from plaidc.targets import load_target

from .support import EXAMPLES

BACKENDS = ["c", "llvm"]


def reference(x: dict[str, np.ndarray]) -> np.ndarray:
    h = x["X"].astype(np.float64)
    for layer in (1, 2, 3):
        h = np.maximum(h @ x[f"W{layer}"].astype(np.float64) + x[f"B{layer}"], 0)
    return h


@pytest.mark.parametrize("backend", BACKENDS)
def test_ragged_mlp_with_split_reductions(backend: str) -> None:
    dims = {"B": 37, "D0": 1000, "D1": 300, "D2": 513, "D3": 77}
    path = str(EXAMPLES / "mlp_3layer.tile")
    program = driver.load_program(driver.Session(), path, driver.Bindings(dims=dims))
    program = driver.run_pipeline(
        program, driver.resolve_steps(load_target(backend).stage("default"))
    )
    artifact = get_backend(backend).compile(program, load_target(backend))
    assert "C += A B" in artifact.source  # a k-split tile adds to C
    for seed in (0, 1):
        inputs = driver.random_inputs(program_io(program).inputs, seed=seed)
        got = artifact.run(inputs)
        want = reference(inputs)
        assert (want == 0).any() and (want > 0).any()  # relu clips some outputs, not all
        np.testing.assert_allclose(got["Y"], want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
