"""The simulated `/system/bin/sh`, driven only through `SimDevice.shell` as tools drive a phone."""

from __future__ import annotations

import re

import pytest

from bmoca.sim.device import SimDevice

THREADTIME = re.compile(r"^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} +\d+ +\d+ [VDIWEF] .+?: ")
EPOCH = re.compile(r"^ +\d+\.\d{3} +\d+ +\d+ [VDIWEF] [^:]+: ")
LAUNCHER_FOCUS = ("com.google.android.apps.nexuslauncher/"
                  "com.google.android.apps.nexuslauncher.NexusLauncherActivity")



def sh(device: SimDevice, cmd: str) -> str:
    """Output of a command that must succeed."""
    out, code = device.shell(cmd)
    assert code == 0, (cmd, code, out)
    return out


def log_lines(device: SimDevice, *filters: str) -> list[str]:
    out = sh(device, "logcat -d " + " ".join(filters) + " *:S")
    return [line for line in out.splitlines() if not line.startswith("---------")]


# -- the shell language ----------------------------------------------------------------------


def test_unknown_command_is_127_with_mkshs_message(device):
    assert device.shell("frobnicate --now") == (
        "/system/bin/sh: frobnicate: inaccessible or not found\n", 127)
    assert device.shell("/system/bin/nope")[1] == 127


def test_quoting_and_variables(device):
    assert sh(device, "echo 'a  b' \"c  d\" e\\ f") == "a  b c  d e f\n"
    assert sh(device, "echo \"it's\" 'say \"hi\"'") == "it's say \"hi\"\n"
    assert sh(device, "X=1; echo $X ${X} \"$X\" '$X'") == "1 1 1 $X\n"
    assert sh(device, "echo $(echo inner) `echo tick`") == "inner tick\n"
    assert sh(device, "echo a; echo b\necho c") == "a\nb\nc\n"
    assert device.shell("echo 'open") == ("/system/bin/sh: no closing quote\n", 1)
    assert device.shell("echo a |")[1] == 1


def test_and_or_and_exit_status(device):
    assert sh(device, "false || echo ok && echo yes") == "ok\nyes\n"
    assert sh(device, "true && false; echo $?") == "1\n"
    assert sh(device, "false && echo never; echo after") == "after\n"
    assert device.shell("exit 3") == ("", 3)
    assert device.shell("echo before; exit 4; echo after") == ("before\n", 4)
    assert device.shell("sh -c 'exit 5'; echo $?") == ("5\n", 0)


def test_pipes_into_text_filters(device):
    assert sh(device, "printf 'b\\na\\nc\\n' | sort | head -n 2") == "a\nb\n"
    assert sh(device, "printf 'x1\\ny2\\nx3\\n' | grep x | wc -l") == "2\n"
    assert sh(device, "printf 'Alpha\\nbeta\\n' | grep -i ALPHA") == "Alpha\n"
    assert sh(device, "printf 'a\\nb\\nc\\n' | grep -v b | tail -n 1") == "c\n"
    assert sh(device, "printf 'ab\\ncd\\nabc\\n' | grep -c ab") == "2\n"
    assert sh(device, "printf 'foo\\nbar\\n' | grep -E 'fo+|ba.'") == "foo\nbar\n"
    assert device.shell("echo hello | grep nothing") == ("", 1)
    assert sh(device, "printf 'a\\nb\\nc\\nd\\n' | grep -n -A1 -m1 b") == "2:b\n3-c\n"


def test_stderr_routing(device):
    out, code = device.shell("cat /sdcard/missing.txt")
    assert (out, code) == ("cat: /sdcard/missing.txt: No such file or directory\n", 1)
    assert device.shell("cat /sdcard/missing.txt 2>/dev/null") == ("", 1)
    out, _ = device.shell("cat /sdcard/missing.txt 2>&1 | grep -c missing")
    assert out == "1\n"
    assert device.shell("cat /sdcard/missing.txt > /dev/null 2>&1; echo $?") == ("1\n", 0)


