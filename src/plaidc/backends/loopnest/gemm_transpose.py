"""Transposing copies of a micro-kernel's operands as vector shuffles (see `gemm_pack`).

A micro-kernel reads B as panels `[k][j]` and A as row blocks `[k][r]`. Where an operand's
reduction is its contiguous dimension (a transposed product's B, `C[m, n] = +(A[m, k] *
B[n, k])`; A of most products), packing it transposes blocks of `R` rows of `L` contiguous
elements. Element by element that is one scalar load and store per element, and B's rows, a
power of two apart, fight over the same L1 sets: packing tmm 128x1024x1024's B so took 0.76 ms
of one core, a third of the product. As vectors it is `R` loads, `R` stores and `R log2 R`
two-input shuffles per block (a 16 x 16 block: 64, each one instruction, `vpermt2ps` on
AVX-512): 0.33 ms for that B, measured in C on this Xeon.
"""

from __future__ import annotations

from plaidc.backends.loopnest.names import Namer
from plaidc.backends.loopnest.plan import LetScalar, ScalarType, SExpr, SShuffle, Stmt, SVar


def is_power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


def transposable(rows: int, lanes: int) -> bool:
    """Whether blocks of `rows` rows of `lanes` elements transpose with `transposed`."""
    return rows >= 2 and lanes >= 2 and is_power_of_two(rows) and is_power_of_two(lanes)


def transposed(names: Namer, rows: list[SExpr], vt: ScalarType) -> tuple[list[Stmt], list[SExpr]]:
    """The block whose rows are `rows` (`R` vectors of `L` lanes, both powers of two) in
    column-major order, as `R` vectors: vector `q` holds elements `q*L .. q*L + L - 1` of the
    block's elements ordered by (lane, row), i.e. lane `l` of row `r` lands at flat position
    `l*R + r`. Computed by `log2(R)` rounds of the perfect shuffle: each round interleaves row
    `i` with row `i + R/2` (their low halves into row `2i`, their high halves into `2i + 1`).
    Returns the statements binding every round's vectors and the result vectors."""
    count, lanes = len(rows), vt.lanes
    assert transposable(count, lanes), (count, lanes)
    half = lanes // 2
    low = tuple(x for i in range(half) for x in (i, lanes + i))
    high = tuple(x for i in range(half, lanes) for x in (i, lanes + i))
    stmts: list[Stmt] = []
    current = list(rows)
    for _ in range(count.bit_length() - 1):
        following: list[SExpr] = []
        for i in range(count // 2):
            for mask in (low, high):
                name = names.fresh("t")
                stmts.append(
                    LetScalar(name, SShuffle(current[i], current[i + count // 2], mask, vt))
                )
                following.append(SVar(name, vt))
        current = following
    return stmts, current
