// The solver's Web Worker: a plain module worker running Pyodide (no PyScript,
// no SharedArrayBuffer: it works without cross-origin isolation and in a frame
// whose storage is refused).  It loads the same freecell package as the page
// (from its own memory snapshot when one is cached, see static/runtime.mjs),
// and relays JSON text to and from freecell.worker.Service.
import { loadWorkerPyodide, stackSwitchingOf, trampolineOf } from "./runtime.mjs";

const queue = [];
let wake = null;
self.onmessage = (event) => {
  queue.push(typeof event.data === "string" ? event.data : JSON.stringify(event.data));
  if (wake) { const w = wake; wake = null; w(); }
};

// Yield to the event loop without the 4 ms clamp of nested timers.
const channel = new MessageChannel();
let resume = null;
channel.port1.onmessage = () => { const r = resume; resume = null; if (r) r(); };
function yieldNow() {
  return new Promise((resolve) => { resume = resolve; channel.port2.postMessage(0); });
}

// Wait ms, or less: a message ends the wait at once (then true).
function rest(ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => { wake = null; resolve(false); }, ms);
    wake = () => { clearTimeout(timer); resolve(true); };
  });
}

function post(list) {
  for (const msg of list.toJs({ dict_converter: Object.fromEntries })) self.postMessage(msg);
  list.destroy();
}

async function main() {
  const { pyodide, boot } = await loadWorkerPyodide();
  const Service = pyodide.pyimport("freecell.worker").Service;
  // "#shorten=0" on the worker's address: no shortening in idle time (the browser tests
  // where it is not the point, as they run with reduced motion where the glides are not)
  const shorten = new URLSearchParams(self.location.hash.slice(1)).get("shorten") !== "0";
  const service = shorten ? Service() : Service(0);
  self.postMessage({ type: "ready", boot, trampoline: trampolineOf(pyodide),
    stack_switching: stackSwitchingOf(pyodide), wasm_bytes: pyodide._module.HEAP8.byteLength });
  for (;;) {
    while (queue.length) post(service.receive(queue.shift()));
    if (service.busy) {
      post(service.step());
      // yield to the event loop so that a new message (a move, a cancel) is seen
      await yieldNow();
    } else if (service.improving) {
      // shortening a solution, a slice after each rest: any message comes first (and the
      // rest starts again after it), and it takes a share of one core, not all of it
      if (!(await rest(service.idle_rest_ms))) post(service.step_idle());
    } else {
      await new Promise((resolve) => { wake = resolve; });
    }
  }
}

main().catch((error) => {
  self.postMessage({ type: "error", id: null, fatal: true, message: String(error).slice(0, 300) });
});
