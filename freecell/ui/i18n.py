"""Kept for build.py only: it imports :data:`LANGUAGES` from here (delete once it imports the new path).

The languages are :data:`freecell.ui.text.catalogue.LANGUAGES`.
"""

from .text.catalogue import LANGUAGES

__all__ = ["LANGUAGES"]
