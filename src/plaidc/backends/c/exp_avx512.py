"""plaidc's float32 exp for gcc on AVX-512: the steps of `plaidc.backends.loopnest.exp_poly`
written with intrinsics, so that step 5 (the scaling by 2^k) is one `vscalefps` instead of
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
decides, else the portable inline function (`helpers._exp_f32`) is compiled.
"""

from __future__ import annotations

from plaidc.backends.loopnest import exp_poly

NAME = "plaidc_exp_f32"
INLINE = "plaidc_exp_f32_inline16"
_ATTRS = '__attribute__((visibility("hidden"), const, nothrow))'
# (ISA letter, lanes, C vector type, widen to __m512, narrow from __m512) of the AVX-512
# clone's callers: gcc picks one by the vector width of the loop it vectorises.
_NARROW_CLONES = (
    ("b", 4, "__m128", "_mm512_zextps128_ps512", "_mm512_castps512_ps128"),
    ("c", 8, "__m256", "_mm512_zextps256_ps512", "_mm512_castps512_ps256"),
    ("d", 8, "__m256", "_mm512_zextps256_ps512", "_mm512_castps512_ps256"),
)


def _f(value: float) -> str:
    return f"_mm512_set1_ps({float(value).hex()}f)"


def _clone(isa: str, lanes: int) -> str:
    return f"_ZGV{isa}N{lanes}v_{NAME}"


def definitions() -> str:
    """The C text: the SIMD declaration, the 16-lane code, its narrower clones and the scalar
    function (all hidden, so calls stay inside the shared object)."""
    *low, top = exp_poly.POLY
    poly = [f"  __m512 p = {_f(top)};"]
    poly += [f"  p = _mm512_fmadd_ps(p, r, {_f(coef)});" for coef in reversed(low)]
    v16 = _clone("e", 16)
    lines = [
        "#include <immintrin.h>",
        f'__attribute__((simd("notinbranch"), const, nothrow)) float {NAME}(float);',
        # The code itself, inlined where a loop written with vectors calls it (vector_exp).
        f"static inline __attribute__((always_inline)) __m512 {INLINE}(__m512 x) {{",
        "  /* vmaxps/vminps return their second operand when one is NaN: NaN passes. */",
        f"  __m512 xc = _mm512_max_ps({_f(exp_poly.CLAMP_LO)}, x);",
        f"  xc = _mm512_min_ps({_f(exp_poly.CLAMP_HI)}, xc);",
        f"  __m512 kf = _mm512_fmadd_ps(xc, {_f(exp_poly.LOG2E)}, {_f(exp_poly.SHIFT)});",
        f"  kf = _mm512_sub_ps(kf, {_f(exp_poly.SHIFT)});",
        f"  __m512 r = _mm512_fmadd_ps(kf, {_f(-exp_poly.LN2_HI)}, xc);",
        f"  r = _mm512_fmadd_ps(kf, {_f(-exp_poly.LN2_LO)}, r);",
        *poly,
        "  __m512 y = _mm512_fmadd_ps(_mm512_mul_ps(p, r), r, r);",
        f"  y = _mm512_add_ps(y, {_f(1.0)});",
        "  return _mm512_scalef_ps(y, kf);",
        "}",
        f'{_ATTRS} __m512 {NAME}_x16(__m512 x) __asm__("{v16}");',
        f"{_ATTRS} __m512 {NAME}_x16(__m512 x) {{ return {INLINE}(x); }}",
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
        f"  return _mm512_cvtss_f32({NAME}_x16(_mm512_set1_ps(x)));",
        "}",
    ]
    return "\n".join(lines) + "\n"


# How a vector of fp32 lanes reaches the 16-lane code on AVX-512 (widened, then narrowed).
_WIDEN = {
    16: ("__m512", "", ""),
    8: ("__m256", "_mm512_zextps256_ps512", "_mm512_castps512_ps256"),
    4: ("__m128", "_mm512_zextps128_ps512", "_mm512_castps512_ps128"),
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
