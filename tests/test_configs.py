"""Configuration data: profiles, the 45 presets, user files, the seeded generator, provision."""

from __future__ import annotations

import sys
import types
from dataclasses import replace

import numpy as np
import pytest

from bmoca import configs
from bmoca.configs import ConfigError
from bmoca.device.config import PIXEL_3, DeviceConfig, HomeLayout
from bmoca.device.contract import Device
from bmoca.device.provision import ProvisionError, provision
from bmoca.formats import launcher_db


def test_profiles():
    profs = configs.profiles()
    assert list(profs) == ["pixel_3", "pixel_4", "pixel_4_xl", "pixel_5", "pixel_6", "WXGA_Tablet"]
    assert profs["pixel_3"] == PIXEL_3
    assert profs["pixel_6"].density == 420 and profs["pixel_6"].density_options == (440, 330, 700)
    tablet = configs.profile("wxga_tablet")
    assert (tablet.width, tablet.height, tablet.landscape) == (1200, 800, True)
    with pytest.raises(KeyError, match="pixel_9"):
        configs.profile("pixel_9")


def test_ids_and_splits():
    assert len(configs.ids()) == 45 and configs.ids("all") == configs.ids()
    train, test = configs.ids("train"), configs.ids("test")
    assert len(train) == 35 and len(test) == 10
    assert train[0] == "train_env_000" and train[-1] == "train_env_034"
    assert test == [f"test_env_{i}" for i in range(100, 110)]
    with pytest.raises(ValueError, match="unknown split"):
        configs.ids("valid")


def test_preset_values():
    c = configs.get("train_env_000")
    assert (c.profile.name, c.density, c.font_scale, c.locale, c.wallpaper, c.dark_theme,
            c.split) == ("pixel_3", 330, 1.15, "en-US", "00_default", False, "train")
    assert c.home.hotseat == {0: "Clock", 1: "Messages", 3: "Chrome", 4: "Maps"}
    assert c.home.workspace[(0, 1)] == "Instagram" and len(c.home.workspace) == 14
    assert configs.get("train_env_025").locale == "zh-Hans-CN"
    t108 = configs.get("test_env_108")
    assert (t108.profile.name, t108.density, t108.font_scale, t108.locale) == \
        ("pixel_6", 700, 0.85, "ur-PK")
    assert t108.home == HomeLayout({}, {(0, 2): "Phone", (0, 3): "Messages"})
    t109 = configs.get("test_env_109")
    assert t109.profile.landscape and t109.profile.name == "WXGA_Tablet"
    assert (t109.density, t109.locale, t109.wallpaper) == (160, "ar-EG", "11_pyramid")
    assert t109.home == HomeLayout({}, {(3, 4): "YouTube"})
    # repeated layouts the reference notes point out
    assert configs.get("train_env_007").home == configs.get("train_env_021").home
    assert configs.get("test_env_102").home == configs.get("test_env_106").home


def test_preset_distribution():
    train = [configs.get(i) for i in configs.ids("train")]
    assert {c.profile.name for c in train} == {"pixel_3"}
    assert {c.locale for c in train} == set(configs.TRAIN_LOCALES)
    assert {c.wallpaper for c in train} == set(configs.TRAIN_WALLPAPERS)
    everything = configs.presets().values()
    assert {c.locale for c in everything} == set(configs.LOCALES)
    assert "06_bubble" not in {c.wallpaper for c in everything}


def test_presets_returns_a_copy():
    configs.presets().clear()
    assert len(configs.presets()) == 45


def test_unknown_id_suggests():
    with pytest.raises(KeyError) as info:
        configs.get("test_env_10")
    message = str(info.value)
    assert "test_env_100" in message and "did you mean" in message
    assert "train_env_000..train_env_034" in message and "test_env_100..test_env_109" in message


GOOD = """
configs:
  - id: mine
    device: pixel_5
    dpi_index: 2
    locale: zh_hans_cn
    wallpaper: "12_ocean"
    dark_theme: true
    hotseat: {0: phone}
    workspace:
      [1, 2]: Maps
      3,4: Gmail
  - id: plain
"""