def test_redirection_into_the_virtual_fs(device):
    assert sh(device, "echo one > /sdcard/notes.txt; echo two >> /sdcard/notes.txt") == ""
    assert sh(device, "cat /sdcard/notes.txt") == "one\ntwo\n"
    assert device.pull("/sdcard/notes.txt") == b"one\ntwo\n"
    assert sh(device, "ls /sdcard/*.txt") == "/sdcard/notes.txt\n"
    assert sh(device, "stat -c %s /sdcard/notes.txt") == "8\n"
    out, code = device.shell("echo x > /sdcard/no/such/dir/f")
    assert code == 1 and "can't create /sdcard/no/such/dir/f: No such file or directory" in out


def test_file_commands(device):
    assert sh(device, "mkdir -p /sdcard/a/b && touch /sdcard/a/b/f && ls /sdcard/a/b") == "f\n"
    assert sh(device, "cp /sdcard/a/b/f /sdcard/a/g && mv /sdcard/a/g /sdcard/a/h && ls /sdcard/a") \
        == "b\nh\n"
    assert sh(device, "[ -d /sdcard/a ] && test -f /sdcard/a/h && echo yes") == "yes\n"
    assert device.shell("rm /sdcard/a")[1] == 1
    assert sh(device, "rm -r /sdcard/a; test -e /sdcard/a || echo gone") == "gone\n"
    assert device.shell("mkdir /sdcard/DCIM") == ("mkdir: '/sdcard/DCIM': File exists\n", 1)
    device.push(b"\xff\xfeok", "/data/local/tmp/bin")
    assert sh(device, "cat /data/local/tmp/bin") == "\ufffd\ufffdok"


def test_su_toybox_and_id(device):
    assert sh(device, "id").startswith("uid=2000(shell) gid=2000(shell) ")
    assert sh(device, "su 0 id").startswith("uid=0(root) gid=0(root) ")
    assert sh(device, "su root whoami") == "root\n"
    assert sh(device, 'su -c "whoami; id -u 2>/dev/null; echo done"').startswith("root\n")
    assert sh(device, "whoami") == "shell\n"
    assert sh(device, "toybox echo hi") == "hi\n"


# -- settings, volume, display ---------------------------------------------------------------


def test_settings_round_trip_logs_the_provider_notification(device):
    assert sh(device, "settings get system vibrate_when_ringing") == "0\n"
    assert device.shell("settings put system vibrate_when_ringing 1") == ("", 0)
    assert sh(device, "settings get system vibrate_when_ringing") == "1\n"
    lines = sh(device, "logcat -d -s SettingsProvider:V").splitlines()
    assert any(re.search(r" V SettingsProvider: Notifying for 0: "
                         r"content://settings/system/vibrate_when_ringing$", line) for line in lines)
    assert all(line.startswith("--------- beginning of ") or " SettingsProvider: " in line
               for line in lines)
    assert sh(device, "settings get secure no_such_key") == "null\n"
    assert sh(device, "settings delete secure no_such_key") == "Deleted 0 rows\n"
    sh(device, "settings put global my_key 7")
    assert sh(device, "settings delete global my_key") == "Deleted 1 rows\n"
    listed = sh(device, "settings list system").splitlines()
    assert listed == sorted(listed) and "vibrate_when_ringing=1" in listed


def test_settings_errors(device):
    out, code = device.shell("settings get nowhere key")
    assert (out, code) == ("Invalid namespace 'nowhere'\n", 255)
    assert device.shell("settings get system") == ("Bad arguments\n", 255)
    out, code = device.shell("settings")
    assert code == 255 and out.startswith("Settings provider (settings) commands:\n")
    out, code = device.shell("settings put system screen_brightness bright")
    assert code == 255 and "Invalid value: bright for setting: screen_brightness" in out


def test_airplane_setting_does_not_toggle_radios(device):
    sh(device, "settings put global airplane_mode_on 1")
    assert sh(device, "settings get global wifi_on") == "1\n"
    assert not log_lines(device, "PhoneGlobals:I")


