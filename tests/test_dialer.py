"""The Phone app (AOSP Dialer), driven as an agent would: taps on ids, shell, pulled files."""

from __future__ import annotations

import sqlite3

import pytest
from agent_steps import Episode
from conftest import bounds, launch, logcat, nodes, run_attempts
from nearmiss.phone import KEY_IDS, MAIN, D, dial, find, tap

import bmoca
import bmoca.configs
import bmoca.device
from bmoca import tasks
from bmoca.agents import ExpertAgent
from bmoca.formats.phone_numbers import format_as_you_type, is_emergency, is_phone_number

CALLLOG = "/data/data/com.android.providers.contacts/databases/calllog.db"


def phone(config: str = "test_env_100"):
    return launch(MAIN, config)


def text_of(device, name: str) -> str | None:
    node = find(device, name)
    return None if node is None else node.get("text")


def call_rows(device) -> list[tuple]:
    conn = sqlite3.connect(":memory:")
    conn.deserialize(device.pull(CALLLOG))
    rows = conn.execute("SELECT number, type, duration, date, countryiso, normalized_number "
                        "FROM calls ORDER BY _id").fetchall()
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    conn.close()
    return rows, version


# -- the formatter ---------------------------------------------------------------------------


@pytest.mark.parametrize("typed, shown", [
    # the reference table: every Phone task's number
    ("11489", "11489"), ("1234578", "1 234578"), ("2234458", "223-4458"),
    ("264451193", "(264) 451-193"), ("311311", "311311"), ("4027717", "402-7717"),
    ("7663394", "766-3394"), ("9876654", "987-6654"), ("2024561111", "(202) 456-1111"),
    ("8003334636", "(800) 333-4636"), ("3017130622", "(301) 713-0622"),
    ("8007721213", "(800) 772-1213"), ("911", "911"),
    # as you type
    ("2", "2"), ("202", "202"), ("2024", "202-4"), ("20245", "202-45"),
    ("20245611", "(202) 456-11"),
    # a trunk prefix, service codes, odd input
    ("12024561111", "1 202-456-1111"), ("1202", "1 202"), ("411", "411"), ("4115551", "4115551"),
    ("112", "112"), ("0123456", "0123456"), ("202456111122", "202456111122"),
    ("120245611112", "120245611112"), ("*#06#", "*#06#"), ("202*456", "202*456"),
    ("", ""), ("(202) 456-1111", "(202) 456-1111"),
])
def test_as_you_type_formatting(typed, shown):
    assert format_as_you_type(typed) == shown


def test_bare_phone_numbers_are_told_from_other_labels():
    assert all(is_phone_number(t) for t in ("(650) 555-0101", "+1 202-456-1111", "22000", "*#06#"))
    assert not any(is_phone_number(t) for t in ("", "Amelia Watson", "10:30", "G-482913", "- "))


def test_emergency_numbers():
    assert is_emergency("911") and is_emergency("112") and is_emergency("9-1-1")
    assert not is_emergency("9111") and not is_emergency("311") and not is_emergency("")


# -- the main screen ---------------------------------------------------------------------------


def test_main_screen_ids_tabs_and_the_on_create_line():
    device = phone()
    assert "MainActivity.onCreate - enter" in logcat(device, "Dialer:I")
    for name in ("toolbar", "search_view", "bottom_nav_bar", "speed_dial_tab", "call_log_tab",
                 "contacts_tab", "fab"):
        assert find(device, name) is not None, name
    assert find(device, "fab").get("content-desc") == "key pad"
    labels = [n.get("text") for n in nodes(device.dump_hierarchy(),
                                           resource_id=D + "bottom_nav_item_text")]
    assert labels == ["Favorites", "Recents", "Contacts"]
    assert find(device, "speed_dial_tab").get("selected") == "true"
    assert "Carlos Mendoza" in device.dump_hierarchy()  # the starred preset contact
    tap(device, "contacts_tab")
    names = [n.get("text") for n in nodes(device.dump_hierarchy(), resource_id=D + "contact_name")]
    assert names[:2] == ["Amelia Watson", "Carlos Mendoza"]
    # the tab is remembered, and coming back to the task does not create the activity again
    device.shell("logcat -c")
    device.press("HOME")
    device.shell(f"am start -a android.intent.action.MAIN -c android.intent.category.LAUNCHER "
                 f"-n {MAIN}")
    assert find(device, "contacts_tab").get("selected") == "true"
    assert "MainActivity.onCreate" not in logcat(device, "Dialer:I")


