/*
 * sim_vector.c — the vector unit (PIPE_V), IEEE binary16, and the scalar unit's UB accesses
 *
 * A vector instruction runs `repeat` repeats. Each repeat processes E lanes, E = repeat bytes /
 * the widest element size among its lane operands (default 256 B: 128 fp16 or 64 fp32 lanes;
 * conversions: 64 lanes). Lane i is active when bit i of the mask (set_vector_mask) is set.
 * A lane operand holds 32/size elements per 32-B block, so lane i of repeat r lies at
 *     base + r*repeatStride*32 + (i / perBlock)*blockStride*32 + (i % perBlock)*size.
 * Inactive lanes are neither read nor written (a block with no active lane is not touched).
 * Other operand layouts: a reduction writes one element per repeat at base + r*repeatStride
 * elements; vcmp_* writes, and vsel reads, E bits per repeat at base + r*E/8 bytes.
 *
 * Arithmetic: fp32 in IEEE single precision; fp16 computed in single precision and rounded to
 * half (nearest-even), which is correctly rounded for + - * / sqrt (24 >= 2*11+2 bits), and is
 * what numpy does for float16. max/min/relu propagate NaN like numpy. int32 wraps. Reductions
 * run over the active lanes in lane order, in single precision for floats. A repeat reads all of
 * its inputs before writing its outputs; repeats run in order.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim_internal.h"

/* ---- binary16 ------------------------------------------------------------------------------ */

float npu_half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu;
  uint32_t bits;
  if (exp == 0x1F) { /* inf / NaN: keep the payload */
    bits = sign | 0x7F800000u | (mant << 13);
  } else if (exp != 0) { /* normal: rebias 15 -> 127 */
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) { /* signed zero */
    bits = sign;
  } else { /* subnormal mant * 2^-24: normalise */
    uint32_t shift = 0;
    while (!(mant & 0x400u)) {
      mant <<= 1;
      shift++;
    }
    bits = sign | ((113 - shift) << 23) | ((mant & 0x3FFu) << 13);
  }
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

uint16_t npu_float_to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  uint32_t ax = x & 0x7FFFFFFFu;
  if (ax >= 0x7F800000u) /* inf, or NaN (quiet, top payload bits kept) */
    return (uint16_t)(sign | 0x7C00u | (ax > 0x7F800000u ? 0x200u | ((ax >> 13) & 0x3FFu) : 0));
  if (ax >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u); /* >= 65520 rounds to inf */
  if (ax >= 0x38800000u) { /* normal half (>= 2^-14); a carry may bump the exponent, correctly */
    uint32_t h = ((ax >> 23) - 112) << 10 | ((ax >> 13) & 0x3FFu), rest = ax & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h++;
    return (uint16_t)(sign | h);
  }
  if (ax <= 0x33000000u) return sign; /* <= 2^-25 rounds to (signed) zero; the tie goes even */
  /* subnormal half: value / 2^-24 = mant * 2^(exp - 126), round to nearest even */
  uint32_t exp = ax >> 23, mant = (ax & 0x7FFFFFu) | 0x800000u, shift = 126 - exp;
  uint32_t h = mant >> shift, rest = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rest > half || (rest == half && (h & 1u))) h++;
  return (uint16_t)(sign | h);
}

/* ---- Operation table --------------------------------------------------------------------- */

typedef enum vkind {
  VK_BINARY,  /* dst = src0 op src1           */
  VK_UNARY,   /* dst = f(src0)                */
  VK_SCALAR,  /* dst = src0 op scalar         */
  VK_DUP,     /* dst = scalar                 */
  VK_CONV,    /* dst = convert(src0)          */
  VK_REDUCE,  /* dst[r] = reduce(src0 lanes)  */
  VK_CMP,     /* dst bits = src0 cmp src1     */
  VK_SEL      /* dst = sel bit ? src0 : src1  */
} vkind;

