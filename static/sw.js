// The service worker: the whole game, runtime included, from one versioned cache.
//
// build.py writes this file to the root of the site with BUILD (the build's
// hash) and FILES (every file of the build with its SHA-256) filled in, so a
// new build is a new service worker.  Install fetches every file, checks its
// digest and stores it in the cache of this build; one file that cannot be had
// as it was built (an error, a partial or opaque answer, another content: a
// server half-way through a deploy) fails the install, and the old version
// stays.  A new version waits until the page says the player agreed
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
const INDEX = new URL("index.html", SCOPE).href;
const DIGESTS = new Map(FILES.map(([path, digest]) => [new URL(path, SCOPE).href, digest]));

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

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(Array.from(DIGESTS, async ([url, digest]) => {
      if (await cache.match(url)) return; // left by an install that was cut short
      const response = await fetchBuilt(url, digest);
      if (response === null) throw new Error("not the file that was built: " + url);
      await cache.put(url, response);
    }));
  })().catch(async (error) => {
    await caches.delete(CACHE);
    throw error;
  }));
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

async function answer(request, url) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(url);
  if (cached) return cached;
  const response = await fetch(request);
  // a file of this build that was evicted: put back only if it came back whole
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
    event.respondWith(answer(request, INDEX));
    return;
  }
  url.hash = "";
  event.respondWith(answer(request, url.href));
});
