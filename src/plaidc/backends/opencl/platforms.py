"""Which OpenCL runtimes the ICD loader sees, and which platform plaidc uses.

The loader. pyopencl's wheel links its own ocl-icd loader, patched to also load the ICDs next to
it (`$PYOPENCL_HOME/.libs`: the bundled pocl) whenever its vendors folder opens. ocl-icd reads
`$OCL_ICD_VENDORS` at its first `clGetPlatformIDs`: a folder replaces its default
`/etc/OpenCL/vendors` (or `$OPENCL_VENDOR_PATH`), and every `*.icd` there names one library
(absolute, or found by `dlopen`'s search); a `.icd` file or a library path loads that one alone.
Khronos' loader reads `$OCL_ICD_FILENAMES` (libraries) as well. Runtimes installed into the
virtual environment (Intel's CPU runtime from PyPI: `<prefix>/lib/libintelocl.so`, which finds
its own libraries through its RUNPATH) are in no such folder, so `expose_venv_runtimes` writes
one listing them and the system's entries, and points `$OCL_ICD_VENDORS` at it, unless the user
set either variable. The bundled pocl is not listed: the patched loader adds it itself, and a
second entry would show the same platform twice.

The platform. `$PLAIDC_OPENCL_PLATFORM` (a case-insensitive part of the platform's name, or its
index in `pyopencl.get_platforms()`) forces one. Otherwise every platform with a device is a
candidate, in the loader's order (GPUs first) except that the CPU runtimes plaidc installs come
last, faster first (`PREFERRED_CPU_PLATFORMS`); the first whose device builds a trivial kernel is
used. A runtime whose compiler cannot build anything (pocl 3.0 with LLVM 14 on AMD Zen 5: "unknown
target CPU 'generic'") is thereby passed over, and when it is forced, or no platform builds, the
error names each platform with its compiler's message and says how to choose another.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plaidc.backends import BackendUnavailable

LOADER_VARIABLES = ("OCL_ICD_VENDORS", "OCL_ICD_FILENAMES")
SYSTEM_VENDORS = Path("/etc/OpenCL/vendors")

# The CPU runtimes the `opencl` extra installs, by exact platform name, faster first: pocl ran
# plaidc's kernels 1.6-9x faster than Intel's CPU runtime (`plaidc run ... --bench 10` of matmul
# 512^3, softmax and a 3x3 conv, each platform forced, on a 2-core Intel Xeon), so Intel's is
# the fallback where pocl cannot build (AMD Zen 5). Other platforms (GPUs, system runtimes)
# come before these.
PREFERRED_CPU_PLATFORMS = ("Portable Computing Language", "Intel(R) OpenCL")

INSTALL_EXTRA = (
    "`pip install -e '.[opencl]'` (which `make install` does) installs Intel's CPU runtime and pocl"
)

PROBE_KERNEL = "__kernel void plaidc_probe(__global float *x) { x[get_global_id(0)] += 1.0f; }"

# Lines of a compiler's message quoted in an error: enough for its first diagnostics.
MESSAGE_LINES = 6


def venv_icds(prefix: Path) -> dict[str, str]:
    """The ICD entries for runtimes installed into the environment at `prefix`, by .icd name."""
    intel = prefix / "lib" / "libintelocl.so"
    return {"plaidc-intel-cpu.icd": str(intel)} if intel.is_file() else {}


def system_icds(folder: Path) -> dict[str, str]:
    """The entries of the system's vendors folder (name -> first line), as the loader reads them."""
    entries: dict[str, str] = {}
    try:
        files = sorted(folder.glob("*.icd"))
    except OSError:
        return entries
    for icd in files:
        try:
            lines = icd.read_text(errors="replace").splitlines()
        except OSError:
            continue
        if lines and lines[0].strip():
            entries[icd.name] = lines[0].strip()
    return entries


def write_vendors_folder(entries: Mapping[str, str], parent: Path) -> Path:
    """A folder under `parent` holding one `<name>` file per entry, written atomically: it is
    named by its contents, filled under a temporary name and renamed, so a concurrent process
    sees either nothing or the whole folder."""
    text = "\n".join(f"{name}={line}" for name, line in sorted(entries.items()))
    final = parent / f"vendors-{hashlib.sha256(text.encode()).hexdigest()[:16]}"
    if final.is_dir():
        return final
    parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".vendors-", dir=parent))
    try:
        for name, line in entries.items():
            (staging / name).write_text(line + "\n")
        staging.rename(final)
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        if not final.is_dir():  # not another process that won the race
            raise
    return final