def test_dialpad_keys_formatting_delete_and_ltr_layout_in_arabic():
    device = phone("test_env_109")
    tap(device, "fab")
    two = find(device, "two")
    assert two.get("content-desc") == "2,ABC"
    assert [n.get("text") for n in nodes(device.dump_hierarchy(), resource_id=D + "dialpad_key_letters")
            ][:2] == ["ABC", "DEF"]
    xs = [bounds(find(device, k))[0] for k in ("one", "two", "three")]
    assert xs == sorted(xs)  # 1 2 3 left to right, also in Arabic
    dial(device, "202456111", press_call=False)
    assert text_of(device, "digits") == "(202) 456-111"
    tap(device, "deleteButton")
    tap(device, "deleteButton")
    assert text_of(device, "digits") == "202-4561"  # seven digits: a local number again
    tap(device, "deleteButton")
    assert text_of(device, "digits") == "202-456"
    assert find(device, "deleteButton").get("content-desc") == "مسافة للخلف"


# -- calls -------------------------------------------------------------------------------------


def test_dialling_shows_the_in_call_screen_and_hanging_up_writes_the_call_log():
    device = phone()
    dial(device, "2024561111")
    assert text_of(device, "contactgrid_contact_name") == "(202) 456-1111"
    assert text_of(device, "contactgrid_status_text") == "Calling…"
    assert find(device, "incall_end_call").get("content-desc") == "End call"
    log = logcat(device, "ActivityTaskManager:I")
    assert ("START u0 {flg=0x10040000 cmp=com.android.dialer/com.android.incallui.InCallActivity"
            " (has extras)} from uid 10092") in log
    mute = find(device, "incall_first_button")
    assert mute.get("content-desc") == "Mute" and mute.get("checked") == "false"
    tap(device, "incall_first_button")
    assert find(device, "incall_first_button").get("checked") == "true"
    labels = [find(device, f"incall_{n}_button").get("content-desc")
              for n in ("second", "third", "fourth", "fifth")]
    assert labels == ["Keypad", "Speaker", "Add call", "Hold"]
    for _ in range(3):  # the modem answers: the status clears and the timer shows
        device.press("VOLUME_UP")
    assert text_of(device, "contactgrid_status_text") in (None, "")
    assert text_of(device, "contactgrid_bottom_timer") == "00:00"
    before_ms = int(device.shell("date +%s")[0].strip()) * 1000
    tap(device, "incall_end_call")
    assert find(device, "incall_end_call") is None
    assert find(device, "bottom_nav_bar") is not None  # back on the dialer
    assert "SET_DISCONNECTED" in logcat(device, "Telecom:I")
    rows, version = call_rows(device)
    assert version == 8
    [(number, kind, duration, date, iso, normalized)] = rows
    assert (number, kind, duration, iso, normalized) == ("2024561111", 2, 0, "US", "+12024561111")
    assert abs(date - before_ms) < 60_000
    tap(device, "call_log_tab")
    assert text_of(device, "name") == "(202) 456-1111"


def test_an_empty_dialpad_fills_in_the_last_number_then_calls_it():
    device = phone()
    tap(device, "fab")
    tap(device, "dialpad_floating_action_button")
    assert text_of(device, "digits") == "" and find(device, "incall_end_call") is None
    dial(device, "4027717")
    tap(device, "incall_end_call")
    tap(device, "fab")
    tap(device, "dialpad_floating_action_button")
    assert text_of(device, "digits") == "402-7717"
    tap(device, "dialpad_floating_action_button")
    assert text_of(device, "contactgrid_contact_name") == "402-7717"


def test_a_contacts_number_shows_the_contacts_name():
    device = phone()
    dial(device, "6505550101")
    assert text_of(device, "contactgrid_contact_name") == "Amelia Watson"
    assert text_of(device, "contactgrid_bottom_text") == "Mobile (650) 555-0101"


