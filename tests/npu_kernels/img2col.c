/* img2col_cbuf_to_ca (MTE1, load3d): a feature map F (fp16, GM) goes to L1, img2col writes its
 * convolution-window fractals to L0A with the parameters given as -D defines, and the Cube
 * multiplies them by an identity E (KF x KF fractals, already in L0B's [Ko][No] order), so that
 * C = the L0A matrix exactly, as L0C's [No][Mo][16][16] fp32 fractals. */
#include "plaidc_npu.h"

void img2col_identity(__gm__ half *F, __gm__ half *E, __gm__ float *C) {
  __cbuf__ half *f_l1 = (__cbuf__ half *)(L1_BASE + 0x20);
  __cbuf__ half *e_l1 = (__cbuf__ half *)(L1_BASE + 0x40000);
  __ca__ half *a = (__ca__ half *)L0A_BASE;
  __cb__ half *b = (__cb__ half *)L0B_BASE;
  __cc__ float *c = (__cc__ float *)L0C_BASE;
  __ubuf__ float *c_ub = (__ubuf__ float *)UB_BASE;
  copy_gm_to_cbuf(f_l1, F, 0, 1, F_BLOCKS, 0, 0);
  copy_gm_to_cbuf(e_l1, E, 0, 1, KF * KF * 16, 0, 0);
  set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  img2col_cbuf_to_ca(a, f_l1, BASE, IMG, ROW, PIX, FMH, FMW, CHANNELS, HSTART, WSTART, SH, SW, DH, DW,
                     OUTH, OUTW, MCOUNT, KW, C1, MF, KF, PAD);
  load_cbuf_to_cb(b, e_l1, 0, KF * KF, 1, 0, 0);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad(c, a, b, MF * 16, KF * 16, KF * 16, 1);
  set_flag(PIPE_M, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_V, EVENT_ID0);
  copy_matrix_cc_to_ubuf(c_ub, c, 0, 1, MF * KF, 0, 0, CC_MODE_F32);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(C, c_ub, 0, 1, MF * KF * 32, 0, 0);
  pipe_barrier(PIPE_ALL);
}

/* The L0A fractals are overwritten while the Cube still reads them: no flag orders the two. */
void img2col_war(__gm__ half *F, __gm__ half *E, __gm__ float *C) {
  __cbuf__ half *f_l1 = (__cbuf__ half *)L1_BASE;
  __ca__ half *a = (__ca__ half *)L0A_BASE;
  copy_gm_to_cbuf(f_l1, F, 0, 1, 16, 0, 0);
  set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  img2col_cbuf_to_ca(a, f_l1, 0, 0, 64, 16, 4, 4, 16, 0, 0, 1, 1, 1, 1, 4, 4, 16, 1, 1, 1, 1, 0.0);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad((__cc__ float *)L0C_BASE, a, (__cb__ half *)L0B_BASE, 16, 16, 16, 1);
  img2col_cbuf_to_ca(a, f_l1, 0, 0, 64, 16, 4, 4, 16, 0, 0, 1, 1, 1, 1, 4, 4, 16, 1, 1, 1, 1, 0.0); /* expect-error: img2col_war */
}

/* The feature map the parameters describe runs past the end of L1. */
void img2col_past_l1(__gm__ half *F, __gm__ half *E, __gm__ float *C) {
  __cbuf__ half *f_l1 = (__cbuf__ half *)(L1_BASE + L1_END - 512);
  img2col_cbuf_to_ca((__ca__ half *)L0A_BASE, f_l1, 0, 0, 128, 16, 4, 4, 16, 0, 0, 1, 1, 1, 1, 4, 4, 16, 1, 1, 1, 1, 0.0); /* expect-error: img2col_past_l1 */
}

/* img2col writes only L0A. */
void img2col_to_l0b(__gm__ half *F, __gm__ half *E, __gm__ float *C) {
  img2col_cbuf_to_ca((__cb__ half *)L0B_BASE, (__cbuf__ half *)L1_BASE, 0, 0, 64, 16, 4, 4, 16, 0, 0, 1, 1, 1, 1, 4, 4, 16, 1, 1, 1, 1, 0.0); /* expect-error: img2col_to_l0b */
}

/* A window step of 0 fractals is no transfer. */
void img2col_no_fractals(__gm__ half *F, __gm__ half *E, __gm__ float *C) {
  img2col_cbuf_to_ca((__ca__ half *)L0A_BASE, (__cbuf__ half *)L1_BASE, 0, 0, 64, 16, 4, 4, 16, 0, 0, 1, 1, 1, 1, 4, 4, 16, 1, 1, 1, 0, 0.0); /* expect-error: img2col_no_fractals */
}
