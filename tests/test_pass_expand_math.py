"""`expand-math`: tanh and constant integer powers rewritten into exp/div/mul, checked by the
interpreter (same outputs before and after) and on the NPU, whose ISA lacks them; so are the
trigonometric and hyperbolic functions, against numpy in float64 too."""

from __future__ import annotations

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import NpuArtifact
from plaidc.interp import numpy_dtype, run_program
from plaidc.passes.registry import PassOptionError, get_pass, make_options, parse_pass_spec
from plaidc.stripe.ir import Block, DType, Intrinsic
from plaidc.stripe.parser import parse_stripe
from plaidc.targets import load_target
from plaidc.tile import compile_tile


def program(body: str, dtype: str = "fp32", n: int = 40) -> Block:
    text = f"""block []:1 (
    in X[0] {dtype}({n}):(1)
    out Y[0] {dtype}({n}):(1)
) {{
  0:
  block [i:{n}] (
      in X[i] {dtype}(1):(1)
      out Y[i] {dtype}(1):(1)
  ) {{
    0: $x = load(X)
{body}
    9: Y = store($y)
  }}
}}
"""
    return parse_stripe(text, "expand.stripe")


def expand(prog: Block, spec: str = "expand-math") -> Block:
    name, raw = parse_pass_spec(spec)
    info = get_pass(name)
    return info.run(prog, make_options(info, raw))


def intrinsics(prog: Block) -> list[str]:
    block = prog.stmts[0]
    assert isinstance(block, Block)
    return [s.name for s in block.stmts if isinstance(s, Intrinsic)]


def values(dtype: str, n: int = 40) -> np.ndarray:
    rng = np.random.default_rng(11)
    special = [0.0, -0.0, 1e-4, -1e-4, 0.5, -3.0, 20.0, -20.0, 100.0, -100.0, np.inf, -np.inf]
    x = np.concatenate([special, rng.uniform(-4, 4, n - len(special))])
    if DType(dtype).is_float:
        return x.astype(np.float16 if dtype == "fp16" else np.float32)
    return rng.integers(-9, 9, n).astype(np.int32)


@pytest.mark.parametrize("dtype", ["fp32", "fp16"])
def test_tanh_becomes_exp_and_division(dtype: str) -> None:
    before = program("    1: $y = tanh($x)", dtype)
    after = expand(before)
    assert "tanh" not in intrinsics(after)
    assert {"exp", "div"} <= set(intrinsics(after))
    x = {"X": values(dtype)}
    mismatches = driver.compare_outputs(run_program(before, x), run_program(after, x))
    assert not mismatches, mismatches[0].message


def test_fp16_tanh_computes_in_fp32() -> None:
    """In fp16, 1 - 2 / (exp(2x) + 1) is off by up to ~5e-4 near 0 (tanh(0.038) came out 2%
    low, and `tanh(X) * 64` in fp16 failed --check on the NPU); computed in fp32 and rounded
    once, it is within one fp16 ulp of numpy's fp16 tanh."""
    after = expand(program("    1: $y = tanh($x)", "fp16", 400))
    x = np.random.default_rng(5).uniform(-1, 1, 400).astype(np.float16)
    got = run_program(after, {"X": x})["Y"]
    assert got.dtype == np.float16
    want = np.tanh(x)
    ulps = np.abs(got.astype(np.float64) - want) / np.spacing(np.abs(want))
    assert ulps.max() <= 1, f"{ulps.max()} fp16 ulps"


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 8, 13])
@pytest.mark.parametrize("dtype", ["fp32", "i32"])
def test_integer_powers_become_products(n: int, dtype: str) -> None:
    before = program(f"    1: $c = (int){n}\n    2: $y = pow($x, $c)", dtype)
    after = expand(before)
    names = intrinsics(after)
    assert "pow" not in names
    assert names.count("mul") == (n.bit_length() - 1) + (bin(n).count("1") - 1)
    x = {"X": values(dtype)}
    mismatches = driver.compare_outputs(run_program(before, x), run_program(after, x))
    assert not mismatches, mismatches[0].message


@pytest.mark.parametrize(
    "body",
    [
        "    1: $c = (i32)2\n    2: $y = pow($x, $c)",  # strongly typed: may promote x
        "    1: $c = (float)0\n    2: $y = pow($x, $c)",  # x ** 0.0 is 1, even for NaN
        "    1: $c = (int)40\n    2: $y = pow($x, $c)",  # above max_power
    ],
)
def test_other_powers_are_left_alone(body: str) -> None:
    before = program(body)
    assert expand(before) == before


