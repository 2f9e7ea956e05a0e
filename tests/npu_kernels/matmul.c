/* Cube kernels: GM -> L1 -> L0A/L0B -> mad -> L0C -> UB -> GM, fp16 x fp16 -> fp32.
 * Fractal layouts (16 x 16): L0A holds A as [Mo][Ko][16][16], L0B holds B as [Ko][No][16][16]
 * n-major within a fractal, L0C holds C as [No][Mo][16][16]. */
#include "plaidc_npu.h"

/* C[16][16] = A[16][16] . B[16][16], all row-major in GM: one fractal each. A row-major 16 x 16
 * tile is already an A fractal; B's needs transposing into n-major order on the way to L0B. */
void matmul16(__gm__ half *A, __gm__ half *B, __gm__ float *C) {
  __cbuf__ half *a_l1 = (__cbuf__ half *)(L1_BASE + 0x000);
  __cbuf__ half *b_l1 = (__cbuf__ half *)(L1_BASE + 0x200);
  __ca__ half *a = (__ca__ half *)L0A_BASE;
  __cb__ half *b = (__cb__ half *)L0B_BASE;
  __cc__ float *c = (__cc__ float *)L0C_BASE;
  __ubuf__ float *c_ub = (__ubuf__ float *)UB_BASE;
  copy_gm_to_cbuf(a_l1, A, 0, 1, 16, 0, 0); /* 512 B */
  copy_gm_to_cbuf(b_l1, B, 0, 1, 16, 0, 0);
  set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  load_cbuf_to_ca(a, a_l1, 0, 1, 1, 0, 0);
  load_cbuf_to_cb(b, b_l1, 0, 1, 1, 0, 1);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad(c, a, b, 16, 16, 16, 1);
  set_flag(PIPE_M, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID0);
  copy_matrix_cc_to_ubuf(c_ub, c, 0, 1, 1, 0, 0, CC_MODE_F32);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(C, c_ub, 0, 1, 32, 0, 0); /* 1024 B */
  pipe_barrier(PIPE_ALL);
}

/* H = half(relu(A . B)) for 16 x 16 fp16: the fused ReLU + conversion mode of L0C -> UB. */
void matmul16_relu_half(__gm__ half *A, __gm__ half *B, __gm__ half *H) {
  __cbuf__ half *a_l1 = (__cbuf__ half *)(L1_BASE + 0x000);
  __cbuf__ half *b_l1 = (__cbuf__ half *)(L1_BASE + 0x200);
  __ca__ half *a = (__ca__ half *)L0A_BASE;
  __cb__ half *b = (__cb__ half *)L0B_BASE;
  __cc__ float *c = (__cc__ float *)L0C_BASE;
  __ubuf__ half *h_ub = (__ubuf__ half *)UB_BASE;
  copy_gm_to_cbuf(a_l1, A, 0, 1, 16, 0, 0);
  copy_gm_to_cbuf(b_l1, B, 0, 1, 16, 0, 0);
  set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  load_cbuf_to_ca(a, a_l1, 0, 1, 1, 0, 0);
  load_cbuf_to_cb(b, b_l1, 0, 1, 1, 0, 1);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad(c, a, b, 16, 16, 16, 1);
  set_flag(PIPE_M, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID0);
  copy_matrix_cc_to_ubuf(h_ub, c, 0, 1, 1, 0, 0, CC_MODE_F16_RELU);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(H, h_ub, 0, 1, 16, 0, 0); /* 512 B */
  pipe_barrier(PIPE_ALL);
}

/* C = (2 AT)^T . B for 16 x 16 fp16 AT (A stored k-major) and B: AT is scaled on the vector unit,
 * moved UB -> L1 by MTE3, and transposed into an A fractal on its way to L0A. */
