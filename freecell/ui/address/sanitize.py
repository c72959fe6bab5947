"""Outside text made safe to show: no control characters, no bidi tricks, bounded length.

Text that comes from outside (a deal number or board typed in the address,
a value echoed in a refusal, data from a host page or from storage) is shown
through ``textContent``, so it cannot become markup; but it can still carry
characters that change how the line around it reads.  A right-to-left
override (U+202E) before "niw 716" makes it read "617 win", a zero-width space
hides in a number, a newline breaks the message line.  So before any such
text is put into a message:

- :func:`clean` drops the bidi controls (U+202A-202E embeddings and
  overrides, U+2066-2069 isolates, U+200E/200F marks, U+061C), every other
  format character (category Cf: zero-width spaces and joiners, the BOM,
  soft hyphens), the control characters (Cc) and lone surrogates (Cs);
  tabs, newlines and line or paragraph separators become one space each;
- :func:`clip` cleans and cuts to a length, with an ellipsis;
- :func:`invisible` finds the first such character (to name it, as in
  "an invisible character U+200B");
- :func:`isolate` cleans and wraps the result in FSI ... PDI (U+2068,
  U+2069), so that even right-to-left letters in it cannot reorder the
  words of the sentence around it.

>>> clean("617\\u202e niw")
'617 niw'
>>> clean("6\\u200b1\\u20607\\n")
'617 '
>>> clip("x" * 30, 5)
'xxxxx…'
>>> isolate("617") == "\\u2068617\\u2069"
True
"""

from __future__ import annotations

import unicodedata

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
FSI, PDI = "\u2068", "\u2069"
SHORT = 24  # characters of an outside value echoed in a message
_SPACES = frozenset("\t\n\r\x0b\x0c\x85\u2028\u2029")
_DROPPED = frozenset(("Cc", "Cf", "Cs"))


def clean(text: object) -> str:
    """``text`` without the characters that could change how the line reads (see above).

    Anything that is not a string is no text at all: ``""``.
    """
    if not isinstance(text, str):
        return ""
    if text.isascii() and text.isprintable():
        return text
    out = []
    for ch in text:
        if ch in _SPACES:
            out.append(" ")
        elif ch not in BIDI_CONTROLS and unicodedata.category(ch) not in _DROPPED:
            out.append(ch)
    return "".join(out)


def invisible(text: str) -> str | None:
    """The first character of ``text`` that :func:`clean` would drop or turn into a space, if any.

    >>> invisible("6\u200b17"), invisible("617")
    ('\u200b', None)
    """
    if text.isascii() and text.isprintable():
        return None
    for ch in text:
        if ch in _SPACES or ch in BIDI_CONTROLS or unicodedata.category(ch) in _DROPPED:
            return ch
    return None


def clip(text: object, limit: int = SHORT) -> str:
    """:func:`clean` text cut to ``limit`` characters, an ellipsis marking the cut."""
    shown = clean(text)
    return shown if len(shown) <= limit else shown[:limit] + "…"


def isolate(text: object, limit: int | None = SHORT) -> str:
    """Clean (and shortened) text isolated from the direction of the sentence around it."""
    shown = clean(text) if limit is None else clip(text, limit)
    return FSI + shown + PDI
