#!/bin/bash
# Runs the OpenCL suite and the OpenCL bench on a machine with a GPU OpenCL driver (an NVIDIA one
# was used: H200, driver 580, "NVIDIA CUDA" platform) whose Python lacks plaidc's dependencies.
# Preparation on a machine with pip (Python 3.12 wheels), from the repo root:
#   pip download --no-deps --only-binary=:all: --python-version 3.12 --platform manylinux_2_28_x86_64 \
#     -d .whl lark islpy pyopencl pytools platformdirs siphash24
# then run `bash tools/device_opencl_check.sh` there with OUT set to a folder for the logs.
# The NVIDIA ICD is registered by hand (OCL_ICD_VENDORS): such images ship the library only.
set -u
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 9
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/plaidc-device-check}; mkdir -p "$OUT"
nvidia-smi -L; python3 --version; python3 -c "import numpy; print('numpy', numpy.__version__)"
LIB=$(find /usr/local/nvidia /usr/lib /usr/lib64 /usr/lib/x86_64-linux-gnu -name 'libnvidia-opencl.so*' 2>/dev/null | sort | head -1)
echo "nvidia opencl lib: ${LIB:-none}"; ls /etc/OpenCL/vendors 2>/dev/null
mkdir -p /tmp/icd; [ -n "$LIB" ] && echo "$LIB" > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd
python3 - <<'PY' 2>&1 | tee $OUT/platforms.txt
import pyopencl as cl
for p in cl.get_platforms():
    print("PLATFORM", p.name, "|", p.version)
    for d in p.get_devices():
        print("  DEVICE", d.name, "|", d.version, "| driver", d.driver_version, "| CUs", d.max_compute_units, "| wg", d.max_work_group_size)
        print("  EXT", d.extensions)
PY
grep -q PLATFORM $OUT/platforms.txt || { echo "no OpenCL platform"; exit 8; }
export PLAIDC_OPENCL_PLATFORM=nvidia
python3 -c "from plaidc.backends.opencl import runtime as r; d=r.default_device(); print('device', d.description, '| reassociate pragma', r.accepts_reassociate_pragma(d), '| FP_CONTRACT pragmas', r.accepts_contract_pragmas(d), '| options', r.build_options(d, ()))"
T="tests/test_backend_opencl.py tests/test_backend_opencl_scalars.py tests/test_backend_opencl_units.py tests/test_backend_opencl_golden.py tests/test_backend_opencl_cli.py tests/test_backend_opencl_platforms.py"
timeout ${TEST_S:-300} python3 -m pytest -q -o addopts= -n 16 -rsfE -p no:cacheprovider $T 2>&1 > $OUT/opencl_tests.log; echo "pytest rc=$?"
tail -80 $OUT/opencl_tests.log
timeout ${OTHER_S:-60} python3 -m pytest -q -o addopts= -n 16 -rsfE -p no:cacheprovider -k opencl tests/test_cli.py tests/test_passes_differential.py tests/test_onnx.py tests/test_pass_fuse.py tests/test_pass_widen_accumulators.py tests/test_target_config.py 2>&1 > $OUT/opencl_other.log; echo "other rc=$?"; tail -15 $OUT/opencl_other.log
timeout ${BENCH_S:-120} python3 bench/run.py --targets opencl,opencl:gpu,opencl-gpu --blocks 3 --no-npu --no-third-party > $OUT/bench.log 2>&1; echo "bench rc=$?"; tail -30 $OUT/bench.log
cp bench/results.json $OUT/ 2>/dev/null
# `make demo`'s programs on every target the machine can run (opencl-gpu among them)
timeout ${DEMO_S:-90} python3 -m plaidc.demo > $OUT/demo.log 2>&1; echo "demo rc=$?"; tail -40 $OUT/demo.log
true
