#include "plaidc_npu.h"
#include <math.h>

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

/* Stage B of a move: dst[i] <- lane 0 of block i of S, i in [0, n); dst starts on a block. */
static inline void plaidc_collect_f32(__ubuf__ float *dst, __ubuf__ float *s, int64_t n) {
  plaidc_mask(0, 1);
  for (int64_t k = 0; k < n; k += 248)
    vcmax(dst + k, s + k * 8, plaidc_min(248, n - k), 1, 1, 1);
  plaidc_mask(0, 128);
}

/* dst[d0 + i] <- value, i in [0, n): vector_dup over whole repeats, masked at both ends. */
static inline void plaidc_fill_f32(__ubuf__ float *dst, int64_t d0, double value, int64_t n) {
  int64_t head = d0 % 8, end = head + n;
  dst += d0 - head;
  for (int64_t r = 0; r * 64 < end;) {
    int64_t lo = r ? 0 : head, hi = plaidc_min(64, end - r * 64), count = 1;
    if (!lo && hi == 64) count = plaidc_min(255, end / 64 - r);
    plaidc_mask(lo, hi);
    vector_dup(dst + r * 64, value, count, 1, 8);
    r += count;
  }
  plaidc_mask(0, 128);
}

/* dst[r * stride + c] <- value, r in [0, rows), c in [lo, hi): rows `stride` elements apart, a
 * whole number of blocks; each repeat of a vector_dup is one row's band of the columns. */
static inline void plaidc_fillcols_f32(__ubuf__ float *dst, int64_t rows, int64_t stride, int64_t lo,
                                       int64_t hi, double value) {
  for (int64_t c = lo - lo % 8; c < hi; c += 64) {
    plaidc_mask(plaidc_max(lo - c, 0), plaidc_min(hi - c, 64));
    for (int64_t r = 0; r < rows; r += 255)
      vector_dup(dst + r * stride + c, value, plaidc_min(255, rows - r), 1, stride / 8);
  }
  plaidc_mask(0, 128);
}

/* Stage A of a move: lane 0 of block (d0 + i*ds - w0) of S <- src[e0 + i*es], for the i in
 * [0, n) whose block lies in the window [w0, w1) (ds > 0). Lane classes repeat every `period`
 * elements of the run, and each class is one vcmax with a single active lane. */
static inline void plaidc_spread_f32(__ubuf__ float *s, int64_t w0, int64_t w1, int64_t d0,
                                     int64_t ds, __ubuf__ float *src, int64_t e0, int64_t es,
                                     int64_t n) {
  int64_t lo = d0 >= w0 ? 0 : (w0 - d0 + ds - 1) / ds;
  int64_t hi = d0 >= w1 ? 0 : plaidc_min(n, (w1 - d0 + ds - 1) / ds);
  if (lo >= hi) return;
  int64_t period = es < 0 ? 0 : 8 / plaidc_gcd(es, 8);
  int64_t src_step = period ? es * period / 8 : 0, dst_step = ds * period * 8;
  if (!period || src_step > 65535 || dst_step > 65535) period = hi - lo, src_step = dst_step = 0;
  for (int64_t t = lo; t < lo + period && t < hi; ++t) {
    int64_t e = e0 + t * es, count = (hi - t + period - 1) / period;
    plaidc_mask(e % 8, e % 8 + 1);
    for (int64_t k = 0; k < count; k += 255) {
      int64_t r = plaidc_min(255, count - k);
      vcmax(s + (d0 + (t + k * period) * ds - w0) * 8, src + (e / 8 + k * src_step) * 8, r,
            r > 1 ? dst_step : 0, 1, r > 1 ? src_step : 0);
    }
  }
  plaidc_mask(0, 128);
}

