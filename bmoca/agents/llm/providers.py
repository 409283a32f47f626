"""Model providers behind one small interface: `Provider.complete(messages) -> Completion`.

Each provider talks to its service through the official SDK, imported only when a provider
is made (the SDKs are optional extras: `pip install 'bmoca[openai]'`, `[anthropic]`,
`[gemini]` or `[llm]` for all three):

* `openai` - OpenAI's chat completions (`openai` SDK), key `OPENAI_API_KEY`;
* `openai-compatible` - any server that speaks the same API at a `base_url` (vLLM, Ollama,
  llama.cpp, LM Studio), through the same SDK; key `BMOCA_OPENAI_COMPAT_API_KEY` if the
  server wants one (the OpenAI key is never sent to another server);
* `anthropic` - Anthropic's messages API (`anthropic` SDK), key `ANTHROPIC_API_KEY`;
* `gemini` - Google's Gemini API (`google-genai` SDK), key `GEMINI_API_KEY` or
  `GOOGLE_API_KEY`.

Why our own retry loop instead of the SDKs': the delays are deterministic (exponential,
no jitter, a server's Retry-After honoured up to the cap), the same for every provider,
and the final failure is one `ProviderError` whose message says what happened on every
attempt. Keys come only from the environment and are scrubbed from every message we build.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bmoca.agents.llm.cache import ResponseCache, request_key


class ProviderError(RuntimeError):
    """A provider kept failing (after its retries) or refused the request.

    An infrastructure failure, not an agent failure: the runner records the episode as
    'error'. The message names the provider, model, endpoint and each attempt's failure,
    and never contains an API key.
    """


class ProviderConfigError(ValueError):
    """A provider cannot be made as asked: unknown name, missing SDK or key, bad setting."""


# -- messages ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class ImagePart:
    """A PNG image in a message; `width`, `height` in pixels."""

    png: bytes
    width: int
    height: int

    @classmethod
    def from_array(cls, array: np.ndarray) -> ImagePart:
        """PNG-encode an (H, W, 3) uint8 array (Pillow's encoder is deterministic)."""
        from PIL import Image

        image = Image.fromarray(np.ascontiguousarray(np.asarray(array, dtype=np.uint8)[:, :, :3]))
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        return cls(buffer.getvalue(), image.width, image.height)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.png).hexdigest()

    @property
    def base64(self) -> str:
        return base64.b64encode(self.png).decode("ascii")

    def __repr__(self) -> str:
        return f"<image {self.width}x{self.height}>"


Part = str | ImagePart


@dataclass(frozen=True)
class Message:
    """One chat message: `role` is system, user or assistant; `parts` text and images."""

    role: str
    parts: tuple[Part, ...]

    def __post_init__(self) -> None:
        if self.role not in ("system", "user", "assistant"):
            raise ValueError(f"message role must be system, user or assistant, not {self.role!r}")
        for part in self.parts:
            if not isinstance(part, (str, ImagePart)):
                raise ValueError(f"message parts are str or ImagePart, not {type(part).__name__}")
        if self.role == "system" and any(isinstance(p, ImagePart) for p in self.parts):
            raise ValueError("a system message carries text only")

    @property
    def text(self) -> str:
        return "".join(p for p in self.parts if isinstance(p, str))


def system(text: str) -> Message:
    return Message("system", (text,))


def user(*parts: Part) -> Message:
    return Message("user", tuple(parts))


def render(messages: Sequence[Message]) -> str:
    """The prompt as one text, images shown as `<image WxH>`: what `last_call` records."""
    blocks = []
    for message in messages:
        body = "".join(p if isinstance(p, str) else f"<image {p.width}x{p.height}>"
                       for p in message.parts)
        blocks.append(f"[{message.role}]\n{body}")
    return "\n\n".join(blocks)


