// The runtime: how the page (it is PyScript's `interpreter`, see pyscript.toml)
// and the solver worker (static/solver-worker.js) get their Pyodide, fast.
//
// build.py fills in BUILD: the byte-compiled standard library and this build's
// two memory snapshots, interpreters that have imported the game already (the
// page's, the worker's), stored without their zero pages, the worker's as a delta
// from the page's (builder/delta.py: 0.5 MB instead of 3.8).  A snapshot is used
// only when it is in the Cache API already (the page's own cache of snapshots):
// a first visit never waits for one, in any engine.  It boots from the
// byte-code, and the page, once it is ready and the browser idle, brings the
// snapshots for the next visit.  A
// snapshot that is missing, damaged, refused or from another build ("build id
// mismatch") is dropped without a word, and the boot goes on from byte-code.
// <html data-boot="snapshot" | "bytecode"> and the worker's "ready" message
// ({type: "ready", boot: ...}) tell which way it went.
import { loadPyodide as load, version } from "../vendor/pyodide/pyodide.mjs";

export { version };

const BUILD = {} /* __FREECELL_RUNTIME__ */;
const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
const STDLIB_URL = BUILD.stdlib ? new URL(BUILD.stdlib, import.meta.url).href : undefined;
const APP_HOME = "/home/pyodide"; // where freecell.zip is unpacked (build.APP_HOME)
const MAGIC = "FCSNAP01";

// A snapshot as build.pack_snapshot wrote it: the runs of non-zero pages.
// Anything else (another size, a damaged table) throws.
export function unpackSnapshot(buffer, size) {
  const packed = new Uint8Array(buffer);
  if (packed.length !== size) throw new Error("snapshot: not the size built");
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  if (new TextDecoder().decode(packed.subarray(0, 8)) !== MAGIC) throw new Error("snapshot: bad magic");
  const full = view.getUint32(8, true);
  const count = view.getUint32(12, true);
  const out = new Uint8Array(full);
  let pos = 16 + 8 * count;
  for (let i = 0; i < count; i++) {
    const offset = view.getUint32(16 + 8 * i, true);
    const length = view.getUint32(20 + 8 * i, true);
    if (offset + length > full || pos + length > packed.length) throw new Error("snapshot: damaged");
    out.set(packed.subarray(pos, pos + length), offset);
    pos += length;
  }
  if (pos !== packed.length) throw new Error("snapshot: damaged");
  return out;
}

// The worker's snapshot as builder/delta.py wrote it: pieces of the page's snapshot
// (`base`, unpacked) and literal bytes.  Anything else throws.
export function applyDelta(base, buffer, size) {
  const delta = new Uint8Array(buffer);
  if (delta.length !== size) throw new Error("snapshot delta: not the size built");
  const view = new DataView(delta.buffer, delta.byteOffset, delta.byteLength);
  if (new TextDecoder().decode(delta.subarray(0, 8)) !== "FCDELTA1") throw new Error("snapshot delta: bad magic");
  const full = view.getUint32(8, true);
  const count = view.getUint32(12, true);
  const out = new Uint8Array(full);
  let pos = 16 + 12 * count;
  if (pos > delta.length) throw new Error("snapshot delta: damaged");
  for (let i = 0; i < count; i++) {
    const dst = view.getUint32(16 + 12 * i, true);
    const length = view.getUint32(20 + 12 * i, true);
    const src = view.getUint32(24 + 12 * i, true);
    if (dst + length > full) throw new Error("snapshot delta: damaged");
    if (src === 0xffffffff) {
      if (pos + length > delta.length) throw new Error("snapshot delta: damaged");
      out.set(delta.subarray(pos, pos + length), dst);
      pos += length;
    } else {
      if (src + length > base.length) throw new Error("snapshot delta: damaged");
      out.set(base.subarray(src, src + length), dst);
    }
  }
  if (pos !== delta.length) throw new Error("snapshot delta: damaged");
  return out;
}

// The Cache API cache the page fills with this build's snapshots where no service
// worker does (embedded, or no service worker here).  Its name starts as the
// service worker's caches do, so a service worker's activation deletes it.
const SITE = new URL("../", import.meta.url).href;
const SNAPSHOT_CACHE = "freecell " + SITE + " snapshots";

// {bytes: a promise of the snapshot} if it is cached, else null.  Only the Cache
// API is asked (the service worker's cache of this build, or SNAPSHOT_CACHE):
// every engine answers it without going to the network (WebKit sends
// `fetch(url, {cache: "only-if-cached"})` to the network), and a miss is no
// console error.  Storage that is refused (a third-party frame) is a miss.  The
// bytes are read while Pyodide starts (loadPyodide takes the promise); a
// snapshot that is refused rejects it, and so loadPyodide.
// The worker's entry is a delta (`base: "page"`): both must be cached, and the
// page's snapshot is unpacked to rebuild the worker's from it.
async function cachedSnapshot(entry) {
  if (!entry) return null;
  const base = entry.base ? BUILD.snapshots[entry.base] : null;
  let response, baseResponse = null;
  try {
    response = await caches.match(new URL(entry.url, import.meta.url).href);
    if (base) baseResponse = await caches.match(new URL(base.url, import.meta.url).href);
  } catch (error) {
    return null; // no Cache API here, or storage refused
  }
  if (!response || !response.ok) return null;
  if (base && (!baseResponse || !baseResponse.ok)) return null;
  const bytes = !base ? response.arrayBuffer().then((buffer) => unpackSnapshot(buffer, entry.size))
    : Promise.all([baseResponse.arrayBuffer(), response.arrayBuffer()]).then(([b, d]) =>
      applyDelta(unpackSnapshot(b, base.size), d, entry.size));
  bytes.catch(() => {}); // seen by loadPyodide
  return { bytes };
}

