"""The headers Settings draws above a page's list: Battery's level and meter, Storage's
donut of used space, and the usage bars under Storage's categories.

Android 10 draws these as custom views (BatteryMeterView, StorageSummaryDonutPreference's
DonutView, StorageItemPreference's ProgressBar); their sizes here are Settings' dimens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from bmoca.sim.render.text import get_text_renderer
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, icon, row, text

if TYPE_CHECKING:
    from bmoca.sim.apps.base import Context
    from bmoca.sim.render.painter import Canvas

SETTINGS = "com.android.settings:id/"

BATTERY_METER_DP = (66, 100)
"""`battery_meter_width` × `battery_meter_height`: the header's battery graphic."""
PERCENT_SIGN_DP = 20
"""`battery_header_title_alternate` is `^1<small> <font size="20">%</font></small>`: the
level, then a space and a 20 dp percent sign."""

STORAGE_TOTAL_BYTES = 8_000_000_000
"""The emulator image's 8 GB data partition (the homepage says "31% used - 5.52 GB free")."""
STORAGE_USED_FRACTION = 0.31
STORAGE_CATEGORY_BYTES = {
    "storage_photos": 0, "storage_music": 0, "storage_apps": 1_060_000_000,
    "storage_files": 12_000, "storage_system": 1_460_000_000,
}
"""What each category row's summary says, as bytes: the bar under it is its share of the
total."""
DONUT_DP = 88


def split_percent(level_text: str) -> tuple[str, str] | None:
    """("100", "%") for a level that ends in a percent sign (every locale whose template puts
    the sign last); None where the sign comes first, which is drawn as one label."""
    stripped = level_text.strip()
    for sign in ("%", "٪"):
        if stripped.endswith(sign) and len(stripped) > 1:
            return stripped[:-1].rstrip(), sign
    return None


