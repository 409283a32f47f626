"""Rendered images kept on disk between processes.

Every process used to draw the launcher's app icons again (4x supersampled, a circle
mask, a blurred shadow: about a third of booting a phone). They are the same in every
process on a machine, so the first process keeps their pixels (raw: the pixels a phone
shows are the same bytes) in the user's cache directory, and later ones read them; the
wallpaper a phone is provisioned with (drawn and PNG-encoded) is kept the same way, and
so are a wallpaper's pixels as a screen shows them, compressed
(`bmoca.sim.render.wallpaper`).

An entry is named by a hash of everything its pixels come from: the request, the source of
the render package (and of the code that made the entry), the versions of Pillow, its
FreeType and zlib and numpy, and the font files' names, sizes and modification times.
`BMOCA_ASSET_CACHE=off` turns the cache off, a path puts it there; a directory that cannot
be written, or an entry that cannot be read, means drawing, as without the cache.
"""

from __future__ import annotations

import hashlib
import platform
from collections.abc import Callable, Hashable
from functools import cache
from pathlib import Path

from PIL import Image

from bmoca.formats import cachedir

ENV = "BMOCA_ASSET_CACHE"
"""`off` (or 0, no, false) disables the cache; any other value is its directory."""


def directory() -> Path | None:
    """Where entries live, or None when the cache is off."""
    return cachedir.directory(ENV, "assets")


@cache
def _salt() -> bytes:
    """What every entry's pixels depend on besides its request."""
    import numpy as np
    from PIL import __version__ as pillow
    from PIL import features

    from bmoca.sim.render.fonts import font_face
    from bmoca.sim.render.icons import font_path

    digest = hashlib.sha256()
    for part in (pillow, features.version("freetype2") or "", features.version("zlib") or "",
                 np.__version__, platform.machine()):
        digest.update(part.encode() + b"\0")
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    for font in (font_path(), Path(font_face("roboto").path)):
        stat = font.stat()
        digest.update(f"{font}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.digest()


@cache
def _source_digest(source: Path) -> bytes:
    """A code file's digest, read once per process (as the render package's, in `_salt`)."""
    return hashlib.sha256(source.read_bytes()).digest()


def _entry(kind: str, request: Hashable, suffix: str, sources: tuple[Path, ...] = ()
           ) -> Path | None:
    folder = directory()
    if folder is None:
        return None
    digest = hashlib.sha256(_salt() + repr((kind, request)).encode())
    for source in sources:
        digest.update(_source_digest(source))
    name = digest.hexdigest()[:40]
    return folder / f"{kind}-{name}.{suffix}"


def entry(kind: str, request: Hashable) -> Path | None:
    """The file of `kind`'s entry for `request` (its repr names it), kept and checked with
    `bmoca.formats.cachedir` (None when the cache is off)."""
    return _entry(kind, request, "bin")


def cached(kind: str, request: Hashable, mode: str, draw: Callable[[], Image.Image]
           ) -> Image.Image:
    """The image `draw()` makes for `request` (its repr names it), read from disk when an
    earlier process drew it; `mode` is the mode it has. An entry holds the raw pixels
    after a line of mode and size, not a PNG: reading them back is a copy, where opening a
    PNG made Pillow import its five image plugins and decode (a sixth of a cold start's
    first frame, for 18 icons)."""
    path = _entry(kind, request, "bin")
    if path is None:
        return draw()
    data = cachedir.read(path)
    if data is not None:
        head, _, pixels = data.partition(b"\n")
        try:
            name, width, height = head.decode("ascii").split(" ")
            if name == mode:
                return Image.frombytes(mode, (int(width), int(height)), pixels)
        except ValueError:  # not an entry of this form: draw it
            pass
    image = draw()
    cachedir.write(path, f"{image.mode} {image.width} {image.height}\n".encode()
                   + image.tobytes())
    return image


def cached_bytes(kind: str, request: Hashable, make: Callable[[], bytes],
                 sources: tuple[Path, ...]) -> bytes:
    """The bytes `make()` gives for `request`, from disk when an earlier process made them
    (an entry holds its own digest, so a damaged one is made again); `sources` are the
    files of the code that makes them, outside the render package."""
    return cachedir.read_or_make(_entry(kind, request, "bin", sources), make)
