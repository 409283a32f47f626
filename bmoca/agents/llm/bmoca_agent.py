"""B-MoCA's LLM and MLLM agents (paper section 3.1, Appendix C).

The LLM agent reads the screen translator's text; the MLLM agent also gets the screenshot
(256x512 by default). Both answer in B-MoCA's Description / Thought / Action format with
the six text actions, which the environment's `text` action mode parses.

The previous actions are kept as the reference keeps them: only actions that parse, the
last 4, a tap written with the tapped element's description (`tap({...})`) so it still
means something on the next screen, and `swipe(up)`, `press(HOME)`, `dual-gesture(...)`.
"""

from __future__ import annotations

from typing import Any

from bmoca.agents.llm import prompts
from bmoca.agents.llm import providers as prov
from bmoca.agents.llm.agent import ModelAgent
from bmoca.env.actions import InvalidAction, TextActions


class BmocaAgent(ModelAgent):
    """`llm/...` (text) and `mllm/...` (text + screenshot) agents."""

    action_mode = "text"

    def __init__(self, *args: Any, multimodal: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.multimodal = multimodal
        self.observation_modes = ("text", "pixels") if multimodal else ("text",)
        if multimodal:
            self.env_options["pixels_size"] = self.options.image_size
        self._parser = TextActions()
        self.previous: list[str] = []

    def _reset(self) -> None:
        self.previous = []

    def _few_shot(self) -> str:
        blocks = [(goal, [(s.text_observation, s.text_action) for s in steps if s.text_action])
                  for goal, steps in self._examples()]
        return prompts.few_shot_block(blocks, pairs=self.options.few_shot_mode == "pairs")

    def _messages(self, observation: dict[str, Any], hint: str) -> list[prov.Message]:
        keep = 4 if self.options.history is None else self.options.history
        text = prompts.bmoca_user_text(
            self.goal, str(observation["text"]), self.previous[-keep:] if keep else [],
            cot=self.options.cot, few_shot=self._few_shot(), hint=hint)
        parts: list[prov.Part] = [text]
        if self.multimodal:
            parts.append(prov.ImagePart.from_array(observation["pixels"]))
        return [prov.system(prompts.BMOCA_ROLE), prov.user(*parts)]

    def _after(self, observation: dict[str, Any], answer: str) -> str | None:
        label, entry = previous_action(self._parser, str(observation.get("text", "")), answer)
        if entry is not None:
            self.previous.append(entry)
        return label


def previous_action(parser: TextActions, observation: str,
                    answer: str) -> tuple[str | None, str | None]:
    """(the parsed action's label, its entry in "Previous actions") for an answer given on
    the screen `observation`; (None, None) when it does not parse or taps no element.

    Shared with the training data of tuned models (`bmoca.agents.llm.hf`), so their
    prompts carry the history exactly as the agents write it."""
    try:
        call = parser.parse(answer)
    except InvalidAction:
        return None, None
    label = str(call)
    if call.kind != "tap":
        return label, label
    elements = prompts.parse_elements(observation) or []
    if not 0 <= int(call.value) < len(elements):
        return None, None  # the environment refuses it too: not a previous action
    return label, f"tap({elements[int(call.value)]})"
