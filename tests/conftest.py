"""pytest configuration: the shared helpers live in `tests/support/`."""

import os
import tempfile

# Tests never read or write the user's tuning database (`plaidc tune`): compile, run and
# plaidc-opt -t, in this process and in the commands tests start, see an empty one.
os.environ["PLAIDC_TUNE_DB"] = os.path.join(tempfile.mkdtemp(prefix="plaidc-tests-"), "tune.jsonl")
