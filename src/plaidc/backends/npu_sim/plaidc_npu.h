/*
 * plaidc_npu.h — the CCE-like dialect plaidc's `npu` target emits (docs/NPU.md).
 *
 * A kernel is plain C11 that includes this header. Every intrinsic is a macro that records the
 * call site (__FILE__, __LINE__) and calls the simulator runtime (sim.c, sim_vector.c), which
 * executes it on simulated memories, checks that the hardware could execute it, and charges its
 * cost to its pipe. Nothing here is sized: capacities, alignments, latencies and bandwidths come
 * from the machine description (the target config's [hardware] table) at run time.
 *
 * Addresses. Every NPU memory (GM and the on-chip buffers) is a window of the host's address
 * space that is never dereferenced: `UB_BASE + 0x100` is the address 0x100 of UB, and a __gm__
 * kernel argument is an address in the GM window. The simulator decodes an address into
 * (memory, byte offset), so it knows which memory an operand lies in, whatever its C type says.
 * Kernels compute addresses and hand them to intrinsics; they never load or store through them
 * (the scalar unit reads and writes UB elements through ld_ubuf / st_ubuf).
 *
 * Element types come from the C pointer types (C11 _Generic): `half *` (IEEE binary16),
 * `float *`, `int32_t *`; `int8_t *` / `uint8_t *` for 8-bit integers (conversions only) and
 * `uint8_t *` for the bit masks of vcmp_* / vsel.
 */
#ifndef PLAIDC_NPU_H
#define PLAIDC_NPU_H

#include <stdint.h>

_Static_assert(sizeof(void *) == 8, "the NPU simulator needs a 64-bit host");

/* ---- Address-space qualifiers ---------------------------------------------------------------
 * On the real chip these are type qualifiers the CCE compiler checks. Here they document intent;
 * the simulator checks the memory each operand actually lies in (its address window), which is
 * what the hardware itself would see. */
#define __gm__   /* global memory (host arrays)           */
#define __cbuf__ /* L1 buffer                             */
#define __ubuf__ /* unified buffer (vector unit)          */
#define __ca__   /* L0A: left Cube operand (fp16 fractals)  */
#define __cb__   /* L0B: right Cube operand (fp16 fractals) */
#define __cc__   /* L0C: Cube accumulator (fp32 fractals)   */

/* IEEE binary16 as a distinct C type, so that _Generic can tell `half *` from other pointers.
 * Kernels only pass `half *` addresses around; the simulator does the arithmetic. */
typedef struct plaidc_half {
  uint16_t bits;
} half;

/* ---- Memories, pipes, events: the ISA's enumerations ----------------------------------------- */
enum plaidc_npu_mem {
  PLAIDC_MEM_GM,
  PLAIDC_MEM_L1,
  PLAIDC_MEM_UB,
  PLAIDC_MEM_L0A,
  PLAIDC_MEM_L0B,
  PLAIDC_MEM_L0C,
  PLAIDC_NMEM
};

typedef enum plaidc_npu_pipe {
  PIPE_S,    /* scalar unit                                           */
  PIPE_V,    /* vector unit (and L0C -> UB)                           */
  PIPE_M,    /* Cube unit (mad)                                       */
  PIPE_MTE1, /* L1 -> L0A/L0B                                         */
  PIPE_MTE2, /* GM -> L1/UB                                           */
  PIPE_MTE3, /* UB -> GM/L1                                           */
  PIPE_ALL,  /* only for pipe_barrier: every pipe                     */
  PLAIDC_NPIPES = PIPE_ALL
} pipe_t;

typedef enum plaidc_npu_event {
  EVENT_ID0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7,
  PLAIDC_NEVENTS
} event_t;

/* Data paths, for the bytes-per-path report and the per-path latency/bandwidth of the machine. */
enum plaidc_npu_path {
  PLAIDC_PATH_GM_UB,
  PLAIDC_PATH_GM_L1,
  PLAIDC_PATH_UB_GM,
  PLAIDC_PATH_UB_L1,
  PLAIDC_PATH_L1_L0A,
  PLAIDC_PATH_L1_L0B,
  PLAIDC_PATH_L0C_UB,
  PLAIDC_NPATHS
};

/* Encoding units of the ISA (not machine sizes): DMA bursts, gaps and vector strides count 32-B
 * blocks; the vector mask has 128 lanes; field widths bound the counts. */
#define PLAIDC_NPU_BLOCK_BYTES 32
#define PLAIDC_NPU_MASK_LANES 128
#define PLAIDC_NPU_MAX_NBURST 4095
#define PLAIDC_NPU_MAX_LENBURST 65535
#define PLAIDC_NPU_MAX_GAP 65535
#define PLAIDC_NPU_MAX_BYTE_GAP 4294967295
#define PLAIDC_NPU_MAX_REPEAT 255
#define PLAIDC_NPU_MAX_STRIDE 65535
#define PLAIDC_NPU_MAX_MAD_DIM 4095

/* copy_matrix_cc_to_ubuf modes: bit 0 converts f32 -> f16, bit 1 applies ReLU. */
#define CC_MODE_F32 0
#define CC_MODE_F16 1
#define CC_MODE_F32_RELU 2
#define CC_MODE_F16_RELU 3

