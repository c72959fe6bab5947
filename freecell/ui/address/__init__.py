"""address."""
