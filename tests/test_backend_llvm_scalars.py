"""Scalar semantics of the LLVM backend: the cases of `test_backend_c_scalars.py`."""

from __future__ import annotations

import pytest

from .support.backend_c_scalars import CASES, _ids, run_case


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_llvm_scalar_semantics(case: tuple[str, str, int, str, str | None]) -> None:
    run_case("llvm", case)
