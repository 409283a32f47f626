"""Made-up accounts and posts, and their pictures drawn from colours (no images are
downloaded or shipped): a picture is a sky, a ground and a symbol, chosen per post."""

from __future__ import annotations

from dataclasses import dataclass

from bmoca.sim.ui.view import MATCH, View, column, frame, icon

ME = "bmoca.tester"
MY_NAME = "B-MoCA Tester"
MY_BIO = "Trying out apps on a simulated phone"
MY_COUNTS = (6, 128, 87)  # posts, followers, following


@dataclass(frozen=True)
class Post:
    author: str
    caption: str
    likes: int
    sky: tuple[int, int, int]
    ground: tuple[int, int, int]
    symbol: str


FEED = (
    Post("lena.paints", "Morning light over the harbour", 214, (255, 183, 77), (38, 70, 83),
         "sailing"),
    Post("kofi.trails", "12 km before breakfast", 98, (129, 212, 250), (85, 139, 47),
         "directions_run"),
    Post("mika.bakes", "Sourdough, attempt #41", 356, (255, 224, 178), (121, 85, 72),
         "bakery_dining"),
    Post("urban.birds", "A heron on the canal today", 77, (176, 190, 197), (69, 90, 100),
         "flutter_dash"),
)

STORIES = ("lena.paints", "kofi.trails", "mika.bakes", "urban.birds", "nadia.films")

REELS = (
    Post("nadia.films", "Timelapse: clouds over the ridge", 1204, (63, 81, 181), (26, 35, 126),
         "cloud"),
    Post("kofi.trails", "Trail running in the rain", 533, (96, 125, 139), (46, 125, 50),
         "landscape"),
)

EXPLORE = tuple(
    Post(f"explore_{i}", "", 0, sky, ground, symbol)
    for i, (sky, ground, symbol) in enumerate([
        ((255, 138, 101), (93, 64, 55), "local_cafe"), ((129, 199, 132), (27, 94, 32), "park"),
        ((100, 181, 246), (13, 71, 161), "pool"), ((240, 98, 146), (136, 14, 79), "local_florist"),
        ((255, 213, 79), (245, 127, 23), "wb_sunny"), ((149, 117, 205), (49, 27, 146), "nightlife"),
        ((77, 208, 225), (0, 96, 100), "kayaking"), ((174, 213, 129), (51, 105, 30), "hiking"),
        ((255, 171, 145), (191, 54, 12), "ramen_dining"), ((144, 164, 174), (38, 50, 56), "train"),
        ((206, 147, 216), (74, 20, 140), "music_note"), ((255, 241, 118), (130, 119, 23), "pets"),
    ]))

MINE = EXPLORE[:MY_COUNTS[0]]


def avatar_color(name: str) -> tuple[int, int, int]:
    palette = ((239, 83, 80), (171, 71, 188), (92, 107, 192), (38, 166, 154), (255, 167, 38),
               (141, 110, 99))
    return palette[sum(map(ord, name)) % len(palette)]


def picture(post: Post, height: float = MATCH, width: float = MATCH, **kw) -> View:
    """The post's picture: sky over ground, with its symbol where they meet."""
    return frame(column(frame(width=MATCH, height=0, weight=3, bg=post.sky),
                        frame(width=MATCH, height=0, weight=2, bg=post.ground),
                        width=MATCH, height=MATCH),
                 icon(post.symbol, 56, icon_color=(255, 255, 255), gravity="center"),
                 cls="android.widget.ImageView", orientation="z", width=width, height=height,
                 **kw)
