"""Per-compilation state of the NPU backend (no globals): the machine, the program's GM
buffers and their C names, the options from `[codegen]`, and what the emitted C needs."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from plaidc.backends.c import ast as c
from plaidc.backends.npu.kernels import Buffer, error
from plaidc.backends.npu.moves import Mover
from plaidc.backends.npu.ops import BLOCK, Arena, Buf, lit
from plaidc.backends.npu.vtypes import storage_dtype
from plaidc.backends.npu_sim import NpuMachine
from plaidc.options import OptionError, read_options
from plaidc.stripe.ir import DType

if TYPE_CHECKING:
    from plaidc.backends.npu.cube_tiling import CubeTileOptions

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
    """`[codegen]` settings of the npu target (see npu.toml), read by `plaidc.options`."""

    fp32_contraction: Literal["split", "vector"] = field(
        default="split",
        metadata={
            "help": 'fp32 contractions on the Cube as fp16 hi/lo parts, 3 mads ("split"), '
            'or on the vector unit ("vector")'
        },
    )
    fp16_contraction: Literal["cube", "vector"] = field(
        default="cube", metadata={"help": "fp16 contractions on the Cube or the vector unit"}
    )
    max_tiles: int = field(
        default=4096, metadata={"help": "tiles of one kernel at most (each is unrolled)", "min": 1}
    )
    buffering: Literal[1, 2] = field(
        default=2,
        metadata={
            "help": "fraction of a buffer one tile may use: 2 = half (double buffering), 1 = all",
            "expects": "an integer, 1 or 2",
            "tune": True,
        },
    )
    reuse: bool = field(
        default=True,
        metadata={
            "help": "keep a contraction's left operand in L1 (fp16 fractals) across the output "
            "tiles sharing it",
            "tune": True,
        },
    )
    loops: bool = field(
        default=True,
        metadata={
            "help": "a Cube kernel's tiles and K steps as for loops (false: one copy of the "
            "code per iteration, unrolled)"
        },
    )
    serialise: bool = field(
        default=False,
        metadata={
            "help": "a pipe_barrier(PIPE_ALL) after every op instead of the minimal flags (the "
            "naive schedule)"
        },
    )
    tile_tag: str = field(
        default="",
        metadata={
            "help": "inner blocks with this tag are the tiles the pipeline chose (autotile's "
            'inner_set); "" ignores the tag'
        },
    )

    @staticmethod
    def from_codegen(codegen: dict[str, Any], elsewhere: Iterable[str] = ()) -> Options:
        """The options of `codegen`; keys `elsewhere` are other classes' (`cube_tiling`)."""
        known = {f.name for f in dataclasses.fields(Options)}
        unknown = sorted(set(codegen) - known - set(elsewhere))
        if unknown:
            raise error(f"[codegen] of the npu target: unknown key(s) {unknown}")
        try:
            return read_options(Options, {k: v for k, v in codegen.items() if k in known})
        except OptionError as err:
            raise error(f"[codegen] {err.key} = {err.value!r} must be {err.expected}") from None

    def check_machine(self, machine: NpuMachine) -> None:
        """What this code generator needs of a machine description, beyond what the simulator
        checks: GM and UB addresses on its 32-byte blocks, and a Cube it can map contractions
        to (`NpuMachine.maps_contractions`) when contractions may use it."""
        for key in ("gm_align", "ub_align"):
            if getattr(machine, key) > BLOCK:
                raise error(
                    f"[hardware] {key} = {getattr(machine, key)}: the NPU code generator aligns "
                    f"GM and UB addresses to {BLOCK}-byte blocks (the vector unit's and DMA's "
                    f"unit), so it supports alignments up to {BLOCK}"
                )
        uses_cube = self.fp32_contraction != "vector" or self.fp16_contraction != "vector"
        if uses_cube and not machine.maps_contractions:
            m, n, k = machine.cube_m, machine.cube_n, machine.cube_k
            raise error(
                f"[hardware] cube_m/cube_n/cube_k = {m}/{n}/{k}: the NPU code generator maps "
                "contractions to a Cube whose sides are multiples of 16, with cube_n * 4 at "
                f"most vector_repeat_bytes ({machine.vector_repeat_bytes}); for another Cube "
                'set [codegen] fp32_contraction = "vector" and fp16_contraction = "vector"'
            )


@dataclass
class Context:
    machine: NpuMachine
    buffers: dict[str, Buffer]
    options: Options
    cube_tiles: CubeTileOptions  # the Cube tiling's knobs (`cube_tiling`)
    used: set[tuple[str, DType]] = field(default_factory=set)
    # The buffer half the next kernel's first tile takes (double buffering): each tile takes
    # the next, across kernels. Lowerings pass a tile's parity to `arena` explicitly and move
    # this on only once a kernel is lowered (a tiling that did not fit leaves it as it was).
    parity: int = 0
    groups: int = 0  # groups of tiles sharing a resident operand so far (`cube`)
    # Lower only a sample of each long loop's iterations (`loops.sample`); off when a sampled
    # loop's iterations turned out not alike and the program is lowered again in full.
    sampling: bool = True
    loops: int = 0  # loops marked so far (their ids)
    names: int = 0  # numbers `unique` gave
    # Buffers kept across the tiles of one core's run of a kernel (a fused epilogue's
    # loop-invariant operand, `gemm_result`): every arena made meanwhile leaves them out.
    held: list[Buf] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Lane type each buffer computes in, and its element type in GM (they differ for
        # 8/16-bit and bool buffers, converted at the window by `staging`).
        self.storage = {name: storage_dtype(buf) for name, buf in self.buffers.items()}
        self.gm_type = {name: buf.dtype for name, buf in self.buffers.items()}
        self.gm_names = {name: c_param_name(name) for name in self.buffers}
        self.mover = Mover(self.machine.vector_repeat_bytes, self.used)

    def unique(self) -> int:
        """A number no other caller gets (for C names of the program's own)."""
        self.names += 1
        return self.names

    def new_loop(self) -> int:
        self.loops += 1
        return self.loops

    @property
    def repeat_bytes(self) -> int:
        return self.machine.vector_repeat_bytes

    def arena(self, mem: str, parity: int, lo: int = 0, hi: int | None = None) -> Arena:
        """The window of `mem` a tile of `parity` allocates from: with `buffering` 2, tiles
        of even and odd parity take alternate halves (double buffering). `lo` and `hi`
        narrow the memory to a byte range first (aligned by the caller)."""
        size, align = self.capacity(mem)
        size = (size if hi is None else hi) - lo
        part = size // self.options.buffering // align * align
        base = lo + part * (parity % self.options.buffering)
        arena = Arena(mem, base, part, align)
        for buf in self.held:
            if buf.mem == mem and base <= buf.offset and buf.offset + buf.size <= base + part:
                taken = arena.claim(buf.offset, buf.size)
                assert taken is not None, f"held {mem} bytes at {buf.offset} not free"
        arena.peak = 0  # what the arena's own allocations reach
        return arena

    def capacity(self, mem: str) -> tuple[int, int]:
        """`(bytes, alignment)` of an on-chip memory (the machine's description)."""
        return self.machine.memory(mem)

    def gm(self, name: str, element: int) -> c.Expr:
        ident = c.Ident(self.gm_names[name])
        return ident if element == 0 else c.Binary("+", ident, lit(element))
