"""The app pattern: an app is a package, activities (screens over picklable state), and
handlers; it reaches the rest of the phone only through its `Context`, as on Android."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from bmoca.sim.i18n import strings
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.theme import Theme, theme
from bmoca.sim.ui.view import View

if TYPE_CHECKING:
    from bmoca.sim.system.activity import ActivityRecord
    from bmoca.sim.system.server import SystemServer


@dataclass(frozen=True)
class Swipe:
    """A finished swipe, in screen pixels, that no view consumed."""

    x1: int
    y1: int
    x2: int
    y2: int
    duration_ms: int

    @property
    def dx(self) -> int:
        return self.x2 - self.x1

    @property
    def dy(self) -> int:
        return self.y2 - self.y1

    @property
    def direction(self) -> str:
        """Where the finger moved: "up", "down", "left", "right"."""
        if abs(self.dy) >= abs(self.dx):
            return "up" if self.dy < 0 else "down"
        return "left" if self.dx < 0 else "right"


class Activity:
    """One screen. Subclasses keep their UI state as plain attributes (pickled in snapshots)."""

    fullscreen: ClassVar[bool] = False
    """Draw behind the status and navigation bars (the launcher does)."""

    bar_color: ClassVar[tuple[int, int, int] | None] = None
    """The theme's statusBarColor and navigationBarColor; None follows the system theme.
    Apps with a dark UI of their own (Clock, the in-call screen) keep dark bars in light mode."""

    popup_dialog: ClassVar[bool] = False
    """The dialog is a popup (an app menu): anchored where its own gravity puts it, with no
    dim behind it; otherwise it is centred over a dim, as AlertDialogs are."""

    def __init__(self, intent: Intent):
        self.intent = intent

    def status_bar_color(self, night: bool) -> tuple[int, int, int] | None:
        """The theme's statusBarColor alone (colorPrimaryDark over an app's coloured
        toolbar, as Contacts has); None: the system theme's. The navigation bar keeps the
        system theme."""
        return None

    def light_bars(self, night: bool) -> bool | None:
        """Whether a fullscreen activity shows something light under the system bars, so
        they need dark icons (the launcher's app drawer in the light theme); None: no."""
        return None

    def on_create(self, ctx: Context) -> None:
        """Called once when the activity is started; log lines go here."""

    def on_resume(self, ctx: Context) -> None:
        """Called when the activity comes back to the front."""

    def build(self, ctx: Context) -> View:
        raise NotImplementedError

    def dialog(self, ctx: Context) -> View | None:
        """A dialog window over the activity, or None."""
        return None

    def on_back(self, ctx: Context) -> bool:
        """Handle BACK; False lets the system finish the activity."""
        return False

    def on_activity_result(self, ctx: Context, request_code: int, result_code: int,
                           data: Intent | None) -> None:
        """What an activity this one started for a result handed back as it finished
        (RESULT_CANCELED and no data when it was left with BACK)."""

    def on_swipe(self, ctx: Context, swipe: Swipe) -> bool:
        """A swipe no scrolling view consumed; True if handled."""
        return False

    def on_home(self, ctx: Context) -> None:
        """HOME pressed while this is the home activity."""

    def on_key_char(self, ctx: Context, char: str) -> bool:
        """A typed character (`input text`, a character key) while no text field has focus:
        the screen's own key handling (a calculator's onKeyUp, a dialpad's digits field).
        False, the default, drops it, as a screen without a key handler does."""
        return False

    def on_key(self, ctx: Context, key: str) -> bool:
        """ENTER or DEL (by Key value) while no text field has focus; True if handled."""
        return False


class App:
    """An installed package. Subclasses set the class attributes and the activities."""

    package: ClassVar[str]
    label_key: ClassVar[str]
    uid: ClassVar[int]
    activities: ClassVar[dict[str, type[Activity]]]
    """Full class name -> Activity class."""
    intent_actions: ClassVar[dict[str, str]] = {}
    """Intent action -> full class name of the activity that handles it."""
    system_process: ClassVar[bool] = False
    """Always running (system UI, launcher): no Start proc line."""

    def initial_data(self) -> Any:
        """App-wide state kept in the system state (pickled in snapshots)."""
        return None

    def on_boot(self, ctx: Context) -> None:
        """Called at every (re)start of the framework: read files, settings."""

    def on_broadcast(self, ctx: Context, action: str) -> None:
        """A system broadcast (TIME_SET, ...)."""


class Context:
    """What an app may touch: its own data, strings, theme, logs, intents, system services."""

    def __init__(self, system: SystemServer, package: str, record: ActivityRecord | None = None):
        self.system = system
        self.package = package
        self.record = record

    # -- resources ----------------------------------------------------------------
    @property
    def locale(self) -> str:
        return self.system.locale

    @property
    def rtl(self) -> bool:
        return strings(self.system.locale).rtl

    def t(self, key: str, **fmt) -> str:
        return strings(self.system.locale).get(key, **fmt)

    @property
    def theme(self) -> Theme:
        return theme(self.system.night_mode)

    @property
    def is_24_hour(self) -> bool:
        """DateFormat.is24HourFormat: `settings system time_12_24` when set (Settings → Use
        24-hour format), otherwise the locale's hour cycle."""
        chosen = self.system.state.settings.get("system", "time_12_24")
        if chosen in ("12", "24"):
            return chosen == "24"
        return self.t("format.hour_cycle") == "24"

    def now(self) -> dt.datetime:
        return self.system.state.clock.datetime()

    def today(self) -> dt.date:
        """The date: a screen that shows no time of day reads this, not `now`, and is
        then not rebuilt while only the time moves on."""
        return self.system.state.clock.today()

    # -- state --------------------------------------------------------------------
    @property
    def data(self) -> Any:
        return self.system.state.app_data.get(self.package)

    @property
    def uid(self) -> int:
        return self.system.apps[self.package].uid

    # -- actions ------------------------------------------------------------------
    def log(self, priority: str, tag: str, message: str) -> None:
        self.system.log_from(self.package, priority, tag, message)

    def start_activity(self, intent: Intent, bring_to_front: bool = True) -> None:
        self.system.am.start_activity(intent, caller=self.package,
                                      bring_to_front=bring_to_front)

    def start_activity_for_result(self, intent: Intent, request_code: int) -> None:
        """Activity.startActivityForResult: the started activity's result comes back to this
        one's `on_activity_result` when it finishes."""
        self.system.am.start_activity(intent, caller=self.package, result_to=self.record,
                                      request_code=request_code)

    def set_result(self, result_code: int, data: Intent | None = None) -> None:
        """Activity.setResult: handed to the caller when this activity finishes."""
        if self.record is not None:
            self.record.result_code, self.record.result_data = result_code, data

    @property
    def calling_package(self) -> str | None:
        """Activity.getCallingPackage: who started this activity for a result, else None."""
        caller = self.record.result_to if self.record is not None else None
        return caller.package if caller is not None else None

    def finish(self) -> None:
        if self.record is not None:
            self.system.am.finish(self.record)