def _request_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Messages for the cache key: text verbatim, images by content hash and size."""
    return [{"role": m.role, "parts": [p if isinstance(p, str) else
                                       {"image_sha256": p.sha256, "size": [p.width, p.height]}
                                       for p in m.parts]} for m in messages]


# -- settings, results, prices ------------------------------------------------------------------

@dataclass(frozen=True)
class Settings:
    """Generation and transport settings (defaults: the B-MoCA paper's, D.2).

    `seed` is sent where the API takes one (OpenAI and compatible servers, Gemini) and is
    part of the cache key everywhere. `retries` is the number of extra attempts after the
    first; attempt n (0-based) waits `min(backoff_s * 2**n, backoff_max_s)` seconds, or the
    server's Retry-After when it gives one (capped the same way).
    """

    temperature: float = 0.0
    top_p: float = 1.0
    max_tokens: int = 256
    seed: int | None = None
    timeout_s: float = 60.0
    retries: int = 4
    backoff_s: float = 2.0
    backoff_max_s: float = 60.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.temperature <= 2.0:
            raise ProviderConfigError(f"temperature must be in [0, 2], got {self.temperature}")
        if not 0.0 < self.top_p <= 1.0:
            raise ProviderConfigError(f"top_p must be in (0, 1], got {self.top_p}")
        if self.max_tokens < 1:
            raise ProviderConfigError(f"max_tokens must be >= 1, got {self.max_tokens}")
        if self.timeout_s <= 0:
            raise ProviderConfigError(f"timeout must be > 0 seconds, got {self.timeout_s}")
        if self.retries < 0:
            raise ProviderConfigError(f"retries must be >= 0, got {self.retries}")
        if self.backoff_s < 0 or self.backoff_max_s < 0:
            raise ProviderConfigError("backoff and backoff_max must be >= 0 seconds")

    def generation(self) -> dict[str, Any]:
        """What changes the answer (and so the cache key); transport settings do not."""
        return {"temperature": self.temperature, "top_p": self.top_p,
                "max_tokens": self.max_tokens, "seed": self.seed}

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        if retry_after is not None and retry_after >= 0:
            return min(retry_after, self.backoff_max_s)
        return min(self.backoff_s * (2 ** attempt), self.backoff_max_s)


@dataclass(frozen=True)
class Completion:
    """One answer. Tokens are None when the server did not say; `cost_usd` is what this
    call cost: 0.0 when it came from the cache, None when the model's price is unknown."""

    text: str
    model: str
    provider: str
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    cached: bool = False
    latency_s: float = 0.0
    attempts: int = 1
    finish_reason: str | None = None


# USD per 1M tokens (input, output), list prices of the providers' pages as of early 2025.
# Override per agent with the `price=IN,OUT` option. A model matches its exact name first,
# then the longest entry its name starts with (so dated snapshots match their family).
PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-2024-05-13": (5.00, 15.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4-turbo": (10.00, 30.00),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "claude-3-5-sonnet": (3.00, 15.00),
    "claude-3-7-sonnet": (3.00, 15.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-3-haiku": (0.25, 1.25),
    "claude-3-opus": (15.00, 75.00),
    "claude-opus-4": (15.00, 75.00),
    "gemini-1.5-pro": (1.25, 5.00),
    "gemini-1.5-flash": (0.075, 0.30),
    "gemini-2.0-flash": (0.10, 0.40),
    "gemini-2.5-pro": (1.25, 10.00),
    "gemini-2.5-flash": (0.30, 2.50),
}


def price_of(model: str) -> tuple[float, float] | None:
    """(input, output) USD per 1M tokens of a well-known model, else None."""
    name = model.strip().lower().removeprefix("models/")
    if name in PRICES:
        return PRICES[name]
    matches = [k for k in PRICES if name.startswith(k)]
    return PRICES[max(matches, key=len)] if matches else None


def cost_of(price: tuple[float, float] | None, input_tokens: int | None,
            output_tokens: int | None) -> float | None:
    if price is None or input_tokens is None or output_tokens is None:
        return None
    return round((input_tokens * price[0] + output_tokens * price[1]) / 1e6, 8)


# -- the provider base -------------------------------------------------------------------------

@dataclass
class _Failure:
    """How one attempt failed: `retry` when another attempt may succeed."""

    retry: bool
    what: str
    retry_after: float | None = None


def _import(module: str, extra: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise ProviderConfigError(
            f"the {extra} provider needs the {module!r} package: pip install 'bmoca[{extra}]' "
            "(or 'bmoca[llm]' for every provider)") from None


def _status_of(exc: BaseException) -> int | None:
    for attribute in ("status_code", "code"):
        value = getattr(exc, attribute, None)
        if isinstance(value, int) and 100 <= value <= 599:
            return value
    return None


def _retry_after(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    try:
        value = headers.get("retry-after")
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None


class Provider:
    """Base class: caching, retries, accounting; subclasses implement `_send`.

    `name` is the provider id used in agent names (`openai`, `anthropic`, ...).
    """

    name = "provider"
    key_vars: tuple[str, ...] = ()
    key_required = True
    default_base_url: str | None = None

    def __init__(self, model: str, *, base_url: str | None = None,
                 settings: Settings | None = None, cache: ResponseCache | None = None,
                 price: tuple[float, float] | None | str = "auto",
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if not model or not model.strip():
            raise ProviderConfigError(f"{self.name}: a model name is required")
        self.model = model.strip()
        self.base_url = base_url.rstrip("/") if base_url else self.default_base_url
        self.settings = settings or Settings()
        self.cache = cache
        self.price = price_of(self.model) if price == "auto" else price
        self._sleep = sleep
        self.pace: Callable[[], Any] | None = None
        """Called before every request sent (not cached answers): a rate limiter's wait."""
        self._api_key = self._key()
        self._secrets = [self._api_key] if self._api_key else []
        self._client: Any = None
        self._client = self._make_client()

    # subclasses -----------------------------------------------------------------------------
    def _make_client(self) -> Any:
        raise NotImplementedError

    def _send(self, messages: Sequence[Message]) -> tuple[str, int | None, int | None, str | None]:
        """One request: (text, input tokens, output tokens, finish reason)."""
        raise NotImplementedError

    def _failure(self, exc: Exception) -> _Failure:
        """Classify an SDK exception: timeouts, connection errors, 408/409/429/5xx retry."""
        kind = type(exc).__name__
        status = _status_of(exc)
        if status is not None:
            retry = status in (408, 409, 429) or status >= 500
            reason = {429: "rate limited", 408: "request timeout"}.get(
                status, "server error" if status >= 500 else "refused")
            return _Failure(retry, f"HTTP {status} {reason}: {self._scrub(str(exc))[:300]}",
                            _retry_after(exc))
        if "Timeout" in kind or isinstance(exc, TimeoutError):
            return _Failure(True, f"timed out after {self.settings.timeout_s:g} s ({kind})")
        if "Connection" in kind or "Connect" in kind or isinstance(exc, ConnectionError):
            return _Failure(True, f"connection failed ({kind}: {self._scrub(str(exc))[:200]})")
        return _Failure(False, f"{kind}: {self._scrub(str(exc))[:300]}")

    # the interface --------------------------------------------------------------------------
    @property
    def label(self) -> str:
        where = f" at {self.base_url}" if self.base_url else ""
        return f"{self.name}:{self.model}{where}"

    def _key(self) -> str | None:
        for var in self.key_vars:
            value = os.environ.get(var)
            if value:
                return value
        if self.key_required:
            names = " or ".join(self.key_vars)
            raise ProviderConfigError(f"{self.name}: set the API key in the environment variable "
                                      f"{names} (keys are read only from the environment)")
        return None

    def _scrub(self, text: str) -> str:
        for secret in self._secrets:
            if secret:
                text = text.replace(secret, "***")
        return text

    def cache_key(self, messages: Sequence[Message], context: dict[str, Any] | None = None) -> str:
        return request_key({"provider": self.name, "model": self.model,
                            "base_url": self.base_url, "settings": self.settings.generation(),
                            "messages": _request_messages(messages), "context": context})

    def complete(self, messages: Sequence[Message], *,
                 context: dict[str, Any] | None = None) -> Completion:
        """The model's answer to `messages`, from the cache when it holds this exact request.

        `context` (JSON values) is part of the cache key only: agents pass the step number,
        so asking the same question again later in an episode (after an invalid answer)
        asks the model again, as an uncached run would, and a rerun replays every call.
        """
        messages = list(messages)
        key = self.cache_key(messages, context) if self.cache is not None else ""
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                return Completion(text=hit["text"], model=self.model, provider=self.name,
                                  input_tokens=hit.get("input_tokens"),
                                  output_tokens=hit.get("output_tokens"), cost_usd=0.0,
                                  cached=True, latency_s=0.0, attempts=0,
                                  finish_reason=hit.get("finish_reason"))
        failures: list[str] = []
        attempts = self.settings.retries + 1
        for attempt in range(attempts):
            if self.pace is not None:
                self.pace()
            started = time.perf_counter()
            try:
                text, tokens_in, tokens_out, finish = self._send(messages)
            except Exception as exc:  # noqa: BLE001 - classified, then retried or raised
                failure = self._failure(exc)
                failures.append(f"attempt {attempt + 1}: {failure.what}")
                if not failure.retry or attempt + 1 == attempts:
                    break
                self._sleep(self.settings.delay(attempt, failure.retry_after))
                continue
            latency = time.perf_counter() - started
            if self.cache is not None:
                self.cache.put(key, self.name, self.model, {
                    "text": text, "input_tokens": tokens_in, "output_tokens": tokens_out,
                    "finish_reason": finish})
            return Completion(text=text, model=self.model, provider=self.name,
                              input_tokens=tokens_in, output_tokens=tokens_out,
                              cost_usd=cost_of(self.price, tokens_in, tokens_out),
                              cached=False, latency_s=latency, attempts=attempt + 1,
                              finish_reason=finish)
        if failure.retry:
            gave_up = f"gave up after {len(failures)} attempt{'s' if len(failures) > 1 else ''}"
        else:
            gave_up = f"failed, not retryable, after {len(failures)} attempt" + (
                "s" if len(failures) > 1 else "")
        raise ProviderError(self._scrub(f"{self.label}: {gave_up}: " + "; ".join(failures)))


# -- OpenAI and compatible servers ----------------------------------------------------------------

def _openai_content(message: Message) -> str | list[dict[str, Any]]:
    if all(isinstance(p, str) for p in message.parts):
        return message.text
    out: list[dict[str, Any]] = []
    for part in message.parts:
        if isinstance(part, str):
            out.append({"type": "text", "text": part})
        else:
            out.append({"type": "image_url",
                        "image_url": {"url": f"data:image/png;base64,{part.base64}"}})
    return out


class OpenAIProvider(Provider):
    """OpenAI's chat completions through the `openai` SDK."""

    name = "openai"
    key_vars = ("OPENAI_API_KEY",)

    def _make_client(self) -> Any:
        openai = _import("openai", "openai")
        return openai.OpenAI(api_key=self._api_key or "EMPTY", base_url=self.base_url,
                             timeout=self.settings.timeout_s, max_retries=0)

    def _arguments(self) -> dict[str, Any]:
        s = self.settings
        args: dict[str, Any] = {"temperature": s.temperature, "top_p": s.top_p,
                                "max_completion_tokens": s.max_tokens}
        if s.seed is not None:
            args["seed"] = s.seed
        return args

    def _send(self, messages: Sequence[Message]) -> tuple[str, int | None, int | None, str | None]:
        response = self._client.chat.completions.create(
            model=self.model, messages=[{"role": m.role, "content": _openai_content(m)}
                                        for m in messages], **self._arguments())
        if not response.choices:
            raise ValueError("the answer has no choices")
        choice = response.choices[0]
        usage = response.usage
        return (choice.message.content or "",
                getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None),
                choice.finish_reason)


class OpenAICompatibleProvider(OpenAIProvider):
    """Any OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio) at `base_url`.

    Sends `max_tokens` (which these servers all read) instead of `max_completion_tokens`;
    the price is unknown unless given (a local model costs what your hardware costs).
    """

    name = "openai-compatible"
    key_vars = ("BMOCA_OPENAI_COMPAT_API_KEY",)
    key_required = False

    def __init__(self, model: str, *, base_url: str | None = None, **kwargs: Any) -> None:
        if not base_url:
            raise ProviderConfigError(
                "openai-compatible needs the server's base URL: name the agent "
                "'openai-compatible:<model>@<base_url>' (e.g. "
                "openai-compatible:llama3@http://localhost:8000/v1) or pass base_url=...")
        if not base_url.startswith(("http://", "https://")):
            raise ProviderConfigError(f"openai-compatible: base URL must start with http:// or "
                                      f"https://, got {base_url!r}")
        kwargs.setdefault("price", None)
        super().__init__(model, base_url=base_url, **kwargs)

    def _arguments(self) -> dict[str, Any]:
        args = super()._arguments()
        args["max_tokens"] = args.pop("max_completion_tokens")
        return args


# -- Anthropic --------------------------------------------------------------------------------------

class AnthropicProvider(Provider):
    """Anthropic's messages API through the `anthropic` SDK.

    The system text goes in `system`; `top_p` is sent only when it is not 1.0 (Anthropic
    asks for temperature or top_p, not both); the API takes no seed.
    """

    name = "anthropic"
    key_vars = ("ANTHROPIC_API_KEY",)

    def _make_client(self) -> Any:
        import inspect

        anthropic = _import("anthropic", "anthropic")
        create = anthropic.resources.Messages.create
        self._sampling_arguments = "temperature" in inspect.signature(create).parameters
        return anthropic.Anthropic(api_key=self._api_key, base_url=self.base_url,
                                   timeout=self.settings.timeout_s, max_retries=0)

    def _send(self, messages: Sequence[Message]) -> tuple[str, int | None, int | None, str | None]:
        s = self.settings
        system_text = "\n\n".join(m.text for m in messages if m.role == "system")
        chat = []
        for m in messages:
            if m.role == "system":
                continue
            blocks: list[dict[str, Any]] = []
            for part in m.parts:
                if isinstance(part, str):
                    blocks.append({"type": "text", "text": part})
                else:
                    blocks.append({"type": "image", "source": {
                        "type": "base64", "media_type": "image/png", "data": part.base64}})
            chat.append({"role": m.role, "content": blocks})
        sampling: dict[str, Any] = {"temperature": s.temperature}
        if s.top_p != 1.0:
            sampling["top_p"] = s.top_p
        args: dict[str, Any] = {"system": system_text} if system_text else {}
        if self._sampling_arguments:
            args.update(sampling)
        else:  # SDK 2.x dropped them from the signature; the API still reads them
            args["extra_body"] = sampling
        response = self._client.messages.create(model=self.model, max_tokens=s.max_tokens,
                                                messages=chat, **args)
        text = "".join(getattr(b, "text", "") for b in response.content
                       if getattr(b, "type", "") == "text")
        usage = response.usage
        return (text, getattr(usage, "input_tokens", None), getattr(usage, "output_tokens", None),
                response.stop_reason)


# -- Google Gemini --------------------------------------------------------------------------------

class GeminiProvider(Provider):
    """Google's Gemini API through the `google-genai` SDK (safety filters off, as B-MoCA)."""

    name = "gemini"
    key_vars = ("GEMINI_API_KEY", "GOOGLE_API_KEY")

    def _make_client(self) -> Any:
        genai = _import("google.genai", "gemini")
        types = _import("google.genai.types", "gemini")
        self._types = types
        options: dict[str, Any] = {"timeout": int(self.settings.timeout_s * 1000),
                                   "retry_options": types.HttpRetryOptions(attempts=1)}
        if self.base_url:
            options["base_url"] = self.base_url
        return genai.Client(api_key=self._api_key, http_options=types.HttpOptions(**options))

    def _send(self, messages: Sequence[Message]) -> tuple[str, int | None, int | None, str | None]:
        types, s = self._types, self.settings
        system_text = "\n\n".join(m.text for m in messages if m.role == "system")
        contents = []
        for m in messages:
            if m.role == "system":
                continue
            parts = [types.Part.from_text(text=p) if isinstance(p, str)
                     else types.Part.from_bytes(data=p.png, mime_type="image/png")
                     for p in m.parts]
            contents.append(types.Content(role="model" if m.role == "assistant" else "user",
                                          parts=parts))
        safety = [types.SafetySetting(category=c, threshold="BLOCK_NONE") for c in (
            "HARM_CATEGORY_HARASSMENT", "HARM_CATEGORY_HATE_SPEECH",
            "HARM_CATEGORY_SEXUALLY_EXPLICIT", "HARM_CATEGORY_DANGEROUS_CONTENT")]
        config = types.GenerateContentConfig(
            system_instruction=system_text or None, temperature=s.temperature, top_p=s.top_p,
            max_output_tokens=s.max_tokens, seed=s.seed, safety_settings=safety)
        response = self._client.models.generate_content(model=self.model, contents=contents,
                                                        config=config)
        text = ""
        finish = None
        if not response.candidates and not getattr(response, "prompt_feedback", None):
            # a blocked prompt comes with promptFeedback; nothing at all is a broken reply
            raise ValueError("the response has no candidates and no prompt feedback (an "
                             "empty or malformed body)")
        if response.candidates:
            candidate = response.candidates[0]
            finish = str(candidate.finish_reason.value if hasattr(candidate.finish_reason, "value")
                         else candidate.finish_reason) if candidate.finish_reason else None
            if candidate.content and candidate.content.parts:
                text = "".join(p.text or "" for p in candidate.content.parts
                               if not getattr(p, "thought", False))
        usage = response.usage_metadata
        return (text, getattr(usage, "prompt_token_count", None),
                getattr(usage, "candidates_token_count", None), finish)


PROVIDERS: dict[str, type[Provider]] = {
    "openai": OpenAIProvider,
    "openai-compatible": OpenAICompatibleProvider,
    "anthropic": AnthropicProvider,
    "gemini": GeminiProvider,
}


def make(provider: str, model: str, **kwargs: Any) -> Provider:
    """A provider by id (`openai`, `openai-compatible`, `anthropic`, `gemini`)."""
    if provider not in PROVIDERS:
        raise ProviderConfigError(f"unknown provider {provider!r}; available: "
                                  f"{', '.join(PROVIDERS)}")
    return PROVIDERS[provider](model, **kwargs)


__all__ = ["Completion", "ImagePart", "Message", "PRICES", "PROVIDERS", "Provider",
           "ProviderConfigError", "ProviderError", "Settings", "cost_of", "make", "price_of",
           "render", "system", "user"]
