"""The page benchmark's browser-side accounting: bytes and requests (CDP Network), CPU (CDP Tracing).

``NetLog`` counts the page target's requests and their bytes on the wire;
``Trace`` records a trace of one load and reads from it the thread time of a
thread's top-level tasks (the main thread's CPU to ready, the worker's to its
``ready``).  Used by bench/page_load.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import CDPSession, Page

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


# --- network accounting -------------------------------------------------------------------


@dataclass
class NetLog:
    """The page target's requests, from CDP Network events, since the last reset."""

    cdp: CDPSession
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    wire: dict[str, int] = field(default_factory=dict)
    foreign: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.responseReceivedExtraInfo", self._wire)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.send("Network.enable")

    def reset(self) -> None:
        self.files, self.wire = {}, {}

    def _sent(self, p: dict[str, Any]) -> None:
        if p.get("redirectResponse"):
            return
        url = p["request"]["url"]
        self.files[p["requestId"]] = {"url": url, "bytes": 0.0}
        parts = urlsplit(url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in LOCAL_HOSTS:
            self.foreign.append(url)

    def _wire(self, p: dict[str, Any]) -> None:
        self.wire[p["requestId"]] = int(p.get("statusCode", 0))

    def _finished(self, p: dict[str, Any]) -> None:
        if p["requestId"] in self.files:
            self.files[p["requestId"]]["bytes"] = float(p.get("encodedDataLength", 0))

    def sent(self) -> list[tuple[str, float]]:
        """The files whose body came over the wire (200 there), biggest first."""
        return sorted(((f["url"], f["bytes"]) for r, f in self.files.items() if self.wire.get(r) == 200),
                      key=lambda x: -x[1])

    def totals(self) -> dict[str, float]:
        return {
            "bytes": sum(f["bytes"] for f in self.files.values()),
            "requests": len(self.files),
            "not_modified": sum(self.wire.get(r) == 304 for r in self.files),
        }


# --- a trace of one load ---------------------------------------------------------------


class Trace:
    """CDP tracing of the page's target (category ``toplevel``), for main-thread CPU."""

    def __init__(self, cdp: CDPSession) -> None:
        self.cdp = cdp
        self.events: list[dict[str, Any]] = []
        self.done = False
        cdp.on("Tracing.dataCollected", lambda e: self.events.extend(e["value"]))
        cdp.on("Tracing.tracingComplete", lambda e: setattr(self, "done", True))

    def start(self) -> None:
        self.events, self.done = [], False
        self.cdp.send("Tracing.start", {"transferMode": "ReportEvents", "traceConfig": {
            "includedCategories": ["toplevel", "blink.user_timing", "__metadata"],
            "recordMode": "recordAsMuchAsPossible"}})

    def stop(self, page: Page) -> None:
        self.cdp.send("Tracing.end")
        for _ in range(400):
            if self.done:
                return
            page.wait_for_timeout(25)

    def cpu(self, url: str, until_ms: float | None, thread: str = "CrRendererMain") -> float | None:
        """Thread time (ms) of the top-level tasks of ``thread`` from the navigation start to ``until_ms``."""
        if until_ms is None:
            return None
        names = {(e["pid"], e["tid"]): e.get("args", {}).get("name") for e in self.events
                 if e.get("ph") == "M" and e.get("name") == "thread_name"}
        starts = [e for e in self.events if e.get("name") == "navigationStart"
                  and str(e.get("args", {}).get("data", {}).get("documentLoaderURL", "")).startswith(url)]
        if not starts:
            return None
        nav = starts[-1]
        pid = nav["pid"]
        end = nav["ts"] + until_ms * 1000
        total = 0.0
        for key in {k for k, v in names.items() if v and v.startswith(thread) and k[0] == pid}:
            tasks = sorted((e for e in self.events if (e["pid"], e["tid"]) == key and e.get("ph") == "X"
                            and e.get("cat") == "toplevel" and nav["ts"] <= e["ts"] <= end),
                           key=lambda e: e["ts"])
            covered = 0.0
            for e in tasks:  # only the outermost tasks
                if e["ts"] >= covered:
                    total += e.get("tdur", 0) / 1000
                    covered = e["ts"] + e.get("dur", 0)
        return total
