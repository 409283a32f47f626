"""`ps` and `pidof` over the simulated processes."""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING

from bmoca.sim.shell.errors import SHELL_PID, Io
from bmoca.sim.system.server import (
    PHONE_PID,
    SYSTEM_PID,
    SYSTEMUI_PACKAGE,
    SYSTEMUI_PID,
    SYSTEMUI_UID,
    ZYGOTE_PID,
)

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


def _processes(sh: Session) -> list[tuple[str, int, int, str, str]]:
    """(user, pid, ppid, state, name) of the simulated processes, init first."""
    rows = [("root", 1, 0, "S", "init"), ("logd", 185, 1, "S", "logd"),
            ("system", 190, 1, "S", "servicemanager"), ("system", 232, 1, "S", "surfaceflinger"),
            ("root", ZYGOTE_PID, 1, "S", "zygote64"), ("shell", 420, 1, "S", "adbd"),
            ("system", SYSTEM_PID, ZYGOTE_PID, "S", "system_server"),
            (f"u0_a{SYSTEMUI_UID - 10000}", SYSTEMUI_PID, ZYGOTE_PID, "S", SYSTEMUI_PACKAGE),
            ("radio", PHONE_PID, ZYGOTE_PID, "S", "com.android.phone")]
    for package, app in sh.system.apps.items():
        pid = sh.system.pid_of(package)
        if pid in (SYSTEM_PID, SYSTEMUI_PID, PHONE_PID):
            continue
        user = "system" if app.uid == 1000 else f"u0_a{app.uid - 10000}"
        rows.append((user, pid, ZYGOTE_PID, "S", package))
    return sorted(rows, key=lambda r: r[1])


def cmd_ps(sh: Session, args: list[str], io: Io) -> int:
    everything = any(a.startswith("-") and set(a[1:]) & set("Aef") for a in args)
    wanted = [a for a in args if not a.startswith("-")]
    rows = _processes(sh)
    own = [("shell" if sh.uid else "root", SHELL_PID, 420, "S", "sh"),
           ("shell" if sh.uid else "root", SHELL_PID + 7, SHELL_PID, "R", "ps")]
    if everything or wanted:
        rows = rows + own
    else:
        rows = own
    if wanted:
        rows = [r for r in rows if r[4] in wanted or str(r[1]) in wanted]
    io.out(f"{'USER':<12}{'PID':>6}{'PPID':>6}{'VSZ':>8}{'RSS':>7} {'WCHAN':<16}{'ADDR':>5} S NAME\n")
    for user, pid, ppid, state, name in rows:
        vsz = 1_100_000 + (zlib.crc32(name.encode()) % 900_000) if ppid == ZYGOTE_PID else 10_000
        rss = 40_000 + (zlib.crc32(name.encode()) % 90_000) if ppid == ZYGOTE_PID else 2_000
        wchan = "0" if state == "R" else "SyS_epoll_wait"
        io.out(f"{user:<12}{pid:>6}{ppid:>6}{vsz:>8}{rss:>7} {wchan:<16}{0:>5} {state} {name}\n")
    return 0


def cmd_pidof(sh: Session, args: list[str], io: Io) -> int:
    names = [a for a in args if not a.startswith("-")]
    pids = [str(pid) for _, pid, _, _, name in _processes(sh) if name in names]
    if "sh" in names:
        pids.append(str(SHELL_PID))
    if not pids:
        return 1
    io.out(" ".join(pids) + "\n")
    return 0


COMMANDS: dict[str, Tool] = {
    "ps": cmd_ps,
    "pidof": cmd_pidof,
}
