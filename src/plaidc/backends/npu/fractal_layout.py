"""Fractal layouts in UB rearranged by the vector unit (block-strided copies, `vmuls` by 1).

`fractal_rows` turns a Cube result brought out of L0C (`[No][Mo][fm][fn]` fractals) into
row-major rows; `ko_major_image` lays a row-major fp16 matrix out as the `[Ko][No]` fractals L1
holds, so that one transfer copies it there. Both move whole 32-B blocks, a repeat's worth
(`rb`, the config's vector repeat bytes: 8 blocks by default) under a full mask: a block stride
one apart on one side and a row (or a fractal row) apart on the other, so one instruction moves
a repeat's blocks of rows where a masked copy moves one row.
"""

from __future__ import annotations

from plaidc.backends.c import ast as c
from plaidc.backends.npu.ops import BLOCK, MASK_LANES, MAX_REPEAT, Buf, call, lit
from plaidc.stripe.ir import DType


def fractal_rows(
    rows: Buf, fractals: Buf, dtype: DType, rows_m: int, rows_n: int, fn: int, rb: int
) -> list[c.Stmt]:
    """Vector copies turning an L0C result in UB, `[No][Mo][fm][fn]` fractals of `dtype`,
    into row-major `[rows_m][rows_n]` rows. A fractal row is `fn` elements: whole 32-B blocks
    when `fn * size` is, and then each copy moves a repeat's blocks of rows at once (a full
    mask of `rb` bytes, one block stride apart in the source and a row apart in the
    destination), once per block of a fractal row and fractal column; otherwise one masked
    copy per row."""
    size, per = dtype.byte_size, rb // BLOCK
    row_blocks, frac_blocks = rows_n * size // BLOCK, fn * size // BLOCK
    no = rows_n // fn
    stmts: list[c.Stmt] = []
    if fn * size % BLOCK == 0 and rows_n * size % BLOCK == 0 and rows_m % per == 0:
        for n in range(no):
            for b in range(frac_blocks):
                for m0 in range(0, rows_m, per * MAX_REPEAT):
                    count = min(MAX_REPEAT, (rows_m - m0) // per)
                    stmts.append(
                        call(
                            "vmuls",
                            rows.ptr(dtype, (m0 * rows_n + n * fn) * size + b * BLOCK),
                            fractals.ptr(dtype, (n * rows_m + m0) * fn * size + b * BLOCK),
                            lit(1),
                            count,
                            row_blocks,
                            frac_blocks,
                            per * row_blocks,
                            per * frac_blocks,
                        )
                    )
        return stmts
    stmts.append(call("plaidc_mask", 0, fn))
    for n in range(no):
        for m0 in range(0, rows_m, MAX_REPEAT):
            count = min(MAX_REPEAT, rows_m - m0)
            stmts.append(
                call(
                    "vmuls",
                    rows.ptr(dtype, (m0 * rows_n + n * fn) * size),
                    fractals.ptr(dtype, (n * rows_m + m0) * fn * size),
                    lit(1),
                    count,
                    1,
                    1,
                    rows_n * size // BLOCK,
                    fn * size // BLOCK,
                )
            )
    stmts.append(call("plaidc_mask", 0, MASK_LANES))
    return stmts


def ko_major_image(
    image: Buf, ub: Buf, rows: int, cols: int, fr: int, f: int, rb: int
) -> list[c.Stmt]:
    """Vector copies of a row-major fp16 `rows x cols` matrix in UB (`ub`; rows K, one 32-B
    block per `f` columns) into `image` as L1 holds it `ko_major`: fractal (ko, no) at
    `ko * cols/f + no`, its `fr` rows of one block each. Each copy moves one fractal column's
    blocks of `rb` bytes' rows of every fractal (a full mask: a repeat a fractal; `fr` a
    multiple of them)."""
    strips, per = cols // f, rb // BLOCK
    stmts: list[c.Stmt] = []
    for no in range(strips):
        for h in range(0, fr, per):
            for ko in range(0, rows // fr, MAX_REPEAT):
                count = min(MAX_REPEAT, rows // fr - ko)
                stmts.append(
                    call(
                        "vmuls",
                        image.ptr(DType.FP16, ((ko * strips + no) * fr + h) * BLOCK),
                        ub.ptr(DType.FP16, ((ko * fr + h) * strips + no) * BLOCK),
                        lit(1),
                        count,
                        1,
                        strips,
                        strips * fr,
                        fr * strips,
                    )
                )
    return stmts
