"""The repository's paths and the PlaidML test data (re-exported by `tests.support`)."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
EXAMPLES = REPO / "examples"
REFERENCE = TESTS / "data" / "plaidml"
"""Real PlaidML 0.7 programs and their Stripe after every pass (see `data/plaidml/README.md`)."""
REFERENCE_PROGRAMS = sorted(p.parent.name for p in REFERENCE.glob("*/program.tile"))
REFERENCE_DUMPS = sorted(REFERENCE.glob("*/stripe/*.stripe"))