/* ---- Address windows ----------------------------------------------------------------------- */
/* Memory k occupies [((k+1) << 41) - 2^40, ((k+1) << 41) + 2^40): offsets are signed, so that an
 * address just below a buffer's base is reported as a negative offset of that buffer. */
#define PLAIDC_NPU_WINDOW_SHIFT 41
#define PLAIDC_NPU_WINDOW(mem) ((uintptr_t)(((uint64_t)(mem) + 1u) << PLAIDC_NPU_WINDOW_SHIFT))

#define L1_BASE ((__cbuf__ uint8_t *)PLAIDC_NPU_WINDOW(PLAIDC_MEM_L1))
#define UB_BASE ((__ubuf__ uint8_t *)PLAIDC_NPU_WINDOW(PLAIDC_MEM_UB))
#define L0A_BASE ((__ca__ uint8_t *)PLAIDC_NPU_WINDOW(PLAIDC_MEM_L0A))
#define L0B_BASE ((__cb__ uint8_t *)PLAIDC_NPU_WINDOW(PLAIDC_MEM_L0B))
#define L0C_BASE ((__cc__ uint8_t *)PLAIDC_NPU_WINDOW(PLAIDC_MEM_L0C))

/* ---- Runtime interface ------------------------------------------------------------------- */
/* Where an intrinsic was called: its name and its line in the generated C. */
typedef struct plaidc_npu_site {
  const char *name;
  const char *file;
  int line;
} plaidc_npu_site;

#define PLAIDC_SITE(name) ((plaidc_npu_site){(name), __FILE__, __LINE__})

enum plaidc_npu_dtype {
  PLAIDC_DT_NONE,
  PLAIDC_DT_F16,
  PLAIDC_DT_F32,
  PLAIDC_DT_S32,
  PLAIDC_DT_U8,
  PLAIDC_DT_S8,
  PLAIDC_DT_S16,
  PLAIDC_DT_U16
};

/* The element type an operand's C pointer type names (NONE for anything else, e.g. uint8_t * where
 * numbers are expected: the simulator reports it with the call site). */
#define PLAIDC_DT(p)                                                                              \
  _Generic((p),                                                                                   \
      half *: PLAIDC_DT_F16,                                                                      \
      const half *: PLAIDC_DT_F16,                                                                \
      float *: PLAIDC_DT_F32,                                                                     \
      const float *: PLAIDC_DT_F32,                                                               \
      int32_t *: PLAIDC_DT_S32,                                                                   \
      const int32_t *: PLAIDC_DT_S32,                                                             \
      uint8_t *: PLAIDC_DT_U8,                                                                    \
      const uint8_t *: PLAIDC_DT_U8,                                                              \
      int8_t *: PLAIDC_DT_S8,                                                                     \
      const int8_t *: PLAIDC_DT_S8,                                                               \
      int16_t *: PLAIDC_DT_S16,                                                                   \
      const int16_t *: PLAIDC_DT_S16,                                                             \
      uint16_t *: PLAIDC_DT_U16,                                                                  \
      const uint16_t *: PLAIDC_DT_U16,                                                            \
      default: PLAIDC_DT_NONE)

/* Vector operations (docs/NPU.md), in the order of isa.VECTOR_TABLE (< 64: `lacks` is a mask). */
enum plaidc_npu_vop {
  PLAIDC_VADD, PLAIDC_VSUB, PLAIDC_VMUL, PLAIDC_VMAX, PLAIDC_VMIN,
  PLAIDC_VEXP, PLAIDC_VLN, PLAIDC_VABS, PLAIDC_VRELU, PLAIDC_VREC, PLAIDC_VSQRT, PLAIDC_VRSQRT,
  PLAIDC_VADDS, PLAIDC_VMULS, PLAIDC_VECTOR_DUP,
  PLAIDC_VCONV_F322F16, PLAIDC_VCONV_F162F32,
  PLAIDC_VCONV_S322F32, PLAIDC_VCONV_F322S32Z,
  PLAIDC_VCONV_F322S32F, PLAIDC_VCONV_F322S32C, PLAIDC_VCONV_F322S32A,
  PLAIDC_VCONV_S82S32, PLAIDC_VCONV_U82S32, PLAIDC_VCONV_S322S8, PLAIDC_VCONV_S322U8,
  PLAIDC_VCONV_S162S32, PLAIDC_VCONV_U162S32, PLAIDC_VCONV_S322S16, PLAIDC_VCONV_S322U16,
  PLAIDC_VCADD, PLAIDC_VCMAX, PLAIDC_VCMIN,
  PLAIDC_VCMP_EQ, PLAIDC_VCMP_NE, PLAIDC_VCMP_LT, PLAIDC_VCMP_LE, PLAIDC_VCMP_GT, PLAIDC_VCMP_GE,
  PLAIDC_VSEL, PLAIDC_VADDRELU,
  PLAIDC_NVOPS
};
/* The intrinsics a chip may lack beyond the vector ops (isa.ALIGN_DMAS): their bits of `lacks`. */
enum plaidc_npu_optional_dma {
  PLAIDC_LACKS_GM_UB_ALIGN = PLAIDC_NVOPS, PLAIDC_LACKS_UB_GM_ALIGN,
  PLAIDC_NOPTIONAL
};
_Static_assert(PLAIDC_NOPTIONAL <= 64, "plaidc_npu_machine.lacks holds one bit per optional op");

