"""The app shortcuts each app publishes to ShortcutManager, as the launcher's long-press
popup lists them (LauncherApps.getShortcuts for the app's launcher activity).

An app declares shortcuts in its manifest (`res/xml/shortcuts.xml`, started with
NEW_TASK|CLEAR_TASK|TASK_ON_HOME, as ShortcutParser adds them) or publishes dynamic ones at
run time (started with the app's own flags plus NEW_TASK). Launcher3 10 shows manifest
shortcuts first, then dynamic ones, each by rank, at most four
(PopupPopulator.sortAndFilterShortcuts), and starts a shortcut as its publisher
(`START ... from uid <the app's uid>`), with the tapped row's bounds.

What is declared here, and where it comes from:

- Clock: AOSP DeskClock's ShortcutController (dynamic, set at every boot by
  AlarmInitReceiver): Create new alarm, Create new timer, Start (or Pause) stopwatch,
  Start screen saver.
- Chrome: "New tab" (manifest) and "New incognito tab" (dynamic, once Chrome has run, as
  B-MoCA's set-up has run it): Chromium's LauncherShortcutActivity.
- Contacts: "Add contact" (AOSP Contacts' manifest `shortcut-add-contact`); its starred
  contacts' dynamic shortcuts are not modelled.

Every other app has none here: AOSP Dialer and DocumentsUI publish only dynamic shortcuts
(favourite contacts; "advanced" storage roots, off by default), AOSP Settings and the
Calculator none, and the shortcuts of the closed-source apps (Gmail, Maps, Messages,
YouTube, Photos, Calendar, Instagram, Snapseed, Walmart, the Google app) and Wikipedia's
dynamic ones are not modelled. docs/apps.md keeps the same list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bmoca.sim.apps.chrome.app import (
    ACTION_OPEN_NEW_INCOGNITO_TAB,
    ACTION_OPEN_NEW_TAB,
    LAUNCHER_SHORTCUT,
)
from bmoca.sim.apps.chrome.pages import PACKAGE as CHROME
from bmoca.sim.apps.clock import api as clock_api
from bmoca.sim.apps.clock import model as clock_model
from bmoca.sim.apps.clock.app import SCREENSAVER
from bmoca.sim.apps.contacts.app import ACTION_INSERT, CONTENT_URI, EDITOR
from bmoca.sim.apps.contacts.app import PACKAGE as CONTACTS
from bmoca.sim.system.intent import (
    FLAG_ACTIVITY_CLEAR_TASK,
    FLAG_ACTIVITY_NEW_TASK,
    FLAG_ACTIVITY_TASK_ON_HOME,
    Intent,
)
from bmoca.sim.system.server import SystemServer

MAX_SHORTCUTS = 4
"""PopupPopulator.MAX_SHORTCUTS: the popup lists at most four of an app's shortcuts."""
MANIFEST_FLAGS = FLAG_ACTIVITY_NEW_TASK | FLAG_ACTIVITY_CLEAR_TASK | FLAG_ACTIVITY_TASK_ON_HOME


@dataclass(frozen=True)
class Shortcut:
    """One published shortcut: its labels (string keys), icon and the intent it starts."""

    id: str
    short_label: str
    """String key of the short label (shown when the long one does not fit the row)."""
    long_label: str
    """String key of the long label."""
    icon: str
    """The Material Symbols glyph drawn in the row's round icon."""
    package: str
    cls: str
    """The component's full class name."""
    action: str | None = None
    data: str | None = None
    extras: tuple[tuple[str, object], ...] = ()
    manifest: bool = False
    rank: int = 0
    badge: tuple[int, int, int] = (245, 245, 245)
    """The round icon's disc: the AOSP apps' shortcut icons are a glyph on a #F5F5F5 disc."""
    glyph: tuple[int, int, int] = (32, 33, 36)

    def intent(self, bounds: tuple[int, int, int, int] | None = None) -> Intent:
        """A fresh intent as LauncherApps.startShortcut starts it (the row's bounds)."""
        flags = MANIFEST_FLAGS if self.manifest else FLAG_ACTIVITY_NEW_TASK
        return Intent(action=self.action, data=self.data, flags=flags,
                      component=(self.package, self.cls), bounds=bounds,
                      extras=dict(self.extras))


