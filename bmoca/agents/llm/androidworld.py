"""AndroidWorld-style agents: T3A (text) and M3A (set-of-marks screenshot).

Following AndroidWorld's M3A/T3A loop: the prompt lists the JSON actions, guidelines, the
goal, a history of one-line step summaries and the screen's UI elements (M3A adds the
screenshot with each element's box and index drawn); the answer gives a reason, a
summary and one JSON action, which the environment's `json` action mode executes.

Difference from AndroidWorld, on purpose: the summary is written in the same answer
instead of by a second model call after the action (half the calls and cost). What the
second call added - did the action work? - is filled in without a model: the next step's
history line says when the action was invalid or when the screen did not change.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bmoca.agents.llm import prompts
from bmoca.agents.llm import providers as prov
from bmoca.agents.llm.agent import ModelAgent
from bmoca.agents.llm.exploration import screen_key
from bmoca.env.actions import InvalidAction, JsonActions

_SUMMARY = re.compile(r"^\W*summary\W*:\s*(.+)$", re.IGNORECASE | re.MULTILINE)


class AndroidWorldAgent(ModelAgent):
    """`t3a/...` and `m3a/...` agents."""

    action_mode = "json"

    def __init__(self, *args: Any, multimodal: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.multimodal = multimodal
        self.observation_modes = ("text", "som") if multimodal else ("text",)
        if multimodal:
            self.env_options["som_size"] = self.options.image_size
        self._parser = JsonActions()
        self.history: list[str] = []
        self._pending: tuple[str, str] | None = None  # (summary, screen before the action)

    def _reset(self) -> None:
        self.history = []
        self._pending = None

    def _few_shot(self) -> str:
        blocks = [(goal, [(prompts.aw_elements(s.text_observation),
                           json.dumps(s.json_action, ensure_ascii=False)) for s in steps])
                  for goal, steps in self._examples()]
        return prompts.few_shot_block(blocks, pairs=self.options.few_shot_mode == "pairs")

    def _settle(self, observation: dict[str, Any]) -> None:
        """Finish the last step's history line now that its result is on screen."""
        if self._pending is None:
            return
        summary, before = self._pending
        if screen_key(str(observation.get("text", ""))) == before and \
                not summary.startswith("invalid action"):
            summary += " (the screen did not change)"
        self.history.append(summary)
        self._pending = None

    def _messages(self, observation: dict[str, Any], hint: str) -> list[prov.Message]:
        self._settle(observation)
        keep = self.options.history
        shown = self.history if keep is None else self.history[-keep:] if keep else []
        text = prompts.aw_user_text(self.goal, prompts.aw_elements(str(observation["text"])),
                                    shown, cot=self.options.cot, image=self.multimodal,
                                    few_shot=self._few_shot(), hint=hint)
        parts: list[prov.Part] = [text]
        if self.multimodal:
            parts.append(prov.ImagePart.from_array(observation["som"]))
        return [prov.system(prompts.AW_ROLE), prov.user(*parts)]

    def _after(self, observation: dict[str, Any], answer: str) -> str | None:
        screen = screen_key(str(observation.get("text", "")))
        try:
            action = self._parser.parse(answer)
        except InvalidAction as exc:
            self._pending = (f"invalid action ({exc}); nothing happened", screen)
            return None
        label = self._parser.label(action)
        match = _SUMMARY.search(answer)
        summary = " ".join(match.group(1).split()) if match else f"did {label}"
        self._pending = (f"{summary} [{label}]", screen)
        return label
