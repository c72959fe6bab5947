// The build's helper under Node (builder/python.py runs it): it loads the vendored
// Pyodide, runs the job's steps (Python code with a JSON argument) and writes a
// memory snapshot when a step asks for one.  The job comes in FREECELL_JOB, so
// that no path of this machine ends up in a snapshot (Emscripten keeps argv[1]
// as the program name).
import { readFileSync, writeFileSync, renameSync } from "node:fs";
import nodeCrypto from "node:crypto";

const job = JSON.parse(process.env.FREECELL_JOB);
const { loadPyodide } = await import(job.pyodide);

// Same inputs, same snapshot: the clock and the entropy it takes in are fixed.
// (A restored page reseeds `random`; the hash seed stays the build's.)
function freeze() {
  let state = 0x9e3779b9;
  nodeCrypto.randomFillSync = (view) => {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    for (let i = 0; i < bytes.length; i++) {
      state ^= state << 13; state ^= state >>> 17; state ^= state << 5;
      bytes[i] = state & 0xff;
    }
    return view;
  };
  const epoch = Date.UTC(2000, 0, 1);
  Date.now = () => epoch;
  let tick = 0;
  performance.now = () => (tick += 1);
}

// Stand-ins for what the page's modules may import from `js` (objects and
// functions, as in a browser); a restored snapshot finds the real ones by name.
function browserGlobals(names) {
  const g = Object.create(globalThis);
  // defined, not assigned: Node 22 has getter-only globals of some of these names (navigator)
  const put = (name, value) => Object.defineProperty(g, name, { value, writable: true, configurable: true });
  for (const name of names.objects) put(name, {});
  for (const name of names.functions) put(name, function () {});
  g.window.length = 0; // a browser's window has one
  return g;
}

for (const step of job.steps) {
  const options = { indexURL: job.indexURL, stdLibURL: step.stdlib, lockFileContents: job.lockfile };
  if (step.snapshot) {
    freeze();
    options._makeSnapshot = true;
  }
  if (step.browser) options.jsglobals = browserGlobals(step.browser);
  const py = await loadPyodide(options);
  if (step.mount) {
    py.FS.mkdirTree("/host");
    py.FS.mount(py.FS.filesystems.NODEFS, { root: "/" }, "/host");
  }
  for (const [zip, dir] of step.unpack || []) {
    py.unpackArchive(new Uint8Array(readFileSync(zip)), "zip", { extractDir: dir });
  }
  py.globals.set("JOB", JSON.stringify(step.args));
  if (step.record) {
    // as PyScript runs main.py (eval_code_async), and an error as Pyodide reports one
    await py.runPythonAsync("import json");
    try { py.runPython("def _failing():\n    raise ValueError('traceback')\n_failing()"); } catch (error) { /* formatted */ }
  }
  py.runPython(step.code);
  if (step.snapshot) {
    // The call trampoline's pointer is an index into this Node's function table (or 0,
    // the JavaScript trampoline, where this Node cannot compile the WebAssembly one):
    // meaningless in a browser, whose table differs.  The snapshot carries 0, the same
    // from any Node; static/runtime.mjs puts the browser's own back once it is restored.
    const M = py._module;
    M.HEAP32[(M.__PyRuntime + M.HEAP32[M.__PyEM_EMSCRIPTEN_TRAMPOLINE_OFFSET >> 2]) >> 2] = 0;
    writeFileSync(step.snapshot + ".tmp", py.makeMemorySnapshot());
    renameSync(step.snapshot + ".tmp", step.snapshot);
  }
}
