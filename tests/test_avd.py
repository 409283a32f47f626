"""`bmoca avd build --dry-run` and `bmoca avd doctor`: the command list B-MoCA's build
runs (set_up.py, reference notes §5), with each configuration applied by `provision()`."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from bmoca.cli.main import app

# Checked by hand against reference/bmoca_envs.csv: test_env_100 (pixel_3, en-US, 440 dpi,
# light), test_env_106 (pixel_4, en-US, 09_rainbow, dark), train_env_004 (pixel_3, dpi
# index 2: 550 dpi with font scale 0.85); each gets B-MoCA's alarms.db and a reboot.
EXPECTED = """\
sdkmanager 'system-images;android-29;google_apis;x86_64' platform-tools emulator
avdmanager create avd --force -n bmoca_pixel_3_test -k 'system-images;android-29;google_apis;x86_64' -d pixel_3
emulator -avd bmoca_pixel_3_test -port 5554 -no-audio -no-window -no-boot-anim -gpu swiftshader_indirect &
adb -s emulator-5554 wait-for-device
adb -s emulator-5554 shell 'while [ "$(getprop sys.boot_completed)" != 1 ]; do sleep 2; done'
adb -s emulator-5554 root
adb -s emulator-5554 wait-for-device
adb -s emulator-5554 shell 'pm disable-user --user 0 com.google.android.apps.docs'
adb -s emulator-5554 shell 'pm disable-user --user 0 com.google.android.videos'
adb -s emulator-5554 shell 'pm disable-user --user 0 com.google.android.music'
adb -s emulator-5554 emu avd snapshot save init
adb -s emulator-5554 emu avd snapshot load init
adb -s emulator-5554 root
adb -s emulator-5554 wait-for-device
adb -s emulator-5554 shell 'setprop persist.sys.locale en-US'
adb -s emulator-5554 push build/test_env_100/wallpaper.png /data/system/users/0/wallpaper
adb -s emulator-5554 shell 'wm density reset'
adb -s emulator-5554 shell 'settings put system font_scale 1.0'
adb -s emulator-5554 shell 'cmd uimode night no'
adb -s emulator-5554 push build/test_env_100/launcher.db /data/data/com.google.android.apps.nexuslauncher/databases/launcher.db
adb -s emulator-5554 shell 'setprop ctl.restart zygote'
adb -s emulator-5554 push build/test_env_100/alarms.db /data/user_de/0/com.google.android.deskclock/databases/alarms.db
adb -s emulator-5554 reboot
adb -s emulator-5554 wait-for-device
adb -s emulator-5554 shell 'while [ "$(getprop sys.boot_completed)" != 1 ]; do sleep 2; done'
adb -s emulator-5554 root
adb -s emulator-5554 wait-for-device
adb -s emulator-5554 emu avd snapshot save test_env_100
adb -s emulator-5554 emu kill
avdmanager create avd --force -n bmoca_pixel_4_test -k 'system-images;android-29;google_apis;x86_64' -d pixel_4
emulator -avd bmoca_pixel_4_test -port 5556 -no-audio -no-window -no-boot-anim -gpu swiftshader_indirect &
adb -s emulator-5556 wait-for-device
adb -s emulator-5556 shell 'while [ "$(getprop sys.boot_completed)" != 1 ]; do sleep 2; done'
adb -s emulator-5556 root
adb -s emulator-5556 wait-for-device
adb -s emulator-5556 shell 'pm disable-user --user 0 com.google.android.apps.docs'
adb -s emulator-5556 shell 'pm disable-user --user 0 com.google.android.videos'
adb -s emulator-5556 shell 'pm disable-user --user 0 com.google.android.music'
adb -s emulator-5556 emu avd snapshot save init
adb -s emulator-5556 emu avd snapshot load init
adb -s emulator-5556 root
adb -s emulator-5556 wait-for-device
adb -s emulator-5556 shell 'setprop persist.sys.locale en-US'
adb -s emulator-5556 push build/test_env_106/wallpaper.png /data/system/users/0/wallpaper
adb -s emulator-5556 shell 'wm density reset'
adb -s emulator-5556 shell 'settings put system font_scale 1.0'
adb -s emulator-5556 shell 'cmd uimode night yes'
adb -s emulator-5556 push build/test_env_106/launcher.db /data/data/com.google.android.apps.nexuslauncher/databases/launcher.db
adb -s emulator-5556 shell 'setprop ctl.restart zygote'
adb -s emulator-5556 push build/test_env_106/alarms.db /data/user_de/0/com.google.android.deskclock/databases/alarms.db
adb -s emulator-5556 reboot
adb -s emulator-5556 wait-for-device
adb -s emulator-5556 shell 'while [ "$(getprop sys.boot_completed)" != 1 ]; do sleep 2; done'
adb -s emulator-5556 root
adb -s emulator-5556 wait-for-device
adb -s emulator-5556 emu avd snapshot save test_env_106
adb -s emulator-5556 emu kill
avdmanager create avd --force -n bmoca_pixel_3_train -k 'system-images;android-29;google_apis;x86_64' -d pixel_3
emulator -avd bmoca_pixel_3_train -port 5558 -no-audio -no-window -no-boot-anim -gpu swiftshader_indirect &
adb -s emulator-5558 wait-for-device
adb -s emulator-5558 shell 'while [ "$(getprop sys.boot_completed)" != 1 ]; do sleep 2; done'
adb -s emulator-5558 root
adb -s emulator-5558 wait-for-device
adb -s emulator-5558 shell 'pm disable-user --user 0 com.google.android.apps.docs'
adb -s emulator-5558 shell 'pm disable-user --user 0 com.google.android.videos'
adb -s emulator-5558 shell 'pm disable-user --user 0 com.google.android.music'
adb -s emulator-5558 emu avd snapshot save init
adb -s emulator-5558 emu avd snapshot load init
adb -s emulator-5558 root
adb -s emulator-5558 wait-for-device
adb -s emulator-5558 shell 'setprop persist.sys.locale en-US'
adb -s emulator-5558 push build/train_env_004/wallpaper.png /data/system/users/0/wallpaper
adb -s emulator-5558 shell 'wm density reset'
adb -s emulator-5558 shell 'wm density 550'
adb -s emulator-5558 shell 'settings put system font_scale 0.85'
adb -s emulator-5558 shell 'cmd uimode night no'
adb -s emulator-5558 push build/train_env_004/launcher.db /data/data/com.google.android.apps.nexuslauncher/databases/launcher.db
adb -s emulator-5558 shell 'setprop ctl.restart zygote'
adb -s emulator-5558 push build/train_env_004/alarms.db /data/user_de/0/com.google.android.deskclock/databases/alarms.db
adb -s emulator-5558 reboot
adb -s emulator-5558 wait-for-device
adb -s emulator-5558 shell 'while [ "$(getprop sys.boot_completed)" != 1 ]; do sleep 2; done'
adb -s emulator-5558 root
adb -s emulator-5558 wait-for-device
adb -s emulator-5558 emu avd snapshot save train_env_004
adb -s emulator-5558 emu kill
"""


def test_dry_run_for_three_configurations():
    result = CliRunner().invoke(app, ["avd", "build", "--dry-run",
                                      "--configs", "test_env_100,test_env_106,train_env_004"])
    assert result.exit_code == 0, result.output
    assert result.output == EXPECTED


def test_dry_run_json_and_apks(tmp_path):
    (tmp_path / "Snapseed-2.20.apk").write_bytes(b"PK")
    result = CliRunner().invoke(app, ["avd", "build", "--dry-run", "--json", "--apks",
                                      str(tmp_path), "--configs", "test_env_100"])
    assert result.exit_code == 0, result.output
    steps = json.loads(result.output)
    installs = [s for s in steps if s["argv"][3:4] == ["install"]]
    assert [s["argv"][-1] for s in installs] == [str(tmp_path / "Snapseed-2.20.apk")]
    assert installs[0]["note"] == "Snapseed 2.20.0.526050212 (1251211)"
    assert steps[-2]["argv"][-4:] == ["avd", "snapshot", "save", "test_env_100"]


def test_bad_configuration_names_the_valid_ones():
    result = CliRunner().invoke(app, ["avd", "build", "--dry-run", "--configs", "nope"])
    assert result.exit_code == 2
    assert "valid" in result.output


def test_doctor_says_what_is_missing_and_how_to_get_it(monkeypatch, tmp_path):
    monkeypatch.setenv("ANDROID_SDK_ROOT", str(tmp_path / "no-sdk"))
    result = CliRunner().invoke(app, ["avd", "doctor", "--json"])
    checks = {c["name"]: c for c in json.loads(result.output)}
    assert result.exit_code == 1
    assert not checks["system image"]["ok"]
    assert "sdkmanager" in checks["system image"]["fix"]
    assert not checks["APK walmart"]["ok"] and "24.19 (24190029)" in checks["APK walmart"]["fix"]
