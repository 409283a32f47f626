"""The shell's tools, one module per tool or small family; `COMMANDS` maps every name a
script can call to its function `(session, args, io) -> exit status`.

Adding a tool is adding a module with a `COMMANDS` table and listing it here.
"""

from __future__ import annotations

from bmoca.sim.shell.commands import (
    am,
    builtins,
    content,
    date,
    dumpsys,
    files,
    input,
    logcat,
    media,
    pm,
    props,
    ps,
    screencap,
    settings,
    svc,
    text,
    uiautomator,
    wm,
)
from bmoca.sim.shell.session import Tool

MODULES = (builtins, text, files, props, settings, media, wm, svc, input, am, pm, dumpsys,
           uiautomator, screencap, logcat, date, ps, content)
COMMANDS: dict[str, Tool] = {name: tool for module in MODULES
                             for name, tool in module.COMMANDS.items()}
