# Runs inside the vendored Pyodide, under Node (builder/node_driver.mjs sets JOB, a JSON
# text): imports what the page and the worker import (and what PyScript's package and
# Pyodide itself import later, as the build lists them), runs code the way PyScript runs
# main.py and formats an error the way Pyodide reports one, then writes which files of
# the standard library's zip were loaded: builder/python.py keeps only those.
import contextlib
import json
import sys

JOB = globals()["JOB"]  # set by node_driver.mjs
_args = json.loads(JOB)
for _name in _args["imports"]:
    __import__(_name)
for _name in _args["optional"]:  # PyScript's imports: its own JS-backed modules are not here
    with contextlib.suppress(ImportError):
        __import__(_name)
_prefix = _args["prefix"]
_origins = [str(getattr(getattr(m, "__spec__", None), "origin", None) or "")
            for m in list(sys.modules.values())]
_used = sorted({origin[len(_prefix):] for origin in _origins if origin.startswith(_prefix)})
with open(_args["out"], "w") as _f:
    json.dump(_used, _f, indent=0)
