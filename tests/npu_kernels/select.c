/* Compare and select over N elements of type T (-DT, -DN, -DCMP=vcmp_xx):
 * O = CMP(X, Y) ? X : Y, and the comparison bits themselves in BITS (N/8 bytes). */
#include "plaidc_npu.h"

#define BYTES (N * (int)sizeof(T))
#define BLOCKS (BYTES / 32)
#define REPEATS (BYTES / 256)

void select_kernel(__gm__ T *X, __gm__ T *Y, __gm__ T *O, __gm__ uint8_t *BITS) {
  __ubuf__ T *x = (__ubuf__ T *)(UB_BASE + 0x00000);
  __ubuf__ T *y = (__ubuf__ T *)(UB_BASE + 0x10000);
  __ubuf__ T *o = (__ubuf__ T *)(UB_BASE + 0x20000);
  __ubuf__ uint8_t *bits = (__ubuf__ uint8_t *)(UB_BASE + 0x30000);
  copy_gm_to_ubuf(x, X, 0, 1, BLOCKS, 0, 0);
  copy_gm_to_ubuf(y, Y, 0, 1, BLOCKS, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  CMP(bits, x, y, REPEATS, 1, 1, 8, 8);
  vsel(o, x, y, bits, REPEATS, 1, 1, 1, 8, 8, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(O, o, 0, 1, BLOCKS, 0, 0);
  copy_ubuf_to_gm(BITS, bits, 0, 1, (N / 8 + 31) / 32, 0, 0);
  pipe_barrier(PIPE_ALL);
}
