"""The cycle report of one simulated run (NPU.md, "Report"): JSON-able and as a table."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class NpuReport:
    """What a run cost. Pipes, paths and memories are keyed by their names in plaidc_npu.h."""

    total_cycles: int  # the last pipe's clock, over all cores
    cores: int
    busy_cycles: dict[str, int]  # pipe -> cycles occupied (summed over cores)
    instructions: dict[str, int]  # pipe -> instructions issued
    bytes_moved: dict[str, int]  # path ("GM->UB", ...) -> bytes
    peak_bytes: dict[str, int]  # on-chip memory -> highest byte offset used + 1
    touched_bytes: dict[str, int]  # on-chip memory -> distinct bytes used (32-B granules)
    capacity: dict[str, int]  # on-chip memory -> bytes
    macs: int  # Cube multiply-accumulates
    cube_macs_per_cycle: int  # cube_m * cube_n * cube_k
    unwaited_flags: int  # flags raised and never waited for (a sync-insertion smell)
    by_intrinsic: dict[str, int] = field(default_factory=dict)  # intrinsic -> instructions
    core_cycles: list[int] = field(default_factory=list)  # each core's last pipe clock
    core_busy: list[dict[str, int]] = field(default_factory=list)  # each core's busy cycles
    core_barriers: int = 0  # sync_all_cores the cores passed together

    @property
    def cube_utilisation(self) -> float:
        """MACs / (cycles x Cube MACs per cycle x cores)."""
        peak = self.total_cycles * self.cube_macs_per_cycle * self.cores
        return self.macs / peak if peak else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "total_cycles": self.total_cycles,
            "cores": self.cores,
            "busy_cycles": dict(self.busy_cycles),
            "instructions": dict(self.instructions),
            "instructions_by_intrinsic": dict(sorted(self.by_intrinsic.items())),
            "cube_macs": self.macs,
            "cube_utilisation": self.cube_utilisation,
            "bytes_moved": dict(self.bytes_moved),
            "peak_bytes": dict(self.peak_bytes),
            "touched_bytes": dict(self.touched_bytes),
            "capacity": dict(self.capacity),
            "unwaited_flags": self.unwaited_flags,
            "per_core": [
                {"cycles": cycles, "busy_cycles": dict(busy)}
                for cycles, busy in zip(self.core_cycles, self.core_busy, strict=True)
            ],
            "core_barriers": self.core_barriers,
        }

    def render(self) -> str:
        """A plain-text table, as `plaidc run -t npu` prints it."""
        total = self.total_cycles
        cores = f"{self.cores} cores" if self.cores > 1 else "1 core"
        lines = [f"NPU simulation: {total} cycles ({cores})", "", "pipe        busy  share  instrs"]
        for pipe, busy in self.busy_cycles.items():
            share = busy / (total * self.cores) if total else 0.0
            lines.append(f"{pipe:9} {busy:>6} {share:6.1%} {self.instructions[pipe]:>7}")
        if self.cores > 1 and self.core_busy:
            pipes = list(self.busy_cycles)
            lines.append("")
            lines.append("core    cycles " + " ".join(f"{p[5:]:>7}" for p in pipes))
            per_core = zip(self.core_cycles, self.core_busy, strict=True)
            for core, (cycles, core_busy) in enumerate(per_core):
                row = " ".join(f"{core_busy[p]:>7}" for p in pipes)
                lines.append(f"{core:4} {cycles:>9} {row}")
            lines.append(f"({self.core_barriers} cross-core barrier(s) passed)")
        if self.by_intrinsic:
            lines.append("")
            lines.append("intrinsic              instrs")
            lines.extend(
                f"{name:22} {count:>7}" for name, count in sorted(self.by_intrinsic.items())
            )
        lines.append("")
        lines.append(f"Cube: {self.macs} MACs, utilisation {self.cube_utilisation:.1%}")
        lines.append("")
        lines.append("path          bytes")
        lines.extend(f"{path:9} {moved:>9}" for path, moved in self.bytes_moved.items())
        lines.append("")
        lines.append("buffer      peak   touched  capacity")
        for mem, cap in self.capacity.items():
            peak = self.peak_bytes[mem]
            lines.append(
                f"{mem:6} {peak:>9} {self.touched_bytes[mem]:>9} {cap:>9}  ({peak / cap:.1%})"
            )
        if self.unwaited_flags:
            lines.append("")
            lines.append(f"warning: {self.unwaited_flags} flag(s) raised and never waited for")
        return "\n".join(lines)
