// Offline and updates: registers the service worker (sw.js at the site's root)
// once the game is ready, and offers a new version with a banner; the new
// version is taken only when the player presses its button, then every page
// of the game reloads.  The banner's words come from static/i18n/<lang>.json
// (boot.js loads the catalogue); its look from static/update.css, loaded only
// when the banner is shown.
//
// Embedded (?embed=1): nothing is registered and the page offers no install.
"use strict";
(function () {
  const root = document.documentElement;
  if (new URLSearchParams(location.search).get("embed") === "1") {
    const link = document.querySelector('link[rel="manifest"]');
    if (link) link.remove();
    return;
  }
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const sw = navigator.serviceWorker;
  // A new service worker takes over only after the player agreed (here or in
  // another tab): then this page reloads to run the new version.  Taking
  // control of a page that had none (the first visit) changes nothing.
  let controlled = sw.controller !== null;
  let reloading = false;
  sw.addEventListener("controllerchange", () => {
    if (!controlled) {
      controlled = true;
      return;
    }
    if (reloading) return;
    reloading = true;
    location.reload();
  });

  let banner = null;
  function offer(registration) {
    if (banner !== null || window.freecellI18n === undefined) return;
    window.freecellI18n.then(({ messages }) => {
      const t = (key) => messages[key];
      const text = t("update.ready");
      const label = t("action.update");
      const close = t("action.close");
      if (banner !== null || ![text, label, close].every((s) => typeof s === "string")) return;
      banner = document.createElement("div");
      banner.className = "update-banner";
      banner.dataset.panel = "update";
      banner.setAttribute("role", "status");
      banner.hidden = true;
      const p = document.createElement("p");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.action = "update";
      button.textContent = label;
      button.addEventListener("click", () => {
        button.disabled = true;
        const waiting = registration.waiting;
        if (waiting) waiting.postMessage({ type: "skip-waiting" });
        else location.reload(); // another tab took it already
      });
      // not now: the banner goes, the next visit offers the update again
      const later = document.createElement("button");
      later.type = "button";
      later.className = "update-later";
      later.dataset.action = "dismiss-update";
      later.setAttribute("aria-label", close);
      later.textContent = "\u00d7";
      later.addEventListener("click", () => { banner.hidden = true; });
      banner.append(p, button, later);
      document.body.append(banner);
      const style = document.createElement("link");
      style.rel = "stylesheet";
      style.href = "./static/update.css";
      style.addEventListener("load", () => {
        banner.hidden = false;
        p.textContent = text; // into the live region once it shows: announced
      });
      document.head.append(style);
    }).catch(() => {});
  }

  function watch(registration) {
    // a new version is one installed while an older one controls the page
    function track(worker) {
      if (!worker) return;
      worker.addEventListener("statechange", () => {
        if (worker.state === "installed" && sw.controller) offer(registration);
      });
    }
    if (registration.waiting && sw.controller) offer(registration);
    track(registration.installing);
    registration.addEventListener("updatefound", () => track(registration.installing));
    // look for one now (sw.js is small and never cached), and whenever the
    // player comes back to the tab; offline, the check just fails
    const check = () => registration.update().catch(() => {});
    if (sw.controller) check();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") check();
    });
  }

  // Registered once the game is up, so that installing (which fetches every
  // file) finds them in the HTTP cache instead of racing the page for them.
  let registered = false;
  function register() {
    if (registered || root.dataset.state !== "ready") return;
    registered = true;
    observer.disconnect();
    sw.register("./sw.js", { scope: "./" }).then(watch).catch(() => {});
    // the page's language is kept for offline play too (the others are cached when chosen)
    sw.ready.then((registration) => {
      const lang = root.lang || "en";
      if (registration.active && /^[a-z]{2}$/.test(lang)) {
        registration.active.postMessage({ type: "keep", paths: [`static/i18n/${lang}.json`] });
      }
    }).catch(() => {});
  }
  const observer = new MutationObserver(register);
  observer.observe(root, { attributes: true, attributeFilter: ["data-state"] });
  register();
})();
