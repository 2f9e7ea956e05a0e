"""Tile programs the C and OpenCL command-line tests both run."""

from __future__ import annotations

MIXED_AGGREGATION = """block []:1 (
    in X[0, 0] fp32(4, 3):(3, 1)
    out O[0]:assign fp32(1):(1)
) {
  0:
  block [i:4] (
      in X[i, 0] fp32(1, 3):(3, 1)
      out O[0]:add fp32(1):(1)
  ) {
    0:
    block [j:3] (
        in X[0, j] fp32(1, 1):(3, 1)
        out O[0]:max fp32(1):(1)
    ) {
      0: $x = load(X)
      1: O = store($x)
    }
  }
}
"""


PRNG = """block []:1 (
    in X[0] fp32(4):(1)
    out O[0] fp32(4):(1)
) {
  0: O = prng_step(X)
}
"""


SCATTER = """block []:1 (
    in E[0, 0] fp32(3, 2):(2, 1)
    in I[0] i32(3):(1)
    in V[0, 0] fp32(4, 2):(2, 1)
    out O[0, 0] fp32(4, 2):(2, 1)
) {
  0: O = scatter(E, I, V)
}
"""
