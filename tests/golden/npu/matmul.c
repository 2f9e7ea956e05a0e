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

/* stripe_program on the NPU */
void plaidc_kernel(__gm__ float *A, __gm__ float *B, __gm__ float *C) {
  /* kernel_0(A,B): C[m, n : M, N] = +(A[m, k] * B[k, n]) -- on the Cube */
  copy_gm_to_ubuf_align((__ubuf__ float *)(UB_BASE + 0x0), A, 0, 7, 20, 0, 1);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  copy_gm_to_ubuf_align((__ubuf__ float *)(UB_BASE + 0x400), B, 0, 5, 24, 0, 1);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  plaidc_fillcols_f32((__ubuf__ float *)(UB_BASE + 0x0), 7, 16, 5, 16, 0.0);
  plaidc_fill_f32((__ubuf__ float *)(UB_BASE + 0x540), 0, 0.0, 176);
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
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm_align(C, (__ubuf__ float *)(UB_BASE + 0x20400), 0, 7, 24, 1, 0);
  pipe_barrier(PIPE_ALL);
}