#define T_F16 (1u << PLAIDC_DT_F16)
#define T_F32 (1u << PLAIDC_DT_F32)
#define T_S32 (1u << PLAIDC_DT_S32)
#define T_FLOAT (T_F16 | T_F32)
#define T_ANY (T_F16 | T_F32 | T_S32)
#define T_U8 (1u << PLAIDC_DT_U8)
#define T_S8 (1u << PLAIDC_DT_S8)
#define T_S16 (1u << PLAIDC_DT_S16)
#define T_U16 (1u << PLAIDC_DT_U16)

typedef struct vop_info {
  vkind kind;
  unsigned types; /* element types the lanes may have */
} vop_info;

static const vop_info VOPS[PLAIDC_NVOPS] = {
    [PLAIDC_VADD] = {VK_BINARY, T_ANY},         [PLAIDC_VSUB] = {VK_BINARY, T_ANY},
    [PLAIDC_VMUL] = {VK_BINARY, T_ANY},         [PLAIDC_VMAX] = {VK_BINARY, T_ANY},
    [PLAIDC_VMIN] = {VK_BINARY, T_ANY},         [PLAIDC_VEXP] = {VK_UNARY, T_FLOAT},
    [PLAIDC_VLN] = {VK_UNARY, T_FLOAT},         [PLAIDC_VABS] = {VK_UNARY, T_ANY},
    [PLAIDC_VRELU] = {VK_UNARY, T_ANY},         [PLAIDC_VREC] = {VK_UNARY, T_FLOAT},
    [PLAIDC_VSQRT] = {VK_UNARY, T_FLOAT},       [PLAIDC_VRSQRT] = {VK_UNARY, T_FLOAT},
    [PLAIDC_VADDS] = {VK_SCALAR, T_ANY},        [PLAIDC_VMULS] = {VK_SCALAR, T_ANY},
    [PLAIDC_VECTOR_DUP] = {VK_DUP, T_ANY},      [PLAIDC_VCONV_F322F16] = {VK_CONV, T_F16},
    [PLAIDC_VCONV_F162F32] = {VK_CONV, T_F32},  [PLAIDC_VCADD] = {VK_REDUCE, T_ANY},
    [PLAIDC_VCMAX] = {VK_REDUCE, T_ANY},        [PLAIDC_VCMIN] = {VK_REDUCE, T_ANY},
    [PLAIDC_VCMP_EQ] = {VK_CMP, T_ANY},         [PLAIDC_VCMP_NE] = {VK_CMP, T_ANY},
    [PLAIDC_VCMP_LT] = {VK_CMP, T_ANY},         [PLAIDC_VCMP_LE] = {VK_CMP, T_ANY},
    [PLAIDC_VCMP_GT] = {VK_CMP, T_ANY},         [PLAIDC_VCMP_GE] = {VK_CMP, T_ANY},
    [PLAIDC_VSEL] = {VK_SEL, T_ANY},            [PLAIDC_VCONV_S322F32] = {VK_CONV, T_F32},
    [PLAIDC_VCONV_F322S32Z] = {VK_CONV, T_S32}, [PLAIDC_VCONV_S82S32] = {VK_CONV, T_S32},
    [PLAIDC_VCONV_F322S32F] = {VK_CONV, T_S32}, [PLAIDC_VCONV_F322S32C] = {VK_CONV, T_S32},
    [PLAIDC_VCONV_F322S32A] = {VK_CONV, T_S32},
    [PLAIDC_VCONV_U82S32] = {VK_CONV, T_S32},   [PLAIDC_VCONV_S322S8] = {VK_CONV, T_S8},
    [PLAIDC_VCONV_S322U8] = {VK_CONV, T_U8},
    [PLAIDC_VCONV_S162S32] = {VK_CONV, T_S32},  [PLAIDC_VCONV_U162S32] = {VK_CONV, T_S32},
    [PLAIDC_VCONV_S322S16] = {VK_CONV, T_S16},  [PLAIDC_VCONV_S322U16] = {VK_CONV, T_U16},
    [PLAIDC_VADDRELU] = {VK_BINARY, T_FLOAT},
};

