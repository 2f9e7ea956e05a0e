"""The C helpers a generated kernel includes: data movement the vector ISA builds from intrinsics.

The vector unit keeps an element's position within its 32-B block (lane i of every operand is
at the same block offset), and every operand must start on a block. So moving elements to
other positions inside UB (broadcasts, transposes, windows that start mid-block) is built from
the one instruction that writes a single element anywhere: a reduction (`vcmax`) over one
active lane, which copies that lane exactly (NaN payloads and -0.0 included). The helpers:

* `plaidc_spread_T`  stage A of a move: element i of a strided run -> lane 0 of block d(i) of a
                     scratch S (one vcmax per lane class of the run, whole runs per instruction);
* `plaidc_collect_T` stage B: lane 0 of S blocks 0..n-1 -> n contiguous elements (aligned start);
* `plaidc_lanes_T`   a run whose source stride is a multiple of a block (or 0: a broadcast) ->
                     contiguous elements from an aligned start, in one stage;
* `plaidc_copy_T`    a contiguous run to a position with the same offset in its block: plain
                     vector copies (x * 1) whose masks spare the neighbours;
* `plaidc_fill_T`    a constant over any range (masked vector_dup);
* `plaidc_fillcols_T` a constant over the same columns of rows a whole number of blocks apart
                     (one masked vector_dup per repeat-wide band of columns and 255 rows);
* `plaidc_r{add,max,min}_T` row reductions (fold rows longer than a repeat in place, then
                     vcadd/vcmax/vcmin one repeat per row);
* `plaidc_rmul_T`    row products (fold in place down to one block, then lane by lane).

Each helper is a template instantiated per lane type (T = half, float, int32_t); the emitter
includes only those a kernel calls. Every number the hardware defines comes from the ISA
(32-B blocks, 256-B repeats, 255 repeats per instruction), none from the machine size.
"""

from __future__ import annotations

from plaidc.backends.npu.ops import (
    BLOCK,
    C_TYPES,
    MASK_LANES,
    MAX_REPEAT,
    SUFFIX,
    elems_per_block,
)
from plaidc.stripe.ir import DType

COMMON = r"""
static inline int64_t plaidc_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t plaidc_max(int64_t a, int64_t b) { return a > b ? a : b; }
/* Floor division by a positive divisor (C's / truncates toward zero). */
static inline int64_t plaidc_floordiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}
static inline int64_t plaidc_gcd(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}
/* Activate lanes [lo, hi) of the 128-lane vector mask. */
static inline void plaidc_mask(int64_t lo, int64_t hi) {
  uint64_t m[2] = {0, 0};
  for (int64_t i = lo; i < hi; ++i) m[i / 64] |= (uint64_t)1 << (i % 64);
  set_vector_mask(m[1], m[0]);
}
"""

