"""`content` (bmoca/sim/shell/commands/content.py): set-ups write messages, calls and
contacts through the providers as on a phone, and the apps show what was written."""

from __future__ import annotations

import re

import bmoca


def _episode(task_id: str):
    """An XML env reset on the stock phone, and its device."""
    env = bmoca.make(task_id, config="test_env_100", observation=("xml",), action="json")
    env.reset(seed=0)
    return env, env.unwrapped.device


def _app_xml(env, package: str) -> str:
    env.step({"action_type": "open_app", "app_name": package})
    return env.unwrapped.device.dump_hierarchy()


def test_an_inserted_sms_is_a_new_unread_conversation_in_messages():
    env, device = _episode("messages/open_the_message_app")
    device.shell("content insert --uri content://sms/inbox --bind address:s:4155550199 "
                 "--bind 'body:s:Pick up the cake at 5'")
    out, _ = device.shell("content query --uri content://sms/inbox --projection "
                          "address:body:read:type --where \"address='4155550199'\"")
    assert out == "Row: 0 address=4155550199, body=Pick up the cake at 5, read=0, type=1\n"
    xml = _app_xml(env, "Messages")
    assert "Pick up the cake at 5" in xml
    device.shell("content delete --uri content://sms --where \"address='4155550199'\"")
    assert device.shell("content query --uri content://sms --where \"address='4155550199'\"")[0] \
        == "No result found.\n"
    env.close()


def test_a_contact_written_as_raw_contact_and_data_rows_is_in_contacts_and_the_dialer():
    env, device = _episode("contacts/open_the_contact_app")
    device.shell("content insert --uri content://com.android.contacts/raw_contacts "
                 "--bind account_type:s: --bind account_name:s:")
    device.shell("content insert --uri content://com.android.contacts/data --bind "
                 "raw_contact_id:i:7 --bind mimetype:s:vnd.android.cursor.item/name "
                 "--bind 'data1:s:Nora Lindqvist'")
    device.shell("content insert --uri content://com.android.contacts/data --bind "
                 "raw_contact_id:i:7 --bind mimetype:s:vnd.android.cursor.item/phone_v2 "
                 "--bind 'data1:s:(415) 555-0199' --bind data2:i:2")
    out, _ = device.shell("content query --uri content://com.android.contacts/raw_contacts "
                          "--projection _id:display_name --where _id=7")
    assert out == "Row: 0 _id=7, display_name=Nora Lindqvist\n"
    assert "Nora Lindqvist" in _app_xml(env, "Contacts")
    env.close()


def test_a_missed_call_row_is_new_and_listed_in_the_phones_recents():
    env, device = _episode("phone/call_11489")
    device.shell("content insert --uri content://call_log/calls --bind number:s:2015550123 "
                 "--bind type:i:3 --bind duration:i:0")
    out, _ = device.shell("content query --uri content://call_log/calls "
                          "--projection number:type:new:is_read:normalized_number")
    assert out == "Row: 0 number=2015550123, type=3, new=1, is_read=0, normalized_number=+12015550123\n"
    xml = _app_xml(env, "Phone")  # the Dialer opens on Favorites
    left, top, right, bottom = map(int, re.search(
        r'resource-id="com.android.dialer:id/call_log_tab"[^>]*bounds="\[(\d+),(\d+)\]'
        r'\[(\d+),(\d+)\]"', xml).groups())
    env.step({"action_type": "click", "x": (left + right) // 2, "y": (top + bottom) // 2})
    assert "(201) 555-0123" in env.unwrapped.device.dump_hierarchy()
    env.close()


def test_bad_invocations_print_the_tools_own_errors(device):
    out, code = device.shell("content insert --uri content://sms/inbox --bind body:x:hi")
    assert code == 0 and out.startswith("usage: adb shell content [subcommand]")
    assert out.endswith("[ERROR] Unsupported type: x\n")
    assert device.shell("content insert --uri content://sms/inbox")[0].endswith(
        "[ERROR] Bindings not specified. Did you specify --bind argument(s)?\n")
    assert device.shell("content query --uri content://sms --bind a:s:b")[0].endswith(
        "[ERROR] Unsupported argument: --bind\n")
    assert device.shell("content insert --uri content://sms --bind date:i:soon")[0].endswith(
        '[ERROR] For input string: "soon"\n')
    assert device.shell("content query --uri content://nowhere")[0] == (
        "Error while accessing provider:nowhere\n"
        "java.lang.IllegalStateException: Could not find provider: nowhere\n")
    assert device.shell("content query --uri content://sms/spam")[0] == (
        "Error while accessing provider:sms\n"
        "java.lang.IllegalArgumentException: Unknown URL content://sms/spam\n")
    assert "no such column: colour" in device.shell(
        "content query --uri content://sms --projection colour")[0]


def test_a_query_changes_nothing_and_an_insert_is_seen_by_the_state_guard(device):
    before = device.state_fingerprint()
    device.shell("content query --uri content://sms")
    assert device.state_fingerprint() == before
    device.shell("content insert --uri content://sms/inbox --bind address:s:311 "
                 "--bind body:s:hello")
    assert device.state_fingerprint() != before
