"""SimDevice: an in-process Android 10 Pixel look-alike behind the `Device` contract."""

from __future__ import annotations

import pickle
import weakref
from functools import partial
from pathlib import Path

import numpy as np

from bmoca.device import limits
from bmoca.device.contract import Device, InvalidInput, Key
from bmoca.sim import heap, kept_screens, snapshots
from bmoca.sim.apps import installed_apps
from bmoca.sim.apps.base import Context, Swipe
from bmoca.sim.apps.systemui import interruptions
from bmoca.sim.apps.systemui import state as systemui_state
from bmoca.sim.apps.systemui.app import NAV_KEYS
from bmoca.sim.frame import RecentWindows, compose, with_bars
from bmoca.sim.kept_screens import same_windows
from bmoca.sim.system import perturbations
from bmoca.sim.system.clock import ClockRangeError
from bmoca.sim.system.server import Hardware, SystemServer, SystemState
from bmoca.sim.system.statecopy import Fingerprinter, StateImage
from bmoca.sim.system.windows import Frame
from bmoca.sim.task_snapshot import task_image
from bmoca.sim.ui.signature import paints_from_state
from bmoca.sim.ui.view import View

TOUCH_SLOP_DP = 8
LONG_PRESS_MS = 500
_FOCUS_KEYS = frozenset({Key.BACK, Key.ENTER, Key.DEL, Key.SPACE})
"""Keys that go to the focused text field when there is one."""
FLING_MIN_DP_PER_S = 1000


