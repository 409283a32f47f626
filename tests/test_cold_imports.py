"""A cold start imports only what its path uses (round 4 of the speed issue): PyYAML when
the data cache answers, lxml when no dump is read, Pillow's image plugins when no PNG is
opened. Each shortcut must give what the work it skips gives, which the tests here check
against that work."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bmoca import registration
from bmoca.formats import package_files, shared_prefs, yamlload

PACKAGE = Path(registration.__file__).parent

SKIPPED = ("yaml", "lxml.etree", "PIL.PngImagePlugin", "PIL.JpegImagePlugin",
           "importlib.resources", "zipfile")


def _cold(tmp_path: Path, observation: str) -> list[str]:
    """A new process's `make` and `reset`, with its own data and asset caches (the run
    before it fills them); the modules of `SKIPPED` it imported."""
    env = {**os.environ, "BMOCA_DATA_CACHE": str(tmp_path / "data"),
           "BMOCA_ASSET_CACHE": str(tmp_path / "assets")}
    code = ("import sys, bmoca; env = bmoca.make('settings/turn_on_airplane_mode', "
            f"'test_env_100', observation={observation!r}); env.reset(seed=0); "
            f"print(','.join(m for m in {SKIPPED!r} if m in sys.modules))")
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env=env)
    return [m for m in out.stdout.strip().split(",") if m]


def test_a_warm_pixel_cold_start_imports_none_of_what_it_does_not_use(tmp_path):
    assert _cold(tmp_path, "pixels") == []


# -- YAML read without PyYAML -----------------------------------------------------------

@pytest.mark.parametrize("value", ['"a b"', "'x\"y'", '"a\\\\b"', "'it''s'", '"q" # c',
                                   '"tab\there"', "'50%'", '"a#b"', '"é÷(2!x8!)"', "''",
                                   '"\\u00e9"', "'a\\nb'", '"x\\"y"', "'\u2028'"])
def test_a_quoted_id_reads_as_yaml_reads_it(value):
    plain = registration._unquoted(value)
    assert plain is None or plain == yaml.safe_load(value)
    assert registration._scalars([value, "plain_id"]) == [str(yaml.safe_load(value)),
                                                          "plain_id"]


def test_the_suite_ids_are_read_without_yaml():
    code = ("import sys; from bmoca import registration; ids = registration.suite_task_ids(); "
            "print(len(ids), 'yaml' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "BMOCA_DATA_CACHE": "off"})
    assert out.stdout.split() == [str(len(registration.suite_task_ids())), "False"]


def test_the_suite_ids_are_those_yaml_reads():
    """The line scan gives every task file's ids, in order, as PyYAML reads the files."""
    files = sorted((PACKAGE / "tasks" / "data").glob("*.yaml"))
    read = [task["id"] for path in files
            for task in yaml.safe_load(path.read_text("utf-8")) or ()]
    assert read and list(registration.suite_task_ids()) == read


def test_a_loader_named_or_given_is_one_entry(tmp_path, monkeypatch):
    monkeypatch.setenv("BMOCA_DATA_CACHE", str(tmp_path))
    from bmoca.configs import _FastLoader, _Loader

    text = "? [w, h]\n: 1\n"
    named = yamlload.load(text, "bmoca.configs:_FastLoader", "bmoca.configs:_Loader",
                          cached=True)
    assert named == yamlload.load(text, _FastLoader, _Loader, cached=True) == {("w", "h"): 1}
    assert len(list(tmp_path.iterdir())) == 1


def test_a_cached_text_is_read_without_importing_yaml(tmp_path):
    env = {**os.environ, "BMOCA_DATA_CACHE": str(tmp_path)}
    code = ("import sys; from bmoca.formats import yamlload; "
            "v = yamlload.load('a: [1, x]\\nb: {c: 2.5}\\n', cached=True); "
            "print(repr(v), 'yaml' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env=env).stdout.strip() for _ in range(2)]
    assert runs == ["{'a': [1, 'x'], 'b': {'c': 2.5}} True",
                    "{'a': [1, 'x'], 'b': {'c': 2.5}} False"]


def test_a_broken_text_still_raises_the_yaml_error():
    assert yamlload.yaml_error() is yaml.YAMLError  # imported: the real class
    with pytest.raises(yaml.YAMLError):
        yamlload.load("a: [1, 2\nb: 3\n")


# -- shared prefs read back without lxml ----------------------------------------------------

PREFS = [
    {"a": True, "b": 3, "c": 1.5, "d": "x\ny\tz", "e": "", "f": -0.0, "g": "a&b<c>d\"e'f",
     "h\nname": "v", "big": 10**30, "uni": "é中😀", "off": False},
    {"r": "a\rb"}, {"n": float("nan")}, {"c": "a\x01b"}, {"i": float("-inf")},
    {"s": " lead "}, {"x": "\u2028"}, {}, {"k\x7f": "v"}, {"t": "\t"}, {"z": "\ufffe"},
]


@pytest.mark.parametrize("entries", PREFS, ids=range(len(PREFS)))
def test_a_prefs_file_read_back_is_what_the_xml_parser_reads(entries):
    raw = shared_prefs.dump(entries)
    got, reference = shared_prefs.parse(raw), shared_prefs.parse_xml(raw)
    assert repr(got) == repr(reference)
    assert [type(v) for v in got.values()] == [type(v) for v in reference.values()]
    got["added"] = 1  # the caller's copy: the next read is unchanged
    assert repr(shared_prefs.parse(raw)) == repr(reference)


# -- package files without importlib.resources -----------------------------------------------

def test_package_files_are_where_importlib_resources_finds_them():
    from importlib import resources

    packages = sorted({".".join(p.relative_to(PACKAGE.parent).parent.parts)
                       for p in PACKAGE.rglob("__init__.py")})
    assert "bmoca.tasks" in packages
    for package in packages:
        got, reference = package_files.files(package), resources.files(package)
        assert (type(got), got) == (type(reference), reference), package


def test_a_zipped_package_s_files_come_from_importlib_resources(tmp_path, monkeypatch):
    import zipfile
    from importlib import resources

    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped_pkg/__init__.py", "")
        zipped.writestr("zipped_pkg/data.txt", "inside")
    monkeypatch.syspath_prepend(str(archive))
    got = package_files.files("zipped_pkg")
    assert got.joinpath("data.txt").read_text() == "inside"
    assert type(got) is type(resources.files("zipped_pkg"))
    monkeypatch.delitem(sys.modules, "zipped_pkg")
