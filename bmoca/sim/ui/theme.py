"""Android 10 Material colours, light and dark (Settings, launcher, system UI)."""

from __future__ import annotations

from dataclasses import dataclass

from bmoca.sim.ui.view import Color


@dataclass(frozen=True)
class Theme:
    dark: bool
    background: Color
    surface: Color
    """Cards, dialogs, search bars."""
    text: Color
    text_secondary: Color
    accent: Color
    divider: Color
    icon: Color
    switch_thumb_off: Color
    switch_track_off: Color
    ripple: Color
    scrim: Color
    keyboard: Color
    key: Color


LIGHT = Theme(
    dark=False, background=(255, 255, 255), surface=(241, 243, 244), text=(32, 33, 36),
    text_secondary=(95, 99, 104), accent=(26, 115, 232), divider=(218, 220, 224),
    icon=(95, 99, 104), switch_thumb_off=(236, 236, 236), switch_track_off=(178, 178, 178),
    ripple=(0, 0, 0, 24), scrim=(0, 0, 0, 128), keyboard=(236, 239, 241), key=(255, 255, 255),
)

DARK = Theme(
    dark=True, background=(18, 18, 18), surface=(48, 49, 52), text=(232, 234, 237),
    text_secondary=(154, 160, 166), accent=(138, 180, 248), divider=(60, 64, 67),
    icon=(154, 160, 166), switch_thumb_off=(185, 185, 185), switch_track_off=(95, 99, 104),
    ripple=(255, 255, 255, 24), scrim=(0, 0, 0, 160), keyboard=(41, 42, 45), key=(63, 64, 67),
)


def theme(dark: bool) -> Theme:
    return DARK if dark else LIGHT


def is_dark(color: Color) -> bool:
    """Whether light content belongs on this colour (Rec. 601 luma below the midpoint)."""
    r, g, b = color[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b < 128
