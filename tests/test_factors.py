"""One-factor-at-a-time configurations and the drop each factor causes."""

from __future__ import annotations

import json
import math

import pytest
from test_eval import bmoca_cli

from bmoca import configs
from bmoca.configs import derive
from bmoca.eval import factors, report
from bmoca.eval.store import EpisodeRow


def test_a_derived_configuration_differs_from_its_base_in_one_factor():
    base = configs.get("train_env_000")  # pixel_3 at density option 1 (330 dpi, font 1.15)
    dense = configs.get("train_env_000+density=2")
    assert (dense.density, dense.font_scale) == (550, 0.85)
    assert (dense.locale, dense.home, dense.wallpaper) == (base.locale, base.home, base.wallpaper)
    tablet = configs.get("train_env_000+device=WXGA_Tablet")
    assert tablet.profile.name == "WXGA_Tablet"
    assert tablet.density == tablet.profile.density_options[1]  # the same density option
    assert configs.get("train_env_000+layout=test_env_104").home == configs.get(
        "test_env_104").home
    assert configs.get("train_env_000+layout=stock").home is None
    rtl = configs.get("train_env_000+locale=ar-EG")
    assert rtl.locale == "ar-EG" and rtl.id == "train_env_000+locale=ar-EG" and rtl.split == ""
    with pytest.raises(KeyError, match="valid: en-US"):
        configs.get("train_env_000+locale=xx-XX")
    with pytest.raises(KeyError, match="factors: device, density"):
        configs.get("train_env_000+locale")


def test_the_grid_skips_values_that_change_nothing():
    grid = derive.one_at_a_time(["train_env_000"], {"dark_theme": ["false", "true"],
                                                    "locale": ["en-US", "ko-KR"]})
    assert grid == ["train_env_000", "train_env_000+dark_theme=true",
                    "train_env_000+locale=ko-KR"]
    assert derive.parse_vary(["locale=ko-KR, ar-EG", "locale=ko-KR"]) == {
        "locale": ["ko-KR", "ar-EG"]}
    with pytest.raises(ValueError, match="unknown factor 'colour'; valid: device"):
        derive.parse_vary(["colour=red"])


def test_the_yaml_data_file_loads_back_as_the_same_configurations(tmp_path):
    ids = ["train_env_000+locale=ko-KR", "test_env_105+density=0", "train_env_000+layout=stock"]
    path = tmp_path / "derived.yaml"
    path.write_text(derive.to_yaml(ids), "utf-8")
    assert configs.load_file(path) == [configs.get(i) for i in ids]


def _ep(config: str, task: str, repeat: int, success: bool) -> EpisodeRow:
    return EpisodeRow(1, "run", "agent", task, config, repeat, 0, "done", success, 1, 0, 0.0,
                      True, False, None, None, None, None, None, None)


def test_drops_are_paired_differences_with_their_standard_error():
    base, ko, ar, dark = ("b", "b+locale=ko-KR", "b+locale=ar-EG", "b+dark_theme=true")
    eps = []
    for task in ("t1", "t2"):
        for repeat in (0, 1):
            eps.append(_ep(base, task, repeat, True))
            eps.append(_ep(dark, task, repeat, True))
            eps.append(_ep(ko, task, repeat, task == "t1"))  # fails t2
            eps.append(_ep(ar, task, repeat, False))  # fails everything
    table = factors.analyse(eps)
    assert table.bases == ["b"]
    assert table.per_value[("dark_theme", "true")].drop == 0.0
    assert table.per_value[("dark_theme", "true")].stderr == 0.0
    ko_drop = table.per_value[("locale", "ko-KR")]
    assert (ko_drop.drop, ko_drop.pairs, ko_drop.success) == (0.5, 4, 0.5)
    assert ko_drop.stderr == pytest.approx(math.sqrt(1 / 3) / 2)  # sd of [0,0,1,1] / sqrt(4)
    assert table.per_value[("locale", "ar-EG")].drop == 1.0
    locale = table.per_factor["locale"]  # each pair averages ko-KR and ar-EG first
    assert locale.drop == pytest.approx(0.75) and locale.pairs == 4
    assert locale.stderr == pytest.approx(math.sqrt(1 / 12) / 2)  # sd of [.5,.5,1,1] / 2
    assert list(table.per_factor) == ["locale", "dark_theme"]  # in FACTORS order
    assert table.cells["locale"]["base"].mean == 1.0
    assert table.cells["locale"]["ar-EG"].mean == 0.0
    header, rows = factors.rows(table)
    assert rows[0][:2] == ["locale", "all"] and rows[0][4] == "+75±14"
    data = factors.to_json(table)
    assert data["factors"]["locale"]["values"]["ko-KR"]["drop"] == 0.5
    assert factors.analyse([_ep(base, "t1", 0, True)]) is None  # no derived configuration


