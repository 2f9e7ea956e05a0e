"""plaidc's own float32 exp: range reduction, a polynomial of known error, exponent scaling.

The c and llvm backends emit it inline (`[codegen] exp = "polynomial"`), branch-free, so a
vectorised loop computes exp in its own registers instead of calling libm (scalar) or libmvec
(a call per vector). Both print the same steps from the constants below:

1. `xc = min(max(x, CLAMP_LO), CLAMP_HI)` with selects that keep NaN: exp(x) is 0 in float32
   below -103.98 and infinite above 88.73, and the clamped values still round to 0 and inf.
2. `k = round(xc * log2(e))` by adding and subtracting `SHIFT` (1.5 * 2^23), whose low bits
   then hold k as an integer (`kbits - SHIFT_BITS`).
3. `r = xc - k * ln2` in two fused multiply-adds (Cody and Waite: `LN2_HI` has 9 significant
   bits, so `k * LN2_HI` is exact for |k| <= 150), |r| <= ln2 / 2.
4. `exp(r) ~ 1 + r + r^2 * P(r)`, P of degree 4 in Horner form by fused multiply-adds. P's
   coefficients (`POLY`, rounded to float32) interpolate `(e^r - 1 - r) / r^2` at the Chebyshev
   nodes of [-ln2/2, ln2/2] (`tools/exp_poly.py` derives them and prints the bound), a
   near-minimax choice: the relative error of the approximation is at most 9.8e-9 (0.08 ulp);
   float32 rounding of the steps adds the rest.
5. `exp(x) = y * 2^k1 * 2^k2` with `k1 = k >> 1`, `k2 = k - k1`: both factors are normal
   floats for every k in [-150, 128], so results in the subnormal range round once, at the
   last product, and results past FLT_MAX overflow to inf as they should. Where the ISA has
   it, one `ldexp` rounding once gives the same bits: `vscalefps` on AVX-512 (the c backend's
   `exp_avx512`, llvm's `llvm.ldexp`).
6. NaN in, NaN out (the input itself is returned, or NaN propagates through the steps).

Measured against float64 exp over every float32 input (all 2^32 bit patterns): `MAX_ULP`
ulp (these steps compiled from C; `tools/exp_poly.py --check c|llvm` runs the generated code
the same way, e.g. 1.07 ulp over x in [-128, -64) on both, where libmvec's expf reaches 2.58
ulp); exact 0 and inf where numpy's float32 exp gives them, NaN for NaN, exp(0) = 1.
"""

from __future__ import annotations

import numpy as np

LOG2E = 1.4426950216293335  # float32(log2(e))
SHIFT = 12582912.0  # 1.5 * 2^23: adding it rounds to an integer in the low mantissa bits
SHIFT_BITS = 0x4B400000  # the bits of SHIFT as a float32
LN2_HI = 0.693359375  # ln2 to 9 bits
LN2_LO = -0.00021219444170128554  # float32(ln2 - LN2_HI)
CLAMP_LO = -104.0
CLAMP_HI = 89.0
# P(r) = POLY[0] + POLY[1] r + ... (float32 values, highest degree last)
POLY = (0.5, 0.16666577756404877, 0.041666556149721146, 0.008363173343241215, 0.0013926175888627768)
EXPONENT_BIAS = 127
MANTISSA_BITS = 23
# The largest error over all float32 inputs, in units in the last place of the float32 result
# (subnormal results: of the subnormal spacing), measured on the c and llvm code.
MAX_ULP = 1.09


def ulp_errors(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """|y - exp(x)| in units of the float32 spacing at exp(x) (NaN inputs: 0 if y is NaN)."""
    with np.errstate(over="ignore", invalid="ignore"):
        ref = np.exp(x.astype(np.float64))
        _, e = np.frexp(ref)
        ulp = np.ldexp(1.0, np.maximum(e - 24, -149))
        expected = ref.astype(np.float32)
        err = np.abs(y.astype(np.float64) - ref) / ulp
    err = np.where(np.isinf(expected) & (y == expected), 0.0, err)
    nan_in = np.isnan(x)
    return np.where(nan_in, np.where(np.isnan(y), 0.0, np.inf), err)
