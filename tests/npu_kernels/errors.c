/* Kernels that use the hardware illegally, one mistake each. The line the simulator must blame
 * is marked `expect-error: <kernel>`; the tests check the message names it. Sizes assume the
 * default machine of targets/npu.toml (UB 256 KiB, 32-B UB alignment, 512-B L0A alignment). */
#include "plaidc_npu.h"

#define SYNC(src, dst)                                                                            \
  do {                                                                                            \
    set_flag(src, dst, EVENT_ID0);                                                                \
    wait_flag(src, dst, EVENT_ID0);                                                               \
  } while (0)

void misaligned_ub(__gm__ float *X) {
  copy_gm_to_ubuf((__ubuf__ float *)(UB_BASE + 16), X, 0, 1, 2, 0, 0); /* expect-error: misaligned_ub */
}

void misaligned_l0a(__gm__ half *A) {
  copy_gm_to_cbuf((__cbuf__ half *)L1_BASE, A, 0, 1, 16, 0, 0);
  SYNC(PIPE_MTE2, PIPE_MTE1);
  load_cbuf_to_ca((__ca__ half *)(L0A_BASE + 256), (__cbuf__ half *)L1_BASE, 0, 1, 1, 0, 0); /* expect-error: misaligned_l0a */
}

void ub_capacity(__gm__ float *X) {
  __ubuf__ float *last = (__ubuf__ float *)(UB_BASE + 0x40000 - 128); /* 128 B before the end */
  vector_dup(last, 1.0f, 1, 1, 8); /* expect-error: ub_capacity */
}

void gm_overrun(__gm__ float *X) {
  copy_gm_to_ubuf((__ubuf__ float *)UB_BASE, X, 0, 1, 4, 0, 0); /* expect-error: gm_overrun */
}

void vector_on_l1(__gm__ float *X) {
  __cbuf__ float *l1 = (__cbuf__ float *)L1_BASE;
  __ubuf__ float *ub = (__ubuf__ float *)UB_BASE;
  vadd(ub, l1, ub, 1, 1, 1, 1, 8, 8, 8); /* expect-error: vector_on_l1 */
}

void cube_reads_ub(__gm__ float *X) {
  __ubuf__ half *ub = (__ubuf__ half *)UB_BASE;
  mad((__cc__ float *)L0C_BASE, ub, (__cb__ half *)L0B_BASE, 16, 16, 16, 1); /* expect-error: cube_reads_ub */
}

void dma_wrong_memory(__gm__ float *X) {
  copy_gm_to_ubuf((__cbuf__ float *)L1_BASE, X, 0, 1, 2, 0, 0); /* expect-error: dma_wrong_memory */
}

void wrong_element_type(__gm__ float *X) {
  vadd((__ubuf__ half *)UB_BASE, (__ubuf__ float *)UB_BASE, (__ubuf__ float *)UB_BASE, 1, 1, 1, 1, 8, 8, 8); /* expect-error: wrong_element_type */
}

void repeat_too_large(__gm__ float *X) {
  vexp((__ubuf__ float *)UB_BASE, (__ubuf__ float *)UB_BASE, 256, 1, 1, 8, 8); /* expect-error: repeat_too_large */
}

void deadlock(__gm__ float *X) {
  copy_gm_to_ubuf((__ubuf__ float *)UB_BASE, X, 0, 1, 2, 0, 0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID1); /* expect-error: deadlock */
}

void double_set(__gm__ float *X) {
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2); /* expect-error: double_set */
}

/* Read-after-write: V reads what MTE2 is still writing. */
void raw_mte2_v(__gm__ float *X) {
  __ubuf__ float *x = (__ubuf__ float *)UB_BASE;
  copy_gm_to_ubuf(x, X, 0, 1, 8, 0, 0);
  vrelu(x, x, 1, 1, 1, 8, 8); /* expect-error: raw_mte2_v */
}

/* Write-after-read: the next tile's load overwrites a buffer V is still reading (a double
 * buffering bug: the V -> MTE2 flag is missing). */
void war_v_mte2(__gm__ float *X) {
  __ubuf__ float *x = (__ubuf__ float *)UB_BASE;
  __ubuf__ float *y = (__ubuf__ float *)(UB_BASE + 0x1000);
  copy_gm_to_ubuf(x, X, 0, 1, 8, 0, 0);
  SYNC(PIPE_MTE2, PIPE_V);
  vrelu(y, x, 1, 1, 1, 8, 8);
  copy_gm_to_ubuf(x, X + 64, 0, 1, 8, 0, 0); /* expect-error: war_v_mte2 */
}

