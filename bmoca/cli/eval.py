"""`bmoca tasks`, `bmoca eval` and `bmoca validate`: the task suite and running it."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from bmoca.cli import executors
from bmoca.cli.common import (
    DEVICE_HELP,
    JSON_HELP,
    TASK_HELP,
    TASKS_HELP,
    bad,
    check_reachable,
    choice,
    config_ids,
    console,
    device_target,
    emit,
    error_line,
    print_json,
    select_tasks,
    split_option,
    task_split_option,
    tasks_label,
    writable_dir,
    write_last_screens,
)

EXECUTOR_HELP, RAY_HELP = executors.EXECUTOR_HELP, executors.RAY_HELP

progress_console = Console(stderr=True, highlight=False)
"""Progress and notes go to stderr, so stdout holds only results (and only JSON with --json)."""

CHARS_PER_TOKEN = 4
"""The dry run's token estimate: about four characters of English prompt per token."""
IMAGE_TOKENS = 425
"""Tokens of one 256x512 screenshot at OpenAI's high detail (85 + 2 tiles x 170)."""


def list_tasks(app_name: str = typer.Option(None, "--app", help="only this app"),
               category: str = typer.Option(None, help="only this category"),
               families: bool = typer.Option(False, "--families", help="list the task "
                                             "families instead: their kind, parameters and "
                                             "how many distinct instances each has"),
               as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """List the tasks: id, app, category, step limit, and whether the criterion deviates
    from the reference implementation's (with --families, the task families)."""
    from bmoca import tasks

    everything = tasks.all_tasks()
    if app_name is not None:
        app_name = choice("--app", app_name, sorted({t.app for t in everything}))
    if category is not None:
        category = choice("--category", category, tasks.CATEGORIES)
    if families:
        _list_families(app_name, category, as_json)
        return
    rows = [{"id": t.id, "app": t.app, "category": t.category, "steps": t.step_limit,
             "setup": len(t.setup), "deviates": bool(t.reference.get("deviation")),
             "version": t.version, "instruction": t.instruction}
            for t in tasks.list(app=app_name, category=category)]
    if not as_json:
        for row in rows:
            row["setup"] = row["setup"] or ""
    emit(rows, as_json, columns=None if as_json else
         ["id", "app", "category", "steps", "setup", "deviates"])


def _list_families(app_name: str | None, category: str | None, as_json: bool) -> None:
    from bmoca.tasks import families, splits

    rows = [{"id": f.id, "app": f.app, "category": f.category, "kind": f.kind,
             "instances": f.instance_count, "params": f.describe_params(),
             "family_split": splits.family_part(f.id), "app_split": splits.app_part(f.app),
             "example": f.instance(0).instruction}
            for f in families.all_families()
            if (app_name is None or f.app.lower() == app_name.lower())
            and (category is None or f.category.lower() == category.lower())]
    emit(rows, as_json, columns=None if as_json else
         ["id", "app", "kind", "instances", "params", "example"])


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
                    TimeRemainingColumn(), console=progress_console)


def terminate_like_ctrl_c() -> None:
    """SIGTERM (a job scheduler, `kill`) stops a run as Ctrl-C does: workers shut down and
    the finished episodes stay stored."""
    import signal

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)


def _agent_options(items: list[str] | None, no_cache: bool) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise bad("--agent-option", f"{item!r}: expected key=value")
        options[key.strip()] = value.strip()
    if no_cache:
        options["cache"] = "false"
    return options