/* The source and destination element types of each conversion. */
typedef struct conv_info {
  int src, dst;
} conv_info;

static conv_info conversion(int op) {
  switch (op) {
    case PLAIDC_VCONV_F322F16: return (conv_info){PLAIDC_DT_F32, PLAIDC_DT_F16};
    case PLAIDC_VCONV_F162F32: return (conv_info){PLAIDC_DT_F16, PLAIDC_DT_F32};
    case PLAIDC_VCONV_S322F32: return (conv_info){PLAIDC_DT_S32, PLAIDC_DT_F32};
    case PLAIDC_VCONV_F322S32Z:
    case PLAIDC_VCONV_F322S32F:
    case PLAIDC_VCONV_F322S32C:
    case PLAIDC_VCONV_F322S32A: return (conv_info){PLAIDC_DT_F32, PLAIDC_DT_S32};
    case PLAIDC_VCONV_S82S32: return (conv_info){PLAIDC_DT_S8, PLAIDC_DT_S32};
    case PLAIDC_VCONV_U82S32: return (conv_info){PLAIDC_DT_U8, PLAIDC_DT_S32};
    case PLAIDC_VCONV_S322S8: return (conv_info){PLAIDC_DT_S32, PLAIDC_DT_S8};
    case PLAIDC_VCONV_S162S32: return (conv_info){PLAIDC_DT_S16, PLAIDC_DT_S32};
    case PLAIDC_VCONV_U162S32: return (conv_info){PLAIDC_DT_U16, PLAIDC_DT_S32};
    case PLAIDC_VCONV_S322S16: return (conv_info){PLAIDC_DT_S32, PLAIDC_DT_S16};
    case PLAIDC_VCONV_S322U16: return (conv_info){PLAIDC_DT_S32, PLAIDC_DT_U16};
    default: return (conv_info){PLAIDC_DT_S32, PLAIDC_DT_U8}; /* VCONV_S322U8 */
  }
}

static const char *const DTYPE_NAMES[] = {"an unsupported pointer type", "half *", "float *",
                                          "int32_t *", "uint8_t *", "int8_t *",
                                          "int16_t *", "uint16_t *"};
static const unsigned DTYPE_SIZE[] = {0, 2, 4, 4, 1, 1, 2, 2};

/* ---- Operands -------------------------------------------------------------------------------- */

typedef enum vlayout { VL_LANES, VL_BITS, VL_PER_REPEAT } vlayout;

typedef struct voperand {
  const char *name;
  plaidc_npu_vopnd o;
  vlayout layout;
  int is_write;
  npu_addr at;
  uint8_t *host; /* the operand's base in the simulated UB, once checked */
} voperand;

typedef struct vctx {
  npu_sim *s;
  plaidc_npu_site site;
  uint64_t lanes;     /* E: lanes per repeat          */
  uint64_t repeat;
  uint64_t mask[2];   /* lanes 0-63, 64-127           */
} vctx;

static int lane_active(const vctx *v, uint64_t lane) {
  return (int)((v->mask[lane / 64] >> (lane % 64)) & 1u);
}

static uint64_t per_block(const voperand *op) {
  return PLAIDC_NPU_BLOCK_BYTES / DTYPE_SIZE[op->o.dtype];
}

/* Byte offset of lane `lane` of repeat `r` from a lane operand's base. */
static uint64_t lane_offset(const voperand *op, uint64_t r, uint64_t lane) {
  uint64_t size = DTYPE_SIZE[op->o.dtype], pb = per_block(op);
  return (r * (uint64_t)op->o.repeat_stride + (lane / pb) * (uint64_t)op->o.block_stride) *
             PLAIDC_NPU_BLOCK_BYTES +
         (lane % pb) * size;
}

