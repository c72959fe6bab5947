"""Kept for build.py only: it imports :func:`sprite_svg` from here (delete once it imports the new path).

The sprite is :mod:`freecell.ui.table.sprite`.
"""

from .table.sprite import sprite_svg

__all__ = ["sprite_svg"]
