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


DEVICE_HELP = ("sim, adb (the only attached device), adb:SERIAL (e.g. adb:emulator-5554) "
               "or adb:HOST:PORT")


def _device_target(value: str) -> str:
    """Check a --device value; a bad one names the valid forms (exit 2)."""
    if value == "sim" or value == "adb" or (value.startswith("adb:") and len(value) > 4):
        return value
    raise typer.BadParameter(f"{value!r}; valid: {DEVICE_HELP}", param_hint="--device")


def _check_reachable(target: str) -> None:
    """Fail fast, with the device layer's own advice, when a real device is not there."""
    if target == "sim":
        return
    from bmoca.device import DeviceError, connect

    try:
        connect(target).shell("true")
    except DeviceError as exc:
        console.print(f"[red]error:[/] {exc}", highlight=False)
        raise typer.Exit(1) from None


def _open_device(config_id: str, locale: str | None, dark: bool | None, device: str = "sim"):
    from bmoca.device import DeviceError, connect

    try:
        return connect(_device_target(device), _config(config_id, locale, dark))
    except DeviceError as exc:
        console.print(f"[red]error:[/] {exc}", markup=True, highlight=False)
        raise typer.Exit(1) from None


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
    device_target: str = typer.Option("sim", "--device", help=DEVICE_HELP),
) -> None:
    """Render the phone in a configuration to a PNG file (the simulator, or a device over ADB)."""
    from PIL import Image

    device = _open_device(config, locale or None, dark, device_target)
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
    Image.fromarray(device.screenshot()).save(out)
    if xml:
        xml.write_text(device.dump_hierarchy(), encoding="utf-8")
    console.print(f"wrote {out} ({' x '.join(map(str, device.screen_size()))}, {config})")


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


# -- tasks, evaluation, validation ----------------------------------------------------------


def _tasks(spec: str):
    from bmoca import tasks

    try:
        return tasks.select(spec)
    except tasks.TaskError as exc:
        raise typer.BadParameter(str(exc), param_hint="--tasks") from None


def _config_ids(split: str, config_spec: str | None) -> list[str]:
    from bmoca import configs

    try:
        if config_spec:
            return configs.expand(config_spec)
        return configs.ids(split)
    except (KeyError, ValueError) as exc:
        raise typer.BadParameter(str(exc).strip("'\""),
                                 param_hint="--configs" if config_spec else "--split") from None


@app.command("tasks")
def list_tasks(app_name: str = typer.Option(None, "--app", help="only this app"),
               category: str = typer.Option(None, help="only this category")) -> None:
    """List the tasks: id, app, category, step limit, and whether the criterion deviates
    from the reference implementation's."""
    from bmoca import tasks

    table = Table("id", "app", "category", "steps", "set-up", "deviates")
    for task in tasks.list(app=app_name, category=category):
        table.add_row(task.id, task.app, task.category, str(task.step_limit),
                      str(len(task.setup)) if task.setup else "",
                      "yes" if task.reference.get("deviation") else "")
    console.print(table)


def _progress():
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("{task.fields[status]}"), TimeElapsedColumn(),
                    TimeRemainingColumn(), console=console)


def _terminate_like_ctrl_c() -> None:
    """SIGTERM (a job scheduler, `kill`) stops a run as Ctrl-C does: workers shut down and
    the finished episodes stay stored."""
    import signal

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)


