"""`bmoca avd build|doctor`: the 45 configurations as snapshots on a real emulator."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console

console = Console()
avd_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                      help="Real Android emulators: build the B-MoCA AVDs and snapshots, check "
                           "the set-up.")


def _configs(spec: str):
    from bmoca import configs

    ids = configs.ids(spec) if spec in ("train", "test", "all") else \
        [c.strip() for c in spec.split(",") if c.strip()]
    out = []
    for cid in ids:
        try:
            out.append(configs.get(cid))
        except KeyError:
            raise typer.BadParameter(f"unknown configuration {cid!r}; valid: train, test, all "
                                     "or ids from `bmoca configs`", param_hint="--configs") from None
    return out


@avd_app.command("build")
def build(
    config_spec: str = typer.Option("all", "--configs", help="train, test, all or "
                                    "comma-separated configuration ids"),
    apks: Path = typer.Option(None, help="folder with the third-party APKs (instagram*.apk, "
                              "snapseed*.apk, walmart*.apk, wikipedia*.apk, calculator*.apk)"),
    dry_run: bool = typer.Option(False, "--dry-run", help="print every command, run nothing"),
    as_json: bool = typer.Option(False, "--json", help="with --dry-run: the commands as JSON"),
) -> None:
    """Create the AVDs and one snapshot per configuration (B-MoCA's build, one command)."""
    import subprocess

    from bmoca.device import avd

    chosen = _configs(config_spec)
    if apks is not None and not apks.is_dir():
        raise typer.BadParameter(f"{apks} is not a directory", param_hint="--apks")
    states = avd.apk_states(apks)
    plan = avd.plan(chosen, avd.usable_apks(apks))
    if dry_run:
        if as_json:
            print(json.dumps([{"argv": s.argv, "background": s.background, "note": s.note,
                               "generated": s.generated} for s in plan.steps], indent=1))
            for line in _apk_lines(states):  # the JSON on stdout stays the command list
                sys.stderr.write(f"# {line}\n")
        else:
            for line in _apk_lines(states):
                print(f"# {line}")
            for step in plan.steps:
                print(step.text())
        return
    for line in _apk_lines(states):
        console.print(line, markup=False, highlight=False)
    missing = [c for c in avd.doctor(apks) if not c.ok and not c.name.startswith("APK")]
    if missing:
        for check in missing:
            console.print(f"[red]missing[/] {check.name}: {check.detail}; {check.fix}")
        raise typer.Exit(1)
    background = []
    for step in plan.steps:
        console.print(f"$ {step.text()}", markup=False, highlight=False)
        if step.background:
            background.append(subprocess.Popen(step.argv))
            continue
        if step.argv[:1] == ["adb"] and step.note == "provision" and step.argv[3] == "push":
            _push_generated(step.argv)
            continue
        code = subprocess.call(step.argv)
        if code != 0:
            console.print(f"[red]error[/]: exit status {code}; fix it and rerun (AVDs are "
                          "recreated with --force)")
            for proc in background:
                proc.terminate()
            raise typer.Exit(1)


def _apk_lines(states) -> list[str]:
    """What the build does with each third-party APK: installs it, or why it cannot."""
    from bmoca.device.avd import APKS

    lines = []
    for apk in states:
        if apk.ok:
            lines.append(f"APK {apk.app}: installs {apk.path} ({APKS[apk.app]})")
        else:
            lines.append(f"APK {apk.app}: {apk.detail()}: not installed, tasks on it will "
                         f"fail; {apk.fix()}")
    return lines


def _push_generated(argv: list[str]) -> None:
    """The dry run names generated files (wallpaper, launcher.db); build them and push."""
    import subprocess
    import tempfile

    from bmoca import configs
    from bmoca.device.provision import _wallpaper_png, alarm_template_db
    from bmoca.formats import launcher_db

    config = configs.get(argv[4].split("/")[1])
    if argv[4].endswith("alarms.db"):
        data = alarm_template_db()
    elif argv[4].endswith("wallpaper.png"):
        data = _wallpaper_png(config)
    else:
        data = launcher_db.build(config.home)
    with tempfile.NamedTemporaryFile(suffix=Path(argv[4]).suffix) as tmp:
        tmp.write(data)
        tmp.flush()
        subprocess.check_call([*argv[:4], tmp.name, argv[5]])


@avd_app.command("doctor")
def doctor(
    apks: Path = typer.Option(None, help="folder with the third-party APKs"),
    as_json: bool = typer.Option(False, "--json", help="print the checks as JSON"),
) -> None:
    """Check what `bmoca avd build` needs (SDK, KVM, system image, APKs) and how to get it."""
    from bmoca.device import avd

    checks = avd.doctor(apks)
    if as_json:
        print(json.dumps([c.__dict__ for c in checks], indent=1))
    else:
        for check in checks:
            mark = "[green]ok[/]     " if check.ok else "[red]missing[/]"
            console.print(f"{mark} {check.name}: {check.detail}", highlight=False)
            if not check.ok:
                console.print(f"        fix: {check.fix}", highlight=False, markup=False)
    essential = [c for c in checks if not c.ok and not c.name.startswith("APK")]
    raise typer.Exit(1 if essential else 0)
