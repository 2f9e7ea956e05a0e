"""Golden generated sources: the kernels, their files and the check (set
PLAIDC_UPDATE_GOLDEN=1 to rewrite them)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .paths import TESTS

GOLDEN = TESTS / "golden"


# One kernel per feature: constraints and passthrough indices (fig5b), reductions on threads
# (softmax), the micro-kernel (matmul), nested aggregation into a fresh allocation (conv),
# a data-dependent index (gather).
KERNELS = {
    "fig5b": "examples/fig5b",
    "softmax": "softmax/15_prune_refs",
    "matmul": "matmul/15_prune_refs",
    "conv_bias_relu": "conv_bias_relu/15_prune_refs",
    "gather": "tile/gather",
}


UPDATE = os.environ.get("PLAIDC_UPDATE_GOLDEN") == "1"


def check_golden(path: Path, text: str) -> None:
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"{path} is missing: run with PLAIDC_UPDATE_GOLDEN=1"
    assert text == path.read_text(), (
        f"{path.name} differs from the emitted code: review, then PLAIDC_UPDATE_GOLDEN=1"
    )


# The machine the goldens are written for: the host facts a CPU config leaves out are detected,
# so the emitted code would otherwise follow the machine the tests run on (its threads, vector
# width and caches), and a golden would only match on hosts like the one that wrote it.
GOLDEN_HOST = {
    "threads": 2,
    "cache_line": 64,
    "l1_bytes": 32768,
    "l2_bytes": 1048576,
    "vector_bytes": 64,
}


def pin_golden_host(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `host_facts()` answer `GOLDEN_HOST` for this test."""
    from plaidc.targets import host

    facts = host.HostFacts(dict(GOLDEN_HOST), {key: "golden" for key in GOLDEN_HOST})
    for module in ("plaidc.targets", "plaidc.backends.loopnest.options"):
        monkeypatch.setattr(f"{module}.host_facts", lambda: facts)
