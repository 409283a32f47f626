"""The Settings app's pages as data: Android 10's structure, keys, fragments and ids.

A page is a fragment with a title and a list of preferences; a preference says what it
shows (title, summary, icon), what kind of widget it has, and what tapping it does. The
behaviour behind switches and sliders lives in `settings.py`, named by `action`.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Pref:
    key: str
    """String-resource stem: titles are `settings.<key>`, summaries `settings.<key>.summary`."""
    kind: str = "pref"
    """"pref", "switch", "master_switch", "slider", "header"."""
    icon: str | None = None
    icon_color: tuple[int, int, int] | None = None
    summary: bool = False
    """Whether it has a (static or computed) summary."""
    opens: str | None = None
    """Page id opened in SubSettings."""
    action: str | None = None
    """Named behaviour (a switch's setting, a slider's stream, an intent to start)."""
    advanced: bool = False
    """Hidden behind the page's "Advanced" row until it is expanded."""
    view_id: str = ""


@dataclass(frozen=True)
class Page:
    id: str
    fragment: str
    """Full class name, as `SettingsActivity: Switching to fragment` prints it."""
    prefs: tuple[Pref, ...]
    switch_bar: str | None = None
    """Action of a "Use Wi‑Fi"-style master switch bar at the top of the page."""
    controllers: tuple[str, ...] = ()
    """Controllers needing a key: `PrefCtrlListHelper` logs each when the page opens."""


BLUE, GREEN, ORANGE, TEAL, PURPLE, RED, GREY, PINK = (
    (26, 115, 232), (30, 142, 62), (232, 113, 10), (18, 132, 120), (147, 52, 230),
    (217, 48, 37), (95, 99, 104), (208, 24, 132))

# The homepage's icon circles, measured on a Pixel running Android 10
# (shared/reference/real_android10_screens.png, corrected for its downscaling): the rows
# whose circle the reference shows take its colour; the others keep Material's tones.
NETWORK_BLUE, DEVICES_GREEN, APPS_ORANGE, BATTERY_TEAL = (
    (76, 154, 249), (135, 192, 54), (244, 142, 66), (74, 141, 135))
DISPLAY_AMBER, SOUND_CYAN, STORAGE_PURPLE, PRIVACY_NAVY = (
    (252, 176, 64), (81, 185, 184), (175, 100, 203), (67, 92, 150))

TOP_LEVEL: tuple[Pref, ...] = (
    Pref("network", icon="wifi", icon_color=NETWORK_BLUE, summary=True, opens="network"),
    Pref("connected_devices", icon="devices_other", icon_color=DEVICES_GREEN, summary=True,
         opens="connected_devices"),
    Pref("apps", icon="apps", icon_color=APPS_ORANGE, summary=True, opens="apps"),
    Pref("battery", icon="battery_full", icon_color=BATTERY_TEAL, summary=True, opens="battery"),
    Pref("display", icon="brightness_medium", icon_color=DISPLAY_AMBER, summary=True, opens="display"),
    Pref("sound", icon="volume_up", icon_color=SOUND_CYAN, summary=True, opens="sound"),
    Pref("storage", icon="storage", icon_color=STORAGE_PURPLE, summary=True, opens="storage"),
    Pref("privacy", icon="privacy_tip", icon_color=PRIVACY_NAVY, summary=True, opens="privacy"),
    Pref("location", icon="location_on", icon_color=GREEN, summary=True, opens="location"),
    Pref("security", icon="lock", icon_color=TEAL, summary=True, opens="security"),
    Pref("accounts", icon="account_circle", icon_color=PINK, summary=True, opens="accounts"),
    Pref("accessibility", icon="accessibility_new", icon_color=PURPLE, summary=True,
         opens="accessibility"),
    Pref("wellbeing", icon="hourglass_empty", icon_color=GREEN, summary=True, opens="wellbeing"),
    Pref("google", icon="g_translate", icon_color=BLUE, summary=True, opens="google"),
    Pref("system", icon="info", icon_color=GREY, summary=True, opens="system"),
    Pref("about", icon="smartphone", icon_color=GREY, summary=True, opens="about"),
)

_F = "com.android.settings."

