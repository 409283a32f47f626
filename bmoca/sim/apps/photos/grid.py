"""The Photos tab's grid: the images on the storage, newest first, under date headers.

Google Photos (2020-21) shows its main grid as square thumbnails about 2 dp apart, grouped
by the day they were taken under headers "Today", "Yesterday", "Sat, Nov 14" (with the year
for earlier years); a phone shows three columns at the default zoom, a tablet more
(`columns`). The date is the one in the file's name (the camera's `IMG_yyyyMMdd_...`, the
`Screenshot_yyyyMMdd-...` of screenshots), as the EXIF date of such a shot would be; a file
whose name carries none (the image B-MoCA's build pushes) counts as written at boot, today.
"""

from __future__ import annotations

import datetime as dt
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from bmoca.formats.locales import native_digits
from bmoca.formats.weekdays import week
from bmoca.sim.apps.base import Context
from bmoca.sim.render.scenes import photo_painter
from bmoca.sim.ui.view import MATCH, View, frame, row, scroller, text

PACKAGE = "com.google.android.apps.photos"
FOLDERS = ("/storage/emulated/0/DCIM", "/storage/emulated/0/Pictures")
IMAGE_EXT = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".heic")
GAP_DP = 2.0
"""Space between two thumbnails."""
TABLET_TILE_DP = 190.0
"""About how wide a tablet's thumbnails are: 6 columns across a 1200 dp landscape tablet,
4 in portrait."""
_DATE_IN_NAME = re.compile(r"(?<!\d)(20\d{2}|19\d{2})(\d{2})(\d{2})(?:[_-](\d{2})(\d{2})(\d{2}))?")


def pid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def palette(ctx: Context) -> tuple:
    """(background, text, secondary)."""
    if ctx.theme.dark:
        return (32, 33, 36), (232, 234, 237), (154, 160, 166)
    return (255, 255, 255), (32, 33, 36), (95, 99, 104)


def images_in(ctx: Context, folder: str) -> list[str]:
    """Image files directly in `folder`, sorted by name."""
    vfs = ctx.system.state.vfs
    if not vfs.is_dir(folder):
        return []
    return sorted(f"{folder}/{n}" for n in vfs.listdir(folder)
                  if n.lower().endswith(IMAGE_EXT) and not vfs.is_dir(f"{folder}/{n}"))


def media(ctx: Context) -> list[str]:
    """Image paths under DCIM and Pictures (one level of sub-folders), sorted by path."""
    vfs = ctx.system.state.vfs
    found = []
    for folder in FOLDERS:
        if not vfs.is_dir(folder):
            continue
        found += images_in(ctx, folder)
        for name in vfs.listdir(folder):
            if vfs.is_dir(f"{folder}/{name}"):
                found += images_in(ctx, f"{folder}/{name}")
    return sorted(found)


def taken(ctx: Context, path: str) -> dt.datetime:
    """When the photo was taken: the date and time its name gives, else today at midnight."""
    match = _DATE_IN_NAME.search(path.rsplit("/", 1)[-1])
    if match:
        year, month, day, hour, minute, second = (int(g) if g else 0 for g in match.groups())
        try:
            return dt.datetime(year, month, day, min(hour, 23), min(minute, 59), min(second, 59))
        except ValueError:
            pass
    return dt.datetime.combine(ctx.today(), dt.time())


def date_header(ctx: Context, day: dt.date) -> str:
    """"Today", "Yesterday", "Sat, Nov 14", or with the year before this one."""
    today = ctx.today()
    if day == today:
        return ctx.t("photos.today")
    if day == today - dt.timedelta(days=1):
        return ctx.t("photos.yesterday")
    shown = ctx.t("format.glance_date", weekday=week(ctx.locale).short[day.weekday()],
                  month=ctx.t(f"date.month_short.{day.month}"),
                  day=native_digits(ctx.locale, str(day.day)))
    if day.year != today.year:
        shown = ctx.t("photos.date_year", date=shown,
                      year=native_digits(ctx.locale, str(day.year)))
    return shown


def columns(ctx: Context) -> int:
    """Thumbnails a row: three on a phone, about one per 190 dp on a tablet (sw600dp)."""
    if not ctx.system.sw600dp:
        return 3
    return max(4, int(ctx.system.screen_dp()[0] // TABLET_TILE_DP))


def tile_size(ctx: Context, count: int) -> float:
    """The side of a square thumbnail when `count` share the screen's width."""
    return (ctx.system.screen_dp()[0] - GAP_DP * (count - 1)) / count


@dataclass(frozen=True)
class Day:
    header: str
    paths: tuple[str, ...]


def days(ctx: Context, paths: list[str]) -> list[Day]:
    """The photos grouped by the day they were taken, newest day and photo first."""
    ordered = sorted(paths, key=lambda p: (taken(ctx, p), p), reverse=True)
    out: list[Day] = []
    for path in ordered:
        header = date_header(ctx, taken(ctx, path).date())
        if out and out[-1].header == header:
            out[-1] = Day(header, (*out[-1].paths, path))
        else:
            out.append(Day(header, (path,)))
    return out


def seed(path: str) -> int:
    return zlib.crc32(path.encode())


def thumbnail(ctx: Context, path: str, size: float, **kw) -> View:
    """A square photo thumbnail: the file's picture, or a scene for a file with none."""
    return frame(width=size, height=size, bg=(200, 200, 200),
                 draw=photo_painter(ctx.system.state.vfs, path, seed(path)),
                 cls="android.widget.ImageView", **kw)


def grid(ctx: Context, paths: list[str], tile: Callable[[str, float], View]) -> View:
    """The scrolling grid: per day, its header and rows of `columns` square tiles."""
    _, fg, _ = palette(ctx)
    count = columns(ctx)
    size = tile_size(ctx, count)
    children: list[View] = []
    for day in days(ctx, paths):
        children.append(text(day.header, text_size=14, font_weight=500, text_color=fg,
                             width=MATCH, padding=(16, 20, 16, 12), id=pid("date_header"),
                             gravity="start|center_vertical"))
        for i in range(0, len(day.paths), count):
            chunk = day.paths[i:i + count]
            children.append(row(*[tile(p, size) for p in chunk], spacing=GAP_DP,
                                margin=(0, 0, 0, GAP_DP), height=size))
    return scroller(*children, key="grid",
                    cls="androidx.recyclerview.widget.RecyclerView", id=pid("recycler_view"),
                    width=MATCH, height=MATCH)
