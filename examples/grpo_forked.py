"""Group rollouts from forked episode states: GRPO-style policy gradients on one task.

Each iteration plays the current policy (sampled) from reset in a training configuration:
the trunk. Before its first step and before a few of its later steps (`--forks` of them,
drawn at random) the episode is forked (`TaskEnv.get_state()`, a `TaskState` around the
phone's `EnvState`), and a group of `--group` continuations is sampled from that one
moment (`reset(options={"state": state})`), each to the episode's end or the horizon.
A continuation's return is the task's reward from the fork on (1 on success, 0 otherwise,
less `--step-cost` a step), and its advantage is group-relative, as in GRPO:

    A_i = (R_i - mean(R)) / (std(R) + eps)   over the G continuations of one state,

given to every step of continuation i. No critic: the group is the baseline, and a fork
mid-episode scores the steps still to come from a state the policy really reaches. The
update is GRPO's clipped-ratio objective with a KL penalty (the k3 estimator) to the
starting policy, each group and each continuation weighing the same:

    L = -mean over groups and their continuations of the mean over its steps of
        [min(r A, clip(r, 1 - eps, 1 + eps) A) - beta KL(pi || pi_start)],
    r = pi(a|s) / pi_old(a|s).

A group whose continuations all score the same has no signal and is left out of the
update (DAPO's dynamic sampling), so it does not dilute the others.

The policy is the BC network (`bmoca.train.models.Policy`, the `small` architecture) on
`TaskEnv`'s pixels and 385 discrete actions, as PPO and DQN use it (`bmoca.train.rl`).
By default it starts from behaviour cloning done here on the scripted expert's
demonstrations (played as discrete actions, Settings opened from the notification
shade) in the first `--bc-configs` training configurations only. `--init scratch` starts
from a random network, which almost never succeeds (the default task needs the shade
pulled down and then its gear tapped: 2 of 385 actions in a row), so its groups score
all 0 and teach nothing; `--init FILE` loads a `bmoca train bc` checkpoint. Greedy
success is measured in the training configurations and in the 10 test configurations,
where the policy never trains and no expert information is used.

    python examples/grpo_forked.py                        # seed 0: about 5 min on 2 busy cores
    python examples/grpo_forked.py --seed 1 --out runs/grpo-1.json --save runs/grpo-1.pt
    bmoca eval --agent bc:runs/grpo-1.pt --tasks settings/open_the_setting_app --split test
    python examples/grpo_forked.py --summarize runs/grpo-*.json --plot docs/training-grpo-curve.png
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.nn import functional

from bmoca import configs, tasks
from bmoca.demos.generate import generate
from bmoca.train import bc
from bmoca.train.datasets import StepDataset, to_tensor, training_configs
from bmoca.train.models import Policy, build_policy, new_config
from bmoca.train.rl import greedy_success
from bmoca.train.rl_env import TaskEnv, TaskState


@dataclass
class Settings:
    """Every option of a run (each is a command-line flag)."""

    task: str = "settings/open_the_setting_app"
    configs: list[str] = field(default_factory=lambda: training_configs(35))
    eval_configs: list[str] = field(default_factory=lambda: list(configs.ids("test")))
    init: str = "bc"             # "bc": behaviour cloning first; "scratch": random; or a checkpoint
    bc_configs: int = 14         # BC demonstrations: the first N training configurations
    bc_steps: int = 500
    bc_lr: float = 1e-3
    iterations: int = 60
    episodes: int = 4            # trunks per iteration
    forks: int = 1               # mid-episode fork points per trunk (the reset is always one)
    group: int = 6               # continuations per fork point
    horizon: int = 0             # steps per episode; 0: the task's step limit
    step_cost: float = 0.0
    lr: float = 1e-4
    clip: float = 0.2
    kl: float = 0.1
    epochs: int = 2
    batch_size: int = 64
    eval_every: int = 5
    seed: int = 0
    threads: int = 1


@dataclass
class Step:
    """One step of a continuation, as the update needs it."""

    pixels: np.ndarray
    action: int
    logprob: float


@dataclass
class Group:
    """The continuations sampled from one forked state."""

    config: str
    fork_step: int               # steps the trunk had taken when it was forked
    fork_observation: np.ndarray
    first_observations: list[np.ndarray] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    successes: list[bool] = field(default_factory=list)
    steps: list[list[Step]] = field(default_factory=list)
    advantages: np.ndarray = field(default_factory=lambda: np.zeros(0))


def group_advantages(returns: Sequence[float], eps: float = 1e-6) -> np.ndarray:
    """GRPO's group-relative advantages: zero-mean, unit spread unless all are equal
    (then all zero: a group that cannot tell its members apart teaches nothing)."""
    values = np.asarray(returns, dtype=np.float64)
    return (values - values.mean()) / (values.std() + eps)


class Sampler:
    """The policy's actions for one goal, sampled with its own seeded generator."""

    def __init__(self, policy: Policy, goal: str, seed: int) -> None:
        self.policy, self.goal = policy, goal
        self.generator = torch.Generator().manual_seed(seed)

    @torch.no_grad()
    def __call__(self, pixels: np.ndarray) -> tuple[int, float]:
        logits = self.policy(to_tensor(pixels)[None], [self.goal])[0]
        logprobs = functional.log_softmax(logits, dim=-1)
        action = int(torch.multinomial(logprobs.exp(), 1, generator=self.generator))
        return action, float(logprobs[action])


