# Runs inside the vendored Pyodide, under Node (builder/node_driver.mjs sets JOB, a JSON
# text): imports what the page and the worker import (and what PyScript's package and
# Pyodide itself import later, as the build lists them), runs code the way PyScript runs
# main.py and formats an error the way Pyodide reports one, then writes which files of
# the standard library's zip were loaded: builder/python.py keeps only those.  It also
# keeps the text of every dataclass's methods, with its compiled code (freecell/precompiled.py,
# loaded from its file before freecell is imported: the recording starts before any class).
import contextlib
import importlib.util
import json
import sys

JOB = globals()["JOB"]  # set by node_driver.mjs
_args = json.loads(JOB)
_spec = importlib.util.spec_from_file_location("_precompiled", _args["precompiled"])
_precompiled = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(_precompiled)  # type: ignore[union-attr]
_texts, _stop = _precompiled.recorder()
for _name in _args["imports"]:
    __import__(_name)
for _name in _args["optional"]:  # PyScript's imports: its own JS-backed modules are not here
    with contextlib.suppress(ImportError):
        __import__(_name)
_stop()
with open(_args["code_out"], "wb") as _f:
    _f.write(_precompiled.dump(_texts))
_prefix = _args["prefix"]
_origins = [str(getattr(getattr(m, "__spec__", None), "origin", None) or "")
            for m in list(sys.modules.values())]
_used = sorted({origin[len(_prefix):] for origin in _origins if origin.startswith(_prefix)})
with open(_args["out"], "w") as _f:
    json.dump(_used, _f, indent=0)
