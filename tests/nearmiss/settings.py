"""Settings: the fifteen tasks' near misses (the neighbouring row, stream or switch, a side
path such as airplane mode for Wi-Fi, toggled twice, stopped half-way) and other right
paths (the shell, the other switch, the slider tapped instead of dragged, the volume keys)."""

from __future__ import annotations

from conftest import bounds, nodes, tap_on

from nearmiss.common import fails, passes, seq, shell, tap_id, tap_nth
from nearmiss.launches import open_app_rows

SETTINGS = "com.android.settings/.Settings"
WIFI_SWITCH = "com.android.settings:id/switchWidget"


def network_page(device) -> None:
    """Settings, then Network & internet (the first row), by id: works in every language."""
    device.shell(f"am start -n {SETTINGS}")
    tap_on(device, 0, resource_id="android:id/title")


def airplane_switch(device) -> None:
    tap_on(device, 0, resource_id="android:id/switch_widget")


def wifi_master_switch(device) -> None:
    tap_on(device, 0, resource_id=WIFI_SWITCH)


def wifi_page_switch(device) -> None:
    tap_on(device, 0, resource_id="android:id/title")       # the Wi-Fi row opens its page
    tap_on(device, 0, resource_id="com.android.settings:id/switch_bar")



T = "android:id/title"


def page(*indices: int):
    """Settings, then the rows at these title indices, in order (by id: any language)."""
    def play(device) -> None:
        shell(device, f"am start -n {SETTINGS}")
        for index in indices:
            tap_nth(device, T, index)
    return play


def back(device) -> None:
    device.press("BACK")


def rtl(device) -> bool:
    locale = device.shell("getprop persist.sys.locale")[0].strip()
    return locale.split("-")[0] in ("ar", "ur", "he", "fa")