/* stripe_program on the NPU */
void plaidc_kernel(__gm__ float *Bias, __gm__ float *W, __gm__ float *X, __gm__ float *Y, __gm__ float *Z) {
  /* kernel_0(X,W): Z[b, n : B, N] = +(X[b, k] * W[k, n]), then kernel_1(Z,Bias): Y = Z + Bias on its result in UB -- on the Cube */
  copy_gm_to_ubuf_align((__ubuf__ float *)(UB_BASE + 0x0), X, 0, 4, 24, 0, 1);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  copy_gm_to_ubuf_align((__ubuf__ float *)(UB_BASE + 0x400), W, 0, 6, 20, 0, 1);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  plaidc_fillcols_f32((__ubuf__ float *)(UB_BASE + 0x0), 4, 16, 6, 16, 0.0);
  plaidc_fill_f32((__ubuf__ float *)(UB_BASE + 0x580), 0, 0.0, 160);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x800), (__ubuf__ float *)(UB_BASE + 0x0), 4, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  vconv_f162f32((__ubuf__ float *)(UB_BASE + 0xa00), (__ubuf__ half *)(UB_BASE + 0x800), 4, 1, 1, 8, 4);
  vsub((__ubuf__ float *)(UB_BASE + 0xa00), (__ubuf__ float *)(UB_BASE + 0x0), (__ubuf__ float *)(UB_BASE + 0xa00), 4, 1, 1, 1, 8, 8, 8);
  vmuls((__ubuf__ float *)(UB_BASE + 0xa00), (__ubuf__ float *)(UB_BASE + 0xa00), 2048.0, 4, 1, 1, 8, 8);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0xe00), (__ubuf__ float *)(UB_BASE + 0xa00), 4, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x0), (__ubuf__ half *)(UB_BASE + 0x800), 0, 16, 1, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x200), (__ubuf__ half *)(UB_BASE + 0xe00), 0, 16, 1, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x0), (__cbuf__ half *)(L1_BASE + 0x0), 0, 1, 1, 0, 0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x200), (__cbuf__ half *)(L1_BASE + 0x200), 0, 1, 1, 0, 0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0xa00), (__ubuf__ float *)(UB_BASE + 0x400), 4, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x1000), (__ubuf__ half *)(UB_BASE + 0xa00), 4, 1, 1, 8, 4);
  vsub((__ubuf__ float *)(UB_BASE + 0x1000), (__ubuf__ float *)(UB_BASE + 0x400), (__ubuf__ float *)(UB_BASE + 0x1000), 4, 1, 1, 1, 8, 8, 8);
  vmuls((__ubuf__ float *)(UB_BASE + 0x1000), (__ubuf__ float *)(UB_BASE + 0x1000), 2048.0, 4, 1, 1, 8, 8);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0xc00), (__ubuf__ float *)(UB_BASE + 0x1000), 4, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x400), (__ubuf__ half *)(UB_BASE + 0xa00), 0, 16, 1, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x600), (__ubuf__ half *)(UB_BASE + 0xc00), 0, 16, 1, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  load_cbuf_to_cb((__cb__ half *)(L0B_BASE + 0x0), (__cbuf__ half *)(L1_BASE + 0x400), 0, 1, 1, 0, 1);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  load_cbuf_to_cb((__cb__ half *)(L0B_BASE + 0x200), (__cbuf__ half *)(L1_BASE + 0x600), 0, 1, 1, 0, 1);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad((__cc__ float *)(L0C_BASE + 0x0), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x0), 16, 16, 16, 1);
  set_flag(PIPE_M, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  mad((__cc__ float *)(L0C_BASE + 0x400), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x200), 16, 16, 16, 1);
  mad((__cc__ float *)(L0C_BASE + 0x400), (__ca__ half *)(L0A_BASE + 0x200), (__cb__ half *)(L0B_BASE + 0x0), 16, 16, 16, 0);
  set_flag(PIPE_M, PIPE_V, EVENT_ID1);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID0);
  copy_matrix_cc_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), (__cc__ float *)(L0C_BASE + 0x0), 0, 1, 1, 0, 0, CC_MODE_F32);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID1);
  copy_matrix_cc_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20400), (__cc__ float *)(L0C_BASE + 0x400), 0, 1, 1, 0, 0, CC_MODE_F32);
  vmuls((__ubuf__ float *)(UB_BASE + 0x20400), (__ubuf__ float *)(UB_BASE + 0x20400), 0x1.0000000000000p-11, 4, 1, 1, 8, 8);
  vadd((__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x20400), 4, 1, 1, 1, 8, 8, 8);
  vmuls((__ubuf__ float *)(UB_BASE + 0x20400), (__ubuf__ float *)(UB_BASE + 0x20000), 1, 2, 2, 2, 16, 16);
  vmuls((__ubuf__ float *)(UB_BASE + 0x20420), (__ubuf__ float *)(UB_BASE + 0x20020), 1, 2, 2, 2, 16, 16);
  {
    for (int64_t i_i1 = 0; i_i1 < 4; ++i_i1) {
      plaidc_spread_f32((__ubuf__ float *)(UB_BASE + 0x20900), 0, 20, 5 * i_i1, 1, (__ubuf__ float *)(UB_BASE + 0x20400), 16 * i_i1, 1, 5);
    }
    plaidc_collect_f32((__ubuf__ float *)(UB_BASE + 0x20800), (__ubuf__ float *)(UB_BASE + 0x20900), 20);
  }
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20900), Bias, 0, 1, 1, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  {
    for (int64_t i_i1 = 0; i_i1 < 4; ++i_i1) {
      plaidc_spread_f32((__ubuf__ float *)(UB_BASE + 0x20a20), 0, 20, 5 * i_i1, 1, (__ubuf__ float *)(UB_BASE + 0x20900), 0, 1, 5);
    }
    plaidc_collect_f32((__ubuf__ float *)(UB_BASE + 0x20920), (__ubuf__ float *)(UB_BASE + 0x20a20), 20);
  }
  vadd((__ubuf__ float *)(UB_BASE + 0x20a20), (__ubuf__ float *)(UB_BASE + 0x20800), (__ubuf__ float *)(UB_BASE + 0x20920), 1, 1, 1, 1, 8, 8, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(Y, (__ubuf__ float *)(UB_BASE + 0x20a20), 0, 1, 3, 0, 0);
  pipe_barrier(PIPE_ALL);
}