def test_integer_tensor_powers_are_left_alone() -> None:
    before = program("    1: $y = pow($x, $x)", "i32")  # integer semantics: no exp/log
    assert expand(before) == before


POW_BASES = [-3, -2.5, -1, -0.5, -0.0, 0, 0.5, 1, 2, 7.5, np.inf, -np.inf, np.nan, 40]
POW_EXPONENTS = [-3, -2, -1.5, -1, 0, 0.5, 1, 2, 3, 2.5, np.nan, np.inf, -np.inf, 1e30, 33, 0.1]


def tensor_power(dtype: str, n: int) -> Block:
    text = f"""block []:1 (
    in X[0] {dtype}({n}):(1)
    in E[0] {dtype}({n}):(1)
    out Y[0] {dtype}({n}):(1)
) {{
  0:
  block [i:{n}] (
      in X[i] {dtype}(1):(1)
      in E[i] {dtype}(1):(1)
      out Y[i] {dtype}(1):(1)
  ) {{
    0: $x = load(X)
    1: $e = load(E)
    2: $y = pow($x, $e)
    3: Y = store($y)
  }}
}}
"""
    return parse_stripe(text, "pow.stripe")


@pytest.mark.parametrize("dtype", ["fp32", "fp16"])
def test_tensor_powers_follow_numpy(dtype: str) -> None:
    """pow(x, y) of two float tensors becomes exp(y ln|x|) with numpy's cases: the sign of
    odd integral powers of negative bases (and -0.0), NaN for fractional ones, 1 for y = 0,
    x = 1 and (-1) ** inf, (-inf) ** y; then random bases and exponents."""
    npdt = np.float16 if dtype == "fp16" else np.float32
    pairs = [(x, y) for x in POW_BASES for y in POW_EXPONENTS]
    rng = np.random.default_rng(3)
    x = np.concatenate([[p[0] for p in pairs], rng.uniform(0.1, 6, 300)]).astype(npdt)
    e = np.concatenate([[p[1] for p in pairs], rng.uniform(-6, 6, 300)]).astype(npdt)
    after = expand(tensor_power(dtype, len(x)))
    assert "pow" not in intrinsics(after)
    got = run_program(after, {"X": x, "E": e})["Y"]
    with np.errstate(all="ignore"):
        want = np.power(x, e)
    rtol = 1e-3 if dtype == "fp16" else 1e-5  # ~ulp times |y ln x| (36 for (-3) ** 33)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0)
    assert (np.signbit(got) == np.signbit(want))[~np.isnan(want) & (want != 0)].all()


@pytest.mark.parametrize(
    "exponent",
    [
        "(float)2",
        "(float)3",
        "(float)-2",
        "(float)0.5",
        "(float)1.5",
        "(float)-0.5",
        "(fp32)2",
        "(fp16)2.5",
    ],
)
@pytest.mark.parametrize("dtype", ["fp32", "fp16", "i32"])
def test_float_constant_powers(exponent: str, dtype: str) -> None:
    """x ** c for a float constant: promoted as the power promotes (an int x becomes fp64,
    fp16 x with an fp32 c fp32), then products or exp(c ln x); NaN for negative x with a
    non-integer c, as numpy."""
    before = program(f"    1: $c = {exponent}\n    2: $y = pow($x, $c)", dtype)
    after = expand(before)
    assert "pow" not in intrinsics(after)
    x = {"X": values(dtype)}
    if (dtype, exponent) == ("fp16", "(float)0.5"):
        # numpy's x ** 0.5 is sqrt(x) for fp32/fp64 (NaN at -inf) but powf for fp16 (inf);
        # the rewrite is sqrt for every type
        x["X"][np.isneginf(x["X"])] = 0
    mismatches = driver.compare_outputs(run_program(before, x), run_program(after, x))
    assert not mismatches, mismatches[0].message


@pytest.mark.parametrize("n", [1, 2, 3, 7])
@pytest.mark.parametrize("dtype", ["fp32", "fp16"])
def test_negative_integer_powers_of_floats_are_reciprocals(n: int, dtype: str) -> None:
    """`x ** -n` (a weak int exponent) of a float x: `1 / x ** n`; an int x keeps the pow
    (numpy refuses negative integer powers of integers)."""
    body = f"    1: $c = (int){n}\n    2: $m = neg($c)\n    3: $y = pow($x, $m)"
    before = program(body, dtype)
    after = expand(before)
    assert "pow" not in intrinsics(after) and "div" in intrinsics(after)
    x = {"X": values(dtype)}
    mismatches = driver.compare_outputs(run_program(before, x), run_program(after, x))
    assert not mismatches, mismatches[0].message
    assert expand(program(body, "i32")) == program(body, "i32")


