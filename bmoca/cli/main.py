"""The `bmoca` command: the app, its one-line errors, and the phone commands.

Command groups live beside this module (`eval.py`: tasks, eval, validate; `demos.py`,
`train.py`, `avd.py`, `serve_adb.py`); their shared vocabulary is in `common.py`. Help is
plain click text (`rich_markup_mode=None`) so `[brackets]` in it survive and a pipe gets
no box drawing.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import typer

from bmoca.cli.common import (
    DEVICE_HELP,
    JSON_HELP,
    bad,
    check_split,
    console,
    emit,
    error_line,
    locale,
    split_option,
    writable_dir,
)

try:  # typer >= 0.20 carries its own click
    from typer._click import exceptions as click_exceptions
except ImportError:  # pragma: no cover - older typer uses the click package
    from click import exceptions as click_exceptions

app = typer.Typer(add_completion=True, no_args_is_help=True, rich_markup_mode=None,
                  help="bmoca: a benchmark and simulated Android phone for phone-control "
                       "agents.")


def _show_version(value: bool) -> None:
    if value:
        from bmoca import __version__

        sys.stdout.write(f"bmoca {__version__}\n")
        raise typer.Exit(0)


@app.callback()
def _root(version: bool = typer.Option(False, "--version", is_eager=True,
                                       callback=_show_version,
                                       help="print the version and exit")) -> None:
    """bmoca: a benchmark and simulated Android phone for phone-control agents."""
    from bmoca import bytecache
    from bmoca.formats import cachedir

    try:  # settings from the environment are checked before any command runs
        cachedir.budget_bytes()
        bytecache.SHARED.budget  # noqa: B018 - read for its check
    except ValueError as exc:
        sys.stderr.write(f"bmoca: error: {exc}\n")
        raise typer.Exit(2) from None


def command():
    """`app` as the click command the console script runs, with readable help
    (`bmoca.cli.help`: plain-word metavars, text wrapped between words)."""
    from bmoca.cli.help import readable

    built = typer.main.get_command(app)
    readable(built)
    return built


def main() -> None:
    """The console script: a bad value or usage is one line on stderr, exit 2."""
    try:
        code = command().main(standalone_mode=False)
    except click_exceptions.NoArgsIsHelpError as exc:
        exc.show()
        sys.exit(0)
    except click_exceptions.ClickException as exc:
        ctx = getattr(exc, "ctx", None)
        where = ctx.command_path if ctx is not None else "bmoca"
        message = " ".join(exc.format_message().split())
        sys.stderr.write(f"{where}: error: {message}\n")
        sys.exit(exc.exit_code)
    except typer.Abort:
        sys.stderr.write("bmoca: aborted\n")
        sys.exit(1)
    except OSError as exc:  # a path the user gave that cannot be read or written
        where = " ".join(["bmoca", *sys.argv[1:2]])
        name = f": {exc.filename}" if exc.filename else ""
        sys.stderr.write(f"{where}: error: {exc.strerror or exc}{name}\n")
        sys.exit(2)
    except Exception as exc:
        device = sys.modules.get("bmoca.device")  # loaded only by commands that use a phone
        if device is None or not isinstance(exc, device.DeviceError):
            raise
        from bmoca.cli.common import unreachable  # a phone that went away mid-command

        sys.exit(unreachable(exc).exit_code)
    sys.exit(code if isinstance(code, int) else 0)


def _config(config_id: str, locale_tag: str | None = None, dark: bool | None = None):
    from bmoca import configs

    try:
        config = configs.get(config_id)
    except KeyError as exc:
        raise bad("--config", str(exc.args[0] if exc.args else exc)) from None
    changes: dict = {}
    if locale_tag:
        changes["locale"] = locale(locale_tag)
    if dark is not None:
        changes["dark_theme"] = dark
    return dataclasses.replace(config, **changes) if changes else config


def _open_device(config_id: str, locale_tag: str | None, dark: bool | None,
                 device: str = "sim"):
    from bmoca.cli.common import check_reachable, device_target, unreachable
    from bmoca.device import DeviceError, connect

    config = _config(config_id, locale_tag, dark)  # bad values fail before any phone starts
    target = device_target(device)
    check_reachable(target)
    try:
        return connect(target, config)
    except DeviceError as exc:
        raise unreachable(exc) from None


def list_configs(split: str = split_option("all", "train, test or all"),
                 as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """List the device configurations (the 45 B-MoCA environments)."""
    from bmoca import configs

    rows = []
    for cid in configs.ids(check_split(split)):
        c = configs.get(cid)
        rows.append({"id": cid, "split": c.split, "device": c.profile.name,
                     "size": f"{c.profile.width}x{c.profile.height}", "dpi": c.density,
                     "font": c.font_scale, "locale": c.locale, "wallpaper": c.wallpaper,
                     "dark": c.dark_theme,
                     "home_apps": None if c.home is None
                     else len(c.home.hotseat) + len(c.home.workspace)})
    if not as_json:
        for row in rows:
            row["font"] = f"{row['font']:g}"
            row["home_apps"] = "stock" if row["home_apps"] is None else row["home_apps"]
    emit(rows, as_json)


def _find(xml: str, selector: str) -> tuple[int, int]:
    """`id=RES#N`, `text=T`, `desc=D` (N picks the N-th match) -> the node's centre."""
    from lxml import etree

    kind, _, value = selector.partition("=")
    attr = {"id": "resource-id", "text": "text", "desc": "content-desc"}.get(kind)
    if attr is None or not value:
        raise bad("--tap", f"selector {selector!r}; valid: id=RES[#N], text=T or desc=D")
    nth = 0
    if "#" in value:
        value, _, n = value.rpartition("#")
        if not n.isdigit() or not value:
            raise bad("--tap", f"selector {selector!r}: #N must be a match number 0, 1, 2 ...")
        nth = int(n)
    matches = [n for n in etree.fromstring(xml.encode()).iter("node") if n.get(attr) == value]
    if len(matches) <= nth:
        raise bad("--tap", f"no element matches {selector!r} on this screen")
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
    locale_tag: str = typer.Option("", "--locale", help="override the configuration's "
                                   "locale: one of the 15 supported (bmoca configs), or a "
                                   "language such as de, resolved as Android does (de-DE)"),
    dark: bool = typer.Option(None, "--dark/--light", help="override the theme"),
    xml: Path = typer.Option(None, help="also write the uiautomator XML here"),
    device_target: str = typer.Option("sim", "--device", help=DEVICE_HELP),
) -> None:
    """Render the phone in a configuration to a PNG file (the simulator, or a device over ADB)."""
    from PIL import Image

    _check_out_file("--out", out, Image.registered_extensions())
    if xml:
        _check_out_file("--xml", xml, {".xml": "XML"})
    device = _open_device(config, locale_tag or None, dark, device_target)
    if open_app:
        cmd = f"am start -n {open_app}" if "/" in open_app else \
            f"monkey -p {open_app} -c android.intent.category.LAUNCHER 1"
        output, code = device.shell(cmd)
        if code != 0:
            raise bad("--open", output.strip())
    for selector in tap:
        device.tap(*_find(device.dump_hierarchy(), selector))
    if swipe_up:
        width, height = device.screen_size()
        device.swipe(width // 2, int(height * 0.8), width // 2, int(height * 0.2), 300)
    Image.fromarray(device.screenshot()).save(out)
    if xml:
        xml.write_text(device.dump_hierarchy(), encoding="utf-8")
    console.print(f"wrote {out} ({' x '.join(map(str, device.screen_size()))}, {config})",
                  markup=False)


def _check_out_file(param: str, path: Path, extensions: dict[str, str]) -> None:
    """A file to write: a known extension in an existing directory, checked before the phone
    starts so that a typo costs nothing."""
    suffix = path.suffix.lower()
    if suffix not in extensions:
        known = ", ".join(sorted({e for e in extensions if e in (".png", ".jpg", ".jpeg",
                                                                 ".webp", ".bmp", ".xml")}))
        raise bad(param, f"{path}: unknown file extension {suffix or '(none)'!r}; valid: {known}")
    if not path.parent.is_dir():
        raise bad(param, f"{path}: directory {path.parent} does not exist")


@app.command()
def shell(
    command: str = typer.Argument(..., help="shell command, as `adb shell` takes it"),
    config: str = typer.Option("train_env_000", help="configuration id"),
    device_target: str = typer.Option("sim", "--device", help=DEVICE_HELP),
) -> None:
    """Run one shell command on a freshly configured simulated phone (or a device over ADB)."""
    device = _open_device(config, None, None, device_target)
    output, code = device.shell(command)
    sys.stdout.write(output)
    raise typer.Exit(code)


@app.command()
def dump(config: str = typer.Option("train_env_000", help="configuration id"),
         device_target: str = typer.Option("sim", "--device", help=DEVICE_HELP)) -> None:
    """Print the screen's uiautomator XML in a configuration (the simulator, or over ADB)."""
    device = _open_device(config, None, None, device_target)
    sys.stdout.write(device.dump_hierarchy() + "\n")


@app.command("report")
def report_command(
    run_dir: Path = typer.Argument(..., help="run directory of `bmoca eval` (holds "
                                   "results.sqlite)"),
    out: Path = typer.Option(None, help="where to write the report (default RUN_DIR/report)"),
    plots: bool = typer.Option(True, "--plots/--no-plots", help="draw the success plots "
                               "(needs matplotlib: pip install 'bmoca[report]')"),
    curves: list[Path] = typer.Option([], "--curve", help="an RL learning curve to show "
                                      "(`bmoca train ppo|dqn` writes OUT.curve.jsonl; one "
                                      "beside an evaluated checkpoint is shown anyway); "
                                      "repeatable"),
) -> None:
    """Build report.md and report.html (tables, plots, one page per episode) from a run."""
    from bmoca.eval.report import ReportError, build
    from bmoca.eval.store import StoreError

    if out is not None:
        writable_dir("--out", out)
    try:
        report = build(run_dir, out, with_plots=plots, curves=curves)
    except (ReportError, StoreError) as exc:
        error_line(exc)
        raise typer.Exit(2) from None
    except OSError as exc:
        error_line(f"cannot write the report: {exc.strerror or exc}: {exc.filename or out}")
        raise typer.Exit(2) from None
    if report.plot_note:
        console.print(report.plot_note, style="yellow", markup=False)
    episodes = sum(len(s.episodes) for s in report.sections)
    console.print(f"report: {report.html}  ({report.markdown.name}, {episodes} episode pages, "
                  f"{len(report.plots) + len(report.curve_plots)} plots)", markup=False)


# -- the command groups beside this module add themselves to `app` --------------------------
from bmoca.cli import avd as _avd  # noqa: E402
from bmoca.cli import bundle as _bundle  # noqa: E402
from bmoca.cli import demos as _demos  # noqa: E402
from bmoca.cli import eval as _eval  # noqa: E402
from bmoca.cli import factors as _factors  # noqa: E402
from bmoca.cli import serve_adb as _serve_adb  # noqa: E402
from bmoca.cli import ui as _ui  # noqa: E402
from bmoca.cli import verify as _verify  # noqa: E402
from bmoca.cli.train import train_app  # noqa: E402

_eval.register(app)
_factors.register(app, list_configs)
app.command("bundle")(_bundle.bundle_command)
app.command("verify")(_verify.verify_command)
app.command("serve-adb")(_serve_adb.serve_adb)
app.command("ui")(_ui.ui)
app.add_typer(_avd.avd_app, name="avd")
app.add_typer(_demos.demos_app, name="demos")
app.add_typer(train_app, name="train")

if __name__ == "__main__":
    main()
