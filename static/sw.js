// The service worker: the whole game, runtime included, from one versioned cache.
//
// build.py writes this file to the root of the site with BUILD (the build's
// hash) and FILES (every file of the build: its path, its SHA-256, and 1 if it is
// precached) filled in, so a new build is a new service worker.  Install fetches
// every precached file (what a visit loads), checks its digest and stores it in
// the cache of this build; one file that cannot be had as it was built (an
// error, a partial or opaque answer, another content: a server half-way through
// a deploy) fails the install, and the old version stays.  The other files of
// the build (the languages not chosen, PyScript chunks the game never loads) are
// cached the first time the page asks for one, when it comes back whole and
// unchanged; the page may also ask for some ({type: "keep", paths}: its
// language).  The snapshots are the page's own (static/runtime.mjs stores them
// in a cache of their own): never fetched or answered here.  The page itself is
// kept under the scope's URL, as the first visit's navigation asked for it
// (the HTTP cache then saves a second download).  A new version waits until the page says the player agreed
// ({type: "skip-waiting"}); on activation the caches of older builds of this
// scope are deleted.  Requests are answered from this build's cache only, so
// old and new files never mix; anything else goes to the network and is never
// cached, except a file of this build missing from the cache (evicted), which
// is fetched and put back only when it comes back whole and unchanged.
"use strict";

const BUILD = "__FREECELL_BUILD__";
const FILES = __FREECELL_FILES__;

const SCOPE = new URL("./", self.location.href).href;
const PREFIX = "freecell " + SCOPE + " ";
const CACHE = PREFIX + BUILD;
const SNAPSHOTS = PREFIX + "snapshots"; // the page's (static/runtime.mjs)
const INDEX = new URL("index.html", SCOPE).href;
// A file's key: its URL; the page's, the scope's.
const key = (url) => (url === INDEX ? SCOPE : url);
const DIGESTS = new Map(FILES.map(([path, digest]) => [key(new URL(path, SCOPE).href), digest]));
const PRECACHE = FILES.filter(([, , precached]) => precached).map(([path]) => key(new URL(path, SCOPE).href));
const isSnapshot = (url) => url.startsWith(new URL("snapshots/", SCOPE).href);

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

// Only a whole, plain, same-origin answer may be cached.
function cacheable(response) {
  return response.status === 200 && response.type === "basic" && !response.redirected;
}

// Whether a response is whole and holds exactly the file that was built.
async function isBuilt(response, digest) {
  if (!cacheable(response)) return false;
  const body = await response.clone().arrayBuffer();
  return hex(await crypto.subtle.digest("SHA-256", body)) === digest;
}

// This build's file at url, or null.  Revalidated with the server first (the
// HTTP cache then saves a second download); if that is not it (validators
// that lie, a deploy under way), fetched again past the HTTP cache.
async function fetchBuilt(url, digest) {
  for (const mode of ["no-cache", "reload"]) {
    const response = await fetch(new Request(url, { cache: mode }));
    if (await isBuilt(response, digest)) return response;
  }
  return null;
}

// Every file fetched and checked; if one is not this build's, the install fails and its cache goes,
// once every other fetch has ended (a put still under way as the cache went could leave part of it).
self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const done = await Promise.allSettled(PRECACHE.map(async (url) => {
      if (await cache.match(url)) return; // left by an install that was cut short
      const response = await fetchBuilt(url, DIGESTS.get(url));
      if (response === null) throw new Error("not the file that was built: " + url);
      await cache.put(url, response);
    }));
    const failed = done.find((outcome) => outcome.status === "rejected");
    if (failed) throw failed.reason;
  })().catch(async (error) => {
    await caches.delete(CACHE);
    throw error;
  }));
});

// Files of this build the page wants kept for offline use (its language): cached now.
async function keep(paths) {
  const cache = await caches.open(CACHE);
  for (const path of paths) {
    const url = key(new URL(path, SCOPE).href);
    const digest = DIGESTS.get(url);
    if (digest === undefined || isSnapshot(url) || (await cache.match(url))) continue;
    const response = await fetchBuilt(url, digest);
    if (response !== null) await cache.put(url, response);
  }
}

self.addEventListener("message", (event) => {
  const data = event.data;
  if (data && data.type === "skip-waiting") self.skipWaiting();
  if (data && data.type === "keep" && Array.isArray(data.paths)) {
    const paths = data.paths.filter((p) => typeof p === "string").slice(0, 20);
    event.waitUntil(keep(paths).catch(() => {}));
  }
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE && name !== SNAPSHOTS) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

async function answer(request, url) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(url);
  if (cached) return cached;
  const response = await fetch(request);
  // a file of this build not cached yet (cached on use) or evicted: kept only if it came back whole
  const digest = DIGESTS.get(url);
  if (digest !== undefined && (await isBuilt(response, digest))) await cache.put(url, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || request.headers.has("range")) return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.href.startsWith(SCOPE)) return;
  // the page itself, whatever its query (?deal=N): this build's index.html
  const path = url.origin + url.pathname;
  if (request.mode === "navigate" && (path === SCOPE || path === INDEX)) {
    event.respondWith(answer(request, SCOPE));
    return;
  }
  url.hash = "";
  if (isSnapshot(url.href)) return; // the page's own cache holds them
  event.respondWith(answer(request, key(url.href)));
});
