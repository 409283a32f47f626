"""Wikipedia's state: its preferences in `shared_prefs/org.wikipedia_preferences.xml`
under the app's real keys and encodings, the Explore feed's card types in their enum
order, and a few articles of our own for Search and the article page (no network)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bmoca.formats import shared_prefs
from bmoca.sim.apps.base import Context
from bmoca.sim.system.vfs import FsError
from bmoca.sim.ui.view import Color

PACKAGE = "org.wikipedia"
PREFS_PATH = f"/data/data/{PACKAGE}/shared_prefs/{PACKAGE}_preferences.xml"
FEED_ENABLED = "feedCardsEnabled"
FEED_ORDER = "feedCardsOrder"
TEXT_SIZE = "textSizeMultiplier"
LINK_PREVIEWS = "showLinkPreviews"
THEME = "currentTheme"
CARDS = ("featured_article", "top_read", "picture_of_the_day", "because_you_read",
         "in_the_news", "on_this_day", "randomizer", "today_on_wikipedia", "suggested_edits",
         "accessibility")
"""FeedContentType in enum order: the index of each entry of `feedCardsEnabled`."""
CONFIGURABLE = 8
"""Customize the feed lists the first eight: Suggested edits is not unlocked without an
account, and the accessibility card is never listed."""
TEXT_SIZE_MIN, TEXT_SIZE_MAX = -5, 8
"""textSizeMultiplier steps of 10 %: 50 % to 180 %."""
THEMES = ("light", "sepia", "dark", "black")
THEME_IDS = {"light": 0, "dark": 1, "black": 2, "sepia": 3}
"""Theme.marshallingId, stored as the int `currentTheme`."""
INITIAL = {"initialOnboardingEnabled": False, "appInstallId": "b-moca-0000-0000-wikipedia",
           "announcementShownDialogs": "[]"}
"""What the image's one run (onboarding skipped, the announcement dismissed) left."""


def wid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


@dataclass
class WikipediaData:
    prefs: dict[str, shared_prefs.Value] = field(default_factory=dict)

    def cards(self) -> list[bool]:
        stored = self.prefs.get(FEED_ENABLED)
        if isinstance(stored, str):
            values = stored.strip("[]").split(",")
            if len(values) == len(CARDS) and all(v in ("true", "false") for v in values):
                return [v == "true" for v in values]
        return [True] * len(CARDS)

    def text_size(self) -> int:
        value = self.prefs.get(TEXT_SIZE, 0)
        return value if isinstance(value, int) else 0

    def link_previews(self) -> bool:
        return self.prefs.get(LINK_PREVIEWS, True) is not False


def load(ctx: Context) -> None:
    """Read the prefs file at every start; the image's first run writes it."""
    vfs = ctx.system.state.vfs
    try:
        raw = vfs.read(PREFS_PATH)
    except FsError:
        ctx.data.prefs = dict(INITIAL)
        vfs.write(PREFS_PATH, shared_prefs.dump(ctx.data.prefs))
        return
    parsed = shared_prefs.parse(raw)
    if not parsed and raw.strip():
        ctx.log("E", "SharedPreferencesImpl", f"Cannot read {PREFS_PATH}")
    ctx.data.prefs = parsed


def put(ctx: Context, **values: shared_prefs.Value) -> None:
    """SharedPreferences.Editor.apply(): the entries, then the whole file, written once;
    `feedCardsEnabled` stays the map's last entry, as B-MoCA's evaluator (which reads the
    last child of `<map>`) found it on the phone."""
    prefs = ctx.data.prefs
    prefs.update(values)
    if FEED_ENABLED in prefs:
        prefs[FEED_ENABLED] = prefs.pop(FEED_ENABLED)
    ctx.system.state.vfs.write(PREFS_PATH, shared_prefs.dump(prefs))


def set_cards(ctx: Context, cards: list[bool]) -> None:
    """FeedContentType.saveState(): one flag per content type in enum order, the listed
    and the unlisted (Suggested edits, the accessibility card) alike, as a JSON list."""
    put(ctx, **{FEED_ORDER: "[" + ",".join(str(i) for i in range(len(CARDS))) + "]",
                FEED_ENABLED: "[" + ",".join("true" if c else "false" for c in cards) + "]"})


def set_card(ctx: Context, index: int, enabled: bool) -> None:
    cards = ctx.data.cards()
    cards[index] = enabled
    set_cards(ctx, cards)


@dataclass(frozen=True)
class Article:
    title: str
    description: str
    text: tuple[str, ...]


ARTICLES = (
    Article("Earth", "Third planet from the Sun", (
        "Earth is the third planet from the Sun and the only astronomical object known to "
        "harbor life.",
        "About 71 percent of Earth's surface is covered with water, mostly by oceans.")),
    Article("Colosseum", "Ancient amphitheatre in Rome, Italy", (
        "The Colosseum is an elliptical amphitheatre in the centre of the city of Rome.",
        "Built of travertine limestone, tuff, and brick-faced concrete, it was the largest "
        "amphitheatre ever built at the time.")),
    Article("Android 10", "Tenth major version of the Android operating system", (
        "Android 10 is the tenth major release of the Android mobile operating system.",
        "It was released publicly on September 3, 2019.")),
    Article("Wikipedia", "Free online encyclopedia", (
        "Wikipedia is a free-content online encyclopedia written and maintained by a "
        "community of volunteers.",)),
)


def search(query: str) -> list[Article]:
    q = query.strip().casefold()
    return [a for a in ARTICLES if q and q in (a.title + " " + a.description).casefold()]


@dataclass(frozen=True)
class Colors:
    background: Color
    surface: Color
    text: Color
    secondary: Color
    accent: Color
    divider: Color


def colors(ctx: Context) -> Colors:
    """The app's Light theme, or Dark when the phone is dark or the user chose Dark/Black."""
    chosen = ctx.data.prefs.get(THEME)
    dark = chosen in (1, 2) or (chosen is None and ctx.theme.dark)
    if dark:
        return Colors(background=(16, 16, 16) if chosen == 2 else (32, 33, 34),
                      surface=(39, 41, 45), text=(234, 236, 240), secondary=(162, 169, 177),
                      accent=(105, 145, 255), divider=(84, 89, 93))
    return Colors(background=(255, 255, 255), surface=(248, 249, 250), text=(32, 33, 34),
                  secondary=(84, 89, 93), accent=(51, 102, 204), divider=(234, 236, 240))