def play(env: TaskEnv, observation: np.ndarray, sample: Sampler, step_cost: float,
         moments: list[tuple[int, np.ndarray, TaskState]] | None = None
         ) -> tuple[list[Step], float, bool]:
    """Sample the policy from `observation` (the env's current one) to the episode's end:
    the steps, the return and whether the task succeeded. With `moments`, each moment
    before a step is appended to it: (steps taken, observation, the forked state)."""
    steps: list[Step] = []
    total, success, done = 0.0, False, False
    while not done:
        if moments is not None:
            moments.append((len(steps), observation, env.get_state()))
        action, logprob = sample(observation)
        steps.append(Step(observation, action, logprob))
        observation, reward, terminated, truncated, info = env.step(action)
        total += reward - step_cost
        success, done = bool(info["is_success"]), terminated or truncated
    return steps, total, success


def shuffled_cycle(items: Sequence[str], rng: np.random.Generator) -> Iterator[str]:
    """`items` in a fresh random order per pass: each is visited as often as the others."""
    while True:
        yield from (items[i] for i in rng.permutation(len(items)))


def collect(env: TaskEnv, sample: Sampler, settings: Settings, configs_left: Iterator[str],
            rng: np.random.Generator) -> tuple[list[Group], int, int]:
    """One iteration's groups: a trunk per episode, forked at its reset and at up to
    `forks` later steps, and `group` continuations from each fork. Also returns the
    episodes and environment steps this took."""
    groups: list[Group] = []
    episodes = env_steps = 0
    for _ in range(settings.episodes):
        config = next(configs_left)
        observation, _ = env.reset(options={"config": config})
        forked: list[tuple[int, np.ndarray, TaskState]] = []
        trunk, _, _ = play(env, observation, sample, settings.step_cost, forked)
        episodes, env_steps = episodes + 1, env_steps + len(trunk)
        later = forked[1:]
        chosen = sorted(rng.choice(len(later), min(settings.forks, len(later)), replace=False))
        for fork_step, fork_observation, state in [forked[0]] + [later[i] for i in chosen]:
            group = Group(config, fork_step, fork_observation)
            for _ in range(settings.group):
                first, _ = env.reset(options={"state": state})
                steps, total, success = play(env, first, sample, settings.step_cost)
                group.first_observations.append(first)
                group.steps.append(steps)
                group.returns.append(total)
                group.successes.append(success)
                episodes, env_steps = episodes + 1, env_steps + len(steps)
            group.advantages = group_advantages(group.returns)
            groups.append(group)
    return groups, episodes, env_steps


