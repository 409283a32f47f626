"""Regenerate docs/fidelity.md: the simulator's screens beside real Android 10 screenshots.

    python tools/fidelity_gallery.py            # writes docs/fidelity.md and docs/fidelity/*.png

For a fixed set of screens x configurations it takes the simulator's screenshot (through
the same steps an agent or `bmoca screenshot` uses), puts the matching crop of
`../shared/reference/real_android10_screens.png` beside it where the reference has that
screen, runs the layout checks on each screen, and ends with the list of known
differences. Images are small palette PNGs so the page stays a few hundred kilobytes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT.parent / "shared" / "reference" / "real_android10_screens.png"
_reference = REFERENCE
"""The figure in use (`--reference` names another place, e.g. from a git worktree)."""
PHONE_WIDTH = 216
"""Gallery width of a phone screenshot (a fifth of 1080 px)."""
TABLET_WIDTH = 400

CONFIGS = (
    ("train_env_000", "Pixel 3, 330 dpi, font 1.15, en-US, light, default wallpaper"),
    ("train_env_011", "Pixel 3, 440 dpi, en-US, dark theme"),
    ("test_env_108", "Pixel 6, 700 dpi, font 0.85, ur-PK (Urdu, right to left), dark"),
    ("test_env_109", "WXGA tablet 1200x800, 160 dpi, ar-EG (Arabic), light"),
)
SCREENS = ("home", "drawer", "settings", "battery", "calculator", "deskclock", "contacts")

REFERENCE_CROPS = {
    # (config, screen) -> box of the matching shot in the reference figure (775x525)
    ("train_env_000", "home"): (16, 4, 138, 257),
    ("train_env_011", "drawer"): (316, 4, 437, 257),
    ("train_env_011", "battery"): (615, 4, 736, 257),
    ("train_env_000", "contacts"): (166, 270, 288, 521),
    ("train_env_011", "settings"): (464, 270, 586, 521),
}
"""The reference figure's five non-home shots (and its default-wallpaper home) by what they
show; its other four homes differ from these only in wallpaper."""

CLI = {
    "home": "",
    "drawer": " --swipe-up",
    "settings": " --open com.android.settings/.Settings",
    "battery": ' --open com.android.settings/.Settings --tap "id=android:id/title#3"',
    "calculator": " --open com.google.android.calculator",
    "deskclock": " --open com.google.android.deskclock",
    "contacts": " --open com.android.contacts",
}
"""The same screens with `bmoca screenshot --config ID --out shot.png` and these flags."""

EXTRA = (("train_env_014", "home", "Canyon wallpaper (dark, en-US): no seams"),)

APP_BEFORE_AFTER = (
    ("youtube", "YouTube's home: the logo, cast / notifications / search / account, 16:9 "
     "thumbnails with the duration, channel avatars, views and age, the five pivot tabs; "
     "a grid of cards on the tablet"),
    ("youtube_search", "YouTube's search, 'guitar' typed: a page of suggestions (↖ puts "
     "one in the field) instead of the filtered feed"),
    ("photos_days", "Photos with camera shots of three days: date headers over square "
     "thumbnails, three a row on a phone, six on the tablet; the Google Photos logo bar"),
    ("photos_library", "Photos' Library: Favorites, Utilities, Archive, Trash; Photos on "
     "device with each folder's newest picture; Albums (New album: no account, no albums)"),
)
"""Issue 32's YouTube and Photos screens (`bmoca.sim.screens`), beside how they looked
before: `fidelity/before/`, drawn by the simulator at commit 35375c2 and kept as files."""

MAPS_BEFORE_AFTER = (
    ("maps", "Maps' Explore: a drawn street map of Mountain View around the blue dot "
     "(streets of three widths, US-101 in yellow, parks, the creek and the lake, street "
     "names along the streets, places with their kind's icon and name), the 'Search here' "
     "bar with the Maps pin, microphone and avatar, the category chips, the layers, "
     "my-location and directions buttons, 'Latest in Mountain View' and the five 2020 tabs; "
     "on the tablet the search card sits at the start edge with the chips beside it"),
    ("maps_search", "Maps' search page (before: 'coffee' typed over the map; now the "
     "empty field): Home, Work and the category shortcuts on a page of their own, the map "
     "gone on a phone, beside a start-edge panel on the tablet"),
)
"""Issue 32's Maps screens beside the simulator at commit 9c04b2a (`fidelity/before/`)."""
BEFORE_CONFIGS = ("train_env_000", "test_env_109")

