"""A GEMM of one row block (M <= MR: a GEMV, the classifier's 1 x 2048 x 1000) reads B's full
panels in place and packs only a partial last panel (`gemm_pack.Packing.full_panels_in_place`):
each element of B is used once, and packing all of B tripled its traffic (light ResNet-50's
final Gemm, one thread, best of 25 interleaved: 1.06 -> 0.77 ms).

Cases on c and llvm against numpy (float64) and the interpreter: M = 1, 5, 8 with N ragged
(1000 = 31 x 32 + 8, 100), unblocked and blocked (k blocks of the budget,
chunks of panels on two threads: a full panel read in place must start at its k block's row).
The kernel's comment says that B's full panels were read in place, so a case that silently
fell back to packing fails too.
"""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.stripe.parser import parse_stripe

from .test_gemm_blocked import blockings, whole
from .test_gemm_ragged import with_codegen

BACKENDS = ["c", "llvm"]
IN_PLACE = "B's full panels read in place"

# (M, N, K, gemm_block_bytes, threads, blocked): 64-byte vectors
CASES = [
    (1, 1000, 300, 0, 1, False),
    (1, 1000, 300, 64 * 4 * 32, 2, True),
    (5, 1000, 64, 0, 1, False),
    (3, 100, 64, 128 * 4 * 16, 2, True),
    (8, 100, 20, 0, 1, False),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: "x".join(map(str, c[:3])) + f"-{c[4]}t")
def test_gemv_reads_full_panels_in_place(backend: str, case: tuple) -> None:
    m, n, k, budget, threads, blocked = case
    program = parse_stripe(whole(m, n, k), "gemv.stripe")
    inputs = driver.random_inputs(program_io(program).inputs, seed=m + n + k)
    cfg = with_codegen(
        backend, vector_bytes=64, gemm_block_bytes=budget, threads=threads, parallel_min_work=1
    )
    artifact = get_backend(backend).compile(program, cfg)
    artifact.run(inputs)  # a second call must overwrite C
    got = artifact.run(inputs)
    a, b = (inputs[name].astype(np.float64) for name in ("A", "B"))
    np.testing.assert_allclose(got["C"], a @ b, rtol=1e-4, atol=1e-4)
    assert not driver.compare_outputs(run_program(program, inputs), got)
    assert IN_PLACE in artifact.source
    assert bool(blockings(artifact.source)) == blocked


def test_more_rows_pack_all_of_b() -> None:
    """Two row blocks reuse B: it is packed, as before."""
    program = parse_stripe(whole(16, 70, 20), "gemm.stripe")
    cfg = with_codegen("c", vector_bytes=64, gemm_block_bytes=0, threads=1)
    assert IN_PLACE not in get_backend("c").compile(program, cfg).source