def expose_venv_runtimes(
    environ: MutableMapping[str, str], prefix: Path, cache: Path
) -> Path | None:
    """Point the ICD loader at a vendors folder listing the runtimes installed at `prefix` and
    the system's (module docstring); returns the folder, or None when nothing was changed (the
    user chose the loader's ICDs, or the environment ships no runtime the loader misses)."""
    if any(environ.get(name) for name in LOADER_VARIABLES):
        return None
    ours = venv_icds(prefix)
    if not ours:
        return None
    system = system_icds(Path(environ.get("OPENCL_VENDOR_PATH") or SYSTEM_VENDORS))
    try:
        folder = write_vendors_folder({**system, **ours}, cache / "opencl-vendors")
    except OSError:
        return None  # an unwritable cache: the loader's defaults still work
    environ["OCL_ICD_VENDORS"] = str(folder)
    return folder


# pyopencl's framing of a failed build around the compiler's log: not the reason itself.
PYOPENCL_FRAMING = re.compile(r"^\s*(clBuildProgram failed|Build on <pyopencl|\(options: )")


def compiler_message(error: str) -> str:
    """The compiler's log out of pyopencl's build error (its framing lines dropped)."""
    lines = [line for line in error.splitlines() if not PYOPENCL_FRAMING.match(line)]
    return "\n".join(lines).strip() or error.strip()


@dataclass(frozen=True)
class ProbeFailure:
    """A platform that cannot be used, with why (its compiler's message, or the error)."""

    platform: str
    message: str

    def describe(self) -> str:
        lines = [line.rstrip() for line in self.message.strip().splitlines() if line.strip()]
        text = " | ".join(lines[:MESSAGE_LINES]).rstrip(".") or "(no message)"
        return f"'{self.platform}': {text}" + (" | ..." if len(lines) > MESSAGE_LINES else "")


def devices_of(platform: Any) -> list[Any]:
    try:
        return list(platform.get_devices())
    except Exception:  # a broken ICD entry must not hide the others
        return []


def forced_platform(platforms: Sequence[Any], choice: str) -> Any:
    """The platform `$PLAIDC_OPENCL_PLATFORM=choice` names (an index or a part of a name)."""
    if choice.isdigit() and int(choice) < len(platforms):
        return platforms[int(choice)]
    for platform in platforms:
        if choice.lower() in platform.name.lower():
            return platform
    names = ", ".join(f"'{p.name}'" for p in platforms) or "none"
    raise BackendUnavailable(
        f"PLAIDC_OPENCL_PLATFORM={choice!r} matches no OpenCL platform (found: {names})"
    )


def candidate_order(platforms: Iterable[Any]) -> list[Any]:
    """Platforms with a device, in the loader's order except that the CPU runtimes plaidc
    installs come last, in `PREFERRED_CPU_PLATFORMS` order."""

    def rank(platform: Any) -> int:
        name = platform.name.strip()
        if name in PREFERRED_CPU_PLATFORMS:
            return 1 + PREFERRED_CPU_PLATFORMS.index(name)
        return 0

    return sorted((p for p in platforms if devices_of(p)), key=rank)  # sorted() is stable


def choose_platform(
    platforms: Sequence[Any], choice: str | None, probe: Callable[[Any], str | None]
) -> Any:
    """The platform to use (module docstring). `probe(platform)` is None when the platform's
    first device builds a trivial kernel, else why not."""
    if choice:
        platform = forced_platform(platforms, choice)
        if not devices_of(platform):
            raise BackendUnavailable(f"the OpenCL platform '{platform.name}' has no device")
        failure = probe(platform)
        if failure is not None:
            raise broken_runtime([ProbeFailure(platform.name, failure)], platforms, forced=True)
        return platform
    candidates = candidate_order(platforms)
    if not candidates:
        raise BackendUnavailable(f"no OpenCL platform with a device was found: {INSTALL_EXTRA}")
    failures = []
    for platform in candidates:
        failure = probe(platform)
        if failure is None:
            return platform
        failures.append(ProbeFailure(platform.name, failure))
    raise broken_runtime(failures, platforms, forced=False)


def broken_runtime(
    failures: list[ProbeFailure], platforms: Sequence[Any], forced: bool
) -> BackendUnavailable:
    """The error for platforms whose compilers cannot build a trivial kernel: one paragraph
    naming each with its compiler's message, then how to use another."""
    if forced:
        head = (
            f"the OpenCL platform {failures[0].platform!r} (forced by PLAIDC_OPENCL_PLATFORM) "
            "cannot build a trivial kernel"
        )
    elif len(failures) == 1:
        head = f"the only OpenCL platform, {failures[0].platform!r}, cannot build a trivial kernel"
    else:
        head = "no OpenCL platform can build a trivial kernel"
    names = ", ".join(f"{k}: '{p.name}'" for k, p in enumerate(platforms))
    reasons = "; ".join(f.describe() for f in failures)
    return BackendUnavailable(
        f"{head} (its runtime is broken on this machine): {reasons}. Choose a platform that "
        f"works with PLAIDC_OPENCL_PLATFORM (a part of its name or its index; found {names}), "
        f"or install another runtime: {INSTALL_EXTRA}."
    )