# Each template uses @T@ (C type), @S@ (suffix), @G@ (elements per 32-B block), @L@ (lanes per
# repeat), @RB@ (blocks per repeat), @CH@ (the largest multiple of G that is at most 255:
# keeps chunk starts on blocks), @MR@ (the ISA's 255 repeats per instruction) and @ML@ (its 128
# mask lanes).
TEMPLATES = {
    "spread": r"""
/* Stage A of a move: lane 0 of block (d0 + i*ds - w0) of S <- src[e0 + i*es], for the i in
 * [0, n) whose block lies in the window [w0, w1) (ds > 0). Lane classes repeat every `period`
 * elements of the run, and each class is one vcmax with a single active lane. */
static inline void plaidc_spread_@S@(__ubuf__ @T@ *s, int64_t w0, int64_t w1, int64_t d0,
                                     int64_t ds, __ubuf__ @T@ *src, int64_t e0, int64_t es,
                                     int64_t n) {
  int64_t lo = d0 >= w0 ? 0 : (w0 - d0 + ds - 1) / ds;
  int64_t hi = d0 >= w1 ? 0 : plaidc_min(n, (w1 - d0 + ds - 1) / ds);
  if (lo >= hi) return;
  int64_t period = es < 0 ? 0 : @G@ / plaidc_gcd(es, @G@);
  int64_t src_step = period ? es * period / @G@ : 0, dst_step = ds * period * @G@;
  if (!period || src_step > 65535 || dst_step > 65535) period = hi - lo, src_step = dst_step = 0;
  for (int64_t t = lo; t < lo + period && t < hi; ++t) {
    int64_t e = e0 + t * es, count = (hi - t + period - 1) / period;
    plaidc_mask(e % @G@, e % @G@ + 1);
    for (int64_t k = 0; k < count; k += @MR@) {
      int64_t r = plaidc_min(@MR@, count - k);
      vcmax(s + (d0 + (t + k * period) * ds - w0) * @G@, src + (e / @G@ + k * src_step) * @G@, r,
            r > 1 ? dst_step : 0, 1, r > 1 ? src_step : 0);
    }
  }
  plaidc_mask(0, @ML@);
}
""",
    "collect": r"""
/* Stage B of a move: dst[i] <- lane 0 of block i of S, i in [0, n); dst starts on a block. */
static inline void plaidc_collect_@S@(__ubuf__ @T@ *dst, __ubuf__ @T@ *s, int64_t n) {
  plaidc_mask(0, 1);
  for (int64_t k = 0; k < n; k += @CH@)
    vcmax(dst + k, s + k * @G@, plaidc_min(@CH@, n - k), 1, 1, 1);
  plaidc_mask(0, @ML@);
}
""",
    "lanes": r"""
/* dst[i] <- src[e0 + i*es], i in [0, n), es a multiple of @G@ (0: a broadcast); dst starts on a
 * block. One lane of one block per repeat. */
static inline void plaidc_lanes_@S@(__ubuf__ @T@ *dst, __ubuf__ @T@ *src, int64_t e0, int64_t es,
                                  int64_t n) {
  plaidc_mask(e0 % @G@, e0 % @G@ + 1);
  for (int64_t k = 0; k < n; k += @CH@) {
    int64_t r = plaidc_min(@CH@, n - k);
    vcmax(dst + k, src + (e0 / @G@ + k * (es / @G@)) * @G@, r, 1, 1, r > 1 ? es / @G@ : 0);
  }
  plaidc_mask(0, @ML@);
}
""",
    "copy": r"""
/* dst[d0 + i] <- src[s0 + i], i in [0, n), with d0 and s0 at the same offset in their blocks:
 * vector copies (x * 1, exact) over whole repeats, masked at both ends. */
static inline void plaidc_copy_@S@(__ubuf__ @T@ *dst, int64_t d0, __ubuf__ @T@ *src, int64_t s0,
                                 int64_t n) {
  int64_t head = d0 % @G@, end = head + n;
  dst += d0 - head;
  src += s0 - head;
  for (int64_t r = 0; r * @L@ < end;) {
    int64_t lo = r ? 0 : head, hi = plaidc_min(@L@, end - r * @L@), count = 1;
    if (!lo && hi == @L@) count = plaidc_min(@MR@, end / @L@ - r);
    plaidc_mask(lo, hi);
    vmuls(dst + r * @L@, src + r * @L@, 1, count, 1, 1, @RB@, @RB@);
    r += count;
  }
  plaidc_mask(0, @ML@);
}
""",
    "fillcols": r"""
/* dst[r * stride + c] <- value, r in [0, rows), c in [lo, hi): rows `stride` elements apart, a
 * whole number of blocks; each repeat of a vector_dup is one row's band of the columns. */
static inline void plaidc_fillcols_@S@(__ubuf__ @T@ *dst, int64_t rows, int64_t stride, int64_t lo,
                                       int64_t hi, double value) {
  for (int64_t c = lo - lo % @G@; c < hi; c += @L@) {
    plaidc_mask(plaidc_max(lo - c, 0), plaidc_min(hi - c, @L@));
    for (int64_t r = 0; r < rows; r += @MR@)
      vector_dup(dst + r * stride + c, value, plaidc_min(@MR@, rows - r), 1, stride / @G@);
  }
  plaidc_mask(0, @ML@);
}
""",
    "fill": r"""
/* dst[d0 + i] <- value, i in [0, n): vector_dup over whole repeats, masked at both ends. */
static inline void plaidc_fill_@S@(__ubuf__ @T@ *dst, int64_t d0, double value, int64_t n) {
  int64_t head = d0 % @G@, end = head + n;
  dst += d0 - head;
  for (int64_t r = 0; r * @L@ < end;) {
    int64_t lo = r ? 0 : head, hi = plaidc_min(@L@, end - r * @L@), count = 1;
    if (!lo && hi == @L@) count = plaidc_min(@MR@, end / @L@ - r);
    plaidc_mask(lo, hi);
    vector_dup(dst + r * @L@, value, count, 1, @RB@);
    r += count;
  }
  plaidc_mask(0, @ML@);
}
""",
}

REDUCE = r"""
/* dst[i] <- OP over src[i*p + j], j in [0, k), i in [0, rows): rows start on blocks (p % @G@ == 0);
 * rows longer than one repeat are first folded into their first @L@ lanes, in place. */
static inline void plaidc_rNAME_@S@(__ubuf__ @T@ *dst, __ubuf__ @T@ *src, int64_t rows, int64_t p,
                                  int64_t k) {
  int64_t rs = p / @G@;
  for (int64_t j = @L@; j < k; j += @L@) {
    plaidc_mask(0, plaidc_min(@L@, k - j));
    for (int64_t i = 0; i < rows; i += @MR@) {
      int64_t r = plaidc_min(@MR@, rows - i);
      VFOLD(src + i * p, src + i * p, src + i * p + j, r, 1, 1, 1, rs, rs, rs);
    }
  }
  plaidc_mask(0, plaidc_min(@L@, k));
  for (int64_t i = 0; i < rows; i += @CH@)
    VREDUCE(dst + i, src + i * p, plaidc_min(@CH@, rows - i), 1, 1, rs);
  plaidc_mask(0, @ML@);
}
"""

