"""A long press is not a tap: the launcher's shortcuts popup, its shortcuts and App info,
Overview's task menu, and the input rule for long-clickable views (docs/simulator.md,
docs/apps.md). Every case is played through `bmoca.make` and JSON actions at the centres of
elements found in the XML observation."""

from __future__ import annotations

import json
import re

import pytest
from conftest import bounds, nodes

import bmoca
from bmoca import configs, tasks
from bmoca.formats.apps import label_in, labels_of
from bmoca.sim.i18n import LOCALES, strings
from bmoca.sim.render.layout_check import check_device

L = "com.google.android.apps.nexuslauncher:id/"
POPUP = L + "deep_shortcuts_container"
CONFIGS = ("test_env_100", "test_env_108", "test_env_109")
OPEN_TASKS = sorted(t.id for t in tasks.list()
                    if t.id.split("/", 1)[1].lower().startswith("open")
                    and t.expert and t.expert[0].get("open_app"))
"""The "open X" tasks: an expert that opens the app, a goal of opening it (or its page)."""
NEUTRAL = "settings/turn_on_wifi"
"""A task none of these steps completes: the episode goes on whatever they open."""


class Phone:
    """An episode of a task, driven by JSON actions on the XML observation."""

    def __init__(self, pool, task_id: str, config: str = "test_env_100"):
        self.env = bmoca.make(task_id, config, device=pool, observation=("xml",),
                              action="json")
        observation, self.info = self.env.reset(seed=0)
        self.xml = observation["xml"]
        self.locale = self.env.device.server.locale

    def act(self, **action) -> dict:
        observation, _reward, _terminated, _truncated, self.info = self.env.step(
            json.dumps(action))
        self.xml = observation["xml"]
        return self.info

    def t(self, key: str) -> str:
        return strings(self.locale).get(key)

    def find(self, **attrs) -> list:
        return nodes(self.xml, **attrs)

    def centre(self, node) -> dict:
        left, top, right, bottom = bounds(node)
        return {"x": (left + right) // 2, "y": (top + bottom) // 2}

    def tap(self, node) -> dict:
        return self.act(action_type="click", **self.centre(node))

    def hold(self, node) -> dict:
        self.held = node
        return self.act(action_type="long_press", **self.centre(node))

    def icon(self, package: str):
        """The app's launcher icon: on the home screen, else in the app drawer."""
        labels = labels_of(package)
        found = [n for n in self.find(long_clickable="true") if n.get("text") in labels]
        if not found:
            self.act(action_type="swipe", direction="up")
        for _ in range(6):  # down the drawer's list until the icon shows whole
            found = [n for n in self.find(long_clickable="true") if n.get("text") in labels
                     and _inside(n, self.env.device.screen_size(), margin=self._bottom())]
            if found:
                return found[0]
            self.act(action_type="scroll", direction="down")
        raise AssertionError(f"no icon of {package}")

    def _bottom(self) -> int:
        """The navigation bar's height: an icon under it cannot be touched."""
        scale = self.env.device.server.density / 160
        return round(48 * scale)


    def popup(self):
        found = self.find(resource_id=POPUP)
        return found[0] if found else None

    def rows(self) -> list[str]:
        """The popup's shortcut labels, from the one nearest the icon: a card above the
        icon lists them bottom to top (ArrowPopup.reorderAndShow)."""
        labels = [n.get("text") for n in self.popup().iter("node")
                  if n.get("resource-id") == L + "bubble_text" and n.get("clickable") == "true"]
        return labels[::-1] if self.above() else labels

    def above(self) -> bool:
        """Whether the popup opened above the held icon."""
        card, icon = bounds(self.popup()), bounds(self.held)
        return card[1] + card[3] < icon[1] + icon[3]

    def app_info(self):
        """The popup's App info: the header icon or, with no shortcuts, the row."""
        label = self.t("launcher.app_info")
        for node in self.popup().iter("node"):
            if node.get("content-desc") == label:
                return node
            if node.get("text") == label:
                return node.getparent()
        raise AssertionError("no App info in the popup")

    def log(self) -> str:
        return self.env.device.shell("logcat -d -s ActivityTaskManager:I")[0]


def _inside(node, size: tuple[int, int], margin: int = 0) -> bool:
    left, top, right, bottom = bounds(node)
    return 0 <= left < right <= size[0] and 0 <= top < bottom <= size[1] - margin


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("task_id", OPEN_TASKS)
def test_a_long_press_on_the_icon_opens_the_popup_not_the_app(pool, task_id, config):
    phone = Phone(pool, task_id, config)
    package = tasks.get(task_id).expert[0]["open_app"]
    icon = phone.icon(package)
    before = phone.log()
    phone.hold(icon)
    popup = phone.popup()
    assert popup is not None, "no shortcuts popup"
    assert _inside(popup, phone.env.device.screen_size())
    assert phone.app_info() is not None
    assert phone.log() == before, "the long press started an activity"
    info = phone.act(action_type="status", goal_status="complete")
    assert info["success"] is False, f"{task_id} on {config} passed on a long press"


def test_every_open_task_is_checked():
    assert len(OPEN_TASKS) >= 20 and "clock/open_the_clock_app" in OPEN_TASKS


CLOCK_ROWS = ["clock.shortcut.new_alarm_long", "clock.shortcut.new_timer_long",
              "clock.shortcut.start_stopwatch_long", "clock.shortcut.screensaver_long"]


@pytest.mark.parametrize(("package", "keys"), [
    ("com.google.android.deskclock", CLOCK_ROWS),
    ("com.android.chrome", ["chrome.new_tab", "chrome.new_incognito_tab"]),
    ("com.android.contacts", ["contacts.shortcut_add_contact"]),
    ("com.google.android.calculator", []),
])
def test_the_popup_lists_the_apps_shortcuts_and_app_info(pool, package, keys):
    phone = Phone(pool, NEUTRAL)
    phone.hold(phone.icon(package))
    assert phone.rows() == [phone.t(k) for k in keys]
    if keys:  # Clock's icon is low on the home screen: the card opens above it
        assert phone.above()
    info = phone.app_info()
    if keys:
        assert info.get("class") == "android.widget.ImageView"
        assert info.getparent().get("resource-id") == L + "system_shortcut_icons"
    else:
        assert info.find("node").get("text") == phone.t("launcher.app_info")


def test_shortcut_labels_follow_the_locale_and_right_to_left_layout(pool):
    phone = Phone(pool, NEUTRAL, "test_env_109")  # ar-EG, a tablet
    phone.hold(phone.icon("com.google.android.deskclock"))
    rows = phone.rows()
    assert len(rows) == 4 and all(
        label in (phone.t(k), phone.t(k.replace("_long", "_short")))
        for label, k in zip(rows, CLOCK_ROWS, strict=True))
    row = next(n for n in phone.popup().iter("node") if n.get("resource-id") == L + "icon")
    card = bounds(phone.popup())
    assert bounds(row)[2] > (card[0] + card[2]) // 2, "the row's icon is on the right in RTL"


def _shortcut(phone: Phone, package: str, key: str) -> None:
    phone.hold(phone.icon(package))
    label = phone.t(key)
    phone.tap(next(n for n in phone.popup().iter("node") if n.get("text") == label))


def test_clock_create_new_alarm_opens_the_new_alarm_time_picker(pool):
    phone = Phone(pool, "clock/open_the_clock_app")
    _shortcut(phone, "com.google.android.deskclock", "clock.shortcut.new_alarm_long")
    assert phone.popup() is None
    assert "act=android.intent.action.SET_ALARM" in phone.log()
    assert "cmp=com.google.android.deskclock/com.android.deskclock.HandleApiCalls" in phone.log()
    assert re.search(r"HandleApiCalls bnds=\[\d+,\d+\]\[\d+,\d+\] \(has extras\)\} from uid "
                     r"10105", phone.log())
    assert phone.find(resource_id="android:id/hours") and phone.find(
        resource_id="android:id/minutes"), "the new alarm's time picker"
    assert phone.info["success"] is True, "the Clock app was opened"


@pytest.mark.parametrize(("key", "tab"), [("clock.shortcut.new_timer_long", "timer"),
                                          ("clock.shortcut.start_stopwatch_long", "stopwatch")])
def test_clock_timer_and_stopwatch_shortcuts_open_their_tabs(pool, key, tab):
    phone = Phone(pool, NEUTRAL)
    _shortcut(phone, "com.google.android.deskclock", key)
    selected = [n.get("content-desc") for n in phone.find(selected="true")]
    assert phone.t(f"clock.tab.{tab}") in selected
    if tab == "stopwatch":
        assert "Events: [Stopwatch] [Start] [Shortcut]" in phone.env.device.shell(
            "logcat -d -s AlarmClock:D")[0]
        phone.act(action_type="navigate_home")
        phone.hold(phone.icon("com.google.android.deskclock"))
        assert phone.t("clock.shortcut.pause_stopwatch_long") in phone.rows()


def test_clock_screen_saver_shows_the_time_until_touched(pool):
    phone = Phone(pool, NEUTRAL)
    _shortcut(phone, "com.google.android.deskclock", "clock.shortcut.screensaver_long")
    saver = phone.find(resource_id="com.google.android.deskclock:id/saver_container")
    assert saver and phone.find(resource_id="com.google.android.deskclock:id/digital_clock")
    phone.tap(saver[0])
    assert not phone.find(resource_id="com.google.android.deskclock:id/saver_container")


def test_chrome_new_tab_opens_a_second_tab(pool):
    phone = Phone(pool, "chrome/open_a_new_tab_in_Chrome")
    _shortcut(phone, "com.android.chrome", "chrome.new_tab")
    assert "act=chromium.shortcut.action.OPEN_NEW_TAB flg=0x1000c000" in phone.log()
    switcher = phone.find(resource_id="com.android.chrome:id/tab_switcher_button")
    assert "2" in switcher[0].get("content-desc")
    assert phone.info["success"] is True


def test_chrome_new_incognito_tab_opens_an_incognito_tab(pool):
    phone = Phone(pool, NEUTRAL)
    _shortcut(phone, "com.android.chrome", "chrome.new_incognito_tab")
    assert phone.find(text=phone.t("chrome.incognito_title"))


def test_contacts_add_contact_opens_the_new_contact_editor(pool):
    phone = Phone(pool, "contacts/activate_the_insert_page_in_contact")
    _shortcut(phone, "com.android.contacts", "contacts.shortcut_add_contact")
    assert phone.find(text=phone.t("contacts.create_title"))
    assert phone.info["success"] is True


@pytest.mark.parametrize(("package", "config"), [("com.google.android.deskclock", "test_env_100"),
                                                 ("com.android.dialer", "test_env_108"),
                                                 ("com.google.android.youtube", "test_env_109")])
def test_app_info_opens_settings_app_info_page_for_the_app(pool, package, config):
    phone = Phone(pool, "settings/open_the_setting_app", config)
    phone.hold(phone.icon(package))
    phone.tap(phone.app_info())
    assert (f"act=android.settings.APPLICATION_DETAILS_SETTINGS dat=package:{package} "
            f"flg=0x10008000 cmp=com.android.settings/.applications.InstalledAppDetails"
            in phone.log())
    assert phone.find(text=phone.t("settings.app_info"))
    assert phone.find(text=label_in(package, phone.locale))
    phone.act(action_type="navigate_back")
    assert phone.find(resource_id=L + "workspace") or phone.find(resource_id=L + "apps_view")
    assert phone.act(action_type="status", goal_status="complete")["success"] is False


@pytest.mark.parametrize("dismiss", ["back", "outside", "swipe", "home"])
def test_the_popup_closes_and_starts_nothing(pool, dismiss):
    phone = Phone(pool, "clock/open_the_clock_app")
    phone.hold(phone.icon("com.google.android.deskclock"))
    assert phone.popup() is not None
    before = phone.log()
    if dismiss == "back":
        phone.act(action_type="navigate_back")
    elif dismiss == "home":
        phone.act(action_type="navigate_home")
    elif dismiss == "swipe":
        phone.act(action_type="swipe", direction="left")
    else:
        phone.act(action_type="click", x=20, y=bounds(phone.popup())[3] + 300)
    assert phone.popup() is None
    assert phone.find(resource_id=L + "workspace"), "still on the home screen"
    assert phone.log() == before
    assert phone.act(action_type="status", goal_status="complete")["success"] is False


def test_a_tap_inside_the_popup_between_its_items_keeps_it_open(pool):
    phone = Phone(pool, NEUTRAL)
    phone.hold(phone.icon("com.google.android.deskclock"))
    header = phone.find(resource_id=L + "system_shortcut_icons")[0]
    left, top, _right, bottom = bounds(header)
    phone.act(action_type="click", x=left + 20, y=(top + bottom) // 2)
    assert phone.popup() is not None


def test_a_tap_on_the_icon_under_an_open_popup_opens_the_app(pool):
    phone = Phone(pool, "clock/open_the_clock_app")
    icon = phone.icon("com.google.android.deskclock")
    phone.hold(icon)
    assert phone.info["success"] is False
    phone.tap(icon)
    assert phone.popup() is None
    assert phone.info["success"] is True


def test_a_long_press_on_a_view_that_is_not_long_clickable_still_clicks(pool):
    phone = Phone(pool, "settings/open_the_setting_app")
    pill = phone.find(resource_id=L + "search_container_hotseat")[0]
    assert pill.get("long-clickable") == "false"
    handle = phone.find(content_desc=phone.t("launcher.apps_list"))[0]
    assert handle.get("long-clickable") == "false"
    phone.hold(handle)
    assert phone.find(resource_id=L + "apps_view"), "the long press opened the app drawer"


def test_overview_long_press_does_not_resume_and_the_icon_opens_the_task_menu(pool):
    phone = Phone(pool, NEUTRAL)
    phone.act(action_type="open_app", app_name="Clock")
    phone.act(action_type="navigate_recents")
    card = next(n for n in phone.find(long_clickable="true")
                if n.get("content-desc") == label_in("com.google.android.deskclock", "en-US"))
    phone.hold(card)
    assert phone.find(resource_id=L + "overview_panel"), "the long press resumed the task"
    icon = next(n for n in card.iter("node") if n.get("resource-id") == L + "icon")
    phone.hold(icon)
    assert phone.find(resource_id=L + "task_icon_and_name")
    menu_info = next(n for n in phone.find(resource_id=L + "bubble_text")
                     if n.get("text") == phone.t("launcher.app_info"))
    phone.tap(menu_info.getparent())
    assert "dat=package:com.google.android.deskclock flg=0x10008000" in phone.log()
    assert phone.find(text=phone.t("settings.app_info"))


def _first_config(locale: str) -> str:
    return next(i for i in configs.ids() if configs.get(i).locale == locale)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("package", ["com.google.android.deskclock", "com.android.chrome",
                                     "com.android.dialer"])
def test_the_popup_lays_out_cleanly_in_every_locale(pool, locale, package):
    """No label cut off, over another or past the screen: long labels that do not fit a
    row fall back to the short ones (German, French...), right-to-left rows mirror."""
    phone = Phone(pool, NEUTRAL, _first_config(locale))
    phone.hold(phone.icon(package))
    assert _inside(phone.popup(), phone.env.device.screen_size())
    assert [str(issue) for issue in check_device(phone.env.device)] == []
