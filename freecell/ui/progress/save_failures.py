"""When to say that progress is not saved: never silent, never on every move.

A save that fails (storage full, refused) shows the notice
``data-notice="storage"``.  While it is on show nothing more is said.  Once
the player dismissed it, the next failed save shows it again, but at most
once a :data:`INTERVAL`: a player who dismissed it and plays on into a full
store is told again within a minute, not at every move.  A save that works
in between changes nothing (the moves before it are safe; the next failure
is news, and is said under the same rule).

The clock is passed in (seconds, any monotonic origin).

>>> notice = FailureNotice()
>>> notice.failed(0.0), notice.failed(5.0)        # shown; already on show
(True, False)
>>> notice.dismissed()
>>> notice.failed(30.0), notice.failed(61.0)      # too soon; a minute after it was shown
(False, True)
"""

from __future__ import annotations

INTERVAL = 60.0  # seconds between two showings of the notice, at least


class FailureNotice:
    """The rule above, as a small state: call :meth:`failed` at each failed save."""

    def __init__(self, interval: float = INTERVAL) -> None:
        self.interval = interval
        self.showing = False
        self.shown_at: float | None = None

    def failed(self, now: float) -> bool:
        """A save failed at ``now``: whether to show the notice now."""
        if self.showing:
            return False
        if self.shown_at is not None and now - self.shown_at < self.interval:
            return False
        self.showing, self.shown_at = True, now
        return True

    def dismissed(self) -> None:
        """The player closed the notice."""
        self.showing = False