def test_media_volume_get_prints_volumectrl_lines(device):
    assert sh(device, "media volume --show --stream 4 --get") == (
        "[v] will control stream=4 (STREAM_ALARM)\n"
        "[v] will get volume\n"
        "[v] Connecting to AudioService\n"
        "[v] volume is 6 in range [1..7]\n")


def test_media_volume_set_then_get(device):
    assert sh(device, "media volume --stream 4 --set 2") == (
        "[v] will control stream=4 (STREAM_ALARM)\n"
        "[v] will set volume to index=2\n"
        "[v] Connecting to AudioService\n")
    assert "volume is 2 in range [1..7]" in sh(device, "media volume --stream 4 --get")
    assert any(line.endswith("I vol.Events: writeEvent level_changed STREAM_ALARM 2")
               for line in log_lines(device, "vol.Events:I"))
    out, code = device.shell("media volume --stream 4 --set 9")
    assert code == 1 and "Error: invalid volume index 9 for stream 4 (should be in [1..7])" in out


def test_uimode_night(device):
    assert sh(device, "cmd uimode night") == "Night mode: no\n"
    assert sh(device, "cmd uimode night yes") == "Night mode: yes\n"
    assert sh(device, "settings get secure ui_night_mode") == "2\n"
    assert sh(device, "cmd uimode night no") == "Night mode: no\n"
    assert sh(device, "settings get secure ui_night_mode") == "1\n"
    assert device.shell("cmd uimode night maybe") == (
        "Error: mode must be 'yes', 'no', or 'auto'\n", 255)


def test_wm_density_and_size(device):
    assert sh(device, "wm density") == "Physical density: 440\n"
    assert sh(device, "wm density 330") == ""
    assert sh(device, "wm density") == "Physical density: 440\nOverride density: 330\n"
    assert sh(device, "wm density reset; wm density") == "Physical density: 440\n"
    assert sh(device, "wm size") == "Physical size: 1080x2160\n"
    sh(device, "wm size 720x1440")
    assert sh(device, "wm size") == "Physical size: 1080x2160\nOverride size: 720x1440\n"
    assert device.screen_size() == (720, 1440)
    sh(device, "wm size reset")
    assert device.screen_size() == (1080, 2160)
    assert device.shell("wm density abc")[1] == 255


def test_font_scale_applies_at_once(device):
    before = device.dump_hierarchy()
    assert sh(device, "settings get system font_scale") == "1.0\n"
    assert device.dump_hierarchy() == before
    sh(device, "settings put system font_scale 1.3")
    assert device.system.font_scale == pytest.approx(1.3)
    assert device.dump_hierarchy() != before, "the next frame is built with the new scale"


# -- logcat --------------------------------------------------------------------------------


def test_logcat_threadtime_lines(device):
    sh(device, "settings put system screen_brightness 80")
    lines = [line for line in sh(device, "logcat -d").splitlines() if not line.startswith("---")]
    assert lines and all(THREADTIME.match(line) for line in lines)


def test_logcat_epoch_lines_start_with_spaces(device):
    sh(device, "settings put system screen_brightness 81")
    lines = log_lines(device, "-v epoch", "SettingsProvider:V")
    assert lines and all(EPOCH.match(line) for line in lines)
    assert lines[-1].endswith("Notifying for 0: content://settings/system/screen_brightness")
    year = sh(device, "logcat -d -v year -t 1").splitlines()[-1]
    assert re.match(r"^2024-01-17 \d\d:\d\d:\d\d\.\d{3} ", year)


