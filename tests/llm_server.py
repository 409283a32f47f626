"""A local HTTP server that speaks three model APIs, for tests through the official SDKs.

It answers OpenAI chat completions (`POST /v1/chat/completions`), Anthropic messages
(`POST /v1/messages`) and Gemini generateContent (`POST /v1beta/models/<m>:generateContent`)
with scripted replies, can fail on purpose (any HTTP error, a stall longer than the client's
timeout, raw non-JSON or truncated bodies, a connection cut mid-body), and records every request it got. Nothing here knows about bmoca: it checks the
wire format the SDKs send, so a test that passes here talks real HTTP the way a real
service would be talked to.

    with FakeLLMServer() as server:
        server.script(Fail(429), Reply("Action: tap(3)"))
        server.responder = lambda request: Reply("...")   # when the script runs out
        ... OpenAI(base_url=server.url("openai"), ...)
        server.requests                                   # what arrived
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    """Answer with this text (usage: prompt chars / 4 in, answer chars / 4 out)."""

    text: str


@dataclass(frozen=True)
class Fail:
    """Answer with an HTTP error in the API's error format."""

    status: int
    message: str = "scripted failure"
    retry_after: float | None = None


@dataclass(frozen=True)
class Stall:
    """Wait this long before answering (longer than the client's timeout: a timeout)."""

    seconds: float
    then: Reply | Fail | None = None


@dataclass(frozen=True)
class Raw:
    """Answer with these bytes as they are (non-JSON, truncated JSON); with `cut`, announce
    `len(body) + cut` bytes and close the connection after `body` (a dropped transfer)."""

    body: bytes
    status: int = 200
    content_type: str = "application/json"
    cut: int = 0


Entry = Reply | Fail | Stall | Raw


@dataclass
class Request:
    """One request as it arrived: `api` is openai, anthropic or gemini."""

    api: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    texts: list[str] = field(default_factory=list)
    images: int = 0

    @property
    def prompt(self) -> str:
        """Every text part of the request, joined by newlines, in order."""
        return "\n".join(self.texts)

    @property
    def model(self) -> str:
        if self.api == "gemini":
            match = re.search(r"/models/([^/:]+):generateContent", self.path)
            return match.group(1) if match else ""
        return str(self.body.get("model", ""))


def _texts_openai(body: dict[str, Any]) -> tuple[list[str], int]:
    texts, images = [], 0
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
            continue
        for part in content or []:
            if part.get("type") == "text":
                texts.append(part["text"])
            elif part.get("type") == "image_url":
                images += 1
    return texts, images


def _texts_anthropic(body: dict[str, Any]) -> tuple[list[str], int]:
    texts, images = [], 0
    system = body.get("system")
    if isinstance(system, str):
        texts.append(system)
    elif isinstance(system, list):
        texts.extend(b.get("text", "") for b in system)
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
            continue
        for block in content or []:
            if block.get("type") == "text":
                texts.append(block["text"])
            elif block.get("type") == "image":
                images += 1
    return texts, images


def _texts_gemini(body: dict[str, Any]) -> tuple[list[str], int]:
    texts, images = [], 0
    system = body.get("systemInstruction") or body.get("system_instruction") or {}
    texts.extend(p.get("text", "") for p in system.get("parts", []) if "text" in p)
    for content in body.get("contents", []):
        for part in content.get("parts", []):
            if "text" in part:
                texts.append(part["text"])
            elif "inlineData" in part or "inline_data" in part:
                images += 1
    return texts, images


def _usage(request: Request, text: str) -> tuple[int, int]:
    return max(1, len(request.prompt) // 4), max(1, len(text) // 4)


def _ok_body(request: Request, text: str, serial: int) -> dict[str, Any]:
    tokens_in, tokens_out = _usage(request, text)
    if request.api == "openai":
        return {"id": f"chatcmpl-{serial}", "object": "chat.completion", "created": 0,
                "model": request.model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                             "finish_reason": "stop", "logprobs": None}],
                "usage": {"prompt_tokens": tokens_in, "completion_tokens": tokens_out,
                          "total_tokens": tokens_in + tokens_out}}
    if request.api == "anthropic":
        return {"id": f"msg_{serial}", "type": "message", "role": "assistant",
                "model": request.model, "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out}}
    return {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": tokens_in, "candidatesTokenCount": tokens_out,
                              "totalTokenCount": tokens_in + tokens_out},
            "modelVersion": request.model}


