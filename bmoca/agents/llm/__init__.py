"""Agents built on foundation models: B-MoCA's LLM/MLLM and AndroidWorld-style T3A/M3A.

Names: ``[<kind>/]<provider>:<model>[@<base_url>]`` with kind llm (default), mllm, t3a or
m3a and provider openai, openai-compatible, anthropic or gemini, e.g. `openai:gpt-4o`,
`mllm/gemini:gemini-1.5-pro`, `t3a/openai-compatible:qwen2.5@http://localhost:8000/v1`.
See `docs/agents.md`. Importing this package imports no provider SDK.
"""

from __future__ import annotations

from typing import Any

from bmoca.agents.llm.agent import KINDS, OPTION_HELP, AgentOptions, ModelAgent, parse_name
from bmoca.agents.llm.providers import PROVIDERS, ProviderConfigError, ProviderError

__all__ = ["KINDS", "OPTION_HELP", "PROVIDERS", "ModelAgent", "ProviderConfigError",
           "ProviderError", "build", "is_model_agent", "parse_name"]


def is_model_agent(name: str) -> bool:
    return parse_name(name) is not None


def build(name: str, task_id: str, options: dict[str, Any] | None = None) -> ModelAgent:
    """A model agent for one task from its name and options (`ProviderConfigError` if bad)."""
    spec = parse_name(name)
    if spec is None:
        raise ProviderConfigError(f"{name!r} is not a model agent name "
                                  "([<kind>/]<provider>:<model>[@<base_url>])")
    parsed = AgentOptions.parse(options)
    if spec.kind in ("llm", "mllm"):
        from bmoca.agents.llm.bmoca_agent import BmocaAgent

        return BmocaAgent(name, spec, parsed, task_id, multimodal=spec.kind == "mllm")
    from bmoca.agents.llm.androidworld import AndroidWorldAgent

    return AndroidWorldAgent(name, spec, parsed, task_id, multimodal=spec.kind == "m3a")
