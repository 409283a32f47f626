"""Large-screen (sw600dp) layouts on the WXGA tablet, and phones left as they were.

Driven through the device contract: shell commands, taps at element centres, the dump."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import bounds, launch, nodes

from bmoca import configs
from bmoca.device import connect
from bmoca.formats import apps as app_table
from bmoca.sim.apps.launcher.grid import PHONE, TABLET
from bmoca.sim.apps.settings.app import SW600_SEARCH_BAR_DP, SW600_SIDE_MARGIN_DP

TABLET_CONFIG = "test_env_109"  # WXGA 1200x800 px at 160 dpi: 1 px is 1 dp
PHONE_CONFIG = "test_env_100"
CALC = "com.google.android.calculator"
CALC_ACTIVITY = f"{CALC}/com.android.calculator2.Calculator"
LAUNCHER = "com.google.android.apps.nexuslauncher"


def _tablet_at(dpi_index: int):
    return dataclasses.replace(configs.get(TABLET_CONFIG), id=f"tablet_dpi{dpi_index}",
                               density=configs.profile("WXGA_Tablet").density_options[dpi_index])


def _ids(xml: str, package: str, name: str) -> list:
    return nodes(xml, resource_id=f"{package}:id/{name}")


# -- the size class ------------------------------------------------------------------------

@pytest.mark.parametrize("dpi_index", [0, 1, 2])
def test_the_tablet_is_sw600dp_at_every_density_and_the_pixels_are_not(dpi_index):
    tablet = connect("sim", config=_tablet_at(dpi_index))
    assert tablet.shell("wm size")[0].strip().endswith("1200x800")
    assert tablet.system.sw600dp and tablet.system.smallest_width_dp() >= 600
    for config in ("test_env_100", "test_env_106", "test_env_107", "test_env_108"):
        phone = connect("sim", config=configs.get(config))
        assert not phone.system.sw600dp and phone.system.smallest_width_dp() < 600


# -- Settings ------------------------------------------------------------------------------

def _title_rows(xml: str) -> list[tuple[int, int, int, int]]:
    """The clickable preference rows around each title."""
    found = []
    for node in nodes(xml, resource_id="android:id/title"):
        while node is not None and node.get("clickable") != "true":
            node = node.getparent()
        if node is not None:
            found.append(bounds(node))
    return found


@pytest.mark.parametrize("component", ["com.android.settings/.Settings",
                                       "com.android.settings/.SubSettings --es page battery",
                                       "com.android.settings/.SubSettings --es page display"])
def test_settings_content_is_a_centred_column_with_the_sw600dp_margins(component):
    xml = launch(component, TABLET_CONFIG).dump_hierarchy()
    rows = _title_rows(xml)
    assert rows
    for left, _top, right, _bottom in rows:
        assert (left, 1200 - right) == (SW600_SIDE_MARGIN_DP, SW600_SIDE_MARGIN_DP)


def test_settings_search_bar_has_the_sw600dp_height():
    xml = launch("com.android.settings/.Settings", TABLET_CONFIG).dump_hierarchy()
    left, top, right, bottom = bounds(_ids(xml, "com.android.settings", "search_action_bar")[0])
    assert bottom - top == SW600_SEARCH_BAR_DP
    assert left - SW600_SIDE_MARGIN_DP == 1200 - SW600_SIDE_MARGIN_DP - right  # centred


def test_settings_rows_on_a_phone_still_span_the_screen():
    device = launch("com.android.settings/.Settings", PHONE_CONFIG)
    width, _ = device.screen_size()
    for left, _top, right, _bottom in _title_rows(device.dump_hierarchy()):
        assert (left, right) == (0, width)


# -- Calculator ----------------------------------------------------------------------------

ADVANCED = ("toggle_inv", "toggle_mode", "fun_sin", "fun_cos", "fun_tan", "fun_ln", "fun_log",
            "op_fact", "const_pi", "const_e", "op_pow", "lparen", "rparen", "op_sqrt")


def test_calculator_shows_every_advanced_key_beside_the_pads_without_a_drawer():
    device = launch(CALC_ACTIVITY, TABLET_CONFIG)
    xml = device.dump_hierarchy()
    assert not _ids(xml, CALC, "collapse_expand")
    numeric = bounds(_ids(xml, CALC, "pad_numeric")[0])
    operators = bounds(_ids(xml, CALC, "pad_operator")[0])
    advanced = bounds(_ids(xml, CALC, "pad_advanced")[0])
    assert numeric[2] <= operators[0] and operators[2] <= advanced[0]  # side by side, LTR
    assert numeric[1] == advanced[1] and numeric[3] == advanced[3]
    for name in ADVANCED:
        left, top, right, bottom = bounds(_ids(xml, CALC, name)[0])
        assert advanced[0] <= left < right <= advanced[2] and advanced[1] <= top < bottom


def _tap(device, name: str) -> None:
    left, top, right, bottom = bounds(_ids(device.dump_hierarchy(), CALC, name)[0])
    device.tap((left + right) // 2, (top + bottom) // 2)


def _result(device) -> str:
    return _ids(device.dump_hierarchy(), CALC, "result_final")[0].get("text")


def test_calculator_advanced_keys_work_with_one_tap_each_on_the_tablet():
    device = launch(CALC_ACTIVITY, TABLET_CONFIG)
    for name in ("fun_sin", "digit_3", "digit_0", "rparen", "op_add", "op_sqrt", "digit_4",
                 "eq"):
        _tap(device, name)
    assert _result(device) == "2.5"
    before = device.dump_hierarchy()
    device.swipe(1000, 500, 300, 500, 300)  # no drawer to slide: the swipe changes nothing
    assert device.dump_hierarchy() == before


def test_calculator_on_a_phone_keeps_the_advanced_drawer():
    device = launch(CALC_ACTIVITY, PHONE_CONFIG)
    xml = device.dump_hierarchy()
    assert _ids(xml, CALC, "collapse_expand") and not _ids(xml, CALC, "fun_sin")
    _tap(device, "collapse_expand")
    assert _ids(device.dump_hierarchy(), CALC, "fun_sin")


# -- Launcher ------------------------------------------------------------------------------

def _drawer(config) -> tuple[object, str]:
    device = connect("sim", config=config)
    width, height = device.screen_size()
    device.swipe(width // 2, int(height * 0.8), width // 2, int(height * 0.2), 300)
    return device, device.dump_hierarchy()


def _columns(icons: list) -> int:
    first_top = bounds(icons[0])[1]
    return sum(1 for icon in icons if bounds(icon)[1] == first_top)


@pytest.mark.parametrize("dpi_index", [0, 1, 2])
def test_the_tablet_drawer_has_launcher3s_tablet_columns_and_every_app(dpi_index):
    _device, xml = _drawer(_tablet_at(dpi_index))
    icons = _ids(xml, LAUNCHER, "icon")
    assert _columns(icons) == TABLET.drawer_columns == 6
    assert {icon.get("text") for icon in icons} >= {"YouTube", "Chrome", "Gmail"}
    assert len(icons) == len(app_table.all_apps())


def test_the_phone_drawer_keeps_five_columns():
    _device, xml = _drawer(configs.get(PHONE_CONFIG))
    assert _columns(_ids(xml, LAUNCHER, "icon")) == PHONE.drawer_columns == 5


def _icon_cell_width(config) -> int:
    device = connect("sim", config=config)
    xml = device.dump_hierarchy()
    workspace = bounds(_ids(xml, LAUNCHER, "workspace")[0])
    cells = [bounds(n) for n in nodes(xml, clickable="true")
             if n.get("class") == "android.widget.TextView" and n.get("text")
             and workspace[1] <= bounds(n)[1] < workspace[3]]
    assert cells
    return cells[0][2] - cells[0][0]


def test_the_tablet_workspace_has_six_columns_and_a_seven_slot_hotseat():
    config = configs.get("train_env_000+device=WXGA_Tablet")  # a phone layout on the tablet
    device = connect("sim", config=config)
    width, _ = device.screen_size()
    xml = device.dump_hierarchy()
    assert abs(_icon_cell_width(config) - width / TABLET.columns) <= 1
    hotseat = bounds(_ids(xml, LAUNCHER, "hotseat")[0])
    slots = [bounds(n) for n in nodes(xml, clickable="true")
             if n.get("class") == "android.widget.TextView"
             and hotseat[1] <= bounds(n)[1] < hotseat[3]]
    slot_w = width / TABLET.hotseat_icons
    assert slots and all(abs(right - left - slot_w) <= 1 for left, _t, right, _b in slots)
    assert abs(_icon_cell_width(configs.get(PHONE_CONFIG)) - 1080 / PHONE.columns) <= 1


def test_every_tablet_home_icon_opens_its_app():
    """The phone layouts' cells all fit the tablet grid and still launch (data-driven)."""
    config = configs.get("train_env_000+device=WXGA_Tablet")
    xml = connect("sim", config=config).dump_hierarchy()
    labels = [n.get("text") for n in nodes(xml, clickable="true")
              if n.get("class") == "android.widget.TextView" and n.get("text")]
    assert len(labels) >= 10
    for label in labels:
        device = connect("sim", config=config)
        node = nodes(device.dump_hierarchy(), text=label)[0]
        left, top, right, bottom = bounds(node)
        device.tap((left + right) // 2, (top + bottom) // 2)
        assert "nexuslauncher" not in device.shell("dumpsys window | grep mCurrentFocus")[0], label
