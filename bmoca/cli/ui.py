"""`bmoca ui`: the phone in the browser (play, record, browse runs), served locally."""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path

import typer

from bmoca.cli.common import bad, error_line


def ui(
    host: str = typer.Option("127.0.0.1", help="address to listen on; anything but loopback "
                             "requires the token printed in the URL. Requests must name "
                             "loopback or this host in their Host header"),
    port: int = typer.Option(8765, help="port to listen on (0: any free port)"),
    demos: Path = typer.Option(Path("demos/human"), help="dataset directory the recorded "
                               "human demonstrations go to (made on first recording)"),
    runs: Path = typer.Option(Path("runs"), help="directory of `bmoca eval` run directories "
                              "to browse (or one run directory)"),
    token: str = typer.Option(None, help="token the URL must carry (default: a random one "
                              "when listening beyond loopback, none on loopback)"),
    idle: float = typer.Option(900.0, min=1.0, help="seconds a phone may stay idle before "
                               "it is released"),
    max_phones: int = typer.Option(8, min=1, help="phones open at once (one per tab)"),
    as_json: bool = typer.Option(False, "--json", help="print {url, host, port, demos, runs} "
                                 "as one JSON line instead of the sentence"),
) -> None:
    """Serve a web page to play any task by hand, record human demonstrations and browse
    evaluation runs (docs/ui.md). Needs the ui extra: pip install 'bmoca[ui]'."""
    import ipaddress
    import socket

    try:
        import uvicorn

        from bmoca.ui.app import create_app
    except ImportError as exc:
        error_line(f"bmoca ui needs the ui extra ({exc.name} is missing): "
                   "pip install 'bmoca[ui]'")
        raise typer.Exit(1) from None
    if not 0 <= port <= 65535:
        raise bad("--port", f"{port}: must be between 0 and 65535")
    try:
        loopback = ipaddress.ip_address(socket.gethostbyname(host)).is_loopback
    except (OSError, ValueError):
        raise bad("--host", f"{host!r} is not an address of this machine") from None
    if token is not None and not token.strip():
        raise bad("--token", "must not be empty")
    if token is None and not loopback:
        token = secrets.token_urlsafe(16)
    app = create_app(demos=demos, runs=runs, token=token, host=host, idle_s=idle, max_phones=max_phones)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)  # connections wait in the backlog until the server accepts them
    except OSError as exc:
        error_line(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
        raise typer.Exit(1) from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/" + (f"?token={token}" if token else "")
    if as_json:
        print(json.dumps({"url": url, "host": host, "port": bound, "demos": str(demos),
                          "runs": str(runs)}), flush=True)
    else:
        where = "" if loopback else " (reachable from other machines: keep the token secret)"
        print(f"bmoca ui: {url}{where}", flush=True)
        sys.stderr.write("Ctrl-C stops the server and releases its phones.\n")
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
