"""The C backend against the interpreter: every example program, every PlaidML dump (all
stages) and every op-library program compiled with `-t c` and run on the same inputs.

Op-library programs go through the target's pass pipeline first, as `plaidc run -t c` does;
Stripe files are compiled as they are (each PlaidML dump is already one stage of a pipeline),
and the final dumps and examples also after the target's pipeline.

The helpers at the top are shared with `test_backend_llvm.py` (which runs the same programs on
`-t llvm`). Op-library programs are also checked against their independent numpy references
(`tests/oplib_reference.py`), with the manifest's tolerances.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import BackendUnavailable, get_backend
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import DType
from plaidc.stripe.parser import parse_stripe
from plaidc.targets import load_target

from .support import REFERENCE_DUMPS
from .support.backend_c import (
    GEMM_CASES,
    MANIFEST,
    OVERLAPPING_ROWS,
    PIPELINED,
    PROGRAMS,
    check_overlapping_rows,
    check_program,
    compile_and_compare,
    load_program,
    tiled_matmul,
)
from .support.backend_opencl import opencl_skip_reason

# --------------------------------------------------------------------------------------------
# Differential tests


@pytest.mark.parametrize("program_id", PROGRAMS + PIPELINED)
def test_c_matches_interpreter(program_id: str) -> None:
    check_program("c", program_id)


def test_every_program_is_covered() -> None:
    """No dump stage, example or op-library entry is silently left out."""
    assert len(REFERENCE_DUMPS) >= 5 * 14
    assert {"examples/fig5a", "examples/fig5b"} <= set(PROGRAMS)
    assert len([p for p in PROGRAMS if p.startswith("tile/")]) == len(MANIFEST)


@pytest.mark.parametrize("case", GEMM_CASES, ids=lambda c: "x".join(map(str, c)))
def test_c_gemm_micro_kernel(case: tuple[int, int, int, int, int, str]) -> None:
    m, n, k, mt, kt, dtype = case
    program = parse_stripe(tiled_matmul(m, n, k, mt, kt, dtype), "tiled.stripe")
    inputs = driver.random_inputs(program_io(program).inputs, seed=1)
    artifact = get_backend("c").compile(program, load_target("c"))
    assert "micro-kernel" in artifact.source, "the #mac_inner block should use the micro-kernel"
    got = artifact.run(inputs)
    np.testing.assert_allclose(got["C"], inputs["A"] @ inputs["B"], rtol=1e-4, atol=1e-4)
    compile_and_compare("c", program, inputs)


def test_c_gemm_operands_in_either_order() -> None:
    program = parse_stripe(tiled_matmul(12, 20, 9, 1, 1, swap=True), "swap.stripe")
    inputs = driver.random_inputs(program_io(program).inputs, seed=2)
    artifact = get_backend("c").compile(program, load_target("c"))
    assert "micro-kernel" in artifact.source
    compile_and_compare("c", program, inputs)


def test_c_gemm_transposed_operand() -> None:
    """`C[m, n] += A[m, k] * B[n, k]`: B's columns are not contiguous, so it is packed."""
    text = tiled_matmul(16, 40, 24, 1, 1).replace(
        "in B[k, n] fp32:I(1, 1):(40, 1)", "in B[n, k] fp32:I(1, 1):(24, 1)"
    )
    text = text.replace("B[0, 0] fp32:I(24, 40):(40, 1)", "B[0, 0] fp32:I(40, 24):(24, 1)")
    text = text.replace("in B[0, 0] fp32:I(24, 40)", "in B[0, 0] fp32:I(40, 24)")
    program = parse_stripe(text, "nt.stripe")
    inputs = driver.random_inputs(program_io(program).inputs, seed=3)
    artifact = get_backend("c").compile(program, load_target("c"))
    assert "micro-kernel" in artifact.source
    got = compile_and_compare("c", program, inputs)
    np.testing.assert_allclose(got["C"], inputs["A"] @ inputs["B"].T, rtol=1e-4, atol=1e-4)


def test_c_source_is_deterministic() -> None:
    program = load_program("conv_bias_relu/15_prune_refs")
    first = get_backend("c").compile(program, load_target("c")).source
    second = get_backend("c").compile(program, load_target("c")).source
    assert first == second


def test_c_parallel_loop_on_cpu_thread_blocks() -> None:
    source = get_backend("c").compile(load_program("matmul/15_prune_refs"), load_target("c")).source
    # a parallel region whose team records its CPUs (`backends.c.threads`), the loop split in
    # contiguous chunks
    assert "#pragma omp parallel if(plaidc_threads_1)" in source
    assert "#pragma omp for schedule(static) nowait" in source


def test_c_save_library(tmp_path: Path) -> None:
    artifact = get_backend("c").compile(load_program("softmax/15_prune_refs"), load_target("c"))
    target = tmp_path / "softmax.so"
    artifact.save_library(target)
    assert target.read_bytes()[:4] == b"\x7fELF"


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_child_block_empty_for_some_parent_points(target: str) -> None:
    """Regression: loop bounds of a child block must keep the guard for parent points where the
    child has no points (isl's AST context is the parent's domain, not the child's projection).
    avgpool2d_padded split into work-items and cached locally has such blocks at the edges."""
    from plaidc.passes import get_pass, make_options

    spec = MANIFEST["avgpool2d_padded"]
    session = driver.Session()
    program = driver.load_program(session, str(spec.path), driver.Bindings(dims=spec.defines))
    split = get_pass("thread-inner")
    cache_pass = get_pass("cache")
    staged = split.run(
        program,
        make_options(split, {"reqs": "[kernel]", "threads": "8", "inner_set": "[gpu_thread]"}),
    )
    staged = cache_pass.run(
        staged, make_options(cache_pass, {"reqs": "[kernel]", "ref": "[all]", "mem_loc": "LOCAL"})
    )
    inputs = driver.random_inputs(program_io(program).inputs, seed=0)
    artifact = get_backend(target).compile(staged, load_target(target))
    assert not driver.compare_outputs(run_program(program, inputs), artifact.run(inputs))


