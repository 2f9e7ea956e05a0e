"""Comparing a backend's outputs with the reference's (numpy) outputs."""

from __future__ import annotations

import numpy as np


def assert_output_matches(
    name: str, actual: np.ndarray, expected: np.ndarray, rtol: float, atol: float
) -> None:
    """Same shape and dtype; floats close, integers and bools exactly equal."""
    actual = np.asarray(actual)
    assert actual.shape == expected.shape, f"{name}: shape {actual.shape} != {expected.shape}"
    assert actual.dtype == expected.dtype, f"{name}: dtype {actual.dtype} != {expected.dtype}"
    if expected.dtype.kind == "f":
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=name)
    else:
        np.testing.assert_array_equal(actual, expected, err_msg=name)
