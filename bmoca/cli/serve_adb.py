"""`bmoca serve-adb`: simulated phones that the stock `adb` tool sees as emulators."""

from __future__ import annotations

import typer
from rich.console import Console

console = Console(stderr=True)


def serve_adb(
    config: list[str] = typer.Option(["test_env_100"], help="configuration id; repeat for "
                                     "several phones, one port pair each"),
    port: int = typer.Option(5555, help="first phone's adb port (odd; its console is PORT-1, "
                             "its serial emulator-(PORT-1)); the next phones take PORT+2, ..."),
    host: str = typer.Option("127.0.0.1", help="address to bind; anything but loopback "
                             "exposes an unauthenticated root shell"),
    adb_server_port: int = typer.Option(None, help="adb server to register with "
                                        "(default: ANDROID_ADB_SERVER_PORT or 5037)"),
    register: bool = typer.Option(True, "--register/--no-register",
                                  help="announce each phone to the adb server (host:emulator)"),
    snapshot_dir: str = typer.Option(None, help="keep console snapshots here, across restarts"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object per phone on stdout "
                                 "(serial, config, host, adb_port, console_port, registered)"),
) -> None:
    """Serve simulated phones over ADB: `adb devices` lists them as emulator-PORT."""
    import json
    import os

    from bmoca import configs
    from bmoca.device import connect
    from bmoca.sim.adb import AdbEndpoint, host_problem, is_loopback
    from bmoca.sim.adb import register as announce

    if port % 2 == 0 or not 1024 < port < 65535:
        raise typer.BadParameter(f"{port}: must be an odd port between 1025 and 65533 "
                                 "(the console takes PORT-1)", param_hint="--port")
    problem = host_problem(host)
    if problem is not None:
        raise typer.BadParameter(problem, param_hint="--host")
    chosen = []
    for config_id in config:
        try:
            chosen.append(configs.get(config_id))
        except KeyError:
            valid = ", ".join(configs.ids("all"))
            raise typer.BadParameter(f"unknown configuration {config_id!r}; valid: {valid}",
                                     param_hint="--config") from None
    if not is_loopback(host):
        console.print(f"[yellow]warning[/]: binding {host}: anyone who can reach it gets a "
                      "root shell on the simulated phones")
    server_port = adb_server_port or int(os.environ.get("ANDROID_ADB_SERVER_PORT", "5037"))
    endpoint = AdbEndpoint(host)
    phones = []
    for k, cfg in enumerate(chosen):
        dev_snapshots = f"{snapshot_dir}/{cfg.id}" if snapshot_dir else None
        device = connect("sim", cfg, snapshot_dir=dev_snapshots)
        phones.append(endpoint.add(device, port + 2 * k, name=cfg.id))
    try:
        endpoint.start()
    except OSError as exc:
        console.print(f"[red]error[/]: cannot bind: {exc}")
        raise typer.Exit(1) from None
    for phone, cfg in zip(phones, chosen, strict=True):
        registered = register and announce(phone.port, server_port)
        if as_json:
            print(json.dumps({"serial": phone.serial, "config": cfg.id, "host": host,
                              "adb_port": phone.port, "console_port": phone.port - 1,
                              "registered": registered}), flush=True)
            continue
        how = (f"registered with the adb server on {server_port}" if registered else
               f"`adb connect {host}:{phone.port}` (or start the adb server after this)")
        print(f"{phone.serial}\t{cfg.id}\tadb {host}:{phone.port}\tconsole {phone.port - 1}\t{how}",
              flush=True)
    try:
        endpoint.wait()
    except KeyboardInterrupt:
        pass
    finally:
        endpoint.stop()
