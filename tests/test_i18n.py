"""String resources in 15 locales, locale switching, right-to-left layout."""

from __future__ import annotations

import dataclasses
import string

import pytest
from conftest import bounds, nodes

from bmoca import configs
from bmoca.device import DeviceConfig, connect
from bmoca.sim.i18n import LOCALES, UnknownLocale, keys, missing_keys, normalize_locale, strings


def _fields(text: str) -> list[str]:
    return sorted(f for _, f, _, _ in string.Formatter().parse(text) if f)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_locale_has_every_string_with_the_same_placeholders(locale):
    assert missing_keys(locale) == []
    table, base = strings(locale), strings("en-US")
    for key in keys():
        assert _fields(table.get(key)) == _fields(base.get(key)), key


def test_locale_names_normalize_and_unknown_ones_fail():
    assert normalize_locale("zh-hans-CN") == "zh-Hans-CN"
    assert normalize_locale("ur_PK") == "ur-PK"
    with pytest.raises(UnknownLocale, match="unsupported locale 'xx-YY'"):
        normalize_locale("xx-YY")


def test_setprop_locale_and_restart_switches_language(device):
    assert nodes(device.dump_hierarchy(), text="Settings")
    device.shell("setprop persist.sys.locale de-DE")
    assert nodes(device.dump_hierarchy(), text="Settings"), "takes effect only after a restart"
    assert device.shell("setprop ctl.restart zygote")[1] == 0
    xml = device.dump_hierarchy()
    assert nodes(xml, text="Einstellungen") and not nodes(xml, text="Settings")


def test_right_to_left_locales_mirror_the_home_screen():
    base = configs.get("train_env_000")  # hotseat slot 0 holds Clock
    ltr = connect("sim", dataclasses.replace(base, locale="en-US"))
    rtl = connect("sim", dataclasses.replace(base, locale="ar-AE"))
    clock_ltr = nodes(ltr.dump_hierarchy(), content_desc="Clock")[0]
    clock_rtl = nodes(rtl.dump_hierarchy(), content_desc=strings("ar-AE").get(
        "app.com.google.android.deskclock"))[0]
    width = ltr.screen_size()[0]
    assert bounds(clock_ltr)[0] < width // 5
    assert bounds(clock_rtl)[2] > width - width // 5


@pytest.mark.parametrize("locale", ["ja-JP", "hi-IN", "ur-PK"])
def test_settings_renders_in_complex_scripts(locale):
    device = connect("sim", DeviceConfig(locale=locale))
    assert device.shell("am start -n com.android.settings/.Settings")[1] == 0
    title = strings(locale).get("settings.network")
    assert nodes(device.dump_hierarchy(), text=title)
    image = device.screenshot()
    assert image.shape == (2160, 1080, 3) and image[200:600].std() > 5


def test_only_walmart_ships_some_languages_and_it_is_english_elsewhere():
    from bmoca.sim.i18n import languages_of_app_strings

    assert languages_of_app_strings() == {"walmart": ("en-US", "es-US")}
    assert strings("de-DE").get("wm.nav.shop") == "Shop"
    assert strings("es-US").get("wm.nav.shop") == "Comprar"


@pytest.mark.parametrize("locale, expected", [
    # ICU's Chinese collation: Han by pinyin (dì 地, diàn 电, jì 计, rì 日, shè 设, shí 时 ...),
    # Han before Latin
    ("zh-Hans-CN", ["地图", "电话", "计算器", "日历", "设置", "时钟", "通讯录", "文件", "相册",
                    "相机", "信息", "Chrome", "Gmail"]),
    # ICU's Japanese: Latin, kana by sound, then kanji in JIS X 0208 order (by reading:
    # 時 ji, 設 setsu, 電 den, 連 ren)
    ("ja-JP", ["Chrome", "カメラ", "カレンダー", "ファイル", "フォト", "マップ", "時計", "設定",
               "電卓", "電話", "連絡帳"]),
])
def test_the_app_drawer_sorts_han_as_icu_does(locale, expected):
    from bmoca.device import DeviceConfig, connect

    device = connect("sim", DeviceConfig(locale=locale))
    width, height = device.screen_size()
    device.swipe(width // 2, int(height * 0.8), width // 2, int(height * 0.2), 300)
    labels = [n.get("text") for n in nodes(device.dump_hierarchy(),
                                           resource_id="com.google.android.apps.nexuslauncher:id/icon")]
    assert [label for label in labels if label in expected] == expected
