"""The benchmarks: each module is a script, run from the repository root as ``python3 -m bench.NAME``.

What they share is :mod:`bench.common`; ``bench/README.md`` lists them.
"""