def draw_level(canvas: Canvas, view: View) -> None:
    """The level at the view's size and its percent sign at 20 dp, on one baseline."""
    parts = split_percent(view.text or "")
    renderer = get_text_renderer()
    color = view.text_color or canvas.theme.text
    left, top, right, bottom = view.bounds
    big = renderer.label(parts[0] if parts else view.text, canvas.px(view.text_size * canvas.font_scale),
                         color, view.font_weight, canvas.locale)
    y = top + max(0, (bottom - top - big.height) // 2)
    baseline = y + round(big.height * 0.8)
    pieces = [big]
    if parts:
        pieces.append(renderer.label(" " + parts[1], canvas.px(PERCENT_SIGN_DP), color,
                                     view.font_weight, canvas.locale))
    if canvas.rtl:
        pieces.reverse()
    x = right - sum(p.width for p in pieces) if canvas.rtl else left
    for piece in pieces:
        canvas.paste(piece, x, baseline - round(piece.height * 0.8), view.clip)
        x += piece.width


def draw_battery_meter(canvas: Canvas, view: View) -> None:
    """BatteryMeterView at 100 % and charging: a full body with its terminal, and the bolt
    cut out of it in the page's colour."""
    left, top, right, bottom = view.bounds
    scale = 4
    w, h = (right - left) * scale, (bottom - top) * scale
    if w <= 0 or h <= 0:
        return
    sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    color = tuple(canvas.theme.accent[:3])
    body_w, cap_w, cap_h = w * 0.9, w * 0.34, h * 0.06
    x0 = (w - body_w) / 2
    draw.rectangle(((w - cap_w) / 2, h * 0.02, (w + cap_w) / 2, h * 0.02 + cap_h), fill=color)
    draw.rounded_rectangle((x0, h * 0.02 + cap_h, x0 + body_w, h * 0.98), radius=w * 0.05,
                           fill=color)
    cx, cy, s = w / 2, h * 0.55, body_w * 0.42
    bolt = [(cx + 0.15 * s, cy - 0.9 * s), (cx - 0.45 * s, cy + 0.12 * s),
            (cx - 0.02 * s, cy + 0.12 * s), (cx - 0.15 * s, cy + 0.9 * s),
            (cx + 0.45 * s, cy - 0.12 * s), (cx + 0.02 * s, cy - 0.12 * s)]
    draw.polygon(bolt, fill=(0, 0, 0, 0))
    hole = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(hole).polygon(bolt, fill=(255, 255, 255, 255))
    sprite.paste((0, 0, 0, 0), (0, 0), hole)
    canvas.paste(sprite.resize((right - left, bottom - top), Image.LANCZOS), left, top, view.clip)


def battery_header(ctx: Context, background, card) -> list[View]:
    """PowerUsageSummary's header (level, charging state, battery graphic) and its tip card."""
    theme = ctx.theme
    level = ctx.t("settings.battery_level")
    parts = split_percent(level)
    shown = f"{parts[0]} {parts[1]}" if parts else level
    header = row(
        column(View(cls="android.widget.TextView", id=SETTINGS + "battery_percent", text=shown,
                    text_size=36, text_color=theme.text, width=MATCH, height=WRAP,
                    draw=draw_level),
               text(ctx.t("settings.battery_charging"), id=SETTINGS + "summary1", text_size=14,
                    text_color=theme.text_secondary, width=MATCH, max_lines=2),
               cls="android.widget.LinearLayout", width=0, weight=1, height=WRAP,
               gravity="center_vertical"),
        View(cls="android.widget.ImageView", id=SETTINGS + "battery_header_icon",
             width=BATTERY_METER_DP[0], height=BATTERY_METER_DP[1], gravity="center_vertical",
             draw=draw_battery_meter),
        cls="android.widget.LinearLayout", id=SETTINGS + "battery_entity_header", height=WRAP,
        padding=(72, 16, 24, 16), bg=background,
    )
    tip = row(
        frame(icon("battery_std", 24, icon_color=(30, 142, 62), cls="android.widget.ImageView",
                   gravity="center"),
              cls="android.widget.LinearLayout", width=56,
              height=WRAP, gravity="center_vertical"),
        column(text(ctx.t("settings.battery_tip"), text_size=16,
                    text_color=theme.text, width=MATCH, max_lines=2),
               text(ctx.t("settings.battery_tip.summary"), text_size=14,
                    text_color=theme.text_secondary, width=MATCH, max_lines=3),
               cls="android.widget.RelativeLayout", width=0, weight=1, height=WRAP,
               gravity="center_vertical"),
        cls="android.widget.LinearLayout", height=WRAP, bg=card, corner=8,
        margin=(8, 0, 8, 8), padding=(8, 16, 16, 16), gravity="center_vertical",
    )
    return [header, tip]


def draw_donut(canvas: Canvas, view: View) -> None:
    """DonutView: a 6 dp ring, the used share in the accent colour from 12 o'clock clockwise,
    and the percentage inside."""
    left, top, right, bottom = view.bounds
    size = min(right - left, bottom - top)
    if size <= 0:
        return
    scale = 4
    big = size * scale
    ring = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(ring)
    stroke = canvas.px(6) * scale
    box = (stroke / 2, stroke / 2, big - stroke / 2, big - stroke / 2)
    draw.arc(box, 0, 360, fill=tuple(canvas.theme.divider[:3]), width=stroke)
    sweep = 360 * (view.progress or 0.0)
    start, end = (-90 - sweep, -90) if canvas.rtl else (-90, -90 + sweep)
    draw.arc(box, start, end, fill=tuple(canvas.theme.accent[:3]), width=stroke)
    x, y = (left + right - size) // 2, (top + bottom - size) // 2
    canvas.paste(ring.resize((size, size), Image.LANCZOS), x, y, view.clip)
    label = get_text_renderer().label(view.text or "", canvas.px(18 * canvas.font_scale),
                                      canvas.theme.text, 500, canvas.locale)
    canvas.paste(label, x + (size - label.width) // 2, y + (size - label.height) // 2, view.clip)


def storage_header(ctx: Context) -> View:
    """StorageSummaryDonutPreference: the used size (its unit smaller), "Used of 8.00 GB",
    and the donut of the used share."""
    theme = ctx.theme
    return row(
        column(text(ctx.t("settings.storage_used"), id="android:id/title", text_size=36,
                    text_color=theme.text, width=MATCH),
               text(ctx.t("settings.storage_used_of"), id="android:id/summary", text_size=14,
                    text_color=theme.text_secondary, width=MATCH, max_lines=2),
               cls="android.widget.LinearLayout", width=0, weight=1, height=WRAP,
               gravity="center_vertical"),
        View(cls="android.view.View", id=SETTINGS + "donut", text=ctx.t("settings.storage_donut"),
             progress=STORAGE_USED_FRACTION, width=DONUT_DP, height=DONUT_DP,
             gravity="center_vertical", draw=draw_donut, text_color=(0, 0, 0, 0)),
        cls="android.widget.LinearLayout", height=WRAP, padding=(72, 16, 24, 16),
        gravity="center_vertical",
    )


def draw_usage_bar(canvas: Canvas, view: View) -> None:
    """StorageItemPreference's horizontal ProgressBar: a 4 dp track and the share in accent."""
    left, top, right, bottom = view.bounds
    cy = (top + bottom) // 2
    half = max(1, canvas.px(2))
    canvas.rect((left, cy - half, right, cy + half), canvas.theme.divider, view.clip)
    filled = int((right - left) * (view.progress or 0.0))
    if filled:
        box = (right - filled, cy - half, right, cy + half) if canvas.rtl else \
            (left, cy - half, left + filled, cy + half)
        canvas.rect(box, canvas.theme.accent, view.clip)


def usage_bar(key: str) -> View | None:
    """The bar under a Storage category row; None for rows that are not categories."""
    if key not in STORAGE_CATEGORY_BYTES:
        return None
    share = STORAGE_CATEGORY_BYTES[key] / STORAGE_TOTAL_BYTES
    return View(cls="android.widget.ProgressBar", id="android:id/progress", progress=share,
                width=MATCH, height=12, draw=draw_usage_bar)
