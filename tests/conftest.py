"""pytest configuration: the shared helpers live in `tests/support/`."""