@pytest.mark.parametrize("dtype", ["fp32", "fp16"])
def test_the_zeroth_power_of_a_float_is_one_of_its_type(dtype: str) -> None:
    body = "    1: $c = (int)0\n    2: $y = pow($x, $c)"
    after = expand(program(body, dtype))
    assert intrinsics(after) == ["as_float"]
    x = values(dtype)
    x[3] = np.nan
    got = run_program(after, {"X": x})["Y"]
    assert got.dtype == x.dtype and (got == 1).all()
    assert expand(program(body, "i32")) == program(body, "i32")  # x ** 0 keeps x's int type


@pytest.mark.parametrize("base", ["(float)2", "(int)2", "(float)0.5", "(float)10", "(int)7"])
@pytest.mark.parametrize("dtype", ["fp32", "fp16"])
def test_constant_bases_become_exponentials(base: str, dtype: str) -> None:
    """`c ** y` for a weak constant c > 0 and a float tensor y: exp(y ln c) in y's type,
    against numpy (inf, -inf, NaN, 0 and large exponents among the values)."""
    text = f"    1: $c = {base}\n    2: $y = pow($c, $x)"
    before = program(text, dtype)
    after = expand(before)
    assert "pow" not in intrinsics(after)
    x = values(dtype)
    got = run_program(after, {"X": x})["Y"]
    c = float(base.split(")")[1])
    with np.errstate(all="ignore"):
        want = np.power(np.float64(c), x.astype(np.float64)).astype(x.dtype)
    rtol = 1e-3 if dtype == "fp16" else 2e-5  # ~ulp times |y ln c| (100 ln 10 = 230)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0)
    for kept in ("(float)1", "(float)0", "(float)-2"):  # 1 ** NaN is 1; 0 ** y; negative
        alone = program(f"    1: $c = {kept}\n    2: $y = pow($c, $x)", dtype)
        assert expand(alone) == alone


SHIFT_TYPES = ["i8", "u8", "i16", "u16", "i32", "u32", "i64"]


def int_values(dtype: str, n: int = 40) -> np.ndarray:
    """The type's extremes, -1, 0, 1 and random values across its range."""
    info = np.iinfo(numpy_dtype(DType(dtype)))
    edges = [info.min, info.min + 1, -1, 0, 1, info.max - 1, info.max]
    edges = [e for e in edges if info.min <= e <= info.max]
    rng = np.random.default_rng(5)
    rest = rng.integers(info.min, info.max, n - len(edges), dtype=info.dtype, endpoint=True)
    return np.concatenate([np.array(edges, dtype=info.dtype), rest])


