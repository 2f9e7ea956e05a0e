"""plaidc's float32 exp for gcc on AVX-512: the steps of `plaidc.backends.loopnest.exp_poly`
written with AVX-512 operations, so that step 5 (the scaling by 2^k) is one `vscalefps` instead of
integer steps and two multiplies, and the NaN select is not needed (vscalefps propagates NaN
and rounds overflow to inf and tiny results to subnormals or 0 itself, rounding once, as the
portable code's last product does: the results are the same bits).

gcc cannot vectorise intrinsics written on scalars, so the vector code is given to it as the
SIMD clones of `plaidc_exp_f32` (the x86-64 vector function ABI: `_ZGV<isa>N<lanes>v_<name>`,
the names libmvec's expf uses): the declaration carries `simd("notinbranch")`, and a
vectorised loop calls the clone of its vector width. Every clone gcc may call on an AVX-512
machine is defined here (SSE 4, AVX 8, AVX2 8 lanes by widening to the 16-lane one), and the
scalar function (remainder iterations) computes one lane of the same code.

A vectorised loop pays a call per vector for the clone, and the ABI preserves no vector
register across it, so loops computing exp are written with vector types instead
(`plaidc.backends.loopnest.vector_loops`) and call `vector_exp`'s function, which inlines the
same 16-lane code (`INLINE`; narrower vectors widened to it): the clones remain for what gcc
still vectorises itself (a remainder loop, a loop the vector form does not express).

`emit` wraps it in `#if defined(__AVX512F__)`: the compiler's own `-march=native` answer
decides, else the portable inline function (`helpers._exp_f32`) is compiled. The operations
are GCC's vector extensions and `__builtin_ia32_*` builtins, not `immintrin.h`'s intrinsics:
the same instructions, without the header's parse (~0.15 s CPU of gcc's time on a softmax);
other compilers get the header (`_GCC_OPS`, `_INTRINSIC_OPS`).
"""

from __future__ import annotations

from plaidc.backends.loopnest import exp_poly

NAME = "plaidc_exp_f32"
INLINE = "plaidc_exp_f32_inline16"
_ATTRS = '__attribute__((visibility("hidden"), const, nothrow))'
# (ISA letter, lanes, C vector type, widen to 512 bits, narrow from 512 bits) of the AVX-512
# clone's callers: gcc picks one by the vector width of the loop it vectorises.
_NARROW_CLONES = (
    ("b", 4, "plaidc_m128", "plaidc_zext128", "plaidc_cast128"),
    ("c", 8, "plaidc_m256", "plaidc_zext256", "plaidc_cast256"),
    ("d", 8, "plaidc_m256", "plaidc_zext256", "plaidc_cast256"),
)

