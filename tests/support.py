"""Helpers that several test modules share: the repository's paths and the PlaidML test data.

Test modules import these from here (never from one another), so that each test module can be
read, run and changed on its own.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
REFERENCE = Path(__file__).resolve().parent / "data" / "plaidml"
"""Real PlaidML 0.7 programs and their Stripe after every pass (see `data/plaidml/README.md`)."""
REFERENCE_PROGRAMS = sorted(p.parent.name for p in REFERENCE.glob("*/program.tile"))
REFERENCE_DUMPS = sorted(REFERENCE.glob("*/stripe/*.stripe"))
