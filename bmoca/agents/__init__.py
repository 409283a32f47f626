"""Agents: the protocol, baselines, and `build` to make one from a command-line name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bmoca import tasks
from bmoca.agents import plugins
from bmoca.agents.base import Agent
from bmoca.agents.simple import ExpertAgent, NoopAgent, RandomAgent, RowAgent

__all__ = ["Agent", "ExpertAgent", "NoopAgent", "RandomAgent", "RowAgent", "build", "NAMES"]

NAMES = ("expert", "random", "random:dual_gesture", "noop", "replay:CONFIG", "row:NEAR_MISS")
MODEL_NAMES = ("[llm|mllm|t3a|m3a/]openai:<model>", "anthropic:<model>", "gemini:<model>",
               "openai-compatible:<model>@<base_url>",
               "uitars|qwen25vl|qwen3vl|coords1000/openai-compatible:<model>@<base_url>",
               "hf:<local model or adapter directory>")


def build(name: str, task: tasks.Task, options: Mapping[str, Any] | None = None) -> Agent:
    """An agent for one task from its command-line name (`expert`, `random`, `noop`,
    `row:NAME` for one of the task's near-miss rows (`bmoca.tasks.near_misses`),
    `bc:CHECKPOINT` for a policy trained by `bmoca train bc`, `ppo:`/`dqn:`/`iql:CHECKPOINT`
    after `bmoca train ppo|dqn|iql`, `hf:PATH` for a local Hugging Face model (one tuned
    with `bmoca train lora`), or a model agent such as `openai:gpt-4o`, `mllm/gemini:gemini-1.5-pro`; see docs/agents.md).

    An agent of your own is `package.module:ClassOrFactory` or a name an installed package
    adds to the `bmoca.agents` entry-point group (`bmoca.agents.plugins`, docs/agents.md).

    `options` are the model agents' options (`bmoca eval --agent-option key=value`), or the
    keyword arguments of your own agent's factory; the baselines take none. Raises
    ValueError naming what is wrong.
    """
    from bmoca.agents import learned, llm
    from bmoca.agents.llm import hf

    if llm.is_model_agent(name):
        return llm.build(name, task.id, dict(options or {}))
    if hf.is_hf_agent(name):
        from bmoca.train import TrainError

        try:
            return hf.build(name, options)
        except TrainError as exc:
            raise ValueError(str(exc)) from None
    if learned.is_learned_agent(name):
        from bmoca.train import TrainError

        try:
            return learned.build(name, options)
        except TrainError as exc:
            raise ValueError(str(exc)) from None
    kind, _, option = name.partition(":")
    if kind == "replay" and option:
        from bmoca.agents.replay import ReplayAgent

        return ReplayAgent(task, option)
    if kind == "row" and option:
        return RowAgent(task, option)
    if (kind in ("expert", "noop") and not option) or kind == "random":
        if options:
            raise ValueError(f"agent {name!r} takes no options (got {', '.join(options)}); "
                             "options are for model agents and agents of your own")
        if kind == "expert":
            return ExpertAgent(task)
        return RandomAgent(option or "discrete") if kind == "random" else NoopAgent()
    factory = plugins.find(name)
    if factory is not None:
        return plugins.build(name, factory, task, options)
    installed = sorted(plugins.installed())
    extra = f", an installed agent ({', '.join(installed)})" if installed else ""
    raise ValueError(f"unknown agent {name!r}; available: {', '.join(NAMES)}, or a model "
                     f"agent: {', '.join(MODEL_NAMES)}, or a trained agent "
                     f"bc:|ppo:|dqn:|iql:CHECKPOINT{extra}, or your own package.module:Class")
