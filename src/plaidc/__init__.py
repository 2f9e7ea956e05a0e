"""plaidc: a Tile -> Stripe tensor compiler driver (see docs in ../shared/docs)."""

__version__ = "0.1.0"
