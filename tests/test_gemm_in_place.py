"""B read in place by the micro-kernel (`gemm_shape.reads_b_in_place`), on c and llvm.

A call whose columns fit one partial panel (a grouped conv's 14-pixel rows) reads its padded
vectors of B straight from B's buffer when they stay within it, instead of packing B with zero
columns; calls at the end of the buffer pack as before. The lanes past the columns then hold
B's next elements, which must reach no element of C, even when they are infinite or NaN.
"""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.targets import load_target
from plaidc.tile import compile_tile

BACKENDS = ["c", "llvm"]

# B is wider than the product's columns: the lanes past column J read B's other columns.
WIDE = """function (A[M, K], B[K, W]) -> (C) {
  C[i, j : M, J] = +(A[i, k] * B[k, j]);
}
"""


def run(backend: str, dims: dict[str, int], poison: float | None, bounded: bool = True) -> str:
    program = compile_tile(WIDE, "wide.tile", dims=dims).program
    cfg = load_target(backend)
    program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    inputs = driver.random_inputs(program_io(program).inputs, seed=11)
    if poison is not None:
        inputs["B"][:, dims["J"] :] = poison
    artifact = get_backend(backend).compile(program, cfg)
    got = artifact.run(inputs)
    a, b = inputs["A"].astype(np.float64), inputs["B"].astype(np.float64)
    want = a @ b[:, : dims["J"]]
    assert np.isfinite(got["C"]).all()
    np.testing.assert_allclose(got["C"], want, rtol=1e-4, atol=1e-4)
    if poison is None:
        assert not driver.compare_outputs(run_program(program, inputs), got)
    assert ("b_avail" in artifact.source) == bounded, "a partial panel needs B's end"
    return artifact.source


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("poison", [np.inf, np.nan], ids=["inf", "nan"])
def test_lanes_past_the_columns_reach_no_output(backend: str, poison: float) -> None:
    # 21 rows: two register blocks and a short one; 14 of B's 20 columns
    run(backend, {"M": 21, "K": 37, "J": 14, "W": 20}, poison)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dims", [(9, 5, 3), (17, 29, 13), (8, 64, 2)], ids=str)
def test_calls_at_the_end_of_b_pack_it(backend: str, dims: tuple[int, int, int]) -> None:
    """B exactly as wide as the columns: the padded vectors of its last row would run past
    the buffer, so the call packs B (a grouped conv's calls take both paths in one program:
    tests/test_gemm_batch.py)."""
    m, k, j = dims
    run(backend, {"M": m, "K": k, "J": j, "W": j}, None)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dims", [(21, 37, 16, 16), (19, 8, 32, 40)], ids=str)
def test_a_full_panel_is_read_in_place(backend: str, dims: tuple[int, int, int, int]) -> None:
    """One full panel (16 or 32 columns) over several row blocks: B's rows are the panel's
    rows already, read in place with no bound (they never pass B's columns) and no copy."""
    m, k, j, w = dims
    source = run(backend, {"M": m, "K": k, "J": j, "W": w}, np.nan, bounded=False)
    assert "micro-kernel" in source
