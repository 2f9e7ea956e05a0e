"""The facts of the machine plaidc runs on, for the CPU configs that leave them out of
`[hardware]` (or set them to `"detect"`): a config that sets a value describes a chip, and wins.

- `threads`: `OMP_NUM_THREADS` when set (its first level, as libgomp reads it), else the CPUs
  of this process's affinity mask (`os.sched_getaffinity`);
- `l1_bytes`, `l2_bytes`, `cache_line`: the level-1 data and level-2 caches of the first CPU in
  `/sys/devices/system/cpu/cpu0/cache/index*/` (`level`, `type`, `size`,
  `coherency_line_size`); without sysfs, glibc's `sysconf`; without either, 32 KiB, 1 MiB and
  64 bytes (`FALLBACK_CACHES`);
- `vector_bytes`: the CPU flags of `/proc/cpuinfo`: `avx512f` 64, `avx2` or `avx` 32, else 16
  (the widest registers `gcc -march=native` and LLVM's host CPU features may use).

Detection runs once per process (`host_facts()`); a bad `OMP_NUM_THREADS` is a warning and the
affinity mask decides, as libgomp itself does.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from plaidc.diagnostics import Diagnostic

HOST_KEYS = ("threads", "cache_line", "l1_bytes", "l2_bytes", "vector_bytes")
DETECT = "detect"  # a [hardware] value asking for the host's

SYSFS_CACHE = Path("/sys/devices/system/cpu/cpu0/cache")
CPUINFO = Path("/proc/cpuinfo")

# Without sysfs or sysconf: a common x86-64 L1 data cache, L2 and line.
FALLBACK_CACHES = {"l1_bytes": 32768, "l2_bytes": 1048576, "cache_line": 64}
# Vector register width by CPU flag, widest first.
_VECTOR_FLAGS = (("avx512f", 64), ("avx2", 32), ("avx", 32))
_SIZE = re.compile(r"\s*(\d+)\s*([KMG]?)\s*B?\s*", re.IGNORECASE)
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


@dataclass(frozen=True)
class HostFacts:
    """The detected values of `HOST_KEYS`, where each came from, and any warning."""

    values: dict[str, int]
    sources: dict[str, str]
    warnings: tuple[Diagnostic, ...] = field(default=())


@functools.cache
def host_facts() -> HostFacts:
    """This machine's facts, detected once per process."""
    return detect(os.environ, _affinity_count(), SYSFS_CACHE, CPUINFO)


def detect(environ: Mapping[str, str], cpus: int, sysfs: Path, cpuinfo: Path) -> HostFacts:
    """The facts from an environment, a CPU count, a sysfs cache folder and a cpuinfo file."""
    values: dict[str, int] = {}
    sources: dict[str, str] = {}
    warnings: list[Diagnostic] = []
    threads, source, warning = _threads(environ.get("OMP_NUM_THREADS"), cpus)
    values["threads"], sources["threads"] = threads, source
    if warning:
        warnings.append(Diagnostic(warning, severity="warning"))
    caches, source = _caches(sysfs)
    for key, value in caches.items():
        values[key], sources[key] = value, source
    values["vector_bytes"], sources["vector_bytes"] = _vector_bytes(cpuinfo)
    return HostFacts(values, sources, tuple(warnings))


def _affinity_count() -> int:
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):  # not Linux
        return max(os.cpu_count() or 1, 1)


def _threads(omp: str | None, cpus: int) -> tuple[int, str, str | None]:
    """OMP_NUM_THREADS's first level when it is a positive integer, else the CPU count."""
    affinity = f"the {cpus} CPUs of the affinity mask"
    if omp is None or not omp.strip():
        return cpus, affinity, None
    first = omp.split(",", 1)[0].strip()
    if first.isdigit() and int(first) > 0:
        return int(first), f"OMP_NUM_THREADS={omp.strip()}", None
    return (
        cpus,
        affinity,
        f"OMP_NUM_THREADS={omp!r} is not a positive integer (or a comma-separated list of "
        f"them); using {affinity}, as the OpenMP runtime does",
    )


def parse_cache_size(text: str) -> int | None:
    """`48K`, `2048K`, `30M`, `512` (bytes) -> bytes; None if unreadable."""
    found = _SIZE.fullmatch(text)
    return int(found.group(1)) * _UNITS[found.group(2).upper()] if found else None


def _caches(sysfs: Path) -> tuple[dict[str, int], str]:
    found = _sysfs_caches(sysfs)
    if found:
        return {**FALLBACK_CACHES, **found}, str(sysfs)
    found = _sysconf_caches()
    if found:
        return {**FALLBACK_CACHES, **found}, "sysconf"
    return dict(FALLBACK_CACHES), "fallback (no sysfs or sysconf cache sizes)"


def _sysfs_caches(sysfs: Path) -> dict[str, int]:
    """L1 data and L2 sizes and the L1 line of the `index*` folders (unreadable ones skipped)."""
    found: dict[str, int] = {}
    try:
        folders = sorted(sysfs.glob("index*"))
    except OSError:
        return found
    for folder in folders:
        try:
            level = (folder / "level").read_text().strip()
            kind = (folder / "type").read_text().strip()
            size = parse_cache_size((folder / "size").read_text())
            line_text = (folder / "coherency_line_size").read_text().strip()
        except OSError:
            continue
        if kind not in ("Data", "Unified") or size is None:
            continue
        if level == "1":
            found["l1_bytes"] = size
            if line_text.isdigit() and int(line_text) > 0:
                found["cache_line"] = int(line_text)
        elif level == "2":
            found["l2_bytes"] = size
    return found


def _sysconf_caches() -> dict[str, int]:
    names = {
        "l1_bytes": "SC_LEVEL1_DCACHE_SIZE",
        "l2_bytes": "SC_LEVEL2_CACHE_SIZE",
        "cache_line": "SC_LEVEL1_DCACHE_LINESIZE",
    }
    found = {}
    for key, name in names.items():
        try:
            value = os.sysconf(name)
        except (ValueError, OSError, AttributeError):
            continue
        if value > 0:
            found[key] = value
    return found


def _vector_bytes(cpuinfo: Path) -> tuple[int, str]:
    try:
        text = cpuinfo.read_text()
    except OSError:
        return 16, f"fallback ({cpuinfo} unreadable)"
    flags: set[str] = set()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):  # x86, ARM
            flags.update(value.split())
            break
    for flag, width in _VECTOR_FLAGS:
        if flag in flags:
            return width, f"{cpuinfo} flag {flag}"
    return 16, f"{cpuinfo} (no avx flag)"


@functools.cache
def host_fingerprint() -> dict[str, object]:
    """What identifies this machine for tuning records (`plaidc tune`): the CPU model, its
    flags, the CPUs present and usable, and the detected facts. A record measured on another
    machine (or with another thread count) never matches."""
    return fingerprint_of(CPUINFO, os.cpu_count() or 1, _affinity_count(), host_facts())


def fingerprint_of(cpuinfo: Path, cores: int, usable: int, facts: HostFacts) -> dict[str, object]:
    model, flags = "unknown", ""
    try:
        text = cpuinfo.read_text()
    except OSError:
        text = ""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key in ("model name", "Model", "CPU part") and model == "unknown":
            model = value.strip()
        elif key in ("flags", "Features") and not flags:
            flags = " ".join(sorted(value.split()))
    return {
        "cpu": model,
        "flags": flags,
        "cores": cores,
        "usable_cores": usable,
        "facts": dict(sorted(facts.values.items())),
    }
