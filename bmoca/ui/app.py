"""The web application of `bmoca ui`: the page, its JSON API, and what it answers on error.

Why one factory (`create_app`): the CLI and the tests build the same app, each with its own
dataset, runs root and phones, and nothing is global. Every error is JSON
`{"error": "one line"}` with a fitting status (the page shows the line): a `UiError` as it
is, a malformed body as a 400 naming the field, an unknown path as a 404, and anything
unexpected as a 500 naming the exception, logged on one line, never a traceback.
With a `token`, every request must carry it (the printed URL's `?token=`, then a cookie,
or the `X-Bmoca-Token` header): that is for listening beyond loopback.
Every request must also name this server in its `Host` header: a loopback name, or the
`host` it was started with. A page of another site can point its own name at 127.0.0.1
(DNS rebinding) and then call the API as "same origin"; its requests still carry its own
name as `Host`, so they get a 400.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import Body, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException

from bmoca.ui.errors import UiError
from bmoca.ui.recorder import Recorder
from bmoca.ui.runs import Runs
from bmoca.ui.sessions import IDLE_S, MAX_PHONES, Sessions

TOKEN_COOKIE = "bmoca_ui_token"
_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[^:\[\]/@\s]+)(?::\d{1,5})?")
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]"})
log = logging.getLogger("bmoca.ui")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(message.split())}, status_code=status)


def host_name(header: str) -> str:
    """The name of a `Host` header without its port, lower case (`[::1]:8765` -> `[::1]`);
    "" when it is not a name with an optional numeric port."""
    match = _HOST.fullmatch(header.strip().lower())
    return match.group(1) if match else ""


def allowed_hosts(host: str | None) -> frozenset[str]:
    """The `Host` names served: loopback, and `host` (an IPv6 address in brackets)."""
    if not host:
        return LOOPBACK_NAMES
    name = host.strip().lower()
    if ":" in name and not name.startswith("["):
        name = f"[{name}]"
    return LOOPBACK_NAMES | {name}


def _static(name: str) -> bytes:
    return resources.files("bmoca.ui").joinpath("static", name).read_bytes()


_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8"}


def create_app(*, demos: str | Path = "demos/human", runs: str | Path = "runs",
               token: str | None = None, host: str | None = None, idle_s: float = IDLE_S,
               max_phones: int = MAX_PHONES, sweep_s: float | None = None) -> FastAPI:
    """The app: human demonstrations go to `demos`, runs are read under `runs`; requests
    must name a loopback host or `host` (what `--host` gave) in their `Host` header.

    Idle phones are looked for every `sweep_s` seconds (default: a quarter of `idle_s`,
    at most a minute)."""
    sessions = Sessions(idle_s=idle_s, max_phones=max_phones)
    recorder, run_root = Recorder(demos), Runs(runs)
    hosts = allowed_hosts(host)
    sweep = sweep_s if sweep_s is not None else min(idle_s / 4, 60.0)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI):
        async def sweeper() -> None:
            while True:
                await asyncio.sleep(sweep)
                released = await run_in_threadpool(sessions.release_idle)
                for phone_id in released:
                    log.info("released idle phone %s", phone_id)

        task = asyncio.create_task(sweeper())
        try:
            yield
        finally:
            task.cancel()
            sessions.close_all()

    app = FastAPI(title="bmoca ui", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.sessions, app.state.recorder, app.state.runs = sessions, recorder, run_root

    @app.middleware("http")
    async def guard(request: Request, call_next):
        named = request.headers.get("host", "")
        if host_name(named) not in hosts:
            return _error(400, f"this server does not answer for Host {named[:100]!r}; open it "
                               f"as {' or '.join(sorted(hosts))} (bmoca ui --host names another)")
        given = (request.query_params.get("token") or request.headers.get("x-bmoca-token")
                 or request.cookies.get(TOKEN_COOKIE))
        if token and not (given and secrets.compare_digest(given, token)):
            return _error(401, "this server needs its token: open the URL `bmoca ui` printed "
                               "(it ends in ?token=...)")
        try:
            response = await call_next(request)
        except UiError as exc:
            return _error(exc.status, exc.message)
        except Exception as exc:  # noqa: BLE001 - the page gets one line, never a traceback
            log.error("%s %s failed: %s: %s", request.method, request.url.path,
                      type(exc).__name__, exc)
            return _error(500, f"internal error ({type(exc).__name__}): {exc}")
        if token and request.query_params.get("token") == token:
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict")
        return response

    @app.exception_handler(UiError)
    async def ui_error(_request: Request, exc: UiError) -> JSONResponse:
        return _error(exc.status, exc.message)

    @app.exception_handler(RequestValidationError)
    async def bad_body(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}"
                    for e in exc.errors()]
        return _error(400, "bad request: " + "; ".join(problems))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        if exc.status_code == 404:
            return _error(404, f"no such page or API: {request.url.path}")
        return _error(exc.status_code, str(exc.detail))

    # -- the page ----------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    def index() -> Response:
        return Response(_static("index.html"), media_type=_TYPES[".html"])

    @app.get("/static/{name}")
    def static(name: str) -> Response:
        suffix = Path(name).suffix
        if suffix not in _TYPES or "/" in name:
            raise UiError(f"no static file {name!r}", 404)
        try:
            return Response(_static(name), media_type=_TYPES[suffix])
        except FileNotFoundError:
            raise UiError(f"no static file {name!r}", 404) from None

    # -- catalogue ---------------------------------------------------------------------
    @app.get("/api/tasks")
    def task_list() -> list[dict[str, Any]]:
        from bmoca import tasks

        return [{"id": t.id, "app": t.app, "goal": t.goal, "step_limit": t.step_limit}
                for t in tasks.all_tasks()]

    @app.get("/api/configs")
    def config_list() -> list[dict[str, Any]]:
        from bmoca import configs

        return [{"id": c, "split": configs.get(c).split, "locale": configs.get(c).locale,
                 "device": configs.get(c).profile.name} for c in configs.ids("all")]

    # -- play and record ---------------------------------------------------------------
    def _with(phone_id: str, phone: Any, **extra: Any) -> dict[str, Any]:
        return {"phone": phone_id, **phone.state(), **extra}

    @app.post("/api/phones")
    def open_phone(body: dict[str, Any] = Body(...)) -> dict[str, Any]:
        unknown = set(body) - {"task", "config", "seed", "locale", "dark"}
        if unknown:
            raise UiError(f"unknown field(s) {', '.join(sorted(unknown))}; valid: task, "
                          "config, seed, locale, dark")
        if not body.get("task"):
            raise UiError("pick a task")
        options = {k: body[k] for k in ("seed", "locale", "dark") if body.get(k) is not None}
        phone_id, phone = sessions.open(body["task"], body.get("config") or "train_env_000",
                                        **options)
        return _with(phone_id, phone)

    @app.get("/api/phones/{phone_id}")
    def phone_state(phone_id: str) -> dict[str, Any]:
        with sessions.use(phone_id) as phone:
            return _with(phone_id, phone)

    @app.get("/api/phones/{phone_id}/screen/{episode}/{frame}.png")
    def screen(phone_id: str, episode: int, frame: int) -> Response:
        """A frame of an episode; cacheable for an hour because the URL names the episode
        (frame numbers restart at 0 after a reset, so a URL must never be reused)."""
        with sessions.use(phone_id) as phone:
            if episode != phone.played:
                raise UiError(f"phone {phone_id} is playing episode {phone.played}; episode "
                              f"{episode}'s screens are gone", 404)
            if not 0 <= frame < len(phone.screens):
                raise UiError(f"phone {phone_id} has no frame {frame} in this episode", 404)
            png = phone.screens[frame]
        return Response(png, media_type="image/png",
                        headers={"Cache-Control": "private, max-age=3600"})

    @app.post("/api/phones/{phone_id}/act")
    def act(phone_id: str, body: dict[str, Any] = Body(...)) -> dict[str, Any]:
        with sessions.use(phone_id) as phone:
            action = phone.act(body)
            return _with(phone_id, phone, action=action)

    @app.post("/api/phones/{phone_id}/reset")
    def reset(phone_id: str) -> dict[str, Any]:
        with sessions.use(phone_id) as phone:
            phone.reset()
            return _with(phone_id, phone)

    @app.post("/api/phones/{phone_id}/record")
    def record(phone_id: str) -> dict[str, Any]:
        with sessions.use(phone_id) as phone:
            saved = recorder.save(phone)
            return _with(phone_id, phone, saved=saved)

    @app.delete("/api/phones/{phone_id}")
    def close(phone_id: str) -> dict[str, Any]:
        with sessions.use(phone_id):
            pass
        sessions.close(phone_id)
        return {"phone": phone_id, "closed": True}

    @app.get("/api/demos")
    def demo_list() -> dict[str, Any]:
        return recorder.listing()

    @app.get("/demos/files/{relative:path}")
    def demo_file(relative: str) -> FileResponse:
        root = recorder.path.resolve()
        path = (root / relative).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            raise UiError(f"the demonstrations have no file {relative!r}", 404)
        return FileResponse(path)

    # -- runs --------------------------------------------------------------------------
    @app.get("/api/runs")
    def run_list() -> dict[str, Any]:
        listed, damaged = run_root.listing()
        return {"root": str(run_root.root), "runs": listed, "damaged": damaged}

    @app.get("/api/runs/{name}")
    def run_detail(name: str, task: str = "", config: str = "", status: str = ""
                   ) -> dict[str, Any]:
        return run_root.detail(name, task=task, config=config, status=status)

    @app.get("/api/runs/{name}/episodes/{episode_id}")
    def run_episode(name: str, episode_id: int) -> dict[str, Any]:
        return run_root.episode(name, episode_id)

    @app.get("/runs/{name}/report/episodes/{episode_id}.html", response_class=HTMLResponse)
    def episode_page(name: str, episode_id: int) -> HTMLResponse:
        return HTMLResponse(run_root.episode_page(name, episode_id))

    @app.get("/runs/{name}/report/report.html")
    def report_page(name: str) -> RedirectResponse:
        run_root.run_dir(name)
        return RedirectResponse(f"/#runs/{name}")

    @app.get("/runs/{name}/{relative:path}")
    def run_file(name: str, relative: str) -> FileResponse:
        return FileResponse(run_root.file(name, relative))

    return app