/* One vector operand: address, element type, block stride and repeat stride (32-B units, except
 * the per-repeat result of a reduction, whose repeat stride counts elements). */
typedef struct plaidc_npu_vopnd {
  const void *addr;
  int dtype;
  int64_t block_stride;
  int64_t repeat_stride;
} plaidc_npu_vopnd;

#define PLAIDC_VOPND(p, blk, rep) ((plaidc_npu_vopnd){(const void *)(p), PLAIDC_DT(p), (blk), (rep)})
#define PLAIDC_NO_VOPND ((plaidc_npu_vopnd){0, PLAIDC_DT_NONE, 0, 0})

void plaidc_npu_dma(plaidc_npu_site site, int path, void *dst, const void *src, int64_t sid,
                    int64_t n_burst, int64_t len_burst, int64_t src_gap, int64_t dst_gap);
void plaidc_npu_dma_align(plaidc_npu_site site, int path, void *dst, const void *src,
                          int64_t sid, int64_t n_burst, int64_t len_burst, int64_t src_gap,
                          int64_t dst_gap);
void plaidc_npu_load_fractal(plaidc_npu_site site, int path, void *dst, const void *src,
                             int64_t base_idx, int64_t repeat, int64_t src_stride, int64_t sid,
                             int64_t transpose);
void plaidc_npu_img2col(plaidc_npu_site site, void *dst, int dst_dtype, const void *src,
                        int src_dtype, const int64_t *params, double pad_value);
void plaidc_npu_mad(plaidc_npu_site site, void *c, int c_dtype, const void *a, int a_dtype,
                    const void *b, int b_dtype, int64_t m, int64_t k, int64_t n, int64_t init);
void plaidc_npu_copy_cc(plaidc_npu_site site, void *dst, int dst_dtype, const void *src,
                        int src_dtype, int64_t sid, int64_t n_burst, int64_t len_burst,
                        int64_t src_gap, int64_t dst_gap, int64_t mode);
void plaidc_npu_set_vector_mask(plaidc_npu_site site, uint64_t hi, uint64_t lo);
void plaidc_npu_vector(plaidc_npu_site site, int op, plaidc_npu_vopnd dst, plaidc_npu_vopnd src0,
                       plaidc_npu_vopnd src1, plaidc_npu_vopnd sel, double scalar,
                       int64_t repeat);
void plaidc_npu_set_flag(plaidc_npu_site site, int64_t src_pipe, int64_t dst_pipe, int64_t event);
void plaidc_npu_wait_flag(plaidc_npu_site site, int64_t src_pipe, int64_t dst_pipe, int64_t event);
void plaidc_npu_pipe_barrier(plaidc_npu_site site, int64_t pipe);
void plaidc_npu_sync_all_cores(plaidc_npu_site site);
double plaidc_npu_scalar_load(plaidc_npu_site site, const void *p, int dtype);
void plaidc_npu_scalar_store(plaidc_npu_site site, void *p, int dtype, double value);
int64_t plaidc_npu_block_idx(void);
int64_t plaidc_npu_block_num(void);

/* ---- The dialect ----------------------------------------------------------------------------- */

/* Multi-core: which core runs this instance of the kernel, and how many run it. */
#define block_idx (plaidc_npu_block_idx())
#define block_num (plaidc_npu_block_num())

/* DMA: nBurst bursts of lenBurst x 32 B; burst b reads src + b*(lenBurst+srcGap)*32 and writes
 * dst + b*(lenBurst+dstGap)*32. sid (stream id) is accepted and ignored. */
#define copy_gm_to_ubuf(dst, src, sid, nBurst, lenBurst, srcGap, dstGap)                         \
  plaidc_npu_dma(PLAIDC_SITE("copy_gm_to_ubuf"), PLAIDC_PATH_GM_UB, (dst), (src), (sid),         \
                 (nBurst), (lenBurst), (srcGap), (dstGap))
#define copy_gm_to_cbuf(dst, src, sid, nBurst, lenBurst, srcGap, dstGap)                         \
  plaidc_npu_dma(PLAIDC_SITE("copy_gm_to_cbuf"), PLAIDC_PATH_GM_L1, (dst), (src), (sid),         \
                 (nBurst), (lenBurst), (srcGap), (dstGap))
#define copy_ubuf_to_gm(dst, src, sid, nBurst, lenBurst, srcGap, dstGap)                         \
  plaidc_npu_dma(PLAIDC_SITE("copy_ubuf_to_gm"), PLAIDC_PATH_UB_GM, (dst), (src), (sid),         \
                 (nBurst), (lenBurst), (srcGap), (dstGap))
#define copy_ubuf_to_cbuf(dst, src, sid, nBurst, lenBurst, srcGap, dstGap)                       \
  plaidc_npu_dma(PLAIDC_SITE("copy_ubuf_to_cbuf"), PLAIDC_PATH_UB_L1, (dst), (src), (sid),       \
                 (nBurst), (lenBurst), (srcGap), (dstGap))

