"""The C backend's AVX-512 exp (`backends/c/exp_avx512.py`) is written with GCC's vector
extensions and builtins, not `immintrin.h` (whose parse was ~0.15 s of gcc's time per
softmax): every entry point (the inlined 16-lane code, the 4- and 8-lane SIMD clones, the
scalar function) gives the same bits with the builtins and with the intrinsics (the branch
other compilers get), within the polynomial's stated error, and gcc parses no intrinsics
header for it."""

from __future__ import annotations

import ctypes
import subprocess

import numpy as np
import pytest

from plaidc.backends.c import exp_avx512
from plaidc.backends.c.build import DEFAULT_FLAGS, build_library
from plaidc.backends.loopnest import exp_poly
from plaidc.backends.toolchain import find_compiler

GCC_BRANCH = "#if defined(__GNUC__) && !defined(__clang__)"

# How each entry point is called on 16 lanes at a time: the vector code inlined, each SIMD
# clone on its own lane count, and the scalar function lane by lane.
HARNESS = """
#include <string.h>
#if !defined(__AVX512F__)
#error "needs AVX-512"
#endif
%s
void plaidc_test_exp(const float *x, float *y, long n, int how) {
  for (long i = 0; i + 16 <= n; i += 16) {
    if (how == 0) {
      plaidc_m512 v;
      memcpy(&v, x + i, 64);
      v = plaidc_exp_f32_inline16(v);
      memcpy(y + i, &v, 64);
    } else if (how == 1) {
      for (int j = 0; j < 16; j += 4) {
        plaidc_m128 v;
        memcpy(&v, x + i + j, 16);
        v = plaidc_exp_f32_bx4(v);
        memcpy(y + i + j, &v, 16);
      }
    } else if (how == 2 || how == 3) {
      for (int j = 0; j < 16; j += 8) {
        plaidc_m256 v;
        memcpy(&v, x + i + j, 32);
        v = how == 2 ? plaidc_exp_f32_cx8(v) : plaidc_exp_f32_dx8(v);
        memcpy(y + i + j, &v, 32);
      }
    } else {
      for (int j = 0; j < 16; ++j) y[i + j] = plaidc_exp_f32_x1(x[i + j]);
    }
  }
}
"""


def _gcc() -> str:
    from plaidc.targets.host import host_facts

    if host_facts().values["vector_bytes"] < 64:
        pytest.skip("needs an AVX-512 host")
    compiler = find_compiler(None)
    version = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout
    if "clang" in version.lower():
        pytest.skip("the builtins are GCC's")
    return compiler


def _sources() -> dict[str, str]:
    gcc_ops = HARNESS % exp_avx512.definitions()
    assert GCC_BRANCH in gcc_ops
    return {"builtins": gcc_ops, "intrinsics": gcc_ops.replace(GCC_BRANCH, "#if 0")}


def _inputs() -> np.ndarray:
    f32 = np.float32
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 88.72, 88.73, -87.3, -103.9, -104.1, 89.5]
    grid = np.linspace(-110.0, 95.0, 40_000, dtype=f32)
    bits = np.random.default_rng(3).integers(0, 1 << 32, 20_000, dtype=np.uint64)
    x = np.concatenate([np.array(specials, dtype=f32), grid, bits.astype(np.uint32).view(f32)])
    return np.resize(x, (x.size + 15) // 16 * 16)


def test_builtins_and_intrinsics_give_the_same_bits_at_every_entry_point() -> None:
    compiler = _gcc()
    x = _inputs()
    results = {}
    for name, source in _sources().items():
        library = ctypes.CDLL(str(build_library(source, compiler, DEFAULT_FLAGS)))
        function = library.plaidc_test_exp
        function.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long, ctypes.c_int]
        for how in range(5):
            y = np.full_like(x, 7.0)
            function(x.ctypes.data, y.ctypes.data, x.size, how)
            results[name, how] = y
    reference = results["intrinsics", 0]
    finite = np.isfinite(x) & (x > exp_poly.CLAMP_LO) & (x < exp_poly.CLAMP_HI)
    assert float(exp_poly.ulp_errors(x[finite], reference[finite]).max()) <= exp_poly.MAX_ULP
    assert np.isnan(reference[np.isnan(x)]).all()
    for key, y in results.items():
        same = (y.view(np.uint32) == reference.view(np.uint32)) | (
            np.isnan(y) & np.isnan(reference)
        )
        assert same.all(), (key, x[~same][:5])


def test_gcc_parses_no_intrinsics_header_for_the_exp() -> None:
    compiler = _gcc()
    flags = [f for f in DEFAULT_FLAGS if f != "-shared"]
    headers = {}
    for name, source in _sources().items():
        run = subprocess.run(
            [compiler, *flags, "-H", "-fsyntax-only", "-x", "c", "-"],
            input=source,
            capture_output=True,
            text=True,
            check=True,
        )
        headers[name] = run.stderr
    assert "immintrin.h" not in headers["builtins"]
    assert "immintrin.h" in headers["intrinsics"]  # the check would see the header