def test_load_file(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text(GOOD)
    mine, plain = configs.load_file(path)
    assert (mine.profile.name, mine.density, mine.font_scale, mine.locale) == \
        ("pixel_5", 550, 0.85, "zh-Hans-CN")
    assert mine.home == HomeLayout({0: "Phone"}, {(1, 2): "Maps", (3, 4): "Gmail"})
    assert plain == DeviceConfig(id="plain")  # defaults: Pixel 3, stock home


@pytest.mark.parametrize("line, fieldname, fragment", [
    ("  device: pixel_9", "device", "unknown profile 'pixel_9'"),
    ("  wallpaper: 99_moon", "wallpaper", "unknown wallpaper '99_moon'"),
    ("  locale: xx-YY", "locale", "unsupported locale 'xx-YY'"),
    ("  density: 480", "density", "480 is not one of pixel_3's options"),
    ("  hotseat: {0: Twitter}", "hotseat[0]", "unknown app 'Twitter'"),
    ("  hotseat: {5: Maps}", "hotseat", "slot 5 out of range"),
    ("  workspace: {[2, 0]: Maps}", "workspace", "cell [2, 0] out of range"),
    ("  workspace: {[5, 1]: Maps}", "workspace", "cell [5, 1] out of range"),
    ("  dark_theme: maybe", "dark_theme", "not true or false"),
    ("  colour: red", "colour", "unknown field"),
    ("  dpi_index: 1\n  density: 440", "density", "disagrees with dpi_index 1"),
])
def test_broken_file(tmp_path, line, fieldname, fragment):
    path = tmp_path / "broken.yaml"
    path.write_text(f"- id: ok\n- id: env_bad\n{line}\n")
    with pytest.raises(ConfigError) as info:
        configs.load_file(path)
    message = str(info.value)
    assert message.startswith(f"{path}: env_bad: {fieldname}: "), message
    assert fragment in message


def test_broken_yaml(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("- id: a\n  hotseat: {0: [\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        configs.load_file(path)
    path.write_text("- id: a\n- id: a\n")
    with pytest.raises(ConfigError, match="a: id: duplicate id"):
        configs.load_file(path)


def test_validate_objects():
    configs.validate(DeviceConfig())
    with pytest.raises(ConfigError, match="density: 500"):
        configs.validate(DeviceConfig(id="x", density=500))
    with pytest.raises(ConfigError, match="locale"):
        configs.validate(DeviceConfig(id="x", locale="en-GB"))


@pytest.mark.parametrize("split", ["train", "test"])
def test_random_config_is_seeded(split):
    a, b = configs.random_config(7, split), configs.random_config(7, split)
    assert a == b and a.id == f"random_{split}_7" and a.split == split
    assert hash(a) == hash(b)
    assert configs.random_config(8, split) != a
    assert configs.get(f"random_{split}_7") == a
    state = np.random.get_state()[1].copy()
    configs.random_config(9, split)
    assert (np.random.get_state()[1] == state).all()  # no global random state used


def test_random_config_distributions():
    train = [configs.random_config(s, "train") for s in range(200)]
    test = [configs.random_config(s, "test") for s in range(200)]
    for c in train + test:
        configs.validate(c)
        labels = list(c.home.hotseat.values()) + list(c.home.workspace.values())
        assert len(labels) == len(set(labels))  # distinct apps
        assert launcher_db.to_home(launcher_db.read(launcher_db.build(c.home))) == c.home
    for c in train:
        assert c.profile.name == "pixel_3" and c.locale in configs.TRAIN_LOCALES
        assert c.wallpaper in configs.TRAIN_WALLPAPERS
        assert 2 <= len(c.home.hotseat) <= 5 and 3 <= len(c.home.workspace) <= 16
    assert len({c.density for c in train}) == 3
    assert 0.2 < sum(c.dark_theme for c in train) / len(train) < 0.6
    assert {c.profile.name for c in test} == {"pixel_3", "pixel_4", "pixel_5", "pixel_6",
                                              "WXGA_Tablet"}
    assert {c.locale for c in test} == set(configs.LOCALES)
    with pytest.raises(ValueError):
        configs.random_config(1, "valid")


def test_random_phones_put_the_training_draw_on_generated_phones():
    """Device randomization: random_train_<seed> on a phone no preset uses, in the same
    density option, so only the device changes."""
    phones = [configs.get(f"random_phones_{s}") for s in range(200)]
    for seed, phone in enumerate(phones):
        train = configs.random_config(seed, "train")
        option = train.profile.density_options.index(train.density)
        prof = phone.profile
        assert phone.id == f"random_phones_{seed}" and phone.split == ""
        assert (phone.locale, phone.wallpaper, phone.dark_theme, phone.home) == (
            train.locale, train.wallpaper, train.dark_theme, train.home)
        assert prof.name == configs.GENERATED_PHONE and not prof.landscape
        assert prof.width == 1080 and 1920 <= prof.height <= 2520 and prof.height % 8 == 0
        assert 380 <= prof.density <= 500
        assert prof.density_options == (prof.density, round(prof.density * 0.75),
                                        round(prof.density * 1.25))
        assert (phone.density, phone.font_scale) == (prof.density_options[option],
                                                     prof.font_scale_options[option])
        configs.validate(phone)
    assert len({p.profile.height for p in phones}) > 40  # a continuum, not a few models
    assert configs.get("random_phones_5") == configs.random_config(5, "phones")
    assert configs.expand("random_phones_0..2") == [f"random_phones_{s}" for s in range(3)]
    presets = {(c.profile.width, c.profile.height) for c in configs.presets().values()}
    assert len({(p.profile.width, p.profile.height) for p in phones} - presets) > 40
    with pytest.raises(ValueError, match="train, test, phones"):
        configs.random_config(1, "tablets")
    with pytest.raises(KeyError, match="random_phones_<seed>"):
        configs.get("random_tablets_1")


# -- provision ---------------------------------------------------------------------


class FakeDevice(Device):
    """Records shell commands and pushes; fails the commands it is told to."""

    serial = "fake"

    def __init__(self, fail: str | None = None):
        self.log: list[tuple[str, object]] = []
        self.files: dict[str, bytes] = {}
        self.fail = fail

    def shell(self, cmd):
        self.log.append(("shell", cmd))
        if self.fail and cmd.startswith(self.fail):
            return "Error: permission denied\n", 1
        return "", 0

    def push(self, data, path):
        self.log.append(("push", path))
        self.files[path] = data

    def screen_size(self): return (1080, 2160)
    def screenshot(self): return np.zeros((2, 2, 3), np.uint8)
    def dump_hierarchy(self): return ""
    def tap(self, x, y): pass
    def swipe(self, x1, y1, x2, y2, duration_ms=300): pass
    def press(self, key): pass
    def input_text(self, text): pass
    def pull(self, path): return self.files[path]
    def snapshot_save(self, name): pass
    def snapshot_load(self, name): pass


@pytest.fixture
def fake_wallpapers(monkeypatch):
    module = types.ModuleType("bmoca.assets.wallpapers")
    module.generate = lambda name, w, h: (name, w, h)
    module.encode_png = lambda img: repr(img).encode()
    monkeypatch.setitem(sys.modules, "bmoca.assets.wallpapers", module)


def test_provision_commands(fake_wallpapers):
    dev = FakeDevice()
    provision(dev, configs.get("test_env_108"))
    assert dev.log == [
        ("shell", "setprop persist.sys.locale ur-PK"),
        ("push", "/data/system/users/0/wallpaper"),
        ("shell", "wm density reset"),
        ("shell", "wm density 700"),
        ("shell", "settings put system font_scale 0.85"),
        ("shell", "cmd uimode night yes"),
        ("push", launcher_db.DEVICE_PATH),
        ("shell", "setprop ctl.restart zygote"),
    ]
    assert dev.files["/data/system/users/0/wallpaper"] == b"('05_doughnut', 1080, 2400)"
    assert launcher_db.to_home(launcher_db.read(dev.files[launcher_db.DEVICE_PATH])) == \
        configs.get("test_env_108").home


def test_provision_native_density_and_stock_home(fake_wallpapers):
    dev = FakeDevice()
    provision(dev, replace(DeviceConfig(), home=None))
    cmds = [c for kind, c in dev.log if kind == "shell"]
    assert "wm density reset" in cmds and not any(c.startswith("wm density 4") for c in cmds)
    assert "cmd uimode night no" in cmds and "settings put system font_scale 1.0" in cmds
    assert launcher_db.DEVICE_PATH not in dev.files


def test_provision_resizes_an_emulator_to_a_generated_phone(fake_wallpapers):
    """No emulator hardware profile has a generated phone's size: the AVD is a Pixel 3
    (bmoca.device.avd) and provisioning overrides its display size and density."""
    dev = FakeDevice()
    phone = configs.get("random_phones_3")
    provision(dev, phone)
    cmds = [c for kind, c in dev.log if kind == "shell"]
    size = f"wm size {phone.profile.width}x{phone.profile.height}"
    assert cmds[:4] == [f"setprop persist.sys.locale {phone.locale}", "wm density reset", size,
                        f"wm density {phone.density}"]


def test_provision_reports_failures(fake_wallpapers):
    with pytest.raises(ProvisionError, match=r"`cmd uimode night yes` failed with exit code 1: "
                                             r"Error: permission denied"):
        provision(FakeDevice(fail="cmd uimode"), configs.get("train_env_007"))


def test_id_lists_take_ranges():
    assert configs.expand("train_env_000..002, test_env_109") == [
        "train_env_000", "train_env_001", "train_env_002", "test_env_109"]
    assert configs.expand("random_train_8..random_train_10") == [
        "random_train_8", "random_train_9", "random_train_10"]
    with pytest.raises(ValueError, match="empty configuration range"):
        configs.expand("random_test_5..2")
    with pytest.raises(KeyError, match="unknown configuration 'train_env_035'"):
        configs.expand("train_env_030..036")
