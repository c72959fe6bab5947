"""The Back button and the panels: Back closes a panel, as it closes a dialog in an app.

While a panel is open (Rules, Settings, the Game menu, the win...), or the
solution plays (Back stops it: :attr:`freecell.ui.session.session.Session.closable`), the page
keeps one history entry of its own on top of the game's, with the same
address.  The player's Back (Android's back button, a swipe, the browser's
button) takes that entry off, and the page closes the panel instead of
leaving the game.  A panel closed another way (its button, Escape, a choice
in it) takes its entry off itself, so the history never grows with panels
opened and closed.  One entry serves every panel: going from the Game menu to
the statistics is still one Back away from the table.

:class:`PanelEntry` decides, the page does: :meth:`PanelEntry.sync` says
whether to push the entry (its state :data:`MARK`) or to go back off it, :meth:`PanelEntry.popped`
whether a history step was the player's Back off it.  Forward onto an entry
a closed panel left ahead goes back at once (no panel to show there).  Going back is
asynchronous: until its ``popstate`` arrives nothing more is pushed, and a
panel opened in between gets its entry then (the page calls ``sync`` again).
In a frame (embedded in another site) it does nothing: there the host page's
Back is the host's.

>>> entry = PanelEntry(enabled=True)
>>> entry.sync(panel_open=True), entry.sync(panel_open=True)
('push', None)
>>> entry.popped(on_entry=False)  # the player's Back: close the panel
(True, None)
>>> entry.sync(panel_open=False)
>>> entry.sync(panel_open=True), entry.sync(panel_open=False)  # opened, then closed by its button
('push', 'back')
>>> entry.sync(panel_open=True)  # opened again before the browser went back: not yet
>>> entry.popped(on_entry=False), entry.sync(panel_open=True)  # our own step back; now the entry
((False, None), 'push')
>>> entry.sync(panel_open=False), entry.popped(on_entry=False)  # closed, and the step back done
('back', (False, None))
>>> entry.popped(on_entry=True)  # the player's Forward onto the entry left ahead: back off it
(False, 'back')
>>> entry.popped(on_entry=False), entry.sync(panel_open=False)
((False, None), None)
>>> PanelEntry(enabled=True, on_entry=True).sync(panel_open=False)  # reloaded on the entry
'back'
"""

from __future__ import annotations

from typing import Literal

Step = Literal["push", "back"]
PUSH: Step = "push"
BACK: Step = "back"
MARK = "freecell-panel"  # the history state of the panel entry (the game's entries have none)


class PanelEntry:
    """Whether the page's panel entry is on the history, and what to do about it."""

    def __init__(self, enabled: bool, on_entry: bool = False) -> None:
        """``on_entry``: the page starts on its panel entry (a reload while a panel was open, no
        panel open now): the first sync goes back off it."""
        self.enabled = enabled
        self.pushed = enabled and on_entry  # the panel entry is on top of the history
        self.leaving = False  # the page went back off it; its popstate has not come yet

    def sync(self, panel_open: bool) -> Step | None:
        """After every change: push the entry for a panel now open, go back off it for a panel
        now closed; ``None`` when the history is as it should be (or cannot change yet)."""
        if not self.enabled or self.leaving:
            return None
        if panel_open and not self.pushed:
            self.pushed = True
            return PUSH
        if not panel_open and self.pushed:
            self.pushed = False
            self.leaving = True
            return BACK
        return None

    def popped(self, on_entry: bool) -> tuple[bool, Step | None]:
        """A step through the history (``popstate``), landing on the panel entry or not
        (``on_entry``): whether it was the player's Back off the entry (close the panel), and
        whether to go back at once: the browser landed on a panel entry with no panel open (the
        player's Forward onto the entry a closed panel left ahead), which would make the next
        Back seem to do nothing."""
        close = False
        if self.leaving:  # the page's own step back
            self.leaving = False
        elif self.pushed:
            self.pushed = False
            close = True
        if on_entry and self.enabled:
            self.leaving = True
            return close, BACK
        return close, None
