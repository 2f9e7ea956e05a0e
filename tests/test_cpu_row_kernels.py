"""Row-wise kernels on the CPU targets: float max/min reductions vectorise on c (a NaN-ignoring
reduction plus a NaN flag) and still propagate NaN as numpy does; softmax and layernorm become
one block per row (`fuse_rows`), their intermediates a row-sized buffer."""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
import shutil
import subprocess

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.c.emit import emit_c
from plaidc.backends.loopnest import exp_poly, lower_program
from plaidc.backends.loopnest.scope import LoweringOptions
from plaidc.stripe.ir import Block, DType
from plaidc.targets import load_target
from plaidc.tile import compile_tile

MAX_MIN = "function (X[B, N]) -> (M, L) { M[b : B] = >(X[b, n]); L[b : B] = <(X[b, n]); }"


def pipelined(source: str, target: str, **shapes: tuple[int, ...]) -> Block:
    typed = {name: (DType.FP32, shape) for name, shape in shapes.items()}
    program = compile_tile(source, "rows.tile", shapes=typed).program
    config = load_target(target)
    return driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))


@pytest.mark.parametrize("target", ["c", "llvm"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_max_min_reductions_propagate_nan_and_infinities(target: str, dtype: type) -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((6, 37)).astype(dtype)
    x[1, 5] = np.nan  # one NaN among numbers
    x[2, :] = -np.inf  # all -inf: max is -inf, not the identity
    x[3, 7] = np.inf
    x[4, :] = np.nan
    x[5, 36] = np.nan  # in the vector loop's remainder
    typed = {"X": (DType(np.dtype(dtype).name.replace("float", "fp")), x.shape)}
    program = compile_tile(MAX_MIN, "mm.tile", shapes=typed).program
    config = load_target(target)
    optimised = driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))
    out = get_backend(target).compile(optimised, config).run({"X": x})
    np.testing.assert_array_equal(out["M"], np.max(x, axis=1))
    np.testing.assert_array_equal(out["L"], np.min(x, axis=1))


def test_c_float_max_reduction_is_an_openmp_max_reduction() -> None:
    program = pipelined(MAX_MIN, "c", X=(4, 64))
    flagged = emit_c(lower_program(program, LoweringOptions(nan_flagged_minmax=True)))
    assert "reduction(max:" in flagged and "reduction(min:" in flagged
    plain = emit_c(lower_program(program, LoweringOptions()))
    assert "reduction(max:" not in plain


SOFTMAX = """function (X[B, N]) -> (Y) {
  M[b, 0 : B, 1] = >(X[b, n]);
  E = exp(X - M);
  S[b, 0 : B, 1] = +(E[b, n]);
  Y = E / S;
}"""


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_softmax_is_one_block_per_row(target: str) -> None:
    program = pipelined(SOFTMAX, target, X=(512, 1000))
    (main,) = [s for s in program.stmts if isinstance(s, Block)]
    kernels = [s for s in main.stmts if isinstance(s, Block)]
    assert len(kernels) == 1
    (rows,) = kernels  # blocks of whole rows
    tiles = math.prod(i.range for i in rows.idxs)
    assert tiles > 1
    # E lives in the block's window of Y (`store-in-output`): a block's rows, not the tensor
    assert not any(r.into == "E" for r in rows.refs)
    y = next(r for r in rows.refs if r.into == "Y")
    assert y.shape.sizes == (512 // tiles, 1000)
    x = np.random.default_rng(1).standard_normal((512, 1000)).astype(np.float32)
    out = get_backend(target).compile(program, load_target(target)).run({"X": x})
    e_ref = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out["Y"], e_ref / e_ref.sum(axis=1, keepdims=True), rtol=1e-5)


EXP = "function (X[N]) -> (Y) { Y = exp(X); }"


