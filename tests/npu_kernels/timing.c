/* Tiny kernels whose cycle counts the tests derive from the machine description. */
#include "plaidc_npu.h"

/* GM -> UB (64 B), one vector repeat, UB -> GM (64 B), each waiting for the previous. */
void dma_vector_dma(__gm__ float *X, __gm__ float *O) {
  __ubuf__ float *x = (__ubuf__ float *)UB_BASE;
  copy_gm_to_ubuf(x, X, 0, 1, 2, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  vadds(x, x, 1.0f, 1, 1, 1, 8, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(O, x, 0, 1, 2, 0, 0);
}

/* Overlap: while MTE2 loads 4 KiB into `a`, V works on `b` (loaded and synchronised before);
 * MTE3 stores `b` as soon as V is done and `a` once both V and MTE2 are. */
void overlap(__gm__ float *X, __gm__ float *Y, __gm__ float *O, __gm__ float *P) {
  __ubuf__ float *b = (__ubuf__ float *)UB_BASE;
  __ubuf__ float *a = (__ubuf__ float *)(UB_BASE + 0x1000);
  copy_gm_to_ubuf(b, X, 0, 1, 2, 0, 0);      /* MTE2: 64 B     */
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  copy_gm_to_ubuf(a, Y, 0, 1, 128, 0, 0);    /* MTE2: 4096 B   */
  vmuls(b, b, 3.0f, 1, 1, 1, 8, 8);          /* V, meanwhile   */
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(O, b, 0, 1, 2, 0, 0);      /* MTE3: 64 B     */
  set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID1);
  copy_ubuf_to_gm(P, a, 0, 1, 128, 0, 0);    /* MTE3: 4096 B   */
  pipe_barrier(PIPE_ALL);
}

/* The Cube path of matmul_32x64x48 in one go: L1 -> L0A (2 x 4 fractals), L1 -> L0B (4 x 3
 * fractals, transposed), one mad of 32 x 64 x 48, L0C -> UB (6 fp32 fractals). Data is
 * whatever L1 holds after one DMA; only the cycles matter. */
void cube_chain(__gm__ half *A) {
  copy_gm_to_cbuf((__cbuf__ half *)L1_BASE, A, 0, 1, 320, 0, 0); /* 20 fractals, 10 KiB */
  set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  load_cbuf_to_ca((__ca__ half *)L0A_BASE, (__cbuf__ half *)L1_BASE, 0, 8, 1, 0, 0);
  load_cbuf_to_cb((__cb__ half *)L0B_BASE, (__cbuf__ half *)L1_BASE, 8, 12, 1, 0, 1);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad((__cc__ float *)L0C_BASE, (__ca__ half *)L0A_BASE, (__cb__ half *)L0B_BASE, 32, 64, 48, 1);
  set_flag(PIPE_M, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID0);
  copy_matrix_cc_to_ubuf((__ubuf__ float *)UB_BASE, (__cc__ float *)L0C_BASE, 0, 1, 6, 0, 0,
                         CC_MODE_F32);
}

/* pipe_barrier(PIPE_ALL) makes every pipe wait for the slowest: the vector op after it starts
 * when the 4 KiB load is done, with no flag. */
void barrier(__gm__ float *X) {
  copy_gm_to_ubuf((__ubuf__ float *)UB_BASE, X, 0, 1, 128, 0, 0);
  pipe_barrier(PIPE_ALL);
  vabs((__ubuf__ float *)UB_BASE, (__ubuf__ float *)UB_BASE, 16, 1, 1, 8, 8);
}

/* O = X + 1 over TILES tiles of 512 fp32, double-buffered the way sync insertion does it: the
 * "buffer free" flags (V -> MTE2, MTE3 -> V) are raised once before the loop and drained after
 * it, so the load of tile t+1 and the store of tile t-1 overlap the compute of tile t. */
void double_buffer(__gm__ float *X, __gm__ float *O) {
  enum { TILES = 8, TILE = 512 };
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
  set_flag(PIPE_MTE3, PIPE_V, EVENT_ID1);
  for (int t = 0; t < TILES; t++) {
    event_t p = (t & 1) ? EVENT_ID1 : EVENT_ID0;
    __ubuf__ float *in = (__ubuf__ float *)(UB_BASE + 0x800 * (t & 1));
    __ubuf__ float *out = (__ubuf__ float *)(UB_BASE + 0x1000 + 0x800 * (t & 1));
    wait_flag(PIPE_V, PIPE_MTE2, p); /* V is done reading in[p] */
    copy_gm_to_ubuf(in, X + t * TILE, 0, 1, 64, 0, 0);
    set_flag(PIPE_MTE2, PIPE_V, p);
    wait_flag(PIPE_MTE2, PIPE_V, p);
    wait_flag(PIPE_MTE3, PIPE_V, p); /* MTE3 is done reading out[p] */
    vadds(out, in, 1.0f, 8, 1, 1, 8, 8);
    set_flag(PIPE_V, PIPE_MTE2, p);
    set_flag(PIPE_V, PIPE_MTE3, p);
    wait_flag(PIPE_V, PIPE_MTE3, p);
    copy_ubuf_to_gm(O + t * TILE, out, 0, 1, 64, 0, 0);
    set_flag(PIPE_MTE3, PIPE_V, p);
  }
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID1);
  pipe_barrier(PIPE_ALL);
}