/* Bytes from the operand's base to the end of the last byte it may touch. */
static uint64_t operand_extent(const vctx *v, const voperand *op) {
  uint64_t size = DTYPE_SIZE[op->o.dtype], last = v->repeat - 1;
  switch (op->layout) {
    case VL_BITS:
      return v->repeat * (v->lanes / 8);
    case VL_PER_REPEAT:
      return last * (uint64_t)op->o.repeat_stride * size + size;
    case VL_LANES:
      break;
  }
  return lane_offset(op, last, v->lanes - 1) + size;
}

/* Checks the strides, the element type, the data path (UB only) and the alignment. */
static void check_operand(vctx *v, voperand *op, int want_dtype, const char *why) {
  npu_sim *s = v->s;
  char what[64];
  if (op->o.dtype != want_dtype)
    npu_fail(s, v->site, "%s is %s, but needs %s (%s)", op->name, DTYPE_NAMES[op->o.dtype],
             DTYPE_NAMES[want_dtype], why);
  snprintf(what, sizeof what, "%s block stride", op->name);
  npu_check_range(s, v->site, what, op->o.block_stride, 0, PLAIDC_NPU_MAX_STRIDE);
  snprintf(what, sizeof what, "%s repeat stride", op->name);
  npu_check_range(s, v->site, what, op->o.repeat_stride, 0, PLAIDC_NPU_MAX_STRIDE);
  uint64_t extent = operand_extent(v, op);
  op->at = npu_operand(s, v->site, op->name, op->o.addr, PLAIDC_MEM_UB,
                       "the vector unit accesses only UB", extent);
  npu_check_align(s, v->site, op->name, op->at, extent);
}

/* Records every range the operand touches with the hazard checker (and capacity checks). */
static void touch_operand(vctx *v, uint32_t id, voperand *op) {
  npu_sim *s = v->s;
  uint64_t size = DTYPE_SIZE[op->o.dtype];
  op->host = s->mem[PLAIDC_MEM_UB] + op->at.off;
  for (uint64_t r = 0; r < v->repeat; r++) {
    if (op->layout == VL_BITS) {
      uint64_t bytes = v->lanes / 8;
      npu_access(s, id, op->name, PLAIDC_MEM_UB, op->at.off + (int64_t)(r * bytes), bytes,
                 op->is_write);
      continue;
    }
    if (op->layout == VL_PER_REPEAT) {
      npu_access(s, id, op->name, PLAIDC_MEM_UB,
                 op->at.off + (int64_t)(r * (uint64_t)op->o.repeat_stride * size), size,
                 op->is_write);
      continue;
    }
    uint64_t pb = per_block(op);
    for (uint64_t first = 0; first < v->lanes; first += pb) {
      uint64_t end = first + pb < v->lanes ? first + pb : v->lanes, any = 0;
      for (uint64_t lane = first; lane < end && !any; lane++) any = (uint64_t)lane_active(v, lane);
      if (any)
        npu_access(s, id, op->name, PLAIDC_MEM_UB, op->at.off + (int64_t)lane_offset(op, r, first),
                   (end - first) * size, op->is_write);
    }
  }
}

/* ---- Element values ------------------------------------------------------------------------ */

typedef union vval {
  float f;
  int32_t i;
} vval;

static vval vload(const uint8_t *p, int dtype) {
  vval v;
  if (dtype == PLAIDC_DT_S8) {
    v.i = (int8_t)*p;
  } else if (dtype == PLAIDC_DT_U8) {
    v.i = *p;
  } else if (dtype == PLAIDC_DT_S16 || dtype == PLAIDC_DT_U16) {
    uint16_t h;
    memcpy(&h, p, 2);
    v.i = dtype == PLAIDC_DT_S16 ? (int32_t)(int16_t)h : (int32_t)h;
  } else if (dtype == PLAIDC_DT_F16) {
    uint16_t h;
    memcpy(&h, p, 2);
    v.f = npu_half_to_float(h);
  } else {
    memcpy(&v, p, 4); /* f32 or s32 */
  }
  return v;
}

