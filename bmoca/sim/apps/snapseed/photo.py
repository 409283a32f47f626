"""Snapseed's images: the photos on the phone's storage it offers, and how a look or a
Noir style changes one (Pillow operations that visibly change the picture).

Decoding (`bmoca.sim.render.images`) and filtering are cached by the file's bytes, the size
and the filter, so the same frame draws from the cache (a pure function: same arguments,
same pixels)."""

from __future__ import annotations

import zlib

from PIL import Image, ImageEnhance, ImageFilter, ImageOps

from bmoca.bytecache import byte_lru
from bmoca.sim.render import images
from bmoca.sim.system.vfs import EXTERNAL, VirtualFS

FOLDERS = (f"{EXTERNAL}/Pictures", f"{EXTERNAL}/DCIM", f"{EXTERNAL}/Download")
SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")
LOOKS = ("portrait", "smooth", "pop", "accentuate", "faded_glow", "morning", "bright",
         "fine_art", "push", "structure", "silhouette")
"""The Looks strip, left to right (Snapseed 2.20)."""
TOOLS = ("tune_image", "details", "curves", "white_balance", "crop", "rotate",
         "perspective", "expand", "selective", "brush", "healing", "hdr_scape",
         "glamour_glow", "tonal_contrast", "drama", "vintage", "grainy_film", "retrolux",
         "grunge", "black_white", "noir", "portrait_tool", "head_pose", "lens_blur",
         "vignette", "double_exposure", "text", "frames")
"""The Tools grid, in order."""
NOIR_STYLES = tuple(f"S{n:02d}" for n in range(1, 15))
RENDERED_BYTES = 32 << 20
"""Edited photos kept, in bytes (a photo is as big as the screen shows it)."""


def photos(vfs: VirtualFS) -> list[str]:
    """Image files on the storage, newest folder first as the picker's recent strip shows."""
    found = [path for path in vfs.files
             if path.startswith(FOLDERS) and path.lower().endswith(SUFFIXES)]
    return sorted(found, key=lambda p: (FOLDERS.index(next(f for f in FOLDERS
                                                           if p.startswith(f))), p))


@byte_lru(RENDERED_BYTES)
def _rendered(raw: bytes, crc: int, size: tuple[int, int], look: str | None,
              noir: str | None, cover: bool) -> Image.Image:
    decoded = images.decode(raw)
    image = ImageOps.fit(decoded, size) if cover else ImageOps.contain(decoded, size)
    if look is not None:
        image = apply_look(image, look)
    if noir is not None:
        image = apply_noir(image, NOIR_STYLES.index(noir))
    return image


def rendered(raw: bytes, size: tuple[int, int], look: str | None = None,
             noir: str | None = None, cover: bool = False) -> Image.Image | None:
    """The photo fitted into `size` (or, with `cover`, cropped to fill it: a strip's
    thumbnail) with the look and Noir style applied; None if the bytes are not an image."""
    try:
        return _rendered(raw, zlib.crc32(raw), size, look, noir, cover)
    except images.ERRORS:
        return None


def apply_look(image: Image.Image, look: str) -> Image.Image:
    if look == "portrait":
        image = ImageEnhance.Brightness(image).enhance(1.08)
        return Image.blend(image, Image.new("RGB", image.size, (255, 200, 170)), 0.08)
    if look == "smooth":
        return image.filter(ImageFilter.GaussianBlur(1.5))
    if look == "pop":
        return ImageEnhance.Color(image).enhance(1.6)
    if look == "accentuate":
        return ImageEnhance.Contrast(ImageEnhance.Color(image).enhance(1.3)).enhance(1.25)
    if look == "faded_glow":
        return ImageEnhance.Contrast(ImageEnhance.Brightness(image).enhance(1.15)).enhance(0.7)
    if look == "morning":
        return Image.blend(image, Image.new("RGB", image.size, (255, 214, 150)), 0.15)
    if look == "bright":
        return ImageEnhance.Brightness(image).enhance(1.3)
    if look == "fine_art":
        return ImageEnhance.Contrast(ImageEnhance.Color(image).enhance(0.5)).enhance(1.3)
    if look == "push":
        return ImageEnhance.Contrast(image).enhance(1.6)
    if look == "structure":
        return image.filter(ImageFilter.UnsharpMask(3, 180, 2))
    if look == "silhouette":
        return ImageEnhance.Brightness(ImageEnhance.Contrast(image).enhance(2.2)).enhance(0.55)
    raise ValueError(f"unknown look {look!r}")


def apply_noir(image: Image.Image, style: int) -> Image.Image:
    """Noir's styles: black and white with a contrast and wash that change by style."""
    grey = ImageOps.grayscale(image).convert("RGB")
    grey = ImageEnhance.Contrast(grey).enhance(1.0 + 0.12 * (style % 7))
    return ImageEnhance.Brightness(grey).enhance(0.85 + 0.04 * (style // 2))
