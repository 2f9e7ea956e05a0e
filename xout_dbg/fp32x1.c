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

/* stripe_program on the NPU */
void plaidc_kernel(__gm__ float *B, __gm__ float *I, __gm__ float *K, __gm__ float *O, __gm__ float *R) {
  /* kernel_0(I,K): O[n, x, y, co : N, H - KH + 1, W - KW + 1, CO] = +(I[n, x + i, y + j, ci] * K[i, j, ci, co]), then kernel_1(O,B): R = relu(O + B) on its result in UB -- on the Cube */
  /* tiles chosen by the backend (estimated faster than the pass pipeline's) */
  /* tile 1 of 56: x in [0, 1), co in [0, 32) */
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x0), I, 0, 2, 448, 16, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x7000), (__ubuf__ float *)(UB_BASE + 0x0), 112, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  vconv_f162f32((__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ half *)(UB_BASE + 0x7000), 112, 1, 1, 8, 4);
  vsub((__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ float *)(UB_BASE + 0x0), (__ubuf__ float *)(UB_BASE + 0xa800), 112, 1, 1, 1, 8, 8, 8);
  vmuls((__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ float *)(UB_BASE + 0xa800), 2048.0, 112, 1, 1, 8, 8);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x11800), (__ubuf__ float *)(UB_BASE + 0xa800), 112, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x0 + 3584 * i_s0)), (__ubuf__ half *)(UB_BASE + (0x7000 + 32 * i_s0)), 0, 112, 1, 3, 0);
  }
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x3800 + 3584 * i_s0)), (__ubuf__ half *)(UB_BASE + (0x11800 + 32 * i_s0)), 0, 112, 1, 3, 0);
  }
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0xa800), K, 0, 64, 4, 4, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  for (int64_t i_s0 = 0; i_s0 < 7; ++i_s0) {
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x0 + 2048 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x0), 0 + i_s0, 4, 7, 0, 0);
  }
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  for (int64_t i_s0 = 0; i_s0 < 7; ++i_s0) {
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x3800 + 2048 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x3800), 0 + i_s0, 4, 7, 0, 0);
  }
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0xc800), (__ubuf__ float *)(UB_BASE + 0xa800), 32, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  vconv_f162f32((__ubuf__ float *)(UB_BASE + 0xd800), (__ubuf__ half *)(UB_BASE + 0xc800), 32, 1, 1, 8, 4);
  vsub((__ubuf__ float *)(UB_BASE + 0xd800), (__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ float *)(UB_BASE + 0xd800), 32, 1, 1, 1, 8, 8, 8);
  vmuls((__ubuf__ float *)(UB_BASE + 0xd800), (__ubuf__ float *)(UB_BASE + 0xd800), 2048.0, 32, 1, 1, 8, 8);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0xf800), (__ubuf__ float *)(UB_BASE + 0xd800), 32, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x80000), (__ubuf__ half *)(UB_BASE + 0xc800), 0, 64, 1, 1, 0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x80800), (__ubuf__ half *)(UB_BASE + 0xc820), 0, 64, 1, 1, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x81000), (__ubuf__ half *)(UB_BASE + 0xf800), 0, 64, 1, 1, 0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x81800), (__ubuf__ half *)(UB_BASE + 0xf820), 0, 64, 1, 1, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  set_flag(PIPE_MTE3, PIPE_V, EVENT_ID1);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x0 + 1024 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x80000), 0 + i_s0, 2, 4, 0, 1);
  }
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x1000 + 1024 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x81000), 0 + i_s0, 2, 4, 0, 1);
  }
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad((__cc__ float *)(L0C_BASE + 0x0), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x0), 112, 64, 32, 1);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x1000), 112, 64, 32, 1);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + 0x3800), (__cb__ half *)(L0B_BASE + 0x0), 112, 64, 32, 0);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
  /* iterations 1..6 of 9 */
  for (int64_t i_2 = 1; i_2 < 7; ++i_2) {
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + (0x0 + 131072 * (i_2 & 1))), I + (i_2 == 1 ? 64 : i_2 == 3 ? 3712 : -3520 + 1824 * i_2 + -1760 * (i_2 & 1)), 0, 2, 448, 16, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    if (i_2 >= 2) {
      wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0 + 2 * (i_2 & 1));
    }
    vconv_f322f16((__ubuf__ half *)(UB_BASE + (0x7000 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0x0 + 131072 * (i_2 & 1))), 112, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    if (i_2 >= 2) {
      wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID1 + 2 * (i_2 & 1));
    }
    vconv_f162f32((__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0x7000 + 131072 * (i_2 & 1))), 112, 1, 1, 8, 4);
    vsub((__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0x0 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), 112, 1, 1, 1, 8, 8, 8);
    vmuls((__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), 2048.0, 112, 1, 1, 8, 8);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + (0x11800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), 112, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x0 + 3584 * i_s1 + 28672 * i_2)), (__ubuf__ half *)(UB_BASE + (0x7000 + 32 * i_s1 + 131072 * (i_2 & 1))), 0, 112, 1, 3, 0);
    }
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0 + 2 * (i_2 & 1));
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x3800 + 3584 * i_s1 + 28672 * i_2)), (__ubuf__ half *)(UB_BASE + (0x11800 + 32 * i_s1 + 131072 * (i_2 & 1))), 0, 112, 1, 3, 0);
    }
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), K + (0 + 4096 * i_2), 0, 64, 4, 4, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    if (i_2 >= 2) {
      wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0 + 2 * (i_2 & 1));
    }
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x0 + 2048 * i_s1 + 32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0x0 + 28672 * i_2)), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    if (i_2 >= 2) {
      wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1 + 2 * (i_2 & 1));
    }
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x3800 + 2048 * i_s1 + 32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0x3800 + 28672 * i_2)), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + (0xc800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    vconv_f162f32((__ubuf__ float *)(UB_BASE + (0xd800 + 131072 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0xc800 + 131072 * (i_2 & 1))), 32, 1, 1, 8, 4);
    vsub((__ubuf__ float *)(UB_BASE + (0xd800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xd800 + 131072 * (i_2 & 1))), 32, 1, 1, 1, 8, 8, 8);
    vmuls((__ubuf__ float *)(UB_BASE + (0xd800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xd800 + 131072 * (i_2 & 1))), 2048.0, 32, 1, 1, 8, 8);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + (0xf800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xd800 + 131072 * (i_2 & 1))), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    if (i_2 >= 2) {
      wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0 + 2 * (i_2 & 1));
    }
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x80000 + 262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0xc800 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x80800 + 262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0xc820 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    if (i_2 >= 2) {
      wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1 + 2 * (i_2 & 1));
    }
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x81000 + 262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0xf800 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x81800 + 262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0xf820 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    set_flag(PIPE_MTE3, PIPE_V, EVENT_ID1 + 2 * (i_2 & 1));
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x0 + 1024 * i_s1 + 32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0x80000 + 262144 * (i_2 & 1))), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0 + 2 * (i_2 & 1));
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x1000 + 1024 * i_s1 + 32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0x81000 + 262144 * (i_2 & 1))), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1 + 2 * (i_2 & 1));
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    mad((__cc__ float *)(L0C_BASE + 0x0), (__ca__ half *)(L0A_BASE + (0x0 + 32768 * (i_2 & 1))), (__cb__ half *)(L0B_BASE + (0x0 + 32768 * (i_2 & 1))), 112, 64, 32, 0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + (0x0 + 32768 * (i_2 & 1))), (__cb__ half *)(L0B_BASE + (0x1000 + 32768 * (i_2 & 1))), 112, 64, 32, 0);
    set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0 + 2 * (i_2 & 1));
    mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + (0x3800 + 32768 * (i_2 & 1))), (__cb__ half *)(L0B_BASE + (0x0 + 32768 * (i_2 & 1))), 112, 64, 32, 0);
    set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1 + 2 * (i_2 & 1));
  }
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), I + 7488, 0, 2, 448, 16, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID2);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x27000), (__ubuf__ float *)(UB_BASE + 0x20000), 112, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID3);
  vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x2a800), (__ubuf__ half *)(UB_BASE + 0x27000), 112, 1, 1, 8, 4);
  vsub((__ubuf__ float *)(UB_BASE + 0x2a800), (__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x2a800), 112, 1, 1, 1, 8, 8, 8);
  vmuls((__ubuf__ float *)(UB_BASE + 0x2a800), (__ubuf__ float *)(UB_BASE + 0x2a800), 2048.0, 112, 1, 1, 8, 8);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x31800), (__ubuf__ float *)(UB_BASE + 0x2a800), 112, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x31000 + 3584 * i_s0)), (__ubuf__ half *)(UB_BASE + (0x27000 + 32 * i_s0)), 0, 112, 1, 3, 0);
  }
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x34800 + 3584 * i_s0)), (__ubuf__ half *)(UB_BASE + (0x31800 + 32 * i_s0)), 0, 112, 1, 3, 0);
  }
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x2a800), K + 28672, 0, 64, 4, 4, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID2);
  for (int64_t i_s0 = 0; i_s0 < 7; ++i_s0) {
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x8000 + 2048 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x31000), 0 + i_s0, 4, 7, 0, 0);
  }
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID3);
  for (int64_t i_s0 = 0; i_s0 < 7; ++i_s0) {
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0xb800 + 2048 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x34800), 0 + i_s0, 4, 7, 0, 0);
  }
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x2c800), (__ubuf__ float *)(UB_BASE + 0x2a800), 32, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x2d800), (__ubuf__ half *)(UB_BASE + 0x2c800), 32, 1, 1, 8, 4);
  vsub((__ubuf__ float *)(UB_BASE + 0x2d800), (__ubuf__ float *)(UB_BASE + 0x2a800), (__ubuf__ float *)(UB_BASE + 0x2d800), 32, 1, 1, 1, 8, 8, 8);
  vmuls((__ubuf__ float *)(UB_BASE + 0x2d800), (__ubuf__ float *)(UB_BASE + 0x2d800), 2048.0, 32, 1, 1, 8, 8);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x2f800), (__ubuf__ float *)(UB_BASE + 0x2d800), 32, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID2);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc0000), (__ubuf__ half *)(UB_BASE + 0x2c800), 0, 64, 1, 1, 0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc0800), (__ubuf__ half *)(UB_BASE + 0x2c820), 0, 64, 1, 1, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID3);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc1000), (__ubuf__ half *)(UB_BASE + 0x2f800), 0, 64, 1, 1, 0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc1800), (__ubuf__ half *)(UB_BASE + 0x2f820), 0, 64, 1, 1, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x8000 + 1024 * i_s0)), (__cbuf__ half *)(L1_BASE + 0xc0000), 0 + i_s0, 2, 4, 0, 1);
  }
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x9000 + 1024 * i_s0)), (__cbuf__ half *)(L1_BASE + 0xc1000), 0 + i_s0, 2, 4, 0, 1);
  }
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad((__cc__ float *)(L0C_BASE + 0x0), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x8000), 112, 64, 32, 0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x9000), 112, 64, 32, 0);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID2);
  mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + 0xb800), (__cb__ half *)(L0B_BASE + 0x8000), 112, 64, 32, 0);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID3);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x0), I + 7552, 0, 2, 448, 16, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x7000), (__ubuf__ float *)(UB_BASE + 0x0), 112, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID1);
  vconv_f162f32((__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ half *)(UB_BASE + 0x7000), 112, 1, 1, 8, 4);
  vsub((__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ float *)(UB_BASE + 0x0), (__ubuf__ float *)(UB_BASE + 0xa800), 112, 1, 1, 1, 8, 8, 8);
  vmuls((__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ float *)(UB_BASE + 0xa800), 2048.0, 112, 1, 1, 8, 8);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x11800), (__ubuf__ float *)(UB_BASE + 0xa800), 112, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x38000 + 3584 * i_s0)), (__ubuf__ half *)(UB_BASE + (0x7000 + 32 * i_s0)), 0, 112, 1, 3, 0);
  }
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x3b800 + 3584 * i_s0)), (__ubuf__ half *)(UB_BASE + (0x11800 + 32 * i_s0)), 0, 112, 1, 3, 0);
  }
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0xa800), K + 32768, 0, 64, 4, 4, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  for (int64_t i_s0 = 0; i_s0 < 7; ++i_s0) {
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x0 + 2048 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x38000), 0 + i_s0, 4, 7, 0, 0);
  }
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
  for (int64_t i_s0 = 0; i_s0 < 7; ++i_s0) {
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x3800 + 2048 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x3b800), 0 + i_s0, 4, 7, 0, 0);
  }
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0xc800), (__ubuf__ float *)(UB_BASE + 0xa800), 32, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  vconv_f162f32((__ubuf__ float *)(UB_BASE + 0xd800), (__ubuf__ half *)(UB_BASE + 0xc800), 32, 1, 1, 8, 4);
  vsub((__ubuf__ float *)(UB_BASE + 0xd800), (__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ float *)(UB_BASE + 0xd800), 32, 1, 1, 1, 8, 8, 8);
  vmuls((__ubuf__ float *)(UB_BASE + 0xd800), (__ubuf__ float *)(UB_BASE + 0xd800), 2048.0, 32, 1, 1, 8, 8);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0xf800), (__ubuf__ float *)(UB_BASE + 0xd800), 32, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x80000), (__ubuf__ half *)(UB_BASE + 0xc800), 0, 64, 1, 1, 0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x80800), (__ubuf__ half *)(UB_BASE + 0xc820), 0, 64, 1, 1, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x81000), (__ubuf__ half *)(UB_BASE + 0xf800), 0, 64, 1, 1, 0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x81800), (__ubuf__ half *)(UB_BASE + 0xf820), 0, 64, 1, 1, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x0 + 1024 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x80000), 0 + i_s0, 2, 4, 0, 1);
  }
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x1000 + 1024 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x81000), 0 + i_s0, 2, 4, 0, 1);
  }
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad((__cc__ float *)(L0C_BASE + 0x0), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x0), 112, 64, 32, 0);
  set_flag(PIPE_M, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x1000), 112, 64, 32, 0);
  mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + 0x3800), (__cb__ half *)(L0B_BASE + 0x0), 112, 64, 32, 0);
  set_flag(PIPE_M, PIPE_V, EVENT_ID1);
  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x27000), B, 0, 1, 4, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 0, (__ubuf__ float *)(UB_BASE + 0x27000), 0, 32);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 32, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 32);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 64, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 64);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 128, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 128);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 256, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 256);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 512, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 512);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 1024, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 1024);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 2048, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 1536);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID0);
  copy_matrix_cc_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), (__cc__ float *)(L0C_BASE + 0x0), 0, 1, 14, 0, 0, CC_MODE_F32);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID1);
  copy_matrix_cc_to_ubuf((__ubuf__ float *)(UB_BASE + 0x23800), (__cc__ float *)(L0C_BASE + 0x3800), 0, 1, 14, 0, 0, CC_MODE_F32);
  vmuls((__ubuf__ float *)(UB_BASE + 0x23800), (__ubuf__ float *)(UB_BASE + 0x23800), 0x1.0000000000000p-11, 56, 1, 1, 8, 8);
  vadd((__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x23800), 56, 1, 1, 1, 8, 8, 8);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    vmuls((__ubuf__ float *)(UB_BASE + (0x23800 + 32 * i_s0)), (__ubuf__ float *)(UB_BASE + (0x20000 + 3584 * i_s0 + -3552 * (i_s0 & 1))), 1, 14, 4, 2, 32, 16);
  }
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  vadd((__ubuf__ float *)(UB_BASE + 0x2a880), (__ubuf__ float *)(UB_BASE + 0x23800), (__ubuf__ float *)(UB_BASE + 0x27080), 56, 1, 1, 1, 8, 8, 8);
  vrelu((__ubuf__ float *)(UB_BASE + 0x23800), (__ubuf__ float *)(UB_BASE + 0x2a880), 56, 1, 1, 8, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(R, (__ubuf__ float *)(UB_BASE + 0x23800), 0, 112, 4, 0, 4);
  set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
  /* tile 2 of 56: x in [0, 1), co in [32, 64) */
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x0), K + 32, 0, 64, 4, 4, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID2);
  for (int64_t i_s0 = 0; i_s0 < 7; ++i_s0) {
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x8000 + 2048 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x0), 0 + i_s0, 4, 7, 0, 0);
  }
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID3);
  for (int64_t i_s0 = 0; i_s0 < 7; ++i_s0) {
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0xb800 + 2048 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x3800), 0 + i_s0, 4, 7, 0, 0);
  }
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x2000), (__ubuf__ float *)(UB_BASE + 0x0), 32, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x3000), (__ubuf__ half *)(UB_BASE + 0x2000), 32, 1, 1, 8, 4);
  vsub((__ubuf__ float *)(UB_BASE + 0x3000), (__ubuf__ float *)(UB_BASE + 0x0), (__ubuf__ float *)(UB_BASE + 0x3000), 32, 1, 1, 1, 8, 8, 8);
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  vmuls((__ubuf__ float *)(UB_BASE + 0x3000), (__ubuf__ float *)(UB_BASE + 0x3000), 2048.0, 32, 1, 1, 8, 8);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x5000), (__ubuf__ float *)(UB_BASE + 0x3000), 32, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc0000), (__ubuf__ half *)(UB_BASE + 0x2000), 0, 64, 1, 1, 0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc0800), (__ubuf__ half *)(UB_BASE + 0x2020), 0, 64, 1, 1, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  set_flag(PIPE_MTE3, PIPE_V, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc1000), (__ubuf__ half *)(UB_BASE + 0x5000), 0, 64, 1, 1, 0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc1800), (__ubuf__ half *)(UB_BASE + 0x5020), 0, 64, 1, 1, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  set_flag(PIPE_MTE3, PIPE_V, EVENT_ID2);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x8000 + 1024 * i_s0)), (__cbuf__ half *)(L1_BASE + 0xc0000), 0 + i_s0, 2, 4, 0, 1);
  }
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x9000 + 1024 * i_s0)), (__cbuf__ half *)(L1_BASE + 0xc1000), 0 + i_s0, 2, 4, 0, 1);
  }
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad((__cc__ float *)(L0C_BASE + 0x20000), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x8000), 112, 64, 32, 1);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x9000), 112, 64, 32, 1);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + 0xb800), (__cb__ half *)(L0B_BASE + 0x8000), 112, 64, 32, 0);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), K + 4128, 0, 64, 4, 4, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x0), (__cbuf__ half *)(L1_BASE + 0x7000), 0, 4, 7, 0, 0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x800), (__cbuf__ half *)(L1_BASE + 0x7000), 1, 4, 7, 0, 0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x1000), (__cbuf__ half *)(L1_BASE + 0x7000), 2, 4, 7, 0, 0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x1800), (__cbuf__ half *)(L1_BASE + 0x7000), 3, 4, 7, 0, 0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x2000), (__cbuf__ half *)(L1_BASE + 0x7000), 4, 4, 7, 0, 0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x2800), (__cbuf__ half *)(L1_BASE + 0x7000), 5, 4, 7, 0, 0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x3000), (__cbuf__ half *)(L1_BASE + 0x7000), 6, 4, 7, 0, 0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x3800), (__cbuf__ half *)(L1_BASE + 0xa800), 0, 4, 7, 0, 0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x4000), (__cbuf__ half *)(L1_BASE + 0xa800), 1, 4, 7, 0, 0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x4800), (__cbuf__ half *)(L1_BASE + 0xa800), 2, 4, 7, 0, 0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x5000), (__cbuf__ half *)(L1_BASE + 0xa800), 3, 4, 7, 0, 0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x5800), (__cbuf__ half *)(L1_BASE + 0xa800), 4, 4, 7, 0, 0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x6000), (__cbuf__ half *)(L1_BASE + 0xa800), 5, 4, 7, 0, 0);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x6800), (__cbuf__ half *)(L1_BASE + 0xa800), 6, 4, 7, 0, 0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x22000), (__ubuf__ float *)(UB_BASE + 0x20000), 32, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
  vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x23000), (__ubuf__ half *)(UB_BASE + 0x22000), 32, 1, 1, 8, 4);
  vsub((__ubuf__ float *)(UB_BASE + 0x23000), (__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x23000), 32, 1, 1, 1, 8, 8, 8);
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  vmuls((__ubuf__ float *)(UB_BASE + 0x23000), (__ubuf__ float *)(UB_BASE + 0x23000), 2048.0, 32, 1, 1, 8, 8);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x25000), (__ubuf__ float *)(UB_BASE + 0x23000), 32, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x80000), (__ubuf__ half *)(UB_BASE + 0x22000), 0, 64, 1, 1, 0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x80800), (__ubuf__ half *)(UB_BASE + 0x22020), 0, 64, 1, 1, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x81000), (__ubuf__ half *)(UB_BASE + 0x25000), 0, 64, 1, 1, 0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x81800), (__ubuf__ half *)(UB_BASE + 0x25020), 0, 64, 1, 1, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  set_flag(PIPE_MTE3, PIPE_V, EVENT_ID3);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x0 + 1024 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x80000), 0 + i_s0, 2, 4, 0, 1);
  }
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID2);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x1000 + 1024 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x81000), 0 + i_s0, 2, 4, 0, 1);
  }
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID3);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad((__cc__ float *)(L0C_BASE + 0x20000), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x0), 112, 64, 32, 0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x1000), 112, 64, 32, 0);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID2);
  mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + 0x3800), (__cb__ half *)(L0B_BASE + 0x0), 112, 64, 32, 0);
  set_flag(PIPE_M, PIPE_MTE1, EVENT_ID3);
  /* iterations 2..7 of 9 */
  for (int64_t i_2 = 2; i_2 < 8; ++i_2) {
    wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1 + -1 * (i_2 & 1));
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + (0x0 + 131072 * (i_2 & 1))), K + (32 + 4096 * i_2), 0, 64, 4, 4, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0 + 2 * (i_2 & 1));
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x8000 + 2048 * i_s1 + -32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0x0 + 28672 * i_2)), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1 + 2 * (i_2 & 1));
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0xb800 + 2048 * i_s1 + -32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0x3800 + 28672 * i_2)), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID1 + -1 * (i_2 & 1));
    vconv_f322f16((__ubuf__ half *)(UB_BASE + (0x2000 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0x0 + 131072 * (i_2 & 1))), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    vconv_f162f32((__ubuf__ float *)(UB_BASE + (0x3000 + 131072 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0x2000 + 131072 * (i_2 & 1))), 32, 1, 1, 8, 4);
    vsub((__ubuf__ float *)(UB_BASE + (0x3000 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0x0 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0x3000 + 131072 * (i_2 & 1))), 32, 1, 1, 1, 8, 8, 8);
    if (i_2 < 7) {
      set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1 + -1 * (i_2 & 1));
    }
    vmuls((__ubuf__ float *)(UB_BASE + (0x3000 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0x3000 + 131072 * (i_2 & 1))), 2048.0, 32, 1, 1, 8, 8);
    wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID2 + (i_2 & 1));
    vconv_f322f16((__ubuf__ half *)(UB_BASE + (0x5000 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0x3000 + 131072 * (i_2 & 1))), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0 + 2 * (i_2 & 1));
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0xc0000 + -262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0x2000 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0xc0800 + -262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0x2020 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    if (i_2 < 7) {
      set_flag(PIPE_MTE3, PIPE_V, EVENT_ID1 + -1 * (i_2 & 1));
    }
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1 + 2 * (i_2 & 1));
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0xc1000 + -262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0x5000 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0xc1800 + -262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0x5020 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    if (i_2 < 7) {
      set_flag(PIPE_MTE3, PIPE_V, EVENT_ID2 + (i_2 & 1));
    }
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x8000 + 1024 * i_s1 + -32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0xc0000 + -262144 * (i_2 & 1))), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    if (i_2 < 7) {
      set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0 + 2 * (i_2 & 1));
    }
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x9000 + 1024 * i_s1 + -32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0xc1000 + -262144 * (i_2 & 1))), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    if (i_2 < 7) {
      set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1 + 2 * (i_2 & 1));
    }
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    mad((__cc__ float *)(L0C_BASE + 0x20000), (__ca__ half *)(L0A_BASE + (0x8000 + -32768 * (i_2 & 1))), (__cb__ half *)(L0B_BASE + (0x8000 + -32768 * (i_2 & 1))), 112, 64, 32, 0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + (0x8000 + -32768 * (i_2 & 1))), (__cb__ half *)(L0B_BASE + (0x9000 + -32768 * (i_2 & 1))), 112, 64, 32, 0);
    if (i_2 < 7) {
      set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0 + 2 * (i_2 & 1));
    }
    mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + (0xb800 + -32768 * (i_2 & 1))), (__cb__ half *)(L0B_BASE + (0x8000 + -32768 * (i_2 & 1))), 112, 64, 32, 0);
    if (i_2 < 7) {
      set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1 + 2 * (i_2 & 1));
    }
  }
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x0), K + 32800, 0, 64, 4, 4, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  for (int64_t i_s0 = 0; i_s0 < 7; ++i_s0) {
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x8000 + 2048 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x38000), 0 + i_s0, 4, 7, 0, 0);
  }
  wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
  for (int64_t i_s0 = 0; i_s0 < 7; ++i_s0) {
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0xb800 + 2048 * i_s0)), (__cbuf__ half *)(L1_BASE + 0x3b800), 0 + i_s0, 4, 7, 0, 0);
  }
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID1);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x2000), (__ubuf__ float *)(UB_BASE + 0x0), 32, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x3000), (__ubuf__ half *)(UB_BASE + 0x2000), 32, 1, 1, 8, 4);
  vsub((__ubuf__ float *)(UB_BASE + 0x3000), (__ubuf__ float *)(UB_BASE + 0x0), (__ubuf__ float *)(UB_BASE + 0x3000), 32, 1, 1, 1, 8, 8, 8);
  vmuls((__ubuf__ float *)(UB_BASE + 0x3000), (__ubuf__ float *)(UB_BASE + 0x3000), 2048.0, 32, 1, 1, 8, 8);
  wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID2);
  vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x5000), (__ubuf__ float *)(UB_BASE + 0x3000), 32, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc0000), (__ubuf__ half *)(UB_BASE + 0x2000), 0, 64, 1, 1, 0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc0800), (__ubuf__ half *)(UB_BASE + 0x2020), 0, 64, 1, 1, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc1000), (__ubuf__ half *)(UB_BASE + 0x5000), 0, 64, 1, 1, 0);
  copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc1800), (__ubuf__ half *)(UB_BASE + 0x5020), 0, 64, 1, 1, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x8000 + 1024 * i_s0)), (__cbuf__ half *)(L1_BASE + 0xc0000), 0 + i_s0, 2, 4, 0, 1);
  }
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x9000 + 1024 * i_s0)), (__cbuf__ half *)(L1_BASE + 0xc1000), 0 + i_s0, 2, 4, 0, 1);
  }
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad((__cc__ float *)(L0C_BASE + 0x20000), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x8000), 112, 64, 32, 0);
  set_flag(PIPE_M, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
  mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x9000), 112, 64, 32, 0);
  mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + 0xb800), (__cb__ half *)(L0B_BASE + 0x8000), 112, 64, 32, 0);
  set_flag(PIPE_M, PIPE_V, EVENT_ID1);
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x27000), B + 32, 0, 1, 4, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 0, (__ubuf__ float *)(UB_BASE + 0x27000), 0, 32);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 32, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 32);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 64, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 64);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 128, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 128);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 256, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 256);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 512, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 512);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 1024, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 1024);
  plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 2048, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 1536);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID0);
  copy_matrix_cc_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), (__cc__ float *)(L0C_BASE + 0x20000), 0, 1, 14, 0, 0, CC_MODE_F32);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID1);
  copy_matrix_cc_to_ubuf((__ubuf__ float *)(UB_BASE + 0x23800), (__cc__ float *)(L0C_BASE + 0x23800), 0, 1, 14, 0, 0, CC_MODE_F32);
  vmuls((__ubuf__ float *)(UB_BASE + 0x23800), (__ubuf__ float *)(UB_BASE + 0x23800), 0x1.0000000000000p-11, 56, 1, 1, 8, 8);
  vadd((__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x23800), 56, 1, 1, 1, 8, 8, 8);
  for (int64_t i_s0 = 0; i_s0 < 4; ++i_s0) {
    vmuls((__ubuf__ float *)(UB_BASE + (0x23800 + 32 * i_s0)), (__ubuf__ float *)(UB_BASE + (0x20000 + 3584 * i_s0 + -3552 * (i_s0 & 1))), 1, 14, 4, 2, 32, 16);
  }
  vadd((__ubuf__ float *)(UB_BASE + 0x2a880), (__ubuf__ float *)(UB_BASE + 0x23800), (__ubuf__ float *)(UB_BASE + 0x27080), 56, 1, 1, 1, 8, 8, 8);
  vrelu((__ubuf__ float *)(UB_BASE + 0x23800), (__ubuf__ float *)(UB_BASE + 0x2a880), 56, 1, 1, 8, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(R + 32, (__ubuf__ float *)(UB_BASE + 0x23800), 0, 112, 4, 0, 4);
  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID1);
  /* iterations 1..27 of 28 */
  for (int64_t i_0 = 1; i_0 < 28; ++i_0) {
    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x0), I + (0 + 7424 * i_0), 0, 2, 448, 16, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x7000), (__ubuf__ float *)(UB_BASE + 0x0), 112, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    vconv_f162f32((__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ half *)(UB_BASE + 0x7000), 112, 1, 1, 8, 4);
    vsub((__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ float *)(UB_BASE + 0x0), (__ubuf__ float *)(UB_BASE + 0xa800), 112, 1, 1, 1, 8, 8, 8);
    vmuls((__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ float *)(UB_BASE + 0xa800), 2048.0, 112, 1, 1, 8, 8);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x11800), (__ubuf__ float *)(UB_BASE + 0xa800), 112, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x0 + 3584 * i_s1 + 262144 * (i_0 & 1))), (__ubuf__ half *)(UB_BASE + (0x7000 + 32 * i_s1)), 0, 112, 1, 3, 0);
    }
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x3800 + 3584 * i_s1 + 262144 * (i_0 & 1))), (__ubuf__ half *)(UB_BASE + (0x11800 + 32 * i_s1)), 0, 112, 1, 3, 0);
    }
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0xa800), K, 0, 64, 4, 4, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x0 + 2048 * i_s1)), (__cbuf__ half *)(L1_BASE + (0x0 + 262144 * (i_0 & 1))), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x3800 + 2048 * i_s1)), (__cbuf__ half *)(L1_BASE + (0x3800 + 262144 * (i_0 & 1))), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0xc800), (__ubuf__ float *)(UB_BASE + 0xa800), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    vconv_f162f32((__ubuf__ float *)(UB_BASE + 0xd800), (__ubuf__ half *)(UB_BASE + 0xc800), 32, 1, 1, 8, 4);
    vsub((__ubuf__ float *)(UB_BASE + 0xd800), (__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ float *)(UB_BASE + 0xd800), 32, 1, 1, 1, 8, 8, 8);
    vmuls((__ubuf__ float *)(UB_BASE + 0xd800), (__ubuf__ float *)(UB_BASE + 0xd800), 2048.0, 32, 1, 1, 8, 8);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0xf800), (__ubuf__ float *)(UB_BASE + 0xd800), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x80000), (__ubuf__ half *)(UB_BASE + 0xc800), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x80800), (__ubuf__ half *)(UB_BASE + 0xc820), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x81000), (__ubuf__ half *)(UB_BASE + 0xf800), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x81800), (__ubuf__ half *)(UB_BASE + 0xf820), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    set_flag(PIPE_MTE3, PIPE_V, EVENT_ID1);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x0 + 1024 * i_s1)), (__cbuf__ half *)(L1_BASE + 0x80000), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x1000 + 1024 * i_s1)), (__cbuf__ half *)(L1_BASE + 0x81000), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    mad((__cc__ float *)(L0C_BASE + 0x0), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x0), 112, 64, 32, 1);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x1000), 112, 64, 32, 1);
    set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
    mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + 0x3800), (__cb__ half *)(L0B_BASE + 0x0), 112, 64, 32, 0);
    set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID1);
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), I + (64 + 7424 * i_0), 0, 2, 448, 16, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x27000), (__ubuf__ float *)(UB_BASE + 0x20000), 112, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x2a800), (__ubuf__ half *)(UB_BASE + 0x27000), 112, 1, 1, 8, 4);
    vsub((__ubuf__ float *)(UB_BASE + 0x2a800), (__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x2a800), 112, 1, 1, 1, 8, 8, 8);
    vmuls((__ubuf__ float *)(UB_BASE + 0x2a800), (__ubuf__ float *)(UB_BASE + 0x2a800), 2048.0, 112, 1, 1, 8, 8);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x31800), (__ubuf__ float *)(UB_BASE + 0x2a800), 112, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x7000 + 3584 * i_s1 + 262144 * (i_0 & 1))), (__ubuf__ half *)(UB_BASE + (0x27000 + 32 * i_s1)), 0, 112, 1, 3, 0);
    }
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    set_flag(PIPE_MTE3, PIPE_V, EVENT_ID2);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0xa800 + 3584 * i_s1 + 262144 * (i_0 & 1))), (__ubuf__ half *)(UB_BASE + (0x31800 + 32 * i_s1)), 0, 112, 1, 3, 0);
    }
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x2a800), K + 4096, 0, 64, 4, 4, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x8000 + 2048 * i_s1)), (__cbuf__ half *)(L1_BASE + (0x7000 + 262144 * (i_0 & 1))), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0xb800 + 2048 * i_s1)), (__cbuf__ half *)(L1_BASE + (0xa800 + 262144 * (i_0 & 1))), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x2c800), (__ubuf__ float *)(UB_BASE + 0x2a800), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x2d800), (__ubuf__ half *)(UB_BASE + 0x2c800), 32, 1, 1, 8, 4);
    vsub((__ubuf__ float *)(UB_BASE + 0x2d800), (__ubuf__ float *)(UB_BASE + 0x2a800), (__ubuf__ float *)(UB_BASE + 0x2d800), 32, 1, 1, 1, 8, 8, 8);
    vmuls((__ubuf__ float *)(UB_BASE + 0x2d800), (__ubuf__ float *)(UB_BASE + 0x2d800), 2048.0, 32, 1, 1, 8, 8);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x2f800), (__ubuf__ float *)(UB_BASE + 0x2d800), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc0000), (__ubuf__ half *)(UB_BASE + 0x2c800), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc0800), (__ubuf__ half *)(UB_BASE + 0x2c820), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc1000), (__ubuf__ half *)(UB_BASE + 0x2f800), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc1800), (__ubuf__ half *)(UB_BASE + 0x2f820), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    set_flag(PIPE_MTE3, PIPE_V, EVENT_ID3);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x8000 + 1024 * i_s1)), (__cbuf__ half *)(L1_BASE + 0xc0000), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID2);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x9000 + 1024 * i_s1)), (__cbuf__ half *)(L1_BASE + 0xc1000), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID3);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    mad((__cc__ float *)(L0C_BASE + 0x0), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x8000), 112, 64, 32, 0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x9000), 112, 64, 32, 0);
    set_flag(PIPE_M, PIPE_MTE1, EVENT_ID2);
    mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + 0xb800), (__cb__ half *)(L0B_BASE + 0x8000), 112, 64, 32, 0);
    set_flag(PIPE_M, PIPE_MTE1, EVENT_ID3);
    for (int64_t i_2 = 2; i_2 < 7; ++i_2) {
      copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + (0x0 + 131072 * (i_2 & 1))), I + (i_2 == 3 ? 3712 + 7424 * i_0 : -3520 + 7424 * i_0 + 1824 * i_2 + -1760 * (i_2 & 1)), 0, 2, 448, 16, 0);
      set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0 + 2 * (i_2 & 1));
      vconv_f322f16((__ubuf__ half *)(UB_BASE + (0x7000 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0x0 + 131072 * (i_2 & 1))), 112, 1, 1, 4, 8);
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID1 + 2 * (i_2 & 1));
      vconv_f162f32((__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0x7000 + 131072 * (i_2 & 1))), 112, 1, 1, 8, 4);
      vsub((__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0x0 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), 112, 1, 1, 1, 8, 8, 8);
      vmuls((__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), 2048.0, 112, 1, 1, 8, 8);
      vconv_f322f16((__ubuf__ half *)(UB_BASE + (0x11800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), 112, 1, 1, 4, 8);
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
      set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      for (int64_t i_s2 = 0; i_s2 < 4; ++i_s2) {
        copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x0 + 3584 * i_s2 + 262144 * (i_0 & 1) + 28672 * i_2)), (__ubuf__ half *)(UB_BASE + (0x7000 + 32 * i_s2 + 131072 * (i_2 & 1))), 0, 112, 1, 3, 0);
      }
      set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
      set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0 + 2 * (i_2 & 1));
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
      for (int64_t i_s2 = 0; i_s2 < 4; ++i_s2) {
        copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x3800 + 3584 * i_s2 + 262144 * (i_0 & 1) + 28672 * i_2)), (__ubuf__ half *)(UB_BASE + (0x11800 + 32 * i_s2 + 131072 * (i_2 & 1))), 0, 112, 1, 3, 0);
      }
      set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
      wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
      copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), K + (0 + 4096 * i_2), 0, 64, 4, 4, 0);
      set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
      wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0 + 2 * (i_2 & 1));
      for (int64_t i_s2 = 0; i_s2 < 7; ++i_s2) {
        load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x0 + 2048 * i_s2 + 32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0x0 + 262144 * (i_0 & 1) + 28672 * i_2)), 0 + i_s2, 4, 7, 0, 0);
      }
      wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
      wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1 + 2 * (i_2 & 1));
      for (int64_t i_s2 = 0; i_s2 < 7; ++i_s2) {
        load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x3800 + 2048 * i_s2 + 32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0x3800 + 262144 * (i_0 & 1) + 28672 * i_2)), 0 + i_s2, 4, 7, 0, 0);
      }
      wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      vconv_f322f16((__ubuf__ half *)(UB_BASE + (0xc800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), 32, 1, 1, 4, 8);
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      vconv_f162f32((__ubuf__ float *)(UB_BASE + (0xd800 + 131072 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0xc800 + 131072 * (i_2 & 1))), 32, 1, 1, 8, 4);
      vsub((__ubuf__ float *)(UB_BASE + (0xd800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xa800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xd800 + 131072 * (i_2 & 1))), 32, 1, 1, 1, 8, 8, 8);
      vmuls((__ubuf__ float *)(UB_BASE + (0xd800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xd800 + 131072 * (i_2 & 1))), 2048.0, 32, 1, 1, 8, 8);
      vconv_f322f16((__ubuf__ half *)(UB_BASE + (0xf800 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0xd800 + 131072 * (i_2 & 1))), 32, 1, 1, 4, 8);
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0 + 2 * (i_2 & 1));
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x80000 + 262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0xc800 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x80800 + 262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0xc820 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
      set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
      wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1 + 2 * (i_2 & 1));
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x81000 + 262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0xf800 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x81800 + 262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0xf820 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
      set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
      set_flag(PIPE_MTE3, PIPE_V, EVENT_ID1 + 2 * (i_2 & 1));
      wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
      for (int64_t i_s2 = 0; i_s2 < 4; ++i_s2) {
        load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x0 + 1024 * i_s2 + 32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0x80000 + 262144 * (i_2 & 1))), 0 + i_s2, 2, 4, 0, 1);
      }
      set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
      set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0 + 2 * (i_2 & 1));
      wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
      for (int64_t i_s2 = 0; i_s2 < 4; ++i_s2) {
        load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x1000 + 1024 * i_s2 + 32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0x81000 + 262144 * (i_2 & 1))), 0 + i_s2, 2, 4, 0, 1);
      }
      set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
      set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1 + 2 * (i_2 & 1));
      wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
      mad((__cc__ float *)(L0C_BASE + 0x0), (__ca__ half *)(L0A_BASE + (0x0 + 32768 * (i_2 & 1))), (__cb__ half *)(L0B_BASE + (0x0 + 32768 * (i_2 & 1))), 112, 64, 32, 0);
      wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
      mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + (0x0 + 32768 * (i_2 & 1))), (__cb__ half *)(L0B_BASE + (0x1000 + 32768 * (i_2 & 1))), 112, 64, 32, 0);
      set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0 + 2 * (i_2 & 1));
      mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + (0x3800 + 32768 * (i_2 & 1))), (__cb__ half *)(L0B_BASE + (0x0 + 32768 * (i_2 & 1))), 112, 64, 32, 0);
      set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1 + 2 * (i_2 & 1));
    }
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), I + (7488 + 7424 * i_0), 0, 2, 448, 16, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID2);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x27000), (__ubuf__ float *)(UB_BASE + 0x20000), 112, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID3);
    vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x2a800), (__ubuf__ half *)(UB_BASE + 0x27000), 112, 1, 1, 8, 4);
    vsub((__ubuf__ float *)(UB_BASE + 0x2a800), (__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x2a800), 112, 1, 1, 1, 8, 8, 8);
    vmuls((__ubuf__ float *)(UB_BASE + 0x2a800), (__ubuf__ float *)(UB_BASE + 0x2a800), 2048.0, 112, 1, 1, 8, 8);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x31800), (__ubuf__ float *)(UB_BASE + 0x2a800), 112, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x31000 + 3584 * i_s1 + 262144 * (i_0 & 1))), (__ubuf__ half *)(UB_BASE + (0x27000 + 32 * i_s1)), 0, 112, 1, 3, 0);
    }
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x34800 + 3584 * i_s1 + 262144 * (i_0 & 1))), (__ubuf__ half *)(UB_BASE + (0x31800 + 32 * i_s1)), 0, 112, 1, 3, 0);
    }
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x2a800), K + 28672, 0, 64, 4, 4, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID2);
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x8000 + 2048 * i_s1)), (__cbuf__ half *)(L1_BASE + (0x31000 + 262144 * (i_0 & 1))), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID3);
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0xb800 + 2048 * i_s1)), (__cbuf__ half *)(L1_BASE + (0x34800 + 262144 * (i_0 & 1))), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x2c800), (__ubuf__ float *)(UB_BASE + 0x2a800), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x2d800), (__ubuf__ half *)(UB_BASE + 0x2c800), 32, 1, 1, 8, 4);
    vsub((__ubuf__ float *)(UB_BASE + 0x2d800), (__ubuf__ float *)(UB_BASE + 0x2a800), (__ubuf__ float *)(UB_BASE + 0x2d800), 32, 1, 1, 1, 8, 8, 8);
    vmuls((__ubuf__ float *)(UB_BASE + 0x2d800), (__ubuf__ float *)(UB_BASE + 0x2d800), 2048.0, 32, 1, 1, 8, 8);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x2f800), (__ubuf__ float *)(UB_BASE + 0x2d800), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID2);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc0000), (__ubuf__ half *)(UB_BASE + 0x2c800), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc0800), (__ubuf__ half *)(UB_BASE + 0x2c820), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID3);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc1000), (__ubuf__ half *)(UB_BASE + 0x2f800), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc1800), (__ubuf__ half *)(UB_BASE + 0x2f820), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x8000 + 1024 * i_s1)), (__cbuf__ half *)(L1_BASE + 0xc0000), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x9000 + 1024 * i_s1)), (__cbuf__ half *)(L1_BASE + 0xc1000), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    mad((__cc__ float *)(L0C_BASE + 0x0), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x8000), 112, 64, 32, 0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x9000), 112, 64, 32, 0);
    set_flag(PIPE_M, PIPE_MTE1, EVENT_ID2);
    mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + 0xb800), (__cb__ half *)(L0B_BASE + 0x8000), 112, 64, 32, 0);
    set_flag(PIPE_M, PIPE_MTE1, EVENT_ID3);
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x0), I + (7552 + 7424 * i_0), 0, 2, 448, 16, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x7000), (__ubuf__ float *)(UB_BASE + 0x0), 112, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID1);
    vconv_f162f32((__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ half *)(UB_BASE + 0x7000), 112, 1, 1, 8, 4);
    vsub((__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ float *)(UB_BASE + 0x0), (__ubuf__ float *)(UB_BASE + 0xa800), 112, 1, 1, 1, 8, 8, 8);
    vmuls((__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ float *)(UB_BASE + 0xa800), 2048.0, 112, 1, 1, 8, 8);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x11800), (__ubuf__ float *)(UB_BASE + 0xa800), 112, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x38000 + 3584 * i_s1 + 262144 * (i_0 & 1))), (__ubuf__ half *)(UB_BASE + (0x7000 + 32 * i_s1)), 0, 112, 1, 3, 0);
    }
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0x3b800 + 3584 * i_s1 + 262144 * (i_0 & 1))), (__ubuf__ half *)(UB_BASE + (0x11800 + 32 * i_s1)), 0, 112, 1, 3, 0);
    }
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0xa800), K + 32768, 0, 64, 4, 4, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x0 + 2048 * i_s1)), (__cbuf__ half *)(L1_BASE + (0x38000 + 262144 * (i_0 & 1))), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x3800 + 2048 * i_s1)), (__cbuf__ half *)(L1_BASE + (0x3b800 + 262144 * (i_0 & 1))), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0xc800), (__ubuf__ float *)(UB_BASE + 0xa800), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    vconv_f162f32((__ubuf__ float *)(UB_BASE + 0xd800), (__ubuf__ half *)(UB_BASE + 0xc800), 32, 1, 1, 8, 4);
    vsub((__ubuf__ float *)(UB_BASE + 0xd800), (__ubuf__ float *)(UB_BASE + 0xa800), (__ubuf__ float *)(UB_BASE + 0xd800), 32, 1, 1, 1, 8, 8, 8);
    vmuls((__ubuf__ float *)(UB_BASE + 0xd800), (__ubuf__ float *)(UB_BASE + 0xd800), 2048.0, 32, 1, 1, 8, 8);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0xf800), (__ubuf__ float *)(UB_BASE + 0xd800), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x80000), (__ubuf__ half *)(UB_BASE + 0xc800), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x80800), (__ubuf__ half *)(UB_BASE + 0xc820), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x81000), (__ubuf__ half *)(UB_BASE + 0xf800), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x81800), (__ubuf__ half *)(UB_BASE + 0xf820), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x0 + 1024 * i_s1)), (__cbuf__ half *)(L1_BASE + 0x80000), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x1000 + 1024 * i_s1)), (__cbuf__ half *)(L1_BASE + 0x81000), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    mad((__cc__ float *)(L0C_BASE + 0x0), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x0), 112, 64, 32, 0);
    set_flag(PIPE_M, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x1000), 112, 64, 32, 0);
    mad((__cc__ float *)(L0C_BASE + 0x3800), (__ca__ half *)(L0A_BASE + 0x3800), (__cb__ half *)(L0B_BASE + 0x0), 112, 64, 32, 0);
    set_flag(PIPE_M, PIPE_V, EVENT_ID1);
    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x27000), B, 0, 1, 4, 0, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 0, (__ubuf__ float *)(UB_BASE + 0x27000), 0, 32);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 32, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 32);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 64, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 64);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 128, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 128);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 256, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 256);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 512, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 512);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 1024, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 1024);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 2048, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 1536);
    wait_flag(PIPE_M, PIPE_V, EVENT_ID0);
    copy_matrix_cc_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), (__cc__ float *)(L0C_BASE + 0x0), 0, 1, 14, 0, 0, CC_MODE_F32);
    wait_flag(PIPE_M, PIPE_V, EVENT_ID1);
    copy_matrix_cc_to_ubuf((__ubuf__ float *)(UB_BASE + 0x23800), (__cc__ float *)(L0C_BASE + 0x3800), 0, 1, 14, 0, 0, CC_MODE_F32);
    vmuls((__ubuf__ float *)(UB_BASE + 0x23800), (__ubuf__ float *)(UB_BASE + 0x23800), 0x1.0000000000000p-11, 56, 1, 1, 8, 8);
    vadd((__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x23800), 56, 1, 1, 1, 8, 8, 8);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      vmuls((__ubuf__ float *)(UB_BASE + (0x23800 + 32 * i_s1)), (__ubuf__ float *)(UB_BASE + (0x20000 + 3584 * i_s1 + -3552 * (i_s1 & 1))), 1, 14, 4, 2, 32, 16);
    }
    set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    vadd((__ubuf__ float *)(UB_BASE + 0x2a880), (__ubuf__ float *)(UB_BASE + 0x23800), (__ubuf__ float *)(UB_BASE + 0x27080), 56, 1, 1, 1, 8, 8, 8);
    vrelu((__ubuf__ float *)(UB_BASE + 0x23800), (__ubuf__ float *)(UB_BASE + 0x2a880), 56, 1, 1, 8, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm(R + (0 + 7168 * i_0), (__ubuf__ float *)(UB_BASE + 0x23800), 0, 112, 4, 0, 4);
    set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x0), K + 32, 0, 64, 4, 4, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID2);
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x8000 + 2048 * i_s1)), (__cbuf__ half *)(L1_BASE + (0x0 + 262144 * (i_0 & 1))), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID3);
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0xb800 + 2048 * i_s1)), (__cbuf__ half *)(L1_BASE + (0x3800 + 262144 * (i_0 & 1))), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x2000), (__ubuf__ float *)(UB_BASE + 0x0), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x3000), (__ubuf__ half *)(UB_BASE + 0x2000), 32, 1, 1, 8, 4);
    vsub((__ubuf__ float *)(UB_BASE + 0x3000), (__ubuf__ float *)(UB_BASE + 0x0), (__ubuf__ float *)(UB_BASE + 0x3000), 32, 1, 1, 1, 8, 8, 8);
    set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
    vmuls((__ubuf__ float *)(UB_BASE + 0x3000), (__ubuf__ float *)(UB_BASE + 0x3000), 2048.0, 32, 1, 1, 8, 8);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x5000), (__ubuf__ float *)(UB_BASE + 0x3000), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc0000), (__ubuf__ half *)(UB_BASE + 0x2000), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc0800), (__ubuf__ half *)(UB_BASE + 0x2020), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    set_flag(PIPE_MTE3, PIPE_V, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc1000), (__ubuf__ half *)(UB_BASE + 0x5000), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc1800), (__ubuf__ half *)(UB_BASE + 0x5020), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    set_flag(PIPE_MTE3, PIPE_V, EVENT_ID2);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x8000 + 1024 * i_s1)), (__cbuf__ half *)(L1_BASE + 0xc0000), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x9000 + 1024 * i_s1)), (__cbuf__ half *)(L1_BASE + 0xc1000), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    mad((__cc__ float *)(L0C_BASE + 0x20000), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x8000), 112, 64, 32, 1);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x9000), 112, 64, 32, 1);
    set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
    mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + 0xb800), (__cb__ half *)(L0B_BASE + 0x8000), 112, 64, 32, 0);
    set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), K + 4128, 0, 64, 4, 4, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x0), (__cbuf__ half *)(L1_BASE + (0x7000 + 262144 * (i_0 & 1))), 0, 4, 7, 0, 0);
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x800), (__cbuf__ half *)(L1_BASE + (0x7000 + 262144 * (i_0 & 1))), 1, 4, 7, 0, 0);
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x1000), (__cbuf__ half *)(L1_BASE + (0x7000 + 262144 * (i_0 & 1))), 2, 4, 7, 0, 0);
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x1800), (__cbuf__ half *)(L1_BASE + (0x7000 + 262144 * (i_0 & 1))), 3, 4, 7, 0, 0);
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x2000), (__cbuf__ half *)(L1_BASE + (0x7000 + 262144 * (i_0 & 1))), 4, 4, 7, 0, 0);
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x2800), (__cbuf__ half *)(L1_BASE + (0x7000 + 262144 * (i_0 & 1))), 5, 4, 7, 0, 0);
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x3000), (__cbuf__ half *)(L1_BASE + (0x7000 + 262144 * (i_0 & 1))), 6, 4, 7, 0, 0);
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x3800), (__cbuf__ half *)(L1_BASE + (0xa800 + 262144 * (i_0 & 1))), 0, 4, 7, 0, 0);
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x4000), (__cbuf__ half *)(L1_BASE + (0xa800 + 262144 * (i_0 & 1))), 1, 4, 7, 0, 0);
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x4800), (__cbuf__ half *)(L1_BASE + (0xa800 + 262144 * (i_0 & 1))), 2, 4, 7, 0, 0);
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x5000), (__cbuf__ half *)(L1_BASE + (0xa800 + 262144 * (i_0 & 1))), 3, 4, 7, 0, 0);
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x5800), (__cbuf__ half *)(L1_BASE + (0xa800 + 262144 * (i_0 & 1))), 4, 4, 7, 0, 0);
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x6000), (__cbuf__ half *)(L1_BASE + (0xa800 + 262144 * (i_0 & 1))), 5, 4, 7, 0, 0);
    load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 0x6800), (__cbuf__ half *)(L1_BASE + (0xa800 + 262144 * (i_0 & 1))), 6, 4, 7, 0, 0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x22000), (__ubuf__ float *)(UB_BASE + 0x20000), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
    vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x23000), (__ubuf__ half *)(UB_BASE + 0x22000), 32, 1, 1, 8, 4);
    vsub((__ubuf__ float *)(UB_BASE + 0x23000), (__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x23000), 32, 1, 1, 1, 8, 8, 8);
    set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    vmuls((__ubuf__ float *)(UB_BASE + 0x23000), (__ubuf__ float *)(UB_BASE + 0x23000), 2048.0, 32, 1, 1, 8, 8);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x25000), (__ubuf__ float *)(UB_BASE + 0x23000), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x80000), (__ubuf__ half *)(UB_BASE + 0x22000), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x80800), (__ubuf__ half *)(UB_BASE + 0x22020), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x81000), (__ubuf__ half *)(UB_BASE + 0x25000), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0x81800), (__ubuf__ half *)(UB_BASE + 0x25020), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    set_flag(PIPE_MTE3, PIPE_V, EVENT_ID3);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x0 + 1024 * i_s1)), (__cbuf__ half *)(L1_BASE + 0x80000), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID2);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x1000 + 1024 * i_s1)), (__cbuf__ half *)(L1_BASE + 0x81000), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID3);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    mad((__cc__ float *)(L0C_BASE + 0x20000), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x0), 112, 64, 32, 0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + 0x0), (__cb__ half *)(L0B_BASE + 0x1000), 112, 64, 32, 0);
    set_flag(PIPE_M, PIPE_MTE1, EVENT_ID2);
    mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + 0x3800), (__cb__ half *)(L0B_BASE + 0x0), 112, 64, 32, 0);
    set_flag(PIPE_M, PIPE_MTE1, EVENT_ID3);
    for (int64_t i_2 = 2; i_2 < 8; ++i_2) {
      wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1 + -1 * (i_2 & 1));
      copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + (0x0 + 131072 * (i_2 & 1))), K + (32 + 4096 * i_2), 0, 64, 4, 4, 0);
      set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0 + 2 * (i_2 & 1));
      for (int64_t i_s2 = 0; i_s2 < 7; ++i_s2) {
        load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x8000 + 2048 * i_s2 + -32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0x0 + 262144 * (i_0 & 1) + 28672 * i_2)), 0 + i_s2, 4, 7, 0, 0);
      }
      wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1 + 2 * (i_2 & 1));
      for (int64_t i_s2 = 0; i_s2 < 7; ++i_s2) {
        load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0xb800 + 2048 * i_s2 + -32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0x3800 + 262144 * (i_0 & 1) + 28672 * i_2)), 0 + i_s2, 4, 7, 0, 0);
      }
      wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID1 + -1 * (i_2 & 1));
      vconv_f322f16((__ubuf__ half *)(UB_BASE + (0x2000 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0x0 + 131072 * (i_2 & 1))), 32, 1, 1, 4, 8);
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      vconv_f162f32((__ubuf__ float *)(UB_BASE + (0x3000 + 131072 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0x2000 + 131072 * (i_2 & 1))), 32, 1, 1, 8, 4);
      vsub((__ubuf__ float *)(UB_BASE + (0x3000 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0x0 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0x3000 + 131072 * (i_2 & 1))), 32, 1, 1, 1, 8, 8, 8);
      if (i_2 < 7) {
        set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1 + -1 * (i_2 & 1));
      }
      vmuls((__ubuf__ float *)(UB_BASE + (0x3000 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0x3000 + 131072 * (i_2 & 1))), 2048.0, 32, 1, 1, 8, 8);
      wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID2 + (i_2 & 1));
      vconv_f322f16((__ubuf__ half *)(UB_BASE + (0x5000 + 131072 * (i_2 & 1))), (__ubuf__ float *)(UB_BASE + (0x3000 + 131072 * (i_2 & 1))), 32, 1, 1, 4, 8);
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0 + 2 * (i_2 & 1));
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0xc0000 + -262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0x2000 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0xc0800 + -262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0x2020 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
      set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
      if (i_2 < 7) {
        set_flag(PIPE_MTE3, PIPE_V, EVENT_ID1 + -1 * (i_2 & 1));
      }
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
      wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1 + 2 * (i_2 & 1));
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0xc1000 + -262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0x5000 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
      copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + (0xc1800 + -262144 * (i_2 & 1))), (__ubuf__ half *)(UB_BASE + (0x5020 + 131072 * (i_2 & 1))), 0, 64, 1, 1, 0);
      set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
      if (i_2 < 7) {
        set_flag(PIPE_MTE3, PIPE_V, EVENT_ID2 + (i_2 & 1));
      }
      wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
      for (int64_t i_s2 = 0; i_s2 < 4; ++i_s2) {
        load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x8000 + 1024 * i_s2 + -32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0xc0000 + -262144 * (i_2 & 1))), 0 + i_s2, 2, 4, 0, 1);
      }
      set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
      if (i_2 < 7) {
        set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0 + 2 * (i_2 & 1));
      }
      wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
      for (int64_t i_s2 = 0; i_s2 < 4; ++i_s2) {
        load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x9000 + 1024 * i_s2 + -32768 * (i_2 & 1))), (__cbuf__ half *)(L1_BASE + (0xc1000 + -262144 * (i_2 & 1))), 0 + i_s2, 2, 4, 0, 1);
      }
      set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
      if (i_2 < 7) {
        set_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1 + 2 * (i_2 & 1));
      }
      wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
      mad((__cc__ float *)(L0C_BASE + 0x20000), (__ca__ half *)(L0A_BASE + (0x8000 + -32768 * (i_2 & 1))), (__cb__ half *)(L0B_BASE + (0x8000 + -32768 * (i_2 & 1))), 112, 64, 32, 0);
      wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
      mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + (0x8000 + -32768 * (i_2 & 1))), (__cb__ half *)(L0B_BASE + (0x9000 + -32768 * (i_2 & 1))), 112, 64, 32, 0);
      if (i_2 < 7) {
        set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0 + 2 * (i_2 & 1));
      }
      mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + (0xb800 + -32768 * (i_2 & 1))), (__cb__ half *)(L0B_BASE + (0x8000 + -32768 * (i_2 & 1))), 112, 64, 32, 0);
      if (i_2 < 7) {
        set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1 + 2 * (i_2 & 1));
      }
    }
    wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x0), K + 32800, 0, 64, 4, 4, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0x8000 + 2048 * i_s1)), (__cbuf__ half *)(L1_BASE + (0x38000 + 262144 * (i_0 & 1))), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 7; ++i_s1) {
      load_cbuf_to_ca((__ca__ half *)(L0A_BASE + (0xb800 + 2048 * i_s1)), (__cbuf__ half *)(L1_BASE + (0x3b800 + 262144 * (i_0 & 1))), 0 + i_s1, 4, 7, 0, 0);
    }
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID1);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x2000), (__ubuf__ float *)(UB_BASE + 0x0), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    vconv_f162f32((__ubuf__ float *)(UB_BASE + 0x3000), (__ubuf__ half *)(UB_BASE + 0x2000), 32, 1, 1, 8, 4);
    vsub((__ubuf__ float *)(UB_BASE + 0x3000), (__ubuf__ float *)(UB_BASE + 0x0), (__ubuf__ float *)(UB_BASE + 0x3000), 32, 1, 1, 1, 8, 8, 8);
    vmuls((__ubuf__ float *)(UB_BASE + 0x3000), (__ubuf__ float *)(UB_BASE + 0x3000), 2048.0, 32, 1, 1, 8, 8);
    wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID2);
    vconv_f322f16((__ubuf__ half *)(UB_BASE + 0x5000), (__ubuf__ float *)(UB_BASE + 0x3000), 32, 1, 1, 4, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc0000), (__ubuf__ half *)(UB_BASE + 0x2000), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc0800), (__ubuf__ half *)(UB_BASE + 0x2020), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_MTE1, PIPE_MTE3, EVENT_ID1);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc1000), (__ubuf__ half *)(UB_BASE + 0x5000), 0, 64, 1, 1, 0);
    copy_ubuf_to_cbuf((__cbuf__ half *)(L1_BASE + 0xc1800), (__ubuf__ half *)(UB_BASE + 0x5020), 0, 64, 1, 1, 0);
    set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    if (i_0 < 27) {
      set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    }
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x8000 + 1024 * i_s1)), (__cbuf__ half *)(L1_BASE + 0xc0000), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID1);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      load_cbuf_to_cb((__cb__ half *)(L0B_BASE + (0x9000 + 1024 * i_s1)), (__cbuf__ half *)(L1_BASE + 0xc1000), 0 + i_s1, 2, 4, 0, 1);
    }
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    mad((__cc__ float *)(L0C_BASE + 0x20000), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x8000), 112, 64, 32, 0);
    set_flag(PIPE_M, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID1);
    mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + 0x8000), (__cb__ half *)(L0B_BASE + 0x9000), 112, 64, 32, 0);
    mad((__cc__ float *)(L0C_BASE + 0x23800), (__ca__ half *)(L0A_BASE + 0xb800), (__cb__ half *)(L0B_BASE + 0x8000), 112, 64, 32, 0);
    set_flag(PIPE_M, PIPE_V, EVENT_ID1);
    copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 0x27000), B + 32, 0, 1, 4, 0, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 0, (__ubuf__ float *)(UB_BASE + 0x27000), 0, 32);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 32, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 32);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 64, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 64);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 128, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 128);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 256, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 256);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 512, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 512);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 1024, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 1024);
    plaidc_copy_f32((__ubuf__ float *)(UB_BASE + 0x27080), 2048, (__ubuf__ float *)(UB_BASE + 0x27080), 0, 1536);
    wait_flag(PIPE_M, PIPE_V, EVENT_ID0);
    copy_matrix_cc_to_ubuf((__ubuf__ float *)(UB_BASE + 0x20000), (__cc__ float *)(L0C_BASE + 0x20000), 0, 1, 14, 0, 0, CC_MODE_F32);
    wait_flag(PIPE_M, PIPE_V, EVENT_ID1);
    copy_matrix_cc_to_ubuf((__ubuf__ float *)(UB_BASE + 0x23800), (__cc__ float *)(L0C_BASE + 0x23800), 0, 1, 14, 0, 0, CC_MODE_F32);
    vmuls((__ubuf__ float *)(UB_BASE + 0x23800), (__ubuf__ float *)(UB_BASE + 0x23800), 0x1.0000000000000p-11, 56, 1, 1, 8, 8);
    vadd((__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x20000), (__ubuf__ float *)(UB_BASE + 0x23800), 56, 1, 1, 1, 8, 8, 8);
    for (int64_t i_s1 = 0; i_s1 < 4; ++i_s1) {
      vmuls((__ubuf__ float *)(UB_BASE + (0x23800 + 32 * i_s1)), (__ubuf__ float *)(UB_BASE + (0x20000 + 3584 * i_s1 + -3552 * (i_s1 & 1))), 1, 14, 4, 2, 32, 16);
    }
    vadd((__ubuf__ float *)(UB_BASE + 0x2a880), (__ubuf__ float *)(UB_BASE + 0x23800), (__ubuf__ float *)(UB_BASE + 0x27080), 56, 1, 1, 1, 8, 8, 8);
    vrelu((__ubuf__ float *)(UB_BASE + 0x23800), (__ubuf__ float *)(UB_BASE + 0x2a880), 56, 1, 1, 8, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm(R + (32 + 7168 * i_0), (__ubuf__ float *)(UB_BASE + 0x23800), 0, 112, 4, 0, 4);
    if (i_0 < 27) {
      set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID1);
    }
  }
  pipe_barrier(PIPE_ALL);
}