static void vstore(uint8_t *p, int dtype, vval v) {
  if (dtype == PLAIDC_DT_S8 || dtype == PLAIDC_DT_U8) {
    *p = (uint8_t)(uint32_t)v.i; /* the low 8 bits */
  } else if (dtype == PLAIDC_DT_S16 || dtype == PLAIDC_DT_U16) {
    uint16_t h = (uint16_t)(uint32_t)v.i; /* the low 16 bits */
    memcpy(p, &h, 2);
  } else if (dtype == PLAIDC_DT_F16) {
    uint16_t h = npu_float_to_half(v.f);
    memcpy(p, &h, 2);
  } else {
    memcpy(p, &v, 4);
  }
}

static float fmax_nan(float a, float b) { return isnan(a) ? a : isnan(b) ? b : a >= b ? a : b; }
static float fmin_nan(float a, float b) { return isnan(a) ? a : isnan(b) ? b : a <= b ? a : b; }
static int32_t wrap(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

static vval binary(int op, int is_float, vval a, vval b) {
  vval r;
  if (is_float) {
    switch (op) {
      case PLAIDC_VADD: case PLAIDC_VADDS: case PLAIDC_VCADD: r.f = a.f + b.f; break;
      case PLAIDC_VSUB: r.f = a.f - b.f; break;
      case PLAIDC_VMUL: case PLAIDC_VMULS: r.f = a.f * b.f; break;
      case PLAIDC_VMAX: case PLAIDC_VCMAX: r.f = fmax_nan(a.f, b.f); break;
      case PLAIDC_VADDRELU: /* relu of the sum (rounding to fp16 after it commutes with relu) */
        r.f = a.f + b.f;
        if (!isnan(r.f) && !(r.f > 0.0f)) r.f = 0.0f;
        break;
      default: r.f = fmin_nan(a.f, b.f); break; /* VMIN, VCMIN */
    }
    return r;
  }
  switch (op) {
    case PLAIDC_VADD: case PLAIDC_VADDS: case PLAIDC_VCADD: r.i = wrap((int64_t)a.i + b.i); break;
    case PLAIDC_VSUB: r.i = wrap((int64_t)a.i - b.i); break;
    case PLAIDC_VMUL: case PLAIDC_VMULS: r.i = wrap((int64_t)a.i * b.i); break;
    case PLAIDC_VMAX: case PLAIDC_VCMAX: r.i = a.i > b.i ? a.i : b.i; break;
    default: r.i = a.i < b.i ? a.i : b.i; break;
  }
  return r;
}

static vval unary(int op, int is_float, vval a) {
  vval r;
  if (!is_float) { /* only vabs and vrelu take int32 */
    r.i = op == PLAIDC_VABS ? (a.i < 0 ? wrap(-(int64_t)a.i) : a.i) : (a.i > 0 ? a.i : 0);
    return r;
  }
  switch (op) {
    case PLAIDC_VEXP: r.f = expf(a.f); break;
    case PLAIDC_VLN: r.f = logf(a.f); break;
    case PLAIDC_VABS: r.f = fabsf(a.f); break;
    case PLAIDC_VRELU: r.f = isnan(a.f) || a.f > 0.0f ? a.f : 0.0f; break;
    case PLAIDC_VREC: r.f = 1.0f / a.f; break;
    case PLAIDC_VSQRT: r.f = sqrtf(a.f); break;
    default: r.f = 1.0f / sqrtf(a.f); break; /* VRSQRT */
  }
  return r;
}

static int compare(int op, int is_float, vval a, vval b) {
  if (is_float) {
    switch (op) {
      case PLAIDC_VCMP_EQ: return a.f == b.f;
      case PLAIDC_VCMP_NE: return a.f != b.f;
      case PLAIDC_VCMP_LT: return a.f < b.f;
      case PLAIDC_VCMP_LE: return a.f <= b.f;
      case PLAIDC_VCMP_GT: return a.f > b.f;
      default: return a.f >= b.f;
    }
  }
  switch (op) {
    case PLAIDC_VCMP_EQ: return a.i == b.i;
    case PLAIDC_VCMP_NE: return a.i != b.i;
    case PLAIDC_VCMP_LT: return a.i < b.i;
    case PLAIDC_VCMP_LE: return a.i <= b.i;
    case PLAIDC_VCMP_GT: return a.i > b.i;
    default: return a.i >= b.i;
  }
}

/* A conversion's value change (the store to the destination type does the rest: rounding to
 * half, keeping the low 8 bits). */
static vval convert(int op, vval a) {
  vval r = a;
  if (op == PLAIDC_VCONV_S322F32) {
    r.f = (float)a.i;
  } else if (op == PLAIDC_VCONV_F322S32Z || op == PLAIDC_VCONV_F322S32F ||
             op == PLAIDC_VCONV_F322S32C || op == PLAIDC_VCONV_F322S32A) {
    float x = op == PLAIDC_VCONV_F322S32F   ? floorf(a.f)
              : op == PLAIDC_VCONV_F322S32C ? ceilf(a.f)
              : op == PLAIDC_VCONV_F322S32A ? roundf(a.f)
                                            : a.f;
    r.i = isnan(x)                ? 0
          : x >= 2147483648.0f    ? INT32_MAX
          : x <= -2147483648.0f   ? INT32_MIN
                                  : (int32_t)x;
  }
  return r;
}

/* The scalar operand of vadds / vmuls / vector_dup, converted to the element type. */
static vval scalar_value(vctx *v, int dtype, double x) {
  vval r;
  if (dtype == PLAIDC_DT_S32) {
    if (!(x >= INT32_MIN && x <= INT32_MAX) || x != (double)(int32_t)x)
      npu_fail(v->s, v->site, "scalar %g is not an int32 value", x);
    r.i = (int32_t)x;
  } else {
    r.f = (float)x;
    if (dtype == PLAIDC_DT_F16) r.f = npu_half_to_float(npu_float_to_half(r.f));
  }
  return r;
}

/* The identity of a reduction, the result of a repeat with no active lane. */
static vval reduce_identity(int op, int is_float) {
  vval r;
  if (is_float) r.f = op == PLAIDC_VCADD ? 0.0f : op == PLAIDC_VCMAX ? -INFINITY : INFINITY;
  else r.i = op == PLAIDC_VCADD ? 0 : op == PLAIDC_VCMAX ? INT32_MIN : INT32_MAX;
  return r;
}

/* ---- Execution ------------------------------------------------------------------------------ */

static void run_repeat(vctx *v, int op, voperand *ops, int nops, vval scalar, uint64_t r) {
  const vkind kind = VOPS[op].kind;
  voperand *dst = &ops[0], *src0 = nops > 1 ? &ops[1] : NULL, *src1 = nops > 2 ? &ops[2] : NULL;
  const int in_dt = src0 ? src0->o.dtype : dst->o.dtype;
  const int is_float = in_dt == PLAIDC_DT_F16 || in_dt == PLAIDC_DT_F32;
  vval out[PLAIDC_NPU_MASK_LANES];
  uint8_t bits[PLAIDC_NPU_MASK_LANES / 8] = {0};
  vval acc = reduce_identity(op, is_float);
  /* Read and compute every active lane first, then write: a repeat may update in place. */
  for (uint64_t lane = 0; lane < v->lanes; lane++) {
    if (!lane_active(v, lane)) continue;
    vval a = {0}, b = {0};
    if (src0) a = vload(src0->host + lane_offset(src0, r, lane), in_dt);
    if (src1 && kind != VK_SEL) b = vload(src1->host + lane_offset(src1, r, lane), in_dt);
    switch (kind) {
      case VK_BINARY: out[lane] = binary(op, is_float, a, b); break;
      case VK_SCALAR: out[lane] = binary(op, is_float, a, scalar); break;
      case VK_UNARY: out[lane] = unary(op, is_float, a); break;
      case VK_DUP: out[lane] = scalar; break;
      case VK_CONV: out[lane] = convert(op, a); break;
      case VK_REDUCE: acc = binary(op, is_float, acc, a); break;
      case VK_CMP: bits[lane / 8] |= (uint8_t)(compare(op, is_float, a, b) << (lane % 8)); break;
      case VK_SEL: break;
    }
  }
  if (kind == VK_REDUCE) {
    vstore(dst->host + r * (uint64_t)dst->o.repeat_stride * DTYPE_SIZE[dst->o.dtype],
           dst->o.dtype, acc);
    return;
  }
  if (kind == VK_CMP) {
    memcpy(dst->host + r * (v->lanes / 8), bits, v->lanes / 8);
    return;
  }
  const uint8_t *sel = kind == VK_SEL ? ops[3].host + r * (v->lanes / 8) : NULL;
  const unsigned size = DTYPE_SIZE[dst->o.dtype];
  for (uint64_t lane = 0; lane < v->lanes; lane++) {
    if (!lane_active(v, lane)) continue;
    uint8_t *to = dst->host + lane_offset(dst, r, lane);
    if (sel) { /* bit-exact copy of the chosen element */
      const voperand *from = (sel[lane / 8] >> (lane % 8)) & 1u ? src0 : src1;
      memmove(to, from->host + lane_offset(from, r, lane), size);
    } else {
      vstore(to, dst->o.dtype, out[lane]);
    }
  }
}

void plaidc_npu_vector(plaidc_npu_site site, int op, plaidc_npu_vopnd dst, plaidc_npu_vopnd src0,
                       plaidc_npu_vopnd src1, plaidc_npu_vopnd sel, double scalar,
                       int64_t repeat) {
  npu_sim *s = npu_current();
  vctx v = {s, site, 0, 0, {0, 0}};
  const vop_info *info = &VOPS[op];
  if ((s->machine->lacks >> op) & 1u)
    npu_fail(s, site, "%s is not in this machine's instruction set ([hardware] lacks it)",
             site.name);
  npu_check_range(s, site, "repeat", repeat, 1, PLAIDC_NPU_MAX_REPEAT);
  v.repeat = (uint64_t)repeat;

  /* Operands in the order dst, src0, src1, sel, and the element type of the lanes. */
  voperand ops[4];
  int nops = 0;
  ops[nops++] = (voperand){"dst", dst, VL_LANES, 1, {0, 0}, NULL};
  if (info->kind != VK_DUP) ops[nops++] = (voperand){"src0", src0, VL_LANES, 0, {0, 0}, NULL};
  if (info->kind == VK_BINARY || info->kind == VK_CMP || info->kind == VK_SEL)
    ops[nops++] = (voperand){"src1", src1, VL_LANES, 0, {0, 0}, NULL};
  if (info->kind == VK_SEL) ops[nops++] = (voperand){"sel", sel, VL_BITS, 0, {0, 0}, NULL};
  if (nops == 2 && info->kind != VK_CMP) ops[1].name = "src";
  if (info->kind == VK_REDUCE) ops[0].layout = VL_PER_REPEAT;
  if (info->kind == VK_CMP) ops[0].layout = VL_BITS;

  /* The lanes' element type: the inputs' (a conversion's source type is fixed by its name). */
  int lane_dt = info->kind == VK_CMP ? ops[1].o.dtype : ops[0].o.dtype;
  if (info->kind == VK_CONV) lane_dt = conversion(op).src;
  if (info->kind != VK_CONV && !((info->types >> lane_dt) & 1u))
    npu_fail(s, site, "%s is %s, which %s does not support", info->kind == VK_CMP ? "src0" : "dst",
             DTYPE_NAMES[lane_dt], site.name);
  unsigned widest = DTYPE_SIZE[lane_dt];
  if (info->kind == VK_CONV && widest < 4) widest = 4;
  v.lanes = s->machine->vector_repeat_bytes / widest;
  v.mask[0] = s->mask_lo;
  v.mask[1] = v.lanes > 64 ? s->mask_hi : 0;
  if (v.lanes < 64) v.mask[0] &= (UINT64_C(1) << v.lanes) - 1;

  for (int i = 0; i < nops; i++) {
    int want = ops[i].layout == VL_BITS ? PLAIDC_DT_U8 : lane_dt;
    const char *why = ops[i].layout == VL_BITS ? "one bit per lane"
                      : info->kind == VK_CONV  ? "the conversion's element type"
                                               : "all operands of the operation share one type";
    if (info->kind == VK_CONV && i == 0) want = conversion(op).dst;
    check_operand(&v, &ops[i], want, why);
  }
  uint32_t id = npu_issue(s, site, PIPE_V);
  for (int i = 1; i < nops; i++) touch_operand(&v, id, &ops[i]); /* reads, then the write */
  touch_operand(&v, id, &ops[0]);

  vval k = {0};
  if (info->kind == VK_SCALAR || info->kind == VK_DUP) k = scalar_value(&v, lane_dt, scalar);
  for (uint64_t r = 0; r < v.repeat; r++) run_repeat(&v, op, ops, nops, k, r);
  npu_retire(s, PIPE_V, v.repeat + s->machine->vector_latency);
}

/* ---- The scalar unit's UB accesses ------------------------------------------------------- */

static npu_addr scalar_operand(npu_sim *s, plaidc_npu_site site, const void *p, int dtype) {
  if (dtype == PLAIDC_DT_NONE)
    npu_fail(s, site, "the element is %s; the scalar unit reads and writes numbers",
             DTYPE_NAMES[dtype]);
  uint64_t size = DTYPE_SIZE[dtype];
  npu_addr at = npu_operand(s, site, "element", p, PLAIDC_MEM_UB,
                            "the scalar unit's loads and stores reach only UB", size);
  if (at.off % (int64_t)size != 0)
    npu_fail(s, site, "misaligned element: UB byte %" PRId64 " is not a multiple of %u",
             at.off, (unsigned)size);
  return at;
}

double plaidc_npu_scalar_load(plaidc_npu_site site, const void *p, int dtype) {
  npu_sim *s = npu_current();
  npu_addr at = scalar_operand(s, site, p, dtype);
  uint32_t id = npu_issue(s, site, PIPE_S);
  const uint8_t *host = npu_access(s, id, "element", PLAIDC_MEM_UB, at.off, DTYPE_SIZE[dtype], 0);
  vval v = vload(host, dtype);
  npu_retire(s, PIPE_S, 1);
  int is_float = dtype == PLAIDC_DT_F16 || dtype == PLAIDC_DT_F32;
  return is_float ? (double)v.f : (double)v.i;
}

void plaidc_npu_scalar_store(plaidc_npu_site site, void *p, int dtype, double value) {
  npu_sim *s = npu_current();
  npu_addr at = scalar_operand(s, site, p, dtype);
  vval v;
  if (dtype == PLAIDC_DT_F16 || dtype == PLAIDC_DT_F32) {
    v.f = (float)value;
  } else {
    if (!(value >= INT32_MIN && value <= INT32_MAX) || value != (double)(int32_t)value)
      npu_fail(s, site, "scalar %g is not an integer element value", value);
    v.i = (int32_t)value;
  }
  uint32_t id = npu_issue(s, site, PIPE_S);
  uint8_t *host = npu_access(s, id, "element", PLAIDC_MEM_UB, at.off, DTYPE_SIZE[dtype], 1);
  vstore(host, dtype, v);
  npu_retire(s, PIPE_S, 1);
}