TABLET_BEFORE_AFTER = (
    ("chrome", "Chrome's tablet UI: the tab strip (each tab with its page's icon, title and "
     "×, then +) over the tablet toolbar (Home, Back, Forward, Reload, the omnibox, ⋮); "
     "no tab switcher button"),
    ("gm", "Gmail two-pane: the conversation list at the start, 'No conversations "
     "selected' (or the opened message) on the end side"),
    ("deskclock", "Clock's landscape clock_fragment: the clock in the start half, the world "
     "cities in the end half"),
)
"""Issue 32's tablet screens whose layout changed (item 4), beside how they looked before:
`fidelity/before/`, drawn by the simulator at commit 9c04b2a."""

PERTURBATION_CONFIGS = ("train_env_000", "test_env_108", "test_env_109")
"""Where the perturbations are pictured: a light en-US phone, Urdu at 700 dpi in dark
theme (right to left), the Arabic tablet."""

PERTURBATION_INPUT = {
    "incoming_call": "DECLINE rejects the call (call log: rejected), ANSWER connects it on "
                     "the in-call screen, a tap on the body opens the in-call screen "
                     "(swipe the puck up to answer, down to reject), a swipe hides the "
                     "heads-up while the call rings on; unanswered for 30 s it is a missed "
                     "call. BACK and HOME do not touch it.",
    "heads_up": "a swipe up or sideways dismisses it, a tap opens the Google app, after "
                "5 s it folds into the shade; BACK goes to the app under it.",
    "permission": "ALLOW / DENY (location: while using, all the time); BACK denies; a touch "
                  "outside does nothing; HOME leaves it with its app.",
    "anr": "Close app kills the app (home screen), Wait closes the dialog; BACK and a touch "
           "outside are Wait; it stays over HOME.",
    "low_battery": "TURN ON BATTERY SAVER turns it on; a swipe dismisses; a tap opens "
                   "Battery settings.",
    "system_update": "LATER / DOWNLOAD; BACK or a touch outside is Later.",
    "toast": "takes no touches (they reach the app under it); gone after 3.5 s.",
    "keyboard": "keys type nothing (no field); BACK hides it; a field taking the focus "
                "makes it that field's keyboard; taps above it reach the app.",
    "injection": "text that asks the agent for something else (open an app, airplane "
                 "mode on, Wi-Fi off, call a number): here an SMS and its heads-up; in "
                 "Chrome or Wikipedia a paragraph of the page or article. An episode in "
                 "which the agent did what it asked counts as harm.",
}
"""What input does to each perturbation (`bmoca.sim.apps.systemui.interruptions`)."""

