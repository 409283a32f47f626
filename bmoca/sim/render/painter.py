"""Draws a laid-out frame into an RGB image: wallpaper, app, dialog, keyboard, system bars.

Everything expensive is cached across frames: wallpapers (`wallpaper`), text sprites
and icons (in their modules); a frame is boxes, pasted sprites and a few vector shapes.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

from bmoca.bytecache import approx_bytes, byte_lru
from bmoca.sim.render import app_icons, disk_cache, icons
from bmoca.sim.render.text import get_text_renderer
from bmoca.sim.render.wallpaper import WALLPAPERS, decode
from bmoca.sim.system.server import SystemServer
from bmoca.sim.system.windows import Frame, Window
from bmoca.sim.ui.theme import Theme, theme
from bmoca.sim.ui.view import Box, View

WALLPAPER_PATH = "/data/system/users/0/wallpaper"
SHADOW_CACHE_BYTES = 16 << 20
"""Shadows kept, in bytes: a shadow is as big as its surface (a card, a sheet, a dialog)."""
SHAPE_CACHE_BYTES = 16 << 20
"""Shape sprites kept, in bytes: a sprite is as big as its shape (an avatar, a card)."""


def _default_wallpaper(width: int, height: int) -> Image.Image:
    from bmoca.assets.wallpapers import generate

    return generate("00_default", width, height)


@byte_lru(SHADOW_CACHE_BYTES)
def elevation_shadow(width: int, height: int, radius: int, elevation_px: int
                     ) -> tuple[Image.Image, int, int]:
    """Material's shadow of a surface raised `elevation_px`: a soft key shadow below it
    and a faint ambient one around it (not a hard offset box); with its offset from the
    surface's top-left corner. Cached: the same FAB or card casts it every frame."""
    blur = max(1, elevation_px // 2)
    pad = blur * 2 + 1
    drop = max(1, elevation_px // 2)
    size = (max(1, width) + 2 * pad, max(1, height) + 2 * pad + drop)
    mask = Image.new("L", size, 0)
    draw = ImageDraw.Draw(mask)
    box = (pad, pad, pad + width - 1, pad + height - 1)
    draw.rounded_rectangle(box, radius, fill=24)  # ambient
    draw.rounded_rectangle((box[0], box[1] + drop, box[2], box[3] + drop), radius, fill=56)
    mask = mask.filter(ImageFilter.GaussianBlur(blur))
    sprite = Image.new("RGBA", size, (0, 0, 0, 0))
    sprite.putalpha(mask)
    return sprite, -pad, -pad


_LEVELS = Image.merge("RGB", [Image.frombytes("L", (256, 1), bytes(range(256)))] * 3)
"""Every byte value, once in each band."""


@byte_lru(SHAPE_CACHE_BYTES)
def shape_sprite(kind: str, width: int, height: int, radius: int, fill, outline) -> Image.Image:
    """An RGBA sprite of a rounded rectangle ("round") or an ellipse filling its box, drawn
    as the canvas draws it whole; cached (the same avatar or card scrolls past every edge)."""
    sprite = Image.new("RGBA", (max(1, width), max(1, height)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    box = (0, 0, width - 1, height - 1)
    if kind == "ellipse":
        draw.ellipse(box, fill=fill, outline=outline)
    else:
        draw.rounded_rectangle(box, radius, fill=fill, outline=outline)
    return sprite


@lru_cache(maxsize=64)  # 64 tables of 768 small ints: under 0.5 MB
def blend_table(color: tuple[int, int, int], alpha: int) -> list[int]:
    """`Image.blend(region, <color>, alpha / 255)` as a `point` table: blend works byte by
    byte, so blending each of the 256 values once gives exactly what it gives any region."""
    blended = Image.blend(_LEVELS, Image.new("RGB", _LEVELS.size, color), alpha / 255)
    return [value for band in blended.split() for value in band.tobytes()]


_SHADOWS: dict[tuple[int, int], tuple[Image.Image, Image.Image]] = {}
LABEL_SHADOWS_BYTES = 16 << 20
"""What `_SHADOWS` holds at most: each shadow and the sprite it keeps alive."""
_shadows_held = 0


def _shadow(sprite: Image.Image, radius: int) -> Image.Image:
    """A soft shadow of a (cached, shared) label sprite, cached alongside it."""
    key = (id(sprite), radius)
    hit = _SHADOWS.get(key)
    if hit is not None and hit[0] is sprite:
        return hit[1]
    alpha = sprite.getchannel("A").filter(ImageFilter.GaussianBlur(radius))
    shadow = Image.new("RGBA", sprite.size, (0, 0, 0, 0))
    shadow.putalpha(alpha.point(lambda a: a * 3 // 4))
    global _shadows_held
    size = 2 * approx_bytes(shadow)
    if len(_SHADOWS) > 512 or _shadows_held + size > LABEL_SHADOWS_BYTES:
        _SHADOWS.clear()
        _shadows_held = 0
    _SHADOWS[key] = (sprite, shadow)
    _shadows_held += size
    return shadow


class Canvas:
    """Drawing primitives clipped to a box, in screen pixels."""

    def __init__(self, image: Image.Image, scale: float, font_scale: float, theme: Theme,
                 locale: str, rtl: bool):
        self.image = image
        self.draw = ImageDraw.Draw(image, "RGBA")
        self.scale = scale
        self.font_scale = font_scale
        self.theme = theme
        self.locale = locale
        self.rtl = rtl

    def px(self, dp: float) -> int:
        return int(dp * self.scale + 0.5)

    @staticmethod
    def _clip(box: Box, clip: Box) -> Box | None:
        left, top = max(box[0], clip[0]), max(box[1], clip[1])
        right, bottom = min(box[2], clip[2]), min(box[3], clip[3])
        if right <= left or bottom <= top:
            return None
        return left, top, right, bottom

    def rect(self, box: Box, color, clip: Box) -> None:
        box = self._clip(box, clip)
        if box:
            self._fill(box, color)

    def _fill(self, box: Box, color) -> None:
        """Opaque fills are a memset; translucent ones map every byte of the region through
        the table of what blending it with the colour gives (a scrim over the whole screen
        cost 10 ms as a blend with a full-size overlay, 4 ms as a table)."""
        alpha = color[3] if len(color) == 4 else 255
        if alpha >= 255:
            self.image.paste(tuple(color[:3]), box)
        elif alpha > 0:
            table = blend_table(tuple(color[:3]), alpha)
            if tuple(box) == (0, 0, *self.image.size):
                self.image.paste(self.image.point(table))
            else:
                self.image.paste(self.image.crop(box).point(table), box)

    def round_rect(self, box: Box, radius: int, color, clip: Box, outline=None) -> None:
        inside = self._clip(box, clip)
        if not inside:
            return
        if radius <= 0:
            if outline is None:
                self._fill(inside, color)
            else:
                self.draw.rectangle((inside[0], inside[1], inside[2] - 1, inside[3] - 1),
                                    fill=color, outline=outline)
            return
        if inside != tuple(box):
            self._clipped_shape(box, inside, "round", radius, color, outline)
            return
        self.draw.rounded_rectangle((box[0], box[1], box[2] - 1, box[3] - 1), radius, fill=color,
                                    outline=outline)

    def ellipse(self, box: Box, color, clip: Box) -> None:
        inside = self._clip(box, clip)
        if inside == tuple(box):
            self.draw.ellipse((box[0], box[1], box[2] - 1, box[3] - 1), fill=color)
        elif inside:
            self._clipped_shape(box, inside, "ellipse", 0, color, None)

    def _clipped_shape(self, box: Box, inside: Box, kind: str, radius: int, fill,
                       outline) -> None:
        """A rounded shape partly outside its clip (a scrolled list's edge, the screen's):
        the visible part of the shape itself, as Android's canvas clips the drawn outline,
        never the clip rectangle filled square."""
        sprite = shape_sprite(kind, box[2] - box[0], box[3] - box[1], radius,
                              None if fill is None else tuple(fill),
                              None if outline is None else tuple(outline))
        self.paste(sprite, box[0], box[1], inside)

    def paste(self, sprite: Image.Image, x: int, y: int, clip: Box) -> None:
        box = (x, y, x + sprite.width, y + sprite.height)
        inside = self._clip(box, clip)
        if not inside:
            return
        if inside != box:
            sprite = sprite.crop((inside[0] - x, inside[1] - y, inside[2] - x, inside[3] - y))
        mask = sprite if sprite.mode in ("RGBA", "LA", "L") else None
        self.image.paste(sprite, (inside[0], inside[1]), mask)


def _phone_ltr(view: View) -> str | None:
    """TextView.getTextDirectionHeuristic: phone-number fields are left to right (with Latin
    digits), whatever the locale."""
    return "ltr" if view.input_type == "phone" else None


def _px(dp: float, scale: float) -> int:
    return int(dp * scale + 0.5)


def app_icon_top(view: View, scale: float) -> tuple[int, int | None]:
    """Where a launcher-style view draws its app icon, and the top of its label (None when
    it has no label): shared by the painter and the layout checks."""
    left, top, right, bottom = view.bounds
    size = _px(view.icon_size, scale)
    if view.text:
        y = top + max(0, (bottom - top - size - _px(24, scale)) // 2)
        return y, y + size + _px(6, scale)
    return (top + bottom - size) // 2, None


def place_text(view: View, shown: str, color, scale: float, font_scale: float, locale: str,
               rtl: bool, top: int | None = None) -> tuple[Image.Image, int, int]:
    """The sprite of a view's text and where it is pasted: the one place that decides it,
    so the layout checks measure exactly what the painter draws."""
    renderer = get_text_renderer()
    left, vtop, right, bottom = view.bounds
    pl, pt, pr, pb = (_px(p, scale) for p in view.padding)
    if rtl:
        pl, pr = pr, pl
    box_w = max(1, right - left - pl - pr)
    size = int(view.text_size * scale * font_scale + 0.5)
    if view.min_text_size:
        inner = bottom - vtop - pt - pb
        floor = int(view.min_text_size * scale * font_scale + 0.5)
        while size > floor and renderer.measure(shown, size, view.font_weight, locale,
                                                view.include_font_padding)[1] > inner:
            size -= 1
    sprite = renderer.label(shown, size, color, view.font_weight, locale,
                            max_width=box_w, max_lines=view.max_lines, align=view.align,
                            direction=view.text_direction or _phone_ltr(view),
                            include_pad=view.include_font_padding)
    # Gravity start/end is Layout.Alignment.ALIGN_NORMAL/OPPOSITE: relative to the
    # paragraph's direction, so a view whose textDirection is set (an English article, a
    # phone number) aligns by it whatever the UI's direction
    para_rtl = rtl if view.text_direction is None else view.text_direction == "rtl"
    if view.align == "center":
        x = left + pl + (box_w - sprite.width) // 2
    elif (view.align == "end") != para_rtl:
        x = right - pr - sprite.width
    else:
        x = left + pl
    if top is None:
        inner = bottom - vtop - pt - pb
        top = vtop + pt + max(0, (inner - sprite.height) // 2)
    return sprite, x, top


class Painter:
    @staticmethod
    def inputs(system: SystemServer, frame: Frame) -> tuple:
        """Everything `paint` reads besides the windows (their kinds, boxes and dims, and
        the trees their keys stand for): windows with the same keys and the same inputs
        are painted the same, byte for byte, whatever else in the state differs. Keep it
        in step with `paint`, `_view` and `_wallpaper`."""
        app = frame.window("app")
        activity = app.record.activity if app is not None and app.record else None
        bars = None if activity is None else (
            activity.status_bar_color(system.night_mode), activity.bar_color,
            activity.fullscreen)
        vfs = system.state.vfs
        wallpaper = vfs.read(WALLPAPER_PATH) if vfs.exists(WALLPAPER_PATH) else None
        layout = frame.layout
        return (system.night_mode, system.locale, layout.scale, layout.font_scale, layout.rtl,
                app is not None, bars, system.state.clock.datetime().day, wallpaper)

    def paint(self, system: SystemServer, frame: Frame, size: tuple[int, int]) -> Image.Image:
        width, height = size
        th = theme(system.night_mode)
        layout = frame.layout
        image = Image.new("RGB", (width, height), th.background)
        canvas = Canvas(image, layout.scale, layout.font_scale, th, system.locale, layout.rtl)
        self._system = system
        for window in frame.windows:
            if window.dim:  # a dialog's or the notification shade's scrim
                canvas.rect((0, 0, width, height), th.scrim, (0, 0, width, height))
            if window.kind == "status_bar":
                app = frame.window("app")
                activity = app.record.activity if app is not None and app.record else None
                status = (activity.status_bar_color(system.night_mode)
                          if activity is not None else None)
                if activity is not None and activity.bar_color is not None:
                    canvas.rect(window.box, activity.bar_color, window.box)
                elif status is not None:
                    canvas.rect(window.box, status, window.box)
                elif app is not None and not (activity and activity.fullscreen):
                    canvas.rect(window.box, th.background, window.box)
                # a fullscreen activity (the launcher) shows through a transparent bar
                dialog = frame.window("dialog")
                if dialog is not None and dialog.dim:  # the app's bar colour is under the dim
                    canvas.rect(window.box, th.scrim, window.box)
            self._window(canvas, window)
        return image

    def _window(self, canvas: Canvas, window: Window) -> None:
        stack = [(window.root, window.box)]
        while stack:
            view, clip = stack.pop()
            if not view.visible:
                continue
            vis = view.clip
            if vis[2] <= vis[0] or vis[3] <= vis[1]:
                continue
            self._view(canvas, view, clip)
            child_clip = vis if view.scrollable else clip
            for child in reversed(view.children):
                stack.append((child, child_clip))

    def _view(self, canvas: Canvas, view: View, clip: Box) -> None:
        th = canvas.theme
        bounds = view.bounds
        corner = canvas.px(view.corner)
        if view.image == "wallpaper":
            self._wallpaper(canvas, clip)
        if view.elevation and view.bg is not None:
            sprite, dx, dy = elevation_shadow(bounds[2] - bounds[0], bounds[3] - bounds[1],
                                              corner, canvas.px(min(view.elevation, 24)))
            canvas.paste(sprite, bounds[0] + dx, bounds[1] + dy, clip)
        if view.bg is not None:
            canvas.round_rect(bounds, corner, view.bg, clip)
        if view.border is not None:
            canvas.round_rect(bounds, corner, None, clip, outline=view.border)
        if view.draw is not None:
            view.draw(canvas, view)
            return
        label_top = None
        if view.image and view.image.startswith("app:"):
            size = canvas.px(view.icon_size)
            sprite = app_icons.app_icon(view.image[4:], size,
                                        self._system.state.clock.datetime().day)
            x = (bounds[0] + bounds[2] - size) // 2
            y, label_top = app_icon_top(view, canvas.scale)
            canvas.paste(sprite, x, y, clip)
        if view.icon:
            size = canvas.px(view.icon_size)
            color = view.icon_color or th.icon
            sprite = icons.icon(view.icon, size, color, filled=view.icon_filled)
            if canvas.rtl and view.icon in _MIRRORED_ICONS:
                sprite = sprite.transpose(Image.FLIP_LEFT_RIGHT)
            canvas.paste(sprite, (bounds[0] + bounds[2] - size) // 2,
                         (bounds[1] + bounds[3] - size) // 2, clip)
        shown = view.text
        color = view.text_color or th.text
        if not shown and view.hint and view.on_text is not None:
            shown, color = view.hint, th.text_secondary
        if shown and not (len(color) == 4 and color[3] == 0):
            self._text(canvas, view, shown, color, clip, label_top)
        if view.on_text is not None and view.focused:
            y = bounds[3] - canvas.px(2)
            canvas.rect((bounds[0], y, bounds[2], bounds[3]), th.accent, clip)

    def _text(self, canvas: Canvas, view: View, shown: str, color, clip: Box, top) -> None:
        sprite, x, top = place_text(view, shown, color, canvas.scale, canvas.font_scale,
                                    canvas.locale, canvas.rtl, top)
        if view.elevation and view.bg is None:
            canvas.paste(_shadow(sprite, max(1, canvas.px(1.5))), x, top + canvas.px(1), clip)
        canvas.paste(sprite, x, top, clip)

    def _wallpaper(self, canvas: Canvas, clip: Box) -> None:
        size = canvas.image.size
        vfs = self._system.state.vfs
        if vfs.exists(WALLPAPER_PATH):
            try:
                blob = vfs.read(WALLPAPER_PATH)
                with WALLPAPERS.shown(("file", blob), size, lambda: decode(blob, *size),
                                      lambda: _stored(("file", blob), size)) as image:
                    canvas.paste(image, 0, 0, clip)
                return
            except (OSError, ValueError):
                pass  # an unreadable wallpaper file: Android shows the default one
        with WALLPAPERS.shown(("default",), size, lambda: _default_wallpaper(*size),
                              lambda: _stored(("default",), size)) as image:
            canvas.paste(image, 0, 0, clip)


def _stored(key: tuple, size: tuple[int, int]) -> Path | None:
    """The asset cache's file for a wallpaper's compressed pixels at `size`: named by the
    file's digest (or the default one's name), so a new process inflates what an earlier
    one decoded."""
    name = [key[0], hashlib.sha256(key[1]).hexdigest()] if len(key) > 1 else [key[0]]
    return disk_cache.entry("wallpaper_pixels", (*name, *size))


_MIRRORED_ICONS = frozenset({"arrow_back", "arrow_forward", "arrow_left", "backspace",
                             "navigate_next", "navigate_before", "chevron_right", "chevron_left"})
