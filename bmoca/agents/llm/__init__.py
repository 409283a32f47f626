"""Agents built on foundation models: B-MoCA's LLM/MLLM, AndroidWorld-style T3A/M3A, and
open GUI models in their own formats (UI-TARS, Qwen2.5-VL, Qwen3-VL, 0-1000 points).

Names: ``[<kind>/]<provider>:<model>[@<base_url>]`` with kind llm (default), mllm, t3a,
m3a, uitars, qwen25vl, qwen3vl or coords1000 and provider openai, openai-compatible,
anthropic or gemini, e.g. `openai:gpt-4o`, `mllm/gemini:gemini-1.5-pro`,
`t3a/openai-compatible:qwen2.5@http://localhost:8000/v1`,
`uitars/openai-compatible:ByteDance-Seed/UI-TARS-1.5-7B@http://localhost:8000/v1`.
See `docs/agents.md`. Importing this package imports no provider SDK.
"""

from __future__ import annotations

from typing import Any

from bmoca.agents.llm.agent import (
    GUI_KINDS,
    KINDS,
    OPTION_HELP,
    AgentOptions,
    ModelAgent,
    parse_name,
)
from bmoca.agents.llm.providers import PROVIDERS, ProviderConfigError, ProviderError

__all__ = ["GUI_KINDS", "KINDS", "OPTION_HELP", "PROVIDERS", "ModelAgent", "ProviderConfigError",
           "ProviderError", "build", "first_prompt", "is_model_agent", "parse_name"]


def is_model_agent(name: str) -> bool:
    return parse_name(name) is not None


def build(name: str, task_id: str, options: dict[str, Any] | None = None) -> ModelAgent:
    """A model agent for one task from its name and options (`ProviderConfigError` if bad)."""
    spec = parse_name(name)
    if spec is None:
        raise ProviderConfigError(f"{name!r} is not a model agent name "
                                  "([<kind>/]<provider>:<model>[@<base_url>])")
    if spec.kind in GUI_KINDS:
        return _gui(name, spec, task_id, options)
    parsed = AgentOptions.parse(options)
    if spec.kind in ("llm", "mllm"):
        from bmoca.agents.llm.bmoca_agent import BmocaAgent

        return BmocaAgent(name, spec, parsed, task_id, multimodal=spec.kind == "mllm")
    from bmoca.agents.llm.androidworld import AndroidWorldAgent

    return AndroidWorldAgent(name, spec, parsed, task_id, multimodal=spec.kind == "m3a")


def _gui(name: str, spec: Any, task_id: str, options: dict[str, Any] | None) -> ModelAgent:
    from bmoca.agents.llm.gui_models import split_options

    parsed, gui = split_options(spec.kind, options)
    if spec.kind == "uitars":
        from bmoca.agents.llm.uitars import UITarsAgent

        return UITarsAgent(name, spec, parsed, task_id, gui)
    if spec.kind == "coords1000":
        from bmoca.agents.llm.coords1000 import Coords1000Agent

        return Coords1000Agent(name, spec, parsed, task_id, gui)
    from bmoca.agents.llm.qwen_vl import QwenMobileAgent

    return QwenMobileAgent(name, spec, parsed, task_id, gui, qwen3=spec.kind == "qwen3vl")


def first_prompt(kind: str, goal: str) -> tuple[str, int]:
    """(the text of a GUI agent's first prompt, the most screenshots a request carries), for
    `bmoca eval --dry-run`'s estimate; the Pixel 3's resized image for Qwen2.5-VL."""
    from bmoca.agents.llm import prompts

    if kind == "uitars":
        from bmoca.agents.llm import uitars

        return uitars.SYSTEM + uitars.MOBILE_USE.format(
            language="English", instruction=prompts.instruction(goal)), 5
    if kind == "coords1000":
        from bmoca.agents.llm import coords1000

        return coords1000.ROLE + coords1000.user_text(goal, []), 1
    from bmoca.agents.llm import qwen_vl
    from bmoca.agents.llm.gui_models import QWEN_MAX_PIXELS, QWEN_MIN_PIXELS, resized

    qwen3 = kind == "qwen3vl"
    size = (999, 999) if qwen3 else resized(1080, 2160, QWEN_MIN_PIXELS, QWEN_MAX_PIXELS)
    return qwen_vl.system_prompt(*size, qwen3=qwen3) + f"The user query: {goal}", 1
