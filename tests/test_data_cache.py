"""The data cache (`bmoca.formats.cachedir`: parsed YAML, font cmaps, the sample photo)
changes no object: a process with the cache off, empty, full, damaged or unwritable reads
the same configurations, tasks, strings, cmaps and photo; an entry is never taken for a
text, loader or font it was not made from; and only the package's own files are kept."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
import yaml
from conftest import check_disk_cache

from bmoca.formats import cachedir, yamlload

ENV = cachedir.ENV

READ_ALL = """
import hashlib
from bmoca import configs, registration, tasks
from bmoca.assets.photos import sample_photo
from bmoca.formats import apps, weekdays
from bmoca.sim.i18n import _table
from bmoca.sim.render.fonts import font_cmap

parts = [repr(configs.presets()), repr(tasks.all_tasks()), repr(registration.suite_task_ids()),
         repr(apps.all_apps()), repr(apps.label_in("com.android.settings", "ar-EG")),
         repr(weekdays.week("de-DE")), repr(_table("ar-EG")), repr(_table("en-US")),
         repr(sorted(font_cmap("roboto"))), repr(sorted(font_cmap("arabic"))),
         hashlib.sha256(sample_photo()).hexdigest()]
print(hashlib.sha256("\\0".join(parts).encode()).hexdigest())
"""


def _read_all(setting: str) -> str:
    env = {**os.environ, ENV: setting}
    out = subprocess.run([sys.executable, "-c", READ_ALL], env=env, capture_output=True,
                         text=True, check=True)
    return out.stdout.strip()


def test_cache_off_empty_full_damaged_and_unwritable_read_the_same(tmp_path: Path):
    # taskschema: the mark that a task file's text fits the schema (bmoca.tasks.schema)
    check_disk_cache(_read_all, tmp_path / "data", {"yaml", "cmap", "photo", "taskschema"})


@pytest.fixture
def folder(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv(ENV, str(tmp_path / "data"))
    return tmp_path / "data"


def test_an_edited_text_is_parsed_again(folder: Path):
    assert yamlload.load("a: 1\nb: [x, y]\n", cached=True) == {"a": 1, "b": ["x", "y"]}
    assert yamlload.load("a: 1\nb: [x, y]\n", cached=True) == {"a": 1, "b": ["x", "y"]}
    assert len(list(folder.iterdir())) == 1
    edited = yamlload.load("a: 2\nb: [x, y]\n", cached=True)
    assert edited == {"a": 2, "b": ["x", "y"]}, "the entry of the text before the edit"
    assert len(list(folder.iterdir())) == 2


def test_an_entry_belongs_to_its_loader(folder: Path):
    from bmoca.configs import _FastLoader, _Loader

    text = "? [w, h]\n: 1\n"  # the configurations' loader makes a tuple of a list key
    assert yamlload.load(text, _FastLoader, _Loader, cached=True) == {("w", "h"): 1}
    with pytest.raises(yaml.YAMLError):  # PyYAML's safe loader cannot hash the list
        yamlload.load(text, cached=True)
    assert len(list(folder.iterdir())) == 1


def test_the_same_types_come_back(folder: Path):
    text = "a: [1, 1.0, true, null, '1', !!binary aGk=]\n? [w, h]\n: !!set {x: null}\n"
    from bmoca.configs import _FastLoader, _Loader

    parsed = yamlload.parse(text, _FastLoader, _Loader)
    yamlload.load(text, _FastLoader, _Loader, cached=True)
    kept = yamlload.load(text, _FastLoader, _Loader, cached=True)
    assert repr(kept) == repr(parsed)
    assert [type(v) for v in kept["a"]] == [int, float, bool, type(None), str, bytes]


def test_an_entry_that_is_not_marshal_data_is_parsed_again(folder: Path):
    yamlload.load("k: v\n", cached=True)
    (entry,) = folder.iterdir()
    cachedir.write(entry, b"\xff not marshal")  # a whole entry (its digest checks) of junk
    assert yamlload.load("k: v\n", cached=True) == {"k": "v"}
    assert marshal.loads(cachedir.read(entry)) == {"k": "v"}, "made again"


def test_dates_and_broken_texts_are_not_kept(folder: Path):
    from bmoca.tasks.loader import _FastYamlLoader, _YamlLoader

    when = yamlload.load("at: 2024-05-01 10:00:00\n", _FastYamlLoader, _YamlLoader, cached=True)
    assert str(when["at"]) == "2024-05-01 10:00:00"
    bad = "a: [1, 2\nb: 3\n"
    with pytest.raises(yaml.YAMLError) as reference:
        yaml.load(bad, Loader=yaml.SafeLoader)  # noqa: S506
    with pytest.raises(yaml.YAMLError) as ours:
        yamlload.load(bad, cached=True)
    assert str(ours.value) == str(reference.value)
    assert not folder.exists() or not list(folder.iterdir())


def test_only_the_package_files_are_kept(folder: Path, tmp_path: Path):
    from bmoca import configs, tasks

    def copy(package: str, name: str, note: str) -> Path:
        path = tmp_path / f"{note}-{name}"
        text = (resources.files(package) / "data" / name).read_text("utf-8")
        path.write_text(f"{text}# {note}\n", "utf-8")
        return path

    # the first reads may read the package's own files too (device profiles, app tables)
    configs.load_file(copy("bmoca.configs", "presets.yaml", "first"))
    tasks.load_file(copy("bmoca.tasks", "settings.yaml", "first"))
    kept = set(folder.iterdir()) if folder.exists() else set()
    assert configs.load_file(copy("bmoca.configs", "presets.yaml", "mine"))
    assert tasks.load_file(copy("bmoca.tasks", "settings.yaml", "mine"))
    yamlload.load("a: 1\n")
    now = set(folder.iterdir()) if folder.exists() else set()
    assert now == kept, "a user's file, or a call without cached=True"


def test_font_files_are_the_ones_fontpkg_names_and_cmaps_the_ones_fonttools_reads(folder):
    import fontpkg

    from bmoca.sim.render import fonts

    for family in ("Roboto", "Noto Sans", "Noto Sans Arabic", "Noto Sans Devanagari"):
        assert fonts._family_file(family) == str(fontpkg.path(family))
    for key in ("roboto", "devanagari", "cjk-ja"):
        fonts.font_cmap.cache_clear()
        assert fonts.font_cmap(key) == frozenset(fonts._read_cmap(fonts.font_face(key)))
        fonts.font_cmap.cache_clear()
        assert fonts.font_cmap(key) == frozenset(fonts._read_cmap(fonts.font_face(key)))
    assert len(list(folder.glob("cmap-*"))) == 3


def test_off_means_no_directory(monkeypatch, tmp_path: Path):
    for value in ("off", "0", "no", "False"):
        monkeypatch.setenv(ENV, value)
        assert cachedir.directory() is None
        assert cachedir.cached_bytes("x", b"k", lambda: b"made") == b"made"
    monkeypatch.setenv(ENV, str(tmp_path))
    assert cachedir.directory() == tmp_path


@pytest.mark.reliability
def test_an_entry_rewritten_without_the_users_key_is_not_read(folder: Path, tmp_path, monkeypatch):
    """Issue 35: an entry whose content was rewritten and its SHA-256 recomputed (all a
    plain content digest asks for) changed a task's step limit; entries are sealed with an
    HMAC under a per-user key now, so the forgery is parsed again from the real text."""
    import hashlib

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    cachedir._user_key.cache_clear()
    text = "id: demo\nstep_limit: 6\n"
    assert yamlload.load(text, cached=True)["step_limit"] == 6
    entry, = folder.iterdir()
    forged = marshal.dumps({"id": "demo", "step_limit": 999})
    entry.write_bytes(forged + hashlib.sha256(forged).digest())
    assert yamlload.load(text, cached=True)["step_limit"] == 6
    key = tmp_path / "xdg" / "bmoca" / cachedir.SEAL_NAME
    assert key.is_file() and key.stat().st_mode & 0o777 == 0o600
    key.chmod(0o644)  # a key others can read seals nothing: the cache is not used
    cachedir._user_key.cache_clear()
    assert yamlload.load("id: other\n", cached=True) == {"id": "other"}
    assert sorted(p.name for p in folder.iterdir()) == [entry.name]
    cachedir._user_key.cache_clear()
