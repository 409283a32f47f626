"""Rows for the tasks that open an app or one of its screens (Calendar, Camera, Contacts,
Gmail, the Google app, Maps, Messages, Photos, YouTube). Near misses open the neighbouring
app or screen, or give up half-way; right paths use the app drawer, the shell, a second
launch, or another route to the same screen."""

from __future__ import annotations

from conftest import nodes

from bmoca.formats.apps import all_apps, labels_of
from nearmiss.common import fails, launch, passes, seq, shell, start, tap_id, tap_node

M = "com.google.android.apps.maps:id/"
Y = "com.google.android.youtube:id/"
P = "com.google.android.apps.photos:id/"
K = "com.android.contacts:id/"
B = "com.google.android.apps.messaging:id/"
L = "com.google.android.apps.nexuslauncher:id/"
G = "com.google.android.googlequicksearchbox:id/"


def opener(package: str):
    def play(device) -> None:
        launch(device, package)
    return play


def from_drawer(package: str):
    """Tap the app's icon in the launcher's app drawer, found by its label in any language."""
    def play(device) -> None:
        from nearmiss.common import app_drawer

        app_drawer(device)
        labels = labels_of(package)
        icon = [n for n in nodes(device.dump_hierarchy()) if n.get("text") in labels]
        assert icon, f"no {package} icon in the drawer"
        tap_node(device, icon[-1])
    return play


def by_shell(package: str):
    """`am start -n` on the launcher activity, as a shell user would."""
    app = next(a for a in all_apps() if a.package == package)

    def play(device) -> None:
        start(device, f"'{package}/{app.activity}'")
    return play


def twice(*steps):
    """Do it, back out of the app, do it (the last step) again."""
    def play(device) -> None:
        for step in steps:
            step(device)
            for _ in range(4):
                device.press("BACK")
        steps[-1](device)
    return play


def drawer_only(device) -> None:
    """The app drawer opened, then given up."""
    from nearmiss.common import app_drawer

    app_drawer(device)


def open_app_rows(task_id: str, package: str, neighbour: str) -> list:
    return [fails(task_id, "neighbouring_app", opener(neighbour)),
            fails(task_id, "drawer_then_give_up", drawer_only),
            passes(task_id, "from_the_app_drawer", from_drawer(package)),
            passes(task_id, "am_start_from_the_shell", by_shell(package)),
            passes(task_id, "twice", twice(opener(package)))]


def open_maps(d) -> None:
    launch(d, "com.google.android.apps.maps")


def open_youtube(d) -> None:
    launch(d, "com.google.android.youtube")


def maps_search(d) -> None:
    open_maps(d)
    tap_id(d, M + "search_omnibox_container")


def youtube_search(d) -> None:
    open_youtube(d)
    tap_id(d, Y + "menu_item_1")


def youtube_settings(d) -> None:
    open_youtube(d)
    tap_id(d, Y + "mobile_topbar_avatar")
    tap_id(d, Y + "account_item_settings")


def youtube_pair(d) -> None:
    youtube_settings(d)
    tap_id(d, "android:id/title", 1)


def open_photos(d) -> None:
    launch(d, "com.google.android.apps.photos")


def photos_library(d) -> None:
    open_photos(d)
    tap_id(d, P + "tab_library")


def photos_trash(d) -> None:
    photos_library(d)
    tap_id(d, P + "trash")


def open_messages(d) -> None:
    launch(d, "com.google.android.apps.messaging")


def messages_search(d) -> None:
    open_messages(d)
    tap_id(d, B + "action_zero_state_search")


def open_contacts(d) -> None:
    launch(d, "com.android.contacts")


def contact_card(index: int):
    def play(d) -> None:
        open_contacts(d)
        tap_id(d, K + "cliv_name_textview", index)
    return play


def tap_pill(d) -> None:
    tap_id(d, L + "search_container_hotseat")


CAL = "calendar/open_the_calendar_app"
CAM = "camera/open_the_camera_app"
EDIT = "contacts/activate_the_edit_page_in_contact"
INSERT = "contacts/activate_the_insert_page_in_contact"
CHAT = "messages/start_chatting_in_message"
MSG_SEARCH = "messages/activate_the_search_bar_in_message"
TRASH = "photos/go_to_trash_page_in_photo"
MAP_SEARCH = "maps/activate_the_search_bar_in_map"
YT_SEARCH = "youtube/activate_the_search_bar_in_youtube"
PAIR = "youtube/go_to_smart_pairing_page_in_youtube"
GOOGLE = "google/activate_the_search_bar_in_google"

