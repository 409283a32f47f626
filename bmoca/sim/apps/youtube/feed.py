"""YouTube's Home feed (2020-21): the videos (our own), their cards, and the grid.

A card is the video's 16:9 thumbnail across the card's width with the duration in a dark
badge at its bottom end, then a row of the channel's round avatar, the title (up to two
lines) over "Channel · 1.2M views · 3 weeks ago", and the ⋮ action menu. A phone shows one
card a row; a tablet (sw600dp) a grid of cards about 360 dp wide (three across a 1200 dp
landscape tablet, two in portrait), as the app's large-screen layout does.

View counts are shortened as YouTube does in each language (1.2M, 845K; 120万 in Japanese,
Chinese and Korean, which count in ten-thousands). Ages are 3 or 4 of a unit, so one plural
form of each language's string serves every video.
"""

from __future__ import annotations

from dataclasses import dataclass

from bmoca.formats.locales import native_digits
from bmoca.sim.apps.base import Context
from bmoca.sim.render.scenes import scene_painter
from bmoca.sim.ui.view import MATCH, View, column, frame, icon, row, text

PACKAGE = "com.google.android.youtube"
CARD_DP = 360.0
"""About how wide a tablet's cards are."""


@dataclass(frozen=True)
class Video:
    title: str
    channel: str
    duration: str
    views: int
    age: tuple[int, str]
    """(3 or 4, "days" / "weeks" / "months" / "years")."""
    color: tuple[int, int, int]
    """The channel's avatar colour."""
    seed: int
    """The thumbnail's scene (`bmoca.sim.render.scenes`)."""


VIDEOS = (
    Video("Morning stretch in 10 minutes", "Daily Motion", "12:04", 1_200_000, (3, "weeks"),
          (229, 115, 115), 11),
    Video("How to bake sourdough bread", "Home Kitchen", "18:30", 845_000, (4, "months"),
          (255, 167, 38), 23),
    Video("Exploring tide pools", "Coast Notes", "9:47", 56_000, (3, "days"),
          (79, 195, 247), 37),
    Video("Beginner guitar: first chords", "String Lab", "14:12", 2_300_000, (3, "years"),
          (102, 187, 106), 41),
    Video("A walk through the old town at night", "City Strolls", "42:18", 310_000,
          (4, "weeks"), (149, 117, 205), 58),
    Video("Mountain sunrise timelapse", "Slow Skies", "3:25", 12_000, (4, "days"),
          (77, 182, 172), 64),
)
"""The feed, our own videos."""


def yid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def palette(ctx: Context) -> tuple:
    """(background, text, secondary)."""
    if ctx.theme.dark:
        return (24, 24, 24), (241, 241, 241), (170, 170, 170)
    return (255, 255, 255), (15, 15, 15), (96, 96, 96)


def compact(ctx: Context, n: int) -> str:
    """A count shortened as YouTube shows it: one decimal under ten units, else whole."""
    base = int(ctx.t("youtube.compact.base"))
    if n < base:
        return native_digits(ctx.locale, str(n))
    key, unit = ("large", base * base) if n >= base * base else ("small", base)
    value = n / unit
    shown = f"{value:.1f}".rstrip("0").rstrip(".") if value < 10 else str(int(value))
    shown = native_digits(ctx.locale, shown.replace(".", ctx.t("youtube.compact.decimal")))
    return ctx.t(f"youtube.compact.{key}", n=shown)


def details(ctx: Context, video: Video) -> str:
    """"Channel · 1.2M views · 3 weeks ago"."""
    count, unit = video.age
    return ctx.t("youtube.meta", channel=video.channel,
                 views=ctx.t("youtube.views", n=compact(ctx, video.views)),
                 age=ctx.t(f"youtube.ago.{unit}", n=native_digits(ctx.locale, str(count))))


def columns(ctx: Context) -> int:
    """Cards a row: one on a phone, one per about 360 dp (at least two) on a tablet."""
    if not ctx.system.sw600dp:
        return 1
    return max(2, int(ctx.system.screen_dp()[0] // CARD_DP))


def card(ctx: Context, video: Video, width: float, on_click=None) -> View:
    """One video: thumbnail, avatar, title and details, the action menu."""
    _, fg, dim = palette(ctx)
    badge = text(video.duration, text_size=12, font_weight=500, text_color=(255, 255, 255),
                 bg=(0, 0, 0, 204), corner=2, padding=(4, 1, 4, 1), gravity="end|bottom",
                 margin=(4, 4, 4, 4), text_direction="ltr", id=yid("duration"))
    thumb = frame(frame(width=MATCH, height=MATCH, draw=scene_painter(video.seed), cls=""),
                  badge, width=MATCH, height=round(width * 9 / 16, 1), bg=(40, 40, 40),
                  id=yid("thumbnail"), cls="android.widget.ImageView")
    avatar = frame(text(video.channel[:1], text_size=16, font_weight=500,
                        text_color=(255, 255, 255), gravity="center"),
                   width=36, height=36, corner=18, bg=video.color, id=yid("channel_avatar"),
                   desc=video.channel, cls="android.widget.ImageView", gravity="top",
                   margin=(12, 12, 12, 0))
    words = column(text(video.title, text_size=14, text_color=fg, max_lines=2, width=MATCH,
                        id=yid("title")),
                   text(details(ctx, video), text_size=12, text_color=dim, max_lines=2,
                        width=MATCH, margin=(0, 4, 0, 0), id=yid("details")),
                   width=0, weight=1, margin=(0, 12, 0, 12))
    menu = frame(icon("more_vert", 20, icon_color=fg, cls="", gravity="center"),
                 width=40, height=40, desc=ctx.t("youtube.action_menu"), clickable=True,
                 cls="android.widget.ImageView", gravity="top", margin=(0, 4, 0, 0))
    return column(thumb, row(avatar, words, menu, gravity="top"), width=width,
                  clickable=True, on_click=on_click, cls="android.view.ViewGroup",
                  desc=f"{video.title} - {video.duration}")


def cards(ctx: Context, videos: list[Video]) -> list[View]:
    """The feed's rows: one card each on a phone, `columns` cards a row on a tablet."""
    count = columns(ctx)
    if count == 1:
        width = ctx.system.screen_dp()[0]
        return [card(ctx, v, width) for v in videos]
    gap = 16.0
    width = (ctx.system.screen_dp()[0] - 2 * gap - gap * (count - 1)) / count
    return [row(*[card(ctx, v, width) for v in videos[i:i + count]], spacing=gap,
                padding=(gap, gap, gap, 0), gravity="top")
            for i in range(0, len(videos), count)]
