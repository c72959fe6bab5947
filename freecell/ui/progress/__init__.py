"""progress."""
