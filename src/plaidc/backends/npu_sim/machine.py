"""The machine the NPU simulator runs: every number of NPU.md's machine model, from `[hardware]`.

`NpuMachine.from_hardware(config.hardware)` reads the target config's `[hardware]` table (the
defaults are in `src/plaidc/targets/npu.toml`); the simulator receives these numbers at run time
and hard-codes none of them. The tuples below are ordered like the enumerations of
`plaidc_npu.h` (memories, pipes, data paths), which the runner checks against the compiled C.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from plaidc.diagnostics import CompileError, Diagnostic

MEMORIES = ("GM", "L1", "UB", "L0A", "L0B", "L0C")
PIPES = ("PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3")
PATHS = ("GM->UB", "GM->L1", "UB->GM", "UB->L1", "L1->L0A", "L1->L0B", "L0C->UB")

# ISA encoding units (plaidc_npu.h), not machine sizes: strides count 32-B blocks, the vector
# mask has 128 lanes (so a repeat holds at most 256 B of fp16), and cores are a 64-bit set.
BLOCK_BYTES = 32
MAX_REPEAT_BYTES = 256
MAX_CORES = 64


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
    l0c_ub_latency: int
    l0c_ub_bytes_per_cycle: int
    vector_repeat_bytes: int
    vector_latency: int
    cores: int

    @classmethod
    def from_hardware(cls, hardware: Mapping[str, Any]) -> NpuMachine:
        """Read a `[hardware]` table; a missing or malformed key is a CompileError naming it."""
        names = [f.name for f in dataclasses.fields(cls)]
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
        machine = cls(**values)
        machine.validate()
        return machine

    def validate(self) -> None:
        """The limits the ISA encoding puts on a machine description."""
        problems = []
        if self.vector_repeat_bytes % BLOCK_BYTES or self.vector_repeat_bytes > MAX_REPEAT_BYTES:
            problems.append(
                f"vector_repeat_bytes = {self.vector_repeat_bytes} must be a multiple of "
                f"{BLOCK_BYTES} and at most {MAX_REPEAT_BYTES}"
            )
        if not 1 <= self.cores <= MAX_CORES:
            problems.append(f"cores = {self.cores} must be in [1, {MAX_CORES}]")
        if problems:
            raise CompileError([Diagnostic(f"[hardware] {p}") for p in problems])

    def replace(self, **changes: int) -> NpuMachine:
        """A copy with some numbers changed (validated)."""
        machine = dataclasses.replace(self, **changes)
        machine.validate()
        return machine

    @property
    def cube_macs_per_cycle(self) -> int:
        return self.cube_m * self.cube_n * self.cube_k

    def capacities(self) -> tuple[int, ...]:
        """Bytes of each memory, in MEMORIES order (GM: 0, it is the kernel's arguments)."""
        return (0, self.l1_bytes, self.ub_bytes, self.l0a_bytes, self.l0b_bytes, self.l0c_bytes)

    def alignments(self) -> tuple[int, ...]:
        return (
            self.gm_align,
            self.l1_align,
            self.ub_align,
            self.l0ab_align,
            self.l0ab_align,
            self.l0c_align,
        )

    def path_latencies(self) -> tuple[int, ...]:
        """Cycles of latency of one transfer instruction on each path, in PATHS order."""
        gm, ub_l1, l1_l0 = self.gm_latency, self.ub_l1_latency, self.l1_l0_latency
        return (gm, gm, gm, ub_l1, l1_l0, l1_l0, self.l0c_ub_latency)

    def path_bandwidths(self) -> tuple[int, ...]:
        """Bytes per cycle of each path, in PATHS order."""
        gm, ub_l1 = self.gm_bytes_per_cycle, self.ub_l1_bytes_per_cycle
        l1_l0 = self.l1_l0_bytes_per_cycle
        return (gm, gm, gm, ub_l1, l1_l0, l1_l0, self.l0c_ub_bytes_per_cycle)