def evaluate_command(
    agent: str = typer.Option("expert", help="expert, random, random:dual_gesture, noop, "
                              "bc:CHECKPOINT (bmoca train bc), ppo:, dqn: or "
                              "iql:CHECKPOINT (bmoca train ppo|dqn|iql), hf:DIR (a "
                              "local Hugging Face model, e.g. from bmoca train lora), or a "
                              "model agent [llm|mllm|t3a|m3a/]<provider>:<model>[@<base_url>], "
                              "e.g. openai:gpt-4o, an open GUI model "
                              "uitars|qwen25vl|qwen3vl|coords1000/openai-compatible:"
                              "<model>@<base_url>, or your own package.module:ClassOrFactory "
                              "or an installed bmoca.agents entry point (docs/agents.md)"),
    task_specs: list[str] = typer.Option(None, "--tasks", help=TASKS_HELP + " [default: "
                                         "settings]", show_default=False),
    task_ids: list[str] = typer.Option(None, "--task", help=TASK_HELP),
    task_split: str = task_split_option(),
    split: str = split_option("test"),
    config_spec: str = typer.Option(None, "--configs", help="comma-separated config ids, ranges "
                                    "such as train_env_000..006 or random_train_0..99 "
                                    "(overrides --split)"),
    repeats: int = typer.Option(3, min=1, help="episodes per task and configuration"),
    workers: int = typer.Option(1, min=1, help="worker processes"),
    seed: int = typer.Option(0, help="base seed; each episode's seed derives from it"),
    out: Path = typer.Option(None, help="run directory for results.sqlite (default "
                             "runs/<agent>-<tasks>-<split>); rerunning resumes it"),
    run_dir: Path = typer.Option(None, "--run-dir", hidden=True, help="old name of --out"),
    limit: int = typer.Option(None, min=1, help="play only the plan's first N episodes "
                              "(configuration by configuration); a later run without it "
                              "resumes"),
    dry_run: bool = typer.Option(False, "--dry-run", help="print the episodes, steps, the "
                                 "most model calls, a token estimate and the most it can "
                                 "cost where the price is known; play nothing"),
    save_screens: bool = typer.Option(None, "--save-screens/--no-save-screens",
                                      help="save each step's screenshot under the run "
                                           "directory's screens/ for `bmoca report` "
                                           "(default: on for model agents)"),
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
    device: str = typer.Option("sim", "--device", help=DEVICE_HELP + "; a real device "
                               "runs one episode at a time"),
    as_json: bool = typer.Option(False, "--json", help="print the results (or the dry run) "
                                 "as JSON"),
    allow_errors: bool = typer.Option(False, "--allow-errors", help="exit 0 even when "
                                      "episodes ended in infrastructure errors (default: "
                                      "exit 3)"),
    judge_claims: bool = typer.Option(False, "--judge-claims", help="do not end an episode "
                                      "when the state succeeds: it ends on the agent's "
                                      "status or the step limit, and is judged on the final "
                                      "state (scores missed done claims; docs/metrics.md)"),
    efficiency: bool = typer.Option(True, "--efficiency/--no-efficiency",
                                    help="score progress and efficiency against the expert's "
                                         "path (plays the expert once per task x "
                                         "configuration into RUN_DIR/reference, on the "
                                         "simulator only)"),
    executor: str = typer.Option("process", "--executor", help=EXECUTOR_HELP),
    ray_address: str = typer.Option(None, "--ray", help=RAY_HELP),
    factors: bool = typer.Option(False, "--factors", help="a one-factor-at-a-time grid: the "
                                 "--configs bases (default train_env_000) and, per base, one "
                                 "configuration per --vary value; prints which factor drops "
                                 "success (docs/metrics.md)"),
    vary: list[str] = typer.Option(None, "--vary", help="with --factors: FACTOR=VALUE[,VALUE"
                                   "...], repeatable (bmoca configs derive --help) [default: "
                                   "one or two values of every factor]", show_default=False),
) -> None:
    """Evaluate an agent: every task x configuration x repeat, stored in SQLite, resumable."""
    from bmoca import agents
    from bmoca.agents import llm

    task_list = select_tasks(task_specs, task_ids, default="settings", task_split=task_split)
    chosen_configs = config_ids(split, config_spec)
    if factors:
        from bmoca.cli.factors import factor_grid

        chosen_configs = factor_grid(chosen_configs if config_spec else ["train_env_000"], vary)
    elif vary:
        raise bad("--vary", "varies configurations only with --factors")
    device = device_target(device)
    if device != "sim" and workers > 1:
        raise bad("--workers", f"{workers}: a device over ADB is one phone; valid: 1")
    options = _agent_options(agent_option, no_cache)
    if dry_run and llm.is_model_agent(agent):
        _dry_run(agent, task_list, chosen_configs, repeats, limit, options, as_json)
        return
    try:
        built = agents.build(agent, task_list[0], options)  # a bad name or option fails here
    except ValueError as exc:
        raise bad("--agent", str(exc)) from None
    if dry_run:
        _dry_run(agent, task_list, chosen_configs, repeats, limit, options, as_json)
        return
    check_reachable(device)
    executor, ray_address, workers = executors.resolve(executor, ray_address, device, workers)
    if save_screens is None:  # model agents (they expose `last_call`) get screens by default
        save_screens = hasattr(built, "last_call")
    label = tasks_label(task_specs, task_ids, "settings", task_split)
    errored = _run(agent, task_list, chosen_configs, repeats, seed, workers, out or run_dir,
                   label, "factors" if factors else config_spec or split, split, save_screens,
                   options, device, limit, as_json, judge_claims=judge_claims,
                   efficiency=efficiency, factors=factors, executor=executor,
                   ray_address=ray_address)
    exit_for_errors(errored, allow_errors)