/* Write-after-write: V and MTE2 both write the same bytes unordered. */
void waw_v_mte2(__gm__ float *X) {
  __ubuf__ float *x = (__ubuf__ float *)UB_BASE;
  vector_dup(x, 0.0f, 1, 1, 8);
  copy_gm_to_ubuf(x, X, 0, 1, 8, 0, 0); /* expect-error: waw_v_mte2 */
}

/* Read-after-write between the Cube and the vector pipe: L0C read before the mad is known done. */
void raw_m_v(__gm__ float *X) {
  mad((__cc__ float *)L0C_BASE, (__ca__ half *)L0A_BASE, (__cb__ half *)L0B_BASE, 16, 16, 16, 1);
  copy_matrix_cc_to_ubuf((__ubuf__ float *)UB_BASE, (__cc__ float *)L0C_BASE, 0, 1, 1, 0, 0, CC_MODE_F32); /* expect-error: raw_m_v */
}

/* Read-after-write between V and MTE3: the store to GM does not wait for the vector result. */
void raw_v_mte3(__gm__ float *X) {
  __ubuf__ float *x = (__ubuf__ float *)UB_BASE;
  vector_dup(x, 1.0f, 1, 1, 8);
  copy_ubuf_to_gm(X, x, 0, 1, 8, 0, 0); /* expect-error: raw_v_mte3 */
}

/* A flag orders only what precedes the set_flag: the vadd after it is still unordered. */
void sync_too_early(__gm__ float *X) {
  __ubuf__ float *x = (__ubuf__ float *)UB_BASE;
  copy_gm_to_ubuf(x, X, 0, 1, 8, 0, 0);
  SYNC(PIPE_MTE2, PIPE_V);
  vector_dup(x, 1.0f, 1, 1, 8);
  set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0); /* orders MTE2 with MTE3, not V with MTE3 */
  wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(X, x, 0, 1, 8, 0, 0); /* expect-error: sync_too_early */
}

/* Two cores write the same GM bytes: nothing orders cores. */
void cores_race(__gm__ float *X) {
  __ubuf__ float *x = (__ubuf__ float *)UB_BASE;
  vector_dup(x, (float)block_idx, 1, 1, 8);
  SYNC(PIPE_V, PIPE_MTE3);
  copy_ubuf_to_gm(X, x, 0, 1, 8, 0, 0); /* expect-error: cores_race */
}

void not_an_npu_address(__gm__ float *X) {
  static float host[64];
  copy_gm_to_ubuf((__ubuf__ float *)UB_BASE, host, 0, 1, 8, 0, 0); /* expect-error: not_an_npu_address */
}

/* The scalar unit reads an index MTE2 is still bringing in (no MTE2 -> S flag). */
void raw_mte2_s(__gm__ float *X) {
  __ubuf__ float *x = (__ubuf__ float *)UB_BASE;
  copy_gm_to_ubuf(x, X, 0, 1, 8, 0, 0);
  (void)ld_ubuf(x + 3); /* expect-error: raw_mte2_s */
}

/* The scalar unit's stores reach only UB. */
void scalar_store_to_l1(__gm__ float *X) {
  (void)X;
  st_ubuf((__cbuf__ float *)(L1_BASE + 64), 1.0); /* expect-error: scalar_store_to_l1 */
}

/* Each core writes its half of X, then reads the other core's half into Y: the cross-core
 * barrier orders the two (built without it with -DNO_CORE_BARRIER: a race). */
void cores_exchange(__gm__ float *X, __gm__ float *Y) {
  __ubuf__ float *x = (__ubuf__ float *)UB_BASE;
  int64_t me = block_idx, other = (block_idx + 1) % block_num;
  vector_dup(x, (float)(me + 1), 1, 1, 8);
  SYNC(PIPE_V, PIPE_MTE3);
  copy_ubuf_to_gm(X + 64 * me, x, 0, 1, 8, 0, 0); /* expect-error: cores_exchange */
#ifndef NO_CORE_BARRIER
  sync_all_cores();
#endif
  SYNC(PIPE_MTE3, PIPE_MTE2);
  copy_gm_to_ubuf(x, X + 64 * other, 0, 1, 8, 0, 0);
  SYNC(PIPE_MTE2, PIPE_MTE3);
  copy_ubuf_to_gm(Y + 64 * me, x, 0, 1, 8, 0, 0);
}

/* Core 0 waits at a barrier that core 1 never reaches: a deadlock. */
void cores_barrier_skipped(__gm__ float *X) {
  if (block_idx == 0) sync_all_cores(); /* expect-error: cores_barrier_skipped */
}
