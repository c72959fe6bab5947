// Boot: before Python is ready, fill the static labels from the message
// catalogue (so the frame and the loading line mean something at once), and
// turn a load that fails or never finishes into a message with a retry.
// No visible text is written here: it all comes from static/i18n/<lang>.json.
//
// The one place that loads a catalogue and translates the page: the page's
// Python uses window.freecellCatalogue(lang) and window.freecellTranslate(messages)
// (freecell/browser/i18n.py) when the player picks another language.  The lists
// below (the languages, the themes and speeds kept in the settings) are the
// game's own, written in by build.py from freecell/ui/text/catalogue.py and freecell/ui/progress/settings.py.
"use strict";
(function () {
  const BOOT = {"languages": ["en"], "theme": ["dark"], "speed": ["normal"]} /* __FREECELL_BOOT__ */;
  const LANGS = BOOT.languages;
  const LOAD_TIMEOUT_MS = 90000;
  const root = document.documentElement;
  // early.js (a script before this one runs) says what it drew; if it could not run, nothing:
  // the loading line waits for that word (static/style.css)
  if (!root.dataset.early) root.dataset.early = "none";

  function pickLanguage() {
    const prefs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
    for (const tag of prefs) {
      const base = String(tag).toLowerCase().split(/[-_]/)[0];
      if (LANGS.includes(base)) return base;
    }
    return "en";
  }

  function load(lang) {
    if (!LANGS.includes(lang)) return Promise.reject(new Error("no such language"));
    return fetch("./static/i18n/" + lang + ".json")
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((messages) => ({ lang: lang, messages: messages }));
  }

  function translate(messages) {
    for (const el of document.querySelectorAll("[data-i18n]")) {
      const text = messages[el.dataset.i18n];
      if (typeof text === "string") el.textContent = text;
    }
    for (const el of document.querySelectorAll("[data-i18n-title]")) {
      const text = messages[el.dataset.i18nTitle];
      if (typeof text === "string") el.setAttribute("title", text);
    }
    for (const el of document.querySelectorAll("[data-i18n-aria-label]")) {
      const text = messages[el.dataset.i18nAriaLabel];
      if (typeof text === "string") el.setAttribute("aria-label", text);
    }
  }

  function fail() {
    if (root.dataset.state === "ready") return;
    root.dataset.state = "failed";
    const box = document.getElementById("load-failed");
    if (box) box.hidden = false;
  }

  // The table's theme and animation speed from the saved settings, early (the page's
  // Python applies every setting again once it runs).
  try {
    const saved = JSON.parse(localStorage.getItem("freecell.settings") || "null");
    if (saved && saved.format === "freecell-settings") {
      if (BOOT.theme.includes(saved.theme)) root.dataset.theme = saved.theme;
      if (BOOT.speed.includes(saved.speed)) root.dataset.speed = saved.speed;
    }
  } catch (e) {
    // storage refused or unreadable: the defaults
  }

  const lang = pickLanguage();
  root.lang = lang;
  // The page's Python reads the catalogue from here instead of fetching it again.
  window.freecellI18n = load(lang).then((cat) => {
    translate(cat.messages);
    return cat;
  });
  window.freecellI18n.catch(() => {});
  window.freecellCatalogue = load;
  window.freecellTranslate = (messages, code) => {
    if (LANGS.includes(code)) root.lang = code;
    translate(messages);
  };

  // A script, stylesheet or wasm that cannot load, or a boot that never ends.
  window.addEventListener("error", (event) => {
    const t = event.target;
    if (t && t !== window && (t.tagName === "SCRIPT" || t.tagName === "LINK")) fail();
  }, true);
  window.addEventListener("unhandledrejection", () => {
    if (root.dataset.state === "loading") fail();
  });
  window.addEventListener("freecell:failed", fail);
  setTimeout(() => { if (root.dataset.state === "loading") fail(); }, LOAD_TIMEOUT_MS);

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest('[data-action="retry"]');
    if (button) location.reload();
  });
})();