# The vector types and operations the code below uses, without `immintrin.h` (gcc spends
# ~0.15 s CPU parsing it, more than a softmax kernel's optimisation). For GCC they are its
# own vector extensions and the `__builtin_ia32_*` builtins its `avx512fintrin.h` defines the
# intrinsics with (all-lanes masks, the current rounding mode, an undefined pass-through as
# `_mm512_undefined_ps`): the same instructions. Other compilers (clang's builtins differ)
# get the header and the intrinsics under the same names.
_GCC_OPS = """\
typedef float plaidc_m512 __attribute__((vector_size(64)));
typedef float plaidc_m256 __attribute__((vector_size(32)));
typedef float plaidc_m128 __attribute__((vector_size(16)));
typedef double plaidc_m512d __attribute__((vector_size(64)));
typedef double plaidc_m256d __attribute__((vector_size(32)));
#define PLAIDC_OP static inline __attribute__((always_inline, artificial))
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-self"
#pragma GCC diagnostic ignored "-Wuninitialized"
PLAIDC_OP plaidc_m512 plaidc_undef512(void) { plaidc_m512 y = y; return y; }
PLAIDC_OP plaidc_m512d plaidc_undef512d(void) { plaidc_m512d y = y; return y; }
PLAIDC_OP plaidc_m256d plaidc_undef256d(void) { plaidc_m256d y = y; return y; }
PLAIDC_OP plaidc_m128 plaidc_undef128(void) { plaidc_m128 y = y; return y; }
#pragma GCC diagnostic pop
#define plaidc_set1(v) ((plaidc_m512){v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v})
#define plaidc_add(a, b) ((a) + (b))
#define plaidc_sub(a, b) ((a) - (b))
#define plaidc_mul(a, b) ((a) * (b))
PLAIDC_OP plaidc_m512 plaidc_fmadd(plaidc_m512 a, plaidc_m512 b, plaidc_m512 c) {
  return __builtin_ia32_vfmaddps512_mask(a, b, c, (unsigned short)-1, 4);
}
PLAIDC_OP plaidc_m512 plaidc_max(plaidc_m512 a, plaidc_m512 b) {
  return __builtin_ia32_maxps512_mask(a, b, plaidc_undef512(), (unsigned short)-1, 4);
}
PLAIDC_OP plaidc_m512 plaidc_min(plaidc_m512 a, plaidc_m512 b) {
  return __builtin_ia32_minps512_mask(a, b, plaidc_undef512(), (unsigned short)-1, 4);
}
PLAIDC_OP plaidc_m512 plaidc_scalef(plaidc_m512 a, plaidc_m512 b) {
  return __builtin_ia32_scalefps512_mask(a, b, plaidc_undef512(), (unsigned short)-1, 4);
}
PLAIDC_OP plaidc_m512 plaidc_zext128(plaidc_m128 a) {
  plaidc_m512 zero = {0};
  return __builtin_ia32_insertf32x4_mask(zero, a, 0, zero, (unsigned short)-1);
}
PLAIDC_OP plaidc_m512 plaidc_zext256(plaidc_m256 a) {
  plaidc_m512d zero = {0};
  return (plaidc_m512)__builtin_ia32_insertf64x4_mask(
      zero, (plaidc_m256d)a, 0, plaidc_undef512d(), (unsigned char)-1);
}
PLAIDC_OP plaidc_m128 plaidc_cast128(plaidc_m512 a) {
  return __builtin_ia32_extractf32x4_mask(a, 0, plaidc_undef128(), (unsigned char)-1);
}
PLAIDC_OP plaidc_m256 plaidc_cast256(plaidc_m512 a) {
  return (plaidc_m256)__builtin_ia32_extractf64x4_mask(
      (plaidc_m512d)a, 0, plaidc_undef256d(), (unsigned char)-1);
}
#define plaidc_lane0(a) ((a)[0])
"""

_INTRINSIC_OPS = """\
#include <immintrin.h>
typedef __m512 plaidc_m512;
typedef __m256 plaidc_m256;
typedef __m128 plaidc_m128;
#define plaidc_set1 _mm512_set1_ps
#define plaidc_add _mm512_add_ps
#define plaidc_sub _mm512_sub_ps
#define plaidc_mul _mm512_mul_ps
#define plaidc_fmadd _mm512_fmadd_ps
#define plaidc_max _mm512_max_ps
#define plaidc_min _mm512_min_ps
#define plaidc_scalef _mm512_scalef_ps
#define plaidc_zext128 _mm512_zextps128_ps512
#define plaidc_zext256 _mm512_zextps256_ps512
#define plaidc_cast128 _mm512_castps512_ps128
#define plaidc_cast256 _mm512_castps512_ps256
#define plaidc_lane0 _mm512_cvtss_f32
"""


def _f(value: float) -> str:
    return f"plaidc_set1({float(value).hex()}f)"


def _clone(isa: str, lanes: int) -> str:
    return f"_ZGV{isa}N{lanes}v_{NAME}"


