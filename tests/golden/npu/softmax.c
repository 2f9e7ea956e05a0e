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

/* dst[i] <- OP over src[i*p + j], j in [0, k), i in [0, rows): rows start on blocks (p % 8 == 0);
 * rows longer than one repeat are first folded into their first 64 lanes, in place. */
static inline void plaidc_radd_f32(__ubuf__ float *dst, __ubuf__ float *src, int64_t rows, int64_t p,
                                  int64_t k) {
  int64_t rs = p / 8;
  for (int64_t j = 64; j < k; j += 64) {
    plaidc_mask(0, plaidc_min(64, k - j));
    for (int64_t i = 0; i < rows; i += 255) {
      int64_t r = plaidc_min(255, rows - i);
      vadd(src + i * p, src + i * p, src + i * p + j, r, 1, 1, 1, rs, rs, rs);
    }
  }
  plaidc_mask(0, plaidc_min(64, k));
  for (int64_t i = 0; i < rows; i += 248)
    vcadd(dst + i, src + i * p, plaidc_min(248, rows - i), 1, 1, rs);
  plaidc_mask(0, 128);
}

/* dst[i] <- OP over src[i*p + j], j in [0, k), i in [0, rows): rows start on blocks (p % 8 == 0);
 * rows longer than one repeat are first folded into their first 64 lanes, in place. */
static inline void plaidc_rmax_f32(__ubuf__ float *dst, __ubuf__ float *src, int64_t rows, int64_t p,
                                  int64_t k) {
  int64_t rs = p / 8;
  for (int64_t j = 64; j < k; j += 64) {
    plaidc_mask(0, plaidc_min(64, k - j));
    for (int64_t i = 0; i < rows; i += 255) {
      int64_t r = plaidc_min(255, rows - i);
      vmax(src + i * p, src + i * p, src + i * p + j, r, 1, 1, 1, rs, rs, rs);
    }
  }
  plaidc_mask(0, plaidc_min(64, k));
  for (int64_t i = 0; i < rows; i += 248)
    vcmax(dst + i, src + i * p, plaidc_min(248, rows - i), 1, 1, rs);
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
void plaidc_kernel(__gm__ float *E, __gm__ float *M, __gm__ float *S, __gm__ float *X, __gm__ float *Y) {
  /* kernel_0(X): M[b, 0 : B, 1] = >(X[b, n]) -- on the vector unit */
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x0), X, 0, 1, 5, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  {
    for (int64_t i_b = 0; i_b < 4; ++i_b) {
      plaidc_spread_f32((__ubuf__ float *)(UB_BASE + 0x1a0), 0, 64, 16 * i_b, 1, (__ubuf__ float *)(UB_BASE + 0x0), 9 * i_b, 1, 9);
    }
    plaidc_collect_f32((__ubuf__ float *)(UB_BASE + 0xa0), (__ubuf__ float *)(UB_BASE + 0x1a0), 64);
  }
  plaidc_rmax_f32((__ubuf__ float *)(UB_BASE + 0x1a0), (__ubuf__ float *)(UB_BASE + 0xa0), 4, 16, 9);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(M, (__ubuf__ float *)(UB_BASE + 0x1a0), 0, 1, 1, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  /* kernel_1(X,M): E = exp(X - M) -- on the vector unit */
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), X, 0, 1, 5, 0, 0);
  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20100), M, 0, 1, 1, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  {
    for (int64_t i_i1 = 0; i_i1 < 4; ++i_i1) {
      plaidc_spread_f32((__ubuf__ float *)(UB_BASE + 0x20220), 0, 36, 9 * i_i1, 1, (__ubuf__ float *)(UB_BASE + 0x20100), i_i1, 0, 9);
    }
    plaidc_collect_f32((__ubuf__ float *)(UB_BASE + 0x20120), (__ubuf__ float *)(UB_BASE + 0x20220), 36);
  }
  vsub((__ubuf__ float *)(UB_BASE + 0x20220), (__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x20120), 1, 1, 1, 1, 8, 8, 8);
  vexp((__ubuf__ float *)(UB_BASE + 0x20120), (__ubuf__ float *)(UB_BASE + 0x20220), 1, 1, 1, 8, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(E, (__ubuf__ float *)(UB_BASE + 0x20120), 0, 1, 5, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  /* kernel_2(E): S[b, 0 : B, 1] = +(E[b, n]) -- on the vector unit */
  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x0), E, 0, 1, 5, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  {
    for (int64_t i_b = 0; i_b < 4; ++i_b) {
      plaidc_spread_f32((__ubuf__ float *)(UB_BASE + 0x1a0), 0, 64, 16 * i_b, 1, (__ubuf__ float *)(UB_BASE + 0x0), 9 * i_b, 1, 9);
    }
    plaidc_collect_f32((__ubuf__ float *)(UB_BASE + 0xa0), (__ubuf__ float *)(UB_BASE + 0x1a0), 64);
  }
  plaidc_radd_f32((__ubuf__ float *)(UB_BASE + 0x1a0), (__ubuf__ float *)(UB_BASE + 0xa0), 4, 16, 9);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(S, (__ubuf__ float *)(UB_BASE + 0x1a0), 0, 1, 1, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  /* kernel_3(E,S): Y = E / S -- on the vector unit */
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), E, 0, 1, 5, 0, 0);
  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20100), S, 0, 1, 1, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  {
    for (int64_t i_i1 = 0; i_i1 < 4; ++i_i1) {
      plaidc_spread_f32((__ubuf__ float *)(UB_BASE + 0x20220), 0, 36, 9 * i_i1, 1, (__ubuf__ float *)(UB_BASE + 0x20100), i_i1, 0, 9);
    }
    plaidc_collect_f32((__ubuf__ float *)(UB_BASE + 0x20120), (__ubuf__ float *)(UB_BASE + 0x20220), 36);
  }
  vrec((__ubuf__ float *)(UB_BASE + 0x20220), (__ubuf__ float *)(UB_BASE + 0x20120), 1, 1, 1, 8, 8);
  vmul((__ubuf__ float *)(UB_BASE + 0x20220), (__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x20220), 1, 1, 1, 1, 8, 8, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(Y, (__ubuf__ float *)(UB_BASE + 0x20220), 0, 1, 5, 0, 0);
  pipe_barrier(PIPE_ALL);
}