// Where the interpreter keeps its call trampoline: a function table index (Pyodide's
// WebAssembly trampoline) or 0 (its JavaScript one, much slower: every call from C
// through a function pointer goes out to JavaScript and back).
function trampolineSlot(pyodide) {
  const M = pyodide._module;
  return (M.__PyRuntime + M.HEAP32[M.__PyEM_EMSCRIPTEN_TRAMPOLINE_OFFSET >> 2]) >> 2;
}

// "wasm" or "js": which call path the interpreter takes (for tests and bench/).
export function trampolineOf(pyodide) {
  return pyodide._module.HEAP32[trampolineSlot(pyodide)] ? "wasm" : "js";
}

// Pyodide chooses its call trampoline as it starts, before a snapshot's restore
// overwrites the memory with the snapshot's choice (build.py makes it 0, the
// JavaScript one: a table index from Node would name another function here).  So
// after a restore the choice is made again, as Pyodide makes it: none on iOS,
// else its WebAssembly trampoline module (BUILD.trampoline, taken by build.py from
// the vendored pyodide.asm.mjs) where this engine compiles it (it needs wasm-gc).
function chooseTrampoline(pyodide) {
  const M = pyodide._module;
  const isIOS = globalThis.navigator && (/iPad|iPhone|iPod/.test(navigator.userAgent)
    || navigator.platform === "MacIntel" && typeof navigator.maxTouchPoints !== "undefined"
       && navigator.maxTouchPoints > 1);
  if (isIOS || !BUILD.trampoline) return;
  let ptr = 0;
  try {
    const bytes = Uint8Array.from(BUILD.trampoline.match(/../g), (h) => parseInt(h, 16));
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes),
      { env: { __indirect_function_table: M.wasmTable, memory: M.memory } });
    ptr = M.addFunction(instance.exports.trampoline_call);
  } catch (error) {
    ptr = 0; // it does not compile here: the JavaScript trampoline, as Pyodide would keep
  }
  M.HEAP32[trampolineSlot(pyodide)] = ptr;
}

// Pyodide without WebAssembly stack switching (JSPI), in every engine.  Pyodide turns
// it on where `WebAssembly.Suspending` exists (Chromium since 137): then every call
// from JavaScript into Python runs on a stack of its own.  We use none of what it
// brings (run_sync), the snapshots are made without it (the build's Node has none),
// Firefox and WebKit players run without it, and the renderer crashes that Chromium
// had now and then in the browser tests all read just past the top of such a stack
// (SIGSEGV; ../shared/PLATFORM.md).  Pyodide looks once, as its module is evaluated,
// so the names are hidden only while it loads.
async function loadWithoutStackSwitching(options) {
  const W = globalThis.WebAssembly;
  const hidden = [];
  for (const name of ["Suspending", "Suspender"]) {
    const property = Object.getOwnPropertyDescriptor(W, name);
    if (property && property.configurable) {
      hidden.push([name, property]);
      delete W[name];
    }
  }
  try {
    return await load(options);
  } finally {
    for (const [name, property] of hidden) Object.defineProperty(W, name, property);
  }
}

// "on" or "off": whether this Pyodide switches stacks (JSPI); always "off" here (for tests).
export function stackSwitchingOf(pyodide) {
  return pyodide._module.jspiSupported ? "on" : "off";
}

// Pyodide from the snapshot when it is there and sound, else from byte-code.
async function loadFast(entry) {
  const options = { indexURL: INDEX_URL };
  if (STDLIB_URL) options.stdLibURL = STDLIB_URL;
  if (BUILD.lockfile) options.lockFileContents = BUILD.lockfile;
  const snapshot = await cachedSnapshot(entry);
  if (snapshot !== null) {
    try {
      const pyodide = await loadWithoutStackSwitching({ ...options, _loadSnapshot: snapshot.bytes });
      chooseTrampoline(pyodide);
      // the snapshot froze the random generator's state: start it afresh
      pyodide.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()");
      return { pyodide, boot: "snapshot" };
    } catch (error) {
      console.info("freecell: snapshot not used:", String(error).split("\n")[0]);
    }
  }
  return { pyodide: await loadWithoutStackSwitching(options), boot: "bytecode" };
}