def definitions() -> str:
    """The C text: the operations (see _GCC_OPS), the SIMD declaration, the 16-lane code, its
    narrower clones and the scalar function (all hidden, so calls stay inside the shared
    object)."""
    *low, top = exp_poly.POLY
    poly = [f"  plaidc_m512 p = {_f(top)};"]
    poly += [f"  p = plaidc_fmadd(p, r, {_f(coef)});" for coef in reversed(low)]
    v16 = _clone("e", 16)
    lines = [
        "#if defined(__GNUC__) && !defined(__clang__)",
        _GCC_OPS + "#else",
        _INTRINSIC_OPS + "#endif",
        f'__attribute__((simd("notinbranch"), const, nothrow)) float {NAME}(float);',
        # The code itself, inlined where a loop written with vectors calls it (vector_exp).
        f"static inline __attribute__((always_inline)) plaidc_m512 {INLINE}(plaidc_m512 x) {{",
        "  /* vmaxps/vminps return their second operand when one is NaN: NaN passes. */",
        f"  plaidc_m512 xc = plaidc_max({_f(exp_poly.CLAMP_LO)}, x);",
        f"  xc = plaidc_min({_f(exp_poly.CLAMP_HI)}, xc);",
        f"  plaidc_m512 kf = plaidc_fmadd(xc, {_f(exp_poly.LOG2E)}, {_f(exp_poly.SHIFT)});",
        f"  kf = plaidc_sub(kf, {_f(exp_poly.SHIFT)});",
        f"  plaidc_m512 r = plaidc_fmadd(kf, {_f(-exp_poly.LN2_HI)}, xc);",
        f"  r = plaidc_fmadd(kf, {_f(-exp_poly.LN2_LO)}, r);",
        *poly,
        "  plaidc_m512 y = plaidc_fmadd(plaidc_mul(p, r), r, r);",
        f"  y = plaidc_add(y, {_f(1.0)});",
        "  return plaidc_scalef(y, kf);",
        "}",
        f'{_ATTRS} plaidc_m512 {NAME}_x16(plaidc_m512 x) __asm__("{v16}");',
        f"{_ATTRS} plaidc_m512 {NAME}_x16(plaidc_m512 x) {{ return {INLINE}(x); }}",
    ]
    for isa, lanes, vtype, widen, narrow in _NARROW_CLONES:
        name = f"{NAME}_{isa}x{lanes}"
        lines += [
            f'{_ATTRS} {vtype} {name}({vtype} x) __asm__("{_clone(isa, lanes)}");',
            f"{_ATTRS} {vtype} {name}({vtype} x) {{ return {narrow}({NAME}_x16({widen}(x))); }}",
        ]
    # Under another C name: a definition of the `simd` declaration would make gcc derive its
    # own clones, of the same symbols.
    lines += [
        f'{_ATTRS} float {NAME}_x1(float x) __asm__("{NAME}");',
        f"{_ATTRS} float {NAME}_x1(float x) {{",
        f"  return plaidc_lane0({NAME}_x16(plaidc_set1(x)));",
        "}",
    ]
    return "\n".join(lines) + "\n"


# How a vector of fp32 lanes reaches the 16-lane code on AVX-512 (widened, then narrowed).
_WIDEN = {
    16: ("plaidc_m512", "", ""),
    8: ("plaidc_m256", "plaidc_zext256", "plaidc_cast256"),
    4: ("plaidc_m128", "plaidc_zext128", "plaidc_cast128"),
}


def vector_exp(vtype: str, lanes: int) -> str:
    """The C text of `{vtype}_exp`: exp of a `lanes`-lane fp32 vector (a gcc vector type) for
    loops written with vectors (`plaidc.backends.loopnest.vector_loops`). On AVX-512 it is
    the 16-lane code above, inlined (narrower vectors widened to it); elsewhere each lane goes
    through the scalar `plaidc_exp_f32` (the same results; definitions() must come first)."""
    name = f"{vtype}_exp"
    lines = []
    if lanes in _WIDEN:
        native, widen, narrow = _WIDEN[lanes]
        call = f"{INLINE}({widen}(({native})x))" if widen else f"{INLINE}(({native})x)"
        body = f"({vtype}){narrow}({call})" if narrow else f"({vtype}){call}"
        lines += [
            "#if defined(__AVX512F__)",
            f"static inline __attribute__((always_inline)) {vtype} {name}({vtype} x) {{",
            f"  return {body};",
            "}",
            "#else",
        ]
    lines += [
        f"static inline {vtype} {name}({vtype} x) {{",
        f"  for (int i = 0; i < {lanes}; ++i) x[i] = {NAME}(x[i]);",
        "  return x;",
        "}",
    ]
    if lanes in _WIDEN:
        lines.append("#endif")
    return "\n".join(lines)
