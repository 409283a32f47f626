"""What a device configuration is: hardware, display, language, look, home screen.

The configs layer holds the data (the 45 B-MoCA presets, the profiles, a seeded
generator) and produces these; `bmoca.device.provision` applies one to any Device
through the contract, exactly as the B-MoCA build scripts do on an emulator.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class DeviceProfile:
    """A phone model: its real pixel size and density, and B-MoCA's display options."""

    name: str
    width: int
    height: int
    density: int
    density_options: tuple[int, int, int]
    font_scale_options: tuple[float, float, float] = (1.0, 1.15, 0.85)
    landscape: bool = False
    model: str = ""


GENERATED_PHONE = "generated_phone"
"""The profile name of `bmoca.configs.random_phone`'s phones: sizes no hardware profile has."""

PIXEL_3 = DeviceProfile("pixel_3", 1080, 2160, 440, (440, 330, 550), model="Pixel 3")


@dataclass(frozen=True)
class HomeLayout:
    """Home-screen items: hotseat slot -> app label, (cellX, cellY) -> app label."""

    hotseat: dict[int, str] = field(default_factory=dict)
    workspace: dict[tuple[int, int], str] = field(default_factory=dict)

    def __hash__(self) -> int:  # dicts inside: hash by content
        return hash((tuple(sorted(self.hotseat.items())), tuple(sorted(self.workspace.items()))))


@dataclass(frozen=True)
class DeviceConfig:
    """One device configuration (a B-MoCA environment or a generated one)."""

    id: str = "default"
    profile: DeviceProfile = PIXEL_3
    density: int = 440
    font_scale: float = 1.0
    locale: str = "en-US"
    wallpaper: str = "00_default"
    dark_theme: bool = False
    home: HomeLayout | None = None
    """None keeps the launcher's stock layout."""
    split: str = ""
    perturbation: str = "none"
    """The perturbation schedule (`bmoca.sim.system.perturbations`): none, light, heavy or
    KIND@STEP. The presets keep none; `+perturbation=VALUE` derives one with another."""