void matmul16_from_ub(__gm__ half *AT, __gm__ half *B, __gm__ float *C) {
  __ubuf__ half *at_ub = (__ubuf__ half *)UB_BASE;
  __ubuf__ float *c_ub = (__ubuf__ float *)(UB_BASE + 0x400);
  __cbuf__ half *a_l1 = (__cbuf__ half *)(L1_BASE + 0x000);
  __cbuf__ half *b_l1 = (__cbuf__ half *)(L1_BASE + 0x200);
  copy_gm_to_ubuf(at_ub, AT, 0, 1, 16, 0, 0);
  copy_gm_to_cbuf(b_l1, B, 0, 1, 16, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  vmuls(at_ub, at_ub, 2.0f, 2, 1, 1, 8, 8); /* 256 fp16 = 2 repeats of 128 lanes */
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_cbuf(a_l1, at_ub, 0, 1, 16, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID0);
  set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  load_cbuf_to_ca((__ca__ half *)L0A_BASE, a_l1, 0, 1, 1, 0, 1);
  load_cbuf_to_cb((__cb__ half *)L0B_BASE, b_l1, 0, 1, 1, 0, 1);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad((__cc__ float *)L0C_BASE, (__ca__ half *)L0A_BASE, (__cb__ half *)L0B_BASE, 16, 16, 16, 1);
  set_flag(PIPE_M, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID0);
  copy_matrix_cc_to_ubuf(c_ub, (__cc__ float *)L0C_BASE, 0, 1, 1, 0, 0, CC_MODE_F32);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(C, c_ub, 0, 1, 32, 0, 0);
  pipe_barrier(PIPE_ALL);
}

/* C[32][48] = A[32][64] . B[64][48], row-major in GM (M = 32, K = 64, N = 48: Mo = 2, Ko = 4,
 * No = 3), computed as two mads over K halves that accumulate in L0C.
 *   GM -> L1: A column strip ko (16 halves = one 32-B block per row) for all 32 rows lands as
 *             fractals (ko, 0), (ko, 1): L1 holds A as [Ko][Mo][16][16]. B column strip no for
 *             all 64 rows: L1 holds B as [No][Ko][16][16], k-major within a fractal.
 *   L1 -> L0: for the K half h, L0A gets A fractals (mo, 2h + j) as [Mo][2] (baseIdx 2h*Mo + mo,
 *             srcStride Mo), L0B gets B fractals (2h + j, no) as [2][No] transposed to n-major
 *             (baseIdx 2h + j, srcStride Ko).
 *   L0C -> UB -> GM: C's fractal column no (Mo fractals = 32 rows x 64 B) goes to GM columns
 *             16 no .. 16 no + 15 of all 32 rows: 32 bursts of 2 blocks, dst gap 4 blocks. */
void matmul_32x64x48(__gm__ half *A, __gm__ half *B, __gm__ float *C) {
  enum { MO = 2, KO = 4, NO = 3, FRAC = 512 };
  __cbuf__ uint8_t *a_l1 = L1_BASE;
  __cbuf__ uint8_t *b_l1 = L1_BASE + MO * KO * FRAC;
  __ubuf__ uint8_t *c_ub = UB_BASE;
  for (int ko = 0; ko < KO; ko++) /* 32 rows x 1 block, source rows 4 blocks apart */
    copy_gm_to_cbuf((__cbuf__ half *)(a_l1 + ko * MO * FRAC), A + 16 * ko, 0, 32, 1, 3, 0);
  for (int no = 0; no < NO; no++) /* 64 rows x 1 block, source rows 3 blocks apart */
    copy_gm_to_cbuf((__cbuf__ half *)(b_l1 + no * KO * FRAC), B + 16 * no, 0, 64, 1, 2, 0);
  set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  for (int h = 0; h < 2; h++) {
    __ca__ half *a = (__ca__ half *)(L0A_BASE + h * MO * 2 * FRAC);
    __cb__ half *b = (__cb__ half *)(L0B_BASE + h * 2 * NO * FRAC);
    for (int mo = 0; mo < MO; mo++)
      load_cbuf_to_ca((__ca__ half *)((__ca__ uint8_t *)a + mo * 2 * FRAC),
                      (__cbuf__ half *)a_l1, 2 * h * MO + mo, 2, MO, 0, 0);
    for (int j = 0; j < 2; j++)
      load_cbuf_to_cb((__cb__ half *)((__cb__ uint8_t *)b + j * NO * FRAC),
                      (__cbuf__ half *)b_l1, 2 * h + j, NO, KO, 0, 1);
  }
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  __cc__ float *c = (__cc__ float *)L0C_BASE;
  mad(c, (__ca__ half *)L0A_BASE, (__cb__ half *)L0B_BASE, 32, 32, 48, 1);
  mad(c, (__ca__ half *)(L0A_BASE + MO * 2 * FRAC), (__cb__ half *)(L0B_BASE + 2 * NO * FRAC), 32,
      32, 48, 0);
  set_flag(PIPE_M, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID0);
  copy_matrix_cc_to_ubuf((__ubuf__ float *)c_ub, c, 0, 1, NO * MO, 0, 0, CC_MODE_F32);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  for (int no = 0; no < NO; no++)
    copy_ubuf_to_gm(C + 16 * no, (__ubuf__ float *)(c_ub + no * MO * 1024), 0, 32, 2, 0, 4);
  pipe_barrier(PIPE_ALL);
}
