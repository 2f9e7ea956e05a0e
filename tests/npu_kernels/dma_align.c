/* Byte-exact transfers (copy_gm_to_ubuf_align, copy_ubuf_to_gm_align): rows of a ragged
 * fp16 matrix X[ROWS][COLS] (COLS * 2 bytes: no whole number of 32-B blocks) into UB as rows
 * of PITCH elements, each row scaled by 2 on the vector unit, and back into O's rows at the
 * same places: O's other elements stay as they were. */
#include "plaidc_npu.h"

#ifndef ROWS
#define ROWS 5
#define COLS 21
#define PITCH 32
#define FIRST 3 /* the first row read: X + FIRST * COLS, at no block boundary */
#endif

void rows_in_and_out(__gm__ half *X, __gm__ half *O) {
  __ubuf__ half *x = (__ubuf__ half *)(UB_BASE + 0x0);
  const int64_t row_blocks = (COLS * 2 + 31) / 32, pitch_blocks = PITCH * 2 / 32;
  copy_gm_to_ubuf_align(x, X + FIRST * COLS, 0, ROWS, COLS * 2, 0, pitch_blocks - row_blocks);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  vmuls(x, x, 2.0f, (ROWS * PITCH + 127) / 128, 1, 1, 8, 8);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm_align(O + FIRST * COLS, x, 0, ROWS, COLS * 2, pitch_blocks - row_blocks, 0);
  pipe_barrier(PIPE_ALL);
}

/* Every other row: GM gaps of one row (in bytes). */
void every_other_row(__gm__ half *X, __gm__ half *O) {
  __ubuf__ half *x = (__ubuf__ half *)(UB_BASE + 0x0);
  const int64_t row_blocks = (COLS * 2 + 31) / 32;
  copy_gm_to_ubuf_align(x, X + 1 * COLS, 0, 2, COLS * 2, COLS * 2, 0);
  set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm_align(O, x, 0, 2, COLS * 2, 0, COLS * 2);
  pipe_barrier(PIPE_ALL);
  (void)row_blocks;
}

/* UB must still be on a block: 16 bytes in is an error. */
void misaligned_ub_align(__gm__ half *X) {
  __ubuf__ half *x = (__ubuf__ half *)(UB_BASE + 0x10);
  copy_gm_to_ubuf_align(x, X + 1, 0, 1, 6, 0, 0); /* expect-error: misaligned_ub_align */
  pipe_barrier(PIPE_ALL);
}
