/* Row reductions: X is 4 rows of 64 fp32, XH 2 rows of 128 fp16.
 * SUM/MAX/MIN[r] reduce row r of X; PART[r] sums lanes 0-15 of row r (masked);
 * HSUM[r] sums row r of XH. Outputs hold 8 (fp32) or 16 (fp16) elements: one 32-B block. */
#include "plaidc_npu.h"

void reduce(__gm__ float *X, __gm__ half *XH, __gm__ float *SUM, __gm__ float *MAX,
            __gm__ float *MIN, __gm__ float *PART, __gm__ half *HSUM) {
  __ubuf__ float *x = (__ubuf__ float *)(UB_BASE + 0x000);
  __ubuf__ half *xh = (__ubuf__ half *)(UB_BASE + 0x400);
  __ubuf__ float *sum = (__ubuf__ float *)(UB_BASE + 0x600);
  __ubuf__ float *max = (__ubuf__ float *)(UB_BASE + 0x620);
  __ubuf__ float *min = (__ubuf__ float *)(UB_BASE + 0x640);
  __ubuf__ float *part = (__ubuf__ float *)(UB_BASE + 0x660);
  __ubuf__ half *hsum = (__ubuf__ half *)(UB_BASE + 0x680);
  copy_gm_to_ubuf(x, X, 0, 1, 32, 0, 0);
  copy_gm_to_ubuf(xh, XH, 0, 1, 16, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  vcadd(sum, x, 4, 1, 1, 8); /* result r at sum + r elements */
  vcmax(max, x, 4, 1, 1, 8);
  vcmin(min, x, 4, 1, 1, 8);
  vcadd(hsum, xh, 2, 1, 1, 8);
  set_vector_mask(0, 0xFFFF);
  vcadd(part, x, 4, 1, 1, 8);
  set_vector_mask((uint64_t)-1, (uint64_t)-1);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(SUM, sum, 0, 1, 1, 0, 0);
  copy_ubuf_to_gm(MAX, max, 0, 1, 1, 0, 0);
  copy_ubuf_to_gm(MIN, min, 0, 1, 1, 0, 0);
  copy_ubuf_to_gm(PART, part, 0, 1, 1, 0, 0);
  copy_ubuf_to_gm(HSUM, hsum, 0, 1, 1, 0, 0);
  pipe_barrier(PIPE_ALL);
}
