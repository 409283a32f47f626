"""The Messages app and its SMS store (mmssms.db), driven as an agent would."""

from __future__ import annotations

import sqlite3

import pytest
from conftest import launch, logcat, nodes
from conftest import tap_on as tap

import bmoca.configs
import bmoca.device
from bmoca.eval.validate import validate
from bmoca.sim.system import telephony
from bmoca.tasks import load_file

M = "com.google.android.apps.messaging:id/"
LIST = "com.google.android.apps.messaging/.ui.ConversationListActivity"
BUGLE = "BUGLE CREATE CONVERSATION source=VIA_DEFAULT"


def messages_app(config: str = "test_env_100"):
    return launch(LIST, config)


def texts(device, name: str) -> list[str]:
    return [n.get("text") for n in nodes(device.dump_hierarchy(), resource_id=M + name)]


def sms_rows(device) -> list[tuple]:
    conn = sqlite3.connect(":memory:")
    conn.deserialize(device.pull(telephony.DB_PATH))
    return conn.execute("SELECT _id, thread_id, address, date, type, body, read, sub_id "
                        "FROM sms ORDER BY _id").fetchall()


def test_the_list_shows_preset_conversations_from_the_real_mmssms_db():
    device = messages_app()
    conn = sqlite3.connect(":memory:")
    conn.deserialize(device.pull(telephony.DB_PATH))
    columns = [r[1] for r in conn.execute("PRAGMA table_info(sms)")]
    assert columns == ["_id", "thread_id", "address", "person", "date", "date_sent", "protocol",
                       "read", "status", "type", "reply_path_present", "subject", "body",
                       "service_center", "locked", "sub_id", "error_code", "creator", "seen"]
    threads = conn.execute("SELECT COUNT(*) FROM threads WHERE message_count > 0").fetchone()[0]
    names = texts(device, "conversation_name")
    assert len(names) == threads >= 3
    assert "Carlos Mendoza" in names  # the address belongs to a contact
    assert "22000" in names  # a short code keeps its number
    fab = nodes(device.dump_hierarchy(), resource_id=M + "start_chat_fab")[0]
    assert fab.get("text") == "Start chat" and fab.get("content-desc") == "Start chat"
    tap(device, content_desc="Search")
    device.input_text("verification")
    assert texts(device, "conversation_name") == ["22000"]


def test_start_chat_with_a_contact_logs_bugle_create_and_sending_stores_an_sms():
    device = messages_app()
    device.shell("logcat -c")
    tap(device, resource_id=M + "start_chat_fab")
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=M + "recipient_text_view",
                 text="Type a name, phone number, or email")
    assert nodes(xml, resource_id=M + "contact_detail_type", text="Mobile")
    assert BUGLE not in logcat(device, "BugleUsageStatistics:I")
    device.input_text("fat")
    assert texts(device, "contact_name") == ["Fatima Haddad"]
    tap(device, resource_id=M + "contact_name")
    assert BUGLE in logcat(device, "BugleUsageStatistics:I")
    assert texts(device, "conversation_title") == ["Fatima Haddad"]
    before = sms_rows(device)
    tap(device, resource_id=M + "compose_message_text")
    assert nodes(device.dump_hierarchy(), resource_id=M + "compose_message_text",
                 text="Text message")
    device.input_text("Hello Fatima")
    tap(device, content_desc="Send SMS")
    after = sms_rows(device)
    assert len(after) == len(before) + 1
    _id, thread, address, date, type_, body, read, sub_id = after[-1]
    assert (address, type_, body, read, sub_id) == ("(650) 555-0134", 2, "Hello Fatima", 1, 1)
    clock, _ = device.shell("date +%s")
    assert abs(date // 1000 - int(clock.strip())) <= 2  # the device's virtual clock
    assert "Hello Fatima" in texts(device, "message_text")
    assert texts(device, "compose_message_text") == ["Text message"]  # cleared: the hint
    device.press("BACK")
    device.press("BACK")
    assert texts(device, "conversation_snippet")[0] == "You: Hello Fatima"


def test_a_typed_number_and_the_action_key_open_a_new_conversation():
    device = messages_app()
    tap(device, resource_id=M + "start_chat_fab")
    device.input_text("5551234")
    assert texts(device, "contact_details")[0] == "Send to 555-1234"
    device.press("ENTER")
    assert BUGLE in logcat(device, "BugleUsageStatistics:I")
    assert texts(device, "conversation_title") == ["555-1234"]


def test_opening_an_existing_conversation_does_not_log_create():
    device = messages_app()
    tap(device, resource_id=M + "swipeableContainer")
    assert texts(device, "message_text")
    assert BUGLE not in logcat(device, "BugleUsageStatistics:I")


# -- the tasks ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tasks():
    return {t.id: t for t in load_file("bmoca/tasks/data/messages.yaml")}


def test_task_file(tasks):
    assert sorted(tasks) == ["messages/activate_the_search_bar_in_message",
                             "messages/open_the_message_app", "messages/start_chatting_in_message"]
    assert [t.step_limit for t in tasks.values()] == [4, 5, 5]


def test_experts_succeed_and_doing_nothing_fails(tasks):
    assert validate(list(tasks.values()), ["test_env_100", "test_env_109"]) == []


def test_wrong_actions_do_not_satisfy_the_tasks(tasks):
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    opened, chat = tasks["messages/open_the_message_app"], tasks["messages/start_chatting_in_message"]
    start = opened.initialize(device)
    device.shell("am start -n com.android.contacts/.activities.PeopleActivity")
    assert not opened.is_successful(device, start).ok
    start = chat.initialize(device)
    device.shell(f"am start -n {LIST}")
    assert opened.is_successful(device, start).ok
    tap(device, resource_id=M + "swipeableContainer")  # an old conversation: no new chat
    tap(device, resource_id=M + "compose_message_text")
    device.input_text("hi")
    tap(device, content_desc="Send SMS")
    device.press("BACK")
    device.press("BACK")
    tap(device, resource_id=M + "start_chat_fab")  # the picker alone creates nothing
    assert not chat.is_successful(device, start).ok
    tap(device, resource_id=M + "contact_name")
    assert chat.is_successful(device, start).ok