def _clock(system: SystemServer) -> list[Shortcut]:
    """DeskClock's four dynamic shortcuts; the stopwatch one follows the stopwatch."""
    data = system.state.app_data.get(clock_model.PACKAGE)
    running = isinstance(data, clock_model.ClockData) and data.stopwatch.running
    label = ((clock_api.EXTRA_EVENT_LABEL, "Shortcut"),)
    stopwatch = "pause" if running else "start"
    return [
        Shortcut("alarm:create", "clock.shortcut.new_alarm_short",
                 "clock.shortcut.new_alarm_long", "alarm_add", clock_model.PACKAGE,
                 clock_api.HANDLE_API_CALLS, clock_api.ACTION_SET_ALARM, extras=label, rank=0),
        Shortcut("timer:create", "clock.shortcut.new_timer_short",
                 "clock.shortcut.new_timer_long", "hourglass_empty", clock_model.PACKAGE,
                 clock_api.HANDLE_API_CALLS, clock_api.ACTION_SET_TIMER, extras=label, rank=1),
        Shortcut(f"stopwatch:{stopwatch}", f"clock.shortcut.{stopwatch}_stopwatch_short",
                 f"clock.shortcut.{stopwatch}_stopwatch_long",
                 "pause" if running else "timer", clock_model.PACKAGE,
                 clock_api.HANDLE_SHORTCUTS,
                 clock_api.ACTION_PAUSE_STOPWATCH if running
                 else clock_api.ACTION_START_STOPWATCH, extras=label, rank=2),
        Shortcut("screensaver:show", "clock.shortcut.screensaver_short",
                 "clock.shortcut.screensaver_long", "bedtime", clock_model.PACKAGE,
                 SCREENSAVER, "android.intent.action.MAIN", extras=label, rank=3),
    ]


CHROME_ICON = {"badge": (241, 243, 244), "glyph": (95, 99, 104)}
"""Chrome's shortcut icons: a grey glyph on a light grey disc."""


def _chrome(system: SystemServer) -> list[Shortcut]:
    return [
        Shortcut("new-tab-shortcut", "chrome.new_tab", "chrome.new_tab", "add", CHROME,
                 LAUNCHER_SHORTCUT, ACTION_OPEN_NEW_TAB, manifest=True, **CHROME_ICON),
        Shortcut("dynamic-new-incognito-tab-shortcut", "chrome.new_incognito_tab",
                 "chrome.new_incognito_tab", "visibility_off", CHROME, LAUNCHER_SHORTCUT,
                 ACTION_OPEN_NEW_INCOGNITO_TAB, **CHROME_ICON),
    ]


def _contacts(system: SystemServer) -> list[Shortcut]:
    return [Shortcut("shortcut-add-contact", "contacts.shortcut_add_contact",
                     "contacts.shortcut_add_contact", "person_add", CONTACTS, EDITOR,
                     ACTION_INSERT, CONTENT_URI, manifest=True, glyph=(3, 155, 229))]


PUBLISHERS: dict[str, Callable[[SystemServer], list[Shortcut]]] = {
    clock_model.PACKAGE: _clock,
    CHROME: _chrome,
    CONTACTS: _contacts,
}
"""Package -> what it has published now (manifest and dynamic shortcuts)."""


def shortcuts_of(system: SystemServer, package: str) -> list[Shortcut]:
    """The shortcuts the popup shows for `package`, in Launcher3's order."""
    publish = PUBLISHERS.get(package)
    found = publish(system) if publish is not None else []
    found.sort(key=lambda s: (not s.manifest, s.rank))
    return found[:MAX_SHORTCUTS]
