"""plaidc's float32 exp (`plaidc.backends.loopnest.exp_poly`): derive its polynomial, measure it.

`python tools/exp_poly.py` fits P(r) ~ (e^r - 1 - r) / r^2 on [-ln2/2, ln2/2] by interpolation
at the Chebyshev nodes (near-minimax), rounds the coefficients to float32 and prints them with
the approximation's largest relative error of 1 + r + r^2 P(r) against exp, on a fine grid.

`python tools/exp_poly.py --check c|llvm [--exp library]` runs exp as the target's generated
code (plaidc's polynomial, or the math library's with `--exp library`) over every
float32 bit pattern (2^32, in chunks) and prints the largest error in ulps of the float32
result against float64 exp, and whether NaN, inf and 0 come out as numpy's float32 exp gives
them. It takes a few minutes.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

import numpy as np
from numpy.polynomial import chebyshev, polynomial

from plaidc.backends.loopnest.exp_poly import ulp_errors

DEGREE = 4
HALF_LN2 = float(np.log(2.0)) / 2


def remainder(r: np.ndarray) -> np.ndarray:
    """(e^r - 1 - r) / r^2, by its series near 0."""
    small = np.abs(r) < 1e-4
    safe = np.where(small, 1.0, r)
    return np.where(small, 0.5 + r / 6 + r * r / 24, (np.expm1(safe) - safe) / safe**2)


def derive() -> None:
    def on_unit(t: np.ndarray) -> np.ndarray:
        return remainder(t * HALF_LN2)

    coefs = chebyshev.Chebyshev(chebyshev.chebinterpolate(on_unit, DEGREE))
    mono = coefs.convert(kind=polynomial.Polynomial).coef / HALF_LN2 ** np.arange(DEGREE + 1)
    rounded = mono.astype(np.float32).astype(np.float64)
    r = np.linspace(-HALF_LN2, HALF_LN2, 2_000_001)
    approx = 1 + r + r * r * polynomial.polyval(r, rounded)
    print("POLY =", tuple(float(c) for c in rounded))
    print(f"max relative error of 1 + r + r^2 P(r): {np.max(np.abs(approx / np.exp(r) - 1)):.3g}")


def check(target: str, exp: str, chunk_bits: int, first: int = 0, end: int = 1 << 32) -> int:
    from plaidc import driver
    from plaidc.backends import get_backend
    from plaidc.stripe.ir import DType
    from plaidc.targets import load_target
    from plaidc.tile import compile_tile

    n = 1 << chunk_bits
    program = compile_tile(
        "function (X[N]) -> (Y) { Y = exp(X); }", "exp.tile", shapes={"X": (DType.FP32, (n,))}
    ).program
    config = load_target(target)
    config = dataclasses.replace(config, codegen={**config.codegen, "exp": exp})
    optimised = driver.run_pipeline(program, driver.resolve_steps(config.stage("default")))
    artifact = get_backend(target).compile(optimised, config)
    worst, worst_x = 0.0, 0.0
    for start in range(first, end, n):
        x = np.arange(start, start + n, dtype=np.uint64).astype(np.uint32).view(np.float32)
        y = artifact.run({"X": x})["Y"]
        err = ulp_errors(x, y)
        k = int(np.argmax(err))
        if err[k] > worst:
            worst, worst_x = float(err[k]), float(x[k])
    what = "all float32 inputs" if (first, end) == (0, 1 << 32) else f"bits {first:#x}..{end:#x}"
    print(f"{target} ({exp} exp): max error {worst:.4f} ulp over {what} (at x = {worst_x!r})")
    return 0 if np.isfinite(worst) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", metavar="TARGET", help="measure a target's generated exp")
    parser.add_argument(
        "--exp",
        choices=("polynomial", "library"),
        default="polynomial",
        help="which exp the target's code uses ([codegen] exp)",
    )
    parser.add_argument("--chunk-bits", type=int, default=24, help="inputs per run, log2")
    parser.add_argument(
        "--bits",
        nargs=2,
        type=lambda s: int(s, 0),
        default=(0, 1 << 32),
        metavar=("FIRST", "END"),
        help="only the bit patterns FIRST..END-1, e.g. 0xC2800000 0xC3000000 (x in [-128, -64))",
    )
    args = parser.parse_args()
    if args.check:
        return check(args.check, args.exp, args.chunk_bits, *args.bits)
    derive()
    return 0


if __name__ == "__main__":
    sys.exit(main())
