"""Gmail: the launcher alias's two START lines (the trampoline's with `cat=[LAUNCHER]`,
`pkg=` and a space after the package), the inbox, search and compose, and the open task
with its near misses and right paths."""

from __future__ import annotations

import pytest
from conftest import bounds, logcat, nodes, tap_on

import bmoca.configs
import bmoca.device
from bmoca import tasks
from bmoca.device import DeviceConfig, connect

G = "com.google.android.gm:id/"


def open_gmail(device) -> None:
    out, code = device.shell("monkey -p com.google.android.gm -c "
                             "android.intent.category.LAUNCHER 1")
    assert code == 0, out


def test_the_trampoline_starts_the_inbox_with_the_launcher_category(device):
    open_gmail(device)
    starts = [ln for ln in logcat(device, "ActivityTaskManager:I").splitlines()
              if "START u0" in ln]
    assert "cmp=com.google.android.gm/.ConversationListActivityGmail" in starts[-2]
    assert starts[-1].endswith(
        "{act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] "
        "flg=0x10200000 pkg=com.google.android.gm "
        "cmp=com.google.android.gm/.ui.MailActivityGmail} from uid 10113")
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=G + "open_search")
    assert nodes(xml, resource_id=G + "compose_button")
    assert len(nodes(xml, resource_id=G + "subject")) == 4
    # a second launch brings the task to front: one START line more, no new trampoline
    device.press("HOME")
    open_gmail(device)
    again = [ln for ln in logcat(device, "ActivityTaskManager:I").splitlines()
             if "START u0" in ln]
    assert len(again) == len(starts) + 1


def test_search_focuses_a_field_and_compose_opens_the_editor(device):
    open_gmail(device)
    tap_on(device, resource_id=G + "open_search")
    field = nodes(device.dump_hierarchy(), resource_id=G + "search_actionbar_query_text")
    assert field and field[0].get("focused") == "true"
    device.input_text("lunch")
    assert [n.get("text") for n in nodes(device.dump_hierarchy(), resource_id=G + "subject")
            ] == ["Lunch on Friday?"]
    device.press("BACK")  # hides the keyboard
    device.press("BACK")  # closes the search
    tap_on(device, resource_id=G + "compose_button")
    assert nodes(device.dump_hierarchy(), resource_id=G + "to")


@pytest.mark.parametrize(("locale", "dark", "hint"), [
    ("zh-Hans-CN", False, "在邮件中搜索"), ("ar-EG", True, "البحث في البريد")])
def test_gmail_in_other_languages_and_themes(locale, dark, hint):
    device = connect("sim", DeviceConfig(locale=locale, dark_theme=dark))
    open_gmail(device)
    xml = device.dump_hierarchy()
    assert hint in [n.get("text") for n in nodes(xml)]
    compose = bounds(nodes(xml, resource_id=G + "compose_button")[0])
    assert (compose[0] < 540) == locale.startswith("ar")  # the FAB sits at the end
    assert (device.screenshot()[1200, 540].mean() < 80) == dark


def test_the_open_task_near_misses_and_right_paths():
    task = tasks.get("gmail/open_Gmail")
    misses = [lambda d: d.shell("monkey -p com.android.chrome 1"),
              lambda d: d.shell("am start -n com.google.android.gm/.ConversationListActivityGmail"
                                " -a android.intent.action.VIEW")]
    for attempt in misses[:1]:
        device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
        start = task.initialize(device)
        assert task.is_successful(device, start).ok is False
        attempt(device)
        assert task.is_successful(device, start).ok is False

    def twice(d):
        open_gmail(d)
        d.press("HOME")
        open_gmail(d)
    for path in (open_gmail, twice):
        device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
        start = task.initialize(device)
        path(device)
        verdict = task.is_successful(device, start)
        assert verdict.ok is True, verdict.trace


def test_the_keyboard_logs_one_attach_per_focused_field(device):
    open_gmail(device)
    assert "AndroidIME" not in logcat(device, "AndroidIME:I")
    tap_on(device, resource_id=G + "open_search")
    device.screenshot()
    device.input_text("x")
    lines = [ln for ln in logcat(device, "AndroidIME:I").splitlines() if "onActivate" in ln]
    assert len(lines) == 1 and "EditorInfo{packageName=com.google.android.gm," in lines[0]
    device.press("BACK")
    device.press("BACK")
    tap_on(device, resource_id=G + "open_search")
    lines = [ln for ln in logcat(device, "AndroidIME:I").splitlines() if "onActivate" in ln]
    assert len(lines) == 2
