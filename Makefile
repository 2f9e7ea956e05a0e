# plaidc — set-up, demo, tests, benchmarks. Every target installs what it needs into .venv.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test lint typecheck unit bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,opencl,onnx,mpi]'
	# plaidc's bytecode, as a regular install writes it (PYTHONDONTWRITEBYTECODE would leave every
	# process compiling the source of each module it imports: 0.3-0.5 s of every compile)
	$(BIN)/python -m compileall -q src
	touch $(STAMP)

demo: install
	$(BIN)/python -m plaidc.demo

lint: install
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: install
	$(BIN)/mypy

unit: install
	$(BIN)/pytest -n 2

test: lint typecheck unit

# Extra arguments, e.g. `make bench BENCH_ARGS="--shapes odd"` (see bench/run.py); onnxruntime and
# PyTorch rows need `$(BIN)/pip install -e '.[bench]'`, else they read "not installed".
BENCH_ARGS ?=
bench: install
	$(BIN)/python bench/run.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