def test_logcat_filters_clear_and_dividers(device):
    sh(device, "am start -n com.android.settings/.Settings")
    out = sh(device, "logcat -d ActivityManager:I *:S")
    body = [line for line in out.splitlines() if not line.startswith("---------")]
    assert body and all(" I ActivityManager: " in line for line in body)
    assert "--------- beginning of main" in out and "--------- beginning of system" in out
    assert "---------" not in sh(device, "logcat -d -b system ActivityManager:I *:S")
    assert sh(device, "logcat -d -s Nobody") in ("", "--------- beginning of system\n"
                                                 "--------- beginning of main\n",
                                                 "--------- beginning of main\n"
                                                 "--------- beginning of system\n")
    assert len(sh(device, "logcat -d -b all -t 2").splitlines()) <= 4
    assert sh(device, "logcat -c") == ""
    assert sh(device, "logcat -d") == ""
    sh(device, "settings put system screen_brightness 90")
    assert len(log_lines(device, "SettingsProvider:V")) == 1
    assert device.shell("logcat -d Tag:Z") == ("Invalid filter expression\n", 1)


def test_logcat_regex_and_tail(device):
    for level in (10, 20, 30):
        sh(device, f"settings put system screen_brightness {level}")
    lines = log_lines(device, "-e", "brightness$", "SettingsProvider:V")
    assert len(lines) == 3
    assert len(sh(device, "logcat -d -b system -t 2").splitlines()) == 2


# -- time -------------------------------------------------------------------------------------


def test_date_read_set_and_format(device):
    assert sh(device, "date") == "Wed Jan 17 10:00:00 GMT 2024\n"
    assert sh(device, "su 0 toybox date 123113302015.00") == "Thu Dec 31 13:30:00 GMT 2015\n"
    assert sh(device, "date") == "Thu Dec 31 13:30:00 GMT 2015\n"
    assert sh(device, "date +%Y-%m-%d_%H:%M") == "2015-12-31_13:30\n"
    assert int(sh(device, "date +%s")) == 1451568600
    assert device.shell("date 99999999") == ("date: bad date '99999999'\n", 1)


# -- windows, activities, apps -----------------------------------------------------------


def test_current_focus_follows_am_start(device):
    focus = sh(device, "dumpsys window windows | grep mCurrentFocus")
    assert re.fullmatch(r"  mCurrentFocus=Window\{[0-9a-f]+ u0 " + re.escape(LAUNCHER_FOCUS)
                        + r"\}\n", focus)
    out = sh(device, "am start -n com.android.settings/.Settings")
    assert out == "Starting: Intent { cmp=com.android.settings/.Settings }\n"
    focus = sh(device, "dumpsys window windows | grep mCurrentFocus")
    assert re.fullmatch(r"  mCurrentFocus=Window\{[0-9a-f]+ u0 "
                        r"com\.android\.settings/com\.android\.settings\.Settings\}\n", focus)
    assert focus == sh(device, "dumpsys window windows | grep mCurrentFocus"), "stable hash"
    resumed = sh(device, "dumpsys activity activities | grep mResumedActivity")
    assert re.search(r"mResumedActivity: ActivityRecord\{[0-9a-f]+ u0 "
                     r"com\.android\.settings/\.Settings t\d+\}", resumed)
    assert "mFocusedApp=AppWindowToken{" in sh(device, "dumpsys window displays")


def test_am_start_logs_start_and_process_lines(device):
    sh(device, "am start -n com.android.settings/.Settings")
    lines = log_lines(device, "ActivityTaskManager:I", "ActivityManager:I")
    assert any(re.search(r"I ActivityTaskManager: START u0 \{flg=0x10000000 "
                         r"cmp=com\.android\.settings/\.Settings\} from uid \d+$", line)
               for line in lines)
    assert any(re.search(r"I ActivityManager: Start proc \d+:com\.android\.settings/1000 for "
                         r"activity \{com\.android\.settings/com\.android\.settings\.Settings\}",
                         line) for line in lines)


def test_am_errors_and_force_stop(device):
    out, code = device.shell("am start -a com.example.NOTHING")
    assert code == 1 and out.endswith("Error: Activity not started, unable to resolve Intent "
                                      "{ act=com.example.NOTHING flg=0x10000000 }\n")
    out, code = device.shell("am start -n com.android.settings/.Missing")
    assert code == 1 and "Error type 3\n" in out
    sh(device, "am start -n com.android.settings/.Settings")
    sh(device, "am force-stop com.android.settings")
    assert LAUNCHER_FOCUS in sh(device, "dumpsys window windows | grep mCurrentFocus")
    assert any("Force stopping com.android.settings appid=1000 user=0" in line
               for line in log_lines(device, "ActivityManager:I"))
    assert device.shell("am frobnicate") == ("Unknown command: frobnicate\n", 255)


