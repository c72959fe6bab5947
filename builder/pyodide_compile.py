# Runs inside the vendored Pyodide, under Node (builder/node_driver.mjs sets JOB, a JSON
# text): byte-compiles with Pyodide's CPython and zlib, the same bytes on any machine.
# Unchecked hash-based .pyc: valid whatever the file dates, never compared with a source.
# Neither keeps its sources: the byte-code sits where the source would be (freecell/x.pyc,
# imported by Python's sourceless loader), so tracebacks still name the file, the line
# and the function (freecell.zip: 1.7 -> 1.1 MB, 0.43 -> 0.34 MB brotli).  freecell.zip
# stores its entries as they are: static/runtime.mjs unpacks it by copying (inflating a
# file at a time costs more than 100 ms), and hosts may compress it whole.
import importlib._bootstrap_external as _bootstrap
import importlib.util
import io
import json
import os
import zipfile

JOB = globals()["JOB"]  # set by node_driver.mjs (no annotation: nothing may be left behind)


def _pyc(source: bytes, filename: str) -> bytes:
    code = compile(source, filename, "exec", dont_inherit=True)
    return bytes(_bootstrap._code_to_hash_pyc(code,  # type: ignore[attr-defined]
                                               importlib.util.source_hash(source), checked=False))


def _write(path: str, entries: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in sorted(entries.items()):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            if name.endswith("/"):
                info.external_attr = (0o40755 << 16) | 0x10
            else:
                info.external_attr = 0o644 << 16
                info.compress_type = method
            z.writestr(info, data)
    with open(path + ".tmp", "wb") as f:
        f.write(out.getvalue())
    os.replace(path + ".tmp", path)


def stdlib(src: str, dest: str) -> None:
    entries = {}
    with zipfile.ZipFile(src) as z:
        for info in z.infolist():
            data = z.read(info)
            if info.filename.endswith(".py"):
                entries[info.filename + "c"] = _pyc(data, "/lib/python314.zip/" + info.filename)
            else:
                entries[info.filename] = data
    _write(dest, entries)


def package(files: list[list[str]], dest: str, home: str, pyc_only: dict[str, str]) -> None:
    entries = {}
    for rel, path in files:
        with open(path, "rb") as f:
            data = f.read()
        if rel.endswith(".py"):
            entries[rel + "c"] = _pyc(data, home + "/" + rel)  # sourceless: no .py beside it
        else:
            entries[rel] = data
    for rel, text in pyc_only.items():
        entries[importlib.util.cache_from_source(rel)] = _pyc(text.encode(), home + "/" + rel)
    _write(dest, entries, zipfile.ZIP_STORED)  # unpacked by copying (the host may compress it whole)


_args = json.loads(JOB)
if "stdlib" in _args:
    stdlib(*_args["stdlib"])
if "package" in _args:
    package(*_args["package"])
