"""Heap packing scratch kept between calls (`[codegen] keep_scratch`, `Plan.scratch_slots`).

A micro-kernel's large packing buffers are taken from per-allocation slots and given back at
the end of the call instead of allocated and freed on every call, so the same compiled program
runs many times (and on several threads at once) from reused buffers. Each case runs one
compiled program repeatedly on different inputs, on c and llvm, against numpy (float64) and
the interpreter: a buffer handed to two users at once, or a stale pack reused, would change
the results.
"""

from __future__ import annotations

import ctypes
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.stripe.parser import parse_stripe

from .support import EXAMPLES
from .test_gemm_blocked import whole
from .test_gemm_ragged import with_codegen

BACKENDS = ["c", "llvm"]


def compiled(backend: str, text: str, **codegen: object):  # type: ignore[no-untyped-def]
    program = parse_stripe(text, "kept.stripe")
    artifact = get_backend(backend).compile(program, with_codegen(backend, **codegen))
    return program, artifact


def check_runs(program, artifact, seeds: range) -> None:  # type: ignore[no-untyped-def]
    for seed in seeds:
        inputs = driver.random_inputs(program_io(program).inputs, seed=seed)
        got = artifact.run(inputs)
        a, b = (inputs[name].astype(np.float64) for name in ("A", "B"))
        np.testing.assert_allclose(got["C"], a @ b, rtol=1e-4, atol=1e-4)
        assert not driver.compare_outputs(run_program(program, inputs), got)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("threads", [1, 3])
def test_kept_scratch_is_reused_across_calls(backend: str, threads: int) -> None:
    """A blocked kernel (B packed in k blocks, one chunk per thread, each with its own part of
    the scratch) whose scratch is on the heap (over `stack_bytes`): the code takes it from the
    slots, and five calls with different inputs all match."""
    text = whole(70, 100, 90)
    program, artifact = compiled(
        backend,
        text,
        vector_bytes=64,
        threads=threads,
        parallel_min_work=1,
        gemm_block_bytes=100 * 4 * 16,
        stack_bytes=1024,
    )
    source = artifact.source
    assert ("plaidc_scratch_take" in source) or ("plaidc.scratch_take" in source)
    assert "aligned_alloc(64" not in source and "@aligned_alloc(i64 64" not in source
    check_runs(program, artifact, range(5))


@pytest.mark.parametrize("backend", BACKENDS)
def test_keep_scratch_false_allocates_per_call(backend: str) -> None:
    """`keep_scratch = false`: every heap scratch is allocated and freed where it is used."""
    program, artifact = compiled(
        backend,
        whole(70, 100, 90),
        vector_bytes=64,
        gemm_block_bytes=100 * 4 * 16,
        stack_bytes=1024,
        keep_scratch=False,
    )
    assert "scratch_take" not in artifact.source and "aligned_alloc" in artifact.source
    check_runs(program, artifact, range(2))


def test_llvm_frees_the_kept_buffers_and_keeps_working() -> None:
    """The JIT's `plaidc_scratch_free` empties the slots (what runs when the program is
    dropped); later calls allocate afresh and still match."""
    program, artifact = compiled(
        "llvm",
        whole(70, 100, 90),
        vector_bytes=64,
        gemm_block_bytes=100 * 4 * 16,
        stack_bytes=1024,
        threads=2,
        parallel_min_work=1,
    )
    check_runs(program, artifact, range(2))
    engine = artifact.jitted.engine
    free = ctypes.CFUNCTYPE(None)(engine.get_function_address("plaidc_scratch_free"))
    free()
    check_runs(program, artifact, range(2, 4))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("keep", [True, False])
def test_a_pack_on_the_heap_reports_through_the_status_word(backend: str, keep: bool) -> None:
    """An A row block's pack larger than `stack_bytes` inside the micro-kernel (a long
    reduction, no blocking): the kernel takes the caller's status word for a failed
    allocation (it once named `plaidc_status`, which the kernel function lacked, and the C
    did not compile); the program runs and matches."""
    program, artifact = compiled(
        backend, whole(20, 33, 3000), vector_bytes=64, stack_bytes=1024, keep_scratch=keep
    )
    assert "plaidc_status" in artifact.source
    check_runs(program, artifact, range(2))


def mlp(backend: str, **codegen: object):  # type: ignore[no-untyped-def]
    """examples/mlp_3layer.tile at 24 x 40 (hidden layers H1, H2: 3.75 KiB each, on the heap
    over a 1 KiB `stack_bytes`)."""
    dims = {"B": 24, "D0": 40, "D1": 40, "D2": 40, "D3": 40}
    path = str(EXAMPLES / "mlp_3layer.tile")
    program = driver.load_program(driver.Session(), path, driver.Bindings(dims=dims))
    cfg = with_codegen(backend, stack_bytes=1024, **codegen)
    return program, get_backend(backend).compile(program, cfg)


def mlp_reference(x: dict) -> np.ndarray:  # type: ignore[type-arg]
    h = x["X"].astype(np.float64)
    for layer in (1, 2, 3):
        h = np.maximum(h @ x[f"W{layer}"] + x[f"B{layer}"], 0)
    return h


@pytest.mark.parametrize("backend", BACKENDS)
def test_program_temporaries_are_kept_and_shared_safely(backend: str) -> None:
    """A heap temporary of the program (the MLP's hidden layers) is taken from the kept slots
    like packing scratch, not allocated per call (each call faulted its pages in again); calls
    from several Python threads at once, each with its own inputs, all match: a buffer handed
    to two calls at once would mix their layers."""
    program, artifact = mlp(backend)
    source = artifact.source
    assert source.count("scratch_take") >= 2 and "aligned_alloc(64" not in source
    feeds = [driver.random_inputs(program_io(program).inputs, seed=s) for s in range(6)]
    want = [mlp_reference(x) for x in feeds]
    for x, w in zip(feeds, want, strict=True):
        np.testing.assert_allclose(artifact.run(x)["Y"], w, rtol=1e-4, atol=1e-4)

    def run(i: int) -> np.ndarray:
        return np.asarray(artifact.run(feeds[i % 6])["Y"])

    with ThreadPoolExecutor(max_workers=3) as pool:
        for i, got in enumerate(pool.map(run, range(60))):
            np.testing.assert_allclose(got, want[i % 6], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("backend", BACKENDS)
def test_program_temporaries_per_call_without_keep_scratch(backend: str) -> None:
    """`keep_scratch = false`: the hidden layers are allocated and freed on every call."""
    program, artifact = mlp(backend, keep_scratch=False)
    assert "scratch_take" not in artifact.source
    x = driver.random_inputs(program_io(program).inputs, seed=7)
    np.testing.assert_allclose(artifact.run(x)["Y"], mlp_reference(x), rtol=1e-4, atol=1e-4)
