"""The machine the NPU simulator runs: every number of NPU.md's machine model, from `[hardware]`.

`NpuMachine.from_hardware(config.hardware)` reads the target config's `[hardware]` table (the
defaults are in `src/plaidc/targets/npu.toml`); the simulator receives these numbers at run time
and hard-codes none of them. Which memories, pipes, paths and intrinsics exist, and which
`[hardware]` key sizes each, is declared in `isa`; the runner checks the compiled C agrees.
`[hardware] lacks` (optional) lists intrinsics this chip does not have: vector intrinsics, or the
byte-exact DMAs (`isa.ALIGN_DMAS`) that the default chip adds to NPU.md's strict DMA set.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from plaidc.backends.npu_sim.isa import (
    BLOCK_BYTES,
    MAX_CORES,
    MAX_REPEAT_BYTES,
    MEMORIES,
    MEMORY_TABLE,
    OPTIONAL_OPS,
    PATH_TABLE,
    PATHS,
    PIPES,
)
from plaidc.diagnostics import CompileError, Diagnostic

__all__ = ["MEMORIES", "PATHS", "PIPES", "NpuMachine"]

# The simulator holds every on-chip memory of every core in host memory: a GiB each at most.
MAX_MEMORY_BYTES = 1 << 30


@dataclass(frozen=True)
class NpuMachine:
    """One NPU core type and how many of them run a kernel (all sizes in bytes)."""

    l1_bytes: int
    ub_bytes: int
    l0a_bytes: int
    l0b_bytes: int
    l0c_bytes: int
    gm_align: int
    l1_align: int
    ub_align: int
    l0ab_align: int
    l0c_align: int
    cube_m: int
    cube_n: int
    cube_k: int
    gm_latency: int
    gm_bytes_per_cycle: int
    ub_l1_latency: int
    ub_l1_bytes_per_cycle: int
    l1_l0_latency: int
    l1_l0_bytes_per_cycle: int
    img2col_latency: int  # img2col_cbuf_to_ca (MTE1): latency + L0A bytes / bandwidth
    img2col_bytes_per_cycle: int
    l0c_ub_latency: int
    l0c_ub_bytes_per_cycle: int
    vector_repeat_bytes: int
    vector_latency: int
    cores: int
    # cycles of a cross-core barrier (sync_all_cores) after the last core reaches it
    core_barrier_latency: int
    # intrinsics of the ISA this chip does not have (`[hardware] lacks`, of isa.OPTIONAL_OPS)
    lacks: tuple[str, ...] = ()

    @classmethod
    def from_hardware(cls, hardware: Mapping[str, Any]) -> NpuMachine:
        """Read a `[hardware]` table; a missing or malformed key is a CompileError naming it."""
        names = [f.name for f in dataclasses.fields(cls) if f.name != "lacks"]
        missing = [name for name in names if name not in hardware]
        if missing:
            raise CompileError(
                [Diagnostic(f"the NPU simulator needs [hardware] keys: {', '.join(missing)}")]
            )
        values: dict[str, int] = {}
        for name in names:
            value = hardware[name]
            ok = isinstance(value, int) and not isinstance(value, bool)
            # Latencies may be 0; every size, alignment, bandwidth and count must be positive.
            if not ok or value < (0 if name.endswith("latency") else 1):
                raise CompileError(
                    [Diagnostic(f"[hardware] {name} = {value!r} must be a positive integer")]
                )
            values[name] = value
        machine = cls(**values, lacks=_lacks(hardware.get("lacks", [])))
        machine.validate()
        return machine

    def validate(self) -> None:
        """The limits the ISA encoding puts on a machine description."""
        problems = []
        # A conversion's strides count whole blocks on both sides, so its narrowest side (8-bit
        # lanes from int32: a quarter of a repeat) must be whole blocks too.
        unit = 4 * BLOCK_BYTES
        if self.vector_repeat_bytes % unit or self.vector_repeat_bytes > MAX_REPEAT_BYTES:
            problems.append(
                f"vector_repeat_bytes = {self.vector_repeat_bytes} must be a multiple of {unit} "
                f"(a conversion to 8-bit lanes writes a quarter of a repeat, in whole "
                f"{BLOCK_BYTES}-B blocks) and at most {MAX_REPEAT_BYTES}"
            )
        if not 1 <= self.cores <= MAX_CORES:
            problems.append(f"cores = {self.cores} must be in [1, {MAX_CORES}]")
        for memory in MEMORY_TABLE:
            align = getattr(self, memory.align_key)
            if align & (align - 1):
                problems.append(f"{memory.align_key} = {align} must be a power of two")
            size = getattr(self, memory.size_key) if memory.size_key else 0
            if size > MAX_MEMORY_BYTES:
                problems.append(
                    f"{memory.size_key} = {size} is more than the simulator holds "
                    f"({MAX_MEMORY_BYTES} bytes per memory)"
                )
        if problems:  # L0A and L0B share l0ab_align: each problem once
            unique = dict.fromkeys(problems)
            raise CompileError([Diagnostic(f"[hardware] {p}") for p in unique])

    def has(self, intrinsic: str) -> bool:
        """Whether this chip's ISA has `intrinsic` (every one but those it `lacks`)."""
        return intrinsic not in self.lacks

    def lacks_mask(self) -> int:
        """`lacks` as the simulator reads it: bit k for OPTIONAL_OPS[k]."""
        return sum(1 << OPTIONAL_OPS.index(name) for name in self.lacks)

    def replace(self, **changes: Any) -> NpuMachine:
        """A copy with some numbers changed (validated)."""
        machine = dataclasses.replace(self, **changes)
        machine.validate()
        return machine

    @property
    def maps_contractions(self) -> bool:
        """Whether plaidc's code generator maps contractions to this Cube: each of cube_m,
        cube_n and cube_k a multiple of 16 (the fp16 fractals' rows, and the L1 strips the
        matrices are cut into, are whole 32-byte blocks), and a row of an output fractal
        (cube_n fp32 lanes) within one vector repeat (the result is unpacked one fractal column
        per masked instruction)."""
        unit = BLOCK_BYTES // 2
        sides = (self.cube_m, self.cube_n, self.cube_k)
        return all(s % unit == 0 for s in sides) and self.cube_n * 4 <= self.vector_repeat_bytes

    @property
    def cube_macs_per_cycle(self) -> int:
        return self.cube_m * self.cube_n * self.cube_k

    def memory(self, name: str) -> tuple[int, int]:
        """`(bytes, alignment)` of the on-chip memory `name` (`UB`, `L1`, `L0A`, ...)."""
        memory = _MEMORY[name]
        if memory.size_key is None:
            raise KeyError(f"{name} has no capacity (it is the kernel's arguments)")
        return getattr(self, memory.size_key), getattr(self, memory.align_key)

    def capacities(self) -> tuple[int, ...]:
        """Bytes of each memory, in MEMORIES order (GM: 0, it is the kernel's arguments)."""
        return tuple(getattr(self, m.size_key) if m.size_key else 0 for m in MEMORY_TABLE)

    def alignments(self) -> tuple[int, ...]:
        return tuple(getattr(self, m.align_key) for m in MEMORY_TABLE)

    def path_latencies(self) -> tuple[int, ...]:
        """Cycles of latency of one transfer instruction on each path, in PATHS order."""
        return tuple(getattr(self, p.latency_key) for p in PATH_TABLE)

    def path_bandwidths(self) -> tuple[int, ...]:
        """Bytes per cycle of each path, in PATHS order."""
        return tuple(getattr(self, p.bandwidth_key) for p in PATH_TABLE)


_MEMORY = {m.name: m for m in MEMORY_TABLE}


def _lacks(value: Any) -> tuple[str, ...]:
    """`[hardware] lacks`: a list of the ISA's optional intrinsics (`isa.OPTIONAL_OPS`)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CompileError(
            [Diagnostic(f"[hardware] lacks = {value!r} must be a list of intrinsic names")]
        )
    unknown = [v for v in value if v not in OPTIONAL_OPS]
    if unknown:
        raise CompileError(
            [
                Diagnostic(
                    f"[hardware] lacks: {', '.join(unknown)} is not an intrinsic a chip may "
                    f"lack (those are: {', '.join(OPTIONAL_OPS)})"
                )
            ]
        )
    return tuple(dict.fromkeys(value))
