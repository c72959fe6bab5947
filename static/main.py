"""Entry point of the page's Python (PyScript runs it once the runtime is ready)."""

from js import performance

performance.mark("freecell:main")

from freecell.browser.app import main  # noqa: E402 - after the mark, which times PyScript's own start

await main()  # noqa: F704 - PyScript runs this file with top-level await