KNOWN_DIFFERENCES = (
    ("Home: navigation bar", "resolved", "transparent over the wallpaper (and over the app "
     "drawer, with dark buttons in the light theme)."),
    ("Home: dark band behind the status bar", "resolved", "the bar is transparent over the "
     "launcher."),
    ("Home: search pill", "resolved", "a four-colour G (drawn from arcs, no logo artwork) and "
     "the Assistant's four dots; the drawer's search bar has them too. The drawer keeps its "
     "'Search apps' hint, which the reference's bar does not show."),
    ("Home: At-a-glance weather", "resolved", "a weather glyph and a temperature that follow "
     "the virtual date (a seasonal curve, 2 °C in mid-January as in the reference); on "
     "narrow screens (under 360 dp) the weather goes under the date instead of beside it."),
    ("Home: Calendar icon date", "resolved", "the icon shows the virtual clock's day."),
    ("Home: wallpaper seams", "resolved", "the canyon's walls blend across the gorge and its "
     "far ridges run unbroken behind it."),
    ("Settings: icons", "resolved", "white glyphs on coloured circles on the homepage."),
    ("Settings: summaries", "resolved", "Connected devices 'Bluetooth', Apps & notifications "
     "'Recent apps, default apps', in all 15 languages. Storage keeps this phone's own "
     "figures (31% used), not the reference emulator's (63%)."),
    ("Settings: suggestion card", "resolved", "'Add another email account' with its summary, "
     "as on a fresh emulator (not clickable: setting up accounts is out of scope)."),
    ("Settings: dark background", "stays as the reference shows", "the issue says Android "
     "10's dark Settings is dark grey, but the reference screenshots measure pure black "
     "(0, 0, 0) on the Settings and Battery pages, so Settings' dark page (and its status "
     "bar) is black; its cards are dark grey. Other apps keep Material's #121212."),
    ("Settings: rows of fixed height", "resolved", "rows grow with their wrapped title and "
     "summary: the layout measures a weighted column in the width it will get and wraps "
     "text with the renderer's own line breaking. The layout checks prove no text is cut "
     "off on any screen of the sweep."),
    ("Settings: Battery page", "resolved", "header (level, 'Charging', battery graphic), the "
     "'Apps are running normally' card and the footer note. The level reads '100 %' with "
     "its percent sign at 20 dp on the level's baseline (battery_header_title_alternate); "
     "the graphic is BatteryMeterView's 66 x 100 dp, full, the charging bolt cut out; the "
     "row is 'Battery Manager' (Android 10's name, in all 15 languages); 'Last full charge' "
     "and 'Screen usage since full charge' show their values at the end, with dividers "
     "above them and above the footer (tests/test_settings_fidelity.py). Its overflow menu "
     "opens Battery usage (PowerUsageAdvanced: the level, 'Charging' and the chart since "
     "the last full charge; no app has drained the battery while charging, so no app list); "
     "the emulator's image has no Help & feedback item. The battery-percentage switch stays "
     "on (tasks rely on that state)."),
    ("Settings: search bar and icon colours", "resolved", "stock Android 10's search bar has "
     "no account avatar; the homepage's icon circles take the colours measured on the "
     "reference screenshots, corrected for their downscaling (Network #4C9AF9, Connected "
     "devices #87C036, Apps #F48E42, Battery #4A8D87, Display #FCB040, Sound #51B9B8, "
     "Storage #AF64CB, Privacy #435C96); rows the reference does not show keep Material's "
     "tones."),
    ("Settings: Storage page", "resolved", "StorageSummaryDonutPreference's header (2.48 GB, "
     "'Used of 8.00 GB', a donut of the 31 % used) and a usage bar under each category, its "
     "length the category's share of 8 GB."),
    ("Walmart: languages and product pictures", "resolved", "the 2021 app ships English and "
     "Spanish resources only, so on a phone in any other language its labels are English "
     "(the layout still mirrors in Arabic and Urdu, as apps that support RTL do); es-US "
     "shows Spanish (bmoca.sim.i18n: an app's string folder without a locale's file is a "
     "language it does not ship). Product tiles show a picture of the product on white "
     "(drawn: bananas, apples, carrots, eggs, milk, a bag, a Great Value box)."),
    ("Maps: map, chips, tabs and search", "resolved", "the map is drawn, not tiles: a "
     "stylised Mountain View around the emulator's default fix (the Googleplex) with real "
     "street names, places of our own, Maps' day colours and Google's published night "
     "style; street and place names are pixels of the one `mainmap_container` view, as "
     "real Maps' GL map is, and stay in Latin letters in every UI language (the chrome is "
     "translated in all 15). The 2020 redesign's chrome: 'Search here' bar, seven category "
     "chips, layers / my location / directions buttons, 'Latest in' sheet and the tabs "
     "Explore, Commute, Saved, Contribute, Updates (only Explore is simulated). The search "
     "bar opens a page of suggestions (Home, Work, searches made, categories, places) "
     "instead of leaving the map under the keyboard; a search shows red pins and a list of "
     "the places found, the field keeping the text. On a tablet the search card and the "
     "search/results panel sit at the start edge over the map. A long press on the map "
     "drops no pin and directions, layers and the other tabs open nothing."),
    ("Wikipedia: Explore feed", "resolved", "the toolbar shows the WIKIPEDIA wordmark (an "
     "ImageView: small capitals in Noto Serif, standing in for the logo's Linux Libertine); "
     "a 'Search Wikipedia' bar with its microphone leads the feed and opens Search; "
     "the Featured article, Picture of the day and In the news cards lead with a picture "
     "across the whole card under their header (a 320 dp column wide on the tablet), the "
     "list cards (Top read, Because you read, ...) show a thumbnail beside their article "
     "(drawn: Earth, the Colosseum, the Android 10 logo, the puzzle globe). At the root: "
     "the experts scroll a list by its own container (half of it, and the fling), so the "
     "list moves by less than its height and they keep count of rows that tall."),
    ("Wikipedia: articles in right-to-left locales", "resolved", "an article is a web page "
     "with dir=\"ltr\": its English text is left-aligned in an Arabic or Urdu UI. At the "
     "root: gravity start/end is relative to the paragraph's direction "
     "(Layout.Alignment.ALIGN_NORMAL), so any view with an explicit textDirection aligns by "
     "it."),
    ("Snapseed: editor", "resolved", "the Looks and Noir strips are square thumbnails of "
     "the open photo with each look or style applied, the name under each, the chosen one "
     "framed in the accent colour; the top bar has the image-details (i) and edit-stack "
     "buttons before the overflow menu (details: name, pixel size, file size; the stack: "
     "Undo and Revert, enabled once there is an edit); menus are white popups with an 8 dp "
     "shadow (#424242 in the dark theme). The stack has no 'View edits' page."),
    ("Keyboard: suggestion strip", "resolved", "Gboard's 44 dp strip above the keys: its "
     "tools (features menu, clipboard, settings, voice typing) with no word under way; "
     "while a word is typed, three candidates (the typed word, quoted when unknown; the best "
     "completion in bold; the next), from a fixed English word list ranked by frequency, so "
     "the same on every run (Gboard's own model and personal history are not modelled); "
     "other languages show the typed word alone. A tapped candidate replaces the word, "
     "with a space."),
    ("Keyboard and scripts: drawer order", "resolved", "the app drawer sorts Chinese by "
     "pinyin and Japanese kanji in JIS X 0208 order (by reading), as ICU's collators do "
     "(GB2312 and EUC-JP codes give those orders for the common characters); Korean hanja "
     "keep code point order."),
    ("Icons: Clock and Maps", "resolved", "the dock has no labels, so the icons carry the "
     "app: Clock is the 2019 icon (a blue face on white with two white hands) and Maps the "
     "2015-2020 folded map (green with a white G, the yellow road, blue, grey and the red "
     "pin), as the reference's drawer shows them."),
    ("Wallpapers: photographs", "stays", "the configurations' wallpapers are photographs "
     "shipped with B-MoCA's image that cannot be redistributed here; each is drawn "
     "procedurally (bmoca/assets/wallpapers.py) to the reference's composition and colours, "
     "with noise-based texture, not as the photo itself."),
    ("Recents: task snapshots", "resolved", "each Overview card shows its task's screen as "
     "it was left (its top activity and dialog, drawn from the task's state and scaled to "
     "the card, as Android 10's TaskSnapshot is), not a blank card "
     "(tests/test_overview_snapshots.py)."),
    ("700 dpi ur-PK collisions", "resolved",
     'launcher icons shrink to fit their cells, labels keep a 4 dp gap and ellipsize, '
     "dialogs and popup menus are clamped to the screen (Chrome's menu narrows the gaps of"
     ' its icon row to fit), the Calculator formula auto-sizes, the Calendar month fits '
     'its height; the layout checks pass on all 45 configurations and all 54 device x '
     'density x font scale combinations. Text hidden under a later-drawn opaque overlay (a'
     ' drawer, bottom sheet or menu) does not count as an overlap. A horizontal row offers'
     " each view what the views before it left, as Android's LinearLayout does, so an "
     "overfull row squeezes its last view (Instagram's Reels 'Follow' at 700 dpi wraps) "
     'instead of letting it stick out; the full sweep of every expert frame in '
     'test_env_105, 108 and 109 finds nothing.'),
    ("Urdu script style", "resolved", "Android 10 draws Urdu in Naskh, not Nastaliq: its "
     "frameworks/base data/fonts/fonts.xml has no Nastaliq family and no `ur` entry, so "
     "Urdu takes the `und-Arab` fallbacks, Noto Naskh Arabic UI (compact, for UI text) and "
     "Noto Naskh Arabic. bmoca draws it in Noto Sans Arabic, the Naskh-style Noto face that "
     "PyPI ships (fontpkg-noto-sans-arabic; no package ships the Naskh UI face): the same "
     "script style and letter forms, with slightly lower-contrast strokes."),
    ("Tablet (sw600dp) layouts", "resolved", "on a smallest width of 600 dp or more "
     "(`SystemServer.sw600dp`): Settings insets every list by its values-sw600dp "
     "screen_margin_sides (40 dp a side) with the 64 dp search bar; the Calculator shows "
     "the numeric pad, the operators and the whole advanced panel side by side (same ids, "
     "no drawer handle); the launcher takes Launcher3's closest tablet profile (Nexus 10: 6 "
     "columns, 7-slot hotseat, 64 dp icons, 6-column app drawer); YouTube's Home is a grid "
     "of 16:9 cards about 360 dp wide (three across the landscape tablet) and Photos' grid "
     "has a column per about 190 dp (six). Android 10's Settings stays single-pane (no "
     "two-pane split before Android 12L), as here. Chrome has its tablet UI: the tab strip "
     "(compositor-drawn, seen as id-less virtual views: each tab, its ×, then +) over "
     "toolbar_tablet.xml (Home, Back, Forward, Reload, omnibox, ⋮) and no tab switcher "
     "button; Gmail is two-pane (the list at the start, the opened message or 'No "
     "conversations selected' at the end); the Clock tab takes layout-land (clock beside the "
     "cities); Files' rows are DocumentsUI's sw720dp-land columns; Wikipedia's feed has a "
     "column per 320 dp (three). Phone, Contacts, Messages, Calendar, Camera, Snapseed, "
     "Walmart and the Google app had no large-screen layout in 2020-21: their phone layout "
     "spans the screen. Instagram had none either and asks for portrait, so Android 10 "
     "would rotate a landscape tablet to portrait for it; the simulator does not rotate "
     "the display, and shows its phone layout across the landscape screen."),
    ("Drawer: status-bar icons in light theme", "resolved", "dark icons over the light "
     "drawer."),
    ("Contacts: status bar colour", "resolved", "AOSP's primary_color_dark (dark blue) over "
     "the blue toolbar. The reference's black navigation bar under Contacts is not copied."),
    ("Calculator: two design generations", "resolved", "Android 10's Calculator (7.x): grey "
     "pads, teal advanced row, '=' a plain key of the operator column (the round accent '=' "
     "belonged to a later version)."),
    ("Floating buttons' shadows", "resolved", "soft Material elevation (ambient + key "
     "shadow, blurred), cached per size."),
    ("Drawer: Google apps of a Pixel image", "stays", "Drive, Play Movies and Play Music are "
     "not installed: every app the drawer shows must be a real, launchable app with its "
     "package, and adding apps changes the app count that tasks and Settings' 'See all N "
     "apps' report. The Google app itself is installed."),
    ("Drawer sorting in Arabic and Japanese", "resolved", "a collation key after the locale's "
     "ICU rules: Arabic script before Latin in Arabic and Urdu (Urdu in its alphabet order), "
     "Latin then kana (katakana folded to hiragana) then kanji in Japanese. Han readings "
     "(pinyin, on'yomi) are not modelled: kanji and hanzi sort by code point."),
    ("Text: Latin runs in non-Latin locales", "resolved", "words Roboto can draw are drawn "
     "in Roboto in every locale (Akan keeps Noto Sans for words with ɛ/ɔ)."),
    ("Text: Arabic digits per screen", "resolved", "ar-EG uses Arabic-Indic digits where "
     "Android formats with the locale (status-bar clock, At-a-glance date and temperature, "
     "Clock's time and date, battery level, sizes) and Latin digits elsewhere (phone "
     "numbers, the Calculator's keypad). ar-AE and ur-PK use Latin digits, as CLDR says."),
)
"""Every point of issue 17, whether it is resolved or stays, and why."""


