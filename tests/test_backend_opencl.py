"""The OpenCL backend against the interpreter, on a real OpenCL runtime (pocl's CPU device here).

* Every example program, every PlaidML dump stage and every op-library program on `-t opencl`
  (the programs of `test_backend_c.py`; op-library programs also against their numpy
  references), and the final dumps and examples after the target's pipeline.
* The work-group form (thread blocks on work-items, `__local` copies, barriers): the final
  dumps, the examples and the op library after a pipeline that splits every kernel into
  work-groups of at most 8 work-items and caches every refinement in local memory.
* Temporaries in global slices (a config whose private memory holds nothing), GEMM
  micro-kernels on OpenCL vectors, and the kernels' NDRange structure.

Without a working OpenCL runtime these tests fail, saying why (a missing runtime, or one whose
compiler cannot build a kernel), unless `$PLAIDC_TESTS_WITHOUT_OPENCL` is set, which CI never
does.
"""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import BackendUnavailable, get_backend
from plaidc.backends.opencl import OpenCLArtifact, codegen_options
from plaidc.backends.opencl.kernels import KernelProgram
from plaidc.backends.opencl.lower import kernel_depth, lower_kernels
from plaidc.backends.opencl.runtime import default_device
from plaidc.interp import program_io
from plaidc.stripe.ir import Block, DType
from plaidc.stripe.parser import parse_stripe
from plaidc.targets import TargetConfig, load_target

from .support import EXAMPLES
from .support.backend_c import (
    GEMM_CASES,
    OVERLAPPING_ROWS,
    PIPELINED,
    PROGRAMS,
    check_overlapping_rows,
    check_program,
    compile_and_compare,
    load_program,
    pipelined,
    program_inputs,
    tiled_matmul,
)
from .support.backend_opencl import (
    compile_opencl,
    needs_opencl,
    opencl_target,
    workgroups_target,
)

# Programs for the variants: the final PlaidML dumps, the examples and the op library.
VARIANT_PROGRAMS = [
    p
    for p in PROGRAMS
    if p.endswith("15_prune_refs") or p.startswith("examples/") or p.startswith("tile/")
]


def check_with(target: TargetConfig, program_id: str, stage: str = "default") -> OpenCLArtifact:
    program = load_program(program_id)
    inputs = program_inputs(program_id, program)
    steps = driver.resolve_steps(target.stage(stage))
    program = driver.run_pipeline(program, steps)
    compile_and_compare("opencl", program, inputs, target)
    return compile_opencl(program, target)


# --------------------------------------------------------------------------------------------
# Differential tests


@needs_opencl
@pytest.mark.parametrize("program_id", PROGRAMS + PIPELINED)
def test_opencl_matches_interpreter(program_id: str) -> None:
    check_program("opencl", program_id)


@needs_opencl
@pytest.mark.parametrize("program_id", VARIANT_PROGRAMS)
def test_opencl_workgroups_match_interpreter(program_id: str) -> None:
    check_with(workgroups_target(), program_id)


@needs_opencl
@pytest.mark.parametrize("program_id", VARIANT_PROGRAMS)
def test_opencl_gpu_stage_matches_interpreter(program_id: str) -> None:
    """The opencl target's `--stage gpu` pipeline (work-groups, __local copies) on every
    program, as the default stage is."""
    check_with(load_target("opencl"), program_id, stage="gpu")


@needs_opencl
@pytest.mark.parametrize(
    "program_id",
    ["softmax/09_localize_main", "matmul/15_prune_refs", "conv_bias_relu/09_localize_main"],
)
def test_opencl_global_temporaries(program_id: str) -> None:
    """Every temporary in slices of a global buffer, one per work-item."""
    artifact = check_with(opencl_target(private_bytes=1), program_id)
    assert any(k.scratch for k in artifact.program.kernels)
    assert "_slices" in artifact.source


@needs_opencl
def test_opencl_workgroups_are_used() -> None:
    artifact = check_with(workgroups_target(), "tile/conv2d_bias_relu")
    cooperative = [k for k in artifact.program.kernels if k.local_size is not None]
    assert cooperative and all(k.local_size and k.local_size[0] <= 8 for k in cooperative)
    assert "barrier(CLK_LOCAL_MEM_FENCE" in artifact.source
    assert "__local float" in artifact.source
    assert "get_local_id(0)" in artifact.source and "get_group_id(0)" in artifact.source


@needs_opencl
@pytest.mark.parametrize("case", GEMM_CASES, ids=lambda c: "x".join(map(str, c)))
def test_opencl_gemm_micro_kernel(case: tuple[int, int, int, int, int, str]) -> None:
    m, n, k, mt, kt, dtype = case
    program = parse_stripe(tiled_matmul(m, n, k, mt, kt, dtype), "tiled.stripe")
    inputs = driver.random_inputs(program_io(program).inputs, seed=1)
    artifact = compile_opencl(program)
    assert "micro-kernel" in artifact.source
    lanes = 32 // (4 if dtype == "fp32" else 8)
    assert f"{'float' if dtype == 'fp32' else 'double'}{lanes} " in artifact.source
    got = compile_and_compare("opencl", program, inputs)
    np.testing.assert_allclose(got["C"], inputs["A"] @ inputs["B"], rtol=1e-4, atol=1e-4)


