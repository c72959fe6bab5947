// Frame guard: what the page needs before PyScript loads, when it is embedded.
//
// 1. Embed mode (?embed=1, read as freecell/ui/address/query.py reads it): the
//    compact layout class on <html> at once, so the frame never jumps, and no
//    install prompt.  Python checks the address again and owns the rest.
// 2. Storage: in a frame whose storage the browser refuses (a third-party
//    iframe in Chromium, a sandboxed frame) localStorage and IndexedDB throw,
//    and PyScript cannot boot, because its package cache always opens
//    IndexedDB.  When storage is refused, a small in-memory IndexedDB takes
//    its place (the page then plays in memory and says "progress not saved"
//    once; see freecell/browser/storage.py).  With working storage nothing
//    changes.
// No visible text here.
"use strict";
(function () {
  let embed = false;
  try {
    embed = new URLSearchParams(location.search).get("embed") === "1";
  } catch (e) {
    embed = false;
  }
  if (embed) {
    document.documentElement.classList.add("embed");
    window.addEventListener("beforeinstallprompt", (event) => event.preventDefault());
  }
  function refused() {
    try {
      const ls = window.localStorage;
      if (!ls) return true;
      if (!window.indexedDB) return true;
      return false;
    } catch (e) {
      return true;
    }
  }
  if (!refused()) return;

  function later(fn) { Promise.resolve().then(fn); }

  // One request: its handlers are set by the caller after it is returned.
  function request(run) {
    const req = { result: undefined, error: null, onsuccess: null, onerror: null };
    later(() => {
      try {
        req.result = run();
        if (req.onsuccess) req.onsuccess({ type: "success", target: req });
      } catch (e) {
        req.error = e;
        if (req.onerror) req.onerror({ type: "error", target: req });
      }
    });
    return req;
  }

  function objectStore(map) {
    return {
      get: (k) => request(() => map.get(String(k))),
      getKey: (k) => request(() => (map.has(String(k)) ? k : undefined)),
      getAllKeys: () => request(() => Array.from(map.keys())),
      put: (v, k) => request(() => { map.set(String(k), v); return k; }),
      delete: (k) => request(() => { map.delete(String(k)); }),
      clear: () => request(() => { map.clear(); }),
      count: () => request(() => map.size),
    };
  }

  function database(name) {
    const stores = new Map();
    const db = {
      name: name,
      objectStoreNames: { get length() { return stores.size; }, contains: (n) => stores.has(n) },
      createObjectStore(n) { if (!stores.has(n)) stores.set(n, new Map()); return objectStore(stores.get(n)); },
      transaction(n) {
        const tx = {
          oncomplete: null,
          objectStore(s) { if (!stores.has(s)) stores.set(s, new Map()); return objectStore(stores.get(s)); },
        };
        later(() => later(() => { if (tx.oncomplete) tx.oncomplete({ type: "complete", target: tx }); }));
        return tx;
      },
      close() {},
    };
    return db;
  }

  const dbs = new Map();
  const memoryIndexedDB = {
    open(name) {
      const key = String(name);
      const fresh = !dbs.has(key);
      if (fresh) dbs.set(key, database(key));
      const db = dbs.get(key);
      const req = { result: db, error: null, transaction: null, onsuccess: null, onerror: null,
                    onupgradeneeded: null, onblocked: null };
      later(() => {
        if (fresh && req.onupgradeneeded) {
          req.transaction = db.transaction();
          req.onupgradeneeded({ type: "upgradeneeded", target: req });
        }
        if (req.onsuccess) req.onsuccess({ type: "success", target: req });
      });
      return req;
    },
    deleteDatabase(name) { return request(() => { dbs.delete(String(name)); }); },
  };
  try {
    Object.defineProperty(window, "indexedDB", { configurable: true, get: () => memoryIndexedDB });
  } catch (e) {
    // nothing more can be done: the boot then fails with its retry message
  }
  window.freecellStorageRefused = true;
})();
