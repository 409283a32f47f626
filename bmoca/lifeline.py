"""Worker processes die with their parent, however the parent ends.

`kill -9` of `bmoca eval --workers N` gives the workers no chance to be told; without a
watch they would wait on their task queue forever. Each worker calls `die_with_parent`
from its initializer: on Linux the kernel sends it SIGKILL when the parent goes
(PR_SET_PDEATHSIG), and everywhere a daemon thread checks the parent's pid twice a
second, which also covers the case where the parent died before the first took effect.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
POLL_S = 0.5


def die_with_parent(parent_pid: int, poll_s: float = POLL_S) -> None:
    """End this process at once when `parent_pid` (the pid that started it) is gone."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # no libc symbol: the thread below still watches
            pass
    if os.getppid() != parent_pid:  # the parent died before the kernel was told
        os._exit(1)
    threading.Thread(target=_watch, args=(parent_pid, poll_s), daemon=True,
                     name="bmoca-parent-watch").start()


def _watch(parent_pid: int, poll_s: float) -> None:
    while os.getppid() == parent_pid:
        time.sleep(poll_s)
    os._exit(1)  # no cleanup: the parent that would read our results is gone
