/* Vector-unit kernels: DMA into UB, vector ops, DMA back to GM (fp32). */
#include "plaidc_npu.h"

/* O = exp(relu(X) + Y) over 512 fp32 values: 8 repeats of 64 lanes. */
void relu_add_exp(__gm__ float *X, __gm__ float *Y, __gm__ float *O) {
  __ubuf__ float *x = (__ubuf__ float *)(UB_BASE + 0x0000);
  __ubuf__ float *y = (__ubuf__ float *)(UB_BASE + 0x0800);
  __ubuf__ float *t = (__ubuf__ float *)(UB_BASE + 0x1000);
  copy_gm_to_ubuf(x, X, 0, 1, 64, 0, 0); /* 64 blocks = 2048 B */
  copy_gm_to_ubuf(y, Y, 0, 1, 64, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  vrelu(t, x, 8, 1, 1, 8, 8);
  vadd(t, t, y, 8, 1, 1, 1, 8, 8, 8);
  vexp(t, t, 8, 1, 1, 8, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(O, t, 0, 1, 64, 0, 0);
  pipe_barrier(PIPE_ALL);
}

/* The same over 1024 values split across the cores: core i takes 512 values at 512*i. */
void relu_add_exp_cores(__gm__ float *X, __gm__ float *Y, __gm__ float *O) {
  int64_t base = 512 * block_idx;
  relu_add_exp(X + base, Y + base, O + base);
}

/* Strided and masked: O[i] = 2 X[i] in the 32-B blocks 0, 2, 16 and 18 of 256 fp32 values (two
 * repeats, block stride 2, repeat stride 16; lanes 0-15 are the first two blocks of a repeat);
 * every other value of O is copied through UB unchanged. */
void strided_masked(__gm__ float *X, __gm__ float *O) {
  __ubuf__ float *x = (__ubuf__ float *)(UB_BASE + 0x0000);
  __ubuf__ float *o = (__ubuf__ float *)(UB_BASE + 0x1000);
  copy_gm_to_ubuf(x, X, 0, 1, 32, 0, 0); /* 1024 B */
  copy_gm_to_ubuf(o, O, 0, 1, 32, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  set_vector_mask(0, 0xFFFF); /* lanes 0-15: blocks 0 and 1 of each repeat */
  vmuls(o, x, 2.0f, 2, 2, 2, 16, 16); /* repeat r: blocks 16r + 0 and 16r + 2 */
  set_vector_mask((uint64_t)-1, (uint64_t)-1);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(O, o, 0, 1, 32, 0, 0);
  pipe_barrier(PIPE_ALL);
}
