"""The contacts store (contacts2.db) and the Contacts app, driven as an agent would."""

from __future__ import annotations

import sqlite3

import pytest
from conftest import bounds, launch, logcat, nodes
from conftest import tap_on as tap

import bmoca.configs
import bmoca.device
from bmoca.eval.validate import validate
from bmoca.sim.system import contacts
from bmoca.sim.system.vfs import VirtualFS
from bmoca.tasks import load_file

TASK_NUMBERS = ("11489", "1234578", "2234458", "264451193", "311311", "4027717", "7663394",
                "9876654", "2024561111", "8003334636", "3017130622", "8007721213", "911")


def open_db(data: bytes) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.deserialize(data)
    return conn


# -- the store ------------------------------------------------------------------------------


def test_presets_are_written_as_a_real_contacts2_db():
    vfs = VirtualFS()
    contacts.ensure(vfs)
    data = vfs.read(contacts.DB_PATH)
    assert data.startswith(b"SQLite format 3\x00")
    conn = open_db(data)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"accounts", "mimetypes", "raw_contacts", "contacts", "data", "phone_lookup"} <= tables
    assert conn.execute("PRAGMA user_version").fetchone()[0] == contacts.DATABASE_VERSION
    data_cols = [r[1] for r in conn.execute("PRAGMA table_info(data)")]
    assert [f"data{i}" for i in range(1, 16)] == [c for c in data_cols if c[4:].isdigit()]
    names = [r[0] for r in conn.execute(
        "SELECT d.data1 FROM data d JOIN mimetypes m ON m._id = d.mimetype_id "
        "WHERE m.mimetype = 'vnd.android.cursor.item/name' ORDER BY d.data1")]
    listed = contacts.all_contacts(vfs)
    assert 4 <= len(listed) <= 6
    assert names == [c.display_name for c in listed]
    assert sum(c.starred for c in listed) == 1
    assert all(c.phones for c in listed)


def test_no_preset_has_a_number_a_task_dials():
    vfs = VirtualFS()
    for number in TASK_NUMBERS:
        assert contacts.find_by_number(vfs, number) is None, number


def test_insert_update_and_lookup_round_trip_through_the_file():
    vfs = VirtualFS()
    made = contacts.insert(vfs, "Grace", "Hopper", [contacts.Phone("(212) 555-0199")],
                           ["grace@navy.mil"])
    # a fresh VFS holding only the file's bytes reads the same contact back
    copy = VirtualFS()
    copy.write(contacts.DB_PATH, vfs.read(contacts.DB_PATH))
    again = contacts.get(copy, made.id)
    assert again == made
    assert again.display_name == "Grace Hopper"
    assert again.lookup and made.lookup_uri.endswith(f"/{made.id}")
    assert contacts.find_by_number(copy, "2125550199") == made
    assert contacts.find_by_number(copy, "555-0199") == made
    assert contacts.find_by_number(copy, "2125550198") is None

    conn = open_db(copy.read(contacts.DB_PATH))
    row = conn.execute("SELECT normalized_number, min_match FROM phone_lookup p JOIN contacts c "
                       "ON c.name_raw_contact_id = p.raw_contact_id WHERE c._id = ?",
                       (made.id,)).fetchone()
    assert row == ("+12125550199", "9910555")
    assert conn.execute("SELECT has_phone_number FROM contacts WHERE _id = ?",
                        (made.id,)).fetchone() == (1,)

    changed = contacts.update(copy, contacts.Contact(
        made.id, made.lookup, "Grace", "Brewster Hopper", (contacts.Phone("911", 3),), (),
        starred=True))
    assert changed.family == "Brewster Hopper" and changed.starred
    assert changed.phones == (contacts.Phone("911", 3),) and changed.emails == ()
    assert contacts.find_by_number(copy, "2125550199") is None
    assert contacts.find_by_number(copy, "911").id == made.id
    names = [c.display_name for c in contacts.all_contacts(copy)]
    assert names == sorted(names, key=str.casefold) and "Grace Brewster Hopper" in names


def test_update_of_a_missing_contact_raises():
    vfs = VirtualFS()
    with pytest.raises(KeyError):
        contacts.update(vfs, contacts.Contact(999, "x", "No", "One"))


def test_names_and_numbers():
    assert contacts.display_name("Yuki", "Tanaka") == "Yuki Tanaka"
    assert contacts.display_name("太郎", "山田") == "山田太郎"
    assert contacts.display_name("Cher", "") == "Cher"
    assert contacts.format_number("6505550101") == "(650) 555-0101"
    assert contacts.format_number("5550101") == "555-0101"
    assert contacts.format_number("+44 20 7946 0958") == "+44 20 7946 0958"


