/* 16-bit integer conversions, 128 values each (2 repeats of 64 lanes):
 * W = s32(S16IN), V = s32(U16IN), S = s16(IIN), U = u16(IIN). */
#include "plaidc_npu.h"

void convert_int16(__gm__ int16_t *S16IN, __gm__ int32_t *W, __gm__ uint16_t *U16IN,
                   __gm__ int32_t *V, __gm__ int32_t *IIN, __gm__ int16_t *S, __gm__ uint16_t *U) {
  __ubuf__ int16_t *s16in = (__ubuf__ int16_t *)(UB_BASE + 0x0000);
  __ubuf__ int32_t *w = (__ubuf__ int32_t *)(UB_BASE + 0x0200);
  __ubuf__ uint16_t *u16in = (__ubuf__ uint16_t *)(UB_BASE + 0x0400);
  __ubuf__ int32_t *v = (__ubuf__ int32_t *)(UB_BASE + 0x0600);
  __ubuf__ int32_t *iin = (__ubuf__ int32_t *)(UB_BASE + 0x0800);
  __ubuf__ int16_t *s = (__ubuf__ int16_t *)(UB_BASE + 0x0a00);
  __ubuf__ uint16_t *u = (__ubuf__ uint16_t *)(UB_BASE + 0x0c00);
  copy_gm_to_ubuf(s16in, S16IN, 0, 1, 8, 0, 0);
  copy_gm_to_ubuf(u16in, U16IN, 0, 1, 8, 0, 0);
  copy_gm_to_ubuf(iin, IIN, 0, 1, 16, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  /* a repeat: 64 lanes, 8 blocks of 32-bit values and 4 blocks of 16-bit values */
  vconv_s162s32(w, s16in, 2, 1, 1, 8, 4);
  vconv_u162s32(v, u16in, 2, 1, 1, 8, 4);
  vconv_s322s16(s, iin, 2, 1, 1, 4, 8);
  vconv_s322u16(u, iin, 2, 1, 1, 4, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(W, w, 0, 1, 16, 0, 0);
  copy_ubuf_to_gm(V, v, 0, 1, 16, 0, 0);
  copy_ubuf_to_gm(S, s, 0, 1, 8, 0, 0);
  copy_ubuf_to_gm(U, u, 0, 1, 8, 0, 0);
  pipe_barrier(PIPE_ALL);
}