class SimDevice(Device):
    """A simulated phone. All state is in `self._system.state`; in-memory snapshots pickle
    it, files go through `bmoca.sim.snapshots` (confined names, no code on load)."""

    def __init__(self, hardware: Hardware | None = None, snapshot_dir: str | Path | None = None,
                 serial: str = "sim-0"):
        from bmoca.sim.render.text import ensure_complex_text_layout

        ensure_complex_text_layout()
        self.serial = serial
        self.hardware = hardware or Hardware(1080, 2160, 440, "Pixel 3")
        self.snapshot_dir = Path(snapshot_dir) if snapshot_dir else None
        self._snapshots: dict[str, StateImage] = {}
        self._frame: Frame | None = None
        self._last_frame: Frame | None = None
        """The frame before the last input: windows that did not change take its layout."""
        self._recent = RecentWindows()
        """Windows laid out lately: a screen seen again takes their layout and dump."""
        self._epoch = 0
        """Counts restores and restarts: the state objects a frame's handlers hold are gone."""
        self._painted: tuple | None = None
        """(size, what the windows looked like, the state's mark, what else the painter
        read, a weak reference to the image) of the last paint, while it may be reused: a
        step that changes the state but nothing the painter reads (a setting not shown, a
        log line) paints nothing."""
        self._screens_owner: object | None = None
        """This phone's token among the process's kept screens, once it keeps some."""
        self._images: dict[int, tuple] = {}
        """id(screenshot array) -> (a weak reference to it, the image it was read from)."""
        self._arrays: dict[int, tuple] = {}
        """id(painted image) -> (weak references to it and to the array read from it)."""
        self._painter = None
        self._bars: dict = {}
        self._fingerprinter = Fingerprinter()
        self._touches = 0
        """Counts whatever may have changed the state: inputs, changing shell commands,
        pushes, restores, frames built, and every outside use of `system`."""
        self._fingerprints: dict[tuple[int, int], bytes] = {}
        """The last few fingerprints taken, by the mark of the state they were taken at."""
        self._system = self._server(SystemState(hardware=self.hardware), installed_apps())
        self._system.boot(first=True)

    @staticmethod
    def _server(state: SystemState, apps) -> SystemServer:
        """A system server over `state`, with what only the phone can give it: the apps'
        contexts and the drawing of recent tasks' snapshots."""
        system = SystemServer(state, apps, Context)
        system.task_snapshot = partial(task_image, system)
        return system

    # -- state ----------------------------------------------------------------------
    @property
    def system(self) -> SystemServer:
        """The system server. Whoever takes it may change the state behind the phone's
        back, so taking it forgets the state's last fingerprint."""
        self._touches += 1
        return self._system

    @property
    def server(self) -> SystemServer:
        """The system server for the phone's own shell, which reports what it changes."""
        return self._system

    def state_fingerprint(self) -> bytes | None:
        """A digest of the system state without its clock (every input advances the clock);
        the last one again while nothing can have changed the state since."""
        mark = self._mark()
        digest = self._fingerprints.get(mark) if self.reuse_layout else None
        if digest is None:
            digest = self._fingerprinter.fingerprint(self._system.state)
            if len(self._fingerprints) >= 4:
                del self._fingerprints[next(iter(self._fingerprints))]
            self._fingerprints[mark] = digest
        return digest

    # -- frames ---------------------------------------------------------------------
    recent_screens = 0
    """How many of its latest painted screens the phone keeps (9 MB each at 1080x2160), to
    hand out again when one comes back (the page BACK returns to, home after HOME): an env
    that observes pixels asks for some (`keep_screens`); a phone that only dumps keeps none."""

    reuse_layout = True
    """Take a window's previous layout, dump and screenshot when its tree is unchanged
    (False builds every frame from scratch: the reference the tests compare against)."""

    def _invalidate(self) -> None:
        self._touches += 1
        if self._frame is not None:
            self._last_frame = self._frame
        self._frame = None
        self._system.note_ime_focus()

    @property
    def frame(self) -> Frame:
        if self._frame is None:
            from bmoca.sim.render.text import layout_metrics
            from bmoca.sim.ui.sizes import SHARED as SHARED_SIZES

            last = self._last_frame if self.reuse_layout else None
            self._last_frame = None
            width, height = self.screen_size()
            # kept whole only on the same server: a restore or a restart makes a new one, and
            # the old windows' handlers would act on the state it replaced
            if (last is not None and not last.reads_clock and last.state is not None
                    and last.state[0] == self._epoch
                    and (last.day is None or last.day == self._system.state.clock.today())):
                if self._unchanged_since(last.state):
                    # nothing but the clock moved: the same windows under today's bars
                    self._frame = with_bars(self._system, last, width, height, self._bars)
                    self._frame.state = self._mark()
                    return self._frame
            measure, text_height = layout_metrics(self._system.locale)
            frame = compose(self._system, width, height, measure, self._bars, last,
                            text_height, SHARED_SIZES if self.reuse_layout else None,
                            self._recent if self.reuse_layout else None)
            self._touches += 1  # building a screen may set up an app's data
            frame.state = self._mark()
            self._frame = frame
        return self._frame

    def _mark(self) -> tuple[int, int]:
        """Where the state stands: it cannot have changed while the mark is the same."""
        return self._epoch, self._touches

    def _unchanged_since(self, mark: tuple[int, int] | None) -> bool:
        """Whether the state (but the clock) is as it was at `mark`: nothing touched it since,
        or it has the fingerprint taken then. Only a fingerprint someone took anyway counts
        (an env takes one after every step): a phone driven without fingerprints spends
        none on reuse checks."""
        if mark is None:
            return False
        if mark == self._mark():
            return True
        then = self._fingerprints.get(mark)
        return then is not None and then == self.state_fingerprint()

    # -- screen ---------------------------------------------------------------------
    def screen_size(self) -> tuple[int, int]:
        return self._system.screen_px()

    def dump_hierarchy(self) -> str:
        from bmoca.sim.ui.dump import dump, dump_windows

        frame = self.frame
        window = frame.active
        if window.dumped is None:
            window.dumped = dump(window.root, window.package)
            if window.kept is not None:  # a later window of the same key takes it from there
                window.kept.dumped = window.dumped
        if window.kind != "shade" and any(w.announced for w in frame.windows):
            if frame.dumped is None:
                frame.dumped = dump_windows([(window.root, window.package)] + [
                    (w.root, w.package) for w in frame.windows if w.announced])
            return frame.dumped
        return window.dumped

    def screen_image(self):
        """The screen as a PIL image, shared (never to be drawn on): the same image again
        while nothing on the screen has changed and someone still holds it or its array
        (the phone keeps only weak references, so an idle phone holds no screen)."""
        return self._screen_image()

    def _screen_image(self):
        if self._painter is None:
            from bmoca.sim.render.painter import Painter

            self._painter = Painter()
        frame = self.frame
        size = self.screen_size()
        looks = [(w.kind, w.key, w.box, w.dim, w.package) if w.key is not None else w
                 for w in frame.windows]
        inputs = self._painter.inputs(self._system, frame)
        from_state = _paints_from_state(looks)  # walks every view's entry: once a call
        painted = self._painted
        if (painted is not None and painted[0] == size and same_windows(painted[1], looks)
                and ((painted[3] == inputs and not from_state)
                     or self._unchanged_since(painted[2]))):
            image = painted[4]()
            if image is not None:
                return image
        image = self._recent_screen(size, looks, inputs)
        if image is None:
            image = self._painter.paint(self._system, frame, size)
            heap.note_paint()
        reusable = self.reuse_layout and all(w.key is not None or w.kind.endswith("_bar")
                                             for w in frame.windows)
        self._painted = (size, looks, self._mark(), inputs, weakref.ref(image)) if reusable \
            else None
        if reusable and self._screens_owner is not None and not from_state:
            kept_screens.SHARED.keep(self._screens_owner, self.recent_screens, size, looks,
                                     inputs, image)
        return image

    def keep_screens(self, count: int) -> None:
        """Keep up to `count` of the latest paints (at least as many as asked before),
        within the process's budget (`bmoca.sim.kept_screens`)."""
        self.recent_screens = max(self.recent_screens, count)
        if self._screens_owner is None and self.recent_screens > 0:
            self._screens_owner = owner = object()
            weakref.finalize(self, kept_screens.SHARED.forget, owner)

    def _recent_screen(self, size: tuple[int, int], looks: list, inputs: tuple):
        """A kept paint of windows with the same keys and the same painter inputs: the
        painter gives such windows the same pixels whatever else in the state differs
        (the rule the last paint is reused by; windows whose painter reads state are
        never kept)."""
        if self._screens_owner is None or not self.reuse_layout:
            return None
        return kept_screens.SHARED.find(self._screens_owner, size, looks, inputs)

    def screenshot(self) -> np.ndarray:
        """The screen as a read-only (H, W, 3) array: the same array again while nothing on
        the screen has changed and someone still holds it."""
        return self.screenshot_of(self._screen_image())

    def screenshot_of(self, image) -> np.ndarray:
        """The read-only array of an image `screen_image` handed out, read from it once
        (reading 1080x2160 pixels costs 2 ms) and kept while someone holds it."""
        found = self._arrays.get(id(image))
        known = found is not None and found[0]() is image
        if known:
            array = found[1]()
            if array is not None:
                return array
        array = np.asarray(image)  # read-only: it cannot come to differ from `image`
        self._images[id(array)] = (weakref.ref(array), image)  # the array keeps its image
        weakref.finalize(array, self._images.pop, id(array), None)
        if not known:
            weakref.finalize(image, self._arrays.pop, id(image), None)
        self._arrays[id(image)] = (weakref.ref(image), weakref.ref(array))
        return array

    def image_of(self, screenshot: np.ndarray):
        """The painted image of one of this phone's screenshots, while the array lives."""
        found = self._images.get(id(screenshot))
        return found[1] if found is not None and found[0]() is screenshot else None

    def screenshot_image(self):
        """The screen as a PIL image (RGB), the caller's own."""
        return self._screen_image().copy()

    # -- input ----------------------------------------------------------------------
    def _check_point(self, x: int, y: int) -> tuple[int, int]:
        return limits.point(x, y, self.screen_size())

    def _advance(self, ms: int) -> None:
        """Move the clock for an input, or InvalidInput (phone unchanged) past its end."""
        try:
            self._system.state.clock.check_advance(ms)
        except ClockRangeError as exc:
            raise InvalidInput(str(exc)) from None
        self._system.state.clock.advance(ms)

    def tap(self, x: int, y: int) -> None:
        x, y = self._check_point(x, y)
        self._advance(100)
        self._dispatch_tap(x, y, long=False)
        self._invalidate()

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        x1, y1 = self._check_point(x1, y1)
        x2, y2 = self._check_point(x2, y2)
        duration_ms = limits.duration_ms(duration_ms)
        self._advance(100 + duration_ms)
        slop = self.frame.layout.px(TOUCH_SLOP_DP)
        if abs(x2 - x1) <= slop and abs(y2 - y1) <= slop:
            self._dispatch_tap(x1, y1, long=duration_ms >= LONG_PRESS_MS)
        else:
            self._dispatch_swipe(Swipe(x1, y1, x2, y2, int(duration_ms)))
        self._invalidate()

    def press(self, key: str | Key) -> None:
        key = Key.parse(key)
        self._advance(100)
        self._dispatch_key(key)
        self._invalidate()

    def input_text(self, text: str) -> None:
        text = limits.text(text)
        bad = sorted({c for c in text if not (" " <= c <= "~")})
        if bad:
            raise InvalidInput(
                "the keyboard cannot type " + ", ".join(repr(c) for c in bad)
                + " (input text takes printable ASCII only, as on a device)")
        self._advance(100 + 20 * len(text))
        focused = self.frame.focused
        if self.frame.window("shade") is not None or self.frame.window("system_dialog"):
            pass  # the shade or a system dialog has the input focus, and no text field
        elif focused is not None and text:
            focused.on_text(focused.text + text)
        elif text and not self._dialog_shown():
            record = self._system.am.top_record()
            if record is not None:
                ctx = self._context()
                for char in text:  # one key event per character, as Input.sendText does
                    record.activity.on_key_char(ctx, char)
        self._invalidate()

    def _dialog_shown(self) -> bool:
        """A dialog window takes key events itself; none of its dialogs has a key handler."""
        return any(window.kind in ("dialog", "system_dialog") for window in self.frame.windows)

    def perturb(self, step: int) -> None:
        """After the agent's `step`-th step: the episode's perturbations due now appear and
        those Android would have taken away go (`bmoca.sim.system.perturbations`)."""
        if interruptions.tick(self._system, step):
            self._invalidate()

    def arm_perturbations(self, value: str, seed: int, about: str = "") -> int:
        """Draw schedule `value` (none, light, heavy, KIND@STEP) for an episode of `seed`
        and keep it in the phone's state; `about` is the task's text (see `schedule`).
        Returns how many events it holds."""
        events = perturbations.schedule(value, seed, about)
        perturbations.arm(self._system, events)
        self._invalidate()
        return len(events)

    def perturbation_outcomes(self) -> dict:
        return perturbations.outcomes(self._system)

    # -- dispatch ---------------------------------------------------------------------
    def _context(self) -> Context:
        record = self._system.am.top_record()
        return Context(self._system, record.package, record)

    def _dispatch_tap(self, x: int, y: int, long: bool) -> None:
        frame = self.frame
        for window in reversed(frame.windows):
            left, top, right, bottom = window.box
            inside = left <= x < right and top <= y < bottom
            if window.kind == "shade":
                if inside:
                    self._hit(window.root, x, y, long)
                else:  # a touch on the scrim closes the shade
                    systemui_state.collapse_shade(self._system)
                return
            if window.kind == "nav_bar":
                if inside:
                    button = self._nearest_button(window, x, y)
                    if button is not None:
                        self._dispatch_key(Key.parse(NAV_KEYS[button.id]))
                    return
            elif window.kind == "status_bar":
                if inside:
                    return
            elif window.kind == "ime":
                if inside:  # keyboards resolve a touch between keys to the nearest key
                    key = self._nearest_button(window, x, y)
                    if key is not None and key.on_click is not None:
                        key.on_click()
                    return
            elif window.kind == "dialog":
                if not inside:
                    window.record.activity.on_back(self._context())
                    return
                self._hit(window.root, x, y, long)
                return
            elif window.kind == "system_dialog":
                if inside:
                    self._hit(window.root, x, y, long)
                else:
                    interruptions.outside_dialog(self._system)
                return
            elif window.kind == "heads_up":
                if inside:
                    self._hit(window.root, x, y, long)
                    return
            elif window.kind == "app":
                self._hit(window.root, x, y, long, record=window.record)
                return

    def _hit(self, root: View, x: int, y: int, long: bool, record=None) -> None:
        """A tap, or a touch held past the long-press timeout, on the top-most view there.

        Android 10's View.onTouchEvent: only a long-clickable view posts CheckForLongPress;
        when it fires, the view's OnLongClickListener (or its context menu, or a text
        selection) takes the gesture and the lift performs no click. A view that is not
        long-clickable posts nothing (unless it has a tooltip, which then shows and takes
        the gesture), so a long hold on it is a click on release. Here a
        long press on a long-clickable view runs its `on_long_click` and never its
        `on_click` (a long-clickable view without a modelled handler consumes the press and
        shows nothing), a view with a `tooltip` consumes it; on any other view it is a tap."""
        want = _takes_long_press if long else None
        target = hit_test(root, x, y, want)
        if target is None:
            return
        if target.on_text is not None and record is not None:
            record.focus = target.id or None
            if target.on_click and not long:
                target.on_click()
            return
        if long and target.on_long_click is not None:
            target.on_long_click()
        elif long and (target.long_clickable or target.tooltip):
            # A view with a tooltip consumes the press too: View.performLongClickInternal shows
            # the tooltip when no listener takes it, and the lift performs no click. The popup
            # hides 1.5 s after the lift, before an agent's next observation: it is not drawn.
            return
        elif target.on_click is not None:
            target.on_click()
        elif target.on_drag is not None:
            # a tap is a touch-down (start tracking) and a lift (stop tracking) on the slider
            fx, fy = self._drag_fraction(target, x, y)
            target.on_drag(fx, fy, False)
            target.on_drag(fx, fy, True)

    def _drag_fraction(self, view: View, x: int, y: int) -> tuple[float, float]:
        """Where on a slider the touch is; sliders run right-to-left in RTL locales."""
        fx, fy = _fraction(view, x, y)
        return (1.0 - fx if self.frame.layout.rtl else fx), fy

    @staticmethod
    def _nearest_button(window, x: int, y: int) -> View | None:
        """NearestTouchFrame: a touch anywhere in the window goes to the nearest button."""
        buttons = [v for v in window.root.walk() if v.clickable]
        return min(buttons, key=lambda v: _box_distance(v.clip, x, y), default=None)

    def _dispatch_swipe(self, swipe: Swipe) -> None:
        frame = self.frame
        sx, sy = swipe.x1, swipe.y1
        nav = frame.window("nav_bar")
        status = frame.window("status_bar")
        if nav and nav.box[1] <= sy:
            return
        shade = frame.window("shade")
        if shade is not None:
            self._swipe_shade(shade, swipe)
            return
        if status and sy < status.box[3] and swipe.direction == "down":
            systemui_state.pull_shade(self._system)
            return
        target_window = frame.active
        for window in reversed(frame.windows):
            left, top, right, bottom = window.box
            inside = left <= sx < right and top <= sy < bottom
            if window.kind == "system_dialog":
                return  # a modal dialog: a swipe on or off it does nothing
            if window.kind == "heads_up" and inside:
                window.root.on_swipe(swipe)
                return
            if window.kind == "ime" and inside:
                return
            if window.kind == "dialog":
                target_window = window
                break
        root = target_window.root
        swiped = hit_test(root, sx, sy, want=lambda v: v.on_swipe is not None)
        if swiped is not None and swiped.on_swipe(swipe):
            return
        view = hit_test(root, sx, sy, want=lambda v: v.on_drag is not None)
        if view is not None:
            fx, fy = self._drag_fraction(view, (sx + swipe.x2) // 2, (sy + swipe.y2) // 2)
            view.on_drag(fx, fy, False)
            fx, fy = self._drag_fraction(view, swipe.x2, swipe.y2)
            view.on_drag(fx, fy, True)
            return
        vertical = swipe.direction in ("up", "down")
        scroller = hit_test(root, sx, sy, want=lambda v: v.scrollable and bool(v.scroll_key)
                            and v.horizontal_scroll != vertical)
        scroll = target_window.scroll
        if scroller is not None and scroll is not None:
            key = scroller.scroll_key
            extent = scroll.extents.get(key, 0)
            delta = -(swipe.dy if vertical else swipe.dx)
            if self.frame.layout.rtl and not vertical:
                delta = -delta
            delta += self._fling(delta, swipe.duration_ms)
            before = scroll.offsets.get(key, 0)
            after = max(0, min(extent, before + delta))
            if after != before:
                scroll.offsets[key] = after
                return
        if target_window.record is not None:
            target_window.record.activity.on_swipe(self._context(), swipe)

    def _swipe_shade(self, shade, swipe: Swipe) -> None:
        """On the open shade: a drag on the brightness slider moves it; a pull down opens
        the full panel; a push up closes the shade."""
        left, top, right, bottom = shade.box
        if left <= swipe.x1 < right and top <= swipe.y1 < bottom:
            view = hit_test(shade.root, swipe.x1, swipe.y1, want=lambda v: v.on_drag is not None)
            if view is not None:
                fx, fy = self._drag_fraction(view, (swipe.x1 + swipe.x2) // 2,
                                             (swipe.y1 + swipe.y2) // 2)
                view.on_drag(fx, fy, False)
                fx, fy = self._drag_fraction(view, swipe.x2, swipe.y2)
                view.on_drag(fx, fy, True)
                return
        if swipe.direction == "down":
            systemui_state.pull_shade(self._system)
        elif swipe.direction == "up":
            systemui_state.collapse_shade(self._system)

    def _fling(self, distance: int, duration_ms: int) -> int:
        """Extra travel after lift: fast swipes fling on, up to twice their length."""
        layout = self.frame.layout
        velocity_dp = abs(distance) / layout.scale / max(duration_ms, 1) * 1000
        if velocity_dp < FLING_MIN_DP_PER_S:
            return 0
        factor = min(2.0, velocity_dp / 2500)
        return int(distance * factor)

    def _dispatch_key(self, key: Key) -> None:
        system = self._system
        record = system.am.top_record()
        ctx = self._context()
        # the focused field, for the keys that go to it: HOME, Overview and the volume keys
        # need no frame (a reset's HOME would build the snapshot's screen only to leave it)
        focused = self.frame.focused if key in _FOCUS_KEYS else None
        if systemui_state.shade_level(system) != systemui_state.CLOSED and key in (
                Key.BACK, Key.ESCAPE, Key.HOME, Key.APP_SWITCH):
            systemui_state.collapse_shade(system)  # and HOME or Overview go on below
            if key in (Key.BACK, Key.ESCAPE):
                return
        if key in (Key.BACK, Key.ESCAPE) and interruptions.on_back(system):
            return
        if key == Key.HOME:
            interruptions.on_home(system)
        if key == Key.BACK:
            if focused is not None:
                record.focus = None
            elif not record.activity.on_back(ctx):
                system.am.finish(record)
        elif key == Key.HOME:
            if record is not None:
                record.focus = None
            system.am.go_home()
        elif key == Key.APP_SWITCH:
            if record is not None:
                record.focus = None
            from bmoca.sim.apps.launcher.app import toggle_overview

            toggle_overview(system)
        elif key == Key.ENTER:
            if focused is not None:
                if focused.on_submit is not None:
                    focused.on_submit()
            elif record is not None and not self._dialog_shown():
                record.activity.on_key(ctx, key.value)
        elif key == Key.DEL:
            if focused is not None:
                if focused.text:
                    focused.on_text(focused.text[:-1])
            elif record is not None and not self._dialog_shown():
                record.activity.on_key(ctx, key.value)
        elif key == Key.SPACE:
            if focused is not None:
                focused.on_text(focused.text + " ")
        elif key in (Key.VOLUME_UP, Key.VOLUME_DOWN):
            level = system.state.audio.get(3) + (1 if key == Key.VOLUME_UP else -1)
            system.set_volume(3, level)
        elif key == Key.ESCAPE:
            self._dispatch_key(Key.BACK)

    # -- shell and files ----------------------------------------------------------------
    def shell(self, cmd: str) -> tuple[str, int]:
        from bmoca.sim.shell import Shell

        out, code, changed = Shell(self).run(cmd)
        if changed:
            self._invalidate()
        return out, code

    def shell_streams(self, cmd: str, stdin: bytes = b"") -> tuple[list[tuple[int, bytes]], int]:
        """Run `cmd` with `stdin`; ordered (fd, bytes) chunks (1 stdout, 2 stderr) and the
        exit code, as the ADB endpoint's shell v2 needs them."""
        from bmoca.sim.shell import Shell

        chunks, code, changed = Shell(self).run_chunks(cmd, stdin.decode("utf-8", "surrogateescape"))
        if changed:
            self._invalidate()
        return [(fd, text.encode("utf-8", "surrogateescape")) for fd, text in chunks], code

    def pull(self, path: str) -> bytes:
        from bmoca.device.contract import DeviceError
        from bmoca.sim.system.vfs import FsError

        try:
            return self._system.state.vfs.read(path)
        except FsError as exc:
            raise DeviceError(f"remote object '{path}' does not exist: {exc}") from None

    def push(self, data: bytes, path: str) -> None:
        from bmoca.device.contract import DeviceError
        from bmoca.sim.system.vfs import FsError

        try:
            self._system.state.vfs.write(path, data)
        except FsError as exc:
            raise DeviceError(f"failed to push to '{path}': {exc}") from None
        self._invalidate()

    # -- lifecycle ---------------------------------------------------------------------
    def restart_framework(self) -> None:
        """What `setprop ctl.restart zygote` does: apps restart, locale and files are re-read."""
        self._system.boot(first=False)
        self._epoch += 1
        self._invalidate()

    # -- snapshots ---------------------------------------------------------------------
    def snapshot_bytes(self) -> bytes:
        return pickle.dumps(self._system.state, protocol=pickle.HIGHEST_PROTOCOL)

    def restore_bytes(self, blob: bytes) -> None:
        state = pickle.loads(blob)
        if not isinstance(state, SystemState):
            raise InvalidInput("not a bmoca device snapshot")
        self._restore(state)

    def fork_state(self) -> StateImage:
        """The whole state as an image (its small objects pickled, its files shared: about
        0.05 ms), for an environment to continue an episode from it again and again."""
        return StateImage(self._system.state)

    def restore_fork_state(self, state: StateImage) -> None:
        if not isinstance(state, StateImage):
            raise InvalidInput(f"not a simulated phone's state: {type(state).__name__}")
        self._restore(state.state())

    def _restore(self, state: SystemState) -> None:
        self._system = self._server(state, self._system.apps)
        self.hardware = state.hardware
        self._epoch += 1
        self._invalidate()
        heap.at_reset()

    def snapshot_save(self, name: str) -> None:
        """Keep the state under `name` (in memory; also as a checked file in snapshot_dir)."""
        path = snapshots.path_for(self.snapshot_dir, name) if self.snapshot_dir else None
        name = snapshots.check_name(name)
        self._snapshots[name] = StateImage(self._system.state)
        if path is not None:
            self.snapshot_dir.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(snapshots.encode(self.snapshot_bytes()))
            tmp.replace(path)

    def snapshot_load(self, name: str) -> None:
        """Restore `name`; a file is read only through the checked format (no code runs)."""
        name = snapshots.check_name(name)
        image = self._snapshots.get(name)
        if image is None and self.snapshot_dir is not None:
            path = snapshots.path_for(self.snapshot_dir, name)
            if path.is_file():
                state = snapshots.decode(path.read_bytes(), str(path))
                if not isinstance(state, SystemState):
                    raise InvalidInput(f"{path} does not hold a bmoca device state")
                image = self._snapshots[name] = StateImage(state)
        if image is None:
            known = sorted(self._snapshots)
            raise InvalidInput(f"no snapshot named {name!r}; saved: {known or 'none'}")
        self._restore(image.state())

    def snapshots(self) -> list[str]:
        names = set(self._snapshots)
        if self.snapshot_dir is not None and self.snapshot_dir.is_dir():
            names |= {p.stem for p in self.snapshot_dir.glob("*" + snapshots.SUFFIX)}
        return sorted(names)


def _paints_from_state(looks: list) -> bool:
    """Whether a window's tree has a painter that reads state its key does not hold (a
    photo from the file system): then only a state that stood still keeps its image."""
    return any(isinstance(look, tuple) and paints_from_state(look[1][0]) for look in looks)


def hit_test(root: View, x: int, y: int, want=None) -> View | None:
    """The top-most view under the point that takes touches (or satisfies `want`): the last
    one, in pre-order, of the visible views whose clip holds the point. A loop, not a
    recursive closure: a closure that calls itself is a reference cycle, which kept the
    view it found (and its subtree) until the collector's next pass."""
    if want is None:
        want = _takes_touches
    found = None
    stack = [root]
    pop, push = stack.pop, stack.extend
    while stack:
        view = pop()
        left, top, right, bottom = view.clip
        if not (left <= x < right and top <= y < bottom):
            continue
        if want(view):
            found = view
        push(reversed([child for child in view.children if child.visible]))
    return found


def _takes_touches(v: View) -> bool:
    return v.enabled and (v.on_click is not None or v.on_long_click is not None
                          or v.on_text is not None or v.on_drag is not None
                          or bool(v.tooltip))  # View.onTouchEvent keeps a TOOLTIP view's touches


def _takes_long_press(v: View) -> bool:
    """A long press's target: a view that takes touches, or an enabled long-clickable one
    (it consumes the press even where the simulator models no handler for it)."""
    return _takes_touches(v) or (v.enabled and v.long_clickable)


def _box_distance(box, x: int, y: int) -> int:
    """Distance from a point to a box (0 inside)."""
    left, top, right, bottom = box
    dx = max(left - x, 0, x - (right - 1))
    dy = max(top - y, 0, y - (bottom - 1))
    return dx * dx + dy * dy


def _fraction(view: View, x: int, y: int) -> tuple[float, float]:
    left, top, right, bottom = view.bounds
    fx = (x - left) / max(1, right - left)
    fy = (y - top) / max(1, bottom - top)
    return min(1.0, max(0.0, fx)), min(1.0, max(0.0, fy))