# -- the Contacts app, driven as an agent would ------------------------------------------------

C = "com.android.contacts:id/"
PEOPLE = "com.android.contacts/.activities.PeopleActivity"


def contacts_app(config: str = "test_env_100"):
    return launch(PEOPLE, config)


def texts(device, resource_id: str) -> list[str]:
    return [n.get("text") for n in nodes(device.dump_hierarchy(), resource_id=resource_id)]


def pulled(device) -> VirtualFS:
    vfs = VirtualFS()
    vfs.write(contacts.DB_PATH, device.pull(contacts.DB_PATH))
    return vfs


def test_the_list_shows_the_presets_favourites_first_and_filters_by_search():
    device = contacts_app()
    names = texts(device, C + "cliv_name_textview")
    presets = contacts.all_contacts(pulled(device))
    starred = [c.display_name for c in presets if c.starred]
    assert names == starred + [c.display_name for c in presets if not c.starred]
    fab = nodes(device.dump_hierarchy(), resource_id=C + "floating_action_button")[0]
    assert fab.get("content-desc") == "Create new contact"
    tap(device, content_desc="Search contacts")
    device.input_text("pri")
    assert texts(device, C + "cliv_name_textview") == ["Priya Sharma"]
    device.press("BACK")  # hides the keyboard
    device.press("BACK")  # closes the search
    assert len(texts(device, C + "cliv_name_textview")) == len(presets)


def test_launch_logs_start_proc_only_for_a_new_process():
    device = contacts_app()
    log = logcat(device, "ActivityManager:I")
    assert ("Start proc" in log and "com.android.contacts/u0a79 for activity "
            "{com.android.contacts/com.android.contacts.activities.PeopleActivity}" in log)
    device.shell("logcat -c")
    device.press("HOME")
    device.shell(f"am start -n {PEOPLE}")
    assert "Start proc" not in logcat(device, "ActivityManager:I")


def test_creating_a_contact_through_the_editor_writes_contacts2_db():
    device = contacts_app()
    device.shell("logcat -c")
    tap(device, resource_id=C + "floating_action_button")
    log = logcat(device, "ActivityTaskManager:I")
    assert ("START u0 {act=android.intent.action.INSERT dat=content://com.android.contacts/"
            "contacts pkg=com.android.contacts cmp=com.android.contacts/.activities."
            "ContactEditorActivity} from uid 10079") in log
    xml = device.dump_hierarchy()
    assert nodes(xml, text="Create new contact")
    device.input_text("ada")  # the first name has the focus (and the soft keyboard)
    tap(device, resource_id=C + "last_name")
    device.input_text("Lovelace")
    tap(device, resource_id=C + "phone")
    device.input_text("4155550123")
    phone_field = nodes(device.dump_hierarchy(), resource_id=C + "phone")[0]
    assert phone_field.get("text") == "(415) 555-0123"  # formatted while typing
    tap(device, resource_id=C + "editor_menu_save_button")
    made = contacts.find_by_number(pulled(device), "4155550123")
    assert made is not None and made.display_name == "ada Lovelace"
    assert made.phones == (contacts.Phone("(415) 555-0123"),)
    # saving shows the new contact's card
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=C + "large_title", text="ada Lovelace")
    assert nodes(xml, resource_id=C + "header", text="(415) 555-0123")


def test_editing_a_contact_logs_both_edit_lines_and_saves_the_change():
    device = contacts_app()
    before = contacts.all_contacts(pulled(device))
    first = before[0] if not any(c.starred for c in before) else [c for c in before if c.starred][0]
    tap(device, resource_id=C + "cliv_name_textview")
    assert texts(device, C + "large_title") == [first.display_name]
    device.shell("logcat -c")
    tap(device, resource_id=C + "menu_edit")
    lines = [x for x in logcat(device, "ActivityTaskManager:I").splitlines() if "START" in x]
    uri = f"content://com.android.contacts/contacts/lookup/{first.lookup}/{first.id}"
    assert lines[0].endswith(
        f"START u0 {{act=android.intent.action.EDIT dat={uri} cmp=com.android.contacts/"
        ".activities.ContactEditorSpringBoardActivity (has extras)} from uid 10079")
    assert lines[1].endswith(
        f"START u0 {{act=android.intent.action.EDIT dat={uri} flg=0x2000000 "
        "pkg=com.android.contacts cmp=com.android.contacts/.activities.ContactEditorActivity "
        "(has extras)} from uid 10079")
    assert nodes(device.dump_hierarchy(), text="Edit contact")
    assert texts(device, C + "first_name") == [first.given]
    tap(device, resource_id=C + "last_name")
    device.input_text("-Ruiz")
    tap(device, resource_id=C + "editor_menu_save_button")
    again = contacts.get(pulled(device), first.id)
    assert again.family == first.family + "-Ruiz" and again.phones == first.phones
    assert texts(device, C + "large_title") == [again.display_name]  # back on the card
    tap(device, resource_id=C + "menu_star")
    assert contacts.get(pulled(device), first.id).starred is (not first.starred)