/* Byte-exact DMA between GM and UB (the CCE's `_align` transfers): nBurst bursts of lenBurst
 * BYTES. GM needs no alignment: burst b is GM bytes [g + b*(lenBurst+gmGap), + lenBurst), g the
 * GM pointer; in UB each burst starts on a 32-B block, ceil(lenBurst/32) blocks apart plus the UB
 * gap (in blocks): u + b*(ceil(lenBurst/32)+ubGap)*32. Into UB, the rest of a burst's last block
 * is zero; into GM, only the burst's bytes are written. srcGap/dstGap are the source's and the
 * destination's gaps (GM's in bytes, UB's in blocks). */
#define copy_gm_to_ubuf_align(dst, src, sid, nBurst, lenBurst, srcGap, dstGap)                   \
  plaidc_npu_dma_align(PLAIDC_SITE("copy_gm_to_ubuf_align"), PLAIDC_PATH_GM_UB, (dst), (src),    \
                       (sid), (nBurst), (lenBurst), (srcGap), (dstGap))
#define copy_ubuf_to_gm_align(dst, src, sid, nBurst, lenBurst, srcGap, dstGap)                   \
  plaidc_npu_dma_align(PLAIDC_SITE("copy_ubuf_to_gm_align"), PLAIDC_PATH_UB_GM, (dst), (src),    \
                       (sid), (nBurst), (lenBurst), (srcGap), (dstGap))

/* Fractal loads (MTE1): `repeat` fractals; fractal r of dst (contiguous) is fractal
 * baseIdx + r*srcStride of src, transposed within the fractal if `transpose`. */
#define load_cbuf_to_ca(dst, src, baseIdx, repeat, srcStride, sid, transpose)                    \
  plaidc_npu_load_fractal(PLAIDC_SITE("load_cbuf_to_ca"), PLAIDC_PATH_L1_L0A, (dst), (src),      \
                          (baseIdx), (repeat), (srcStride), (sid), (transpose))
#define load_cbuf_to_cb(dst, src, baseIdx, repeat, srcStride, sid, transpose)                    \
  plaidc_npu_load_fractal(PLAIDC_SITE("load_cbuf_to_cb"), PLAIDC_PATH_L1_L0B, (dst), (src),      \
                          (baseIdx), (repeat), (srcStride), (sid), (transpose))

/* img2col (MTE1, the DaVinci's load3d): the convolution-window fractals of fp16 feature maps in
 * L1, written to L0A as mFractals x kFractals fractals [Mo][Ko][cube_m][cube_k]. Element
 * (b, h, w, c) of the maps is src[base + b*imgStride + h*rowStride + w*pixStride + c] for
 * h < fmH, w < fmW, c < channels. Row m of the matrix is image b = m / (outH*outW), output
 * position (p, q) = ((m / outW) % outH, m % outW); column fractal ko is window position
 * (u, v) = ((ko / c1) / kW, (ko / c1) % kW) and channels (ko % c1)*cube_k + [0, cube_k). It
 * reads element (b, hStart + strideH*p + dilH*u, wStart + strideW*q + dilW*v, c), or writes
 * padValue where m >= mCount, c >= channels or the position is outside the map (padding). */
#define img2col_cbuf_to_ca(dst, src, base, imgStride, rowStride, pixStride, fmH, fmW, channels,  \
                           hStart, wStart, strideH, strideW, dilH, dilW, outH, outW, mCount, kW,  \
                           c1, mFractals, kFractals, padValue)                                    \
  plaidc_npu_img2col(PLAIDC_SITE("img2col_cbuf_to_ca"), (dst), PLAIDC_DT(dst), (src),            \
                     PLAIDC_DT(src),                                                              \
                     (const int64_t[]){(base), (imgStride), (rowStride), (pixStride), (fmH),     \
                                       (fmW), (channels), (hStart), (wStart), (strideH),          \
                                       (strideW), (dilH), (dilW), (outH), (outW), (mCount), (kW), \
                                       (c1), (mFractals), (kFractals)},                           \
                     (double)(padValue))

/* Cube: C[m x n] (init ? = : +=) A[m x k] . B[k x n] on fractal layouts, fp16 x fp16 -> fp32. */
#define mad(c, a, b, m, k, n, init)                                                               \
  plaidc_npu_mad(PLAIDC_SITE("mad"), (c), PLAIDC_DT(c), (a), PLAIDC_DT(a), (b), PLAIDC_DT(b), (m), \
                 (k), (n), (init))

/* L0C -> UB (vector pipe): bursts of lenBurst fractals; mode CC_MODE_* converts / applies ReLU. */
#define copy_matrix_cc_to_ubuf(dst, src, sid, nBurst, lenBurst, srcGap, dstGap, mode)           \
  plaidc_npu_copy_cc(PLAIDC_SITE("copy_matrix_cc_to_ubuf"), (dst), PLAIDC_DT(dst), (src),       \
                     PLAIDC_DT(src), (sid), (nBurst), (lenBurst), (srcGap), (dstGap), (mode))

/* Vector unit. Lane i of the 128-lane mask is bit i of lo (i < 64) or bit i-64 of hi. */
#define set_vector_mask(hi, lo)                                                                   \
  plaidc_npu_set_vector_mask(PLAIDC_SITE("set_vector_mask"), (hi), (lo))