// freecell.zip (the package's sources and byte-code, PyScript's byte-code),
// fetched at once and unpacked into the working directory by hand: Pyodide's
// unpackArchive runs Python's zipfile, a file at a time (tens of ms).
function fetchPackage() {
  const zip = fetch(new URL("../freecell.zip", import.meta.url)).then((r) => {
    if (!r.ok) throw new Error("freecell.zip: " + r.status);
    return r.arrayBuffer();
  });
  zip.catch(() => {});
  return zip;
}

async function inflate(data) {
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// The zip's files: stored or deflated entries, as build.py writes them.
async function unzipInto(pyodide, buffer) {
  if (typeof DecompressionStream === "undefined") {
    pyodide.unpackArchive(buffer, "zip", { extractDir: APP_HOME });
    return;
  }
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error("freecell.zip: not a zip");
  const names = new TextDecoder();
  const entries = [];
  let p = view.getUint32(end + 16, true);
  for (let i = view.getUint16(end + 10, true); i > 0; i--) {
    if (view.getUint32(p, true) !== 0x02014b50) throw new Error("freecell.zip: damaged");
    const method = view.getUint16(p + 10, true);
    const size = view.getUint32(p + 20, true);
    const nameLength = view.getUint16(p + 28, true);
    const local = view.getUint32(p + 42, true);
    const name = names.decode(bytes.subarray(p + 46, p + 46 + nameLength));
    p += 46 + nameLength + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + size);
    if (!name.endsWith("/")) entries.push([name, method === 0 ? Promise.resolve(data) : inflate(data)]);
  }
  const FS = pyodide.FS;
  for (const [name, data] of entries) {
    const path = APP_HOME + "/" + name;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, await data);
  }
}

// The snapshots for the next visit: the page puts them into SNAPSHOT_CACHE once it
// is ready and the browser idle, one at a time (never while the player waits for
// the game; the service worker does not fetch them), and not at all where the
// player saves data or the connection is slow (2G, 3G); the snapshots of other
// builds go.
async function storeSnapshots() {
  const cache = await caches.open(SNAPSHOT_CACHE);
  const wanted = Object.values(BUILD.snapshots || {}).map((entry) => new URL(entry.url, import.meta.url).href);
  for (const request of await cache.keys()) {
    if (!wanted.includes(request.url)) await cache.delete(request);
  }
  for (const url of wanted) {
    if (await cache.match(url)) continue;
    const response = await fetch(url);
    if (response.ok) await cache.put(url, response);
  }
}

function snapshotsPay() {
  const connection = navigator.connection;
  if (!connection) return true;
  return !connection.saveData && !/(^|-)(2g|3g)$/.test(String(connection.effectiveType || ""));
}

function prefetchForNextTime() {
  if (typeof caches === "undefined" || !snapshotsPay()) return;
  const root = document.documentElement;
  const store = () => { storeSnapshots().catch(() => {}); };
  const idle = () => (window.requestIdleCallback ? requestIdleCallback(store, { timeout: 5000 })
                                                 : setTimeout(store, 1000));
  if (root.dataset.state === "ready") {
    idle();
    return;
  }
  const observer = new MutationObserver(() => {
    if (root.dataset.state !== "ready") return;
    observer.disconnect();
    idle();
  });
  observer.observe(root, { attributes: true, attributeFilter: ["data-state"] });
}

// The page's Pyodide starts loading as soon as index.html runs this module
// (before PyScript, which then asks for it below).  Waiting for the first
// frame first was measured: the first paint came no sooner, ready later.
let page = null;
function startPage() {
  if (page === null) {
    performance.mark("freecell:runtime-start");
    const zip = fetchPackage();
    page = loadFast(BUILD.snapshots && BUILD.snapshots.page).then(async (loaded) => {
      await unzipInto(loaded.pyodide, await zip);
      document.documentElement.dataset.boot = loaded.boot;
      performance.mark("freecell:runtime-loaded");
      prefetchForNextTime(); // for next time: both snapshots, once idle (none after a snapshot boot)
      return loaded;
    });
  }
  return page;
}
if (typeof document !== "undefined") startPage();

// How the page's Pyodide came up, and its memory now (for tests and bench/page.py).
export async function runtimeInfo() {
  const { pyodide, boot } = await startPage();
  return { boot, wasmBytes: pyodide._module.HEAP8.byteLength, trampoline: trampolineOf(pyodide),
    stackSwitching: stackSwitchingOf(pyodide) };
}

// PyScript's entry point (pyscript.toml's `interpreter`): the page's Pyodide.
export async function loadPyodide(config = {}) {
  const { pyodide } = await startPage();
  if (config.stdout) pyodide.setStdout({ batched: config.stdout });
  if (config.stderr) pyodide.setStderr({ batched: config.stderr });
  return pyodide;
}

// The solver worker's Pyodide, with the freecell package in place.
export async function loadWorkerPyodide() {
  const zip = fetchPackage();
  const loaded = await loadFast(BUILD.snapshots && BUILD.snapshots.worker);
  await unzipInto(loaded.pyodide, await zip);
  return loaded;
}
