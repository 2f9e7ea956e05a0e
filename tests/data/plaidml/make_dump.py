"""Run one Tile program through PlaidML 0.7 (`llvm_cpu`) and keep its Stripe after every pass.

Not part of the test suite and never run by it (PlaidML is an oracle, not a dependency). In a
separate virtual environment:

    python3 -m venv /tmp/plaidml-venv && /tmp/plaidml-venv/bin/pip install plaidml
    /tmp/plaidml-venv/bin/python tests/data/plaidml/make_dump.py tests/data/plaidml/<name>

`<name>/program.tile` is the program and `<name>/shapes.json` its shapes
(`{"inputs": {name: shape}, "outputs": {name: shape}}`). It writes `inputs.npz` (standard normal
float32, seed 0), PlaidML's outputs (`plaidml_outputs.npz`, compared by hand with a numpy
implementation that became `expected.npz`, then dropped) and `stripe/passes/*.txt`, renamed to
`stripe/NN_<pass>.stripe` (a space in a pass name becomes `_`).
"""

import json
import os
import pathlib
import shutil
import sys

import numpy as np

folder = pathlib.Path(sys.argv[1]).resolve()
spec = json.loads((folder / "shapes.json").read_text())
stripe_dir = folder / "stripe"
shutil.rmtree(stripe_dir, ignore_errors=True)
stripe_dir.mkdir(parents=True)
os.environ["PLAIDML_EXPERIMENTAL"] = "1"
os.environ["PLAIDML_DEVICE_IDS"] = "llvm_cpu.0"
os.environ["PLAIDML_STRIPE_OUTPUT"] = str(stripe_dir)
plaidml = __import__("plaidml")  # after the environment is set

ctx = plaidml.Context()
dev = plaidml.Device(ctx, plaidml.devices(ctx, limit=10)[0])
rng = np.random.default_rng(0)
inputs = {k: rng.standard_normal(s).astype(np.float32) for k, s in spec["inputs"].items()}
invoker = plaidml.Invoker(ctx, plaidml.Function((folder / "program.tile").read_text()))
for name, value in inputs.items():
    tensor = plaidml.Tensor(dev, plaidml.Shape(ctx, plaidml.DType.FLOAT32, *value.shape))
    with tensor.mmap_discard(ctx) as view:
        view.copy_from_ndarray(value)
        view.writeback()
    invoker.set_input(name, tensor)
outputs = {}
for name, shape in spec["outputs"].items():
    outputs[name] = plaidml.Tensor(dev, plaidml.Shape(ctx, plaidml.DType.FLOAT32, *shape))
    invoker.set_output(name, outputs[name])
invoker.invoke()
np.savez(folder / "inputs.npz", **inputs)
np.savez(folder / "plaidml_outputs.npz", **{k: t.as_ndarray(ctx) for k, t in outputs.items()})
for dump in sorted((stripe_dir / "passes").glob("*.txt")):
    shutil.copy(dump, stripe_dir / (dump.stem.replace(" ", "_") + ".stripe"))
shutil.rmtree(stripe_dir / "passes")
