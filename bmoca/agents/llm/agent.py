"""What every model agent shares: its name, options, provider, and the per-step record.

Agent names (for `bmoca eval --agent` and `bmoca.agents.build`) are
``[<kind>/]<provider>:<model>[@<base_url>]``:

* kind: `llm` (B-MoCA text agent, the default), `mllm` (B-MoCA text + screenshot),
  `t3a` (AndroidWorld-style text agent), `m3a` (AndroidWorld-style, set-of-marks screenshot),
  or an open GUI model in its own format: `uitars`, `qwen25vl`, `qwen3vl`, `coords1000`
  (`bmoca.agents.llm.gui_models`);
* provider: `openai`, `openai-compatible`, `anthropic`, `gemini`;
* base_url: required for `openai-compatible` (e.g. `@http://localhost:8000/v1`); any
  provider also takes the `base_url` option (a proxy, a test server).

Options (`bmoca eval --agent-option key=value`, or `build(..., options={...})`) are listed
in `OPTION_HELP`; an unknown option or a bad value is a `ProviderConfigError` naming it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bmoca.agents.llm import providers as prov
from bmoca.agents.llm.cache import ResponseCache, default_dir
from bmoca.agents.llm.exploration import ExplorationCounter, screen_key
from bmoca.agents.llm.providers import ProviderConfigError

GUI_KINDS = ("uitars", "qwen25vl", "qwen3vl", "coords1000")
"""Open GUI models in their own formats (`bmoca.agents.llm.gui_models`)."""
KINDS = ("llm", "mllm", "t3a", "m3a", *GUI_KINDS)

OPTION_HELP: dict[str, str] = {
    "few_shot": "number of demonstrations in the prompt, drawn afresh each step (0: zero-shot)",
    "few_shot_mode": "trajectory (whole expert episodes) or pairs (single observation-action "
                     "pairs, for small context windows)",
    "demos": "demonstration dataset directory (`bmoca demos generate`), needed for few_shot",
    "cot": "chain of thought: true (Description/Thought/Action; Reason for T3A/M3A) or false",
    "bbox": "add each element's normalised bounding box to the observation (true/false)",
    "explore": "AndroidArena's exploration hint: visits of this screen and actions taken "
               "there (true/false)",
    "history": "previous steps shown (default: the last 4 actions for llm/mllm as in "
               "B-MoCA, every step summary for t3a/m3a as in AndroidWorld; for uitars the "
               "earlier screenshots sent, default 4)",
    "image_size": "screenshot size WxH for mllm/m3a (default 256x512); the GUI model agents' "
                  "screenshot observation (default 1080x2160, sent at the phone's size)",
    "temperature": "sampling temperature (default 0)",
    "top_p": "nucleus sampling (default 1)",
    "max_tokens": "maximum output tokens (default 256)",
    "seed": "request seed: 'episode' (default: the episode's seed, so repeats differ), an "
            "integer, or 'none'",
    "timeout": "seconds per request (default 60)",
    "retries": "extra attempts on timeouts, 429 and 5xx (default 4)",
    "backoff": "first retry delay in seconds, doubled each retry (default 2)",
    "backoff_max": "longest retry delay in seconds (default 60)",
    "cache": "response cache on disk (true/false; default true)",
    "cache_dir": "cache directory (default $BMOCA_LLM_CACHE or the user cache directory: ~/.cache/bmoca/llm on Linux)",
    "base_url": "API endpoint (a proxy, a local server)",
    "price": "USD per 1M tokens as IN,OUT (default: the built-in table; unknown: no cost)",
    "rpm": "requests per minute to the provider, shared by every worker of a Ray run (a "
           "limiter actor), per process otherwise (default: no limit)",
}

# Options that change how answers are fetched, not what they are: a resumed run may differ.
TRANSPORT_OPTIONS = frozenset({"timeout", "retries", "backoff", "backoff_max", "cache",
                               "cache_dir", "rpm"})

_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


def _bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ProviderConfigError(f"agent option {key}={value!r}: expected true or false")


def _number(key: str, value: Any, kind: type = float, minimum: float | None = None) -> Any:
    try:
        number = kind(value)
    except (TypeError, ValueError):
        raise ProviderConfigError(f"agent option {key}={value!r}: expected "
                                  f"{'an integer' if kind is int else 'a number'}") from None
    if minimum is not None and number < minimum:
        raise ProviderConfigError(f"agent option {key}={value!r}: must be >= {minimum:g}")
    return number


@dataclass(frozen=True)
class AgentOptions:
    """Parsed agent options (see `OPTION_HELP`)."""

    few_shot: int = 0
    few_shot_mode: str = "trajectory"
    demos: str | None = None
    cot: bool = True
    bbox: bool = False
    explore: bool = False
    history: int | None = None
    image_size: tuple[int, int] = (256, 512)
    seed: str | int | None = "episode"
    cache: bool = True
    cache_dir: str | None = None
    base_url: str | None = None
    price: tuple[float, float] | None | str = "auto"
    rpm: float | None = None
    settings: prov.Settings = prov.Settings()

    @classmethod
    def parse(cls, options: dict[str, Any] | None) -> AgentOptions:
        values: dict[str, Any] = {}
        settings: dict[str, Any] = {}
        for key, value in (options or {}).items():
            key = key.strip().lower().replace("-", "_")
            if key not in OPTION_HELP:
                raise ProviderConfigError(f"unknown agent option {key!r}; valid: "
                                          f"{', '.join(OPTION_HELP)}")
            if key in ("cot", "bbox", "explore", "cache"):
                values[key] = _bool(key, value)
            elif key in ("few_shot", "history"):
                values[key] = _number(key, value, int, 0)
            elif key == "few_shot_mode":
                mode = str(value).strip().lower()
                if mode not in ("trajectory", "pairs"):
                    raise ProviderConfigError(f"agent option few_shot_mode={value!r}: expected "
                                              "trajectory or pairs")
                values[key] = mode
            elif key in ("demos", "cache_dir", "base_url"):
                values[key] = str(value)
            elif key == "image_size":
                match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", str(value))
                if not match or 0 in (int(match[1]), int(match[2])):
                    raise ProviderConfigError(f"agent option image_size={value!r}: expected "
                                              "WxH in pixels, e.g. 256x512")
                values[key] = (int(match[1]), int(match[2]))
            elif key == "seed":
                text = str(value).strip().lower()
                values[key] = ("episode" if text == "episode" else None if text == "none"
                               else _number(key, value, int))
            elif key == "price":
                parts = str(value).split(",")
                if len(parts) != 2:
                    raise ProviderConfigError(f"agent option price={value!r}: expected IN,OUT "
                                              "in USD per 1M tokens, e.g. 2.5,10")
                values[key] = (_number(key, parts[0], float, 0), _number(key, parts[1], float, 0))
            elif key == "rpm":
                values[key] = _number(key, value, float, 0) or None
            elif key in ("temperature", "top_p"):
                settings[key] = _number(key, value)
            elif key == "max_tokens":
                settings[key] = _number(key, value, int, 1)
            elif key == "retries":
                settings[key] = _number(key, value, int, 0)
            elif key == "timeout":
                settings["timeout_s"] = _number(key, value, float, 0)
            elif key in ("backoff", "backoff_max"):
                settings[f"{key}_s"] = _number(key, value, float, 0)
        parsed = cls(**values, settings=prov.Settings(**settings))
        if parsed.few_shot and not parsed.demos:
            raise ProviderConfigError("agent option few_shot needs demos=<dataset directory> "
                                      "(make one with `bmoca demos generate`)")
        return parsed


@dataclass(frozen=True)
class AgentName:
    kind: str
    provider: str
    model: str
    base_url: str | None


def parse_name(name: str) -> AgentName | None:
    """Split a model agent's name; None when it is not one (no provider prefix)."""
    kind, rest = "llm", name.strip()
    head, slash, tail = rest.partition("/")
    if slash and head in KINDS:
        kind, rest = head, tail
    provider, colon, model = rest.partition(":")
    if not colon or provider not in prov.PROVIDERS:
        return None
    base_url = None
    match = re.search(r"@(https?://.*)$", model)
    if match:
        base_url, model = match.group(1), model[:match.start()]
    if not model:
        raise ProviderConfigError(f"agent {name!r}: no model name after '{provider}:'")
    return AgentName(kind, provider, model, base_url)


