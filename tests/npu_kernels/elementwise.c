/* One elementwise vector op over N elements of type T, chosen at compile time:
 *   -DT=float|half|int32_t -DN=<elements, a multiple of 256 B> and one of
 *   -DUNARY=<op>  -DBINARY=<op>  -DSCALAR=<op> -DVALUE=<scalar>  -DDUP -DVALUE=<scalar>
 * O = op(X [, Y | VALUE]). */
#include "plaidc_npu.h"

#define BYTES (N * (int)sizeof(T))
#define BLOCKS (BYTES / 32)
#define REPEATS (BYTES / 256)

void elementwise(__gm__ T *X, __gm__ T *Y, __gm__ T *O) {
  __ubuf__ T *x = (__ubuf__ T *)(UB_BASE + 0x00000);
  __ubuf__ T *y = (__ubuf__ T *)(UB_BASE + 0x10000);
  __ubuf__ T *o = (__ubuf__ T *)(UB_BASE + 0x20000);
  copy_gm_to_ubuf(x, X, 0, 1, BLOCKS, 0, 0);
  copy_gm_to_ubuf(y, Y, 0, 1, BLOCKS, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
#if defined(UNARY)
  UNARY(o, x, REPEATS, 1, 1, 8, 8);
#elif defined(BINARY)
  BINARY(o, x, y, REPEATS, 1, 1, 1, 8, 8, 8);
#elif defined(SCALAR)
  SCALAR(o, x, VALUE, REPEATS, 1, 1, 8, 8);
#elif defined(DUP)
  vector_dup(o, VALUE, REPEATS, 1, 8);
#else
#error "choose -DUNARY, -DBINARY, -DSCALAR or -DDUP"
#endif
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(O, o, 0, 1, BLOCKS, 0, 0);
  pipe_barrier(PIPE_ALL);
}
