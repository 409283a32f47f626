"""The `bmoca` command."""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="bmoca: a benchmark and simulated Android phone for phone-control agents.")
console = Console()


def _config(config_id: str, locale: str | None = None, dark: bool | None = None):
    from bmoca import configs

    try:
        config = configs.get(config_id)
    except KeyError as exc:
        raise typer.BadParameter(str(exc).strip("'\""), param_hint="--config") from None
    changes = {}
    if locale:
        changes["locale"] = configs.normalize_locale(locale)
    if dark is not None:
        changes["dark_theme"] = dark
    return dataclasses.replace(config, **changes) if changes else config


def _open_device(config_id: str, locale: str | None, dark: bool | None):
    from bmoca.device import connect

    return connect("sim", _config(config_id, locale, dark))


@app.command("configs")
def list_configs(split: str = typer.Option("all", help="train, test or all")) -> None:
    """List the device configurations (the 45 B-MoCA environments)."""
    from bmoca import configs

    try:
        config_ids = configs.ids(split)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--split") from None
    table = Table("id", "device", "size", "dpi", "font", "locale", "wallpaper", "dark", "home apps")
    for cid in config_ids:
        c = configs.get(cid)
        apps = "stock" if c.home is None else str(len(c.home.hotseat) + len(c.home.workspace))
        table.add_row(cid, c.profile.name, f"{c.profile.width}x{c.profile.height}",
                      str(c.density), f"{c.font_scale:g}", c.locale, c.wallpaper,
                      "yes" if c.dark_theme else "", apps)
    console.print(table)


def _find(xml: str, selector: str) -> tuple[int, int]:
    """`id=RES#N`, `text=T`, `desc=D` (N picks the N-th match) -> the node's centre."""
    from lxml import etree

    kind, _, value = selector.partition("=")
    attr = {"id": "resource-id", "text": "text", "desc": "content-desc"}.get(kind)
    if attr is None or not value:
        raise typer.BadParameter(f"selector {selector!r} must be id=..., text=... or desc=...",
                                 param_hint="--tap")
    nth = 0
    if "#" in value:
        value, _, n = value.rpartition("#")
        nth = int(n)
    matches = [n for n in etree.fromstring(xml.encode()).iter("node") if n.get(attr) == value]
    if len(matches) <= nth:
        raise typer.BadParameter(f"no element matches {selector!r} on this screen",
                                 param_hint="--tap")
    left, top, right, bottom = map(int, re.findall(r"-?\d+", matches[nth].get("bounds")))
    return (left + right) // 2, (top + bottom) // 2


@app.command()
def screenshot(
    config: str = typer.Option("train_env_000", help="configuration id (see `bmoca configs`)"),
    out: Path = typer.Option(Path("screen.png"), help="PNG file to write"),
    open_app: str = typer.Option("", "--open", help="package or component to start first, "
                                 "e.g. com.android.settings/.Settings"),
    tap: list[str] = typer.Option([], help="then tap these elements in order: id=RES[#N], "
                                  "text=T or desc=D"),
    swipe_up: bool = typer.Option(False, help="swipe up once at the end (opens the app drawer)"),
    locale: str = typer.Option("", help="override the configuration's locale"),
    dark: bool = typer.Option(None, "--dark/--light", help="override the theme"),
    xml: Path = typer.Option(None, help="also write the uiautomator XML here"),
) -> None:
    """Render the simulated phone in a configuration to a PNG file."""
    device = _open_device(config, locale or None, dark)
    if open_app:
        cmd = f"am start -n {open_app}" if "/" in open_app else \
            f"monkey -p {open_app} -c android.intent.category.LAUNCHER 1"
        output, code = device.shell(cmd)
        if code != 0:
            raise typer.BadParameter(output.strip(), param_hint="--open")
    for selector in tap:
        device.tap(*_find(device.dump_hierarchy(), selector))
    if swipe_up:
        width, height = device.screen_size()
        device.swipe(width // 2, int(height * 0.8), width // 2, int(height * 0.2), 300)
    device.screenshot_image().save(out)
    if xml:
        xml.write_text(device.dump_hierarchy(), encoding="utf-8")
    console.print(f"wrote {out} ({' x '.join(map(str, device.screen_size()))}, {config})")


@app.command()
def shell(
    command: str = typer.Argument(..., help="shell command, as `adb shell` takes it"),
    config: str = typer.Option("train_env_000", help="configuration id"),
) -> None:
    """Run one shell command on a freshly configured simulated phone."""
    device = _open_device(config, None, None)
    output, code = device.shell(command)
    sys.stdout.write(output)
    raise typer.Exit(code)


@app.command()
def dump(config: str = typer.Option("train_env_000", help="configuration id")) -> None:
    """Print the home screen's uiautomator XML in a configuration."""
    device = _open_device(config, None, None)
    sys.stdout.write(device.dump_hierarchy() + "\n")


if __name__ == "__main__":
    app()