def test_am_broadcast_and_stack_list(device):
    assert sh(device, "am broadcast -a android.intent.action.TIME_SET") == (
        "Broadcasting: Intent { act=android.intent.action.TIME_SET flg=0x400000 }\n"
        "Broadcast completed: result=0\n")
    sh(device, "am start -n com.android.settings/.Settings")
    stacks = sh(device, "am stack list")
    assert re.search(r"taskId=\d+: com\.android\.settings/com\.android\.settings\.Settings "
                     r"bounds=\[0,0\]\[1080,2160\] userId=0 visible=true", stacks)


def test_monkey_launches_the_app(device):
    out = sh(device, "monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
    assert "Events injected: 1" in out
    assert "com.android.settings/com.android.settings.Settings" in sh(
        device, "dumpsys window windows | grep mCurrentFocus")
    assert any("cat=[android.intent.category.LAUNCHER] flg=0x10200000 "
               "cmp=com.android.settings/.Settings" in line
               for line in log_lines(device, "ActivityTaskManager:I"))


def test_pm(device):
    packages = sh(device, "pm list packages").splitlines()
    for name in ("android", "com.android.settings", "com.android.shell",
                 "com.android.providers.settings", "org.wikipedia"):
        assert f"package:{name}" in packages
    assert sh(device, "pm list packages -3 wiki") == "package:org.wikipedia\n"
    assert "package:org.wikipedia" not in sh(device, "pm list packages -s")
    assert sh(device, "pm path com.android.settings").startswith("package:/system/")
    assert device.shell("pm path com.example.none") == ("", 1)
    assert sh(device, "pm clear com.android.settings") == "Success\n"


def test_svc_wifi_logs_the_shell_as_caller(device):
    sh(device, "svc wifi disable")
    assert sh(device, "settings get global wifi_on") == "0\n"
    assert any(line.endswith("I WifiService: setWifiEnabled package=com.android.shell uid=2000 "
                             "enable=false") for line in log_lines(device, "WifiService:I"))


def test_dumpsys_for_tools(device):
    assert re.search(r"orientation=0", sh(device, "dumpsys display"))
    assert "SurfaceOrientation: 0" in sh(device, "dumpsys input")
    battery = sh(device, "dumpsys battery")
    assert "  level: 100\n" in battery and "  AC powered: true\n" in battery
    assert "init=1080x2160 440dpi cur=1080x2160" in sh(device, "dumpsys window displays")
    assert device.shell("dumpsys nosuchservice") == ("Can't find service: nosuchservice\n", 0)


def test_uiautomator_dump_writes_the_file(device):
    assert sh(device, "uiautomator dump") == "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    xml = sh(device, "cat /sdcard/window_dump.xml")
    assert xml.startswith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
                          '<hierarchy rotation="0">')
    assert xml == device.dump_hierarchy()
    assert sh(device, "uiautomator dump /data/local/tmp/ui.xml") == (
        "UI hierchary dumped to: /data/local/tmp/ui.xml\n")


def test_screencap_to_file(device):
    assert device.shell("screencap -p /sdcard/screen.png") == ("", 0)
    data = device.pull("/sdcard/screen.png")
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert device.shell("screencap -p") == ("", 0)


