# Runs inside the vendored Pyodide, under Node (builder/node_driver.mjs sets JOB, the
# JSON list of modules to import), as a snapshot's last step: the imports, then nothing
# of this code left behind (every name it made is deleted; no docstring).
import gc as _gc
import json as _json
import sys as _sys

JOB = globals()["JOB"]  # set by node_driver.mjs (no annotation: nothing may be left behind)

for _name in _json.loads(JOB):
    __import__(_name)
_sys.path[:] = [p for p in _sys.path if p != ""]  # a restored interpreter puts "" first again
del _name, _json, _sys, JOB
_gc.collect()
del _gc
