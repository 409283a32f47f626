"""The launcher's grid for this display: Launcher3's InvariantDeviceProfile, reduced to the
numbers the simulator draws with.

Why: Launcher3 picks its grid from `res/xml/device_profiles.xml` by the display's size in dp
(the closest profile wins), so a tablet gets a wider workspace, a longer hotseat, bigger
icons and a wider app drawer than a phone; the home screen, the drawer and their tests read
the one profile from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from bmoca.sim.system.server import SystemServer


@dataclass(frozen=True)
class GridProfile:
    """One device profile: grid size and the largest icon sizes (dp)."""

    name: str
    columns: int
    rows: int
    """Workspace rows, At-a-Glance's row included (as the launcher.db rows 0-4)."""
    hotseat_icons: int
    icon_dp: float
    hotseat_icon_dp: float
    label_sp: float
    drawer_columns: int
    """All apps' columns: Launcher3 10 gives the drawer the workspace's column count."""
    drawer_cell_dp: float
    """All apps' row height: the icon, its label and the gaps."""


PHONE = GridProfile("phone", columns=5, rows=5, hotseat_icons=5, icon_dp=52, hotseat_icon_dp=52,
                    label_sp=12, drawer_columns=5, drawer_cell_dp=96)
"""The Pixel launcher's 5x5 phone grid (every phone configuration)."""
TABLET = GridProfile("Nexus 10", columns=6, rows=5, hotseat_icons=7, icon_dp=64,
                     hotseat_icon_dp=56, label_sp=14.4, drawer_columns=6,
                     drawer_cell_dp=108)
"""Launcher3's "Nexus 10" profile (minWidthDps 727, minHeightDps 1207: 5 rows, 6 columns,
7 hotseat icons, 64 dp icons, 56 dp hotseat icons, 14.4 sp labels), the closest profile to
the WXGA tablet at each of its densities (about 723-985 x 1085-1477 dp)."""


def grid_profile(system: SystemServer) -> GridProfile:
    """The profile this display gets: the tablet one on sw600dp, else the phone one."""
    return TABLET if system.sw600dp else PHONE


def icon_dp(cell_w: float, cell_h: float, label: bool, largest: float = PHONE.icon_dp) -> float:
    """Icon size for a cell: the profile's size, smaller when the cell is (Launcher3 shrinks
    icons to fit its grid at large display sizes, so neighbours never overlap), leaving room
    for a label (6 dp gap and a 24 dp line)."""
    room = cell_h - 30 if label else cell_h * 0.8
    return max(16.0, min(largest, cell_w * 0.68, room))


def cell_width(total_dp: float, grid: GridProfile, density: int) -> float:
    """A drawer cell's width: an equal share of `total_dp`. On the tablet grid it is cut to
    whole pixels, so six separately rounded cells never push the last one out of the row;
    the phone grid keeps its exact share (its screens are pinned by golden outputs, and one
    pixel of rounding is within what the layout checks allow)."""
    width = total_dp / grid.drawer_columns
    if grid is PHONE:
        return width
    scale = density / 160
    return int(width * scale) / scale
