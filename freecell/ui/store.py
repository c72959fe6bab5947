"""Kept for build.py only: it imports :data:`CHOICE_SETTINGS` from here (delete once it imports the new path).

The settings are :mod:`freecell.ui.progress.settings`.
"""

from .progress.settings import CHOICE_SETTINGS

__all__ = ["CHOICE_SETTINGS"]