def _run(agent: str, task_list: list, chosen_configs: list[str], repeats: int, seed: int,
         workers: int, out: Path | None, label: str, where: str, split: str,
         save_screens: bool, options: dict[str, str], device: str, limit: int | None,
         as_json: bool, *, judge_claims: bool = False, efficiency: bool = False,
         factors: bool = False, executor: str = "process",
         ray_address: str | None = None) -> int:
    from bmoca.device.provision import CannotReset
    from bmoca.eval import evaluate, harm, metrics
    from bmoca.eval.runlock import RunLock, RunLocked
    from bmoca.eval.store import Store, StoreError

    terminate_like_ctrl_c()
    run_dir = writable_dir("--out", out or evaluate.default_run_dir(agent, label, where))
    run_id = run_dir.name
    lock = RunLock(run_dir)
    try:
        lock.acquire()
        store = Store(run_dir)
    except (StoreError, RunLocked) as exc:
        lock.release()
        error_line(exc)
        raise typer.Exit(2) from None
    with lock, store, _progress() as progress:
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
            evaluate.evaluate(store, run_id, agent, task_list, chosen_configs, repeats,
                              seed=seed, workers=workers, on_start=started,
                              on_episode=finished, spec={"split": split,
                                                         **({"judge_claims": True}
                                                            if judge_claims else {})},
                              save_screens=save_screens, agent_options=options,
                              device=device, limit=limit,
                              env_options={"stop_on_success": False} if judge_claims else None,
                              executor=executor, ray_address=ray_address)
            # the expert is its own reference; a real phone is not spent on playing one
            if efficiency and agent != "expert" and device == "sim":
                progress.update(bar, status="playing the expert's reference paths")
                from bmoca.eval import progress as efficiency_metrics

                efficiency_metrics.make_references(
                    run_dir, task_list, chosen_configs, workers,
                    limit=None if limit is None else -(-limit // repeats),
                    executor=executor, ray_address=ray_address)
            rows = [e for e in store.episodes(run_id) if e.agent == agent]
            eff = _efficiency_table(store, agent, run_id, rows) if efficiency else None
            harmed = harm.count(store, rows)
        except (StoreError, CannotReset) as exc:
            progress.stop()
            error_line(exc)
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            progress.stop()
            progress_console.print(f"interrupted: finished episodes are in {run_dir}; run "
                                   "the same command again to resume.", markup=False)
            raise typer.Exit(130) from None
    table = metrics.success_table(rows)
    grid = _factor_table(rows) if factors else None
    (run_dir / "results.md").write_text(metrics.to_markdown(table) + "\n" + (
        "\n" + _efficiency_markdown(eff) if eff else "") + (
        "\n" + _factor_markdown(grid) if grid else "") + (
        "\n" + harm.markdown(harmed) if harmed else ""), "utf-8")
    errored = sum(1 for e in rows if e.status == "error" or e.error)
    if as_json:
        print_json({**_results_json(agent, run_dir, table, rows),
                    **({"efficiency": _efficiency_json(eff)} if eff else {}),
                    **({"factors": _factor_json(grid)} if grid else {}),
                    **({"harm": [h.to_json() for h in harmed]} if harmed else {})})
        return errored
    console.print()
    metrics.render(table, console=console)
    if eff:
        console.print()
        _render_efficiency(eff)
    if grid:
        console.print()
        _render_factors(grid)
    if harmed:
        console.print()
        harm.render(harmed, console)
    _print_usage(rows)
    console.print(f"\nresults: {run_dir / 'results.sqlite'}  table: {run_dir / 'results.md'}",
                  markup=False, soft_wrap=True)
    return errored


EXIT_EPISODES_ERRORED = 3
"""`bmoca eval`'s status when episodes ended in infrastructure errors (README: exit status)."""


def exit_for_errors(errored: int, allow_errors: bool) -> None:
    """Exit 3 when episodes errored (they are stored, excluded from success rates and
    retried by the next run), unless `--allow-errors`."""
    if errored and not allow_errors:
        error_line(f"{errored} episode(s) ended in an infrastructure error (excluded from the "
                   "success rates); run the same command again to retry them, or pass "
                   "--allow-errors to exit 0")
        raise typer.Exit(EXIT_EPISODES_ERRORED)


def _efficiency_table(store, agent: str, run_id: str, rows):
    from bmoca.eval import metrics, progress

    order = sorted({e.task_id for e in rows}, key=metrics._natural)
    return progress.score_store(store, agent, run_id, tasks_order=order)


def _efficiency_markdown(table) -> str:
    from bmoca.eval import progress

    return progress.to_markdown(table)


def _efficiency_json(table) -> dict[str, Any]:
    from bmoca.eval import progress

    return progress.table_json(table)


def _render_efficiency(table) -> None:
    from bmoca.eval import progress

    progress.render(table, console)


def _factor_table(rows):
    from bmoca.eval import factors

    return factors.analyse(rows)


def _factor_markdown(table) -> str:
    from bmoca.eval import factors

    return factors.to_markdown(table)


def _factor_json(table) -> dict[str, Any]:
    from bmoca.eval import factors

    return factors.to_json(table)


def _render_factors(table) -> None:
    from bmoca.eval import factors

    factors.render(table, console)


def _results_json(agent: str, run_dir: Path, table, rows) -> dict[str, Any]:
    from bmoca.eval import metrics

    used = [e for e in rows if e.input_tokens is not None]
    known = [e.cost_usd for e in used if e.cost_usd is not None]
    return {
        "agent": agent, "run_dir": str(run_dir),
        "results": str(run_dir / "results.sqlite"), "table": str(run_dir / "results.md"),
        **metrics.table_json(table),
        "input_tokens": sum(e.input_tokens or 0 for e in used) if used else None,
        "output_tokens": sum(e.output_tokens or 0 for e in used) if used else None,
        "cost_usd": sum(known) if known else None,
        "errors": [{"task": e.task_id, "config": e.config_id, "repeat": e.repeat,
                    "error": e.error} for e in rows if e.status == "error"],
    }


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
                      f"{tokens_out:,} output tokens, cost {price}", markup=False)
    errors = [e for e in rows if e.status == "error"]
    if errors:
        console.print(f"{len(errors)} episode(s) could not be run (infrastructure errors, "
                      f"left out of success rates); first: {errors[0].error}", markup=False)