def update(policy: Policy, reference: Policy, optimiser: torch.optim.Optimizer,
           groups: list[Group], goal: str, settings: Settings,
           generator: torch.Generator) -> dict[str, float]:
    """GRPO's clipped-ratio step with a KL penalty to `reference`, over every step of the
    iteration's continuations (`--epochs` passes in minibatches), each continuation and
    each group weighing the same. Groups whose continuations all scored the same carry no
    signal and are left out (DAPO's dynamic sampling), so they do not dilute the others."""
    groups = [group for group in groups if np.any(group.advantages)]
    if not groups:
        return {"loss": 0.0, "kl": 0.0, "clipped": 0.0}
    rows = [(step, float(advantage), 1.0 / (len(steps) * len(group.steps) * len(groups)))
            for group in groups
            for steps, advantage in zip(group.steps, group.advantages, strict=True)
            for step in steps]
    pixels = torch.stack([to_tensor(step.pixels) for step, _, _ in rows])
    actions = torch.tensor([step.action for step, _, _ in rows])
    old = torch.tensor([step.logprob for step, _, _ in rows])
    advantages = torch.tensor([advantage for _, advantage, _ in rows], dtype=torch.float32)
    weights = torch.tensor([weight for _, _, weight in rows], dtype=torch.float32)
    with torch.no_grad():
        ref = torch.cat([_logprobs(reference, pixels[i:i + settings.batch_size],
                                   actions[i:i + settings.batch_size], goal)
                         for i in range(0, len(rows), settings.batch_size)])
    policy.train()
    losses, kls, clipped = [], [], []
    for _ in range(settings.epochs):
        order = torch.randperm(len(rows), generator=generator)
        for start in range(0, len(rows), settings.batch_size):
            batch = order[start:start + settings.batch_size]
            logprobs = _logprobs(policy, pixels[batch], actions[batch], goal)
            ratio = (logprobs - old[batch]).exp()
            low, high = 1 - settings.clip, 1 + settings.clip
            surrogate = torch.minimum(ratio * advantages[batch],
                                      ratio.clamp(low, high) * advantages[batch])
            gap = ref[batch] - logprobs
            kl = gap.exp() - gap - 1  # k3: an unbiased, non-negative estimate of KL
            share = len(rows) / len(batch)  # minibatch losses sum to the iteration's
            loss = -(weights[batch] * (surrogate - settings.kl * kl)).sum() * share
            optimiser.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optimiser.step()
            losses.append(float(loss.detach()))
            kls.append(float(kl.detach().mean()))
            clipped.append(float(((ratio < low) | (ratio > high)).float().mean().detach()))
    policy.eval()
    return {"loss": float(np.mean(losses)), "kl": float(np.mean(kls)),
            "clipped": float(np.mean(clipped))}


def _logprobs(policy: Policy, pixels: torch.Tensor, actions: torch.Tensor,
              goal: str) -> torch.Tensor:
    logits = policy(pixels, [goal] * len(pixels))
    return functional.log_softmax(logits, dim=-1).gather(1, actions[:, None])[:, 0]


def starting_policy(settings: Settings, task: tasks.Task, demos: str | None = None,
                    log: Callable[[str], None] = print) -> Policy:
    """A random small network, or one cloned from the expert's demonstrations in the first
    `bc_configs` training configurations (recorded into `demos`, or a temporary folder)."""
    torch.manual_seed(settings.seed)
    if settings.init == "scratch":
        return build_policy(new_config()).eval()
    if settings.init != "bc":
        return bc.load(settings.init)  # a checkpoint of `bmoca train bc`
    with tempfile.TemporaryDirectory(prefix="grpo-demos-") as scratch:
        out = Path(demos or scratch)
        summary = generate(out, [task], settings.configs[:settings.bc_configs],
                           play="discrete", route="shade", seed=0)
        data = StepDataset(out, tasks=[task.id])
        policy, result = bc.train(data, bc.Settings(steps=settings.bc_steps, batch_size=16,
                                                    lr=settings.bc_lr, seed=settings.seed))
    log(f"# BC: {summary.total_kept} demonstrations ({len(data)} steps), "
        f"{settings.bc_steps} steps, final loss {result.losses[-1]:.3f}, "
        f"{result.seconds:.0f} s")
    return policy.eval()


