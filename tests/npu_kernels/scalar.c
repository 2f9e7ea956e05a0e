/* The scalar unit: O[p] = V[clamp(I[p], 0, 7)] for 16 indices, each element read from UB after
 * the index that picks it (a data-dependent address). */
#include "plaidc_npu.h"

void scalar_gather(__gm__ float *V, __gm__ int32_t *I, __gm__ float *O) {
  __ubuf__ float *v = (__ubuf__ float *)(UB_BASE + 0x000);
  __ubuf__ int32_t *idx = (__ubuf__ int32_t *)(UB_BASE + 0x100);
  __ubuf__ float *o = (__ubuf__ float *)(UB_BASE + 0x200);
  copy_gm_to_ubuf(v, V, 0, 1, 1, 0, 0);
  copy_gm_to_ubuf(idx, I, 0, 1, 2, 0, 0);
  set_flag(PIPE_MTE2, PIPE_S, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_S, EVENT_ID0);
  for (int p = 0; p < 16; p++) {
    int64_t k = (int64_t)ld_ubuf(idx + p);
    k = k < 0 ? 0 : k > 7 ? 7 : k;
    st_ubuf(o + p, ld_ubuf(v + k));
  }
  set_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(O, o, 0, 1, 2, 0, 0);
  pipe_barrier(PIPE_ALL);
}