# -- the dry run: what a run would play and spend ------------------------------------------


def _dry_run(agent: str, task_list: list, chosen_configs: list[str], repeats: int,
             limit: int | None, options: dict[str, str], as_json: bool) -> None:
    """Count the episodes and steps, and for a model agent bound its calls, tokens and cost,
    without building the agent (no API key needed) or playing anything."""
    from bmoca.agents import llm
    from bmoca.eval import runner

    episodes = runner.plan(agent, task_list, chosen_configs, repeats)
    if limit is not None:
        episodes = episodes[:limit]
    max_steps = sum(e.task.step_limit for e in episodes)
    summary: dict[str, Any] = {"agent": agent, "episodes": len(episodes),
                               "tasks": len({e.task.id for e in episodes}),
                               "configs": len({e.config_id for e in episodes}),
                               "max_steps": max_steps, "model_calls_max": 0,
                               "input_tokens_estimate": None, "output_tokens_max": None,
                               "price_per_million": None, "cost_usd_max": None}
    if llm.is_model_agent(agent):
        summary.update(_model_estimate(agent, episodes, options))
    if as_json:
        print_json(summary)
        return
    lines = [f"dry run: {summary['episodes']} episodes ({summary['tasks']} tasks x "
             f"{summary['configs']} configurations x up to {repeats} repeats), at most "
             f"{max_steps:,} steps"]
    if summary["model_calls_max"]:
        lines.append(f"model calls: at most {summary['model_calls_max']:,} (one per step, "
                     "retries aside)")
        lines.append(f"tokens: about {summary['input_tokens_estimate']:,} input (the first "
                     f"step's prompt, {CHARS_PER_TOKEN} characters a token), at most "
                     f"{summary['output_tokens_max']:,} output (max_tokens per call)")
        if summary["cost_usd_max"] is None:
            lines.append("cost: unknown (no price for this model; give one with "
                         "-o price=IN,OUT)")
        else:
            price_in, price_out = summary["price_per_million"]
            lines.append(f"cost: at most about ${summary['cost_usd_max']:.2f} (USD per 1M "
                         f"tokens: {price_in:g} in, {price_out:g} out; cached answers are "
                         "free)")
    for line in lines:
        console.print(line, markup=False, soft_wrap=True)


