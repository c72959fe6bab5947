// A test build's hook (builder/browsers.py puts it first in index.html's head
// of a copy of the site): what the page and its solver worker said, for engines
// whose driver does not pass the console through (WebKitGTK, Firefox's content).
// It records console errors and warnings, uncaught errors and rejections, CSP
// violations, the solver worker's messages and when the game was ready, in window.__hook.
"use strict";
(function () {
  const hook = window.__hook = { console: [], worker: [], workers: 0 };
  const text = (args) => Array.from(args, (a) => {
    if (a instanceof Error) return a.name + ": " + a.message;
    if (typeof a === "string") return a;
    try { return JSON.stringify(a); } catch (e) { return String(a); }
  }).join(" ").slice(0, 500);
  for (const level of ["error", "warn"]) {
    const original = console[level].bind(console);
    console[level] = (...args) => {
      hook.console.push(level + ": " + text(args));
      original(...args);
    };
  }
  addEventListener("error", (e) => {
    if (e.target && e.target !== window && e.target.tagName) {
      hook.console.push("error: failed to load " + (e.target.src || e.target.href || e.target.tagName));
    } else {
      hook.console.push("uncaught: " + (e.message || "") + " at " + (e.filename || "") + ":" + (e.lineno || ""));
    }
  }, true);
  addEventListener("unhandledrejection", (e) => hook.console.push("unhandled rejection: " + text([e.reason])));
  document.addEventListener("securitypolicyviolation", (e) =>
    hook.console.push("csp: " + e.violatedDirective + " blocked " + e.blockedURI));
  // when the game was ready, on the page's clock (ms from the navigation's start)
  new MutationObserver(() => {
    if (hook.readyAt === undefined && document.documentElement.dataset.state === "ready") {
      hook.readyAt = performance.now();
    }
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-state"] });
  const Native = window.Worker;
  if (Native) {
    window.Worker = class extends Native {
      constructor(url, options) {
        super(url, options);
        hook.workers += 1;
        this.addEventListener("message", (e) => {
          const d = e.data;
          if (d && typeof d === "object" && d.type !== "progress") hook.worker.push(d);
        });
        this.addEventListener("error", (e) => hook.console.push("worker error: " + (e.message || "")));
      }
    };
  }
})();
