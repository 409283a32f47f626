"""A local Hugging Face causal LM as a B-MoCA agent (`hf:PATH`), and its training data.

The model sees B-MoCA's action-only prompt (the custom Llama-3 agent's, §6.4: the role
line, then the instructions asking only for `- Action:`, the goal, the last 4 previous
actions and the screen), built by the same `prompts.bmoca_user_text` as the `llm/...`
agents with `cot=false`, and its answer goes to the environment's `text` action mode
like theirs: an answer that does not parse is a counted invalid action, not a crash.
`sft_examples` turns expert demonstrations into exactly these prompts, with the history
written by the same `previous_action` as the agents, for `bmoca train lora`.

PATH is a model directory (a merged LoRA model, or any causal LM) or a LoRA adapter
directory (its base from `-o base=DIR` or the one recorded at training). Local files
only; torch, transformers and peft are imported when such an agent is built.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bmoca.agents.llm import prompts
from bmoca.agents.llm.bmoca_agent import previous_action
from bmoca.env.actions import TextActions

__all__ = ["HFAgent", "OPTIONS", "action_only_prompt", "is_hf_agent", "sft_examples"]

PREFIX = "hf:"
HISTORY = 4  # previous actions shown, as B-MoCA

OPTIONS: dict[str, str] = {
    "base": "the base model directory when PATH is a LoRA adapter (default: the one it was "
            "trained on)",
    "sample": "sample instead of greedy decoding (true/false; default false)",
    "temperature": "sampling temperature (default 0.1, the reference's Llama-3 setting)",
    "top_p": "nucleus sampling (default 1)",
    "max_tokens": "maximum new tokens (default 256)",
    "device": "torch device: cpu (default), cuda, cuda:1, mps",
    "dtype": "float32 (default), bfloat16 or float16",
}

_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


def is_hf_agent(name: str) -> bool:
    return name.startswith(PREFIX)


def action_only_prompt(goal: str, observation: str,
                       previous: Sequence[str]) -> tuple[str, str]:
    """(system, user) text of B-MoCA's action-only prompt for one step."""
    return prompts.BMOCA_ROLE, prompts.bmoca_user_text(goal, observation,
                                                       list(previous)[-HISTORY:], cot=False)


def sft_examples(dataset: Any, *, tasks: Sequence[str] | None = None,
                 config_ids: Sequence[str] | None = None) -> list[Any]:
    """Supervised examples (`bmoca.train.lora.Example`) of every step with a text action
    in the successful demonstrations of `dataset`, optionally of some tasks and
    configurations; the completion is `- Action: <the expert's text action>`."""
    from bmoca.train.lora import Example

    parser = TextActions()
    wanted_tasks, wanted_configs = set(tasks or ()), set(config_ids or ())
    out = []
    for demo in dataset.episodes:
        if not demo.success or (wanted_tasks and demo.task_id not in wanted_tasks) or (
                wanted_configs and demo.config_id not in wanted_configs):
            continue
        previous: list[str] = []
        for step in demo.steps:
            if not step.text_action:  # typed text, waits: not a B-MoCA text action
                continue
            system, user = action_only_prompt(demo.goal, step.text_observation, previous)
            out.append(Example(system, user, f"- Action: {step.text_action}"))
            _label, entry = previous_action(parser, step.text_observation, step.text_action)
            if entry is not None:
                previous.append(entry)
    return out


def _parse_options(options: Mapping[str, Any]) -> dict[str, Any]:
    parsed: dict[str, Any] = {"base": None, "sample": False, "temperature": 0.1,
                              "top_p": 1.0, "max_tokens": 256, "device": "cpu",
                              "dtype": "float32"}
    for key, value in options.items():
        key = key.strip().lower().replace("-", "_")
        if key == "cache":  # `--no-cache` sets it for every agent; nothing is cached here
            continue
        if key not in OPTIONS:
            raise ValueError(f"unknown option {key!r} for an hf: agent; valid: "
                             f"{', '.join(OPTIONS)}")
        text = str(value).strip()
        try:
            if key == "sample":
                if text.lower() not in _TRUE | _FALSE:
                    raise ValueError
                parsed[key] = text.lower() in _TRUE
            elif key in ("temperature", "top_p"):
                parsed[key] = float(text)
                if parsed[key] < 0 or (key == "top_p" and not 0 < parsed[key] <= 1):
                    raise ValueError
            elif key == "max_tokens":
                parsed[key] = int(text)
                if parsed[key] < 1:
                    raise ValueError
            else:
                parsed[key] = text
        except ValueError:
            raise ValueError(f"hf: agent option {key}={value!r}: {OPTIONS[key]}") from None
    return parsed


