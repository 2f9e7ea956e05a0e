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

/* dst[d0 + i] <- src[s0 + i], i in [0, n), with d0 and s0 at the same offset in their blocks:
 * vector copies (x * 1, exact) over whole repeats, masked at both ends. */
static inline void plaidc_copy_f32(__ubuf__ float *dst, int64_t d0, __ubuf__ float *src, int64_t s0,
                                 int64_t n) {
  int64_t head = d0 % 8, end = head + n;
  dst += d0 - head;
  src += s0 - head;
  for (int64_t r = 0; r * 64 < end;) {
    int64_t lo = r ? 0 : head, hi = plaidc_min(64, end - r * 64), count = 1;
    if (!lo && hi == 64) count = plaidc_min(255, end / 64 - r);
    plaidc_mask(lo, hi);
    vmuls(dst + r * 64, src + r * 64, 1, count, 1, 1, 8, 8);
    r += count;
  }
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

/* stripe_program on the NPU */
void plaidc_kernel(__gm__ float *I, __gm__ float *K, __gm__ float *O) {
  /* kernel_0(I,K): O[n, x, y, co : N, H, W, CO] = +(I[n, x + i - PH, y + j - PW, ci] * K[i, j, ci, co]) -- on the Cube */
  /* tile 1 of 2: x in [0, 3) */
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x0), I, 0, 1, 7, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x200), (__ubuf__ float *)(UB_BASE + 0x0), 2, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x300), (__ubuf__ half *)(UB_BASE + 0x200), 2, 1, 1, 8, 4);
  vsub((__ubuf__ float *)(UB_BASE + 0x300), (__ubuf__ float *)(UB_BASE + 0x0), (__ubuf__ float *)(UB_BASE + 0x300), 2, 1, 1, 1, 8, 8, 8);
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  vmuls((__ubuf__ float *)(UB_BASE + 0x300), (__ubuf__ float *)(UB_BASE + 0x300), 2048.0, 2, 1, 1, 8, 8);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x500), (__ubuf__ float *)(UB_BASE + 0x300), 2, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x0), (__ubuf__ half *)(UB_BASE + 0x200), 0, 1, 4, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x80), (__ubuf__ half *)(UB_BASE + 0x500), 0, 1, 4, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  img2col_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x0), (__cbuf__ half *)(L1_BASE + 0x0), 0, 0, 14, 2, 4, 7, 2, -1, -2, 1, 1, 1, 1, 3, 7, 21, 5, 1, 2, 15, 0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  img2col_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x3c00), (__cbuf__ half *)(L1_BASE + 0x80), 0, 0, 14, 2, 4, 7, 2, -1, -2, 1, 1, 1, 1, 3, 7, 21, 5, 1, 2, 15, 0);
  plaidc_fill_f32((__ubuf__ float *)(UB_BASE + 0x600), 0, 0.0, 3840);
  copy_gm_to_ubuf_align((__ubuf__ float *)(UB_BASE + 0x4200), K, 0, 30, 12, 0, 1);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  for (int64_t i_i = 0; i_i < 3; ++i_i) {
    for (int64_t i_j = 0; i_j < 5; ++i_j) {
      plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x600), 1280 * i_i + 256 * i_j, (__ubuf__ float *)(UB_BASE + 0x4200), 160 * i_i + 32 * i_j, 32);
    }
  }
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x4200), (__ubuf__ float *)(UB_BASE + 0x600), 60, 1, 1, 4, 8);
  vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x6000), (__ubuf__ half *)(UB_BASE + 0x4200), 60, 1, 1, 8, 4);
  vsub((__ubuf__ float *)(UB_BASE + 0x6000), (__ubuf__ float *)(UB_BASE + 0x600), (__ubuf__ float *)(UB_BASE + 0x6000), 60, 1, 1, 1, 8, 8, 8);
  vmuls((__ubuf__ float *)(UB_BASE + 0x6000), (__ubuf__ float *)(UB_BASE + 0x6000), 2048.0, 60, 1, 1, 8, 8);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x9c00), (__ubuf__ float *)(UB_BASE + 0x6000), 60, 1, 1, 4, 8);
  vmuls((__ubuf__ half *)(UB_BASE + 0x6000), (__ubuf__ half *)(UB_BASE + 0x4200), 1, 15, 1, 1, 16, 16);
  vmuls((__ubuf__ half *)(UB_BASE + 0x6100), (__ubuf__ half *)(UB_BASE + 0x4300), 1, 15, 1, 1, 16, 16);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xfc400), (__ubuf__ half *)(UB_BASE + 0x6000), 0, 1, 240, 0, 0);
  set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
  vmuls((__ubuf__ half *)(UB_BASE + 0x6000), (__ubuf__ half *)(UB_BASE + 0x9c00), 1, 15, 1, 1, 16, 16);
  vmuls((__ubuf__ half *)(UB_BASE + 0x6100), (__ubuf__ half *)(UB_BASE + 0x9d00), 1, 15, 1, 1, 16, 16);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xfe200), (__ubuf__ half *)(UB_BASE + 0x6000), 0, 1, 240, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  load_cbuf_to_cb((__cb__ half *)(L0B_BASE + 0x0), (__cbuf__ half *)(L1_BASE + 0xfc400), 0, 15, 1, 0, 1);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  load_cbuf_to_cb((__cb__ half *)(L0B_BASE + 0x1e00), (__cbuf__ half *)(L1_BASE + 0xfe200), 0, 15, 1, 0, 1);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad((__cc__ float *)(L0C_BASE + 0x0), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x0), 32, 240, 16, 1);
  set_flag(PIPE_M, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  mad((__cc__ float *)(L0C_BASE + 0x800), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x1e00), 32, 240, 16, 1);
  mad((__cc__ float *)(L0C_BASE + 0x800), (__ca__ half *)(L0A_BASE + 0x3c00), (__cb__ half *)(L0B_BASE + 0x0), 32, 240, 16, 0);
  set_flag(PIPE_M, PIPE_V, EVENT_ID1);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID0);
  copy_matrix_cc_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), (__cc__ float *)(L0C_BASE + 0x0), 0, 1, 2, 0, 0, CC_MODE_F32);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID1);
  copy_matrix_cc_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20800), (__cc__ float *)(L0C_BASE + 0x800), 0, 1, 2, 0, 0, CC_MODE_F32);
  vmuls((__ubuf__ float *)(UB_BASE + 0x20800), (__ubuf__ float *)(UB_BASE + 0x20800), 0x1.0000000000000p-11, 8, 1, 1, 8, 8);
  vadd((__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x20800), 8, 1, 1, 1, 8, 8, 8);
  vmuls((__ubuf__ float *)(UB_BASE + 0x20800), (__ubuf__ float *)(UB_BASE + 0x20000), 1, 4, 2, 2, 16, 16);
  vmuls((__ubuf__ float *)(UB_BASE + 0x20820), (__ubuf__ float *)(UB_BASE + 0x20020), 1, 4, 2, 2, 16, 16);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm_align(O, (__ubuf__ float *)(UB_BASE + 0x20800), 0, 7, 12, 1, 0);
  copy_ubuf_to_gm_align(O + 21, (__ubuf__ float *)(UB_BASE + 0x209c0), 0, 7, 12, 1, 0);
  copy_ubuf_to_gm_align(O + 42, (__ubuf__ float *)(UB_BASE + 0x20b80), 0, 7, 12, 1, 0);
  /* tile 2 of 2: x in [3, 6) */
  load_cbuf_to_cb((__cb__ half *)(L0B_BASE + 0x8000), (__cbuf__ half *)(L1_BASE + 0xfc400), 0, 15, 1, 0, 1);
  load_cbuf_to_cb((__cb__ half *)(L0B_BASE + 0x9e00), (__cbuf__ half *)(L1_BASE + 0xfe200), 0, 15, 1, 0, 1);
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x0), I + 24, 0, 1, 8, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x200), (__ubuf__ float *)(UB_BASE + 0x0), 2, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x300), (__ubuf__ half *)(UB_BASE + 0x200), 2, 1, 1, 8, 4);
  vsub((__ubuf__ float *)(UB_BASE + 0x300), (__ubuf__ float *)(UB_BASE + 0x0), (__ubuf__ float *)(UB_BASE + 0x300), 2, 1, 1, 1, 8, 8, 8);
  vmuls((__ubuf__ float *)(UB_BASE + 0x300), (__ubuf__ float *)(UB_BASE + 0x300), 2048.0, 2, 1, 1, 8, 8);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x500), (__ubuf__ float *)(UB_BASE + 0x300), 2, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x7e200), (__ubuf__ half *)(UB_BASE + 0x200), 0, 1, 4, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x7e280), (__ubuf__ half *)(UB_BASE + 0x500), 0, 1, 4, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  img2col_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x8000), (__cbuf__ half *)(L1_BASE + 0x7e200), 4, 0, 14, 2, 4, 7, 2, 0, -2, 1, 1, 1, 1, 3, 7, 21, 5, 1, 2, 15, 0);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  img2col_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0xbc00), (__cbuf__ half *)(L1_BASE + 0x7e280), 4, 0, 14, 2, 4, 7, 2, 0, -2, 1, 1, 1, 1, 3, 7, 21, 5, 1, 2, 15, 0);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad((__cc__ float *)(L0C_BASE + 0x20000), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x8000), 32, 240, 16, 1);
  set_flag(PIPE_M, PIPE_V, EVENT_ID0);
  mad((__cc__ float *)(L0C_BASE + 0x20800), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x9e00), 32, 240, 16, 1);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  mad((__cc__ float *)(L0C_BASE + 0x20800), (__ca__ half *)(L0A_BASE + 0xbc00), (__cb__ half *)(L0B_BASE + 0x8000), 32, 240, 16, 0);
  set_flag(PIPE_M, PIPE_V, EVENT_ID1);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID0);
  copy_matrix_cc_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), (__cc__ float *)(L0C_BASE + 0x20000), 0, 1, 2, 0, 0, CC_MODE_F32);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID1);
  copy_matrix_cc_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20800), (__cc__ float *)(L0C_BASE + 0x20800), 0, 1, 2, 0, 0, CC_MODE_F32);
  vmuls((__ubuf__ float *)(UB_BASE + 0x20800), (__ubuf__ float *)(UB_BASE + 0x20800), 0x1.0000000000000p-11, 8, 1, 1, 8, 8);
  vadd((__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x20800), 8, 1, 1, 1, 8, 8, 8);
  vmuls((__ubuf__ float *)(UB_BASE + 0x20800), (__ubuf__ float *)(UB_BASE + 0x20000), 1, 4, 2, 2, 16, 16);
  vmuls((__ubuf__ float *)(UB_BASE + 0x20820), (__ubuf__ float *)(UB_BASE + 0x20020), 1, 4, 2, 2, 16, 16);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  for (int64_t i_s0 = 0; i_s0 < 3; ++i_s0) {
    copy_ubuf_to_gm_align(O + (63 + 21 * i_s0), (__ubuf__ float *)(UB_BASE + (0x20800 + 448 * i_s0)), 0, 7, 12, 1, 0);
  }
  pipe_barrier(PIPE_ALL);
}