@pytest.mark.parametrize("dtype", SHIFT_TYPES)
@pytest.mark.parametrize("op", ["bit_left", "bit_right"])
def test_constant_shifts_become_arithmetic(op: str, dtype: str) -> None:
    """`x << n` and `x >> n` for every count below the width: products and (floor) quotients,
    equal to numpy's shifts on the extremes of the type; other counts are left alone."""
    bits = 8 * DType(dtype).byte_size
    x = {"X": int_values(dtype)}
    for n in sorted({0, 1, 3, bits // 2, bits - 2, bits - 1}):
        before = program(f"    1: $c = (int){n}\n    2: $y = {op}($x, $c)", dtype)
        after = expand(before)
        assert op not in intrinsics(after), n
        mismatches = driver.compare_outputs(run_program(before, x), run_program(after, x))
        assert not mismatches, f"{op} {n}: {mismatches[0].message}"
    too_far = program(f"    1: $c = (int){bits}\n    2: $y = {op}($x, $c)", dtype)
    assert expand(too_far) == too_far


def test_npu_pipeline_runs_constant_shifts() -> None:
    program_text = "function (X[N]) -> (Y, Z) { Y = (X << 3) + (X >> 2); Z = X >> 31; }"
    prog = compile_tile(program_text, "shift.tile", shapes={"X": (DType.I32, (70,))}).program
    steps = driver.resolve_steps(load_target("npu").stage())
    artifact = get_backend("npu").compile(driver.run_pipeline(prog, steps), load_target("npu"))
    x = {"X": int_values("i32", 70)}
    mismatches = driver.compare_outputs(run_program(prog, x), artifact.run(x))
    assert not mismatches, mismatches[0].message


def test_ops_option_selects_rewrites() -> None:
    before = program("    1: $t = tanh($x)\n    2: $c = (int)2\n    3: $y = pow($t, $c)")
    only_pow = expand(before, "expand-math{ops=[pow]}")
    assert "tanh" in intrinsics(only_pow) and "pow" not in intrinsics(only_pow)
    with pytest.raises(PassOptionError, match="option 'ops': expected a list of \"tanh\""):
        expand(before, "expand-math{ops=[erf]}")


def check_on_the_npu(text: str, limit: float, seed: int) -> None:
    """`text` (input X of 9 x 70 fp32 in [-limit, limit]) through the npu target's pipeline
    and backend, against the interpreter."""
    prog = compile_tile(text, "act.tile", shapes={"X": (DType.FP32, (9, 70))}).program
    cfg = load_target("npu")
    compiled = driver.run_pipeline(prog, driver.resolve_steps(cfg.stage("default")))
    artifact = get_backend("npu").compile(compiled, cfg)
    assert isinstance(artifact, NpuArtifact)
    x = {"X": np.random.default_rng(seed).uniform(-limit, limit, (9, 70)).astype(np.float32)}
    mismatches = driver.compare_outputs(run_program(prog, x), artifact.run(x))
    assert not mismatches, mismatches[0].message


def test_npu_pipeline_runs_tanh_and_powers() -> None:
    """An MLP-style activation the NPU's ISA lacks, through the npu target's pipeline."""
    check_on_the_npu("function (X[N, M]) -> (Y) { Y = tanh(X) + pow(X, 3); }", 5, 2)


def test_npu_pipeline_runs_tensor_powers() -> None:
    check_on_the_npu("function (X[N, M]) -> (Y) { Y = pow(X, X - 1); }", 4, 5)


NUMPY = {"asin": np.arcsin, "acos": np.arccos, "atan": np.arctan}
TRIG = ["sin", "cos", "tan", "atan", "asin", "acos", "sinh", "cosh"]


def trig_values(fn: str, dtype: str, n: int = 400) -> np.ndarray:
    """Random values over the function's interesting range, with the special ones."""
    limit = {"asin": 1.0, "acos": 1.0, "sinh": 89.0, "cosh": 89.0}.get(fn, 1000.0)
    if dtype == "fp16":
        limit = min(limit, 11.0 if fn in ("sinh", "cosh") else limit)
    rng = np.random.default_rng(3)
    x = rng.uniform(-limit, limit, n)
    x[:12] = [0, -0.0, 1e-4, -1e-4, 0.25, -0.5, 0.7, 1.0, -1.0, np.inf, -np.inf, np.nan]
    x[12:16] = [limit, -limit, np.pi / 2, 3 * np.pi / 4]
    if dtype == "i32":
        return rng.integers(-1 if fn in ("asin", "acos") else -800, 2, n).astype(np.int32)
    return x.astype(np.float16 if dtype == "fp16" else np.float32)


@pytest.mark.parametrize("dtype", ["fp32", "fp16", "i32"])
@pytest.mark.parametrize("fn", TRIG)
def test_trigonometry_becomes_polynomials_and_exponentials(fn: str, dtype: str) -> None:
    before = compile_tile(
        f"function (X[N]) -> (Y) {{ Y = {fn}(X); }}",
        "trig.tile",
        shapes={"X": (DType(dtype), (400,))},
    ).program
    after = expand(before)
    block = after.stmts[0].stmts[0]  # type: ignore[union-attr]
    assert isinstance(block, Block)
    names = {s.name for s in block.stmts if isinstance(s, Intrinsic)}
    assert fn not in names
    x = {"X": trig_values(fn, dtype)}
    got = run_program(after, x)
    mismatches = driver.compare_outputs(run_program(before, x), got)
    assert not mismatches, mismatches[0].message
    # and against numpy in float64: fp32 results within 2e-7 absolute or 1e-6 relative (sinh
    # and cosh 1e-5: x - ln 2 is rounded)
    if dtype == "fp32":
        with np.errstate(all="ignore"):
            truth = NUMPY.get(fn, getattr(np, fn))(x["X"].astype(np.float64))
        rtol = 1e-5 if fn in ("sinh", "cosh") else 1e-6
        np.testing.assert_allclose(got["Y"], truth, rtol=rtol, atol=2e-7)


def test_npu_pipeline_runs_trigonometry() -> None:
    check_on_the_npu(
        "function (X[N, M]) -> (Y) { Y = sin(X) * cos(X) + atan(X) - sinh(X / 8.0); }", 50, 4
    )


def test_npu_pipeline_runs_float_powers() -> None:
    """Float exponents, one written `-2.0` (Tile's `neg((float)2.0)`, folded)."""
    check_on_the_npu(
        "function (X[N, M]) -> (Y) { Y = pow(abs(X), 0.5) + pow(abs(X) + 1.0, 1.5)"
        " + pow(X, -2.0) + pow(abs(X), 0.3) + pow(X, -3) + pow(2.0, X); }",
        3,
        5,
    )