def run(settings: Settings, *, demos: str | None = None,
        on_row: Callable[[dict[str, Any]], None] | None = None,
        on_groups: Callable[[list[Group]], None] | None = None,
        log: Callable[[str], None] = print) -> tuple[Policy, list[dict[str, Any]]]:
    """Train from `settings`; returns the policy and the curve (row 0: the start)."""
    torch.set_num_threads(settings.threads)
    task = tasks.get(settings.task)
    horizon = settings.horizon or task.step_limit
    started = time.perf_counter()
    policy = starting_policy(settings, task, demos, log)
    reference = copy.deepcopy(policy).requires_grad_(False)
    optimiser = torch.optim.Adam(policy.parameters(), lr=settings.lr)
    rng = np.random.default_rng(settings.seed)
    generator = torch.Generator().manual_seed(settings.seed)
    configs_left = shuffled_cycle(settings.configs, rng)
    sample = Sampler(policy, task.goal, settings.seed)
    env = TaskEnv(task, settings.configs, horizon=horizon, seed=settings.seed)
    curve: list[dict[str, Any]] = []
    episodes = env_steps = 0
    try:
        for iteration in range(settings.iterations + 1):
            row: dict[str, Any] = {"iteration": iteration}
            if iteration:
                groups, played, stepped = collect(env, sample, settings, configs_left, rng)
                episodes, env_steps = episodes + played, env_steps + stepped
                if on_groups is not None:
                    on_groups(groups)
                returns = [r for g in groups for r in g.returns]
                successes = [s for g in groups for s in g.successes]
                stats = update(policy, reference, optimiser, groups, task.goal, settings,
                               generator)
                row.update(group_return=round(float(np.mean(returns)), 4),
                           group_success=round(float(np.mean(successes)), 4),
                           informative=sum(bool(np.any(g.advantages)) for g in groups),
                           groups=len(groups), **{k: round(v, 4) for k, v in stats.items()})
            row.update(episodes=episodes, env_steps=env_steps)
            if iteration % settings.eval_every == 0 or iteration == settings.iterations:
                row["greedy_train"] = greedy_success(policy, task, settings.configs, horizon)
                row["greedy_test"] = greedy_success(policy, task, settings.eval_configs,
                                                    horizon)
                policy.eval()
            row["seconds"] = round(time.perf_counter() - started, 1)
            curve.append(row)
            if on_row is not None:
                on_row(row)
    finally:
        env.close()
    return policy, curve


COLUMNS = (("iteration", "iter", 4), ("episodes", "episodes", 8), ("env_steps", "steps", 6),
           ("group_return", "group R", 7), ("informative", "inform.", 7),
           ("kl", "KL", 6), ("greedy_train", "train", 6), ("greedy_test", "test", 6),
           ("seconds", "s", 6))


def table_line(row: dict[str, Any] | None = None) -> str:
    """The table's header (no row) or one row of it."""
    cells = []
    for key, title, width in COLUMNS:
        if row is None:
            cells.append(f"{title:>{width}}")
            continue
        value = row.get(key)
        text = "-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)
        cells.append(f"{text:>{width}}")
    return " ".join(cells)