def _error_body(api: str, status: int, message: str) -> dict[str, Any]:
    if api == "openai":
        return {"error": {"message": message, "type": "server_error" if status >= 500 else
                          "rate_limit_exceeded" if status == 429 else "invalid_request_error",
                          "param": None, "code": None}}
    if api == "anthropic":
        kind = {429: "rate_limit_error", 529: "overloaded_error"}.get(
            status, "api_error" if status >= 500 else "invalid_request_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    name = {429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}.get(
        status, "INVALID_ARGUMENT")
    return {"error": {"code": status, "message": message, "status": name}}


class FakeLLMServer:
    """Scripted model server on 127.0.0.1 and a free port; use as a context manager."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.responder: Callable[[Request], Entry] | None = None
        self._script: list[Entry] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                outer._handle(self)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,),
                                        daemon=True)

    # -- control ------------------------------------------------------------------------------
    def __enter__(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def url(self, api: str) -> str:
        """The base URL an SDK of this API takes (`openai`, `anthropic`, `gemini`)."""
        root = f"http://127.0.0.1:{self.port}"
        return {"openai": f"{root}/v1", "anthropic": root, "gemini": root}[api]

    def script(self, *entries: Entry) -> None:
        """Queue replies; each request takes the next one, then `responder` is asked."""
        with self._lock:
            self._script.extend(entries)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._script)

    # -- serving ------------------------------------------------------------------------------
    def _next(self, request: Request) -> Entry:
        with self._lock:
            if self._script:
                return self._script.pop(0)
        if self.responder is not None:
            return self.responder(request)
        return Fail(500, "the test server's script is empty")

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        path = handler.path.split("?", 1)[0]
        length = int(handler.headers.get("content-length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self._send(handler, 400, {"error": {"message": "body is not JSON"}})
            return
        if path.endswith("/chat/completions"):
            api, (texts, images) = "openai", _texts_openai(body)
        elif path.endswith("/v1/messages"):
            api, (texts, images) = "anthropic", _texts_anthropic(body)
        elif path.endswith(":generateContent"):
            api, (texts, images) = "gemini", _texts_gemini(body)
        else:
            self._send(handler, 404, {"error": {"message": f"no route {path}"}})
            return
        request = Request(api, path, {k.lower(): v for k, v in handler.headers.items()}, body,
                          texts, images)
        with self._lock:
            self.requests.append(request)
            serial = len(self.requests)
        entry = self._next(request)
        if isinstance(entry, Stall):
            if self._stop.wait(entry.seconds):
                return
            entry = entry.then or Reply("late answer")
        if isinstance(entry, Raw):
            self._send_raw(handler, entry)
            return
        if isinstance(entry, Fail):
            headers = {"retry-after": f"{entry.retry_after:g}"} if entry.retry_after is not None \
                else {}
            self._send(handler, entry.status, _error_body(api, entry.status, entry.message),
                       headers)
            return
        self._send(handler, 200, _ok_body(request, entry.text, serial))

    @staticmethod
    def _send_raw(handler: BaseHTTPRequestHandler, entry: Raw) -> None:
        try:
            handler.send_response(entry.status)
            handler.send_header("content-type", entry.content_type)
            handler.send_header("content-length", str(len(entry.body) + entry.cut))
            if entry.cut:
                handler.send_header("connection", "close")
            handler.end_headers()
            handler.wfile.write(entry.body)
            handler.wfile.flush()
            if entry.cut:
                handler.close_connection = True
        except (BrokenPipeError, ConnectionResetError):
            pass

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, body: dict[str, Any],
              headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode("utf-8")
        try:
            handler.send_response(status)
            handler.send_header("content-type", "application/json")
            handler.send_header("content-length", str(len(data)))
            for key, value in (headers or {}).items():
                handler.send_header(key, value)
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test)


def wait_for(predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()