def exp_inputs() -> np.ndarray:
    """Edge values, every float32 near the overflow and underflow thresholds, a dense grid over
    the finite results and random bit patterns (any float32, NaNs and subnormals included)."""
    f32 = np.float32
    edges = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, f32(88.72283), f32(88.72284)]
    edges += [f32(-87.33654), f32(-103.97208), f32(-103.97209), f32(-104.0), f32(89.0), 1e-30]
    edges += [np.finfo(f32).max, -np.finfo(f32).max, np.finfo(f32).tiny, 1e-45, -1e-45]
    near = [np.arange(a, a + 20000, dtype=np.uint32) for a in (0x42B17000, 0xC2AE0000, 0xC2CF0000)]
    grid = np.linspace(-104.5, 89.5, 200_001, dtype=np.float32)
    bits = np.random.default_rng(7).integers(0, 1 << 32, 300_000, dtype=np.uint64)
    parts = [np.array(edges, dtype=f32), *(n.view(f32) for n in near), grid]
    return np.concatenate([*parts, bits.astype(np.uint32).view(f32)])


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_polynomial_exp_is_within_its_stated_ulps_with_numpy_specials(target: str) -> None:
    x = exp_inputs()
    program = pipelined(EXP, target, X=x.shape)
    config = load_target(target)
    config = dataclasses.replace(config, codegen={**config.codegen, "exp": "polynomial"})
    y = get_backend(target).compile(program, config).run({"X": x})["Y"]
    err = exp_poly.ulp_errors(x, y)  # the measure of tools/exp_poly.py's exhaustive check
    assert float(err.max()) <= exp_poly.MAX_ULP, x[np.argmax(err)]
    assert float(err.max()) > 0.5  # a measure that would see a wrong rounding
    with np.errstate(over="ignore", invalid="ignore"):
        ref = np.exp(x)  # numpy's float32 exp: the special values exactly
    special = ~np.isfinite(ref) | (ref == 0) | (x == 0) | np.isnan(x)
    np.testing.assert_array_equal(y[special], ref[special])


def test_c_polynomial_exp_on_avx512_gives_the_portable_bits() -> None:
    """The AVX-512 code (vscalefps, SIMD clones) and the portable code round the same steps
    once, so they agree bit for bit; `-mno-avx512f` makes gcc compile the portable one."""
    x = exp_inputs()
    program = pipelined(EXP, "c", X=x.shape)
    config = load_target("c")
    results = {}
    for name, cflags in (("native", []), ("portable", ["-mno-avx512f"])):
        codegen = {**config.codegen, "exp": "polynomial", "cflags": cflags}
        artifact = get_backend("c").compile(program, dataclasses.replace(config, codegen=codegen))
        assert "#if defined(__AVX512F__)" in artifact.source
        assert "_ZGVeN16v_plaidc_exp_f32" in artifact.source
        results[name] = artifact.run({"X": x})["Y"]
    native, portable = results["native"], results["portable"]
    same = (native.view(np.uint32) == portable.view(np.uint32)) | (
        np.isnan(native) & np.isnan(portable)
    )
    assert same.all(), x[~same][:5]


def test_c_polynomial_exp_is_inlined_avx512_code_on_an_avx512_host() -> None:
    """The loop is written with vectors (`vector_exp_loops`), so the 16-lane code is inlined
    (one vscalefps on zmm registers) instead of called as the SIMD clone."""
    from plaidc.targets.host import host_facts

    objdump = shutil.which("objdump")
    if host_facts().values["vector_bytes"] < 64 or objdump is None:
        pytest.skip("needs an AVX-512 host and objdump")
    program = pipelined(EXP, "c", X=(4099,))
    config = load_target("c")
    config = dataclasses.replace(config, codegen={**config.codegen, "exp": "polynomial"})
    artifact = get_backend("c").compile(program, config)
    text = subprocess.run([objdump, "-d", str(artifact.library)], capture_output=True, text=True)
    # the program's own functions (not the exp's definitions: clones, scalar function)
    functions = re.split(r"\n(?=[0-9a-f]+ <)", text.stdout)
    own = [f for f in functions if re.match(r"[0-9a-f]+ <(kernel|plaidc_entry)", f)]
    assert own
    code = "\n".join(own).splitlines()
    assert not any("call" in ln and "_ZGVeN16v_plaidc_exp_f32" in ln for ln in code)
    assert any("vscalefps" in ln and "zmm" in ln for ln in code)
    x = np.linspace(-110, 95, 4099, dtype=np.float32)
    y = artifact.run({"X": x})["Y"]
    assert float(exp_poly.ulp_errors(x, y).max()) <= exp_poly.MAX_ULP