_CACHES: dict[Path, ResponseCache] = {}


def _cache(options: AgentOptions) -> ResponseCache | None:
    """One open cache per directory and process (agents are built once per episode)."""
    if not options.cache:
        return None
    directory = Path(options.cache_dir).expanduser() if options.cache_dir else default_dir()
    if directory is None:
        return None
    directory = directory.resolve()
    if directory not in _CACHES:
        _CACHES[directory] = ResponseCache(directory)
    return _CACHES[directory]


class ModelAgent:
    """Base of the model agents: asks the provider, keeps `last_call`, counts screens.

    Subclasses build the messages (`_messages`) and digest the answer (`_after`); `act`
    returns the model's raw answer, which the environment's parser reads (text or JSON
    action mode), so a malformed answer is counted as an invalid action by the
    environment and the episode goes on.
    """

    action_mode = "text"
    observation_modes: tuple[str, ...] = ("text",)

    def __init__(self, name: str, spec: AgentName, options: AgentOptions, task_id: str) -> None:
        self.name = name
        self.spec = spec
        self.options = options
        self.task_id = task_id
        self.provider = prov.make(spec.provider, spec.model,
                                  base_url=spec.base_url or options.base_url,
                                  settings=options.settings, cache=_cache(options),
                                  price=options.price)
        if options.rpm:
            from bmoca.agents.llm.ratelimit import limiter

            self.provider.pace = limiter(f"{spec.provider}:{spec.model}", options.rpm)
        self.env_options: dict[str, Any] = {"text_bbox": options.bbox}
        self.last_call: dict[str, Any] | None = None
        self.explorer = ExplorationCounter()
        self.goal = ""
        self.seed: int | None = None
        self.step = 0
        self._demos: Any = _dataset(options) if options.few_shot else None

    # -- protocol ----------------------------------------------------------------------------
    def reset(self, goal: str, seed: int | None = None) -> None:
        self.goal, self.seed, self.step = goal, seed, 0
        self.last_call = None
        self.explorer.reset()
        request_seed = self.options.seed
        if request_seed == "episode":
            request_seed = None if seed is None else int(seed) & 0x7FFFFFFF
        self.provider.settings = replace(self.options.settings, seed=request_seed)
        self._reset()

    def act(self, observation: dict[str, Any]) -> str:
        screen = screen_key(str(observation.get("text", "")))
        hint = self.explorer.hint(screen) if self.options.explore else ""
        messages = self._messages(observation, hint)
        self.last_call = None
        completion = self.provider.complete(messages, context={"step": self.step})
        self.last_call = {
            "model": completion.model, "provider": completion.provider,
            "prompt": prov.render(messages), "response": completion.text,
            "input_tokens": completion.input_tokens, "output_tokens": completion.output_tokens,
            "cost_usd": completion.cost_usd, "cached": completion.cached,
            "latency_s": completion.latency_s, "attempts": completion.attempts,
            "finish_reason": completion.finish_reason,
        }
        label = self._after(observation, completion.text)
        self.explorer.record(screen, label)
        self.step += 1
        return completion.text

    # -- for subclasses ----------------------------------------------------------------------
    def _reset(self) -> None:
        pass

    def _messages(self, observation: dict[str, Any], hint: str) -> list[prov.Message]:
        raise NotImplementedError

    def _after(self, observation: dict[str, Any], answer: str) -> str | None:
        """Update the history from the answer; return the parsed action's label or None."""
        raise NotImplementedError

    def _examples(self) -> list[tuple[str | None, list[Any]]]:
        """This step's demonstrations as (goal of another task or None, steps).

        Drawn afresh each step, as B-MoCA does, by `bmoca.demos.few_shot` (training
        configurations only), seeded by the episode's seed, the task and the step."""
        if not self.options.few_shot:
            return []
        from bmoca import demos

        digest = hashlib.sha256(f"{self.seed}|{self.task_id}|{self.step}".encode()).digest()
        drawn = demos.few_shot(self._demos, self.task_id, k=self.options.few_shot,
                               mode=self.options.few_shot_mode,
                               seed=int.from_bytes(digest[:4], "big"))
        out: list[tuple[str | None, list[Any]]] = []
        for example in drawn:
            steps = getattr(example, "steps", None)
            if steps is None:  # a single pair: no goal travels with it
                out.append((None, [example]))
            else:
                out.append((None if example.task_id == self.task_id else example.goal,
                            list(steps)))
        return out


_DATASETS: dict[str, Any] = {}


def _dataset(options: AgentOptions) -> Any:
    """The demonstration dataset, loaded once per process, checked to have examples."""
    from bmoca import demos

    key = str(Path(options.demos or "").expanduser().resolve())
    try:
        if key not in _DATASETS:
            _DATASETS[key] = demos.load(key)
        demos.few_shot(_DATASETS[key], "", k=1, mode=options.few_shot_mode, seed=0)
    except (OSError, ValueError) as exc:
        raise ProviderConfigError(f"agent option demos={options.demos!r}: {exc}") from None
    return _DATASETS[key]