def test_the_contacts_tab_and_the_number_actions_open_contacts_and_messages():
    device = phone()
    tap(device, "contacts_tab")
    tap(device, "click_target")  # Amelia Watson
    focus = device.shell("dumpsys window windows | grep mCurrentFocus")[0]
    assert "com.android.contacts/com.android.contacts.quickcontact.QuickContactActivity" in focus
    assert "Amelia Watson" in device.dump_hierarchy()

    device = phone()
    dial(device, "2024561111", press_call=False)
    device.shell("logcat -c")
    actions = nodes(device.dump_hierarchy(), resource_id=D + "search_action_text")
    assert [a.get("text") for a in actions] == [
        "Create new contact", "Add to a contact", "Send a message"]
    left, top, right, bottom = bounds(actions[0])
    device.tap((left + right) // 2, (top + bottom) // 2)
    assert "act=android.intent.action.INSERT dat=content://com.android.contacts/contacts" in (
        logcat(device, "ActivityTaskManager:I"))
    editor_phone = nodes(device.dump_hierarchy(), resource_id="com.android.contacts:id/phone")
    assert editor_phone[0].get("text") == "(202) 456-1111"  # the editor's formatting watcher

    device = phone()
    dial(device, "2024561111", press_call=False)
    left, top, right, bottom = bounds(
        nodes(device.dump_hierarchy(), resource_id=D + "search_action_text")[2])
    device.tap((left + right) // 2, (top + bottom) // 2)
    focus = device.shell("dumpsys window windows | grep mCurrentFocus")[0]
    assert "com.google.android.apps.messaging" in focus


def test_911_logs_the_emergency_line_with_a_session_id():
    device = phone()
    dial(device, "911")
    log = logcat(device, "Telecom:I")
    line = next(x for x in log.splitlines() if "Emergency number detected" in x)
    assert " I Telecom : CreateConnectionProcessor: Emergency number detected: NOCBIR.oR@" in line
    assert text_of(device, "contactgrid_contact_name") == "Emergency number"


def test_call_and_dial_intents_from_the_shell():
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    out, code = device.shell("am start -a android.intent.action.CALL -d tel:2234458")
    assert code == 0, out
    assert text_of(device, "contactgrid_contact_name") == "223-4458"
    log = logcat(device, "ActivityTaskManager:I")
    assert "act=android.intent.action.CALL dat=tel:xxxxxxx flg=0x10000000 " \
           "cmp=com.android.server.telecom/.components.UserCallActivity" in log
    device.press("HOME")  # the call goes on; Phone brings it back
    device.shell("am start -a android.intent.action.MAIN -c android.intent.category.LAUNCHER "
                 f"-n {MAIN}")
    assert find(device, "incall_end_call") is not None
    tap(device, "incall_end_call")
    # an app may not CALL an emergency number: the dialpad opens with it instead
    device.shell("am start -a android.intent.action.CALL -d tel:911")
    assert find(device, "incall_end_call") is None and text_of(device, "digits") == "911"
    device.shell("am start -a android.intent.action.DIAL -d tel:2024561111")
    assert text_of(device, "digits") == "(202) 456-1111"


# -- the tasks ---------------------------------------------------------------------------------

ALL_PHONE = [t.id for t in tasks.load_file("bmoca/tasks/data/phone.yaml")]
WRONG = {  # task -> (digits to dial instead, or a special wrong action)
    "phone/open_the_phone_app": "contacts",
    "phone/call_911": "912",
    "phone/press_the_call_button_in_dial": "delete",
    "phone/turn_off_the_call_in_process": "mute",
}


def test_the_phone_suite():
    assert len(ALL_PHONE) == 16
    v1 = [t.id for t in tasks.load_file("bmoca/tasks/data/phone.yaml") if t.version == 1]
    assert v1 == ["phone/press_the_call_button_in_dial", "phone/turn_off_the_call_in_process"]


@pytest.mark.parametrize("task_id", ALL_PHONE)
def test_the_expert_passes_each_task(pool, task_id):
    task = tasks.get(task_id)
    env = bmoca.make(task_id, "test_env_100", device=pool, observation="xml", action="json")
    observation, info = env.reset(seed=0)
    agent = ExpertAgent(task)
    agent.reset(env.goal, seed=0)
    while True:
        observation, reward, terminated, truncated, info = env.step(agent.act(observation))
        if terminated or truncated:
            break
    assert info["success"], info.get("detector")


def _wrong_digits(task) -> str:
    plan = [next(iter(stage.values())) for stage in task.expert]
    digits = {v: k for k, v in KEY_IDS.items()}
    typed = "".join(digits[s["id"].split("/")[-1]] for s in plan
                    if isinstance(s, dict) and s["id"].split("/")[-1] in digits)
    return typed[:-1] + ("3" if typed[-1] != "3" else "4")


@pytest.mark.parametrize("task_id", ALL_PHONE)
def test_each_task_is_not_done_at_reset_and_a_wrong_action_fails_it(task_id):
    task = tasks.get(task_id)
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    start = task.initialize(device)
    assert task.is_successful(device, start).ok is False
    wrong = WRONG.get(task_id)
    if wrong == "contacts":
        device.shell("am start -n com.android.contacts/.activities.PeopleActivity")
    elif wrong == "delete":
        device.shell(f"am start -a android.intent.action.MAIN "
                     f"-c android.intent.category.LAUNCHER -n {MAIN}")
        tap(device, "deleteButton")
    elif wrong == "mute":
        device.shell(f"am start -a android.intent.action.MAIN "
                     f"-c android.intent.category.LAUNCHER -n {MAIN}")
        tap(device, "incall_first_button")
    else:
        device.shell(f"am start -n {MAIN}")
        dial(device, wrong or _wrong_digits(task))
        assert find(device, "incall_end_call") is not None
    assert task.is_successful(device, start).ok is False


# -- a task that names a number keys on that number --------------------------------------------

def _open_phone(device) -> None:
    device.shell(f"am start -a android.intent.action.MAIN -c android.intent.category.LAUNCHER "
                 f"-n {MAIN}")


def _keys(number: str, call: bool = True):
    def attempt(device):
        _open_phone(device)
        dial(device, number, press_call=call)
    attempt.__name__ = f"keys_{number}"
    return attempt


def _typed(number: str, finish: str):
    """Type the number into the open dialpad; finish with the green button or ENTER."""
    def attempt(device):
        _open_phone(device)
        tap(device, "fab")
        device.shell(f"input text {number}")
        if finish == "enter":
            device.shell("input keyevent KEYCODE_ENTER")
        else:
            tap(device, "dialpad_floating_action_button")
    attempt.__name__ = f"typed_{number}_{finish}"
    return attempt


def _favourite(device) -> None:
    """Close the dialpad and call the starred contact from Favorites."""
    _open_phone(device)
    if find(device, "digits") is not None:
        device.press("BACK")
    tap(device, "favorite_item_layout")
    assert find(device, "incall_end_call") is not None


@pytest.mark.parametrize("config", ["test_env_100", "test_env_109"])
def test_call_911_needs_911_not_another_emergency_number_or_a_contact(config):
    run_attempts("phone/call_911", [_keys("112"), _typed("112", "enter"), _favourite],
                 expect=False, config=config)
    run_attempts("phone/call_911", [_keys("911"), _typed("911", "enter"),
                                    _typed("911", "button")], expect=True, config=config)


@pytest.mark.parametrize("config", ["test_env_100", "test_env_109"])
def test_the_call_button_task_passes_any_placed_call(config):
    """The reference's criterion: Telecom's `EventRecord added as Call` line, which every
    placed call logs; an emptied dialpad's button only fills in the last number."""
    def extra_digit(device):
        _open_phone(device)
        tap(device, "three")
        tap(device, "dialpad_floating_action_button")

    def button(device):
        _open_phone(device)
        tap(device, "dialpad_floating_action_button")

    def enter_key(device):
        _open_phone(device)
        device.shell("input keyevent KEYCODE_ENTER")

    def emptied(device):
        _open_phone(device)
        device.shell("input keyevent " + " ".join(["KEYCODE_DEL"] * 14))
        tap(device, "dialpad_floating_action_button")

    task = "phone/press_the_call_button_in_dial"
    run_attempts(task, [emptied], expect=False, config=config)
    run_attempts(task, [button, enter_key, extra_digit, _favourite], expect=True, config=config)


PRESS = "phone/press_the_call_button_in_dial"
END = "phone/turn_off_the_call_in_process"


def test_pressing_the_call_button_passes_through_env_steps():
    """Played as an agent: Phone opens on the dialpad the set-up left a number on; the call
    button places the call and Telecom logs its event record, as real Telecom does."""
    ep = Episode(PRESS)
    ep.open_app("Phone")
    assert ep.find(resource_id=D + "digits").get("text") == "(415) 555-0132"
    assert not ep.success
    ep.click(resource_id=D + "dialpad_floating_action_button")
    assert ep.success and ep.has(resource_id=D + "incall_end_call")
    line = [x for x in logcat(ep.env.device, "Telecom:I").splitlines() if "LogUtils" in x]
    assert len(line) == 1 and line[0].split(" I Telecom : ")[1].startswith(
        "LogUtils: EventRecord added as Call: [TC@1, NEW, null, tel:(***) ***-****, A, "
        "childs(0), has_parent(false), [Capabilities:], [Properties:]]: TSI.pC@")

    ep = Episode(PRESS)  # an edited number is a placed call too
    ep.open_app("Phone")
    ep.click(resource_id=D + "nine")
    ep.click(resource_id=D + "dialpad_floating_action_button")
    assert ep.success

    ep = Episode(PRESS)  # the number deleted: the button only fills in the last number
    ep.open_app("Phone")
    for _ in range(10):
        ep.click(resource_id=D + "deleteButton")
    assert ep.find(resource_id=D + "digits").get("text") == ""
    ep.click(resource_id=D + "dialpad_floating_action_button")
    assert not ep.success and not ep.has(resource_id=D + "incall_end_call")


def test_ending_the_call_passes_and_another_call_only_holds_it():
    """Telecom logs `InCallController: onCallRemoved` when a call goes; Mute, HOME or a
    second call (which holds the first) leave it; ending a call removes it."""
    ep = Episode(END)
    ep.open_app("Phone")
    assert ep.has(resource_id=D + "contactgrid_contact_name", text="(415) 555-0132")
    ep.click(resource_id=D + "incall_first_button")  # Mute
    ep.step({"action_type": "navigate_home"})
    assert not ep.success
    ep.open_app("Phone")
    ep.click(resource_id=D + "incall_end_call")
    assert ep.success and not ep.has(resource_id=D + "incall_end_call")
    removed = [x for x in logcat(ep.env.device, "Telecom:I").splitlines() if "onCallRemoved" in x]
    assert len(removed) == 1 and removed[0].split(" I Telecom : ")[1].startswith(
        "InCallController: onCallRemoved: [TC@1, DISCONNECTED, com.android.phone/com.android."
        "services.telephony.TelephonyConnectionService, tel:**********, A, childs(0), "
        "has_parent(false), [Capabilities: CAPABILITY_SUPPORT_HOLD CAPABILITY_MUTE], "
        "[Properties:]]: CSW.rC@")

    ep = Episode(END)
    ep.open_app("Phone")
    ep.click(resource_id=D + "incall_fourth_button")  # Add call: the dialpad opens
    for key in ("one", "two", "three"):
        ep.click(resource_id=D + key)
    ep.click(resource_id=D + "dialpad_floating_action_button")
    assert ep.has(resource_id=D + "contactgrid_contact_name", text="123")
    assert "TC@1: SET_HOLD, on-hold set explicitly" in logcat(ep.env.device, "Telecom:I")
    assert not ep.success
    ep.click(resource_id=D + "incall_end_call")  # the second call goes: a call removed
    assert ep.success
    assert ep.has(resource_id=D + "contactgrid_contact_name", text="(415) 555-0132")
    assert ep.has(resource_id=D + "contactgrid_status_text", text="On hold")


def test_typing_reaches_the_open_dialpad_only():
    device = phone("test_env_109")
    device.shell("input text 911")                          # the dialpad is closed: nowhere
    tap(device, "fab")
    assert text_of(device, "digits") == ""
    device.shell("input text '2a0*2#'")                     # letters name no dialpad key
    assert text_of(device, "digits") == "20*2#"
    device.shell("input keyevent KEYCODE_DEL KEYCODE_DEL KEYCODE_POUND KEYCODE_NUMPAD_1")
    assert text_of(device, "digits") == "20*#1"
