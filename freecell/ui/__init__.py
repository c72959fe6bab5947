"""Pure UI logic: layout, state, card art, messages; no DOM."""
