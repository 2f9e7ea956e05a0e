"""OpenCL availability (`needs_opencl`), targets and compiling a program for OpenCL."""

from __future__ import annotations

import os
from collections.abc import Mapping

import pytest

from plaidc.backends import BackendUnavailable, get_backend
from plaidc.backends.opencl import OpenCLArtifact
from plaidc.backends.opencl.runtime import default_device
from plaidc.stripe.ir import Block
from plaidc.targets import TargetConfig, load_target, parse_config


def _runtime_missing() -> str | None:
    try:
        default_device()
    except BackendUnavailable as err:
        return str(err)
    return None


MISSING = _runtime_missing()


# The only way to skip the OpenCL tests when the project's OpenCL runtime cannot build a kernel
# (CI never sets it): without it they fail, so a broken runtime cannot pass unnoticed.
OPENCL_OPT_OUT = "PLAIDC_TESTS_WITHOUT_OPENCL"


def opencl_skip_reason(missing: str | None, environ: Mapping[str, str]) -> str | None:
    """Why to skip an OpenCL test given why the runtime is unusable (`missing`, None when it
    works): only when the user opted out through `$PLAIDC_TESTS_WITHOUT_OPENCL`."""
    if missing is None or not environ.get(OPENCL_OPT_OUT):
        return None
    return f"no OpenCL runtime ({OPENCL_OPT_OUT} is set): {missing}"


# A runtime that is missing or cannot build a kernel fails these tests (with its reason) unless
# $PLAIDC_TESTS_WITHOUT_OPENCL is set.
SKIP_REASON = opencl_skip_reason(MISSING, os.environ)
needs_opencl = pytest.mark.skipif(SKIP_REASON is not None, reason=SKIP_REASON or "")


# Every kernel split into work-groups of at most 8 work-items (thread-inner), each kernel's
# refinements copied into local memory (cache): exercises group code, barriers and __local.
WORKGROUPS_CONFIG = """
[target]
name = "opencl-workgroups"
backend = "opencl"
description = "tests: every kernel on small work-groups with local copies"

[codegen]
thread_tags = ["gpu_thread"]
max_work_group = 64
local_mem_bytes = 65536

[[stage.default.passes]]
name = "threads"
pass = "thread-inner"
reqs = ["kernel"]
threads = 8
inner_set = ["gpu_thread"]

[[stage.default.passes]]
name = "cache"
pass = "cache"
reqs = ["kernel"]
ref = ["all"]
mem_loc = "LOCAL"
"""


def workgroups_target() -> TargetConfig:
    return parse_config(WORKGROUPS_CONFIG, "workgroups.toml")


def opencl_target(**codegen: object) -> TargetConfig:
    """The opencl target with `[codegen]` entries replaced."""
    cfg = load_target("opencl")
    return TargetConfig(
        cfg.name, cfg.backend, cfg.description, cfg.hardware, cfg.stages, {**cfg.codegen, **codegen}
    )


def compile_opencl(program: Block, target: TargetConfig | None = None) -> OpenCLArtifact:
    artifact = get_backend("opencl").compile(program, target or load_target("opencl"))
    assert isinstance(artifact, OpenCLArtifact)
    return artifact