#define PLAIDC_VBINARY(name, op, dst, src0, src1, repeat, dstBlk, src0Blk, src1Blk, dstRep,      \
                       src0Rep, src1Rep)                                                          \
  plaidc_npu_vector(PLAIDC_SITE(name), (op), PLAIDC_VOPND(dst, dstBlk, dstRep),                 \
                    PLAIDC_VOPND(src0, src0Blk, src0Rep), PLAIDC_VOPND(src1, src1Blk, src1Rep),  \
                    PLAIDC_NO_VOPND, 0.0, (repeat))
#define PLAIDC_VUNARY(name, op, dst, src, repeat, dstBlk, srcBlk, dstRep, srcRep)                \
  plaidc_npu_vector(PLAIDC_SITE(name), (op), PLAIDC_VOPND(dst, dstBlk, dstRep),                 \
                    PLAIDC_VOPND(src, srcBlk, srcRep), PLAIDC_NO_VOPND, PLAIDC_NO_VOPND, 0.0,     \
                    (repeat))
#define PLAIDC_VSCALAR(name, op, dst, src, scalar, repeat, dstBlk, srcBlk, dstRep, srcRep)       \
  plaidc_npu_vector(PLAIDC_SITE(name), (op), PLAIDC_VOPND(dst, dstBlk, dstRep),                 \
                    PLAIDC_VOPND(src, srcBlk, srcRep), PLAIDC_NO_VOPND, PLAIDC_NO_VOPND,          \
                    (double)(scalar), (repeat))
#define PLAIDC_VREDUCE(name, op, dst, src, repeat, dstRep, srcBlk, srcRep)                        \
  plaidc_npu_vector(PLAIDC_SITE(name), (op), PLAIDC_VOPND(dst, 0, dstRep),                      \
                    PLAIDC_VOPND(src, srcBlk, srcRep), PLAIDC_NO_VOPND, PLAIDC_NO_VOPND, 0.0,     \
                    (repeat))
#define PLAIDC_VCMP(name, op, dst, src0, src1, repeat, src0Blk, src1Blk, src0Rep, src1Rep)       \
  plaidc_npu_vector(PLAIDC_SITE(name), (op), PLAIDC_VOPND(dst, 0, 0),                           \
                    PLAIDC_VOPND(src0, src0Blk, src0Rep), PLAIDC_VOPND(src1, src1Blk, src1Rep),  \
                    PLAIDC_NO_VOPND, 0.0, (repeat))

/* dst = src0 op src1, elementwise. */
#define vadd(d, s0, s1, r, db, s0b, s1b, dr, s0r, s1r)                                          \
  PLAIDC_VBINARY("vadd", PLAIDC_VADD, d, s0, s1, r, db, s0b, s1b, dr, s0r, s1r)
#define vsub(d, s0, s1, r, db, s0b, s1b, dr, s0r, s1r)                                          \
  PLAIDC_VBINARY("vsub", PLAIDC_VSUB, d, s0, s1, r, db, s0b, s1b, dr, s0r, s1r)
#define vmul(d, s0, s1, r, db, s0b, s1b, dr, s0r, s1r)                                          \
  PLAIDC_VBINARY("vmul", PLAIDC_VMUL, d, s0, s1, r, db, s0b, s1b, dr, s0r, s1r)
#define vmax(d, s0, s1, r, db, s0b, s1b, dr, s0r, s1r)                                          \
  PLAIDC_VBINARY("vmax", PLAIDC_VMAX, d, s0, s1, r, db, s0b, s1b, dr, s0r, s1r)
#define vmin(d, s0, s1, r, db, s0b, s1b, dr, s0r, s1r)                                          \
  PLAIDC_VBINARY("vmin", PLAIDC_VMIN, d, s0, s1, r, db, s0b, s1b, dr, s0r, s1r)
/* dst = relu(src0 + src1): the sum in the lanes' type, then relu (float lanes). */
#define vaddrelu(d, s0, s1, r, db, s0b, s1b, dr, s0r, s1r)                                      \
  PLAIDC_VBINARY("vaddrelu", PLAIDC_VADDRELU, d, s0, s1, r, db, s0b, s1b, dr, s0r, s1r)

/* dst = f(src), elementwise. */
#define vexp(d, s, r, db, sb, dr, sr) PLAIDC_VUNARY("vexp", PLAIDC_VEXP, d, s, r, db, sb, dr, sr)
#define vln(d, s, r, db, sb, dr, sr) PLAIDC_VUNARY("vln", PLAIDC_VLN, d, s, r, db, sb, dr, sr)
#define vabs(d, s, r, db, sb, dr, sr) PLAIDC_VUNARY("vabs", PLAIDC_VABS, d, s, r, db, sb, dr, sr)
#define vrelu(d, s, r, db, sb, dr, sr) PLAIDC_VUNARY("vrelu", PLAIDC_VRELU, d, s, r, db, sb, dr, sr)
#define vrec(d, s, r, db, sb, dr, sr) PLAIDC_VUNARY("vrec", PLAIDC_VREC, d, s, r, db, sb, dr, sr)
#define vsqrt(d, s, r, db, sb, dr, sr) PLAIDC_VUNARY("vsqrt", PLAIDC_VSQRT, d, s, r, db, sb, dr, sr)
#define vrsqrt(d, s, r, db, sb, dr, sr)                                                           \
  PLAIDC_VUNARY("vrsqrt", PLAIDC_VRSQRT, d, s, r, db, sb, dr, sr)

