"""Per-compilation state of the NPU backend (no globals): the machine, the program's GM
buffers and their C names, the options from `[codegen]`, and what the emitted C needs."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from plaidc.backends.c import ast as c
from plaidc.backends.npu.kernels import Buffer, error
from plaidc.backends.npu.moves import Mover
from plaidc.backends.npu.ops import BLOCK, Arena, lit
from plaidc.backends.npu.vtypes import storage_dtype
from plaidc.backends.npu_sim import NpuMachine
from plaidc.stripe.ir import DType

# Identifiers the generated C (or plaidc_npu.h) already uses; a buffer named so gets a prefix.
_RESERVED = {
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "half",
    "mad",
    "lo",
    "hi",
    "w",
    "w1",
    "block_idx",
    "block_num",
    "int64_t",
    "int32_t",
    "uint8_t",
    "uint64_t",
    "NAN",
    "INFINITY",
}


def c_param_name(name: str) -> str:
    """A C identifier for a GM buffer: its own name when that is safe."""
    ident = re.sub(r"[^A-Za-z0-9_]", "_", name)
    unsafe = (
        not re.match(r"[A-Za-z]", ident)
        or ident in _RESERVED
        or ident.startswith(("i_", "plaidc", "PLAIDC", "PIPE_", "EVENT_", "CC_MODE"))
        or ident.endswith("_BASE")
        or re.fullmatch(r"v[a-z_0-9]+|copy_.*|load_.*|set_.*|wait_.*|pipe_.*", ident) is not None
    )
    return f"buf_{ident}" if unsafe else ident


@dataclass(frozen=True)
class Options:
    """`[codegen]` settings of the npu target (see npu.toml)."""

    # How fp32 contractions use the Cube: "split" (fp16 hi/lo parts, 3 mads), "vector" (no Cube).
    fp32_contraction: str = "split"
    # fp16 contractions on the Cube ("cube") or the vector unit ("vector").
    fp16_contraction: str = "cube"
    # Tiles of one kernel at most (each is unrolled into the kernel).
    max_tiles: int = 4096
    # Fraction of a buffer one tile may use: 2 = half (double buffering), 1 = all.
    buffering: int = 2
    # Keep a contraction's left operand in L1 (as fp16 fractals) across the output tiles that
    # share it, instead of loading and converting it again for each of them.
    reuse: bool = True
    # A pipe_barrier(PIPE_ALL) after every op instead of the minimal flags: no two pipes ever
    # overlap (the naive schedule benchmarks compare against).
    serialise: bool = False
    # Inner blocks with this tag are tiles the pass pipeline chose (autotile's inner_set): the
    # vector unit runs one of them per tile, cut further only when its values do not fit UB.
    # Contractions on the Cube choose their own fractal tiles. "" ignores the tag.
    tile_tag: str = ""

    @staticmethod
    def from_codegen(codegen: dict[str, Any]) -> Options:
        known = {f for f in Options.__dataclass_fields__}
        unknown = sorted(set(codegen) - known)
        if unknown:
            raise error(f"[codegen] of the npu target: unknown key(s) {unknown}")
        for field_ in dataclasses.fields(Options):
            value = codegen.get(field_.name, field_.default)
            want, kind = _KINDS[str(field_.type)]
            if not isinstance(value, want) or (want is int and isinstance(value, bool)):
                raise error(f"[codegen] {field_.name} = {value!r} must be {kind}")
        opts = Options(**codegen)
        if opts.fp32_contraction not in ("split", "vector"):
            raise error('[codegen] fp32_contraction must be "split" or "vector"')
        if opts.fp16_contraction not in ("cube", "vector"):
            raise error('[codegen] fp16_contraction must be "cube" or "vector"')
        if opts.buffering not in (1, 2) or opts.max_tiles < 1:
            raise error("[codegen] buffering must be 1 or 2 and max_tiles positive")
        return opts

    def check_machine(self, machine: NpuMachine) -> None:
        """What this code generator needs of a machine description, beyond what the simulator
        checks: GM and UB addresses on its 32-byte blocks, and a square Cube whose side is a
        multiple of 16 when contractions may use it."""
        for key in ("gm_align", "ub_align"):
            if getattr(machine, key) > BLOCK:
                raise error(
                    f"[hardware] {key} = {getattr(machine, key)}: the NPU code generator aligns "
                    f"GM and UB addresses to {BLOCK}-byte blocks (the vector unit's and DMA's "
                    f"unit), so it supports alignments up to {BLOCK}"
                )
        uses_cube = self.fp32_contraction != "vector" or self.fp16_contraction != "vector"
        if uses_cube and not machine.square_cube:
            m, n, k = machine.cube_m, machine.cube_n, machine.cube_k
            raise error(
                f"[hardware] cube_m/cube_n/cube_k = {m}/{n}/{k}: the NPU code generator maps "
                "contractions to a square Cube whose side is a multiple of 16; for another "
                'Cube set [codegen] fp32_contraction = "vector" and fp16_contraction = "vector"'
            )


# The types of Options' fields, as TOML values.
_KINDS: dict[str, tuple[type, str]] = {
    "bool": (bool, "true or false"),
    "int": (int, "an integer"),
    "str": (str, "a string"),
}


@dataclass
class Context:
    machine: NpuMachine
    buffers: dict[str, Buffer]
    options: Options
    used: set[tuple[str, DType]] = field(default_factory=set)
    tiles: int = 0
    groups: int = 0  # groups of tiles sharing a resident operand so far (`cube`)

    def __post_init__(self) -> None:
        # Lane type each buffer computes in, and its element type in GM (they differ for
        # 8/16-bit and bool buffers, converted at the window by `staging`).
        self.storage = {name: storage_dtype(buf) for name, buf in self.buffers.items()}
        self.gm_type = {name: buf.dtype for name, buf in self.buffers.items()}
        self.gm_names = {name: c_param_name(name) for name in self.buffers}
        self.mover = Mover(self.machine.vector_repeat_bytes, self.used)

    @property
    def repeat_bytes(self) -> int:
        return self.machine.vector_repeat_bytes

    def arena(
        self, mem: str, parity: int | None = None, lo: int = 0, hi: int | None = None
    ) -> Arena:
        """The window of `mem` the next tile allocates from: halves alternate between tiles
        (double buffering) when `buffering` is 2 (`parity` overrides the tile count). `lo`
        and `hi` narrow the memory to a byte range first (aligned by the caller)."""
        size, align = self.capacity(mem)
        size = (size if hi is None else hi) - lo
        part = size // self.options.buffering // align * align
        base = lo + part * ((self.tiles if parity is None else parity) % self.options.buffering)
        return Arena(mem, base, part, align)

    def capacity(self, mem: str) -> tuple[int, int]:
        """`(bytes, alignment)` of an on-chip memory."""
        m = self.machine
        return {
            "UB": (m.ub_bytes, m.ub_align),
            "L1": (m.l1_bytes, m.l1_align),
            "L0A": (m.l0a_bytes, m.l0ab_align),
            "L0B": (m.l0b_bytes, m.l0ab_align),
            "L0C": (m.l0c_bytes, m.l0c_align),
        }[mem]

    def gm(self, name: str, element: int) -> c.Expr:
        ident = c.Ident(self.gm_names[name])
        return ident if element == 0 else c.Binary("+", ident, lit(element))
