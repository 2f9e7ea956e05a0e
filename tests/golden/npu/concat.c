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
void plaidc_kernel(__gm__ float *A, __gm__ float *B, __gm__ float *O, __gm__ float *T) {
  /* zero_T -- on the vector unit */
  vector_dup((__ubuf__ float *)(UB_BASE + 0x0), 0.0, 2, 1, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(T, (__ubuf__ float *)(UB_BASE + 0x0), 0, 1, 11, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  /* kernel_1(A): T[n, h, w, c : N, H, W, CA + CB] = =(A[n, h, w, c]) -- on the vector unit */
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), A, 0, 1, 5, 0, 0);
  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20100), T, 0, 1, 10, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  {
    plaidc_spread_f32((__ubuf__ float *)(UB_BASE + 0x20240), 0, 80, 0, 1, (__ubuf__ float *)(UB_BASE + 0x20100), 0, 1, 80);
    for (int64_t i_n = 0; i_n < 2; ++i_n) {
      for (int64_t i_h = 0; i_h < 3; ++i_h) {
        for (int64_t i_w = 0; i_w < 2; ++i_w) {
          plaidc_spread_f32((__ubuf__ float *)(UB_BASE + 0x20240), 0, 80, 14 * i_h + 42 * i_n + 7 * i_w, 1, (__ubuf__ float *)(UB_BASE + 0x20000), 6 * i_h + 18 * i_n + 3 * i_w, 1, 3);
        }
      }
    }
    plaidc_collect_f32((__ubuf__ float *)(UB_BASE + 0x20100), (__ubuf__ float *)(UB_BASE + 0x20240), 80);
  }
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(T, (__ubuf__ float *)(UB_BASE + 0x20100), 0, 1, 10, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  /* copy_O -- on the vector unit */
  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x0), T, 0, 1, 11, 0, 0);
  set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(O, (__ubuf__ float *)(UB_BASE + 0x0), 0, 1, 11, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  /* kernel_3(B): O[n, h, w, CA + c : N, H, W, CA + CB] = =(B[n, h, w, c]) default T -- on the vector unit */
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), B, 0, 1, 6, 0, 0);
  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20100), O, 0, 1, 11, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  {
    plaidc_spread_f32((__ubuf__ float *)(UB_BASE + 0x20260), 0, 88, 0, 1, (__ubuf__ float *)(UB_BASE + 0x20100), 0, 1, 88);
    for (int64_t i_n = 0; i_n < 2; ++i_n) {
      for (int64_t i_h = 0; i_h < 3; ++i_h) {
        for (int64_t i_w = 0; i_w < 2; ++i_w) {
          plaidc_spread_f32((__ubuf__ float *)(UB_BASE + 0x20260), 0, 88, 14 * i_h + 42 * i_n + 7 * i_w + 3, 1, (__ubuf__ float *)(UB_BASE + 0x20000), 8 * i_h + 24 * i_n + 4 * i_w, 1, 4);
        }
      }
    }
    plaidc_collect_f32((__ubuf__ float *)(UB_BASE + 0x20100), (__ubuf__ float *)(UB_BASE + 0x20260), 88);
  }
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(O, (__ubuf__ float *)(UB_BASE + 0x20100), 0, 1, 11, 0, 0);
  pipe_barrier(PIPE_ALL);
}
