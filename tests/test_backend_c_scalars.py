"""Scalar semantics of the C backend: every intrinsic on every element type, against the
interpreter (numpy promotion with weakly typed constants, C integer division, NaN-propagating
max/min, shifts by large counts, fp16 rounding per operation, bf16 storage, casts).

Each case is a one-block program `O[i] = op(X[i], Y[i])` (or with a constant operand) whose
inputs include the values where C and numpy part ways: zeros, negatives, the type's extremes,
NaN and infinities for floats. `test_backend_llvm_scalars.py` runs the same cases on LLVM.
"""

from __future__ import annotations

import numpy as np
import pytest

from plaidc.interp import numpy_dtype
from plaidc.stripe.ir import DType
from plaidc.stripe.parser import parse_stripe

from .support.backend_c import compile_and_compare
from .support.backend_c_scalars import (
    CASES,
    N,
    _ids,
    run_case,
)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_c_scalar_semantics(case: tuple[str, str, int, str, str | None]) -> None:
    run_case("c", case)


@pytest.mark.parametrize("dtype", ["fp32", "fp16"])
def test_a_multiply_and_an_add_round_separately(dtype: str) -> None:
    """`X * Y - Z` with Z = X * Y rounded is 0, as numpy computes it; GNU C contracts `a * b + c`
    into one fma by default, which left the rounding error of X * Y (~1e-2 at 1000) in fp32, and
    with AVX512-FP16 made fp16 `X * Y + X` one vfmadd (its fp32 use then missed by 1e-3)."""
    text = f"""block []:1 (
    in X[0] {dtype}({N}):(1)
    in Y[0] {dtype}({N}):(1)
    in Z[0] {dtype}({N}):(1)
    out O[0] fp32({N}):(1)
    out P[0] fp32({N}):(1)
) {{
  0:
  block [i:{N}] (
      in X[i] {dtype}(1):(1)
      in Y[i] {dtype}(1):(1)
      in Z[i] {dtype}(1):(1)
      out O[i] fp32(1):(1)
      out P[i] fp32(1):(1)
  ) {{
    0: $x = load(X)
    1: $y = load(Y)
    2: $z = load(Z)
    3: $t = mul($x, $y)
    4: $o = sub($t, $z)
    5: O = store($o)
    6: $u = add($t, $x)
    7: P = store($u)
  }}
}}
"""
    npdt = numpy_dtype(DType(dtype))
    rng = np.random.default_rng(7)
    scale = 1000.0 if dtype == "fp32" else 1.0
    x = rng.uniform(0.5, 1, N).astype(npdt) * npdt.type(scale)
    y = rng.uniform(0.5, 1, N).astype(npdt) * npdt.type(scale)
    got = compile_and_compare("c", parse_stripe(text, "fma.stripe"), {"X": x, "Y": y, "Z": x * y})
    assert not got["O"].any()