def test_polynomial_exp_is_inline_and_vectorised() -> None:
    from plaidc.backends.llvm import LLVMCodegen
    from plaidc.backends.llvm.emit import emit_llvm
    from plaidc.backends.llvm.jit import optimised_ir
    from plaidc.backends.loopnest.options import lowering_options

    program = pipelined(EXP, "c", X=(4096,))
    source = emit_c(lower_program(program, LoweringOptions()), polynomial_exp=True)
    assert "plaidc_exp_f32(" in source and "expf(" not in source
    program = pipelined(EXP, "llvm", X=(4096,))
    options, _ = lowering_options(load_target("llvm").codegen, "llvm", LLVMCodegen)
    module, _ = emit_llvm(lower_program(program, options), polynomial_exp=True)
    optimised = optimised_ir(str(module))
    calls = [ln for ln in optimised.splitlines() if "call" in ln]
    assert not any(name in ln for ln in calls for name in ("@plaidc.exp", "@expf", "_ZGV"))
    assert "fma.v" in optimised  # the polynomial's multiply-adds on vectors
    assert "llvm.ldexp.v" in optimised  # the scaling by 2^k on vectors (vscalefps on AVX-512)


def test_llvm_and_c_polynomial_exps_give_the_same_bits() -> None:
    """Both round the same steps once (llvm.ldexp, vscalefps or the portable two products)."""
    x = exp_inputs()
    results = []
    for target in ("c", "llvm"):
        program = pipelined(EXP, target, X=x.shape)
        config = load_target(target)
        config = dataclasses.replace(config, codegen={**config.codegen, "exp": "polynomial"})
        results.append(get_backend(target).compile(program, config).run({"X": x})["Y"])
    c_y, llvm_y = results
    same = (c_y.view(np.uint32) == llvm_y.view(np.uint32)) | (np.isnan(c_y) & np.isnan(llvm_y))
    assert same.all(), x[~same][:5]


LAYERNORM = """function (X[B, N], Gamma[N], Beta[N]) -> (Y) {
  S[b, 0 : B, 1] = +(X[b, n]);
  Mean = S / N;
  D = X - Mean;
  D2 = D * D;
  V[b, 0 : B, 1] = +(D2[b, n]);
  Var = V / N;
  Y = D / sqrt(Var + 1e-5) * Gamma + Beta;
}"""