@pytest.mark.parametrize("backend", ["c", "llvm"])
def test_comparisons_with_literals_outside_the_type_compare_numbers(backend: str) -> None:
    """`u8 > -1` and `u8 < 1000` hold and `u8 == 256` does not, as numpy (and C's integer
    promotions) compare; the literal is not wrapped into u8 (255, 232, 0)."""
    from plaidc.tile import compile_tile

    program = compile_tile(
        "function (A[N]) -> (O, P, Q) { O = A > -1; P = A < 1000; Q = A == 256; }",
        "cmp.tile",
        shapes={"A": (DType.U8, (6,))},
    ).program
    a = np.array([0, 1, 7, 200, 232, 255], np.uint8)
    got = compile_and_compare(backend, program, {"A": a})
    assert got["O"].all() and got["P"].all() and not got["Q"].any()


@pytest.mark.parametrize("backend", ["c", "llvm"])
def test_u64_compared_with_a_negative_literal_is_always_greater(backend: str) -> None:
    from plaidc.tile import compile_tile

    program = compile_tile(
        "function (A[N]) -> (O, P) { O = A > -1; P = A <= -1; }",
        "cmp.tile",
        shapes={"A": (DType.U64, (4,))},
    ).program
    a = np.array([0, 5, 2**63, 2**64 - 1], np.uint64)
    got = compile_and_compare(backend, program, {"A": a})
    assert got["O"].all() and not got["P"].any()


# Float -> integer conversions of values the target cannot hold (`interp.dtypes.convert`): they
# wrap through int32 (8- and 16-bit targets) or int64 (u32, u64); llvm's plain fptosi/fptoui
# gave 127 for as_int(300.0, 8) once vectorised (poison), opencl saturated as_uint(-3.0, 32).
CASTS = {
    "O8": ("as_int(A, 8)", [44, -3, 2, -2, 112, -112]),
    "OU8": ("as_uint(A, 8)", [44, 253, 2, 254, 112, 144]),
    "O16": ("as_int(A, 16)", [300, -3, 2, -2, 4464, -4464]),
    "OU16": ("as_uint(A, 16)", [300, 65533, 2, 65534, 4464, 61072]),
    "OU32": ("as_uint(A, 32)", [300, 2**32 - 3, 2, 2**32 - 2, 70000, 2**32 - 70000]),
    "OU64": ("as_uint(A, 64)", [300, 2**64 - 3, 2, 2**64 - 2, 70000, 2**64 - 70000]),
}


@pytest.mark.parametrize("backend", ["c", "llvm", "opencl"])
def test_floats_out_of_an_integer_types_range_wrap_as_the_interpreter_says(backend: str) -> None:
    from plaidc.tile import compile_tile

    body = " ".join(f"{name} = {expr};" for name, (expr, _) in CASTS.items())
    outputs = ", ".join(CASTS)
    program = compile_tile(
        f"function (A[N]) -> ({outputs}) {{ {body} }}",
        "cast.tile",
        shapes={"A": (DType.FP32, (48,))},
    ).program
    values = np.array([300.0, -3.0, 2.5, -2.5, 70000.5, -70000.5], np.float32)
    a = np.tile(values, 8)  # long enough to be vectorised
    try:
        got = compile_and_compare(backend, program, {"A": a})
    except BackendUnavailable as err:
        reason = opencl_skip_reason(str(err), os.environ) if backend == "opencl" else str(err)
        if reason is None:
            raise
        pytest.skip(reason)
    for name, (_, want) in CASTS.items():
        assert got[name][:6].tolist() == want, name


ALIASED_ADD = """block [] (
    in A[0] fp32(2):(1)
    out O[0]:assign fp32(2):(1)
) {
  0: block [i:2] (
      in A[i] fp32(1):(1)
      out a = O[0]:add fp32(1):(1)
      out b = O[SHIFT]:add fp32(1):(1)
  ) {
    0: $x = load(A)
    1: a = store($x)
    2: $ten = (float)10.0
    3: $y = mul($x, $ten)
    4: b = store($y)
  }
}
"""


@pytest.mark.parametrize("backend", ["c", "llvm"])
def test_two_aggregated_views_of_one_element_in_a_point_are_refused(backend: str) -> None:
    """A point's value for an element is its last store (STRIPE.md semantics 3): through two
    `:add` views of O[0] that is 10x, which accumulating each store in place would not give
    (x + 10x); views of different elements accumulate as usual."""
    from plaidc.diagnostics import CompileError

    same = parse_stripe(ALIASED_ADD.replace("SHIFT", "0"), "alias.stripe")
    with pytest.raises(CompileError, match="one point writes 'a' and 'b', views of one element"):
        get_backend(backend).compile(same, load_target(backend))
    apart = parse_stripe(ALIASED_ADD.replace("SHIFT", "1"), "alias.stripe")
    compile_and_compare(backend, apart, {"A": np.array([1.0, 2.0], np.float32)})


@pytest.mark.parametrize("backend", ["c", "llvm"])
@pytest.mark.parametrize("case", sorted(OVERLAPPING_ROWS))
def test_overlapping_output_rows_are_summed_exactly(backend: str, case: str) -> None:
    check_overlapping_rows(backend, case)