PAGES: dict[str, Page] = {p.id: p for p in (
    Page("network", _F + "network.NetworkDashboardFragment", (
        Pref("wifi", kind="master_switch", icon="wifi", summary=True, opens="wifi", action="wifi"),
        Pref("mobile_network", icon="signal_cellular_alt", summary=True, opens="mobile_network"),
        Pref("data_usage", icon="data_usage", summary=True, opens="data_usage"),
        Pref("hotspot", icon="wifi_tethering", summary=True, opens="hotspot"),
        Pref("airplane_mode", kind="switch", icon="local_airport", action="airplane"),
        Pref("vpn", icon="vpn_key", advanced=True, opens="vpn"),
        Pref("private_dns", summary=True, advanced=True, opens="private_dns"),
    )),
    Page("wifi", _F + "wifi.WifiSettings", (
        Pref("wifi_network", icon="signal_wifi_4_bar", summary=True, action="wifi_network"),
        Pref("add_network", icon="add"),
        Pref("wifi_preferences", summary=True, opens="wifi_preferences"),
        Pref("saved_networks", summary=True, opens="saved_networks"),
        Pref("wifi_data_usage", summary=True, opens="data_usage"),
    ), switch_bar="wifi"),
    Page("wifi_preferences", _F + "wifi.ConfigureWifiSettings", (
        Pref("wifi_wakeup", kind="switch", summary=True, action="wifi_wakeup"),
        Pref("wifi_notify", kind="switch", summary=True, action="wifi_notify"),
    )),
    Page("saved_networks", _F + "wifi.savedaccesspoints.SavedAccessPointsWifiSettings", (
        Pref("wifi_network_saved", icon="signal_wifi_4_bar"),
    )),
    Page("mobile_network", _F + "network.telephony.MobileNetworkSettings", (
        Pref("mobile_data", kind="switch", summary=True, action="mobile_data"),
        Pref("roaming", kind="switch", summary=True, action="roaming"),
        Pref("app_data_usage", summary=True),
    )),
    Page("data_usage", _F + "datausage.DataUsageSummary", (
        Pref("data_saver", summary=True), Pref("mobile_data_usage", summary=True),
        Pref("wifi_data_usage_detail", summary=True),
    )),
    Page("hotspot", _F + "TetherSettings", (
        Pref("wifi_hotspot", summary=True), Pref("usb_tethering", kind="switch",
                                                 summary=True, action="usb_tethering"),
        Pref("bluetooth_tethering", kind="switch", summary=True, action="bluetooth_tethering"),
    )),
    Page("vpn", _F + "vpn2.VpnSettings", (Pref("vpn_empty"),)),
    Page("private_dns", _F + "network.PrivateDnsModeDialogPreference", (
        Pref("private_dns_automatic"),)),
    Page("connected_devices", _F + "connecteddevice.ConnectedDeviceDashboardFragment", (
        Pref("pair_new_device", icon="add", opens="pair_device"),
        Pref("connection_preferences", icon="bluetooth", summary=True,
             opens="connection_preferences"),
    )),
    Page("pair_device", _F + "bluetooth.BluetoothPairingDetail", (
        Pref("device_name", summary=True), Pref("available_devices", kind="header"),
    )),
    Page("connection_preferences",
         _F + "connecteddevice.AdvancedConnectedDeviceDashboardFragment", (
             Pref("bluetooth", icon="bluetooth", summary=True, opens="bluetooth"),
             Pref("cast", icon="cast", summary=True),
             Pref("printing", icon="print", summary=True),
             Pref("bluetooth_files", icon="file_download"),
         )),
    Page("bluetooth", _F + "connecteddevice.BluetoothDashboardFragment", (
        Pref("device_name", summary=True),
        Pref("pair_new_device", icon="add", opens="pair_device"),
        Pref("bluetooth_footer", summary=True),
    ), switch_bar="bluetooth",
        controllers=(_F + "bluetooth.BluetoothDeviceRenamePreferenceController",
                     _F + "bluetooth.BluetoothSwitchPreferenceController")),
    Page("apps", _F + "applications.AppAndNotificationDashboardFragment", (
        Pref("recent_apps", kind="header"),
        Pref("see_all_apps", icon="apps", opens="manage_apps", view_id="see_all"),
        Pref("notifications", icon="notifications", summary=True, opens="notifications"),
        Pref("default_apps", icon="launch", summary=True, opens="default_apps"),
        Pref("permission_manager", icon="lock_person", summary=True),
        Pref("emergency_alerts", advanced=True), Pref("special_access", summary=True,
                                                      advanced=True),
    )),
    Page("manage_apps", _F + "applications.manageapplications.ManageApplications", (),
         controllers=()),
    Page("notifications", _F + "notification.ConfigureNotificationSettings", (
        Pref("notification_history", kind="header"),
        Pref("notification_badging", kind="switch", action="badging"),
    )),
    Page("default_apps", _F + "applications.defaultapps.DefaultAppSettings", (
        Pref("default_browser", summary=True), Pref("default_home", summary=True),
        Pref("default_phone", summary=True), Pref("default_sms", summary=True),
    )),
    Page("app_info", _F + "applications.appinfo.AppInfoDashboardFragment", (
        Pref("app_notifications", summary=True), Pref("app_permissions", summary=True),
        Pref("app_storage", summary=True), Pref("app_data", summary=True),
        Pref("app_battery", summary=True),
    ), controllers=(_F + "applications.appinfo.AppNotificationPreferenceController",
                    _F + "applications.appinfo.AppPermissionPreferenceController")),
    Page("battery", _F + "fuelgauge.PowerUsageSummary", (
        Pref("battery_level", kind="header"),
        Pref("battery_saver", summary=True), Pref("adaptive_battery", summary=True),
        Pref("battery_percentage", kind="switch", summary=True, action="battery_percentage"),
        Pref("last_full_charge", summary=True), Pref("screen_usage", summary=True),
    )),
    Page("display", _F + "DisplaySettings", (
        Pref("brightness", summary=True, action="brightness_dialog"),
        Pref("night_light", summary=True),
        Pref("adaptive_brightness", kind="switch", summary=True, action="adaptive_brightness"),
        Pref("wallpaper", summary=True),
        Pref("dark_theme", kind="switch", summary=True, action="dark_theme"),
        Pref("screen_timeout", summary=True),
        Pref("auto_rotate", kind="switch", advanced=True, action="auto_rotate"),
        Pref("colors", summary=True, advanced=True),
        Pref("font_size", summary=True, advanced=True, opens="font_size"),
        Pref("display_size", summary=True, advanced=True),
        Pref("screen_saver", summary=True, advanced=True),
        Pref("lock_screen_display", summary=True, advanced=True),
    )),
    Page("font_size", _F + "display.ToggleFontSizePreferenceFragment", (
        Pref("font_size_preview", kind="header"),
        Pref("font_size_slider", kind="slider", action="font_scale"),
    )),
    Page("sound", _F + "notification.SoundSettings", (
        Pref("media_volume", kind="slider", icon="music_note", action="stream:3"),
        Pref("call_volume", kind="slider", icon="call", action="stream:0"),
        Pref("ring_volume", kind="slider", icon="notifications", action="stream:2"),
        Pref("alarm_volume", kind="slider", icon="alarm", action="stream:4"),
        Pref("vibrate_for_calls", kind="switch", action="vibrate_when_ringing"),
        Pref("do_not_disturb", summary=True),
        Pref("prevent_ringing", summary=True),
        Pref("phone_ringtone", summary=True),
        Pref("default_notification_sound", summary=True, advanced=True),
        Pref("default_alarm_sound", summary=True, advanced=True),
        Pref("other_sounds", advanced=True),
    )),
    Page("storage", _F + "deviceinfo.StorageDashboardFragment", (
        Pref("storage_manager", kind="switch", summary=True, action="storage_manager"),
        Pref("storage_photos", icon="photo", summary=True),
        Pref("storage_music", icon="music_note", summary=True),
        Pref("storage_apps", icon="apps", summary=True),
        Pref("storage_files", icon="folder", summary=True),
        Pref("storage_system", icon="settings", summary=True),
    )),
    Page("privacy", _F + "privacy.PrivacyDashboardFragment", (
        Pref("permission_manager", summary=True),
        Pref("show_passwords", kind="switch", action="show_passwords"),
        Pref("lock_screen", summary=True),
    )),
    Page("location", _F + "location.LocationSettings", (
        Pref("recent_location", kind="header"),
        Pref("app_permission_location", summary=True),
        Pref("wifi_scanning", summary=True),
    ), switch_bar="location"),
    Page("security", _F + "security.SecuritySettings", (
        Pref("google_play_protect", summary=True), Pref("find_my_device", summary=True),
        Pref("security_update", summary=True), Pref("screen_lock", summary=True),
        Pref("smart_lock", summary=True),
    )),
    Page("accounts", _F + "accounts.AccountDashboardFragment", (
        Pref("add_account", icon="person_add"),
        Pref("auto_sync", kind="switch", summary=True, action="auto_sync"),
    )),
    Page("accessibility", _F + "accessibility.AccessibilitySettings", (
        Pref("talkback", summary=True), Pref("select_to_speak", summary=True),
        Pref("font_size", summary=True, opens="font_size"),
        Pref("display_size", summary=True),
        Pref("dark_theme", kind="switch", summary=True, action="dark_theme"),
        Pref("magnification", summary=True),
    )),
    Page("wellbeing", _F + "dashboard.DashboardFragment", (
        Pref("wellbeing_dashboard", summary=True), Pref("wind_down", summary=True),
        Pref("parental_controls", summary=True),
    )),
    Page("google", _F + "dashboard.DashboardFragment", (
        Pref("google_account", summary=True), Pref("google_backup", summary=True),
        Pref("google_devices", summary=True),
    )),
    Page("system", _F + "system.SystemDashboardFragment", (
        Pref("languages_input", icon="language", summary=True, opens="languages_input"),
        Pref("gestures", icon="gesture", opens="gestures"),
        Pref("date_time", icon="schedule", summary=True),
        Pref("backup", icon="backup", summary=True, advanced=True),
        Pref("reset_options", icon="restore", advanced=True),
        Pref("multiple_users", icon="group", summary=True, advanced=True),
        Pref("system_update", icon="system_update", summary=True, advanced=True),
    )),
    Page("gestures", _F + "gestures.GestureSettings", (
        Pref("gesture_camera", summary=True), Pref("gesture_navigation", summary=True),
    )),
    Page("languages_input", _F + "language.LanguageAndInputSettings", (
        Pref("languages", icon="language", summary=True, opens="languages"),
        Pref("virtual_keyboard", summary=True), Pref("physical_keyboard", summary=True),
        Pref("spell_checker", summary=True, advanced=True),
        Pref("autofill", summary=True, advanced=True),
        Pref("personal_dictionary", advanced=True),
        Pref("pointer_speed", advanced=True),
        Pref("tts_output", advanced=True),
    )),
    Page("languages", _F + "localepicker.LocaleListEditor", ()),
    Page("about", _F + "deviceinfo.aboutphone.MyDeviceInfoFragment", (
        Pref("device_name", summary=True),
        Pref("phone_number", summary=True),
        Pref("emergency_info", summary=True),
        Pref("legal_info"),
        Pref("sim_status", summary=True),
        Pref("model", summary=True),
        Pref("imei", summary=True),
        Pref("android_version", summary=True),
        Pref("ip_address", summary=True, advanced=True),
        Pref("wifi_mac", summary=True, advanced=True),
        Pref("bluetooth_address", summary=True, advanced=True),
        Pref("up_time", summary=True, advanced=True),
        Pref("build_number", summary=True, advanced=True),
    )),
)}


def all_searchable() -> list[tuple[str, Pref]]:
    """(page id, pref) for every preference search can find."""
    found = [("top", p) for p in TOP_LEVEL]
    for page in PAGES.values():
        found += [(page.id, p) for p in page.prefs if p.kind != "header"]
    return found


@dataclass
class SettingsData:
    """App-wide Settings state: the language list, switches that only the app keeps."""

    locales: list[str] = field(default_factory=list)
    switches: dict[str, bool] = field(default_factory=dict)
    """Switches with no system setting behind them (battery percentage, ...)."""
