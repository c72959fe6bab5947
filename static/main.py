"""Entry point of the page's Python (PyScript runs it once the runtime is ready)."""

from freecell.browser.app import main

await main()  # noqa: F704 - PyScript runs this file with top-level await