def _model_estimate(agent: str, episodes: list, options: dict[str, str]) -> dict[str, Any]:
    """Calls are bounded by the step limits; input tokens are each task's first prompt (its
    first screen in the first configuration) times its steps; output by max_tokens."""
    from bmoca.agents.llm import first_prompt, prompts
    from bmoca.agents.llm.agent import GUI_KINDS, parse_name
    from bmoca.agents.llm.providers import price_of
    from bmoca.env import make

    spec = parse_name(agent)
    if spec is None:
        raise bad("--agent", f"{agent!r}: not a model agent name; valid: "
                  "[llm|mllm|t3a|m3a|uitars|qwen25vl|qwen3vl|coords1000/]"
                  "<provider>:<model>[@<base_url>]")
    price: tuple[float, float] | None = None if spec.provider == "openai-compatible" \
        else price_of(spec.model)
    if "price" in options:
        try:
            price_in, price_out = (float(x) for x in options["price"].split(","))
        except ValueError:
            raise bad("--agent-option", f"price={options['price']!r}: expected IN,OUT "
                      "(USD per 1M tokens)") from None
        price = (price_in, price_out)
    gui = spec.kind in GUI_KINDS
    try:
        max_tokens = int(options.get("max_tokens", 1024 if gui else 256))
    except ValueError:
        raise bad("--agent-option", f"max_tokens={options['max_tokens']!r}: expected a "
                  "whole number") from None
    images = 1 if spec.kind in ("mllm", "m3a") else 0
    first_config = episodes[0].config_id if episodes else "test_env_100"
    prompt_tokens: dict[str, int] = {}
    for task in {e.task.id: e.task for e in episodes}.values():
        env = make(task, config=first_config, observation="text", action="text")
        try:
            observation, info = env.reset(seed=0)
        finally:
            env.close()
        text = str(observation["text"])
        if gui:  # the screenshot at the phone's resolution: about 3,000 tokens each
            user, shots = first_prompt(spec.kind, info.get("goal", task.instruction))
            prompt_tokens[task.id] = math.ceil(len(user) / CHARS_PER_TOKEN) + shots * 3000
            continue
        user = (prompts.bmoca_user_text(info.get("goal", task.instruction), text, [])
                if spec.kind in ("llm", "mllm") else
                prompts.aw_user_text(task.instruction, prompts.aw_elements(text), []))
        prompt_tokens[task.id] = math.ceil((len(prompts.BMOCA_ROLE) + len(user))
                                           / CHARS_PER_TOKEN) + images * IMAGE_TOKENS
    calls = sum(e.task.step_limit for e in episodes)
    tokens_in = sum(prompt_tokens[e.task.id] * e.task.step_limit for e in episodes)
    tokens_out = calls * max_tokens
    cost = None if price is None else (tokens_in * price[0] + tokens_out * price[1]) / 1e6
    return {"model_calls_max": calls, "input_tokens_estimate": tokens_in,
            "output_tokens_max": tokens_out, "price_per_million": list(price) if price else None,
            "cost_usd_max": None if cost is None else round(cost, 4)}