def tap_at(rid: str, index: int, fraction: float):
    """Tap a slider at a fraction of its range (its start is on the right in RTL)."""
    def play(device) -> None:
        left, top, right, bottom = bounds(nodes(device.dump_hierarchy(), resource_id=rid)[index])
        f = 1 - fraction if rtl(device) else fraction
        device.tap(int(left + 4 + (right - left - 8) * f), (top + bottom) // 2)
    return play


def switch(index: int = 0, rid: str = "android:id/switch_widget"):
    def play(device) -> None:
        tap_on(device, index, resource_id=rid)
    return play


def confirm_if_asked(device) -> None:
    """Turning dark theme on asks once (DarkUIInfoDialogFragment): OK."""
    if nodes(device.dump_hierarchy(), resource_id="android:id/button1"):
        tap_on(device, resource_id="android:id/button1")


def homepage_from_the_end(offset: int):
    """Settings scrolled to its end, then the row `offset` from the last (1: About phone,
    2: System): the long homepage needs scrolling at a high density or on a tablet."""
    def play(device) -> None:
        shell(device, f"am start -n {SETTINGS}")
        width, height = device.screen_size()
        last = None
        for _ in range(6):
            titles = [bounds(n) for n in nodes(device.dump_hierarchy(), resource_id=T)]
            if titles == last:
                break
            last = titles
            device.swipe(width // 2, height * 3 // 4, width // 2, height // 4)
        tap_id(device, T, len(last) - offset)
    return play


QS_TILE = "android.widget.Switch"
WIFI_TILE, BT_TILE, AIRPLANE_TILE = 0, 1, 7


def pull_shade(times: int = 1):
    """Pull the notification shade down from the status bar (twice: the full panel)."""
    def play(device) -> None:
        width, height = device.screen_size()
        for _ in range(times):
            device.swipe(width // 2, 2, width // 2, height // 2)
    return play


def qs_tile(index: int, long: bool = False):
    """The Quick Settings tile at `index` (by class and order: any language)."""
    def play(device) -> None:
        tiles = nodes(device.dump_hierarchy(), package="com.android.systemui",
                      **{"class": QS_TILE})
        left, top, right, bottom = bounds(tiles[index])
        x, y = (left + right) // 2, (top + bottom) // 2
        device.swipe(x, y, x, y, 800 if long else 100)
    return play


def shade_gear(device) -> None:
    tap_id(device, "com.android.systemui:id/settings_button")


def task(name: str) -> str:
    return f"settings/{name}"


ON, OFF = task("turn_on_wifi"), task("turn_off_wifi")
PLANE_ON, PLANE_OFF = task("turn_on_airplane_mode"), task("turn_off_airplane_mode")
BT, APPS = task("go_to_bluetooth_setting"), task("go_to_app_info_list_in_setting")
LANG = task("go_to_the_'add_a_language'_page_in_setting")
DIM = task("decrease_the_screen_brightness_in_setting")
DARK, VIBRATE = task("toggle_dark_theme_in_setting"), task("toggle_vibrate_for_calls_in_setting")
AIRPLANE_BROADCAST = "su 0 am broadcast -a android.intent.action.AIRPLANE_MODE --ez state "
SEEK = "android:id/seekbar"
SLIDER = "com.android.systemui:id/slider"
STREAMS = {"media": 3, "call": 0, "ring": 2, "alarm": 4}


def volume_rows(kind: str, index: int) -> list:
    tid = task(f"increase_{kind}_volume_in_setting")
    other = 1 if index == 0 else index - 1
    return [fails(tid, "the_neighbouring_stream", seq(page(5), tap_at(SEEK, other, 1.0))),
            fails(tid, "lowered", seq(page(5), tap_at(SEEK, index, 0.0))),
            fails(tid, "sound_page_only", page(5)),
            passes(tid, "slider_tapped_near_its_end", seq(page(5), tap_at(SEEK, index, 0.9))),
            passes(tid, "lowered_then_raised", seq(page(5), tap_at(SEEK, index, 0.0),
                                                   tap_at(SEEK, index, 1.0)))]


ROWS = [
    *open_app_rows(task("open_the_setting_app"), "com.android.settings",
                   "com.google.android.deskclock"),
    passes(task("open_the_setting_app"), "the_shades_gear", seq(pull_shade(), shade_gear)),
    passes(task("open_the_setting_app"), "a_tiles_long_press",
           seq(pull_shade(), qs_tile(WIFI_TILE, long=True))),
    fails(task("open_the_setting_app"), "shade_pulled_down_only", pull_shade(2)),
    passes(ON, "quick_settings_tile", seq(pull_shade(), qs_tile(WIFI_TILE))),
    fails(ON, "quick_settings_tile_twice", seq(pull_shade(), qs_tile(WIFI_TILE),
                                               qs_tile(WIFI_TILE))),
    passes(OFF, "quick_settings_tile", seq(pull_shade(), qs_tile(WIFI_TILE))),
    fails(OFF, "quick_settings_bluetooth_instead", seq(pull_shade(), qs_tile(BT_TILE))),
    passes(PLANE_ON, "quick_settings_tile", seq(pull_shade(2), qs_tile(AIRPLANE_TILE))),
    fails(PLANE_ON, "quick_settings_tile_twice", seq(pull_shade(2), qs_tile(AIRPLANE_TILE),
                                                     qs_tile(AIRPLANE_TILE))),
    passes(BT, "the_tiles_long_press", seq(pull_shade(), qs_tile(BT_TILE, long=True))),
    fails(BT, "the_tile_tapped", seq(pull_shade(), qs_tile(BT_TILE))),
    passes(DIM, "quick_settings_slider", seq(pull_shade(2), tap_at(SLIDER, 0, 0.1))),
    fails(DIM, "quick_settings_slider_raised", seq(pull_shade(2), tap_at(SLIDER, 0, 0.9))),
    fails(ON, "network_page_only", network_page),
    fails(ON, "airplane_mode_instead", seq(network_page, airplane_switch)),
    fails(ON, "on_and_off_again", seq(network_page, wifi_master_switch, wifi_master_switch)),
    passes(ON, "svc_from_the_shell", lambda d: shell(d, "svc wifi enable")),
    passes(ON, "the_wifi_pages_switch", seq(network_page, wifi_page_switch)),
    fails(OFF, "airplane_mode_instead", seq(network_page, airplane_switch)),
    fails(OFF, "network_page_only", network_page),
    fails(OFF, "off_and_on_again", seq(network_page, wifi_master_switch, wifi_master_switch)),
    passes(OFF, "svc_from_the_shell", lambda d: shell(d, "svc wifi disable")),
    passes(OFF, "the_wifi_pages_switch", seq(network_page, wifi_page_switch)),
    passes(OFF, "off_then_airplane_mode", seq(network_page, wifi_master_switch,
                                              airplane_switch)),
    fails(PLANE_ON, "wifi_off_instead", seq(network_page, wifi_master_switch)),
    fails(PLANE_ON, "on_and_off_again", seq(network_page, airplane_switch, airplane_switch)),
    fails(PLANE_ON, "setting_written_without_the_broadcast",
          lambda d: shell(d, "settings put global airplane_mode_on 1")),
    passes(PLANE_ON, "setting_and_broadcast_from_the_shell", lambda d: shell(
        d, "settings put global airplane_mode_on 1", AIRPLANE_BROADCAST + "true")),
    passes(PLANE_ON, "after_wifi_off", seq(network_page, wifi_master_switch, airplane_switch)),
    fails(PLANE_OFF, "wifi_toggled_instead", seq(network_page, wifi_master_switch)),
    fails(PLANE_OFF, "off_and_on_again", seq(network_page, airplane_switch, airplane_switch)),
    passes(PLANE_OFF, "setting_and_broadcast_from_the_shell", lambda d: shell(
        d, "settings put global airplane_mode_on 0", AIRPLANE_BROADCAST + "false")),
    passes(PLANE_OFF, "twice_round", seq(network_page, airplane_switch, airplane_switch,
                                          airplane_switch)),
    fails(BT, "connection_preferences_only", page(1, 1)),
    fails(BT, "cast_instead", page(1, 1, 1)),
    passes(BT, "twice", seq(page(1, 1, 0), back, lambda d: tap_id(d, T, 0))),
    passes(BT, "after_another_page", seq(page(4), back, back, page(1, 1, 0))),
    fails(APPS, "apps_and_notifications_only", page(2)),
    fails(APPS, "notifications_instead", page(2, 2)),
    passes(APPS, "twice", seq(page(2), lambda d: tap_id(d, "com.android.settings:id/see_all"),
                              back, lambda d: tap_id(d, "com.android.settings:id/see_all"))),
    passes(APPS, "after_the_sound_page", seq(page(5), back, page(2), lambda d: tap_id(
        d, "com.android.settings:id/see_all"))),
    fails(LANG, "languages_page_only", seq(homepage_from_the_end(2), lambda d: tap_id(d, T, 0),
                                           lambda d: tap_id(d, T, 0))),
    fails(LANG, "languages_and_input_only", seq(homepage_from_the_end(2),
                                                lambda d: tap_id(d, T, 0))),
    fails(LANG, "about_phone_instead", homepage_from_the_end(1)),
    passes(LANG, "added_backed_out_and_added_again", seq(
        homepage_from_the_end(2), lambda d: tap_id(d, T, 0), lambda d: tap_id(d, T, 0),
        lambda d: tap_id(d, "com.android.settings:id/add_language"), back,
        lambda d: tap_id(d, "com.android.settings:id/add_language"))),
    passes(LANG, "by_way_of_about_phone", seq(
        homepage_from_the_end(1), back, homepage_from_the_end(2), lambda d: tap_id(d, T, 0),
        lambda d: tap_id(d, T, 0), lambda d: tap_id(d, "com.android.settings:id/add_language"))),
    fails(DIM, "raised", seq(page(4, 0), tap_at(SLIDER, 0, 0.95))),
    fails(DIM, "display_page_only", page(4)),
    fails(DIM, "adaptive_brightness_instead", seq(page(4), switch(0))),
    passes(DIM, "slider_tapped_not_dragged", seq(page(4, 0), tap_at(SLIDER, 0, 0.1))),
    passes(DIM, "raised_then_lowered", seq(page(4, 0), tap_at(SLIDER, 0, 0.9),
                                            tap_at(SLIDER, 0, 0.05))),
    fails(DARK, "toggled_twice", seq(page(4), switch(1), confirm_if_asked, switch(1),
                                     confirm_if_asked)),
    fails(DARK, "display_page_only", page(4)),
    fails(DARK, "adaptive_brightness_instead", seq(page(4), switch(0))),
    passes(DARK, "cmd_uimode_from_the_shell", lambda d: shell(d, "cmd uimode night " + (
        "no" if d.shell("settings get secure ui_night_mode")[0].strip() == "2" else "yes"))),
    passes(DARK, "the_rows_title_not_its_switch", seq(page(4), lambda d: tap_id(d, T, 4),
                                                      confirm_if_asked)),
    fails(VIBRATE, "toggled_twice", seq(page(5), switch(0), switch(0))),
    fails(VIBRATE, "sound_page_only", page(5)),
    passes(VIBRATE, "the_rows_title_not_its_switch", seq(page(5), lambda d: tap_id(d, T, 4))),
    passes(VIBRATE, "twice_round", seq(page(5), switch(0), switch(0), switch(0))),
    *[row for kind, index in (("media", 0), ("call", 1), ("ring", 2), ("alarm", 3))
      for row in volume_rows(kind, index)],
    fails(task("increase_media_volume_in_setting"), "ring_by_the_volume_key_on_home",
          lambda d: shell(d, "media volume --stream 2 --set 7")),
]