# --------------------------------------------------------------------------------------------
# Kernel structure


def test_kernels_use_independent_indices_for_the_ndrange() -> None:
    """An untiled matmul: `m` and `n` write distinct elements (work-items), `k` does not (a
    loop in each work-item); the sum's initialisation is a kernel launched before."""
    program = load_program("tile/matmul")
    kernels = lower(program)
    init, main = kernels.kernels
    assert init.role == "init" and init.global_size == (6, 7)
    assert main.role == "kernel" and main.global_size == (6, 7) and main.local_size is None
    assert [s.kernel for s in kernels.steps] == [init.function, main.function]
    source = compile_opencl(program).source
    assert "for (int64_t k = 0; k < 5; ++k)" in source


def test_kernel_depth_follows_the_program_shape() -> None:
    assert kernel_depth(load_program("examples/fig5a")) == 1
    assert kernel_depth(load_program("matmul/15_prune_refs")) == 2


def test_workgroup_fallback_when_groups_are_too_large() -> None:
    """Work-groups larger than `max_work_group` fall back to plain work-items."""
    cfg = workgroups_target()
    program = driver.run_pipeline(
        load_program("tile/matmul"), driver.resolve_steps(cfg.stage("default"))
    )
    roomy = lower(program, cfg)
    assert any(k.local_size for k in roomy.kernels)
    small = TargetConfig(
        cfg.name, cfg.backend, "", {}, cfg.stages, {**cfg.codegen, "max_work_group": 2}
    )
    assert not any(k.local_size for k in lower(program, small).kernels)


def test_source_is_deterministic_and_needs_no_runtime(monkeypatch: pytest.MonkeyPatch) -> None:
    program = load_program("conv_bias_relu/15_prune_refs")
    first = compile_opencl(program).source
    monkeypatch.setenv("PLAIDC_OPENCL_PLATFORM", "no such platform")
    artifact = compile_opencl(program)
    assert artifact.source == first
    assert artifact.executable is None
    with pytest.raises(BackendUnavailable, match="matches no OpenCL platform"):
        artifact.run(program_inputs("conv_bias_relu/15_prune_refs", program))


def lower(program: Block, target: TargetConfig | None = None) -> KernelProgram:
    cfg = target or load_target("opencl")
    options = codegen_options(cfg.codegen, cfg.name)
    return lower_kernels(program, options.kernels, options.lowering)


# --------------------------------------------------------------------------------------------
# Compilers that reject clang's `fp reassociate` pragma (NVIDIA's OpenCL, seen on an H200)


def test_reassociation_pragma_is_only_seen_when_the_build_defines_it() -> None:
    source = compile_opencl(load_program("softmax/15_prune_refs")).source
    assert "PLAIDC_REASSOCIATE\n" in source  # the reduction loops use the macro
    guarded = source.split("#ifdef PLAIDC_FP_REASSOCIATE\n", 1)[1].split("#else", 1)[0]
    assert "_Pragma(" in guarded
    assert source.count("reassociate(on)") == 1  # nowhere outside the guarded definition


@needs_opencl
def test_a_compiler_rejecting_the_pragma_builds_and_runs_reductions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """NVIDIA's compiler errors on `#pragma clang fp reassociate`: a pragma the device's
    compiler rejects (here an invalid one, which pocl rejects too) must never reach it."""
    from plaidc.backends.opencl import runtime

    device = default_device()
    monkeypatch.setattr(
        runtime, "_REASSOCIATE_PROBE", runtime._REASSOCIATE_PROBE.replace("reassociate", "bogus")
    )
    assert not runtime.accepts_reassociate_pragma.__wrapped__(device)
    monkeypatch.setattr(runtime, "accepts_reassociate_pragma", lambda _device: False)
    assert runtime.REASSOCIATE_OPTION not in runtime.build_options(device, ())
    program = load_program("softmax/15_prune_refs")
    source = compile_opencl(program).source.replace("reassociate(on)", "bogus(on)")
    binary = runtime.build_program(device, source, runtime.build_options(device, ()))
    assert binary is not None
    with pytest.raises(Exception, match="bogus"):
        runtime.build_program(device, source, [runtime.REASSOCIATE_OPTION])