/* dst = src op scalar; vector_dup: dst = scalar. The scalar is converted to the element type. */
#define vadds(d, s, x, r, db, sb, dr, sr)                                                         \
  PLAIDC_VSCALAR("vadds", PLAIDC_VADDS, d, s, x, r, db, sb, dr, sr)
#define vmuls(d, s, x, r, db, sb, dr, sr)                                                         \
  PLAIDC_VSCALAR("vmuls", PLAIDC_VMULS, d, s, x, r, db, sb, dr, sr)
#define vector_dup(d, x, r, db, dr)                                                               \
  plaidc_npu_vector(PLAIDC_SITE("vector_dup"), PLAIDC_VECTOR_DUP, PLAIDC_VOPND(d, db, dr),      \
                    PLAIDC_NO_VOPND, PLAIDC_NO_VOPND, PLAIDC_NO_VOPND, (double)(x), (r))

/* Conversions: 64 elements per repeat (the wider type fills 256 B, the narrower 128 B). */
#define vconv_f322f16(d, s, r, db, sb, dr, sr)                                                    \
  PLAIDC_VUNARY("vconv_f322f16", PLAIDC_VCONV_F322F16, d, s, r, db, sb, dr, sr)
#define vconv_f162f32(d, s, r, db, sb, dr, sr)                                                    \
  PLAIDC_VUNARY("vconv_f162f32", PLAIDC_VCONV_F162F32, d, s, r, db, sb, dr, sr)
/* int32 -> fp32 rounds to nearest even; fp32 -> int32 truncates toward zero ("z"), saturating,
 * NaN -> 0 (as Ascend's vconv_f322s32z). */
#define vconv_s322f32(d, s, r, db, sb, dr, sr)                                                    \
  PLAIDC_VUNARY("vconv_s322f32", PLAIDC_VCONV_S322F32, d, s, r, db, sb, dr, sr)
#define vconv_f322s32z(d, s, r, db, sb, dr, sr)                                                   \
  PLAIDC_VUNARY("vconv_f322s32z", PLAIDC_VCONV_F322S32Z, d, s, r, db, sb, dr, sr)
/* fp32 -> int32 rounding down ("f", floor), up ("c", ceil), to nearest with ties away from zero
 * ("a", C's round); saturating, NaN -> 0 like the "z" variant. */
#define vconv_f322s32f(d, s, r, db, sb, dr, sr)                                                   \
  PLAIDC_VUNARY("vconv_f322s32f", PLAIDC_VCONV_F322S32F, d, s, r, db, sb, dr, sr)
#define vconv_f322s32c(d, s, r, db, sb, dr, sr)                                                   \
  PLAIDC_VUNARY("vconv_f322s32c", PLAIDC_VCONV_F322S32C, d, s, r, db, sb, dr, sr)
#define vconv_f322s32a(d, s, r, db, sb, dr, sr)                                                   \
  PLAIDC_VUNARY("vconv_f322s32a", PLAIDC_VCONV_F322S32A, d, s, r, db, sb, dr, sr)
/* 8-bit integers <-> int32: widening is exact; narrowing keeps the low 8 bits (modular, as a C
 * cast to int8_t / uint8_t), so int32 lanes compute 8-bit arithmetic exactly modulo 256. */
#define vconv_s82s32(d, s, r, db, sb, dr, sr)                                                     \
  PLAIDC_VUNARY("vconv_s82s32", PLAIDC_VCONV_S82S32, d, s, r, db, sb, dr, sr)
#define vconv_u82s32(d, s, r, db, sb, dr, sr)                                                     \
  PLAIDC_VUNARY("vconv_u82s32", PLAIDC_VCONV_U82S32, d, s, r, db, sb, dr, sr)
#define vconv_s322s8(d, s, r, db, sb, dr, sr)                                                     \
  PLAIDC_VUNARY("vconv_s322s8", PLAIDC_VCONV_S322S8, d, s, r, db, sb, dr, sr)
#define vconv_s322u8(d, s, r, db, sb, dr, sr)                                                     \
  PLAIDC_VUNARY("vconv_s322u8", PLAIDC_VCONV_S322U8, d, s, r, db, sb, dr, sr)
/* 16-bit integers <-> int32, likewise (the low 16 bits). */
#define vconv_s162s32(d, s, r, db, sb, dr, sr)                                                    \
  PLAIDC_VUNARY("vconv_s162s32", PLAIDC_VCONV_S162S32, d, s, r, db, sb, dr, sr)
#define vconv_u162s32(d, s, r, db, sb, dr, sr)                                                    \
  PLAIDC_VUNARY("vconv_u162s32", PLAIDC_VCONV_U162S32, d, s, r, db, sb, dr, sr)
#define vconv_s322s16(d, s, r, db, sb, dr, sr)                                                    \
  PLAIDC_VUNARY("vconv_s322s16", PLAIDC_VCONV_S322S16, d, s, r, db, sb, dr, sr)
