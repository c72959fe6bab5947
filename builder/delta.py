"""The worker's snapshot as a delta from the page's: one snapshot's bytes on the wire, not two.

The two interpreters differ little (the worker imports the solver, the page
the UI), so most of the worker's memory is the page's, at shifted offsets.
:func:`make_delta` writes the worker's image as copies from the page's image
and literal bytes; static/runtime.mjs (``applyDelta``) rebuilds it from the
page's snapshot, which the page stores beside it.  Measured on this build:
the worker's snapshot 3.77 MB brotli, its delta about 0.5 MB.

Format (little-endian): ``FCDELTA1``, the image's size (u32), the number of
pieces (u32), each piece's destination offset, length and source offset (u32
x 3; source :data:`LITERAL` takes the next bytes of the literals), then the
literals.  Zero bytes are never written: the image starts zeroed.

    >>> base = bytes(range(256)) * 64 + bytes(5000)
    >>> target = bytes(100) + base[1000:9000] + b"new bytes" + base[:3000]
    >>> delta = make_delta(base, target)
    >>> apply_delta(base, delta) == target, len(delta) < 200
    (True, True)
"""

from __future__ import annotations

import struct

MAGIC = b"FCDELTA1"
LITERAL = 0xFFFFFFFF
BLOCK = 64  # the base's blocks a match starts from
PAGE = 4096


def _extend(base: bytes, target: bytes, src: int, dst: int) -> int:
    """How far the bytes at ``target[dst:]`` and ``base[src:]`` stay equal."""
    n = 0
    step = PAGE
    while step:
        while (dst + n + step <= len(target) and src + n + step <= len(base)
               and target[dst + n:dst + n + step] == base[src + n:src + n + step]):
            n += step
        step //= 8
    return n


def make_delta(base: bytes, target: bytes) -> bytes:
    """``target`` as pieces of ``base`` and literal bytes (see the module docstring)."""
    zero = bytes(BLOCK)
    index: dict[bytes, int] = {}
    for j in range(0, len(base) - BLOCK + 1, BLOCK):
        block = base[j:j + BLOCK]
        if block != zero:
            index.setdefault(block, j)
    pieces: list[tuple[int, int, int]] = []
    literals = bytearray()
    pending: int | None = None  # where the bytes not matched yet start

    def flush(end: int) -> None:
        nonlocal pending
        if pending is not None and end > pending and target[pending:end].strip(b"\0"):
            pieces.append((pending, end - pending, LITERAL))
            literals.extend(target[pending:end])
        pending = None

    i, n = 0, len(target)
    zero_page = bytes(PAGE)
    while i < n:
        if i % PAGE == 0 and target[i:i + PAGE] == zero_page[:min(PAGE, n - i)]:
            flush(i)
            i += PAGE
            continue
        block = target[i:i + BLOCK]
        src = index.get(block) if len(block) == BLOCK and block != zero else None
        if src is None:
            if pending is None:
                pending = i
            i += 1
            continue
        dst = i
        while pending is not None and dst > pending and src > 0 and base[src - 1] == target[dst - 1]:
            src, dst = src - 1, dst - 1
        flush(dst)
        length = (i - dst) + BLOCK + _extend(base, target, src + (i - dst) + BLOCK, i + BLOCK)
        pieces.append((dst, length, src))
        i = dst + length
    flush(n)
    head = MAGIC + struct.pack("<II", len(target), len(pieces))
    return head + b"".join(struct.pack("<III", *p) for p in pieces) + bytes(literals)


def apply_delta(base: bytes, delta: bytes) -> bytes:
    """The image :func:`make_delta` described (static/runtime.mjs's ``applyDelta`` does the same)."""
    if delta[:8] != MAGIC:
        raise ValueError("not a snapshot delta")
    size, count = struct.unpack_from("<II", delta, 8)
    out = bytearray(size)
    pos = 16 + 12 * count
    for k in range(count):
        dst, length, src = struct.unpack_from("<III", delta, 16 + 12 * k)
        if dst + length > size:
            raise ValueError("snapshot delta: damaged")
        if src == LITERAL:
            if pos + length > len(delta):
                raise ValueError("snapshot delta: damaged")
            out[dst:dst + length] = delta[pos:pos + length]
            pos += length
        else:
            if src + length > len(base):
                raise ValueError("snapshot delta: damaged")
            out[dst:dst + length] = base[src:src + length]
    if pos != len(delta):
        raise ValueError("snapshot delta: damaged")
    return bytes(out)
