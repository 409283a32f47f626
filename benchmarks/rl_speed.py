"""RL collection speed: environment steps/s that vectorised phones deliver to an RL learner.

For each layout it steps `TaskEnv`s (5-step episodes of "open Gmail", random discrete
actions, pixels observation) through stable-baselines3's vectorised envs and prints the
steps/s of collection alone; with `--policy` it also runs the small BC network's forward
pass on every batch of observations, as PPO's rollout does.

    python benchmarks/rl_speed.py [--steps 400] [--envs 1 2 4] [--policy]

`dummy` steps all phones in this process; `subproc` gives each phone its own process
(SubprocVecEnv), so collection uses as many cores as there are phones.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from bmoca.train.rl_env import TaskEnv

TASK = "gmail/open_Gmail"
CONFIGS = ["train_env_000", "train_env_001", "train_env_002"]


def _env(rank: int):
    return lambda: TaskEnv(TASK, CONFIGS, seed=rank)


def speed(layout: str, envs: int, steps: int, policy) -> float:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    builders = [_env(rank) for rank in range(envs)]
    vec = SubprocVecEnv(builders) if layout == "subproc" else DummyVecEnv(builders)
    rng = np.random.default_rng(0)
    try:
        observations = vec.reset()
        rounds = max(1, steps // envs)
        for i in range(rounds + 2):
            if i == 2:  # the first rounds start processes and phones
                start = time.perf_counter()
            if policy is not None:
                import torch

                with torch.no_grad():
                    pixels = torch.as_tensor(observations).permute(0, 3, 1, 2).float() / 255
                    policy(pixels, ["Open Gmail"] * len(pixels))
            actions = rng.integers(0, 385, size=envs)
            observations, *_ = vec.step(actions)
        return rounds * envs / (time.perf_counter() - start)
    finally:
        vec.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--envs", type=int, nargs="+", default=[1, 2, os.cpu_count() or 1])
    parser.add_argument("--policy", action="store_true",
                        help="also run the small policy's forward pass per batch")
    args = parser.parse_args()
    policy = None
    if args.policy:
        import torch

        from bmoca.train.models import build_policy

        torch.set_num_threads(1)
        policy = build_policy({"arch": "small"}).eval()
    print(f"cores: {os.cpu_count()}  task: {TASK}  observation: pixels 256x128")
    for envs in sorted(set(args.envs)):
        for layout in ("dummy", "subproc"):
            rate = speed(layout, envs, args.steps, policy)
            print(f"{layout:8s} envs={envs:<3d} {rate:8.1f} env steps/s")


if __name__ == "__main__":
    main()
