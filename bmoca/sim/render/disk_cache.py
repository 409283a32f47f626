"""Rendered images kept on disk between processes.

Every process used to draw the launcher's app icons again (4x supersampled, a circle
mask, a blurred shadow: about a third of booting a phone). They are the same in every
process on a machine, so the first process keeps them as PNG files (lossless: the pixels
a phone shows are the same bytes) in the user's cache directory, and later ones read them.

An entry is named by a hash of everything its pixels come from: the request, the source of
the render package, the versions of Pillow, its FreeType and numpy, and the font files'
names, sizes and modification times. `BMOCA_ASSET_CACHE=off` turns the cache off, a path
puts it there; a directory that cannot be written, or an entry that cannot be read, means
drawing, as without the cache.
"""

from __future__ import annotations

import hashlib
import os
import platform
from collections.abc import Callable, Hashable
from functools import cache
from pathlib import Path

from PIL import Image

ENV = "BMOCA_ASSET_CACHE"
"""`off` (or 0, no, false) disables the cache; any other value is its directory."""


def directory() -> Path | None:
    """Where entries live, or None when the cache is off."""
    setting = os.environ.get(ENV, "").strip()
    if setting.lower() in ("off", "0", "no", "false"):
        return None
    if setting:
        return Path(setting)
    import platformdirs

    return platformdirs.user_cache_path("bmoca", appauthor=False) / "assets"


@cache
def _salt() -> bytes:
    """What every entry's pixels depend on besides its request."""
    import numpy as np
    from PIL import __version__ as pillow
    from PIL import features

    from bmoca.sim.render.icons import font_path
    from bmoca.sim.render.text import font_face

    digest = hashlib.sha256()
    for part in (pillow, features.version("freetype2") or "", np.__version__,
                 platform.machine()):
        digest.update(part.encode() + b"\0")
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    for font in (font_path(), Path(font_face("roboto").path)):
        stat = font.stat()
        digest.update(f"{font}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.digest()


def cached(kind: str, request: Hashable, mode: str, draw: Callable[[], Image.Image]
           ) -> Image.Image:
    """The image `draw()` makes for `request` (its repr names it), read from disk when an
    earlier process drew it; `mode` is the mode it has."""
    folder = directory()
    if folder is None:
        return draw()
    name = hashlib.sha256(_salt() + repr((kind, request)).encode()).hexdigest()[:40]
    path = folder / f"{kind}-{name}.png"
    try:
        image = Image.open(path)
        image.load()
        if image.mode == mode:
            return image
    except (OSError, ValueError, SyntaxError):  # absent, damaged or cut short: draw it
        pass
    image = draw()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        image.save(partial, "PNG", compress_level=1)
        partial.replace(path)
    except OSError:  # a read-only or full disk: the cache is only a saving
        pass
    return image
