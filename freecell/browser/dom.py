"""Small DOM helpers shared by the browser modules, and one place that owns every binding.

:class:`Bindings` adds event listeners, intervals and timeouts and keeps each
proxy it made: :meth:`Bindings.unbind` removes every listener, stops every
timer and destroys every proxy, so a page can be torn down from one call
(chessground's ``unbindable`` / ``bindDocument``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from js import Object, document, window
from pyodide.ffi import create_once_callable, create_proxy, jsnull, to_js


def js_or_none(value: Any) -> Any:
    """JavaScript's null and undefined as None (Pyodide gives ``jsnull`` for null)."""
    if value is None or value is jsnull:
        return None
    return value


def framed() -> bool:
    """Whether the page is in a frame of another page (embedded: its Back is the host's)."""
    try:
        return bool(window.parent != window)
    except Exception:
        return True


def q(selector: str) -> Any:
    """The first element matching ``selector``, or ``None``."""
    return js_or_none(document.querySelector(selector))


def closest(el: Any, selector: str) -> Any:
    """``el.closest(selector)``, or ``None`` (also when ``el`` is not an element)."""
    try:
        return None if el is None else js_or_none(el.closest(selector))
    except Exception:  # a text node or the document: no closest()
        return None


def qa(selector: str) -> list[Any]:
    return list(document.querySelectorAll(selector))


def js_object(obj: object) -> Any:
    return to_js(obj, dict_converter=Object.fromEntries)


def set_text(el: Any, text: str) -> None:
    """``textContent``, written only when it changes (outside text is never markup)."""
    if el is not None and str(el.textContent) != text:
        el.textContent = str(text)


def set_attr(el: Any, name: str, value: str | None) -> None:
    """An attribute written only when it changes; ``None`` removes it."""
    if el is None:
        return
    if value is None:
        if el.hasAttribute(name):
            el.removeAttribute(name)
    elif el.getAttribute(name) != value:
        el.setAttribute(name, str(value))  # a StrEnum state as its plain text


def set_hidden(el: Any, hidden: bool) -> None:
    if el is not None and bool(el.hidden) != hidden:
        el.hidden = hidden


class Bindings:
    """Listeners, timers and proxies made for a page, all undone by :meth:`unbind`."""

    def __init__(self) -> None:
        self._proxies: list[Any] = []
        self._listeners: list[tuple[Any, str, Any, bool]] = []  # target, event, proxy, capture
        self._intervals: list[Any] = []
        self._timeouts: set[Any] = set()
        self._frames: set[Any] = set()
        self._observers: list[Any] = []
        self.live = True  # until :meth:`unbind`: a callback already queued then does nothing

    def on(self, target: Any, event: str, handler: Callable[[Any], None], **opts: bool) -> None:
        proxy = create_proxy(handler)
        self._proxies.append(proxy)
        if opts:
            target.addEventListener(event, proxy, js_object(opts))
        else:
            target.addEventListener(event, proxy)
        self._listeners.append((target, event, proxy, bool(opts.get("capture"))))

    def every(self, ms: int, fn: Callable[[], None]) -> None:
        proxy = create_proxy(lambda *_: fn())
        self._proxies.append(proxy)
        self._intervals.append(window.setInterval(proxy, ms))

    def later(self, ms: float, fn: Callable[[], None]) -> Any:
        """Run ``fn`` once after ``ms``; returns a handle for :meth:`cancel`."""
        handle: list[Any] = []

        def run(*_: Any) -> None:
            self._timeouts.discard(handle[0])
            if self.live:
                fn()

        handle.append(window.setTimeout(create_once_callable(run), ms))
        self._timeouts.add(handle[0])
        return handle[0]

    def cancel(self, handle: Any) -> None:
        if handle is not None and handle in self._timeouts:
            window.clearTimeout(handle)
            self._timeouts.discard(handle)

    def frame(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` before the next paint (cancelled by :meth:`unbind`: a page object that
        stopped never draws again, even for a resize that came just before)."""
        handle: list[Any] = []

        def run(*_: Any) -> None:
            self._frames.discard(handle[0])
            if self.live:
                fn()

        handle.append(window.requestAnimationFrame(create_once_callable(run)))
        self._frames.add(handle[0])

    def observe_size(self, el: Any, fn: Callable[[], None]) -> None:
        proxy = create_proxy(lambda *_: fn())
        self._proxies.append(proxy)
        observer = window.ResizeObserver.new(proxy)
        observer.observe(el)
        self._observers.append(observer)

    def unbind(self) -> None:
        for target, event, proxy, capture in self._listeners:  # a capture listener: removed as one
            target.removeEventListener(event, proxy, capture)
        for handle in self._intervals:
            window.clearInterval(handle)
        for handle in self._timeouts:
            window.clearTimeout(handle)
        for handle in self._frames:
            window.cancelAnimationFrame(handle)
        self.live = False
        for observer in self._observers:
            observer.disconnect()
        for proxy in self._proxies:
            proxy.destroy()
        self._listeners, self._intervals, self._observers, self._proxies = [], [], [], []
        self._timeouts, self._frames = set(), set()
