"""Backends: compile final Stripe to an artifact that runs on numpy arrays.

One small interface (ARCHITECTURE.md): `get_backend(name).compile(program, target)` returns an
`Artifact` holding the emitted source text and able to `run` on inputs by program buffer name.
Each backend lives in `plaidc.backends.<name>` and exposes a module-level `BACKEND`. Anything a
backend cannot express is a CompileError naming the construct; a missing toolchain or runtime is
a `BackendUnavailable` saying what is missing and how to install it.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from plaidc.diagnostics import CompileError, Diagnostic
from plaidc.stripe.ir import Block
from plaidc.targets import BACKEND_NAMES, TargetConfig

__all__ = ["BACKEND_NAMES", "build_fingerprint", "check_target", "content_digest", "get_backend"]


class BackendUnavailable(CompileError):
    """The toolchain or runtime a backend needs is missing (exit code 1, with install advice)."""

    def __init__(self, message: str) -> None:
        super().__init__([Diagnostic(message)])


class Artifact(Protocol):
    """A compiled program."""

    @property
    def source(self) -> str:
        """The emitted code (C, LLVM IR, OpenCL C or CCE-like C), as `--emit` writes it."""
        ...

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Execute on inputs by program buffer name; returns every output by name."""
        ...

    def report(self) -> str | None:
        """A human-readable report of the last run (e.g. simulated cycles), if any."""
        ...

    def report_json(self) -> dict[str, Any] | None:
        """The same report as JSON-able data (`plaidc run --report FILE`), if any."""
        ...

    def save_library(self, path: Path) -> None:
        """Write a loadable library (`--emit lib`); raise CompileError if there is none."""
        ...


class Backend(Protocol):
    name: str

    def compile(self, program: Block, target: TargetConfig) -> Artifact: ...


def build_fingerprint(program: Block, target: TargetConfig) -> str | None:
    """A digest of everything the artifact `target`'s backend would build for `program` depends
    on (its emitted source and build options), or None when the backend offers none (its
    `fingerprint` method is optional). Equal fingerprints mean the same artifact: `plaidc tune`
    measures such points once."""
    backend = get_backend(target.backend)
    fingerprint = getattr(backend, "fingerprint", None)
    return None if fingerprint is None else str(fingerprint(program, target))


def content_digest(*parts: Any) -> str:
    """A short digest of `parts` (texts, dataclasses, lists), by their printed values."""
    data = json.dumps([p if isinstance(p, str) else repr(p) for p in parts])
    return hashlib.sha256(data.encode()).hexdigest()[:24]


def check_target(config: TargetConfig) -> TargetConfig:
    """`config`, once the hardware its backend reads is well-formed (the NPU's machine), with
    errors located at the [hardware] keys they name; the config loader imports no backend, so
    whoever loads a config for a backend checks it here."""
    if config.backend == "npu":
        from plaidc.backends.npu_sim.machine import NpuMachine

        try:
            NpuMachine.from_hardware(config.hardware)
        except CompileError as err:
            raise CompileError([config.locate(d) for d in err.diagnostics]) from None
    return config


def get_backend(name: str) -> Backend:
    if name not in BACKEND_NAMES:
        raise CompileError([Diagnostic(f"unknown backend '{name}' ({', '.join(BACKEND_NAMES)})")])
    try:
        module = importlib.import_module(f"plaidc.backends.{name}")
    except ModuleNotFoundError as err:
        if err.name == f"plaidc.backends.{name}":
            raise BackendUnavailable(f"the '{name}' backend is not built yet") from None
        raise
    backend: Backend | None = getattr(module, "BACKEND", None)
    if backend is None:
        raise BackendUnavailable(f"the '{name}' backend is not built yet")
    return backend
