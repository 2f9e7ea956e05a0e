/* Conversions: H = half(F) and G = float(HIN), 128 values each (2 repeats of 64 lanes). */
#include "plaidc_npu.h"

void convert(__gm__ float *F, __gm__ half *H, __gm__ half *HIN, __gm__ float *G) {
  __ubuf__ float *f = (__ubuf__ float *)(UB_BASE + 0x000);
  __ubuf__ half *h = (__ubuf__ half *)(UB_BASE + 0x200);
  __ubuf__ half *hin = (__ubuf__ half *)(UB_BASE + 0x400);
  __ubuf__ float *g = (__ubuf__ float *)(UB_BASE + 0x600);
  copy_gm_to_ubuf(f, F, 0, 1, 16, 0, 0);  /* 512 B */
  copy_gm_to_ubuf(hin, HIN, 0, 1, 8, 0, 0); /* 256 B */
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  /* a repeat reads 8 blocks of fp32 and writes 4 blocks of fp16 (and the reverse) */
  vconv_f322f16(h, f, 2, 1, 1, 4, 8);
  vconv_f162f32(g, hin, 2, 1, 1, 8, 4);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(H, h, 0, 1, 8, 0, 0);
  copy_ubuf_to_gm(G, g, 0, 1, 16, 0, 0);
  pipe_barrier(PIPE_ALL);
}