def test_input_commands(device):
    assert device.shell("input text hello%sworld") == ("", 0)
    out, code = device.shell("input swipe 1 2")
    assert code == 1 and out.startswith("Error: Invalid arguments for command: swipe\nUsage: input")
    out, code = device.shell("input fly 1 2")
    assert code == 1 and out.startswith("Error: Unknown command: fly\n")
    sh(device, "am start -n com.android.settings/.Settings")
    assert device.shell("input keyevent KEYCODE_HOME") == ("", 0)
    assert LAUNCHER_FOCUS in sh(device, "dumpsys window windows | grep mCurrentFocus")
    sh(device, "am start -n com.android.settings/.Settings")
    assert device.shell("input keyevent 3") == ("", 0), "numbers are key codes (3 = HOME)"
    assert LAUNCHER_FOCUS in sh(device, "dumpsys window windows | grep mCurrentFocus")
    assert device.shell("input keyevent KEYCODE_UNKNOWN_THING 999") == ("", 0)
    assert device.shell("input tap 99999 5") == ("", 0), "off-screen touches are dropped"


def test_typing_through_input_commands(device):
    width, height = device.screen_size()
    sh(device, f"input swipe {width // 2} {int(height * 0.8)} {width // 2} {int(height * 0.2)} 300")
    search = "com.google.android.apps.nexuslauncher:id/search_container_all_apps"
    left, top, right, bottom = _bounds(device, search)
    sh(device, f"input tap {(left + right) // 2} {(top + bottom) // 2}")
    sh(device, "input keyevent KEYCODE_C KEYCODE_A; input text l")
    icons = re.findall(r'text="([^"]*)" resource-id="com\.google\.android\.apps\.nexuslauncher'
                       r':id/icon"', device.dump_hierarchy())
    assert icons == ["Calculator", "Calendar"]
    sh(device, "input keyevent KEYCODE_DEL 67")
    assert re.search(r'text="c" resource-id="' + re.escape(search), device.dump_hierarchy())


def _bounds(device: SimDevice, resource_id: str) -> tuple[int, ...]:
    xml = device.dump_hierarchy()
    node = re.search(r'<node [^>]*resource-id="' + re.escape(resource_id) + r'"[^>]*>', xml)
    assert node, resource_id
    return tuple(int(v) for v in re.findall(r"\d+", re.search(r'bounds="([^"]+)"',
                                                               node.group(0)).group(1)))


def test_props_and_restart(device):
    assert sh(device, "getprop sys.boot_completed") == "1\n"
    assert sh(device, "getprop no.such.prop") == "\n"
    listing = sh(device, "getprop").splitlines()
    assert listing == sorted(listing) and "[ro.build.version.sdk]: [29]" in listing
    assert not any(line.startswith("[_") for line in listing)
    out, code = device.shell("setprop ro.build.version.sdk 30")
    assert code == 1 and out.startswith("Failed to set property 'ro.build.version.sdk'")
    sh(device, "setprop persist.sys.locale fr-CA")
    assert device.system.locale == "en-US", "the locale is read when the framework starts"
    sh(device, "setprop ctl.restart zygote")
    assert device.system.locale == "fr-CA"


def test_a_framework_restart_counts_system_server_starts(device):
    """sys.boot_completed stays 1 through a runtime restart; the start count tells it."""
    count = lambda: sh(device, "getprop sys.system_server.start_count")  # noqa: E731
    first = int(count())
    sh(device, "setprop ctl.restart zygote")
    assert (count(), sh(device, "getprop sys.boot_completed")) == (f"{first + 1}\n", "1\n")
    sh(device, "reboot")
    assert count() == "1\n"


def test_reboot_clears_the_log(device):
    sh(device, "settings put system screen_brightness 33")
    sh(device, "reboot")
    assert not log_lines(device, "SettingsProvider:V")
    assert sh(device, "settings get system screen_brightness") == "33\n"


def test_a_failing_service_leaves_the_state_as_it_was(device, monkeypatch):
    def broken(dark: bool) -> None:
        device.system.state.settings.put("secure", "ui_night_mode", "2")
        raise RuntimeError("boom")

    monkeypatch.setattr(device.system, "set_night_mode", broken)
    out, code = device.shell("cmd uimode night yes")
    assert code == 255 and "internal error" in out
    assert sh(device, "settings get secure ui_night_mode") == "1\n"