_LOADED: dict[tuple[Any, ...], tuple[Any, Any]] = {}


def _load(path: str, options: dict[str, Any]) -> tuple[Any, Any]:
    """One load per model, version and settings: the runner builds an agent per episode."""
    from bmoca.train.lora import load_model

    directory = Path(path).expanduser()
    stamp = max((f.stat().st_mtime for f in directory.iterdir() if f.is_file()), default=0.0) \
        if directory.is_dir() else 0.0
    key = (str(directory.resolve()), stamp, options["base"], options["dtype"],
           options["device"])
    if key not in _LOADED:
        _LOADED.clear()
        model, tokenizer, _saved = load_model(directory, base=options["base"],
                                              dtype=options["dtype"], device=options["device"])
        _LOADED[key] = (model, tokenizer)
    return _LOADED[key]


class HFAgent:
    """B-MoCA's text agent with a local model: text observation in, text action out."""

    action_mode = "text"
    observation_modes = ("text",)

    def __init__(self, name: str, options: Mapping[str, Any] | None = None) -> None:
        from bmoca.train import require_torch

        self.torch = require_torch()
        self.name = name
        self.path = name[len(PREFIX):]
        if not self.path:
            raise ValueError(f"{name!r}: name the model directory, hf:PATH")
        self.options = _parse_options(dict(options or {}))
        self.model, self.tokenizer = _load(self.path, self.options)
        if self.tokenizer.eos_token_id is None:
            raise ValueError(f"{self.path}: the tokenizer has no end-of-sequence token")
        self.env_options: dict[str, Any] = {"text_bbox": False}
        self.last_call: dict[str, Any] | None = None
        self._parser = TextActions()
        self.previous: list[str] = []
        self.goal, self.seed, self.step = "", None, 0

    def reset(self, goal: str, seed: int | None = None) -> None:
        self.goal, self.seed, self.step = goal, seed, 0
        self.previous = []
        self.last_call = None

    def _generation(self) -> Any:
        import transformers

        eos = {int(self.tokenizer.eos_token_id)}
        configured = getattr(getattr(self.model, "generation_config", None), "eos_token_id",
                             None)
        eos |= set(configured if isinstance(configured, list) else
                   [configured] if configured is not None else [])
        sample = self.options["sample"] and self.options["temperature"] > 0
        extra = ({"temperature": self.options["temperature"], "top_p": self.options["top_p"]}
                 if sample else {})
        return transformers.GenerationConfig(
            max_new_tokens=self.options["max_tokens"], do_sample=sample,
            eos_token_id=sorted(eos), pad_token_id=int(self.tokenizer.pad_token_id), **extra)

    def act(self, observation: dict[str, Any]) -> str:
        from bmoca.train.lora import prompt_ids, render_prompt

        torch = self.torch
        screen = str(observation["text"])
        system, user = action_only_prompt(self.goal, screen, self.previous)
        ids = prompt_ids(self.tokenizer, system, user)
        device = next(self.model.parameters()).device
        inputs = torch.tensor([ids], device=device)
        digest = hashlib.sha256(f"{self.seed}|{self.step}".encode()).digest()
        torch.manual_seed(int.from_bytes(digest[:4], "big"))  # sampling, seeded per step
        generation = self._generation()
        started = time.perf_counter()
        with torch.no_grad():
            output = self.model.generate(input_ids=inputs,
                                         attention_mask=torch.ones_like(inputs),
                                         generation_config=generation)
        new = output[0, len(ids):].tolist()
        answer = self.tokenizer.decode(new, skip_special_tokens=True)
        stopped = bool(new) and new[-1] in generation.eos_token_id
        self.last_call = {
            "model": self.path, "provider": "hf", "prompt": render_prompt(
                self.tokenizer, system, user)[0], "response": answer,
            "input_tokens": len(ids), "output_tokens": len(new), "cost_usd": 0.0,
            "cached": False, "latency_s": round(time.perf_counter() - started, 4),
            "attempts": 1, "finish_reason": "stop" if stopped else "length"}
        _label, entry = previous_action(self._parser, screen, answer)
        if entry is not None:
            self.previous.append(entry)
        self.step += 1
        return answer


def build(name: str, options: Mapping[str, Any] | None = None) -> HFAgent:
    return HFAgent(name, options)
