"""Radios and airplane mode: what Android 10's services persist in `settings global`.

Airplane mode is one setting plus one broadcast, and each radio keeps its own persisted
state, so a detector that reads `wifi_on` or `bluetooth_on` sees what a real phone writes:

- ConnectivityService.setAirplaneMode writes `airplane_mode_on` and then sends
  ACTION_AIRPLANE_MODE_CHANGED (`android.intent.action.AIRPLANE_MODE`).
- WifiSettingsStore (on the broadcast) keeps the user's Wi-Fi choice in `wifi_on`:
  0 disabled, 1 enabled, 2 enabled by the user while airplane mode is on, 3 disabled
  because airplane mode went on. Leaving airplane mode turns 2 and 3 back into 1.
- BluetoothManagerService (a content observer on `airplane_mode_on`, so a bare
  `settings put` reaches it) keeps `bluetooth_on`: 0 off, 1 on, 2 on but held off by
  airplane mode; leaving airplane mode turns 2 back into 1 and the adapter on again.
- PhoneGlobals (on the broadcast) turns the cell radio off and on, logging
  `Turning radio off - airplane` / `Turning radio on - airplane`, with `cell_on` 1 -> 2
  (CELL_OFF_DUE_TO_AIRPLANE_MODE_FLAG) and back, so a repeated broadcast logs nothing.

Which radios airplane mode affects and which the user may turn back on come from
`airplane_mode_radios` and `airplane_mode_toggleable_radios`, as on the phone.
"""

from __future__ import annotations

from typing import Any, Protocol


class SystemServer(Protocol):
    """What these services use of `bmoca.sim.system.server.SystemServer` (which calls them,
    so they do not import it)."""

    state: Any

    def put_setting(self, namespace: str, key: str, value: str) -> None: ...

    def log_from(self, package: str, priority: str, tag: str, message: str) -> None: ...

    def broadcast(self, action: str) -> None: ...


AIRPLANE_MODE_CHANGED = "android.intent.action.AIRPLANE_MODE"

WIFI_DISABLED = "0"
WIFI_ENABLED = "1"
WIFI_ENABLED_AIRPLANE_OVERRIDE = "2"
WIFI_DISABLED_AIRPLANE_ON = "3"

BLUETOOTH_OFF = "0"
BLUETOOTH_ON_BLUETOOTH = "1"
BLUETOOTH_ON_AIRPLANE = "2"

CELL_ON_FLAG = "1"
CELL_OFF_DUE_TO_AIRPLANE_MODE_FLAG = "2"


def _global(system: SystemServer, key: str) -> str | None:
    return system.state.settings.get("global", key)


def airplane_on(system: SystemServer) -> bool:
    return _global(system, "airplane_mode_on") == "1"


def sensitive(system: SystemServer, radio: str) -> bool:
    """The radio goes off in airplane mode (an unset list means every radio does)."""
    radios = _global(system, "airplane_mode_radios")
    return radios is None or radio in radios.split(",")


def toggleable(system: SystemServer, radio: str) -> bool:
    """The user may turn the radio back on while airplane mode is on."""
    radios = _global(system, "airplane_mode_toggleable_radios")
    return radios is not None and radio in radios.split(",")


# -- Wi-Fi ---------------------------------------------------------------------------------

def wifi_enabled(system: SystemServer) -> bool:
    """WifiSettingsStore.isWifiToggleEnabled as the persisted value tells it."""
    return _global(system, "wifi_on") in (WIFI_ENABLED, WIFI_ENABLED_AIRPLANE_OVERRIDE)


def wifi_toggled(system: SystemServer, enabled: bool) -> None:
    """WifiSettingsStore.handleWifiToggled: the user's switch, remembered across airplane mode."""
    airplane = airplane_on(system) and sensitive(system, "wifi")
    if airplane and not toggleable(system, "wifi"):
        return
    if not enabled:
        value = WIFI_DISABLED
    else:
        value = WIFI_ENABLED_AIRPLANE_OVERRIDE if airplane else WIFI_ENABLED
    system.put_setting("global", "wifi_on", value)


def _wifi_airplane_changed(system: SystemServer) -> None:
    """WifiSettingsStore.handleAirplaneModeToggled."""
    if not sensitive(system, "wifi"):
        return
    state = _global(system, "wifi_on")
    if airplane_on(system):
        if state == WIFI_ENABLED:
            system.put_setting("global", "wifi_on", WIFI_DISABLED_AIRPLANE_ON)
    elif state in (WIFI_ENABLED_AIRPLANE_OVERRIDE, WIFI_DISABLED_AIRPLANE_ON):
        system.put_setting("global", "wifi_on", WIFI_ENABLED)


# -- Bluetooth -----------------------------------------------------------------------------

def bluetooth_enabled(system: SystemServer) -> bool:
    """The adapter is on: persisted on and not held off by airplane mode."""
    return _global(system, "bluetooth_on") == BLUETOOTH_ON_BLUETOOTH


def bluetooth_toggled(system: SystemServer, enabled: bool) -> None:
    """BluetoothManagerService.enable / disable(persist=true) from the user's switch."""
    system.put_setting("global", "bluetooth_on",
                       BLUETOOTH_ON_BLUETOOTH if enabled else BLUETOOTH_OFF)


def bluetooth_airplane_observer(system: SystemServer) -> None:
    """mAirplaneModeObserver: runs when `airplane_mode_on` changes, broadcast or not."""
    if not sensitive(system, "bluetooth"):
        return
    if _global(system, "bluetooth_on") not in (None, BLUETOOTH_OFF):
        system.put_setting("global", "bluetooth_on",
                           BLUETOOTH_ON_AIRPLANE if airplane_on(system) else BLUETOOTH_ON_BLUETOOTH)


# -- the cell radio (PhoneGlobals) ---------------------------------------------------------

def _phone_airplane_changed(system: SystemServer) -> None:
    """PhoneGlobals.handleAirplaneModeChange: cell_on says whether airplane mode turned the
    radio off, so only a real change logs."""
    on = airplane_on(system)
    cell = _global(system, "cell_on")
    if cell == CELL_ON_FLAG and on and sensitive(system, "cell"):
        system.log_from("com.android.phone", "I", "PhoneGlobals", "Turning radio off - airplane")
        system.put_setting("global", "cell_on", CELL_OFF_DUE_TO_AIRPLANE_MODE_FLAG)
        system.put_setting("global", "enable_cellular_on_boot", "0")
    elif cell == CELL_OFF_DUE_TO_AIRPLANE_MODE_FLAG and not on:
        system.log_from("com.android.phone", "I", "PhoneGlobals", "Turning radio on - airplane")
        system.put_setting("global", "cell_on", CELL_ON_FLAG)
        system.put_setting("global", "enable_cellular_on_boot", "1")


def airplane_mode_changed(system: SystemServer) -> None:
    """The system receivers of ACTION_AIRPLANE_MODE_CHANGED (they read the setting, not the
    intent's `state` extra)."""
    _phone_airplane_changed(system)
    _wifi_airplane_changed(system)


def set_airplane_mode(system: SystemServer, enabled: bool) -> None:
    """ConnectivityService.setAirplaneMode: the setting, then the broadcast."""
    system.put_setting("global", "airplane_mode_on", "1" if enabled else "0")
    system.broadcast(AIRPLANE_MODE_CHANGED)
