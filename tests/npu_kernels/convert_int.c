/* Integer conversions, 128 values each (2 repeats of 64 lanes):
 * I = s32(F) (truncating), G = f32(IIN), W = s32(S8IN), V = s32(U8IN), S = s8(IIN), U = u8(IIN). */
#include "plaidc_npu.h"

void convert_int(__gm__ float *F, __gm__ int32_t *I, __gm__ int32_t *IIN, __gm__ float *G,
                 __gm__ int8_t *S8IN, __gm__ int32_t *W, __gm__ uint8_t *U8IN, __gm__ int32_t *V,
                 __gm__ int8_t *S, __gm__ uint8_t *U) {
  __ubuf__ float *f = (__ubuf__ float *)(UB_BASE + 0x0000);
  __ubuf__ int32_t *i = (__ubuf__ int32_t *)(UB_BASE + 0x0200);
  __ubuf__ int32_t *iin = (__ubuf__ int32_t *)(UB_BASE + 0x0400);
  __ubuf__ float *g = (__ubuf__ float *)(UB_BASE + 0x0600);
  __ubuf__ int8_t *s8in = (__ubuf__ int8_t *)(UB_BASE + 0x0800);
  __ubuf__ int32_t *w = (__ubuf__ int32_t *)(UB_BASE + 0x0a00);
  __ubuf__ uint8_t *u8in = (__ubuf__ uint8_t *)(UB_BASE + 0x0c00);
  __ubuf__ int32_t *v = (__ubuf__ int32_t *)(UB_BASE + 0x0e00);
  __ubuf__ int8_t *s = (__ubuf__ int8_t *)(UB_BASE + 0x1000);
  __ubuf__ uint8_t *u = (__ubuf__ uint8_t *)(UB_BASE + 0x1200);
  copy_gm_to_ubuf(f, F, 0, 1, 16, 0, 0);
  copy_gm_to_ubuf(iin, IIN, 0, 1, 16, 0, 0);
  copy_gm_to_ubuf(s8in, S8IN, 0, 1, 4, 0, 0);
  copy_gm_to_ubuf(u8in, U8IN, 0, 1, 4, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  /* a repeat: 64 lanes, 8 blocks of 32-bit values and 2 blocks of 8-bit values */
  vconv_f322s32z(i, f, 2, 1, 1, 8, 8);
  vconv_s322f32(g, iin, 2, 1, 1, 8, 8);
  vconv_s82s32(w, s8in, 2, 1, 1, 8, 2);
  vconv_u82s32(v, u8in, 2, 1, 1, 8, 2);
  vconv_s322s8(s, iin, 2, 1, 1, 2, 8);
  vconv_s322u8(u, iin, 2, 1, 1, 2, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(I, i, 0, 1, 16, 0, 0);
  copy_ubuf_to_gm(G, g, 0, 1, 16, 0, 0);
  copy_ubuf_to_gm(W, w, 0, 1, 16, 0, 0);
  copy_ubuf_to_gm(V, v, 0, 1, 16, 0, 0);
  copy_ubuf_to_gm(S, s, 0, 1, 4, 0, 0);
  copy_ubuf_to_gm(U, u, 0, 1, 4, 0, 0);
  pipe_barrier(PIPE_ALL);
}