def special_rows(rows: int, cols: int, seed: int) -> np.ndarray:
    x = (np.random.default_rng(seed).standard_normal((rows, cols)) * 4).astype(np.float32)
    x[1, cols // 2] = np.nan
    x[2, :] = -np.inf
    x[3, cols - 1] = np.inf  # in the vector loop's remainder
    x[4, :] = 1e4  # constant row: variance 0
    x[5, ::3] = -200.0  # exp underflows to 0 for these
    return x


@pytest.mark.parametrize("target", ["c", "llvm"])
@pytest.mark.parametrize(("rows", "cols"), [(7, 99), (13, 4099), (6, 1 << 15)])
def test_softmax_and_layernorm_on_ragged_and_special_rows(
    target: str, rows: int, cols: int
) -> None:
    x = special_rows(rows, cols, cols)
    config = load_target(target)
    program = pipelined(SOFTMAX, target, X=x.shape)
    with np.errstate(invalid="ignore"):
        e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
        want = e / e.sum(axis=1, keepdims=True)
    got = get_backend(target).compile(program, config).run({"X": x})["Y"]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-30)  # x - max rounds
    rng = np.random.default_rng(3)
    gamma, beta = rng.standard_normal((2, cols)).astype(np.float32)
    program = pipelined(LAYERNORM, target, X=x.shape, Gamma=(cols,), Beta=(cols,))
    out = get_backend(target).compile(program, config).run({"X": x, "Gamma": gamma, "Beta": beta})
    with np.errstate(invalid="ignore"):
        xd = x.astype(np.float64)
        d = xd - xd.mean(axis=1, keepdims=True)
        want = d / np.sqrt((d * d).mean(axis=1, keepdims=True) + 1e-5) * gamma + beta
    np.testing.assert_allclose(out["Y"], want, rtol=1e-4, atol=2e-4)


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_row_blocks_fit_half_of_l1_and_long_rows_still_fuse(target: str) -> None:
    config = load_target(target)
    l1 = config.hardware["l1_bytes"]
    for cols, fits in ((4096, True), (l1, False)):  # a row of l1 floats: 4 x L1
        program = pipelined(SOFTMAX, target, X=(64, cols))
        (main,) = [s for s in program.stmts if isinstance(s, Block)]
        (rows,) = [s for s in main.stmts if isinstance(s, Block)]
        y = next(r for r in rows.refs if r.into == "Y")  # E lives in it (store-in-output)
        row_bytes = math.prod(y.shape.sizes) * 4
        assert (row_bytes <= l1 // 2) == fits
        assert y.shape.sizes[1] == cols


def test_llvm_prefers_the_configured_vector_width() -> None:
    from plaidc.backends.llvm.emit import emit_llvm
    from plaidc.backends.llvm.jit import optimised_ir

    program = pipelined(SOFTMAX, "llvm", X=(8, 1024))
    plan = lower_program(program, LoweringOptions())
    for bits, lanes in ((512, 16), (256, 8), (128, 4)):
        module, _ = emit_llvm(plan, vector_bits=bits)
        assert f"<{lanes} x float>" in optimised_ir(str(module))
        assert f"<{lanes * 2} x float>" not in optimised_ir(str(module))


# An elementwise loop and the sum of what it computes over the same rows (`fuse_row_sums`):
# one loop that stores and reduces. Y2 is an output too, so the fused loop keeps its store.
SQUARES_SUM = """function (X[B, N]) -> (Y2, Y) {
  M[b, 0 : B, 1] = >(X[b, n]);
  Y2 = (X - M) * (X - M);
  S[b, 0 : B, 1] = +(Y2[b, n]);
  Y = Y2 / (S + 1);
}"""


def loop_bodies(source: str) -> list[tuple[str, str]]:
    """(pragma line, body up to the next loop) for every C `for` of the generated code."""
    parts = source.split("for (")
    pairs = itertools.pairwise(parts)
    return [(head.rstrip().splitlines()[-1].strip(), body) for head, body in pairs]


@pytest.mark.parametrize("target", ["c", "llvm"])
@pytest.mark.parametrize(("rows", "cols"), [(6, 37), (9, 4099)])
def test_elementwise_loop_and_its_row_sum_run_as_one_vector_loop(
    target: str, rows: int, cols: int
) -> None:
    x = special_rows(rows, cols, rows)
    program = pipelined(SQUARES_SUM, target, X=x.shape)
    out = get_backend(target).compile(program, load_target(target)).run({"X": x})
    with np.errstate(invalid="ignore"):
        xd = x.astype(np.float64)
        y2 = (xd - xd.max(axis=1, keepdims=True)) ** 2
        want = y2 / (y2.sum(axis=1, keepdims=True) + 1)
    np.testing.assert_allclose(out["Y2"], y2, rtol=1e-6)
    np.testing.assert_allclose(out["Y"], want, rtol=1e-4, atol=1e-30)
    source = emit_c(lower_program(program, LoweringOptions(nan_flagged_minmax=True)))
    sums = [body for pragma, body in loop_bodies(source) if "reduction(+:" in pragma]
    assert len(sums) == 1 and "Y2[" in sums[0] and "S_acc +=" in sums[0], sums


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_softmax_and_layernorm_sum_in_the_loop_that_computes_the_terms(target: str) -> None:
    softmax = emit_c(lower_program(pipelined(SOFTMAX, target, X=(64, 4096)), LoweringOptions()))
    loops = loop_bodies(softmax)
    assert len(loops) == 4, loops  # rows; max; exp, store and sum; divide
    assert "reduction(+:" in loops[2][0] and "expf(" in loops[2][1]
    shapes = {"X": (64, 4096), "Gamma": (4096,), "Beta": (4096,)}
    layernorm = emit_c(lower_program(pipelined(LAYERNORM, target, **shapes), LoweringOptions()))
    loops = loop_bodies(layernorm)
    assert len(loops) == 4, loops  # rows; sum; D, D * D and its sum; normalise
    assert "reduction(+:" in loops[2][0] and "Y[" in loops[2][1]  # D is stored in Y's row
    assert "float D2[" not in layernorm  # D * D is a scalar in the loop that sums it
