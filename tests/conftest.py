"""Shared paths and helpers for the test suite."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
SHARED = REPO.parent / "shared"
REFERENCE = SHARED / "reference" / "plaidml-stripe"
REFERENCE_DUMPS = sorted(REFERENCE.glob("*/stripe/*.stripe"))