def test_configs_derive_command_and_its_errors(tmp_path):
    result = bmoca_cli("configs", "derive", "train_env_000", "--vary", "locale=ko-KR,ar-EG",
                       "--vary", "dark_theme=true", "--json", "--out", "d.yaml", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert [r["id"] for r in json.loads(result.stdout)] == [
        "train_env_000+locale=ko-KR", "train_env_000+locale=ar-EG",
        "train_env_000+dark_theme=true"]
    assert [c.locale for c in configs.load_file(tmp_path / "d.yaml")] == [
        "ko-KR", "ar-EG", "en-US"]
    wrong = bmoca_cli("configs", "derive", "train_env_000", "--vary", "font=2", cwd=tmp_path)
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert len(wrong.stderr.strip().splitlines()) == 1
    assert "unknown factor 'font'; valid: device, density, locale" in wrong.stderr
    listed = bmoca_cli("configs", "--split", "test", "--json", cwd=tmp_path)
    assert len(json.loads(listed.stdout)) == 10  # the list command still lists


def test_eval_factors_gives_the_expert_no_drop(tmp_path):
    result = bmoca_cli("eval", "--agent", "expert", "--task", "settings/turn_on_wifi",
                       "--task", "clock/create_alarm_at_06:30_am", "--factors", "--vary",
                       "locale=ar-EG", "--vary", "density=2", "--repeats", "1",
                       "--json", "--out", "grid", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data["configs"]) == {"train_env_000", "train_env_000+locale=ar-EG",
                                    "train_env_000+density=2"}
    grid = data["factors"]
    assert grid["bases"] == ["train_env_000"]
    assert {f: v["drop"] for f, v in grid["factors"].items()} == {"density": 0.0, "locale": 0.0}
    assert grid["factors"]["locale"]["pairs"] == 2
    built = report.build(tmp_path / "grid", with_plots=False)
    page = (built.out / "factors.html").read_text("utf-8")
    assert "ar-EG" in page and "drop (pp ± se)" in page
    assert 'href="factors.html"' in built.html.read_text("utf-8")
    lonely = bmoca_cli("eval", "--vary", "locale=ko-KR", cwd=tmp_path)
    assert lonely.returncode == 2 and "only with --factors" in lonely.stderr


def test_a_blind_replay_agent_has_its_drops_attributed_to_geometry(tmp_path):
    result = bmoca_cli("eval", "--agent", "replay:train_env_000", "--task",
                       "settings/turn_on_wifi", "--task", "settings/go_to_bluetooth_setting",
                       "--factors", "--vary", "dark_theme=true", "--vary", "density=2",
                       "--vary", "layout=test_env_104", "--repeats", "1", "--json",
                       "--out", "replay", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    drops = {f: v["drop"] for f, v in data["factors"]["factors"].items()}
    # its taps were recorded on the base: colours do not move them, geometry does
    assert drops == {"density": 1.0, "dark_theme": 0.0, "layout": 1.0}
    eff = data["efficiency"]["overall"]
    # it claims done after its last tap: wrong exactly when the replay missed
    assert (eff["done_claims"], eff["false_done"]) == (4, 4)
    assert data["overall"]["successes"] == 4
    bad = bmoca_cli("eval", "--agent", "replay:nowhere", "--limit", "1", cwd=tmp_path)
    assert bad.returncode == 2 and "unknown configuration 'nowhere'" in bad.stderr