def test_dialers_add_to_a_contact_picks_a_contact_and_adds_the_number():
    device = launch("com.android.dialer/.main.impl.MainActivity")
    tap(device, resource_id="com.android.dialer:id/fab")
    for digit in "2024561111":
        tap(device, resource_id="com.android.dialer:id/dialpad_key_number", text=digit)
    tap(device, 1, resource_id="com.android.dialer:id/search_action_text")  # Add to a contact
    assert "android.intent.action.INSERT_OR_EDIT" in logcat(device, "ActivityTaskManager:I")
    xml = device.dump_hierarchy()
    assert nodes(xml, text="Choose a contact") and nodes(xml, resource_id=C + "create_new_contact")
    device.shell("logcat -c")
    tap(device, resource_id=C + "cliv_name_textview", text="Amelia Watson")
    assert "act=android.intent.action.EDIT" in logcat(device, "ActivityTaskManager:I")
    xml = device.dump_hierarchy()
    assert nodes(xml, resource_id=C + "phone")[0].get("text") == "(650) 555-0101"
    assert nodes(xml, resource_id=C + "new_phone")[0].get("text") == "(202) 456-1111"
    tap(device, resource_id=C + "editor_menu_save_button")
    amelia = contacts.find_by_number(pulled(device), "6505550101")
    assert [p.number for p in amelia.phones] == ["(650) 555-0101", "(202) 456-1111"]
    assert contacts.find_by_number(pulled(device), "2024561111").id == amelia.id


def test_cancel_and_an_empty_insert_save_nothing():
    device = contacts_app()
    count = len(contacts.all_contacts(pulled(device)))
    tap(device, resource_id=C + "floating_action_button")
    tap(device, resource_id=C + "editor_menu_save_button")
    tap(device, resource_id=C + "floating_action_button")
    device.input_text("Nobody")
    tap(device, content_desc="Cancel")
    assert len(contacts.all_contacts(pulled(device))) == count
    assert nodes(device.dump_hierarchy(), resource_id=C + "floating_action_button")


def test_arabic_and_dark_render():
    device = contacts_app("test_env_109")
    xml = device.dump_hierarchy()
    fab = nodes(xml, resource_id=C + "floating_action_button")[0]
    width = device.screen_size()[0]
    assert bounds(fab)[2] < width // 2  # the FAB sits at the end: the left in RTL
    assert fab.get("content-desc") == "إنشاء جهة اتصال جديدة"


# -- the tasks ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tasks():
    return {t.id: t for t in load_file("bmoca/tasks/data/contacts.yaml")}


def test_task_file(tasks):
    assert sorted(tasks) == ["contacts/activate_the_edit_page_in_contact",
                             "contacts/activate_the_insert_page_in_contact",
                             "contacts/open_the_contact_app"]
    assert [t.step_limit for t in tasks.values()] == [5, 5, 4]


def test_experts_succeed_and_doing_nothing_fails(tasks):
    assert validate(list(tasks.values()), ["test_env_100", "test_env_105"]) == []


def check(task, device, start) -> bool:
    return task.is_successful(device, start).ok


def test_wrong_actions_do_not_satisfy_the_tasks(tasks):
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    insert, edit = (tasks["contacts/activate_the_insert_page_in_contact"],
                    tasks["contacts/activate_the_edit_page_in_contact"])
    opened = tasks["contacts/open_the_contact_app"]
    start = opened.initialize(device)
    assert not check(opened, device, start)
    device.shell("am start -n com.android.settings/.Settings")  # another app
    assert not check(opened, device, start)
    start = edit.initialize(device)
    device.shell(f"am start -n {PEOPLE}")
    assert check(opened, device, start)
    tap(device, resource_id=C + "floating_action_button")  # the insert page, not edit
    assert check(insert, device, start) and not check(edit, device, start)
    start = insert.initialize(device)
    device.shell(f"am start -n {PEOPLE}")
    tap(device, resource_id=C + "cliv_name_textview")  # a card, not the editor
    tap(device, resource_id=C + "menu_edit")
    assert check(edit, device, start) and not check(insert, device, start)
