"""plaidc: a Tile -> Stripe tensor compiler driver (user documentation: README.md and docs/)."""

__version__ = "0.1.0"