#define vconv_s322u16(d, s, r, db, sb, dr, sr)                                                    \
  PLAIDC_VUNARY("vconv_s322u16", PLAIDC_VCONV_S322U16, d, s, r, db, sb, dr, sr)

/* Reductions: repeat r reduces its active lanes into one element at dst + r*dstRep elements. */
#define vcadd(d, s, r, dr, sb, sr) PLAIDC_VREDUCE("vcadd", PLAIDC_VCADD, d, s, r, dr, sb, sr)
#define vcmax(d, s, r, dr, sb, sr) PLAIDC_VREDUCE("vcmax", PLAIDC_VCMAX, d, s, r, dr, sb, sr)
#define vcmin(d, s, r, dr, sb, sr) PLAIDC_VREDUCE("vcmin", PLAIDC_VCMIN, d, s, r, dr, sb, sr)

/* Compare: repeat r writes one bit per lane (lanes/8 bytes, bit i%8 of byte i/8, inactive lanes
 * 0) at dst + r*lanes/8; dst is a uint8_t * in UB. Select: dst = bit ? src0 : src1. */
#define vcmp_eq(d, s0, s1, r, s0b, s1b, s0r, s1r)                                               \
  PLAIDC_VCMP("vcmp_eq", PLAIDC_VCMP_EQ, d, s0, s1, r, s0b, s1b, s0r, s1r)
#define vcmp_ne(d, s0, s1, r, s0b, s1b, s0r, s1r)                                               \
  PLAIDC_VCMP("vcmp_ne", PLAIDC_VCMP_NE, d, s0, s1, r, s0b, s1b, s0r, s1r)
#define vcmp_lt(d, s0, s1, r, s0b, s1b, s0r, s1r)                                               \
  PLAIDC_VCMP("vcmp_lt", PLAIDC_VCMP_LT, d, s0, s1, r, s0b, s1b, s0r, s1r)
#define vcmp_le(d, s0, s1, r, s0b, s1b, s0r, s1r)                                               \
  PLAIDC_VCMP("vcmp_le", PLAIDC_VCMP_LE, d, s0, s1, r, s0b, s1b, s0r, s1r)
#define vcmp_gt(d, s0, s1, r, s0b, s1b, s0r, s1r)                                               \
  PLAIDC_VCMP("vcmp_gt", PLAIDC_VCMP_GT, d, s0, s1, r, s0b, s1b, s0r, s1r)
#define vcmp_ge(d, s0, s1, r, s0b, s1b, s0r, s1r)                                               \
  PLAIDC_VCMP("vcmp_ge", PLAIDC_VCMP_GE, d, s0, s1, r, s0b, s1b, s0r, s1r)
#define vsel(d, s0, s1, sel, r, db, s0b, s1b, dr, s0r, s1r)                                     \
  plaidc_npu_vector(PLAIDC_SITE("vsel"), PLAIDC_VSEL, PLAIDC_VOPND(d, db, dr),                  \
                    PLAIDC_VOPND(s0, s0b, s0r), PLAIDC_VOPND(s1, s1b, s1r),                      \
                    PLAIDC_VOPND(sel, 0, 0), 0.0, (r))

/* Scalar unit (PIPE_S): one UB element read or written, for data-dependent addressing (an
 * index read from UB picks the element to copy). The value travels as a double (exact for every
 * element type); a store converts it to the element type (an int32 store needs an integral
 * value). Elements must be aligned to their size; each access costs one cycle. */
#define ld_ubuf(p) plaidc_npu_scalar_load(PLAIDC_SITE("ld_ubuf"), (p), PLAIDC_DT(p))
#define st_ubuf(p, v) plaidc_npu_scalar_store(PLAIDC_SITE("st_ubuf"), (p), PLAIDC_DT(p), (v))

/* Synchronisation. */
#define set_flag(src, dst, ev) plaidc_npu_set_flag(PLAIDC_SITE("set_flag"), (src), (dst), (ev))
#define wait_flag(src, dst, ev) plaidc_npu_wait_flag(PLAIDC_SITE("wait_flag"), (src), (dst), (ev))
#define pipe_barrier(pipe) plaidc_npu_pipe_barrier(PLAIDC_SITE("pipe_barrier"), (pipe))
/* Cross-core barrier: drains every pipe of this core, then waits until every core has reached
 * it (the same call in program order); all resume together, core_barrier_latency cycles after
 * the last one arrived. GM written before it on any core may be read after it on every core. */
#define sync_all_cores() plaidc_npu_sync_all_cores(PLAIDC_SITE("sync_all_cores"))

/* ---- Host interface (used by the Python runner through ctypes) ------------------------------- */
/* Every field is a uint64_t (or whole 32-byte names) so that the ctypes mirror has no padding
 * to get wrong. */
