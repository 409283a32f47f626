"""BC training speed on the CPU: samples/s of optimisation (forward, backward, AdamW step)
for each architecture, on random 256x128 screens, batch 32, after 2 warm-up steps.

    python benchmarks/bc_speed.py [--steps 10] [--threads 1] [--arch small reference]

The reference architecture needs torchvision and transformers; its text encoder here is
a MiniLM-sized BERT built from a config (6 layers, 384 wide; frozen and cached per goal,
so its cost is one encoding per distinct goal, as in training).
"""

from __future__ import annotations

import argparse
import time

import torch

from bmoca.train.models import build_policy


def speed(arch: str, steps: int, batch: int) -> float:
    torch.manual_seed(0)
    policy = build_policy({"arch": arch}).train()  # reference: MiniLM-L6's sizes, no weights
    optimiser = torch.optim.AdamW([p for p in policy.parameters() if p.requires_grad])
    pixels = torch.rand(batch, 3, 256, 128)
    goals = [f"Goal: task {i % 15}" for i in range(batch)]
    actions = torch.randint(0, 385, (batch,))
    for i in range(steps + 2):
        if i == 2:
            start = time.perf_counter()
        loss = torch.nn.functional.cross_entropy(policy(pixels, goals), actions)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    return steps * batch / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--arch", nargs="+", default=["small", "reference"])
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    for arch in args.arch:
        print(f"{arch}: {speed(arch, args.steps, args.batch):.1f} samples/s "
              f"(batch {args.batch}, {args.threads} thread(s), torch {torch.__version__})")


if __name__ == "__main__":
    main()
