"""The settings provider: the global / system / secure tables with Android 10's keys."""

from __future__ import annotations

from dataclasses import dataclass, field

NAMESPACES = ("global", "system", "secure")

TOGGLES: dict[str, tuple[str, str, str, str]] = {
    "vibrate_when_ringing": ("system", "vibrate_when_ringing", "1", "0"),
    "adaptive_brightness": ("system", "screen_brightness_mode", "1", "0"),
    "auto_rotate": ("system", "accelerometer_rotation", "1", "0"),
    "mobile_data": ("global", "mobile_data", "1", "0"),
    "roaming": ("global", "data_roaming", "1", "0"),
    "location": ("secure", "location_mode", "3", "0"),
    "do_not_disturb": ("global", "zen_mode", "1", "0"),
    "battery_saver": ("global", "low_power", "1", "0"),
}
"""Switches that are one setting, whichever app flips them (a Settings switch, a Quick
Settings tile): name -> (namespace, key, value when on, value when off)."""

DEFAULTS: dict[str, dict[str, str]] = {
    "global": {
        "airplane_mode_on": "0", "wifi_on": "1", "bluetooth_on": "0", "mobile_data": "1",
        "adb_enabled": "1", "auto_time": "0", "auto_time_zone": "0", "data_roaming": "0",
        "device_name": "Pixel 3", "development_settings_enabled": "0",
        "stay_on_while_plugged_in": "0", "window_animation_scale": "1.0",
        "transition_animation_scale": "1.0", "animator_duration_scale": "1.0",
        "zen_mode": "0", "cell_on": "1", "wifi_sleep_policy": "2",
        "enable_cellular_on_boot": "1", "airplane_mode_radios": "cell,bluetooth,wifi,nfc,wimax",
        "airplane_mode_toggleable_radios": "bluetooth,wifi,nfc",
    },
    "system": {
        "screen_brightness": "102", "screen_brightness_mode": "0", "font_scale": "1.0",
        "vibrate_when_ringing": "0", "screen_off_timeout": "60000",
        "accelerometer_rotation": "0", "user_rotation": "0", "haptic_feedback_enabled": "1",
        "sound_effects_enabled": "1", "dtmf_tone": "1", "lockscreen_sounds_enabled": "1",
        "show_touches": "0", "pointer_location": "0",
        "volume_voice_speaker": "4", "volume_ring_speaker": "5", "volume_music_speaker": "5",
        "volume_alarm_speaker": "6", "volume_notification_speaker": "5",
        "volume_system_speaker": "5",
    },
    "secure": {
        "ui_night_mode": "1", "location_mode": "3", "android_id": "a3f1c2d4e5b60718",
        "default_input_method": "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME",
        "enabled_input_methods": "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME",
        "accessibility_enabled": "0", "install_non_market_apps": "1", "user_setup_complete": "1",
        "bluetooth_name": "Pixel 3", "doze_enabled": "1", "screensaver_enabled": "0",
        "navigation_mode": "0", "selected_spell_checker_subtype": "0",
    },
}


@dataclass
class SettingsProvider:
    tables: dict[str, dict[str, str]] = field(
        default_factory=lambda: {ns: dict(values) for ns, values in DEFAULTS.items()})

    def get(self, namespace: str, key: str) -> str | None:
        return self.tables[check_namespace(namespace)].get(key)

    def put(self, namespace: str, key: str, value: str) -> bool:
        """Store a value; True if it changed (Android notifies observers only then)."""
        table = self.tables[check_namespace(namespace)]
        if table.get(key) == value:
            return False
        table[key] = value
        return True

    def delete(self, namespace: str, key: str) -> bool:
        return self.tables[check_namespace(namespace)].pop(key, None) is not None

    def get_int(self, namespace: str, key: str, default: int = 0) -> int:
        value = self.get(namespace, key)
        try:
            return int(float(value)) if value is not None else default
        except ValueError:
            return default

    def get_float(self, namespace: str, key: str, default: float = 0.0) -> float:
        value = self.get(namespace, key)
        try:
            return float(value) if value is not None else default
        except ValueError:
            return default


def check_namespace(namespace: str) -> str:
    if namespace not in NAMESPACES:
        raise KeyError(namespace)
    return namespace


def uri(namespace: str, key: str) -> str:
    return f"content://settings/{namespace}/{key}"