ROWS = [
    *open_app_rows(CAL, "com.google.android.calendar", "com.google.android.gm"),
    *open_app_rows(CAM, "com.android.camera2", "com.google.android.apps.photos"),
    *open_app_rows("contacts/open_the_contact_app", "com.android.contacts", "com.android.dialer"),
    *open_app_rows("gmail/open_Gmail", "com.google.android.gm", "com.google.android.apps.messaging"),
    *open_app_rows("maps/open_the_map_app", "com.google.android.apps.maps",
                   "com.google.android.calendar"),
    *open_app_rows("messages/open_the_message_app", "com.google.android.apps.messaging",
                   "com.google.android.gm"),
    *open_app_rows("photos/open_the_photos_app", "com.google.android.apps.photos",
                   "com.android.camera2"),
    *open_app_rows("youtube/open_Youtube", "com.google.android.youtube",
                   "com.google.android.apps.maps"),
    # contacts: edit and insert pages
    fails(EDIT, "card_opened_not_edited", contact_card(0)),
    fails(EDIT, "insert_instead_of_edit", seq(open_contacts,
                                              lambda d: tap_id(d, K + "floating_action_button"))),
    fails(EDIT, "starred_instead_of_edited", seq(contact_card(0),
                                                 lambda d: tap_id(d, K + "menu_star"))),
    passes(EDIT, "the_second_contact", seq(contact_card(1),
                                           lambda d: tap_id(d, K + "menu_edit"))),
    passes(EDIT, "back_then_edit", seq(contact_card(1), lambda d: d.press("BACK"),
                                       lambda d: tap_id(d, K + "cliv_name_textview", 0),
                                       lambda d: tap_id(d, K + "menu_edit"))),
    fails(INSERT, "contacts_opened", open_contacts),
    fails(INSERT, "edit_instead_of_insert", seq(contact_card(0),
                                                lambda d: tap_id(d, K + "menu_edit"))),
    passes(INSERT, "insert_intent_from_the_shell",
           lambda d: shell(d, "am start -a android.intent.action.INSERT "
                              "-d content://com.android.contacts/contacts")),
    passes(INSERT, "after_a_contact_card", seq(contact_card(0), lambda d: d.press("BACK"),
                                              lambda d: tap_id(d, K + "floating_action_button"))),
    # messages
    fails(CHAT, "start_chat_then_give_up", seq(open_messages,
                                                lambda d: tap_id(d, B + "start_chat_fab"),
                                                lambda d: d.press("BACK"))),
    fails(CHAT, "search_instead", messages_search),
    passes(CHAT, "the_second_contact", seq(open_messages,
                                            lambda d: tap_id(d, B + "start_chat_fab"),
                                            lambda d: tap_id(d, B + "contact_name", 1))),
    passes(CHAT, "twice", twice(seq(open_messages, lambda d: tap_id(d, B + "start_chat_fab"),
                                    lambda d: tap_id(d, B + "contact_name", 0)))),
    fails(MSG_SEARCH, "messages_opened", open_messages),
    fails(MSG_SEARCH, "youtube_search_instead", youtube_search),
    passes(MSG_SEARCH, "after_a_conversation",
           seq(open_messages, lambda d: tap_id(d, B + "conversation_name", 0),
               lambda d: d.press("BACK"), lambda d: tap_id(d, B + "action_zero_state_search"))),
    passes(MSG_SEARCH, "twice", twice(messages_search)),
    # photos
    fails(TRASH, "photos_opened", open_photos),
    fails(TRASH, "library_only", photos_library),
    passes(TRASH, "twice", twice(photos_library, photos_trash)),
    passes(TRASH, "from_the_shell_then_trash",
           seq(by_shell("com.google.android.apps.photos"),
               lambda d: tap_id(d, P + "tab_library"), lambda d: tap_id(d, P + "trash"))),
    # maps and youtube
    fails(MAP_SEARCH, "maps_opened", open_maps),
    fails(MAP_SEARCH, "youtube_search_instead", youtube_search),
    fails(MAP_SEARCH, "messages_search_instead", messages_search),
    passes(MAP_SEARCH, "after_youtube_search", twice(youtube_search, maps_search)),
    passes(MAP_SEARCH, "from_the_shell",
           seq(by_shell("com.google.android.apps.maps"),
               lambda d: tap_id(d, M + "search_omnibox_container"))),
    fails(YT_SEARCH, "youtube_opened", open_youtube),
    fails(YT_SEARCH, "maps_search_instead", maps_search),
    passes(YT_SEARCH, "after_maps_search", twice(maps_search, youtube_search)),
    passes(YT_SEARCH, "twice", twice(youtube_search)),
    fails(PAIR, "settings_only", youtube_settings),
    fails(PAIR, "search_instead", youtube_search),
    passes(PAIR, "twice", twice(youtube_pair)),
    passes(PAIR, "from_the_drawer", seq(from_drawer("com.google.android.youtube"),
                                         lambda d: tap_id(d, Y + "mobile_topbar_avatar"),
                                         lambda d: tap_id(d, Y + "account_item_settings"),
                                         lambda d: tap_id(d, "android:id/title", 1))),
    # the Google app's search bar
    fails(GOOGLE, "chrome_omnibox", lambda d: (
        start(d, "com.android.chrome/com.google.android.apps.chrome.Main"),
        tap_id(d, "com.android.chrome:id/url_bar"))),
    fails(GOOGLE, "messages_search_instead", messages_search),
    fails(GOOGLE, "the_g_icon_has_no_field_in_focus", lambda d: tap_id(d, L + "g_icon")),
    fails(GOOGLE, "the_pills_mic_listens_with_no_keyboard", lambda d: tap_id(d, L + "mic_icon")),
    passes(GOOGLE, "the_mic_then_the_box_to_type", seq(lambda d: tap_id(d, L + "mic_icon"),
                                                       lambda d: tap_id(d, G + "search_box"))),
    passes(GOOGLE, "from_an_app", seq(lambda d: start(d, "com.android.settings/.Settings"),
                                      lambda d: d.press("HOME"), tap_pill)),
    passes(GOOGLE, "the_google_apps_search_box",
           seq(opener("com.google.android.googlequicksearchbox"),
               lambda d: tap_id(d, G + "search_widget"))),
    passes(GOOGLE, "its_search_tab", seq(lambda d: tap_id(d, L + "g_icon"),
                                         lambda d: tap_id(d, G + "bottom_nav_search"))),
]