@app.command("eval")
def evaluate_command(
    agent: str = typer.Option("expert", help="expert, random, random:dual_gesture, noop, "
                              "bc:CHECKPOINT (bmoca train bc), ppo:, dqn: or "
                              "iql:CHECKPOINT (bmoca train ppo|dqn|iql), hf:DIR (a "
                              "local Hugging Face model, e.g. from bmoca train lora), or a "
                              "model agent [llm|mllm|t3a|m3a/]<provider>:<model>[@<base_url>], "
                              "e.g. openai:gpt-4o (docs/agents.md)"),
    task_spec: str = typer.Option("settings", "--tasks",
                                  help="all, representative, an app, a category, task ids or "
                                       "patterns with *, comma-separated"),
    split: str = typer.Option("test", help="train, test or all configurations"),
    config_spec: str = typer.Option(None, "--configs", help="comma-separated config ids, ranges "
                                    "such as train_env_000..006 or random_train_0..99 "
                                    "(overrides --split)"),
    repeats: int = typer.Option(3, min=1, help="episodes per task and configuration"),
    workers: int = typer.Option(1, min=1, help="worker processes"),
    seed: int = typer.Option(0, help="base seed; each episode's seed derives from it"),
    run_dir: Path = typer.Option(None, help="where results.sqlite goes (default "
                                 "runs/<agent>-<tasks>-<split>); rerunning resumes it"),
    save_screens: bool = typer.Option(None, "--save-screens/--no-save-screens",
                                      help="save each step's screenshot under RUN_DIR/screens "
                                           "for `bmoca report` (default: on for model agents)"),
    agent_option: list[str] = typer.Option(None, "--agent-option", "-o",
                                           help="a model agent's option key=value, repeatable: "
                                                "few_shot=3, demos=DIR, cot=false, bbox=true, "
                                                "explore=true, temperature, max_tokens, seed, "
                                                "timeout, retries, base_url, price=IN,OUT; "
                                                "hf: agents take base, sample, temperature, "
                                                "top_p, max_tokens, device, dtype ... "
                                                "(docs/agents.md)"),
    no_cache: bool = typer.Option(False, "--no-cache",
                                  help="do not read or write the model response cache"),
    device_target: str = typer.Option("sim", "--device", help=DEVICE_HELP + "; a real device "
                                      "runs one episode at a time"),
) -> None:
    """Evaluate an agent: every task x configuration x repeat, stored in SQLite, resumable."""
    from bmoca import agents
    from bmoca.eval import evaluate, metrics
    from bmoca.eval.store import Store, StoreError

    task_list = _tasks(task_spec)
    config_ids = _config_ids(split, config_spec)
    device_target = _device_target(device_target)
    if device_target != "sim" and workers > 1:
        raise typer.BadParameter(f"{workers}: a device over ADB is one phone; valid: 1",
                                 param_hint="--workers")
    _check_reachable(device_target)
    options: dict[str, str] = {}
    for item in agent_option or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise typer.BadParameter(f"{item!r}: expected key=value", param_hint="--agent-option")
        options[key.strip()] = value.strip()
    if no_cache:
        options["cache"] = "false"
    try:
        built = agents.build(agent, task_list[0], options)  # a bad name or option fails here
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--agent") from None
    if save_screens is None:  # model agents (they expose `last_call`) get screens by default
        save_screens = hasattr(built, "last_call")
    _terminate_like_ctrl_c()
    run_dir = run_dir or evaluate.default_run_dir(agent, task_spec, config_spec or split)
    run_dir.mkdir(parents=True, exist_ok=True)
    run_id = run_dir.name
    try:
        store = Store(run_dir)
    except StoreError as exc:
        console.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    with store, _progress() as progress:
        bar = progress.add_task(f"{agent}", total=None, status="")
        counts = {"ok": 0, "fail": 0, "error": 0, "stored": 0}

        def started(total: int, done: int) -> None:
            counts["stored"] = done
            progress.update(bar, total=total, completed=done,
                            status=f"{done} already stored" if done else "")

        def finished(outcome) -> None:
            counts["error" if outcome.error else "ok" if outcome.success else "fail"] += 1
            resumed = f"{counts['stored']} already stored, " if counts["stored"] else ""
            progress.update(bar, advance=1, status=(
                f"{resumed}success {counts['ok']}  fail {counts['fail']}  "
                f"error {counts['error']}"))

        try:
            evaluate.evaluate(store, run_id, agent, task_list, config_ids, repeats, seed=seed,
                              workers=workers, on_start=started, on_episode=finished,
                              spec={"split": split}, save_screens=save_screens,
                              agent_options=options, device=device_target)
        except StoreError as exc:
            progress.stop()
            console.print(f"[red]error:[/] {exc}")
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            progress.stop()
            console.print(f"[yellow]interrupted[/]: finished episodes are in {run_dir}; run the "
                          "same command again to resume.")
            raise typer.Exit(130) from None
        rows = [e for e in store.episodes(run_id) if e.agent == agent]
    table = metrics.success_table(rows)
    console.print()
    metrics.render(table, console=console)
    (run_dir / "results.md").write_text(metrics.to_markdown(table) + "\n", "utf-8")
    _print_usage(rows)
    console.print(f"\nresults: {run_dir / 'results.sqlite'}  table: {run_dir / 'results.md'}")