def validate(
    task_specs: list[str] = typer.Option(None, "--tasks", help=TASKS_HELP + " [default: all]",
                                         show_default=False),
    task_ids: list[str] = typer.Option(None, "--task", help=TASK_HELP),
    task_split: str = task_split_option(),
    split: str = split_option("all"),
    config_spec: str = typer.Option(None, "--configs", help="comma-separated config ids "
                                    "or ranges (train_env_000..006)"),
    workers: int = typer.Option(1, min=1, help="worker processes"),
    screens: Path = typer.Option(None, help="write the last screen of each problem here"),
    device: str = typer.Option("sim", "--device", help=DEVICE_HELP + "; a real device "
                               "runs with one worker"),
    as_json: bool = typer.Option(False, "--json", help="print the outcome and the problems "
                                 "as JSON"),
    executor: str = typer.Option("process", "--executor", help=EXECUTOR_HELP),
    ray_address: str = typer.Option(None, "--ray", help=RAY_HELP),
    near: bool = typer.Option(False, "--near-misses", help="play every task's near-miss "
                              "rows instead (agent-played trajectories that must fail or "
                              "must pass; in the three certificate configurations unless "
                              "--configs or --split is given)"),
    write: Path = typer.Option(None, "--write", help="with --near-misses: write the "
                               "validity certificate (Markdown) here, e.g. docs/validity.md"),
) -> None:
    """Check every task: its expert must succeed and doing nothing must fail, in every
    configuration; with --near-misses, its near misses must fail and its other right paths
    pass. Exits 1 and lists each problem with its last screen."""
    import time

    from bmoca.device.provision import CannotReset
    from bmoca.eval.validate import validate as run_validation

    if write is not None and not near:
        raise bad("--write", "--write goes with --near-misses")
    task_list = [t for t in select_tasks(task_specs, task_ids, default="all",
                                         task_split=task_split) if t.expert]
    if near and config_spec is None and split == "all":
        from bmoca.eval.near_misses import CONFIGS

        chosen_configs = list(CONFIGS)
    else:
        chosen_configs = config_ids(split, config_spec)
    device = device_target(device)
    if device != "sim":
        workers = 1
    check_reachable(device)
    executor, ray_address, workers = executors.resolve(executor, ray_address, device, workers)
    if near:
        from bmoca.cli import near_misses

        near_misses.run(task_list, chosen_configs, workers=workers, device=device,
                        executor=executor, ray_address=ray_address, write=write,
                        screens=screens, as_json=as_json, progress=_progress)
        return
    started = time.perf_counter()
    with _progress() as progress:
        bar = progress.add_task("validate", total=None, status="")
        try:
            problems = run_validation(
                task_list, chosen_configs, workers=workers, device=device, executor=executor,
                ray_address=ray_address, on_start=lambda total: progress.update(bar, total=total),
                on_episode=lambda outcome: progress.update(bar, advance=1))
        except CannotReset as exc:
            progress.stop()
            error_line(exc)
            raise typer.Exit(2) from None
    seconds = time.perf_counter() - started
    episodes = 2 * len(task_list) * len(chosen_configs)
    paths = write_last_screens(screens, [(f"{p.agent}_{p.config_id}", p.task_id, p.what,
                                          p.last_screen) for p in problems])
    if as_json:
        print_json({"ok": not problems, "tasks": len(task_list),
                    "configs": len(chosen_configs), "episodes": episodes,
                    "seconds": round(seconds, 1),
                    "problems": [{"task": p.task_id, "config": p.config_id, "agent": p.agent,
                                  "what": p.what, "trace": p.trace[-4:], "last_screen": path}
                                 for p, path in zip(problems, paths, strict=True)]})
        raise typer.Exit(1 if problems else 0)
    if not problems:
        console.print(f"ok: {len(task_list)} tasks x {len(chosen_configs)} configurations: "
                      f"every expert succeeded and doing nothing never did "
                      f"({episodes} episodes, {seconds:.1f} s).", markup=False)
        return
    for problem, path in zip(problems, paths, strict=True):
        console.print(f"error {problem.config_id}  {problem.task_id}: {problem.what}",
                      markup=False, soft_wrap=True)
        for line in problem.trace[-4:]:
            console.print(f"    {line}", markup=False)
        if path:
            console.print(f"    last screen: {path}", markup=False)
        elif problem.last_screen:
            console.print(f"    last screen: {problem.last_screen[:600]}", markup=False)
    console.print(f"{len(problems)} problem(s) in {episodes} episodes ({seconds:.1f} s).",
                  markup=False)
    raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add these commands to the `bmoca` app."""
    app.command("tasks")(list_tasks)
    app.command("eval")(evaluate_command)
    app.command("validate")(validate)


__all__ = ["register", "terminate_like_ctrl_c"]