#define PLAIDC_INTRINSIC_SLOTS 64
#define PLAIDC_MAX_CORES 64
typedef struct plaidc_npu_machine {
  uint64_t capacity[PLAIDC_NMEM]; /* bytes of each on-chip memory (GM: ignored)         */
  uint64_t align[PLAIDC_NMEM];    /* required alignment of every operand, in bytes       */
  uint64_t latency[PLAIDC_NPATHS];         /* cycles per transfer instruction            */
  uint64_t bytes_per_cycle[PLAIDC_NPATHS]; /* bandwidth of each path                     */
  uint64_t cube_m, cube_k, cube_n;         /* Cube shape = fractal shape                 */
  uint64_t img2col_latency;                /* cycles per img2col_cbuf_to_ca              */
  uint64_t img2col_bytes_per_cycle;        /* L0A bytes it writes per cycle              */
  uint64_t vector_repeat_bytes;            /* bytes per vector repeat (<= 256)           */
  uint64_t vector_latency;                 /* cycles added to every vector instruction   */
  uint64_t cores;                          /* kernel instances, block_idx 0 .. cores-1   */
  uint64_t core_barrier_latency;           /* cycles of sync_all_cores after the last core */
  uint64_t lacks; /* bit k: this chip has no optional op k (isa.OPTIONAL_OPS)            */
} plaidc_npu_machine;

typedef struct plaidc_npu_report {
  uint64_t total_cycles;                 /* max over cores of the last pipe's clock   */
  uint64_t busy[PLAIDC_NPIPES];          /* cycles each pipe was occupied (all cores) */
  uint64_t instructions[PLAIDC_NPIPES];  /* instructions issued to each pipe          */
  uint64_t bytes[PLAIDC_NPATHS];         /* bytes moved along each path               */
  uint64_t peak[PLAIDC_NMEM];            /* highest byte offset accessed + 1          */
  uint64_t touched[PLAIDC_NMEM];         /* distinct bytes accessed (32-B granules)   */
  uint64_t macs;                         /* Cube multiply-accumulates                 */
  uint64_t unwaited_flags;               /* flags set and never waited for            */
  uint64_t intrinsics;                   /* distinct intrinsics issued (<= the slots)  */
  uint64_t intrinsic_count[PLAIDC_INTRINSIC_SLOTS];      /* instructions issued of each */
  char intrinsic_name[PLAIDC_INTRINSIC_SLOTS][32];       /* ... and its name            */
  uint64_t core_cycles[PLAIDC_MAX_CORES];                 /* each core's last pipe clock */
  uint64_t core_busy[PLAIDC_MAX_CORES][PLAIDC_NPIPES];    /* each core's busy cycles     */
  uint64_t core_barriers;                                 /* sync_all_cores passed       */
} plaidc_npu_report;

typedef struct plaidc_npu_error {
  char instruction[32];
  char file[256];
  uint64_t line;
  char message[1024];
  char note[1024];
} plaidc_npu_error;

/* The timeline, recorded only when the host passes one (plaidc_npu_run's `trace`; NULL: off).
 * One record per instruction, set_flag and wait_flag, in simulation order; the host provides
 * room for `capacity` records and the run stops recording (counting `dropped`) when it is full. */
enum plaidc_npu_trace_kind {
  PLAIDC_TRACE_INSTR,
  PLAIDC_TRACE_SET_FLAG,
  PLAIDC_TRACE_WAIT_FLAG,
  PLAIDC_TRACE_CORE_BARRIER /* sync_all_cores on PIPE_S: `cycles` is this core's wait */
};
typedef struct plaidc_npu_trace_record {
  uint64_t kind;  /* enum plaidc_npu_trace_kind                                            */
  uint64_t core;  /* block_idx                                                             */
  uint64_t pipe;  /* the pipe it occupies (set_flag: src; wait_flag: dst)                  */
  uint64_t start; /* cycle it starts (set_flag: the flag's release; wait_flag: its issue)  */
  uint64_t cycles; /* instruction: its cost; wait_flag: the stall; set_flag: 0              */
  uint64_t flow;  /* set_flag/wait_flag: the flag's id, shared by the pair (from 1)        */
  uint64_t peer;  /* set_flag: the dst pipe; wait_flag: the src pipe                       */
  uint64_t event; /* set_flag/wait_flag: the flag's event id                               */
  uint64_t line;  /* the intrinsic's line in the generated C                               */
  const char *name, *file;
} plaidc_npu_trace_record;

typedef struct plaidc_npu_trace {
  plaidc_npu_trace_record *records;
  uint64_t capacity, count, dropped;
} plaidc_npu_trace;

typedef void (*plaidc_npu_entry_fn)(void *const *args);

/* Runs `entry` once per core over a GM arena holding `nbuf` kernel arguments; returns 0, or 1 with
 * `error` filled when the kernel used the hardware illegally, or 2 for a bad machine / no memory. */
int plaidc_npu_run(const plaidc_npu_machine *machine, plaidc_npu_entry_fn entry, uint8_t *gm,
                   uint64_t gm_bytes, uint64_t nbuf, const uint64_t *buf_offset,
                   const uint64_t *buf_bytes, const char *const *buf_names,
                   plaidc_npu_report *report, plaidc_npu_error *error,
                   plaidc_npu_trace *trace);

/* sizeof of the three host structs and the enum counts (memories, pipes, paths, vector ops), then
 * sizeof the trace record, for the runner's ABI check. */
void plaidc_npu_abi(uint64_t out[8]);

#endif /* PLAIDC_NPU_H */
