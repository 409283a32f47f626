"""ADB speed: env steps/s of the expert through AdbDevice against the served simulator
(`bmoca serve-adb`, through a real adb server) next to the in-process simulator, and the
latency of screenshot, hierarchy dump, shell and tap on both.

    python benchmarks/adb_speed.py [--episodes 30] [--config test_env_100] [--tasks settings]

Needs the `adb` client on PATH; it starts its own adb server on a free port and kills it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from rich.console import Console
from rich.table import Table

import bmoca
from bmoca import tasks
from bmoca.agents import ExpertAgent
from bmoca.device import connect
from bmoca.env import DevicePool
from bmoca.sim.adb import AdbEndpoint, register


def free_port(odd: bool = False) -> int:
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if not odd:
            return port
        port |= 1
        try:
            for candidate in (port, port - 1):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", candidate))
            return port
        except OSError:
            continue


def episodes(task_list, config: str, observation, count: int, pool) -> tuple[float, float]:
    """(env steps/s, success rate) of the expert."""
    steps, step_time, solved = 0, 0.0, 0
    for i in range(count):
        task = task_list[i % len(task_list)]
        agent = ExpertAgent(task)
        env = bmoca.make(task, config, device=pool, observation=observation,
                         action=agent.action_mode)
        obs, _ = env.reset(seed=i)
        agent.reset(env.goal, seed=i)
        t0 = time.perf_counter()
        while True:
            obs, _, terminated, truncated, info = env.step(agent.act(obs))
            steps += 1
            if terminated or truncated:
                break
        step_time += time.perf_counter() - t0
        solved += info["success"]
    return steps / step_time, solved / count


def latency_ms(fn, device, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(device)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=30)
    parser.add_argument("--config", default="test_env_100")
    parser.add_argument("--tasks", default="settings", help="task spec, as for bmoca eval")
    parser.add_argument("--repeats", type=int, default=20, help="calls per latency figure")
    args = parser.parse_args()
    adb = shutil.which("adb")
    if adb is None:
        sys.exit("adb_speed: the `adb` client is not installed (apt-get install adb)")
    home = tempfile.mkdtemp(prefix="bmoca-adb-")
    server_port = free_port()
    os.environ.update(HOME=home, ANDROID_ADB_SERVER_PORT=str(server_port))
    subprocess.run([adb, "-P", str(server_port), "start-server"], check=True,
                   capture_output=True)
    config = bmoca.configs.get(args.config)
    port = free_port(odd=True)
    endpoint = AdbEndpoint()
    endpoint.add(connect("sim", config), port, name=config.id)
    endpoint.start()
    try:
        register(port, server_port)
        serial = f"emulator-{port - 1}"
        for _ in range(100):
            out = subprocess.run([adb, "-P", str(server_port), "devices"],
                                 capture_output=True, text=True).stdout
            if f"{serial}\tdevice" in out:
                break
            time.sleep(0.05)
        chosen = [t for t in tasks.select(args.tasks) if t.expert]
        table = Table("device", "observation", "env steps/s", "success")
        pools = {"in-process sim": DevicePool("sim"), f"AdbDevice ({serial})":
                 DevicePool(f"adb:{serial}")}
        for pool in pools.values():  # warm-up: provisioning, fonts, first renders
            episodes(chosen, config.id, ("xml", "pixels"), 3, pool)
        for observation in (("xml",), ("xml", "pixels")):
            for name, pool in pools.items():
                rate, success = episodes(chosen, config.id, observation, args.episodes, pool)
                table.add_row(name, "+".join(observation), f"{rate:.0f}", f"{success:.0%}")
        console = Console()
        console.print(table)
        lat = Table("call (median ms)", "in-process sim", "AdbDevice")
        sim, remote = connect("sim", config), connect(f"adb:{serial}")
        for label, call in (("screenshot", lambda d: d.screenshot()),
                            ("dump_hierarchy", lambda d: d.dump_hierarchy()),
                            ("shell echo", lambda d: d.shell("echo hi")),
                            ("tap", lambda d: d.tap(540, 300))):
            lat.add_row(label, f"{latency_ms(call, sim, args.repeats):.2f}",
                        f"{latency_ms(call, remote, args.repeats):.2f}")
        console.print(lat)
    finally:
        subprocess.run([adb, "-P", str(server_port), "kill-server"], capture_output=True)
        endpoint.stop()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