REDUCE_OPS = {"add": ("vadd", "vcadd"), "max": ("vmax", "vcmax"), "min": ("vmin", "vcmin")}

# The ISA has no multiplying reduction (vcmul): a product folds with vmul down to one block per
# row, then each of the block's lanes is copied out exactly (a single-lane vcmax) into a
# scratch and multiplied into the result.
REDUCE_MUL = r"""
/* dst[i] <- product of src[i*p + j], j in [0, k), i in [0, rows): rows start on blocks
 * (p % @G@ == 0). Rows longer than one repeat are folded into their first @L@ lanes, then the
 * upper part of the live lanes is multiplied into the lower part (whole blocks) down to one
 * block; its lanes are then taken one at a time (into dst, or s and multiplied into dst).
 * s: scratch of `rows` elements on a block. */
static inline void plaidc_rmul_@S@(__ubuf__ @T@ *dst, __ubuf__ @T@ *src, int64_t rows, int64_t p,
                                  int64_t k, __ubuf__ @T@ *s) {
  int64_t rs = p / @G@, w = plaidc_min(@L@, k);
  for (int64_t j = @L@; j < k; j += @L@) {
    plaidc_mask(0, plaidc_min(@L@, k - j));
    for (int64_t i = 0; i < rows; i += @MR@) {
      int64_t r = plaidc_min(@MR@, rows - i);
      vmul(src + i * p, src + i * p, src + i * p + j, r, 1, 1, 1, rs, rs, rs);
    }
  }
  while (w > @G@) {
    int64_t h = ((w + 1) / 2 + @G@ - 1) / @G@ * @G@;
    plaidc_mask(0, w - h);
    for (int64_t i = 0; i < rows; i += @MR@) {
      int64_t r = plaidc_min(@MR@, rows - i);
      vmul(src + i * p, src + i * p, src + i * p + h, r, 1, 1, 1, rs, rs, rs);
    }
    w = h;
  }
  for (int64_t j = 0; j < w; ++j) {
    plaidc_mask(j, j + 1);
    for (int64_t i = 0; i < rows; i += @CH@)
      vcmax((j ? s : dst) + i, src + i * p, plaidc_min(@CH@, rows - i), 1, 1, rs);
    for (int64_t r = 0; j && r * @L@ < rows;) {
      int64_t hi = plaidc_min(@L@, rows - r * @L@), count = 1;
      if (hi == @L@) count = plaidc_min(@MR@, rows / @L@ - r);
      plaidc_mask(0, hi);
      vmul(dst + r * @L@, dst + r * @L@, s + r * @L@, count, 1, 1, 1, @RB@, @RB@, @RB@);
      r += count;
    }
  }
  plaidc_mask(0, @ML@);
}
"""


def helper_name(kind: str, dtype: DType) -> str:
    """The C name of helper `kind` (`spread`, `copy`, `radd`, ...) for lane type `dtype`."""
    return f"plaidc_{kind}_{SUFFIX[dtype]}"


def helper_source(kind: str, dtype: DType, repeat_bytes: int) -> str:
    """The C text of one helper instance for a machine whose vector repeat is `repeat_bytes`."""
    if kind == "rmul":
        text = REDUCE_MUL
    elif kind.startswith("r") and kind[1:] in REDUCE_OPS:
        fold, reduce = REDUCE_OPS[kind[1:]]
        text = REDUCE.replace("NAME", kind[1:]).replace("VFOLD", fold).replace("VREDUCE", reduce)
    else:
        text = TEMPLATES[kind]
    g = elems_per_block(dtype)
    return (
        text.replace("@S@", SUFFIX[dtype])
        .replace("@T@", C_TYPES[dtype])
        .replace("@CH@", str(MAX_REPEAT - MAX_REPEAT % g))
        .replace("@MR@", str(MAX_REPEAT))
        .replace("@ML@", str(MASK_LANES))
        .replace("@G@", str(g))
        .replace("@L@", str(repeat_bytes // dtype.byte_size))
        .replace("@RB@", str(repeat_bytes // BLOCK))
    )


def library(used: set[tuple[str, DType]], repeat_bytes: int) -> str:
    """The helpers `used` ((kind, dtype) pairs), after the common ones, in a stable order."""
    parts = [COMMON.strip("\n")]
    for kind, dtype in sorted(used, key=lambda u: (u[0], SUFFIX[u[1]])):
        parts.append(helper_source(kind, dtype, repeat_bytes).strip("\n"))
    return "\n\n".join(parts) + "\n"