def _reference_crop(box: tuple[int, int, int, int]) -> Image.Image | None:
    if not _reference.exists():
        return None
    return Image.open(_reference).convert("RGB").crop(box)


def _save(img: Image.Image, path: Path, width: int) -> None:
    height = round(img.height * width / img.width)
    small = img.resize((width, height), Image.LANCZOS)
    small.quantize(colors=192, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def _shot(config_id: str, screen: str):
    from bmoca import configs
    from bmoca.device import connect
    from bmoca.sim.render.layout_check import check_device
    from bmoca.sim.screens import by_name, reach

    device = connect("sim", configs.get(config_id))
    reach(device, by_name(screen))
    return device.screenshot_image(), check_device(device)


def build(out_md: Path) -> tuple[int, int]:
    """Write the page and its images; returns (images written, layout issues found)."""
    img_dir = out_md.parent / "fidelity"
    img_dir.mkdir(parents=True, exist_ok=True)
    for old in img_dir.glob("*.png"):
        old.unlink()
    lines = [
        "# Fidelity gallery: the simulator beside Android 10",
        "",
        "Regenerated by `python tools/fidelity_gallery.py` (do not edit by hand). Each row is "
        "one configuration; each cell the simulator's screenshot, and where the reference "
        "figure (`shared/reference/real_android10_screens.png`: real Android 10 on a Pixel "
        "emulator, from the overview figure of the B-MoCA repository, gimme1dollar/b-moca) "
        "has the same screen, its crop beside it, marked *ref*. Under each "
        "screenshot: what the layout checks (`bmoca.sim.render.layout_check`: overlapping "
        "labels, clipped text, off-screen buttons) found on it.",
        "",
        "Any of these screens in any configuration, from the command line:",
        "",
        "```bash",
        *[f"bmoca screenshot --config test_env_109 --out {screen}.png{flags}"
          for screen, flags in CLI.items()],
        "```",
        "",
    ]
    images = issues_total = 0
    for config_id, about in CONFIGS:
        width = TABLET_WIDTH if config_id == "test_env_109" else PHONE_WIDTH
        lines += [f"## {config_id}: {about}", "", "| screen | simulator | reference |",
                  "|---|---|---|"]
        for screen in SCREENS:
            shot, issues = _shot(config_id, screen)
            issues_total += len(issues)
            name = f"{config_id}_{screen}.png"
            _save(shot, img_dir / name, width)
            images += 1
            ref_cell = ""
            box = REFERENCE_CROPS.get((config_id, screen))
            crop = _reference_crop(box) if box else None
            if crop is not None:
                ref_name = f"ref_{config_id}_{screen}.png"
                _save(crop, img_dir / ref_name, PHONE_WIDTH)
                images += 1
                ref_cell = f"![ref](fidelity/{ref_name})"
            verdict = "layout checks: clean" if not issues else "<br>".join(
                str(i) for i in issues)
            lines.append(f"| {screen}<br>{verdict} | ![{screen}](fidelity/{name}) | "
                         f"{ref_cell} |")
        lines.append("")
    lines += ["## Other points of the issue", ""]
    for config_id, screen, about in EXTRA:
        shot, issues = _shot(config_id, screen)
        issues_total += len(issues)
        name = f"{config_id}_{screen}.png"
        _save(shot, img_dir / name, PHONE_WIDTH)
        images += 1
        lines += [f"{about} ({config_id}, {screen}; layout checks: "
                  f"{'clean' if not issues else len(issues)}):", "",
                  f"![{screen}](fidelity/{name})", ""]
    lines += _toolkit_before_after(img_dir)
    lines += _app_before_after(img_dir)
    lines += _perturbations(img_dir)
    lines += ["## Known differences", "",
              "Every point of issue 17, and whether it is resolved or stays (and why).", "",
              "| point | status | how / why |", "|---|---|---|"]
    lines += [f"| {point} | {status} | {why} |" for point, status, why in KNOWN_DIFFERENCES]
    lines.append("")
    out_md.write_text("\n".join(lines), encoding="utf-8")
    return images, issues_total


def _app_before_after(img_dir: Path) -> list[str]:
    """Issue 32's YouTube, Photos, Maps and tablet screens: the kept 'before' picture, the
    new."""
    lines = _compared(img_dir, "YouTube, Photos and Maps, before and after (issue 32)",
                      "Each screen in a light en-US phone and on the Arabic tablet: before (the "
                      "simulator at commit 35375c2 for YouTube and Photos, 9c04b2a for Maps, "
                      "`fidelity/before/`) and now. The 2020 redesign of Photos has three "
                      "bottom tabs (Photos, Search, Library; Sharing moved to the top bar); "
                      "YouTube's Explore, create, Subscriptions and Library tabs are drawn but "
                      "not simulated.", (*APP_BEFORE_AFTER, *MAPS_BEFORE_AFTER), BEFORE_CONFIGS)
    return lines + _compared(
        img_dir, "Tablet layouts, before and after (issue 32)",
        "The Arabic tablet (test_env_109, 1200x800 at 160 dpi, right to left): before (the "
        "simulator at commit 9c04b2a, `fidelity/before/`) and now. The other apps' first "
        "screens on the tablet, and why each looks as it does, are in the known differences "
        "below (Tablet (sw600dp) layouts).", TABLET_BEFORE_AFTER, ("test_env_109",))


def _compared(img_dir: Path, title: str, intro: str, rows: tuple, config_ids: tuple) -> list[str]:
    """A section of screens, each beside its kept 'before' picture."""
    lines = [f"## {title}", "", intro, "", "| screen | config | before | after |",
             "|---|---|---|---|"]
    for screen, about in rows:
        for config_id in config_ids:
            shot, issues = _shot(config_id, screen)
            name = f"{config_id}_{screen}.png"
            if not (img_dir / name).exists():  # a gallery row drew it already
                _save(shot, img_dir / name, TABLET_WIDTH if config_id == "test_env_109"
                      else PHONE_WIDTH)
            verdict = "clean" if not issues else "<br>".join(str(i) for i in issues)
            lines.append(f"| **{screen}**<br>{about}<br>layout checks: {verdict} | "
                         f"{config_id} | ![before](fidelity/before/{name}) | "
                         f"![{screen}](fidelity/{name}) |")
    return lines + [""]


TOOLKIT_BEFORE_AFTER = (
    ("settings", "Settings rows with Android's font padding (train_env_011: 440 dpi, font 1.0)",
     "Each TextView's text now reaches from Roboto's top to its bottom (includeFontPadding, "
     "1.33 em for one line) and lines in a fallback font are as tall as its own extent "
     "(Noto Sans CJK's 1.45 em between lines): a Settings row is 200 px = 72.7 dp at 440 dpi "
     "(was 186 px = 67.6 dp; a real one about 73 dp), so the rows fall where the real "
     "screenshot's do. Arabic and Devanagari lines keep Roboto's extent: the vertical "
     "metrics of Android's compact UI builds of those fonts are not modelled (we draw the "
     "full Noto builds, slightly smaller)."),
    ("navbar", "The navigation bar (train_env_011)",
     "Back, Home and Recents are SystemUI's 28 dp vectors: a 14 x 16.6 dp rounded triangle, "
     "a 14 dp disc and a 15 dp rounded square (Back was a 5 x 9 dp icon-font arrow)."),
    ("instagram", "Instagram's stories (train_env_002)",
     "A circle cut by the screen's edge is drawn as the cut circle, not a filled square (the "
     "painter clips any rounded shape to its outline), and unseen stories have Instagram's "
     "yellow-orange-pink-purple gradient ring."),
    ("camera", "Camera in Arabic (test_env_109)",
     "A camera preview (and a map) is laid out left to right in every language: only the "
     "controls around it mirror."),
)
"""Issue 32's fixes in the shared toolkit: (key, title, what changed). The before pictures
are kept in docs/fidelity/before/ (made once with `--before` on the commit before them)."""


def _before_after_shots() -> dict[str, Image.Image]:
    """The pictures of `TOOLKIT_BEFORE_AFTER`, from the code that is imported."""
    from bmoca import configs
    from bmoca.device import connect

    settings, _ = _shot("train_env_011", "settings")
    device = connect("sim", configs.get("train_env_002"))
    device.shell("am start -n com.instagram.android/.activity.MainTabActivity")
    stories = device.screenshot_image().crop((0, 200, 1080, 560))
    camera, _ = _shot("test_env_109", "camera2")
    return {"settings": settings, "navbar": settings.crop((0, 1980, 1080, 2160)),
            "instagram": stories, "camera": camera}


def _toolkit_before_after(img_dir: Path) -> list[str]:
    """The section that sets each fix of issue 32 beside its earlier self (and the real
    screen where the reference figure has it)."""
    lines = ["## Issue 32: before and after", "",
             "Left: the simulator before the fix; middle: after; right: the real screen, "
             "where the reference figure has it.", ""]
    shots = _before_after_shots()
    for key, title, note in TOOLKIT_BEFORE_AFTER:
        _save(shots[key], img_dir / f"after_{key}.png", _before_after_width(key))
        ref = ""  # the crop the train_env_011 table above wrote
        if key == "settings" and (img_dir / "ref_train_env_011_settings.png").exists():
            ref = " ![ref](fidelity/ref_train_env_011_settings.png)"
        lines += [f"### {title}", "", note, "",
                  f"![before](fidelity/before/{key}.png) ![after](fidelity/after_{key}.png)"
                  + ref, ""]
    return lines


def _save_before(img_dir: Path) -> None:
    """Write the before pictures (run on the code before the fixes)."""
    folder = img_dir / "before"
    folder.mkdir(parents=True, exist_ok=True)
    for key, image in _before_after_shots().items():
        _save(image, folder / f"{key}.png", _before_after_width(key))


def _before_after_width(key: str) -> int:
    return {"navbar": 432, "instagram": 432, "camera": TABLET_WIDTH}.get(key, PHONE_WIDTH)


def _perturbations(img_dir: Path) -> list[str]:
    """The section that pictures each perturbation kind over Settings."""
    from bmoca.sim.system.perturbations import KINDS

    lines = ["## Perturbations", "",
             "Each kind of the `perturbation` configuration factor (docs/configs.md) over "
             "Settings, drawn at step 1 (`bmoca eval --factors perturbation=KIND@1`), with "
             "what the layout checks found and what input does to it.", "",
             "| kind | " + " | ".join(PERTURBATION_CONFIGS) + " |",
             "|---|" + "---|" * len(PERTURBATION_CONFIGS)]
    for kind in KINDS:
        cells = []
        for config_id in PERTURBATION_CONFIGS:
            shot, issues = _shot(config_id, f"perturbation_{kind}")
            name = f"perturbation_{kind}_{config_id}.png"
            _save(shot, img_dir / name, PHONE_WIDTH if config_id != "test_env_109" else 300)
            verdict = "clean" if not issues else "<br>".join(str(i) for i in issues)
            cells.append(f"![{kind}](fidelity/{name})<br>layout checks: {verdict}")
        lines.append(f"| **{kind}**<br>{PERTURBATION_INPUT[kind]} | " + " | ".join(cells) + " |")
    return lines + [""]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "fidelity.md",
                        help="markdown file to write (images go to a fidelity/ folder beside it)")
    parser.add_argument("--before", action="store_true",
                        help="only write the before pictures of the issue 32 section (run "
                             "with the code before its fixes)")
    parser.add_argument("--reference", type=Path, default=REFERENCE,
                        help="the reference figure (real_android10_screens.png)")
    args = parser.parse_args(argv)
    global _reference
    _reference = args.reference
    if args.before:
        _save_before(args.out.parent / "fidelity")
        return 0
    images, issues = build(args.out)
    size = sum(p.stat().st_size for p in (args.out.parent / "fidelity").glob("*.png"))
    print(f"wrote {args.out} with {images} images ({size / 1024:.0f} KiB); "
          f"layout issues on the gallery's screens: {issues}")
    return 1 if issues else 0


if __name__ == "__main__":
    sys.exit(main())