def summarize(paths: Sequence[str], plot: str | None = None) -> str:
    """A markdown table of several runs' curves at their evaluated iterations (mean ± std,
    and min-max, over runs), and optionally a PNG plot of greedy success. The group return
    is averaged over the iterations since the previous evaluation (one is noisy)."""
    curves = [json.loads(Path(p).read_text(encoding="utf-8"))["curve"] for p in paths]
    lines = ["| iteration | episodes | group return (sampled) | greedy success, train | "
             "greedy success, test |", "|---:|---:|---:|---:|---:|"]
    series: dict[str, list[tuple[float, float]]] = {"greedy_train": [], "greedy_test": []}
    iterations = [r["iteration"] for r in curves[0] if "greedy_train" in r]
    for before, iteration in zip([-1] + iterations, iterations, strict=False):
        rows = [curve[iteration] for curve in curves]
        window = [[r["group_return"] for r in curve[before + 1:iteration + 1]
                   if "group_return" in r] for curve in curves]
        values = {"group_return": [np.mean(w) for w in window if w],
                  "greedy_train": [r["greedy_train"] for r in rows],
                  "greedy_test": [r["greedy_test"] for r in rows]}
        cells = [str(iteration), f"{np.mean([r['episodes'] for r in rows]):.0f}"]
        for key, found in values.items():
            if not found:
                cells.append("-")
                continue
            found = np.array(found, dtype=float)
            cells.append(f"{found.mean():.2f} ± {found.std():.2f} "
                         f"({found.min():.2f}–{found.max():.2f})")
            if key in series:
                series[key].append((found.mean(), found.std()))
        lines.append("| " + " | ".join(cells) + " |")
    if plot:
        _plot(plot, iterations, series, len(curves))
    return "\n".join(lines)


def _plot(path: str, iterations: list[int], series: dict[str, list[tuple[float, float]]],
          runs: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(6, 3.5), dpi=100)
    for key, label in (("greedy_train", "training configurations"),
                       ("greedy_test", "test configurations (never trained in)")):
        mean = np.array([m for m, _ in series[key]])
        spread = np.array([s for _, s in series[key]])
        axes.plot(iterations, mean, marker="o", label=label)
        axes.fill_between(iterations, mean - spread, mean + spread, alpha=0.2)
    axes.set(xlabel="iteration", ylabel="greedy success", ylim=(0, 1),
             title=f"GRPO from forked states: mean ± std over {runs} seeds")
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path)


def main(argv: Sequence[str] | None = None) -> int:
    defaults = Settings()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default=defaults.task)
    parser.add_argument("--configs", default="35",
                        help="training configurations: 7/10/21/35 (the first N) or ids")
    parser.add_argument("--eval-configs", default="test", help="'test' or comma-separated ids")
    for name in ("init", "bc_configs", "bc_steps", "bc_lr", "iterations", "episodes", "forks",
                 "group", "horizon", "step_cost", "lr", "clip", "kl", "epochs", "batch_size",
                 "eval_every", "seed", "threads"):
        value = getattr(defaults, name)
        parser.add_argument("--" + name.replace("_", "-"), type=type(value), default=value)
    parser.add_argument("--demos", help="record the BC demonstrations here (kept)")
    parser.add_argument("--out", help="write the settings and curve here as JSON")
    parser.add_argument("--save", help="write the trained policy here (a BC checkpoint)")
    parser.add_argument("--json", action="store_true", help="print the curve as JSON lines")
    parser.add_argument("--summarize", nargs="+", metavar="CURVE",
                        help="print a markdown table of these --out files and exit")
    parser.add_argument("--plot", help="with --summarize: also draw greedy success as a PNG")
    args = parser.parse_args(argv)
    if args.summarize:
        print(summarize(args.summarize, args.plot))
        return 0
    values = {name: getattr(args, name) for name in asdict(defaults)
              if name not in ("task", "configs", "eval_configs")}
    chosen = args.configs.split(",")
    settings = Settings(
        task=args.task, **values,
        configs=training_configs(int(chosen[0])) if chosen[0].isdigit() else chosen,
        eval_configs=(list(configs.ids("test")) if args.eval_configs == "test"
                      else args.eval_configs.split(",")))
    def log(line: str) -> None:  # with --json, stdout carries only the curve
        print(line, file=sys.stderr if args.json else sys.stdout, flush=True)

    def on_row(row: dict[str, Any]) -> None:
        print(json.dumps(row) if args.json else table_line(row), flush=True)

    if not args.json:
        print(table_line())
    policy, curve = run(settings, demos=args.demos, on_row=on_row, log=log)
    if args.save:
        bc.save(policy, args.save, extra={"grpo": asdict(settings)})
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"settings": asdict(settings), "curve": curve}, indent=1),
                       encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
