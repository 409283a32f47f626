"""App labels in every locale live in bmoca.formats, and the simulator's launcher shows them."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import nodes

from bmoca import configs
from bmoca.device import connect
from bmoca.formats.apps import all_apps, by_label, label_in, labels_of
from bmoca.formats.locales import SUPPORTED
from bmoca.sim.i18n import missing_keys, strings

LAUNCHER = "com.google.android.apps.nexuslauncher"


@pytest.mark.parametrize("package", [app.package for app in all_apps()])
def test_every_app_has_a_label_in_every_locale(package):
    for locale in SUPPORTED:
        label = label_in(package, locale)
        assert isinstance(label, str) and label.strip() == label != "", (package, locale)
    assert label_in(package, "en-US") == next(a.label for a in all_apps() if a.package == package)


def test_labels_of_settings_holds_its_names_across_locales():
    labels = labels_of("com.android.settings")
    assert {"Settings", "Einstellungen", "设置"} <= labels
    assert labels == {label_in("com.android.settings", locale) for locale in SUPPORTED}


def test_locale_spellings_are_canonicalized():
    assert label_in("com.android.settings", "zh_hans_cn") == "设置"
    assert label_in("com.android.settings", "de-de") == "Einstellungen"


def test_unknown_package_raises_key_error():
    with pytest.raises(KeyError, match="com.example.nope"):
        label_in("com.example.nope", "en-US")
    with pytest.raises(KeyError):
        labels_of("com.example.nope")


def test_simulator_strings_read_the_labels_from_formats():
    for locale in SUPPORTED:
        table = strings(locale)
        assert missing_keys(locale) == []
        for app in all_apps():
            key = f"app.{app.package}"
            assert table.has(key)
            assert table.get(key) == label_in(app.package, locale)
    # keys that are not one of the 18 apps stay in the simulator's string tables
    assert strings("de-DE").get("app.systemui") == "System-UI"
    assert not strings("de-DE").has("app.com.example.nope")


@pytest.mark.parametrize("locale", ["de-DE", "zh-Hans-CN"])
def test_launcher_shows_the_translated_label(locale):
    config = dataclasses.replace(configs.get("train_env_000"), locale=locale)
    xml = connect("sim", config).dump_hierarchy()
    placed = [*config.home.hotseat.values(), *config.home.workspace.values()]
    assert "Settings" in placed
    for label in placed:
        translated = label_in(by_label(label).package, locale)
        assert nodes(xml, package=LAUNCHER, text=translated), (label, translated)
    settings = label_in("com.android.settings", locale)
    assert settings != "Settings" and nodes(xml, package=LAUNCHER, text=settings)
