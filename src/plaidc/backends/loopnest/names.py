"""Unique, C-safe identifiers for one plan (buffers, variables, functions share one space)."""

from __future__ import annotations

import re

# Words a generated identifier must not be: C keywords, types and the libm/libc functions the
# backends call (a buffer called `exp` would hide the function).
_RESERVED_WORDS = """
auto break case char const continue default do double else enum extern float for goto if
inline int long register restrict return short signed sizeof static struct switch typedef
union unsigned void volatile while _Bool _Complex _Imaginary _Float16 _Alignas _Alignof
_Atomic _Generic _Noreturn _Static_assert _Thread_local bool true false NULL
int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t size_t
exp expf log logf sqrt sqrtf sin sinf cos cosf tan tanf asin asinf acos acosf atan atanf
sinh sinhf cosh coshf tanh tanhf ceil ceilf floor floorf round roundf pow powf fabs fabsf
isnan malloc free aligned_alloc memcpy memset abs main INFINITY NAN args
"""
RESERVED = frozenset(_RESERVED_WORDS.split())


class Namer:
    """Hands out identifiers that are valid in C and LLVM, unique within one plan, and close
    to the Stripe names they come from (so generated code reads like the Stripe)."""

    def __init__(self) -> None:
        self._used: set[str] = set()

    def reserve(self, name: str) -> str:
        """Claim `name` exactly (it must be free)."""
        if name in self._used:
            raise ValueError(f"identifier {name!r} is taken")
        self._used.add(name)
        return name

    def fresh(self, hint: str) -> str:
        base = re.sub(r"[^A-Za-z0-9_]", "_", hint) or "v"
        if base[0].isdigit():
            base = "_" + base
        if base.startswith("plaidc_") or base.startswith("__"):
            base = "u" + base
        candidate = base
        n = 0
        while candidate in self._used or candidate in RESERVED:
            n += 1
            candidate = f"{base}_{n}"
        self._used.add(candidate)
        return candidate
