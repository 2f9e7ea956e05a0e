"""`plaidc tune`: search a target pipeline's tunable options by measuring candidates, and keep
the results in a persistent database that `compile`, `run` and `plaidc-opt -t` apply.

`space` (parameters from option metadata and the config's `[tune]` table), `search` (seeded
hill climb and evolution), `measure` (the child-process runner), `db` (records, keys, locking),
`tuner` (the loop), `progress` and `records` (what the commands show and apply).
"""
