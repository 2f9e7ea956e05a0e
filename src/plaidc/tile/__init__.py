"""The Tile frontend: parse, bind and check a Tile program, and lower it to Stripe.

```python
result = compile_tile(source, "prog.tile", dims={"M": 64}, shapes={"A": (DType.FP32, (64, 32))})
result.program   # the Stripe program (a Block tagged #program)
result.warnings  # e.g. unused inputs
```
Errors in the program raise CompileError carrying every diagnostic found.
"""

from plaidc.tile.compile import TileCompilation, check_tile, compile_tile

__all__ = ["TileCompilation", "check_tile", "compile_tile"]
