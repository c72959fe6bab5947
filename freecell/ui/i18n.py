"""Kept for build.py only: it imports :data:`LANGUAGES` from here (delete once it imports the new path).

The languages are :data:`freecell.ui.progress.settings.LANGUAGES`.
"""

from .progress.settings import LANGUAGES

__all__ = ["LANGUAGES"]