def _print_usage(rows) -> None:
    """Model tokens and cost of the run's episodes, and why episodes failed to run."""
    used = [e for e in rows if e.input_tokens is not None]
    if used:
        tokens_in = sum(e.input_tokens or 0 for e in used)
        tokens_out = sum(e.output_tokens or 0 for e in used)
        unknown = sum(1 for e in used if e.cost_usd is None)
        cost = sum(e.cost_usd or 0.0 for e in used)
        if unknown == len(used):
            price = "unknown (no price for this model; give one with -o price=IN,OUT)"
        else:
            price = f"${cost:.4f}" + (f" (+ {unknown} episode(s) at an unknown price)"
                                      if unknown else "")
        console.print(f"\nmodel usage: {len(used)} episode(s), {tokens_in:,} input tokens, "
                      f"{tokens_out:,} output tokens, cost {price}")
    errors = [e for e in rows if e.status == "error"]
    if errors:
        console.print(f"[yellow]{len(errors)} episode(s) could not be run[/] (infrastructure "
                      f"errors, left out of success rates); first: {errors[0].error}",
                      markup=True, highlight=False)


@app.command()
def validate(
    task_spec: str = typer.Option("all", "--tasks", help="which tasks (as for eval)"),
    split: str = typer.Option("all", help="train, test or all configurations"),
    config_spec: str = typer.Option(None, "--configs", help="comma-separated config ids "
                                    "or ranges (train_env_000..006)"),
    workers: int = typer.Option(2, min=1, help="worker processes"),
    screens: Path = typer.Option(None, help="write the last screen of each problem here"),
    device_target: str = typer.Option("sim", "--device", help=DEVICE_HELP + "; a real device "
                                      "runs with one worker"),
) -> None:
    """Check every task: its expert must succeed and doing nothing must fail, in every
    configuration. Exits 1 and lists each problem with its last screen."""
    import time

    from bmoca.eval.validate import validate as run_validation

    task_list = [t for t in _tasks(task_spec) if t.expert]
    config_ids = _config_ids(split, config_spec)
    device_target = _device_target(device_target)
    if device_target != "sim":
        workers = 1
    _check_reachable(device_target)
    started = time.perf_counter()
    with _progress() as progress:
        bar = progress.add_task("validate", total=None, status="")
        problems = run_validation(
            task_list, config_ids, workers=workers, device=device_target,
            on_start=lambda total: progress.update(bar, total=total),
            on_episode=lambda outcome: progress.update(bar, advance=1))
    seconds = time.perf_counter() - started
    episodes = 2 * len(task_list) * len(config_ids)
    if not problems:
        console.print(f"[green]ok[/]: {len(task_list)} tasks x {len(config_ids)} configurations: "
                      f"every expert succeeded and doing nothing never did "
                      f"({episodes} episodes, {seconds:.1f} s).")
        return
    if screens:
        screens.mkdir(parents=True, exist_ok=True)
    for number, problem in enumerate(problems, 1):
        console.print(f"[red]error[/] {problem.config_id}  {problem.task_id}: {problem.what}")
        for line in problem.trace[-4:]:
            console.print(f"    {line}", markup=False, highlight=False)
        if screens and problem.last_screen:
            path = screens / f"{number:03d}_{problem.agent}_{problem.config_id}.txt"
            path.write_text(f"{problem.task_id}\n{problem.what}\n\n{problem.last_screen}\n",
                            "utf-8")
            console.print(f"    last screen: {path}")
        elif problem.last_screen:
            console.print(f"    last screen: {problem.last_screen[:600]}", markup=False,
                          highlight=False)
    console.print(f"{len(problems)} problem(s) in {episodes} episodes ({seconds:.1f} s).")
    raise typer.Exit(1)


# -- ADB: the simulator as an ADB device, real emulators ------------------------------------
from bmoca.cli import avd as _avd  # noqa: E402 - these modules add commands to `app`
from bmoca.cli import serve_adb as _serve_adb  # noqa: E402

app.command("serve-adb")(_serve_adb.serve_adb)
app.add_typer(_avd.avd_app, name="avd")


# -- demonstrations -------------------------------------------------------------------------

