"""The framework's AlertDialog as the apps show it: a card with a title, a message and the
buttons at the end (`android:id/alertTitle`, `message`, `button1..3`)."""

from __future__ import annotations

from bmoca.sim.apps.base import Context
from bmoca.sim.ui.view import MATCH, WRAP, View, column, row, spacer, text


def dialog_card(ctx: Context, title: str, message: str, buttons: list[tuple[str, str, object]]) -> View:
    """An AlertDialog: the title and the message (either may be "": not shown), the
    buttons at the end, as (android:id/button1..3 suffix, label, handler)."""
    theme = ctx.theme
    surface = (255, 255, 255) if not theme.dark else (48, 49, 52)
    return column(
        text(title, id="android:id/alertTitle", text_size=20, font_weight=500, text_color=theme.text,
             width=MATCH, max_lines=2) if title else None,
        text(message, id="android:id/message", text_size=16,
             text_color=theme.text_secondary if title else theme.text,
             width=MATCH, max_lines=8, margin=(0, 16 if title else 0, 0, 0))
        if message else None,
        row(spacer(weight=1), *[
            View(cls="android.widget.Button", id=f"android:id/{bid}", text=label.upper(),
                 text_size=14, font_weight=500, text_color=theme.accent, width=WRAP, height=48,
                 padding=(12, 14, 12, 14), clickable=True, focusable=True, on_click=handler,
                 gravity="center_vertical")
            for bid, label, handler in buttons], height=WRAP, margin=(0, 24, 0, 0)),
        cls="android.widget.FrameLayout", id="android:id/parentPanel", width=MATCH, height=WRAP,
        margin=(40, 0, 40, 0), padding=(24, 24, 16, 8), bg=surface, corner=8, elevation=24,
    )