def test_contraction_pragmas_are_only_seen_when_the_build_defines_them() -> None:
    """`a * b + c` rounds twice (OpenCL C's default lets compilers fuse it), except in the GEMM
    micro-kernel; both pragmas sit in the definition guarded by PLAIDC_FP_CONTRACT."""
    from plaidc.tile import compile_tile

    text = (EXAMPLES / "matmul.tile").read_text()
    program = compile_tile(text, "matmul.tile", dims={"M": 64, "K": 64, "N": 64}).program
    steps = driver.resolve_steps(load_target("opencl").stage("default"))
    source = compile_opencl(driver.run_pipeline(program, steps)).source
    guarded = source.split("#ifdef PLAIDC_FP_CONTRACT\n", 1)[1].split("#else", 1)[0]
    assert "#pragma OPENCL FP_CONTRACT OFF" in guarded and "FP_CONTRACT ON" in guarded
    assert source.count("OPENCL FP_CONTRACT") == 2  # nowhere outside the guarded definition
    assert "{\n  PLAIDC_CONTRACT_ON\n" in source  # first in the micro-kernel's body


@needs_opencl
def test_a_compiler_rejecting_the_contraction_pragmas_builds_without_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from plaidc.backends.opencl import runtime

    device = default_device()
    assert runtime.accepts_contract_pragmas(device)  # pocl's clang takes them
    monkeypatch.setattr(runtime, "_CONTRACT_PROBE", "#pragma clang fp bogus(on)\n")
    assert not runtime.accepts_contract_pragmas.__wrapped__(device)
    monkeypatch.setattr(runtime, "accepts_contract_pragmas", lambda _device: False)
    assert runtime.CONTRACT_OPTION not in runtime.build_options(device, ())
    source = compile_opencl(load_program("tile/matmul")).source
    source = source.replace("OPENCL FP_CONTRACT OFF", "clang fp bogus(on)")
    assert runtime.build_program(device, source, runtime.build_options(device, ())) is not None
    with pytest.raises(Exception, match="bogus"):
        runtime.build_program(device, source, [runtime.CONTRACT_OPTION])


@needs_opencl
def test_multiply_then_add_rounds_twice_on_the_device() -> None:
    """(1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 rounds (tie to even) to 1 + 2^-11 in fp32, so
    `A * B + C` with C = -(1 + 2^-11) is 0 when the product is rounded first (numpy, the
    interpreter) and 2^-24 when a compiler fuses it into an fma (OpenCL C's default; NVIDIA's
    compiler does): bit-exact on every element, after the target's pipeline too. pocl does not
    fuse even without the FP_CONTRACT pragmas, so only a fusing device can fail this (an H200
    without them gave 2^-24: tools/device_opencl_check.sh runs it there)."""
    from plaidc.tile import compile_tile

    text = "function (A[N], B[N], C[N]) -> (O) { O = A * B + C; }"
    shape = (DType.FP32, (64,))
    program = compile_tile(text, "fma.tile", shapes={"A": shape, "B": shape, "C": shape}).program
    a = np.full(64, 1 + 2.0**-12, dtype=np.float32)
    c = np.full(64, -(1 + 2.0**-11), dtype=np.float32)
    for form in (program, pipelined(program, "opencl")):
        got = (
            get_backend("opencl").compile(form, load_target("opencl")).run({"A": a, "B": a, "C": c})
        )
        assert np.array_equal(got["O"], a * a + c) and not got["O"].any(), got["O"][:4]


@needs_opencl
@pytest.mark.parametrize("case", sorted(OVERLAPPING_ROWS))
def test_overlapping_output_rows_are_summed_exactly(case: str) -> None:
    check_overlapping_rows("opencl", case)


# Signed overflow wraps (numpy's, and the c backend's -fwrapv); OpenCL C leaves it undefined and
# compilers folded on it (`A + B > A` was always true, `abs(INT_MIN) < 0` false).
WRAPPING = [
    "function (A[N]:i32, B[N]:i32) -> (O) { O = A + B > A; }",
    "function (A[N]:i32, B[N]:i32) -> (O) { O = A * 2 - B; }",
    "function (A[N]:i32, B[N]:i32) -> (O) { O = abs(A) < 0; }",
    "function (A[N]:i32, B[N]:i32) -> (O) { O = -A; }",
    "function (A[N]:i32, B[N]:i32) -> (O) { O[0 : 1] = +(A[i] * B[i]); }",
    "function (A[N]:i64, B[N]:i64) -> (O) { O = A + B > A; }",
]


@needs_opencl
@pytest.mark.parametrize("text", WRAPPING)
def test_signed_overflow_wraps(text: str) -> None:
    from plaidc.tile import compile_tile

    dtype = DType.I64 if ":i64" in text else DType.I32
    info = np.iinfo(np.int64 if dtype is DType.I64 else np.int32)
    values = np.array([info.max, info.min, 5, -7, info.max - 1], dtype=info.dtype)
    ones = np.array([1, 1, 3, info.max, 2], dtype=info.dtype)
    program = compile_tile(text, "wrap.tile", shapes={"A": (dtype, (5,)), "B": (dtype, (5,))})
    compile_and_compare("opencl", program.program, {"A": values, "B": ones})