demos_app = typer.Typer(no_args_is_help=True,
                        help="Expert demonstration datasets for few-shot prompts and training.")
app.add_typer(demos_app, name="demos")


@demos_app.command("generate")
def demos_generate(
    task_spec: str = typer.Option("settings", "--tasks", help="which tasks (as for eval)"),
    split: str = typer.Option("train", help="train, test or all configurations"),
    config_spec: str = typer.Option(None, "--configs", help="comma-separated config ids, ranges "
                                    "such as train_env_000..006 or random_train_0..99 "
                                    "(overrides --split's list; the manifest keeps --split)"),
    repeats: int = typer.Option(1, min=1, help="episodes per task and configuration"),
    out: Path = typer.Option(..., help="dataset directory; rerunning resumes it"),
    workers: int = typer.Option(1, min=1, help="worker processes"),
    seed: int = typer.Option(0, help="base seed; each episode's seed derives from it"),
    screen_width: int = typer.Option(540, min=0, help="width of saved screenshots in pixels "
                                     "(0: the phone's full size)"),
    play: str = typer.Option("exact", help="exact (the expert's own actions) or discrete "
                             "(each action as its 385-way equivalent: for training discrete "
                             "policies)"),
) -> None:
    """Record the scripted experts into a demonstration dataset (docs/demos.md).

    Only successful episodes are kept; failures are listed and counted in the manifest."""
    from bmoca.demos import DemoError
    from bmoca.demos.generate import PLAYS, generate

    if play not in PLAYS:
        raise typer.BadParameter(f"{play!r}; valid: {', '.join(PLAYS)}", param_hint="--play")
    task_list = _tasks(task_spec)
    config_ids = _config_ids(split, config_spec)
    _terminate_like_ctrl_c()
    with _progress() as progress:
        bar = progress.add_task("demos", total=None, status="")
        counts = {"kept": 0, "failed": 0}

        def started(total: int, skipped: int) -> None:
            progress.update(bar, total=total, completed=skipped,
                            status=f"{skipped} already recorded" if skipped else "")

        def finished(rec) -> None:
            counts["failed" if rec.error else "kept"] += 1
            progress.update(bar, advance=1,
                            status=f"kept {counts['kept']}  failed {counts['failed']}")

        try:
            summary = generate(out, task_list, config_ids, split=split, repeats=repeats,
                               seed=seed, workers=workers, screen_width=screen_width or None,
                               play=play, on_start=started, on_episode=finished)
        except DemoError as exc:
            progress.stop()
            console.print(f"[red]error:[/] {exc}")
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            progress.stop()
            console.print(f"[yellow]interrupted[/]: recorded episodes are in {out}; run the "
                          "same command again to resume.")
            raise typer.Exit(130) from None
    for line in summary.failures:
        console.print(f"[yellow]expert failed[/] {line}", markup=True, highlight=False)
    console.print(f"{out}: kept {summary.kept} new episode(s), {summary.failed} expert "
                  f"failure(s), {summary.skipped} already done; dataset holds "
                  f"{summary.total_kept} episode(s), {summary.total_failed} failure(s) listed "
                  f"in failed.jsonl.")

# -- training -------------------------------------------------------------------------------

from bmoca.cli.train import train_app  # noqa: E402 - the command group sits with its peers

app.add_typer(train_app, name="train")

# -- report ---------------------------------------------------------------------------------


@app.command("report")
def report_command(
    run_dir: Path = typer.Argument(..., help="run directory of `bmoca eval` (holds "
                                   "results.sqlite)"),
    out: Path = typer.Option(None, help="where to write the report (default RUN_DIR/report)"),
    plots: bool = typer.Option(True, "--plots/--no-plots", help="draw the success plots "
                               "(needs matplotlib: pip install 'bmoca[report]')"),
) -> None:
    """Build report.md and report.html (tables, plots, one page per episode) from a run."""
    from bmoca.eval.report import ReportError, build

    try:
        report = build(run_dir, out, with_plots=plots)
    except ReportError as exc:
        console.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    if report.plot_note:
        console.print(report.plot_note, style="yellow", markup=False, highlight=False)
    episodes = sum(len(s.episodes) for s in report.sections)
    console.print(f"report: {report.html}  ({report.markdown.name}, {episodes} episode pages, "
                  f"{len(report.plots)} plots)")

if __name__ == "__main__":
    app()
